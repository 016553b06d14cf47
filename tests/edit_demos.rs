//! The demos of run-time edits and user fields: scripted craters in the driving scene (also
//! through `fathom run`), the 2D tunnel dug under falling balls, and the car on a procedural
//! noise terrain given as a user field.

use fathom_app::noise_terrain::{noise_driving_scene, NoiseTerrain, NOISE_TERRAIN};
use fathom_app::tunnels::{tunnels_view, Digger, TunnelDemo, TERRAIN_BOTTOM};
use fathom_app::vehicle_scene::{crater_scene, DrivingScene, DrivingSceneError};
use fathom_sdf::Sdf;
use fathom_viewer::sim::Simulation;
use fathom_world::{Shape, UserFields, World3};
use std::path::Path;
use std::process::Command;
use std::sync::Arc;

#[test]
fn shipped_crater_scene_matches_its_builder() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/driving_craters.ron");
    let text = std::fs::read_to_string(path).unwrap();
    assert_eq!(
        format!("{}\n", crater_scene().to_ron_string().unwrap()),
        text,
        "scenes/driving_craters.ron differs from its builder: run `cargo run --example driving`"
    );
    assert_eq!(DrivingScene::from_ron_str(&text).unwrap(), crater_scene());
}

#[test]
fn bad_blasts_are_typed_errors_naming_the_field() {
    let mut scene = crater_scene();
    scene.blasts[1].radius = f32::NAN;
    match scene.validate() {
        Err(DrivingSceneError::Blast { field, .. }) => assert_eq!(field, "blasts[1].radius"),
        other => panic!("{other:?}"),
    }
    let mut scene = crater_scene();
    scene.blasts[0].time = 20.0;
    assert!(matches!(
        scene.validate(),
        Err(DrivingSceneError::Blast { field, .. }) if field == "blasts[1].time"
    ));
}

/// The car's chassis position and the state hash after `steps` of the crater scene, and how
/// many edits the ground holds.
fn crater_run(steps: u64) -> (fathom_math::Vector3, u64, usize) {
    let mut run = crater_scene().build().unwrap();
    for _ in 0..steps {
        run.step().unwrap();
    }
    let edits: usize = run
        .world
        .colliders()
        .map(|(_, c)| match c.shape() {
            Shape::Edited(e) => e.edits().len(),
            _ => 0,
        })
        .sum();
    let p = run.world.body(run.vehicle.chassis()).unwrap().position();
    (p, run.world.state_hash(), edits)
}

#[test]
fn the_car_drives_through_scripted_craters_reproducibly() {
    // 4 s: the crater blasted 5 m ahead at the start is in the ground, and the car drove
    // through it, over the bumps and onto the ramp as on the unblasted track.
    let (p, hash, edits) = crater_run(240);
    assert_eq!(edits, 1);
    assert!(p.x > 40.0 && p.iter().all(|x| x.is_finite()), "{p:?}");
    assert!(p.y > 0.3, "{p:?}");
    assert_eq!(
        crater_run(240).1,
        hash,
        "same scene, same craters, same bits"
    );
}

#[test]
fn fathom_run_blasts_the_scripted_craters() {
    let out = Command::new(env!("CARGO_BIN_EXE_fathom"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args([
            "run",
            "scenes/driving_craters.ron",
            "--steps",
            "180",
            "--json",
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let (_, hash, _) = crater_run(180);
    assert_eq!(json["state_hash"], format!("{hash:016x}"), "{json}");
}

#[test]
fn balls_fall_through_a_tunnel_dug_in_2d_terrain() {
    let mut demo = TunnelDemo::new(20).unwrap();
    for _ in 0..600 {
        demo.step().unwrap();
    }
    // Every point of the path carved (100-odd carves), and balls came out below the slab,
    // which they can only reach through the tunnel.
    assert!(demo.carves() > 50, "{}", demo.carves());
    let through = demo.balls_through();
    assert!(through >= 3, "{through} balls below y = {TERRAIN_BOTTOM}");
}

/// The viewer's tunnel scene (`fathom view tunnels_2d`): its digger controller makes the
/// same carves at the same steps as the demo, so the viewer shows the demo's very world.
#[test]
fn the_viewer_digs_the_same_tunnel_as_the_demo() {
    let named = tunnels_view().unwrap();
    let fathom_world::SceneFile::Scene2D(scene) = named.scene.clone() else {
        panic!("a 2D scene");
    };
    let mut sim = Simulation::with_controller(scene, Some(Box::new(Digger::default()))).unwrap();
    let mut demo = TunnelDemo::new(60).unwrap();
    for _ in 0..240 {
        sim.step_once();
        demo.step().unwrap();
    }
    assert_eq!(sim.world().state_hash(), demo.world.state_hash());
    assert!(demo.carves() > 50);
}

#[test]
fn the_car_drives_on_a_procedural_noise_terrain() {
    let terrain = NoiseTerrain::default();
    // The terrain's own field claims Lipschitz 1; the sampled check accepts it.
    assert_eq!(Sdf::<3>::lipschitz(&terrain), 1.0);
    let scene = noise_driving_scene().unwrap();
    let mut run = scene.build().unwrap();
    for _ in 0..300 {
        run.step().unwrap();
    }
    let chassis = run.world.body(run.vehicle.chassis()).unwrap();
    let p = chassis.position();
    let up = chassis.pose().rotation * fathom_math::Vector3::y();
    // 5 s of throttle over rolling ground: well down the track, upright, wheels down.
    assert!(p.x > 30.0 && p.iter().all(|x| x.is_finite()), "{p:?}");
    assert!(up.y > 0.8, "tipped: up = {up:?}");
    assert!(p.y > terrain.height(p.x, p.z), "below the ground: {p:?}");
    let down = run.vehicle.wheels().iter().filter(|w| w.in_contact).count();
    assert!(down >= 3, "{down} wheels down");
    // A snapshot keeps the terrain by name; restored with it, the run goes on bit for bit.
    let bytes = run.world.snapshot();
    let mut fields = UserFields::new();
    fields.insert(NOISE_TERRAIN, Arc::new(NoiseTerrain::default()));
    let restored = World3::from_snapshot_with_fields(&bytes, &fields).unwrap();
    assert_eq!(restored.state_hash(), run.world.state_hash());
    assert!(World3::from_snapshot(&bytes).is_err());
}
