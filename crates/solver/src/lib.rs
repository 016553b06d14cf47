//! Fathom's impulse solver: substepped soft-constraint sequential impulses
//! ("soft step", as in Box2D v3 and Solver2D) for contacts with Coulomb
//! friction, restitution and speculative contact, written once for 2D and 3D
//! through [`fathom_math::Dim`].
//!
//! The solver knows nothing of shapes or worlds: the caller builds a slice of
//! [`SolverBody`] and a slice of [`ContactConstraint`] (bodies by index), calls
//! [`step`], and reads back poses, velocities and impulses. Joints plug in
//! through the [`Constraint`] trait and run at the same stages.
//!
//! A 1 kg disc resting on static ground in 2D: the contact carries its weight, an
//! impulse of `m g dt` per step, and the disc stays at rest.
//!
//! ```
//! use fathom_math::{Rotation, Vector2};
//! use fathom_solver::{step, ContactConstraint, ContactPoint, Motion, SolverBody};
//! use fathom_solver::{SolverInput, SolverSettings};
//!
//! let still = Rotation::<2>::identity();
//! let ground = SolverBody::new(Motion::Static, Vector2::zeros(), still, 0.0, 0.0);
//! // Radius 0.5: inverse mass 1 / kg, inverse inertia 1 / (m r² / 2) = 8.
//! let disc = SolverBody::new(Motion::Dynamic, Vector2::new(0.0, 0.5), still, 1.0, 8.0);
//! let mut bodies = [ground, disc];
//! // Bodies by index; the normal points from body 0 to body 1.
//! let touch = ContactPoint::new(Vector2::zeros(), 0.0, 0);
//! let mut contacts = [ContactConstraint::new(0, 1, Vector2::y(), 0.6, 0.0, [touch])];
//! let (settings, dt) = (SolverSettings::default(), 1.0 / 60.0);
//! for _ in 0..10 {
//!     let input = SolverInput { gravity: Vector2::new(0.0, -9.81), bodies: &mut bodies,
//!         contacts: &mut contacts, constraints: &mut [] };
//!     step(&settings, dt, input); // impulses stay in `contacts`: next step's warm start
//! }
//! let carried = contacts[0].points[0].total_normal_impulse;
//! assert!((carried - 9.81 * dt).abs() < 1e-3 * 9.81 * dt); // the weight, to 0.1%
//! assert!(bodies[1].linear_velocity.norm() < 1e-3);
//! ```
//!
//! # Where it fits
//!
//! - Depends only on `fathom-math`: bodies by index, no shapes, no world.
//! - `fathom-world` builds its input each step from the narrowphase's manifolds and the
//!   world's joints, and re-exports the joint types and [`SolverSettings`].
//! - `docs/solver.md` in the repository explains the algorithm and its measurements.
#![warn(missing_docs)]

mod body;
mod colour;
mod constraint;
mod contact;
mod joints;
mod kernel;
mod locks;
mod prepared;
mod softness;
mod solver;
mod view;
mod wide;

pub use body::{Motion, SolverBody};
pub use constraint::Constraint;
pub use contact::{ContactConstraint, ContactPoint, StepContext};
pub use joints::{
    DistanceJoint, JointConstraint, JointImpulses, JointKind, Motor, PrismaticJoint, RevoluteJoint,
    RopeJoint, Servo, SphericalJoint, Spring, WheelJoint,
};
pub use locks::LockedAxes;
pub use softness::Softness;
pub use solver::{freeze_non_finite, step, step_with, SolverInput, SolverScratch, SolverSettings};

#[cfg(test)]
mod tests;
