//! A Galton board: builds the `galton_2d` scene in code, lets its balls fall
//! through the pegs for twelve seconds and prints how many landed in each bin
//! as a bar chart (a rough bell curve).
//!
//! `cargo run --release --example galton`

use fathom_app::demo_scenes::{galton_2d, BIN_HEIGHT, GALTON_HALF_WIDTH};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut world = galton_2d().build()?;
    for _ in 0..720 {
        world.step();
    }
    // Bins are 0.5 m wide, from the left wall to the right one.
    let bins = (2.0 * GALTON_HALF_WIDTH / 0.5).ceil() as usize;
    let mut counts = vec![0usize; bins];
    for (_, b) in world.bodies().filter(|(_, b)| b.is_dynamic()) {
        let p = b.position();
        if p.y < BIN_HEIGHT {
            let i = ((p.x + GALTON_HALF_WIDTH) / 0.5)
                .floor()
                .clamp(0.0, (bins - 1) as f32);
            counts[i as usize] += 1;
        }
    }
    for (i, n) in counts.iter().enumerate() {
        let x = -GALTON_HALF_WIDTH + 0.5 * i as f32;
        println!("{x:5.2} m {:>3} {}", n, "#".repeat(*n));
    }
    Ok(())
}
