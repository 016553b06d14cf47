//! Time of impact by conservative advancement: a spinning thin bar against a wall versus a
//! finely sampled reference, a bullet through a thin wall, two moving balls in closed form,
//! overlaps, budgets and bad input; 2D and 3D.
mod common;

use common::{axis, first_root, translation};
use fathom_ccd::{time_of_impact, CcdError, Motion, ToiOptions, ToiResult};
use fathom_math::{AngVector, Dim, Pose, Real, Space, Vector};
use fathom_sdf::{Ball, Cuboid};

/// f32 round-off on coordinates of a few metres.
const ROUND: Real = 1e-5;

/// Angular velocity `w` about the axis normal to the xy plane (the only one in 2D).
fn spin_z<const D: usize>(w: Real) -> AngVector<D>
where
    Space<D>: Dim<D>,
{
    Space::<D>::cross(&axis::<D>(0), &axis::<D>(1)) * w
}

fn corners<const D: usize>(half: &Vector<D>, pose: &Pose<D>) -> Vec<Vector<D>>
where
    Space<D>: Dim<D>,
{
    (0..1usize << D)
        .map(|m| {
            let c = Vector::<D>::from_fn(|i, _| if m & (1 << i) == 0 { -half[i] } else { half[i] });
            pose.transform_point(&c.into()).coords
        })
        .collect()
}

fn spinning_bar<const D: usize>()
where
    Space<D>: Dim<D>,
{
    // A 2 m bar, 4 cm thick, starts upright at the origin, spins at 8 rad/s and drifts at
    // 2 m/s towards a wall whose face is at x = 1.3 (the wall is 10 m tall: the bar's ends
    // always face it). Its tip sweeps into the wall at about 0.16 s, mostly by the spin.
    let mut half = Vector::<D>::repeat(0.02);
    half[0] = 1.0;
    let bar = Cuboid::new(half).unwrap();
    let mut wall_half = Vector::<D>::repeat(5.0);
    wall_half[0] = 0.05;
    let wall = Cuboid::new(wall_half).unwrap();
    let upright = Space::<D>::rotation_from_scaled_axis(&spin_z::<D>(std::f32::consts::FRAC_PI_2));
    let motion = Motion::new(
        Pose::<D>::from_parts(Vector::<D>::zeros().into(), upright),
        axis::<D>(0) * 2.0,
        spin_z::<D>(8.0),
    );
    let wall_pose = translation(axis::<D>(0) * 1.35);
    let opts = ToiOptions::default();
    let dt = 0.5;
    let r =
        time_of_impact::<D>(&bar, &motion, &wall, &Motion::fixed(wall_pose), dt, &opts).unwrap();
    // Reference: the wall's face minus the bar's furthest corner, sampled every 2.5 us and bisected.
    let gap = |t: Real| {
        1.3 - corners(&half, &motion.pose_at(t))
            .iter()
            .map(|c| c[0])
            .fold(Real::MIN, Real::max)
    };
    let t_ref = first_root(dt, 200_000, gap).expect("the bar reaches the wall within the step");
    let ToiResult::Impact {
        time,
        point,
        normal,
        point_a,
        point_b,
        ..
    } = r
    else {
        panic!("{r:?}")
    };
    // Never after contact and within epsilon of it (the gap is a distance, so this is
    // "matches within epsilon"; in time it is within epsilon / closing speed).
    assert!(
        gap(time) >= -ROUND && gap(time) <= opts.epsilon + ROUND,
        "gap {} at {time}",
        gap(time)
    );
    assert!(time <= t_ref + ROUND, "{time} after the reference {t_ref}");
    // The contact is at the bar's leading corner, on the wall's face, normal from bar to wall.
    assert!(
        (point[0] - 1.3).abs() < 2e-3 && (point_b[0] - 1.3).abs() < 2e-3,
        "{point:?}"
    );
    assert!((point_a - point_b).norm() <= opts.epsilon + 1e-3);
    assert!((normal - axis::<D>(0)).norm() < 0.05, "{normal:?}");
}

#[test]
fn spinning_bar_matches_sampled_reference() {
    spinning_bar::<2>();
    spinning_bar::<3>();
}

fn bullet<const D: usize>()
where
    Space<D>: Dim<D>,
{
    // A 5 cm ball moving 50 m in one step through a 10 cm wall 20 m away.
    let ball = Ball::new(0.05).unwrap();
    let mut wall_half = Vector::<D>::repeat(3.0);
    wall_half[0] = 0.05;
    let wall = Cuboid::new(wall_half).unwrap();
    let motion = Motion::new(
        translation(Vector::zeros()),
        axis::<D>(0) * 50.0,
        Space::<D>::ang_zero(),
    );
    let opts = ToiOptions::default();
    let r = time_of_impact::<D>(
        &ball,
        &motion,
        &wall,
        &Motion::fixed(translation(axis::<D>(0) * 20.0)),
        1.0,
        &opts,
    )
    .unwrap();
    let ToiResult::Impact { time, .. } = r else {
        panic!("tunnelled: {r:?}")
    };
    // Contact when the ball's front reaches x = 19.95: 19.9 m at 50 m/s; within epsilon.
    let exact = 19.9 / 50.0;
    assert!(
        time <= exact + ROUND && time >= exact - (opts.epsilon + ROUND) / 50.0,
        "{time} vs {exact}"
    );
}

#[test]
fn bullet_through_thin_wall_is_caught() {
    bullet::<2>();
    bullet::<3>();
}

fn two_moving_balls<const D: usize>()
where
    Space<D>: Dim<D>,
{
    let ball = Ball::new(0.5).unwrap();
    let opts = ToiOptions::default();
    let still = Space::<D>::ang_zero();
    let a = Motion::new(translation(Vector::zeros()), axis::<D>(0), spin_z::<D>(3.0));
    let b = Motion::new(translation(axis::<D>(0) * 5.0), -axis::<D>(0), still);
    // Gap 4 closing at 2 m/s: contact at 2 s (A's spin does not change a ball).
    let r = time_of_impact::<D>(&ball, &a, &ball, &b, 3.0, &opts).unwrap();
    let ToiResult::Impact {
        time,
        point,
        normal,
        ..
    } = r
    else {
        panic!("{r:?}")
    };
    assert!(
        time <= 2.0 + ROUND && time >= 2.0 - (opts.epsilon + ROUND) / 2.0,
        "{time}"
    );
    // The closest pair is located only up to the search tolerance (eps / 2): across curved
    // surfaces the gap grows quadratically, so the witness may slide sqrt(2 R_eff eps / 2)
    // (~1.6 cm for two 0.5 m balls) sideways, tilting the normal by about that over R_eff.
    assert!(
        (point - axis::<D>(0) * 2.5).norm() < 0.02 && (normal - axis::<D>(0)).norm() < 0.05,
        "{point:?} {normal:?}"
    );
    // Too short a step: no impact, proven.
    let r = time_of_impact::<D>(&ball, &a, &ball, &b, 1.5, &opts).unwrap();
    assert!(matches!(r, ToiResult::NoImpact { .. }), "{r:?}");
    // Moving apart: no impact.
    let away = Motion::new(translation(axis::<D>(0) * 5.0), axis::<D>(0), still);
    assert!(matches!(
        time_of_impact::<D>(&ball, &a, &ball, &away, 3.0, &opts).unwrap(),
        ToiResult::NoImpact { .. }
    ));
    // Overlapping at the start: an overlap, not an impact.
    let near = Motion::fixed(translation(axis::<D>(0) * 0.8));
    let r = time_of_impact::<D>(&ball, &a, &ball, &near, 3.0, &opts).unwrap();
    let ToiResult::Overlapping { depth, normal, .. } = r else {
        panic!("{r:?}")
    };
    // The deepest point of one ball inside the other: 1 - 0.8 = 0.2 deep.
    assert!(
        (depth - 0.2).abs() <= opts.epsilon && normal[0] > 0.9,
        "{depth} {normal:?}"
    );
    // One iteration is not enough to reach contact: the cap is reported with the time proven free.
    let once = ToiOptions {
        max_iterations: 1,
        ..opts
    };
    let r = time_of_impact::<D>(&ball, &a, &ball, &b, 3.0, &once).unwrap();
    let ToiResult::IterationCap {
        time_reached,
        iterations: 1,
    } = r
    else {
        panic!("{r:?}")
    };
    assert!(time_reached > 0.0 && time_reached < 2.0);
}

#[test]
fn two_moving_balls_meet_in_closed_form() {
    two_moving_balls::<2>();
    two_moving_balls::<3>();
}

fn motion_integrates_about_its_centre<const D: usize>()
where
    Space<D>: Dim<D>,
{
    let c = axis::<D>(1) * 0.5;
    let m = Motion::new(
        translation(axis::<D>(0)),
        axis::<D>(0) * 2.0,
        spin_z::<D>(std::f32::consts::PI),
    )
    .with_local_center(c);
    // The centre moves in a straight line; a point spins half a turn about it in one second.
    let p1 = m.pose_at(1.0);
    assert!((p1.transform_point(&c.into()).coords - (axis::<D>(0) * 3.0 + c)).norm() < 1e-5);
    let tip = p1.transform_point(&(c + axis::<D>(0)).into()).coords;
    assert!((tip - (axis::<D>(0) * 2.0 + c)).norm() < 1e-5, "{tip:?}");
}

#[test]
fn motion_spins_about_its_local_center() {
    motion_integrates_about_its_centre::<2>();
    motion_integrates_about_its_centre::<3>();
}

#[test]
fn bad_motion_is_a_typed_error() {
    let ball = Ball::new(0.5).unwrap();
    let opts = ToiOptions::default();
    let ok = Motion::<3>::fixed(translation(Vector::zeros()));
    let nan_v = Motion::<3>::new(
        translation(Vector::zeros()),
        Vector::repeat(Real::NAN),
        Vector::zeros(),
    );
    let nan_w = Motion::<2>::new(
        translation(Vector::zeros()),
        Vector::zeros(),
        Real::INFINITY,
    );
    let mut bad_pose = ok;
    bad_pose.pose.translation.vector.y = Real::NAN;
    let e = |r: Result<ToiResult<3>, CcdError>| r.unwrap_err();
    assert_eq!(
        e(time_of_impact(&ball, &nan_v, &ball, &ok, 1.0, &opts)),
        CcdError::NonFiniteVector { field: "motion_a" }
    );
    assert_eq!(
        e(time_of_impact(&ball, &ok, &ball, &bad_pose, 1.0, &opts)),
        CcdError::NonFinitePose { field: "motion_b" }
    );
    assert_eq!(
        e(time_of_impact(&ball, &ok, &ball, &ok, -1.0, &opts)),
        CcdError::Negative {
            field: "dt",
            value: -1.0
        }
    );
    let ok2 = Motion::<2>::fixed(translation(Vector::zeros()));
    let e2 = time_of_impact(&ball, &nan_w, &ball, &ok2, 1.0, &opts).unwrap_err();
    assert_eq!(e2, CcdError::NonFiniteVector { field: "motion_a" });
    let zero = ToiOptions {
        epsilon: 0.0,
        ..opts
    };
    assert!(matches!(
        time_of_impact(&ball, &ok, &ball, &ok, 1.0, &zero),
        Err(CcdError::NonPositive {
            field: "epsilon",
            ..
        })
    ));
}
