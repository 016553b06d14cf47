//! The answers of the queries: contact points, manifolds, deepest points,
//! distances, and the statistics every query reports beside its answer.

use fathom_math::{ManifoldPoints, Real, Vector};

/// One contact point of a manifold. Everything in the WORLD frame.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ContactPoint<const D: usize> {
    /// The point on A's surface, world frame, metres.
    pub point_a: Vector<D>,
    /// The point on B's surface, world frame, metres.
    pub point_b: Vector<D>,
    /// Signed separation along the manifold normal, metres: `(point_b - point_a) · normal`.
    /// Negative when penetrating, positive (at most the margin) for a speculative contact.
    pub depth: Real,
    /// Stable across steps while the contact persists (for warm starting): keyed on the
    /// contact region and on the tangent direction (or mesh vertex) the point extremises.
    pub id: u32,
}

/// The contact of one connected region: a shared normal and up to 4 points (3D) or 2 (2D).
#[derive(Clone, Debug, PartialEq)]
pub struct Manifold<const D: usize> {
    /// Unit normal, world frame, pointing from A towards B.
    pub normal: Vector<D>,
    /// The points, at most 4 in 3D and 2 in 2D.
    pub points: ManifoldPoints<ContactPoint<D>>,
}

/// What a query cost and whether it was cut short.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct QueryStats {
    /// Calls to a shape's `distance` or `gradient` (analytic half-space planes are not counted).
    pub evaluations: usize,
    /// Cells (or tree nodes) the searches examined.
    pub cells: usize,
    /// True when the cell budget (`ContactOptions::max_cells`) ran out: the answer is then the
    /// best found so far.
    pub hit_budget: bool,
}

/// The answer of [`crate::contacts`]: one manifold per contact region.
#[derive(Clone, Debug, PartialEq)]
pub struct Contacts<const D: usize> {
    /// One manifold per connected contact region, in a deterministic order.
    pub manifolds: Vec<Manifold<D>>,
    /// Cost of the query.
    pub stats: QueryStats,
}

/// The answer of [`crate::intersects`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Intersection {
    /// True when a point inside both shapes was found.
    pub intersecting: bool,
    /// Cost of the query.
    pub stats: QueryStats,
}

/// The deepest point of an overlap, world frame.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Deepest<const D: usize> {
    /// How far the shapes overlap along `normal`, metres (positive).
    pub depth: Real,
    /// Unit normal from A towards B, world frame: moving B by `depth * normal` separates them.
    pub normal: Vector<D>,
    /// The point of A deepest inside B, on A's surface, world frame.
    pub point_a: Vector<D>,
    /// The point of B deepest inside A, on B's surface, world frame.
    pub point_b: Vector<D>,
}

/// The answer of [`crate::penetration`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Penetration<const D: usize> {
    /// The deepest overlap, or `None` when the shapes do not overlap.
    pub deepest: Option<Deepest<D>>,
    /// Cost of the query.
    pub stats: QueryStats,
}

/// The answer of [`crate::distance`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Distance<const D: usize> {
    /// Distance between the shapes, metres; zero when they intersect.
    pub distance: Real,
    /// Witness point on A's surface, world frame (a common point when they intersect).
    pub point_a: Vector<D>,
    /// Witness point on B's surface, world frame (a common point when they intersect).
    pub point_b: Vector<D>,
    /// Cost of the query.
    pub stats: QueryStats,
}
