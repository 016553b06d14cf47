//! Pair finding: which fat boxes began and ended overlapping since the last call.
//!
//! Only proxies whose fat box changed ("moved": inserted, or updated past
//! their fat box) can start or stop a pair, because pairs are defined on fat
//! boxes and the others' fat boxes did not change. So each moved proxy queries
//! the dynamic tree (and, if it is dynamic, the static tree: static proxies
//! never pair with each other) with its fat box, sorts the partner slots it
//! found, and diffs them against its partner list from the last call. Those
//! queries only read the structure, so large updates run them on rayon; the
//! per-proxy results come back in input order and the events are sorted by
//! key at the end, so the output is identical for any thread count. A pair
//! whose both proxies moved is seen from both sides and reported by the one
//! with the lower slot. Partner lists are then patched serially.
//!
//! Sleeping proxies are simply not updated: they are not moved, cost nothing,
//! and keep their pairs.

use crate::broadphase::Broadphase;
use crate::proxy::ProxyKind;
use crate::traverse::Trees;
use crate::tree::overlaps;
use fathom_math::{Dim, Space};
use rayon::prelude::*;

/// Pairs of keys `(min key, max key)` whose fat boxes began or stopped
/// overlapping since the previous [`Broadphase::update_pairs`], each list sorted
/// ascending. A pair that ended and began again in between (e.g. a key removed
/// and re-inserted) appears in neither.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PairChanges {
    /// Pairs that overlap now and did not at the previous call.
    pub began: Vec<(u64, u64)>,
    /// Pairs that overlapped at the previous call and do not now.
    pub ended: Vec<(u64, u64)>,
}

impl PairChanges {
    /// True when nothing began or ended.
    pub fn is_empty(&self) -> bool {
        self.began.is_empty() && self.ended.is_empty()
    }
}

/// When at least 1/this of the proxies moved, pairs are recomputed by a
/// tree-against-tree traversal instead of one query per moved proxy.
const FULL_UPDATE_DIVISOR: usize = 4;

/// Number of tasks the parallel traversal is split into.
const PARALLEL_TASKS: usize = 256;

/// One moved proxy's new partner list and what changed in it.
struct MovedPartners {
    slot: u32,
    partners: Vec<u32>,
    added: Vec<u32>,
    dropped: Vec<u32>,
}

impl<const D: usize> Broadphase<D>
where
    Space<D>: Dim<D>,
{
    /// Brings the pair set up to date with every insert, update and remove
    /// since the last call and returns the pairs that began and ended. Two
    /// proxies are paired when their fat boxes ([`Broadphase::fat_aabb`])
    /// overlap (touching counts) and at least one of them is dynamic.
    pub fn update_pairs(&mut self) -> PairChanges {
        let moved = self.take_moved();
        let mut changes = PairChanges::default();
        if moved.len() * FULL_UPDATE_DIVISOR >= self.len() && !moved.is_empty() {
            self.update_all_pairs(moved.len() >= self.config.parallel_threshold, &mut changes);
        } else {
            self.update_moved_pairs(&moved, &mut changes);
        }
        for &m in &moved {
            self.proxy_mut(m).moved = false;
        }
        let removed = std::mem::take(&mut self.removed_pairs);
        changes.ended.extend(removed);
        sort_pairs(&mut changes.began);
        sort_pairs(&mut changes.ended);
        cancel_common(&mut changes);
        changes
    }

    /// The incremental path: one tree query per moved proxy (see the module docs).
    fn update_moved_pairs(&mut self, moved: &[u32], changes: &mut PairChanges) {
        if moved.is_empty() {
            return;
        }
        let results: Vec<MovedPartners> = if moved.len() >= self.config.parallel_threshold {
            moved
                .par_iter()
                .map_init(
                    || Vec::with_capacity(64),
                    |stack, &m| self.moved_partners(m, stack),
                )
                .collect()
        } else {
            let mut stack = Vec::with_capacity(64);
            moved
                .iter()
                .map(|&m| self.moved_partners(m, &mut stack))
                .collect()
        };
        for r in results {
            self.apply(r, changes);
        }
    }

    /// The bulk path: every overlapping pair by one tree-against-tree
    /// traversal, gathered per proxy (counting sort by slot), then diffed
    /// against every proxy's partner list.
    fn update_all_pairs(&mut self, parallel: bool, changes: &mut PairChanges) {
        let pairs = self.all_pairs(parallel);
        let n = self.proxies.len();
        let mut offsets = vec![0u32; n + 1];
        for &(a, b) in &pairs {
            offsets[a as usize + 1] += 1;
            offsets[b as usize + 1] += 1;
        }
        for i in 0..n {
            offsets[i + 1] += offsets[i];
        }
        let mut fill = offsets.clone();
        let mut adjacency = vec![0u32; 2 * pairs.len()];
        for &(a, b) in &pairs {
            adjacency[fill[a as usize] as usize] = b;
            fill[a as usize] += 1;
            adjacency[fill[b as usize] as usize] = a;
            fill[b as usize] += 1;
        }
        let segment = |s: usize| offsets[s] as usize..offsets[s + 1] as usize;
        for s in 0..n {
            adjacency[segment(s)].sort_unstable();
        }
        for (s, proxy) in self.proxies.iter().enumerate() {
            let Some(proxy) = proxy else { continue };
            let pair = |p: u32| {
                let k = self.proxy(p).key;
                (proxy.key.min(k), proxy.key.max(k))
            };
            // Each pair once, from its lower slot.
            let (began, ended) = (&mut changes.began, &mut changes.ended);
            for_each_diff(&proxy.partners, &adjacency[segment(s)], |p, is_new| {
                if p as usize > s {
                    if is_new {
                        began.push(pair(p))
                    } else {
                        ended.push(pair(p))
                    }
                }
            });
        }
        for (s, proxy) in self.proxies.iter_mut().enumerate() {
            if let Some(proxy) = proxy {
                proxy.partners.clear();
                proxy.partners.extend_from_slice(&adjacency[segment(s)]);
            }
        }
        self.pair_count = pairs.len();
    }

    /// Every overlapping (slot, slot) pair, in an order that depends on the
    /// split of work (the caller makes the result order-independent).
    fn all_pairs(&self, parallel: bool) -> Vec<(u32, u32)> {
        let trees = Trees { trees: &self.trees };
        let mut pairs = Vec::new();
        let apart = |a: u32, b: u32| !self.same_group(a, b);
        if !parallel {
            trees.run(&trees.roots(), &mut Vec::new(), &mut |a, b| {
                if apart(a, b) {
                    pairs.push((a, b))
                }
            });
            return pairs;
        }
        let tasks = trees.expand(trees.roots(), PARALLEL_TASKS, &mut |a, b| {
            if apart(a, b) {
                pairs.push((a, b))
            }
        });
        let found: Vec<Vec<(u32, u32)>> = tasks
            .par_iter()
            .map_init(Vec::new, |stack, t| {
                let mut out = Vec::new();
                trees.run(std::slice::from_ref(t), stack, &mut |a, b| {
                    if apart(a, b) {
                        out.push((a, b))
                    }
                });
                out
            })
            .collect();
        pairs.reserve(found.iter().map(Vec::len).sum());
        for f in found {
            pairs.extend(f);
        }
        pairs
    }

    /// Every overlapping pair as of the last [`Broadphase::update_pairs`], sorted.
    pub fn pairs(&self) -> Vec<(u64, u64)> {
        let mut out = Vec::with_capacity(self.pair_count);
        for p in self.proxies.iter().flatten() {
            for &q in &p.partners {
                let k = self.proxy(q).key;
                if p.key < k {
                    out.push((p.key, k));
                }
            }
        }
        sort_pairs(&mut out);
        out
    }

    /// The moved slots, sorted, deduplicated and still live.
    fn take_moved(&mut self) -> Vec<u32> {
        let mut moved = std::mem::take(&mut self.moved);
        moved.sort_unstable();
        moved.dedup();
        moved.retain(|&s| self.proxies[s as usize].as_ref().is_some_and(|p| p.moved));
        moved
    }

    /// Queries the trees with `m`'s fat box and diffs against its old partners.
    fn moved_partners(&self, m: u32, stack: &mut Vec<u32>) -> MovedPartners {
        let proxy = self.proxy(m);
        let fat = *self.fat_of(m);
        let mut partners = Vec::with_capacity(proxy.partners.len() + 4);
        let mut push = |s: u32| {
            if s != m && !self.same_group(m, s) {
                partners.push(s);
            }
            true
        };
        self.trees[ProxyKind::Dynamic.tree()].query(&fat, stack, &mut push);
        if proxy.kind == ProxyKind::Dynamic {
            self.trees[ProxyKind::Static.tree()].query(&fat, stack, &mut push);
        }
        partners.sort_unstable();
        let (added, dropped) = diff_sorted(&proxy.partners, &partners);
        MovedPartners {
            slot: m,
            partners,
            added,
            dropped,
        }
    }

    /// Reports `r`'s events (once per pair) and patches the partner lists of
    /// proxies that did not move (moved ones get their whole new list).
    fn apply(&mut self, r: MovedPartners, changes: &mut PairChanges) {
        let key = self.proxy(r.slot).key;
        for (list, began) in [(&r.added, true), (&r.dropped, false)] {
            for &p in list {
                let other = self.proxies[p as usize]
                    .as_mut()
                    .expect("partners are live");
                if other.moved && p < r.slot {
                    continue; // reported from `p`'s side
                }
                let pair = (key.min(other.key), key.max(other.key));
                if began {
                    self.pair_count += 1;
                    changes.began.push(pair);
                } else {
                    self.pair_count -= 1;
                    changes.ended.push(pair);
                }
                if !other.moved {
                    match (other.partners.binary_search(&r.slot), began) {
                        (Err(i), true) => other.partners.insert(i, r.slot),
                        (Ok(i), false) => {
                            other.partners.remove(i);
                        }
                        _ => debug_assert!(false, "partner lists out of sync"),
                    }
                }
            }
        }
        self.proxy_mut(r.slot).partners = r.partners;
    }

    /// Brute force over all proxies (`O(n^2)`): the pairs whose fat boxes
    /// overlap now. The oracle of the tests; also handy for debugging.
    pub fn brute_force_pairs(&self) -> Vec<(u64, u64)> {
        let live: Vec<(u64, ProxyKind, _, Option<u64>)> = self
            .proxies
            .iter()
            .enumerate()
            .filter_map(|(s, p)| {
                p.as_ref()
                    .map(|p| (p.key, p.kind, *self.fat_of(s as u32), p.group))
            })
            .collect();
        let mut out = Vec::new();
        for (i, a) in live.iter().enumerate() {
            for b in &live[i + 1..] {
                let both_static = a.1 == ProxyKind::Static && b.1 == ProxyKind::Static;
                let grouped = a.3.is_some() && a.3 == b.3;
                if !both_static && !grouped && overlaps(&a.2, &b.2) {
                    out.push((a.0.min(b.0), a.0.max(b.0)));
                }
            }
        }
        sort_pairs(&mut out);
        out
    }
}

/// Elements only in `new` and only in `old` (both sorted ascending).
fn diff_sorted(old: &[u32], new: &[u32]) -> (Vec<u32>, Vec<u32>) {
    let (mut added, mut dropped) = (Vec::new(), Vec::new());
    for_each_diff(old, new, |p, is_new| {
        if is_new {
            added.push(p)
        } else {
            dropped.push(p)
        }
    });
    (added, dropped)
}

/// Calls `f(x, true)` for each `x` only in `new`, `f(x, false)` for each only
/// in `old` (both sorted ascending), in ascending order.
#[inline]
fn for_each_diff(old: &[u32], new: &[u32], mut f: impl FnMut(u32, bool)) {
    let (mut i, mut j) = (0, 0);
    while i < old.len() && j < new.len() {
        match old[i].cmp(&new[j]) {
            std::cmp::Ordering::Less => {
                f(old[i], false);
                i += 1;
            }
            std::cmp::Ordering::Greater => {
                f(new[j], true);
                j += 1;
            }
            std::cmp::Ordering::Equal => {
                i += 1;
                j += 1;
            }
        }
    }
    old[i..].iter().for_each(|&x| f(x, false));
    new[j..].iter().for_each(|&x| f(x, true));
}

/// Sorts pairs ascending (in parallel when long; the order is total, so the result is the same).
fn sort_pairs(pairs: &mut [(u64, u64)]) {
    if pairs.is_sorted() {
        // Common: keys grow with insertion order, and events come out by slot.
        return;
    }
    if pairs.len() > 1 << 16 {
        pairs.par_sort_unstable();
    } else {
        pairs.sort_unstable();
    }
}

/// Drops pairs present in both lists (ended then began again between two calls).
fn cancel_common(changes: &mut PairChanges) {
    if changes.began.is_empty() || changes.ended.is_empty() {
        return;
    }
    let (b, e) = (&changes.began, &changes.ended);
    let (mut keep_b, mut keep_e) = (vec![true; b.len()], vec![true; e.len()]);
    let (mut i, mut j) = (0, 0);
    while i < b.len() && j < e.len() {
        match b[i].cmp(&e[j]) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => {
                keep_b[i] = false;
                keep_e[j] = false;
                i += 1;
                j += 1;
            }
        }
    }
    let mut k = keep_b.iter();
    changes.began.retain(|_| *k.next().expect("same length"));
    let mut k = keep_e.iter();
    changes.ended.retain(|_| *k.next().expect("same length"));
}
