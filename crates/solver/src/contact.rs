//! Contact constraints as the caller gives them to the solver and reads them back:
//! non-penetration along the normal, Coulomb friction in the tangent plane, restitution, and
//! speculative contact.
//!
//! Each manifold becomes one [`ContactConstraint`] between two solver bodies. The solver
//! works on a prepared copy of it (`prepared.rs`) and writes the impulses back into its
//! points at the end of the step: they are both the warm start going in and the result
//! coming out.

use crate::softness::Softness;
use fathom_math::{Dim, ManifoldPoints, Real, Space, Vector, MAX_MANIFOLD_POINTS};
use serde::{Deserialize, Serialize};

/// Mass ratio from which a dynamic pair's contact is as stiff as a static one's.
pub const HEAVY_RATIO: Real = 10.0;

/// One point of a contact constraint. Inputs are set by the caller; the
/// impulses are both the warm start going in and the result coming out.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(bound = "")]
pub struct ContactPoint<const D: usize>
where
    Space<D>: Dim<D>,
{
    /// The contact point, world frame, at the start of the step (usually
    /// midway between the two surface points), metres.
    pub anchor: Vector<D>,
    /// Signed separation along the normal at the start of the step, metres (< 0 penetrating).
    pub separation: Real,
    /// Identifier stable across steps, used to carry impulses over (warm starting).
    pub id: u32,
    /// Accumulated normal impulse of one substep, N s: the warm start on input, the result
    /// on output (the substep's share: a resting load `m g` gives `m g dt / substeps`).
    pub normal_impulse: Real,
    /// Normal impulse applied over the whole last step (all substeps), N s; `/ dt` is the force.
    pub total_normal_impulse: Real,
    /// Accumulated friction impulses of one substep along the constraint's tangents, N s.
    pub tangent_impulse: [Real; 2],
    /// Largest normal impulse applied in any substep of the last step, N s.
    pub max_normal_impulse: Real,
}

impl<const D: usize> ContactPoint<D>
where
    Space<D>: Dim<D>,
{
    /// A contact point at `anchor` (world) with `separation` and `id`, with no warm start.
    pub fn new(anchor: Vector<D>, separation: Real, id: u32) -> Self {
        Self {
            anchor,
            separation,
            id,
            normal_impulse: 0.0,
            total_normal_impulse: 0.0,
            tangent_impulse: [0.0; 2],
            max_normal_impulse: 0.0,
        }
    }

    /// The same point warm-started with the impulses of last step.
    pub fn with_warm_start(mut self, normal: Real, tangent: [Real; 2]) -> Self {
        self.normal_impulse = normal;
        self.tangent_impulse = tangent;
        self
    }
}

/// A contact manifold between bodies `body_a` and `body_b` (indices into the
/// solver's body slice) as a constraint.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(bound = "")]
pub struct ContactConstraint<const D: usize>
where
    Space<D>: Dim<D>,
{
    /// Index of body A.
    pub body_a: usize,
    /// Index of body B.
    pub body_b: usize,
    /// Unit normal from A towards B, world frame.
    pub normal: Vector<D>,
    /// Coulomb friction coefficient.
    pub friction: Real,
    /// Coefficient of restitution (0 = no bounce, 1 = elastic).
    pub restitution: Real,
    /// The points (up to 2 in 2D, 4 in 3D).
    pub points: ManifoldPoints<ContactPoint<D>>,
    /// Unit tangents (the first `D - 1` are used), world frame, from the normal: the
    /// friction impulses are along them.
    pub tangents: [Vector<D>; 2],
    /// The sliding velocity friction drives the surfaces to, B's relative to A's, world, m/s
    /// (a conveyor belt's speed); only its part in the tangent plane counts. Zero: stick.
    pub tangent_velocity: Vector<D>,
}

/// Per-step quantities every constraint needs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StepContext {
    /// Whole step, seconds.
    pub dt: Real,
    /// Substep, seconds.
    pub h: Real,
    /// 1 / h.
    pub inv_h: Real,
    /// Softness of contacts between two moving bodies.
    pub contact_softness: Softness,
    /// Softness of contacts against static or kinematic bodies (stiffer).
    pub static_softness: Softness,
    /// Softness for joints (used by joint constraints).
    pub joint_softness: Softness,
    /// Cap on the speed at which penetration is corrected, m/s.
    pub max_push_out_speed: Real,
    /// Approach speeds below this do not bounce, m/s.
    pub restitution_threshold: Real,
}

impl<const D: usize> ContactConstraint<D>
where
    Space<D>: Dim<D>,
{
    /// A constraint between bodies `body_a` and `body_b` with unit `normal` (A to B, world)
    /// and the first [`fathom_math::MAX_MANIFOLD_POINTS`] of `points`.
    pub fn new(
        body_a: usize,
        body_b: usize,
        normal: Vector<D>,
        friction: Real,
        restitution: Real,
        points: impl IntoIterator<Item = ContactPoint<D>>,
    ) -> Self {
        let points = points.into_iter().take(MAX_MANIFOLD_POINTS).collect();
        Self {
            body_a,
            body_b,
            normal,
            friction,
            restitution,
            points,
            tangents: Space::<D>::tangents(&normal),
            tangent_velocity: Vector::zeros(),
        }
    }

    /// The deepest current penetration of this manifold, metres (0 when none).
    pub fn max_penetration(&self) -> Real {
        self.points
            .iter()
            .map(|p| -p.separation)
            .fold(0.0, Real::max)
    }
}
