//! The vehicle on flat ground against closed forms: static suspension loads,
//! acceleration under engine force and drag, braking distance, turning radius.
//! Each behaviour is one generic function run in 2D (side view) and 3D.

mod support;

use fathom_math::{Dim, Real, Space};
use fathom_vehicle::{EngineDesc, VehicleDesc, VehicleInputs};
use support::*;

const G: Real = 9.81;

/// A car whose centre of mass sits `offset` metres ahead of the wheelbase's middle.
fn offset_car<const D: usize>(offset: Real) -> VehicleDesc<D>
where
    Space<D>: Dim<D>,
{
    let mut desc = VehicleDesc::<D>::car(1200.0).at(axis::<D>(1) * 0.85);
    desc.chassis.colliders[0].position = axis::<D>(0) * offset;
    desc
}

fn rest_compression_is_weight_share_over_stiffness<const D: usize>()
where
    Space<D>: Dim<D>,
{
    let mut world = flat_world::<D>(1.0);
    let offset = 0.3;
    let desc = offset_car::<D>(offset);
    let mut car = car_on(&mut world, desc.clone());
    // 3 s: the suspension (omega = sqrt(k / m_share) = 10 rad/s, damping ratio 0.5)
    // decays like exp(-5 t), to 3e-7 of the drop.
    drive(&mut world, &mut car, VehicleInputs::default(), 180);
    let mass = 1200.0;
    let per_axle = if D == 3 { 2.0 } else { 1.0 };
    // Statics of a beam on two supports, from the settled world positions (the
    // chassis pitches slightly, which moves the centre of mass over the contacts):
    // an axle carries the weight times the other axle's distance to the centre of
    // mass over the wheelbase.
    let x = |front: bool| {
        let xs: Vec<Real> = desc
            .wheels
            .iter()
            .zip(car.wheels())
            .filter(|(w, _)| (w.mount[0] > 0.0) == front)
            .map(|(_, s)| s.contact_point[0])
            .collect();
        xs.iter().sum::<Real>() / xs.len() as Real
    };
    let (front, rear, c) = (x(true), x(false), com(&world, &car)[0]);
    let mut worst: Real = 0.0;
    for (w, s) in desc.wheels.iter().zip(car.wheels()) {
        let arm = if w.mount[0] > 0.0 {
            c - rear
        } else {
            front - c
        };
        let share = mass * G * arm / (front - rear) / per_axle;
        let expect = share / w.stiffness;
        let err = (s.compression - expect).abs() / expect;
        worst = worst.max(err);
        // 2%: the bound. What remains after 3 s is the cast's distance
        // (refined to the plane, f32) and the residual oscillation.
        assert!(s.in_contact && err < 0.02, "{s:?} vs {expect}");
    }
    eprintln!("{D}D rest compression worst error {:.3}%", worst * 100.0);
}

#[test]
fn rest_compression_2d() {
    rest_compression_is_weight_share_over_stiffness::<2>();
}

#[test]
fn rest_compression_3d() {
    rest_compression_is_weight_share_over_stiffness::<3>();
}

/// `v(t)` of `m dv/dt = F - c v²` from rest: `v_t tanh(t F / (m v_t))`, `v_t = sqrt(F / c)`.
fn drag_curve(force: Real, drag: Real, mass: Real, t: Real) -> Real {
    let vt = (force / drag).sqrt();
    vt * (t * force / (mass * vt)).tanh()
}

fn full_throttle_follows_force_drag_and_mass<const D: usize>()
where
    Space<D>: Dim<D>,
{
    let mut world = flat_world::<D>(1.0);
    let mut desc = VehicleDesc::<D>::car(1200.0).at(axis::<D>(1) * 0.8);
    let force = 3000.0;
    let radius = desc.wheels[0].radius;
    desc.engine = EngineDesc::direct(force, radius);
    // A draggy car (terminal speed 31.6 m/s) so that drag bends the curve by 5% in 5 s.
    desc.drag = 3.0;
    let mut car = car_on(&mut world, desc.clone());
    drive(&mut world, &mut car, VehicleInputs::default(), 60);
    let x0 = com(&world, &car)[0];
    // The wheels spin up with the car: their spin inertia adds I / r² each to the mass.
    let mass = 1200.0
        + desc
            .wheels
            .iter()
            .map(|w| w.inertia / (w.radius * w.radius))
            .sum::<Real>();
    let mut worst: Real = 0.0;
    for second in 1..=5 {
        drive(&mut world, &mut car, VehicleInputs::full_throttle(), 60);
        let t = second as Real;
        let v = speed(&world, &car);
        let expect = drag_curve(force, desc.drag, mass, t);
        let err = (v - expect).abs() / expect;
        worst = worst.max(err);
        eprintln!(
            "{D}D t {t} s: v {v:.3} m/s, analytic {expect:.3} ({:.2}%)",
            err * 100.0
        );
        // 5%: the bound. The tyre transmits the engine force through a small
        // slip (the wheel turns slightly faster than the ground), pitch moves load
        // between the axles but not the total, so only the spin-up transient differs.
        assert!(err < 0.05, "{D}D at {t} s: {v} vs {expect}");
    }
    assert!(com(&world, &car)[0] > x0 + 20.0, "the car went forward");
    eprintln!("{D}D throttle worst error {:.2}%", worst * 100.0);
}

#[test]
fn full_throttle_2d() {
    full_throttle_follows_force_drag_and_mass::<2>();
}

#[test]
fn full_throttle_3d() {
    full_throttle_follows_force_drag_and_mass::<3>();
}

fn braking_distance_is_v2_over_2_mu_g<const D: usize>()
where
    Space<D>: Dim<D>,
{
    let ground_friction = 0.8;
    let mut world = flat_world::<D>(ground_friction);
    let mut desc = VehicleDesc::<D>::car(1200.0).at(axis::<D>(1) * 0.8);
    desc.drag = 0.0;
    let mut car = car_on(&mut world, desc.clone());
    drive(&mut world, &mut car, VehicleInputs::default(), 60);
    let v0 = 20.0;
    world
        .set_linear_velocity(car.chassis(), axis::<D>(0) * v0)
        .unwrap();
    let start = com(&world, &car)[0];
    let mut steps = 0;
    car.set_inputs(VehicleInputs::full_brake()).unwrap();
    while speed(&world, &car) > 0.01 && steps < 600 {
        car.step(&mut world).unwrap();
        world.step();
        steps += 1;
    }
    // The tyre's and the ground's friction combine by geometric mean.
    let mu = (desc.wheels[0].tyre.friction * ground_friction).sqrt();
    let expect = v0 * v0 / (2.0 * mu * G);
    let distance = com(&world, &car)[0] - start;
    let err = (distance - expect).abs() / expect;
    eprintln!(
        "{D}D braking: {distance:.3} m in {steps} steps, v²/(2 mu g) = {expect:.3} ({:.2}%)",
        err * 100.0
    );
    // 10%: the bound. Locked wheels slide at mu N and the loads sum to the
    // weight, so the deceleration is mu g; the last metre per second is stopped by
    // the linear part of the tyre (slip measured against the 1 m/s floor).
    assert!(err < 0.10, "{distance} vs {expect}");
}

#[test]
fn braking_2d() {
    braking_distance_is_v2_over_2_mu_g::<2>();
}

#[test]
fn braking_3d() {
    braking_distance_is_v2_over_2_mu_g::<3>();
}

#[test]
fn fixed_steering_turns_on_the_kinematic_radius() {
    let mut world = flat_world::<3>(1.0);
    let mut desc = VehicleDesc::<3>::car(1200.0).at(axis::<3>(1) * 0.8);
    desc.drag = 0.0;
    let mut car = car_on(&mut world, desc.clone());
    drive(&mut world, &mut car, VehicleInputs::default(), 60);
    world
        .set_linear_velocity(car.chassis(), axis::<3>(0) * 4.0)
        .unwrap();
    let angle: Real = 0.1;
    let inputs = VehicleInputs {
        steering: angle / desc.max_steer,
        ..VehicleInputs::default()
    };
    // 1 s for the slip angles to build up, then the path is a steady circle.
    drive(&mut world, &mut car, inputs, 60);
    let expect = car.wheelbase() / angle.tan();
    let mut worst: Real = 0.0;
    for _ in 0..4 {
        drive(&mut world, &mut car, inputs, 30);
        let b = world.body(car.chassis()).unwrap();
        let rear = b.pose() * nalgebra::Point3::new(-1.3, 0.0, 0.0);
        let v = b.velocity_at(&rear.coords);
        let yaw = b.angular_velocity()[1];
        let radius = v.norm() / yaw.abs();
        let err = (radius - expect).abs() / expect;
        worst = worst.max(err);
        eprintln!(
            "turn radius {radius:.3} m, kinematic {expect:.3} m ({:.2}%)",
            err * 100.0
        );
        // 5%: the bound. At 4 m/s the lateral acceleration is 0.6 m/s², so
        // the slip angles the tyres need are ~0.004 rad against 0.1 rad of steering,
        // nearly equal front and rear (centre of mass mid-wheelbase).
        assert!(yaw > 0.0 && err < 0.05, "{radius} vs {expect}");
    }
    eprintln!("turn radius worst error {:.2}%", worst * 100.0);
}
