//! Builds the driving scene in code (`fathom_app::vehicle_scene::driving_scene`:
//! SDF terrain with blended hills, a ramp, a bank and a bump field; boxes,
//! barrels and a small stack; the car and its scripted inputs), writes it to
//! `scenes/driving.ron`, and drives it for a few seconds to show the car's
//! speed and position over its scripted 20 s.
//!
//! It also writes `scenes/driving_craters.ron`, the same scene with scripted craters
//! blasted ahead of the car (`fathom run scenes/driving_craters.ron`).
//!
//! `cargo run --example driving` writes the files; `-- --check` only checks that
//! the files match the builders (exit status 1 when they do not). `-- --craters` drives the
//! crater scene, `-- --noise` the car on a procedural noise terrain (a user field, which no
//! file can hold) instead of the shipped scene.

use fathom_app::noise_terrain::noise_driving_scene;
use fathom_app::vehicle_scene::{crater_scene, driving_scene, DrivingScene};
use std::path::Path;
use std::process::ExitCode;

fn main() -> ExitCode {
    let has = |flag: &str| std::env::args().any(|a| a == flag);
    let check = has("--check");
    let mut status = ExitCode::SUCCESS;
    for (file, scene) in [
        ("scenes/driving.ron", driving_scene()),
        ("scenes/driving_craters.ron", crater_scene()),
    ] {
        if write_or_check(file, &scene, check) != ExitCode::SUCCESS {
            status = ExitCode::FAILURE;
        }
    }
    if check || status != ExitCode::SUCCESS {
        return status;
    }
    if has("--noise") {
        match noise_driving_scene() {
            Ok(scene) => drive(&scene),
            Err(e) => {
                eprintln!("driving: {e}");
                ExitCode::FAILURE
            }
        }
    } else if has("--craters") {
        drive(&crater_scene())
    } else {
        drive(&driving_scene())
    }
}

/// Writes `scene` to `file` (under the package), or with `check` compares it.
fn write_or_check(file: &str, scene: &DrivingScene, check: bool) -> ExitCode {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(file);
    let text = match scene.to_ron_string() {
        Ok(t) => format!("{t}\n"),
        Err(e) => {
            eprintln!("driving: {e}");
            return ExitCode::FAILURE;
        }
    };
    if check {
        let same = std::fs::read_to_string(&path).is_ok_and(|t| t == text);
        println!(
            "{} {}",
            path.display(),
            if same { "matches" } else { "differs" }
        );
        return if same {
            ExitCode::SUCCESS
        } else {
            ExitCode::FAILURE
        };
    }
    if let Err(e) = std::fs::write(&path, &text) {
        eprintln!("driving: cannot write {}: {e}", path.display());
        return ExitCode::FAILURE;
    }
    println!("wrote {}", path.display());
    ExitCode::SUCCESS
}

/// Drives the scene for 20 s and prints the car's state every second.
fn drive(scene: &DrivingScene) -> ExitCode {
    let mut run = match scene.build() {
        Ok(r) => r,
        Err(e) => {
            eprintln!("driving: {e}");
            return ExitCode::FAILURE;
        }
    };
    for second in 1..=20 {
        for _ in 0..60 {
            if let Err(e) = run.step() {
                eprintln!("driving: {e}");
                return ExitCode::FAILURE;
            }
        }
        let speed = run.vehicle.forward_speed(&run.world).unwrap_or(0.0);
        let p = run
            .world
            .body(run.vehicle.chassis())
            .map(|b| b.position())
            .unwrap_or_default();
        let contact = run.vehicle.wheels().iter().filter(|w| w.in_contact).count();
        println!(
            "t {second:>2} s  speed {speed:6.2} m/s  gear {}  position ({:7.2}, {:5.2}, {:6.2})  wheels down {contact}",
            run.vehicle.gear() + 1,
            p.x,
            p.y,
            p.z
        );
    }
    ExitCode::SUCCESS
}
