//! Primitive shapes, each an exact (or, where noted, 1-Lipschitz lower-bound) distance
//! field with an analytic gradient.
//!
//! - [`basic`]: written once for every dimension (ball, cuboid, rounded cuboid, capsule, half-space).
//! - [`solid`]: 3D only, solids of revolution about the local y axis (cylinder, cone, torus,
//!   capped torus).
//! - [`planar`]: 2D only (segment, convex polygon, simple polygon, rounded polygon).
//! - [`heightfield`]: terrain heights over x (2D) or x and z (3D), one source for both.
//! - [`hull`]: the 3D convex hull of a point cloud, and the 2D hull behind
//!   [`crate::Shape2::convex_hull`].

pub mod basic;
pub mod heightfield;
pub mod hull;
pub mod planar;
pub mod solid;
pub(crate) mod sweep;

pub use basic::{Ball, Capsule, Cuboid, HalfSpace, RoundedCuboid, UNBOUNDED_EXTENT};
pub use heightfield::{Heightfield, HeightfieldData, HeightfieldScale, EXACT_RADIUS_CELLS};
pub use hull::{convex_hull_2d, ConvexHull, HullPoints, MAX_HULL_POINTS};
pub use planar::{ConvexPolygon, Polygon, RoundedPolygon, Segment, MAX_POLYGON_VERTICES};
pub use solid::{CappedTorus, Cone, Cylinder, Torus};
