//! The shipped demo scenes, built in code.
//!
//! `scenes/*.ron` are written from these builders by
//! `cargo run --example write_scenes`, and a test checks that the committed
//! files still match, so the code and the files never drift apart.

mod joints;
mod motion;
mod shapes;

pub use joints::{chain_3d, cradle_3d, door_3d, DOOR_LIMIT};
pub use motion::{
    bullet_3d, domino_placement, dominoes_3d, galton_2d, BIN_HEIGHT, BULLET_SPEEDS, DOMINOES,
    DOMINO_HALF, GALTON_BALLS, GALTON_HALF_WIDTH, GALTON_ROWS, WALL_HALF_THICKNESS, WALL_X,
};
pub use shapes::{bowl_3d, csg_tower_3d, mesh_3d, MeshAsset, MESH_ASSETS, MESH_RESOLUTION};

use fathom_math::{Dim, Pose3, Real, Space, Vector, Vector2, Vector3};
use fathom_sdf::Shape3;
use fathom_world::SceneFile;
use fathom_world::{BodyDesc, ColliderDesc, Scene, Shape};

/// A named scene builder.
pub struct DemoScene {
    /// File stem in `scenes/` (`<name>.ron`).
    pub name: &'static str,
    /// One line saying what the scene shows.
    pub description: &'static str,
    /// Builds the scene.
    pub build: fn() -> SceneFile,
}

/// Every shipped scene, in the order the viewer cycles through them.
pub const DEMO_SCENES: &[DemoScene] = &[
    DemoScene {
        name: "tower_2d",
        description: "a tower of 10 boxes (2D)",
        build: tower_2d,
    },
    DemoScene {
        name: "tower_3d",
        description: "a tower of 10 boxes (3D)",
        build: tower_3d,
    },
    DemoScene {
        name: "pyramid_2d",
        description: "Box2D's large pyramid: a base of 100 boxes, 5050 in all (2D)",
        build: pyramid_2d,
    },
    DemoScene {
        name: "pyramid_3d",
        description: "a pyramid of boxes with a 10 x 10 base, 385 in all (3D)",
        build: pyramid_3d,
    },
    DemoScene {
        name: "pile_3d",
        description: "1000 balls, boxes and capsules dropped into a container (3D)",
        build: pile_3d,
    },
    DemoScene {
        name: "nonconvex_3d",
        description: "tori and gears (non-convex SDFs) stacked on a plane (3D)",
        build: nonconvex_3d,
    },
    DemoScene {
        name: "dominoes_3d",
        description: "24 dominoes on an arc, the first tipped over (3D)",
        build: || SceneFile::Scene3D(dominoes_3d()),
    },
    DemoScene {
        name: "csg_tower_3d",
        description: "a tower of CSG shapes: differences, a union, smooth blends (3D)",
        build: || SceneFile::Scene3D(csg_tower_3d()),
    },
    DemoScene {
        name: "bowl_3d",
        description: "tori and gears dropped into a bowl made by a CSG difference (3D)",
        build: || SceneFile::Scene3D(bowl_3d()),
    },
    DemoScene {
        name: "mesh_3d",
        description: "stars and crosses baked from OBJ meshes into distance grids (3D)",
        build: || SceneFile::Scene3D(mesh_3d()),
    },
    DemoScene {
        name: "bullet_3d",
        description: "bullets at up to 300 m/s stopped by a 4 cm wall: continuous collision (3D)",
        build: || SceneFile::Scene3D(bullet_3d()),
    },
    DemoScene {
        name: "galton_2d",
        description: "a Galton board: 96 balls fall through round pegs into bins (2D)",
        build: || SceneFile::Scene2D(galton_2d()),
    },
    DemoScene {
        name: "cradle_3d",
        description: "a Newton's cradle: five balls on hinges, restitution 1 (3D)",
        build: || SceneFile::Scene3D(cradle_3d()),
    },
    DemoScene {
        name: "chain_3d",
        description: "a chain of 16 capsules on ball joints swings down and hangs (3D)",
        build: || SceneFile::Scene3D(chain_3d()),
    },
    DemoScene {
        name: "door_3d",
        description: "doors on hinges with limits: one hit by a ball, one opened by a motor (3D)",
        build: || SceneFile::Scene3D(door_3d()),
    },
];

/// Looks a demo scene up by name.
pub fn demo_scene(name: &str) -> Option<&'static DemoScene> {
    DEMO_SCENES.iter().find(|s| s.name == name)
}

/// Friction of the boxes and the ground in the stacking scenes (Box2D's benchmark uses 0.6).
const FRICTION: Real = 0.6;

fn vec<const D: usize>(x: Real, y: Real, z: Real) -> Vector<D> {
    let mut v = Vector::<D>::zeros();
    v[0] = x;
    v[1] = y;
    if D > 2 {
        v[2] = z;
    }
    v
}

fn cuboid<const D: usize>(half: Vector<D>) -> Shape<D>
where
    Space<D>: Dim<D>,
{
    Shape::cuboid(half).expect("demo half extents are positive")
}

/// A static ground box whose top face is the plane y = 0.
fn ground<const D: usize>(half_width: Real) -> BodyDesc<D>
where
    Space<D>: Dim<D>,
{
    BodyDesc::fixed()
        .position(vec(0.0, -1.0, 0.0))
        .collider(ColliderDesc::new(cuboid(vec(half_width, 1.0, half_width))).friction(FRICTION))
}

fn dynamic_box<const D: usize>(position: Vector<D>, half: Real) -> BodyDesc<D>
where
    Space<D>: Dim<D>,
{
    BodyDesc::dynamic()
        .position(position)
        .collider(ColliderDesc::new(cuboid(Vector::repeat(half))).friction(FRICTION))
}

fn scene<const D: usize>(bodies: Vec<BodyDesc<D>>) -> Scene<D>
where
    Space<D>: Dim<D>,
{
    Scene {
        bodies,
        ..Scene::default()
    }
}

/// Ten unit boxes (half extent 0.5) stacked on the ground.
fn tower<const D: usize>() -> Scene<D>
where
    Space<D>: Dim<D>,
{
    let mut bodies = vec![ground::<D>(20.0)];
    bodies.extend((0..10).map(|i| dynamic_box(vec(0.0, 0.5 + i as Real, 0.0), 0.5)));
    scene(bodies)
}

fn tower_2d() -> SceneFile {
    SceneFile::Scene2D(tower::<2>())
}

fn tower_3d() -> SceneFile {
    SceneFile::Scene3D(tower::<3>())
}

/// Box2D's "large pyramid" benchmark: row `i` holds `100 - i` boxes of half extent 0.5.
fn pyramid_2d() -> SceneFile {
    let base = 100;
    let h = 0.5;
    let mut bodies = vec![ground::<2>(80.0)];
    for row in 0..base {
        let count = base - row;
        let y = h + 2.0 * h * row as Real;
        let x0 = -h * (count as Real - 1.0);
        for i in 0..count {
            bodies.push(dynamic_box(Vector2::new(x0 + 2.0 * h * i as Real, y), h));
        }
    }
    SceneFile::Scene2D(scene(bodies))
}

/// A square pyramid: layer `k` is a `(10 - k)²` grid of unit boxes.
fn pyramid_3d() -> SceneFile {
    let base = 10;
    let h = 0.5;
    let mut bodies = vec![ground::<3>(30.0)];
    for layer in 0..base {
        let n = base - layer;
        let y = h + 2.0 * h * layer as Real;
        let o = -h * (n as Real - 1.0);
        for i in 0..n {
            for k in 0..n {
                let p = Vector3::new(o + 2.0 * h * i as Real, y, o + 2.0 * h * k as Real);
                bodies.push(dynamic_box(p, h));
            }
        }
    }
    SceneFile::Scene3D(scene(bodies))
}

/// A small deterministic generator for scene jitter (no dependency, same numbers everywhere).
struct Lcg(u64);

impl Lcg {
    /// A number in `[-1, 1)`.
    fn next(&mut self) -> Real {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 40) as Real / (1u64 << 24) as Real) * 2.0 - 1.0
    }
}

/// A static open box: a floor and four walls around `[-half, half]²`, `height` tall.
fn container(half: Real, height: Real) -> Vec<BodyDesc<3>> {
    let t = 0.5;
    let wall = |p: Vector3, h: Vector3| {
        BodyDesc::fixed()
            .position(p)
            .collider(ColliderDesc::new(cuboid(h)).friction(FRICTION))
    };
    vec![
        wall(
            Vector3::new(0.0, -t, 0.0),
            Vector3::new(half + 2.0 * t, t, half + 2.0 * t),
        ),
        wall(
            Vector3::new(half + t, height / 2.0, 0.0),
            Vector3::new(t, height / 2.0, half),
        ),
        wall(
            Vector3::new(-half - t, height / 2.0, 0.0),
            Vector3::new(t, height / 2.0, half),
        ),
        wall(
            Vector3::new(0.0, height / 2.0, half + t),
            Vector3::new(half + 2.0 * t, height / 2.0, t),
        ),
        wall(
            Vector3::new(0.0, height / 2.0, -half - t),
            Vector3::new(half + 2.0 * t, height / 2.0, t),
        ),
    ]
}

/// 1000 bodies (a third each balls, boxes and capsules) on a jittered 10³ lattice above a container.
fn pile_3d() -> SceneFile {
    let mut rng = Lcg(7);
    let mut bodies = container(6.0, 4.0);
    let spacing = 1.1;
    for i in 0..1000 {
        let (x, y, z) = (i % 10, i / 100, (i / 10) % 10);
        let p = Vector3::new(
            (x as Real - 4.5) * spacing + 0.05 * rng.next(),
            1.0 + y as Real * spacing,
            (z as Real - 4.5) * spacing + 0.05 * rng.next(),
        );
        let shape = match i % 3 {
            0 => Shape3::ball(0.4),
            1 => Shape3::cuboid(Vector3::new(0.4, 0.3, 0.35)),
            _ => Shape3::capsule(0.2, 0.25),
        }
        .expect("demo sizes are positive");
        let spin = Vector3::new(rng.next(), rng.next(), rng.next()) * 0.5;
        bodies.push(
            BodyDesc::dynamic()
                .position(p)
                .rotation(spin)
                .collider(ColliderDesc::new(shape).friction(0.5)),
        );
    }
    SceneFile::Scene3D(scene(bodies))
}

/// A gear: a cylinder (axis along local y) with `teeth` boxes around its rim.
pub fn gear(radius: Real, half_thickness: Real, teeth: usize) -> Shape3 {
    let hub = Shape3::cylinder(half_thickness, radius).expect("positive gear size");
    let tooth_half = Vector3::new(radius * 0.18, half_thickness, radius * 0.12);
    let mut parts = vec![hub];
    for k in 0..teeth {
        let a = k as Real * std::f32::consts::TAU / teeth as Real;
        let pose = Pose3::new(
            Vector3::new(a.cos(), 0.0, -a.sin()) * (radius + tooth_half.x * 0.6),
            Vector3::y() * a,
        );
        parts.push(cuboid(tooth_half).transformed(pose).expect("finite pose"));
    }
    Shape3::union_all(parts).expect("a gear has parts")
}

/// Tori and gears dropped in a loose stack on a static plane.
fn nonconvex_3d() -> SceneFile {
    let plane = Shape3::half_space(Vector3::y(), 0.0).expect("unit normal");
    let mut bodies = vec![BodyDesc::fixed().collider(ColliderDesc::new(plane).friction(FRICTION))];
    let torus = Shape3::torus(0.6, 0.2).expect("positive torus radii");
    let g = gear(0.6, 0.15, 10);
    for i in 0..8 {
        let y = 0.5 + 0.6 * i as Real;
        let x = if i % 2 == 0 { -0.15 } else { 0.15 };
        let tilt = Vector3::new(0.05 * i as Real, 0.0, 0.03);
        let shape = if i % 2 == 0 { torus.clone() } else { g.clone() };
        bodies.push(
            BodyDesc::dynamic()
                .position(Vector3::new(x, y, 0.0))
                .rotation(tilt)
                .collider(ColliderDesc::new(shape).friction(FRICTION)),
        );
    }
    SceneFile::Scene3D(scene(bodies))
}
