//! Every shipped scene (`scenes/*.ron`, both dimensions) snapshots and restores bit for bit,
//! binary and RON, and steps on to the same bits on 1, 2 and 4 threads. The grid files are
//! not needed to restore: the grids travel inside the snapshot, each distinct grid once. A
//! grid file named by many colliders is read once and shared.

use fathom_math::{Dim, Space};
use fathom_sdf::{GridSource, Shape};
use fathom_world::{Scene, Scene2, Scene3, World};
use serde::Deserialize;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Steps before the snapshot (contacts and warm-start impulses are cached by then) and after.
const STEPS_BEFORE: usize = 10;
const STEPS_AFTER: usize = 10;

/// A scene file as the CLI reads it (`src/scene_file.rs`): one scene of either dimension.
#[derive(Deserialize)]
enum SceneFile {
    Scene2D(Scene2),
    Scene3D(Scene3),
}

/// A driving scene (`src/vehicle_scene.rs`): only its world part is read here, the vehicle
/// is built by `fathom-vehicle`, which depends on this crate.
#[derive(Deserialize)]
struct DrivingScene {
    scene: Scene3,
}

fn scenes_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scenes")
}

/// Every shipped scene file, sorted by name.
fn scene_files() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(scenes_dir())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "ron"))
        .collect();
    files.sort();
    files
}

/// Reads a scene file as the CLI does, grid files relative to it.
fn read(path: &Path) -> SceneFile {
    let text = std::fs::read_to_string(path).unwrap();
    let mut file = if text.contains("DrivingScene(") {
        // Read as `src/vehicle_scene.rs` reads it: plain options, no extension by default.
        let d: DrivingScene = fathom_sdf::ron_options()
            .from_str(&text)
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        SceneFile::Scene3D(d.scene)
    } else {
        fathom_sdf::ron_options()
            .with_default_extension(ron::extensions::Extensions::UNWRAP_VARIANT_NEWTYPES)
            .from_str(&text)
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
    };
    let base = path.parent().unwrap();
    match &mut file {
        SceneFile::Scene2D(s) => s.load_files(base).unwrap(),
        SceneFile::Scene3D(s) => s.load_files(base).unwrap(),
    }
    file
}

fn steps<const D: usize>(w: &mut World<D>, n: usize)
where
    Space<D>: Dim<D>,
{
    for _ in 0..n {
        w.step();
    }
}

/// Runs `f` in a rayon pool of `threads` threads.
fn in_pool<T: Send>(threads: usize, f: impl FnOnce() -> T + Send) -> T {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("thread pool")
        .install(f)
}

/// Builds `scene`, steps it, snapshots it both ways, restores each into a fresh world and
/// steps all three on, on 1, 2 and 4 threads: the same state hash, bit for bit. Returns the binary snapshot's size.
fn round_trip<const D: usize>(name: &str, scene: &Scene<D>) -> usize
where
    Space<D>: Dim<D>,
{
    let mut original = scene.build().unwrap_or_else(|e| panic!("{name}: {e}"));
    steps(&mut original, STEPS_BEFORE);
    let (bytes, text) = (original.snapshot(), original.snapshot_ron());
    let mut from_bin = World::<D>::default();
    from_bin
        .restore(&bytes)
        .unwrap_or_else(|e| panic!("{name} binary: {e}"));
    let mut from_ron = World::<D>::default();
    from_ron
        .restore_ron(&text)
        .unwrap_or_else(|e| panic!("{name} RON: {e}"));
    assert_eq!(
        from_bin.state_hash(),
        original.state_hash(),
        "{name} binary"
    );
    assert_eq!(from_ron.state_hash(), original.state_hash(), "{name} RON");
    // Each copy steps on its own number of threads: the same bits for 1, 2 and 4 threads
    // (the large scenes share their contacts' colours and the narrowphase out over them).
    in_pool(1, || steps(&mut original, STEPS_AFTER));
    in_pool(2, || steps(&mut from_bin, STEPS_AFTER));
    in_pool(4, || steps(&mut from_ron, STEPS_AFTER));
    assert_eq!(
        from_bin.state_hash(),
        original.state_hash(),
        "{name} binary, stepped on 2 threads against 1"
    );
    assert_eq!(
        from_ron.state_hash(),
        original.state_hash(),
        "{name} RON, stepped on 4 threads against 1"
    );
    bytes.len()
}

#[test]
fn every_shipped_scene_restores_bit_for_bit() {
    let files = scene_files();
    assert!(files.len() >= 17, "the shipped scenes: {files:?}");
    for path in files {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let size = match read(&path) {
            SceneFile::Scene2D(s) => round_trip(&name, &s),
            SceneFile::Scene3D(s) => round_trip(&name, &s),
        };
        println!("{name}: binary snapshot {size} bytes");
    }
}

/// The grid file sources in a world's colliders, in handle order.
fn grids<const D: usize>(w: &World<D>) -> Vec<Arc<fathom_sdf::BakedGrid<D>>>
where
    Space<D>: Dim<D>,
{
    let mut out = Vec::new();
    for (_, c) in w.colliders() {
        c.shape().visit(&mut |s| {
            if let Shape::Grid(g @ GridSource::File { .. }) = s {
                out.push(Arc::clone(g.shared().expect("loaded")));
            }
        });
    }
    out
}

/// `mesh_3d` names two grid files from eight colliders: loading reads each once and the
/// colliders share it; the snapshot stores each once (its size grows by the two grids, not
/// eight) and the restored colliders share them again.
#[test]
fn mesh_scene_grids_are_shared_and_stored_once() {
    let SceneFile::Scene3D(scene) = read(&scenes_dir().join("mesh_3d.ron")) else {
        panic!("mesh_3d is 3D");
    };
    let world = scene.build().unwrap();
    let loaded = grids(&world);
    assert_eq!(loaded.len(), 8);
    let distinct = |gs: &[Arc<fathom_sdf::BakedGrid<3>>]| {
        let mut seen: Vec<&Arc<_>> = Vec::new();
        for g in gs {
            if !seen.iter().any(|s| Arc::ptr_eq(s, g)) {
                seen.push(g);
            }
        }
        seen.len()
    };
    assert_eq!(
        distinct(&loaded),
        2,
        "star.grid and cross.grid, each read once"
    );
    let restored = World::<3>::from_snapshot(&world.snapshot()).unwrap();
    let back = grids(&restored);
    assert_eq!(distinct(&back), 2, "restored colliders share their grids");
    for (a, b) in loaded.iter().zip(&back) {
        assert_eq!(**a, **b);
    }
    // The snapshot holds each grid's samples once: it is smaller than three copies of them.
    let samples: usize = [&loaded[0], &loaded[1]]
        .iter()
        .map(|g| g.memory_bytes())
        .sum();
    let size = world.snapshot().len();
    assert!(
        size > samples && size < samples * 3 / 2,
        "{size} bytes for {samples} of samples"
    );
}
