//! Runtime guards: a body driven non-finite by valid but extreme input is frozen and
//! reported with its handle, its neighbours stay finite, and the speed caps hold.
//! Every test runs in 2D and 3D from one generic function.

use fathom_math::{is_finite_vec, Dim, Real, Space, Vector};
use fathom_world::{BodyDesc, BodyHandle, ColliderDesc, Shape, World, WorldEvent, WorldSettings};

fn up<const D: usize>(y: Real) -> Vector<D> {
    let mut v = Vector::<D>::zeros();
    v[1] = y;
    v
}

/// A static 40 m slab whose top face is the plane y = 0.
fn add_ground<const D: usize>(w: &mut World<D>)
where
    Space<D>: Dim<D>,
{
    let mut half = Vector::<D>::repeat(20.0);
    half[1] = 0.5;
    w.add_body(
        &BodyDesc::fixed()
            .position(up(-0.5))
            .collider(ColliderDesc::new(Shape::cuboid(half).unwrap())),
    )
    .unwrap();
}

fn ball_body<const D: usize>(x: Real, y: Real) -> BodyDesc<D>
where
    Space<D>: Dim<D>,
{
    let mut p = up::<D>(y);
    p[0] = x;
    BodyDesc::dynamic()
        .position(p)
        .collider(ColliderDesc::new(Shape::ball(0.5).unwrap()))
}

fn finite_body<const D: usize>(w: &World<D>, h: BodyHandle) -> bool
where
    Space<D>: Dim<D>,
{
    let b = w.body(h).unwrap();
    is_finite_vec(&b.position())
        && is_finite_vec(&b.linear_velocity())
        && Space::<D>::ang_is_finite(&b.angular_velocity())
}

/// Three touching balls on the ground; the middle one gets a force (`f32::MAX` on a
/// 0.52 kg ball, 2D 0.79 kg) whose acceleration overflows `f32`. It is frozen where it was, reported
/// once, and its neighbours, pressed against it, stay finite and keep moving.
fn overflowing_force_freezes_one_body<const D: usize>()
where
    Space<D>: Dim<D>,
{
    let mut w = World::<D>::default();
    add_ground(&mut w);
    let balls: Vec<_> = [-1.0, 0.0, 1.0]
        .iter()
        .map(|&x| w.add_body(&ball_body::<D>(x, 0.5)).unwrap())
        .collect();
    for _ in 0..10 {
        w.step();
    }
    let before = *w.body(balls[1]).unwrap().pose();
    let mut push = Vector::<D>::zeros();
    push[0] = Real::MAX;
    w.apply_force(balls[1], push).unwrap();
    // A second push would make the accumulated force infinite: refused, nothing changed.
    let hash = w.state_hash();
    assert!(w.apply_force(balls[1], push).is_err());
    assert_eq!(w.state_hash(), hash);
    // One push of f32::MAX on a body lighter than 1 kg still overflows its velocity in the
    // step, which the guard catches.
    w.step();
    let frozen: Vec<_> = w
        .events()
        .iter()
        .filter_map(|e| match e {
            WorldEvent::BodyFrozen { body } => Some(*body),
            _ => None,
        })
        .collect();
    assert_eq!(
        frozen,
        vec![balls[1]],
        "exactly the pushed body is reported"
    );
    assert_eq!(w.frozen_bodies().collect::<Vec<_>>(), vec![balls[1]]);
    let b = w.body(balls[1]).unwrap();
    assert!(b.is_frozen());
    assert_eq!(
        *b.pose(),
        before,
        "a frozen body keeps its pose from before the step"
    );
    assert_eq!(b.linear_velocity(), Vector::<D>::zeros());
    for _ in 0..30 {
        w.step();
        for &h in &balls {
            assert!(finite_body(&w, h), "body {h:?} went non-finite");
        }
        assert!(
            !w.events()
                .iter()
                .any(|e| matches!(e, WorldEvent::BodyFrozen { .. })),
            "the freeze is reported once"
        );
    }
    assert_eq!(*w.body(balls[1]).unwrap().pose(), before, "it stays put");
    // Once unfrozen it falls like any body again (it was resting on the ground, so give it
    // a lift first).
    w.unfreeze(balls[1]).unwrap();
    w.set_linear_velocity(balls[1], up(1.0)).unwrap();
    w.step();
    assert!(!w.body(balls[1]).unwrap().is_frozen());
    assert!(w.body(balls[1]).unwrap().position()[1] > before.translation.vector[1]);
}

#[test]
fn overflowing_force_freezes_one_body_2d() {
    overflowing_force_freezes_one_body::<2>();
}
#[test]
fn overflowing_force_freezes_one_body_3d() {
    overflowing_force_freezes_one_body::<3>();
}

/// A finite but absurd force (1e30 N on a 0.8 kg ball) is clamped by the speed cap: no
/// freeze, and the speed after one step equals the cap (m/s).
fn speed_caps_hold<const D: usize>()
where
    Space<D>: Dim<D>,
{
    let mut settings = WorldSettings::<D> {
        gravity: Vector::zeros(),
        ..WorldSettings::default()
    };
    settings.solver.max_linear_speed = 50.0;
    settings.solver.max_angular_speed = 20.0;
    let mut w = World::new(settings).unwrap();
    let h = w.add_body(&ball_body::<D>(0.0, 0.0)).unwrap();
    let mut f = Vector::<D>::zeros();
    f[0] = 1e30;
    w.apply_force(h, f).unwrap();
    // x cross y: about z (a scalar in 2D), 1e30 N m.
    let mut x = Vector::<D>::zeros();
    x[0] = 1e15;
    let spin = Space::<D>::cross(&x, &up(1e15));
    w.apply_torque(h, spin).unwrap();
    w.step();
    let b = w.body(h).unwrap();
    assert!(!b.is_frozen());
    // The cap is applied to the norm in f32: a relative error of a few ulps.
    assert!((b.linear_velocity().norm() - 50.0).abs() < 1e-3);
    assert!((Space::<D>::ang_norm(&b.angular_velocity()) - 20.0).abs() < 1e-3);
}

#[test]
fn speed_caps_hold_2d() {
    speed_caps_hold::<2>();
}
#[test]
fn speed_caps_hold_3d() {
    speed_caps_hold::<3>();
}

/// A frozen body survives a snapshot round trip, and unfreezing a stale handle is an error.
fn frozen_state_is_saved<const D: usize>()
where
    Space<D>: Dim<D>,
{
    let mut w = World::<D>::new(WorldSettings {
        gravity: Vector::zeros(),
        ..WorldSettings::default()
    })
    .unwrap();
    let h = w.add_body(&ball_body::<D>(0.0, 0.0)).unwrap();
    let mut push = Vector::<D>::zeros();
    push[1] = Real::MAX;
    // f32::MAX on a ball under 1 kg: the acceleration overflows in the step.
    w.apply_force(h, push).unwrap();
    w.step();
    assert!(w.body(h).unwrap().is_frozen());
    let restored = World::<D>::from_snapshot(&w.snapshot()).unwrap();
    assert!(restored.body(h).unwrap().is_frozen());
    assert_eq!(restored.state_hash(), w.state_hash());
    w.remove_body(h).unwrap();
    assert!(w.unfreeze(h).is_err());
}

#[test]
fn frozen_state_is_saved_2d() {
    frozen_state_is_saved::<2>();
}
#[test]
fn frozen_state_is_saved_3d() {
    frozen_state_is_saved::<3>();
}

/// An impulse, force or torque that would make a body's state non-finite is refused at the
/// call (the cases: two impulses of 3e38, or 1e33 on a 1e-6 kg body), with the world
/// left as it was; so are substep counts past [`fathom_world::MAX_SUBSTEPS`].
fn overflowing_calls_are_refused<const D: usize>()
where
    Space<D>: Dim<D>,
{
    let mut w = World::<D>::default();
    let ball = w.add_body(&ball_body::<D>(0.0, 2.0)).unwrap();
    let feather = w
        .add_body(
            &BodyDesc::dynamic()
                .position(up(5.0))
                .collider(ColliderDesc::new(Shape::ball(0.5).unwrap()).mass(1e-6)),
        )
        .unwrap();
    let hash = w.state_hash();
    let mut j = Vector::<D>::zeros();
    // 1.5e38 N s on the 0.52 kg ball (2D 0.79 kg) gives a finite 1.9-2.9e38 m/s; twice is
    // past f32::MAX (3.4e38).
    j[0] = 1.5e38;
    w.apply_impulse(ball, j).unwrap();
    let once = w.state_hash();
    let err = w.apply_impulse(ball, j).unwrap_err();
    assert!(err.to_string().contains("impulse"), "{err}");
    assert_eq!(w.state_hash(), once, "a refused impulse changes nothing");
    j[0] = 1e33;
    assert!(w.apply_impulse(feather, j).is_err());
    assert!(w.apply_impulse_at_point(feather, j, up(5.0)).is_err());
    assert_eq!(w.state_hash(), once);
    assert_ne!(once, hash);
    let mut s = w.settings().clone();
    s.solver.substeps = 1_000_000_000;
    let err = w.set_settings(s).unwrap_err();
    assert!(err.to_string().contains("substeps"), "{err}");
    let mut s = w.settings().clone();
    s.solver.substeps = fathom_world::MAX_SUBSTEPS;
    w.set_settings(s).unwrap();
    w.step();
    assert!(finite_body(&w, ball) && finite_body(&w, feather));
}

#[test]
fn overflowing_calls_are_refused_2d() {
    overflowing_calls_are_refused::<2>();
}

#[test]
fn overflowing_calls_are_refused_3d() {
    overflowing_calls_are_refused::<3>();
}

/// `dt` is limited to [`fathom_world::MAX_DT`] and a gravity scale to ±
/// [`fathom_world::MAX_GRAVITY_SCALE`] (the issue's `dt: 1e9` and `gravity_scale: 1e30`
/// gained energy up to the speed cap); a refusal names the field and the limit and changes
/// nothing. At both limits together a box dropped on the ground settles: its energy (with
/// the potential of the gravity it feels) never rises above where it started.
fn dt_and_gravity_scale_are_limited<const D: usize>()
where
    Space<D>: Dim<D>,
{
    use fathom_world::{MAX_DT, MAX_GRAVITY_SCALE};
    let mut w = World::<D>::default();
    let hash = w.state_hash();
    let mut s = w.settings().clone();
    s.dt = 1e9;
    let err = w.set_settings(s).unwrap_err();
    assert_eq!(err.field(), Some("dt"), "{err}");
    assert!(err.to_string().contains("MAX_DT"), "{err}");
    for scale in [1e30, -MAX_GRAVITY_SCALE * 1.01] {
        let desc = ball_body::<D>(0.0, 1.0).gravity_scale(scale);
        let err = w.add_body(&desc).unwrap_err();
        assert_eq!(err.field(), Some("gravity_scale"), "{err}");
        assert!(err.to_string().contains("MAX_GRAVITY_SCALE"), "{err}");
    }
    assert_eq!(w.state_hash(), hash);
    assert_eq!(w.body_count(), 0);

    let mut s = w.settings().clone();
    s.dt = MAX_DT;
    w.set_settings(s).unwrap();
    add_ground(&mut w);
    let cube = w
        .add_body(
            &BodyDesc::dynamic()
                .position(up(1.0))
                .gravity_scale(MAX_GRAVITY_SCALE)
                .collider(ColliderDesc::new(
                    Shape::cuboid(Vector::<D>::repeat(0.5)).unwrap(),
                )),
        )
        .unwrap();
    let g = -w.settings().gravity[1] * MAX_GRAVITY_SCALE;
    let energy = |w: &World<D>| {
        let b = w.body(cube).unwrap();
        b.kinetic_energy() + b.mass() * g * b.center_of_mass()[1]
    };
    let start = energy(&w);
    let mut most = start;
    for _ in 0..100 {
        w.step();
        most = most.max(energy(&w));
    }
    let b = w.body(cube).unwrap();
    assert!(finite_body(&w, cube) && !b.is_frozen());
    assert!(
        most <= start,
        "{D}D: energy rose from {start} J to {most} J"
    );
    assert!(
        (b.position()[1] - 0.5).abs() < 0.05,
        "{D}D: the box rests at {}",
        b.position()[1]
    );
}

#[test]
fn dt_and_gravity_scale_are_limited_2d() {
    dt_and_gravity_scale_are_limited::<2>();
}

#[test]
fn dt_and_gravity_scale_are_limited_3d() {
    dt_and_gravity_scale_are_limited::<3>();
}
