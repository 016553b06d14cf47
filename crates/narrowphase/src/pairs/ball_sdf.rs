//! A ball (or a point: radius zero) against any field: one evaluation.
//!
//! In the field's frame the ball's centre `c` is at signed distance `d(c)` from the surface,
//! so the balls are separated by `d(c) - r` along the field's gradient there. This is exact for
//! exact fields, and for bounds it is what the field knows. Both the ball and a half-space are
//! fields too, so ball-ball and ball-plane need nothing else.

use fathom_math::{Dim, Pose, Real, Space};
use fathom_sdf::Sdf;

use super::{world_point, ClosedForm, Closest, Ctx};
use crate::field::sanitize;
use crate::types::{ContactPoint, Manifold};
use fathom_sdf::normalize_or_axis;

/// A ball of `radius` at `pose_ball` (A) against the field `sdf` at `pose_sdf` (B).
pub(crate) struct BallSdf<'a, const D: usize>
where
    Space<D>: Dim<D>,
{
    pub radius: Real,
    pub pose_ball: Pose<D>,
    pub sdf: &'a dyn Sdf<D>,
    pub pose_sdf: Pose<D>,
}

impl<const D: usize> ClosedForm<D> for BallSdf<'_, D>
where
    Space<D>: Dim<D>,
{
    /// The closest features, world frame.
    fn closest(&self, ctx: &mut Ctx) -> Closest<D> {
        let c = (self.pose_sdf.inverse() * self.pose_ball)
            .translation
            .vector;
        ctx.budget.cells += 1;
        // The field is read in its own frame: a `PosedSdf` with the identity pose would only
        // add two identity transforms to the two evaluations it counts.
        ctx.counter.add(2);
        let (d, g) = self.sdf.distance_and_gradient(&c);
        let (d, g) = (sanitize(d), normalize_or_axis(g));
        let d = if d.is_finite() { d } else { Real::MAX };
        let n = -g;
        Closest {
            separation: d - self.radius,
            normal: self.pose_sdf.transform_vector(&n),
            point_a: world_point(&self.pose_sdf, &(c - g * self.radius)),
            point_b: world_point(&self.pose_sdf, &(c - g * d)),
        }
    }

    fn manifolds(&self, ctx: &mut Ctx, out: &mut Vec<Manifold<D>>) {
        let c = self.closest(ctx);
        if c.separation > ctx.settings.margin {
            return;
        }
        let point = ContactPoint {
            point_a: c.point_a,
            point_b: c.point_b,
            depth: c.separation,
            id: 0,
        };
        out.push(Manifold {
            normal: c.normal,
            points: std::iter::once(point).collect(),
        });
    }
}
