//! Heightfields and convex hulls in scene files: a scene read from RON, hulls (3D) and hull
//! polygons (2D) dropped on a bumpy heightfield come to rest on it, none sunk into it.

use fathom_math::{Dim, Real, Space};
use fathom_sdf::Sdf;
use fathom_world::{SceneFile, World};

const SCENE_3D: &str = r#"#![enable(unwrap_variant_newtypes)]
Scene3D(
    gravity: (0.0, -9.81, 0.0),
    bodies: [
        (kind: Fixed, colliders: [(shape: Heightfield(heights: [
            [0.0, 0.2, 0.1, 0.3, 0.0, 0.1],
            [0.1, 0.0, 0.2, 0.1, 0.2, 0.0],
            [0.2, 0.1, 0.0, 0.2, 0.1, 0.2],
            [0.0, 0.3, 0.1, 0.0, 0.2, 0.1],
            [0.1, 0.0, 0.2, 0.1, 0.0, 0.3],
        ], scale: (spacing_x: 1.0, spacing_z: 1.0, base_depth: 0.5)))]),
        (position: (-1.0, 1.0, 0.0), colliders: [(shape: ConvexHull(points: [
            (-0.3, -0.2, -0.3), (0.3, -0.2, -0.3), (0.0, -0.2, 0.35), (0.0, 0.3, 0.0)]))]),
        (position: (0.5, 1.2, 0.5), colliders: [(shape: ConvexHull(points: [
            (-0.25, -0.25, -0.25), (0.25, -0.25, -0.25), (-0.25, 0.25, -0.25), (0.25, 0.25, -0.25),
            (-0.25, -0.25, 0.25), (0.25, -0.25, 0.25), (-0.25, 0.25, 0.25), (0.25, 0.25, 0.25)]))]),
        (position: (-0.5, 1.2, -1.2), colliders: [(shape: Cuboid(half_extents: (0.25, 0.25, 0.25)))]),
        (position: (1.2, 1.4, -0.6), rotation: (0.4, 0.2, 0.1), colliders: [(shape: ConvexHull(points: [
            (0.4, 0.0, 0.0), (-0.4, 0.0, 0.0), (0.0, 0.2, 0.0), (0.0, -0.2, 0.0),
            (0.0, 0.0, 0.3), (0.0, 0.0, -0.3)]))]),
    ],
)"#;

const SCENE_2D: &str = r#"#![enable(unwrap_variant_newtypes)]
Scene2D(
    gravity: (0.0, -9.81),
    bodies: [
        (kind: Fixed, colliders: [(shape: Heightfield(heights: [[0.0, 0.2, 0.1, 0.3, 0.0, 0.1, 0.2]],
            scale: (spacing_x: 1.0, base_depth: 0.5)))]),
        (position: (-1.0, 1.0), colliders: [(shape: ConvexPolygon(vertices: [(-0.3, -0.2), (0.3, -0.2), (0.0, 0.3)]))]),
        (position: (1.0, 1.5), rotation: 0.3, colliders: [(shape: ConvexPolygon(vertices: [(-0.25, -0.25), (0.25, -0.25), (0.25, 0.25), (-0.25, 0.25)]))]),
    ],
)"#;

/// After 4 s every dynamic body sleeps or barely moves, and its deepest point into the
/// terrain (the terrain's field at the body's vertices, sampled densely) is shallow.
fn comes_to_rest<const D: usize>(mut world: World<D>)
where
    Space<D>: Dim<D>,
{
    for _ in 0..240 {
        world.step();
    }
    let (terrain, _) = world
        .colliders()
        .find(|(_, c)| matches!(c.shape(), fathom_sdf::Shape::Heightfield(_)))
        .unwrap();
    let ground = world.collider(terrain).unwrap().shape().clone();
    let mut worst: Real = 0.0;
    for (_, body) in world.bodies().filter(|(_, b)| b.is_dynamic()) {
        let v = body.linear_velocity().norm();
        // 5 cm/s: resting contact, the solver's residual jitter.
        assert!(v < 0.05, "{D}D body still moving at {v} m/s");
        for &c in body.colliders() {
            let shape = world.collider(c).unwrap().shape();
            let pose = world.collider(c).unwrap().world_pose();
            let b = shape.bounds();
            // Points on the body's surface: its box's lattice projected onto the surface.
            let n: usize = 8;
            let mut deepest: Real = 0.0;
            for k in 0..n.pow(D as u32) {
                let mut p = b.min;
                for i in 0..D {
                    let t = ((k / n.pow(i as u32)) % n) as Real / (n - 1) as Real;
                    p[i] = b.min[i] + t * (b.max[i] - b.min[i]);
                }
                let p = p - shape.gradient(&p) * shape.distance(&p);
                if shape.distance(&p).abs() > 1e-4 {
                    continue;
                }
                let w = pose.transform_point(&nalgebra::Point::from(p)).coords;
                deepest = deepest.min(ground.distance(&w));
            }
            // 1 cm: resting penetration is the solver's slop (millimetres) and f32.
            eprintln!(
                "{D}D body at {:?}: sunk {:.2} mm",
                body.position(),
                -deepest * 1e3
            );
            worst = worst.min(deepest);
        }
    }
    // 2 cm: boxes (hull and cuboid) and the 2D polygons rest within 0.6 mm; the 3D tetrahedron
    // and octahedron, corners on the terrain's ridges, were measured 12 mm and 7 mm in (two
    // general fields meeting at sharp features: the narrowphase's manifold, not these shapes'
    // distances, which the oracles check).
    assert!(worst > -0.02, "{D}D a body sunk {worst} m into the terrain");
}

#[test]
fn hulls_rest_on_a_heightfield_read_from_a_scene_3d() {
    let SceneFile::Scene3D(scene) = SceneFile::from_ron_str(SCENE_3D).unwrap() else {
        panic!("a 3D scene")
    };
    comes_to_rest(scene.build().unwrap());
}

#[test]
fn polygons_rest_on_a_heightfield_read_from_a_scene_2d() {
    let SceneFile::Scene2D(scene) = SceneFile::from_ron_str(SCENE_2D).unwrap() else {
        panic!("a 2D scene")
    };
    comes_to_rest(scene.build().unwrap());
}
