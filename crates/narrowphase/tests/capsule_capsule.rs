//! Two capsules, the closed form: parry's exact answers on random poses (its segment-segment
//! contact less the radii), and the manifolds a solver rests on: two parallel logs lying on each
//! other give two points at the ends of their overlap whose ids survive a slide and a small
//! turn, and keep the deep end's id while the other lifts off; crossed logs and logs end to end
//! touch at one point. Each check is one generic function run for D = 2 and D = 3.

mod common;

use common::{
    about_z, angle_deg, angles, capsule, only_manifold, pose_pair, size, unit3, world, Oracle, Prim,
};
use fathom_math::{Dim, Pose, Real, Space, Vector};
use fathom_narrowphase::{
    contacts, distance, penetration, ContactOptions, ContactPoint, Contacts, Manifold,
    DEFAULT_MIN_CELL_FRACTION,
};
use proptest::prelude::*;

/// Exact geometry in f32 on metre-sized shapes: a few ulps of the coordinates.
const EXACT: Real = 1e-5;

/// Contacts both ways round: the mirrored answer has the normal reversed, the points swapped,
/// and the same depths.
fn both_ways<const D: usize>(
    a: &Prim<D>,
    pa: &Pose<D>,
    b: &Prim<D>,
    pb: &Pose<D>,
) -> (Contacts<D>, Contacts<D>)
where
    Space<D>: Dim<D> + Oracle<D>,
{
    let (sa, sb) = (a.shape(), b.shape());
    let opts = ContactOptions::default();
    let c = contacts(&sa, pa, &sb, pb, &opts).unwrap();
    let m = contacts(&sb, pb, &sa, pa, &opts).unwrap();
    assert_eq!(c.stats.evaluations, 0, "a closed form evaluates no field");
    assert_eq!(c.manifolds.len(), m.manifolds.len(), "{c:?}\n{m:?}");
    for (x, y) in c.manifolds.iter().zip(&m.manifolds) {
        // Both orders compute the same closest points, up to the order of f32 operations. Their
        // direction is the normal down to cores 1e-4 of the size apart (closer, the segments'
        // axes give it): f32 points (1e-7 relative) over that distance, a milliradian either
        // way; the surface points move by it times the radius.
        assert!((x.normal + y.normal).norm() < 2e-3, "{x:?}\n{y:?}");
        assert_eq!(x.points.len(), y.points.len(), "{x:?}\n{y:?}");
        for p in &x.points {
            let q = y
                .points
                .iter()
                .min_by(|q, r| {
                    let gap = |q: &ContactPoint<D>| {
                        (q.point_b - p.point_a).norm() + (q.point_a - p.point_b).norm()
                    };
                    gap(q).total_cmp(&gap(r))
                })
                .unwrap();
            assert!(
                (q.point_b - p.point_a).norm() < 1e-3
                    && (q.point_a - p.point_b).norm() < 1e-3
                    && (q.depth - p.depth).abs() < 1e-4,
                "{x:?}\n{y:?}"
            );
        }
        for p in &x.points {
            let sep = (p.point_b - p.point_a).dot(&x.normal);
            assert!(
                (sep - p.depth).abs() < EXACT,
                "depth is the points' separation"
            );
        }
    }
    (c, m)
}

/// Two random capsules, about half the cases overlapping: the distance, the penetration and
/// the contacts agree with parry's segment contact less the radii (exact).
fn agrees_with_parry<const D: usize>(
    (ha, ra): (Real, Real),
    (hb, rb): (Real, Real),
    angles_a: [Real; 3],
    angles_b: [Real; 3],
    dir: [Real; 3],
    t: Real,
) where
    Space<D>: Dim<D> + Oracle<D>,
{
    let (a, b) = (Prim::<D>::Capsule(ha, ra), Prim::<D>::Capsule(hb, rb));
    let (sa, sb) = (size(&a), size(&b));
    let small = sa.min(sb);
    let (pa, pb) = pose_pair::<D>((sa, sb), angles_a, angles_b, dir, t);
    let Some((_, contact_normal)) = Space::<D>::try_contact(&a, &pa, &b, &pb) else {
        return;
    };
    // The signed distance and normal: the cores' distance (closest points in f64: parry's in f32
    // were seen 1.3e-4 off on nearly parallel segments, as Fathom's were before it took the
    // better of them and the ends' projections) less the radii, and parry's normal; where the
    // cores cross (2D: parry's EPA was seen to give no depth at all) the least of 100k
    // directions to push B out along, whose sampling errs by at most the cores' spread times
    // half the step.
    let (ends_a, ends_b) = (core_ends(ha, &pa), core_ends(hb, &pb));
    let core = segment_distance(&ends_a, &ends_b);
    let crossing = core <= 1e-4 * small;
    let samples = 100_000;
    let (dist, normal, sampling) = if !crossing {
        (core - ra - rb, contact_normal, 0.0)
    } else {
        let (out, n) = least_way_out(&ends_a, &ends_b, samples);
        let step = std::f32::consts::PI / samples as Real;
        (-out - ra - rb, n, 2.0 * (ha + hb) * step)
    };
    let (shape_a, shape_b) = (a.shape(), b.shape());
    let opts = ContactOptions::default();
    // The bounds: 1e-4 of the smaller size (both sides exact up to f32 round-off on
    // metre-sized shapes, EXACT) and 1 degree.
    let tol = 1e-4 * small + EXACT + sampling;
    let margin = DEFAULT_MIN_CELL_FRACTION * small;
    let (c, _) = both_ways(&a, &pa, &b, &pb);
    let dq = distance(&shape_a, &pa, &shape_b, &pb, &opts).unwrap();
    assert!(
        (dq.distance - dist.max(0.0)).abs() <= tol,
        "distance {} vs parry {dist}",
        dq.distance
    );
    if dist > margin + tol {
        assert!(
            c.manifolds.is_empty(),
            "parry {dist}, margin {margin}: {c:?}"
        );
        return;
    }
    if dist < margin - tol {
        let man = only_manifold(&c);
        let deepest = man
            .points
            .iter()
            .map(|p| p.depth)
            .fold(Real::INFINITY, Real::min);
        assert!((deepest - dist).abs() <= tol, "deepest {deepest} vs {dist}");
        // A single point's normal is the closest points' direction (a line's is that of its
        // deeper end, checked by the resting tests).
        if man.points.len() == 1 && !crossing {
            let ang = angle_deg(&man.normal, &normal);
            assert!(ang <= 1.0, "{ang} deg: {man:?} vs {normal:?}");
        }
    }
    if dist >= -tol {
        return;
    }
    let deep = penetration(&shape_a, &pa, &shape_b, &pb, &opts)
        .unwrap()
        .deepest
        .expect("parry overlaps");
    assert!(
        (deep.depth + dist).abs() <= tol,
        "penetration {} vs parry {}",
        deep.depth,
        -dist
    );
    // Within a degree of the oracle's normal, unless the least translation is not unique (two
    // segments crossing in 2D, equally far from leaving across either): B moved along ours by
    // the depth is then free too.
    let ang = angle_deg(&deep.normal, &normal);
    if ang > 1.0 {
        let moved = Space::<D>::shifted(&pb, &(deep.normal * (deep.depth + tol)));
        let after = segment_distance(&ends_a, &core_ends(hb, &moved)) - ra - rb;
        assert!(
            crossing && after >= -EXACT,
            "{ang} deg: ours {:?} (oracle {normal:?}) does not separate ({after})",
            deep.normal
        );
    }
}

/// A capsule's core ends (world frame).
fn core_ends<const D: usize>(half: Real, pose: &Pose<D>) -> [Vector<D>; 2]
where
    Space<D>: Dim<D>,
{
    [-half, half].map(|h| {
        let mut e = Vector::<D>::zeros();
        e[1] = h;
        world(pose, e)
    })
}

/// The distance of two segments in f64: the least of each end's distance to the other segment
/// and, when the segments' closest points are inside both, theirs (Ericson's equations, which
/// f64 solves well down to angles of 1e-6 rad; more parallel, the ends are as close).
fn segment_distance<const D: usize>(a: &[Vector<D>; 2], b: &[Vector<D>; 2]) -> Real {
    let f = |v: &Vector<D>| -> Vec<f64> { v.iter().map(|&x| x as f64).collect() };
    let (a0, a1, b0, b1) = (f(&a[0]), f(&a[1]), f(&b[0]), f(&b[1]));
    let sub = |p: &[f64], q: &[f64]| -> Vec<f64> { p.iter().zip(q).map(|(x, y)| x - y).collect() };
    let dot = |p: &[f64], q: &[f64]| -> f64 { p.iter().zip(q).map(|(x, y)| x * y).sum() };
    let at = |p: &[f64], d: &[f64], t: f64| -> Vec<f64> {
        p.iter().zip(d).map(|(x, y)| x + y * t).collect()
    };
    let dist = |p: &[f64], q: &[f64]| dot(&sub(p, q), &sub(p, q)).sqrt();
    let to_segment = |p: &[f64], q0: &[f64], q1: &[f64]| {
        let d = sub(q1, q0);
        let t = (dot(&sub(p, q0), &d) / dot(&d, &d)).clamp(0.0, 1.0);
        dist(p, &at(q0, &d, t))
    };
    let mut best = to_segment(&a0, &b0, &b1)
        .min(to_segment(&a1, &b0, &b1))
        .min(to_segment(&b0, &a0, &a1))
        .min(to_segment(&b1, &a0, &a1));
    let (d1, d2, r) = (sub(&a1, &a0), sub(&b1, &b0), sub(&a0, &b0));
    let (aa, bb, e) = (dot(&d1, &d1), dot(&d1, &d2), dot(&d2, &d2));
    let (c, g) = (dot(&d1, &r), dot(&d2, &r));
    let denom = aa * e - bb * bb;
    if denom > 1e-12 * aa * e {
        let s = (bb * g - c * e) / denom;
        let t = (aa * g - bb * c) / denom;
        if (0.0..=1.0).contains(&s) && (0.0..=1.0).contains(&t) {
            best = best.min(dist(&at(&a0, &d1, s), &at(&b0, &d2, t)));
        }
    }
    best as Real
}

/// The least push of B's core out of A's along `samples` directions of the plane of the first
/// two axes (B moved by `max n·B - min n·A` along `n` lies beyond A), and its direction.
fn least_way_out<const D: usize>(
    a: &[Vector<D>; 2],
    b: &[Vector<D>; 2],
    samples: usize,
) -> (Real, Vector<D>) {
    (0..samples)
        .map(|k| {
            let phi = k as Real * std::f32::consts::TAU / samples as Real;
            let mut n = Vector::<D>::zeros();
            n[0] = phi.cos();
            n[1] = phi.sin();
            let high_b = n.dot(&b[0]).max(n.dot(&b[1]));
            let low_a = n.dot(&a[0]).min(n.dot(&a[1]));
            (high_b - low_a, n)
        })
        .fold((Real::INFINITY, Vector::<D>::zeros()), |best, x| {
            if x.0 < best.0 {
                x
            } else {
                best
            }
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, ..ProptestConfig::default() })]

    #[test]
    fn agrees_with_parry_3d(a in capsule(), b in capsule(), ra in angles(), rb in angles(),
                            dir in unit3(), t in 0.1f32..1.1) {
        agrees_with_parry::<3>(a, b, ra, rb, dir, t);
    }

    #[test]
    fn agrees_with_parry_2d(a in capsule(), b in capsule(), ra in angles(), rb in angles(),
                            dir in unit3(), t in 0.1f32..1.1) {
        agrees_with_parry::<2>(a, b, ra, rb, dir, t);
    }
}

/// Two logs: A (core half length 0.5, radius 0.2) lying along the ground frame's x at its
/// origin, B (0.4, 0.15) lying along x on top of it, 1 mm in, offset along x by `OFFSET`.
/// The ground frame is turned and moved, so that it is not the world's.
const HA: Real = 0.5;
const RA: Real = 0.2;
const HB: Real = 0.4;
const RB: Real = 0.15;
const OFFSET: Real = 0.3;
const PRESS: Real = 0.001;

fn ground<const D: usize>() -> Pose<D>
where
    Space<D>: Dim<D> + Oracle<D>,
{
    Space::<D>::pose(Space::<D>::vec([0.3, -0.4, 0.2]), about_z::<D>(0.2))
}

/// A log's pose in the ground frame: lying along x at `centre`, tilted by `tilt` about z and
/// (3D) turned by `turn` about the vertical.
fn log<const D: usize>(centre: Vector<D>, tilt: Real, turn: Real) -> Pose<D>
where
    Space<D>: Dim<D> + Oracle<D>,
{
    let lying = Space::<D>::pose(
        Vector::<D>::zeros(),
        about_z::<D>(std::f32::consts::FRAC_PI_2),
    );
    let tilted = Space::<D>::pose(Vector::<D>::zeros(), about_z::<D>(tilt));
    let turned = Space::<D>::pose(Vector::<D>::zeros(), [0.0, turn, 0.0]);
    let mut p = turned * tilted * lying;
    p.translation.vector = centre;
    p
}

/// B's manifold on A, B at `centre` tilted and turned (ground frame).
fn logs<const D: usize>(centre: Vector<D>, tilt: Real, turn: Real) -> Manifold<D>
where
    Space<D>: Dim<D> + Oracle<D>,
{
    let g = ground::<D>();
    let pa = g * log::<D>(Vector::<D>::zeros(), 0.0, 0.0);
    let pb = g * log::<D>(centre, tilt, turn);
    let (c, _) = both_ways(&Prim::Capsule(HA, RA), &pa, &Prim::Capsule(HB, RB), &pb);
    only_manifold(&c).clone()
}

/// The two logs, untouched, slid 1 mm, tilted 5 mrad, and (3D) turned 5 mrad about the
/// vertical: exactly two points, at the overlap's ends (B's left end over A, A's right end
/// under B) with the analytic depth -1 mm and the vertical normal when B is level; the same ids
/// at the same ends (within the few mm a 5 mrad turn moves them) when it is not.
fn parallel_logs_touch_at_the_ends_of_their_overlap<const D: usize>()
where
    Space<D>: Dim<D> + Oracle<D>,
{
    let g = ground::<D>();
    let up = g.transform_vector(&Space::<D>::vec([0.0, 1.0, 0.0]));
    let height = RA + RB - PRESS;
    let turn = if D == 3 { 0.005 } else { 0.0 };
    // (slide, tilt, turn, level)
    let variants: [(Real, Real, Real, bool); 4] = [
        (0.0, 0.0, 0.0, true),
        (0.001, 0.0, 0.0, true),
        (0.0, 0.005, 0.0, false),
        (0.001, -0.005, turn, false),
    ];
    let mut ids = Vec::new();
    for (dx, tilt, turn, level) in variants {
        let m = logs::<D>(Space::<D>::vec([OFFSET + dx, height, 0.0]), tilt, turn);
        assert_eq!(m.points.len(), 2, "two points: {m:?}");
        // B's tilt and turn move its ends by 0.4 * 5 mrad = 2 mm each way; the normal (the
        // closest points' direction) turns by up to both, 7 mrad.
        let (place_tol, normal_tol) = if level {
            (EXACT, EXACT)
        } else {
            (0.005, 0.008)
        };
        assert!((m.normal - up).norm() < normal_tol, "{m:?}");
        let mut by_end = Vec::new();
        for x in [OFFSET + dx - HB, HA] {
            let want_a = world(&g, Space::<D>::vec([x, RA, 0.0]));
            let want_b = world(&g, Space::<D>::vec([x, height - RB, 0.0]));
            let p = m
                .points
                .iter()
                .min_by(|p, q| {
                    let (dp, dq) = ((p.point_a - want_a).norm(), (q.point_a - want_a).norm());
                    dp.total_cmp(&dq)
                })
                .unwrap();
            assert!(
                (p.point_a - want_a).norm() < place_tol && (p.point_b - want_b).norm() < place_tol,
                "end at {x}: {p:?} vs {want_a:?} {want_b:?}"
            );
            assert!(
                (p.depth + PRESS).abs() < place_tol,
                "depth {} vs {}",
                p.depth,
                -PRESS
            );
            by_end.push(p.id);
        }
        assert_ne!(by_end[0], by_end[1], "distinct ids");
        ids.push(by_end);
    }
    assert!(ids.iter().all(|i| *i == ids[0]), "ids survive: {ids:?}");
}

#[test]
fn parallel_logs_touch_at_the_ends_of_their_overlap_2d() {
    parallel_logs_touch_at_the_ends_of_their_overlap::<2>();
}

#[test]
fn parallel_logs_touch_at_the_ends_of_their_overlap_3d() {
    parallel_logs_touch_at_the_ends_of_their_overlap::<3>();
}

/// B tilted about its centre step by step from level to 0.1 rad: its raised end leaves the
/// manifold once it is beyond the margin, never to come back, and the pressed end keeps its id
/// throughout (no flicker between the line and a single point).
fn a_tilting_log_keeps_its_pressed_end<const D: usize>()
where
    Space<D>: Dim<D> + Oracle<D>,
{
    let height = RA + RB - PRESS;
    let centre = Space::<D>::vec([OFFSET, height, 0.0]);
    let level = logs::<D>(centre, 0.0, 0.0);
    // B's left end (the overlap's lower end, x < 0 in the ground frame) goes down as B tilts
    // anticlockwise; the overlap's upper end (A's right end, 0.2 right of B's centre) rises.
    let g = ground::<D>();
    let left = level
        .points
        .iter()
        .find(|p| {
            g.inverse_transform_point(&nalgebra::Point::from(p.point_a))
                .coords[0]
                < 0.0
        })
        .map(|p| p.id)
        .expect("a point at B's left end");
    let mut count = 2;
    for k in 0..=100 {
        let tilt = 0.001 * k as Real;
        let m = logs::<D>(centre, tilt, 0.0);
        assert!(
            m.points.len() <= count && !m.points.is_empty(),
            "tilt {tilt}: {m:?}"
        );
        count = m.points.len();
        assert!(
            m.points.iter().any(|p| p.id == left),
            "tilt {tilt}: the pressed end keeps id {left}: {m:?}"
        );
    }
    assert_eq!(count, 1, "the raised end lifted off");
}

#[test]
fn a_tilting_log_keeps_its_pressed_end_2d() {
    a_tilting_log_keeps_its_pressed_end::<2>();
}

#[test]
fn a_tilting_log_keeps_its_pressed_end_3d() {
    a_tilting_log_keeps_its_pressed_end::<3>();
}

/// Crossed logs (3D, at 90 degrees): one point, over the crossing, at the analytic depth, the
/// normal vertical; pressed 1 cm in, then with the cores 5 cm apart (depth -0.3).
#[test]
fn crossed_logs_touch_at_one_point() {
    let g = ground::<3>();
    let up = g.transform_vector(&Space::<3>::vec([0.0, 1.0, 0.0]));
    for press in [0.01, RA + RB - 0.05] {
        let height = RA + RB - press;
        let pa = g * log::<3>(Vector::<3>::zeros(), 0.0, 0.0);
        let pb = g * log::<3>(
            Space::<3>::vec([0.1, height, 0.05]),
            0.0,
            std::f32::consts::FRAC_PI_2,
        );
        let (c, _) = both_ways(&Prim::Capsule(HA, RA), &pa, &Prim::Capsule(HB, RB), &pb);
        let m = only_manifold(&c);
        assert_eq!(m.points.len(), 1, "{m:?}");
        assert!((m.normal - up).norm() < EXACT, "{m:?}");
        let p = m.points[0];
        assert!((p.depth + press).abs() < EXACT, "{p:?}");
        let want_a = world(&g, Space::<3>::vec([0.1, RA, 0.0]));
        assert!((p.point_a - want_a).norm() < EXACT, "{p:?} vs {want_a:?}");
        let shapes = (
            Prim::<3>::Capsule(HA, RA).shape(),
            Prim::<3>::Capsule(HB, RB).shape(),
        );
        let opts = ContactOptions::default();
        let deep = penetration(&shapes.0, &pa, &shapes.1, &pb, &opts)
            .unwrap()
            .deepest
            .unwrap();
        assert!((deep.depth - press).abs() < EXACT && (deep.normal - up).norm() < EXACT);
    }
}

/// Two logs end to end along x, their caps 1 mm into each other: one point between the caps,
/// depth -1 mm, the normal along the logs.
fn logs_end_to_end_touch_at_one_point<const D: usize>()
where
    Space<D>: Dim<D> + Oracle<D>,
{
    let g = ground::<D>();
    let along = g.transform_vector(&Space::<D>::vec([1.0, 0.0, 0.0]));
    let reach = HA + RA + RB + HB - PRESS;
    let pa = g * log::<D>(Vector::<D>::zeros(), 0.0, 0.0);
    let pb = g * log::<D>(Space::<D>::vec([reach, 0.0, 0.0]), 0.0, 0.0);
    let (c, _) = both_ways(&Prim::Capsule(HA, RA), &pa, &Prim::Capsule(HB, RB), &pb);
    let m = only_manifold(&c);
    assert_eq!(m.points.len(), 1, "{m:?}");
    assert!((m.normal - along).norm() < EXACT, "{m:?}");
    let p = m.points[0];
    assert!((p.depth + PRESS).abs() < EXACT, "{p:?}");
    let want_a = world(&g, Space::<D>::vec([HA + RA, 0.0, 0.0]));
    assert!((p.point_a - want_a).norm() < EXACT, "{p:?} vs {want_a:?}");
}

#[test]
fn logs_end_to_end_touch_at_one_point_2d() {
    logs_end_to_end_touch_at_one_point::<2>();
}

#[test]
fn logs_end_to_end_touch_at_one_point_3d() {
    logs_end_to_end_touch_at_one_point::<3>();
}
