//! Fathom's impulse solver: substepped soft-constraint sequential impulses
//! ("soft step", as in Box2D v3 and Solver2D) for contacts with Coulomb
//! friction, restitution and speculative contact, written once for 2D and 3D
//! through [`fathom_math::Dim`].
//!
//! The solver knows nothing of shapes or worlds: the caller builds a slice of
//! [`SolverBody`] and a slice of [`ContactConstraint`] (bodies by index), calls
//! [`step`], and reads back poses, velocities and impulses. Joints plug in
//! through the [`Constraint`] trait and run at the same stages.
#![warn(missing_docs)]

mod body;
mod colour;
mod constraint;
mod contact;
mod joints;
mod prepared;
mod softness;
mod solver;
mod view;

pub use body::{Motion, SolverBody};
pub use constraint::Constraint;
pub use contact::{ContactConstraint, ContactPoint, StepContext};
pub use joints::{
    DistanceJoint, JointConstraint, JointImpulses, JointKind, Motor, PrismaticJoint, RevoluteJoint,
    SphericalJoint, Spring,
};
pub use softness::Softness;
pub use solver::{freeze_non_finite, step, SolverInput, SolverSettings};

#[cfg(test)]
mod tests;
