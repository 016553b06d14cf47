//! Sphere and ray casts: the seed's worked example, the four outcomes, the thin wall,
//! grazing paths and bad input; every behaviour runs in 2D and 3D.
mod common;

use common::{axis, bisect, Rng};
use fathom_ccd::{ray_cast, sphere_cast, CastOptions, CastResult, CcdError};
use fathom_math::{Real, Vector};
use fathom_sdf::{Ball, Cuboid, Sdf};

/// f32 round-off on coordinates up to ~50 m (about 50 * 6e-8 = 3e-6, with margin).
const ROUND: Real = 1e-5;

fn seed_example<const D: usize>() {
    // Seed 001: radius 0.25 from (4, 0, 0) along -x at the unit sphere, max 4:
    // d = 4 - 1 - 0.25 = 2.75 at the start, so one step lands exactly on contact.
    let ball = Ball::new(1.0).unwrap();
    for clip_to_bounds in [true, false] {
        let opts = CastOptions {
            clip_to_bounds,
            ..CastOptions::default()
        };
        let r = sphere_cast::<D>(
            &ball,
            &(axis::<D>(0) * 4.0),
            &-axis::<D>(0),
            0.25,
            4.0,
            &opts,
        )
        .unwrap();
        let CastResult::Hit {
            distance,
            fraction,
            center,
            point,
            normal,
            steps,
        } = r
        else {
            panic!("{r:?}")
        };
        assert!((distance - 2.75).abs() < 1e-6, "{distance}");
        assert_eq!(steps, 1, "one step, as in the seed");
        assert!((fraction - 2.75 / 4.0).abs() < 1e-6);
        assert!((center - axis::<D>(0) * 1.25).norm() < 1e-6);
        assert!(
            (point - axis::<D>(0)).norm() < 1e-6,
            "contact on the unit sphere: {point:?}"
        );
        assert!((normal - axis::<D>(0)).norm() < 1e-6);
    }
}

#[test]
fn seed_worked_example() {
    seed_example::<2>();
    seed_example::<3>();
}

fn starts_inside<const D: usize>() {
    let ball = Ball::new(1.0).unwrap();
    let opts = CastOptions::default();
    // Centre 0.5 deep in the unit ball with radius 0.25: the overlap is 1 - 0.5 + 0.25.
    let r = sphere_cast::<D>(
        &ball,
        &(axis::<D>(0) * 0.5),
        &axis::<D>(1),
        0.25,
        3.0,
        &opts,
    )
    .unwrap();
    let CastResult::StartedInside {
        point,
        normal,
        depth,
    } = r
    else {
        panic!("{r:?}")
    };
    assert!(
        (depth - 0.75).abs() < 1e-6,
        "1 - 0.5 + 0.25 = 0.75, got {depth}"
    );
    assert!((normal - axis::<D>(0)).norm() < 1e-6 && (point - axis::<D>(0)).norm() < 1e-6);
    assert_eq!(r.hit_distance(), Some(0.0));
    // Touching within epsilon at the start is a hit at t = 0, not an overlap.
    let touching = axis::<D>(0) * (1.25 + 0.5 * opts.epsilon);
    let r = sphere_cast::<D>(&ball, &touching, &axis::<D>(0), 0.25, 3.0, &opts).unwrap();
    assert!(
        matches!(r, CastResult::Hit { distance, steps: 0, .. } if distance == 0.0),
        "{r:?}"
    );
}

#[test]
fn starting_inside_is_an_overlap_at_zero() {
    starts_inside::<2>();
    starts_inside::<3>();
}

fn step_cap<const D: usize>() {
    // A ray parallel to a wall face, 3 mm above it: clear, but each step is only 3 mm long.
    let wall = Cuboid::new(Vector::<D>::repeat(5.0)).unwrap();
    let origin = axis::<D>(0) * -4.0 + axis::<D>(1) * 5.003;
    // The march's cap: a box's closed form would answer without steps.
    let opts = CastOptions {
        max_steps: 10,
        clip_to_bounds: false,
        closed_form: false,
        ..CastOptions::default()
    };
    let r = ray_cast::<D>(&wall, &origin, &axis::<D>(0), 8.0, &opts).unwrap();
    let CastResult::StepCap {
        distance_reached,
        steps,
    } = r
    else {
        panic!("{r:?}")
    };
    assert_eq!(steps, 10);
    // Each step is the clearance (3 mm, f32): ten of them.
    assert!((distance_reached - 0.03).abs() < 1e-4, "{distance_reached}");
    assert!(!r.is_contact());
    // With enough steps the same cast is a proven miss.
    let opts = CastOptions {
        max_steps: 20_000,
        ..opts
    };
    assert!(matches!(
        ray_cast::<D>(&wall, &origin, &axis::<D>(0), 8.0, &opts).unwrap(),
        CastResult::Miss { .. }
    ));
}

#[test]
fn step_cap_is_reported_not_a_miss() {
    step_cap::<2>();
    step_cap::<3>();
}

fn misses_and_limits<const D: usize>() {
    let ball = Ball::new(1.0).unwrap();
    let opts = CastOptions::default();
    let origin = axis::<D>(0) * 4.0;
    // Away from the ball: outside its bounds at once, no step.
    let r = ray_cast::<D>(&ball, &origin, &axis::<D>(0), 10.0, &opts).unwrap();
    assert_eq!(r, CastResult::Miss { steps: 0 });
    // Towards it but stopping short (surface at 3).
    let r = ray_cast::<D>(&ball, &origin, &-axis::<D>(0), 2.9, &opts).unwrap();
    assert!(matches!(r, CastResult::Miss { .. }), "{r:?}");
    // Ending exactly on the surface is a hit at max_dist.
    let r = ray_cast::<D>(&ball, &origin, &-axis::<D>(0), 3.0, &opts).unwrap();
    assert!(
        matches!(r, CastResult::Hit { distance, fraction, .. } if (distance - 3.0).abs() < 1e-5 && fraction == 1.0),
        "{r:?}"
    );
    // Without bound clipping the march reaches the same answers.
    let unclipped = CastOptions {
        clip_to_bounds: false,
        ..opts
    };
    assert!(matches!(
        ray_cast::<D>(&ball, &origin, &axis::<D>(0), 10.0, &unclipped).unwrap(),
        CastResult::Miss { .. }
    ));
    let r = ray_cast::<D>(&ball, &origin, &-axis::<D>(1), 10.0, &unclipped).unwrap();
    assert!(
        matches!(r, CastResult::Miss { .. }),
        "a ray along -y from (4, 0) never meets the unit ball: {r:?}"
    );
    // max_dist 0: only the start is tested.
    let r = sphere_cast::<D>(&ball, &origin, &axis::<D>(0), 0.5, 0.0, &opts).unwrap();
    assert!(matches!(r, CastResult::Miss { .. }), "{r:?}");
}

#[test]
fn misses_stop_at_max_dist_and_bounds() {
    misses_and_limits::<2>();
    misses_and_limits::<3>();
}

/// The thin wall of the issue: 0.1 thick across x, 4 wide on the other axes.
fn wall<const D: usize>() -> Cuboid<D> {
    let mut half = Vector::<D>::repeat(2.0);
    half[0] = 0.05;
    Cuboid::new(half).unwrap()
}

fn thin_wall_is_never_tunnelled<const D: usize>(radius: Real, seed: u64) {
    let wall = wall::<D>();
    let mut rng = Rng::new(seed);
    let opts = CastOptions::default();
    for _ in 0..1000 {
        // A path of 50 m through a point of the wall's mid-plane, coming from -x at any angle
        // with at least 0.2 of its motion across the wall.
        let mut target = rng.vector::<D>(1.9);
        target[0] = 0.0;
        let dir = loop {
            let d = rng.unit::<D>();
            if d[0] >= 0.2 {
                break d;
            }
        };
        let reach = (0.05 + radius + 0.01) / dir[0];
        let s = rng.range(reach, 45.0);
        let origin = target - dir * s;
        let r = sphere_cast::<D>(&wall, &origin, &dir, radius, 50.0, &opts).unwrap();
        let gap = |t: Real| wall.distance(&(origin + dir * t)) - radius;
        // The gap is convex along the path, positive at 0 and negative at the mid-plane.
        let exact = bisect(0.0, s, gap);
        let CastResult::Hit {
            distance, center, ..
        } = r
        else {
            panic!("tunnelled: {r:?}")
        };
        let g = wall.distance(&center) - radius;
        assert!(g >= -ROUND, "reported past the wall: gap {g}");
        assert!(
            g < opts.epsilon + ROUND,
            "caught within epsilon of contact: gap {g}"
        );
        assert!(
            distance <= exact + ROUND,
            "hit {distance} after the exact contact {exact}"
        );
    }
}

#[test]
fn ball_through_thin_wall_is_caught() {
    thin_wall_is_never_tunnelled::<2>(0.2, 1);
    thin_wall_is_never_tunnelled::<3>(0.2, 2);
    // A ray (radius 0) through the same wall.
    thin_wall_is_never_tunnelled::<2>(0.0, 3);
    thin_wall_is_never_tunnelled::<3>(0.0, 4);
}

fn grazing_paths_miss<const D: usize>() {
    let wall = wall::<D>();
    let radius = 0.2;
    let mut rng = Rng::new(7);
    let opts = CastOptions::default();
    for _ in 0..300 {
        // Cross the wall's plane beyond its +y edge with a clearance of 10-100 epsilon:
        // with no y motion the clearance from the inflated wall is exactly that.
        let clearance = rng.range(10.0, 100.0) * opts.epsilon;
        let mut dir = rng.unit::<D>();
        dir[1] = 0.0;
        if dir[0] < 0.5 {
            dir[0] = 0.5 + dir[0].abs();
        }
        let dir = dir.normalize();
        let mut cross = rng.vector::<D>(1.5);
        cross[0] = 0.0;
        cross[1] = 2.0 + radius + clearance;
        let origin = cross - dir * rng.range(1.0, 40.0);
        let r = sphere_cast::<D>(&wall, &origin, &dir, radius, 50.0, &opts).unwrap();
        assert!(
            matches!(r, CastResult::Miss { .. }),
            "clearance {clearance}: {r:?}"
        );
    }
    // The tightest grazing the epsilon allows (2 epsilon) is still a miss, given the steps
    // to cross the 0.1 m face at 2e-4 m per step.
    let origin = axis::<D>(0) * -10.0 + axis::<D>(1) * (2.0 + radius + 2.0 * opts.epsilon);
    let opts = CastOptions {
        max_steps: 4096,
        ..opts
    };
    let r = sphere_cast::<D>(&wall, &origin, &axis::<D>(0), radius, 50.0, &opts).unwrap();
    assert!(matches!(r, CastResult::Miss { .. }), "{r:?}");
}

#[test]
fn grazing_paths_beyond_epsilon_are_misses() {
    grazing_paths_miss::<2>();
    grazing_paths_miss::<3>();
}

/// A field that reports a NaN distance or a broken Lipschitz constant.
struct Broken(Real, Real);

impl<const D: usize> Sdf<D> for Broken {
    fn distance(&self, _p: &Vector<D>) -> Real {
        self.0
    }
    fn bounds(&self) -> fathom_math::Aabb<D> {
        fathom_math::Aabb::from_center_half_extents(Vector::zeros(), Vector::repeat(1.0))
    }
    fn lipschitz(&self) -> Real {
        self.1
    }
}

fn bad_input<const D: usize>() {
    let ball = Ball::new(1.0).unwrap();
    let o = axis::<D>(0) * 3.0;
    let d = -axis::<D>(0);
    let opts = CastOptions::default();
    let err = |o: Vector<D>, d: Vector<D>, r: Real, m: Real, opts: &CastOptions| {
        sphere_cast::<D>(&ball, &o, &d, r, m, opts).unwrap_err()
    };
    assert_eq!(
        err(o, Vector::zeros(), 0.1, 1.0, &opts),
        CcdError::ZeroVector { field: "dir" }
    );
    assert_eq!(
        err(o, d * Real::NAN, 0.1, 1.0, &opts),
        CcdError::NonFiniteVector { field: "dir" }
    );
    assert_eq!(
        err(o * Real::INFINITY, d, 0.1, 1.0, &opts),
        CcdError::NonFiniteVector { field: "origin" }
    );
    assert_eq!(
        err(o, d, -0.1, 1.0, &opts),
        CcdError::Negative {
            field: "radius",
            value: -0.1
        }
    );
    assert_eq!(
        err(o, d, 0.1, -1.0, &opts),
        CcdError::Negative {
            field: "max_dist",
            value: -1.0
        }
    );
    assert!(matches!(
        err(o, d, 0.1, Real::INFINITY, &opts),
        CcdError::NonFinite {
            field: "max_dist",
            ..
        }
    ));
    assert!(matches!(
        err(o, d, Real::NAN, 1.0, &opts),
        CcdError::NonFinite {
            field: "radius",
            ..
        }
    ));
    let zero_eps = CastOptions {
        epsilon: 0.0,
        ..opts
    };
    assert!(matches!(
        err(o, d, 0.1, 1.0, &zero_eps),
        CcdError::NonPositive {
            field: "epsilon",
            ..
        }
    ));
    // A non-unit direction is normalised: distances are along the unit direction.
    let r = sphere_cast::<D>(&ball, &o, &(d * 7.0), 0.0, 5.0, &opts).unwrap();
    assert!(matches!(r, CastResult::Hit { distance, .. } if (distance - 2.0).abs() < 1e-5));
    // Broken shapes are errors, never NaN results.
    let nan = sphere_cast::<D>(&Broken(Real::NAN, 1.0), &o, &d, 0.1, 5.0, &opts).unwrap_err();
    assert_eq!(nan, CcdError::NanDistance { field: "sdf" });
    let flat = sphere_cast::<D>(&Broken(1.0, 0.0), &o, &d, 0.1, 5.0, &opts).unwrap_err();
    assert_eq!(
        flat,
        CcdError::BadLipschitz {
            field: "sdf",
            value: 0.0
        }
    );
}

#[test]
fn bad_input_is_a_typed_error() {
    bad_input::<2>();
    bad_input::<3>();
}

/// Sphere cast at a ball in closed form: the centre meets the ball inflated by the radius.
fn against_inflated_ball<const D: usize>(origin: Vector<D>, dir: Vector<D>, r: Real, rb: Real) {
    let Some(dir) = dir.try_normalize(1e-3) else {
        return;
    };
    let opts = CastOptions::default();
    let res = sphere_cast::<D>(&Ball::new(rb).unwrap(), &origin, &dir, r, 10.0, &opts).unwrap();
    let big = rb + r;
    let (b, c) = (origin.dot(&dir), origin.norm_squared() - big * big);
    let disc = b * b - c;
    match res {
        CastResult::StartedInside { depth, .. } => {
            assert!(
                c < 0.0 && (depth - (big - origin.norm())).abs() < 1e-4,
                "{depth}"
            );
        }
        CastResult::Hit {
            distance, center, ..
        } => {
            let gap = center.norm() - big;
            assert!((-ROUND..opts.epsilon + ROUND).contains(&gap), "gap {gap}");
            // Entry cosine sqrt(disc) / big: a gap of epsilon is epsilon / cos along the path.
            let cos = disc.max(0.0).sqrt() / big;
            if cos > 0.05 {
                let exact = -b - disc.sqrt();
                assert!(
                    distance <= exact + ROUND && distance >= exact - (opts.epsilon + ROUND) / cos
                );
            }
        }
        CastResult::Miss { .. } => {
            // Never entering the inflated ball: no real root ahead within 10 m.
            let enters = disc > 0.0 && -b - disc.sqrt() <= 10.0 && -b + disc.sqrt() >= 0.0;
            assert!(!enters || disc.sqrt() < 1e-3, "missed an entering path");
        }
        other => panic!("{other:?}"),
    }
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(128))]
    #[test]
    fn sphere_cast_matches_closed_form(
        o in proptest::array::uniform3(-5.0f32..5.0),
        d in proptest::array::uniform3(-1.0f32..1.0),
        r in 0.0f32..0.5,
        rb in 0.2f32..1.5,
    ) {
        against_inflated_ball::<2>(Vector::<2>::new(o[0], o[1]), Vector::<2>::new(d[0], d[1]), r, rb);
        against_inflated_ball::<3>(Vector::<3>::from(o), Vector::<3>::from(d), r, rb);
    }
}
