//! Two cuboids: the separating axis test and face clipping, exact and a few hundred flops.
//!
//! Boxes are what games stack, and a stack needs every corner of a resting face at its true
//! depth and with the same id from one step to the next. The field search cannot give that at
//! a rim (where a side face is as near as the top), so boxes get the classic closed form:
//!
//! - the separating axes are the face normals of both boxes and, in 3D, the cross products of
//!   their edge directions; the axis of largest separation decides everything;
//! - a face axis makes that face the reference: the other box's face most opposed to it is
//!   clipped by the reference face's side planes, and each clipped corner is a contact point
//!   with its exact depth along the reference normal (ids: the faces and the clip feature);
//! - an edge axis gives one point, the closest points of the two edges;
//! - faces win over edges, and A's faces over B's, unless the other is clearly better: near a
//!   tie the choice must not flicker between steps, or warm starting would lose its impulses.
//!
//! The distance between separated boxes is not an axis separation (corners meet corners), so it
//! goes to the general field search.

use fathom_math::{Dim, ManifoldPoints, Pose, Real, Space, Vector};
use fathom_sdf::Sdf;

use super::sdf_sdf::SdfSdf;
use super::{Ctx, PairQuery};
use crate::manifold::{in_world, reduce, Candidate, Candidates};
use crate::obb::{cross3, Face, Obb};
use crate::types::{Deepest, Manifold};

/// A's faces are kept as the reference unless B's separate by more than this fraction of the
/// smaller box's size (hysteresis against flicker between equal faces).
const FACE_TOL: Real = 1e-3;
/// An edge axis replaces the best face only when it separates by more than this fraction of the
/// smaller box's size: edge contacts are single points, faces give a stable manifold. The
/// capsule-box pair weighs a face against its single-point contacts the same way.
pub(super) const EDGE_TOL: Real = 5e-3;
/// Edge pairs closer to parallel than this (sine of the angle) have no cross-product axis;
/// the face axes already cover them.
pub(super) const PARALLEL_SINE: Real = 1e-4;

/// A cuboid of half extents `half_a` at `pose_a` (A) against one of `half_b` at `pose_b` (B);
/// `a` and `b` are the shapes as fields, for the distance of separated boxes.
pub(crate) struct CuboidCuboid<'a, const D: usize>
where
    Space<D>: Dim<D>,
{
    pub half_a: Vector<D>,
    pub pose_a: Pose<D>,
    pub half_b: Vector<D>,
    pub pose_b: Pose<D>,
    pub a: &'a dyn Sdf<D>,
    pub b: &'a dyn Sdf<D>,
}

/// The axis of largest separation.
#[derive(Clone, Copy, Debug)]
enum Axis {
    /// A face of A faces B.
    FaceA(Face),
    /// A face of B faces A.
    FaceB(Face),
    /// Edge `i` of A crosses edge `j` of B (3D).
    Edge(usize, usize),
}

/// The separating axis test's answer: separation along the unit normal from A to B.
#[derive(Clone, Copy, Debug)]
struct Sat<const D: usize> {
    separation: Real,
    normal: Vector<D>,
    axis: Axis,
}

impl<const D: usize> CuboidCuboid<'_, D>
where
    Space<D>: Dim<D>,
{
    fn boxes(&self) -> (Obb<D>, Obb<D>) {
        (
            Obb::new(self.half_a, &self.pose_a),
            Obb::new(self.half_b, &self.pose_b),
        )
    }

    /// The separating axis and the manifold's candidates (world frame) within `margin`.
    fn manifold(&self, ctx: &mut Ctx, margin: Real) -> (Sat<D>, ManifoldPoints<Candidate<D>>) {
        ctx.budget.cells += 1;
        let (a, b) = self.boxes();
        let size = ctx.settings.size;
        let sat = separating_axis(&a, &b, size, margin);
        if sat.separation > margin {
            return (sat, ManifoldPoints::new());
        }
        let merge = 1e-4 * size;
        let kept = match sat.axis {
            Axis::FaceA(f) | Axis::FaceB(f) => {
                let (reference, incident, is_b) = match sat.axis {
                    Axis::FaceA(_) => (&a, &b, false),
                    _ => (&b, &a, true),
                };
                let (found, face_of_a) = face_contact(reference, f, incident, is_b, margin);
                let mut kept = reduce(&found, &sat.normal, margin, merge, 0.0, None);
                quadrant_keys(&mut kept, &a, face_of_a);
                kept
            }
            Axis::Edge(i, j) => std::iter::once(edge_contact(&a, i, &b, j, &sat.normal)).collect(),
        };
        (sat, kept)
    }
}

/// The axis of largest separation, with hysteresis for faces over edges and A over B; or,
/// as soon as an axis separates the boxes by more than `limit`, that axis (a caller asking
/// for contacts within `limit` needs nothing more of a pair that far apart).
fn separating_axis<const D: usize>(a: &Obb<D>, b: &Obb<D>, size: Real, limit: Real) -> Sat<D>
where
    Space<D>: Dim<D>,
{
    let d = b.center - a.center;
    let along = |axis: Vector<D>| {
        let n = if d.dot(&axis) < 0.0 { -axis } else { axis };
        (d.dot(&n) - a.radius_along(&n) - b.radius_along(&n), n)
    };
    let mut face_a = None;
    for i in 0..D {
        let (separation, normal) = along(a.axes[i]);
        let sign = normal.dot(&a.axes[i]).signum();
        let sat = Sat {
            separation,
            normal,
            axis: Axis::FaceA(Face { axis: i, sign }),
        };
        if separation > limit {
            return sat;
        }
        face_a = better(face_a, sat);
    }
    let mut face_b = None;
    for j in 0..D {
        let (separation, normal) = along(b.axes[j]);
        // B's reference face looks back at A, against the normal.
        let sign = -normal.dot(&b.axes[j]).signum();
        let sat = Sat {
            separation,
            normal,
            axis: Axis::FaceB(Face { axis: j, sign }),
        };
        if separation > limit {
            return sat;
        }
        face_b = better(face_b, sat);
    }
    let (face_a, face_b) = (
        face_a.expect("a box has faces"),
        face_b.expect("a box has faces"),
    );
    let face = if face_b.separation > face_a.separation + FACE_TOL * size {
        face_b
    } else {
        face_a
    };
    if D != 3 {
        return face;
    }
    let mut edge = None;
    for (i, j) in (0..3).flat_map(|i| (0..3).map(move |j| (i, j))) {
        let c = cross3(&a.axes[i], &b.axes[j]);
        let len = c.norm();
        if len <= PARALLEL_SINE {
            continue;
        }
        let (separation, normal) = along(c / len);
        let sat = Sat {
            separation,
            normal,
            axis: Axis::Edge(i, j),
        };
        if separation > limit {
            return sat;
        }
        edge = better(edge, sat);
    }
    match edge {
        Some(e) if e.separation > face.separation + EDGE_TOL * size => e,
        _ => face,
    }
}

/// The better of the best so far and `s`: the larger separation, the first of equals.
#[inline]
fn better<const D: usize>(best: Option<Sat<D>>, s: Sat<D>) -> Option<Sat<D>>
where
    Space<D>: Dim<D>,
{
    match best {
        Some(b) if b.separation >= s.separation => Some(b),
        _ => Some(s),
    }
}

/// Face `f` of `reference` against the most opposed face of `incident`, clipped to the
/// reference face's sides; `reference_is_b` says which shape the reference face belongs to.
/// Also returns A's face of the two.
fn face_contact<const D: usize>(
    reference: &Obb<D>,
    f: Face,
    incident: &Obb<D>,
    reference_is_b: bool,
    margin: Real,
) -> (Candidates<D>, Face)
where
    Space<D>: Dim<D>,
{
    let n = reference.face_normal(f);
    let inc_face = incident.face_against(&n);
    let plane = n.dot(&reference.center) + reference.half[f.axis];
    let clipped = reference.clip_to_face_sides(f, incident.face_polygon(inc_face));
    // Ids name A's face, then B's face, then the clip feature (features are below 128),
    // whichever face is the reference: a box resting on a box tilts by a few milliradians
    // and the reference flips between the two faces, which must not lose the warm start
    // (it did: 3% of a 100-row pyramid's points per step, and the pyramid crept).
    let (face_a, face_b) = if reference_is_b {
        (inc_face, f)
    } else {
        (f, inc_face)
    };
    let id_base = (face_a.index() * 8 + face_b.index()) * 128;
    let points = clipped
        .into_iter()
        .filter_map(|c| {
            let depth = n.dot(&c.point) - plane;
            (depth <= margin).then(|| {
                let on_reference = c.point - n * depth;
                let (point_a, point_b) = if reference_is_b {
                    (c.point, on_reference)
                } else {
                    (on_reference, c.point)
                };
                Candidate {
                    point_a,
                    point_b,
                    depth,
                    key: id_base + c.feature,
                }
            })
        })
        .collect();
    (points, face_a)
}

/// Ids for a face contact's points that survive slides: the quadrant of each point about the
/// points' centroid, along the side axes of A's face `f` (one bit per axis; A's whichever
/// face is the reference, so a flip of reference keeps the ids), above the faces' base id. A clipped corner and the incident corner it replaces (when a box slides across an
/// edge) sit in the same quadrant, so the id holds; a second point in a taken quadrant (a
/// triangle's worth of points) keeps its clip feature's key instead.
fn quadrant_keys<const D: usize>(points: &mut [Candidate<D>], reference: &Obb<D>, f: Face)
where
    Space<D>: Dim<D>,
{
    if points.is_empty() {
        return;
    }
    let centroid = points
        .iter()
        .fold(Vector::<D>::zeros(), |c, p| c + p.point_a + p.point_b)
        / (2 * points.len()) as Real;
    let mut taken = 0u32;
    for p in points.iter_mut() {
        let base = p.key & !127;
        let offset = (p.point_a + p.point_b) * 0.5 - centroid;
        let quadrant = (0..D)
            .filter(|&i| i != f.axis)
            .enumerate()
            .fold(0u32, |q, (bit, i)| {
                q | u32::from(reference.axes[i].dot(&offset) > 0.0) << bit
            });
        if taken & (1 << quadrant) == 0 {
            taken |= 1 << quadrant;
            p.key = base + quadrant;
        } else {
            // Clip features start at 16 and corners are 0..4: above the quadrants (0..4)
            // only when they are not corners, so corners move up by 4.
            p.key = base + 4 + (p.key & 127);
        }
    }
}

/// The closest points of A's edge along axis `i` and B's edge along axis `j` that face each
/// other across the unit normal `n` (from A to B).
fn edge_contact<const D: usize>(
    a: &Obb<D>,
    i: usize,
    b: &Obb<D>,
    j: usize,
    n: &Vector<D>,
) -> Candidate<D>
where
    Space<D>: Dim<D>,
{
    let mid_a = edge_midpoint(a, i, n);
    let mid_b = edge_midpoint(b, j, &-n);
    let (ua, ub) = (a.axes[i], b.axes[j]);
    let (ha, hb) = (a.half[i], b.half[j]);
    let r = mid_b - mid_a;
    let c = ua.dot(&ub);
    let denom = (1.0 - c * c).max(Real::EPSILON);
    let s = ((ua.dot(&r) - c * ub.dot(&r)) / denom).clamp(-ha, ha);
    let t = (c * s - ub.dot(&r)).clamp(-hb, hb);
    let s = ua.dot(&(r + ub * t)).clamp(-ha, ha);
    let point_a = mid_a + ua * s;
    let point_b = mid_b + ub * t;
    Candidate {
        point_a,
        point_b,
        depth: n.dot(&(point_b - point_a)),
        // Above every face id (6 * 8 * 8 * 128 = 49152 with the B flag).
        key: 1 << 16 | (i as u32) << 4 | j as u32,
    }
}

/// The midpoint of the box's edge along axis `i` that lies farthest along `n`.
fn edge_midpoint<const D: usize>(o: &Obb<D>, i: usize, n: &Vector<D>) -> Vector<D> {
    (0..D).filter(|&k| k != i).fold(o.center, |p, k| {
        let s = if o.axes[k].dot(n) < 0.0 { -1.0 } else { 1.0 };
        p + o.axes[k] * (s * o.half[k])
    })
}

impl<const D: usize> PairQuery<D> for CuboidCuboid<'_, D>
where
    Space<D>: Dim<D>,
{
    fn intersects(&self, ctx: &mut Ctx) -> bool {
        ctx.budget.cells += 1;
        let (a, b) = self.boxes();
        separating_axis(&a, &b, ctx.settings.size, 0.0).separation <= 0.0
    }

    fn penetration(&self, ctx: &mut Ctx) -> Option<Deepest<D>> {
        let (sat, points) = self.manifold(ctx, 0.0);
        if sat.separation > 0.0 {
            return None;
        }
        let deepest = points.iter().min_by(|p, q| p.depth.total_cmp(&q.depth));
        let (point_a, point_b) = match deepest {
            Some(p) => (p.point_a, p.point_b),
            // Every clipped corner is outside (a corner of B reaches in past A's face sides):
            // B's deepest corner along the axis, and its image on A's side of the overlap.
            None => {
                let point_b = Obb::new(self.half_b, &self.pose_b).support(&-sat.normal);
                (point_b - sat.normal * sat.separation, point_b)
            }
        };
        Some(Deepest {
            depth: -sat.separation,
            normal: sat.normal,
            point_a,
            point_b,
        })
    }

    fn distance(&self, ctx: &mut Ctx) -> (Real, Vector<D>, Vector<D>) {
        if let Some(p) = self.penetration(ctx) {
            let mid = (p.point_a + p.point_b) * 0.5;
            return (0.0, mid, mid);
        }
        let general = SdfSdf {
            a: self.a,
            pose_a: self.pose_a,
            b: self.b,
            pose_b: self.pose_b,
        };
        general.distance(ctx)
    }

    fn contacts(&self, ctx: &mut Ctx, out: &mut Vec<Manifold<D>>) {
        let margin = ctx.settings.margin;
        let (sat, points) = self.manifold(ctx, margin);
        if points.is_empty() {
            return;
        }
        out.push(in_world(&points, &sat.normal, 0));
    }
}
