//! Joint behaviour against closed forms, each test written once and run in 2D and 3D.

use fathom_math::{AngVector, Dim, Real, Space, Vector};
use fathom_world::{
    BodyDesc, BodyHandle, ColliderDesc, JointDesc, JointKind, PrismaticJoint, RevoluteJoint, Shape,
    SphericalJoint, World, WorldSettings,
};
use std::f32::consts::PI;

const G: Real = 9.81;

fn v<const D: usize>(x: Real, y: Real) -> Vector<D> {
    let mut p = Vector::<D>::zeros();
    p[0] = x;
    p[1] = y;
    p
}

fn world<const D: usize>() -> World<D>
where
    Space<D>: Dim<D>,
{
    World::new(WorldSettings::default()).expect("valid settings")
}

fn anchor_body<const D: usize>(w: &mut World<D>) -> BodyHandle
where
    Space<D>: Dim<D>,
{
    w.add_body(&BodyDesc::fixed()).expect("valid static body")
}

fn ball<const D: usize>(w: &mut World<D>, p: Vector<D>, r: Real) -> BodyHandle
where
    Space<D>: Dim<D>,
{
    let c = ColliderDesc::new(Shape::<D>::ball(r).expect("positive radius"));
    w.add_body(&BodyDesc::dynamic().position(p).collider(c))
        .expect("valid ball")
}

/// The hinge axis every revolute joint here uses (z), as an angular vector.
fn hinge_axis<const D: usize>() -> AngVector<D>
where
    Space<D>: Dim<D>,
{
    RevoluteJoint::<D>::default().axis
}

/// Angle of the bob at `p` about the pivot at the origin, measured from straight down.
fn swing_angle<const D: usize>(p: &Vector<D>) -> Real {
    p[0].atan2(-p[1])
}

fn pendulum_period<const D: usize>()
where
    Space<D>: Dim<D>,
{
    let mut w = world::<D>();
    let pivot = anchor_body(&mut w);
    let (l, theta0): (Real, Real) = (1.0, 0.05);
    let bob_pos = v::<D>(l * theta0.sin(), -l * theta0.cos());
    // A 2 cm ball: its own inertia changes the period by (2/5)(r/L)² = 0.016 %.
    let bob = ball(&mut w, bob_pos, 0.02);
    w.add_joint(pivot, bob, &JointDesc::revolute().anchor_b(-bob_pos))
        .expect("valid joint");
    let dt = w.settings().dt;
    let mut prev = swing_angle(&bob_pos);
    let mut crossings = Vec::new();
    for step in 1..=400 {
        w.step();
        let a = swing_angle(&w.body(bob).unwrap().position());
        if prev > 0.0 && a <= 0.0 || prev < 0.0 && a >= 0.0 {
            // Linear interpolation of the zero crossing within the step.
            crossings.push((step as Real - 1.0 + prev / (prev - a)) * dt);
        }
        prev = a;
    }
    assert!(
        crossings.len() >= 5,
        "D={D}: only {} crossings",
        crossings.len()
    );
    let half_periods = crossings.len() - 1;
    let period = 2.0 * (crossings[half_periods] - crossings[0]) / half_periods as Real;
    let expected = 2.0 * PI * (l / G).sqrt();
    // The bound: 1 %. The amplitude (0.05 rad) adds theta0²/16 = 0.016 %.
    let err = (period - expected).abs() / expected;
    assert!(
        err < 0.01,
        "D={D}: period {period} s vs {expected} s ({:.3} %)",
        err * 100.0
    );
}

#[test]
fn pendulum_swings_with_the_small_angle_period() {
    pendulum_period::<2>();
    pendulum_period::<3>();
}

fn chain_stretch<const D: usize>()
where
    Space<D>: Dim<D>,
{
    let mut w = world::<D>();
    let top = anchor_body(&mut w);
    let (links, spacing) = (20, 0.25);
    let mut prev = top;
    let mut prev_anchor = Vector::<D>::zeros();
    let mut last = top;
    for i in 1..=links {
        let p = v::<D>(0.0, -spacing * i as Real);
        let link = ball(&mut w, p, 0.1);
        // The joint sits at the previous link's centre (the pivot for the first link).
        let joint = JointDesc::revolute()
            .anchor_a(prev_anchor)
            .anchor_b(v::<D>(0.0, spacing));
        w.add_joint(prev, link, &joint).expect("valid joint");
        prev = link;
        prev_anchor = Vector::zeros();
        last = link;
    }
    for _ in 0..120 {
        w.step();
    }
    let length = w.body(last).unwrap().position().norm();
    let nominal = spacing * links as Real;
    let stretch = (length - nominal) / nominal;
    // The bound: total stretch under 1 % of the chain's length.
    assert!(
        stretch.abs() < 0.01,
        "D={D}: stretch {:.3} %",
        stretch * 100.0
    );
}

#[test]
fn chain_of_twenty_links_hangs_without_stretching() {
    chain_stretch::<2>();
    chain_stretch::<3>();
}

/// A wheel of radius 0.5 hinged at its centre to a static body (gravity has no moment).
fn wheel<const D: usize>(joint: RevoluteJoint<D>) -> (World<D>, BodyHandle)
where
    Space<D>: Dim<D>,
{
    let mut w = world::<D>();
    let pivot = anchor_body(&mut w);
    let wheel = ball(&mut w, Vector::zeros(), 0.5);
    w.add_joint(pivot, wheel, &JointDesc::new(joint))
        .expect("valid joint");
    (w, wheel)
}

fn spin<const D: usize>(w: &World<D>, h: BodyHandle) -> Real
where
    Space<D>: Dim<D>,
{
    Space::<D>::ang_dot(&w.body(h).unwrap().angular_velocity(), &hinge_axis::<D>())
}

fn motor_reaches_speed<const D: usize>()
where
    Space<D>: Dim<D>,
{
    let (mut w, h) = wheel(RevoluteJoint::<D>::default().motor(2.0, 100.0));
    for _ in 0..60 {
        w.step();
    }
    // A strong motor with nothing resisting holds its target to solver precision.
    let s = spin(&w, h);
    assert!((s - 2.0).abs() < 0.01, "D={D}: spin {s} rad/s");

    // A weak motor accelerates at max_torque / I (I about the hinge, closed form of the ball).
    let max_torque = 0.05;
    let (mut w, h) = wheel(RevoluteJoint::<D>::default().motor(100.0, max_torque));
    let i = Space::<D>::ang_dot(
        &hinge_axis::<D>(),
        &Space::<D>::inertia_apply(&w.body(h).unwrap().world_inertia(), &hinge_axis::<D>()),
    );
    for _ in 0..60 {
        w.step();
    }
    let expected = max_torque / i * 1.0;
    let s = spin(&w, h);
    // The motor's impulse is clamped at max_torque * h every substep: exact up to f32 sums.
    assert!(
        (s - expected).abs() < 0.01 * expected,
        "D={D}: {s} vs {expected}"
    );
}

#[test]
fn motor_reaches_its_target_speed_within_its_torque() {
    motor_reaches_speed::<2>();
    motor_reaches_speed::<3>();
}

/// A horizontal arm (bob 1 m from the hinge) with the hinge `joint(weight torque)`;
/// returns the lowest and highest angle over 3 s, after the first 0.5 s.
fn arm_range<const D: usize>(joint: impl Fn(Real) -> RevoluteJoint<D>, push: Real) -> (Real, Real)
where
    Space<D>: Dim<D>,
{
    let mut w = world::<D>();
    let pivot = anchor_body(&mut w);
    let bob_pos = v::<D>(1.0, 0.0);
    let bob = ball(&mut w, bob_pos, 0.1);
    let mass = w.body(bob).unwrap().mass();
    let joint = joint(mass * G * 1.0);
    w.add_joint(pivot, bob, &JointDesc::new(joint).anchor_b(-bob_pos))
        .expect("valid joint");
    let (mut lo, mut hi) = (Real::MAX, Real::MIN);
    for step in 0..180 {
        // The load: gravity plus `push` times the bob's weight, straight down.
        w.apply_force(bob, v::<D>(0.0, -push * mass * G)).unwrap();
        w.step();
        let p = w.body(bob).unwrap().position();
        let angle = p[1].atan2(p[0]);
        assert!(angle.is_finite(), "D={D}: the arm blew up at step {step}");
        if step >= 30 {
            lo = lo.min(angle);
            hi = hi.max(angle);
        }
    }
    (lo, hi)
}

fn limits_hold<const D: usize>()
where
    Space<D>: Dim<D>,
{
    let one_degree = PI / 180.0;
    // Gravity and a push of 10 weights press the arm onto its lower limit.
    let (lo, _) = arm_range(|_| RevoluteJoint::<D>::default().limits(-0.5, 0.5), 10.0);
    assert!(lo > -0.5 - one_degree, "D={D}: lower limit passed: {lo}");
    assert!(
        lo < -0.5 + one_degree,
        "D={D}: arm not resting on the limit: {lo}"
    );
    // A motor of 11 times the weight's torque drives the arm up into its upper limit
    // (the same net load, 10 weights, as above).
    let joint = |weight_torque: Real| {
        RevoluteJoint::<D>::default()
            .limits(-0.5, 0.4)
            .motor(5.0, 11.0 * weight_torque)
    };
    let (_, hi) = arm_range(joint, 0.0);
    assert!(hi < 0.4 + one_degree, "D={D}: upper limit passed: {hi}");
}

#[test]
fn limits_hold_within_one_degree_under_load() {
    limits_hold::<2>();
    limits_hold::<3>();
}

fn slider_on_axis<const D: usize>()
where
    Space<D>: Dim<D>,
{
    let mut w = world::<D>();
    let base = anchor_body(&mut w);
    let body = ball(&mut w, Vector::zeros(), 0.2);
    let joint = JointDesc::new(PrismaticJoint::<D>::default().limits(-1.0, 1.0));
    w.add_joint(base, body, &joint).expect("valid joint");
    let mass = w.body(body).unwrap().mass();
    let mut worst_off_axis: Real = 0.0;
    let mut worst_turn: Real = 0.0;
    let mut x_at_half_second = 0.0;
    for step in 0..120 {
        // Along the axis: 2 m/s² of push. Across it: gravity and a torque-producing off-centre push.
        w.apply_force_at_point(body, v::<D>(2.0 * mass, 3.0 * mass), v::<D>(0.0, 0.1))
            .unwrap();
        w.step();
        let b = w.body(body).unwrap();
        let p = b.position();
        worst_off_axis = worst_off_axis.max((p - v::<D>(p[0], 0.0)).norm());
        worst_turn = worst_turn.max(Space::<D>::ang_norm(&Space::<D>::scaled_axis(
            &b.pose().rotation,
        )));
        if step == 29 {
            x_at_half_second = p[0];
        }
    }
    // Soft joints hold a steady load with millimetre errors at the default stiffness.
    assert!(
        worst_off_axis < 1e-3,
        "D={D}: off the axis by {worst_off_axis} m"
    );
    assert!(worst_turn < 1e-2, "D={D}: turned by {worst_turn} rad");
    // Free sliding: x = a t² / 2 with a = 2 m/s² at t = 0.5 s; 2 % for the step's discretisation.
    let expected = 0.5 * 2.0 * 0.25;
    assert!(
        (x_at_half_second - expected).abs() < 0.02 * expected + 0.005,
        "D={D}: slid {x_at_half_second} m, expected {expected}"
    );
    // Then it stops at the upper limit (1 cm: the soft limit under a 2 m/s² push).
    let x = w.body(body).unwrap().position()[0];
    assert!((x - 1.0).abs() < 0.01, "D={D}: at {x}, limit 1.0");
}

#[test]
fn prismatic_slider_stays_on_its_axis() {
    slider_on_axis::<2>();
    slider_on_axis::<3>();
}

fn fixed_joint_holds<const D: usize>()
where
    Space<D>: Dim<D>,
{
    let mut w = world::<D>();
    let base = anchor_body(&mut w);
    let p = v::<D>(1.0, 0.0);
    let body = ball(&mut w, p, 0.2);
    w.add_joint(base, body, &JointDesc::fixed().anchor_b(-p))
        .expect("valid joint");
    for _ in 0..120 {
        w.step();
    }
    let b = w.body(body).unwrap();
    // A cantilever under its own weight: sags by g / (2π f)² · (soft) ≈ millimetres at 60 Hz.
    assert!(
        (b.position() - p).norm() < 5e-3,
        "D={D}: moved to {:?}",
        b.position()
    );
    let turn = Space::<D>::ang_norm(&Space::<D>::scaled_axis(&b.pose().rotation));
    assert!(turn < 5e-3, "D={D}: turned {turn} rad");
}

#[test]
fn fixed_joint_welds_a_cantilever() {
    fixed_joint_holds::<2>();
    fixed_joint_holds::<3>();
}

fn cone_limit<const D: usize>()
where
    Space<D>: Dim<D>,
{
    let mut w = world::<D>();
    let pivot = anchor_body(&mut w);
    let bob_pos = v::<D>(0.0, -1.0);
    let bob = ball(&mut w, bob_pos, 0.1);
    let cone = 0.3;
    let joint = SphericalJoint::<D>::default().cone(v::<D>(0.0, -1.0), cone);
    w.add_joint(pivot, bob, &JointDesc::new(joint).anchor_b(-bob_pos))
        .expect("valid joint");
    let mut worst: Real = 0.0;
    for step in 0..120 {
        if step < 60 {
            // Push sideways (and, in 3D, out of the plane) with twice the weight.
            let mut f = v::<D>(2.0 * G * w.body(bob).unwrap().mass(), 0.0);
            if D == 3 {
                f[2] = f[0];
            }
            w.apply_force(bob, f).unwrap();
        }
        w.step();
        let p = w.body(bob).unwrap().position();
        worst = worst.max((-p[1] / p.norm()).clamp(-1.0, 1.0).acos());
    }
    // A one-sided soft limit under a steady push: within a degree.
    assert!(
        worst < cone + PI / 180.0,
        "D={D}: swung to {worst} rad, cone {cone}"
    );
    assert!(
        worst > cone - PI / 180.0,
        "D={D}: never reached the cone: {worst}"
    );
}

#[test]
fn spherical_cone_limits_the_swing() {
    cone_limit::<2>();
    cone_limit::<3>();
}

fn rod_keeps_length<const D: usize>()
where
    Space<D>: Dim<D>,
{
    let mut w = world::<D>();
    let pivot = anchor_body(&mut w);
    let bob = ball(&mut w, v::<D>(1.5, 0.0), 0.1);
    w.add_joint(pivot, bob, &JointDesc::distance())
        .expect("valid joint");
    let mut worst: Real = 0.0;
    for _ in 0..120 {
        w.step();
        worst = worst.max((w.body(bob).unwrap().position().norm() - 1.5).abs());
    }
    // A swinging rod: centripetal plus gravity load, soft at 60 Hz: under 1 % of its length.
    assert!(worst < 0.015, "D={D}: length off by {worst} m");
    let kind = w.joints().next().unwrap().1.kind().clone();
    match kind {
        JointKind::Distance(d) => assert_eq!(d.length, Some(1.5)),
        other => panic!("D={D}: kind changed to {other:?}"),
    }
}

#[test]
fn distance_rod_keeps_its_length() {
    rod_keeps_length::<2>();
    rod_keeps_length::<3>();
}

fn breaks_over_threshold<const D: usize>()
where
    Space<D>: Dim<D>,
{
    let mut w = world::<D>();
    let pivot = anchor_body(&mut w);
    let p = v::<D>(0.0, -1.0);
    let bob = ball(&mut w, p, 0.1);
    let weight = w.body(bob).unwrap().mass() * G;
    // A rod that holds the weight, and one that breaks under it.
    let strong = JointDesc::distance().anchor_b(-p).break_force(2.0 * weight);
    let weak = JointDesc::revolute().anchor_b(-p).break_force(0.5 * weight);
    let keep = w.add_joint(pivot, bob, &strong).unwrap();
    let lose = w.add_joint(pivot, bob, &weak).unwrap();
    let mut all_breaks = Vec::new();
    for _ in 0..3 {
        w.step();
        all_breaks.extend(w.broken_joints().iter().map(|b| b.joint));
    }
    // The weak joint breaks (reported once, as an event), the strong one stays.
    assert_eq!(all_breaks, vec![lose], "D={D}");
    assert!(w.joint(lose).is_none(), "D={D}: the weak joint held");
    assert!(w.joint(keep).is_some(), "D={D}: the strong joint broke");
    assert!(!all_breaks.contains(&keep));
    assert_eq!(w.joint_count(), 1);
}

#[test]
fn joint_breaks_above_its_force_threshold() {
    breaks_over_threshold::<2>();
    breaks_over_threshold::<3>();
}
