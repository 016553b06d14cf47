//! Servo (position-motor) joints and ropes against closed forms, in 2D and 3D: a servo door
//! swings to its angle without overshoot; a capped servo turns at the cap's angular
//! acceleration; a servo slider under gravity sags by g / ω² like the spring it is; a rope
//! lets its ball fall freely while slack and never stretches past its length.

use fathom_math::{AngVector, Dim, Real, Space, Vector};
use fathom_world::{
    BodyDesc, BodyHandle, ColliderDesc, JointDesc, PrismaticJoint, RevoluteJoint, Shape, World,
    WorldSettings,
};

const G: Real = 9.81;

fn world<const D: usize>(gravity: Real) -> World<D>
where
    Space<D>: Dim<D>,
{
    let mut settings = WorldSettings::<D> {
        gravity: -axis::<D>(1) * gravity,
        ..WorldSettings::default()
    };
    settings.sleep.enabled = false;
    World::new(settings).expect("valid settings")
}

fn axis<const D: usize>(i: usize) -> Vector<D> {
    let mut v = Vector::<D>::zeros();
    v[i] = 1.0;
    v
}

/// A door: a 1 m x 2 m slab (0.1 m thick in 3D) hinged at its edge on a fixed post, with the
/// servo `joint` about the vertical axis in 3D and the plane's normal in 2D; no gravity.
/// Returns the world, the door and its moment of inertia about the hinge.
fn door<const D: usize>(joint: RevoluteJoint<D>) -> (World<D>, BodyHandle, Real)
where
    Space<D>: Dim<D>,
{
    let mut w = world::<D>(0.0);
    let post = w.add_body(&BodyDesc::fixed()).unwrap();
    let mut half = Vector::<D>::repeat(0.05);
    half[0] = 0.5;
    half[1] = 1.0;
    let slab = Shape::<D>::cuboid(half).unwrap();
    let d = w
        .add_body(
            &BodyDesc::dynamic()
                .position(axis::<D>(0) * 0.5)
                .collider(ColliderDesc::new(slab).mass(10.0)),
        )
        .unwrap();
    // About the hinge: the slab's own inertia about its centre plus m (w/2)².
    let depth = if D == 3 { 0.1 } else { 2.0 };
    let inertia = 10.0 * (1.0 + depth * depth) / 12.0 + 10.0 * 0.25;
    let hinge = if D == 3 {
        Space::<D>::ang_mask([false, true, false])
    } else {
        RevoluteJoint::<D>::default().axis
    };
    w.add_joint(
        post,
        d,
        &JointDesc::new(joint.axis(hinge)).anchor_b(-axis::<D>(0) * 0.5),
    )
    .unwrap();
    (w, d, inertia)
}

/// The door's angle about its hinge, radians.
fn door_angle<const D: usize>(w: &World<D>, d: BodyHandle) -> Real
where
    Space<D>: Dim<D>,
{
    let r = Space::<D>::scaled_axis(&w.body(d).unwrap().pose().rotation);
    let hinge: AngVector<D> = if D == 3 {
        Space::<D>::ang_mask([false, true, false])
    } else {
        RevoluteJoint::<D>::default().axis
    };
    Space::<D>::ang_dot(&r, &hinge)
}

fn servo_door_swings_to_its_angle<const D: usize>()
where
    Space<D>: Dim<D>,
{
    let target = 1.2;
    let (mut w, d, _) = door(RevoluteJoint::<D>::default().servo(target, 1.0, 1.0, 1e4));
    let mut peak: Real = 0.0;
    for _ in 0..240 {
        w.step();
        peak = peak.max(door_angle(&w, d));
    }
    let angle = door_angle(&w, d);
    // Critically damped, the door settles (1 Hz: e^(-2π·4) of the swing is left after 4 s)
    // and overshoots by no more than the substep discretisation allows: 1% of the swing.
    assert!(
        (angle - target).abs() < 0.005,
        "{D}D: door at {angle} rad, target {target}"
    );
    assert!(
        peak < target * 1.01,
        "{D}D: door overshot to {peak} rad, target {target}"
    );
}

#[test]
fn servo_door_swings_to_its_angle_both_dimensions() {
    servo_door_swings_to_its_angle::<2>();
    servo_door_swings_to_its_angle::<3>();
}

fn capped_servo_accelerates_at_its_cap<const D: usize>()
where
    Space<D>: Dim<D>,
{
    // A stiff servo towards a far angle asks for far more than 5 N m: it applies the cap.
    let cap = 5.0;
    let (mut w, d, inertia) = door(RevoluteJoint::<D>::default().servo(3.0, 10.0, 1.0, cap));
    let steps = 30;
    for _ in 0..steps {
        w.step();
    }
    let t = steps as Real * w.settings().dt;
    let angle = door_angle(&w, d);
    let expected = 0.5 * cap / inertia * t * t;
    // The servo's first substep ramps through its softness; 2% covers it.
    assert!(
        (angle - expected).abs() < 0.02 * expected,
        "{D}D: turned {angle} rad in {t} s, τ t² / 2I = {expected}"
    );
}

#[test]
fn capped_servo_accelerates_at_its_cap_both_dimensions() {
    capped_servo_accelerates_at_its_cap::<2>();
    capped_servo_accelerates_at_its_cap::<3>();
}

fn servo_slider_sags_like_a_spring<const D: usize>()
where
    Space<D>: Dim<D>,
{
    let mut w = world::<D>(G);
    let frame = w.add_body(&BodyDesc::fixed()).unwrap();
    let ball = Shape::<D>::ball(0.2).unwrap();
    let b = w
        .add_body(&BodyDesc::dynamic().collider(ColliderDesc::new(ball).mass(3.0)))
        .unwrap();
    let hertz = 2.0;
    let slider = PrismaticJoint::<D>::default()
        .axis(axis::<D>(1))
        .servo(0.5, hertz, 1.0, 1e4);
    w.add_joint(frame, b, &JointDesc::new(slider)).unwrap();
    for _ in 0..300 {
        w.step();
    }
    let y = w.body(b).unwrap().position()[1];
    // A spring of natural frequency f on the body's own mass has k = m (2π f)², so gravity
    // stretches it by g / (2π f)² = 6.2 cm, whatever the mass.
    let omega = 2.0 * std::f32::consts::PI as Real * hertz;
    let expected = 0.5 - G / (omega * omega);
    assert!(
        (y - expected).abs() < 0.02 * (0.5 - expected),
        "{D}D: slider at {y} m, a spring sags to {expected} m"
    );
    assert!(w.body(b).unwrap().position()[0].abs() < 1e-4);
}

#[test]
fn servo_slider_sags_like_a_spring_both_dimensions() {
    servo_slider_sags_like_a_spring::<2>();
    servo_slider_sags_like_a_spring::<3>();
}

fn rope_is_slack_then_holds<const D: usize>()
where
    Space<D>: Dim<D>,
{
    let mut w = world::<D>(G);
    let hook = w
        .add_body(&BodyDesc::fixed().position(axis::<D>(1) * 5.0))
        .unwrap();
    let ball = Shape::<D>::ball(0.1).unwrap();
    // 0.3 m below the hook and 0.4 m to the side: 0.5 m from it on a 1 m rope.
    let start = axis::<D>(1) * 4.7 + axis::<D>(0) * 0.4;
    let b = w
        .add_body(
            &BodyDesc::dynamic()
                .position(start)
                .collider(ColliderDesc::new(ball)),
        )
        .unwrap();
    w.add_joint(hook, b, &JointDesc::rope(1.0)).unwrap();
    let dt = w.settings().dt;
    // Slack until it has fallen 0.617 m (when 0.4² + (0.3 + fall)² = 1): 0.35 s of free fall.
    for i in 1..=18 {
        w.step();
        let fall = start[1] - w.body(b).unwrap().position()[1];
        let t = i as Real * dt;
        let free = 0.5 * G * t * t;
        assert!(
            (fall - free).abs() < 1e-4,
            "{D}D: a slack rope pulled: fell {fall} m at {t} s, free fall {free} m"
        );
    }
    let mut longest: Real = 0.0;
    for _ in 0..240 {
        w.step();
        let p = w.body(b).unwrap().position();
        longest = longest.max((p - axis::<D>(1) * 5.0).norm());
    }
    // Taut, the rope is a soft one-sided constraint: it gives a fraction of a millimetre at
    // the jerk.
    assert!(
        longest < 1.0 + 1e-3,
        "{D}D: the rope stretched to {longest} m"
    );
    assert!(
        longest > 0.99,
        "{D}D: the rope never went taut ({longest} m)"
    );
}

#[test]
fn rope_is_slack_then_holds_both_dimensions() {
    rope_is_slack_then_holds::<2>();
    rope_is_slack_then_holds::<3>();
}

#[test]
fn bad_servos_and_ropes_are_refused_naming_the_field() {
    let mut w = world::<3>(G);
    let a = w.add_body(&BodyDesc::fixed()).unwrap();
    let ball = Shape::<3>::ball(0.1).unwrap();
    let b = w
        .add_body(&BodyDesc::dynamic().collider(ColliderDesc::new(ball)))
        .unwrap();
    let nan = RevoluteJoint::<3>::default().servo(Real::NAN, 1.0, 1.0, 1.0);
    let err = w.add_joint(a, b, &JointDesc::new(nan)).unwrap_err();
    assert_eq!(err.field(), Some("revolute.servo.target"));
    let negative = PrismaticJoint::<3>::default().servo(0.0, 1.0, 1.0, -1.0);
    let err = w.add_joint(a, b, &JointDesc::new(negative)).unwrap_err();
    assert_eq!(err.field(), Some("prismatic.servo.max_force"));
    let err = w.add_joint(a, b, &JointDesc::rope(-1.0)).unwrap_err();
    assert_eq!(err.field(), Some("rope.max_length"));
    assert_eq!(w.joint_count(), 0);
}
