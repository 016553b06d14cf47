//! Fathom's stepping world: bodies, colliders, the step pipeline, scenes.
//!
//! A [`World`] (aliases [`World2`], [`World3`]) holds bodies and colliders in
//! generational arenas ([`BodyHandle`], [`ColliderHandle`]), created from
//! validated descriptors ([`BodyDesc`], [`ColliderDesc`]). [`World::step`]
//! runs the pipeline of DESIGN.md: collider boxes with margin and motion,
//! broadphase pairs, narrowphase manifolds in parallel (gathered in pair
//! order so any thread count gives the same bits), contact constraints
//! warm-started by contact id, and the soft-step solver of `fathom-solver`.
//!
//! Mass properties come from the shapes: closed forms for primitives and a
//! refined voxel integral of the field for everything else ([`mass`]).
//! A [`Scene`] is a world written in RON.
#![warn(missing_docs)]

pub mod arena;
mod body;
mod ccd_stage;
mod contacts;
mod desc;
mod error;
mod events;
mod filter;
mod guards;
mod islands;
mod joints;
pub mod mass;
mod metrics;
mod pipeline;
mod queries;
mod scene;
mod shape_mass;
mod snapshot;
mod world;

pub use arena::{BodyHandle, ColliderHandle};
pub use body::{Body, Collider};
pub use ccd_stage::{CCD_GAP, CCD_MOTION_FRACTION, CORE_FRACTION};
pub use contacts::{BodyContact, BodyContactPoint, CachedManifold, CachedPoint, PairContacts};
pub use desc::{BodyDesc, BodyKind, ColliderDesc};
pub use error::WorldError;
pub use events::{Touch, WorldEvent, TOUCH_SLOP};
pub use filter::{CollisionGroups, FilterPair, PairFilter, QueryFilter};
pub use islands::SleepSettings;
pub use joints::{Joint, JointBroken, JointDesc, JointHandle};
pub use mass::MassProperties;
pub use metrics::Fnv1a;
pub use queries::{PointProjection, QueryError, QueryHit};
pub use scene::{
    read_scene_text, Scene, Scene2, Scene3, SceneError, SceneJoint, MAX_SCENE_FILE_BYTES,
};
pub use shape_mass::unit_mass_properties;
pub use snapshot::{SnapshotError, SNAPSHOT_VERSION};
pub use world::{World, World2, World3, WorldSettings, MAX_SUBSTEPS};

pub use fathom_sdf::Shape;
pub use fathom_solver::{
    DistanceJoint, JointKind, Motor, PrismaticJoint, RevoluteJoint, SolverSettings, SphericalJoint,
    Spring,
};

#[cfg(test)]
mod tests;
