//! The substepped soft-step solver, as a list of named stages.
//!
//! ```text
//! prepare contacts and constraints (anchors, masses, approach speeds)
//! for each substep h = dt / substeps:
//!     integrate velocities   (gravity, forces, damping, speed caps)
//!     warm start             (last impulses, re-applied)
//!     solve                  (soft: position error fed back, push-out capped)
//!     integrate positions
//!     relax                  (rigid, no bias: removes the velocity the bias added)
//! restitution                (bounce at the approach speed, above a threshold)
//! ```
//!
//! Substepping with a soft bias keeps stacks stable with few iterations: the
//! bias never injects more energy than the spring it models, and relaxing
//! after the position update removes the push-out velocity so resting
//! contacts do not jitter. All stages run serially in slice order, so the
//! result does not depend on the thread count.

use crate::body::{Motion, SolverBody};
use crate::constraint::Constraint;
use crate::contact::{ContactConstraint, StepContext};
use crate::softness::Softness;
use fathom_math::{Dim, Real, Space, Vector};
use serde::{Deserialize, Serialize};

/// The solver's tuning. Defaults follow Box2D v3.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct SolverSettings {
    /// Substeps per step.
    pub substeps: u32,
    /// Contact stiffness, Hz (capped at a quarter of the substep rate).
    pub contact_hertz: Real,
    /// Contact damping ratio (1 = critical; the large default damps push-out).
    pub contact_damping_ratio: Real,
    /// Joint stiffness, Hz (for joint constraints).
    pub joint_hertz: Real,
    /// Joint damping ratio.
    pub joint_damping_ratio: Real,
    /// Fastest speed at which penetration is pushed out, m/s.
    pub max_push_out_speed: Real,
    /// Approach speeds below this do not bounce, m/s.
    pub restitution_threshold: Real,
    /// Speed cap for any body, m/s.
    pub max_linear_speed: Real,
    /// Cap on the rotation of a body in one substep, radians.
    pub max_rotation_per_substep: Real,
}

impl Default for SolverSettings {
    fn default() -> Self {
        Self {
            substeps: 4,
            contact_hertz: 30.0,
            contact_damping_ratio: 10.0,
            joint_hertz: 60.0,
            joint_damping_ratio: 2.0,
            max_push_out_speed: 3.0,
            restitution_threshold: 1.0,
            max_linear_speed: 1000.0,
            max_rotation_per_substep: 0.25 * std::f32::consts::PI,
        }
    }
}

impl SolverSettings {
    /// The per-step context for a step of `dt` seconds.
    pub fn context(&self, dt: Real) -> StepContext {
        let substeps = self.substeps.max(1);
        let h = dt / substeps as Real;
        let inv_h = if h > 0.0 { 1.0 / h } else { 0.0 };
        // A spring stiffer than a quarter of the substep rate is not resolved by the substep.
        let hertz = self.contact_hertz.min(0.25 * inv_h);
        let joint_hertz = self.joint_hertz.min(0.25 * inv_h);
        StepContext {
            dt,
            h,
            inv_h,
            contact_softness: Softness::new(hertz, self.contact_damping_ratio, h),
            static_softness: Softness::new(2.0 * hertz, self.contact_damping_ratio, h),
            joint_softness: Softness::new(joint_hertz, self.joint_damping_ratio, h),
            max_push_out_speed: self.max_push_out_speed,
            restitution_threshold: self.restitution_threshold,
        }
    }
}

/// Everything one step solves: the bodies (by index), the contacts between
/// them and any further constraints (joints).
pub struct SolverInput<'a, const D: usize>
where
    Space<D>: Dim<D>,
{
    /// Gravity, m/s², world frame.
    pub gravity: Vector<D>,
    /// The bodies; constraints refer to them by index.
    pub bodies: &'a mut [SolverBody<D>],
    /// Contact constraints; their impulses are updated in place.
    pub contacts: &'a mut [ContactConstraint<D>],
    /// Other constraints, solved before the contacts at every stage.
    pub constraints: &'a mut [&'a mut dyn Constraint<D>],
}

/// Advances the bodies by `dt` seconds: the whole soft-step pipeline.
pub fn step<const D: usize>(settings: &SolverSettings, dt: Real, input: SolverInput<'_, D>)
where
    Space<D>: Dim<D>,
{
    let ctx = settings.context(dt);
    let SolverInput {
        gravity,
        bodies,
        contacts,
        constraints,
    } = input;
    prepare(bodies, contacts, constraints, &ctx);
    for _ in 0..settings.substeps.max(1) {
        integrate_velocities(bodies, &gravity, settings, &ctx);
        warm_start(bodies, contacts, constraints, &ctx);
        solve(bodies, contacts, constraints, &ctx, true);
        integrate_positions(bodies, &ctx);
        solve(bodies, contacts, constraints, &ctx, false);
    }
    apply_restitution(bodies, contacts, &ctx);
}

/// Stage: per-step setup of every constraint; resets the bodies' position deltas.
pub fn prepare<const D: usize>(
    bodies: &mut [SolverBody<D>],
    contacts: &mut [ContactConstraint<D>],
    constraints: &mut [&mut dyn Constraint<D>],
    ctx: &StepContext,
) where
    Space<D>: Dim<D>,
{
    for b in bodies.iter_mut() {
        b.delta_position = Vector::zeros();
        b.inv_inertia = Space::<D>::inertia_rotated(&b.inv_inertia_local, &b.rotation);
    }
    for c in constraints.iter_mut() {
        c.prepare(bodies, ctx);
    }
    for c in contacts.iter_mut() {
        c.prepare(bodies, ctx);
    }
}

/// Stage: gravity, external forces and damping change the dynamic bodies'
/// velocities over one substep; speeds are capped.
pub fn integrate_velocities<const D: usize>(
    bodies: &mut [SolverBody<D>],
    gravity: &Vector<D>,
    settings: &SolverSettings,
    ctx: &StepContext,
) where
    Space<D>: Dim<D>,
{
    let h = ctx.h;
    let max_w = settings.max_rotation_per_substep * ctx.inv_h;
    for b in bodies.iter_mut().filter(|b| b.motion == Motion::Dynamic) {
        let accel = gravity * b.gravity_scale + b.force * b.inv_mass;
        let alpha = Space::<D>::inertia_apply(&b.inv_inertia, &b.torque);
        // Implicit damping: v' = v / (1 + h c) is stable for any rate.
        let v = (b.linear_velocity + accel * h) / (1.0 + h * b.linear_damping);
        let w = (b.angular_velocity + alpha * h) * (1.0 / (1.0 + h * b.angular_damping));
        b.linear_velocity = cap_norm(v, settings.max_linear_speed);
        let w_norm = Space::<D>::ang_norm(&w);
        b.angular_velocity = if w_norm > max_w {
            w * (max_w / w_norm)
        } else {
            w
        };
    }
}

fn cap_norm<const D: usize>(v: Vector<D>, max: Real) -> Vector<D> {
    let n = v.norm();
    if n > max {
        v * (max / n)
    } else {
        v
    }
}

/// Stage: re-apply last step's impulses.
pub fn warm_start<const D: usize>(
    bodies: &mut [SolverBody<D>],
    contacts: &[ContactConstraint<D>],
    constraints: &mut [&mut dyn Constraint<D>],
    ctx: &StepContext,
) where
    Space<D>: Dim<D>,
{
    for c in constraints.iter_mut() {
        c.warm_start(bodies, ctx);
    }
    for c in contacts {
        c.warm_start(bodies);
    }
}

/// Stage: one sequential-impulse pass, biased (solve) or not (relax).
pub fn solve<const D: usize>(
    bodies: &mut [SolverBody<D>],
    contacts: &mut [ContactConstraint<D>],
    constraints: &mut [&mut dyn Constraint<D>],
    ctx: &StepContext,
    use_bias: bool,
) where
    Space<D>: Dim<D>,
{
    for c in constraints.iter_mut() {
        c.solve(bodies, ctx, use_bias);
    }
    for c in contacts.iter_mut() {
        c.solve_normal(bodies, ctx, use_bias);
        c.solve_friction(bodies);
    }
}

/// Stage: move every non-static body by its velocity over one substep.
pub fn integrate_positions<const D: usize>(bodies: &mut [SolverBody<D>], ctx: &StepContext)
where
    Space<D>: Dim<D>,
{
    for b in bodies.iter_mut().filter(|b| b.motion != Motion::Static) {
        let dp = b.linear_velocity * ctx.h;
        b.center += dp;
        b.delta_position += dp;
        b.rotation = Space::<D>::integrate_rotation(&b.rotation, &b.angular_velocity, ctx.h);
        b.inv_inertia = Space::<D>::inertia_rotated(&b.inv_inertia_local, &b.rotation);
    }
}

/// Stage: restitution on every contact, after the last substep.
pub fn apply_restitution<const D: usize>(
    bodies: &mut [SolverBody<D>],
    contacts: &mut [ContactConstraint<D>],
    ctx: &StepContext,
) where
    Space<D>: Dim<D>,
{
    for c in contacts.iter_mut() {
        c.apply_restitution(bodies, ctx);
    }
}
