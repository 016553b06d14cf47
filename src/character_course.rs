//! The character course (`character_3d`): a kinematic capsule walked by
//! [`fathom_world::CharacterController`] up a 20° ramp, over a plateau, down stairs, past a
//! crate it shoulders aside, through a servo door that opens as it comes, across a moving
//! platform and a conveyor belt, and up through a one-way platform it then stands on.
//!
//! [`CourseRun`] is the game logic, the same for the viewer (WASD or the arrows walk, space
//! jumps; with no key pressed the script walks) and for `fathom run character_3d`. Each step
//! it drives the platform to its next pose, opens or closes the door, moves the character
//! with the controller and sets its kinematic target, then pushes what it ran into.

use fathom_math::{Pose3, Real, Vector3};
use fathom_sdf::Shape;
use fathom_viewer::{
    Controller, DriveKeys, Follow, NamedScene, Part, SceneController, ViewerError,
};
use fathom_world::{
    BodyDesc, BodyHandle, CharacterController, ColliderDesc, ColliderHandle, CollisionGroups,
    ContactModifier, Conveyor, JointDesc, JointHandle, OneWayPlatform, QueryFilter, RevoluteJoint,
    Scene3, SceneJoint, World3, WorldError,
};
use std::sync::Arc;

/// The course's name as `fathom scenes` lists it.
pub const COURSE_SCENE: &str = "character_3d";
/// Half height and radius of the character's capsule, metres (1.6 m tall).
pub const CHARACTER_HALF: Real = 0.5;
/// See [`CHARACTER_HALF`].
pub const CHARACTER_RADIUS: Real = 0.3;
/// Walking speed, m/s.
pub const WALK_SPEED: Real = 2.0;
/// Take-off speed of a jump, m/s (rises 1.8 m).
pub const JUMP_SPEED: Real = 6.0;
/// The character's push: its mass (kg) and largest force (N).
pub const PUSH_MASS: Real = 80.0;
/// See [`PUSH_MASS`].
pub const PUSH_FORCE: Real = 400.0;
/// Top of the one-way platform, metres.
pub const ONE_WAY_TOP: Real = 1.4;
/// The one-way platform's extent along x, metres.
pub const ONE_WAY_X: [Real; 2] = [33.0, 37.0];
/// The scripted jump's time, seconds (the character is under the one-way platform).
pub const SCRIPT_JUMP_AT: Real = 17.2;
/// The script stops walking at this time, seconds (on top of the one-way platform).
pub const SCRIPT_STOP_AT: Real = 18.2;

/// The bodies of the scene by index, in the order [`course_scene`] lists them.
mod index {
    pub const CHARACTER: usize = 9;
    pub const PLATFORM: usize = 10;
    pub const DOOR_POST: usize = 11;
    pub const DOOR: usize = 12;
    pub const CONVEYOR: usize = 13;
    pub const ONE_WAY: usize = 14;
}
/// The door's servo: open angle (radians), stiffness (Hz), damping, torque cap (N m).
const DOOR_OPEN: Real = 1.5;
const DOOR_SERVO: (Real, Real, Real) = (1.5, 1.0, 400.0);
/// The door opens while the character is within this many metres of it along x.
const DOOR_REACH: Real = 3.0;
const DOOR_X: Real = 18.0;
/// The moving platform: centre x, swing along z (metres) and period (seconds).
const PLATFORM_X: Real = 22.5;
const PLATFORM_SWING: Real = 1.5;
const PLATFORM_PERIOD: Real = 5.0;
/// The conveyor's belt speed, world, m/s.
const BELT_SPEED: Real = 1.5;

/// The character's capsule, 1.6 m tall.
fn character_shape() -> Shape<3> {
    Shape::capsule(CHARACTER_HALF, CHARACTER_RADIUS).expect("positive sizes")
}

fn cuboid(x: Real, y: Real, z: Real) -> Shape<3> {
    Shape::cuboid(Vector3::new(x, y, z)).expect("positive half extents")
}

fn fixed_box(centre: Vector3, half: Vector3, rotation_z: Real) -> BodyDesc<3> {
    BodyDesc::fixed()
        .position(centre)
        .rotation(Vector3::new(0.0, 0.0, rotation_z))
        .collider(ColliderDesc::new(cuboid(half.x, half.y, half.z)))
}

/// The course's bodies: ground, ramp, plateau, stairs, crates, the character, the moving
/// platform, the door and its post, the conveyor, the one-way platform, and a ball thrown up
/// through the one-way platform, in the order of the comments below.
pub fn course_scene() -> Scene3 {
    let ramp_angle: Real = 20f32.to_radians();
    let rise = 1.5;
    let length = rise / ramp_angle.sin();
    let normal = Vector3::new(-ramp_angle.sin(), ramp_angle.cos(), 0.0);
    let ramp_top_mid = Vector3::new(2.0 + 0.5 * length * ramp_angle.cos(), 0.5 * rise, 0.0);
    let mut bodies = vec![
        // 0: ground, top at y = 0.
        fixed_box(
            Vector3::new(20.0, -0.5, 0.0),
            Vector3::new(25.0, 0.5, 8.0),
            0.0,
        ),
        // 1: a 20° ramp from x = 2 up to the plateau.
        fixed_box(
            ramp_top_mid - normal * 0.25,
            Vector3::new(0.5 * length, 0.25, 3.0),
            ramp_angle,
        ),
        // 2: the plateau, top at 1.5 m.
        fixed_box(
            Vector3::new(7.6, 0.75, 0.0),
            Vector3::new(1.5, 0.75, 3.0),
            0.0,
        ),
    ];
    // 3..=7: stairs down from the plateau, 0.25 m risers and 0.5 m treads.
    for k in 0..5 {
        let top = 1.25 - 0.25 * k as Real;
        bodies.push(fixed_box(
            Vector3::new(9.35 + 0.5 * k as Real, 0.5 * top, 0.0),
            Vector3::new(0.25, 0.5 * top, 3.0),
            0.0,
        ));
    }
    // 8: a 30 kg crate the character's shoulder catches, just off its line.
    bodies.push(
        BodyDesc::dynamic()
            .position(Vector3::new(13.0, 0.4, 0.6))
            .collider(ColliderDesc::new(cuboid(0.4, 0.4, 0.4)).mass(30.0)),
    );
    // 9: the character: a kinematic capsule that no solver contact touches (the controller
    // moves it, and pushes with a capped force).
    bodies.push(
        BodyDesc::kinematic()
            .position(Vector3::new(
                0.0,
                CHARACTER_HALF + CHARACTER_RADIUS + 0.02,
                0.0,
            ))
            .collider(ColliderDesc::new(character_shape()).groups(CollisionGroups::NONE)),
    );
    // 10: the moving platform, top at 0.25 m, swinging along z.
    bodies.push(
        BodyDesc::kinematic()
            .position(Vector3::new(PLATFORM_X, 0.125, 0.0))
            .collider(ColliderDesc::new(cuboid(1.5, 0.125, 1.5))),
    );
    // 11: the door post; 12: the door, hinged to it about y.
    bodies.push(fixed_box(
        Vector3::new(DOOR_X, 1.1, -1.25),
        Vector3::new(0.1, 1.1, 0.1),
        0.0,
    ));
    bodies.push(
        BodyDesc::dynamic()
            .position(Vector3::new(DOOR_X, 1.05, 0.0))
            .collider(ColliderDesc::new(cuboid(0.05, 1.0, 1.1)).mass(20.0)),
    );
    // 13: the conveyor belt, top at 0.1 m; 14: the one-way platform.
    bodies.push(fixed_box(
        Vector3::new(28.0, 0.05, 0.0),
        Vector3::new(2.0, 0.05, 1.5),
        0.0,
    ));
    let one_way_mid = 0.5 * (ONE_WAY_X[0] + ONE_WAY_X[1]);
    bodies.push(fixed_box(
        Vector3::new(one_way_mid, ONE_WAY_TOP - 0.1, 0.0),
        Vector3::new(0.5 * (ONE_WAY_X[1] - ONE_WAY_X[0]), 0.1, 2.0),
        0.0,
    ));
    // 15..: two crates riding the belt, and a ball thrown up through the one-way platform.
    for z in [-0.8, 0.8] {
        bodies.push(
            BodyDesc::dynamic()
                .position(Vector3::new(26.5, 0.45, z))
                .collider(ColliderDesc::new(cuboid(0.35, 0.35, 0.35)).mass(20.0)),
        );
    }
    bodies.push(
        BodyDesc::dynamic()
            .position(Vector3::new(36.0, 0.3, 1.4))
            .linear_velocity(Vector3::new(0.0, 7.0, 0.0))
            .collider(ColliderDesc::new(
                Shape::ball(0.3).expect("positive radius"),
            )),
    );
    let (hertz, damping, cap) = DOOR_SERVO;
    let hinge = RevoluteJoint::default()
        .axis(Vector3::y())
        .servo(0.0, hertz, damping, cap);
    let joints = vec![SceneJoint {
        body_a: index::DOOR_POST,
        body_b: index::DOOR,
        joint: JointDesc::new(hinge)
            .anchor_a(Vector3::new(0.0, -0.05, 0.1))
            .anchor_b(Vector3::new(0.0, 0.0, -1.15)),
    }];
    Scene3 {
        bodies,
        joints,
        ..Scene3::default()
    }
}

/// What the character is asked to do this step.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct CourseInput {
    /// Walking direction in the ground plane, world (length at most 1: a fraction of
    /// [`WALK_SPEED`]).
    pub walk: Vector3,
    /// Jump (taken only on the ground).
    pub jump: bool,
}

impl CourseInput {
    /// The script at `world`'s time: walk along +x, jump under the one-way platform, stop
    /// on it.
    pub fn scripted(world: &World3) -> Self {
        let time = world.step_count() as Real * world.settings().dt;
        let walk = if time < SCRIPT_STOP_AT {
            Vector3::x()
        } else {
            Vector3::zeros()
        };
        let jump = (SCRIPT_JUMP_AT..SCRIPT_JUMP_AT + 0.1).contains(&time);
        Self { walk, jump }
    }

    /// From the driving keys: W / S along x, A / D along z, space jumps.
    pub fn from_keys(keys: &DriveKeys) -> Self {
        let axis =
            |plus: bool, minus: bool| Real::from(u8::from(plus)) - Real::from(u8::from(minus));
        let walk = Vector3::new(
            axis(keys.forward, keys.back),
            0.0,
            axis(keys.right, keys.left),
        );
        Self {
            walk: walk.try_normalize(1e-6).unwrap_or_default(),
            jump: keys.handbrake,
        }
    }
}

/// The course's moving parts in one world (see the module docs).
#[derive(Clone, Debug)]
pub struct CourseRun {
    controller: CharacterController<3>,
    shape: Shape<3>,
    character: BodyHandle,
    platform: BodyHandle,
    platform_start: Pose3,
    door: JointHandle,
    one_way: ColliderHandle,
    /// The character's vertical speed, m/s (jumps and falls).
    vertical_speed: Real,
    grounded: bool,
}

impl CourseRun {
    /// Finds the course's parts in `world` (built from [`course_scene`]) and installs the
    /// conveyor and one-way platform.
    pub fn attach(world: &mut World3) -> Result<Self, WorldError> {
        let handle = |i: usize| world.bodies().nth(i).map(|(h, _)| h);
        let missing = || WorldError::invalid("scene", "not the character course");
        let body = |i| handle(i).ok_or_else(missing);
        let (character, platform) = (body(index::CHARACTER)?, body(index::PLATFORM)?);
        let collider = |i| {
            let b = handle(i).ok_or_else(missing)?;
            world
                .body(b)
                .and_then(|b| b.colliders().first().copied())
                .ok_or_else(missing)
        };
        let (belt, one_way) = (collider(index::CONVEYOR)?, collider(index::ONE_WAY)?);
        let door = world.joints().next().map(|(h, _)| h).ok_or_else(missing)?;
        let platform_start = *world.body(platform).ok_or_else(missing)?.pose();
        let hooks: Vec<Arc<dyn ContactModifier<3>>> = vec![
            Arc::new(Conveyor {
                collider: belt,
                velocity: Vector3::x() * BELT_SPEED,
            }),
            Arc::new(OneWayPlatform::new(one_way, Vector3::y()).expect("a unit up")),
        ];
        world.set_contact_modifier(Some(Arc::new(hooks)));
        Ok(Self {
            controller: CharacterController::default(),
            shape: character_shape(),
            character,
            platform,
            platform_start,
            door,
            one_way,
            vertical_speed: 0.0,
            grounded: true,
        })
    }

    /// The character's body.
    pub fn character(&self) -> BodyHandle {
        self.character
    }

    /// Whether the character ended the last step on the ground.
    pub fn grounded(&self) -> bool {
        self.grounded
    }

    /// This step's game logic before `world.step()` (see the module docs).
    pub fn before_step(
        &mut self,
        world: &mut World3,
        input: CourseInput,
    ) -> Result<(), WorldError> {
        let dt = world.settings().dt;
        let time = (world.step_count() + 1) as Real * dt;
        let swing = (std::f32::consts::TAU as Real * time / PLATFORM_PERIOD).sin();
        let mut target = self.platform_start;
        target.translation.vector.z += PLATFORM_SWING * swing;
        world.set_kinematic_target(self.platform, target)?;
        let pose = *world
            .body(self.character)
            .expect("the character lives")
            .pose();
        let near_door = (pose.translation.vector.x - DOOR_X).abs() < DOOR_REACH;
        world.set_servo_target(self.door, if near_door { DOOR_OPEN } else { 0.0 })?;
        let moved = self.walk(world, &pose, input, dt)?;
        let next = Pose3::from_parts(
            (pose.translation.vector + moved.translation).into(),
            pose.rotation,
        );
        world.set_kinematic_target(self.character, next)?;
        self.controller
            .push_bodies(world, &moved, dt, PUSH_MASS, PUSH_FORCE)
    }

    /// The controller's move for `input`: walking, jumping and falling.
    fn walk(
        &mut self,
        world: &World3,
        pose: &Pose3,
        input: CourseInput,
        dt: Real,
    ) -> Result<fathom_world::CharacterMove<3>, WorldError> {
        let g = world.settings().gravity.y;
        self.vertical_speed = match (self.grounded, input.jump) {
            (true, true) => JUMP_SPEED,
            (true, false) => self.vertical_speed.min(0.0),
            (false, _) => self.vertical_speed + g * dt,
        };
        let desired = (input.walk * WALK_SPEED + Vector3::y() * self.vertical_speed) * dt;
        // The one-way platform blocks the character only from above.
        let feet = pose.translation.vector.y - CHARACTER_HALF - CHARACTER_RADIUS;
        let (one_way, below) = (self.one_way, feet < ONE_WAY_TOP - 0.05);
        let pass = move |c: ColliderHandle| !(below && c == one_way);
        let filter = QueryFilter {
            predicate: Some(&pass),
            ..QueryFilter::new().exclude_body(self.character)
        };
        let moved = self
            .controller
            .move_shape(world, &self.shape, pose, desired, dt, &filter)
            .map_err(|e| WorldError::invalid("character", e.to_string()))?;
        self.grounded = moved.grounded && self.vertical_speed <= 0.0;
        if self.grounded || moved.collisions.iter().any(|c| c.normal.y < -0.5) {
            self.vertical_speed = self.vertical_speed.min(0.0);
        }
        Ok(moved)
    }
}

/// The course in the viewer: the script walks until a key is pressed.
#[derive(Clone, Debug, Default)]
pub struct CourseController {
    run: Option<CourseRun>,
}

fn viewer_error(e: WorldError) -> ViewerError {
    ViewerError::Controller(Box::new(e))
}

impl Controller<3> for CourseController {
    fn attach(&mut self, world: &mut World3) -> Result<(), ViewerError> {
        self.run = Some(CourseRun::attach(world).map_err(viewer_error)?);
        Ok(())
    }

    fn before_step(
        &mut self,
        world: &mut World3,
        keys: Option<&DriveKeys>,
    ) -> Result<(), ViewerError> {
        let input = keys.map_or_else(|| CourseInput::scripted(world), CourseInput::from_keys);
        let run = self
            .run
            .as_mut()
            .ok_or_else(|| ViewerError::InvalidOption {
                field: "controller",
                message: "the course was stepped before it was attached".into(),
            })?;
        run.before_step(world, input).map_err(viewer_error)
    }

    fn follow(&self) -> Option<Follow<3>> {
        self.run.as_ref().map(|r| Follow {
            body: r.character,
            forward: Vector3::x(),
        })
    }

    fn parts(&self) -> Vec<Part<3>> {
        Vec::new()
    }

    fn part_poses(&self, _world: &World3) -> Vec<(usize, Pose3)> {
        Vec::new()
    }

    fn hud_lines(&self, world: &World3, keys: bool) -> Vec<String> {
        let Some(r) = &self.run else {
            return Vec::new();
        };
        let p = world
            .body(r.character)
            .map(|b| b.position())
            .unwrap_or_default();
        vec![
            format!(
                "character at ({:.1}, {:.1}, {:.1}) m, {}",
                p.x,
                p.y,
                p.z,
                if r.grounded {
                    "on the ground"
                } else {
                    "in the air"
                }
            ),
            if keys {
                "WASD / arrows walk, space jumps".into()
            } else {
                "scripted (WASD / arrows walk, space jumps)".into()
            },
        ]
    }

    fn clone_box(&self) -> Box<dyn Controller<3>> {
        Box::new(self.clone())
    }
}

/// The course as the viewer shows it.
pub fn course_view() -> NamedScene {
    NamedScene::new(COURSE_SCENE, course_scene())
        .with_controller(SceneController::Three(
            Box::new(CourseController::default()),
        ))
        .expect("a 3D controller on a 3D scene")
}
