//! Newton's cradle: builds the `cradle_3d` scene in code (five balls on hinges,
//! restitution 1) and prints, every sixth of a second for three seconds, how
//! far each ball has swung from its rest position.
//!
//! `cargo run --release --example cradle`

use fathom_app::demo_scenes::cradle_3d;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let scene = cradle_3d();
    let mut world = scene.build()?;
    // Rest positions: each ball hangs straight below its hinge on the bar (body 1).
    let bar = scene.bodies[1].position;
    let rest: Vec<f32> = scene
        .joints
        .iter()
        .map(|j| bar.x + j.joint.anchor_a.x)
        .collect();
    for tick in 1..=18 {
        for _ in 0..10 {
            world.step();
        }
        let swing: Vec<String> = world
            .bodies()
            .skip(2)
            .zip(&rest)
            .map(|((_, b), x)| format!("{:+.2}", b.position().x - x))
            .collect();
        println!("{:4.2} s: {} m", tick as f32 / 6.0, swing.join(" "));
    }
    Ok(())
}
