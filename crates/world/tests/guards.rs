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

/// Three touching balls on the ground; the middle one gets a force that overflows `f32`
/// (two pushes of `f32::MAX` accumulate to infinity). It is frozen where it was, reported
/// once, and its neighbours, pressed against it, stay finite and keep moving.
fn overflowing_force_freezes_one_body<const D: usize>()
where
    Space<D>: Dim<D>,
{
    let mut w = World::<D>::default();
    let mut half = Vector::<D>::repeat(20.0);
    half[1] = 0.5;
    w.add_body(
        &BodyDesc::fixed()
            .position(up(-0.5))
            .collider(ColliderDesc::new(Shape::cuboid(half).unwrap())),
    )
    .unwrap();
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
    w.apply_force(balls[1], push).unwrap();
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
    w.apply_force(h, push).unwrap();
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
