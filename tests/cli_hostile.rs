//! Hostile scene files through the `fathom` command line, one table: each run fails with a
//! message that names the field or the limit a user can change (never ron's options, never a
//! raw decoder error), and a scene behind a byte-order mark runs.

use fathom_sdf::{BakedGrid, Shape3};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn run(scene: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_fathom"))
        .args(["run", scene.to_str().unwrap(), "--steps", "1"])
        .output()
        .unwrap()
}

fn scratch() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("fathom-cli-hostile-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A 3D scene file of one dynamic body with `collider` (a collider's fields) and `body`
/// (more of the body's fields), after the world fields `world`.
fn scene3(world: &str, body: &str, collider: &str) -> String {
    format!(
        "#![enable(unwrap_variant_newtypes)]\nScene3D({world}bodies: [({body}colliders: [({collider})])])\n"
    )
}

fn nested(kind: &str, depth: usize) -> String {
    let mut shape = "Ball(radius: 0.5)".to_string();
    for _ in 0..depth {
        shape = match kind {
            "Rounded" => format!("Rounded(radius: 0.01, shape: {shape})"),
            _ => format!("Union(shapes: [{shape}])"),
        };
    }
    format!("shape: {shape}")
}

/// Grid files next to the scenes: one cut short by a sample, one whose samples are all
/// outside (no surface).
fn grid_files(dir: &Path) {
    let grid = BakedGrid::bake_shape(&Shape3::ball(0.5).unwrap(), 4).unwrap();
    let good = dir.join("good.grid");
    grid.save(&good).unwrap();
    let bytes = std::fs::read(&good).unwrap();
    std::fs::write(dir.join("short.grid"), &bytes[..bytes.len() - 4]).unwrap();
    let n = grid.values().len();
    let mut outside = bytes.clone();
    let at = outside.len() - 4 * n;
    for chunk in outside[at..].chunks_mut(4) {
        chunk.copy_from_slice(&1.0f32.to_le_bytes());
    }
    std::fs::write(dir.join("outside.grid"), outside).unwrap();
}

#[test]
fn hostile_scene_files_name_what_to_change() {
    let dir = scratch();
    grid_files(&dir);
    let grid = |file: &str| format!("shape: Grid(File(path: \"{file}\"))");
    // (name, scene text, words the message must hold)
    let rows: Vec<(&str, String, Vec<&str>)> = vec![
        (
            "30 nested roundings",
            scene3("", "", &nested("Rounded", 30)),
            vec!["MAX_SHAPE_DEPTH", "line 2"],
        ),
        (
            "30 nested unions",
            scene3("", "", &nested("Union", 30)),
            vec!["MAX_SHAPE_DEPTH"],
        ),
        (
            "rotation 1e30",
            scene3("", "rotation: (1e30, 0.0, 0.0), ", ""),
            vec!["bodies[0].rotation"],
        ),
        ("dt 1e9", scene3("dt: 1e9, ", "", ""), vec!["dt", "MAX_DT"]),
        (
            "a billion substeps",
            scene3("substeps: 1000000000, ", "", ""),
            vec!["substeps", "64"],
        ),
        (
            "gravity scale 1e30",
            scene3("", "gravity_scale: 1e30, ", ""),
            vec!["bodies[0].gravity_scale", "MAX_GRAVITY_SCALE"],
        ),
        (
            "friction NaN",
            scene3("", "", "friction: NaN"),
            vec!["bodies[0].colliders[0].friction"],
        ),
        (
            "restitution -1",
            scene3("", "", "restitution: -1.0"),
            vec!["bodies[0].colliders[0].restitution"],
        ),
        (
            "grid file cut short",
            scene3("", "", &grid("short.grid")),
            vec!["short.grid", "samples", "bytes"],
        ),
        (
            "grid with no sample inside",
            scene3("", "", &grid("outside.grid")),
            vec!["no surface"],
        ),
        (
            "grid path a device",
            scene3("", "", &grid("/dev/zero")),
            vec!["/dev/zero", "not a file"],
        ),
    ];
    for (name, text, words) in &rows {
        let path = dir.join("scene.ron");
        std::fs::write(&path, text).unwrap();
        let out = run(&path);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{name}: ran");
        for w in words {
            assert!(err.contains(w), "{name}: no `{w}` in: {err}");
        }
        for w in ["recursion_limit", "serde_stacker", "UnexpectedEnd"] {
            assert!(!err.contains(w), "{name}: `{w}` in: {err}");
        }
    }
    // A scene file named `/dev/zero` is refused before it is read.
    let out = run(Path::new("/dev/zero"));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success() && err.contains("/dev/zero"), "{err}");
    // A byte-order mark before a good scene is skipped: it runs.
    let path = dir.join("bom.ron");
    std::fs::write(&path, format!("\u{feff}{}", scene3("", "", ""))).unwrap();
    let out = run(&path);
    assert!(
        out.status.success(),
        "BOM: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    std::fs::remove_dir_all(dir).unwrap();
}
