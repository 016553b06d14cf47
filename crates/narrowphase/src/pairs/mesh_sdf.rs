//! Mesh samples against any field (see `mesh_points.rs`): the deepest samples, found by
//! walking the samples' tree with the field's Lipschitz bound.
//!
//! Penetration is the deepest sample (normal: the field's gradient there, reversed to point
//! from the mesh to the field's shape). Contacts are the samples within the margin, linked into
//! regions when closer than the mesh's spacing; each region's normal is the depth-weighted mean
//! of the field's gradients at its samples, and its points are reduced to 4 (2 in 2D) by the
//! area-maximising rule. A point's id is its sample's id, so it is stable for as long as that
//! vertex touches.

use std::collections::BinaryHeap;

use fathom_math::{Dim, Pose, Real, Space, Vector};
use fathom_sdf::Sdf;

use super::{world_point, Closest, Ctx, PairQuery};
use crate::field::{Field, PosedSdf};
use crate::manifold::{reduce, to_world, Candidate};
use crate::mesh_points::MeshPoints;
use crate::normal::unit_or;
use crate::types::{Deepest, Manifold};

/// Mesh samples (A) against a field (B); the search runs in B's frame.
pub(crate) struct MeshSdf<'a, const D: usize>
where
    Space<D>: Dim<D>,
{
    pub mesh: &'a MeshPoints<D>,
    pub pose_mesh: Pose<D>,
    pub sdf: &'a dyn Sdf<D>,
    pub pose_sdf: Pose<D>,
}

/// A sample in the field's frame: position, id, field value.
#[derive(Clone, Copy, Debug)]
struct Hit<const D: usize> {
    p: Vector<D>,
    id: u32,
    d: Real,
}

struct Entry {
    lb: Real,
    node: usize,
}
impl PartialEq for Entry {
    fn eq(&self, o: &Self) -> bool {
        self.cmp(o) == std::cmp::Ordering::Equal
    }
}
impl Eq for Entry {}
impl PartialOrd for Entry {
    fn partial_cmp(&self, o: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(o))
    }
}
impl Ord for Entry {
    fn cmp(&self, o: &Self) -> std::cmp::Ordering {
        o.lb.total_cmp(&self.lb).then(o.node.cmp(&self.node))
    }
}

impl<const D: usize> MeshSdf<'_, D>
where
    Space<D>: Dim<D>,
{
    fn to_field(&self) -> Pose<D> {
        self.pose_sdf.inverse() * self.pose_mesh
    }

    /// Lower bound of the field over node `i` (one evaluation at its centre).
    fn node_bound(&self, f: &PosedSdf<'_, D>, rel: &Pose<D>, i: usize) -> Real {
        let b = self.mesh.nodes()[i].bounds;
        let c = rel
            .transform_point(&nalgebra::Point::from(b.center()))
            .coords;
        f.value(&c) - f.lipschitz() * b.radius()
    }

    /// Every sample with `d <= limit` (all of them when `first` is false; stops at the first).
    fn within(&self, ctx: &mut Ctx, limit: Real, first: bool) -> Vec<Hit<D>> {
        let f = PosedSdf::new(self.sdf, Pose::<D>::identity(), &ctx.counter);
        let rel = self.to_field();
        let (pts, ids) = self.mesh.samples();
        let mut out = Vec::new();
        let mut stack = vec![0usize];
        while let Some(i) = stack.pop() {
            if !ctx.budget.take() {
                break;
            }
            if self.node_bound(&f, &rel, i) > limit {
                continue;
            }
            let node = &self.mesh.nodes()[i];
            match node.children {
                Some([l, r]) => stack.extend([r, l]),
                None => {
                    for k in node.start..node.end {
                        let p = rel.transform_point(&nalgebra::Point::from(pts[k])).coords;
                        let d = f.value(&p);
                        if d <= limit {
                            out.push(Hit { p, id: ids[k], d });
                            if first {
                                return out;
                            }
                        }
                    }
                }
            }
        }
        out
    }

    /// The deepest sample, best-first over the tree.
    fn deepest(&self, ctx: &mut Ctx) -> Option<Hit<D>> {
        let f = PosedSdf::new(self.sdf, Pose::<D>::identity(), &ctx.counter);
        let rel = self.to_field();
        let (pts, ids) = self.mesh.samples();
        let mut best: Option<Hit<D>> = None;
        let mut heap = BinaryHeap::new();
        if ctx.budget.take() {
            heap.push(Entry {
                lb: self.node_bound(&f, &rel, 0),
                node: 0,
            });
        }
        while let Some(Entry { lb, node }) = heap.pop() {
            if best.is_some_and(|b| lb >= b.d) {
                break;
            }
            let n = &self.mesh.nodes()[node];
            match n.children {
                Some(children) => {
                    for c in children {
                        if !ctx.budget.take() {
                            return best;
                        }
                        heap.push(Entry {
                            lb: self.node_bound(&f, &rel, c),
                            node: c,
                        });
                    }
                }
                None => {
                    for k in n.start..n.end {
                        let p = rel.transform_point(&nalgebra::Point::from(pts[k])).coords;
                        let d = f.value(&p);
                        if best.is_none_or(|b| d < b.d) {
                            best = Some(Hit { p, id: ids[k], d });
                        }
                    }
                }
            }
        }
        best
    }

    fn closest(&self, ctx: &mut Ctx) -> Option<Closest<D>> {
        let hit = self.deepest(ctx)?;
        let f = PosedSdf::new(self.sdf, Pose::<D>::identity(), &ctx.counter);
        let g = f.gradient(&hit.p);
        Some(Closest {
            separation: hit.d,
            normal: self.pose_sdf.transform_vector(&-g),
            point_a: world_point(&self.pose_sdf, &hit.p),
            point_b: world_point(&self.pose_sdf, &(hit.p - g * hit.d)),
        })
    }
}

/// Single-linkage groups of hits closer than `spacing`, ordered by their smallest id.
fn clusters<const D: usize>(hits: &[Hit<D>], spacing: Real) -> Vec<Vec<Hit<D>>> {
    let mut group = vec![usize::MAX; hits.len()];
    let mut out: Vec<Vec<Hit<D>>> = Vec::new();
    for seed in 0..hits.len() {
        if group[seed] != usize::MAX {
            continue;
        }
        let g = out.len();
        group[seed] = g;
        let mut members = vec![seed];
        let mut k = 0;
        while k < members.len() {
            let i = members[k];
            for j in 0..hits.len() {
                if group[j] == usize::MAX && (hits[i].p - hits[j].p).norm() <= spacing {
                    group[j] = g;
                    members.push(j);
                }
            }
            k += 1;
        }
        let mut c: Vec<Hit<D>> = members.iter().map(|&i| hits[i]).collect();
        c.sort_by_key(|h| h.id);
        out.push(c);
    }
    out.sort_by_key(|c| c[0].id);
    out
}

impl<const D: usize> PairQuery<D> for MeshSdf<'_, D>
where
    Space<D>: Dim<D>,
{
    fn intersects(&self, ctx: &mut Ctx) -> bool {
        !self.within(ctx, 0.0, true).is_empty()
    }

    fn penetration(&self, ctx: &mut Ctx) -> Option<Deepest<D>> {
        self.closest(ctx).and_then(|c| c.penetration())
    }

    fn distance(&self, ctx: &mut Ctx) -> (Real, Vector<D>, Vector<D>) {
        match self.closest(ctx) {
            Some(c) => c.distance(),
            None => (Real::INFINITY, Vector::<D>::zeros(), Vector::<D>::zeros()),
        }
    }

    fn contacts(&self, ctx: &mut Ctx, out: &mut Vec<Manifold<D>>) {
        let margin = ctx.settings.margin;
        let hits = self.within(ctx, margin, false);
        let f = PosedSdf::new(self.sdf, Pose::<D>::identity(), &ctx.counter);
        for cluster in clusters(&hits, self.mesh.spacing()) {
            let mut sum = Vector::<D>::zeros();
            let grads: Vec<Vector<D>> = cluster.iter().map(|h| f.gradient(&h.p)).collect();
            for (h, g) in cluster.iter().zip(&grads) {
                sum += g * (margin - h.d + 1e-6);
            }
            // From the mesh (A) towards the field's shape (B): against the field's gradient.
            let n = -unit_or(sum, grads[0]);
            let cands: Vec<Candidate<D>> = cluster
                .iter()
                .map(|h| Candidate {
                    point_a: h.p,
                    point_b: h.p + n * h.d,
                    depth: h.d,
                    key: h.id,
                })
                .collect();
            let kept = reduce(&cands, &n, margin, 1e-6, 0.0, None);
            if !kept.is_empty() {
                out.push(to_world(&kept, &n, 0, &self.pose_sdf));
            }
        }
    }
}
