//! Driving scene files and `fathom run` on them: the shipped file matches its
//! builder and round-trips, bad files are typed errors with line/column or the
//! field's path, a scripted run is reproducible, and the CLI's JSON carries the
//! vehicle's speed and position.

use fathom_app::vehicle_scene::{driving_scene, DrivingScene, DrivingSceneError};
use fathom_physics::vehicle::VehicleError;
use std::path::Path;
use std::process::Command;

fn driving_path() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/driving.ron")
}

#[test]
fn shipped_driving_scene_matches_its_builder_and_round_trips() {
    let text = std::fs::read_to_string(driving_path()).unwrap();
    let built = driving_scene();
    assert_eq!(
        text,
        format!("{}\n", built.to_ron_string().unwrap()),
        "scenes/driving.ron differs from its builder: run `cargo run --example driving`"
    );
    assert!(DrivingScene::is_driving_text(&text));
    assert_eq!(DrivingScene::from_ron_str(&text).unwrap(), built);
    // A plain scene file is not a driving scene.
    let plain = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/pyramid_3d.ron");
    assert!(!DrivingScene::is_driving_file(&plain));
    assert!(DrivingScene::is_driving_text(
        "// comment\n#![enable(implicit_some)]\n  DrivingScene()"
    ));
}

#[test]
fn bad_driving_files_are_typed_errors() {
    match DrivingScene::from_ron_str("DrivingScene(\n  vehicle: (wheels: [(radius: )]),\n)") {
        Err(DrivingSceneError::Parse { line, column, .. }) => {
            // The `)` where the radius' value should be: line 2, 1-based column 30.
            assert_eq!((line, column), (2, 30));
        }
        other => panic!("{other:?}"),
    }
    let field = |text: &str| match DrivingScene::from_ron_str(text) {
        Err(DrivingSceneError::Vehicle(e @ VehicleError::Invalid { .. })) => {
            e.field().unwrap().to_string()
        }
        other => panic!("{other:?}"),
    };
    assert_eq!(
        field("DrivingScene(vehicle: (wheels: [(radius: -0.3)]))"),
        "vehicle.wheels[0].radius"
    );
    assert_eq!(
        field("DrivingScene(vehicle: (wheels: [(), (stiffness: -1.0)]))"),
        "vehicle.wheels[1].stiffness"
    );
    assert_eq!(
        field("DrivingScene(inputs: [(time: 1.0), (time: 0.5)])"),
        "inputs.keys[1].time"
    );
    assert_eq!(
        field("DrivingScene(inputs: [(inputs: (throttle: 3.0))])"),
        "inputs.keys[0].inputs.throttle"
    );
    match DrivingScene::from_ron_str("DrivingScene(scene: (dt: -1.0))") {
        Err(DrivingSceneError::Scene(e)) => assert!(e.to_string().contains("dt"), "{e}"),
        other => panic!("{other:?}"),
    }
    assert!(matches!(
        DrivingScene::from_ron_file("no/such/file.ron"),
        Err(DrivingSceneError::Io { .. })
    ));
}

#[test]
fn scripted_run_is_reproducible_and_drives_the_track() {
    let scene = driving_scene();
    let run = |steps: u64| {
        let mut r = scene.build().unwrap();
        for _ in 0..steps {
            r.step().unwrap();
        }
        let b = r.world.body(r.vehicle.chassis()).unwrap();
        (b.position(), r.world.state_hash())
    };
    // 4 s of full throttle: over the bump field and onto the ramp.
    let (p, hash) = run(240);
    assert!(p.x > 40.0 && p.iter().all(|x| x.is_finite()), "{p:?}");
    assert_eq!(run(240).1, hash, "same scene and track, same bits");
}

#[test]
fn cli_run_reports_the_vehicle() {
    let out = Command::new(env!("CARGO_BIN_EXE_fathom"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(["run", "scenes/driving.ron", "--steps", "120", "--json"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["scene"], "driving");
    assert_eq!(json["steps"], 120);
    let speed = json["vehicle"]["speed"].as_f64().unwrap();
    // 2 s of full throttle from rest: about 13 m/s (the example's trace).
    assert!((5.0..25.0).contains(&speed), "{json}");
    let x = json["vehicle"]["position"][0].as_f64().unwrap();
    assert!(x > 5.0, "{json}");
    assert_eq!(json["vehicle"]["wheels_in_contact"], 4);
    // By name too.
    let named = Command::new(env!("CARGO_BIN_EXE_fathom"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(["run", "driving", "--steps", "120", "--json"])
        .output()
        .unwrap();
    let same = |v: &serde_json::Value| (v["vehicle"].clone(), v["state_hash"].clone());
    let named: serde_json::Value = serde_json::from_slice(&named.stdout).unwrap();
    assert_eq!(same(&named), same(&json), "same file, same run");
}
