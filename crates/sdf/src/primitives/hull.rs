//! Convex hulls of point clouds: a 3D [`ConvexHull`] shape, and the 2D hull that
//! [`crate::Shape2::convex_hull`] turns into a [`crate::ConvexPolygon`].
//!
//! The 3D hull is computed by parry3d's quickhull (`parry3d::transformation::try_convex_hull`),
//! which is why parry3d is a regular dependency of this crate rather than one behind the
//! `mesh` feature: a hull can be read from any scene file, so the shape must exist in every
//! build. Its distance is exact: inside, the largest signed distance to a face plane; outside,
//! the distance to the nearest face triangle.
//!
//! The 2D hull is Andrew's monotone chain with exact orientation signs (`robust`), a few
//! lines, because parry2d is not a dependency of this crate.

use super::heightfield::closest_on_triangle;
use crate::error::{check_finite_vec, Result, SdfError};
use crate::Sdf;
use fathom_math::{Aabb, Real, Vector2, Vector3};
use serde::{Deserialize, Serialize};

/// Most points a hull may be built from: 2^16. Hulling is O(n log n), but every distance
/// visits every face; a finer outline belongs in a baked grid.
pub const MAX_HULL_POINTS: usize = 1 << 16;

/// What a hull is written as in a file: its points (the hull's vertices once built).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HullPoints {
    /// The points, metres, local frame.
    pub points: Vec<Vector3>,
}

/// The convex hull of a 3D point cloud (see the module docs). Built by [`ConvexHull::new`],
/// and checked the same way when read from a file. Two hulls are equal when their vertex sets
/// are (the triangulation of a face with four or more vertices may differ).
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(try_from = "HullPoints", into = "HullPoints")]
pub struct ConvexHull {
    vertices: Vec<Vector3>,
    /// Triangles, counter-clockwise seen from outside.
    faces: Vec<[u32; 3]>,
    /// Each face's outward unit normal and offset (`normal · p = offset` on the face).
    planes: Vec<(Vector3, Real)>,
}

impl PartialEq for ConvexHull {
    fn eq(&self, other: &Self) -> bool {
        let sorted = |h: &Self| {
            let mut v: Vec<[Real; 3]> = h.vertices.iter().map(|p| [p.x, p.y, p.z]).collect();
            v.sort_by(|a, b| {
                a[0].total_cmp(&b[0])
                    .then(a[1].total_cmp(&b[1]))
                    .then(a[2].total_cmp(&b[2]))
            });
            v
        };
        sorted(self) == sorted(other)
    }
}

impl TryFrom<HullPoints> for ConvexHull {
    type Error = SdfError;
    fn try_from(data: HullPoints) -> Result<Self> {
        Self::new(&data.points)
    }
}

impl From<ConvexHull> for HullPoints {
    fn from(h: ConvexHull) -> Self {
        Self { points: h.vertices }
    }
}

/// Refuses fewer than `min` or more than [`MAX_HULL_POINTS`] points, or a non-finite one.
fn check_cloud<const D: usize>(points: &[fathom_math::Vector<D>], min: usize) -> Result<()> {
    if points.len() < min {
        return Err(SdfError::TooSmall {
            field: "points",
            value: points.len(),
            min,
        });
    }
    if points.len() > MAX_HULL_POINTS {
        return Err(SdfError::TooMany {
            field: "points",
            value: points.len(),
            max: MAX_HULL_POINTS,
        });
    }
    points
        .iter()
        .try_for_each(|p| check_finite_vec("points", p))
}

/// The error for a cloud with no volume (or no area in 2D).
fn flat(what: &str) -> SdfError {
    SdfError::Invalid {
        field: "points",
        reason: format!("the points are all {what}: their hull has no inside"),
    }
}

/// Relative thickness under which a cloud counts as flat: f32 rounding of its size.
const FLAT_FRACTION: Real = 1e-5;

/// Refuses a cloud whose points all lie (to rounding) on one plane: the largest distance from
/// the plane through three spread points must exceed [`FLAT_FRACTION`] of the cloud's size.
fn check_not_coplanar(points: &[Vector3]) -> Result<()> {
    let size = Aabb::from_points(points).radius();
    let far = |from: &dyn Fn(&Vector3) -> Real| {
        points
            .iter()
            .copied()
            .max_by(|a, b| from(a).total_cmp(&from(b)))
            .unwrap_or(points[0])
    };
    let a = points[0];
    let b = far(&|p| (p - a).norm());
    let ab = b - a;
    let c = far(&|p| ab.cross(&(p - a)).norm());
    let n = ab.cross(&(c - a));
    if n.norm() <= FLAT_FRACTION * size * size {
        return Err(flat("on one line"));
    }
    let n = n.normalize();
    let d = far(&|p| n.dot(&(p - a)).abs());
    if n.dot(&(d - a)).abs() <= FLAT_FRACTION * size {
        return Err(flat("on one plane"));
    }
    Ok(())
}

impl ConvexHull {
    /// The convex hull of `points` (at least 4, finite, not all on one plane), metres.
    pub fn new(points: &[Vector3]) -> Result<Self> {
        check_cloud(points, 4)?;
        check_not_coplanar(points)?;
        let cloud: Vec<parry3d::math::Vector> = points
            .iter()
            .map(|p| parry3d::math::Vector::new(p.x, p.y, p.z))
            .collect();
        let (verts, faces) =
            parry3d::transformation::try_convex_hull(&cloud).map_err(|e| SdfError::Invalid {
                field: "points",
                reason: format!("no convex hull: {e:?}"),
            })?;
        let vertices: Vec<Vector3> = verts.iter().map(|v| Vector3::new(v.x, v.y, v.z)).collect();
        let centre = vertices.iter().sum::<Vector3>() / vertices.len() as Real;
        let mut hull = Self {
            vertices,
            faces: Vec::with_capacity(faces.len()),
            planes: Vec::with_capacity(faces.len()),
        };
        for mut f in faces {
            let [a, b, c] = f.map(|i| hull.vertices[i as usize]);
            let n = (b - a).cross(&(c - a));
            if n.norm_squared() == 0.0 {
                continue; // a sliver adds no plane and no surface
            }
            let mut n = n.normalize();
            // Outward: away from the centre, whatever order the hull gave.
            if n.dot(&(a - centre)) < 0.0 {
                n = -n;
                f.swap(1, 2);
            }
            hull.faces.push(f);
            hull.planes.push((n, n.dot(&a)));
        }
        if hull.faces.len() < 4 {
            return Err(flat("on one plane"));
        }
        Ok(hull)
    }

    /// Checks the fields as [`ConvexHull::new`] does.
    pub fn validate(&self) -> Result<()> {
        Self::new(&self.vertices).map(drop)
    }

    /// The hull's vertices, metres.
    pub fn vertices(&self) -> &[Vector3] {
        &self.vertices
    }

    /// The hull's triangles (indices into [`ConvexHull::vertices`]), counter-clockwise seen
    /// from outside.
    pub fn faces(&self) -> &[[u32; 3]] {
        &self.faces
    }

    /// The face whose plane `p` is farthest outside of (or least inside), and that distance.
    fn max_plane(&self, p: &Vector3) -> (usize, Real) {
        self.planes
            .iter()
            .map(|(n, o)| n.dot(p) - o)
            .enumerate()
            .fold((0, Real::NEG_INFINITY), |best, (i, d)| {
                if d > best.1 {
                    (i, d)
                } else {
                    best
                }
            })
    }

    /// The nearest point of the hull's surface to `p`.
    fn closest_on_surface(&self, p: &Vector3) -> Vector3 {
        let mut best = (Real::INFINITY, *p);
        for f in &self.faces {
            let [a, b, c] = f.map(|i| self.vertices[i as usize]);
            let q = closest_on_triangle(p, &a, &b, &c);
            let d2 = (p - q).norm_squared();
            if d2 < best.0 {
                best = (d2, q);
            }
        }
        best.1
    }

    /// Signed distance and gradient.
    fn eval(&self, p: &Vector3) -> (Real, Vector3) {
        let (face, plane) = self.max_plane(p);
        if plane <= 0.0 {
            return (plane, self.planes[face].0);
        }
        let w = p - self.closest_on_surface(p);
        let len = w.norm();
        if len > 1e-12 {
            (len, w / len)
        } else {
            (0.0, self.planes[face].0)
        }
    }
}

impl Sdf<3> for ConvexHull {
    fn distance(&self, p: &Vector3) -> Real {
        self.eval(p).0
    }
    fn bounds(&self) -> Aabb<3> {
        Aabb::from_points(&self.vertices)
    }
    fn gradient(&self, p: &Vector3) -> Vector3 {
        self.eval(p).1
    }
}

/// The exact turn at `b` from `a` to `c`: positive left, negative right, zero straight.
fn orient(a: &Vector2, b: &Vector2, c: &Vector2) -> f64 {
    let coord = |p: &Vector2| robust::Coord {
        x: f64::from(p.x),
        y: f64::from(p.y),
    };
    robust::orient2d(coord(a), coord(b), coord(c))
}

/// The strictly convex hull of a 2D point cloud (at least 3 finite points, not all on one
/// line), counter-clockwise, collinear points dropped: Andrew's monotone chain.
pub fn convex_hull_2d(points: &[Vector2]) -> Result<Vec<Vector2>> {
    check_cloud(points, 3)?;
    let mut sorted = points.to_vec();
    sorted.sort_by(|a, b| a.x.total_cmp(&b.x).then(a.y.total_cmp(&b.y)));
    sorted.dedup();
    let mut hull: Vec<Vector2> = Vec::with_capacity(sorted.len() + 1);
    // Lower chain left to right, then upper chain right to left; keep only left turns.
    for pass in [
        &sorted[..],
        &sorted.iter().rev().copied().collect::<Vec<_>>()[..],
    ] {
        let start = hull.len();
        for p in pass {
            while hull.len() >= start + 2
                && orient(&hull[hull.len() - 2], &hull[hull.len() - 1], p) <= 0.0
            {
                hull.pop();
            }
            hull.push(*p);
        }
        hull.pop(); // the chain's last point starts the other chain
    }
    if hull.len() < 3 {
        return Err(flat("on one line"));
    }
    Ok(hull)
}
