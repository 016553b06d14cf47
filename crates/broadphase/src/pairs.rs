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
        let mut changes = PairChanges::default();
        for r in results {
            self.apply(r, &mut changes);
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
            if s != m {
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
        let live: Vec<(u64, ProxyKind, _)> = self
            .proxies
            .iter()
            .enumerate()
            .filter_map(|(s, p)| p.as_ref().map(|p| (p.key, p.kind, *self.fat_of(s as u32))))
            .collect();
        let mut out = Vec::new();
        for (i, a) in live.iter().enumerate() {
            for b in &live[i + 1..] {
                let both_static = a.1 == ProxyKind::Static && b.1 == ProxyKind::Static;
                if !both_static && overlaps(&a.2, &b.2) {
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
    let (mut i, mut j) = (0, 0);
    while i < old.len() && j < new.len() {
        match old[i].cmp(&new[j]) {
            std::cmp::Ordering::Less => {
                dropped.push(old[i]);
                i += 1;
            }
            std::cmp::Ordering::Greater => {
                added.push(new[j]);
                j += 1;
            }
            std::cmp::Ordering::Equal => {
                i += 1;
                j += 1;
            }
        }
    }
    dropped.extend_from_slice(&old[i..]);
    added.extend_from_slice(&new[j..]);
    (added, dropped)
}

/// Sorts pairs ascending (in parallel when long; the order is total, so the result is the same).
fn sort_pairs(pairs: &mut [(u64, u64)]) {
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
