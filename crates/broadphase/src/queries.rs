//! Spatial queries on the proxies' tight boxes: boxes overlapping a box,
//! boxes containing a point, and boxes hit by a ray or a swept sphere, the
//! latter front to back with early exit.
//!
//! Queries descend the trees on the fat boxes (which enclose the tight ones)
//! and test each leaf's tight box, so their answers do not depend on the fat
//! margin. Casts are best-first: a min-heap ordered by entry parameter holds
//! both trees' nodes and the leaves already hit; a leaf is reported when it
//! reaches the top, and since a node's entry is never later than that of any
//! box inside it, hits come out in non-decreasing order. Equal entries come
//! out by ascending key, so the order is deterministic.

use crate::broadphase::Broadphase;
use crate::error::{check_aabb, check_non_negative, check_vector, BroadphaseError};
use crate::tree::{overlaps, NULL};
use fathom_math::{Aabb, Dim, Real, Space, Vector};
use std::cmp::Ordering;
use std::collections::BinaryHeap;

/// What a query callback wants next.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum QueryControl {
    /// Keep going.
    Continue,
    /// Stop the query now.
    Stop,
    /// Casts only: keep going but ignore hits entering later than this
    /// parameter (e.g. once the narrowphase found an exact hit there).
    /// Treated as [`QueryControl::Continue`] by box and point queries.
    ClipTo(Real),
}

/// A proxy hit by a cast.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CastHit {
    /// The proxy's key.
    pub key: u64,
    /// Ray parameter where the cast enters the proxy's (grown) tight box:
    /// the point is `origin + t * dir`, so `t` is in units of `dir`'s length
    /// (world distance when `dir` is unit). 0 when the cast starts inside.
    pub t: Real,
}

/// Heap entry: ordered by `t`, nodes before leaves at equal `t`, then by id.
#[derive(Clone, Copy, Debug)]
struct Entry {
    t: Real,
    leaf: bool,
    /// Leaf: the key; node: `tree << 32 | node`.
    id: u64,
}

impl PartialEq for Entry {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}
impl Eq for Entry {}
impl PartialOrd for Entry {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Entry {
    /// Reversed so that `BinaryHeap` (a max-heap) pops the smallest first.
    fn cmp(&self, other: &Self) -> Ordering {
        other
            .t
            .total_cmp(&self.t)
            .then(other.leaf.cmp(&self.leaf))
            .then(other.id.cmp(&self.id))
    }
}

impl<const D: usize> Broadphase<D>
where
    Space<D>: Dim<D>,
{
    /// Calls `f(key)` for every proxy whose tight box overlaps `aabb` (world
    /// frame; touching counts), static ones first, in tree order, until `f`
    /// returns [`QueryControl::Stop`].
    pub fn for_each_overlapping(
        &self,
        aabb: &Aabb<D>,
        mut f: impl FnMut(u64) -> QueryControl,
    ) -> Result<(), BroadphaseError> {
        check_aabb("aabb", aabb)?;
        let mut stack = Vec::with_capacity(64);
        for tree in &self.trees {
            let go = tree.query(aabb, &mut stack, |s| {
                let p = self.proxy(s);
                !overlaps(&p.tight, aabb) || f(p.key) != QueryControl::Stop
            });
            if !go {
                break;
            }
        }
        Ok(())
    }

    /// The keys of all proxies whose tight box overlaps `aabb`, sorted.
    pub fn overlapping(&self, aabb: &Aabb<D>) -> Result<Vec<u64>, BroadphaseError> {
        let mut out = Vec::new();
        self.for_each_overlapping(aabb, |k| {
            out.push(k);
            QueryControl::Continue
        })?;
        out.sort_unstable();
        Ok(out)
    }

    /// Calls `f(key)` for every proxy whose tight box contains `point`
    /// (world frame; the boundary counts) until `f` returns [`QueryControl::Stop`].
    pub fn for_each_containing(
        &self,
        point: &Vector<D>,
        f: impl FnMut(u64) -> QueryControl,
    ) -> Result<(), BroadphaseError> {
        check_vector("point", point)?;
        self.for_each_overlapping(&Aabb::new(*point, *point), f)
    }

    /// The keys of all proxies whose tight box contains `point`, sorted.
    pub fn containing(&self, point: &Vector<D>) -> Result<Vec<u64>, BroadphaseError> {
        check_vector("point", point)?;
        self.overlapping(&Aabb::new(*point, *point))
    }

    /// Casts the ray `origin + t * dir`, `t` in `[0, max_t]` (world frame),
    /// calling `f` for every proxy whose tight box it hits, front to back
    /// (ties by key), until `f` returns [`QueryControl::Stop`].
    /// `max_t` may be infinite; `dir` need not be unit.
    pub fn cast_ray(
        &self,
        origin: &Vector<D>,
        dir: &Vector<D>,
        max_t: Real,
        f: impl FnMut(CastHit) -> QueryControl,
    ) -> Result<(), BroadphaseError> {
        self.cast_sphere(origin, 0.0, dir, max_t, f)
    }

    /// Sweeps a sphere of `radius` with its centre along `origin + t * dir`,
    /// `t` in `[0, max_t]` (world frame), calling `f` front to back (ties by
    /// key) for every proxy whose tight box grown by `radius` on every side
    /// the centre's path enters, until `f` returns [`QueryControl::Stop`].
    /// The grown box encloses the exact rounded box, so this is the candidate
    /// set for the narrowphase; `t` is where the path enters the grown box.
    pub fn cast_sphere(
        &self,
        origin: &Vector<D>,
        radius: Real,
        dir: &Vector<D>,
        max_t: Real,
        mut f: impl FnMut(CastHit) -> QueryControl,
    ) -> Result<(), BroadphaseError> {
        check_vector("origin", origin)?;
        check_vector("dir", dir)?;
        check_non_negative("radius", radius)?;
        if max_t.is_nan() || max_t < 0.0 {
            return Err(BroadphaseError::InvalidArgument {
                field: "max_t",
                reason: "must be >= 0 (infinity allowed)",
            });
        }
        let mut max_t = max_t;
        let enter = |b: &Aabb<D>, max_t: Real| {
            b.loosened(radius)
                .ray_interval(origin, dir, max_t)
                .map(|(t0, _)| t0)
        };
        let mut heap = BinaryHeap::new();
        for (ti, tree) in self.trees.iter().enumerate() {
            if tree.root() != NULL {
                if let Some(t) = enter(&tree.nodes()[tree.root() as usize].aabb, max_t) {
                    heap.push(Entry {
                        t,
                        leaf: false,
                        id: (ti as u64) << 32 | tree.root() as u64,
                    });
                }
            }
        }
        while let Some(e) = heap.pop() {
            if e.t > max_t {
                break;
            }
            if e.leaf {
                match f(CastHit { key: e.id, t: e.t }) {
                    QueryControl::Stop => break,
                    QueryControl::ClipTo(t) if t < max_t => max_t = t.max(0.0),
                    _ => {}
                }
                continue;
            }
            let tree = &self.trees[(e.id >> 32) as usize];
            let node = &tree.nodes()[(e.id & 0xFFFF_FFFF) as usize];
            if node.is_leaf() {
                let p = self.proxy(node.child2);
                if let Some(t) = enter(&p.tight, max_t) {
                    heap.push(Entry {
                        t,
                        leaf: true,
                        id: p.key,
                    });
                }
                continue;
            }
            for c in [node.child1, node.child2] {
                if let Some(t) = enter(&tree.nodes()[c as usize].aabb, max_t) {
                    heap.push(Entry {
                        t,
                        leaf: false,
                        id: (e.id & !0xFFFF_FFFF) | c as u64,
                    });
                }
            }
        }
        Ok(())
    }

    /// Every hit of [`Broadphase::cast_ray`], front to back.
    pub fn ray_hits(
        &self,
        origin: &Vector<D>,
        dir: &Vector<D>,
        max_t: Real,
    ) -> Result<Vec<CastHit>, BroadphaseError> {
        self.sphere_hits(origin, 0.0, dir, max_t)
    }

    /// Every hit of [`Broadphase::cast_sphere`], front to back.
    pub fn sphere_hits(
        &self,
        origin: &Vector<D>,
        radius: Real,
        dir: &Vector<D>,
        max_t: Real,
    ) -> Result<Vec<CastHit>, BroadphaseError> {
        let mut out = Vec::new();
        self.cast_sphere(origin, radius, dir, max_t, |h| {
            out.push(h);
            QueryControl::Continue
        })?;
        Ok(out)
    }
}
