//! The lattice piles of `benches/rapier_step.rs`, shared with `examples/step_timing.rs`
//! (which profiles them): 1000 balls or 1000 boxes above a walled box.

use fathom_physics::math::{Real, Vector3};
use fathom_physics::world::{BodyDesc, ColliderDesc, Scene, Shape};

/// 1000 balls of radii 0.2-0.4 on a lattice above a walled box (the layout of
/// `benches/world_step.rs`), as a scene.
pub fn ball_pile() -> Scene<3> {
    lattice_pile(|i| {
        let r = 0.2 + 0.2 * ((i * 37) % 11) as Real / 10.0;
        (
            Shape::<3>::ball(r).expect("positive radius"),
            Vector3::zeros(),
        )
    })
}

/// 1000 boxes of half sizes 0.15-0.35, each turned a little, on the same lattice.
pub fn box_pile() -> Scene<3> {
    lattice_pile(|i| {
        let h = |k: usize| 0.15 + 0.2 * ((i * k) % 11) as Real / 10.0;
        let half = Vector3::new(h(37), h(53), h(71));
        let turn = Vector3::new(h(13) - 0.25, h(29) - 0.25, h(41) - 0.25);
        (Shape::<3>::cuboid(half).expect("positive sizes"), turn)
    })
}

/// 1000 bodies of `body(i)` (a shape and a rotation vector, rad) on a 10 x 10 x 10 lattice
/// 0.85 m apart above a walled 10 m box.
fn lattice_pile(body: impl Fn(usize) -> (Shape<3>, Vector3)) -> Scene<3> {
    let cuboid = |h: Vector3| Shape::<3>::cuboid(h).expect("positive sizes");
    let mut bodies = vec![BodyDesc::fixed()
        .position(Vector3::new(0.0, -0.5, 0.0))
        .collider(ColliderDesc::new(cuboid(Vector3::new(6.0, 0.5, 6.0))))];
    for (axis, sign) in [(0, 1.0), (0, -1.0), (2, 1.0), (2, -1.0)] {
        let mut half = Vector3::new(6.0, 8.0, 6.0);
        half[axis] = 0.5;
        let mut p = Vector3::new(0.0, 8.0, 0.0);
        p[axis] = sign * 5.0;
        bodies.push(
            BodyDesc::fixed()
                .position(p)
                .collider(ColliderDesc::new(cuboid(half))),
        );
    }
    for i in 0..1000 {
        let (x, z, y) = (i % 10, (i / 10) % 10, i / 100);
        let p = Vector3::new(
            x as Real * 0.85 - 3.8,
            1.0 + y as Real * 0.85,
            z as Real * 0.85 - 3.8,
        );
        let (shape, turn) = body(i);
        bodies.push(
            BodyDesc::dynamic()
                .position(p)
                .rotation(turn)
                .collider(ColliderDesc::new(shape)),
        );
    }
    Scene {
        bodies,
        ..Scene::default()
    }
}
