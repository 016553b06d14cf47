//! The vehicle's API: typed errors for bad values, wheel poses and angles for a
//! viewer, Ackermann geometry, the gearbox, anti-roll bars, 2D/3D parity.

mod support;

use fathom_math::{Dim, Real, Space};
use fathom_vehicle::{Vehicle, VehicleDesc, VehicleError, VehicleInputs};
use support::*;

/// Makes one value of a description bad.
type Spoil<const D: usize> = Box<dyn Fn(&mut VehicleDesc<D>)>;

fn bad_values_are_typed_errors<const D: usize>()
where
    Space<D>: Dim<D>,
{
    let cases: Vec<(&str, Spoil<D>)> = vec![
        ("wheels[0].radius", Box::new(|d| d.wheels[0].radius = -0.3)),
        (
            "wheels[0].radius",
            Box::new(|d| d.wheels[0].radius = Real::NAN),
        ),
        (
            "wheels[1].stiffness",
            Box::new(|d| d.wheels[1].stiffness = Real::INFINITY),
        ),
        (
            "wheels[1].damping",
            Box::new(|d| d.wheels[1].damping = -1.0),
        ),
        (
            "wheels[0].rest_length",
            Box::new(|d| d.wheels[0].rest_length = -0.1),
        ),
        ("wheels[0].travel", Box::new(|d| d.wheels[0].travel = 2.0)),
        (
            "wheels[0].suspension_dir",
            Box::new(|d| d.wheels[0].suspension_dir *= 0.0),
        ),
        ("wheels[0].inertia", Box::new(|d| d.wheels[0].inertia = 0.0)),
        (
            "wheels[0].tyre.friction",
            Box::new(|d| d.wheels[0].tyre.friction = Real::NAN),
        ),
        (
            "chassis.colliders[0].mass",
            Box::new(|d| d.chassis.colliders[0].mass = Some(-5.0)),
        ),
        (
            "engine.max_torque",
            Box::new(|d| d.engine.max_torque = Real::NAN),
        ),
        ("max_steer", Box::new(|d| d.max_steer = -0.2)),
        ("drag", Box::new(|d| d.drag = -1.0)),
        (
            "anti_roll[0].right",
            Box::new(|d| d.anti_roll = vec![bar(0, 9)]),
        ),
        ("wheels", Box::new(|d| d.wheels.clear())),
    ];
    for (field, spoil) in cases {
        let mut world = flat_world::<D>(1.0);
        let before = world.body_count();
        let mut desc = VehicleDesc::<D>::car(1200.0);
        spoil(&mut desc);
        let err = Vehicle::new(&mut world, &desc).unwrap_err();
        match (&err, field) {
            // The chassis' own collider mass is checked by the world's validation.
            (VehicleError::World(e), "chassis.colliders[0].mass") => {
                assert!(e.to_string().contains("mass"), "{e}")
            }
            _ => assert_eq!(err.field(), Some(field), "{err}"),
        }
        assert_eq!(world.body_count(), before, "nothing is built on an error");
    }
    let mut world = flat_world::<D>(1.0);
    let mut car = Vehicle::new(&mut world, &VehicleDesc::<D>::car(1200.0)).unwrap();
    for (field, inputs) in [
        (
            "throttle",
            VehicleInputs {
                throttle: Real::NAN,
                ..Default::default()
            },
        ),
        (
            "brake",
            VehicleInputs {
                brake: -0.5,
                ..Default::default()
            },
        ),
        (
            "steering",
            VehicleInputs {
                steering: 1.5,
                ..Default::default()
            },
        ),
    ] {
        assert_eq!(car.set_inputs(inputs).unwrap_err().field(), Some(field));
    }
    assert_eq!(
        car.inputs(),
        VehicleInputs::default(),
        "rejected inputs change nothing"
    );
}

fn bar(left: usize, right: usize) -> fathom_vehicle::AntiRollBar {
    fathom_vehicle::AntiRollBar {
        left,
        right,
        stiffness: 1.0,
    }
}

#[test]
fn bad_values_2d() {
    bad_values_are_typed_errors::<2>();
}

#[test]
fn bad_values_3d() {
    bad_values_are_typed_errors::<3>();
}

fn wheel_poses_follow_suspension_and_spin<const D: usize>()
where
    Space<D>: Dim<D>,
{
    let mut world = flat_world::<D>(1.0);
    let desc = VehicleDesc::<D>::car(1200.0).at(axis::<D>(1) * 0.8);
    let mut car = Vehicle::new(&mut world, &desc).unwrap();
    drive(&mut world, &mut car, VehicleInputs::default(), 60);
    world
        .set_linear_velocity(car.chassis(), axis::<D>(0) * 5.0)
        .unwrap();
    drive(&mut world, &mut car, VehicleInputs::default(), 30);
    for (i, (w, s)) in desc.wheels.iter().zip(car.wheels()).enumerate() {
        let pose = car.wheel_pose(&world, i).unwrap();
        // The wheel's lowest point sits on the ground: centre height = radius
        // (1 mm: the chassis moved by one step since the cast, at ~0 vertical speed).
        let centre = pose.translation.vector;
        assert!((centre[1] - w.radius).abs() < 1e-3, "{centre:?}");
        // Rolling without slip at 5 m/s: spin = v / r (1%: the free wheels' slip is ~0).
        let v = speed(&world, &car);
        assert!(
            (s.spin_rate - v / w.radius).abs() < 0.01 * v / w.radius,
            "{s:?}"
        );
        assert!(s.in_contact && s.steer_angle == 0.0);
    }
    assert!(car.wheel_pose(&world, 99).is_none());
}

#[test]
fn wheel_poses_2d() {
    wheel_poses_follow_suspension_and_spin::<2>();
}

#[test]
fn wheel_poses_3d() {
    wheel_poses_follow_suspension_and_spin::<3>();
}

#[test]
fn ackermann_points_both_front_wheels_at_one_centre() {
    let mut world = flat_world::<3>(1.0);
    let desc = VehicleDesc::<3>::car(1200.0).at(axis::<3>(1) * 0.8);
    let mut car = Vehicle::new(&mut world, &desc).unwrap();
    let steer = 0.5;
    drive(
        &mut world,
        &mut car,
        VehicleInputs {
            steering: steer,
            ..Default::default()
        },
        1,
    );
    let delta: Real = steer * desc.max_steer;
    let radius = car.wheelbase() / delta.tan();
    for (w, s) in desc
        .wheels
        .iter()
        .zip(car.wheels())
        .filter(|(w, _)| w.steers)
    {
        // Left is -z for x forward and y up; the turning centre is at z = -radius.
        let side = -w.mount[2];
        let expect = (car.wheelbase() / (radius - side)).atan();
        // Closed form, f32 rounding only.
        assert!(
            (s.steer_angle - expect).abs() < 1e-5,
            "{} vs {expect}",
            s.steer_angle
        );
    }
    let (left, right) = (car.wheels()[0].steer_angle, car.wheels()[1].steer_angle);
    assert!(
        left > delta && right < delta,
        "inner wheel turns more: {left} {right}"
    );
}

#[test]
fn gearbox_shifts_up_under_throttle() {
    let mut world = flat_world::<3>(1.0);
    let desc = VehicleDesc::<3>::car(1200.0).at(axis::<3>(1) * 0.8);
    let mut car = Vehicle::new(&mut world, &desc).unwrap();
    drive(&mut world, &mut car, VehicleInputs::full_throttle(), 300);
    assert!(
        car.gear() >= 2,
        "gear {} at {} m/s",
        car.gear(),
        speed(&world, &car)
    );
    assert!(car.engine_rpm() < desc.engine.max_rpm);
    assert!(speed(&world, &car) > 20.0);
}

#[test]
fn anti_roll_bars_reduce_body_roll() {
    let roll = |bars: bool| {
        let mut world = flat_world::<3>(1.0);
        let mut desc = VehicleDesc::<3>::car(1200.0).at(axis::<3>(1) * 0.8);
        if !bars {
            desc.anti_roll.clear();
        }
        let mut car = Vehicle::new(&mut world, &desc).unwrap();
        drive(&mut world, &mut car, VehicleInputs::default(), 30);
        world
            .set_linear_velocity(car.chassis(), axis::<3>(0) * 12.0)
            .unwrap();
        let turn = VehicleInputs {
            steering: 0.25,
            ..Default::default()
        };
        drive(&mut world, &mut car, turn, 90);
        let b = world.body(car.chassis()).unwrap();
        // Roll: how far the chassis' lateral (z) axis tilts out of the horizontal.
        (b.pose().rotation * axis::<3>(2))[1].abs()
    };
    let (with, without) = (roll(true), roll(false));
    eprintln!("roll with bars {with:.4}, without {without:.4}");
    assert!(with < without * 0.9, "{with} vs {without}");
}
