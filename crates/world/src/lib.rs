//! Fathom's stepping world: rigid bodies with signed-distance-field colliders, joints,
//! scene queries, contact events, snapshots and RON scenes, in 2D and 3D from one source.
//!
//! Everything a game calls is here. A [`World`] (aliases [`World2`], [`World3`]) holds
//! bodies and colliders in generational arenas ([`BodyHandle`], [`ColliderHandle`]), created
//! from validated descriptors ([`BodyDesc`], [`ColliderDesc`], [`JointDesc`]); every bad value
//! is a [`WorldError`] naming its field, and a call that fails changes nothing.
//!
//! ```
//! use fathom_math::Vector3;
//! use fathom_world::{BodyDesc, ColliderDesc, QueryFilter, Shape, World3, WorldEvent};
//!
//! let mut world = World3::default(); // gravity 9.81 m/s² down y, 60 steps a second
//! world.add_body(&BodyDesc::fixed()
//!     .collider(ColliderDesc::new(Shape::half_space(Vector3::y(), 0.0)?)))?;
//! let ball = world.add_body(&BodyDesc::dynamic()
//!     .position(Vector3::new(0.0, 2.0, 0.0))
//!     .collider(ColliderDesc::new(Shape::ball(0.5)?)))?;
//!
//! let mut landed = 0;
//! for _ in 0..120 {
//!     world.step();
//!     landed += world.drain_events().iter()
//!         .filter(|e| matches!(e, WorldEvent::ContactStarted { .. })).count();
//! }
//! assert_eq!(landed, 1); // one contact began, however long the ball rests
//! let y = world.body(ball).unwrap().position().y;
//! assert!((y - 0.5).abs() < 0.005); // resting on its radius, within TOUCH_SLOP (5 mm)
//!
//! // A ray from above hits the top of the ball, 1 m below the eye.
//! let hit = world.cast_ray(&Vector3::new(0.0, 2.0, 0.0), &-Vector3::y(), 10.0,
//!     &QueryFilter::new())?.unwrap();
//! assert_eq!(hit.body, ball);
//! assert!((hit.distance - (2.0 - y - 0.5)).abs() < 1e-3); // casts stop within 1 mm
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Where to look
//!
//! - [`World`]: create, step, read and push bodies; 2D and 3D examples.
//! - [`BodyDesc`], [`ColliderDesc`]: what a body is made of (kind, pose, velocity; shape,
//!   density or mass, friction, restitution, sensor, [`CollisionGroups`]).
//! - [`JointDesc`] and [`World::add_joint`]: fixed, revolute, prismatic, spherical and
//!   distance joints, with limits, motors, springs and break forces.
//! - [`Shape`] (from `fathom-sdf`): primitives, exact and smooth CSG, rounding, baked grids.
//! - [`World::edit_collider`]: carve craters and tunnels or add walls at run time;
//!   [`Shape::user`]: any field the user implements as a collider.
//! - [`World::cast_ray`] and the other scene queries, each with a [`QueryFilter`].
//! - [`WorldEvent`] from [`World::drain_events`]: contacts started and stopped, sensors
//!   entered and left, contact forces, frozen bodies.
//! - [`World::snapshot`] / [`World::restore`]: the whole state as bytes (or RON), restored
//!   bit for bit; [`World::state_hash`] shows the round trip.
//! - [`Scene`]: a world written in RON.
//!
//! [`World::step`] runs the pipeline of `pipeline.rs`: collider boxes with margin and motion,
//! broadphase pairs, narrowphase manifolds in parallel (gathered in pair order so any thread
//! count gives the same bits), contact constraints warm-started by contact id, the soft-step
//! solver, continuous collision for fast bodies, then events and sleeping. Mass properties
//! come from the shapes: closed forms for primitives and a refined voxel integral of the
//! field for everything else ([`mass`]).
//!
//! # Where it fits
//!
//! - `fathom-math`: the vectors, poses and boxes of every signature here, and the [`Dim`]
//!   trait through which 2D and 3D differ.
//! - `fathom-sdf`: the collider shapes ([`Shape`]).
//! - `fathom-broadphase`: candidate pairs and the first cut of every scene query.
//! - `fathom-narrowphase`: contact manifolds between two shapes.
//! - `fathom-ccd`: sphere casts and time of impact, for fast bodies and the scene queries.
//! - `fathom-solver`: the impulse solver for contacts and joints (its joint types are
//!   re-exported here).
//! - `fathom-vehicle` is built on this crate's public API only.
//!
//! [`Dim`]: fathom_math::Dim
#![warn(missing_docs)]

pub mod arena;
mod body;
mod ccd_stage;
mod character;
mod contacts;
mod desc;
mod edit;
mod error;
mod events;
mod filter;
mod guards;
mod islands;
mod joints;
pub mod mass;
mod metrics;
mod modify;
mod motion_control;
mod pipeline;
mod profile;
mod queries;
mod reuse;
mod scene;
mod scene_file;
mod scratch;
mod shape_mass;
mod snapshot;
mod user_field;
mod world;

pub use arena::{BodyHandle, ColliderHandle};
pub use body::{Body, Collider};
pub use ccd_stage::{CCD_GAP, CCD_MOTION_FRACTION, CORE_FRACTION};
pub use character::{AutoStep, CharacterCollision, CharacterController, CharacterMove};
pub use contacts::{BodyContact, BodyContactPoint, CachedManifold, CachedPoint, PairContacts};
pub use desc::{BodyDesc, BodyKind, ColliderDesc, MAX_GRAVITY_SCALE};
pub use edit::{ColliderEdit, EditReport, DEFAULT_EDIT_BAND, EDIT_WAKE_DISTANCE};
pub use error::WorldError;
pub use events::{Touch, WorldEvent, TOUCH_SLOP};
pub use fathom_sdf::{EditOp, Edited, UserField};
pub use filter::{CollisionGroups, FilterPair, PairFilter, QueryFilter};
pub use islands::SleepSettings;
pub use joints::{Joint, JointBroken, JointDesc, JointHandle};
pub use mass::MassProperties;
pub use metrics::Fnv1a;
pub use modify::{ContactModifier, Conveyor, ModifiableContact, OneWayPlatform};
pub use profile::StepProfile;
pub use queries::{PointProjection, QueryError, QueryHit, ShapePenetration};
pub use reuse::PairBasis;
pub use scene::{
    read_scene_text, Scene, Scene2, Scene3, SceneError, SceneJoint, MAX_SCENE_FILE_BYTES,
};
pub use scene_file::SceneFile;
pub use shape_mass::unit_mass_properties;
pub use snapshot::{SnapshotError, SNAPSHOT_VERSION};
pub use user_field::UserFields;
pub use world::{World, World2, World3, WorldSettings, MAX_CONTACT_REUSE, MAX_DT, MAX_SUBSTEPS};

pub use fathom_sdf::Shape;
pub use fathom_solver::{
    DistanceJoint, JointKind, LockedAxes, Motor, PrismaticJoint, RevoluteJoint, RopeJoint, Servo,
    SolverSettings, SphericalJoint, Spring, WheelJoint,
};

#[cfg(test)]
mod tests;
