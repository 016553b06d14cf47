//! Continuous collision in the step (after stage 6a, see `pipeline.rs`), and the end-of-step
//! refresh of collider poses and boxes.
//!
//! The solver moves bodies by whole steps, and its speculative contacts only
//! see what was within reach at the start of the step. A bullet, or a body
//! moving more than [`CCD_MOTION_FRACTION`] of its size in one step, is swept
//! from its start pose to its end pose against its broadphase candidates
//! (static and moving, sensors and filtered pairs excluded; for a body that is not
//! a bullet, only those it moves more than that fraction relative to), and its
//! motion is clipped at the first impact. Its velocity is kept: at the next step the
//! contact is a few millimetres away and the speculative contact stops it.
//!
//! Two exact tests, both from `fathom-ccd` and both conservative (they never
//! step past a surface):
//!
//! - a ball that translates against a target that translates: a sphere cast
//!   of the relative motion against the target at its start pose, one field
//!   evaluation per march step;
//! - anything else (rotation, other shapes, spinning targets): time of impact
//!   by conservative advancement on both bodies' rigid motions.
//!
//! **Starting in contact.** A body already touching a surface must still be
//! free to slide along it. The ball test casts a ball shrunk to the clearance
//! its centre has at the start (less [`CCD_GAP`]), so it may not get any
//! deeper than it already is, but may move sideways. Any other shape that
//! starts touching (time of impact 0) is swept by its core instead, a ball
//! inside it ([`CORE_FRACTION`]): clipping the whole shape at time 0 would
//! freeze a body in place while its velocity kept growing (a plank sliding on
//! the floor stopped dead, gaining speed it never used).
//!
//! All candidates are swept against the *unclipped* motions of the others (in
//! parallel, gathered in body order), and clips are applied afterwards, so
//! two bullets aimed at each other find the same time of impact and both stop
//! there.

use crate::arena::{BodyHandle, ColliderHandle, RawHandle};
use crate::desc::BodyKind;
use crate::pipeline::collider_aabb;
use crate::world::World;
use fathom_broadphase::QueryControl;
use fathom_ccd::{CastOptions, CastResult, CastShape, Motion, ToiOptions, ToiResult};
use fathom_math::{Aabb, Dim, Pose, Real, Space, Vector};
use fathom_sdf::{Sdf, ShapeKind};
use nalgebra::AbstractRotation;
use rayon::prelude::*;

/// A body moving farther than this fraction of its smallest collider's smallest half
/// extent in one step is swept even without the bullet flag.
pub const CCD_MOTION_FRACTION: Real = 0.5;

/// Clearance, metres, a swept ball keeps from a surface it starts against (twice the
/// cast epsilon, so the shrunk ball never starts inside its own cast's tolerance).
pub const CCD_GAP: Real = 2e-3;

/// The core a body starting in contact is swept with, as a fraction of its origin's
/// depth inside its shape (`core_impact`).
pub const CORE_FRACTION: Real = 0.5;

/// A collider's sizes, fixed while its shape, local pose and body's mass are.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct ColliderSizes {
    /// How far the shape extends from its origin, metres (`reuse.rs`, `shape_radius`).
    pub radius: Real,
    /// How far its bounds reach from its body's centre of mass, metres.
    pub reach: Real,
    /// The size its contact queries resolve their tolerances against
    /// (`fathom_narrowphase::query_size`).
    pub query: Option<Real>,
    /// True for a ball, capsule or cuboid: an exact field inside the ball of `radius`, whose
    /// contact query finds nothing beyond its margin.
    pub bounded: bool,
}

/// What time of impact says about one pair over the step.
enum Toi {
    /// First contact at this fraction of the step, after its start.
    At(Real),
    /// Touching or overlapping at the start: a contact the solver already holds.
    AtStart,
    /// No contact during the step.
    Never,
}

/// A body's motion over the step: start and end poses of its origin.
#[derive(Clone, Copy)]
pub(crate) struct Sweep<const D: usize>
where
    Space<D>: Dim<D>,
{
    start: Pose<D>,
    end: Pose<D>,
    /// Centre of mass, body frame.
    local_com: Vector<D>,
    /// The centre of mass's translation over the step.
    shift: Vector<D>,
    /// The rotation from start to end as a scaled axis (radians).
    turn: fathom_math::AngVector<D>,
}

impl<const D: usize> Sweep<D>
where
    Space<D>: Dim<D>,
{
    /// The translation and turn are computed here, once per sweep, for every candidate
    /// pair to read.
    fn new(start: Pose<D>, end: Pose<D>, local_com: Vector<D>) -> Self {
        let com = |pose: &Pose<D>| pose.transform_point(&local_com.into()).coords;
        Self {
            start,
            end,
            local_com,
            shift: com(&end) - com(&start),
            turn: Space::<D>::scaled_axis(
                &(end.rotation * AbstractRotation::inverse(&start.rotation)),
            ),
        }
    }

    /// The pose at `f` in [0, 1] of the step: the centre of mass moves straight, the
    /// body turns at a constant rate (the motion `fathom-ccd` sweeps).
    fn pose_at(&self, f: Real) -> Pose<D> {
        self.motion_of_origin().pose_at(f)
    }

    /// The body's motion over a unit time (t = fraction of the step), origin frame.
    fn motion_of_origin(&self) -> Motion<D> {
        Motion::new(self.start, self.shift, self.turn).with_local_center(self.local_com)
    }

    /// The motion of a collider attached at `local` (body frame), unit time.
    fn motion_of(&self, local: &Pose<D>) -> Motion<D> {
        let center = local.inverse_transform_point(&self.local_com.into()).coords;
        Motion::new(self.start * local, self.shift, self.turn).with_local_center(center)
    }

    /// How far the step's turn moves a point `reach` metres from the centre of mass (a bound).
    fn swing(&self, reach: Real) -> Real {
        Space::<D>::ang_norm(&self.turn) * reach
    }

    /// True when the body does not turn (to within what `eps` allows at `reach`).
    fn turns_less_than(&self, eps: Real, reach: Real) -> bool {
        let angle = Space::<D>::ang_norm(&self.turn);
        angle == 0.0 || angle * reach <= eps
    }
}

impl<const D: usize> World<D>
where
    Space<D>: Dim<D>,
{
    /// The pose of every body at the start of the step, by arena index.
    pub(crate) fn start_poses(&self, out: &mut Vec<Option<Pose<D>>>) {
        out.clear();
        out.resize(self.bodies.capacity_index(), None);
        for (h, b) in self.bodies.iter() {
            out[h.0.index as usize] = Some(b.pose);
        }
    }

    fn sweep_of(&self, h: BodyHandle, start: &[Option<Pose<D>>]) -> Option<Sweep<D>> {
        let b = self.bodies.get(h)?;
        Some(Sweep::new(
            start.get(h.0.index as usize).copied().flatten()?,
            b.pose,
            b.mass.center,
        ))
    }

    /// Stage 6: sweeps fast and bullet bodies, clips them at their first impact, then
    /// refreshes every moved collider's pose and box to the end of the step. `sweeps` gets
    /// every awake moving body's sweep, computed once for all the pairs that read it. The
    /// sweep sizes are current: the step brought them up to date when it began.
    pub(crate) fn continuous_collision(
        &mut self,
        start: &[Option<Pose<D>>],
        sweeps: &mut Vec<Option<Sweep<D>>>,
    ) {
        let swept = self.sweeps_of_step(start, sweeps);
        let sweeps = &sweeps[..];
        let clips: Vec<(BodyHandle, Real)> = if swept.is_empty() {
            Vec::new()
        } else {
            swept
                .par_iter()
                .filter_map(|&h| self.first_impact(h, sweeps, start).map(|f| (h, f)))
                .collect()
        };
        for (h, f) in clips {
            let sweep = sweeps[h.0.index as usize].expect("swept bodies have a sweep");
            self.bodies.get_mut(h).expect("live").pose = sweep.pose_at(f);
        }
        self.refresh_moved_colliders();
    }

    /// Every awake body that is not fixed gets its sweep in `out` (by arena index, the table
    /// only as long as the last of them needs: a sleeping scene writes none); returns the
    /// dynamic ones that need sweeping, in handle order.
    // Out of line: profiles measure continuous collision by these two functions.
    #[inline(never)]
    fn sweeps_of_step(
        &self,
        start: &[Option<Pose<D>>],
        out: &mut Vec<Option<Sweep<D>>>,
    ) -> Vec<BodyHandle> {
        out.clear();
        let mut swept = Vec::new();
        for (h, b) in self.bodies.iter() {
            if b.kind == BodyKind::Fixed || self.sleep.sleeping(h) {
                continue;
            }
            let Some(sweep) = self.sweep_of(h, start) else {
                continue;
            };
            let slot = h.0.index as usize;
            if out.len() <= slot {
                out.resize(slot + 1, None);
            }
            out[slot] = Some(sweep);
            if b.kind == BodyKind::Dynamic && self.needs_sweep(h, b, &sweep) {
                swept.push(h);
            }
        }
        swept
    }

    /// True for a bullet that moved at all, or a body that moved more than
    /// [`CCD_MOTION_FRACTION`] of its size.
    fn needs_sweep(&self, h: BodyHandle, b: &crate::body::Body<D>, s: &Sweep<D>) -> bool {
        let Some((size, reach)) = self.sweep_size_of(h) else {
            return false;
        };
        let motion = s.shift.norm() + s.swing(reach);
        motion > 0.0 && (b.ccd || motion > CCD_MOTION_FRACTION * size)
    }

    /// Every body's [`Self::sweep_size`] and every collider's shape radius, computed again
    /// only after a body's colliders or mass changed, a shape was edited, or the world was
    /// deserialised: shapes and local poses are fixed otherwise.
    pub(crate) fn ensure_sweep_sizes(&mut self) {
        if self.sweep_sizes_ready {
            return;
        }
        let mut sizes = std::mem::take(&mut self.sweep_sizes);
        sizes.clear();
        sizes.resize(self.bodies.capacity_index(), None);
        for (h, b) in self.bodies.iter() {
            sizes[h.0.index as usize] = self.sweep_size(b);
        }
        self.sweep_sizes = sizes;
        let mut colliders = std::mem::take(&mut self.collider_sizes);
        colliders.clear();
        colliders.resize(self.colliders.capacity_index(), ColliderSizes::default());
        for (h, c) in self.colliders.iter() {
            colliders[h.0.index as usize] = self.collider_sizes_of(c);
        }
        self.collider_sizes = colliders;
        self.sweep_sizes_ready = true;
    }

    /// The sizes of collider `c` ([`ColliderSizes`]).
    pub(crate) fn collider_sizes_of(&self, c: &crate::body::Collider<D>) -> ColliderSizes {
        let shape = &c.shape as &dyn Sdf<D>;
        let com = self
            .bodies
            .get(c.body)
            .map_or(Vector::<D>::zeros(), |b| b.mass.center);
        ColliderSizes {
            radius: crate::reuse::shape_radius(shape),
            reach: collider_reach(c, &com),
            query: fathom_narrowphase::query_size(shape),
            bounded: matches!(
                shape.kind(),
                ShapeKind::Ball { .. } | ShapeKind::Capsule { .. } | ShapeKind::Cuboid { .. }
            ),
        }
    }

    /// Collider `h`'s sizes, as [`Self::ensure_sweep_sizes`] last computed them (from `c`, the
    /// collider, if it has not).
    pub(crate) fn collider_sizes_at(
        &self,
        h: ColliderHandle,
        c: &crate::body::Collider<D>,
    ) -> ColliderSizes {
        match self.collider_sizes.get(h.0.index as usize) {
            Some(&s) if self.sweep_sizes_ready => s,
            _ => self.collider_sizes_of(c),
        }
    }

    /// Body `h`'s sweep size, as [`Self::ensure_sweep_sizes`] last computed it.
    pub(crate) fn sweep_size_of(&self, h: BodyHandle) -> Option<(Real, Real)> {
        self.sweep_sizes.get(h.0.index as usize).copied().flatten()
    }

    /// The smallest half extent of `b`'s solid colliders and the farthest any of their
    /// points is from its centre of mass, metres; `None` when it has no solid collider.
    pub(crate) fn sweep_size(&self, b: &crate::body::Body<D>) -> Option<(Real, Real)> {
        let mut size = Real::INFINITY;
        let mut reach: Real = 0.0;
        for c in b.colliders.iter().filter_map(|c| self.colliders.get(*c)) {
            if c.sensor {
                continue;
            }
            let bounds = c.shape.bounds();
            size = size.min(((bounds.max - bounds.min) * 0.5).min());
            reach = reach.max(collider_reach(c, &b.mass.center));
        }
        size.is_finite().then_some((size, reach))
    }

    /// The earliest fraction of the step at which body `h` touches a candidate, if any.
    // Out of line: profiles measure continuous collision by these two functions.
    #[inline(never)]
    fn first_impact(
        &self,
        h: BodyHandle,
        sweeps: &[Option<Sweep<D>>],
        start: &[Option<Pose<D>>],
    ) -> Option<Real> {
        let b = self.bodies.get(h)?;
        let sweep = sweeps[h.0.index as usize]?;
        // A candidate this body moves less than the sweep threshold against (a neighbour
        // falling with it) is left to the speculative contacts, as a slow body is.
        let (size, _) = self.sweep_size_of(h)?;
        let close_range = if b.ccd {
            0.0
        } else {
            CCD_MOTION_FRACTION * size
        };
        let mut earliest: Option<Real> = None;
        for &ch in &b.colliders {
            let Some(c) = self.colliders.get(ch) else {
                continue;
            };
            if c.sensor {
                continue;
            }
            let box0 = collider_aabb(&c.shape, &(sweep.start * c.local_pose), 0.0);
            let box1 = collider_aabb(&c.shape, &(sweep.end * c.local_pose), 0.0);
            let reach = self.collider_sizes_at(ch, c).reach;
            self.for_each_sweep_candidate(ch, &box0.merge(&box1), |o, co| {
                let other_sweep = self.moving_sweep(co.body, sweeps, start);
                let other = other_sweep
                    .as_ref()
                    .map(|s| (s, self.collider_sizes_at(o, co).reach));
                // The cheap test first: a neighbour falling with the body fails it.
                if relative_motion(&sweep, reach, other) <= close_range
                    || !may_meet(c, &box0, &sweep, reach, co, other)
                {
                    return;
                }
                if let Some(f) = self.impact_with(c, &sweep, co, other) {
                    earliest = Some(earliest.map_or(f, |e| e.min(f)));
                }
            });
        }
        earliest
    }

    /// The sweep of a body that moves over the step; `None` for a fixed body. A sleeping
    /// body (not in `sweeps`, or past its end) stands still: its sweep is computed here.
    fn moving_sweep(
        &self,
        h: BodyHandle,
        sweeps: &[Option<Sweep<D>>],
        start: &[Option<Pose<D>>],
    ) -> Option<Sweep<D>> {
        match self.bodies.get(h)?.kind {
            BodyKind::Fixed => None,
            _ => sweeps
                .get(h.0.index as usize)
                .copied()
                .flatten()
                .or_else(|| self.sweep_of(h, start)),
        }
    }

    /// Calls `f` with each collider of another body whose box meets `swept` and that may touch
    /// `ch`, in the broadphase's order: the caller keeps the earliest impact, which no order
    /// changes, so nothing is collected or sorted.
    fn for_each_sweep_candidate<'w>(
        &'w self,
        ch: ColliderHandle,
        swept: &Aabb<D>,
        mut f: impl FnMut(ColliderHandle, &'w crate::body::Collider<D>),
    ) {
        let c = self.colliders.get(ch).expect("live");
        let mut visit = |k: u64| {
            let o = ColliderHandle(RawHandle::from_bits(k));
            if let Some(co) = self.colliders.get(o) {
                let (a, ca, b, cb) = if ch < o {
                    (ch, c, o, co)
                } else {
                    (o, co, ch, c)
                };
                if co.body != c.body && self.contact_allowed(a, ca, b, cb) {
                    f(o, co);
                }
            }
            QueryControl::Continue
        };
        if self.broadphase_ready {
            // The box is finite (finite poses, validated shapes).
            let _ = self.broadphase.for_each_overlapping(swept, &mut visit);
        } else {
            for (h, _) in self.colliders.iter() {
                visit(h.0.to_bits());
            }
        }
    }

    /// When (fraction of the step) collider `c` of the swept body first touches `co`, moving by
    /// `other` (its sweep and reach; `None`: fixed).
    fn impact_with(
        &self,
        c: &crate::body::Collider<D>,
        sweep: &Sweep<D>,
        co: &crate::body::Collider<D>,
        other: Option<(&Sweep<D>, Real)>,
    ) -> Option<Real> {
        let eps = CastOptions::default().epsilon;
        let other_sweep = other.map(|(s, _)| s);
        if let ShapeKind::Ball { radius } = c.shape.kind() {
            let center_reach = (c.local_pose.translation.vector - sweep.local_com).norm();
            let still = |(s, reach): (&Sweep<D>, Real)| s.turns_less_than(0.1 * eps, reach);
            if sweep.turns_less_than(0.1 * eps, center_reach) && other.is_none_or(still) {
                return self.ball_impact(radius, c, sweep, co, other_sweep);
            }
        }
        match self.toi_impact(c, sweep, co, other_sweep) {
            Toi::At(f) => Some(f),
            Toi::Never => None,
            Toi::AtStart => self.core_impact(c, sweep, co, other_sweep),
        }
    }

    /// A body that starts touching `co` (time of impact 0) must stay free to slide
    /// along it and to leave it, so its own shape is not swept. Its *core* is: a ball
    /// at the collider's origin, half as large as the origin's depth inside the
    /// shape, cast like a ball bullet (shrunk to its starting clearance). The core
    /// cannot pass through `co`, so neither can the body's middle, while the
    /// surface already in contact is left to the speculative contacts. A shape whose
    /// origin is not inside it (a ring) has no core and is not clipped.
    fn core_impact(
        &self,
        c: &crate::body::Collider<D>,
        sweep: &Sweep<D>,
        co: &crate::body::Collider<D>,
        other: Option<&Sweep<D>>,
    ) -> Option<Real> {
        let sdf = &c.shape as &dyn Sdf<D>;
        let depth = -sdf.distance(&Vector::<D>::zeros()) / sdf.lipschitz();
        let core = CORE_FRACTION * depth;
        if core.is_nan() || core <= CCD_GAP {
            return None;
        }
        self.ball_impact(core, c, sweep, co, other)
    }

    /// A translating ball against a translating target: a sphere cast of the relative
    /// motion, the ball shrunk to its starting clearance (module docs).
    fn ball_impact(
        &self,
        radius: Real,
        c: &crate::body::Collider<D>,
        sweep: &Sweep<D>,
        co: &crate::body::Collider<D>,
        other: Option<&Sweep<D>>,
    ) -> Option<Real> {
        let p0 = (sweep.start * c.local_pose).translation.vector;
        let p1 = (sweep.end * c.local_pose).translation.vector;
        let target = match other {
            Some(s) => s.start * co.local_pose,
            None => co.world_pose,
        };
        let target_shift = other.map_or(Vector::zeros(), |s| {
            (s.end * co.local_pose).translation.vector - target.translation.vector
        });
        let rel = (p1 - p0) - target_shift;
        let len = rel.norm();
        if len <= 0.0 {
            return None;
        }
        let sdf = &co.shape as &dyn Sdf<D>;
        let local = target.inverse_transform_point(&p0.into()).coords;
        let clearance = sdf.distance(&local) / sdf.lipschitz();
        let r = radius.min(clearance - CCD_GAP);
        if r.is_nan() || r < 0.0 {
            return None; // centre at the surface already: the solver's overlap to resolve
        }
        // The clip needs a time never past the surface, not the exact crossing: within the
        // margins the speculative contacts take over.
        let opts = CastOptions {
            refine: false,
            ..CastOptions::default()
        };
        let hit = fathom_ccd::cast_posed(
            sdf,
            &target,
            &CastShape::Ball { radius: r },
            &p0,
            &rel,
            len,
            &opts,
        )
        .ok()?;
        match hit {
            CastResult::Hit { distance, .. } => Some(distance / len),
            CastResult::StepCap {
                distance_reached, ..
            } => Some(distance_reached / len),
            CastResult::StartedInside { .. } => Some(0.0),
            CastResult::Miss { .. } => None,
        }
    }

    /// Any shapes, any rigid motions: time of impact over the step (unit time).
    fn toi_impact(
        &self,
        c: &crate::body::Collider<D>,
        sweep: &Sweep<D>,
        co: &crate::body::Collider<D>,
        other: Option<&Sweep<D>>,
    ) -> Toi {
        let motion_a = sweep.motion_of(&c.local_pose);
        let motion_b = match other {
            Some(s) => s.motion_of(&co.local_pose),
            None => Motion::fixed(co.world_pose),
        };
        // Poses, velocities and shapes were validated where they entered the world.
        let result = fathom_ccd::time_of_impact_trusted(
            &c.shape as &dyn Sdf<D>,
            &motion_a,
            &co.shape as &dyn Sdf<D>,
            &motion_b,
            1.0,
            &ToiOptions {
                epsilon: toi_tolerance(c, co),
                ..ToiOptions::default()
            },
        );
        let time = match result {
            Ok(ToiResult::Impact { time, .. }) => time,
            Ok(ToiResult::IterationCap { time_reached, .. }) => time_reached,
            Ok(ToiResult::Overlapping { .. }) => return Toi::AtStart,
            Ok(ToiResult::NoImpact { .. }) | Err(_) => return Toi::Never,
        };
        if time > 0.0 {
            Toi::At(time)
        } else {
            Toi::AtStart
        }
    }

    /// Every collider of a body that moved gets its end-of-step pose and box, so
    /// queries, sensors and the next step see where things are now.
    /// Sleeping bodies are skipped: nothing moves them without waking them first.
    fn refresh_moved_colliders(&mut self) {
        let sleep = &self.sleep;
        for (_, b) in self
            .bodies
            .iter()
            .filter(|(h, b)| b.kind != BodyKind::Fixed && !sleep.sleeping(*h))
        {
            for &ch in &b.colliders {
                let Some(c) = self.colliders.get_mut(ch) else {
                    continue;
                };
                let pose = b.pose * c.local_pose;
                let aabb = collider_aabb(&c.shape, &pose, c.margin);
                if pose == c.world_pose && c.aabb == aabb {
                    continue;
                }
                c.world_pose = pose;
                c.aabb = aabb;
                if self.broadphase_ready {
                    // The key was inserted with the collider and the box is finite.
                    let _ = self.broadphase.update(ch.0.to_bits(), c.aabb);
                }
            }
        }
    }
}

/// False when collider `c` (start box `box0`, reach `reach` from its body's centre of
/// mass) cannot come within the time of impact's tolerance of `co` (moving by `other`, with
/// its collider's reach from that body's centre of mass) this step:
/// box tests in the other body's translating frame (world boxes, then the shapes' bounds on
/// their own axes, [`fathom_ccd::swept_boxes_may_meet`]). Every point of a body stays
/// within its start box moved by the centre's translation and grown by turn ×
/// reach, so the relative sweep of one start box must meet the other's, grown by
/// both turns and the tolerance. Neighbours falling together (a pile's lattice)
/// are dropped here instead of in a time-of-impact search.
fn may_meet<const D: usize>(
    c: &crate::body::Collider<D>,
    box0: &Aabb<D>,
    sweep: &Sweep<D>,
    reach: Real,
    co: &crate::body::Collider<D>,
    other: Option<(&Sweep<D>, Real)>,
) -> bool
where
    Space<D>: Dim<D>,
{
    let own = sweep.swing(reach) + toi_tolerance(c, co);
    let (other_pose, other_shift, other_slack) = match other {
        None => (co.world_pose, Vector::<D>::zeros(), 0.0),
        Some((s, reach)) => (s.start * co.local_pose, s.shift, s.swing(reach)),
    };
    let other_box = collider_aabb(&co.shape, &other_pose, 0.0);
    let shift = sweep.shift - other_shift;
    let relative = box0.merge(&box0.translated(&shift));
    // The world boxes first (cheap); then the shapes' own boxes on their own axes, which
    // also drop a body falling past a neighbour beside it.
    relative.loosened(own + other_slack).intersects(&other_box)
        && fathom_ccd::swept_boxes_may_meet(
            &c.shape.bounds(),
            &(sweep.start * c.local_pose),
            &co.shape.bounds(),
            &other_pose,
            &shift,
            own + other_slack,
        )
}

/// A bound on how far any point of the swept collider (reaching `reach` from its body's
/// centre of mass) moves relative to any point of the other (moving by `other`, with its
/// reach) over the step, metres: the change of the centres' offset plus each turn times its
/// collider's reach.
fn relative_motion<const D: usize>(
    sweep: &Sweep<D>,
    reach: Real,
    other: Option<(&Sweep<D>, Real)>,
) -> Real
where
    Space<D>: Dim<D>,
{
    let own = sweep.swing(reach);
    match other {
        None => sweep.shift.norm() + own,
        Some((s, other_reach)) => (sweep.shift - s.shift).norm() + own + s.swing(other_reach),
    }
}

/// How close (metres) time of impact brings two colliders: a quarter of their
/// margins together, and never under the cast default of 1 mm. Anything within the
/// margins at the end of the clipped step becomes a speculative contact, so finer
/// is wasted: the field search costs grow as the tolerance squared on curved
/// patches (40 ms per impact at 1 mm against a two-paddle union, in the soak scene).
fn toi_tolerance<const D: usize>(
    c: &crate::body::Collider<D>,
    co: &crate::body::Collider<D>,
) -> Real
where
    Space<D>: Dim<D>,
{
    (0.25 * (c.margin + co.margin)).max(ToiOptions::default().epsilon)
}

/// The farthest any point of `c`'s bounds lies from `local_com` (body frame), metres.
fn collider_reach<const D: usize>(c: &crate::body::Collider<D>, local_com: &Vector<D>) -> Real
where
    Space<D>: Dim<D>,
{
    let bounds = c.shape.bounds();
    let center = c.local_pose.transform_point(&bounds.center().into()).coords;
    (center - local_com).norm() + ((bounds.max - bounds.min) * 0.5).norm()
}
