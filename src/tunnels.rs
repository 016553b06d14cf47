//! The 2D tunnel demo: a digger carves a tunnel through a slab of terrain under falling balls
//! ([`fathom_world::World::edit_collider`], one ball-shaped carve every few steps along a
//! path), and the balls that land over the shaft fall through the tunnel to the floor below.

use fathom_math::{Pose2, Real, Vector2};
use fathom_world::{
    BodyDesc, ColliderDesc, ColliderEdit, ColliderHandle, Shape, World2, WorldError,
};

/// The slab's top and bottom, metres.
pub const TERRAIN_TOP: Real = 0.0;
/// The slab's bottom, metres: a ball below it came through a tunnel.
pub const TERRAIN_BOTTOM: Real = -6.0;
/// Radius of the digger's carve, metres.
pub const DIG_RADIUS: Real = 0.8;
/// Steps between carves.
pub const DIG_EVERY: u64 = 3;
/// Distance between carves along the path, metres.
pub const DIG_SPACING: Real = 0.3;

/// The tunnel's path: down from the surface, along, and out through the bottom.
pub const TUNNEL_PATH: [[Real; 2]; 4] = [[-6.0, 0.5], [-3.0, -3.0], [4.0, -4.0], [7.0, -7.0]];

/// The demo's world and digger.
pub struct TunnelDemo {
    /// The world: terrain slab, floor, balls.
    pub world: World2,
    /// The terrain's collider, which the digger carves.
    pub terrain: ColliderHandle,
    /// Carves made so far.
    pub carves: usize,
    steps: u64,
}

/// A shape constant of this file that failed to build (it never does).
fn shape(source: fathom_sdf::SdfError) -> WorldError {
    WorldError::Shape {
        field: "shape".into(),
        source,
    }
}

/// Points every [`DIG_SPACING`] metres along [`TUNNEL_PATH`].
pub fn dig_points() -> Vec<Vector2> {
    let mut out = Vec::new();
    for w in TUNNEL_PATH.windows(2) {
        let (a, b) = (Vector2::from(w[0]), Vector2::from(w[1]));
        let n = ((b - a).norm() / DIG_SPACING).ceil() as usize;
        out.extend((0..n).map(|i| a + (b - a) * (i as Real / n as Real)));
    }
    out.push(Vector2::from(TUNNEL_PATH[TUNNEL_PATH.len() - 1]));
    out
}

impl TunnelDemo {
    /// A 30 m slab 6 m thick, a floor 4 m under it, and `balls` balls dropped over the
    /// tunnel's mouth.
    pub fn new(balls: usize) -> Result<Self, WorldError> {
        let mut world = World2::default();
        let slab = Shape::cuboid(Vector2::new(15.0, 0.5 * (TERRAIN_TOP - TERRAIN_BOTTOM)))
            .map_err(shape)?;
        let ground = world.add_body(
            &BodyDesc::fixed()
                .position(Vector2::new(0.0, 0.5 * (TERRAIN_TOP + TERRAIN_BOTTOM)))
                .collider(ColliderDesc::new(slab)),
        )?;
        let floor = Shape::half_space(Vector2::y(), TERRAIN_BOTTOM - 4.0).map_err(shape)?;
        world.add_body(&BodyDesc::fixed().collider(ColliderDesc::new(floor)))?;
        for i in 0..balls {
            let x = -8.5 + 0.55 * (i % 10) as Real;
            let y = 1.0 + 0.6 * (i / 10) as Real;
            world.add_body(
                &BodyDesc::dynamic()
                    .position(Vector2::new(x, y))
                    .collider(ColliderDesc::new(Shape::ball(0.25).map_err(shape)?)),
            )?;
        }
        let terrain = world.body(ground).expect("just added").colliders()[0];
        Ok(Self {
            world,
            terrain,
            carves: 0,
            steps: 0,
        })
    }

    /// One step: every [`DIG_EVERY`] steps the digger carves its next point, then the world
    /// steps.
    pub fn step(&mut self) -> Result<(), WorldError> {
        if self.steps % DIG_EVERY == 0 {
            if let Some(p) = dig_points().get(self.carves) {
                let edit = ColliderEdit::carve(
                    Shape::ball(DIG_RADIUS).map_err(shape)?,
                    Pose2::new(*p, 0.0),
                );
                self.world.edit_collider(self.terrain, &edit)?;
                self.carves += 1;
            }
        }
        self.world.step();
        self.steps += 1;
        Ok(())
    }

    /// Balls below the terrain's bottom: through the tunnel.
    pub fn balls_through(&self) -> usize {
        self.world
            .bodies()
            .filter(|(_, b)| b.is_dynamic() && b.position().y < TERRAIN_BOTTOM)
            .count()
    }
}
