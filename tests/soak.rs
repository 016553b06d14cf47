//! The soak scene (`scenes/soak.ron`, written by `cargo run --example soak_scene`: 500
//! mixed bodies, 20 joints, a kinematic mixer turning forever) stepped in the tests,
//! checking every step that
//!
//! - every body's pose and velocities stay finite, and the guard froze nothing;
//! - the mechanical energy of the dynamic bodies (kinetic plus gravitational potential)
//!   never exceeds its initial value plus a bound on the work the mixer has put in;
//! - bodies fall asleep and are woken again (the sleeping count changes both ways).
//!
//! **The mixer's work.** The mixer is kinematic (infinite mass), so it is the only source
//! of energy besides gravity, which the potential accounts for. Per step it does at most
//! `sum |J| |v_mixer(p)|` over its contact points `p`, `J` the impulse it applied there:
//! the normal impulse of the whole step plus the friction impulse (cached per substep, so
//! times the substep count). The test sums that bound from the contact cache.
//!
//! **Status: both soak runs are `#[ignore]`d and fail today.** Measured at opt-level 1 on
//! this scene: a step takes about 1.5 s once the pile has landed (capsule and mixer
//! contacts in the narrowphase's general search), so even 600 steps take 15 minutes,
//! and the kinetic energy of the pile climbs far past anything the mixer (tip speed
//! 3 m/s) can give it: 15 kJ at step 50 (the fall), 81 kJ at step 200, 289 kJ at step
//! 450, with penetrations of 0.2 to 0.3 m where the mixer drives the pile into the walls.
//! The energy check below is the one that must pass once that is fixed; the file test
//! runs in CI.

use fathom::SceneFile;
use fathom_math::{is_finite_vec, Dim, Real, Space, Vector3};
use fathom_world::{BodyHandle, BodyKind, World3};

fn soak_world() -> World3 {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/scenes/soak.ron");
    match SceneFile::from_ron_file(path).expect("scenes/soak.ron loads") {
        SceneFile::Scene3D(s) => s.build().expect("the soak scene builds"),
        SceneFile::Scene2D(_) => panic!("the soak scene is 3D"),
    }
}

/// Kinetic plus potential energy of the dynamic bodies, J (potential from the world's
/// gravity, zero at the origin).
fn mechanical_energy(w: &World3) -> f64 {
    let g = w.settings().gravity;
    w.bodies()
        .filter(|(_, b)| b.kind() == BodyKind::Dynamic)
        .map(|(_, b)| {
            let potential = -b.mass() * g.dot(&b.center_of_mass());
            f64::from(b.kinetic_energy()) + f64::from(potential)
        })
        .sum()
}

/// The bound on the work the mixer did in the last step, J (see the module docs).
fn mixer_work_bound(w: &World3, mixer: BodyHandle) -> f64 {
    let m = w.body(mixer).expect("the mixer lives");
    let substeps = w.settings().solver.substeps as Real;
    let mut work = 0.0;
    for pair in w.contact_pairs() {
        let on_mixer = |c| w.collider(c).is_some_and(|c| c.body() == mixer);
        if !(on_mixer(pair.a) || on_mixer(pair.b)) {
            continue;
        }
        for p in pair.manifolds.iter().flat_map(|m| m.points.iter()) {
            let at = (p.point_a + p.point_b) * 0.5;
            let impulse = p.total_normal_impulse + p.friction_impulse.norm() * substeps;
            work += f64::from(impulse * m.velocity_at(&at).norm());
        }
    }
    work
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
    let mixer = w
        .bodies()
        .find(|(_, b)| b.kind() == BodyKind::Kinematic)
        .map(|(h, _)| h)
        .expect("the scene has a mixer");
    assert_eq!(w.body_count(), 502, "walls, mixer and 500 bodies");
    let e0 = mechanical_energy(&w);
    let mut work = 0.0;
    let (mut fell_asleep, mut woke) = (false, false);
    let mut awake_before = w.awake_body_count();
    for step in 0..steps {
        w.step();
        finite_and_unfrozen(&w).unwrap_or_else(|e| panic!("step {step}: {e}"));
        work += mixer_work_bound(&w, mixer);
        let e = mechanical_energy(&w);
        // f32 sums over 500 bodies of energies up to ~1e4 J: 1e-3 relative is far above
        // rounding and far below any energy the solver could invent.
        let slack = 1e-3 * e0.abs().max(1.0);
        assert!(
            e <= e0 + work + slack,
            "step {step}: energy {e:.3} J exceeds the initial {e0:.3} J plus mixer work {work:.3} J"
        );
        let awake = w.awake_body_count();
        fell_asleep |= awake < awake_before;
        woke |= awake > awake_before && fell_asleep;
        awake_before = awake;
    }
    assert!(fell_asleep, "no body fell asleep in {steps} steps");
    assert!(work > 0.0, "the mixer never touched the pile");
    if steps >= 2000 {
        assert!(woke, "no sleeping body was woken in {steps} steps");
    }
}

#[test]
#[ignore = "the soak scene gains energy (289 kJ by step 450) and steps at ~1.5 s in dev; see module docs"]
fn soak_scene_600_steps() {
    soak(600);
}

#[test]
#[ignore = "the soak scene gains energy and 2,000 steps take ~50 min in dev; see module docs"]
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
            kinds(BodyKind::Static),
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
