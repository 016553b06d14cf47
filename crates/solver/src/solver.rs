//! The substepped soft-step solver, as a list of named stages.
//!
//! ```text
//! prepare contacts and constraints (anchors, masses, impact speeds)
//! for each substep h = dt / substeps:
//!     integrate velocities   (gravity, forces, damping, gyroscopic term, speed caps)
//!     warm start             (last impulses, re-applied)
//!     solve                  (soft: position error fed back, push-out capped)
//!     integrate positions    (a body no constraint touched: its exact free path)
//!     relax                  (rigid, no bias: removes the velocity the bias added)
//! restitution                (bounce at the impact speed, above a threshold)
//! ```
//!
//! The contact passes run colour by colour (`colour.rs`): no two contacts of a colour share
//! a dynamic body, so a colour's contacts are solved in parallel and give the same bits on
//! any number of threads. The solve and relax passes visit the colours of contacts between
//! moving bodies forward on even substeps and backward on odd ones ([`Sweep`]). One
//! Gauss-Seidel sweep leaves the last constraints it visits exactly satisfied and the first
//! ones a little off, so a single direction leans a wide structure to one side (the 100-row
//! pyramid swayed 0.2-0.3 m for 9 s); alternating settles it at no extra cost. Contacts
//! against static or kinematic bodies (foundations) have colours of their own, visited first
//! in every pass: a sweep that ends on the ground contact under a 1 kg ball carrying a
//! 1000 kg one leaves the heavy ball sinking into the light one.
//!
//! After every stage a guard ([`freeze_non_finite`]) looks at each body: one whose state is
//! no longer finite (a huge force, a degenerate mass ratio) is frozen on the spot, turned into
//! a static body at rest, so the next stage's constraints see a finite, immovable body and
//! the NaN never spreads to the bodies it touches. The caller learns it from
//! [`SolverBody::frozen`].
//!
//! Substepping with a soft bias keeps stacks stable with few iterations: the
//! bias never injects more energy than the spring it models, and relaxing
//! after the position update removes the push-out velocity so resting
//! contacts do not jitter. Joints run serially, before the contacts, at every stage.

use crate::body::{Motion, SolverBody};
use crate::colour::{Colourer, Schedule};
use crate::constraint::Constraint;
use crate::contact::{ContactConstraint, StepContext};
use crate::prepared::{Prepared, PreparedPoint};
use crate::softness::Softness;
use crate::view::BodyView;
use crate::wide::{Sources, WidePass, WideWork};
use fathom_math::{Dim, Real, Space, Vector};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::ops::Range;

/// The solver's tuning. Defaults follow Box2D v3, except for a contact damping ratio of 20
/// (Box2D's 10 left a resting five-box tower in 3D in a 1 mm/s limit cycle).
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
    /// Speed cap of the centre of mass of any dynamic body, m/s (world frame). Default 1000
    /// (a rifle bullet; a body that should go faster needs a larger cap).
    pub max_linear_speed: Real,
    /// Cap on the angular speed of any dynamic body, rad/s. Default 500 (about 80 turns a
    /// second). At the default step the per-substep cap below is the tighter one.
    pub max_angular_speed: Real,
    /// Cap on the rotation of a body in one substep, radians.
    pub max_rotation_per_substep: Real,
}

impl Default for SolverSettings {
    fn default() -> Self {
        Self {
            substeps: 4,
            contact_hertz: 30.0,
            contact_damping_ratio: 20.0,
            joint_hertz: 60.0,
            joint_damping_ratio: 2.0,
            max_push_out_speed: 3.0,
            restitution_threshold: 1.0,
            max_linear_speed: 1000.0,
            max_angular_speed: 500.0,
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

/// Advances the bodies by `dt` seconds: the whole soft-step pipeline. The contacts' impulses
/// are updated in place.
///
/// A step with enough contacts or bodies to share out runs on one of rayon's threads: the
/// passes hand a colour's halves (and the body stages their chunks) to the other threads
/// hundreds of times a step, which from a thread outside the pool would be a sleep and a
/// wake each.
pub fn step<const D: usize>(settings: &SolverSettings, dt: Real, input: SolverInput<'_, D>)
where
    Space<D>: Dim<D>,
{
    step_with(settings, dt, input, &mut SolverScratch::default());
}

/// The solver's working memory: the colouring and the prepared contacts of a step. A caller
/// stepping every frame keeps one and passes it to [`step_with`], so that a steady step
/// reuses the last step's memory instead of allocating. It holds nothing between steps that
/// changes the answer.
#[derive(Default)]
pub struct SolverScratch<const D: usize>
where
    Space<D>: Dim<D>,
{
    schedule: Schedule,
    colourer: Colourer,
    work: Work<D>,
    carried: Vec<Real>,
}

impl<const D: usize> SolverScratch<D>
where
    Space<D>: Dim<D>,
{
    /// How many colours the last step's contacts took (serial overflow lists included).
    pub fn colour_count(&self) -> usize {
        self.schedule.colour_count()
    }
}

/// [`step`] with the working memory of `scratch` (see [`SolverScratch`]).
pub fn step_with<const D: usize>(
    settings: &SolverSettings,
    dt: Real,
    input: SolverInput<'_, D>,
    scratch: &mut SolverScratch<D>,
) where
    Space<D>: Dim<D>,
{
    let parallel =
        input.contacts.len() > crate::colour::PARALLEL_FROM || input.bodies.len() > 2 * BODY_TASK;
    if parallel && rayon::current_thread_index().is_none() {
        rayon::scope(|_| step_here(settings, dt, input, scratch));
    } else {
        step_here(settings, dt, input, scratch);
    }
}

fn step_here<const D: usize>(
    settings: &SolverSettings,
    dt: Real,
    input: SolverInput<'_, D>,
    scratch: &mut SolverScratch<D>,
) where
    Space<D>: Dim<D>,
{
    let ctx = settings.context(dt);
    let SolverInput {
        gravity,
        bodies,
        contacts,
        constraints,
    } = input;
    freeze_non_finite(bodies);
    prepare_bodies(bodies, constraints, &ctx);
    let SolverScratch {
        schedule,
        colourer,
        work,
        carried,
    } = scratch;
    schedule.rebuild(bodies, contacts, colourer);
    let schedule = &*schedule;
    work.prepare(bodies, contacts, schedule, &ctx, &gravity);
    mass_ratio_passes(bodies, &mut work.contacts, carried);
    let sources = Sources {
        order: schedule.order(),
        constraints: contacts,
        bodies,
    };
    work.lanes
        .pack(schedule.colour_ranges(), &work.contacts, &sources);
    work.prepare_points(&sources);
    for substep in 0..settings.substeps.max(1) {
        let sweep = Sweep::of_substep(substep);
        // The body stages guard each body before and after they update it, so the passes
        // between them are covered: the biased solve by the position stage, the relax pass
        // by the next substep's velocity stage, the last one by the guard stage after them.
        integrate_velocities(bodies, &gravity, settings, &ctx);
        warm_start(bodies, work, constraints, schedule, &ctx);
        solve(bodies, work, constraints, schedule, &ctx, true, sweep);
        integrate_positions(bodies, &ctx);
        solve(bodies, work, constraints, schedule, &ctx, false, sweep);
    }
    freeze_non_finite(bodies);
    work.lanes
        .unpack(&work.contacts, &mut work.points, PREPARE_TASK);
    apply_restitution(bodies, work, schedule, &ctx);
    finish_bodies(bodies);
    work.store(contacts);
}

/// The prepared contacts of a step, in colour order, and their points.
#[derive(Default)]
pub(crate) struct Work<const D: usize>
where
    Space<D>: Dim<D>,
{
    pub(crate) contacts: Vec<Prepared<D>>,
    pub(crate) points: Vec<PreparedPoint<D>>,
    /// Each prepared contact's first point, and one past the last point.
    firsts: Vec<usize>,
    /// Each caller contact's place in the colour order (the order's inverse).
    rank: Vec<u32>,
    /// The contacts four to a bundle for the wide passes (`wide.rs`).
    pub(crate) lanes: WideWork<D>,
}

impl<const D: usize> Work<D>
where
    Space<D>: Dim<D>,
{
    /// Stage: every contact's shared terms ([`Prepared::of_contact`]) from the bodies at step
    /// start, in colour order, over the last step's memory, and its place in the point list.
    /// `gravity` (m/s², world) lets contacts extrapolate their impact speed within the step.
    fn prepare(
        &mut self,
        bodies: &[SolverBody<D>],
        contacts: &[ContactConstraint<D>],
        schedule: &Schedule,
        ctx: &StepContext,
        gravity: &Vector<D>,
    ) {
        let order = schedule.order();
        let firsts = &mut self.firsts;
        firsts.clear();
        firsts.push(0);
        self.rank.clear();
        self.rank.resize(contacts.len(), 0);
        for (k, &i) in order.iter().enumerate() {
            let last = firsts[firsts.len() - 1];
            firsts.push(last + contacts[i as usize].points.len());
            self.rank[i as usize] = k as u32;
        }
        // Only the contacts that need scalar points get theirs written (`prepare_points`), and
        // nothing reads the others' slots, so last step's slots are kept.
        self.points
            .resize(firsts[order.len()], PreparedPoint::zero());
        let firsts = &*firsts;
        self.contacts.clear();
        self.contacts
            .par_extend(
                order
                    .par_iter()
                    .enumerate()
                    .with_min_len(PREPARE_TASK)
                    .map(|(k, &i)| {
                        let mut p =
                            Prepared::of_contact(&contacts[i as usize], bodies, ctx, gravity);
                        p.first = firsts[k] as u32;
                        p
                    }),
            );
    }

    /// Stage: the points of the contacts the scalar passes or restitution read, in
    /// parallel; the bundles prepared theirs in lanes when they were packed.
    fn prepare_points(&mut self, sources: &Sources<'_, D>) {
        let job = PointJob {
            sources,
            contacts: &self.contacts,
            firsts: &self.firsts,
            lanes: &self.lanes,
        };
        job.run(0..self.contacts.len(), &mut self.points);
    }

    /// Stage: the impulses back into the caller's contacts, in parallel over them.
    fn store(&self, contacts: &mut [ContactConstraint<D>]) {
        contacts
            .par_iter_mut()
            .zip(self.rank.par_iter())
            .with_min_len(PREPARE_TASK)
            .for_each(|(c, &k)| {
                let p = &self.contacts[k as usize];
                if !self.lanes.store(k as usize, p, c) {
                    p.store(self.points_of(p), c);
                }
            });
    }

    fn points_of(&self, p: &Prepared<D>) -> &[PreparedPoint<D>] {
        &self.points[p.first as usize..p.first as usize + p.count as usize]
    }
}

/// What preparing the scalar points of a range of contacts reads.
struct PointJob<'a, const D: usize>
where
    Space<D>: Dim<D>,
{
    sources: &'a Sources<'a, D>,
    contacts: &'a [Prepared<D>],
    firsts: &'a [usize],
    lanes: &'a WideWork<D>,
}

impl<const D: usize> PointJob<'_, D>
where
    Space<D>: Dim<D>,
{
    /// Prepares the scalar points of the contacts `range` of the colour order that need
    /// them into `points` (which start at that range's first point), halving the range over
    /// rayon's threads down to [`PREPARE_TASK`] contacts.
    fn run(&self, range: Range<usize>, points: &mut [PreparedPoint<D>]) {
        if range.len() <= PREPARE_TASK {
            let base = self.firsts[range.start];
            for k in range {
                let p = &self.contacts[k];
                if !self.lanes.needs_scalar_points(k, p) {
                    continue;
                }
                let (first, end) = (self.firsts[k], self.firsts[k + 1]);
                let c = &self.sources.constraints[self.sources.order[k] as usize];
                p.prepare_points(
                    c,
                    self.sources.bodies,
                    &mut points[first - base..end - base],
                );
            }
            return;
        }
        let half = range.start + range.len() / 2;
        let (lo, hi) = points.split_at_mut(self.firsts[half] - self.firsts[range.start]);
        rayon::join(
            || self.run(range.start..half, lo),
            || self.run(half..range.end, hi),
        );
    }
}

/// Guard stage: freezes every body whose state is not finite ([`SolverBody::freeze`]).
/// Returns how many it froze now.
pub fn freeze_non_finite<const D: usize>(bodies: &mut [SolverBody<D>]) -> usize
where
    Space<D>: Dim<D>,
{
    bodies
        .par_iter_mut()
        .with_min_len(BODY_TASK)
        .map(|b| guard(b, Written::All) as usize)
        .sum()
}

/// Last body stage: the locked axes' constraint once more (the relax pass and restitution
/// come after the position stage), then the guard.
fn finish_bodies<const D: usize>(bodies: &mut [SolverBody<D>])
where
    Space<D>: Dim<D>,
{
    bodies.par_iter_mut().with_min_len(BODY_TASK).for_each(|b| {
        b.project_locked();
        guard(b, Written::All);
    });
}

/// The part of a body a stage wrote, which is what the guard after it checks.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Written {
    /// Anything (the step's first and last guards).
    All,
    /// The velocities only: forces, contact and joint passes.
    Velocities,
    /// The centre, rotation and accumulated motion: the position stage.
    Pose,
}

/// Freezes `b` if the part of its state `written` stopped being finite; true when it did
/// now. The body stages run it on each body they update, so a body is checked right after
/// every stage that moves it.
#[inline(always)]
fn guard<const D: usize>(b: &mut SolverBody<D>, written: Written) -> bool
where
    Space<D>: Dim<D>,
{
    let finite = match written {
        Written::All => b.is_finite(),
        Written::Velocities => b.velocities_finite(),
        Written::Pose => b.pose_finite(),
    };
    let freeze = !b.frozen && !finite;
    if freeze {
        freeze_cold(b);
    }
    freeze
}

/// [`SolverBody::freeze`] out of line: the guard's rare path.
#[cold]
#[inline(never)]
fn freeze_cold<const D: usize>(b: &mut SolverBody<D>)
where
    Space<D>: Dim<D>,
{
    b.freeze();
}

/// Bodies per parallel task of the body stages.
const BODY_TASK: usize = 1024;

/// Stage: per-step setup of the bodies (position deltas reset, world inertia) and of the
/// joints.
fn prepare_bodies<const D: usize>(
    bodies: &mut [SolverBody<D>],
    constraints: &mut [&mut dyn Constraint<D>],
    ctx: &StepContext,
) where
    Space<D>: Dim<D>,
{
    bodies.par_iter_mut().with_min_len(BODY_TASK).for_each(|b| {
        b.delta_position = Vector::zeros();
        b.refresh_inv_inertia();
        b.gyroscopic_inertia = Space::<D>::gyroscopic_inertia(&b.inv_inertia_local);
    });
    for c in constraints.iter_mut() {
        c.prepare(bodies, ctx);
    }
}

/// Contacts per parallel task of the prepare stage.
const PREPARE_TASK: usize = 128;

/// Most passes a contact gets under a mass ratio.
pub const MAX_PASSES: u8 = 8;

/// Passes for a light body carrying one `ratio` times heavier: one below
/// [`crate::contact::HEAVY_RATIO`], then doubling per decade (2 at 1:10, 4 at 1:100, 8 at
/// 1:1000), capped at [`MAX_PASSES`].
pub fn passes_for_ratio(ratio: Real) -> u8 {
    if ratio < crate::contact::HEAVY_RATIO || ratio.is_nan() {
        return 1;
    }
    let passes = ratio.log10().exp2().round();
    passes.min(MAX_PASSES as Real) as u8
}

/// Stage: the contacts of a dynamic body that touches a much heavier dynamic one get more
/// passes. A light body between a heavy one and the ground is the slowest part of a
/// Gauss-Seidel sweep to converge (its error shrinks by about the mass ratio per pass), and
/// with one pass a 100 kg box on a 1 kg one rocked it and drifted 6 cm in 5 s. Scenes without
/// such a pair are unchanged and allocate nothing here.
fn mass_ratio_passes<const D: usize>(
    bodies: &[SolverBody<D>],
    contacts: &mut [Prepared<D>],
    carried: &mut Vec<Real>,
) where
    Space<D>: Dim<D>,
{
    if contacts
        .iter()
        .all(|c| c.mass_ratio().1 < crate::contact::HEAVY_RATIO)
    {
        contacts.iter_mut().for_each(|c| c.passes = 1);
        return;
    }
    carried.clear();
    carried.resize(bodies.len(), 1.0);
    for c in contacts.iter() {
        let (light, ratio) = c.mass_ratio();
        carried[light] = carried[light].max(ratio);
    }
    for c in contacts.iter_mut() {
        let ratio = carried[c.body_a].max(carried[c.body_b]);
        c.passes = passes_for_ratio(ratio);
    }
}

/// Stage: gravity, external forces, damping and the gyroscopic term change the dynamic
/// bodies' velocities over one substep; speeds are capped.
fn integrate_velocities<const D: usize>(
    bodies: &mut [SolverBody<D>],
    gravity: &Vector<D>,
    settings: &SolverSettings,
    ctx: &StepContext,
) where
    Space<D>: Dim<D>,
{
    let h = ctx.h;
    let max_w = (settings.max_rotation_per_substep * ctx.inv_h).min(settings.max_angular_speed);
    bodies.par_iter_mut().with_min_len(BODY_TASK).for_each(|b| {
        // The relax pass of the substep before may have left the body non-finite, or moving
        // along a locked axis: the substep must start without it, or the free path (the mean
        // of the start and end velocities) would carry it there.
        guard(b, Written::Velocities);
        b.project_locked();
        b.begin_substep();
        if b.motion == Motion::Dynamic {
            let accel = b.free_acceleration(gravity);
            let alpha = Space::<D>::inertia_apply(&b.inv_inertia, &b.torque);
            let spin = match &b.gyroscopic_inertia {
                Some(inertia) => {
                    Space::<D>::gyroscopic(&b.rotation, inertia, &b.angular_velocity, h)
                }
                None => b.angular_velocity,
            };
            // Implicit damping: v' = v / (1 + h c) is stable for any rate.
            let v = (b.linear_velocity + accel * h) / (1.0 + h * b.linear_damping);
            let w = (spin + alpha * h) * (1.0 / (1.0 + h * b.angular_damping));
            b.linear_velocity = cap_norm(v, |v| v.norm(), settings.max_linear_speed);
            b.angular_velocity = cap_norm(w, Space::<D>::ang_norm, max_w);
            b.project_locked();
        }
        b.end_forces();
        guard(b, Written::Velocities);
    });
}

/// `v` scaled down to norm `max` when its norm is larger. A norm that overflows `f32`
/// (components above ~1e19) is measured on `v` scaled by 1e-20 instead. An infinite or NaN
/// `v` is returned as it is (`v * (max / inf)` would be `0 * inf = NaN` anyway) for the
/// guard after this stage to freeze.
fn cap_norm<V>(v: V, norm: impl Fn(&V) -> Real, max: Real) -> V
where
    V: Copy + std::ops::Mul<Real, Output = V>,
{
    let n = norm(&v);
    if n.is_nan() || n <= max {
        return v;
    }
    if n.is_finite() {
        return v * (max / n);
    }
    let small = v * 1e-20;
    let n_small = norm(&small);
    if n_small.is_finite() && n_small > 0.0 {
        small * (max / n_small)
    } else {
        v
    }
}

/// Stage: re-apply last step's impulses.
fn warm_start<const D: usize>(
    bodies: &mut [SolverBody<D>],
    work: &mut Work<D>,
    constraints: &mut [&mut dyn Constraint<D>],
    schedule: &Schedule,
    ctx: &StepContext,
) where
    Space<D>: Dim<D>,
{
    for c in constraints.iter_mut() {
        c.warm_start(bodies, ctx);
    }
    let view = BodyView::new(bodies);
    schedule.for_each_wide(
        work,
        Sweep::Forward,
        |c, points| c.warm_start(points, &view),
        &WidePass::WarmStart(&view),
    );
}

/// The order in which a pass visits the constraints.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Sweep {
    /// First to last.
    Forward,
    /// Last to first.
    Backward,
}

impl Sweep {
    /// Forward on even substeps, backward on odd ones: a symmetric Gauss-Seidel over a step.
    /// Either way the joints come first, then the foundation contacts (in their order), then
    /// the contacts between moving bodies; the joints and the last group are what reverse.
    pub(crate) fn of_substep(substep: u32) -> Self {
        if substep % 2 == 0 {
            Self::Forward
        } else {
            Self::Backward
        }
    }
}

/// Stage: one sequential-impulse pass, biased (solve) or not (relax), in `sweep` order: the
/// joints first either way, so the contacts have the last word on penetration, then the
/// contacts colour by colour ([`Schedule::for_each`]).
fn solve<const D: usize>(
    bodies: &mut [SolverBody<D>],
    work: &mut Work<D>,
    constraints: &mut [&mut dyn Constraint<D>],
    schedule: &Schedule,
    ctx: &StepContext,
    use_bias: bool,
    sweep: Sweep,
) where
    Space<D>: Dim<D>,
{
    match sweep {
        Sweep::Forward => constraints
            .iter_mut()
            .for_each(|c| c.solve(bodies, ctx, use_bias)),
        Sweep::Backward => constraints
            .iter_mut()
            .rev()
            .for_each(|c| c.solve(bodies, ctx, use_bias)),
    }
    let view = BodyView::new(bodies);
    let single = |c: &Prepared<D>, points: &mut [PreparedPoint<D>]| {
        for _ in 0..c.passes {
            c.solve_normal(points, &view, ctx, use_bias);
            c.solve_friction(points, &view);
        }
        if !use_bias {
            Prepared::record_substep(points);
        }
    };
    let wide = WidePass::Solve(&view, ctx, use_bias);
    schedule.for_each_wide(work, sweep, single, &wide);
}

/// Stage: move every non-static body over one substep: by its velocity, or along its exact
/// free path when no constraint acted on it.
fn integrate_positions<const D: usize>(bodies: &mut [SolverBody<D>], ctx: &StepContext)
where
    Space<D>: Dim<D>,
{
    bodies.par_iter_mut().with_min_len(BODY_TASK).for_each(|b| {
        // The solve pass before this stage may have left the body non-finite.
        guard(b, Written::Velocities);
        if b.motion == Motion::Static {
            return;
        }
        b.project_locked();
        let drift = b.drift_velocities();
        let dp = drift.linear * ctx.h;
        b.center += dp;
        b.delta_position += dp;
        b.rotation = Space::<D>::integrate_rotation(&b.rotation, &drift.angular, ctx.h);
        guard(b, Written::Pose);
    });
}

/// Stage: restitution on every contact, after the last substep.
fn apply_restitution<const D: usize>(
    bodies: &mut [SolverBody<D>],
    work: &mut Work<D>,
    schedule: &Schedule,
    ctx: &StepContext,
) where
    Space<D>: Dim<D>,
{
    let view = BodyView::new(bodies);
    schedule.for_each(work, Sweep::Forward, |c, points| {
        c.apply_restitution(points, &view, ctx)
    });
}

#[cfg(test)]
mod pass_tests {
    use super::*;

    #[test]
    fn passes_double_per_decade_of_mass_ratio() {
        for (ratio, passes) in [
            (1.0, 1),
            (9.9, 1),
            (10.0, 2),
            (100.0, 4),
            (1000.0, 8),
            (1e6, 8),
        ] {
            assert_eq!(passes_for_ratio(ratio), passes, "ratio {ratio}");
        }
        assert_eq!(passes_for_ratio(Real::NAN), 1);
    }
}
