//! Ray, sphere and capsule casts and translational time of impact against parry's
//! `cast_ray` / `cast_shapes` (ball, cuboid, capsule), in 2D and 3D.
mod common;

use common::oracle::{Convex, Oracle};
use common::{convex_first_root, golden_min, Rng};
use fathom_ccd::{
    cast_posed, time_of_impact, CastOptions, CastResult, CastShape, Motion, ToiOptions, ToiResult,
};
use fathom_math::{Dim, Pose, Real, Space, Vector};

/// Agreement tolerance, metres: parry's GJK-based casts stop within ~1e-5 in f32 and our
/// f32 positions of magnitude ~5 carry ~1e-6; 1e-4 leaves room for both and is what the
/// tests assert on top of the cast epsilon.
const TOL: Real = 1e-4;
/// Below this cosine between the direction and the normal a cast is grazing and a contact
/// within epsilon of the surface may sit far along the path from parry's exact touch.
const MIN_COS: Real = 0.2;

fn targets<const D: usize>(rng: &mut Rng) -> [Convex<D>; 3] {
    let half = Vector::<D>::from_fn(|_, _| rng.range(0.2, 1.0));
    [
        Convex::Ball(0.7),
        Convex::Cuboid(half),
        Convex::Capsule {
            half_height: 0.6,
            radius: 0.3,
        },
    ]
}

fn translation<const D: usize>(v: Vector<D>) -> Pose<D>
where
    Space<D>: Dim<D>,
{
    Pose::<D>::from_parts(
        v.into(),
        Space::<D>::rotation_from_scaled_axis(&Space::<D>::ang_zero()),
    )
}

/// One random cast set-up: a posed target and a path from 3-5 m away aimed near it.
fn aim<const D: usize>(rng: &mut Rng) -> (Pose<D>, Vector<D>, Vector<D>)
where
    Space<D>: Dim<D>,
{
    let pose = rng.pose::<D>(1.0);
    let c = pose.translation.vector;
    let origin = c + rng.unit::<D>() * rng.range(3.0, 5.0);
    let dir = (c + rng.vector::<D>(0.8) - origin).normalize();
    (pose, origin, dir)
}

/// The exact answer for a cast: first contact `Some((distance, cos))` (cos of the contact
/// normal with the direction) and the smallest gap along the path.
struct Reference {
    hit: Option<(Real, Real)>,
    min_gap: Real,
}

/// Exact reference of a cast whose gap `gap(t)` is convex in `t` (convex shapes translating),
/// with `normal(t)` the target's outward normal at the closest point at `t`.
fn reference<const D: usize>(
    dir: &Vector<D>,
    max: Real,
    gap: impl Fn(Real) -> Real,
    normal: impl Fn(Real) -> Vector<D>,
) -> Reference {
    let (t, min_gap) = convex_first_root(max, &gap);
    Reference {
        hit: t.map(|t| (t, normal(t).dot(dir).abs())),
        min_gap,
    }
}

/// Checks our cast against the exact reference, the exact gap at our centre (`gap_at`),
/// and parry's time of impact (`parry`, with `origin` and `dir` to measure parry's own gap).
fn agree<const D: usize>(
    ours: CastResult<D>,
    exact: &Reference,
    parry: Option<Real>,
    (origin, dir): (&Vector<D>, &Vector<D>),
    gap_at: impl Fn(&Vector<D>) -> Real,
    eps: Real,
) {
    match ours {
        CastResult::Hit {
            distance, center, ..
        } => {
            let gap = gap_at(&center);
            // Never past the surface, and within epsilon of it.
            assert!(
                gap >= -TOL && gap <= eps + TOL,
                "gap {gap} at hit {distance}"
            );
            // Translating convex shapes close at rate >= cos near contact, so a gap e is at most
            // e / cos along the path; grazing paths (cos < MIN_COS) rely on the gap check above.
            if let Some((t, cos)) = exact.hit.filter(|&(_, cos)| cos >= MIN_COS) {
                assert!(
                    distance <= t + TOL / cos,
                    "ours {distance} later than exact {t}"
                );
                assert!(
                    distance >= t - (eps + TOL) / cos,
                    "ours {distance} too early vs exact {t}"
                );
                // parry agrees up to the gap it leaves itself (its ball-capsule casts stop up to
                // a few 1e-3 inside), which is measured with the exact gap.
                if let Some(toi) = parry {
                    let parry_err = gap_at(&(origin + dir * toi)).abs();
                    let slack = (eps + parry_err + TOL) / cos;
                    assert!(
                        (distance - toi).abs() <= slack,
                        "ours {distance} vs parry {toi} (err {parry_err})"
                    );
                }
            }
        }
        // A miss must be a path that never enters the shape.
        CastResult::Miss { .. } => assert!(
            exact.min_gap >= -TOL,
            "missed a path reaching gap {}",
            exact.min_gap
        ),
        other => panic!("unexpected {other:?}, exact {:?}", exact.hit),
    }
}

fn ray_casts<const D: usize>()
where
    Space<D>: Dim<D> + Oracle<D>,
{
    let mut rng = Rng::new(11 + D as u64);
    let opts = CastOptions::default();
    let (mut hits, mut misses) = (0, 0);
    for _ in 0..150 {
        for shape in targets::<D>(&mut rng) {
            let (pose, origin, dir) = aim::<D>(&mut rng);
            let sdf = shape.fathom();
            let ours =
                cast_posed(&*sdf, &pose, &CastShape::ray(), &origin, &dir, 10.0, &opts).unwrap();
            let local = |p: &Vector<D>| pose.inverse_transform_point(&(*p).into()).coords;
            let gap_at = |c: &Vector<D>| sdf.distance(&local(c));
            let at = |t: Real| origin + dir * t;
            let normal = |t: Real| pose.transform_vector(&sdf.gradient(&local(&at(t))));
            let exact = reference(&dir, 10.0, |t| gap_at(&at(t)), normal);
            let parry = <Space<D> as Oracle<D>>::cast_ray(&shape, &pose, &origin, &dir, 10.0);
            assert_eq!(
                parry.is_some(),
                exact.hit.is_some(),
                "parry and the exact reference agree on hit or miss"
            );
            if parry.is_some() {
                hits += 1
            } else {
                misses += 1
            }
            agree(ours, &exact, parry, (&origin, &dir), gap_at, opts.epsilon);
        }
    }
    assert!(
        hits > 100 && misses > 20,
        "the cases cover both outcomes: {hits} hits, {misses} misses"
    );
}

#[test]
fn ray_casts_match_exact_and_parry() {
    ray_casts::<2>();
    ray_casts::<3>();
}

fn sphere_casts<const D: usize>()
where
    Space<D>: Dim<D> + Oracle<D>,
{
    let mut rng = Rng::new(21 + D as u64);
    let opts = CastOptions::default();
    for _ in 0..150 {
        for shape in targets::<D>(&mut rng) {
            let (pose, origin, dir) = aim::<D>(&mut rng);
            let r = rng.range(0.05, 0.5);
            let sdf = shape.fathom();
            let ours = cast_posed(
                &*sdf,
                &pose,
                &CastShape::Ball { radius: r },
                &origin,
                &dir,
                10.0,
                &opts,
            )
            .unwrap();
            let local = |p: &Vector<D>| pose.inverse_transform_point(&(*p).into()).coords;
            let gap_at = |c: &Vector<D>| sdf.distance(&local(c)) - r;
            let at = |t: Real| origin + dir * t;
            let normal = |t: Real| pose.transform_vector(&sdf.gradient(&local(&at(t))));
            let exact = reference(&dir, 10.0, |t| gap_at(&at(t)), normal);
            let ball = Convex::Ball(r);
            let parry = <Space<D> as Oracle<D>>::cast_shapes(
                &ball,
                &translation(origin),
                &dir,
                &shape,
                &pose,
                10.0,
            )
            .map(|h| h.toi);
            agree(ours, &exact, parry, (&origin, &dir), gap_at, opts.epsilon);
        }
    }
}

#[test]
fn sphere_casts_match_exact_and_parry() {
    sphere_casts::<2>();
    sphere_casts::<3>();
}

/// The exact gap of a capsule (segment `c +- a`, radius `r`) to a convex field: the
/// distance to a convex set is convex along the segment.
fn segment_gap<const D: usize>(
    sdf: &dyn Fn(&Vector<D>) -> Real,
    c: &Vector<D>,
    a: &Vector<D>,
    r: Real,
) -> (Real, Vector<D>) {
    let (s, g) = golden_min(-1.0, 1.0, |s| sdf(&(c + a * s)));
    (g - r, c + a * s)
}

fn capsule_casts<const D: usize>()
where
    Space<D>: Dim<D> + Oracle<D>,
{
    let mut rng = Rng::new(31 + D as u64);
    let opts = CastOptions::default();
    for _ in 0..100 {
        for shape in targets::<D>(&mut rng) {
            let (pose, origin, dir) = aim::<D>(&mut rng);
            let (half_axis, r) = (rng.unit::<D>() * rng.range(0.1, 0.8), rng.range(0.05, 0.4));
            let sdf = shape.fathom();
            let cast = CastShape::Capsule {
                half_axis,
                radius: r,
            };
            let ours = cast_posed(&*sdf, &pose, &cast, &origin, &dir, 10.0, &opts).unwrap();
            let local = |p: &Vector<D>| pose.inverse_transform_point(&(*p).into()).coords;
            let world_field = |p: &Vector<D>| sdf.distance(&local(p));
            let gap_at = |c: &Vector<D>| segment_gap(&world_field, c, &half_axis, r).0;
            let at = |t: Real| origin + dir * t;
            let normal = |t: Real| {
                let q = segment_gap(&world_field, &at(t), &half_axis, r).1;
                pose.transform_vector(&sdf.gradient(&local(&q)))
            };
            let exact = reference(&dir, 10.0, |t| gap_at(&at(t)), normal);
            let start = translation(origin);
            let parry = <Space<D> as Oracle<D>>::cast_segment(
                &half_axis, r, &start, &dir, &shape, &pose, 10.0,
            )
            .map(|h| h.toi);
            agree(ours, &exact, parry, (&origin, &dir), gap_at, opts.epsilon);
        }
    }
}

#[test]
fn capsule_casts_match_exact_and_parry() {
    capsule_casts::<2>();
    capsule_casts::<3>();
}

/// The exact signed distance between two posed convex shapes: closed forms when one is a
/// ball or a capsule (a convex minimisation along its segment), parry's SAT for two cuboids.
fn pair_gap<const D: usize>(sa: &Convex<D>, pa: &Pose<D>, sb: &Convex<D>, pb: &Pose<D>) -> Real
where
    Space<D>: Dim<D> + Oracle<D>,
{
    let field = |s: &Convex<D>, p: &Pose<D>| {
        let sdf = s.fathom();
        let p = *p;
        move |x: &Vector<D>| sdf.distance(&p.inverse_transform_point(&(*x).into()).coords)
    };
    let axis_y = |p: &Pose<D>, hh: Real| p.transform_vector(&common::axis::<D>(1)) * hh;
    match (sa, sb) {
        (Convex::Ball(r), other) => field(other, pb)(&pa.translation.vector) - r,
        (other, Convex::Ball(r)) => field(other, pa)(&pb.translation.vector) - r,
        (
            Convex::Capsule {
                half_height,
                radius,
            },
            _,
        ) => {
            segment_gap(
                &field(sb, pb),
                &pa.translation.vector,
                &axis_y(pa, *half_height),
                *radius,
            )
            .0
        }
        (
            _,
            Convex::Capsule {
                half_height,
                radius,
            },
        ) => {
            segment_gap(
                &field(sa, pa),
                &pb.translation.vector,
                &axis_y(pb, *half_height),
                *radius,
            )
            .0
        }
        _ => <Space<D> as Oracle<D>>::signed_distance(sa, pa, sb, pb),
    }
}

fn translational_toi<const D: usize>()
where
    Space<D>: Dim<D> + Oracle<D>,
{
    let mut rng = Rng::new(41 + D as u64);
    let opts = ToiOptions::default();
    let mut impacts = 0;
    for _ in 0..40 {
        let shapes_a = targets::<D>(&mut rng);
        let shapes_b = targets::<D>(&mut rng);
        for (sa, sb) in shapes_a.iter().zip(shapes_b.iter().rev()) {
            let pose_a = rng.pose::<D>(0.5);
            let mut pose_b = rng.pose::<D>(0.0);
            pose_b.translation.vector = pose_a.translation.vector + rng.unit::<D>() * 3.5;
            if pair_gap(sa, &pose_a, sb, &pose_b) < 0.05 {
                continue;
            }
            let v = (pose_b.translation.vector - pose_a.translation.vector) * rng.range(0.5, 1.5)
                + rng.vector::<D>(0.6);
            let (a, b) = (sa.fathom(), sb.fathom());
            let motion_a = Motion::new(pose_a, v, Space::<D>::ang_zero());
            let ours =
                time_of_impact(&*a, &motion_a, &*b, &Motion::fixed(pose_b), 1.0, &opts).unwrap();
            let moved = |t: Real| motion_a.pose_at(t);
            let (exact, min_gap) = convex_first_root(1.0, |t| pair_gap(sa, &moved(t), sb, &pose_b));
            let parry = <Space<D> as Oracle<D>>::cast_shapes(sa, &pose_a, &v, sb, &pose_b, 1.0)
                .map(|h| h.toi);
            match ours {
                ToiResult::Impact {
                    time,
                    pose_a: at,
                    pose_b: bt,
                    ..
                } => {
                    impacts += 1;
                    let gap = pair_gap(sa, &at, sb, &bt);
                    // Never past contact, within epsilon of it.
                    assert!(
                        gap >= -TOL && gap <= opts.epsilon + TOL,
                        "gap {gap} at {time}, exact {exact:?}"
                    );
                    let t = exact.expect(
                        "an impact needs a path that reaches contact (up to the gap check)",
                    );
                    // Time is never later than the exact contact (TOL of gap at the closing speed).
                    assert!(
                        time <= t + TOL / v.norm(),
                        "ours {time} later than exact {t}"
                    );
                    if let Some(toi) = parry {
                        // parry's cast stops within its own gap error of contact; both are early-or-at.
                        let parry_err = pair_gap(sa, &moved(toi), sb, &pose_b).abs();
                        assert!(
                            time <= toi + (parry_err + TOL) / v.norm(),
                            "ours {time} later than parry {toi}"
                        );
                    }
                }
                ToiResult::NoImpact { .. } => assert!(
                    min_gap >= -TOL,
                    "no impact but the path reaches gap {min_gap}"
                ),
                other => panic!("{sa:?} {sb:?} ours {other:?} vs exact {exact:?}"),
            }
        }
    }
    assert!(impacts > 40, "most aimed motions collide: {impacts}");
}

#[test]
fn translational_time_of_impact_matches_exact_and_parry() {
    translational_toi::<2>();
    translational_toi::<3>();
}
