//! 2D-only primitives: a segment, convex and simple (possibly non-convex) polygons, and
//! rounded polygons.
//!
//! A polygon's distance is the distance to its nearest edge, negative inside
//! (crossing-number test), which is exact; its gradient points away from the
//! nearest edge point (towards it inside). Polygons are checked when built:
//! enough vertices (and at most [`MAX_POLYGON_VERTICES`]), finite, no zero-length
//! edge, no self-intersection (a crossing polygon has no well-defined inside; found by
//! a sweep in O(n log n), see `sweep.rs`), and for the convex one, every turn the same
//! way and once around in all (O(n)).

use super::solid::closest_on_segment;
use super::sweep::{sweep, Crossing};
use crate::error::{check_finite_vec, check_positive, Result, SdfError};
use crate::{normalize_or_axis, Sdf};
use fathom_math::{Aabb, Real, Vector2};
use serde::{Deserialize, Serialize};

/// A line segment from `a` to `b`: a zero-thickness wall. Its distance is unsigned
/// (the segment has no inside); round it ([`crate::Rounded`]) for a 2D capsule of any direction.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Segment {
    /// First end, metres, local frame.
    pub a: Vector2,
    /// Second end, metres, local frame.
    pub b: Vector2,
}

impl Segment {
    /// A segment between two distinct finite points.
    pub fn new(a: Vector2, b: Vector2) -> Result<Self> {
        check_finite_vec("a", &a)?;
        check_finite_vec("b", &b)?;
        if (b - a).norm_squared() == 0.0 {
            return Err(SdfError::Invalid {
                field: "b",
                reason: "must differ from `a`".into(),
            });
        }
        Ok(Self { a, b })
    }

    /// Checks the fields as [`Segment::new`] does.
    pub fn validate(&self) -> Result<()> {
        Self::new(self.a, self.b).map(drop)
    }
}

impl Sdf<2> for Segment {
    fn distance(&self, p: &Vector2) -> Real {
        (p - closest_on_segment(p, &self.a, &self.b)).norm()
    }
    fn bounds(&self) -> Aabb<2> {
        Aabb::from_points(&[self.a, self.b])
    }
    fn gradient(&self, p: &Vector2) -> Vector2 {
        let v = p - closest_on_segment(p, &self.a, &self.b);
        if v.norm_squared() > 1e-24 {
            v.normalize()
        } else {
            // On the segment: either side's normal is a valid one; take the left.
            let t = (self.b - self.a).normalize();
            Vector2::new(-t.y, t.x)
        }
    }
}

/// Twice the signed area of a polygon (positive when counter-clockwise).
fn twice_area(v: &[Vector2]) -> Real {
    (0..v.len()).map(|i| v[i].perp(&v[(i + 1) % v.len()])).sum()
}

/// True when `p` is inside the polygon (crossing number, even-odd).
fn contains(v: &[Vector2], p: &Vector2) -> bool {
    let mut inside = false;
    let mut j = v.len() - 1;
    for i in 0..v.len() {
        let (a, b) = (v[i], v[j]);
        if (a.y > p.y) != (b.y > p.y) && p.x < (b.x - a.x) * (p.y - a.y) / (b.y - a.y) + a.x {
            inside = !inside;
        }
        j = i;
    }
    inside
}

/// Signed distance from `p` to the polygon `v` and its gradient.
fn polygon_eval(v: &[Vector2], p: &Vector2) -> (Real, Vector2) {
    let n = v.len();
    let (mut best, mut best_c, mut best_edge) = (Real::INFINITY, *p, 0);
    for i in 0..n {
        let c = closest_on_segment(p, &v[i], &v[(i + 1) % n]);
        let d2 = (p - c).norm_squared();
        if d2 < best {
            (best, best_c, best_edge) = (d2, c, i);
        }
    }
    let sign = if contains(v, p) { -1.0 } else { 1.0 };
    let w = p - best_c;
    let len = w.norm();
    let g = if len > 1e-12 {
        w * (sign / len)
    } else {
        // On an edge: its outward normal (right of travel for a counter-clockwise polygon).
        let e = v[(best_edge + 1) % n] - v[best_edge];
        let right = Vector2::new(e.y, -e.x);
        normalize_or_axis(if twice_area(v) > 0.0 { right } else { -right })
    };
    (sign * len, g)
}

/// Most vertices a polygon (simple, convex or rounded) may have: 2^18 = 262,144. Checking a
/// polygon costs O(n log n) (about a second at the limit), but every distance evaluation visits
/// every edge, so a shape this fine is already slow to collide; a finer outline belongs in a
/// baked grid ([`crate::BakedGrid`]), whose evaluation costs the same at any detail.
pub const MAX_POLYGON_VERTICES: usize = 1 << 18;

/// The checks every polygon gets, in O(n): between 3 and [`MAX_POLYGON_VERTICES`] finite
/// vertices, no zero-length edge, non-zero area.
fn check_polygon_basics(v: &[Vector2]) -> Result<()> {
    let n = v.len();
    if n < 3 {
        return Err(SdfError::TooSmall {
            field: "vertices",
            value: n,
            min: 3,
        });
    }
    if n > MAX_POLYGON_VERTICES {
        return Err(SdfError::TooMany {
            field: "vertices",
            value: n,
            max: MAX_POLYGON_VERTICES,
        });
    }
    for p in v {
        check_finite_vec("vertices", p)?;
    }
    for i in 0..n {
        if v[i] == v[(i + 1) % n] {
            return Err(SdfError::Invalid {
                field: "vertices",
                reason: format!("vertices {i} and {} coincide", (i + 1) % n),
            });
        }
    }
    if twice_area(v) == 0.0 {
        return Err(SdfError::Invalid {
            field: "vertices",
            reason: "the polygon has zero area".into(),
        });
    }
    Ok(())
}

/// Checks a simple polygon: the basic checks, then no two non-adjacent edges touching and no
/// two vertices at one point (a sweep, O(n log n), done once at construction).
fn check_simple_polygon(v: &[Vector2]) -> Result<()> {
    check_polygon_basics(v)?;
    let reason = match sweep(v).crossing {
        None => return Ok(()),
        Some(Crossing::Edges(i, j)) => {
            format!("edges {i} and {j} intersect: the polygon must be simple")
        }
        Some(Crossing::Vertices(i, j)) => {
            format!("vertices {i} and {j} coincide: the polygon must be simple")
        }
    };
    Err(SdfError::Invalid {
        field: "vertices",
        reason,
    })
}

/// Checks a strictly convex polygon in O(n): the basic checks, every turn strictly the way
/// of the polygon's area, and the edges' directions turning once around in all. A closed
/// outline that turns one way at every corner and once around in total is the boundary of a
/// convex polygon, so it is simple without a sweep (a pentagram turns one way too, but twice
/// around).
fn check_convex_polygon(v: &[Vector2]) -> Result<()> {
    check_polygon_basics(v)?;
    let n = v.len();
    let p: Vec<[f64; 2]> = v.iter().map(|q| [f64::from(q.x), f64::from(q.y)]).collect();
    let area_sign = twice_area(v).signum() as f64;
    let mut turning = 0.0f64;
    for i in 0..n {
        let (a, b, c) = (&p[i], &p[(i + 1) % n], &p[(i + 2) % n]);
        if turn_sign(a, b, c) * area_sign <= 0.0 {
            return Err(SdfError::Invalid {
                field: "vertices",
                reason: format!(
                    "the polygon is not strictly convex at vertex {}",
                    (i + 1) % n
                ),
            });
        }
        turning += turn_angle(a, b, c);
    }
    // Each corner turns by less than pi and the total is a whole number of turns, so
    // rounding is exact for any float error below half a turn.
    let turns = (turning.abs() / std::f64::consts::TAU).round();
    if turns != 1.0 {
        return Err(SdfError::Invalid {
            field: "vertices",
            reason: format!(
                "the outline winds {turns} times around: a convex polygon must be simple"
            ),
        });
    }
    Ok(())
}

/// The exact turn at `b` going from `a` to `c`: positive left, negative right, zero straight
/// on or back (only its sign is exact).
fn turn_sign(a: &[f64; 2], b: &[f64; 2], c: &[f64; 2]) -> f64 {
    let coord = |p: &[f64; 2]| robust::Coord { x: p[0], y: p[1] };
    robust::orient2d(coord(a), coord(b), coord(c))
}

/// The signed angle the direction turns by at `b` going from `a` to `c`, radians.
fn turn_angle(a: &[f64; 2], b: &[f64; 2], c: &[f64; 2]) -> f64 {
    let (u, w) = ([b[0] - a[0], b[1] - a[1]], [c[0] - b[0], c[1] - b[1]]);
    (u[0] * w[1] - u[1] * w[0]).atan2(u[0] * w[0] + u[1] * w[1])
}

/// A simple polygon (convex or not, e.g. a star or an L), vertices in order either way round.
/// Exact distance.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Polygon {
    /// The corners in order, metres, local frame.
    pub vertices: Vec<Vector2>,
}

impl Polygon {
    /// A simple polygon (see the module docs for what is checked).
    pub fn new(vertices: Vec<Vector2>) -> Result<Self> {
        check_simple_polygon(&vertices)?;
        Ok(Self { vertices })
    }

    /// Checks the fields as [`Polygon::new`] does.
    pub fn validate(&self) -> Result<()> {
        check_simple_polygon(&self.vertices)
    }
}

impl Sdf<2> for Polygon {
    fn distance(&self, p: &Vector2) -> Real {
        polygon_eval(&self.vertices, p).0
    }
    fn bounds(&self) -> Aabb<2> {
        Aabb::from_points(&self.vertices)
    }
    fn gradient(&self, p: &Vector2) -> Vector2 {
        polygon_eval(&self.vertices, p).1
    }
}

/// A convex polygon, vertices in order either way round, every turn strictly the same way.
/// Exact distance.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ConvexPolygon {
    /// The corners in order, metres, local frame.
    pub vertices: Vec<Vector2>,
}

impl ConvexPolygon {
    /// A convex polygon: a simple polygon whose every turn has the same sign (no collinear corners).
    pub fn new(vertices: Vec<Vector2>) -> Result<Self> {
        let s = Self { vertices };
        s.validate()?;
        Ok(s)
    }

    /// Checks the fields as [`ConvexPolygon::new`] does.
    pub fn validate(&self) -> Result<()> {
        check_convex_polygon(&self.vertices)
    }
}

impl Sdf<2> for ConvexPolygon {
    fn distance(&self, p: &Vector2) -> Real {
        polygon_eval(&self.vertices, p).0
    }
    fn bounds(&self) -> Aabb<2> {
        Aabb::from_points(&self.vertices)
    }
    fn gradient(&self, p: &Vector2) -> Vector2 {
        polygon_eval(&self.vertices, p).1
    }
}

/// A simple polygon inflated by `radius`: every point within `radius` of it. The polygon's
/// distance minus `radius`: exact outside the rounded shape, a 1-Lipschitz lower bound of the
/// depth inside (exact for convex polygons).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RoundedPolygon {
    /// The inner polygon's corners in order, metres, local frame.
    pub vertices: Vec<Vector2>,
    /// Rounding radius, metres.
    pub radius: Real,
}

impl RoundedPolygon {
    /// A simple polygon and a positive rounding radius.
    pub fn new(vertices: Vec<Vector2>, radius: Real) -> Result<Self> {
        let s = Self { vertices, radius };
        s.validate()?;
        Ok(s)
    }

    /// Checks the fields as [`RoundedPolygon::new`] does.
    pub fn validate(&self) -> Result<()> {
        check_simple_polygon(&self.vertices)?;
        check_positive("radius", self.radius).map(drop)
    }
}

impl Sdf<2> for RoundedPolygon {
    fn distance(&self, p: &Vector2) -> Real {
        polygon_eval(&self.vertices, p).0 - self.radius
    }
    fn bounds(&self) -> Aabb<2> {
        Aabb::from_points(&self.vertices).loosened(self.radius)
    }
    fn gradient(&self, p: &Vector2) -> Vector2 {
        polygon_eval(&self.vertices, p).1
    }
}
