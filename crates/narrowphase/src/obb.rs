//! Oriented boxes in the world frame: the geometry the closed-form box pairs share.
//!
//! A cuboid is the shape games stack, and its contacts have an exact answer that a field
//! search can only approach: the overlap of two boxes is decided by the separating axis test
//! (face normals, and in 3D the edge-edge cross products), and a resting face contact is the
//! incident face clipped by the reference face's side planes. Each clipped point then has an
//! exact depth along the reference normal, so a box resting on an equal box reads the same
//! depth at every corner (a field search reads zero at a rim, where the side faces are as near
//! as the top). One source serves both dimensions: a face of a `D`-box has `2^(D-1)` corners
//! and `2(D-1)` side planes.

use fathom_math::arrayvec::ArrayVec;
use fathom_math::{Dim, Pose, Real, Space, Vector};

/// A face polygon, clipped or not: a quadrilateral cut by four side planes keeps at most
/// eight corners (each plane adds at most one), so it never needs the heap.
pub(crate) type Polygon<const D: usize> = ArrayVec<ClipPoint<D>, 8>;

/// A box in the world frame: centre, unit axes (columns of its rotation) and half extents.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Obb<const D: usize> {
    pub center: Vector<D>,
    pub axes: [Vector<D>; D],
    pub half: Vector<D>,
}

/// One face of a box: the axis it is normal to and the side (`+1` or `-1`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Face {
    pub axis: usize,
    pub sign: Real,
}

impl Face {
    /// A small number naming the face (for contact ids): `2 axis + (sign > 0)`.
    pub fn index(&self) -> u32 {
        2 * self.axis as u32 + u32::from(self.sign > 0.0)
    }
}

/// A point of a clipped face polygon and the feature that made it (a corner of the incident
/// face, or where one of its edges crossed a side plane), for ids that survive small slides.
#[derive(Clone, Copy, Debug)]
pub(crate) struct ClipPoint<const D: usize> {
    pub point: Vector<D>,
    pub feature: u32,
    /// The incident edge running from this point to the next (the original edge's index).
    edge: u32,
}

impl<const D: usize> Obb<D>
where
    Space<D>: Dim<D>,
{
    /// The box of half extents `half` at `pose`.
    pub fn new(half: Vector<D>, pose: &Pose<D>) -> Self {
        let axes = std::array::from_fn(|i| {
            let mut e = Vector::<D>::zeros();
            e[i] = 1.0;
            pose.transform_vector(&e)
        });
        Self {
            center: pose.translation.vector,
            axes,
            half,
        }
    }

    /// Half the box's extent along the unit direction `n`.
    pub fn radius_along(&self, n: &Vector<D>) -> Real {
        (0..D)
            .map(|i| self.half[i] * self.axes[i].dot(n).abs())
            .sum()
    }

    /// The corner farthest along `n` (ties go to the positive side, deterministically).
    pub fn support(&self, n: &Vector<D>) -> Vector<D> {
        (0..D).fold(self.center, |p, i| {
            let s = if self.axes[i].dot(n) < 0.0 { -1.0 } else { 1.0 };
            p + self.axes[i] * (s * self.half[i])
        })
    }

    /// Every corner, indexed by the bits of its signs (bit `i` set: `+half[i]` along axis `i`).
    pub fn corners(&self) -> ArrayVec<Vector<D>, 8> {
        (0..1usize << D)
            .map(|bits| {
                (0..D).fold(self.center, |p, i| {
                    let s = if bits & (1 << i) != 0 { 1.0 } else { -1.0 };
                    p + self.axes[i] * (s * self.half[i])
                })
            })
            .collect()
    }

    /// The outward unit normal of a face.
    pub fn face_normal(&self, f: Face) -> Vector<D> {
        self.axes[f.axis] * f.sign
    }

    /// The face whose outward normal is most opposed to `n` (the face `n` runs into).
    pub fn face_against(&self, n: &Vector<D>) -> Face {
        let axis = (0..D).fold(0, |best, i| {
            if self.axes[i].dot(n).abs() > self.axes[best].dot(n).abs() {
                i
            } else {
                best
            }
        });
        let sign = if self.axes[axis].dot(n) > 0.0 {
            -1.0
        } else {
            1.0
        };
        Face { axis, sign }
    }

    /// The corners of a face in cyclic order (two in 2D, four in 3D).
    pub fn face_polygon(&self, f: Face) -> Polygon<D> {
        let others: ArrayVec<usize, 2> = (0..D).filter(|&i| i != f.axis).collect();
        let signs: &[[Real; 2]] = if D == 2 {
            &[[1.0, 0.0], [-1.0, 0.0]]
        } else {
            &[[1.0, 1.0], [-1.0, 1.0], [-1.0, -1.0], [1.0, -1.0]]
        };
        let centre = self.center + self.face_normal(f) * self.half[f.axis];
        signs
            .iter()
            .enumerate()
            .map(|(k, s)| {
                let point = others
                    .iter()
                    .zip(s)
                    .fold(centre, |p, (&i, si)| p + self.axes[i] * (si * self.half[i]));
                ClipPoint {
                    point,
                    feature: k as u32,
                    edge: k as u32,
                }
            })
            .collect()
    }

    /// Clips a face polygon of another box by the side planes of this box's face `f`
    /// (Sutherland–Hodgman; a 2D face is a segment, clipped the same way and de-duplicated).
    pub fn clip_to_face_sides(&self, f: Face, polygon: Polygon<D>) -> Polygon<D> {
        // Two buffers, clipped from one into the other, so no plane moves a whole polygon.
        let (mut first, mut second) = (polygon, Polygon::new());
        let (mut poly, mut next) = (&mut first, &mut second);
        let mut plane_index = 0u32;
        for i in (0..D).filter(|&i| i != f.axis) {
            for sign in [1.0, -1.0] {
                let n = self.axes[i] * sign;
                let limit = n.dot(&self.center) + self.half[i];
                clip_polygon(poly, &n, limit, plane_index, next);
                std::mem::swap(&mut poly, &mut next);
                plane_index += 1;
                if poly.is_empty() {
                    return Polygon::new();
                }
            }
        }
        if D == 2 {
            dedup_segment(poly)
        } else {
            poly.clone()
        }
    }
}

/// The cross product of two 3D vectors held as `Vector<D>` (only called when `D == 3`).
pub(crate) fn cross3<const D: usize>(u: &Vector<D>, v: &Vector<D>) -> Vector<D> {
    let mut c = Vector::<D>::zeros();
    for k in 0..3 {
        let (i, j) = ((k + 1) % 3, (k + 2) % 3);
        c[k] = u[i] * v[j] - u[j] * v[i];
    }
    c
}

/// The part of a closed polygon with `n · p <= limit`, into `out`.
fn clip_polygon<const D: usize>(
    poly: &[ClipPoint<D>],
    n: &Vector<D>,
    limit: Real,
    plane: u32,
    out: &mut Polygon<D>,
) {
    out.clear();
    for k in 0..poly.len() {
        let cur = poly[k];
        let prev = poly[(k + poly.len() - 1) % poly.len()];
        let (dc, dp) = (n.dot(&cur.point) - limit, n.dot(&prev.point) - limit);
        let crossing = |edge: u32| {
            let t = dp / (dp - dc);
            ClipPoint {
                point: prev.point + (cur.point - prev.point) * t,
                // 16 and up: an edge crossing a plane (4 planes at most, 16 edges at most).
                feature: 16 + 16 * plane + edge,
                edge,
            }
        };
        if dc <= 0.0 {
            if dp > 0.0 {
                out.push(crossing(prev.edge));
            }
            out.push(cur);
        } else if dp <= 0.0 {
            out.push(crossing(prev.edge));
        }
    }
}

/// A clipped 2D "polygon" of two corners can come back with a repeated point: keep each once.
fn dedup_segment<const D: usize>(poly: &Polygon<D>) -> Polygon<D> {
    let mut out = Polygon::new();
    for &p in poly {
        if !out
            .iter()
            .any(|q| (q.point - p.point).norm() <= Real::EPSILON * 16.0)
        {
            out.push(p);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use fathom_math::{Pose2, Pose3, Vector2, Vector3};

    #[test]
    fn support_and_radius_of_a_turned_square() {
        // A unit square turned 45 degrees reaches sqrt(2) along x.
        let b = Obb::<2>::new(
            Vector2::new(1.0, 1.0),
            &Pose2::new(Vector2::zeros(), std::f32::consts::FRAC_PI_4),
        );
        assert!((b.radius_along(&Vector2::x()) - 2f32.sqrt()).abs() < 1e-5);
        assert!((b.support(&Vector2::x()).x - 2f32.sqrt()).abs() < 1e-5);
    }

    #[test]
    fn a_face_clipped_by_a_larger_face_keeps_its_corners() {
        let small = Obb::<3>::new(Vector3::new(0.5, 0.5, 0.5), &Pose3::identity());
        let big = Obb::<3>::new(Vector3::new(2.0, 0.5, 2.0), &Pose3::identity());
        let top = Face { axis: 1, sign: 1.0 };
        let bottom = small.face_against(&Vector3::y());
        assert_eq!(
            bottom,
            Face {
                axis: 1,
                sign: -1.0
            }
        );
        let clipped = big.clip_to_face_sides(top, small.face_polygon(bottom));
        assert_eq!(clipped.len(), 4);
        assert!(clipped.iter().all(|c| c.feature < 4));
    }

    #[test]
    fn an_overhanging_face_is_cut_at_the_side_plane() {
        // The small square's bottom hangs over the big one's right edge (x = 1): clipped at x = 1.
        let big = Obb::<2>::new(Vector2::new(1.0, 0.5), &Pose2::identity());
        let small = Obb::<2>::new(
            Vector2::new(0.5, 0.5),
            &Pose2::new(Vector2::new(1.2, 1.0), 0.0),
        );
        let clipped = big.clip_to_face_sides(
            Face { axis: 1, sign: 1.0 },
            small.face_polygon(Face {
                axis: 1,
                sign: -1.0,
            }),
        );
        let mut xs: Vec<Real> = clipped.iter().map(|c| c.point.x).collect();
        xs.sort_by(Real::total_cmp);
        assert_eq!(xs.len(), 2);
        assert!((xs[0] - 0.7).abs() < 1e-5 && (xs[1] - 1.0).abs() < 1e-5);
    }
}
