//! Driving scene files: a 3D world, a vehicle and a scripted input track.
//!
//! ```ron
//! DrivingScene(
//!     scene: (gravity: (0.0, -9.81, 0.0), bodies: [/* terrain, obstacles */]),
//!     vehicle: (chassis: (position: (0.0, 0.9, 0.0), colliders: [/* ... */]),
//!               wheels: [/* mount, suspension, tyre ... */]),
//!     inputs: [(time: 0.0, inputs: (throttle: 1.0)), (time: 4.0, inputs: (brake: 1.0))],
//! )
//! ```
//!
//! The vehicle is a [`fathom_vehicle::VehicleDesc`] and the track an
//! [`fathom_vehicle::InputTrack`]; every field has a default, so a file only says
//! what differs from the default car. Malformed text is a
//! [`DrivingSceneError::Parse`] with line and column; a bad value names its field
//! by path (`vehicle.wheels[2].radius`, `inputs.keys[1].time`,
//! `bodies[3].colliders[0].density`). [`driving_scene`] builds the shipped
//! `scenes/driving.ron` (SDF terrain: blended hills, a ramp, a bank, a bump
//! field; boxes, barrels and a small stack; the car) so the file can be checked
//! against its builder.

use crate::craters::{blast_ahead, blasts_due, validate_blasts, Blast};
use fathom_math::{Real, Vector3};
use fathom_vehicle::{InputKey, InputTrack, Vehicle3, VehicleDesc, VehicleError, VehicleInputs};
use fathom_world::{BodyDesc, ColliderDesc, Scene3, SceneError, Shape, World3};
use serde::{Deserialize, Serialize};
use std::path::Path;
use thiserror::Error;

/// A driving scene: world, vehicle, scripted inputs.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct DrivingScene {
    /// The world without the vehicle (terrain and obstacles).
    pub scene: Scene3,
    /// The vehicle, created after the scene's bodies.
    pub vehicle: VehicleDesc<3>,
    /// Scripted inputs, held from each key's time to the next.
    pub inputs: InputTrack,
    /// Scripted craters blasted ahead of the car (see [`crate::craters`]), in time order.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub blasts: Vec<Blast>,
}

impl Default for DrivingScene {
    fn default() -> Self {
        Self {
            scene: Scene3::default(),
            vehicle: VehicleDesc::car(1200.0),
            inputs: InputTrack::default(),
            blasts: Vec::new(),
        }
    }
}

/// Why a driving scene could not be loaded, built or written.
#[derive(Debug, Error, Clone, PartialEq)]
pub enum DrivingSceneError {
    /// The text is not a valid driving scene (syntax, unknown field, wrong type).
    #[error("driving scene parse error at line {line}, column {column}: {message}")]
    Parse {
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
        /// What the parser expected.
        message: String,
    },
    /// The world part is invalid (the error names the field's path).
    #[error("invalid driving scene: {0}")]
    Scene(#[from] SceneError),
    /// The vehicle or the input track is invalid (the error names the field's path).
    #[error("invalid driving scene: {0}")]
    Vehicle(#[from] VehicleError),
    /// The file could not be read.
    #[error("cannot read driving scene file `{path}`: {message}")]
    Io {
        /// The file.
        path: String,
        /// The operating system's message.
        message: String,
    },
    /// A scripted blast is invalid (`blasts[i].field`).
    #[error("invalid driving scene: `{field}` {reason}")]
    Blast {
        /// The field's path, e.g. `blasts[1].radius`.
        field: String,
        /// Why.
        reason: String,
    },
    /// The scene could not be written as text.
    #[error("driving scene could not be serialised: {0}")]
    Serialise(String),
}

/// The vehicle and its world, stepped together with the scripted inputs.
pub struct DrivingRun {
    /// The world (terrain, obstacles, the chassis).
    pub world: World3,
    /// The vehicle.
    pub vehicle: Vehicle3,
    /// The input track.
    pub inputs: InputTrack,
    /// Steps taken.
    pub steps: u64,
    /// Scripted blasts, in time order.
    pub blasts: Vec<Blast>,
    /// Craters blasted so far.
    pub craters: usize,
}

impl DrivingRun {
    /// Sets the track's inputs for the current time, then steps vehicle and world once.
    pub fn step(&mut self) -> Result<(), VehicleError> {
        let time = self.steps as Real * self.world.settings().dt;
        let due = blasts_due(&self.blasts, self.craters, time);
        for b in &self.blasts[self.craters..due] {
            let chassis = self.vehicle.chassis();
            // A blast over no fixed ground (off the terrain) carves nothing.
            let _ = blast_ahead(&mut self.world, chassis, b.ahead, b.radius, b.depth);
        }
        self.craters = due;
        self.vehicle.set_inputs(self.inputs.at(time))?;
        self.vehicle.step(&mut self.world)?;
        self.world.step();
        self.steps += 1;
        Ok(())
    }
}

impl DrivingScene {
    /// True when `text` is a driving scene (its first item is `DrivingScene(`), so a
    /// command line can tell it from a plain scene file.
    pub fn is_driving_text(text: &str) -> bool {
        let mut rest = text;
        loop {
            rest = rest.trim_start();
            if let Some(r) = rest.strip_prefix("//") {
                rest = r.split_once('\n').map_or("", |(_, r)| r);
            } else if rest.starts_with("#!") {
                rest = rest.split_once(']').map_or("", |(_, r)| r);
            } else {
                return rest.starts_with("DrivingScene");
            }
        }
    }

    /// True when the file at `path` reads as a driving scene.
    pub fn is_driving_file(path: &Path) -> bool {
        fathom_world::read_scene_text(path).is_ok_and(|t| Self::is_driving_text(&t))
    }

    /// Parses a driving scene and checks every value.
    pub fn from_ron_str(text: &str) -> Result<Self, DrivingSceneError> {
        let scene: Self = fathom_sdf::ron_options()
            .from_str(fathom_sdf::strip_byte_order_mark(text))
            .map_err(|e| DrivingSceneError::Parse {
                line: e.span.start.line,
                column: e.span.start.col,
                message: fathom_sdf::ron_error_message(&e.code),
            })?;
        scene.validate()?;
        Ok(scene)
    }

    /// Reads and checks a driving scene file; shapes that refer to files load
    /// relative to it.
    pub fn from_ron_file(path: impl AsRef<Path>) -> Result<Self, DrivingSceneError> {
        let path = path.as_ref();
        // At most fathom_world::MAX_SCENE_FILE_BYTES, as any scene file.
        let text = fathom_world::read_scene_text(path).map_err(|e| DrivingSceneError::Io {
            path: path.display().to_string(),
            message: e.to_string(),
        })?;
        let mut scene = Self::from_ron_str(&text)?;
        let base = path.parent().unwrap_or_else(|| Path::new("."));
        scene.scene.load_files(base)?;
        Ok(scene)
    }

    /// The scene as RON text (one body per line), as [`DrivingScene::from_ron_str`] reads it.
    pub fn to_ron_string(&self) -> Result<String, DrivingSceneError> {
        let config = ron::ser::PrettyConfig::default()
            .depth_limit(3)
            .struct_names(true);
        ron::ser::to_string_pretty(self, config)
            .map_err(|e| DrivingSceneError::Serialise(e.to_string()))
    }

    /// Checks every value; the error names the first bad field by its path.
    pub fn validate(&self) -> Result<(), DrivingSceneError> {
        self.scene.validate()?;
        self.vehicle.validate().map_err(|e| e.prefixed("vehicle"))?;
        self.inputs.validate().map_err(|e| e.prefixed("inputs"))?;
        validate_blasts(&self.blasts)
            .map_err(|(field, reason)| DrivingSceneError::Blast { field, reason })
    }

    /// Builds the world and the vehicle, ready to step with the scripted inputs.
    pub fn build(&self) -> Result<DrivingRun, DrivingSceneError> {
        self.validate()?;
        let mut world = self.scene.build()?;
        let vehicle =
            Vehicle3::new(&mut world, &self.vehicle).map_err(|e| e.prefixed("vehicle"))?;
        Ok(DrivingRun {
            world,
            vehicle,
            inputs: self.inputs.clone(),
            steps: 0,
            blasts: self.blasts.clone(),
            craters: 0,
        })
    }
}

fn v(x: Real, y: Real, z: Real) -> Vector3 {
    Vector3::new(x, y, z)
}

fn fixed(position: Vector3, rotation: Vector3, shape: Shape<3>) -> BodyDesc<3> {
    BodyDesc::fixed()
        .position(position)
        .rotation(rotation)
        .collider(ColliderDesc::new(shape).friction(0.9))
}

fn dynamic(position: Vector3, rotation: Vector3, shape: Shape<3>, mass: Real) -> BodyDesc<3> {
    BodyDesc::dynamic()
        .position(position)
        .rotation(rotation)
        .collider(ColliderDesc::new(shape).mass(mass).friction(0.6))
}

/// Ground: an 800 m slab whose top is y = 0.
fn ground() -> BodyDesc<3> {
    fixed(
        v(0.0, -1.0, 0.0),
        v(0.0, 0.0, 0.0),
        Shape::cuboid(v(400.0, 1.0, 400.0)).expect("valid"),
    )
}

/// Smooth hills: sunk balls blended into a flat patch (top y = 0), so the hills
/// rise out of the ground without a crease. Centred at x = 150, past
/// the ramp's landing.
fn hills() -> BodyDesc<3> {
    // The patch reaches well past the balls' buried parts: a blend near its edges
    // would raise a ridge along them.
    let patch = Shape::cuboid(v(55.0, 1.0, 55.0)).expect("valid");
    let hill = |x: Real, z: Real, r: Real, h: Real| {
        Shape::ball(r)
            .and_then(|b| b.transformed(pose(v(x, h - r + 1.0, z))))
            .expect("valid")
    };
    // Wide, low balls: the slopes stay under about 20 degrees, so the car drives
    // over them on its wheels without its chassis touching.
    let shape = patch
        .smooth_union(hill(-25.0, 0.0, 40.0, 2.0), 6.0)
        .and_then(|s| s.smooth_union(hill(-5.0, 6.0, 30.0, 1.5), 6.0))
        .and_then(|s| s.smooth_union(hill(8.0, -8.0, 25.0, 1.0), 5.0))
        .expect("valid blend radii");
    fixed(v(150.0, -1.0, 0.0), v(0.0, 0.0, 0.0), shape)
}

fn pose(t: Vector3) -> fathom_math::Pose<3> {
    fathom_math::Pose::<3>::translation(t.x, t.y, t.z)
}

/// A ramp of 8 degrees and 12 m starting at x = 40: a tilted slab whose top face
/// rises out of the ground.
fn ramp() -> BodyDesc<3> {
    let (angle, length, thick): (Real, Real, Real) = (8.0_f32.to_radians(), 12.0, 0.5);
    let (s, c) = angle.sin_cos();
    let top_mid = v(40.0 + length / 2.0 * c, length / 2.0 * s, 0.0);
    let normal = v(-s, c, 0.0);
    fixed(
        top_mid - normal * thick,
        v(0.0, 0.0, angle),
        Shape::cuboid(v(length / 2.0, thick, 3.0)).expect("valid"),
    )
}

/// A banked section beside the start: a slab tilted 20 degrees about x.
fn bank() -> BodyDesc<3> {
    let angle: Real = 20.0_f32.to_radians();
    fixed(
        v(20.0, 0.0, 14.0),
        v(-angle, 0.0, 0.0),
        Shape::cuboid(v(15.0, 0.5, 5.0)).expect("valid"),
    )
}

/// A bump field: half-sunk capsules across the track from x = 14 to x = 26.
fn bumps() -> Vec<BodyDesc<3>> {
    (0..8)
        .map(|i| {
            let capsule = Shape::capsule(2.5, 0.12).expect("valid");
            // Capsules run along local y; turned to lie along z.
            fixed(
                v(14.0 + 1.6 * i as Real, 0.0, 0.0),
                v(std::f32::consts::FRAC_PI_2, 0.0, 0.0),
                capsule,
            )
        })
        .collect()
}

/// Boxes and barrels around the ramp's landing, a small stack past the hills.
fn obstacles() -> Vec<BodyDesc<3>> {
    let zero = v(0.0, 0.0, 0.0);
    let cube = || Shape::cuboid(v(0.5, 0.5, 0.5)).expect("valid");
    let barrel = || Shape::cylinder(0.45, 0.3).expect("valid");
    let mut out = Vec::new();
    for (i, z) in [-4.0, 4.0].into_iter().enumerate() {
        out.push(dynamic(
            v(70.0 + 3.0 * i as Real, 0.5, z),
            zero,
            cube(),
            40.0,
        ));
        out.push(dynamic(v(75.0, 0.45, z * 0.5), zero, barrel(), 60.0));
    }
    // A 3-2-1 stack of boxes across the track at x = 225, past the hills.
    for (row, count) in [3, 2, 1].into_iter().enumerate() {
        for k in 0..count {
            let z = (k as Real - (count as Real - 1.0) / 2.0) * 1.05;
            out.push(dynamic(v(225.0, 0.5 + row as Real, z), zero, cube(), 30.0));
        }
    }
    out
}

fn key(time: Real, throttle: Real, brake: Real, steering: Real, handbrake: bool) -> InputKey {
    InputKey {
        time,
        inputs: VehicleInputs {
            throttle,
            brake,
            steering,
            handbrake,
        },
    }
}

/// The driving scene with scripted craters (`scenes/driving_craters.ron`): a blast ahead of
/// the car on the flat run-up at the start, and one ahead of it on the hills at 12 s.
pub fn crater_scene() -> DrivingScene {
    let blast = |time, ahead| Blast {
        time,
        ahead,
        ..Blast::default()
    };
    DrivingScene {
        blasts: vec![blast(0.0, 5.0), blast(12.0, 25.0)],
        ..driving_scene()
    }
}

/// The shipped driving scene (`scenes/driving.ron`): the car at the origin facing
/// +x, over the bumps, up the ramp, across the hills, into the stack, then braking.
pub fn driving_scene() -> DrivingScene {
    let mut bodies = vec![ground(), ramp(), bank(), hills()];
    bodies.extend(bumps());
    bodies.extend(obstacles());
    let scene = Scene3 {
        bodies,
        ..Scene3::default()
    };
    let inputs = InputTrack {
        keys: vec![
            key(0.0, 1.0, 0.0, 0.0, false),
            key(9.0, 0.4, 0.0, 0.0, false),
            key(11.0, 0.4, 0.0, 0.08, false),
            key(12.0, 0.4, 0.0, -0.08, false),
            key(13.0, 0.6, 0.0, 0.0, false),
            key(15.0, 0.0, 1.0, 0.0, false),
            key(17.0, 0.0, 1.0, 0.0, true),
        ],
    };
    DrivingScene {
        scene,
        vehicle: VehicleDesc::car(1200.0).at(v(0.0, 0.85, 0.0)),
        inputs,
        blasts: Vec::new(),
    }
}
