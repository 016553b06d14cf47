//! World steps: Fathom against Rapier 0.36 on identical scenes, one thread and all cores.
//!
//! Both worlds are built from the same [`Scene`] descriptors (the shipped demo scenes of
//! `fathom_app::demo_scenes`, and piles of 1000 balls and 1000 boxes on the lattice of
//! `benches/world_step.rs`): the same
//! bodies, poses, shapes, densities and frictions, the same time step, gravity and substep count
//! (Rapier's `num_solver_iterations` are its substeps). Each world is stepped a little first so the
//! measurement is of a scene in contact, then each criterion iteration is one more step, within
//! the same window of steps for both engines (see `bench_steps`).
//! Fathom sweeps every body that moves more than half its size in a step (continuous
//! collision); Rapier does only for bodies with CCD enabled, off by default, so each Rapier row
//! is measured both ways (`rapier` and `rapier_ccd`).
//! Sleeping is off in both engines, so both do the full work of every step (a pile at rest
//! would otherwise measure as nearly free, at whatever moment each engine's timer fires). Before measuring, the mean height of the dynamic bodies of both
//! worlds is printed, to show the two simulate the same scene.
//! "1 thread" runs inside a one-thread rayon pool; "all cores" inside the default pool (both
//! engines parallelise with rayon; Rapier has its `parallel` feature on).
//!
//! Run: `cargo bench --bench rapier_step -- --warm-up-time 1 --measurement-time 3`.

use criterion::{criterion_group, criterion_main, Criterion};
use fathom_app::demo_scenes::demo_scene;
use fathom_physics::math::{Dim, Real, Space};
use fathom_physics::world::SceneFile;
use fathom_physics::world::{BodyKind, Scene, Shape, World};
use std::hint::black_box;
use std::time::{Duration, Instant};

#[path = "support/piles.rs"]
mod piles;
use piles::{ball_pile, box_pile};

/// Steps before measuring: the bodies settle into contact.
const WARM_STEPS: usize = 30;
/// Steps measured from one warmed world before it is rebuilt.
const WINDOW: usize = 30;

/// A primitive both engines have in closed form.
enum Prim {
    Ball(Real),
    /// Half height of the core segment, radius.
    Capsule(Real, Real),
    Cuboid(Vec<Real>),
}

fn primitive<const D: usize>(shape: &Shape<D>) -> Prim
where
    Space<D>: Dim<D>,
{
    use fathom_physics::sdf::{Sdf, ShapeKind};
    match (shape, shape.kind()) {
        (_, ShapeKind::Ball { radius }) => Prim::Ball(radius),
        (
            _,
            ShapeKind::Capsule {
                half_height,
                radius,
            },
        ) => Prim::Capsule(half_height, radius),
        (Shape::Cuboid(c), _) => Prim::Cuboid(c.half_extents.iter().copied().collect()),
        _ => panic!("the compared scenes hold balls, capsules and cuboids only"),
    }
}

/// The rapier world of a scene, for one rapier crate: the same code for rapier2d and rapier3d,
/// whose types differ only in dimension. `ccd` turns Rapier's continuous collision on for every
/// dynamic body (it is off by default; Fathom sweeps every fast body, see the module docs).
/// `$ang` turns a Fathom angle into Rapier's and `$cuboid` makes a box from half extents;
/// `$height` is the world's mean height of its dynamic bodies.
macro_rules! rapier_world {
    ($name:ident, $height:ident, $rapier:ident, $d:literal, $ang:expr, $cuboid:expr) => {
        fn $height(w: &$rapier::prelude::PhysicsWorld) -> Real {
            mean_height(
                w.bodies
                    .iter()
                    .map(|(_, b)| (b.is_dynamic(), b.translation().y)),
            )
        }

        fn $name(scene: &Scene<$d>, ccd: bool) -> $rapier::prelude::PhysicsWorld {
            use $rapier::prelude::*;
            let vec = |v: &fathom_physics::math::Vector<$d>| Vector::from_slice(v.as_slice());
            let mut w = PhysicsWorld::default();
            w.gravity = vec(&scene.gravity);
            w.integration_parameters.dt = scene.dt;
            w.integration_parameters.num_solver_iterations = scene.substeps as usize;
            for body in &scene.bodies {
                let builder = match body.kind {
                    BodyKind::Dynamic => RigidBodyBuilder::dynamic(),
                    BodyKind::Fixed => RigidBodyBuilder::fixed(),
                    BodyKind::Kinematic => RigidBodyBuilder::kinematic_position_based(),
                };
                let rb = builder
                    .translation(vec(&body.position))
                    .rotation($ang(&body.rotation))
                    .linvel(vec(&body.linear_velocity))
                    .linear_damping(body.linear_damping)
                    .angular_damping(body.angular_damping)
                    .gravity_scale(body.gravity_scale)
                    .ccd_enabled(ccd && body.kind == BodyKind::Dynamic)
                    // Sleeping is off on both sides (see the module docs).
                    .can_sleep(false);
                let handle = w.bodies.insert(rb);
                for c in &body.colliders {
                    let shape = match primitive(&c.shape) {
                        Prim::Ball(r) => SharedShape::ball(r),
                        Prim::Capsule(h, r) => SharedShape::capsule_y(h, r),
                        Prim::Cuboid(h) => $cuboid(&h),
                    };
                    let collider = ColliderBuilder::new(shape)
                        .translation(vec(&c.position))
                        .rotation($ang(&c.rotation))
                        .density(c.density)
                        .friction(c.friction)
                        // Fathom combines frictions by geometric mean.
                        .friction_combine_rule(CoefficientCombineRule::GeometricMean)
                        .restitution(c.restitution);
                    w.colliders
                        .insert_with_parent(collider, handle, &mut w.bodies);
                }
            }
            w
        }
    };
}

rapier_world!(
    rapier_2d,
    rapier_2d_height,
    rapier2d,
    2,
    |a: &Real| *a,
    |h: &[Real]| { rapier2d::prelude::SharedShape::cuboid(h[0], h[1]) }
);
rapier_world!(
    rapier_3d,
    rapier_3d_height,
    rapier3d,
    3,
    |a: &fathom_physics::math::Vector3| rapier3d::prelude::Vector::from_slice(a.as_slice()),
    |h: &[Real]| rapier3d::prelude::SharedShape::cuboid(h[0], h[1], h[2])
);

fn demo(name: &str) -> SceneFile {
    (demo_scene(name).expect("a shipped scene").build)()
}

/// The pools to step in: one thread, and all cores.
fn pools() -> Vec<(String, rayon::ThreadPool)> {
    let all = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut out = Vec::new();
    for threads in [1, all] {
        if out
            .iter()
            .any(|(_, p): &(String, rayon::ThreadPool)| p.current_num_threads() == threads)
        {
            continue;
        }
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .expect("a thread pool");
        out.push((format!("{threads}t"), pool));
    }
    out
}

/// Benches `step` on a world made by `make`, every call inside `pool`, over the same window of
/// simulated time for every engine: steps [`WARM_STEPS`] to `WARM_STEPS + WINDOW` (the world
/// is rebuilt and re-warmed, untimed, when the window is used up), so a fast engine is not
/// measured on a pile that has had thousands of steps longer to settle.
fn bench_steps<W: Send>(
    c: &mut Criterion,
    id: &str,
    pool: &rayon::ThreadPool,
    make: impl Fn() -> W + Sync,
    step: impl Fn(&mut W) + Sync,
    height: impl Fn(&W) -> Real,
) {
    let warm = || {
        pool.install(|| {
            let mut w = make();
            for _ in 0..WARM_STEPS {
                step(&mut w);
            }
            w
        })
    };
    let mut w = warm();
    eprintln!(
        "{id}: mean height of dynamic bodies after {WARM_STEPS} steps: {:.4} m",
        height(&w)
    );
    let mut done = 0;
    c.bench_function(id, |b| {
        b.iter_custom(|iters| {
            let mut total = Duration::ZERO;
            for _ in 0..iters {
                if done >= WINDOW {
                    w = warm();
                    done = 0;
                }
                let t = Instant::now();
                pool.install(|| step(black_box(&mut w)));
                total += t.elapsed();
                done += 1;
            }
            total
        })
    });
}

fn scene_2d(file: SceneFile) -> Scene<2> {
    match file {
        SceneFile::Scene2D(s) => s,
        SceneFile::Scene3D(_) => panic!("expected a 2D scene"),
    }
}

fn scene_3d(file: SceneFile) -> Scene<3> {
    match file {
        SceneFile::Scene3D(s) => s,
        SceneFile::Scene2D(_) => panic!("expected a 3D scene"),
    }
}

fn fathom_world<const D: usize>(scene: &Scene<D>) -> World<D>
where
    Space<D>: Dim<D>,
{
    let mut w = scene.build().expect("a valid scene");
    let mut settings = w.settings().clone();
    // Sleeping is off on both sides (see the module docs).
    settings.sleep.enabled = false;
    w.set_settings(settings).expect("valid settings");
    w
}

/// Rapier as shipped (continuous collision off), and with it on for every dynamic body, as
/// Fathom always has it: a game that must not let fast bodies tunnel turns it on.
const RAPIER_MODES: [(&str, bool); 2] = [("rapier", false), ("rapier_ccd", true)];

fn rapier_step(c: &mut Criterion) {
    let pyramid_2d = scene_2d(demo("pyramid_2d"));
    let scenes_3d = [
        ("pyramid_3d", scene_3d(demo("pyramid_3d"))),
        ("balls_1000", ball_pile()),
        ("boxes_1000", box_pile()),
        ("mixed_pile_1000", scene_3d(demo("pile_3d"))),
    ];
    for (threads, pool) in &pools() {
        let id = |engine: &str, scene: &str| format!("rapier_step/{scene}/{engine}/{threads}");
        let scene = "pyramid_2d_base100";
        bench_steps(
            c,
            &id("fathom", scene),
            pool,
            || fathom_world(&pyramid_2d),
            |w| w.step(),
            fathom_height,
        );
        for (engine, ccd) in RAPIER_MODES {
            bench_steps(
                c,
                &id(engine, scene),
                pool,
                || rapier_2d(&pyramid_2d, ccd),
                |w| w.step(),
                rapier_2d_height,
            );
        }
        for (name, scene) in &scenes_3d {
            bench_steps(
                c,
                &id("fathom", name),
                pool,
                || fathom_world(scene),
                |w| w.step(),
                fathom_height,
            );
            for (engine, ccd) in RAPIER_MODES {
                bench_steps(
                    c,
                    &id(engine, name),
                    pool,
                    || rapier_3d(scene, ccd),
                    |w| w.step(),
                    rapier_3d_height,
                );
            }
        }
    }
}

/// The mean of the heights flagged dynamic.
fn mean_height(bodies: impl Iterator<Item = (bool, Real)>) -> Real {
    let (sum, n) = bodies
        .filter(|(dynamic, _)| *dynamic)
        .fold((0.0, 0usize), |(s, n), (_, y)| (s + y, n + 1));
    sum / n.max(1) as Real
}

fn fathom_height<const D: usize>(w: &World<D>) -> Real
where
    Space<D>: Dim<D>,
{
    mean_height(w.bodies().map(|(_, b)| {
        (
            b.kind() == BodyKind::Dynamic,
            b.pose().translation.vector[1],
        )
    }))
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10);
    targets = rapier_step
}
criterion_main!(benches);
