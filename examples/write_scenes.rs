//! Writes every shipped demo scene, built in code by `fathom::demo_scenes`,
//! to `scenes/<name>.ron`. Run after changing a builder:
//! `cargo run --example write_scenes`.

use fathom::demo_scenes::DEMO_SCENES;
use std::path::Path;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes");
    std::fs::create_dir_all(&dir)?;
    for demo in DEMO_SCENES {
        let text = (demo.build)().to_ron_string()?;
        let path = dir.join(format!("{}.ron", demo.name));
        std::fs::write(&path, format!("{text}\n"))?;
        println!("wrote {}", path.display());
    }
    Ok(())
}
