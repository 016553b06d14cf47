//! Dominoes: builds the `dominoes_3d` scene in code, steps it for six seconds
//! and prints, every half second, how many dominoes are down.
//!
//! `cargo run --release --example dominoes`

use fathom_app::demo_scenes::{dominoes_3d, DOMINOES};
use fathom_physics::math::Vector3;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut world = dominoes_3d().build()?;
    for half_seconds in 1..=12 {
        for _ in 0..30 {
            world.step();
        }
        // Down: the domino's long axis (local y) leans more than 45 degrees.
        let down = world
            .bodies()
            .filter(|(_, b)| b.is_dynamic())
            .filter(|(_, b)| (b.pose().rotation * Vector3::y()).y < std::f32::consts::FRAC_1_SQRT_2)
            .count();
        println!(
            "{:4.1} s: {down:2} of {DOMINOES} dominoes down",
            0.5 * half_seconds as f32
        );
    }
    Ok(())
}
