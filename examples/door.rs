//! Swinging doors: builds the `door_3d` scene in code (two doors on hinges with
//! limits of +-1.3 rad; a ball hits the left one, whose spring closes it again;
//! a motor opens the right one) and prints both hinge angles every 0.2 s.
//!
//! `cargo run --release --example door`

use fathom_app::demo_scenes::{door_3d, DOOR_LIMIT};
use fathom_physics::math::Vector3;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let scene = door_3d();
    let mut world = scene.build()?;
    let handles: Vec<_> = world.bodies().map(|(h, _)| h).collect();
    for tick in 1..=15 {
        for _ in 0..12 {
            world.step();
        }
        // A door's angle: how far its width (local x) has turned about the vertical.
        let angles: Vec<String> = scene
            .joints
            .iter()
            .filter_map(|j| world.body(handles[j.body_b]))
            .map(|door| {
                let w = door.pose().rotation * Vector3::x();
                format!("{:+.2}", (-w.z).atan2(w.x))
            })
            .collect();
        println!(
            "{:3.1} s: door angles {} rad (limits +-{DOOR_LIMIT})",
            0.2 * tick as f32,
            angles.join(" ")
        );
    }
    Ok(())
}
