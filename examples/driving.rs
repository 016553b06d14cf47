//! Builds the driving scene in code (`fathom_app::vehicle_scene::driving_scene`:
//! SDF terrain with blended hills, a ramp, a bank and a bump field; boxes,
//! barrels and a small stack; the car and its scripted inputs), writes it to
//! `scenes/driving.ron`, and drives it for a few seconds to show the car's
//! speed and position over its scripted 20 s.
//!
//! `cargo run --example driving` writes the file; `-- --check` only checks that
//! the file matches the builder (exit status 1 when it does not).

use fathom_app::vehicle_scene::{driving_scene, DrivingScene};
use std::path::Path;
use std::process::ExitCode;

fn main() -> ExitCode {
    let check = std::env::args().any(|a| a == "--check");
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/driving.ron");
    let scene = driving_scene();
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
    drive(&scene)
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
