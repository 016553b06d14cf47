//! The solver's view of a body: its centre of mass, rotation, velocities and
//! inverse mass, plus the position change accumulated over the current step.
//!
//! The world copies its bodies into a flat `Vec<SolverBody>` once per step and
//! copies them back afterwards, so the inner loops of the solver touch one
//! small, contiguous struct per body and constraints address bodies by index.
//! Static bodies are solver bodies too (zero inverse mass, zero velocity):
//! that keeps every constraint two-sided without special cases.

use crate::locks::LockedAxes;
use fathom_math::{is_finite_vec, AngVector, AngularInertia, Dim, Real, Rotation, Space, Vector};
use serde::{Deserialize, Serialize};

/// How a body moves, as the solver sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Motion {
    /// Moved by forces, gravity and constraint impulses.
    Dynamic,
    /// Moved by its velocity only; infinite mass to everything else.
    Kinematic,
    /// Never moves.
    Static,
}

/// A linear and an angular velocity.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Velocities<const D: usize>
where
    Space<D>: Dim<D>,
{
    pub(crate) linear: Vector<D>,
    pub(crate) angular: AngVector<D>,
}

impl<const D: usize> Default for Velocities<D>
where
    Space<D>: Dim<D>,
{
    fn default() -> Self {
        Self {
            linear: Vector::zeros(),
            angular: Space::<D>::ang_zero(),
        }
    }
}

/// One body in the solver. All vectors are in the world frame.
///
/// The fields the contact passes read and write come first, in declaration order (`repr(C)`)
/// and on a cache line of their own: a pass over thousands of contacts touches one line of
/// each body it visits.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(bound = "")]
#[repr(C, align(64))]
pub struct SolverBody<const D: usize>
where
    Space<D>: Dim<D>,
{
    /// Velocity of the centre of mass, m/s.
    pub linear_velocity: Vector<D>,
    /// Angular velocity, rad/s (a scalar in 2D).
    pub angular_velocity: AngVector<D>,
    /// Translation of the centre of mass since the start of the step, metres.
    /// Constraints use it to recompute separations every substep without new collision queries.
    pub delta_position: Vector<D>,
    /// Orientation (body frame to world frame).
    pub rotation: Rotation<D>,
    /// How the body moves.
    pub motion: Motion,
    /// Centre of mass, world frame, metres.
    pub center: Vector<D>,
    /// 1 / mass (1/kg); zero for static and kinematic bodies.
    pub inv_mass: Real,
    /// Inverse angular inertia about the centre of mass, body frame.
    pub inv_inertia_local: AngularInertia<D>,
    /// Inverse angular inertia about the centre of mass, world frame, from the rotation at step
    /// start: the substeps keep it, as the contacts' effective masses do (`docs/solver.md`).
    pub inv_inertia: AngularInertia<D>,
    /// Linear damping rate, 1/s.
    pub linear_damping: Real,
    /// Angular damping rate, 1/s.
    pub angular_damping: Real,
    /// Multiplier of the world's gravity for this body.
    pub gravity_scale: Real,
    /// External force applied through the centre of mass during this step, N (world frame).
    pub force: Vector<D>,
    /// External torque applied during this step, N m (world frame).
    pub torque: AngVector<D>,
    /// World axes along or about which the body may not move (dynamic bodies only), set by
    /// [`SolverBody::with_locks`] so that the inverse inertia and `locked` follow.
    #[serde(default)]
    locks: LockedAxes,
    /// True when `locks` locks anything: one flag for the body stages to test (serialised
    /// with `locks`, so a decoded body keeps them in step).
    #[serde(default)]
    locked: bool,
    /// Body-frame inertia for the gyroscopic term, set once a step by the solver (`None`:
    /// no gyroscopic change, see [`Dim::gyroscopic_inertia`]).
    #[serde(skip)]
    pub(crate) gyroscopic_inertia: Option<AngularInertia<D>>,
    /// Velocities at the start of the current substep (linear, angular), before forces.
    #[serde(skip)]
    substep_start: Velocities<D>,
    /// Velocities after the substep's forces and gravity, before any constraint: when the
    /// body still has them as it moves, no constraint acted on it this substep.
    #[serde(skip)]
    free: Velocities<D>,
    /// Set by the solver when the body's state stopped being finite during the step: it was
    /// turned into a static body at rest for the rest of the step (see [`SolverBody::freeze`]),
    /// and its pose and velocities must not be written back.
    pub frozen: bool,
}

// The wide contact passes (`wide.rs`) load and store a body's motion state as the floats
// it leads with: linear velocity, angular velocity, translation since step start, rotation.
const _: () = {
    use std::mem::{offset_of, size_of};
    assert!(offset_of!(SolverBody<2>, linear_velocity) == 0);
    assert!(offset_of!(SolverBody<2>, angular_velocity) == 2 * 4);
    assert!(offset_of!(SolverBody<2>, delta_position) == 3 * 4);
    assert!(offset_of!(SolverBody<2>, rotation) == 5 * 4);
    assert!(size_of::<Rotation<2>>() == 2 * 4);
    assert!(offset_of!(SolverBody<3>, linear_velocity) == 0);
    assert!(offset_of!(SolverBody<3>, angular_velocity) == 3 * 4);
    assert!(offset_of!(SolverBody<3>, delta_position) == 6 * 4);
    assert!(offset_of!(SolverBody<3>, rotation) == 9 * 4);
    assert!(size_of::<Rotation<3>>() == 4 * 4);
};

impl<const D: usize> SolverBody<D>
where
    Space<D>: Dim<D>,
{
    /// A body of the given motion at `center` with `rotation`, at rest.
    /// Dynamic bodies get the given inverse mass and local inverse inertia;
    /// other motions ignore them and get zero.
    pub fn new(
        motion: Motion,
        center: Vector<D>,
        rotation: Rotation<D>,
        inv_mass: Real,
        inv_inertia_local: AngularInertia<D>,
    ) -> Self {
        let (inv_mass, inv_inertia_local) = match motion {
            Motion::Dynamic => (inv_mass, inv_inertia_local),
            _ => (0.0, Space::<D>::inertia_zero()),
        };
        Self {
            center,
            rotation,
            linear_velocity: Vector::zeros(),
            angular_velocity: Space::<D>::ang_zero(),
            inv_mass,
            inv_inertia: Space::<D>::inertia_rotated(&inv_inertia_local, &rotation),
            inv_inertia_local,
            linear_damping: 0.0,
            angular_damping: 0.0,
            gravity_scale: 1.0,
            force: Vector::zeros(),
            torque: Space::<D>::ang_zero(),
            locks: LockedAxes::NONE,
            locked: false,
            motion,
            delta_position: Vector::zeros(),
            gyroscopic_inertia: None,
            substep_start: Velocities::default(),
            free: Velocities::default(),
            frozen: false,
        }
    }

    /// The same body with the given velocities (ignored for static bodies).
    pub fn with_velocity(mut self, linear: Vector<D>, angular: AngVector<D>) -> Self {
        if self.motion != Motion::Static {
            self.linear_velocity = linear;
            self.angular_velocity = angular;
        }
        self
    }

    /// The same body with `locks` (ignored unless dynamic); its velocities lose their locked
    /// components.
    pub fn with_locks(mut self, locks: LockedAxes) -> Self {
        if self.motion == Motion::Dynamic && !locks.is_none() {
            self.locks = locks;
            self.locked = true;
            self.refresh_inv_inertia();
            self.project_locked();
        }
        self
    }

    /// The world axes the body may not move along or turn about.
    pub fn locks(&self) -> LockedAxes {
        self.locks
    }

    /// Recomputes the world inverse inertia from the body-frame one and the rotation, with
    /// the locked rotation axes taken out (`locks.rs`).
    #[inline(always)]
    pub(crate) fn refresh_inv_inertia(&mut self) {
        self.inv_inertia = Space::<D>::inertia_rotated(&self.inv_inertia_local, &self.rotation);
        if self.locked {
            self.mask_inv_inertia();
        }
    }

    #[cold]
    #[inline(never)]
    fn mask_inv_inertia(&mut self) {
        let mask = self.locks.rotation_mask::<D>();
        self.inv_inertia = Space::<D>::inertia_masked(&self.inv_inertia, &mask);
    }

    /// Zeroes the velocity components along and about the locked axes: the locks' constraint,
    /// applied last (`locks.rs`).
    #[inline(always)]
    pub(crate) fn project_locked(&mut self) {
        if self.locked {
            self.project_locked_axes();
        }
    }

    #[cold]
    #[inline(never)]
    fn project_locked_axes(&mut self) {
        (self.linear_velocity, self.angular_velocity) = self
            .locks
            .constrain(&self.linear_velocity, &self.angular_velocity);
    }

    /// The body's velocities now.
    fn velocities(&self) -> Velocities<D> {
        Velocities {
            linear: self.linear_velocity,
            angular: self.angular_velocity,
        }
    }

    /// Records the velocities at the start of a substep, before forces act.
    pub(crate) fn begin_substep(&mut self) {
        self.substep_start = self.velocities();
    }

    /// Records the velocities after the substep's forces, before constraints act.
    pub(crate) fn end_forces(&mut self) {
        self.free = self.velocities();
    }

    /// The velocities to move the body by over the substep. A body no constraint touched
    /// (its velocities are still exactly the free ones) moves by the mean of its velocities
    /// before and after the forces: the exact path under a constant force, where the
    /// velocity after the forces alone loses `a h² / 2` a substep (a thrown ball's apex was
    /// `v h / 2` low). A constrained body moves by its solved velocity (symplectic Euler),
    /// which is what the constraints solved for.
    pub(crate) fn drift_velocities(&self) -> Velocities<D> {
        let now = self.velocities();
        if now == self.free {
            Velocities {
                linear: (self.substep_start.linear + now.linear) * 0.5,
                angular: (self.substep_start.angular + now.angular) * 0.5,
            }
        } else {
            now
        }
    }

    /// The acceleration of the centre of mass from gravity and the external force alone, m/s²
    /// (zero unless dynamic).
    pub fn free_acceleration(&self, gravity: &Vector<D>) -> Vector<D> {
        if self.motion == Motion::Dynamic {
            gravity * self.gravity_scale + self.force * self.inv_mass
        } else {
            Vector::zeros()
        }
    }

    /// Velocity of the material point at world offset `r` from the centre of mass, m/s.
    pub fn point_velocity(&self, r: &Vector<D>) -> Vector<D> {
        self.linear_velocity + Space::<D>::ang_cross(&self.angular_velocity, r)
    }

    /// Applies the impulse `p` (N s, world) at world offset `r` from the centre of mass.
    pub fn apply_impulse(&mut self, p: &Vector<D>, r: &Vector<D>) {
        self.linear_velocity += p * self.inv_mass;
        self.angular_velocity +=
            Space::<D>::inertia_apply(&self.inv_inertia, &Space::<D>::cross(r, p));
    }

    /// True when the centre, rotation, velocities and accumulated motion are all finite.
    #[inline]
    pub fn is_finite(&self) -> bool {
        self.velocities_finite() & self.pose_finite()
    }

    /// True when both velocities are finite: what a stage that writes only velocities (the
    /// forces, the contact and joint passes) can break.
    #[inline]
    pub(crate) fn velocities_finite(&self) -> bool {
        // Non-short-circuit `&`: every body is checked after every stage, and the checks
        // pass; straight-line code is cheaper than a branch per component.
        is_finite_vec(&self.linear_velocity) & Space::<D>::ang_is_finite(&self.angular_velocity)
    }

    /// True when the centre, rotation and accumulated motion are finite: what the position
    /// stage can break.
    #[inline]
    pub(crate) fn pose_finite(&self) -> bool {
        is_finite_vec(&self.center)
            & Space::<D>::rotation_is_finite(&self.rotation)
            & is_finite_vec(&self.delta_position)
    }

    /// Takes the body out of the rest of the step: static, at rest, infinitely heavy, and
    /// marked [`SolverBody::frozen`]. Non-finite coordinates are replaced by finite ones (the
    /// origin, the identity) so constraints touching it stay finite; the caller discards
    /// the frozen body's result anyway.
    pub fn freeze(&mut self) {
        self.frozen = true;
        self.motion = Motion::Static;
        self.linear_velocity = Vector::zeros();
        self.angular_velocity = Space::<D>::ang_zero();
        self.inv_mass = 0.0;
        self.inv_inertia_local = Space::<D>::inertia_zero();
        self.inv_inertia = Space::<D>::inertia_zero();
        self.gyroscopic_inertia = None;
        self.force = Vector::zeros();
        self.torque = Space::<D>::ang_zero();
        self.locks = LockedAxes::NONE;
        self.locked = false;
        if !(is_finite_vec(&self.center) && is_finite_vec(&self.delta_position)) {
            self.center = Vector::zeros();
            self.delta_position = Vector::zeros();
        }
        if !Space::<D>::rotation_matrix(&self.rotation)
            .iter()
            .all(|x| x.is_finite())
        {
            self.rotation = Space::<D>::rotation_from_scaled_axis(&Space::<D>::ang_zero());
        }
    }

    /// Kinetic energy, J: `m v² / 2 + ω·Iω / 2` (zero for bodies of infinite mass).
    pub fn kinetic_energy(&self, mass: Real, inertia_world: &AngularInertia<D>) -> Real {
        let w = &self.angular_velocity;
        0.5 * mass * self.linear_velocity.norm_squared()
            + 0.5 * Space::<D>::ang_dot(w, &Space::<D>::inertia_apply(inertia_world, w))
    }
}
