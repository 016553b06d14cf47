//! Fathom's vehicle controller: a chassis rigid body on sphere-cast wheels.
//!
//! Racing and driving games are where SDF terrain and sphere casting pay off:
//! each wheel is a sphere cast of its radius along its suspension against
//! every collider of the world but the chassis, so a wheel rolls over any
//! field the world holds (blended hills, ramps, bumps, other bodies) with the
//! same exact query. Built only on the world's public API: the chassis is an
//! ordinary dynamic body, and the vehicle adds forces before each step.
//!
//! - [`VehicleDesc`] / [`WheelDesc`] / [`TyreDesc`] / [`EngineDesc`]: what to
//!   build (serde, validated; bad values are [`VehicleError`]s naming the field).
//! - [`Vehicle`]: built into a world with [`Vehicle::new`], stepped with
//!   [`Vehicle::step`] before each `World::step`; inputs per step with
//!   [`Vehicle::set_inputs`] or from an [`InputTrack`]; [`WheelState`] and
//!   [`Vehicle::wheel_pose`] for the game and the viewer.
//! - The physics: suspension spring plus damper plus bump stop along the
//!   contact normal, never pulling; optional anti-roll bars; a tyre with
//!   linear-then-saturating slip forces under a friction circle (`tyre.rs`);
//!   direct drive or an automatic gearbox; foot brake, handbrake, steering with
//!   optional Ackermann geometry; aerodynamic drag.
//!
//! Generic over the dimension: in 2D the vehicle is a side view (wheels cast
//! in the plane; no steering or lateral forces), from the same code.
//!
//! # Where it fits
//!
//! - Built on `fathom-world`'s public API only: the chassis is a body, each wheel a
//!   `World::cast_sphere` with a [`fathom_world::QueryFilter`] that skips the chassis.
//! - `fathom-math` for vectors and poses; nothing below the world.
#![warn(missing_docs)]

mod desc;
mod error;
mod frame;
mod input;
pub mod tyre;
mod vehicle;

pub use desc::{AntiRollBar, EngineDesc, TyreDesc, VehicleDesc, WheelDesc};
pub use error::VehicleError;
pub use frame::Axes;
pub use input::{InputKey, InputTrack, VehicleInputs};
pub use vehicle::{Vehicle, WheelState, STICK_SPEED};

/// A 2D (side-view) vehicle.
pub type Vehicle2 = Vehicle<2>;
/// A 3D vehicle.
pub type Vehicle3 = Vehicle<3>;
