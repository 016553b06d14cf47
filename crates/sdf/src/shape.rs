//! The serialisable shape tree: every primitive and operator in one enum, so that scene
//! files can hold shapes and the world can hold any collider shape by value.
//!
//! One generic source serves both dimensions: `Shape<D>` with the aliases
//! [`Shape2`] and [`Shape3`]. Kinds that exist in one dimension only are wrapped
//! in [`Only2`]/[`Only3`] ([`crate::DimOnly`]), which cannot be built (in code
//! or from a file) for the other dimension, so a 2D tree cannot hold a torus.
//! Only the usual `Space<D>: Dim<D>` bound is needed to use `Shape<D>` generically.
//!
//! In RON a shape reads, for example,
//! `Rounded((radius: 0.1, shape: Cuboid((half_extents: (1.0, 2.0, 0.5)))))`; with
//! `#![enable(unwrap_variant_newtypes)]` at the top of the file the doubled parentheses can
//! be dropped. Values read from a file are checked by [`Shape::validate`] (done by
//! [`Shape::from_ron`]).

use crate::grid::{GridCache, GridSource};
use crate::ops::{
    Difference, Intersection, Rounded, Scaled, Shell, SmoothDifference, SmoothIntersection,
    SmoothUnion, Transformed, Union,
};
use crate::primitives::{
    convex_hull_2d, Ball, CappedTorus, Capsule, Cone, ConvexHull, ConvexPolygon, Cuboid, Cylinder,
    HalfSpace, Heightfield, HeightfieldScale, Polygon, RoundedCuboid, RoundedPolygon, Segment,
    Torus,
};
use crate::{Edited, Only2, Only3, Result, Sdf, SdfError, ShapeKind, UserField};
use fathom_math::{Aabb, Dim, Pose, Real, Space, Vector, Vector2, Vector3};
use serde::{Deserialize, Serialize};
use std::path::Path;

/// A child shape in the tree.
type Child<const D: usize> = Box<Shape<D>>;

/// Any Fathom shape in `D` dimensions, in its own local frame. See the module docs.
///
/// Built from primitives and operators; every constructor checks its numbers. Distances
/// are signed (negative inside) and exact where the module docs say so:
///
/// ```
/// use fathom_math::{Pose3, Vector2, Vector3};
/// use fathom_sdf::{Sdf, Shape2, Shape3};
///
/// let at = |x| Vector3::new(x, 0.0, 0.0);
/// let ball = Shape3::ball(1.0)?;
/// assert!((ball.distance(&at(3.0)) - 2.0).abs() < 1e-6); // |p| - r
///
/// // Two balls 3 m apart: the union is 0.5 m from both at the midpoint...
/// let right = Shape3::ball(1.0)?.transformed(Pose3::translation(3.0, 0.0, 0.0))?;
/// let pair = ball.clone().union(right.clone())?;
/// assert!((pair.distance(&at(1.5)) - 0.5).abs() < 1e-6);
/// // ...and a smooth union of radius k bridges them, k / 4 lower where both are equal.
/// let blend = ball.smooth_union(right, 1.0)?;
/// assert!((blend.distance(&at(1.5)) - 0.25).abs() < 1e-6);
///
/// // A 2 m cube with a ball of radius 0.5 cut from its middle, rounded by 0.1 m.
/// let cube = Shape3::cuboid(Vector3::new(1.0, 1.0, 1.0))?;
/// let hollow = cube.difference(Shape3::ball(0.5)?)?.rounded(0.1)?;
/// assert!((hollow.distance(&at(0.0)) - 0.4).abs() < 1e-6); // in the cavity: 0.5 - 0.1
/// assert!((hollow.distance(&at(2.0)) - 0.9).abs() < 1e-6); // 1 m off a face, less 0.1
///
/// // 2D: a triangle, 1 m below its bottom edge.
/// let v = |x, y| Vector2::new(x, y);
/// let triangle = Shape2::convex_polygon(vec![v(0.0, 0.0), v(2.0, 0.0), v(0.0, 2.0)])?;
/// assert!((triangle.distance(&v(1.0, -1.0)) - 1.0).abs() < 1e-6);
/// # Ok::<(), fathom_sdf::SdfError>(())
/// ```
///
/// Decoding is depth-bounded in every format: `remote = "Self"` turns the derived serde code
/// into inherent functions that the trait impls in `shape_serde.rs` wrap with a depth count.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(remote = "Self")]
pub enum Shape<const D: usize>
where
    Space<D>: Dim<D>,
{
    /// A ball (disc in 2D) about the origin.
    Ball(Ball),
    /// A box about the origin.
    Cuboid(Cuboid<D>),
    /// A box with rounded edges.
    RoundedCuboid(RoundedCuboid<D>),
    /// A capsule along local y.
    Capsule(Capsule),
    /// A half-space.
    HalfSpace(HalfSpace<D>),
    /// 2D only: a segment.
    Segment(Only2<D, Segment>),
    /// 2D only: a convex polygon.
    ConvexPolygon(Only2<D, ConvexPolygon>),
    /// 2D only: a simple (possibly non-convex) polygon.
    Polygon(Only2<D, Polygon>),
    /// 2D only: a rounded simple polygon.
    RoundedPolygon(Only2<D, RoundedPolygon>),
    /// 3D only: a cylinder along local y.
    Cylinder(Only3<D, Cylinder>),
    /// 3D only: a cone along local y.
    Cone(Only3<D, Cone>),
    /// 3D only: a torus about local y.
    Torus(Only3<D, Torus>),
    /// 3D only: a capped torus (an arc of a torus) about local y.
    CappedTorus(Only3<D, CappedTorus>),
    /// A child placed by a rigid pose.
    Transformed(Transformed<Child<D>, D>),
    /// A child scaled uniformly.
    Scaled(Scaled<Child<D>>),
    /// A child inflated by a margin.
    Rounded(Rounded<Child<D>>),
    /// A hollow shell of a child.
    Shell(Shell<Child<D>>),
    /// The union of children.
    Union(Union<Shape<D>>),
    /// The intersection of children.
    Intersection(Intersection<Shape<D>>),
    /// A child with another cut away.
    Difference(Difference<Child<D>, Child<D>>),
    /// The smooth union of two children.
    SmoothUnion(SmoothUnion<Child<D>, Child<D>>),
    /// The smooth intersection of two children.
    SmoothIntersection(SmoothIntersection<Child<D>, Child<D>>),
    /// A child with another cut away, filleted.
    SmoothDifference(SmoothDifference<Child<D>, Child<D>>),
    /// A baked distance grid, inline or by file path (see [`GridSource`]).
    Grid(GridSource<D>),
    /// Terrain: heights over x (2D) or over x and z (3D), the solid below them.
    Heightfield(Heightfield<D>),
    /// 3D only: the convex hull of a point cloud.
    ConvexHull(Only3<D, ConvexHull>),
    /// A base shape with run-time carves and additions (see [`Edited`]).
    Edited(Edited<D>),
    /// A field the user implements, by name (see [`UserField`]); written to files by name only.
    User(UserField<D>),
}

/// A 2D shape tree.
pub type Shape2 = Shape<2>;
/// A 3D shape tree.
pub type Shape3 = Shape<3>;

/// Runs `$e` with `$s` bound to the payload of whichever variant `$self` is.
macro_rules! each_variant {
    ($self:expr, $s:ident => $e:expr) => {
        match $self {
            Shape::Ball($s) => $e,
            Shape::Cuboid($s) => $e,
            Shape::RoundedCuboid($s) => $e,
            Shape::Capsule($s) => $e,
            Shape::HalfSpace($s) => $e,
            Shape::Segment($s) => $e,
            Shape::ConvexPolygon($s) => $e,
            Shape::Polygon($s) => $e,
            Shape::RoundedPolygon($s) => $e,
            Shape::Cylinder($s) => $e,
            Shape::Cone($s) => $e,
            Shape::Torus($s) => $e,
            Shape::CappedTorus($s) => $e,
            Shape::Transformed($s) => $e,
            Shape::Scaled($s) => $e,
            Shape::Rounded($s) => $e,
            Shape::Shell($s) => $e,
            Shape::Union($s) => $e,
            Shape::Intersection($s) => $e,
            Shape::Difference($s) => $e,
            Shape::SmoothUnion($s) => $e,
            Shape::SmoothIntersection($s) => $e,
            Shape::SmoothDifference($s) => $e,
            Shape::Grid($s) => $e,
            Shape::Heightfield($s) => $e,
            Shape::ConvexHull($s) => $e,
            Shape::Edited($s) => $e,
            Shape::User($s) => $e,
        }
    };
}

impl<const D: usize> Sdf<D> for Shape<D>
where
    Space<D>: Dim<D>,
{
    fn distance(&self, p: &Vector<D>) -> Real {
        each_variant!(self, s => s.distance(p))
    }
    fn bounds(&self) -> Aabb<D> {
        each_variant!(self, s => Sdf::<D>::bounds(s))
    }
    fn level_bounds(&self, level: Real) -> Aabb<D> {
        each_variant!(self, s => Sdf::<D>::level_bounds(s, level))
    }
    fn gradient(&self, p: &Vector<D>) -> Vector<D> {
        each_variant!(self, s => s.gradient(p))
    }
    fn distance_and_gradient(&self, p: &Vector<D>) -> (Real, Vector<D>) {
        each_variant!(self, s => s.distance_and_gradient(p))
    }
    fn lipschitz(&self) -> Real {
        each_variant!(self, s => Sdf::<D>::lipschitz(s))
    }
    fn kind(&self) -> ShapeKind<D> {
        each_variant!(self, s => Sdf::<D>::kind(s))
    }
    fn interval(&self, region: &Aabb<D>) -> Option<(Real, Real)> {
        each_variant!(self, s => Sdf::<D>::interval(s, region))
    }
}

/// Most nodes on any path from a shape's root to a leaf. Every shape is checked against it
/// when built into a collider, read from a scene or restored from a snapshot, so a world's
/// shapes always fit the RON and binary snapshot formats (a RON reader gives up at 128 levels
/// of nesting, and a shape node takes up to 4). Evaluating a field recurses once per level.
pub const MAX_SHAPE_DEPTH: usize = 24;

/// ron's message for a parse error, with the one ron words for its own API (past
/// [`RON_RECURSION_LIMIT`] levels of nesting it suggests raising `ron::Options::recursion_limit`)
/// reworded for a file's author. Fathom's RON readers report ron's errors with this.
pub fn ron_error_message(code: &ron::Error) -> String {
    match code {
        ron::Error::ExceededRecursionLimit => format!(
            "the text nests deeper than {RON_RECURSION_LIMIT} levels of brackets; a shape tree \
             may be at most {MAX_SHAPE_DEPTH} nodes deep (fathom_sdf::MAX_SHAPE_DEPTH)"
        ),
        other => other.to_string(),
    }
}

/// [`ron_error_message`] with the position: `line:column: message`.
fn ron_error_with_position(e: &ron::error::SpannedError) -> String {
    format!("{}: {}", e.span.start, ron_error_message(&e.code))
}

/// Levels of nesting a RON reader accepts: room for a [`MAX_SHAPE_DEPTH`]-deep shape inside a
/// scene or a snapshot (ron's default of 128 refused 24 nested roundings in a snapshot), and
/// still a bound that keeps a hostile file's recursion far from the stack's end.
pub const RON_RECURSION_LIMIT: usize = 256;

/// The RON reader every Fathom format uses: ron's defaults with [`RON_RECURSION_LIMIT`].
pub fn ron_options() -> ron::Options {
    ron::Options::default().with_recursion_limit(RON_RECURSION_LIMIT)
}

impl<const D: usize> Shape<D>
where
    Space<D>: Dim<D>,
{
    /// Checks every value in the tree (sizes finite and positive, poses proper, polygons simple,
    /// grid files loaded, ...), returning the first error, which names the bad field.
    pub fn validate(&self) -> Result<()> {
        self.check_depth()?;
        self.check(false)
    }

    /// The number of nodes on the longest path from this node down to a leaf (1 for a
    /// primitive), counted without recursion and giving up past [`MAX_SHAPE_DEPTH`].
    pub fn depth(&self) -> usize {
        let mut deepest = 0;
        let mut stack = vec![(self, 1usize)];
        while let Some((node, depth)) = stack.pop() {
            deepest = deepest.max(depth);
            if deepest > MAX_SHAPE_DEPTH {
                break;
            }
            stack.extend(node.children().into_iter().map(|c| (c, depth + 1)));
        }
        deepest
    }

    /// Refuses a tree deeper than [`MAX_SHAPE_DEPTH`] before anything recurses into it.
    fn check_depth(&self) -> Result<()> {
        if self.depth() > MAX_SHAPE_DEPTH {
            return Err(crate::shape_serde::too_deep());
        }
        Ok(())
    }

    /// [`Shape::validate`]; with `allow_unloaded`, a grid file not yet loaded is not an error.
    fn check(&self, allow_unloaded: bool) -> Result<()> {
        match self {
            Shape::Ball(s) => s.validate(),
            Shape::Cuboid(s) => s.validate(),
            Shape::RoundedCuboid(s) => s.validate(),
            Shape::Capsule(s) => s.validate(),
            Shape::HalfSpace(s) => s.validate(),
            Shape::Segment(s) => s.get().validate(),
            Shape::ConvexPolygon(s) => s.get().validate(),
            Shape::Polygon(s) => s.get().validate(),
            Shape::RoundedPolygon(s) => s.get().validate(),
            Shape::Cylinder(s) => s.get().validate(),
            Shape::Cone(s) => s.get().validate(),
            Shape::Torus(s) => s.get().validate(),
            Shape::CappedTorus(s) => s.get().validate(),
            Shape::Transformed(s) => s.validate_params(),
            Shape::Scaled(s) => s.validate_params(),
            Shape::Rounded(s) => s.validate_params(),
            Shape::Shell(s) => s.validate_params(),
            Shape::Union(s) => s.validate_params(),
            Shape::Intersection(s) => s.validate_params(),
            Shape::Difference(_) => Ok(()),
            Shape::SmoothUnion(s) => s.validate_params(),
            Shape::SmoothIntersection(s) => s.validate_params(),
            Shape::SmoothDifference(s) => s.validate_params(),
            Shape::Grid(g) if allow_unloaded && !g.is_loaded() => Ok(()),
            Shape::Grid(g) => g.validate(),
            Shape::Heightfield(s) => s.validate(),
            Shape::ConvexHull(s) => s.get().validate(),
            Shape::Edited(e) => e.validate_params(),
            Shape::User(u) => u.validate(),
        }?;
        self.children()
            .into_iter()
            .try_for_each(|c| c.check(allow_unloaded))
    }

    /// Reads a shape from RON and validates it. A syntax error, an unknown field or kind, or a
    /// kind of the other dimension is [`SdfError::Parse`]; a bad value is the error
    /// [`Shape::validate`] gives. Grids given by file path are left unloaded (see [`Shape::load_files`]).
    pub fn from_ron(text: &str) -> Result<Self> {
        let text = crate::strip_byte_order_mark(text);
        let shape: Self = ron_options().from_str(text).map_err(|e| SdfError::Parse {
            format: "RON",
            path: None,
            message: ron_error_with_position(&e),
        })?;
        shape.check_depth()?;
        shape.check(true)?;
        Ok(shape)
    }

    /// Reads a shape from a RON file, loads the grid files it names (relative to the file's
    /// folder) and validates it.
    pub fn from_ron_file(path: impl AsRef<Path>) -> Result<Self> {
        let path = path.as_ref();
        let text = crate::read_text_limited(path, crate::MAX_RON_FILE_BYTES)?;
        let mut shape: Self = ron_options().from_str(&text).map_err(|e| SdfError::Parse {
            format: "RON",
            path: Some(path.display().to_string()),
            message: ron_error_with_position(&e),
        })?;
        shape.load_files(path.parent().unwrap_or(Path::new(".")))?;
        shape.validate()?;
        Ok(shape)
    }

    /// The shape as pretty RON (what [`Shape::from_ron`] reads back to an equal shape).
    pub fn to_ron(&self) -> String {
        // Serialising plain data to a string cannot fail: no maps with non-string keys, no I/O.
        ron::ser::to_string_pretty(self, ron::ser::PrettyConfig::default()).unwrap_or_default()
    }

    /// Loads every grid in the tree given by file path, resolving relative paths against `base`.
    /// A file named several times is read once and shared (see [`GridCache`]).
    pub fn load_files(&mut self, base: &Path) -> Result<()> {
        self.load_files_cached(base, &mut GridCache::default())
    }

    /// [`Shape::load_files`], taking grids already in `cache` (by full path) instead of reading
    /// their files again, and adding those it reads.
    pub fn load_files_cached(&mut self, base: &Path, cache: &mut GridCache<D>) -> Result<()> {
        self.visit_mut(&mut |s| match s {
            Shape::Grid(g) => g.load_cached(base, cache),
            _ => Ok(()),
        })
    }

    /// Calls `f` on every baked grid in the tree, parents first (what a snapshot stores and
    /// restores for grids given by file).
    pub fn for_each_grid_mut(
        &mut self,
        f: &mut impl FnMut(&mut GridSource<D>) -> Result<()>,
    ) -> Result<()> {
        self.visit_mut(&mut |s| match s {
            Shape::Grid(g) => f(g),
            _ => Ok(()),
        })
    }

    /// The direct children of an operator (none for a primitive or grid).
    pub fn children(&self) -> Vec<&Shape<D>> {
        match self {
            Shape::Transformed(s) => vec![&*s.shape],
            Shape::Scaled(s) => vec![&*s.shape],
            Shape::Rounded(s) => vec![&*s.shape],
            Shape::Shell(s) => vec![&*s.shape],
            Shape::Union(s) => s.shapes.iter().collect(),
            Shape::Intersection(s) => s.shapes.iter().collect(),
            Shape::Difference(s) => vec![&*s.base, &*s.subtract],
            Shape::SmoothUnion(s) => vec![&*s.a, &*s.b],
            Shape::SmoothIntersection(s) => vec![&*s.a, &*s.b],
            Shape::SmoothDifference(s) => vec![&*s.a, &*s.b],
            Shape::Edited(e) => e.children(),
            _ => Vec::new(),
        }
    }

    fn children_mut(&mut self) -> Vec<&mut Shape<D>> {
        match self {
            Shape::Transformed(s) => vec![&mut *s.shape],
            Shape::Scaled(s) => vec![&mut *s.shape],
            Shape::Rounded(s) => vec![&mut *s.shape],
            Shape::Shell(s) => vec![&mut *s.shape],
            Shape::Union(s) => s.shapes.iter_mut().collect(),
            Shape::Intersection(s) => s.shapes.iter_mut().collect(),
            Shape::Difference(s) => vec![&mut *s.base, &mut *s.subtract],
            Shape::SmoothUnion(s) => vec![&mut *s.a, &mut *s.b],
            Shape::SmoothIntersection(s) => vec![&mut *s.a, &mut *s.b],
            Shape::SmoothDifference(s) => vec![&mut *s.a, &mut *s.b],
            Shape::Edited(e) => e.children_mut(),
            _ => Vec::new(),
        }
    }

    /// Calls `f` on this node and every node below it, parents first.
    pub fn visit(&self, f: &mut impl FnMut(&Shape<D>)) {
        f(self);
        for c in self.children() {
            c.visit(f);
        }
    }

    fn visit_mut(&mut self, f: &mut impl FnMut(&mut Shape<D>) -> Result<()>) -> Result<()> {
        f(self)?;
        for c in self.children_mut() {
            c.visit_mut(f)?;
        }
        Ok(())
    }

    /// A user field under `name`, checked by [`UserField::new`] (a sampled test of its
    /// Lipschitz claim; [`SdfError::LipschitzClaim`] when clearly false).
    pub fn user(name: impl Into<String>, field: std::sync::Arc<dyn Sdf<D>>) -> Result<Self> {
        Ok(Shape::User(UserField::new(name, field)?))
    }

    /// Calls `f` on every user field in the tree, parents first (to attach them again).
    pub fn for_each_user_field_mut(
        &mut self,
        f: &mut impl FnMut(&mut UserField<D>) -> Result<()>,
    ) -> Result<()> {
        self.visit_mut(&mut |s| match s {
            Shape::User(u) => f(u),
            _ => Ok(()),
        })
    }

    /// A ball of `radius` metres.
    pub fn ball(radius: Real) -> Result<Self> {
        Ok(Shape::Ball(Ball::new(radius)?))
    }

    /// A box of the given half extents, metres.
    pub fn cuboid(half_extents: Vector<D>) -> Result<Self> {
        Ok(Shape::Cuboid(Cuboid::new(half_extents)?))
    }

    /// A box of inner half extents rounded by `radius`, metres.
    pub fn rounded_cuboid(half_extents: Vector<D>, radius: Real) -> Result<Self> {
        Ok(Shape::RoundedCuboid(RoundedCuboid::new(
            half_extents,
            radius,
        )?))
    }

    /// A capsule along local y.
    pub fn capsule(half_height: Real, radius: Real) -> Result<Self> {
        Ok(Shape::Capsule(Capsule::new(half_height, radius)?))
    }

    /// The half-space `normal · p <= offset` (normal normalised here).
    pub fn half_space(normal: Vector<D>, offset: Real) -> Result<Self> {
        Ok(Shape::HalfSpace(HalfSpace::new(normal, offset)?))
    }

    /// This shape placed by `pose`.
    pub fn transformed(self, pose: Pose<D>) -> Result<Self> {
        Ok(Shape::Transformed(Transformed::new(pose, Box::new(self))?))
    }

    /// This shape scaled by `scale` about its origin.
    pub fn scaled(self, scale: Real) -> Result<Self> {
        Ok(Shape::Scaled(Scaled::new(scale, Box::new(self))?))
    }

    /// This shape inflated by `radius`.
    pub fn rounded(self, radius: Real) -> Result<Self> {
        Ok(Shape::Rounded(Rounded::new(radius, Box::new(self))?))
    }

    /// A shell of this shape's surface, `2 * half_thickness` thick.
    pub fn shell(self, half_thickness: Real) -> Result<Self> {
        Ok(Shape::Shell(Shell::new(half_thickness, Box::new(self))?))
    }

    /// The union with `other`. Like every CSG constructor here it takes the shape by value and
    /// returns a `Result`, so trees chain with `?`.
    pub fn union(self, other: Self) -> Result<Self> {
        Self::union_all([self, other])
    }

    /// The intersection with `other`.
    pub fn intersection(self, other: Self) -> Result<Self> {
        Self::intersection_all([self, other])
    }

    /// This shape with `other` cut away.
    pub fn difference(self, other: Self) -> Result<Self> {
        Ok(Shape::Difference(Difference::new(
            Box::new(self),
            Box::new(other),
        )))
    }

    /// The union of `shapes`; an empty list is an error.
    pub fn union_all(shapes: impl IntoIterator<Item = Self>) -> Result<Self> {
        Ok(Shape::Union(Union::new(shapes.into_iter().collect())?))
    }

    /// The intersection of `shapes`; an empty list is an error.
    pub fn intersection_all(shapes: impl IntoIterator<Item = Self>) -> Result<Self> {
        Ok(Shape::Intersection(Intersection::new(
            shapes.into_iter().collect(),
        )?))
    }

    /// The smooth union with `other`, blend radius `radius` metres.
    pub fn smooth_union(self, other: Self, radius: Real) -> Result<Self> {
        Ok(Shape::SmoothUnion(SmoothUnion::new(
            Box::new(self),
            Box::new(other),
            radius,
        )?))
    }

    /// The smooth intersection with `other`.
    pub fn smooth_intersection(self, other: Self, radius: Real) -> Result<Self> {
        Ok(Shape::SmoothIntersection(SmoothIntersection::new(
            Box::new(self),
            Box::new(other),
            radius,
        )?))
    }

    /// A heightfield: `heights` in metres, one row along x in 2D, rows along z in 3D (see
    /// [`Heightfield::new`]).
    pub fn heightfield(heights: Vec<Vec<Real>>, scale: HeightfieldScale) -> Result<Self> {
        Ok(Shape::Heightfield(Heightfield::new(heights, scale)?))
    }

    /// This shape with `other` cut away, the cut filleted.
    pub fn smooth_difference(self, other: Self, radius: Real) -> Result<Self> {
        Ok(Shape::SmoothDifference(SmoothDifference::new(
            Box::new(self),
            Box::new(other),
            radius,
        )?))
    }
}

impl Shape<2> {
    /// A segment from `a` to `b`.
    pub fn segment(a: Vector2, b: Vector2) -> Result<Self> {
        Ok(Shape::Segment(Only2::new(Segment::new(a, b)?)))
    }

    /// A convex polygon.
    pub fn convex_polygon(vertices: Vec<Vector2>) -> Result<Self> {
        Ok(Shape::ConvexPolygon(Only2::new(ConvexPolygon::new(
            vertices,
        )?)))
    }

    /// The convex polygon that is the hull of a point cloud (at least 3 finite points, not all
    /// on one line; points inside or on an edge are dropped).
    pub fn convex_hull(points: &[Vector2]) -> Result<Self> {
        Self::convex_polygon(convex_hull_2d(points)?)
    }

    /// A simple polygon, convex or not.
    pub fn polygon(vertices: Vec<Vector2>) -> Result<Self> {
        Ok(Shape::Polygon(Only2::new(Polygon::new(vertices)?)))
    }

    /// A simple polygon rounded by `radius`.
    pub fn rounded_polygon(vertices: Vec<Vector2>, radius: Real) -> Result<Self> {
        Ok(Shape::RoundedPolygon(Only2::new(RoundedPolygon::new(
            vertices, radius,
        )?)))
    }
}

impl Shape<3> {
    /// A cylinder along local y.
    pub fn cylinder(half_height: Real, radius: Real) -> Result<Self> {
        Ok(Shape::Cylinder(Only3::new(Cylinder::new(
            half_height,
            radius,
        )?)))
    }

    /// The convex hull of a point cloud (at least 4 finite points, not all on one plane).
    pub fn convex_hull(points: &[Vector3]) -> Result<Self> {
        Ok(Shape::ConvexHull(Only3::new(ConvexHull::new(points)?)))
    }

    /// A cone along local y, apex up.
    pub fn cone(half_height: Real, radius: Real) -> Result<Self> {
        Ok(Shape::Cone(Only3::new(Cone::new(half_height, radius)?)))
    }

    /// A torus about local y.
    pub fn torus(major_radius: Real, minor_radius: Real) -> Result<Self> {
        Ok(Shape::Torus(Only3::new(Torus::new(
            major_radius,
            minor_radius,
        )?)))
    }

    /// A capped torus about local y.
    pub fn capped_torus(major_radius: Real, minor_radius: Real, half_angle: Real) -> Result<Self> {
        Ok(Shape::CappedTorus(Only3::new(CappedTorus::new(
            major_radius,
            minor_radius,
            half_angle,
        )?)))
    }
}
