//! A half-space against a cuboid: the box's corners against the plane, exact.
//!
//! A plane is linear and a box is the hull of its corners, so every question has its answer at
//! a corner: the box is as deep as its lowest corner, as far as its lowest corner, and a box
//! resting on the ground touches it with the corners of its bottom face. Each corner of the face
//! turned most towards the plane that lies within the margin is a contact point, keyed by the
//! corner's index (so its id holds while it rests). The face holds the lowest corner, and a
//! corner of the opposite face stands over one of it: with a margin wider than a thin box, that
//! higher corner could take the lower one's place in the manifold and drop a support.

use fathom_math::{Dim, Pose, Real, Space, Vector};

use super::{Ctx, PairQuery};
use crate::manifold::{in_world, reduce, Candidate, Candidates};
use crate::obb::Obb;
use crate::types::{Deepest, Manifold};

/// The half-space `normal · x <= offset` (A, local frame at `pose_plane`) against a cuboid of
/// half extents `half` at `pose_box` (B).
pub(crate) struct HalfSpaceCuboid<const D: usize>
where
    Space<D>: Dim<D>,
{
    pub normal: Vector<D>,
    pub offset: Real,
    pub pose_plane: Pose<D>,
    pub half: Vector<D>,
    pub pose_box: Pose<D>,
}

impl<const D: usize> HalfSpaceCuboid<D>
where
    Space<D>: Dim<D>,
{
    /// The plane's unit normal and offset in the world frame.
    fn world_plane(&self) -> (Vector<D>, Real) {
        let n = self.pose_plane.transform_vector(&self.normal);
        (n, self.offset + n.dot(&self.pose_plane.translation.vector))
    }

    /// Every corner as a candidate: on the box (B), its image on the plane (A), its height.
    fn corners(&self, ctx: &mut Ctx) -> (Vector<D>, Candidates<D>) {
        self.candidates(ctx, false)
    }

    /// The corners as candidates; with `facing`, only those of the face turned to the plane.
    fn candidates(&self, ctx: &mut Ctx, facing: bool) -> (Vector<D>, Candidates<D>) {
        ctx.budget.cells += 1;
        let (n, offset) = self.world_plane();
        let obb = Obb::new(self.half, &self.pose_box);
        let face = facing.then(|| obb.face_against(&n));
        // Corner `k` has bit `axis` set where it lies on the + side of that axis.
        let on_face = |k: usize| face.is_none_or(|f| (k >> f.axis & 1 == 1) == (f.sign > 0.0));
        let candidates = obb
            .corners()
            .into_iter()
            .enumerate()
            .filter(|&(k, _)| on_face(k))
            .map(|(k, point_b)| {
                let depth = n.dot(&point_b) - offset;
                Candidate {
                    point_a: point_b - n * depth,
                    point_b,
                    depth,
                    key: k as u32,
                }
            })
            .collect();
        (n, candidates)
    }

    /// The lowest corner.
    fn lowest(&self, ctx: &mut Ctx) -> (Vector<D>, Candidate<D>) {
        let (n, corners) = self.corners(ctx);
        let low = corners
            .into_iter()
            .min_by(|p, q| p.depth.total_cmp(&q.depth))
            .expect("a box has corners");
        (n, low)
    }
}

impl<const D: usize> PairQuery<D> for HalfSpaceCuboid<D>
where
    Space<D>: Dim<D>,
{
    fn intersects(&self, ctx: &mut Ctx) -> bool {
        self.lowest(ctx).1.depth <= 0.0
    }

    fn penetration(&self, ctx: &mut Ctx) -> Option<Deepest<D>> {
        let (normal, low) = self.lowest(ctx);
        (low.depth <= 0.0).then_some(Deepest {
            depth: -low.depth,
            normal,
            point_a: low.point_a,
            point_b: low.point_b,
        })
    }

    fn distance(&self, ctx: &mut Ctx) -> (Real, Vector<D>, Vector<D>) {
        let (_, low) = self.lowest(ctx);
        if low.depth <= 0.0 {
            let mid = (low.point_a + low.point_b) * 0.5;
            (0.0, mid, mid)
        } else {
            (low.depth, low.point_a, low.point_b)
        }
    }

    fn contacts(&self, ctx: &mut Ctx, out: &mut Vec<Manifold<D>>) {
        let margin = ctx.settings.margin;
        let (n, corners) = self.candidates(ctx, true);
        let merge = 1e-4 * ctx.settings.size;
        let kept = reduce(&corners, &n, margin, merge, 0.0, None);
        if kept.is_empty() {
            return;
        }
        out.push(in_world(&kept, &n, 0));
    }
}
