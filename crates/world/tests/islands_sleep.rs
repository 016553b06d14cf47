//! Islands and sleeping: a pile comes to rest and sleeps (the solver's body count
//! drops to zero), a ball thrown at it wakes it, game calls and joints wake islands,
//! and sleeping can be switched off. Written once for 2D and 3D.
//!
//! Two piles: two columns of stacked capsules on a half-space (the wake tests use
//! its two islands), and a heap of jumbled boxes that must find its own rest.

use fathom_math::{AngVector, Dim, Real, Space, Vector};
use fathom_world::{BodyDesc, BodyHandle, ColliderDesc, JointDesc, Shape, World, WorldSettings};
use std::f32::consts::FRAC_PI_2;

fn v<const D: usize>(x: Real, y: Real, z: Real) -> Vector<D> {
    let mut p = Vector::<D>::zeros();
    p[0] = x;
    p[1] = y;
    if D == 3 {
        p[2] = z;
    }
    p
}

/// A quarter turn about world axis `i` (z in 2D, whatever `i`), as an angle or scaled axis.
fn quarter_turn<const D: usize>(i: usize) -> AngVector<D>
where
    Space<D>: Dim<D>,
{
    let e = |k: usize| {
        v::<D>(
            (k == 0) as u8 as Real,
            (k == 1) as u8 as Real,
            (k == 2) as u8 as Real,
        )
    };
    let axis = if D == 2 {
        Space::<D>::cross(&e(0), &e(1))
    } else {
        Space::<D>::cross(&e((i + 1) % 3), &e((i + 2) % 3))
    };
    axis * FRAC_PI_2
}

fn ground<const D: usize>(w: &mut World<D>)
where
    Space<D>: Dim<D>,
{
    let plane = Shape::<D>::half_space(v::<D>(0.0, 1.0, 0.0), 0.0).unwrap();
    w.add_body(&BodyDesc::fixed().collider(ColliderDesc::new(plane)))
        .unwrap();
}

/// Two columns of four capsules (radius 0.2, segment 1.6 m) lying along x, stacked
/// flat on each other (3.6 m apart): two islands. Crossed logs are `log_cabin_stands_3d`.
fn pile<const D: usize>(w: &mut World<D>) -> Vec<BodyHandle>
where
    Space<D>: Dim<D>,
{
    let capsule = Shape::<D>::capsule(0.8, 0.2).unwrap();
    let mut out = Vec::new();
    for layer in 0..4 {
        let y = 0.2 + 0.4 * layer as Real;
        for side in [-0.6, 0.6] {
            let (p, turn) = (v::<D>(side * 3.0, y, 0.0), quarter_turn::<D>(2));
            let c = ColliderDesc::new(capsule.clone()).friction(0.8);
            out.push(
                w.add_body(&BodyDesc::dynamic().position(p).rotation(turn).collider(c))
                    .unwrap(),
            );
        }
    }
    out
}

/// Steps until every body sleeps (or `max_steps`); returns the step count.
fn step_until_asleep<const D: usize>(w: &mut World<D>, max_steps: usize) -> Option<usize>
where
    Space<D>: Dim<D>,
{
    (1..=max_steps).find(|_| {
        w.step();
        w.awake_body_count() == 0
    })
}

fn pile_sleeps_and_wakes<const D: usize>()
where
    Space<D>: Dim<D>,
{
    let mut w = World::<D>::default();
    ground(&mut w);
    let bodies = pile(&mut w);
    let start: Vec<Vector<D>> = bodies
        .iter()
        .map(|h| w.body(*h).unwrap().position())
        .collect();
    w.step();
    assert_eq!(
        w.solved_body_count(),
        bodies.len(),
        "D={D}: every body solved while awake"
    );
    // Settling plus the half second of calm: well within 4 s.
    let slept = step_until_asleep(&mut w, 240);
    assert!(slept.is_some(), "D={D}: the pile never slept");
    w.step();
    assert_eq!(
        w.solved_body_count(),
        0,
        "D={D}: sleeping bodies were solved"
    );
    assert!(bodies.iter().all(|h| w.is_sleeping(*h)));
    // The pile is still standing where it was built (it settled by millimetres).
    for (h, p0) in bodies.iter().zip(&start) {
        let p = w.body(*h).unwrap().position();
        assert!(
            (p - p0).norm() < 0.05,
            "D={D}: a capsule moved from {p0:?} to {p:?}"
        );
    }
    // Asleep, nothing moves however long it sleeps, and its contacts stay: the same pairs
    // touch (a step that solves nothing keeps the cache as it was) and no event is raised.
    let hash = w.state_hash();
    let touching = w.touching_pairs().to_vec();
    let contacts = w.contact_count();
    assert!(!touching.is_empty() && contacts > 0);
    for _ in 0..30 {
        w.step();
        assert!(w.events().is_empty(), "D={D}: {:?}", w.events());
    }
    assert_eq!(w.state_hash(), hash, "D={D}: a sleeping pile changed");
    assert_eq!(
        w.touching_pairs(),
        &touching[..],
        "D={D}: touching pairs changed"
    );
    assert_eq!(
        w.contact_count(),
        contacts,
        "D={D}: cached contacts changed"
    );

    // A ball thrown at the top of the left column wakes that column (one island through
    // its contacts); the right column, untouched, sleeps on.
    let (left, right): (Vec<_>, Vec<_>) = bodies.iter().enumerate().partition(|(i, _)| i % 2 == 0);
    let top = w.body(bodies[6]).unwrap().position();
    let ball = ColliderDesc::new(Shape::<D>::ball(0.2).unwrap()).density(5.0);
    let thrown = w
        .add_body(
            &BodyDesc::dynamic()
                .position(top + v::<D>(-2.0, 0.0, 0.0))
                .linear_velocity(v::<D>(10.0, 0.0, 0.0))
                .gravity_scale(0.0)
                .collider(ball),
        )
        .unwrap();
    let mut woke = false;
    for _ in 0..30 {
        w.step();
        if left.iter().all(|(_, h)| !w.is_sleeping(**h)) {
            woke = true;
            break;
        }
    }
    assert!(
        woke,
        "D={D}: the thrown ball did not wake the column it hit"
    );
    assert!(
        right.iter().all(|(_, h)| w.is_sleeping(**h)),
        "D={D}: the other column woke"
    );
    assert!(!w.is_sleeping(thrown));
    w.step();
    // The hit column and the ball are solved again; the other column still costs nothing.
    assert!(
        w.solved_body_count() > left.len(),
        "D={D}: {}",
        w.solved_body_count()
    );
    assert!(w.solved_body_count() <= left.len() + 1 + right.len());
}

#[test]
fn pile_comes_to_rest_sleeps_and_a_thrown_ball_wakes_it() {
    pile_sleeps_and_wakes::<2>();
    pile_sleeps_and_wakes::<3>();
}

fn game_calls_and_joints_wake<const D: usize>()
where
    Space<D>: Dim<D>,
{
    let mut w = World::<D>::default();
    ground(&mut w);
    let ball = |w: &mut World<D>, x: Real| {
        let c = ColliderDesc::new(Shape::<D>::ball(0.25).unwrap());
        w.add_body(
            &BodyDesc::dynamic()
                .position(v::<D>(x, 0.25, 0.0))
                .collider(c),
        )
        .unwrap()
    };
    let (a, b, lone) = (ball(&mut w, 0.0), ball(&mut w, 1.0), ball(&mut w, 3.0));
    // a and b are one island through a distance joint; lone is its own island.
    w.add_joint(a, b, &JointDesc::distance()).unwrap();
    assert!(
        step_until_asleep(&mut w, 120).is_some(),
        "D={D}: balls at rest never slept"
    );
    // A velocity set on b wakes its joint partner a, not the lone ball.
    w.set_linear_velocity(b, v::<D>(0.0, 0.5, 0.0)).unwrap();
    assert!(!w.is_sleeping(a) && !w.is_sleeping(b) && w.is_sleeping(lone));
    w.step();
    assert_eq!(
        w.solved_body_count(),
        2,
        "D={D}: only the woken island is solved"
    );
    assert!(step_until_asleep(&mut w, 240).is_some());
    // Forces, impulses and teleports wake too.
    w.apply_force(lone, v::<D>(0.0, 1.0, 0.0)).unwrap();
    assert!(!w.is_sleeping(lone));
    assert!(step_until_asleep(&mut w, 120).is_some());
    w.apply_impulse(a, v::<D>(0.0, 0.1, 0.0)).unwrap();
    assert!(!w.is_sleeping(b));
    assert!(step_until_asleep(&mut w, 240).is_some());
    let pose = *w.body(lone).unwrap().pose();
    w.set_pose(lone, pose).unwrap();
    assert!(!w.is_sleeping(lone));
}

#[test]
fn game_calls_and_joint_partners_wake_islands() {
    game_calls_and_joints_wake::<2>();
    game_calls_and_joints_wake::<3>();
}

fn sleeping_can_be_disabled<const D: usize>()
where
    Space<D>: Dim<D>,
{
    let mut settings = WorldSettings::<D>::default();
    settings.sleep.enabled = false;
    let mut w = World::<D>::new(settings).unwrap();
    ground(&mut w);
    let c = ColliderDesc::new(Shape::<D>::ball(0.25).unwrap());
    let h = w
        .add_body(
            &BodyDesc::dynamic()
                .position(v::<D>(0.0, 0.25, 0.0))
                .collider(c),
        )
        .unwrap();
    for _ in 0..120 {
        w.step();
    }
    assert!(!w.is_sleeping(h));
    assert_eq!((w.awake_body_count(), w.solved_body_count()), (1, 1));
    let mut bad = WorldSettings::<D>::default();
    bad.sleep.time_to_sleep = 0.0;
    assert_eq!(
        World::<D>::new(bad)
            .err()
            .and_then(|e| e.field().map(String::from)),
        Some("sleep.time_to_sleep".to_string())
    );
}

#[test]
fn sleeping_can_be_switched_off() {
    sleeping_can_be_disabled::<2>();
    sleeping_can_be_disabled::<3>();
}

/// A heap, not a stack: boxes dropped in a jumble (each turned a different way) land
/// on each other, come to rest and sleep, and then cost the solver nothing.
///
/// In 2D every third body is a log (a capsule): it sleeps at about 6.6 s (before the closed
/// forms for capsule against box and against capsule, logs rocked on each other and the heap
/// never slept). In 3D the logs are left out: a 3D capsule lying on the floor is round about
/// its axis and rolls with nothing to stop it (no rolling resistance, as in Rapier and Box2D
/// by default), so a log that lands rolling rolls on past 10 s.
fn heap_sleeps<const D: usize>()
where
    Space<D>: Dim<D>,
{
    let mut w = World::<D>::default();
    ground(&mut w);
    let cube = Shape::<D>::cuboid(Vector::<D>::repeat(0.25)).unwrap();
    let log = Shape::<D>::capsule(0.25, 0.15).unwrap();
    let mut bodies = Vec::new();
    let layers = if D == 2 { 6 } else { 4 };
    let across: &[Real] = if D == 2 { &[0.0] } else { &[-0.45, 0.45] };
    for layer in 0..layers {
        for (k, &z) in across.iter().enumerate() {
            for (j, x) in [-0.9, 0.0, 0.9].into_iter().enumerate() {
                let i = layer * 6 + k * 3 + j;
                // Each box turned by its own angle about its own axis (a jumble).
                let angle = 0.3 + 0.7 * i as Real;
                let towards = v::<D>(0.2 * (i % 3) as Real, 1.0, 0.5 * ((i + 1) % 2) as Real);
                let raw = Space::<D>::cross(&v::<D>(1.0, 0.0, 0.0), &towards);
                let turn: AngVector<D> = raw * (angle / Space::<D>::ang_norm(&raw));
                let p = v::<D>(x + 0.05 * layer as Real, 0.5 + 0.9 * layer as Real, z);
                let shape = if D == 2 && i % 3 == 1 { &log } else { &cube };
                let c = ColliderDesc::new(shape.clone()).friction(0.7);
                bodies.push(
                    w.add_body(&BodyDesc::dynamic().position(p).rotation(turn).collider(c))
                        .unwrap(),
                );
            }
        }
    }
    // The heap lands within a second and settles; sleeping needs half a second of calm.
    let slept = step_until_asleep(&mut w, 600);
    assert!(
        slept.is_some(),
        "D={D}: the heap of {} bodies never slept in 10 s ({} awake)",
        bodies.len(),
        w.awake_body_count()
    );
    w.step();
    assert_eq!(
        w.solved_body_count(),
        0,
        "D={D}: a sleeping heap was solved"
    );
    // It is a heap: bodies rest on bodies, not all on the ground.
    let highest = bodies
        .iter()
        .map(|h| w.body(*h).unwrap().position()[1])
        .fold(Real::MIN, Real::max);
    assert!(
        highest > 0.6,
        "D={D}: the heap is flat (highest centre {highest} m)"
    );
    assert!(
        w.max_penetration() < 0.01,
        "D={D}: bodies rest 1 cm or more inside each other ({})",
        w.max_penetration()
    );
}

#[test]
fn heap_of_jumbled_boxes_comes_to_rest_and_sleeps() {
    heap_sleeps::<2>();
    heap_sleeps::<3>();
}

/// A log cabin: four layers of two logs (radius 0.2 m, segment 1.6 m), each layer crossing
/// the one below at right angles, dropped with 1 cm between layers. Crossed capsules touch
/// at single points (capsule against capsule in closed form): the cabin lands, stands and
/// sleeps, its top layer where it was built less the gaps it closed.
#[test]
fn log_cabin_stands_3d() {
    let mut w = World::<3>::default();
    ground(&mut w);
    let capsule = Shape::<3>::capsule(0.8, 0.2).unwrap();
    let mut top = Vec::new();
    for layer in 0..4 {
        let y = 0.21 + 0.41 * layer as Real;
        for side in [-0.6, 0.6] {
            let (p, turn) = if layer % 2 == 0 {
                (v::<3>(0.0, y, side), quarter_turn::<3>(2))
            } else {
                (v::<3>(side, y, 0.0), quarter_turn::<3>(0))
            };
            let c = ColliderDesc::new(capsule.clone()).friction(0.8);
            let h = w
                .add_body(&BodyDesc::dynamic().position(p).rotation(turn).collider(c))
                .unwrap();
            if layer == 3 {
                top.push((h, p));
            }
        }
    }
    let slept = step_until_asleep(&mut w, 300);
    assert!(slept.is_some(), "the cabin never slept in 5 s");
    for (h, built) in top {
        let now = w.body(h).unwrap().position();
        // It closes the four 1 cm gaps (4 cm down) and the soft contacts give a few mm
        // under three layers: 6 cm bounds that; sideways it must not move 1 cm.
        assert!(
            (built[1] - now[1]) < 0.06 && (built[1] - now[1]) > 0.0,
            "top log at {now:?}, built at {built:?}"
        );
        let sideways = ((now[0] - built[0]).powi(2) + (now[2] - built[2]).powi(2)).sqrt();
        assert!(sideways < 0.01, "top log slid {sideways} m");
    }
}
