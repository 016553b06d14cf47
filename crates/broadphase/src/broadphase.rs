//! The [`Broadphase`] structure: proxies, their fat boxes in two trees, and
//! the edits (insert, update, remove). Pair finding is in `pairs.rs`, queries
//! in `queries.rs`.
//!
//! Fat boxes: a dynamic proxy's tree box is its tight box grown by
//! [`BroadphaseConfig::margin`] on every side. An update whose new tight box
//! still fits inside the fat box changes nothing (no tree work, no pair work);
//! otherwise the fat box is recomputed from the new tight box and the leaf is
//! re-inserted. Static proxies use no margin (they seldom move, and a margin on
//! both sides of a dynamic/static pair would only add false candidates). A proxy
//! updated with its displacement ([`Broadphase::update_moving`]) gets a fat box that
//! also reaches [`BroadphaseConfig::prediction`] displacements ahead, so a body in
//! steady flight leaves it every few steps instead of every step or two.

use crate::error::{check_aabb, check_non_negative, BroadphaseError};
use crate::proxy::{KeyMap, Proxy, ProxyKind};
use crate::tree::{BuildLeaf, Tree};
use fathom_math::{Aabb, Dim, Real, Space, Vector};

/// Tuning of a [`Broadphase`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BroadphaseConfig {
    /// How much a dynamic proxy's fat box exceeds its tight box on every side,
    /// in world units (metres). Larger: fewer re-insertions, more candidate pairs.
    pub margin: Real,
    /// How many displacements ahead a moving proxy's re-inserted fat box reaches
    /// ([`Broadphase::update_moving`]); 0 turns prediction off. Larger: fewer
    /// re-insertions of fast bodies, longer fat boxes.
    pub prediction: Real,
    /// Pair updates with at least this many moved proxies run on rayon;
    /// the result is identical either way. `usize::MAX` keeps it serial.
    pub parallel_threshold: usize,
}

impl Default for BroadphaseConfig {
    fn default() -> Self {
        Self {
            margin: 0.1,
            prediction: 4.0,
            parallel_threshold: 512,
        }
    }
}

/// Sizes of the structure, for diagnostics.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BroadphaseStats {
    /// Number of static proxies.
    pub static_proxies: usize,
    /// Number of dynamic proxies.
    pub dynamic_proxies: usize,
    /// Height of the static tree (0 for one leaf or none).
    pub static_height: u32,
    /// Height of the dynamic tree (0 for one leaf or none).
    pub dynamic_height: u32,
    /// Overlapping pairs as of the last pair update.
    pub pairs: usize,
}

/// A broadphase over `D`-dimensional boxes keyed by user `u64`s; see the crate docs.
#[derive(Clone, Debug)]
pub struct Broadphase<const D: usize> {
    pub(crate) config: BroadphaseConfig,
    /// Index 0: static tree, 1: dynamic tree ([`ProxyKind::tree`]).
    pub(crate) trees: [Tree<D>; 2],
    pub(crate) proxies: Vec<Option<Proxy<D>>>,
    free_slots: Vec<u32>,
    slots: KeyMap,
    /// Slots whose fat box changed since the last pair update (may hold stale
    /// or repeated slots; the proxy's `moved` flag is the truth).
    pub(crate) moved: Vec<u32>,
    /// Pairs ended by removals since the last pair update.
    pub(crate) removed_pairs: Vec<(u64, u64)>,
    /// Number of overlapping pairs (each counted once).
    pub(crate) pair_count: usize,
}

impl<const D: usize> Default for Broadphase<D>
where
    Space<D>: Dim<D>,
{
    fn default() -> Self {
        Self::with_config_unchecked(BroadphaseConfig::default())
    }
}

impl<const D: usize> Broadphase<D>
where
    Space<D>: Dim<D>,
{
    /// An empty broadphase with the default configuration.
    pub fn new() -> Self {
        Self::default()
    }

    /// An empty broadphase; fails when the margin or the prediction is negative or
    /// not finite, or the parallel threshold is 0.
    pub fn with_config(config: BroadphaseConfig) -> Result<Self, BroadphaseError> {
        check_non_negative("config.margin", config.margin)?;
        check_non_negative("config.prediction", config.prediction)?;
        if config.parallel_threshold == 0 {
            return Err(BroadphaseError::InvalidArgument {
                field: "config.parallel_threshold",
                reason: "must be >= 1",
            });
        }
        Ok(Self::with_config_unchecked(config))
    }

    fn with_config_unchecked(config: BroadphaseConfig) -> Self {
        Self {
            config,
            trees: [Tree::default(), Tree::default()],
            proxies: Vec::new(),
            free_slots: Vec::new(),
            slots: KeyMap::default(),
            moved: Vec::new(),
            removed_pairs: Vec::new(),
            pair_count: 0,
        }
    }

    /// The configuration.
    pub fn config(&self) -> &BroadphaseConfig {
        &self.config
    }

    /// Sets the rayon threshold of pair updates (see [`BroadphaseConfig::parallel_threshold`]);
    /// `0` is treated as `1`.
    pub fn set_parallel_threshold(&mut self, threshold: usize) {
        self.config.parallel_threshold = threshold.max(1);
    }

    /// Number of proxies.
    pub fn len(&self) -> usize {
        self.slots.len()
    }

    /// True when there is no proxy.
    pub fn is_empty(&self) -> bool {
        self.slots.is_empty()
    }

    /// True when a proxy has this key.
    pub fn contains(&self, key: u64) -> bool {
        self.slots.contains_key(&key)
    }

    /// Sizes and tree heights.
    pub fn stats(&self) -> BroadphaseStats {
        BroadphaseStats {
            static_proxies: self.trees[0].len(),
            dynamic_proxies: self.trees[1].len(),
            static_height: self.trees[0].height(),
            dynamic_height: self.trees[1].height(),
            pairs: self.pair_count,
        }
    }

    /// The tight box last given for `key` (world frame).
    pub fn aabb(&self, key: u64) -> Result<Aabb<D>, BroadphaseError> {
        Ok(self.proxy(self.slot(key)?).tight)
    }

    /// The fat box of `key` (world frame): the box pairs are found on.
    pub fn fat_aabb(&self, key: u64) -> Result<Aabb<D>, BroadphaseError> {
        let p = self.proxy(self.slot(key)?);
        Ok(*self.trees[p.kind.tree()].leaf_aabb(p.leaf))
    }

    /// The kind of `key`.
    pub fn kind(&self, key: u64) -> Result<ProxyKind, BroadphaseError> {
        Ok(self.proxy(self.slot(key)?).kind)
    }

    /// The fat margin used for a kind (0 for static proxies).
    pub fn margin_of(&self, kind: ProxyKind) -> Real {
        match kind {
            ProxyKind::Static => 0.0,
            ProxyKind::Dynamic => self.config.margin,
        }
    }

    /// Checks the trees' invariants (parent links, enclosing boxes, heights,
    /// leaf counts); meant for tests and debugging, `O(n)`.
    pub fn validate(&self) -> Result<(), String> {
        self.trees[0].check()?;
        self.trees[1].check()?;
        for (s, p) in self.proxies.iter().enumerate() {
            let Some(p) = p else { continue };
            let fat = self.trees[p.kind.tree()].leaf_aabb(p.leaf);
            if !fat.contains(&p.tight) {
                return Err(format!(
                    "proxy {}: fat box does not contain tight box",
                    p.key
                ));
            }
            if self.slots.get(&p.key) != Some(&(s as u32)) {
                return Err(format!("proxy {}: key map points elsewhere", p.key));
            }
        }
        Ok(())
    }

    pub(crate) fn slot(&self, key: u64) -> Result<u32, BroadphaseError> {
        self.slots
            .get(&key)
            .copied()
            .ok_or(BroadphaseError::UnknownKey { key })
    }

    #[inline]
    pub(crate) fn proxy(&self, slot: u32) -> &Proxy<D> {
        self.proxies[slot as usize].as_ref().expect("live slot")
    }

    #[inline]
    pub(crate) fn proxy_mut(&mut self, slot: u32) -> &mut Proxy<D> {
        self.proxies[slot as usize].as_mut().expect("live slot")
    }

    /// The fat box of a live slot.
    #[inline]
    pub(crate) fn fat_of(&self, slot: u32) -> &Aabb<D> {
        let p = self.proxy(slot);
        self.trees[p.kind.tree()].leaf_aabb(p.leaf)
    }

    /// Adds a proxy with a tight box (world frame). Its pairs appear at the next
    /// [`Broadphase::update_pairs`]. Fails on a bad box or a key already present.
    pub fn insert(
        &mut self,
        key: u64,
        aabb: Aabb<D>,
        kind: ProxyKind,
    ) -> Result<(), BroadphaseError> {
        check_aabb("aabb", &aabb)?;
        if self.slots.contains_key(&key) {
            return Err(BroadphaseError::DuplicateKey { key });
        }
        let slot = self.new_slot(key, aabb, kind);
        let fat = aabb.loosened(self.margin_of(kind));
        let leaf = self.trees[kind.tree()].insert(fat, slot);
        self.proxy_mut(slot).leaf = leaf;
        Ok(())
    }

    fn new_slot(&mut self, key: u64, tight: Aabb<D>, kind: ProxyKind) -> u32 {
        let proxy = Proxy {
            key,
            tight,
            kind,
            leaf: 0,
            partners: Vec::new(),
            moved: true,
            group: None,
        };
        let slot = match self.free_slots.pop() {
            Some(s) => {
                self.proxies[s as usize] = Some(proxy);
                s
            }
            None => {
                self.proxies.push(Some(proxy));
                (self.proxies.len() - 1) as u32
            }
        };
        self.slots.insert(key, slot);
        self.moved.push(slot);
        slot
    }

    /// Puts the proxy `key` in `group` (or in none): proxies of one group never pair, like
    /// the colliders of one body. Its pairs change at the next [`Broadphase::update_pairs`].
    pub fn set_group(&mut self, key: u64, group: Option<u64>) -> Result<(), BroadphaseError> {
        let slot = self.slot(key)?;
        let proxy = self.proxy_mut(slot);
        if proxy.group != group {
            proxy.group = group;
            proxy.moved = true;
            self.moved.push(slot);
        }
        Ok(())
    }

    /// True when the proxies in slots `a` and `b` share a group (and so never pair).
    pub(crate) fn same_group(&self, a: u32, b: u32) -> bool {
        let (ga, gb) = (self.proxy(a).group, self.proxy(b).group);
        ga.is_some() && ga == gb
    }

    /// Adds many proxies at once. All input is checked first (bad boxes,
    /// duplicate keys, including within the batch); on error nothing changes.
    /// When a batch is at least as large as the tree it joins, that tree is
    /// rebuilt in bulk (binned SAH, parallel) instead of growing leaf by leaf.
    pub fn insert_many(
        &mut self,
        items: impl IntoIterator<Item = (u64, Aabb<D>, ProxyKind)>,
    ) -> Result<(), BroadphaseError> {
        let items: Vec<_> = items.into_iter().collect();
        let mut keys = KeyMap::default();
        for (i, (key, aabb, _)) in items.iter().enumerate() {
            check_aabb("items[].aabb", aabb)?;
            if self.slots.contains_key(key) || keys.insert(*key, i as u32).is_some() {
                return Err(BroadphaseError::DuplicateKey { key: *key });
            }
        }
        for kind in [ProxyKind::Static, ProxyKind::Dynamic] {
            let batch: Vec<_> = items.iter().filter(|it| it.2 == kind).collect();
            if batch.len() >= self.trees[kind.tree()].len() && !batch.is_empty() {
                self.rebuild_with(kind, &batch);
            } else {
                for &&(key, aabb, kind) in &batch {
                    self.insert(key, aabb, kind)?;
                }
            }
        }
        Ok(())
    }

    /// Adds `batch` (all of `kind`, already checked) and bulk-rebuilds that tree.
    fn rebuild_with(&mut self, kind: ProxyKind, batch: &[&(u64, Aabb<D>, ProxyKind)]) {
        let margin = self.margin_of(kind);
        let t = kind.tree();
        let mut leaves = Vec::with_capacity(self.trees[t].len() + batch.len());
        self.trees[t].for_each_leaf(|id, slot| {
            leaves.push(BuildLeaf {
                aabb: *self.trees[t].leaf_aabb(id),
                payload: slot,
            })
        });
        for &&(key, aabb, kind) in batch {
            let slot = self.new_slot(key, aabb, kind);
            leaves.push(BuildLeaf {
                aabb: aabb.loosened(margin),
                payload: slot,
            });
        }
        let mut tree = std::mem::take(&mut self.trees[t]);
        tree.build(&mut leaves);
        tree.for_each_leaf(|id, slot| {
            self.proxies[slot as usize]
                .as_mut()
                .expect("live slot")
                .leaf = id;
        });
        self.trees[t] = tree;
    }

    /// Gives `key` a new tight box (world frame). Returns `true` when the box
    /// left the fat box, so the proxy was re-inserted and will be re-paired at
    /// the next [`Broadphase::update_pairs`]; `false` when nothing else changed.
    pub fn update(&mut self, key: u64, aabb: Aabb<D>) -> Result<bool, BroadphaseError> {
        self.update_moving(key, aabb, &Vector::<D>::zeros())
    }

    /// [`Broadphase::update`] for a proxy that moves by `displacement` (world frame) a
    /// step: when it is re-inserted, its fat box also covers the tight box moved
    /// [`BroadphaseConfig::prediction`] displacements ahead. Where that box would not be
    /// finite (a displacement near `f32::MAX`), the plain fat box is used.
    pub fn update_moving(
        &mut self,
        key: u64,
        aabb: Aabb<D>,
        displacement: &Vector<D>,
    ) -> Result<bool, BroadphaseError> {
        check_aabb("aabb", &aabb)?;
        if !displacement.iter().all(|x| x.is_finite()) {
            return Err(BroadphaseError::InvalidArgument {
                field: "displacement",
                reason: "must be finite",
            });
        }
        let slot = self.slot(key)?;
        let (kind, leaf) = {
            let p = self.proxy_mut(slot);
            p.tight = aabb;
            (p.kind, p.leaf)
        };
        let tree = &mut self.trees[kind.tree()];
        if tree.leaf_aabb(leaf).contains(&aabb) {
            return Ok(false);
        }
        let fat = aabb.loosened(self.margin_of(kind));
        let ahead = fat.merge(&fat.translated(&(displacement * self.config.prediction)));
        let fat = if ahead.is_valid() { ahead } else { fat };
        self.trees[kind.tree()].reinsert(leaf, fat);
        let p = self.proxy_mut(slot);
        if !p.moved {
            p.moved = true;
            self.moved.push(slot);
        }
        Ok(true)
    }

    /// Removes `key`. Its pairs are reported as ended at the next
    /// [`Broadphase::update_pairs`] (unless re-created before it).
    pub fn remove(&mut self, key: u64) -> Result<(), BroadphaseError> {
        let slot = self.slot(key)?;
        self.slots.remove(&key);
        let proxy = self.proxies[slot as usize].take().expect("live slot");
        self.trees[proxy.kind.tree()].remove(proxy.leaf);
        for &p in &proxy.partners {
            let other = self.proxies[p as usize]
                .as_mut()
                .expect("partners are live");
            if let Ok(i) = other.partners.binary_search(&slot) {
                other.partners.remove(i);
            }
            self.removed_pairs
                .push((key.min(other.key), key.max(other.key)));
        }
        self.pair_count -= proxy.partners.len();
        self.free_slots.push(slot);
        Ok(())
    }
}
