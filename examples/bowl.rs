//! A bowl of tori and gears: builds the `bowl_3d` scene in code (the bowl is a
//! spherical shell minus a box, the tori and gears are non-convex), steps it
//! for three seconds and prints how many pieces came to rest inside the bowl.
//!
//! `cargo run --release --example bowl`

use fathom_app::demo_scenes::bowl_3d;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut world = bowl_3d().build()?;
    for second in 1..=3 {
        for _ in 0..60 {
            world.step();
        }
        // Inside: within the bowl's 2 m rim radius and below its 2 m rim height.
        let (mut inside, mut total) = (0, 0);
        for (_, b) in world.bodies().filter(|(_, b)| b.is_dynamic()) {
            let p = b.position();
            total += 1;
            inside += usize::from(p.xz().norm() < 2.0 && p.y < 2.0);
        }
        println!(
            "{second} s: {inside} of {total} pieces in the bowl, {} contacts, kinetic energy {:.3} J",
            world.contact_count(),
            world.kinetic_energy()
        );
    }
    Ok(())
}
