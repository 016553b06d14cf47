//! The smallest Fathom program: a box dropped on the ground, in 3D, stepped
//! for two seconds. `cargo run --example hello_world`.

use fathom_physics::math::Vector3;
use fathom_physics::sdf::Shape3;
use fathom_physics::world::{BodyDesc, ColliderDesc, World3};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut world = World3::default();
    let ground = Shape3::cuboid(Vector3::new(10.0, 0.5, 10.0))?;
    world.add_body(
        &BodyDesc::fixed()
            .position(Vector3::new(0.0, -0.5, 0.0))
            .collider(ColliderDesc::new(ground)),
    )?;
    let crate_box = Shape3::cuboid(Vector3::new(0.5, 0.5, 0.5))?;
    let body = world.add_body(
        &BodyDesc::dynamic()
            .position(Vector3::new(0.0, 3.0, 0.0))
            .collider(ColliderDesc::new(crate_box).friction(0.6)),
    )?;
    for step in 0..120 {
        world.step();
        if step % 20 == 19 {
            let b = world.body(body).expect("the box was not removed");
            println!(
                "t = {:.2} s  height = {:.3} m",
                (step + 1) as f32 / 60.0,
                b.pose().translation.vector.y
            );
        }
    }
    Ok(())
}
