//! A hanging chain: builds the `chain_3d` scene in code (capsules on spherical
//! joints between two anchors, a ball dropped onto it) and prints the chain's
//! lowest point and how far its joints have stretched, every half second.
//!
//! `cargo run --release --example chain`

use fathom_app::demo_scenes::chain_3d;
use fathom_physics::math::Vector3;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let scene = chain_3d();
    let mut world = scene.build()?;
    let handles: Vec<_> = world.bodies().map(|(h, _)| h).collect();
    for half_seconds in 1..=8 {
        for _ in 0..30 {
            world.step();
        }
        let mut stretch: f32 = 0.0;
        let mut lowest = f32::INFINITY;
        for j in &scene.joints {
            let (Some(a), Some(b)) = (world.body(handles[j.body_a]), world.body(handles[j.body_b]))
            else {
                continue;
            };
            let pa: Vector3 = (a.pose() * nalgebra::Point3::from(j.joint.anchor_a)).coords;
            let pb: Vector3 = (b.pose() * nalgebra::Point3::from(j.joint.anchor_b)).coords;
            stretch = stretch.max((pa - pb).norm());
            lowest = lowest.min(pa.y);
        }
        println!(
            "{:3.1} s: lowest joint at y = {lowest:.2} m, largest joint gap {:.1} mm",
            0.5 * half_seconds as f32,
            1e3 * stretch
        );
    }
    Ok(())
}
