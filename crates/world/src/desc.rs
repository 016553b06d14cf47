//! Descriptors: plain serde structs with defaults and chained setters from
//! which bodies and colliders are created. They are also the scene format's
//! vocabulary, so a RON scene is a list of these.
//!
//! Orientation is written as an angle in radians in 2D and a scaled axis
//! (axis times angle, radians) in 3D, the natural hand-written forms.

use crate::error::{
    check_finite, check_finite_all, check_non_negative, check_positive, WorldError,
};
use crate::filter::CollisionGroups;
use fathom_math::{AngVector, Dim, Pose, Real, Space, Vector};
use fathom_sdf::Shape;
use fathom_solver::LockedAxes;
use nalgebra::Translation;
use serde::{Deserialize, Serialize};

/// How a body moves.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum BodyKind {
    /// Moved by gravity, forces and contacts.
    #[default]
    Dynamic,
    /// Moved only by the velocity the game sets; pushes dynamic bodies, never pushed.
    Kinematic,
    /// Never moves (Rapier's `Fixed`; older scene files saying `Static` still load).
    #[serde(alias = "Static")]
    Fixed,
}

impl BodyKind {
    pub(crate) fn motion(self) -> fathom_solver::Motion {
        match self {
            Self::Dynamic => fathom_solver::Motion::Dynamic,
            Self::Kinematic => fathom_solver::Motion::Kinematic,
            Self::Fixed => fathom_solver::Motion::Static,
        }
    }
}

/// The pose `(position, rotation)` with rotation as an angle (2D) or scaled axis (3D).
pub(crate) fn pose_from<const D: usize>(position: &Vector<D>, rotation: &AngVector<D>) -> Pose<D>
where
    Space<D>: Dim<D>,
{
    Pose::<D>::from_parts(
        Translation::from(*position),
        Space::<D>::rotation_from_scaled_axis(rotation),
    )
}

/// Describes a body. Defaults: a dynamic body at the origin, at rest, no damping,
/// gravity scale 1, no colliders.
///
/// Start from [`BodyDesc::dynamic`], [`BodyDesc::fixed`] or [`BodyDesc::kinematic`] and
/// chain setters; [`crate::World::add_body`] checks every field and creates nothing when
/// one is bad.
///
/// ```
/// use fathom_math::Vector3;
/// use fathom_world::{BodyDesc, ColliderDesc, Shape, World3};
///
/// let mut world = World3::default();
/// // A puck sliding at 2 m/s with gravity off for it alone: it coasts in a straight line.
/// let puck = world.add_body(&BodyDesc::dynamic()
///     .position(Vector3::new(0.0, 1.0, 0.0))
///     .linear_velocity(Vector3::new(2.0, 0.0, 0.0))
///     .gravity_scale(0.0)
///     .collider(ColliderDesc::new(Shape::ball(0.25)?)))?;
/// for _ in 0..60 {
///     world.step(); // one second
/// }
/// let p = world.body(puck).unwrap().position();
/// assert!((p - Vector3::new(2.0, 1.0, 0.0)).norm() < 1e-4);
///
/// // A bad value is refused, naming the field, and nothing is created.
/// let err = world.add_body(&BodyDesc::dynamic().linear_damping(-1.0)).unwrap_err();
/// assert_eq!(err.field(), Some("linear_damping"));
/// assert_eq!(world.body_count(), 1);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields, bound = "")]
pub struct BodyDesc<const D: usize>
where
    Space<D>: Dim<D>,
{
    /// How the body moves.
    #[serde(skip_serializing_if = "is_default")]
    pub kind: BodyKind,
    /// Position of the body's origin, world frame, metres.
    #[serde(skip_serializing_if = "is_zero_vector::<D>")]
    pub position: Vector<D>,
    /// Orientation: an angle (2D) or scaled axis (3D), radians.
    #[serde(skip_serializing_if = "is_zero_angle::<D>")]
    pub rotation: AngVector<D>,
    /// Velocity of the centre of mass, world frame, m/s.
    #[serde(skip_serializing_if = "is_zero_vector::<D>")]
    pub linear_velocity: Vector<D>,
    /// Angular velocity, world frame, rad/s.
    #[serde(skip_serializing_if = "is_zero_angle::<D>")]
    pub angular_velocity: AngVector<D>,
    /// Linear damping rate, 1/s (velocity decays like `exp(-c t)`).
    #[serde(skip_serializing_if = "is_zero")]
    pub linear_damping: Real,
    /// Angular damping rate, 1/s.
    #[serde(skip_serializing_if = "is_zero")]
    pub angular_damping: Real,
    /// Multiplier of the world's gravity, within ±[`MAX_GRAVITY_SCALE`].
    #[serde(skip_serializing_if = "is_one")]
    pub gravity_scale: Real,
    /// Colliders attached when the body is created.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub colliders: Vec<ColliderDesc<D>>,
    /// Bullet: sweep this body with continuous collision every step (fast bodies
    /// are swept anyway once they move more than a fraction of their size per step).
    #[serde(skip_serializing_if = "is_default")]
    pub ccd: bool,
    /// World axes a dynamic body may not move along or turn about.
    #[serde(skip_serializing_if = "is_default")]
    pub locked_axes: LockedAxes,
}

impl<const D: usize> Default for BodyDesc<D>
where
    Space<D>: Dim<D>,
{
    fn default() -> Self {
        Self {
            kind: BodyKind::Dynamic,
            position: Vector::zeros(),
            rotation: Space::<D>::ang_zero(),
            linear_velocity: Vector::zeros(),
            angular_velocity: Space::<D>::ang_zero(),
            linear_damping: 0.0,
            angular_damping: 0.0,
            gravity_scale: 1.0,
            colliders: Vec::new(),
            ccd: false,
            locked_axes: LockedAxes::NONE,
        }
    }
}

impl<const D: usize> BodyDesc<D>
where
    Space<D>: Dim<D>,
{
    /// A dynamic body (the default).
    pub fn dynamic() -> Self {
        Self::default()
    }
    /// A fixed body: never moves.
    pub fn fixed() -> Self {
        Self {
            kind: BodyKind::Fixed,
            ..Self::default()
        }
    }
    /// A kinematic body.
    pub fn kinematic() -> Self {
        Self {
            kind: BodyKind::Kinematic,
            ..Self::default()
        }
    }
    /// Sets the kind.
    pub fn kind(mut self, kind: BodyKind) -> Self {
        self.kind = kind;
        self
    }
    /// Sets the position of the origin (world, metres).
    pub fn position(mut self, p: Vector<D>) -> Self {
        self.position = p;
        self
    }
    /// Sets the orientation (angle or scaled axis, radians).
    pub fn rotation(mut self, r: AngVector<D>) -> Self {
        self.rotation = r;
        self
    }
    /// Sets the linear velocity (world, m/s).
    pub fn linear_velocity(mut self, v: Vector<D>) -> Self {
        self.linear_velocity = v;
        self
    }
    /// Sets the angular velocity (world, rad/s).
    pub fn angular_velocity(mut self, w: AngVector<D>) -> Self {
        self.angular_velocity = w;
        self
    }
    /// Sets the linear damping rate (1/s).
    pub fn linear_damping(mut self, c: Real) -> Self {
        self.linear_damping = c;
        self
    }
    /// Sets the angular damping rate (1/s).
    pub fn angular_damping(mut self, c: Real) -> Self {
        self.angular_damping = c;
        self
    }
    /// Sets the gravity scale (within ±[`MAX_GRAVITY_SCALE`]).
    pub fn gravity_scale(mut self, s: Real) -> Self {
        self.gravity_scale = s;
        self
    }
    /// Marks the body as a bullet (continuous collision every step).
    pub fn ccd(mut self, on: bool) -> Self {
        self.ccd = on;
        self
    }
    /// Locks world axes of a dynamic body (`LockedAxes::ROTATION` keeps it upright).
    pub fn locked_axes(mut self, locks: LockedAxes) -> Self {
        self.locked_axes = locks;
        self
    }
    /// Adds a collider.
    pub fn collider(mut self, c: ColliderDesc<D>) -> Self {
        self.colliders.push(c);
        self
    }

    /// The initial pose of the origin.
    pub fn pose(&self) -> Pose<D> {
        pose_from(&self.position, &self.rotation)
    }

    /// Checks every field (and every collider); the error names the first bad one.
    pub fn validate(&self) -> Result<(), WorldError> {
        check_finite_all("position", self.position.iter())?;
        check_rotation("rotation", &self.rotation)?;
        check_finite_all("linear_velocity", self.linear_velocity.iter())?;
        check_ang("angular_velocity", &self.angular_velocity)?;
        check_motion(
            self.linear_damping,
            self.angular_damping,
            self.gravity_scale,
        )?;
        for (i, c) in self.colliders.iter().enumerate() {
            c.validate()
                .map_err(|e| e.prefixed(&format!("colliders[{i}]")))?;
        }
        Ok(())
    }
}

pub(crate) fn check_ang<const D: usize>(field: &str, a: &AngVector<D>) -> Result<(), WorldError>
where
    Space<D>: Dim<D>,
{
    if Space::<D>::ang_is_finite(a) {
        Ok(())
    } else {
        Err(WorldError::invalid(
            field,
            format!("must be finite, got {a:?}"),
        ))
    }
}

/// A collider's friction coefficient unless set.
pub const DEFAULT_FRICTION: Real = 0.6;
/// A collider's contact margin unless set, metres.
pub const DEFAULT_MARGIN: Real = 0.02;

// Scene files leave out every field at its default (they are read with
// `#[serde(default)]`), so a written scene is as short as a hand-written one.
fn is_default<T: Default + PartialEq>(v: &T) -> bool {
    *v == T::default()
}

// Floats compare by bits, so a written -0.0 reads back as -0.0.
fn is_zero(v: &Real) -> bool {
    v.to_bits() == 0
}

fn is_zero_vector<const D: usize>(v: &Vector<D>) -> bool {
    v.iter().all(is_zero)
}

fn is_one(v: &Real) -> bool {
    v.to_bits() == (1.0 as Real).to_bits()
}

fn is_default_friction(v: &Real) -> bool {
    v.to_bits() == DEFAULT_FRICTION.to_bits()
}

fn is_default_margin(v: &Real) -> bool {
    v.to_bits() == DEFAULT_MARGIN.to_bits()
}

fn is_zero_angle<const D: usize>(a: &AngVector<D>) -> bool
where
    Space<D>: Dim<D>,
{
    *a == Space::<D>::ang_zero()
}

/// Checks an orientation (angle or scaled axis): finite, and giving a finite rotation. In 3D
/// the angle is the scaled axis' length, which overflows f32 for components past about 1e19
/// (`rotation: (1e30, 0, 0)` would make every pose NaN and be blamed on the shape).
pub(crate) fn check_rotation<const D: usize>(
    field: &str,
    r: &AngVector<D>,
) -> Result<(), WorldError>
where
    Space<D>: Dim<D>,
{
    check_ang(field, r)?;
    let turned = pose_from(&Vector::<D>::zeros(), r) * Vector::<D>::repeat(1.0);
    if turned.iter().all(|x| x.is_finite()) {
        Ok(())
    } else {
        Err(WorldError::invalid(
            field,
            format!("is too large to turn into a rotation (its angle overflows f32), got {r:?}"),
        ))
    }
}

/// Describes a collider. Defaults: a ball of radius 0.5 at the body's origin,
/// density 1 kg/m³ (kg/m² in 2D), friction 0.6, no restitution, margin 0.02 m.
///
/// A body's mass, centre of mass and inertia are the sum of its colliders', each from its
/// shape and density (or a [`ColliderDesc::mass`] that overrides the density):
///
/// ```
/// use fathom_math::Vector3;
/// use fathom_world::{BodyDesc, ColliderDesc, Shape, World3};
///
/// let mut world = World3::default();
/// let cube = ColliderDesc::new(Shape::cuboid(Vector3::new(0.5, 0.5, 0.5))?).density(500.0);
/// let crate_ = world.add_body(&BodyDesc::dynamic().collider(cube))?;
/// assert!((world.body(crate_).unwrap().mass() - 500.0).abs() < 1e-2); // 1 m³ at 500 kg/m³
///
/// // Two balls on one rod: 1 kg at x = -1 and 3 kg at x = +1.
/// let ball = ColliderDesc::new(Shape::ball(0.2)?);
/// let dumbbell = world.add_body(&BodyDesc::dynamic()
///     .collider(ball.clone().position(Vector3::new(-1.0, 0.0, 0.0)).mass(1.0))
///     .collider(ball.position(Vector3::new(1.0, 0.0, 0.0)).mass(3.0)))?;
/// let body = world.body(dumbbell).unwrap();
/// assert!((body.mass() - 4.0).abs() < 1e-5);
/// assert!((body.center_of_mass().x - 0.5).abs() < 1e-5); // (-1 * 1 + 1 * 3) / 4
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields, bound = "")]
pub struct ColliderDesc<const D: usize>
where
    Space<D>: Dim<D>,
{
    /// The shape, in the collider's local frame.
    pub shape: Shape<D>,
    /// Position of the collider in its body's frame, metres.
    #[serde(skip_serializing_if = "is_zero_vector::<D>")]
    pub position: Vector<D>,
    /// Orientation in its body's frame (angle or scaled axis, radians).
    #[serde(skip_serializing_if = "is_zero_angle::<D>")]
    pub rotation: AngVector<D>,
    /// Density, kg/m³ (kg/m² in 2D). Ignored when `mass` is given.
    #[serde(skip_serializing_if = "is_one")]
    pub density: Real,
    /// Total mass, kg, overriding the density.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mass: Option<Real>,
    /// Coulomb friction coefficient (combined by geometric mean).
    #[serde(skip_serializing_if = "is_default_friction")]
    pub friction: Real,
    /// Coefficient of restitution (combined by maximum).
    #[serde(skip_serializing_if = "is_zero")]
    pub restitution: Real,
    /// Contact margin, metres: contacts within it are found early (speculative).
    #[serde(skip_serializing_if = "is_default_margin")]
    pub margin: Real,
    /// A sensor reports overlaps as events and never produces a contact response.
    #[serde(skip_serializing_if = "is_default")]
    pub sensor: bool,
    /// Collision groups (membership and filter masks).
    #[serde(skip_serializing_if = "is_default")]
    pub groups: CollisionGroups,
    /// Total contact force of a pair, N, above which it reports a force event each step
    /// (the lower threshold of the pair's two colliders applies); `None`: never.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub force_event_threshold: Option<Real>,
}

impl<const D: usize> Default for ColliderDesc<D>
where
    Space<D>: Dim<D>,
{
    fn default() -> Self {
        Self::new(Shape::ball(0.5).expect("0.5 is a valid radius"))
    }
}

impl<const D: usize> ColliderDesc<D>
where
    Space<D>: Dim<D>,
{
    /// A collider of `shape` with the default material.
    pub fn new(shape: Shape<D>) -> Self {
        Self {
            shape,
            position: Vector::zeros(),
            rotation: Space::<D>::ang_zero(),
            density: 1.0,
            mass: None,
            friction: DEFAULT_FRICTION,
            restitution: 0.0,
            margin: DEFAULT_MARGIN,
            sensor: false,
            groups: CollisionGroups::ALL,
            force_event_threshold: None,
        }
    }
    /// Sets the shape.
    pub fn shape(mut self, s: Shape<D>) -> Self {
        self.shape = s;
        self
    }
    /// Sets the position in the body frame (metres).
    pub fn position(mut self, p: Vector<D>) -> Self {
        self.position = p;
        self
    }
    /// Sets the orientation in the body frame.
    pub fn rotation(mut self, r: AngVector<D>) -> Self {
        self.rotation = r;
        self
    }
    /// Sets the density.
    pub fn density(mut self, d: Real) -> Self {
        self.density = d;
        self
    }
    /// Sets the total mass (kg), overriding the density.
    pub fn mass(mut self, m: Real) -> Self {
        self.mass = Some(m);
        self
    }
    /// Sets the friction coefficient.
    pub fn friction(mut self, f: Real) -> Self {
        self.friction = f;
        self
    }
    /// Sets the restitution.
    pub fn restitution(mut self, e: Real) -> Self {
        self.restitution = e;
        self
    }
    /// Sets the contact margin (metres).
    pub fn margin(mut self, m: Real) -> Self {
        self.margin = m;
        self
    }
    /// Makes the collider a sensor (or not).
    pub fn sensor(mut self, on: bool) -> Self {
        self.sensor = on;
        self
    }
    /// Sets the collision groups.
    pub fn groups(mut self, groups: CollisionGroups) -> Self {
        self.groups = groups;
        self
    }
    /// Sets the force-event threshold (N).
    pub fn force_event_threshold(mut self, newtons: Real) -> Self {
        self.force_event_threshold = Some(newtons);
        self
    }

    /// The collider's pose in its body's frame.
    pub fn local_pose(&self) -> Pose<D> {
        pose_from(&self.position, &self.rotation)
    }

    /// Checks every field; the error names the first bad one.
    pub fn validate(&self) -> Result<(), WorldError> {
        self.shape.validate().map_err(|source| WorldError::Shape {
            field: "shape".into(),
            source,
        })?;
        check_finite_all("position", self.position.iter())?;
        check_rotation("rotation", &self.rotation)?;
        check_non_negative("density", self.density)?;
        if let Some(m) = self.mass {
            check_positive("mass", m)?;
        }
        check_material(
            self.friction,
            self.restitution,
            self.margin,
            self.force_event_threshold,
        )
    }
}

/// Largest magnitude of a body's gravity scale. Under Earth's gravity a box resting at 10 g
/// gains no energy even at [`crate::MAX_DT`]; at 100 g the contacts pump energy in (4.5% at
/// the default step), and 1e30 reached the speed cap.
pub const MAX_GRAVITY_SCALE: Real = 10.0;

/// A body's damping rates and gravity scale, as a [`BodyDesc`] and a restored snapshot
/// check them.
pub(crate) fn check_motion(
    linear_damping: Real,
    angular_damping: Real,
    gravity_scale: Real,
) -> Result<(), WorldError> {
    check_non_negative("linear_damping", linear_damping)?;
    check_non_negative("angular_damping", angular_damping)?;
    check_finite("gravity_scale", gravity_scale)?;
    if gravity_scale.abs() > MAX_GRAVITY_SCALE {
        return Err(WorldError::invalid(
            "gravity_scale",
            format!("must be within ±{MAX_GRAVITY_SCALE} (MAX_GRAVITY_SCALE), got {gravity_scale}"),
        ));
    }
    Ok(())
}

/// A collider's surface values, as a [`ColliderDesc`] and a restored snapshot check them.
pub(crate) fn check_material(
    friction: Real,
    restitution: Real,
    margin: Real,
    force_event_threshold: Option<Real>,
) -> Result<(), WorldError> {
    check_non_negative("friction", friction)?;
    check_non_negative("restitution", restitution)?;
    check_non_negative("margin", margin)?;
    if let Some(t) = force_event_threshold {
        check_non_negative("force_event_threshold", t)?;
    }
    Ok(())
}
