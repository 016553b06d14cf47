//! 2D-only primitives: a segment, convex and simple (possibly non-convex) polygons, and
//! rounded polygons.
//!
//! A polygon's distance is the distance to its nearest edge, negative inside
//! (crossing-number test), which is exact; its gradient points away from the
//! nearest edge point (towards it inside). Polygons are checked when built:
//! enough vertices, finite, no zero-length edge, no self-intersection (a
//! crossing polygon has no well-defined inside), and for the convex one, every
//! turn the same way.

use super::solid::closest_on_segment;
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

/// True when the closed segments `p1 p2` and `q1 q2` share a point.
fn segments_touch(p1: &Vector2, p2: &Vector2, q1: &Vector2, q2: &Vector2) -> bool {
    let d1 = (p2 - p1).perp(&(q1 - p1));
    let d2 = (p2 - p1).perp(&(q2 - p1));
    let d3 = (q2 - q1).perp(&(p1 - q1));
    let d4 = (q2 - q1).perp(&(p2 - q1));
    if ((d1 > 0.0 && d2 < 0.0) || (d1 < 0.0 && d2 > 0.0))
        && ((d3 > 0.0 && d4 < 0.0) || (d3 < 0.0 && d4 > 0.0))
    {
        return true;
    }
    let on = |a: &Vector2, b: &Vector2, p: &Vector2, d: Real| {
        d == 0.0
            && p.x >= a.x.min(b.x)
            && p.x <= a.x.max(b.x)
            && p.y >= a.y.min(b.y)
            && p.y <= a.y.max(b.y)
    };
    on(p1, p2, q1, d1) || on(p1, p2, q2, d2) || on(q1, q2, p1, d3) || on(q1, q2, p2, d4)
}

/// Checks a simple polygon: at least 3 finite vertices, no zero-length edge, non-zero
/// area, and no two non-adjacent edges touching (O(n²), done once at construction).
fn check_simple_polygon(v: &[Vector2]) -> Result<()> {
    let n = v.len();
    if n < 3 {
        return Err(SdfError::TooSmall {
            field: "vertices",
            value: n,
            min: 3,
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
    for i in 0..n {
        for j in i + 1..n {
            let adjacent = j == i + 1 || (i == 0 && j == n - 1);
            if !adjacent && segments_touch(&v[i], &v[(i + 1) % n], &v[j], &v[(j + 1) % n]) {
                return Err(SdfError::Invalid {
                    field: "vertices",
                    reason: format!("edges {i} and {j} intersect: the polygon must be simple"),
                });
            }
        }
    }
    Ok(())
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
        let v = &self.vertices;
        check_simple_polygon(v)?;
        let n = v.len();
        let orientation = twice_area(v).signum();
        for i in 0..n {
            let turn = (v[(i + 1) % n] - v[i]).perp(&(v[(i + 2) % n] - v[(i + 1) % n]));
            if turn * orientation <= 0.0 {
                return Err(SdfError::Invalid {
                    field: "vertices",
                    reason: format!(
                        "the polygon is not strictly convex at vertex {}",
                        (i + 1) % n
                    ),
                });
            }
        }
        Ok(())
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
