//! Box2D-style determinism test: a fixed scene of jointed boxes falls onto the
//! ground and is stepped until every body sleeps. The step at which it sleeps and
//! the final state hash are committed constants, checked with 1, 2 and 4 rayon
//! threads.
//!
//! **When a change is meant to alter the simulation** (solver, narrowphase, joint or
//! sleep tuning), these constants change too: run
//! `cargo test -p fathom-world --test determinism -- --nocapture`, check that the scene still falls,
//! lands and sleeps sensibly, and copy the printed values into the constants below.
//! The hash alone also changes with the bytes it is taken of (`bytes_of` in
//! `src/metrics.rs`; postcard since the switch from bincode): the sleep step must not.

mod physics_support;
use fathom_math::{AngVector, Dim, Real, Space, Vector};
use fathom_world::{BodyDesc, BodyHandle, ColliderDesc, JointDesc, Shape, World};
use physics_support::*;

/// (step at which the 2D scene sleeps, final state hash).
const EXPECTED_2D: (usize, u64) = (140, 0x2c55_ec65_cb71_3837);
/// (step at which the 3D scene sleeps, final state hash).
const EXPECTED_3D: (usize, u64) = (105, 0x2e66_e3ef_da50_7daf);

/// Longest the scene may take to sleep: 20 s of simulated time.
const MAX_STEPS: usize = 1200;

/// A tilt of `angle` radians about z (an angle in 2D, a scaled axis in 3D).
fn tilt<const D: usize>(angle: Real) -> AngVector<D>
where
    Space<D>: Dim<D>,
{
    Space::<D>::cross(&axis::<D>(0), &axis::<D>(1)) * angle
}

/// Three chains of three boxes (half extent 0.25) joined by hinges at their touching
/// corners, dropped tilted from different heights onto a half-space.
fn scene<const D: usize>() -> World<D>
where
    Space<D>: Dim<D>,
{
    let mut w = world_with_gravity::<D>(-up::<D>() * G);
    add_ground_plane(&mut w, 0.6, 0.0);
    let h = 0.25;
    for chain in 0..3 {
        let base = axis::<D>(0) * (chain as Real * 2.5 - 2.5) + up::<D>() * (1.0 + chain as Real);
        let mut prev: Option<BodyHandle> = None;
        for link in 0..3 {
            let p = base + axis::<D>(0) * (link as Real * 2.0 * h);
            let shape = Shape::<D>::cuboid(Vector::<D>::repeat(h)).expect("positive size");
            let b = w
                .add_body(
                    &BodyDesc::dynamic()
                        .position(p)
                        .rotation(tilt::<D>(0.1 * (chain as Real + 1.0)))
                        .collider(ColliderDesc::new(shape)),
                )
                .expect("valid box");
            if let Some(a) = prev {
                // The hinge sits at the shared top edge of neighbouring boxes.
                let corner = axis::<D>(0) * h + up::<D>() * h;
                let joint = JointDesc::revolute()
                    .anchor_a(corner)
                    .anchor_b(corner - axis::<D>(0) * (2.0 * h));
                w.add_joint(a, b, &joint).expect("valid joint");
            }
            prev = Some(b);
        }
    }
    w
}

/// Steps the scene until it sleeps, in a pool of `threads` threads; returns
/// (step at which it slept, state hash then).
fn run_to_sleep<const D: usize>(threads: usize) -> (usize, u64)
where
    Space<D>: Dim<D>,
{
    in_pool(threads, || {
        let mut w = scene::<D>();
        let slept = (1..=MAX_STEPS).find(|_| {
            w.step();
            w.awake_body_count() == 0
        });
        let slept = slept.unwrap_or_else(|| panic!("D={D}: still awake after {MAX_STEPS} steps"));
        // The boxes are on the ground, not below it (they land within the contact slop).
        for (_, b) in w.bodies().filter(|(_, b)| b.is_dynamic()) {
            assert!(
                b.center_of_mass()[1] > 0.2,
                "D={D}: a box sank: {:?}",
                b.center_of_mass()
            );
        }
        (slept, w.state_hash())
    })
}

fn check<const D: usize>(expected: (usize, u64))
where
    Space<D>: Dim<D>,
{
    let got: Vec<(usize, u64)> = [1, 2, 4].iter().map(|t| run_to_sleep::<D>(*t)).collect();
    println!(
        "D={D}: slept at step {}, state hash {:#018x}",
        got[0].0, got[0].1
    );
    assert!(
        got.iter().all(|g| *g == got[0]),
        "D={D}: results differ between 1, 2 and 4 threads: {got:?}"
    );
    assert_eq!(
        got[0], expected,
        "D={D}: the determinism scene changed (slept at step {}, hash {:#018x}). If the change \
         was meant to alter the simulation, run `cargo test -p fathom-world --test determinism -- --nocapture` \
         and update EXPECTED_{D}D in crates/world/tests/determinism.rs with the printed values.",
        got[0].0, got[0].1
    );
}

#[test]
fn jointed_boxes_sleep_at_the_same_step_with_the_same_bits_2d() {
    check::<2>(EXPECTED_2D);
}

#[test]
fn jointed_boxes_sleep_at_the_same_step_with_the_same_bits_3d() {
    check::<3>(EXPECTED_3D);
}
