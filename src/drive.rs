//! A vehicle in the viewer: the [`Controller`] that drives a fathom-vehicle
//! car with the keyboard, or replays its scripted inputs while no driving key
//! has been pressed (so a screenshot of a driving scene is reproducible, and
//! the same as `fathom run` steps it).
//!
//! Keys (see [`DriveKeys`]): W or up accelerates; S or down brakes and, once
//! the car is (nearly) stopped, reverses; A / D or left / right steer; space
//! pulls the handbrake. A key gives full input at once except steering, which
//! moves towards its target at [`STEER_RATE`] per second and is scaled down
//! with speed ([`STEER_FADE_SPEED`]): full lock at motorway speed would roll
//! any car.
//!
//! The wheels are drawn at [`fathom_vehicle::Vehicle::wheel_pose`] (so they steer, spin and
//! ride their suspension) as a dark tyre with a light cross on its faces, so
//! the spin shows.

use crate::craters::{blast_ahead, blasts_due, validate_blasts, Blast};
use crate::vehicle_scene::DrivingScene;
use fathom_math::{Pose3, Real, Vector3};
use fathom_sdf::Shape;
use fathom_vehicle::{InputTrack, Vehicle3, VehicleDesc, VehicleError, VehicleInputs};
use fathom_viewer::palette::Rgb;
use fathom_viewer::{
    Controller, DriveKeys, Follow, NamedScene, Part, SceneController, ViewerError,
};
use fathom_world::World3;
use nalgebra::{Translation3, UnitQuaternion};

/// Forward speed (m/s) below which the brake key reverses instead of braking.
pub const REVERSE_BELOW: Real = 0.5;
/// How fast the steering input follows the keys, per second (full lock in 1/3 s).
pub const STEER_RATE: Real = 3.0;
/// Steering is scaled by `1 / (1 + speed / STEER_FADE_SPEED)`, speed in m/s.
pub const STEER_FADE_SPEED: Real = 15.0;
/// Drawn tyre width as a fraction of the wheel radius (a description has no width).
pub const TYRE_WIDTH: Real = 0.6;
/// Tyre colour (dark grey: not saturated, so it never reads as a body's colour).
pub const TYRE_COLOR: Rgb = Rgb::new(0.10, 0.10, 0.11);
/// Colour of the cross on the wheels' faces.
pub const HUB_COLOR: Rgb = Rgb::new(0.80, 0.80, 0.82);

/// The steering input the keys ask for at `forward_speed` m/s: left positive, both or
/// neither zero, faded with speed.
pub fn steer_target(keys: &DriveKeys, forward_speed: Real) -> Real {
    let dir = Real::from(u8::from(keys.left)) - Real::from(u8::from(keys.right));
    dir / (1.0 + forward_speed.abs() / STEER_FADE_SPEED)
}

/// `current` steering moved towards `target` by at most [`STEER_RATE`] `* dt`.
pub fn steer_toward(current: Real, target: Real, dt: Real) -> Real {
    let step = STEER_RATE * dt;
    current + (target - current).clamp(-step, step)
}

/// The inputs the keys give at `forward_speed` m/s with steering `steer`: forward is
/// full throttle; back is full brake while moving forwards faster than
/// [`REVERSE_BELOW`], full reverse otherwise; both at once brake.
pub fn key_inputs(keys: &DriveKeys, forward_speed: Real, steer: Real) -> VehicleInputs {
    let (throttle, brake) = match (keys.forward, keys.back) {
        (true, false) => (1.0, 0.0),
        (false, true) if forward_speed > REVERSE_BELOW => (0.0, 1.0),
        (false, true) => (-1.0, 0.0),
        (true, true) => (0.0, 1.0),
        (false, false) => (0.0, 0.0),
    };
    VehicleInputs {
        throttle,
        brake,
        steering: steer.clamp(-1.0, 1.0),
        handbrake: keys.handbrake,
    }
}

/// A fathom-vehicle car driven by the keys or its script (see the module docs).
#[derive(Clone, Debug)]
pub struct VehicleController {
    desc: VehicleDesc<3>,
    track: InputTrack,
    vehicle: Option<Vehicle3>,
    steer: Real,
    /// Scripted blasts (in time order), run while the script drives.
    blasts: Vec<Blast>,
    /// Scripted blasts run since the last attach.
    blasted: usize,
    /// Craters blasted since the last attach, scripted or by the key.
    craters: usize,
}

impl VehicleController {
    /// A controller that builds the car `desc` into each world it is attached to and
    /// replays `track` until a driving key is pressed. Both are validated here.
    pub fn new(desc: VehicleDesc<3>, track: InputTrack) -> Result<Self, VehicleError> {
        desc.validate().map_err(|e| e.prefixed("vehicle"))?;
        track.validate().map_err(|e| e.prefixed("inputs"))?;
        Ok(Self {
            desc,
            track,
            vehicle: None,
            steer: 0.0,
            blasts: Vec::new(),
            blasted: 0,
            craters: 0,
        })
    }

    /// The same controller with scripted `blasts` (a driving scene's), checked
    /// ([`validate_blasts`]).
    pub fn with_blasts(mut self, blasts: Vec<Blast>) -> Result<Self, VehicleError> {
        validate_blasts(&blasts)
            .map_err(|(field, reason)| VehicleError::Invalid { field, reason })?;
        self.blasts = blasts;
        Ok(self)
    }

    /// Craters blasted since the controller was last attached (scripted and by the key).
    pub fn craters(&self) -> usize {
        self.craters
    }

    /// Blasts a crater `blast.ahead` metres ahead of the car (see [`blast_ahead`]).
    fn blast(&mut self, world: &mut World3, blast: &Blast) -> Result<(), ViewerError> {
        let chassis = self.attached()?.chassis();
        // A blast over no fixed ground (off the terrain) carves nothing.
        if !blast_ahead(world, chassis, blast.ahead, blast.radius, blast.depth).is_empty() {
            self.craters += 1;
        }
        Ok(())
    }

    /// The vehicle in the world it was last attached to.
    pub fn vehicle(&self) -> Option<&Vehicle3> {
        self.vehicle.as_ref()
    }

    fn attached(&mut self) -> Result<&mut Vehicle3, ViewerError> {
        self.vehicle
            .as_mut()
            .ok_or_else(|| ViewerError::InvalidOption {
                field: "controller",
                message: "the vehicle controller was stepped before it was attached".into(),
            })
    }
}

/// A driving scene as the viewer shows it: its world, with the car built into each world
/// made from it, replaying the scene's script until a driving key is pressed.
pub fn driving_view(
    name: impl Into<String>,
    scene: DrivingScene,
) -> Result<NamedScene, VehicleError> {
    let car = VehicleController::new(scene.vehicle, scene.inputs)?.with_blasts(scene.blasts)?;
    let named = NamedScene::new(name, scene.scene);
    // A 3D controller on a 3D scene: the dimensions agree by construction.
    Ok(named
        .with_controller(SceneController::Three(Box::new(car)))
        .expect("a 3D car on a 3D scene"))
}

/// A vehicle's error as the viewer reports a controller's.
fn controller_error(e: VehicleError) -> ViewerError {
    ViewerError::Controller(Box::new(e))
}

/// A wheel's tyre (a cylinder) and hub cross (two bars poking out of both faces), in
/// the wheel frame, whose axle is `axle` (unit, chassis frame).
fn wheel_shapes(radius: Real, axle: &Vector3) -> Result<[Shape<3>; 2], fathom_sdf::SdfError> {
    let half_width = 0.5 * TYRE_WIDTH * radius;
    // Built with the axle along y, then turned onto the car's axle.
    let turn = UnitQuaternion::rotation_between(&Vector3::y(), axle).unwrap_or_else(|| {
        UnitQuaternion::from_axis_angle(&Vector3::x_axis(), std::f32::consts::PI)
    });
    let pose = Pose3::from_parts(Translation3::identity(), turn);
    let tyre = Shape::cylinder(half_width, radius)?.transformed(pose)?;
    let (long, thin, out) = (0.8 * radius, 0.12 * radius, half_width + 0.02 * radius);
    let bars = vec![
        Shape::cuboid(Vector3::new(long, out, thin))?,
        Shape::cuboid(Vector3::new(thin, out, long))?,
    ];
    let hub = Shape::union_all(bars)?.transformed(pose)?;
    Ok([tyre, hub])
}

impl Controller<3> for VehicleController {
    fn attach(&mut self, world: &mut World3) -> Result<(), ViewerError> {
        let v = Vehicle3::new(world, &self.desc)
            .map_err(|e| controller_error(e.prefixed("vehicle")))?;
        self.vehicle = Some(v);
        self.steer = 0.0;
        self.blasted = 0;
        self.craters = 0;
        Ok(())
    }

    fn before_step(
        &mut self,
        world: &mut World3,
        keys: Option<&DriveKeys>,
    ) -> Result<(), ViewerError> {
        let dt = world.settings().dt;
        // The same clock as the scripted headless run: steps taken times dt.
        let time = world.step_count() as Real * dt;
        if keys.is_none() {
            let due = blasts_due(&self.blasts, self.blasted, time);
            while self.blasted < due {
                let b = self.blasts[self.blasted];
                self.blast(world, &b)?;
                self.blasted += 1;
            }
        }
        let mut steer = self.steer;
        let inputs = match keys {
            None => self.track.at(time),
            Some(k) => {
                let speed = self.attached()?.forward_speed(world).unwrap_or(0.0);
                steer = steer_toward(steer, steer_target(k, speed), dt);
                key_inputs(k, speed, steer)
            }
        };
        self.steer = steer;
        let v = self.attached()?;
        v.set_inputs(inputs).map_err(controller_error)?;
        v.step(world).map_err(controller_error)?;
        Ok(())
    }

    /// The X key: a crater ahead of the car ([`Blast::default`]'s size and distance).
    fn action(&mut self, world: &mut World3) -> Result<(), ViewerError> {
        self.blast(world, &Blast::default())
    }

    fn follow(&self) -> Option<Follow<3>> {
        self.vehicle.as_ref().map(|v| Follow {
            body: v.chassis(),
            forward: v.axes().forward,
        })
    }

    fn parts(&self) -> Vec<Part<3>> {
        let axle = self
            .vehicle
            .as_ref()
            .and_then(|v| v.axes().left)
            .unwrap_or_else(Vector3::z);
        let mut out = Vec::new();
        for w in &self.desc.wheels {
            // Validated radii are positive and finite, so the shapes are valid.
            if let Ok([tyre, hub]) = wheel_shapes(w.radius, &axle) {
                out.push(Part {
                    shape: tyre,
                    color: TYRE_COLOR,
                });
                out.push(Part {
                    shape: hub,
                    color: HUB_COLOR,
                });
            }
        }
        out
    }

    fn part_poses(&self, world: &World3) -> Vec<(usize, Pose3)> {
        let Some(v) = &self.vehicle else {
            return Vec::new();
        };
        (0..v.wheels().len())
            .filter_map(|i| v.wheel_pose(world, i).map(|p| (i, p)))
            .flat_map(|(i, p)| [(2 * i, p), (2 * i + 1, p)])
            .collect()
    }

    fn hud_lines(&self, world: &World3, keys: bool) -> Vec<String> {
        let Some(v) = &self.vehicle else {
            return Vec::new();
        };
        let speed = v.forward_speed(world).unwrap_or(0.0);
        let grounded = v.wheels().iter().filter(|w| w.in_contact).count();
        let i = v.inputs();
        let by = if keys { "keys" } else { "script" };
        let hand = if i.handbrake { "   HANDBRAKE" } else { "" };
        let craters = match self.craters {
            0 => String::new(),
            n => format!("   craters {n}"),
        };
        vec![
            format!(
                "speed {:.0} km/h ({speed:.1} m/s)   gear {}   {:.0} rpm   wheels on the ground {grounded}/{}",
                speed * 3.6,
                v.gear() + 1,
                v.engine_rpm(),
                v.wheels().len()
            ),
            format!(
                "driven by {by}: throttle {:+.2}   brake {:.2}   steering {:+.2}{hand}{craters}",
                i.throttle, i.brake, i.steering
            ),
        ]
    }

    fn clone_box(&self) -> Box<dyn Controller<3>> {
        Box::new(self.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fathom_sdf::Sdf;
    use fathom_world::{BodyDesc, ColliderDesc, Scene3};

    fn keys(forward: bool, back: bool, left: bool, right: bool) -> DriveKeys {
        DriveKeys {
            forward,
            back,
            left,
            right,
            handbrake: false,
        }
    }

    #[test]
    fn keys_give_throttle_brake_reverse_and_faded_steering() {
        let fwd = key_inputs(&keys(true, false, false, false), 10.0, 0.0);
        assert_eq!((fwd.throttle, fwd.brake), (1.0, 0.0));
        // Moving forwards the back key brakes; stopped (or reversing) it reverses.
        let brake = key_inputs(&keys(false, true, false, false), 10.0, 0.0);
        assert_eq!((brake.throttle, brake.brake), (0.0, 1.0));
        let rev = key_inputs(&keys(false, true, false, false), 0.1, 0.0);
        assert_eq!((rev.throttle, rev.brake), (-1.0, 0.0));
        let both = key_inputs(&keys(true, true, false, false), 0.0, 0.0);
        assert_eq!((both.throttle, both.brake), (0.0, 1.0));
        assert_eq!(
            key_inputs(&DriveKeys::default(), 5.0, 0.0),
            VehicleInputs::default()
        );
        // Left is positive; both cancel; at STEER_FADE_SPEED the target halves.
        assert_eq!(steer_target(&keys(false, false, true, false), 0.0), 1.0);
        assert_eq!(steer_target(&keys(false, false, false, true), 0.0), -1.0);
        assert_eq!(steer_target(&keys(false, false, true, true), 0.0), 0.0);
        let faded = steer_target(&keys(false, false, true, false), STEER_FADE_SPEED);
        assert!((faded - 0.5).abs() < 1e-6);
        // Steering moves at STEER_RATE per second towards its target and stops there.
        let dt = 1.0 / 60.0;
        let s = steer_toward(0.0, 1.0, dt);
        assert!((s - STEER_RATE * dt).abs() < 1e-6);
        assert_eq!(steer_toward(0.99, 1.0, dt), 1.0);
        let mut s = 0.0;
        for _ in 0..60 {
            s = steer_toward(s, -1.0, dt);
        }
        assert_eq!(s, -1.0);
    }

    /// Flat ground (a big box, top at y = 0) and the default car above it.
    fn flat() -> (World3, VehicleController) {
        let ground = BodyDesc::fixed()
            .position(Vector3::new(0.0, -1.0, 0.0))
            .collider(ColliderDesc::new(
                Shape::cuboid(Vector3::new(200.0, 1.0, 200.0)).unwrap(),
            ));
        let scene = Scene3 {
            bodies: vec![ground],
            ..Scene3::default()
        };
        let desc = VehicleDesc::car(1200.0).at(Vector3::new(0.0, 0.85, 0.0));
        let track = InputTrack::new(vec![fathom_vehicle::InputKey {
            time: 0.0,
            inputs: VehicleInputs::full_throttle(),
        }])
        .unwrap();
        (
            scene.build().unwrap(),
            VehicleController::new(desc, track).unwrap(),
        )
    }

    #[test]
    fn script_then_keys_drive_the_car_and_wheels_are_drawn_at_their_poses() {
        let (mut world, mut c) = flat();
        assert!(c.before_step(&mut world, None).is_err(), "not attached yet");
        c.attach(&mut world).unwrap();
        let chassis = c.follow().unwrap().body;
        assert_eq!(c.follow().unwrap().forward, Vector3::x());
        // The script's full throttle for one second: the car moves forwards (+x).
        for _ in 0..60 {
            c.before_step(&mut world, None).unwrap();
            world.step();
        }
        let v1 = c.vehicle().unwrap().forward_speed(&world).unwrap();
        assert!(v1 > 1.0, "scripted throttle: {v1} m/s");
        assert_eq!(
            c.vehicle().unwrap().inputs(),
            VehicleInputs::full_throttle()
        );
        // Braking with the keys slows it down.
        let brake = keys(false, true, false, false);
        for _ in 0..30 {
            c.before_step(&mut world, Some(&brake)).unwrap();
            world.step();
        }
        let v2 = c.vehicle().unwrap().forward_speed(&world).unwrap();
        assert!(v2 < v1, "braking: {v1} -> {v2} m/s");
        // Two parts (tyre, hub) per wheel, each drawn at the wheel's pose.
        let parts = c.parts();
        assert_eq!(parts.len(), 8);
        let poses = c.part_poses(&world);
        assert_eq!(poses.len(), 8);
        for (k, (i, p)) in poses.iter().enumerate() {
            assert_eq!(*i, k);
            let want = c.vehicle().unwrap().wheel_pose(&world, k / 2).unwrap();
            assert_eq!(*p, want);
        }
        // The tyre's axis is the car's axle (-z for this car: left = up x forward):
        // its face is `TYRE_WIDTH * r / 2` away along it, its tread `r` away across it.
        let r = c.desc.wheels[0].radius;
        let tyre = &parts[0].shape;
        let face = Vector3::new(0.0, 0.0, 0.5 * TYRE_WIDTH * r);
        // Tolerance: the cylinder's field is exact, so only rounding error remains.
        assert!(tyre.distance(&face).abs() < 1e-5);
        assert!(tyre.distance(&Vector3::new(0.0, r, 0.0)).abs() < 1e-5);
        assert!(tyre.distance(&Vector3::new(r, 0.0, 0.0)).abs() < 1e-5);
        // The HUD shows the speed.
        let hud = c.hud_lines(&world, true);
        assert!(hud[0].starts_with("speed "), "{hud:?}");
        assert!(hud[1].contains("keys"), "{hud:?}");
        // Attaching again (a reset) builds a new car in the new world.
        let (mut fresh, _) = flat();
        c.attach(&mut fresh).unwrap();
        assert_eq!(c.follow().unwrap().body, chassis);
        assert_eq!(c.vehicle().unwrap().forward_speed(&fresh), Some(0.0));
    }

    #[test]
    fn bad_descriptions_are_typed_errors_naming_the_field() {
        let mut desc = VehicleDesc::car(1200.0);
        desc.wheels[2].radius = -1.0;
        let e = VehicleController::new(desc, InputTrack::default()).unwrap_err();
        let text = e.to_string();
        assert!(text.contains("vehicle.wheels[2].radius"), "{text}");
    }
}
