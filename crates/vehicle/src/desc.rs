//! Vehicle descriptions: plain serde structs with defaults, validated before
//! anything is built, so a scene file only writes what differs from a
//! sensible car and a bad value is a typed error naming its field.
//!
//! Frames: every vector of a description is in the chassis body frame
//! (metres); the chassis' own pose and colliders come from its
//! [`BodyDesc`]. `forward` and `up` name the car's axes in that frame; the
//! lateral (axle) axis exists only in 3D, so a 2D vehicle is a side view that
//! neither steers nor corners.

use crate::error::{finite, in_range, non_negative, positive, VehicleError};
use fathom_math::{Dim, Real, Space, Vector};
use fathom_world::{BodyDesc, BodyKind, ColliderDesc, Shape};
use serde::{Deserialize, Serialize};

/// The tyre: grip and how fast the force grows with slip.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct TyreDesc {
    /// Friction coefficient of the tyre; combined with the ground collider's by
    /// geometric mean, as the world combines frictions.
    pub friction: Real,
    /// Longitudinal force per unit slip ratio, N (the slope of the linear part).
    pub longitudinal_stiffness: Real,
    /// Lateral force per radian of slip angle, N/rad.
    pub cornering_stiffness: Real,
    /// Speed below which slip is measured against this speed instead of the
    /// wheel's own (m/s): keeps slip finite when the car stands still.
    pub slip_speed_floor: Real,
}

impl Default for TyreDesc {
    fn default() -> Self {
        Self {
            friction: 1.0,
            longitudinal_stiffness: 60_000.0,
            cornering_stiffness: 50_000.0,
            slip_speed_floor: 1.0,
        }
    }
}

impl TyreDesc {
    /// Checks every field.
    pub fn validate(&self) -> Result<(), VehicleError> {
        non_negative("friction", self.friction)?;
        non_negative("longitudinal_stiffness", self.longitudinal_stiffness)?;
        non_negative("cornering_stiffness", self.cornering_stiffness)?;
        positive("slip_speed_floor", self.slip_speed_floor)
    }
}

/// One wheel: where its suspension is mounted, how it springs, what it does.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, bound = "")]
pub struct WheelDesc<const D: usize> {
    /// Top of the suspension (where the wheel centre is at full extension minus
    /// `rest_length`), chassis body frame, metres.
    pub mount: Vector<D>,
    /// Direction the suspension extends (towards the ground), chassis body frame;
    /// normalised when built. Default: down the y axis.
    pub suspension_dir: Vector<D>,
    /// Spring free length, metres: mount to wheel centre with no load.
    pub rest_length: Real,
    /// Compression at which the bump stop engages, metres (at most `rest_length`).
    pub travel: Real,
    /// Spring stiffness, N/m.
    pub stiffness: Real,
    /// Damper coefficient, N s/m (on the compression rate).
    pub damping: Real,
    /// Wheel radius, metres (the radius of the sphere cast).
    pub radius: Real,
    /// Spin inertia about the axle, kg m².
    pub inertia: Real,
    /// The tyre.
    pub tyre: TyreDesc,
    /// Turned by the steering input.
    pub steers: bool,
    /// Driven by the engine.
    pub drives: bool,
    /// Slowed by the foot brake.
    pub brakes: bool,
    /// Locked by the handbrake (usually the rear wheels).
    pub handbrake: bool,
}

impl<const D: usize> Default for WheelDesc<D> {
    fn default() -> Self {
        let mut down = Vector::<D>::zeros();
        down[1] = -1.0;
        Self {
            mount: Vector::zeros(),
            suspension_dir: down,
            rest_length: 0.45,
            travel: 0.3,
            stiffness: 30_000.0,
            damping: 3_000.0,
            radius: 0.35,
            inertia: 1.0,
            tyre: TyreDesc::default(),
            steers: false,
            drives: false,
            brakes: true,
            handbrake: false,
        }
    }
}

impl<const D: usize> WheelDesc<D> {
    /// Checks every field.
    pub fn validate(&self) -> Result<(), VehicleError> {
        for (i, x) in self.mount.iter().enumerate() {
            finite(&format!("mount[{i}]"), *x)?;
        }
        let n = self.suspension_dir.norm();
        if !(n.is_finite() && n > 1e-6) {
            return Err(VehicleError::invalid(
                "suspension_dir",
                "must be a finite, non-zero vector",
            ));
        }
        positive("rest_length", self.rest_length)?;
        non_negative("travel", self.travel)?;
        if self.travel > self.rest_length {
            return Err(VehicleError::invalid(
                "travel",
                format!(
                    "must not exceed rest_length ({}), got {}",
                    self.rest_length, self.travel
                ),
            ));
        }
        non_negative("stiffness", self.stiffness)?;
        non_negative("damping", self.damping)?;
        positive("radius", self.radius)?;
        positive("inertia", self.inertia)?;
        self.tyre.validate().map_err(|e| e.prefixed("tyre"))
    }
}

/// The engine and gearbox. With no `gears` it is direct drive through
/// `final_drive`; otherwise an automatic box shifts on engine speed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct EngineDesc {
    /// Engine torque at full throttle, N m (flat curve up to `max_rpm`).
    pub max_torque: Real,
    /// Forward gear ratios, first gear first (empty: direct drive).
    pub gears: Vec<Real>,
    /// Ratio of the differential, multiplied with the gear's.
    pub final_drive: Real,
    /// Rev limiter: no torque at or above this engine speed, rev/min.
    pub max_rpm: Real,
    /// Shift up above this engine speed, rev/min.
    pub shift_up_rpm: Real,
    /// Shift down below this engine speed, rev/min.
    pub shift_down_rpm: Real,
}

impl Default for EngineDesc {
    fn default() -> Self {
        Self {
            max_torque: 350.0,
            gears: vec![3.2, 2.1, 1.5, 1.15, 0.9],
            final_drive: 3.5,
            max_rpm: 7_000.0,
            shift_up_rpm: 6_000.0,
            shift_down_rpm: 2_500.0,
        }
    }
}

impl EngineDesc {
    /// A direct drive (no gearbox) giving `force` newtons in total at wheels of
    /// radius `radius` metres at full throttle, with no rev limit in practice.
    pub fn direct(force: Real, radius: Real) -> Self {
        Self {
            max_torque: force * radius,
            gears: Vec::new(),
            final_drive: 1.0,
            max_rpm: 1.0e9,
            shift_up_rpm: 1.0e9,
            shift_down_rpm: 0.0,
        }
    }

    /// Checks every field.
    pub fn validate(&self) -> Result<(), VehicleError> {
        non_negative("max_torque", self.max_torque)?;
        for (i, g) in self.gears.iter().enumerate() {
            positive(&format!("gears[{i}]"), *g)?;
        }
        positive("final_drive", self.final_drive)?;
        positive("max_rpm", self.max_rpm)?;
        non_negative("shift_up_rpm", self.shift_up_rpm)?;
        non_negative("shift_down_rpm", self.shift_down_rpm)?;
        if self.shift_down_rpm > self.shift_up_rpm {
            return Err(VehicleError::invalid(
                "shift_down_rpm",
                "must not exceed shift_up_rpm",
            ));
        }
        Ok(())
    }
}

/// An anti-roll bar between two wheels (usually one axle's left and right):
/// it moves load from the more compressed wheel's partner onto it.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct AntiRollBar {
    /// Index of one wheel.
    pub left: usize,
    /// Index of the other wheel.
    pub right: usize,
    /// Force per metre of compression difference, N/m.
    pub stiffness: Real,
}

/// Everything needed to build a vehicle into a world.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, bound = "")]
pub struct VehicleDesc<const D: usize>
where
    Space<D>: Dim<D>,
{
    /// The chassis body (dynamic, with the colliders that give it mass and
    /// collide with the world). Wheels are casts, not colliders.
    pub chassis: BodyDesc<D>,
    /// The car's forward axis, chassis body frame (orthogonalised against `up`).
    pub forward: Vector<D>,
    /// The car's up axis, chassis body frame (steering turns about it).
    pub up: Vector<D>,
    /// The wheels.
    pub wheels: Vec<WheelDesc<D>>,
    /// Engine and gearbox.
    pub engine: EngineDesc,
    /// Foot-brake torque per braked wheel at full brake, N m.
    pub brake_torque: Real,
    /// Handbrake torque per handbrake wheel, N m.
    pub handbrake_torque: Real,
    /// Steering angle at full steering input, radians (positive input turns left).
    pub max_steer: Real,
    /// Turn the inner wheel more (Ackermann geometry), so every steered wheel
    /// points across the same turning centre on the rear axle's line.
    pub ackermann: bool,
    /// Anti-roll bars.
    pub anti_roll: Vec<AntiRollBar>,
    /// Aerodynamic drag coefficient: force `drag * |v| * v`, N/(m/s)², at the
    /// centre of mass.
    pub drag: Real,
}

impl<const D: usize> Default for VehicleDesc<D>
where
    Space<D>: Dim<D>,
{
    fn default() -> Self {
        Self::car(1200.0)
    }
}

impl<const D: usize> VehicleDesc<D>
where
    Space<D>: Dim<D>,
{
    /// A car of `mass` kg: a 4 x 0.6 x 1.8 m box chassis (x forward, y up),
    /// wheelbase 2.6 m; in 3D four wheels on a 1.6 m track (front steering,
    /// rear drive and handbrake, anti-roll bars), in 2D a side view with a
    /// front and a rear wheel, each standing for an axle (twice a wheel's spring,
    /// damper, tyre and inertia). Brakes lock a wheel even with all the weight on
    /// its axle at grip 1. Placed with its origin at the world origin.
    pub fn car(mass: Real) -> Self {
        let mut half = Vector::<D>::repeat(0.9);
        half[0] = 2.0;
        half[1] = 0.3;
        let collider = ColliderDesc::new(Shape::cuboid(half).expect("a valid box"))
            .mass(mass)
            .friction(0.5);
        let mut forward = Vector::<D>::zeros();
        forward[0] = 1.0;
        let mut up = Vector::<D>::zeros();
        up[1] = 1.0;
        let sides: &[Real] = if D == 3 { &[-0.8, 0.8] } else { &[0.0] };
        // In 2D one wheel stands for an axle: both wheels' springs, tyres and inertia.
        let per_axle = sides.len() as Real;
        let base = WheelDesc::<D>::default();
        let axle_wheel = WheelDesc {
            stiffness: base.stiffness * 2.0 / per_axle,
            damping: base.damping * 2.0 / per_axle,
            inertia: base.inertia * 2.0 / per_axle,
            tyre: TyreDesc {
                longitudinal_stiffness: base.tyre.longitudinal_stiffness * 2.0 / per_axle,
                cornering_stiffness: base.tyre.cornering_stiffness * 2.0 / per_axle,
                ..base.tyre
            },
            ..base
        };
        // Brakes that lock a wheel even with the whole weight on its axle at grip 1.
        let brake_torque = mass * 9.81 * axle_wheel.radius / per_axle;
        let mut wheels = Vec::new();
        for (x, front) in [(1.3, true), (-1.3, false)] {
            for &z in sides {
                let mut mount = Vector::<D>::zeros();
                mount[0] = x;
                mount[1] = -0.1;
                if D == 3 {
                    mount[2] = z;
                }
                wheels.push(WheelDesc {
                    mount,
                    steers: front,
                    drives: !front,
                    handbrake: !front,
                    ..axle_wheel.clone()
                });
            }
        }
        let anti_roll = if D == 3 {
            vec![
                AntiRollBar {
                    left: 0,
                    right: 1,
                    stiffness: 8_000.0,
                },
                AntiRollBar {
                    left: 2,
                    right: 3,
                    stiffness: 5_000.0,
                },
            ]
        } else {
            Vec::new()
        };
        Self {
            chassis: BodyDesc::dynamic().collider(collider),
            forward,
            up,
            wheels,
            engine: EngineDesc::default(),
            brake_torque,
            handbrake_torque: brake_torque,
            max_steer: 0.6,
            ackermann: true,
            anti_roll,
            drag: 0.4,
        }
    }

    /// Checks every field; the error names the first bad one by its path.
    pub fn validate(&self) -> Result<(), VehicleError> {
        self.chassis.validate().map_err(VehicleError::World)?;
        if self.chassis.kind != BodyKind::Dynamic {
            return Err(VehicleError::invalid("chassis.kind", "must be Dynamic"));
        }
        for (i, c) in self.chassis.colliders.iter().enumerate() {
            if let Some(m) = c.mass {
                positive(&format!("chassis.colliders[{i}].mass"), m)?;
            }
        }
        crate::frame::Axes::new(&self.forward, &self.up)?;
        if self.wheels.is_empty() {
            return Err(VehicleError::invalid("wheels", "a vehicle needs a wheel"));
        }
        for (i, w) in self.wheels.iter().enumerate() {
            w.validate()
                .map_err(|e| e.prefixed(&format!("wheels[{i}]")))?;
        }
        self.engine.validate().map_err(|e| e.prefixed("engine"))?;
        non_negative("brake_torque", self.brake_torque)?;
        non_negative("handbrake_torque", self.handbrake_torque)?;
        in_range("max_steer", self.max_steer, 0.0, 1.5)?;
        for (i, bar) in self.anti_roll.iter().enumerate() {
            self.check_bar(bar)
                .map_err(|e| e.prefixed(&format!("anti_roll[{i}]")))?;
        }
        non_negative("drag", self.drag)
    }

    fn check_bar(&self, bar: &AntiRollBar) -> Result<(), VehicleError> {
        let n = self.wheels.len();
        for (field, i) in [("left", bar.left), ("right", bar.right)] {
            if i >= n {
                return Err(VehicleError::invalid(
                    field,
                    format!("wheel index {i} is out of range ({n} wheels)"),
                ));
            }
        }
        if bar.left == bar.right {
            return Err(VehicleError::invalid("right", "must differ from left"));
        }
        non_negative("stiffness", bar.stiffness)
    }

    /// Moves the chassis' initial position (world, metres).
    pub fn at(mut self, position: Vector<D>) -> Self {
        self.chassis.position = position;
        self
    }
}
