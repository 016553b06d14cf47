//! Manifold reuse: a pair whose shapes have barely moved relative to each other keeps last
//! step's manifolds, moved with the bodies, instead of querying the narrowphase again (the
//! idea of Jolt's body pair cache). Only pairs of boxes and half-spaces reuse manifolds
//! ([`reusable_shape`]): their points sit on corners and flat faces. A pair of any shapes that
//! the narrowphase found apart stays known apart the same way ([`SeparatedPair`]): nothing was
//! within the query's reach, so nothing is within this step's while the drift fits.
//!
//! When a pair's manifolds are computed, the pair remembers B's pose in A's frame (the
//! reference), the reach the query used and how far each shape extends from its origin. On a
//! later step, [`PairBasis::drift`] bounds how far any point of one shape has moved relative to
//! the other since the reference: the change of B's origin in A's frame plus the turn times
//! B's radius (or the same seen from B, whichever is smaller). The manifolds are reused while
//! that bound plus this step's reach stays within the reach of the fresh query, which is the
//! step's reach plus [`WorldSettings::contact_reuse`](crate::WorldSettings::contact_reuse).
//! So every point a fresh query would find within this step's reach was within the old
//! query's reach and is in the reused manifold; only speculative points beyond the reach can
//! be missing. A reused point keeps its id and its impulses (its warm start), follows its own body
//! and gets its separation from where both bodies are now.

use crate::arena::ColliderHandle;
use crate::contacts::{pair_key, CachedManifold};
use fathom_math::{Dim, ManifoldPoints, Pose, Real, Space, Vector};
use fathom_sdf::{Sdf, Shape};
use nalgebra::AbstractRotation;
use serde::{Deserialize, Serialize};

/// What a pair's cached manifolds were computed from, so that a later step can tell whether
/// they still hold (see the module docs).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(bound = "")]
pub struct PairBasis<const D: usize>
where
    Space<D>: Dim<D>,
{
    /// Collider A's world pose when the cached points were placed (last step).
    pub pose_a: Pose<D>,
    /// Collider B's world pose when the cached points were placed.
    pub pose_b: Pose<D>,
    /// B's pose in A's frame when the narrowphase last computed the manifolds.
    pub reference: Pose<D>,
    /// Speculative reach of that query, metres.
    pub reach: Real,
    /// How far each shape extends from its own origin, metres (A, B).
    pub radius: [Real; 2],
}

/// A candidate pair the narrowphase found with no point within the basis' reach.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(bound = "")]
pub(crate) struct SeparatedPair<const D: usize>
where
    Space<D>: Dim<D>,
{
    pub a: ColliderHandle,
    pub b: ColliderHandle,
    pub basis: PairBasis<D>,
}

impl<const D: usize> SeparatedPair<D>
where
    Space<D>: Dim<D>,
{
    pub(crate) fn key(&self) -> (u64, u64) {
        pair_key(self.a, self.b)
    }
}

/// True for the shapes whose contact points sit on corners and flat faces (boxes, half-spaces):
/// there a point carried with its body stays within the drift of where a fresh query puts it.
/// On a curved surface the contact rolls: a box tilting by θ on a ball of radius R moves its
/// contact by R θ while the carried point stays, and with it the restoring torque of a stable
/// balance (`crates/world/tests/physics_curved_support.rs`), so curved pairs query every step.
pub(crate) fn reusable_shape<const D: usize>(shape: &Shape<D>) -> bool
where
    Space<D>: Dim<D>,
{
    matches!(shape, Shape::Cuboid(_) | Shape::HalfSpace(_))
}

/// How far `shape` extends from its origin, metres (the farthest corner of its bounds).
pub(crate) fn shape_radius<const D: usize>(shape: &dyn Sdf<D>) -> Real
where
    Space<D>: Dim<D>,
{
    let b = shape.bounds();
    b.min.abs().sup(&b.max.abs()).norm()
}

impl<const D: usize> PairBasis<D>
where
    Space<D>: Dim<D>,
{
    /// The basis of manifolds just computed at these poses with `reach`.
    pub(crate) fn fresh(
        pose_a: &Pose<D>,
        pose_b: &Pose<D>,
        reach: Real,
        radius: [Real; 2],
    ) -> Self {
        Self {
            pose_a: *pose_a,
            pose_b: *pose_b,
            reference: pose_a.inv_mul(pose_b),
            reach,
            radius,
        }
    }

    /// A bound on how far any point of one shape has moved relative to the other between the
    /// reference and the poses `pose_a`, `pose_b`, metres.
    pub(crate) fn drift(&self, pose_a: &Pose<D>, pose_b: &Pose<D>) -> Real {
        let now = pose_a.inv_mul(pose_b);
        let turn = now.rotation * self.reference.rotation.inverse();
        let angle = Space::<D>::angle_bound(&turn);
        let from_a = (now.translation.vector - self.reference.translation.vector).norm()
            + angle * self.radius[1];
        // A's origin in B's frame is -R^T t: its change, without inverting the poses.
        let origin_a = |p: &Pose<D>| p.rotation.inverse_transform_vector(&p.translation.vector);
        let from_b = (origin_a(&now) - origin_a(&self.reference)).norm() + angle * self.radius[0];
        from_a.min(from_b)
    }

    /// True when the cached manifolds hold every point within `reach` of the shapes at these
    /// poses (see the module docs).
    pub(crate) fn holds(&self, pose_a: &Pose<D>, pose_b: &Pose<D>, reach: Real) -> bool {
        let budget = self.reach - reach;
        // Both of the drift's terms are at least the change in the origins' distance (the
        // relative translation's length is the same in every frame): most pairs that fail,
        // closing fast, fail this first. The slack covers the two paths' round-off, so
        // this never turns away a pair the full test keeps.
        let apart = (pose_b.translation.vector - pose_a.translation.vector).norm();
        let was = self.reference.translation.vector.norm();
        if budget < 0.0 || (apart - was).abs() > budget + 1e-5 * (1.0 + apart + was) {
            return false;
        }
        reach + self.drift(pose_a, pose_b) <= self.reach
    }

    /// `cached`, placed at this basis' poses, moved to `pose_a` and `pose_b` into `out`, each
    /// point keeping its impulses (its warm start); the basis of the moved manifolds.
    pub(crate) fn carry(
        &self,
        cached: &[CachedManifold<D>],
        pose_a: &Pose<D>,
        pose_b: &Pose<D>,
        out: &mut Vec<CachedManifold<D>>,
    ) -> Self {
        let move_a = pose_a * self.pose_a.inverse();
        let move_b = pose_b * self.pose_b.inverse();
        let moved = |m: &Pose<D>, v: &Vector<D>| m.transform_point(&(*v).into()).coords;
        out.reserve(cached.len());
        for m in cached {
            let normal = move_a.rotation * m.normal;
            // Copied straight into the buffer and edited there: collecting the points one by
            // one, or moving a finished manifold in, costs more.
            out.push(CachedManifold {
                normal,
                points: ManifoldPoints::new(),
            });
            let points = &mut out.last_mut().expect("just pushed").points;
            points
                .try_extend_from_slice(&m.points)
                .expect("the same capacity");
            for p in points.iter_mut() {
                p.point_a = moved(&move_a, &p.point_a);
                p.point_b = moved(&move_b, &p.point_b);
                p.separation = (p.point_b - p.point_a).dot(&normal);
            }
        }
        Self {
            pose_a: *pose_a,
            pose_b: *pose_b,
            ..self.clone()
        }
    }
}
