//! Fathom: a 2D and 3D rigid-body physics engine whose collision detection is
//! built on signed distance fields.
//!
//! This facade re-exports the workspace crates under one name, and holds what
//! the `fathom` command line needs: scene files of either dimension
//! ([`SceneFile`]), the shipped demo scenes ([`demo_scenes`]) and headless
//! runs ([`headless`]).
#![warn(missing_docs)]

pub mod compare;
pub mod demo_scenes;
pub mod energy;
pub mod headless;
mod scene_file;
pub mod vehicle_scene;

pub use scene_file::SceneFile;

pub use fathom_broadphase as broadphase;
pub use fathom_ccd as ccd;
pub use fathom_math as math;
pub use fathom_narrowphase as narrowphase;
pub use fathom_sdf as sdf;
pub use fathom_solver as solver;
pub use fathom_vehicle as vehicle;
pub use fathom_world as world;
