//! Signed distance fields: the one contract every collidable shape in Fathom meets.
//!
//! A shape is anything that can say how far a point is from its surface and on
//! which side (negative inside). The narrowphase's bound-split search prunes a
//! cell when no point in it can be inside both shapes; that test is only
//! sound if the field changes no faster than its [`Sdf::lipschitz`] constant,
//! so every operator here reports an honest one.
//!
//! What is here:
//! - [`Sdf`]: distance, bounds (and [`Sdf::level_bounds`]), gradient, Lipschitz constant, kind.
//! - [`primitives`]: ball, cuboid, rounded cuboid, capsule, half-space for any dimension;
//!   cylinder, cone, torus, capped torus and convex hulls in 3D; segment and polygons in 2D;
//!   heightfields in both.
//! - [`ops`]: pose transform, uniform scale, rounding, shell, exact and smooth CSG.
//! - [`Shape`] ([`Shape2`], [`Shape3`]): the serialisable tree of all of them (RON); its
//!   docs show primitives, CSG, smooth union and rounding with their distances.
//! - [`Edited`]: a shape with run-time carves and additions; [`UserField`]: any field the
//!   user implements, with a sampled check of its Lipschitz claim.
//! - [`BakedGrid`]: any field sampled on a grid (with the `mesh` feature, also a closed
//!   triangle mesh: `BakedGrid::from_mesh`, `load_obj`); [`SparseGrid`]: the same in bricks
//!   near the surface only, over a coarse grid.
//! - [`mesh_sdf`] (3D surface nets) and [`contour_sdf`] (2D marching squares).
//!
//! Everything is in the shape's local frame, in metres.
//!
//! # Where it fits
//!
//! - `fathom-math` below it: vectors, boxes, poses and the dimension trait.
//! - `fathom-narrowphase` finds contacts between two fields; `fathom-ccd` casts against them.
//! - `fathom-world` holds one [`Shape`] per collider and integrates its mass from the field.
#![warn(missing_docs)]

mod contour;
mod dim_only;
mod edited;
mod error;
mod grid;
mod grid_kernel;
mod grid_source;
mod mesh;
#[cfg(feature = "mesh")]
mod mesh_bake;
pub mod ops;
pub mod primitives;
mod read;
mod shape;
mod shape_serde;
mod sparse_grid;
#[cfg(test)]
mod tests;
mod user_field;

pub use contour::{contour_grid, contour_sdf};
pub use dim_only::{DimOnly, Only2, Only3};
pub use edited::{Edit, EditCost, EditOp, Edited, MAX_EDITS, MAX_EDIT_CELLS};
pub use error::{
    check_finite, check_finite_vec, check_non_negative, check_positive, Result, SdfError,
};
pub use grid::{BakedGrid, GridCache, GridSource, MAX_GRID_SAMPLES};
pub use mesh::{mesh_grid, mesh_sdf, TriMesh, MAX_MESH_TRIANGLES, MAX_MESH_VERTICES};
#[cfg(feature = "mesh")]
pub use mesh_bake::{load_obj, parse_obj};
pub use ops::{
    Difference, Intersection, Rounded, Scaled, Shell, SmoothDifference, SmoothIntersection,
    SmoothUnion, Transformed, Union,
};
pub use primitives::{
    Ball, CappedTorus, Capsule, Cone, ConvexHull, ConvexPolygon, Cuboid, Cylinder, HalfSpace,
    Heightfield, HeightfieldScale, Polygon, RoundedCuboid, RoundedPolygon, Segment, Torus,
    MAX_HULL_POINTS, MAX_POLYGON_VERTICES, UNBOUNDED_EXTENT,
};
pub use read::{
    read_limited, read_text_limited, strip_byte_order_mark, BYTE_ORDER_MARK, MAX_GRID_FILE_BYTES,
    MAX_OBJ_FILE_BYTES, MAX_RON_FILE_BYTES,
};
pub use shape::{
    ron_error_message, ron_options, Shape, Shape2, Shape3, MAX_SHAPE_DEPTH, RON_RECURSION_LIMIT,
};
pub use shape_serde::{decode_shapes, ShapeDecodeError};
pub use sparse_grid::{SparseGrid, SparseOptions, FROM_COARSE, MAX_BRICK_CELLS};
pub use user_field::{UserField, LIPSCHITZ_SAMPLES, LIPSCHITZ_SLACK};

use fathom_math::{Aabb, Real, Vector};

/// What the narrowphase and casts can exploit about a shape: the kinds with
/// closed-form queries. Everything else is searched as a general field.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ShapeKind<const D: usize> {
    /// A ball of this radius about the local origin.
    Ball {
        /// Radius, metres.
        radius: Real,
    },
    /// A capsule along the local y axis (see [`Capsule`]).
    Capsule {
        /// Half the core segment's length, metres.
        half_height: Real,
        /// Radius, metres.
        radius: Real,
    },
    /// The half-space `normal · p <= offset` (see [`HalfSpace`]).
    HalfSpace {
        /// Outward unit normal, local frame.
        normal: Vector<D>,
        /// Plane offset along the normal, metres.
        offset: Real,
    },
    /// A box centred on the local origin, aligned with the local axes (see [`Cuboid`]):
    /// boxes meet boxes and planes in closed form (face clipping, vertices).
    Cuboid {
        /// Half the size along each local axis, metres.
        half_extents: Vector<D>,
    },
    /// Any other field: searched by bound-split.
    General,
}

/// A signed distance field in `D` dimensions, in its own local frame.
pub trait Sdf<const D: usize>: Send + Sync {
    /// Signed distance from `p` to the surface: negative inside, positive outside.
    /// Exact fields return the Euclidean distance; bounds (see [`Sdf::lipschitz`]) may over- or under-estimate it.
    fn distance(&self, p: &Vector<D>) -> Real;

    /// A box containing every point where `distance <= 0`, local frame.
    /// May be [`Aabb::EMPTY`] for a shape with no inside (a disjoint intersection).
    fn bounds(&self) -> Aabb<D>;

    /// A box containing every point where `distance <= level`, local frame.
    ///
    /// Operators that inflate their child (rounding, shell, smooth union) need this:
    /// for a field that under-estimates distance outside its bounds (an exact-CSG
    /// intersection, a smooth blend) `bounds().loosened(level)` is *not* enough.
    /// The default is right for any field with `distance(p) >= dist(p, bounds())`
    /// outside its bounds, which every exact distance field satisfies; other fields override it.
    fn level_bounds(&self, level: Real) -> Aabb<D> {
        if level <= 0.0 {
            self.bounds()
        } else {
            self.bounds().loosened(level)
        }
    }

    /// The gradient of the field at `p`: the outward normal near the surface.
    /// Unit length where the field is exact. The default is central differences.
    fn gradient(&self, p: &Vector<D>) -> Vector<D> {
        central_difference_gradient(self, p)
    }

    /// [`Sdf::distance`] and [`Sdf::gradient`] at `p`, the same values as the two calls: a
    /// shape whose two come from one computation (a box's nearest feature) does it once.
    fn distance_and_gradient(&self, p: &Vector<D>) -> (Real, Vector<D>) {
        (self.distance(p), self.gradient(p))
    }

    /// A constant `L` with `|d(p) - d(q)| <= L |p - q|` everywhere. 1 for exact fields.
    fn lipschitz(&self) -> Real {
        1.0
    }

    /// Which closed-form kind this shape is, if any. Defaults to [`ShapeKind::General`].
    fn kind(&self) -> ShapeKind<D> {
        ShapeKind::General
    }

    /// The least and greatest value of the field over `region` (a box, local frame), when the
    /// shape can bound them more tightly or more cheaply than `d(centre) ± L·radius` (baked
    /// grids, from per-block min/max of their samples). `None`, the default, means no such
    /// bound. A returned `(lo, hi)` must hold `lo <= distance(p) <= hi` for every `p` in
    /// `region`: the narrowphase's search prunes with it.
    fn interval(&self, region: &Aabb<D>) -> Option<(Real, Real)> {
        let _ = region;
        None
    }
}

/// Step of the central-difference gradient, relative to the shape's size.
const GRADIENT_STEP_FRACTION: Real = 1e-4;

/// The gradient of `sdf` at `p` by central differences, normalised where it is not zero.
/// The step is a fraction of the shape's bounds so it works at every scale.
pub fn central_difference_gradient<const D: usize, S: Sdf<D> + ?Sized>(
    sdf: &S,
    p: &Vector<D>,
) -> Vector<D> {
    let b = sdf.bounds();
    let size = if b.is_valid() { b.radius() } else { 1.0 };
    let h = (size * GRADIENT_STEP_FRACTION).max(1e-5);
    let mut g = Vector::<D>::zeros();
    for i in 0..D {
        let mut e = Vector::<D>::zeros();
        e[i] = h;
        g[i] = (sdf.distance(&(p + e)) - sdf.distance(&(p - e))) / (2.0 * h);
    }
    normalize_or_axis(g)
}

/// `v` normalised, or the first axis when `v` is zero or not finite (a gradient is never NaN).
pub fn normalize_or_axis<const D: usize>(v: Vector<D>) -> Vector<D> {
    let n = v.norm();
    if n > 1e-12 && n.is_finite() {
        v / n
    } else {
        let mut e = Vector::<D>::zeros();
        e[0] = 1.0;
        e
    }
}

impl<const D: usize, S: Sdf<D> + ?Sized> Sdf<D> for Box<S> {
    fn distance(&self, p: &Vector<D>) -> Real {
        (**self).distance(p)
    }
    fn bounds(&self) -> Aabb<D> {
        (**self).bounds()
    }
    fn level_bounds(&self, level: Real) -> Aabb<D> {
        (**self).level_bounds(level)
    }
    fn gradient(&self, p: &Vector<D>) -> Vector<D> {
        (**self).gradient(p)
    }
    fn lipschitz(&self) -> Real {
        (**self).lipschitz()
    }
    fn kind(&self) -> ShapeKind<D> {
        (**self).kind()
    }
    fn interval(&self, region: &Aabb<D>) -> Option<(Real, Real)> {
        (**self).interval(region)
    }
}

impl<const D: usize, S: Sdf<D> + ?Sized> Sdf<D> for &S {
    fn distance(&self, p: &Vector<D>) -> Real {
        (**self).distance(p)
    }
    fn bounds(&self) -> Aabb<D> {
        (**self).bounds()
    }
    fn level_bounds(&self, level: Real) -> Aabb<D> {
        (**self).level_bounds(level)
    }
    fn gradient(&self, p: &Vector<D>) -> Vector<D> {
        (**self).gradient(p)
    }
    fn lipschitz(&self) -> Real {
        (**self).lipschitz()
    }
    fn kind(&self) -> ShapeKind<D> {
        (**self).kind()
    }
    fn interval(&self, region: &Aabb<D>) -> Option<(Real, Real)> {
        (**self).interval(region)
    }
}
