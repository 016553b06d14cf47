//! Scenes of shapes only an SDF engine collides directly: CSG trees (unions,
//! differences, smooth blends), non-convex tori and gears in a bowl that is
//! itself a CSG difference, and closed meshes baked into distance grids.

use super::{cuboid, gear, scene, FRICTION};
use fathom_math::{Pose3, Real, Vector3};
use fathom_sdf::{BakedGrid, GridSource, Shape3};
use fathom_world::{BodyDesc, ColliderDesc, Scene3};
use std::sync::Arc;

/// A static half-space ground whose surface is the plane y = 0.
pub(super) fn plane_ground() -> BodyDesc<3> {
    let plane = Shape3::half_space(Vector3::y(), 0.0).expect("unit normal");
    BodyDesc::fixed().collider(ColliderDesc::new(plane).friction(FRICTION))
}

fn at(shape: Shape3, x: Real, y: Real, z: Real) -> Shape3 {
    shape
        .transformed(Pose3::translation(x, y, z))
        .expect("finite offset")
}

fn cylinder(half_height: Real, radius: Real) -> Shape3 {
    Shape3::cylinder(half_height, radius).expect("positive cylinder size")
}

fn ball(radius: Real) -> Shape3 {
    Shape3::ball(radius).expect("positive radius")
}

/// The pieces of the CSG tower, bottom to top, with their half heights (metres): every
/// piece has a flat bottom and a flat top (or a dome on the last), so they stack.
fn csg_pieces() -> Vec<(Shape3, Real)> {
    // A plinth with a round hole through it (difference).
    let plinth = cuboid(Vector3::new(0.9, 0.2, 0.9))
        .difference(cylinder(0.4, 0.3))
        .expect("a difference always builds");
    // A cube with a ball carved out of its middle: a frame with six round windows.
    let frame = cuboid(Vector3::repeat(0.5))
        .difference(ball(0.64))
        .expect("a difference always builds");
    // A tube: a cylinder minus a narrower, taller one.
    let tube = cylinder(0.15, 0.6)
        .difference(cylinder(0.3, 0.36))
        .expect("a difference always builds");
    // A gear: a disc and ten teeth (union).
    let cog = gear(0.5, 0.12, 10);
    // Two crossed bars blended where they meet (smooth union).
    let cross = cuboid(Vector3::new(0.55, 0.1, 0.14))
        .smooth_union(cuboid(Vector3::new(0.14, 0.1, 0.55)), 0.12)
        .expect("positive blend radius");
    // A dome: a flat disc smoothly blended into a ball above it.
    let dome = at(cylinder(0.08, 0.4), 0.0, -0.17, 0.0)
        .smooth_union(at(ball(0.3), 0.0, 0.0, 0.0), 0.15)
        .expect("positive blend radius");
    vec![
        (plinth, 0.2),
        (frame, 0.5),
        (tube, 0.15),
        (cog, 0.12),
        (cross, 0.1),
        (dome, 0.25),
    ]
}

/// A tower of six CSG pieces (differences, a union, smooth unions) stacked on a plane,
/// each turned a little from the one below.
pub fn csg_tower_3d() -> Scene3 {
    let mut bodies = vec![plane_ground()];
    let mut y = 0.0;
    for (i, (shape, half_height)) in csg_pieces().into_iter().enumerate() {
        // A 5 mm gap between pieces: they settle onto each other in the first steps.
        y += half_height + 0.005;
        bodies.push(
            BodyDesc::dynamic()
                .position(Vector3::new(0.0, y, 0.0))
                .rotation(Vector3::new(0.0, 0.3 * i as Real, 0.0))
                .collider(ColliderDesc::new(shape).friction(FRICTION)),
        );
        y += half_height;
    }
    scene(bodies)
}

/// Radius of the bowl's sphere and half its wall's thickness, metres.
const BOWL_RADIUS: Real = 2.0;
const BOWL_WALL: Real = 0.12;

/// An open bowl: the lower half of a spherical shell (a ball's shell minus a box over
/// its top half), the sphere's centre at `(0, BOWL_RADIUS, 0)` so the bowl sits on y = 0.
fn bowl() -> Shape3 {
    let shell = ball(BOWL_RADIUS).shell(BOWL_WALL).expect("positive wall");
    let lid = at(
        cuboid(Vector3::repeat(BOWL_RADIUS + 0.5)),
        0.0,
        BOWL_RADIUS + 0.5,
        0.0,
    );
    at(
        shell.difference(lid).expect("a difference always builds"),
        0.0,
        BOWL_RADIUS + BOWL_WALL,
        0.0,
    )
}

/// Height of the bowl's inner surface at distance `r` from its axis, metres.
fn bowl_floor(r: Real) -> Real {
    let inner = BOWL_RADIUS - BOWL_WALL;
    BOWL_RADIUS + BOWL_WALL - (inner * inner - r * r).max(0.0).sqrt()
}

/// Tori and gears (non-convex) let go just above the inside of a bowl (a CSG difference)
/// on a plane, in two rings: they slide down, pile up at the bottom and settle.
pub fn bowl_3d() -> Scene3 {
    let mut bodies = vec![
        plane_ground(),
        BodyDesc::fixed().collider(ColliderDesc::new(bowl()).friction(0.4)),
    ];
    let torus = Shape3::torus(0.3, 0.13).expect("positive torus radii");
    let cog = gear(0.32, 0.12, 8);
    for i in 0..10 {
        let (r, a) = if i < 5 {
            (0.55, i as Real * 1.2566)
        } else {
            (1.2, 0.628 + i as Real * 1.2566)
        };
        // 0.25 m above the floor: they land slowly (see the module docs of the world's
        // continuous collision: fast thin bodies are swept).
        let p = Vector3::new(r * a.cos(), bowl_floor(r) + 0.45, r * a.sin());
        let shape = if i % 2 == 0 {
            torus.clone()
        } else {
            cog.clone()
        };
        bodies.push(
            BodyDesc::dynamic()
                .position(p)
                .rotation(Vector3::new(0.3, a, 0.2))
                .collider(ColliderDesc::new(shape).friction(0.4)),
        );
    }
    scene(bodies)
}

/// A shipped OBJ mesh baked by the mesh scene: the grid file's path relative to the
/// `scenes/` folder, and the OBJ text (compiled in, so the builder needs no files).
pub struct MeshAsset {
    /// The grid file, relative to `scenes/`.
    pub grid_path: &'static str,
    /// The OBJ file, relative to `scenes/`.
    pub obj_path: &'static str,
    obj: &'static str,
}

/// The meshes of [`mesh_3d`]: a star prism and a plus-shaped prism (both non-convex).
pub const MESH_ASSETS: [MeshAsset; 2] = [
    MeshAsset {
        grid_path: "meshes/star.grid",
        obj_path: "meshes/star.obj",
        obj: include_str!("../../scenes/meshes/star.obj"),
    },
    MeshAsset {
        grid_path: "meshes/cross.grid",
        obj_path: "meshes/cross.obj",
        obj: include_str!("../../scenes/meshes/cross.obj"),
    },
];

/// Grid cells along a mesh's longest axis: about 3 cm cells on these 1 m meshes,
/// a 36 x 12 x 36 grid (60 KB) that bakes in milliseconds.
pub const MESH_RESOLUTION: usize = 32;

impl MeshAsset {
    /// The mesh's signed distance grid ([`MESH_RESOLUTION`] cells across).
    pub fn bake(&self) -> BakedGrid<3> {
        let mesh = fathom_sdf::parse_obj(self.obj).expect("the shipped OBJ parses");
        BakedGrid::from_mesh_resolution(&mesh, MESH_RESOLUTION).expect("the shipped OBJ is closed")
    }

    /// The shape: the grid file, already loaded with the bake.
    fn shape(&self) -> Shape3 {
        Shape3::Grid(GridSource::File {
            path: self.grid_path.to_string(),
            grid: Some(Arc::new(self.bake())),
        })
    }
}

/// Stars and crosses baked from OBJ meshes into distance grids: six dropped side by side
/// onto a plane, two more onto them.
pub fn mesh_3d() -> Scene3 {
    let shapes = MESH_ASSETS.map(|m| m.shape());
    let mut bodies = vec![plane_ground()];
    for i in 0..8 {
        // Two rows of three, 1.1 m apart; the last two above the middle of each row.
        let (x, z, y) = if i < 6 {
            (
                (i % 3) as Real * 1.1 - 1.1,
                (i / 3) as Real * 1.1 - 0.55,
                0.5,
            )
        } else {
            (0.0, (i - 6) as Real * 1.1 - 0.55, 1.0)
        };
        bodies.push(
            BodyDesc::dynamic()
                .position(Vector3::new(x, y, z))
                .rotation(Vector3::new(0.25 * (i % 3) as Real, 0.7 * i as Real, 0.3))
                .collider(ColliderDesc::new(shapes[i % 2].clone()).friction(FRICTION)),
        );
    }
    scene(bodies)
}
