//! Exact separations of a box against a box, and of a capsule against a box, while they are
//! apart (the pairs a falling pile sweeps most; the field search took ~90% of its landing).
//!
//! Two separated convex polytopes are closest at a corner of one against the other (the
//! box field is exact outside, so that is `d(corner)`) or, in 3D, at an edge against an edge
//! (the closest points of the two segments). The minimum over all of them is the distance,
//! provided the shapes do not overlap: two bars crossing like a plus sign overlap with every
//! corner outside and every edge pair apart, so overlap is decided first by the separating
//! axes (the face normals of both, and in 3D the cross products of their edges). A capsule's
//! core segment is closest to a box at one of its ends or against a box edge; it overlaps
//! the box's core when the segment crosses it (slab clipping). Overlapping pairs return
//! `None` and go to the field search, which also refines the deepest point.

use crate::closed_form::{exact, flipped, point_to_field};
use crate::separation::Separation;
use fathom_math::segment::closest_on_segments;
use fathom_math::{Dim, Pose, Real, Space, Vector};
use fathom_sdf::{Sdf, ShapeKind};

/// A posed box: centre, world axes and half extents.
struct Obb<const D: usize> {
    centre: Vector<D>,
    axes: [Vector<D>; 3],
    half: Vector<D>,
}

impl<const D: usize> Obb<D>
where
    Space<D>: Dim<D>,
{
    fn new(half: Vector<D>, pose: &Pose<D>) -> Self {
        let r = Space::<D>::rotation_matrix(&pose.rotation);
        let mut axes = [Vector::<D>::zeros(); 3];
        for (i, axis) in axes.iter_mut().enumerate().take(D) {
            *axis = r.column(i).into_owned();
        }
        Self {
            centre: pose.translation.vector,
            axes,
            half,
        }
    }

    /// The corner with sign bits `bits` (bit i set: + along axis i).
    fn corner(&self, bits: usize) -> Vector<D> {
        let mut p = self.centre;
        for i in 0..D {
            let s = if bits & (1 << i) != 0 { 1.0 } else { -1.0 };
            p += self.axes[i] * (s * self.half[i]);
        }
        p
    }

    /// Every edge as its two ends (for each axis, the 2^(D-1) edges parallel to it), with the
    /// sum of its ends and its length, worked out once per query: the edge-pair loop of two
    /// boxes visits each edge of one once per edge of the other.
    fn edges(&self) -> Edges<D> {
        let corners: [Vector<D>; 8] = std::array::from_fn(|bits| self.corner(bits));
        let mut edges = Edges {
            ends: [(Vector::zeros(), Vector::zeros()); 12],
            sums: [Vector::zeros(); 12],
            lengths: [0.0; 12],
            count: 0,
        };
        for i in 0..D {
            for bits in (0..1usize << D).filter(|bits| bits & (1 << i) == 0) {
                let e = (corners[bits], corners[bits | (1 << i)]);
                let k = edges.count;
                edges.ends[k] = e;
                edges.sums[k] = e.0 + e.1;
                edges.lengths[k] = (e.1 - e.0).norm();
                edges.count += 1;
            }
        }
        edges
    }

    /// Half the box's extent along the unit direction `l`.
    fn radius_along(&self, l: &Vector<D>) -> Real {
        (0..D)
            .map(|i| self.half[i] * self.axes[i].dot(l).abs())
            .sum()
    }
}

/// A box's edges ([`Obb::edges`]); the first `count` entries are used (4 in 2D, 12 in 3D).
struct Edges<const D: usize> {
    ends: [(Vector<D>, Vector<D>); 12],
    /// Each edge's two ends added: twice its midpoint.
    sums: [Vector<D>; 12],
    lengths: [Real; 12],
    count: usize,
}

impl<const D: usize> Edges<D> {
    fn iter(&self) -> impl Iterator<Item = usize> {
        0..self.count
    }
}

/// The separation of `a` at `pose_a` and `b` at `pose_b` when one is a box and the other a
/// box or a capsule and they are apart; `None` for other pairs and for overlaps.
pub(crate) fn separation<const D: usize>(
    a: &dyn Sdf<D>,
    pose_a: &Pose<D>,
    b: &dyn Sdf<D>,
    pose_b: &Pose<D>,
) -> Option<Separation<D>>
where
    Space<D>: Dim<D>,
{
    match (a.kind(), b.kind()) {
        (ShapeKind::Cuboid { half_extents: ha }, ShapeKind::Cuboid { half_extents: hb }) => {
            box_box(a, pose_a, ha, b, pose_b, hb)
        }
        (
            ShapeKind::Capsule {
                half_height,
                radius,
            },
            ShapeKind::Cuboid { half_extents },
        ) => capsule_box(half_height, radius, pose_a, b, pose_b, half_extents),
        (
            ShapeKind::Cuboid { half_extents },
            ShapeKind::Capsule {
                half_height,
                radius,
            },
        ) => capsule_box(half_height, radius, pose_b, a, pose_a, half_extents).map(flipped),
        _ => None,
    }
}

/// The closest feature pair seen so far: gap, point on A, point on B, normal A to B.
type Best<const D: usize> = Option<(Real, Vector<D>, Vector<D>, Vector<D>)>;

fn keep<const D: usize>(best: &mut Best<D>, candidate: (Real, Vector<D>, Vector<D>, Vector<D>)) {
    if best.is_none_or(|b| candidate.0 < b.0) {
        *best = Some(candidate);
    }
}

/// [`keep`] of corner `p` against the field `s` at `pose` (`flip`: the corner is B's, so the
/// pair is reversed). The distance alone decides; the surface point and normal are worked out
/// only for a corner that is kept.
fn keep_corner<const D: usize>(
    best: &mut Best<D>,
    p: &Vector<D>,
    s: &dyn Sdf<D>,
    pose: &Pose<D>,
    flip: bool,
) where
    Space<D>: Dim<D>,
{
    let local = pose.inverse_transform_point(&(*p).into()).coords;
    let d = s.distance(&local);
    // What `keep` would decide (a NaN never wins).
    let wins = best.is_none_or(|b| d < b.0);
    if !wins {
        return;
    }
    let (d, p, q, n) = point_to_field(p, s, pose);
    keep(best, if flip { (d, q, p, -n) } else { (d, p, q, n) });
}

/// Closest points of two segments as a feature pair (gap, on A, on B, normal A to B).
fn segment_pair<const D: usize>(
    p: &(Vector<D>, Vector<D>),
    q: &(Vector<D>, Vector<D>),
) -> Option<(Real, Vector<D>, Vector<D>, Vector<D>)>
where
    Space<D>: Dim<D>,
{
    let (pa, pb) = closest_on_segments(&p.0, &p.1, &q.0, &q.1);
    let d = pb - pa;
    let len = d.norm();
    (len > 1e-9).then(|| (len, pa, pb, d / len))
}

fn box_box<const D: usize>(
    a: &dyn Sdf<D>,
    pose_a: &Pose<D>,
    ha: Vector<D>,
    b: &dyn Sdf<D>,
    pose_b: &Pose<D>,
    hb: Vector<D>,
) -> Option<Separation<D>>
where
    Space<D>: Dim<D>,
{
    let (oa, ob) = (Obb::new(ha, pose_a), Obb::new(hb, pose_b));
    if !separated(&oa, &ob) {
        return None;
    }
    let mut best: Best<D> = None;
    for bits in 0..1usize << D {
        keep_corner(&mut best, &oa.corner(bits), b, pose_b, false);
        keep_corner(&mut best, &ob.corner(bits), a, pose_a, true);
    }
    if D == 3 {
        let (ea, eb) = (oa.edges(), ob.edges());
        for i in ea.iter() {
            for j in eb.iter() {
                // Two segments are no closer than their midpoints' distance less both half
                // lengths: a pair that cannot beat the best so far skips the exact query.
                let mid = (ea.sums[i] - eb.sums[j]).norm() * 0.5;
                let reach = (ea.lengths[i] + eb.lengths[j]) * 0.5;
                if best.is_some_and(|b| mid - reach >= b.0) {
                    continue;
                }
                if let Some(c) = segment_pair(&ea.ends[i], &eb.ends[j]) {
                    keep(&mut best, c);
                }
            }
        }
    }
    best.map(|(gap, pa, pb, n)| exact(gap, pa, pb, n))
}

/// True when some face normal of either box, or (3D) some cross product of their axes,
/// separates them.
fn separated<const D: usize>(a: &Obb<D>, b: &Obb<D>) -> bool
where
    Space<D>: Dim<D>,
{
    let t = b.centre - a.centre;
    // Near-parallel edges give a vanishing cross product; the face axes cover them.
    let apart =
        |l: &Vector<D>| l.norm() > 1e-6 && t.dot(l).abs() > a.radius_along(l) + b.radius_along(l);
    let faces = (0..D).any(|i| apart(&a.axes[i]) || apart(&b.axes[i]));
    faces || (D == 3 && (0..3).any(|i| (0..3).any(|j| apart(&cross3(&a.axes[i], &b.axes[j])))))
}

/// The 3D cross product written on `Vector<D>` (only called when `D == 3`).
fn cross3<const D: usize>(u: &Vector<D>, v: &Vector<D>) -> Vector<D> {
    let mut w = Vector::<D>::zeros();
    w[0] = u[1] * v[2] - u[2] * v[1];
    w[1] = u[2] * v[0] - u[0] * v[2];
    w[2] = u[0] * v[1] - u[1] * v[0];
    w
}

/// A capsule (`half_height`, `radius`, axis along its local y, at `pose_c`) against the box
/// field `b` at `pose_b`, normal from the capsule towards the box.
fn capsule_box<const D: usize>(
    half_height: Real,
    radius: Real,
    pose_c: &Pose<D>,
    b: &dyn Sdf<D>,
    pose_b: &Pose<D>,
    half: Vector<D>,
) -> Option<Separation<D>>
where
    Space<D>: Dim<D>,
{
    let mut axis = Vector::<D>::zeros();
    axis[1] = half_height;
    let axis = pose_c.transform_vector(&axis);
    let c = pose_c.translation.vector;
    let core = (c - axis, c + axis);
    let obb = Obb::new(half, pose_b);
    if crosses(&core, &obb) {
        return None;
    }
    let mut best: Best<D> = None;
    keep(&mut best, point_to_field(&core.0, b, pose_b));
    keep(&mut best, point_to_field(&core.1, b, pose_b));
    let edges = obb.edges();
    for e in &edges.ends[..edges.count] {
        if let Some(f) = segment_pair(&core, e) {
            keep(&mut best, f);
        }
    }
    best.map(|(gap, pa, pb, n)| exact(gap - radius, pa + n * radius, pb, n))
}

/// True when the segment meets the box (slab clipping in the box's frame).
fn crosses<const D: usize>(seg: &(Vector<D>, Vector<D>), b: &Obb<D>) -> bool
where
    Space<D>: Dim<D>,
{
    let (p, q) = (seg.0 - b.centre, seg.1 - b.centre);
    let (mut t0, mut t1): (Real, Real) = (0.0, 1.0);
    for i in 0..D {
        let (s, e) = (b.axes[i].dot(&p), b.axes[i].dot(&q));
        let d = e - s;
        if d.abs() < 1e-12 {
            if s.abs() > b.half[i] {
                return false;
            }
            continue;
        }
        let (mut lo, mut hi) = ((-b.half[i] - s) / d, (b.half[i] - s) / d);
        if lo > hi {
            std::mem::swap(&mut lo, &mut hi);
        }
        t0 = t0.max(lo);
        t1 = t1.min(hi);
        if t0 > t1 {
            return false;
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use fathom_math::{Pose2, Pose3, Vector2, Vector3};
    use fathom_sdf::{Shape2, Shape3};
    use std::f32::consts::FRAC_PI_4;

    fn cuboid(x: Real, y: Real, z: Real) -> Shape3 {
        Shape3::cuboid(Vector3::new(x, y, z)).unwrap()
    }

    fn gap3(a: &Shape3, pa: &Pose3, b: &Shape3, pb: &Pose3) -> Option<Real> {
        separation(a, pa, b, pb).map(|s| {
            assert_eq!(s.lower, s.upper, "closed forms are exact");
            s.lower
        })
    }

    #[test]
    fn parallel_faces_are_their_gap() {
        let unit = cuboid(0.5, 0.5, 0.5);
        let g = gap3(
            &unit,
            &Pose3::identity(),
            &unit,
            &Pose3::translation(1.3, 0.2, -0.1),
        );
        assert!((g.unwrap() - 0.3).abs() < 1e-6);
    }

    #[test]
    fn crossed_diamond_bars_meet_edge_to_edge() {
        // Two square bars of half width 0.1 turned 45 degrees about their own long axes (x
        // and z), 0.5 m apart in y: their ridges cross at 0.5 - 2 * 0.1 sqrt 2.
        let a = cuboid(2.0, 0.1, 0.1);
        let b = cuboid(0.1, 0.1, 2.0);
        let pa = Pose3::new(Vector3::zeros(), Vector3::x() * FRAC_PI_4);
        let pb = Pose3::new(Vector3::y() * 0.5, Vector3::z() * FRAC_PI_4);
        let s = separation(&a, &pa, &b, &pb).unwrap();
        assert!(
            (s.lower - (0.5 - 0.2 * 2f32.sqrt())).abs() < 1e-5,
            "{}",
            s.lower
        );
        assert!((s.normal - Vector3::y()).norm() < 1e-4, "{:?}", s.normal);
        assert!((s.point_b - s.point_a - s.normal * s.lower).norm() < 1e-5);
    }

    #[test]
    fn bars_crossing_like_a_plus_overlap() {
        // No corner of either inside the other and every edge pair apart, yet they overlap:
        // the separating axes say so, and the pair goes to the search.
        let a = cuboid(2.0, 1.0, 0.1);
        let b = cuboid(0.1, 0.5, 2.0);
        assert_eq!(gap3(&a, &Pose3::identity(), &b, &Pose3::identity()), None);
    }

    #[test]
    fn a_capsule_over_a_box_edge() {
        // A capsule lying along z above the box's +x top edge, turned 45 degrees: the
        // capsule's axis is 1 m from the edge, less its radius.
        let boxed = cuboid(0.5, 0.5, 0.5);
        let cap = Shape3::capsule(1.0, 0.2).unwrap();
        let edge = Vector3::new(0.5, 0.5, 0.0);
        let out = Vector3::new(1.0, 1.0, 0.0).normalize();
        let pc = Pose3::new(edge + out, Vector3::x() * std::f32::consts::FRAC_PI_2);
        let s = separation(&cap, &pc, &boxed, &Pose3::identity()).unwrap();
        assert!((s.lower - 0.8).abs() < 1e-5, "{}", s.lower);
        assert!((s.normal + out).norm() < 1e-4);
        // The other way round: the same gap, the normal reversed.
        let r = separation(&boxed, &Pose3::identity(), &cap, &pc).unwrap();
        assert!((r.lower - 0.8).abs() < 1e-5 && (r.normal - out).norm() < 1e-4);
        // A capsule through the box is an overlap for the search.
        let through = Pose3::translation(0.0, 0.0, 0.0);
        assert!(separation(&cap, &through, &boxed, &Pose3::identity()).is_none());
    }

    #[test]
    fn squares_in_2d_corner_to_face() {
        // A unit square turned 45 degrees, its corner 0.25 m from the other's +x face.
        let unit = Shape2::cuboid(Vector2::new(0.5, 0.5)).unwrap();
        let half_diagonal = 0.5 * 2f32.sqrt();
        let pb = Pose2::new(Vector2::new(0.75 + half_diagonal, 0.1), FRAC_PI_4);
        let s = separation(&unit, &Pose2::identity(), &unit, &pb).unwrap();
        assert!((s.lower - 0.25).abs() < 1e-5, "{}", s.lower);
        assert!((s.normal - Vector2::x()).norm() < 1e-5);
    }
}
