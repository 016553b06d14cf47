//! Servo (position-motor) joints and ropes against closed forms, in 2D and 3D: a servo door
//! swings to its angle without overshoot; a capped servo turns at the cap's angular
//! acceleration; a servo arm holds its angle under a load below its cap and sags under one
//! above it; a servo slider under gravity sags by g / ω² like the spring it is, and so does a
//! wheel on its suspension, which spins freely or at its motor's speed; a rope lets its ball
//! fall freely and come closer while slack and never stretches past its length.

use fathom_math::{AngVector, Dim, Real, Space, Vector};
use fathom_world::{
    BodyDesc, BodyHandle, ColliderDesc, JointDesc, PrismaticJoint, RevoluteJoint, Shape,
    WheelJoint, World, WorldSettings,
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

/// A 2 kg arm 1 m long hinged at one end about z, under gravity, with a 10 Hz servo to
/// 0.3 rad (above level) capped at `cap` N m; returns its angle after 3 s.
fn servo_arm<const D: usize>(cap: Real) -> Real
where
    Space<D>: Dim<D>,
{
    let mut w = world::<D>(G);
    let pivot = w.add_body(&BodyDesc::fixed()).unwrap();
    let mut half = Vector::<D>::repeat(0.05);
    half[0] = 0.5;
    let arm = w
        .add_body(
            &BodyDesc::dynamic()
                .position(axis::<D>(0) * 0.5)
                .collider(ColliderDesc::new(Shape::<D>::cuboid(half).unwrap()).mass(2.0)),
        )
        .unwrap();
    let z = if D == 3 {
        Space::<D>::ang_mask([false, false, true])
    } else {
        RevoluteJoint::<D>::default().axis
    };
    let servo = RevoluteJoint::<D>::default()
        .axis(z)
        .servo(0.3, 10.0, 1.0, cap);
    w.add_joint(
        pivot,
        arm,
        &JointDesc::new(servo).anchor_b(-axis::<D>(0) * 0.5),
    )
    .unwrap();
    for _ in 0..180 {
        w.step();
    }
    let r = Space::<D>::scaled_axis(&w.body(arm).unwrap().pose().rotation);
    Space::<D>::ang_dot(&r, &z)
}

#[test]
fn servo_holds_its_angle_under_a_load_below_its_cap_both_dimensions() {
    fn check<const D: usize>()
    where
        Space<D>: Dim<D>,
    {
        // Gravity's torque at 0.3 rad is m g (L/2) cos 0.3 = 9.4 N m; the servo's stiffness
        // (I ω² = 0.67 kg m² (2π 10 Hz)²) leaves 0.2° of sag.
        let held = servo_arm::<D>(50.0);
        assert!(
            (held - 0.3).abs() < (0.5 as Real).to_radians(),
            "{D}D: arm at {held} rad under a 9.4 N m load, servo target 0.3 rad"
        );
        // A 5 N m cap cannot hold 9.4 N m: the arm falls past level.
        let dropped = servo_arm::<D>(5.0);
        assert!(
            dropped < 0.0,
            "{D}D: a 5 N m servo held the arm at {dropped} rad"
        );
    }
    check::<2>();
    check::<3>();
}

/// A 5 kg wheel on a 4 Hz suspension along y under a fixed chassis: it sags g / (2π 4)² =
/// 1.55 cm; spun at 10 rad/s it keeps spinning; with a motor it turns at the motor's speed.
fn wheel_on_suspension<const D: usize>()
where
    Space<D>: Dim<D>,
{
    let mut w = world::<D>(G);
    let chassis = w.add_body(&BodyDesc::fixed()).unwrap();
    let spin_axis = WheelJoint::<D>::default().axle;
    let wheel = |w: &mut World<D>, x: Real, spin: Real| {
        w.add_body(
            &BodyDesc::dynamic()
                .position(axis::<D>(0) * x)
                .angular_velocity(spin_axis * spin)
                .collider(ColliderDesc::new(Shape::<D>::ball(0.3).unwrap()).mass(5.0)),
        )
        .unwrap()
    };
    let free = wheel(&mut w, 0.0, 10.0);
    let driven = wheel(&mut w, 2.0, 0.0);
    let joint = JointDesc::wheel(axis::<D>(1));
    w.add_joint(chassis, free, &joint.clone()).unwrap();
    let motor = WheelJoint::<D>::default().motor(5.0, 20.0);
    w.add_joint(
        chassis,
        driven,
        &JointDesc::new(motor).anchor_a(axis::<D>(0) * 2.0),
    )
    .unwrap();
    for _ in 0..300 {
        w.step();
    }
    let y = w.body(free).unwrap().position()[1];
    let omega = 2.0 * std::f32::consts::PI as Real * 4.0;
    let sag = G / (omega * omega);
    assert!(
        (-y - sag).abs() < 0.02 * sag,
        "{D}D: wheel sagged {} m, the spring's static compression is {sag} m",
        -y
    );
    let x = w.body(free).unwrap().position()[0];
    assert!(x.abs() < 1e-4, "{D}D: wheel left its axis: x = {x}");
    let spin = |h| Space::<D>::ang_dot(&w.body(h).unwrap().angular_velocity(), &spin_axis);
    assert!(
        (spin(free) - 10.0).abs() < 0.01,
        "{D}D: free spin {}",
        spin(free)
    );
    assert!(
        (spin(driven) - 5.0).abs() < 0.01,
        "{D}D: driven spin {}",
        spin(driven)
    );
}

#[test]
fn wheel_sags_like_its_spring_and_spins_both_dimensions() {
    wheel_on_suspension::<2>();
    wheel_on_suspension::<3>();
}

/// A ball 0.9 m from the hook of a 1 m rope, moving towards it at 1 m/s without gravity: the
/// slack rope does nothing.
fn rope_goes_slack_when_pushed<const D: usize>()
where
    Space<D>: Dim<D>,
{
    let mut w = world::<D>(0.0);
    let hook = w.add_body(&BodyDesc::fixed()).unwrap();
    let b = w
        .add_body(
            &BodyDesc::dynamic()
                .position(axis::<D>(0) * 0.9)
                .linear_velocity(-axis::<D>(0))
                .collider(ColliderDesc::new(Shape::<D>::ball(0.1).unwrap())),
        )
        .unwrap();
    w.add_joint(hook, b, &JointDesc::rope(1.0)).unwrap();
    for _ in 0..30 {
        w.step();
    }
    let v = w.body(b).unwrap().linear_velocity();
    assert!(
        (v + axis::<D>(0)).norm() < 1e-5,
        "{D}D: slack rope changed v to {v:?}"
    );
    let x = w.body(b).unwrap().position()[0];
    assert!(
        (x - 0.4).abs() < 1e-4,
        "{D}D: ball at {x}, free motion ends at 0.4"
    );
}

#[test]
fn rope_goes_slack_when_pushed_both_dimensions() {
    rope_goes_slack_when_pushed::<2>();
    rope_goes_slack_when_pushed::<3>();
}

#[test]
fn bad_servos_ropes_and_wheels_are_refused_naming_the_field() {
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
    let no_axle = WheelJoint::<3>::default().axle(Vector::zeros());
    let err = w.add_joint(a, b, &JointDesc::new(no_axle)).unwrap_err();
    assert_eq!(err.field(), Some("wheel.axle"));
    assert_eq!(w.joint_count(), 0);
}
