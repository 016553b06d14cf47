//! One vehicle step (four sphere casts, suspension, tyres, drivetrain) on flat
//! ground and on the driving scene's blended-hill terrain, and the vehicle plus
//! world step together.

use criterion::{criterion_group, criterion_main, Criterion};
use fathom_app::vehicle_scene::driving_scene;
use fathom_physics::math::Vector3;
use fathom_physics::vehicle::{Vehicle3, VehicleDesc, VehicleInputs};
use fathom_physics::world::{BodyDesc, ColliderDesc, Shape, World3, WorldSettings};
use std::hint::black_box;

fn flat() -> (World3, Vehicle3) {
    let mut world = World3::new(WorldSettings::default()).unwrap();
    let ground = BodyDesc::fixed()
        .position(Vector3::new(0.0, -1.0, 0.0))
        .collider(ColliderDesc::new(
            Shape::cuboid(Vector3::new(500.0, 1.0, 500.0)).unwrap(),
        ));
    world.add_body(&ground).unwrap();
    let desc = VehicleDesc::car(1200.0).at(Vector3::new(0.0, 0.8, 0.0));
    let mut car = Vehicle3::new(&mut world, &desc).unwrap();
    car.set_inputs(VehicleInputs::full_throttle()).unwrap();
    for _ in 0..30 {
        car.step(&mut world).unwrap();
        world.step();
    }
    (world, car)
}

fn bench(c: &mut Criterion) {
    // The vehicle step only adds forces to the world (spent by the next world
    // step), so it is timed repeatedly on one world with a fresh copy of the car.
    let (mut world, car) = flat();
    c.bench_function("vehicle_step_flat", |b| {
        b.iter(|| {
            let mut v = car.clone();
            v.step(black_box(&mut world)).unwrap();
        })
    });
    let mut run = driving_scene().build().unwrap();
    // 7.5 s in: on the blended hills.
    for _ in 0..450 {
        run.step().unwrap();
    }
    c.bench_function("vehicle_step_hills", |b| {
        b.iter(|| {
            let mut v = run.vehicle.clone();
            v.step(black_box(&mut run.world)).unwrap();
        })
    });
    // Vehicle and world together, each iteration from the same state (restored
    // from a snapshot outside the timing), so the car never drives off the ground.
    let (world, car) = flat();
    let snapshot = world.snapshot();
    c.bench_function("vehicle_and_world_step_flat", |b| {
        b.iter_batched_ref(
            || (World3::from_snapshot(&snapshot).unwrap(), car.clone()),
            |(w, v)| {
                v.step(w).unwrap();
                w.step();
            },
            criterion::BatchSize::SmallInput,
        )
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
