//! Two equal balls colliding head-on conserve momentum.

mod physics_support;
use fathom_math::{Dim, Real, Space, Vector};
use fathom_world::{BodyDesc, ColliderDesc, Shape};
use physics_support::*;

fn head_on<const D: usize>(e: Real)
where
    Space<D>: Dim<D>,
{
    let mut w = world_with_gravity::<D>(Vector::zeros());
    let shape = Shape::<D>::ball(0.5).unwrap();
    let make = |x: Real, v: Real| {
        BodyDesc::dynamic()
            .position(axis::<D>(0) * x)
            .linear_velocity(axis::<D>(0) * v)
            .collider(ColliderDesc::new(shape.clone()).restitution(e).density(2.0))
    };
    let a = w.add_body(&make(-2.0, 4.0)).unwrap();
    let b = w.add_body(&make(2.0, -6.0)).unwrap();
    let momentum = |w: &fathom_world::World<D>| {
        [a, b]
            .iter()
            .map(|h| w.body(*h).unwrap())
            .map(|b| b.linear_velocity() * b.mass())
            .sum::<Vector<D>>()
    };
    let before = momentum(&w);
    let mut touched = false;
    for _ in 0..120 {
        w.step();
        touched |= w.contact_count() > 0;
    }
    assert!(touched, "D={D}: the balls never met");
    let after = momentum(&w);
    let scale = 10.0 * w.body(a).unwrap().mass();
    // 0.1% of the momentum exchanged: contact impulses are equal and opposite, so only f32
    // round-off changes the total.
    assert!(
        (after - before).norm() < 1e-3 * scale,
        "D={D} e={e}: {before} -> {after}"
    );
    let (va, vb) = (
        w.body(a).unwrap().linear_velocity()[0],
        w.body(b).unwrap().linear_velocity()[0],
    );
    if e == 1.0 {
        // Elastic, equal masses: the velocities swap (within 2%: the restitution pass uses the
        // approach speed at the start of the step of impact).
        assert!(
            (va + 6.0).abs() < 0.12 && (vb - 4.0).abs() < 0.12,
            "D={D}: {va} {vb}"
        );
    } else {
        assert!(
            vb >= va - 1e-3,
            "D={D}: they pass through each other ({va}, {vb})"
        );
    }
}

#[test]
fn momentum_2d() {
    head_on::<2>(0.0);
    head_on::<2>(1.0);
}

#[test]
fn momentum_3d() {
    head_on::<3>(0.0);
    head_on::<3>(1.0);
}
