//! One body of thousands of overlapping colliders resting on the ground: its colliders
//! never pair with each other, so the broadphase holds one candidate pair per collider
//! (with the ground), not n (n - 1) / 2. Timing and memory are measured by
//! `crates/world/examples/overlapping_colliders.rs`; this bounds the work by its count.

mod physics_support;
use fathom_math::{Dim, Real, Space};
use fathom_world::{BodyDesc, ColliderDesc, Shape, World};
use physics_support::*;

/// Colliders on the body.
const N: usize = 2000;

fn one_body_many_colliders<const D: usize>()
where
    Space<D>: Dim<D>,
{
    let mut w = World::<D>::default();
    add_ground_box(&mut w, 20.0);
    // Balls of 0.2 m resting on the ground (centres 0.2 m up) spread over a 1 m disc (a
    // 2 m segment in 2D) by the golden angle: each overlaps dozens of its neighbours.
    let radius: Real = 0.2;
    let ball = Shape::<D>::ball(radius).expect("ball");
    let mut body = BodyDesc::<D>::dynamic().position(up::<D>() * radius);
    for i in 0..N {
        let a = i as Real * 2.399_963;
        let r = (i as Real / N as Real).sqrt();
        let mut p = axis::<D>(0) * (r * a.cos());
        if D == 3 {
            p += axis::<D>(2) * (r * a.sin());
        }
        body = body.collider(ColliderDesc::new(ball.clone()).position(p));
    }
    w.add_body(&body).expect("body");
    for _ in 0..10 {
        w.step();
    }
    // Every ball's box (grown by the margins) meets the ground's: exactly one pair each.
    assert_eq!(w.candidate_pair_count(), N, "{D}D");
}

#[test]
fn colliders_of_one_body_never_pair_2d() {
    one_body_many_colliders::<2>();
}

#[test]
fn colliders_of_one_body_never_pair_3d() {
    one_body_many_colliders::<3>();
}
