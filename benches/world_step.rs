//! Whole `World::step` calls on the standard scenes: the 2D Box2D large pyramid
//! (5050 boxes), a 3D pyramid of boxes, a pile of 1000 balls in a box, and a
//! 10-box tower. Each world is built and stepped a little first (so the
//! measurement is of a scene in contact, not of bodies in free fall).
//!
//! Then every shipped demo scene (`scenes/*.ron`, joints included: the cradle,
//! the chain and the doors) after one simulated second, and the ball pile again
//! once it sleeps: what a sleeping island costs per step. Every world but that
//! one is timed with sleeping off, so that it is timed awake.

use criterion::{criterion_group, criterion_main, Criterion};
use fathom_app::demo_scenes::DEMO_SCENES;
use fathom_physics::math::{Dim, Real, Space, Vector};
use fathom_physics::world::SceneFile;
use fathom_physics::world::{BodyDesc, ColliderDesc, Shape, World};
use std::hint::black_box;

fn up<const D: usize>() -> Vector<D> {
    let mut v = Vector::<D>::zeros();
    v[1] = 1.0;
    v
}

fn cube<const D: usize>(h: Real) -> ColliderDesc<D>
where
    Space<D>: Dim<D>,
{
    ColliderDesc::new(Shape::<D>::cuboid(Vector::<D>::repeat(h)).expect("positive size"))
}

/// A static box with its top face at y = 0, `half_width` wide on the other axes.
fn ground<const D: usize>(w: &mut World<D>, half_width: Real)
where
    Space<D>: Dim<D>,
{
    let mut half = Vector::<D>::repeat(half_width);
    half[1] = 0.5;
    let shape = Shape::<D>::cuboid(half).expect("positive sizes");
    w.add_body(
        &BodyDesc::fixed()
            .position(-up::<D>() * 0.5)
            .collider(ColliderDesc::new(shape)),
    )
    .expect("valid ground");
}

fn pyramid_2d(base: usize) -> World<2> {
    let mut w = World::<2>::default();
    ground(&mut w, base as Real);
    for row in 0..base {
        for i in 0..base - row {
            let x = (i as Real - 0.5 * (base - row - 1) as Real) * 1.0;
            let p = Vector::<2>::new(x, 0.5 + row as Real);
            w.add_body(&BodyDesc::dynamic().position(p).collider(cube::<2>(0.5)))
                .expect("valid box");
        }
    }
    w
}

fn pyramid_3d(base: usize) -> World<3> {
    let mut w = World::<3>::default();
    ground(&mut w, base as Real);
    for layer in 0..base {
        let n = base - layer;
        for i in 0..n {
            for k in 0..n {
                let off = 0.5 * (n - 1) as Real;
                let p = Vector::<3>::new(i as Real - off, 0.5 + layer as Real, k as Real - off);
                w.add_body(&BodyDesc::dynamic().position(p).collider(cube::<3>(0.5)))
                    .expect("valid box");
            }
        }
    }
    w
}

/// 1000 balls of radii 0.2-0.4 dropped into a 3D box of walls.
fn ball_pile() -> World<3> {
    let mut w = World::<3>::default();
    ground(&mut w, 6.0);
    for (axis, sign) in [(0, 1.0), (0, -1.0), (2, 1.0), (2, -1.0)] {
        let mut half = Vector::<3>::new(6.0, 8.0, 6.0);
        half[axis] = 0.5;
        let mut p = Vector::<3>::new(0.0, 8.0, 0.0);
        p[axis] = sign * 5.0;
        let wall = ColliderDesc::new(Shape::<3>::cuboid(half).expect("positive sizes"));
        w.add_body(&BodyDesc::fixed().position(p).collider(wall))
            .expect("valid wall");
    }
    for i in 0..1000 {
        let (x, z, y) = (i % 10, (i / 10) % 10, i / 100);
        let r = 0.2 + 0.2 * ((i * 37) % 11) as Real / 10.0;
        let p = Vector::<3>::new(
            x as Real * 0.85 - 3.8,
            1.0 + y as Real * 0.85,
            z as Real * 0.85 - 3.8,
        );
        let ball = ColliderDesc::new(Shape::<3>::ball(r).expect("positive radius"));
        w.add_body(&BodyDesc::dynamic().position(p).collider(ball))
            .expect("valid ball");
    }
    w
}

fn tower<const D: usize>() -> World<D>
where
    Space<D>: Dim<D>,
{
    let mut w = World::<D>::default();
    ground(&mut w, 5.0);
    for i in 0..10 {
        let p = up::<D>() * (0.5 + i as Real);
        w.add_body(&BodyDesc::dynamic().position(p).collider(cube::<D>(0.5)))
            .expect("valid box");
    }
    w
}

/// Steps `w` `warm_steps` times, then times single steps. Criterion steps the world
/// thousands of times, so a scene that may sleep would be timed asleep: sleeping is switched
/// off first (as in `benches/rapier_step.rs`); `bench_steps` times a world as it is.
fn bench_world<const D: usize>(c: &mut Criterion, name: &str, w: World<D>, warm_steps: usize)
where
    Space<D>: Dim<D>,
{
    let mut w = w;
    let mut settings = w.settings().clone();
    settings.sleep.enabled = false;
    w.set_settings(settings).expect("valid settings");
    bench_steps(c, name, w, warm_steps);
}

fn bench_steps<const D: usize>(c: &mut Criterion, name: &str, mut w: World<D>, warm_steps: usize)
where
    Space<D>: Dim<D>,
{
    for _ in 0..warm_steps {
        w.step();
    }
    c.bench_function(name, |b| {
        b.iter(|| {
            w.step();
            black_box(w.contact_count())
        })
    });
}

fn world_step(c: &mut Criterion) {
    bench_world(c, "world_step/pyramid_2d_base100", pyramid_2d(100), 10);
    bench_world(c, "world_step/pyramid_3d_base10", pyramid_3d(10), 10);
    bench_world(c, "world_step/ball_pile_1000", ball_pile(), 60);
    bench_world(c, "world_step/tower_2d", tower::<2>(), 10);
    bench_world(c, "world_step/tower_3d", tower::<3>(), 10);
}

/// Every shipped demo scene, loaded from its RON file, after a second of simulation.
fn shipped_scenes(c: &mut Criterion) {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/scenes");
    for scene in DEMO_SCENES {
        let path = format!("{dir}/{}.ron", scene.name);
        let file = SceneFile::from_ron_file(&path).expect("shipped scenes load");
        let name = format!("shipped_scene/{}", scene.name);
        match file {
            SceneFile::Scene2D(s) => bench_world(c, &name, s.build().expect("builds"), 60),
            SceneFile::Scene3D(s) => bench_world(c, &name, s.build().expect("builds"), 60),
        }
    }
}

/// The 1000-ball pile once every ball sleeps: the per-step cost of a sleeping island.
fn sleeping_pile(c: &mut Criterion) {
    let mut w = ball_pile();
    let slept = (0..3000).find(|_| {
        w.step();
        w.awake_body_count() == 0
    });
    assert!(slept.is_some(), "the ball pile sleeps within 50 s");
    bench_steps(c, "world_step/ball_pile_1000_asleep", w, 0);
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10);
    targets = world_step, shipped_scenes, sleeping_pile
}
criterion_main!(benches);
