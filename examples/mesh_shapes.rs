//! Shapes baked from OBJ meshes: parses the shipped star and cross meshes,
//! bakes each into a signed distance grid, builds the `mesh_3d` scene with
//! them and steps it for two seconds, printing where each piece landed.
//!
//! `cargo run --release --example mesh_shapes`

use fathom_app::demo_scenes::{mesh_3d, MESH_ASSETS};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    for mesh in &MESH_ASSETS {
        let grid = mesh.bake();
        let dims = grid.dims();
        println!(
            "{}: {} x {} x {} samples, {:.1} cm cells, {} KB",
            mesh.obj_path,
            dims.x,
            dims.y,
            dims.z,
            100.0 * grid.cell(),
            grid.memory_bytes() / 1024
        );
    }
    let mut world = mesh_3d().build()?;
    for _ in 0..120 {
        world.step();
    }
    for (h, b) in world.bodies().filter(|(_, b)| b.is_dynamic()) {
        let p = b.position();
        println!(
            "body {:2}: at ({:5.2}, {:5.2}, {:5.2}) m",
            h.0.index, p.x, p.y, p.z
        );
    }
    Ok(())
}
