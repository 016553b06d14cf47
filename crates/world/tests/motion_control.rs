//! Kinematic target poses and locked axes, in both dimensions: a driven platform reaches each
//! target exactly and carries a box resting on it without slip; locked rotations keep a box
//! upright under an off-centre hit; locked translations hold their coordinate.

mod physics_support;
use fathom_math::{AngVector, Dim, Pose, Real, Space, Vector};
use fathom_world::{BodyDesc, BodyHandle, ColliderDesc, LockedAxes, Shape, World};
use nalgebra::Translation;
use physics_support::*;

/// The pose at `position` with orientation `rotation` (angle or scaled axis).
fn pose<const D: usize>(position: Vector<D>, rotation: AngVector<D>) -> Pose<D>
where
    Space<D>: Dim<D>,
{
    Pose::<D>::from_parts(
        Translation::from(position),
        Space::<D>::rotation_from_scaled_axis(&rotation),
    )
}

/// A rotation of `angle` radians about world y in 3D, about the plane's normal in 2D.
fn turn<const D: usize>(angle: Real) -> AngVector<D>
where
    Space<D>: Dim<D>,
{
    let mut xyz = [0.0; 3];
    xyz[if D == 2 { 2 } else { 1 }] = angle;
    scaled_axis::<D>(xyz)
}

/// The angular vector with components `xyz` (2D reads z).
fn scaled_axis<const D: usize>(xyz: [Real; 3]) -> AngVector<D>
where
    Space<D>: Dim<D>,
{
    let mut w = Space::<D>::ang_zero();
    for (i, c) in xyz.into_iter().enumerate() {
        let mut unit = [false; 3];
        unit[i] = true;
        let axis = Space::<D>::ang_mask(unit);
        w += axis * c;
    }
    w
}

/// A kinematic platform (a slab 4 m wide, 0.2 m thick, top at y = 0) with a 0.5 m box
/// resting on it; friction 0.8 on both.
fn platform_with_box<const D: usize>() -> (World<D>, BodyHandle, BodyHandle)
where
    Space<D>: Dim<D>,
{
    let mut w = awake_world::<D>(-up::<D>() * G);
    let mut half = Vector::<D>::repeat(2.0);
    half[1] = 0.1;
    let slab = Shape::<D>::cuboid(half).unwrap();
    let platform = w
        .add_body(
            &BodyDesc::kinematic()
                .position(-up::<D>() * 0.1)
                .collider(ColliderDesc::new(slab).friction(0.8)),
        )
        .unwrap();
    let block = Shape::<D>::cuboid(Vector::<D>::repeat(0.25)).unwrap();
    let b = w
        .add_body(
            &BodyDesc::dynamic()
                .position(up::<D>() * 0.25)
                .collider(ColliderDesc::new(block).friction(0.8)),
        )
        .unwrap();
    // Settle the box's contact before the platform moves.
    for _ in 0..60 {
        w.step();
    }
    (w, platform, b)
}

fn platform_reaches_every_target_exactly<const D: usize>()
where
    Space<D>: Dim<D>,
{
    let (mut w, platform, _) = platform_with_box::<D>();
    let dt = w.settings().dt;
    let mut previous = *w.body(platform).unwrap().pose();
    for i in 1..=90 {
        let t = i as Real * dt;
        let mut p = axis::<D>(0) * (0.8 * t).sin() - up::<D>() * 0.1;
        p[1] += 0.05 * (2.0 * t).sin();
        let target = pose::<D>(p, turn::<D>(0.3 * (1.5 * t).sin()));
        w.set_kinematic_target(platform, target).unwrap();
        w.step();
        let body = w.body(platform).unwrap();
        // Exactly: the step ends with the target itself, not with an integrated pose.
        assert_eq!(*body.pose(), target, "{D}D step {i}");
        // The velocity it moved with is the displacement of its centre over the step.
        let moved = (target.translation.vector - previous.translation.vector) / dt;
        assert!(
            (body.linear_velocity() - moved).norm() < 1e-3,
            "{D}D step {i}: velocity {:?}, moved {moved:?}",
            body.linear_velocity()
        );
        previous = target;
    }
    // Without a new target it stays put, at rest.
    w.step();
    let body = w.body(platform).unwrap();
    assert_eq!(*body.pose(), previous);
    assert_eq!(body.linear_velocity(), Vector::<D>::zeros());
}

#[test]
fn platform_reaches_every_target_exactly_both_dimensions() {
    platform_reaches_every_target_exactly::<2>();
    platform_reaches_every_target_exactly::<3>();
}

/// The platform speeds up at 2 m/s² (a third of what friction 0.8 can give the box) to
/// 1 m/s, then cruises; over 3 s it travels 2.75 m. The box must travel with it.
fn box_rides_a_translating_platform<const D: usize>()
where
    Space<D>: Dim<D>,
{
    let (mut w, platform, b) = platform_with_box::<D>();
    let dt = w.settings().dt;
    let start_box = w.body(b).unwrap().position();
    let start = *w.body(platform).unwrap().pose();
    let mut x = 0.0;
    for i in 1..=180 {
        let t = i as Real * dt;
        x = if t < 0.5 { t * t } else { 0.25 + (t - 0.5) };
        let mut target = start;
        target.translation.vector += axis::<D>(0) * x;
        w.set_kinematic_target(platform, target).unwrap();
        w.step();
    }
    let moved = w.body(b).unwrap().position() - start_box;
    let slip = (moved - axis::<D>(0) * x).norm();
    // The bound: no slip beyond 1 mm per metre travelled.
    assert!(
        slip < 1e-3 * x,
        "{D}D: box moved {moved:?}, platform {x} m, slip {slip} m"
    );
}

#[test]
fn box_rides_a_translating_platform_both_dimensions() {
    box_rides_a_translating_platform::<2>();
    box_rides_a_translating_platform::<3>();
}

/// A 3D turntable at 1 rad/s (after a 1 s ramp at 1 rad/s²) with the box 1 m from its axis:
/// friction needs only 1 m/s² of the 7.8 it can give, so the box turns with the table.
#[test]
fn box_rides_a_rotating_platform_3d() {
    let (mut w, platform, b) = platform_with_box::<3>();
    let dt = w.settings().dt;
    // Move the box 1 m off the axis before the table turns.
    let offset = Vector::<3>::new(1.0, 0.0, 0.0);
    let at = *w.body(b).unwrap().pose();
    w.set_pose(
        b,
        pose::<3>(at.translation.vector + offset, Vector::<3>::zeros()),
    )
    .unwrap();
    for _ in 0..30 {
        w.step();
    }
    let start_box = w.body(b).unwrap().position();
    let start = *w.body(platform).unwrap().pose();
    let mut angle = 0.0;
    for i in 1..=300 {
        let t = i as Real * dt;
        angle = if t < 1.0 {
            0.5 * t * t
        } else {
            0.5 + (t - 1.0)
        };
        let spin = pose::<3>(Vector::<3>::zeros(), Vector::<3>::new(0.0, angle, 0.0));
        w.set_kinematic_target(platform, spin * start).unwrap();
        w.step();
    }
    let expected =
        nalgebra::UnitQuaternion::from_scaled_axis(Vector::<3>::new(0.0, angle, 0.0)) * start_box;
    let at = w.body(b).unwrap().position();
    // Friction acts on velocities through the step-start lever arms, so within a step the
    // box follows the table's tangent, not its arc: it drifts out by r ω² dt² / 2 a step
    // (0.8% of the arc at 1 rad/s, 1 m, 60 Hz; Box2D's and Rapier's solvers share it). The
    // bound is that drift, with a tenth for the ramp's round-off; the rest must be exact.
    let steps_at_speed = 300.0 - 60.0;
    let drift = 1.0 * dt * dt / 2.0 * (steps_at_speed + 60.0 / 3.0);
    let off = (at - expected).norm();
    assert!(
        off < 1.1 * drift,
        "box at {at:?}, expected {expected:?}: {off} m off, the linearisation's drift is {drift} m"
    );
}

/// A box hit sideways at its top edge, on frictionless ground: with rotations locked it slides
/// off at `J / m` without turning; unlocked, the same hit turns it.
fn locked_box_stays_upright<const D: usize>()
where
    Space<D>: Dim<D>,
{
    let hit = |locks: LockedAxes| {
        let mut w = awake_world::<D>(-up::<D>() * G);
        add_ground_plane(&mut w, 0.0, 0.0);
        let block = Shape::<D>::cuboid(Vector::<D>::repeat(0.5)).unwrap();
        let b = w
            .add_body(
                &BodyDesc::dynamic()
                    .position(up::<D>() * 0.5)
                    .locked_axes(locks)
                    .collider(ColliderDesc::new(block).friction(0.0)),
            )
            .unwrap();
        let mass = w.body(b).unwrap().mass();
        let top = up::<D>() * 1.0;
        w.apply_impulse_at_point(b, axis::<D>(0) * (2.0 * mass), top)
            .unwrap();
        let mut max_angle: Real = 0.0;
        for _ in 0..60 {
            w.step();
            let r = w.body(b).unwrap().pose().rotation;
            max_angle = max_angle.max(Space::<D>::ang_norm(&Space::<D>::scaled_axis(&r)));
        }
        (max_angle, w.body(b).unwrap().linear_velocity())
    };
    let (angle, v) = hit(LockedAxes::ROTATION);
    assert_eq!(angle, 0.0, "{D}D: a rotation-locked box turned");
    // Frictionless: the 2 m/s the hit gave it stays (to round-off of the contact's solve).
    assert!(
        (v - axis::<D>(0) * 2.0).norm() < 1e-3,
        "{D}D: velocity {v:?}"
    );
    let (angle, _) = hit(LockedAxes::NONE);
    assert!(
        angle > 0.1,
        "{D}D: the free box should turn, turned {angle} rad"
    );
}

#[test]
fn locked_box_stays_upright_both_dimensions() {
    locked_box_stays_upright::<2>();
    locked_box_stays_upright::<3>();
}

/// A 3D capsule locked about x and z (a character kept upright) hit off-centre: it may spin
/// about y but its axis stays vertical.
#[test]
fn upright_lock_allows_yaw_only_3d() {
    let mut w = awake_world::<3>(Vector::<3>::new(0.0, -G, 0.0));
    add_ground_plane(&mut w, 0.5, 0.0);
    let upright = LockedAxes {
        rotation_x: true,
        rotation_z: true,
        ..LockedAxes::NONE
    };
    let b = w
        .add_body(
            &BodyDesc::dynamic()
                .position(Vector::<3>::new(0.0, 0.8, 0.0))
                .locked_axes(upright)
                .collider(ColliderDesc::new(Shape::capsule(0.5, 0.3).unwrap())),
        )
        .unwrap();
    let mass = w.body(b).unwrap().mass();
    let at = Vector::<3>::new(0.3, 1.3, 0.0);
    w.apply_impulse_at_point(b, Vector::<3>::new(0.0, 0.0, 3.0 * mass), at)
        .unwrap();
    let mut yaw_rate: Real = 0.0;
    for _ in 0..120 {
        w.step();
        let body = w.body(b).unwrap();
        let axis_now = body.pose().rotation * Vector::<3>::y();
        assert!(
            (axis_now - Vector::<3>::y()).norm() < 1e-6,
            "capsule axis tilted to {axis_now:?}"
        );
        yaw_rate = yaw_rate.max(body.angular_velocity().y.abs());
    }
    assert!(yaw_rate > 1.0, "the off-centre hit should spin it about y");
}

/// A ball locked along x (and z in 3D) dropped onto a 30° slope that falls away along +x:
/// gravity and the slope push it along x, but it only moves down; the locked coordinates hold
/// to 1e-6 m. A ball locked along y floats under gravity.
fn locked_translation_holds<const D: usize>()
where
    Space<D>: Dim<D>,
{
    let mut w = awake_world::<D>(-up::<D>() * G);
    let tilt = turn_about_depth::<D>(std::f32::consts::FRAC_PI_6 as Real);
    let mut half = Vector::<D>::repeat(20.0);
    half[1] = 0.5;
    w.add_body(
        &BodyDesc::fixed()
            .position(-up::<D>() * 0.5)
            .rotation(tilt)
            .collider(ColliderDesc::new(Shape::<D>::cuboid(half).unwrap())),
    )
    .unwrap();
    let along_x = LockedAxes {
        translation_x: true,
        translation_z: D == 3,
        ..LockedAxes::NONE
    };
    let start = up::<D>() * 2.0 + axis::<D>(0) * 0.3;
    let ball = w
        .add_body(
            &BodyDesc::dynamic()
                .position(start)
                .locked_axes(along_x)
                .collider(ColliderDesc::new(Shape::<D>::ball(0.25).unwrap())),
        )
        .unwrap();
    let floating = w
        .add_body(
            &BodyDesc::dynamic()
                .position(up::<D>() * 5.0 + axis::<D>(0) * 8.0)
                .linear_velocity(axis::<D>(0) * 1.0)
                .locked_axes(LockedAxes {
                    translation_y: true,
                    ..LockedAxes::NONE
                })
                .collider(ColliderDesc::new(Shape::<D>::ball(0.25).unwrap())),
        )
        .unwrap();
    for _ in 0..180 {
        w.step();
        let p = w.body(ball).unwrap().position();
        assert!((p[0] - start[0]).abs() < 1e-6, "{D}D: x moved to {}", p[0]);
        if D == 3 {
            assert!(p[2].abs() < 1e-6, "3D: z moved to {}", p[2]);
        }
        let f = w.body(floating).unwrap().position();
        assert!(
            (f[1] - 5.0).abs() < 1e-6,
            "{D}D: the y-locked ball fell to {}",
            f[1]
        );
    }
    // It fell onto the slope and rests there, its centre 0.25 m from the slab's top face
    // (normal n = (sin 30°, cos 30°), 0.5 m from the slab's centre at y = -0.5) along n.
    let y = w.body(ball).unwrap().position()[1];
    let (sin, cos) = (std::f32::consts::FRAC_PI_6 as Real).sin_cos();
    let face = -0.5 * cos + 0.5;
    let rest = (0.25 + face - sin * start[0]) / cos;
    // Soft contact: the resting ball sinks by millimetres at most.
    assert!(
        (y - rest).abs() < 5e-3,
        "{D}D: ball rests at y = {y}, expected {rest}"
    );
    // The floating ball keeps the velocity it was given along x.
    let v = w.body(floating).unwrap().linear_velocity();
    assert!(
        (v - axis::<D>(0)).norm() < 1e-6,
        "{D}D: floating ball at {v:?}"
    );
}

/// A rotation about the depth axis (z), which tilts the ground so that it falls away along +x.
fn turn_about_depth<const D: usize>(angle: Real) -> AngVector<D>
where
    Space<D>: Dim<D>,
{
    scaled_axis::<D>([0.0, 0.0, -angle])
}

#[test]
fn locked_translation_holds_both_dimensions() {
    locked_translation_holds::<2>();
    locked_translation_holds::<3>();
}

#[test]
fn bad_targets_are_refused_naming_the_field() {
    let mut w2 = awake_world::<2>(Vector::<2>::new(0.0, -G));
    let ball = Shape::<2>::ball(0.5).unwrap();
    let d = w2
        .add_body(&BodyDesc::dynamic().collider(ColliderDesc::new(ball.clone())))
        .unwrap();
    let here = Pose::<2>::identity();
    assert_eq!(
        w2.set_kinematic_target(d, here).unwrap_err().field(),
        Some("kind")
    );
    let k = w2
        .add_body(&BodyDesc::kinematic().collider(ColliderDesc::new(ball)))
        .unwrap();
    let mut nan = here;
    nan.translation.vector.x = Real::NAN;
    assert_eq!(
        w2.set_kinematic_target(k, nan).unwrap_err().field(),
        Some("target.translation")
    );
    let mut far = here;
    far.translation.vector.x = 1e37;
    assert_eq!(
        w2.set_kinematic_target(k, far).unwrap_err().field(),
        Some("target")
    );
    assert_eq!(w2.body(k).unwrap().kinematic_target(), None);
}

/// Locks and targets travel in snapshots: a restored world steps to the same bits.
#[test]
fn locks_and_targets_survive_a_snapshot() {
    let (mut w, platform, b) = platform_with_box::<3>();
    w.set_locked_axes(b, LockedAxes::ROTATION).unwrap();
    let mut target = *w.body(platform).unwrap().pose();
    target.translation.vector.x += 0.01;
    w.set_kinematic_target(platform, target).unwrap();
    let bytes = w.snapshot();
    let mut restored = World::<3>::from_snapshot(&bytes).unwrap();
    for _ in 0..30 {
        w.step();
        restored.step();
    }
    assert_eq!(
        restored.body(b).unwrap().locked_axes(),
        LockedAxes::ROTATION
    );
    assert_eq!(w.state_hash(), restored.state_hash());
}
