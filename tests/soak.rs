//! The soak scene (`scenes/soak.ron`, written by `cargo run --example soak_scene`: 500
//! mixed bodies, 20 joints, a kinematic mixer turning forever) stepped in the tests,
//! checking every step that
//!
//! - every body's pose and velocities stay finite, and the guard froze nothing;
//! - the mechanical energy of the dynamic bodies (kinetic plus gravitational potential)
//!   never exceeds its initial value plus a bound on the work the mixer has put in;
//! - bodies fall asleep and are woken again (the sleeping count changes both ways).
//!
//! **The mixer's work** is bounded by [`fathom_app::energy`]'s ledger: the mixer is
//! kinematic, so it is the only source of energy besides gravity, whose potential is
//! counted.
//!
//! **History.** This soak first failed: the pile gained energy (289 kJ by step 450)
//! and a step took 1.5 s. Both came from continuous collision: bodies touching the
//! floor were clipped at time 0 each step while their velocity grew, and time of impact
//! searched curved patches to 1 mm. Now 2,000 steps take about 20 s at opt-level 1.
//! The 100,000-step figures (`fathom run scenes/soak.ron --steps 100000 --json`) are in
//! `docs/guarantees.md`.

use fathom_app::energy::EnergyLedger;
use fathom_math::{is_finite_vec, Dim, Space, Vector3};
use fathom_physics::world::SceneFile;
use fathom_world::{BodyKind, World3};

fn soak_world() -> World3 {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/scenes/soak.ron");
    match SceneFile::from_ron_file(path).expect("scenes/soak.ron loads") {
        SceneFile::Scene3D(s) => s.build().expect("the soak scene builds"),
        SceneFile::Scene2D(_) => panic!("the soak scene is 3D"),
    }
}

fn finite_and_unfrozen(w: &World3) -> Result<(), String> {
    for (h, b) in w.bodies() {
        let finite = is_finite_vec(&b.position())
            && is_finite_vec(&b.linear_velocity())
            && Space::<3>::ang_is_finite(&b.angular_velocity());
        if !finite || b.is_frozen() {
            return Err(format!("body {h:?} is non-finite or frozen"));
        }
    }
    Ok(())
}

fn soak(steps: usize) {
    let mut w = soak_world();
    assert_eq!(w.body_count(), 502, "walls, mixer and 500 bodies");
    let mut ledger = EnergyLedger::new(&w);
    let (mut fell_asleep, mut woke) = (false, false);
    let mut awake_before = w.awake_body_count();
    for step in 0..steps {
        w.step();
        finite_and_unfrozen(&w).unwrap_or_else(|e| panic!("step {step}: {e}"));
        ledger.record(&w);
        let e = ledger.report();
        // f32 sums over 500 bodies of energies up to ~1e5 J: 1e-3 relative is far above
        // rounding and far below any energy the solver could invent.
        let slack = 1e-3 * e.start.abs().max(1.0);
        assert!(
            e.max_excess.is_some_and(|x| x <= slack),
            "step {step}: energy exceeded the initial {:.3} J plus the mixer's work {:.3} J by {:.3} J",
            e.start,
            e.kinematic_work,
            e.max_rise
        );
        let awake = w.awake_body_count();
        fell_asleep |= awake < awake_before;
        woke |= awake > awake_before && fell_asleep;
        awake_before = awake;
    }
    assert!(fell_asleep, "no body fell asleep in {steps} steps");
    assert!(
        ledger.report().kinematic_work > 0.0,
        "the mixer never touched the pile"
    );
    if steps >= 2000 {
        assert!(woke, "no sleeping body was woken in {steps} steps");
    }
}

#[test]
fn soak_scene_2000_steps() {
    soak(2000);
}

/// The scene file matches what its builder writes (fields and counts), so the soak
/// figures refer to the committed scene.
#[test]
fn soak_scene_file_is_the_documented_scene() {
    let w = soak_world();
    assert_eq!(w.joints().count(), 20);
    let kinds = |k| w.bodies().filter(|(_, b)| b.kind() == k).count();
    assert_eq!(
        (
            kinds(BodyKind::Fixed),
            kinds(BodyKind::Kinematic),
            kinds(BodyKind::Dynamic)
        ),
        (1, 1, 500)
    );
    let spin = w
        .bodies()
        .find(|(_, b)| b.kind() == BodyKind::Kinematic)
        .unwrap()
        .1;
    assert_eq!(spin.angular_velocity(), Vector3::new(0.0, 1.0, 0.0));
}
