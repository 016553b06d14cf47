//! The 2D tunnel demo: a digger carves a tunnel through a slab of terrain under falling balls
//! ([`fathom_world::World::edit_collider`], one ball-shaped carve every few steps along a
//! path), and the balls that land over the shaft fall through the tunnel to the floor below.

use fathom_math::{Pose2, Real, Vector2};
use fathom_viewer::{
    Controller, DriveKeys, Follow, NamedScene, Part, SceneController, ViewerError,
};
use fathom_world::{
    BodyDesc, ColliderDesc, ColliderEdit, ColliderHandle, Scene2, Shape, World2, WorldError,
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
    digger: Digger,
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

/// The demo's name in the viewer (`fathom view tunnels_2d`).
pub const TUNNELS_SCENE: &str = "tunnels_2d";

/// The demo's bodies, in the order added: a 30 m slab 6 m thick (the terrain), a floor 4 m
/// under it, and `balls` balls dropped over the tunnel's mouth.
pub fn tunnel_bodies(balls: usize) -> Result<Vec<BodyDesc<2>>, WorldError> {
    let slab =
        Shape::cuboid(Vector2::new(15.0, 0.5 * (TERRAIN_TOP - TERRAIN_BOTTOM))).map_err(shape)?;
    let floor = Shape::half_space(Vector2::y(), TERRAIN_BOTTOM - 4.0).map_err(shape)?;
    let mut out = vec![
        BodyDesc::fixed()
            .position(Vector2::new(0.0, 0.5 * (TERRAIN_TOP + TERRAIN_BOTTOM)))
            .collider(ColliderDesc::new(slab)),
        BodyDesc::fixed().collider(ColliderDesc::new(floor)),
    ];
    for i in 0..balls {
        let x = -8.5 + 0.55 * (i % 10) as Real;
        let y = 1.0 + 0.6 * (i / 10) as Real;
        out.push(
            BodyDesc::dynamic()
                .position(Vector2::new(x, y))
                .collider(ColliderDesc::new(Shape::ball(0.25).map_err(shape)?)),
        );
    }
    Ok(out)
}

/// The terrain's collider in a world built from [`tunnel_bodies`]: the first body's.
fn terrain_of(world: &World2) -> Option<ColliderHandle> {
    let (_, first) = world.bodies().next()?;
    first.colliders().first().copied()
}

/// Balls below the terrain's bottom of a world built from [`tunnel_bodies`]: through the
/// tunnel.
fn balls_through(world: &World2) -> usize {
    world
        .bodies()
        .filter(|(_, b)| b.is_dynamic() && b.position().y < TERRAIN_BOTTOM)
        .count()
}

impl TunnelDemo {
    /// The demo's world ([`tunnel_bodies`]) with `balls` balls.
    pub fn new(balls: usize) -> Result<Self, WorldError> {
        let mut world = World2::default();
        for b in tunnel_bodies(balls)? {
            world.add_body(&b)?;
        }
        let digger = Digger::on(&world);
        Ok(Self { world, digger })
    }

    /// One step: the digger's turn ([`Digger::dig_turn`]), then the world steps.
    pub fn step(&mut self) -> Result<(), WorldError> {
        self.digger.dig_turn(&mut self.world)?;
        self.world.step();
        Ok(())
    }

    /// Carves made so far.
    pub fn carves(&self) -> usize {
        self.digger.carves
    }

    /// Balls below the terrain's bottom: through the tunnel.
    pub fn balls_through(&self) -> usize {
        balls_through(&self.world)
    }
}

/// The digger: every [`DIG_EVERY`] steps it carves the next of [`dig_points`] into the
/// terrain. [`TunnelDemo`] runs it before each step, and so does the viewer, as the
/// scene's controller.
#[derive(Clone, Debug, Default)]
pub struct Digger {
    terrain: Option<ColliderHandle>,
    carves: usize,
    steps: u64,
}

impl Digger {
    /// A digger on the terrain of `world` (built from [`tunnel_bodies`]), at the start.
    pub fn on(world: &World2) -> Self {
        Self {
            terrain: terrain_of(world),
            ..Self::default()
        }
    }

    /// Carves made since the start.
    pub fn carves(&self) -> usize {
        self.carves
    }

    /// This step's turn, before the world steps: a carve every [`DIG_EVERY`] steps while
    /// the path lasts.
    pub fn dig_turn(&mut self, world: &mut World2) -> Result<(), WorldError> {
        if self.steps % DIG_EVERY == 0 {
            if let (Some(t), Some(p)) = (self.terrain, dig_points().get(self.carves)) {
                let ball = Shape::ball(DIG_RADIUS).map_err(shape)?;
                world.edit_collider(t, &ColliderEdit::carve(ball, Pose2::new(*p, 0.0)))?;
                self.carves += 1;
            }
        }
        self.steps += 1;
        Ok(())
    }
}

impl Controller<2> for Digger {
    fn attach(&mut self, world: &mut World2) -> Result<(), ViewerError> {
        *self = Self::on(world);
        Ok(())
    }

    fn before_step(
        &mut self,
        world: &mut World2,
        _keys: Option<&DriveKeys>,
    ) -> Result<(), ViewerError> {
        self.dig_turn(world)
            .map_err(|e| ViewerError::Controller(Box::new(e)))
    }

    fn follow(&self) -> Option<Follow<2>> {
        None
    }

    fn parts(&self) -> Vec<Part<2>> {
        Vec::new()
    }

    fn part_poses(&self, _world: &World2) -> Vec<(usize, Pose2)> {
        Vec::new()
    }

    fn hud_lines(&self, world: &World2, _keys: bool) -> Vec<String> {
        vec![format!(
            "digger: {} of {} carves   balls through the tunnel {}",
            self.carves,
            dig_points().len(),
            balls_through(world)
        )]
    }

    fn clone_box(&self) -> Box<dyn Controller<2>> {
        Box::new(self.clone())
    }
}

/// The demo in the viewer (`fathom view tunnels_2d`): 60 balls, the digger as controller.
pub fn tunnels_view() -> Result<NamedScene, WorldError> {
    let scene = Scene2 {
        bodies: tunnel_bodies(60)?,
        ..Scene2::default()
    };
    Ok(NamedScene::new(TUNNELS_SCENE, scene)
        .with_controller(SceneController::Two(Box::new(Digger::default())))
        .expect("a 2D controller on a 2D scene"))
}
