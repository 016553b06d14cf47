//! Bullets at a thin wall: builds the `bullet_3d` scene in code (three small
//! balls at 150 to 300 m/s along -x, continuous collision on, a 4 cm wall) and prints
//! each bullet's x for the first ten steps: none passes the wall.
//!
//! `cargo run --release --example bullet`

use fathom_app::demo_scenes::{bullet_3d, WALL_X};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut world = bullet_3d().build()?;
    let bullets: Vec<_> = world
        .bodies()
        .filter(|(_, b)| b.is_ccd())
        .map(|(h, _)| h)
        .collect();
    for step in 1..=10 {
        world.step();
        let xs: Vec<String> = bullets
            .iter()
            .filter_map(|h| world.body(*h))
            .map(|b| format!("{:7.3}", b.position().x))
            .collect();
        println!(
            "step {step:2}: bullet x {} (wall at x = {WALL_X})",
            xs.join(" ")
        );
    }
    Ok(())
}
