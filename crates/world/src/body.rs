//! Bodies and colliders as the world stores them.
//!
//! A body's pose is the pose of its *origin*; its centre of mass sits at
//! `local_center` in that frame (the colliders' combined centroid). Velocities
//! are those of the centre of mass, so a spinning body does not drift.

use crate::arena::{BodyHandle, ColliderHandle};
use crate::desc::BodyKind;
use crate::filter::CollisionGroups;
use crate::mass::MassProperties;
use fathom_math::{Aabb, AngVector, AngularInertia, Dim, Pose, Real, Space, Vector};
use fathom_sdf::Shape;
use fathom_solver::LockedAxes;
use serde::{Deserialize, Serialize};

/// A rigid body.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(bound = "")]
pub struct Body<const D: usize>
where
    Space<D>: Dim<D>,
{
    pub(crate) kind: BodyKind,
    pub(crate) pose: Pose<D>,
    pub(crate) linear_velocity: Vector<D>,
    pub(crate) angular_velocity: AngVector<D>,
    pub(crate) linear_damping: Real,
    pub(crate) angular_damping: Real,
    pub(crate) gravity_scale: Real,
    /// Force accumulated for the next step (world, N, through the centre of mass).
    pub(crate) force: Vector<D>,
    /// Torque accumulated for the next step (world, N m).
    pub(crate) torque: AngVector<D>,
    pub(crate) mass: MassProperties<D>,
    pub(crate) inv_mass: Real,
    pub(crate) inertia_local: AngularInertia<D>,
    pub(crate) inv_inertia_local: AngularInertia<D>,
    pub(crate) colliders: Vec<ColliderHandle>,
    /// Bullet flag: always swept by continuous collision.
    #[serde(default)]
    pub(crate) ccd: bool,
    /// Frozen by the step's guard after its state stopped being finite (see `guards.rs`).
    #[serde(default)]
    pub(crate) frozen: bool,
    /// World axes the body may not move along or turn about (dynamic bodies).
    #[serde(default)]
    pub(crate) locked_axes: LockedAxes,
    /// A kinematic body's pose at the end of the next step (`motion_control.rs`); it stays
    /// there until given another target or a velocity.
    #[serde(default)]
    pub(crate) kinematic_target: Option<Pose<D>>,
}

impl<const D: usize> Body<D>
where
    Space<D>: Dim<D>,
{
    /// How the body moves.
    pub fn kind(&self) -> BodyKind {
        self.kind
    }
    /// Pose of the body's origin (body frame to world frame).
    pub fn pose(&self) -> &Pose<D> {
        &self.pose
    }
    /// Position of the body's origin, world, metres.
    pub fn position(&self) -> Vector<D> {
        self.pose.translation.vector
    }
    /// Centre of mass, world, metres.
    pub fn center_of_mass(&self) -> Vector<D> {
        self.pose.rotation * self.mass.center + self.pose.translation.vector
    }
    /// Centre of mass in the body frame, metres.
    pub fn local_center_of_mass(&self) -> Vector<D> {
        self.mass.center
    }
    /// Velocity of the centre of mass, world, m/s.
    pub fn linear_velocity(&self) -> Vector<D> {
        self.linear_velocity
    }
    /// Angular velocity, world, rad/s.
    pub fn angular_velocity(&self) -> AngVector<D> {
        self.angular_velocity
    }
    /// Velocity of the material point at world position `p`, m/s.
    pub fn velocity_at(&self, p: &Vector<D>) -> Vector<D> {
        self.linear_velocity
            + Space::<D>::ang_cross(&self.angular_velocity, &(p - self.center_of_mass()))
    }
    /// Mass, kg (infinite mass reads as 0 for static and kinematic bodies' inverse).
    pub fn mass(&self) -> Real {
        self.mass.mass
    }
    /// 1 / mass, 1/kg; zero for static and kinematic bodies.
    pub fn inv_mass(&self) -> Real {
        self.inv_mass
    }
    /// Angular inertia about the centre of mass, body axes, kg m².
    pub fn local_inertia(&self) -> AngularInertia<D> {
        self.inertia_local
    }
    /// Angular inertia about the centre of mass, world axes, kg m².
    pub fn world_inertia(&self) -> AngularInertia<D> {
        Space::<D>::inertia_rotated(&self.inertia_local, &self.pose.rotation)
    }
    /// Linear damping rate, 1/s.
    pub fn linear_damping(&self) -> Real {
        self.linear_damping
    }
    /// Angular damping rate, 1/s.
    pub fn angular_damping(&self) -> Real {
        self.angular_damping
    }
    /// Gravity multiplier.
    pub fn gravity_scale(&self) -> Real {
        self.gravity_scale
    }
    /// The colliders attached to this body, in the order they were attached.
    pub fn colliders(&self) -> &[ColliderHandle] {
        &self.colliders
    }
    /// Kinetic energy, J (zero for static bodies; kinematic bodies count with their
    /// shapes' mass).
    pub fn kinetic_energy(&self) -> Real {
        if self.kind == BodyKind::Fixed {
            return 0.0;
        }
        let w = &self.angular_velocity;
        let iw = Space::<D>::inertia_apply(&self.world_inertia(), w);
        0.5 * self.mass.mass * self.linear_velocity.norm_squared()
            + 0.5 * Space::<D>::ang_dot(w, &iw)
    }
    /// True for dynamic bodies.
    pub fn is_dynamic(&self) -> bool {
        self.kind == BodyKind::Dynamic
    }
    /// True when the body is a bullet (always swept by continuous collision).
    pub fn is_ccd(&self) -> bool {
        self.ccd
    }
    /// The world axes the body may not move along or turn about.
    pub fn locked_axes(&self) -> LockedAxes {
        self.locked_axes
    }
    /// The pose a kinematic body is driven to by the next step, if it is driven by poses.
    pub fn kinematic_target(&self) -> Option<&Pose<D>> {
        self.kinematic_target.as_ref()
    }
    /// True when the step froze the body because its state stopped being finite: it holds
    /// its last finite pose, at rest, and acts as a static body until
    /// [`crate::World::unfreeze`].
    pub fn is_frozen(&self) -> bool {
        self.frozen
    }
}

/// A shape attached to a body.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(bound = "")]
pub struct Collider<const D: usize>
where
    Space<D>: Dim<D>,
{
    pub(crate) body: BodyHandle,
    pub(crate) local_pose: Pose<D>,
    pub(crate) shape: Shape<D>,
    pub(crate) friction: Real,
    pub(crate) restitution: Real,
    pub(crate) margin: Real,
    /// Mass properties in the body frame (zero for shapes without finite mass).
    pub(crate) mass: MassProperties<D>,
    /// World pose, refreshed every step.
    pub(crate) world_pose: Pose<D>,
    /// World box with margin and motion, refreshed every step.
    pub(crate) aabb: Aabb<D>,
    /// A sensor reports overlaps as events and never produces a contact response.
    #[serde(default)]
    pub(crate) sensor: bool,
    /// Collision groups (membership and filter masks).
    #[serde(default)]
    pub(crate) groups: CollisionGroups,
    /// Contact force (N) above which the pair reports a force event; `None`: never.
    #[serde(default)]
    pub(crate) force_event_threshold: Option<Real>,
    /// Density, kg/m³ (kg/m² in 2D): the collider's mass over its shape's unit mass, kept so
    /// that a run-time edit adds the mass of the edited region only (`edit.rs`).
    #[serde(default)]
    pub(crate) density: Real,
}

impl<const D: usize> Collider<D>
where
    Space<D>: Dim<D>,
{
    /// The body this collider is attached to.
    pub fn body(&self) -> BodyHandle {
        self.body
    }
    /// Pose in the body frame.
    pub fn local_pose(&self) -> &Pose<D> {
        &self.local_pose
    }
    /// Pose in the world, as of the last step (or creation).
    pub fn world_pose(&self) -> &Pose<D> {
        &self.world_pose
    }
    /// The shape (local frame).
    pub fn shape(&self) -> &Shape<D> {
        &self.shape
    }
    /// Friction coefficient.
    pub fn friction(&self) -> Real {
        self.friction
    }
    /// Restitution.
    pub fn restitution(&self) -> Real {
        self.restitution
    }
    /// Contact margin, metres.
    pub fn margin(&self) -> Real {
        self.margin
    }
    /// Mass contributed to the body, kg.
    pub fn mass(&self) -> Real {
        self.mass.mass
    }
    /// World box used by the broadphase (margin and motion included), as of the last step.
    pub fn aabb(&self) -> &Aabb<D> {
        &self.aabb
    }
    /// True for a sensor (overlap events only, no contact response).
    pub fn is_sensor(&self) -> bool {
        self.sensor
    }
    /// Collision groups.
    pub fn groups(&self) -> CollisionGroups {
        self.groups
    }
    /// Density, kg/m³ (kg/m² in 2D); with a mass given instead, the mass over the shape's volume.
    pub fn density(&self) -> Real {
        self.density
    }
    /// Contact force threshold of force events, N (`None`: no force events).
    pub fn force_event_threshold(&self) -> Option<Real> {
        self.force_event_threshold
    }
}
