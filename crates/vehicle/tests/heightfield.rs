//! The vehicle rolling over a flat heightfield of many small cells: the wheels' casts and the
//! suspension must not feel the cell seams (the issue: wheel contact force varies by under 5%
//! rolling at constant speed). Generic, run in 2D (side view) and 3D.

mod support;

use fathom_math::{Dim, Real, Space};
use fathom_sdf::HeightfieldScale;
use fathom_vehicle::{VehicleDesc, VehicleInputs};
use fathom_world::{BodyDesc, ColliderDesc, Shape, World, WorldSettings};
use support::*;

/// Cells of 0.5 m: 240 of them along x (120 m), 8 across in 3D (4 m, wider than the car).
const SPACING: Real = 0.5;
const COLUMNS: usize = 241;
const ROWS: usize = 9;

/// A world whose ground is a flat heightfield at y = 0, centred on the origin.
fn heightfield_world<const D: usize>() -> World<D>
where
    Space<D>: Dim<D>,
{
    let rows = if D == 3 { ROWS } else { 1 };
    let heights = vec![vec![0.0; COLUMNS]; rows];
    let scale = HeightfieldScale {
        spacing_x: SPACING,
        spacing_z: SPACING,
        base_depth: 1.0,
    };
    let mut world = World::new(WorldSettings::default()).unwrap();
    let ground = BodyDesc::fixed()
        .collider(ColliderDesc::new(Shape::heightfield(heights, scale).unwrap()).friction(1.0));
    world.add_body(&ground).unwrap();
    world
}

fn rolls_without_bumps<const D: usize>()
where
    Space<D>: Dim<D>,
{
    let mut world = heightfield_world::<D>();
    let mut desc = VehicleDesc::<D>::car(1200.0).at(axis::<D>(0) * -40.0 + axis::<D>(1) * 0.85);
    desc.drag = 0.0;
    let mut car = car_on(&mut world, desc);
    // 2 s to settle onto the springs (damped like exp(-5 t): 5e-5 of the drop remains).
    drive(&mut world, &mut car, VehicleInputs::default(), 120);
    let v0 = 10.0;
    world
        .set_linear_velocity(car.chassis(), axis::<D>(0) * v0)
        .unwrap();
    // 2 s for the wheels to spin up to the ground speed and the pitch it causes to die out.
    drive(&mut world, &mut car, VehicleInputs::default(), 120);
    let n = car.wheels().len();
    let (mut low, mut high, mut sum) =
        (vec![Real::INFINITY; n], vec![0.0 as Real; n], vec![0.0; n]);
    let steps = 240;
    // 4 s at about 10 m/s: 80 cells, every wheel crossing a seam every 3 steps.
    for _ in 0..steps {
        drive(&mut world, &mut car, VehicleInputs::default(), 1);
        for (i, w) in car.wheels().iter().enumerate() {
            assert!(w.in_contact, "wheel {i} left the ground");
            low[i] = low[i].min(w.suspension_force);
            high[i] = high[i].max(w.suspension_force);
            sum[i] += w.suspension_force;
        }
    }
    let v = speed(&world, &car);
    assert!(v > 0.8 * v0, "the car kept rolling: {v} m/s");
    let mut worst: Real = 0.0;
    for i in 0..n {
        let mean = sum[i] / steps as Real;
        let spread = (high[i] - low[i]) / mean;
        worst = worst.max(spread);
        // 5%: the bound on the wheel contact force over the seams.
        assert!(
            spread < 0.05,
            "{D}D wheel {i}: force from {} to {} N (mean {mean})",
            low[i],
            high[i]
        );
    }
    eprintln!(
        "{D}D on a flat heightfield of {SPACING} m cells at {v:.2} m/s: wheel force spread at most {:.3}%",
        worst * 100.0
    );
}

#[test]
fn rolls_over_a_flat_heightfield_without_bumps_2d() {
    rolls_without_bumps::<2>();
}

#[test]
fn rolls_over_a_flat_heightfield_without_bumps_3d() {
    rolls_without_bumps::<3>();
}
