//! The viewer's crater key in the driving scene (X): the car's controller carves a crater
//! ahead of the car, and the viewer draws the edited ground in chunks, re-meshing only the
//! chunks an edit reaches. Geometry only (no window or graphics adapter needed): the
//! drawn crater is as deep as the carve, the ground away from it is the exact box, and
//! re-meshing after a second crater gives the very mesh a fresh build of the same shape
//! gives.

use fathom_app::craters::Blast;
use fathom_app::drive::VehicleController;
use fathom_app::vehicle_scene::driving_scene;
use fathom_math::{Real, Vector3};
use fathom_sdf::{Sdf, ShapeKind};
use fathom_viewer::chunks::FINE_CELLS;
use fathom_viewer::framing::{clip_box, scene_bounds};
use fathom_viewer::meshing::{chunked_3d, join_3d, local_clip, update_chunked_3d, Mesh3};
use fathom_viewer::Controller;
use fathom_world::{Collider, Shape, World3};

/// The driving scene's ground (the 800 m slab, top at y = 0), once edited.
fn edited_ground(world: &World3) -> &Collider<3> {
    world
        .colliders()
        .map(|(_, c)| c)
        .find(|c| match c.shape() {
            Shape::Edited(e) => matches!(
                e.base().kind(),
                ShapeKind::Cuboid { half_extents } if half_extents.x == 400.0
            ),
            _ => false,
        })
        .expect("the crater carved the ground")
}

/// Heights (world y) of the drawn ground's vertices within `r` metres (horizontally) of
/// `at`, given the mesh in the ground's frame; the ground's body sits at y = -1.
fn heights_near(m: &Mesh3, at: &Vector3, r: Real) -> Vec<Real> {
    m.vertices
        .iter()
        .map(|v| v - Vector3::new(0.0, 1.0, 0.0))
        .filter(|v| (v.x - at.x).hypot(v.z - at.z) < r && v.y > -0.9)
        .map(|v| v.y)
        .collect()
}

#[test]
fn the_crater_key_carves_and_only_the_reached_chunks_are_meshed_again() {
    let scene = driving_scene();
    let mut world = scene.scene.build().unwrap();
    let mut car = VehicleController::new(scene.vehicle, scene.inputs).unwrap();
    car.attach(&mut world).unwrap();
    let start = world
        .body(car.vehicle().unwrap().chassis())
        .unwrap()
        .position();
    car.action(&mut world).unwrap();
    assert_eq!(car.craters(), 1);

    let bounds = scene_bounds(&world);
    let clip = clip_box(&bounds);
    let ground = edited_ground(&world);
    let Shape::Edited(edited) = ground.shape() else {
        unreachable!()
    };
    assert_eq!(edited.edits().len(), 1);
    let local = local_clip(&clip, ground.world_pose());
    let mut chunks = chunked_3d(ground.shape(), edited, &local, bounds.radius(), 1.0).unwrap();
    let mesh = join_3d(chunks.pieces()).unwrap();
    let cell = chunks.edge() / FINE_CELLS;

    // The crater: a ball of the default blast's radius cut `depth` below the flat ground,
    // `ahead` metres in front of the car (facing +x). Its drawn floor is the carve's
    // depth within one meshing cell (surface nets puts a vertex within a cell of the
    // surface), and its rim is where the ball meets y = 0.
    let blast = Blast::default();
    let centre = Vector3::new(start.x + blast.ahead, 0.0, start.z);
    let floor = heights_near(&mesh, &centre, 0.5)
        .into_iter()
        .fold(Real::INFINITY, Real::min);
    assert!(
        (floor + blast.depth).abs() <= cell,
        "crater floor drawn at y = {floor}, carved at {} (cell {cell} m)",
        -blast.depth
    );
    // The world's own field has its surface there too.
    let floor_local = centre + Vector3::new(0.0, 1.0 - blast.depth, 0.0);
    let d = ground.shape().distance(&floor_local);
    assert!(d.abs() < 1e-3, "field {d} m at the crater's floor");
    println!(
        "crater floor drawn at {floor} m (carved {}), {} chunks of {} m, {} fine",
        -blast.depth,
        chunks.chunk_count(),
        chunks.edge(),
        chunks.fine_count()
    );
    let rim = (blast.radius.powi(2) - (blast.radius - blast.depth).powi(2)).sqrt();
    let outside = heights_near(&mesh, &centre, rim + 3.0 * cell);
    assert!(
        outside.iter().all(|y| *y <= 1e-4),
        "nothing drawn above the ground"
    );
    // Far from the crater the ground is drawn as exact boxes: its top exactly at y = 0.
    let far = heights_near(&mesh, &(centre + Vector3::new(100.0, 0.0, 0.0)), 30.0);
    assert!(!far.is_empty() && far.iter().all(|y| y.abs() <= 1e-4 || *y < -0.9));

    // Drive a second, then blast again: only the chunks that crater reaches are meshed
    // again, and the result is exactly a fresh build of the edited shape.
    for _ in 0..120 {
        car.before_step(&mut world, None).unwrap();
        world.step();
    }
    car.action(&mut world).unwrap();
    assert_eq!(car.craters(), 2);
    let ground = edited_ground(&world);
    let Shape::Edited(edited) = ground.shape() else {
        unreachable!()
    };
    assert_eq!(edited.edits().len(), 2);
    let redone = update_chunked_3d(&mut chunks, ground.shape(), edited, &local);
    // The crater's reach (16 m across, plus the band and two cells) spans at most three
    // chunks along each horizontal axis, of a lattice of thousands.
    assert!(
        (1..=9).contains(&redone) && chunks.chunk_count() > 1000,
        "{redone} of {} chunks meshed again",
        chunks.chunk_count()
    );
    println!("second crater: {redone} chunks meshed again");
    let fresh = chunked_3d(ground.shape(), edited, &local, bounds.radius(), 1.0).unwrap();
    assert_eq!(join_3d(chunks.pieces()), join_3d(fresh.pieces()));
    // The new crater is drawn too, ahead of where the car was when it blasted.
    let car_at = world
        .body(car.vehicle().unwrap().chassis())
        .unwrap()
        .position();
    assert!(car_at.x > start.x + 1.0, "the car drove");
    let mesh = join_3d(chunks.pieces()).unwrap();
    let dips = heights_near(&mesh, &(car_at + Vector3::new(blast.ahead, 0.0, 0.0)), rim);
    assert!(
        dips.iter().any(|y| *y < -0.5 * blast.depth),
        "second crater drawn"
    );
}
