//! A tower of CSG shapes: builds the `csg_tower_3d` scene in code (a plinth
//! with a hole, a cube with a ball carved out, a tube, a gear, two bars
//! blended into a cross, a dome), steps it for three seconds and prints the
//! height of each piece against where it started.
//!
//! `cargo run --release --example csg_tower`

use fathom_app::demo_scenes::csg_tower_3d;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let scene = csg_tower_3d();
    let mut world = scene.build()?;
    for _ in 0..180 {
        world.step();
    }
    let names = ["plinth", "frame", "tube", "gear", "cross", "dome"];
    let pieces = world.bodies().filter(|(_, b)| b.is_dynamic());
    for ((name, start), (_, body)) in names.iter().zip(&scene.bodies[1..]).zip(pieces) {
        println!(
            "{name:>6}: y {:.3} m (started at {:.3} m)",
            body.position().y,
            start.position.y
        );
    }
    Ok(())
}
