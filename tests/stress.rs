//! Stress: extreme but valid scenes the world must survive. A 1:1000 mass ratio stack
//! stays up, a body at 1e4 m/s is stopped by continuous collision at a thin wall (no
//! tunnelling, no NaN), and a world of 10,000 bodies steps. Each runs in 2D and 3D from
//! one generic function. (The runtime guard's own tests, a force that overflows `f32`
//! freezing one body while its neighbours stay finite, are in
//! `crates/world/tests/guards.rs`.)
//!
//! Kept fast for CI: the 10,000-body world takes three steps (0.2 s at opt-level 1).

use fathom_math::{is_finite_vec, Dim, Real, Space, Vector};
use fathom_world::{BodyDesc, BodyHandle, ColliderDesc, Shape, World, WorldSettings};

fn up<const D: usize>(y: Real) -> Vector<D> {
    let mut v = Vector::<D>::zeros();
    v[1] = y;
    v
}

fn all_finite<const D: usize>(w: &World<D>) -> bool
where
    Space<D>: Dim<D>,
{
    w.bodies().all(|(_, b)| {
        is_finite_vec(&b.position())
            && is_finite_vec(&b.linear_velocity())
            && Space::<D>::ang_is_finite(&b.angular_velocity())
    })
}

fn ground<const D: usize>(w: &mut World<D>)
where
    Space<D>: Dim<D>,
{
    w.add_body(
        &BodyDesc::fixed().collider(ColliderDesc::new(Shape::half_space(up(1.0), 0.0).unwrap())),
    )
    .unwrap();
}

fn ball_at<const D: usize>(w: &mut World<D>, y: Real, r: Real, mass: Real) -> BodyHandle
where
    Space<D>: Dim<D>,
{
    w.add_body(
        &BodyDesc::dynamic()
            .position(up(y))
            .collider(ColliderDesc::new(Shape::ball(r).unwrap()).mass(mass)),
    )
    .unwrap()
}

/// A 1 kg ball on the ground carries a 1000 kg ball of the same size. After 5 s the
/// stack stands (heavy ball on top, at rest, sunk less than 10 cm).
/// Balls, not boxes: the ball contacts are closed forms, and this tests the solver's
/// mass ratio, not box contacts (being reworked). The stack is balanced exactly on the
/// y axis, so only the ratio can topple or crush it.
fn mass_ratio_stack<const D: usize>()
where
    Space<D>: Dim<D>,
{
    let mut w = World::<D>::default();
    ground(&mut w);
    let r = 0.5;
    let light = ball_at(&mut w, r, r, 1.0);
    let heavy = ball_at(&mut w, 3.0 * r + 0.01, r, 1000.0);
    for _ in 0..300 {
        w.step();
    }
    assert!(all_finite(&w));
    let (hl, hh) = (
        w.body(light).unwrap().position()[1],
        w.body(heavy).unwrap().position()[1],
    );
    // The stack stands: the heavy ball is still on top, on the axis, and the pair has not
    // sunk through the ground (10 cm bounds the sink of a 0.5 m ball). The soft contacts
    // give by load / (m_light ω²): at 60 Hz (a heavy/light pair gets the static contacts'
    // stiffness) that is 1000 g / (2π 60)² = 6.9 cm at each contact. Measured: the light
    // ball's centre at 0.432 m (6.8 cm down), the heavy one's at 1.365 m (6.7 cm into the
    // light one). At 30 Hz the heavy ball sank 28 cm into the light one.
    assert!(hl > r - 0.1, "{D}D light ball sank to {hl}");
    assert!(
        hh > hl + 1.5 * r,
        "{D}D heavy ball at {hh}, light at {hl}: crushed"
    );
    assert!(
        w.body(heavy).unwrap().position()[0].abs() < 1e-3,
        "{D}D heavy ball slid off"
    );
    assert!(w.body(heavy).unwrap().linear_velocity().norm() < 0.05);
}

#[test]
fn mass_ratio_1_to_1000_stack_stands_2d() {
    mass_ratio_stack::<2>();
}

#[test]
fn mass_ratio_1_to_1000_stack_stands_3d() {
    mass_ratio_stack::<3>();
}

/// A 10 cm ball at 1e4 m/s (166 m per step) toward a static wall 2 cm thick, with the
/// speed cap raised so the ball really moves that fast. Continuous collision must stop
/// it on the near side; nothing may go non-finite. With the default cap (1000 m/s) the
/// same ball is slowed to the cap and stopped too.
fn bullet_at_wall<const D: usize>(cap: Real)
where
    Space<D>: Dim<D>,
{
    let mut settings = WorldSettings::<D> {
        gravity: Vector::zeros(),
        ..WorldSettings::default()
    };
    settings.solver.max_linear_speed = cap;
    let mut w = World::new(settings).unwrap();
    let mut half = Vector::<D>::repeat(10.0);
    half[0] = 0.01;
    w.add_body(&BodyDesc::fixed().collider(ColliderDesc::new(Shape::cuboid(half).unwrap())))
        .unwrap();
    let mut start = Vector::<D>::zeros();
    start[0] = -400.0;
    let mut v = Vector::<D>::zeros();
    v[0] = 1.0e4;
    let bullet = w
        .add_body(
            &BodyDesc::dynamic()
                .position(start)
                .linear_velocity(v)
                .ccd(true)
                .collider(ColliderDesc::new(Shape::ball(0.1).unwrap())),
        )
        .unwrap();
    for _ in 0..10 {
        w.step();
        assert!(all_finite(&w), "{D}D: non-finite state");
        let x = w.body(bullet).unwrap().position()[0];
        // The ball's centre stays at least a radius before the wall's near face (-0.01),
        // less the contact tolerance of the cast (1 mm) and of the soft contact (5 mm).
        assert!(
            x < -0.01 - 0.1 + 0.006,
            "{D}D: bullet at x = {x} passed the wall"
        );
    }
    assert!(!w.body(bullet).unwrap().is_frozen());
}

#[test]
fn bullet_at_1e4_m_per_s_stops_at_wall_2d() {
    bullet_at_wall::<2>(2.0e4);
    bullet_at_wall::<2>(WorldSettings::<2>::default().solver.max_linear_speed);
}

#[test]
fn bullet_at_1e4_m_per_s_stops_at_wall_3d() {
    bullet_at_wall::<3>(2.0e4);
    bullet_at_wall::<3>(WorldSettings::<3>::default().solver.max_linear_speed);
}

/// `n` balls on a grid 1 m apart, just above the ground, falling together: every one
/// gets contacts in the same step. Steps three times; all stay finite and fall.
fn many_bodies<const D: usize>(n: usize)
where
    Space<D>: Dim<D>,
{
    let mut w = World::<D>::default();
    ground(&mut w);
    let side = (n as Real).powf(1.0 / (D as Real - 1.0)).ceil() as usize;
    let handles: Vec<_> = (0..n)
        .map(|i| {
            let mut p = up::<D>(0.45);
            p[0] = (i % side) as Real;
            if D == 3 {
                p[D - 1] = (i / side) as Real;
            } else {
                p[1] += 1.1 * (i / side) as Real;
            }
            w.add_body(
                &BodyDesc::dynamic()
                    .position(p)
                    .collider(ColliderDesc::new(Shape::ball(0.4).unwrap())),
            )
            .unwrap()
        })
        .collect();
    assert_eq!(w.body_count(), n + 1);
    for _ in 0..3 {
        w.step();
    }
    assert!(all_finite(&w));
    assert!(handles
        .iter()
        .all(|h| w.body(*h).unwrap().linear_velocity()[1] < 0.0
            || w.body(*h).unwrap().position()[1] <= 0.45));
}

#[test]
fn thousand_bodies_step_2d() {
    many_bodies::<2>(1_000);
}

#[test]
fn thousand_bodies_step_3d() {
    many_bodies::<3>(1_000);
}

#[test]
fn ten_thousand_bodies_step_2d() {
    many_bodies::<2>(10_000);
}

#[test]
fn ten_thousand_bodies_step_3d() {
    many_bodies::<3>(10_000);
}
