//! Primitive shapes, each an exact (or, where noted, 1-Lipschitz lower-bound) distance
//! field with an analytic gradient.
//!
//! - [`basic`]: written once for every dimension (ball, cuboid, rounded cuboid, capsule, half-space).
//! - [`solid`]: 3D only, solids of revolution about the local y axis (cylinder, cone, torus,
//!   capped torus).
//! - [`planar`]: 2D only (segment, convex polygon, simple polygon, rounded polygon).

pub mod basic;
pub mod planar;
pub mod solid;
pub(crate) mod sweep;

pub use basic::{Ball, Capsule, Cuboid, HalfSpace, RoundedCuboid, UNBOUNDED_EXTENT};
pub use planar::{ConvexPolygon, Polygon, RoundedPolygon, Segment, MAX_POLYGON_VERTICES};
pub use solid::{CappedTorus, Cone, Cylinder, Torus};
