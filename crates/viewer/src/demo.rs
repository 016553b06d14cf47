//! Demo scenes built in code, so the viewer (and its tests) have something to
//! show without any scene file: pyramids in 2D and 3D, a pile of mixed 3D
//! shapes (including a torus and a smooth blend, which only an SDF engine
//! collides directly), and a small 2D peg board.

use crate::scenes::NamedScene;
use fathom_math::{Dim, Pose, Real, Space, Vector, Vector2, Vector3};
use fathom_world::{BodyDesc, ColliderDesc, Scene, Scene2, Scene3, Shape};

/// The unit vector along axis `i`, times `len`.
fn axis<const D: usize>(i: usize, len: Real) -> Vector<D> {
    let mut v = Vector::<D>::zeros();
    v[i] = len;
    v
}

/// A static half-space ground whose surface is `y = 0`.
fn ground<const D: usize>() -> BodyDesc<D>
where
    Space<D>: Dim<D>,
{
    let plane = Shape::half_space(axis(1, 1.0), 0.0).expect("unit normal");
    BodyDesc::fixed().collider(ColliderDesc::new(plane))
}

/// A pyramid of `base` boxes of half-extent `h` per bottom row, resting on the ground;
/// in 3D the pyramid is one box deep.
pub fn pyramid<const D: usize>(base: usize, h: Real) -> Scene<D>
where
    Space<D>: Dim<D>,
{
    let cube = Shape::cuboid(Vector::<D>::repeat(h)).expect("positive half-extents");
    let mut bodies = vec![ground::<D>()];
    for row in 0..base {
        let n = base - row;
        for i in 0..n {
            let x = (i as Real - (n - 1) as Real * 0.5) * 2.0 * h;
            let y = h + row as Real * 2.0 * h;
            let p = axis::<D>(0, x) + axis::<D>(1, y);
            bodies.push(
                BodyDesc::dynamic()
                    .position(p)
                    .collider(ColliderDesc::new(cube.clone())),
            );
        }
    }
    Scene {
        bodies,
        ..Scene::default()
    }
}

/// A pile of mixed 3D shapes dropped on the ground: balls, capsules, rounded boxes,
/// cylinders, tori and a smooth union of two balls.
pub fn mixed_shapes() -> Scene3 {
    let blob = Shape::ball(0.3)
        .and_then(|a| {
            let b = Shape::ball(0.25)?.transformed(Pose::<3>::translation(0.35, 0.0, 0.0))?;
            a.smooth_union(b, 0.1)
        })
        .expect("valid blob");
    let shapes = [
        Shape::ball(0.35),
        Shape::capsule(0.3, 0.2),
        Shape::rounded_cuboid(Vector3::new(0.3, 0.2, 0.25), 0.05),
        Shape::cylinder(0.25, 0.25),
        Shape::torus(0.35, 0.12),
        Ok(blob),
    ]
    .map(|s| s.expect("valid demo shape"));
    let mut bodies = vec![ground::<3>()];
    for layer in 0..2 {
        for (i, s) in shapes.iter().enumerate() {
            let x = (i as Real - 2.5) * 0.9;
            let z = (layer as Real - 0.5) * 0.9;
            let y = 0.6 + layer as Real * 0.9 + (i % 2) as Real * 0.3;
            let tilt = Vector3::new(0.3 * i as Real, 0.2, 0.1 * layer as Real);
            bodies.push(
                BodyDesc::dynamic()
                    .position(Vector3::new(x, y, z))
                    .rotation(tilt)
                    .collider(ColliderDesc::new(s.clone())),
            );
        }
    }
    Scene3 {
        bodies,
        ..Scene3::default()
    }
}

/// A small 2D peg board: rows of static pegs and balls dropped from above, between walls.
pub fn peg_board() -> Scene2 {
    let peg = Shape::ball(0.08).expect("positive radius");
    let ball = Shape::ball(0.12).expect("positive radius");
    let wall = Shape::cuboid(Vector2::new(0.1, 2.5)).expect("positive half-extents");
    let mut bodies = vec![ground::<2>()];
    for x in [-2.2, 2.2] {
        bodies.push(
            BodyDesc::fixed()
                .position(Vector2::new(x, 2.5))
                .collider(ColliderDesc::new(wall.clone())),
        );
    }
    for row in 0..6 {
        let n = if row % 2 == 0 { 7 } else { 6 };
        for i in 0..n {
            let x = (i as Real - (n - 1) as Real * 0.5) * 0.6;
            let y = 1.0 + row as Real * 0.5;
            bodies.push(
                BodyDesc::fixed()
                    .position(Vector2::new(x, y))
                    .collider(ColliderDesc::new(peg.clone())),
            );
        }
    }
    for i in 0..12 {
        let p = Vector2::new(
            -0.55 + (i % 4) as Real * 0.35 + 0.02 * i as Real,
            4.5 + (i / 4) as Real * 0.3,
        );
        bodies.push(
            BodyDesc::dynamic()
                .position(p)
                .collider(ColliderDesc::new(ball.clone()).restitution(0.3)),
        );
    }
    Scene2 {
        bodies,
        ..Scene2::default()
    }
}

/// The demo scenes, in the order number keys pick them.
pub fn demo_scenes() -> Vec<NamedScene> {
    vec![
        NamedScene::new("pyramid3d", pyramid::<3>(5, 0.25)),
        NamedScene::new("shapes3d", mixed_shapes()),
        NamedScene::new("pyramid2d", pyramid::<2>(8, 0.25)),
        NamedScene::new("pegs2d", peg_board()),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn demo_scenes_are_valid_and_build() {
        for s in demo_scenes() {
            s.scene
                .validate()
                .unwrap_or_else(|e| panic!("{}: {e}", s.name));
            assert!(s.scene.body_count() > 5, "{}", s.name);
        }
        // Base 5 pyramid: 15 boxes and the ground.
        assert_eq!(pyramid::<3>(5, 0.25).bodies.len(), 16);
    }

    #[test]
    fn pyramid_boxes_touch_but_do_not_overlap() {
        let s = pyramid::<2>(3, 0.5);
        let p: Vec<Vector2> = s.bodies[1..].iter().map(|b| b.position).collect();
        for (i, a) in p.iter().enumerate() {
            for b in &p[i + 1..] {
                let d = (a - b).abs();
                // Two unit boxes overlap when both centre distances are below their size.
                assert!(d.x >= 1.0 - 1e-6 || d.y >= 1.0 - 1e-6, "{a:?} {b:?}");
            }
        }
        assert!(p.iter().all(|q| q.y >= 0.5 - 1e-6));
    }
}
