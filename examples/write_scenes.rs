//! Writes every shipped demo scene, built in code by `fathom_app::demo_scenes`,
//! to `scenes/<name>.ron`, and the distance grids baked from the shipped OBJ
//! meshes to the grid files the mesh scene names. Run after changing a
//! builder: `cargo run --example write_scenes`.

use fathom_app::demo_scenes::{DEMO_SCENES, MESH_ASSETS};
use std::path::Path;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes");
    std::fs::create_dir_all(&dir)?;
    for mesh in &MESH_ASSETS {
        let path = dir.join(mesh.grid_path);
        mesh.bake().save(&path)?;
        println!("wrote {} (baked from {})", path.display(), mesh.obj_path);
    }
    for demo in DEMO_SCENES {
        let text = (demo.build)().to_ron_string()?;
        let path = dir.join(format!("{}.ron", demo.name));
        std::fs::write(&path, format!("{text}\n"))?;
        println!("wrote {}", path.display());
    }
    Ok(())
}
