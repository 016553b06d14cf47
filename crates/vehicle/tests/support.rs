//! Shared helpers of the vehicle tests: flat ground, a settled car, axes.
#![allow(dead_code)]

use fathom_math::{AngVector, Dim, Real, Space, Vector};
use fathom_vehicle::{Vehicle, VehicleDesc, VehicleInputs};
use fathom_world::{BodyDesc, ColliderDesc, Shape, World, WorldSettings};

/// Unit vector along axis `i`.
pub fn axis<const D: usize>(i: usize) -> Vector<D> {
    let mut v = Vector::<D>::zeros();
    v[i] = 1.0;
    v
}

/// A rotation by `angle` radians about z (3D) or in the plane (2D), as an angular vector.
pub fn about_z<const D: usize>(angle: Real) -> AngVector<D>
where
    Space<D>: Dim<D>,
{
    Space::<D>::cross(&axis::<D>(0), &axis::<D>(1)) * angle
}

/// A world (default settings) with flat ground: one big fixed cuboid whose top is y = 0.
pub fn flat_world<const D: usize>(friction: Real) -> World<D>
where
    Space<D>: Dim<D>,
{
    let mut world = World::new(WorldSettings::default()).unwrap();
    let half = Vector::<D>::repeat(1000.0) - axis::<D>(1) * 999.0;
    let ground = BodyDesc::fixed()
        .position(-axis::<D>(1))
        .collider(ColliderDesc::new(Shape::cuboid(half).unwrap()).friction(friction));
    world.add_body(&ground).unwrap();
    world
}

/// The default car with its origin `height` metres above the ground (0.8: just
/// settled), built into `world`.
pub fn car_on<const D: usize>(world: &mut World<D>, desc: VehicleDesc<D>) -> Vehicle<D>
where
    Space<D>: Dim<D>,
{
    Vehicle::new(world, &desc).unwrap()
}

/// Steps vehicle and world `n` times with `inputs`.
pub fn drive<const D: usize>(
    world: &mut World<D>,
    car: &mut Vehicle<D>,
    inputs: VehicleInputs,
    n: usize,
) where
    Space<D>: Dim<D>,
{
    car.set_inputs(inputs).unwrap();
    for _ in 0..n {
        car.step(world).unwrap();
        world.step();
    }
}

/// The chassis' velocity along the car's forward axis, m/s.
pub fn speed<const D: usize>(world: &World<D>, car: &Vehicle<D>) -> Real
where
    Space<D>: Dim<D>,
{
    car.forward_speed(world).unwrap()
}

/// The chassis' centre of mass, world, metres.
pub fn com<const D: usize>(world: &World<D>, car: &Vehicle<D>) -> Vector<D>
where
    Space<D>: Dim<D>,
{
    world.body(car.chassis()).unwrap().center_of_mass()
}
