//! One dynamic body made of `n` overlapping balls, resting on a ground box: how long a
//! step takes and how many candidate pairs the broadphase holds (colliders of one body
//! never pair, so it is one pair per ball touching the ground, not n² / 2).
//!
//! `cargo run --release -p fathom-world --example overlapping_colliders -- 5000 10000`;
//! measure memory with `/usr/bin/time -v` around one size at a time.

use fathom_world::{BodyDesc, ColliderDesc, Shape, World3};
use nalgebra::Vector3;
use std::time::Instant;

/// Steps timed (after the body has landed).
const STEPS: usize = 60;

fn main() {
    let sizes: Vec<usize> = std::env::args()
        .skip(1)
        .map(|a| a.parse().expect("collider counts"))
        .collect();
    for n in sizes {
        let mut w = World3::default();
        let ground = Shape::cuboid(Vector3::new(20.0, 0.5, 20.0)).expect("box");
        w.add_body(
            &BodyDesc::fixed()
                .position(Vector3::new(0.0, -0.5, 0.0))
                .collider(ColliderDesc::new(ground)),
        )
        .expect("ground");
        // n balls of 0.2 m on a 1 m disc at one height: every one overlaps its neighbours.
        let ball = Shape::ball(0.2).expect("ball");
        let mut body = BodyDesc::dynamic().position(Vector3::new(0.0, 0.25, 0.0));
        for i in 0..n {
            let a = i as f32 * 2.399_963; // The golden angle: an even spread.
            let r = (i as f32 / n as f32).sqrt();
            body = body.collider(ColliderDesc::new(ball.clone()).position(Vector3::new(
                r * a.cos(),
                0.0,
                r * a.sin(),
            )));
        }
        let t = Instant::now();
        w.add_body(&body).expect("body");
        let build = t.elapsed();
        w.step();
        let t = Instant::now();
        for _ in 0..STEPS {
            w.step();
        }
        let per_step = t.elapsed() / STEPS as u32;
        println!(
            "{n} colliders: add_body {build:?}, {per_step:?} per step, {} candidate pairs, {} contact points",
            w.candidate_pair_count(),
            w.contact_count()
        );
    }
}
