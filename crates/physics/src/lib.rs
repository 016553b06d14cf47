//! Fathom: a 2D and 3D rigid-body physics engine whose collision detection is
//! built on signed distance fields.
//!
//! Every shape is a distance field, so any shape collides with any other:
//! primitives, exact and smooth CSG, rounding, shells, scaling and baked
//! grids of meshes. 2D and 3D share one source through the dimension trait
//! ([`math::Dim`]); `World2` and `World3` are the same type at `D = 2` and
//! `D = 3`.
//!
//! ```toml
//! [dependencies]
//! fathom-physics = "0.1"
//! ```
//!
//! # A first world
//!
//! A ball falls into a bowl carved from a box, a door swings on a hinge, a ray
//! finds the ground, the contact is reported as an event, and the whole world
//! is saved and restored bit for bit.
//!
//! ```
//! use fathom_physics::prelude::*;
//!
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let mut world = World3::default(); // gravity -9.81 m/s² on y, dt 1/60 s
//!
//! // A 4 m box with a 1.5 m ball carved out of its top face: a bowl.
//! let slab = Shape3::cuboid(Vector3::new(2.0, 0.5, 2.0))?;
//! let scoop = Shape3::ball(1.5)?.transformed(Pose3::translation(0.0, 1.2, 0.0))?;
//! let bowl = slab.difference(scoop)?;
//! world.add_body(&BodyDesc::fixed().collider(ColliderDesc::new(bowl)))?;
//!
//! let ball = world.add_body(
//!     &BodyDesc::dynamic()
//!         .position(Vector3::new(0.0, 1.0, 0.0))
//!         .collider(ColliderDesc::new(Shape3::ball(0.25)?).friction(0.5)),
//! )?;
//!
//! // A door hinged to a post about the vertical axis.
//! let post = world.add_body(&BodyDesc::fixed().position(Vector3::new(5.0, 1.0, 0.0)))?;
//! let door = world.add_body(
//!     &BodyDesc::dynamic()
//!         .position(Vector3::new(5.5, 1.0, 0.0))
//!         .collider(ColliderDesc::new(Shape3::cuboid(Vector3::new(0.5, 1.0, 0.05))?)),
//! )?;
//! let hinge = RevoluteJoint::default().axis(Vector3::y());
//! world.add_joint(post, door, &JointDesc::new(hinge).anchor_b(Vector3::new(-0.5, 0.0, 0.0)))?;
//! world.set_angular_velocity(door, Vector3::new(0.0, 1.0, 0.0))?;
//!
//! let mut touched = false;
//! for _ in 0..120 {
//!     world.step();
//!     for event in world.drain_events() {
//!         touched |= matches!(event, WorldEvent::ContactStarted { .. });
//!     }
//! }
//! assert!(touched, "the ball reached the bowl");
//!
//! // The ball rests at the bottom of the bowl: the carved sphere's lowest point is
//! // at y = 1.2 - 1.5 = -0.3, so the ball's centre sits near -0.05.
//! let y = world.body(ball).unwrap().position().y;
//! assert!((y - (-0.05)).abs() < 0.02, "ball at y = {y}");
//!
//! // The hinge holds the door's centre 0.5 m from the post as it swings.
//! let arm = world.body(door).unwrap().position() - world.body(post).unwrap().position();
//! assert!((arm.norm() - 0.5).abs() < 0.01, "door 0.5 m from its hinge: {}", arm.norm());
//!
//! // A ray straight down from above the ball hits the ball's top first.
//! let down = Vector3::new(0.0, -1.0, 0.0);
//! let from = Vector3::new(0.0, 3.0, 0.0);
//! let hit = world.cast_ray(&from, &down, 10.0, &QueryFilter::new())?.unwrap();
//! assert_eq!(hit.body, ball);
//!
//! // Snapshots restore bit for bit: both copies step to the same state.
//! let mut copy = World3::from_snapshot(&world.snapshot())?;
//! world.step();
//! copy.step();
//! assert_eq!(world.state_hash(), copy.state_hash());
//! # Ok(())
//! # }
//! ```
//!
//! # Crates
//!
//! This crate re-exports the workspace's crates under one name:
//!
//! - [`math`]: the dimension trait, vectors, poses and boxes;
//! - [`sdf`]: the `Sdf` trait, primitives, CSG and baked grids ([`Shape`]);
//! - [`broadphase`]: a dynamic box tree that finds candidate pairs;
//! - [`narrowphase`]: contact manifolds from two fields by a bound-split search;
//! - [`ccd`]: sphere and shape casts, time of impact;
//! - [`solver`]: the soft-step impulse solver and its joints;
//! - [`world`]: the stepping world that combines them, scenes and snapshots.
//!
//! Cargo features, none on by default: `mesh` bakes closed triangle meshes and OBJ files
//! into grids (`sdf::load_obj`, `sdf::BakedGrid::from_mesh`; parry3d and tobj); `glam`
//! converts vectors and poses to and from glam 0.33 (`math::glam`); `vehicle` adds
//! `vehicle` (a car on any ground); `viewer` adds `viewer` (a kiss3d window for scenes; it
//! pulls a GPU and windowing stack).
#![warn(missing_docs)]

pub use fathom_broadphase as broadphase;
pub use fathom_ccd as ccd;
pub use fathom_math as math;
pub use fathom_narrowphase as narrowphase;
pub use fathom_sdf as sdf;
pub use fathom_solver as solver;
#[cfg(feature = "vehicle")]
pub use fathom_vehicle as vehicle;
#[cfg(feature = "viewer")]
pub use fathom_viewer as viewer;
pub use fathom_world as world;

pub use fathom_sdf::{Sdf, Shape, Shape2, Shape3};
pub use fathom_world::{World, World2, World3};

/// The types most programs use: `use fathom_physics::prelude::*;`.
pub mod prelude {
    pub use fathom_math::{
        Dim, Pose, Pose2, Pose3, Readable, Real, Space, Vector, Vector2, Vector3,
    };
    pub use fathom_sdf::{Sdf, Shape, Shape2, Shape3};
    pub use fathom_world::{
        BodyDesc, BodyHandle, BodyKind, ColliderDesc, ColliderHandle, CollisionGroups,
        DistanceJoint, JointDesc, JointHandle, PrismaticJoint, QueryFilter, QueryHit,
        RevoluteJoint, SphericalJoint, World, World2, World3, WorldError, WorldEvent,
        WorldSettings,
    };
}
