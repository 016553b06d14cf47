//! Resting contact: a 10-box tower, the Box2D large pyramid, a torus on a plane.

mod physics_support;
use fathom::math::{Dim, Real, Space, Vector};
use fathom::world::{BodyDesc, BodyHandle, ColliderDesc, Shape, World};
use physics_support::*;

/// Largest distance any of `bodies` moved from `start`.
fn max_drift<const D: usize>(w: &World<D>, bodies: &[BodyHandle], start: &[Vector<D>]) -> Real
where
    Space<D>: Dim<D>,
{
    bodies
        .iter()
        .zip(start)
        .map(|(b, p)| (w.body(*b).unwrap().position() - p).norm())
        .fold(0.0, Real::max)
}

fn tower<const D: usize>()
where
    Space<D>: Dim<D>,
{
    let mut w = world_with_gravity::<D>(-up::<D>() * G);
    add_ground_box(&mut w, 5.0);
    let h = 0.5;
    // Boxes start resting on each other (touching faces), so the test measures stability,
    // not the settling of a drop.
    let boxes: Vec<_> = (0..10)
        .map(|i| add_box(&mut w, up::<D>() * (h + 2.0 * h * i as Real), h, 0.6))
        .collect();
    let top = *boxes.last().unwrap();
    let start = w.body(top).unwrap().position();
    run(&mut w, 10.0);
    let moved = (w.body(top).unwrap().position() - start).norm();
    // Under 1 cm: the soft contacts settle by a few millimetres in total under ten boxes.
    assert!(moved < 0.01, "D={D}: the top box moved {moved} m");
}

#[test]
#[ignore = "blocked on the narrowphase: for two boxes overlapping face to face by 1 cm, one manifold point reports depth -0.01 and the others about +0.001; run with --ignored"]
fn ten_box_tower_2d() {
    tower::<2>();
}

#[test]
#[ignore = "blocked on the narrowphase: for two boxes overlapping face to face by 1 cm, one manifold point reports depth -0.01 and the others about +0.001; run with --ignored"]
fn ten_box_tower_3d() {
    tower::<3>();
}

/// Box2D's large pyramid: a base of `base` boxes of half extent 0.5, row i holding base - i.
fn pyramid_2d(base: usize) -> (World<2>, Vec<BodyHandle>) {
    let mut w = world_with_gravity::<2>(-up::<2>() * G);
    add_ground_box(&mut w, base as Real);
    let h = 0.5;
    let mut boxes = Vec::new();
    for row in 0..base {
        for i in 0..base - row {
            let x = (i as Real - 0.5 * (base - row - 1) as Real) * 2.0 * h;
            let y = h + 2.0 * h * row as Real;
            boxes.push(add_box(&mut w, Vector::<2>::new(x, y), h, 0.6));
        }
    }
    (w, boxes)
}

fn pyramid_stands(base: usize) {
    let (mut w, boxes) = pyramid_2d(base);
    let start: Vec<_> = boxes
        .iter()
        .map(|b| w.body(*b).unwrap().position())
        .collect();
    run(&mut w, 10.0);
    let drift = max_drift(&w, &boxes, &start);
    // 5 cm: what the issue allows; the soft contacts compress the tall columns by millimetres.
    assert!(
        drift < 0.05,
        "pyramid of base {base}: a box moved {drift} m"
    );
}

/// The same pyramid with a base of 10 (55 boxes): the CI-sized version.
#[test]
fn small_pyramid_stands_2d() {
    pyramid_stands(10);
}

/// The full Box2D large pyramid (5050 boxes, 600 steps); run with
/// `cargo test --release --test physics_stacking -- --ignored`.
#[test]
#[ignore = "5050 boxes for 600 steps: about 1.6 s per step at opt-level 1 (16 min); run with --ignored"]
fn large_pyramid_stands_2d() {
    pyramid_stands(100);
}

/// A non-convex shape dropped on a plane comes to rest: under 1e-3 m/s for the whole last
/// second (so it is not jittering), on top of the plane.
fn comes_to_rest<const D: usize>(shape: Shape<D>)
where
    Space<D>: Dim<D>,
{
    let mut w = world_with_gravity::<D>(-up::<D>() * G);
    add_ground_plane(&mut w, 0.6, 0.0);
    // Tilted by 0.3 rad about the axis out of the x-y plane (z), so it lands on an edge first.
    let tilt = Space::<D>::cross(&axis::<D>(0), &axis::<D>(1)) * 0.3;
    let desc = BodyDesc::dynamic()
        .position(up::<D>() * 1.5)
        .rotation(tilt)
        .collider(ColliderDesc::new(shape));
    let b = w.add_body(&desc).unwrap();
    run(&mut w, 4.0);
    let mut fastest: Real = 0.0;
    for _ in 0..60 {
        w.step();
        let body = w.body(b).unwrap();
        let spin = Space::<D>::ang_norm(&body.angular_velocity());
        fastest = fastest.max(body.linear_velocity().norm()).max(spin);
    }
    assert!(fastest < 1e-3, "D={D}: still moving at {fastest} after 4 s");
    // 1 cm: it rests on the plane, not in it (the soft contact sinks by millimetres).
    assert!(
        w.max_penetration() < 0.01,
        "D={D}: sunk {} m",
        w.max_penetration()
    );
}

#[test]
#[ignore = "blocked on the narrowphase: a ring or torus resting on a half-space gets a one-point manifold, so it rocks on it; run with --ignored"]
fn ring_comes_to_rest_2d() {
    // The 2D torus: a ring (annulus) of outer radius 1 and inner radius 0.6.
    let ring = Shape::<2>::ball(1.0)
        .unwrap()
        .difference(Shape::<2>::ball(0.6).unwrap());
    comes_to_rest::<2>(ring);
}

#[test]
#[ignore = "blocked on the narrowphase: a ring or torus resting on a half-space gets a one-point manifold, so it rocks on it; run with --ignored"]
fn torus_comes_to_rest_3d() {
    comes_to_rest::<3>(Shape::<3>::torus(0.8, 0.25).unwrap());
}
