//! The vehicle on slopes and ramps: parked on a 15 degree slope, and driven
//! over a ramp at 30 m/s with every wheel cast checked against a brute-force
//! march of the terrain's fields and the chassis checked against the terrain.

mod support;

use fathom_math::{Dim, Pose, Real, Space, Vector};
use fathom_sdf::Sdf;
use fathom_vehicle::{Vehicle, VehicleDesc, VehicleInputs};
use fathom_world::{BodyDesc, ColliderDesc, Shape, World, WorldSettings};
use support::*;

fn parked_on_a_slope_stays_put<const D: usize>()
where
    Space<D>: Dim<D>,
{
    let slope = (15.0 as Real).to_radians();
    let mut world = World::<D>::new(WorldSettings::default()).unwrap();
    // A tilted slab whose top face passes through the origin, rising along +x.
    let half = Vector::<D>::repeat(200.0) - axis::<D>(1) * 199.0;
    let (s, c) = slope.sin_cos();
    let mut normal = axis::<D>(1) * c;
    normal[0] = -s;
    world
        .add_body(
            &BodyDesc::fixed()
                .position(-normal)
                .rotation(about_z::<D>(slope))
                .collider(ColliderDesc::new(Shape::cuboid(half).unwrap()).friction(1.0)),
        )
        .unwrap();
    // The car facing uphill, its origin 0.8 m above the slope (about its rest height).
    let mut desc = VehicleDesc::<D>::car(1200.0).at(normal * 0.8);
    desc.chassis.rotation = about_z::<D>(slope);
    let mut car = Vehicle::new(&mut world, &desc).unwrap();
    let parked = VehicleInputs {
        brake: 1.0,
        handbrake: true,
        ..VehicleInputs::default()
    };
    // 1 s to settle onto the springs (damped like exp(-5 t)).
    drive(&mut world, &mut car, parked, 60);
    let start = com(&world, &car);
    let mut worst: Real = 0.0;
    for _ in 0..600 {
        drive(&mut world, &mut car, parked, 1);
        worst = worst.max((com(&world, &car) - start).norm());
    }
    eprintln!(
        "{D}D parked on 15 degrees: moved at most {:.3} mm in 10 s",
        worst * 1e3
    );
    // 1 cm: the bound. tan(15°) = 0.27 is far below the grip of 1, and the
    // braked wheels hold their contact points (static friction anchors), so only
    // the springs' settling after the first second remains.
    assert!(worst < 0.01, "moved {worst} m");
    assert!(car.wheels().iter().all(|w| w.in_contact && w.locked));
}

#[test]
fn parked_on_slope_2d() {
    parked_on_a_slope_stays_put::<2>();
}

#[test]
fn parked_on_slope_3d() {
    parked_on_a_slope_stays_put::<3>();
}

/// Flat ground (top at y = 0) and a ramp of `angle` radians and `length` metres
/// starting at x = 20: a slab tilted about z whose top face rises from the ground.
fn ramp_world<const D: usize>(angle: Real, length: Real) -> World<D>
where
    Space<D>: Dim<D>,
{
    let mut world = flat_world::<D>(1.0);
    let thick = 0.5;
    let mut half = Vector::<D>::repeat(3.0);
    half[0] = length / 2.0;
    half[1] = thick;
    let (s, c) = angle.sin_cos();
    // Centre of the top face's middle, then down the face normal by the half thickness.
    let top_mid = axis::<D>(0) * (20.0 + length / 2.0 * c) + axis::<D>(1) * (length / 2.0 * s);
    let mut n = axis::<D>(1) * c;
    n[0] = -s;
    world
        .add_body(
            &BodyDesc::fixed()
                .position(top_mid - n * thick)
                .rotation(about_z::<D>(angle))
                .collider(ColliderDesc::new(Shape::cuboid(half).unwrap())),
        )
        .unwrap();
    world
}

/// The terrain's field at `p`: the minimum over every collider but the chassis'.
fn terrain_distance<const D: usize>(world: &World<D>, car: &Vehicle<D>, p: &Vector<D>) -> Real
where
    Space<D>: Dim<D>,
{
    world
        .colliders()
        .filter(|(_, c)| c.body() != car.chassis())
        .map(|(_, c)| {
            let local = c.world_pose().inverse_transform_point(&(*p).into()).coords;
            c.shape().distance(&local)
        })
        .fold(Real::INFINITY, Real::min)
}

/// Brute-force wheel cast: march the sphere's centre from the mount along the
/// suspension by the terrain's distance (exact fields: a safe step) and return
/// the first length within `tol` of touching, if any before `max`.
fn march<const D: usize>(
    world: &World<D>,
    car: &Vehicle<D>,
    mount: &Vector<D>,
    dir: &Vector<D>,
    radius: Real,
    max: Real,
    tol: Real,
) -> Option<Real>
where
    Space<D>: Dim<D>,
{
    let mut t = 0.0;
    while t <= max {
        let gap = terrain_distance(world, car, &(mount + dir * t)) - radius;
        if gap <= tol {
            return Some(t);
        }
        t += gap.max(tol * 0.5);
    }
    None
}

fn ramp_jump_keeps_wheels_and_chassis_honest<const D: usize>()
where
    Space<D>: Dim<D>,
{
    let mut world = ramp_world::<D>((6.0 as Real).to_radians(), 10.0);
    let desc = VehicleDesc::<D>::car(1200.0).at(axis::<D>(1) * 0.8);
    let mut car = Vehicle::new(&mut world, &desc).unwrap();
    drive(&mut world, &mut car, VehicleInputs::default(), 30);
    world
        .set_linear_velocity(car.chassis(), axis::<D>(0) * 30.0)
        .unwrap();
    let mut airborne_steps = 0;
    let mut deepest: Real = 0.0;
    let mut checked = 0;
    for _ in 0..150 {
        let pose: Pose<D> = *world.body(car.chassis()).unwrap().pose();
        car.step(&mut world).unwrap();
        for (w, s) in desc.wheels.iter().zip(car.wheels()) {
            let mount = pose.transform_point(&w.mount.into()).coords;
            let dir = pose.rotation * w.suspension_dir.normalize();
            // The cast stops within its 1 mm tolerance of the surface; the march
            // with a 2 mm tolerance brackets it.
            let truth = march(&world, &car, &mount, &dir, w.radius, w.rest_length, 2e-3);
            match truth {
                Some(t) => {
                    let length = w.rest_length - s.compression;
                    // Grazing hits at the very end of the cast may fall either way.
                    let grazing = t > w.rest_length - 4e-3;
                    assert!(s.in_contact || grazing, "missed ground at {t}: {s:?}");
                    if s.in_contact {
                        // 5 mm: the refinement window plus both tolerances.
                        assert!((length - t).abs() < 5e-3, "length {length} vs {t}");
                        checked += 1;
                    }
                }
                None => assert!(!s.in_contact || s.compression < 4e-3, "phantom hit {s:?}"),
            }
        }
        if car.wheels().iter().all(|s| !s.in_contact) {
            airborne_steps += 1;
        }
        world.step();
        deepest = deepest.max(chassis_depth(&world, &car));
    }
    eprintln!(
        "{D}D ramp at 30 m/s: {airborne_steps} steps airborne, {checked} wheel casts checked, deepest chassis point {:.1} mm into the terrain",
        deepest * 1e3
    );
    assert!(airborne_steps > 10, "the car should fly off the ramp");
    assert!(
        com(&world, &car)[0] > 60.0,
        "the car drove on past the landing"
    );
    // 5 cm: contact slop of the world's soft contacts on a hard landing; passing
    // into the terrain would read as the chassis' half height (0.3 m) or more.
    assert!(deepest < 0.05, "chassis {deepest} m deep");
}

/// How deep the default car's chassis box's corners, edge midpoints and centre sit in the terrain, m.
fn chassis_depth<const D: usize>(world: &World<D>, car: &Vehicle<D>) -> Real
where
    Space<D>: Dim<D>,
{
    let mut half = Vector::<D>::repeat(0.9);
    half[0] = 2.0;
    half[1] = 0.3;
    let pose = *world.body(car.chassis()).unwrap().pose();
    let n = 3usize.pow(D as u32);
    (0..n)
        .map(|k| {
            let mut p = Vector::<D>::zeros();
            let mut code = k;
            for i in 0..D {
                p[i] = half[i] * ((code % 3) as Real - 1.0);
                code /= 3;
            }
            let w = pose.transform_point(&p.into()).coords;
            -terrain_distance(world, car, &w)
        })
        .fold(0.0, Real::max)
}

#[test]
fn ramp_jump_2d() {
    ramp_jump_keeps_wheels_and_chassis_honest::<2>();
}

#[test]
fn ramp_jump_3d() {
    ramp_jump_keeps_wheels_and_chassis_honest::<3>();
}
