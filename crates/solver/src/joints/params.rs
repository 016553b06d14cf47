//! The parameters of each joint type: plain serde structs with defaults and
//! chained setters, used both by the solver and as the world's (and scene
//! files') joint descriptors.
//!
//! Frames: axes are given in body A's frame; angles in radians, lengths in
//! metres. The zero angle of a hinge and the rest orientation of a fixed or
//! prismatic joint are the bodies' relative orientation when the joint is
//! created (the constraint's `reference`).

use fathom_math::{AngVector, Dim, Real, Space, Vector};
use serde::{Deserialize, Serialize};

/// A velocity motor: drives the joint's speed towards `speed` with at most `max_force`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Motor {
    /// Target speed: rad/s for hinges, m/s for sliders.
    pub speed: Real,
    /// Largest torque (N m, hinges) or force (N, sliders) the motor applies.
    pub max_force: Real,
}

/// A position motor (servo): drives the joint's position (hinge angle, slider translation)
/// to `target` like a damped spring of `hertz` and `damping_ratio`, with at most
/// `max_force`. Without the cap it is a spring; with it a door or an arm swings to its angle
/// no harder than its motor can push.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Servo {
    /// Target position: radians for hinges (within ±π of the rest angle), metres for sliders.
    pub target: Real,
    /// Stiffness as a natural frequency, Hz (mass-independent, as [`Spring`]).
    pub hertz: Real,
    /// Damping ratio (1 = critical: no overshoot).
    pub damping_ratio: Real,
    /// Largest torque (N m, hinges) or force (N, sliders) the servo applies.
    pub max_force: Real,
}

impl Servo {
    /// A servo to `target` as a spring of `hertz` and `damping_ratio`, capped at `max_force`.
    pub fn new(target: Real, hertz: Real, damping_ratio: Real, max_force: Real) -> Self {
        Self {
            target,
            hertz,
            damping_ratio,
            max_force,
        }
    }

    /// The servo's spring, without its target and cap.
    pub(crate) fn spring(&self) -> Spring {
        Spring {
            hertz: self.hertz,
            damping_ratio: self.damping_ratio,
        }
    }
}

/// A damped spring, as a frequency and a damping ratio (mass-independent, as in Box2D).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Spring {
    /// Stiffness as a natural frequency, Hz (0 = a pure damper).
    pub hertz: Real,
    /// Damping ratio (1 = critical).
    pub damping_ratio: Real,
}

/// A hinge: the anchors coincide; in 3D the bodies may only turn about `axis`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, bound = "")]
pub struct RevoluteJoint<const D: usize>
where
    Space<D>: Dim<D>,
{
    /// Hinge axis in A's frame (normalised when the joint is made). In 2D the only
    /// axis is the plane's normal: `1.0` (or `-1.0` to count angles clockwise).
    pub axis: AngVector<D>,
    /// `[lower, upper]` bounds of the hinge angle, radians.
    pub limits: Option<[Real; 2]>,
    /// Drives the hinge's angular speed (rad/s) with at most `max_force` N m.
    pub motor: Option<Motor>,
    /// Pulls the hinge angle towards `spring_target`.
    pub spring: Option<Spring>,
    /// The angle the spring pulls towards, radians.
    pub spring_target: Real,
    /// Drives the hinge angle to a target with a capped torque.
    pub servo: Option<Servo>,
}

impl<const D: usize> Default for RevoluteJoint<D>
where
    Space<D>: Dim<D>,
{
    fn default() -> Self {
        Self {
            axis: crate::joints::rows::angular_basis::<D>().0[Space::<D>::ANGULAR_DOF - 1],
            limits: None,
            motor: None,
            spring: None,
            spring_target: 0.0,
            servo: None,
        }
    }
}

impl<const D: usize> RevoluteJoint<D>
where
    Space<D>: Dim<D>,
{
    /// Sets the hinge axis (A's frame).
    pub fn axis(mut self, axis: AngVector<D>) -> Self {
        self.axis = axis;
        self
    }
    /// Limits the hinge angle to `[lower, upper]` radians.
    pub fn limits(mut self, lower: Real, upper: Real) -> Self {
        self.limits = Some([lower, upper]);
        self
    }
    /// Adds a motor of target `speed` (rad/s) and `max_torque` (N m).
    pub fn motor(mut self, speed: Real, max_torque: Real) -> Self {
        self.motor = Some(Motor {
            speed,
            max_force: max_torque,
        });
        self
    }
    /// Adds a spring of `hertz` and `damping_ratio` pulling towards `target` radians.
    pub fn spring(mut self, hertz: Real, damping_ratio: Real, target: Real) -> Self {
        self.spring = Some(Spring {
            hertz,
            damping_ratio,
        });
        self.spring_target = target;
        self
    }
    /// Adds a servo driving the angle to `target` radians as a spring of `hertz` and
    /// `damping_ratio`, with at most `max_torque` N m.
    pub fn servo(
        mut self,
        target: Real,
        hertz: Real,
        damping_ratio: Real,
        max_torque: Real,
    ) -> Self {
        self.servo = Some(Servo::new(target, hertz, damping_ratio, max_torque));
        self
    }
}

/// A slider: B may only translate along `axis` (fixed in A) and may not turn relative to A.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, bound = "")]
pub struct PrismaticJoint<const D: usize>
where
    Space<D>: Dim<D>,
{
    /// Slide axis in A's frame (normalised when the joint is made).
    pub axis: Vector<D>,
    /// `[lower, upper]` bounds of the translation along the axis, metres.
    pub limits: Option<[Real; 2]>,
    /// Drives the sliding speed (m/s) with at most `max_force` N.
    pub motor: Option<Motor>,
    /// Drives the translation to a target with a capped force.
    pub servo: Option<Servo>,
}

impl<const D: usize> Default for PrismaticJoint<D>
where
    Space<D>: Dim<D>,
{
    fn default() -> Self {
        Self {
            axis: crate::joints::rows::unit::<D>(0),
            limits: None,
            motor: None,
            servo: None,
        }
    }
}

impl<const D: usize> PrismaticJoint<D>
where
    Space<D>: Dim<D>,
{
    /// Sets the slide axis (A's frame).
    pub fn axis(mut self, axis: Vector<D>) -> Self {
        self.axis = axis;
        self
    }
    /// Limits the translation to `[lower, upper]` metres.
    pub fn limits(mut self, lower: Real, upper: Real) -> Self {
        self.limits = Some([lower, upper]);
        self
    }
    /// Adds a motor of target `speed` (m/s) and `max_force` (N).
    pub fn motor(mut self, speed: Real, max_force: Real) -> Self {
        self.motor = Some(Motor { speed, max_force });
        self
    }
    /// Adds a servo driving the translation to `target` metres as a spring of `hertz` and
    /// `damping_ratio`, with at most `max_force` N.
    pub fn servo(
        mut self,
        target: Real,
        hertz: Real,
        damping_ratio: Real,
        max_force: Real,
    ) -> Self {
        self.servo = Some(Servo::new(target, hertz, damping_ratio, max_force));
        self
    }
}

/// A ball joint: the anchors coincide, rotation is free. With a cone limit, the
/// angle between `cone_axis` (A's frame) and the same axis carried by B stays
/// below `cone_angle`.
///
/// In 2D a spherical joint is a revolute point constraint, and the cone becomes
/// the symmetric angle limit `[-cone_angle, cone_angle]` (the planar cone).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, bound = "")]
pub struct SphericalJoint<const D: usize>
where
    Space<D>: Dim<D>,
{
    /// The cone's axis in A's frame (normalised when the joint is made).
    pub cone_axis: Vector<D>,
    /// Half-angle of the cone, radians (`None`: no limit).
    pub cone_angle: Option<Real>,
}

impl<const D: usize> Default for SphericalJoint<D>
where
    Space<D>: Dim<D>,
{
    fn default() -> Self {
        Self {
            cone_axis: -crate::joints::rows::unit::<D>(1),
            cone_angle: None,
        }
    }
}

impl<const D: usize> SphericalJoint<D>
where
    Space<D>: Dim<D>,
{
    /// Limits the swing to a cone of half-angle `angle` radians about `axis` (A's frame).
    pub fn cone(mut self, axis: Vector<D>, angle: Real) -> Self {
        self.cone_axis = axis;
        self.cone_angle = Some(angle);
        self
    }
}

/// Keeps the anchors `length` apart: a rigid rod, or with a spring a soft one
/// whose length stays within `[min_length, max_length]`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct DistanceJoint {
    /// Rest length, metres; `None`: the anchors' distance when the joint is made.
    pub length: Option<Real>,
    /// Shortest length with a spring, metres.
    pub min_length: Real,
    /// Longest length with a spring, metres.
    pub max_length: Real,
    /// Without a spring the joint is a rigid rod at `length`.
    pub spring: Option<Spring>,
}

impl Default for DistanceJoint {
    fn default() -> Self {
        Self {
            length: None,
            min_length: 0.0,
            max_length: Real::MAX,
            spring: None,
        }
    }
}

impl DistanceJoint {
    /// Sets the rest length (metres).
    pub fn length(mut self, length: Real) -> Self {
        self.length = Some(length);
        self
    }
    /// Makes the rod a spring of `hertz` and `damping_ratio`, kept within `[min, max]` metres.
    pub fn spring(mut self, hertz: Real, damping_ratio: Real, min: Real, max: Real) -> Self {
        self.spring = Some(Spring {
            hertz,
            damping_ratio,
        });
        self.min_length = min;
        self.max_length = max;
        self
    }
}

/// A wheel on a suspension: B's anchor slides along `axis` (A's frame) on a spring, and B
/// spins freely about `axle` (A's frame; in 2D the plane's normal), which it keeps; a motor
/// may drive the spin.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, bound = "")]
pub struct WheelJoint<const D: usize>
where
    Space<D>: Dim<D>,
{
    /// Suspension axis in A's frame (normalised when the joint is made): the wheel's travel.
    pub axis: Vector<D>,
    /// Spin axis in A's frame (normalised when the joint is made).
    pub axle: AngVector<D>,
    /// The suspension's spring, pulling the anchors together along `axis` (its rest
    /// translation is 0: give anchors that coincide at rest).
    pub spring: Spring,
    /// `[lower, upper]` bounds of the suspension travel, metres.
    pub limits: Option<[Real; 2]>,
    /// Drives the spin (rad/s) with at most `max_force` N m.
    pub motor: Option<Motor>,
}

impl<const D: usize> Default for WheelJoint<D>
where
    Space<D>: Dim<D>,
{
    fn default() -> Self {
        Self {
            axis: crate::joints::rows::unit::<D>(1),
            axle: crate::joints::rows::angular_basis::<D>().0[Space::<D>::ANGULAR_DOF - 1],
            spring: Spring {
                hertz: 4.0,
                damping_ratio: 0.7,
            },
            limits: None,
            motor: None,
        }
    }
}

impl<const D: usize> WheelJoint<D>
where
    Space<D>: Dim<D>,
{
    /// Sets the suspension axis (A's frame).
    pub fn axis(mut self, axis: Vector<D>) -> Self {
        self.axis = axis;
        self
    }
    /// Sets the spin axis (A's frame).
    pub fn axle(mut self, axle: AngVector<D>) -> Self {
        self.axle = axle;
        self
    }
    /// Sets the suspension spring.
    pub fn spring(mut self, hertz: Real, damping_ratio: Real) -> Self {
        self.spring = Spring {
            hertz,
            damping_ratio,
        };
        self
    }
    /// Limits the suspension travel to `[lower, upper]` metres.
    pub fn limits(mut self, lower: Real, upper: Real) -> Self {
        self.limits = Some([lower, upper]);
        self
    }
    /// Adds a spin motor of target `speed` (rad/s) and `max_torque` (N m).
    pub fn motor(mut self, speed: Real, max_torque: Real) -> Self {
        self.motor = Some(Motor {
            speed,
            max_force: max_torque,
        });
        self
    }
}

/// A rope: the anchors may come closer freely but never further apart than `max_length`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct RopeJoint {
    /// Longest distance between the anchors, metres; `None`: their distance when the joint
    /// is made.
    pub max_length: Option<Real>,
}

/// What a joint constrains.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(bound = "")]
pub enum JointKind<const D: usize>
where
    Space<D>: Dim<D>,
{
    /// Welds B to A: no relative motion.
    Fixed,
    /// A hinge.
    Revolute(RevoluteJoint<D>),
    /// A slider.
    Prismatic(PrismaticJoint<D>),
    /// A ball joint.
    Spherical(SphericalJoint<D>),
    /// A rod or spring between the anchors.
    Distance(DistanceJoint),
    /// A rope between the anchors: a maximum distance only.
    Rope(RopeJoint),
    /// A wheel on a sprung suspension.
    Wheel(WheelJoint<D>),
}

impl<const D: usize> Default for JointKind<D>
where
    Space<D>: Dim<D>,
{
    fn default() -> Self {
        Self::Revolute(RevoluteJoint::default())
    }
}

impl<const D: usize> From<RevoluteJoint<D>> for JointKind<D>
where
    Space<D>: Dim<D>,
{
    fn from(j: RevoluteJoint<D>) -> Self {
        Self::Revolute(j)
    }
}

impl<const D: usize> From<PrismaticJoint<D>> for JointKind<D>
where
    Space<D>: Dim<D>,
{
    fn from(j: PrismaticJoint<D>) -> Self {
        Self::Prismatic(j)
    }
}

impl<const D: usize> From<SphericalJoint<D>> for JointKind<D>
where
    Space<D>: Dim<D>,
{
    fn from(j: SphericalJoint<D>) -> Self {
        Self::Spherical(j)
    }
}

impl<const D: usize> From<WheelJoint<D>> for JointKind<D>
where
    Space<D>: Dim<D>,
{
    fn from(j: WheelJoint<D>) -> Self {
        Self::Wheel(j)
    }
}

impl<const D: usize> From<RopeJoint> for JointKind<D>
where
    Space<D>: Dim<D>,
{
    fn from(j: RopeJoint) -> Self {
        Self::Rope(j)
    }
}

impl<const D: usize> From<DistanceJoint> for JointKind<D>
where
    Space<D>: Dim<D>,
{
    fn from(j: DistanceJoint) -> Self {
        Self::Distance(j)
    }
}
