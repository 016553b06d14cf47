//! A capsule against a cuboid: the core segment against the box in closed form.
//!
//! A capsule is a segment inflated by its radius, so everything reduces to the segment against
//! the box, in the box's frame (where the box is centred and axis-aligned), less the radius.
//! A field search along the segment reads the box's distance to within a leaf cell: a capsule
//! lying flat on a box got points that moved and changed between steps, and a heap of capsules
//! on boxes never slept. The closed form, in the manner of Box2D's capsule against a polygon:
//!
//! - the segment overlaps the box unless an axis separates them; the candidate axes are the
//!   box's face normals and, in 3D, the segment's direction crossed with the box's edges (in
//!   2D, the segment's normal): the faces of the two shapes' Minkowski difference;
//! - a separated segment's distance is exact from its ends against the box and its closest
//!   points to the box's edges (a segment outside a box is nearest at an end or at an edge);
//! - a box face is the reference when its axis separates about as well as the best axis: the
//!   segment is clipped to the face's side planes, and each end of the clipped part is a point
//!   at its exact depth along the face normal, keyed by the face and by the end (so the two
//!   points of a capsule lying on a face keep their ids while it slides or turns a little, and
//!   when an end crosses a side plane the clipped point takes over its id);
//! - otherwise the contact is one point: the closest points of the segment and the box (or of
//!   the segment and the box edge or corner of the best axis, when the segment dips into it).
//!
//! Faces win near ties with the same hysteresis as two boxes, so the manifold does not flicker
//! between a face's two points and an edge's one.

use fathom_math::{Dim, ManifoldPoints, Pose, Real, Space, Vector};

use super::cuboid_cuboid::{EDGE_TOL, PARALLEL_SINE};
use super::segment::clip_to_slab;
use super::{world_point, ClosedForm, Closest, Ctx};
use crate::manifold::{reduce, to_world, Candidate, Candidates};
use crate::obb::{cross3, Face, Obb};
use crate::types::Manifold;
use fathom_math::arrayvec::ArrayVec;
use fathom_math::segment::closest_on_segments;

/// Below this distance (a fraction of the smaller shape's size) the segment is taken as
/// touching the box: the direction between its closest points is float noise (relative error
/// about `1e-7 / 1e-4`, a milliradian), so the best axis gives the normal instead. Depths differ
/// by less than this distance either way.
pub(super) const TOUCH_FRACTION: Real = 1e-4;
/// Key of a single-point contact (above the face keys, `2 * face index + end < 12`).
const SINGLE_KEY: u32 = 16;

/// A capsule of core half length `half_height` (along its local y) and `radius` at
/// `pose_capsule` (A) against a cuboid of half extents `half` at `pose_box` (B).
pub(crate) struct CapsuleCuboid<const D: usize>
where
    Space<D>: Dim<D>,
{
    pub half_height: Real,
    pub radius: Real,
    pub pose_capsule: Pose<D>,
    pub half: Vector<D>,
    pub pose_box: Pose<D>,
}

/// What an axis is made of.
#[derive(Clone, Copy, Debug)]
enum Feature {
    /// A face of the box.
    Face(Face),
    /// The segment against a box edge along this axis (3D), or against a box corner (2D:
    /// `None`, the segment's own normal).
    Other(Option<usize>),
}

/// A candidate axis: the segment's separation from the box along the unit `normal` (box
/// frame, from the box towards the segment).
#[derive(Clone, Copy, Debug)]
struct Axis<const D: usize> {
    separation: Real,
    normal: Vector<D>,
    feature: Feature,
}

/// The nearest (or deepest) features of the core segment and the box, box frame: the core's
/// signed separation (less than zero when the segment enters the box), the unit normal from
/// the box towards the capsule, and the core point it is measured from (the box's point is
/// `core_separation` back along the normal from it).
#[derive(Clone, Copy, Debug)]
struct Near<const D: usize> {
    core_separation: Real,
    normal: Vector<D>,
    on_segment: Vector<D>,
}

/// The core segment in the box's frame and the box there (centred, axis-aligned).
struct Local<const D: usize>
where
    Space<D>: Dim<D>,
{
    p0: Vector<D>,
    p1: Vector<D>,
    obb: Obb<D>,
}

impl<const D: usize> CapsuleCuboid<D>
where
    Space<D>: Dim<D>,
{
    fn local(&self) -> Local<D> {
        let rel = self.pose_box.inverse() * self.pose_capsule;
        let mut up = Vector::<D>::zeros();
        up[1] = self.half_height;
        let at = |v: Vector<D>| rel.transform_point(&nalgebra::Point::from(v)).coords;
        Local {
            p0: at(-up),
            p1: at(up),
            obb: Obb::new(self.half, &Pose::<D>::identity()),
        }
    }

    /// The points of the capsule and the box that `near` measures between (box frame).
    fn surface_points(&self, near: &Near<D>) -> (Vector<D>, Vector<D>) {
        let n = near.normal;
        (
            near.on_segment - n * self.radius,
            near.on_segment - n * near.core_separation,
        )
    }

    /// The manifold's points (box frame) and its normal from the capsule to the box.
    fn manifold(&self, ctx: &mut Ctx) -> (Vector<D>, ManifoldPoints<Candidate<D>>) {
        ctx.budget.cells += 1;
        let s = ctx.settings;
        let l = self.local();
        let (face, other) = l.axes();
        // A separating axis's gap is at most the core distance: beyond the margin already.
        let gap = other
            .as_ref()
            .map_or(face.separation, |o| o.separation.max(face.separation));
        if gap - self.radius > s.margin {
            return (-face.normal, ManifoldPoints::new());
        }
        let near = l.near(&face, other.as_ref(), s.size);
        if near.core_separation - self.radius > s.margin {
            return (-near.normal, ManifoldPoints::new());
        }
        // The best axis's separation: exact (the distance) when the segment is outside the box.
        let best = match other {
            _ if near.core_separation > 0.0 => near.core_separation,
            Some(o) => o.separation.max(face.separation),
            None => face.separation,
        };
        let merge = 1e-4 * s.size;
        let tie = EDGE_TOL * s.size;
        if face.separation >= best - tie {
            if let Feature::Face(f) = face.feature {
                let points = l.face_points(f, self.radius);
                let kept = reduce(&points, &-face.normal, s.margin, merge, 0.0, None);
                // The face must also carry the contact's depth: a segment end hanging past the
                // face's side, below its plane, is clipped away, and the contact is then at the
                // box's rim (an end against a corner), not over the face.
                let deepest = kept.iter().map(|c| c.depth).fold(Real::INFINITY, Real::min);
                if deepest <= near.core_separation - self.radius + tie {
                    return (-face.normal, kept);
                }
            }
        }
        let (point_a, point_b) = self.surface_points(&near);
        let single = Candidate {
            point_a,
            point_b,
            depth: near.core_separation - self.radius,
            key: SINGLE_KEY,
        };
        (-near.normal, std::iter::once(single).collect())
    }
}

impl<const D: usize> Local<D>
where
    Space<D>: Dim<D>,
{
    /// The separation of the segment from the box along the unit axis `n`, turned to point
    /// from the box towards the segment's midpoint (the side on which it separates more).
    fn along(&self, n: Vector<D>) -> (Real, Vector<D>) {
        let n = if n.dot(&(self.p0 + self.p1)) < 0.0 {
            -n
        } else {
            n
        };
        let low = n.dot(&self.p0).min(n.dot(&self.p1));
        (low - self.obb.radius_along(&n), n)
    }

    /// The best face axis, and the best of the other axes (none when the segment is a point or,
    /// in 3D, parallel to every box edge it could cross).
    fn axes(&self) -> (Axis<D>, Option<Axis<D>>) {
        let better = |acc: Option<Axis<D>>, a: Axis<D>| match acc {
            Some(b) if b.separation >= a.separation => Some(b),
            _ => Some(a),
        };
        let face = (0..D)
            .map(|i| {
                let (separation, normal) = self.along(self.obb.axes[i]);
                let sign = normal[i].signum();
                Axis {
                    separation,
                    normal,
                    feature: Feature::Face(Face { axis: i, sign }),
                }
            })
            .fold(None, better)
            .expect("a box has faces");
        let d = self.p1 - self.p0;
        let len = d.norm();
        if len <= 0.0 {
            return (face, None);
        }
        let u = d / len;
        // At most one axis per box edge direction: no heap in the per-pair path.
        let others: ArrayVec<(Vector<D>, Option<usize>), 3> = if D == 2 {
            let mut perp = Vector::<D>::zeros();
            perp[0] = -u[1];
            perp[1] = u[0];
            std::iter::once((perp, None)).collect()
        } else {
            (0..D)
                .filter_map(|i| {
                    let c = cross3(&u, &self.obb.axes[i]);
                    let s = c.norm();
                    (s > PARALLEL_SINE).then(|| (c / s, Some(i)))
                })
                .collect()
        };
        let other = others
            .into_iter()
            .map(|(n, edge)| {
                let (separation, normal) = self.along(n);
                Axis {
                    separation,
                    normal,
                    feature: Feature::Other(edge),
                }
            })
            .fold(None, better);
        (face, other)
    }

    /// The core's nearest features: the exact distance when the segment is outside the box,
    /// else the best axis (the least way out) and the segment's deepest point along it.
    fn near(&self, face: &Axis<D>, other: Option<&Axis<D>>, size: Real) -> Near<D> {
        let best = match other {
            Some(o) if o.separation > face.separation => o,
            _ => face,
        };
        if best.separation > 0.0 {
            let (on_segment, on_box, d) = self.segment_box_closest();
            if d > TOUCH_FRACTION * size {
                return Near {
                    core_separation: d,
                    normal: (on_segment - on_box) / d,
                    on_segment,
                };
            }
        }
        let n = best.normal;
        let on_segment = match best.feature {
            Feature::Face(_) => {
                if n.dot(&self.p0) <= n.dot(&self.p1) {
                    self.p0
                } else {
                    self.p1
                }
            }
            Feature::Other(edge) => {
                let (e0, e1) = self.feature_edge(edge, &n);
                closest_on_segments(&self.p0, &self.p1, &e0, &e1).0
            }
        };
        Near {
            core_separation: best.separation,
            normal: n,
            on_segment,
        }
    }

    /// The box edge along `axis` farthest along `n` (3D), or the box corner farthest along `n`
    /// (2D: `None`, a segment of no length).
    fn feature_edge(&self, axis: Option<usize>, n: &Vector<D>) -> (Vector<D>, Vector<D>) {
        let corner = self.obb.support(n);
        match axis {
            Some(i) => {
                let mut e0 = corner;
                e0[i] = -self.obb.half[i];
                let mut e1 = corner;
                e1[i] = self.obb.half[i];
                (e0, e1)
            }
            None => (corner, corner),
        }
    }

    /// Closest points of a segment outside the box and the box, and their distance: the nearer
    /// of each end against the box (clamped into it) and the segment against each box edge.
    fn segment_box_closest(&self) -> (Vector<D>, Vector<D>, Real) {
        let h = self.obb.half;
        let clamp = |p: &Vector<D>| Vector::<D>::from_fn(|k, _| p[k].clamp(-h[k], h[k]));
        let mut best = (self.p0, clamp(&self.p0));
        let mut consider = |s: Vector<D>, b: Vector<D>| {
            if (s - b).norm_squared() < (best.0 - best.1).norm_squared() {
                best = (s, b);
            }
        };
        consider(self.p1, clamp(&self.p1));
        for i in 0..D {
            for mask in 0..1usize << (D - 1) {
                let mut c = Vector::<D>::zeros();
                for (bit, k) in (0..D).filter(|&k| k != i).enumerate() {
                    c[k] = if mask >> bit & 1 == 1 { h[k] } else { -h[k] };
                }
                let (mut e0, mut e1) = (c, c);
                e0[i] = -h[i];
                e1[i] = h[i];
                let (s, b) = closest_on_segments(&self.p0, &self.p1, &e0, &e1);
                consider(s, b);
            }
        }
        let (s, b) = best;
        (s, b, (s - b).norm())
    }

    /// The segment clipped to the side planes of face `f` (its parameter interval in `[0, 1]`
    /// from `p0`), or `None` when its shadow misses the face.
    fn clip_to_face(&self, f: Face) -> Option<(Real, Real)> {
        (0..D)
            .filter(|&k| k != f.axis)
            .try_fold((0.0, 1.0), |within, k| {
                let h = self.obb.half[k];
                clip_to_slab(&self.p0, &self.p1, &self.obb.axes[k], (-h, h), within)
            })
    }

    /// The ends of the segment's part over face `f`, each at its depth along the face normal:
    /// on the capsule (the core point less the radius) and on the face (the core point's
    /// foot), keyed by the face and the end (`0` nearer `p0`).
    fn face_points(&self, f: Face, radius: Real) -> Candidates<D> {
        let Some((lo, hi)) = self.clip_to_face(f) else {
            return Candidates::new();
        };
        let n = self.obb.face_normal(f);
        let plane = self.obb.half[f.axis];
        [lo, hi]
            .into_iter()
            .enumerate()
            .map(|(end, t)| {
                let p = self.p0 + (self.p1 - self.p0) * t;
                let height = n.dot(&p) - plane;
                Candidate {
                    point_a: p - n * radius,
                    point_b: p - n * height,
                    depth: height - radius,
                    key: 2 * f.index() + end as u32,
                }
            })
            .collect()
    }
}

impl<const D: usize> ClosedForm<D> for CapsuleCuboid<D>
where
    Space<D>: Dim<D>,
{
    /// The pair's closest features, world frame.
    fn closest(&self, ctx: &mut Ctx) -> Closest<D> {
        ctx.budget.cells += 1;
        let l = self.local();
        let (face, other) = l.axes();
        let near = l.near(&face, other.as_ref(), ctx.settings.size);
        let (a, b) = self.surface_points(&near);
        Closest {
            separation: near.core_separation - self.radius,
            normal: self.pose_box.transform_vector(&-near.normal),
            point_a: world_point(&self.pose_box, &a),
            point_b: world_point(&self.pose_box, &b),
        }
    }

    fn manifolds(&self, ctx: &mut Ctx, out: &mut Vec<Manifold<D>>) {
        let (n, points) = self.manifold(ctx);
        if points.is_empty() {
            return;
        }
        out.push(to_world(&points, &n, 0, &self.pose_box));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fathom_math::Vector3;

    #[test]
    fn a_segment_over_a_corner_is_clipped_at_the_side_planes() {
        // Unit box; a segment above the top face from x = -2 to x = 0.5: clipped to [-1, 0.5].
        let l = Local::<3> {
            p0: Vector3::new(-2.0, 1.2, 0.0),
            p1: Vector3::new(0.5, 1.2, 0.0),
            obb: Obb::new(Vector3::new(1.0, 1.0, 1.0), &Pose::<3>::identity()),
        };
        let (lo, hi) = l.clip_to_face(Face { axis: 1, sign: 1.0 }).unwrap();
        assert!((lo - 0.4).abs() < 1e-6 && (hi - 1.0).abs() < 1e-6);
        // Its shadow misses the face x = 1.
        assert!(l.clip_to_face(Face { axis: 0, sign: 1.0 }).is_none());
    }
}
