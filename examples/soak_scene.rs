//! Writes `scenes/soak.ron`, the reliability soak scene (not a demo): 500 mixed bodies
//! (balls of five sizes and capsules) dropped into a walled box, 20 pairs of them joined (fixed
//! and distance joints), and a kinematic mixer, a cross of two paddles turning at
//! 1 rad/s on the floor, that stirs the pile forever. Bodies beyond the paddles' reach
//! settle and sleep; the mixer throws others into them and wakes them.
//!
//! Run it after changing the builder: `cargo run --example soak_scene`. The soak itself:
//! `fathom run scenes/soak.ron --steps 100000 --json` (figures in the reliability report)
//! and `tests/soak.rs` (2,000 steps, with the energy and finiteness checks).

use fathom_math::{Real, Vector3};
use fathom_physics::world::SceneFile;
use fathom_world::{
    BodyDesc, ColliderDesc, DistanceJoint, JointDesc, JointKind, Scene3, SceneJoint, Shape,
};

/// Floor and four walls: half-spaces facing into the box of half-width `HALF` m.
const HALF: Real = 5.5;
/// Bodies in the pile.
const BODIES: usize = 500;
/// Joined pairs among them.
const PAIRS: usize = 20;
/// The mixer's turn rate, rad/s, about +y.
const MIXER_SPEED: Real = 1.0;

fn walls() -> BodyDesc<3> {
    let plane = |n: Vector3, offset| {
        ColliderDesc::new(Shape::half_space(n, offset).expect("unit normal")).friction(0.5)
    };
    BodyDesc::fixed()
        .collider(plane(Vector3::y(), 0.0))
        .collider(plane(Vector3::x(), -HALF))
        .collider(plane(-Vector3::x(), -HALF))
        .collider(plane(Vector3::z(), -HALF))
        .collider(plane(-Vector3::z(), -HALF))
}

fn mixer() -> BodyDesc<3> {
    let paddle = |x: Real, z: Real| Shape::cuboid(Vector3::new(x, 0.25, z)).expect("positive");
    let cross = Shape::union_all(vec![paddle(3.0, 0.12), paddle(0.12, 3.0)]).expect("two paddles");
    BodyDesc::kinematic()
        .position(Vector3::new(0.0, 0.3, 0.0))
        .angular_velocity(Vector3::new(0.0, MIXER_SPEED, 0.0))
        .collider(ColliderDesc::new(cross).friction(0.4))
}

/// Body `i` of the pile: a 10 x 5 x 10 grid, 0.9 m apart, from 1 m up; two balls then a
/// capsule, with sizes varying by index so the pile is irregular. No boxes: box contacts
/// are being reworked, and a soak of the contact code that is changing would measure that
/// work in progress rather than the world's reliability.
fn pile_body(i: usize) -> BodyDesc<3> {
    let (x, y, z) = (i % 10, (i / 10) % 5, i / 50);
    let at = |k: usize| -4.05 + 0.9 * k as Real;
    let position = Vector3::new(at(x), 1.0 + 0.9 * y as Real, at(z));
    let s = 0.15 + 0.02 * (i % 5) as Real;
    let shape = match i % 3 {
        0 | 1 => Shape::ball(s),
        _ => Shape::capsule(s, 0.7 * s),
    }
    .expect("positive sizes");
    BodyDesc::dynamic().position(position).collider(
        ColliderDesc::new(shape)
            .density(500.0 + 100.0 * (i % 4) as Real)
            .friction(0.5)
            .restitution(0.1),
    )
}

/// Joins grid neighbours along x (body `k` and `k + 1`, 0.9 m apart): even pairs welded
/// by fixed joints (centred between them), odd pairs by distance joints of 0.9 m.
fn joint(pair: usize) -> SceneJoint<3> {
    let a = 2 + pair * 12; // scene indices: 0 walls, 1 mixer, 2.. pile; skip around the grid
    let half = Vector3::new(0.45, 0.0, 0.0);
    let kind = if pair % 2 == 0 {
        JointKind::Fixed
    } else {
        JointKind::Distance(DistanceJoint {
            length: Some(0.9),
            ..DistanceJoint::default()
        })
    };
    let (anchor_a, anchor_b) = if pair % 2 == 0 {
        (half, -half)
    } else {
        (Vector3::zeros(), Vector3::zeros())
    };
    SceneJoint {
        body_a: a,
        body_b: a + 1,
        joint: JointDesc {
            anchor_a,
            anchor_b,
            ..JointDesc::new(kind)
        },
    }
}

/// The soak scene.
fn soak() -> Scene3 {
    let mut bodies = vec![walls(), mixer()];
    bodies.extend((0..BODIES).map(pile_body));
    Scene3 {
        bodies,
        joints: (0..PAIRS).map(joint).collect(),
        ..Scene3::default()
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let scene = SceneFile::Scene3D(soak());
    scene.validate()?;
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/soak.ron");
    std::fs::write(&path, format!("{}\n", scene.to_ron_string()?))?;
    println!("wrote {}", path.display());
    Ok(())
}
