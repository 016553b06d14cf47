//! Exact separations of a box against a box, and of a capsule against a box, while they are
//! apart (the pairs a falling pile sweeps most; the field search took ~90% of its landing).
//!
//! Two separated convex polytopes are closest at a corner of one against the other (the
//! box field is exact outside, so that is `d(corner)`) or, in 3D, at an edge against an edge
//! (the closest points of the two segments). The minimum over all of them is the distance,
//! provided the shapes do not overlap: two bars crossing like a plus sign overlap with every
//! corner outside and every edge pair apart, so overlap is decided first by the separating
//! axes (the face normals of both, and in 3D the cross products of their edges). A capsule's
//! core segment is measured against the box in the box's frame, where the squared distance
//! along the segment is piecewise quadratic (`segment_box_closest`); a segment with a stretch
//! inside the box overlaps it. Overlapping pairs return `None` and go to the field search,
//! which also refines the deepest point.

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
        ) => capsule_box(half_height, radius, pose_a, pose_b, half_extents),
        (
            ShapeKind::Cuboid { half_extents },
            ShapeKind::Capsule {
                half_height,
                radius,
            },
        ) => capsule_box(half_height, radius, pose_b, pose_a, half_extents).map(flipped),
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

/// True when two segments, each given by the sum of its ends and its length, cannot beat the
/// best gap so far: they are no closer than their midpoints' distance less both half lengths,
/// so the pair skips the exact query.
fn cannot_beat<const D: usize>(best: &Best<D>, p: (&Vector<D>, Real), q: (&Vector<D>, Real)) -> bool
where
    Space<D>: Dim<D>,
{
    let mid = (p.0 - q.0).norm() * 0.5;
    let reach = (p.1 + q.1) * 0.5;
    best.is_some_and(|b| mid - reach >= b.0)
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
                if cannot_beat(
                    &best,
                    (&ea.sums[i], ea.lengths[i]),
                    (&eb.sums[j], eb.lengths[j]),
                ) {
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
/// with half extents `half` at `pose_b`, normal from the capsule towards the box.
fn capsule_box<const D: usize>(
    half_height: Real,
    radius: Real,
    pose_c: &Pose<D>,
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
    let in_box = |p: Vector<D>| pose_b.inverse_transform_point(&p.into()).coords;
    let (start, end) = (in_box(c - axis), in_box(c + axis));
    let along = end - start;
    let (t, gap) = segment_box_closest(&start, &along, &half)?;
    let p = start + along * t;
    let q = p.zip_map(&half, |x, h| x.clamp(-h, h));
    let n = pose_b.transform_vector(&((q - p) / gap));
    let (pa, pb) = (
        pose_b.transform_point(&p.into()).coords,
        pose_b.transform_point(&q.into()).coords,
    );
    Some(exact(gap - radius, pa + n * radius, pb, n))
}

/// The parameter `t` in [0, 1] of the point of the segment `start + t along` closest to the box
/// `|x_i| <= half_i` (box frame), and its distance; `None` when the segment meets the box.
///
/// The squared distance is convex in `t` and quadratic between the parameters where the
/// segment crosses a face plane, so the minimum is the best of at most 2D + 1 clamped
/// quadratics: a few dozen operations where twelve segment-edge queries took thousands.
fn segment_box_closest<const D: usize>(
    start: &Vector<D>,
    along: &Vector<D>,
    half: &Vector<D>,
) -> Option<(Real, Real)>
where
    Space<D>: Dim<D>,
{
    let mut ts = [1.0 as Real; 8];
    let mut n = 1;
    ts[0] = 0.0;
    for i in 0..D {
        for face in [-half[i], half[i]] {
            let t = (face - start[i]) / along[i];
            if t > 0.0 && t < 1.0 {
                ts[n] = t;
                n += 1;
            }
        }
    }
    let ts = &mut ts[..n + 1];
    ts.sort_unstable_by(|x, y| x.total_cmp(y));
    let square_gap = |t: Real| {
        (0..D)
            .map(|i| ((start[i] + t * along[i]).abs() - half[i]).max(0.0).powi(2))
            .sum::<Real>()
    };
    let mut best: Option<(Real, Real)> = None;
    for w in ts.windows(2) {
        let (t0, t1) = (w[0], w[1]);
        let mid = 0.5 * (t0 + t1);
        // Between breakpoints each coordinate is below, inside or above its slab throughout:
        // the outside ones make the squared distance a t^2 + 2 b t + c.
        let (mut a, mut b, mut outside) = (0.0, 0.0, false);
        for i in 0..D {
            let x = start[i] + mid * along[i];
            if x.abs() <= half[i] {
                continue;
            }
            outside = true;
            a += along[i] * along[i];
            b += along[i] * (start[i] - half[i].copysign(x));
        }
        if !outside {
            return None; // a stretch of the segment inside the box
        }
        let t = if a > 0.0 { (-b / a).clamp(t0, t1) } else { t0 };
        let f = square_gap(t);
        if best.is_none_or(|(bf, _)| f < bf) {
            best = Some((f, t));
        }
    }
    let (f, t) = best?;
    (f > 0.0).then(|| (t, f.sqrt()))
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

    /// The f64 distance of the segment to the box by dense sampling of `t`, refined by
    /// ternary search on the convex squared distance (the brute-force oracle).
    fn brute_segment_box<const D: usize>(a: &Vector<D>, along: &Vector<D>, h: &Vector<D>) -> f64 {
        let f = |t: f64| {
            (0..D)
                .map(|i| {
                    let x = a[i] as f64 + t * along[i] as f64;
                    (x.abs() - h[i] as f64).max(0.0).powi(2)
                })
                .sum::<f64>()
        };
        let (mut lo, mut hi) = (0.0f64, 1.0f64);
        for _ in 0..200 {
            let (m1, m2) = (lo + (hi - lo) / 3.0, hi - (hi - lo) / 3.0);
            if f(m1) <= f(m2) {
                hi = m2;
            } else {
                lo = m1;
            }
        }
        f(0.5 * (lo + hi)).sqrt()
    }

    fn segment_box_matches_brute_force<const D: usize>()
    where
        Space<D>: Dim<D>,
    {
        // A fixed linear congruential sequence: the same cases every run.
        let mut state = 0x2545_f491_u64;
        let mut draw = |lo: Real, hi: Real| {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1);
            lo + (hi - lo) * ((state >> 40) as Real / (1u64 << 24) as Real)
        };
        let (mut apart, mut through) = (0, 0);
        for _ in 0..2000 {
            let h = Vector::<D>::from_fn(|_, _| draw(0.05, 1.0));
            let a = Vector::<D>::from_fn(|_, _| draw(-2.0, 2.0));
            let along = Vector::<D>::from_fn(|_, _| draw(-3.0, 3.0));
            let oracle = brute_segment_box(&a, &along, &h);
            match segment_box_closest(&a, &along, &h) {
                Some((t, gap)) => {
                    apart += 1;
                    // f32 inputs of size ~3: a few ulps of the coordinates.
                    assert!((gap as f64 - oracle).abs() < 1e-5, "{gap} vs {oracle}");
                    let p = a + along * t;
                    let q = p.zip_map(&h, |x, hh| x.clamp(-hh, hh));
                    assert!(((p - q).norm() - gap).abs() < 1e-5);
                }
                None => {
                    through += 1;
                    assert!(oracle < 1e-5, "said to meet the box, {oracle} away");
                }
            }
        }
        assert!(
            apart > 500 && through > 100,
            "{apart} apart, {through} through"
        );
    }

    #[test]
    fn segment_box_distance_matches_brute_force_both_dimensions() {
        segment_box_matches_brute_force::<2>();
        segment_box_matches_brute_force::<3>();
    }
}
