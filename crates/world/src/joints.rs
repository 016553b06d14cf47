//! Joints in the world: descriptors, validation, the joint arena with its
//! typed generational [`JointHandle`], and the joints' part of the step.
//!
//! A joint is created from a [`JointDesc`] between two live, distinct bodies.
//! Anchors are given in each body's own frame (relative to the body origin,
//! metres); the joint's rest orientation (a hinge's zero angle, the weld of a
//! fixed joint) is the bodies' relative orientation when the joint is added.
//! A distance joint without a length takes the anchors' distance then.
//!
//! Each step the world turns every joint whose bodies are awake into a
//! [`fathom_solver::JointConstraint`] (anchors re-expressed relative to the
//! current centres of mass), the solver runs it before the contacts, and the
//! accumulated impulses come back as next step's warm start. A joint with a
//! break force or torque whose reaction exceeds it is removed and reported in
//! [`World::broken_joints`]. Bodies joined by a joint do not collide unless
//! the joint says `collide_connected`.

use crate::arena::{Arena, BodyHandle, Handle, RawHandle};
use crate::error::{
    check_finite, check_finite_all, check_non_negative, check_positive, WorldError,
};
use crate::world::World;
use fathom_math::{AngVector, Dim, Real, Space, Vector};
use fathom_solver::{
    Constraint, DistanceJoint, JointConstraint, JointKind, Motor, PrismaticJoint, RevoluteJoint,
    RopeJoint, Servo, SolverBody, SphericalJoint, Spring, WheelJoint,
};
use nalgebra::AbstractRotation;
use serde::{Deserialize, Serialize};

/// Addresses a joint in a [`World`]. Prints as `joint 3v0` (slot 3, generation 0).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct JointHandle(pub RawHandle);

crate::arena::readable_handle!(JointHandle, "joint");

impl Handle for JointHandle {
    fn from_raw(raw: RawHandle) -> Self {
        Self(raw)
    }
    fn raw(self) -> RawHandle {
        self.0
    }
}

/// Describes a joint. Defaults: a revolute joint (hinge about z) with both
/// anchors at the bodies' origins, unbreakable, connected bodies not colliding.
///
/// Anchors are in each body's own frame; [`World::add_joint`] joins two bodies. A 2D
/// pendulum: a bob 1 m from a fixed pivot swings down, and the hinge holds the length.
///
/// ```
/// use fathom_math::Vector2;
/// use fathom_world::{BodyDesc, ColliderDesc, JointDesc, Shape, World2};
///
/// let mut world = World2::default();
/// let pivot = world.add_body(&BodyDesc::fixed().position(Vector2::new(0.0, 2.0)))?;
/// let bob = world.add_body(&BodyDesc::dynamic()
///     .position(Vector2::new(1.0, 2.0))
///     .collider(ColliderDesc::new(Shape::ball(0.1)?)))?;
/// // Hinged at the pivot's origin, which is 1 m to the left of the bob's.
/// let hinge = JointDesc::revolute().anchor_b(Vector2::new(-1.0, 0.0));
/// world.add_joint(pivot, bob, &hinge)?;
///
/// let mut lowest = f32::MAX;
/// for _ in 0..60 {
///     world.step();
///     let p = world.body(bob).unwrap().position();
///     lowest = lowest.min(p.y);
///     let length = (p - Vector2::new(0.0, 2.0)).norm();
///     assert!((length - 1.0).abs() < 0.005); // soft joints stretch, by millimetres
/// }
/// assert!(lowest < 1.01); // it swung through the bottom, 1 m below the pivot
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields, bound = "")]
pub struct JointDesc<const D: usize>
where
    Space<D>: Dim<D>,
{
    /// What the joint constrains and its limits, motor, spring.
    pub kind: JointKind<D>,
    /// Anchor on body A, A's frame (relative to A's origin), metres.
    pub anchor_a: Vector<D>,
    /// Anchor on body B, B's frame (relative to B's origin), metres.
    pub anchor_b: Vector<D>,
    /// Reaction force (N) above which the joint breaks; `None`: never.
    pub break_force: Option<Real>,
    /// Reaction torque (N m) of the angular rows above which the joint breaks; `None`: never.
    pub break_torque: Option<Real>,
    /// Whether the two bodies still collide with each other.
    pub collide_connected: bool,
}

impl<const D: usize> Default for JointDesc<D>
where
    Space<D>: Dim<D>,
{
    fn default() -> Self {
        Self::new(JointKind::default())
    }
}

impl<const D: usize> JointDesc<D>
where
    Space<D>: Dim<D>,
{
    /// A joint of the given kind (anything that converts, e.g. a [`RevoluteJoint`]).
    pub fn new(kind: impl Into<JointKind<D>>) -> Self {
        Self {
            kind: kind.into(),
            anchor_a: Vector::zeros(),
            anchor_b: Vector::zeros(),
            break_force: None,
            break_torque: None,
            collide_connected: false,
        }
    }
    /// A fixed joint (weld).
    pub fn fixed() -> Self {
        Self::new(JointKind::Fixed)
    }
    /// A revolute joint (hinge) with default parameters.
    pub fn revolute() -> Self {
        Self::new(RevoluteJoint::default())
    }
    /// A prismatic joint (slider) along `axis` (A's frame).
    pub fn prismatic(axis: Vector<D>) -> Self {
        Self::new(PrismaticJoint::default().axis(axis))
    }
    /// A spherical joint (ball) without a cone limit.
    pub fn spherical() -> Self {
        Self::new(SphericalJoint::default())
    }
    /// A rigid distance joint at the anchors' distance when added.
    pub fn distance() -> Self {
        Self::new(DistanceJoint::default())
    }
    /// A wheel on a suspension along `axis` (A's frame) with the default spring (4 Hz, 0.7),
    /// spinning about the default axle (z).
    pub fn wheel(axis: Vector<D>) -> Self {
        Self::new(WheelJoint::default().axis(axis))
    }
    /// A rope at most `max_length` metres long between the anchors.
    pub fn rope(max_length: Real) -> Self {
        Self::new(RopeJoint {
            max_length: Some(max_length),
        })
    }
    /// Sets the kind.
    pub fn kind(mut self, kind: impl Into<JointKind<D>>) -> Self {
        self.kind = kind.into();
        self
    }
    /// Sets A's anchor (A's frame, metres).
    pub fn anchor_a(mut self, p: Vector<D>) -> Self {
        self.anchor_a = p;
        self
    }
    /// Sets B's anchor (B's frame, metres).
    pub fn anchor_b(mut self, p: Vector<D>) -> Self {
        self.anchor_b = p;
        self
    }
    /// Sets the break force (N).
    pub fn break_force(mut self, f: Real) -> Self {
        self.break_force = Some(f);
        self
    }
    /// Sets the break torque (N m).
    pub fn break_torque(mut self, t: Real) -> Self {
        self.break_torque = Some(t);
        self
    }
    /// Lets (or stops) the two bodies collide with each other.
    pub fn collide_connected(mut self, on: bool) -> Self {
        self.collide_connected = on;
        self
    }

    /// Checks every field; the error names the first bad one.
    pub fn validate(&self) -> Result<(), WorldError> {
        check_finite_all("anchor_a", self.anchor_a.iter())?;
        check_finite_all("anchor_b", self.anchor_b.iter())?;
        if let Some(f) = self.break_force {
            check_positive("break_force", f)?;
        }
        if let Some(t) = self.break_torque {
            check_positive("break_torque", t)?;
        }
        validate_kind(&self.kind)
    }
}

fn check_limits(field: &str, limits: &Option<[Real; 2]>) -> Result<(), WorldError> {
    let Some([lo, hi]) = limits else {
        return Ok(());
    };
    check_finite(&format!("{field}[0]"), *lo)?;
    check_finite(&format!("{field}[1]"), *hi)?;
    if lo > hi {
        return Err(WorldError::invalid(
            field,
            format!("lower limit {lo} is above upper limit {hi}"),
        ));
    }
    Ok(())
}

fn check_motor(field: &str, motor: &Option<Motor>) -> Result<(), WorldError> {
    if let Some(m) = motor {
        check_finite(&format!("{field}.speed"), m.speed)?;
        check_non_negative(&format!("{field}.max_force"), m.max_force)?;
    }
    Ok(())
}

fn check_servo(field: &str, servo: &Option<Servo>) -> Result<(), WorldError> {
    if let Some(s) = servo {
        check_finite(&format!("{field}.target"), s.target)?;
        check_non_negative(&format!("{field}.hertz"), s.hertz)?;
        check_non_negative(&format!("{field}.damping_ratio"), s.damping_ratio)?;
        check_non_negative(&format!("{field}.max_force"), s.max_force)?;
    }
    Ok(())
}

fn check_spring(field: &str, spring: &Option<Spring>) -> Result<(), WorldError> {
    if let Some(s) = spring {
        check_non_negative(&format!("{field}.hertz"), s.hertz)?;
        check_non_negative(&format!("{field}.damping_ratio"), s.damping_ratio)?;
    }
    Ok(())
}

fn check_axis<'a>(field: &str, xs: impl IntoIterator<Item = &'a Real>) -> Result<(), WorldError> {
    let xs: Vec<Real> = xs.into_iter().copied().collect();
    check_finite_all(field, xs.iter())?;
    if xs.iter().map(|x| x * x).sum::<Real>() < 1e-12 {
        return Err(WorldError::invalid(field, "must not be zero"));
    }
    Ok(())
}

fn ang_components<const D: usize>(a: &AngVector<D>) -> Vec<Real>
where
    Space<D>: Dim<D>,
{
    let (basis, n) = angular_basis::<D>();
    basis[..n]
        .iter()
        .map(|b| Space::<D>::ang_dot(b, a))
        .collect()
}

/// The world's angular axes (z in 2D; x, y, z in 3D), from cross products of linear axes.
fn angular_basis<const D: usize>() -> (Vec<AngVector<D>>, usize)
where
    Space<D>: Dim<D>,
{
    let e = |i: usize| {
        let mut v = Vector::<D>::zeros();
        v[i % D] = 1.0;
        v
    };
    if D == 2 {
        (vec![Space::<D>::cross(&e(0), &e(1))], 1)
    } else {
        (
            (0..3)
                .map(|k| Space::<D>::cross(&e(k + 1), &e(k + 2)))
                .collect(),
            3,
        )
    }
}

fn validate_kind<const D: usize>(kind: &JointKind<D>) -> Result<(), WorldError>
where
    Space<D>: Dim<D>,
{
    match kind {
        JointKind::Fixed => Ok(()),
        JointKind::Revolute(r) => {
            check_axis("revolute.axis", ang_components::<D>(&r.axis).iter())?;
            check_limits("revolute.limits", &r.limits)?;
            check_motor("revolute.motor", &r.motor)?;
            check_spring("revolute.spring", &r.spring)?;
            check_servo("revolute.servo", &r.servo)?;
            check_finite("revolute.spring_target", r.spring_target)
        }
        JointKind::Prismatic(p) => {
            check_axis("prismatic.axis", p.axis.iter())?;
            check_limits("prismatic.limits", &p.limits)?;
            check_motor("prismatic.motor", &p.motor)?;
            check_servo("prismatic.servo", &p.servo)
        }
        JointKind::Spherical(s) => {
            check_axis("spherical.cone_axis", s.cone_axis.iter())?;
            if let Some(a) = s.cone_angle {
                check_non_negative("spherical.cone_angle", a)?;
                if a > std::f32::consts::PI {
                    return Err(WorldError::invalid(
                        "spherical.cone_angle",
                        format!("must be at most pi, got {a}"),
                    ));
                }
            }
            Ok(())
        }
        JointKind::Distance(d) => {
            if let Some(l) = d.length {
                check_non_negative("distance.length", l)?;
            }
            check_non_negative("distance.min_length", d.min_length)?;
            check_non_negative("distance.max_length", d.max_length)?;
            if d.min_length > d.max_length {
                return Err(WorldError::invalid(
                    "distance.min_length",
                    format!(
                        "min_length {} is above max_length {}",
                        d.min_length, d.max_length
                    ),
                ));
            }
            check_spring("distance.spring", &d.spring)
        }
        JointKind::Wheel(w) => {
            check_axis("wheel.axis", w.axis.iter())?;
            check_axis("wheel.axle", ang_components::<D>(&w.axle).iter())?;
            check_spring("wheel.spring", &Some(w.spring))?;
            check_limits("wheel.limits", &w.limits)?;
            check_motor("wheel.motor", &w.motor)
        }
        JointKind::Rope(r) => match r.max_length {
            Some(l) => check_non_negative("rope.max_length", l),
            None => Ok(()),
        },
    }
}

/// A joint as the world keeps it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(bound = "")]
pub struct Joint<const D: usize>
where
    Space<D>: Dim<D>,
{
    pub(crate) body_a: BodyHandle,
    pub(crate) body_b: BodyHandle,
    pub(crate) desc: JointDesc<D>,
    /// The solver's state: rest rotation, resolved parameters, warm-start impulses.
    pub(crate) constraint: JointConstraint<D>,
    pub(crate) force: Vector<D>,
    pub(crate) torque: AngVector<D>,
}

impl<const D: usize> Joint<D>
where
    Space<D>: Dim<D>,
{
    /// Body A.
    pub fn body_a(&self) -> BodyHandle {
        self.body_a
    }
    /// Body B.
    pub fn body_b(&self) -> BodyHandle {
        self.body_b
    }
    /// The descriptor it was made from.
    pub fn desc(&self) -> &JointDesc<D> {
        &self.desc
    }
    /// The kind with the values in use (axes normalised, distance length resolved).
    pub fn kind(&self) -> &JointKind<D> {
        &self.constraint.kind
    }
    /// Force the joint applied on B in the last step's final substep, world, N.
    pub fn reaction_force(&self) -> Vector<D> {
        self.force
    }
    /// Torque of the joint's angular rows on B in the last step, world, N m.
    pub fn reaction_torque(&self) -> AngVector<D> {
        self.torque
    }
}

/// A joint that broke in the last step because its reaction exceeded a threshold.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct JointBroken {
    /// The joint's handle (no longer live).
    pub joint: JointHandle,
    /// Body A.
    pub body_a: BodyHandle,
    /// Body B.
    pub body_b: BodyHandle,
    /// Reaction force when it broke, N.
    pub force: Real,
    /// Reaction torque when it broke, N m.
    pub torque: Real,
}

/// The world's joints, the body pairs they keep from colliding, and the breaks of the last step.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
#[serde(bound = "")]
pub(crate) struct JointSet<const D: usize>
where
    Space<D>: Dim<D>,
{
    pub(crate) arena: Arena<Joint<D>, JointHandle>,
    /// Body pairs (lower handle first), sorted, once per joint that disables their
    /// contacts (a list rather than a map so that every serde format can write it).
    no_contact: Vec<(BodyHandle, BodyHandle)>,
    pub(crate) broken: Vec<JointBroken>,
}

fn ordered(a: BodyHandle, b: BodyHandle) -> (BodyHandle, BodyHandle) {
    if a <= b {
        (a, b)
    } else {
        (b, a)
    }
}

impl<const D: usize> JointSet<D>
where
    Space<D>: Dim<D>,
{
    fn insert(&mut self, joint: Joint<D>) -> JointHandle {
        if !joint.desc.collide_connected {
            let key = ordered(joint.body_a, joint.body_b);
            let at = self.no_contact.partition_point(|p| *p <= key);
            self.no_contact.insert(at, key);
        }
        self.arena.insert(joint)
    }

    fn remove(&mut self, h: JointHandle) -> Option<Joint<D>> {
        let j = self.arena.remove(h)?;
        if !j.desc.collide_connected {
            let key = ordered(j.body_a, j.body_b);
            if let Ok(at) = self.no_contact.binary_search(&key) {
                self.no_contact.remove(at);
            }
        }
        Some(j)
    }
}

impl<const D: usize> World<D>
where
    Space<D>: Dim<D>,
{
    /// Joins bodies `a` and `b`. Nothing changes when the descriptor is invalid,
    /// a handle is stale, or `a == b`. Wakes both bodies.
    pub fn add_joint(
        &mut self,
        a: BodyHandle,
        b: BodyHandle,
        desc: &JointDesc<D>,
    ) -> Result<JointHandle, WorldError> {
        let ba = self.bodies.get(a).ok_or(WorldError::NoSuchBody(a))?;
        let bb = self.bodies.get(b).ok_or(WorldError::NoSuchBody(b))?;
        if a == b {
            return Err(WorldError::invalid(
                "body_b",
                "a joint needs two different bodies",
            ));
        }
        desc.validate()?;
        let mut kind = desc.kind.clone();
        let pa = ba.pose * nalgebra::Point::from(desc.anchor_a);
        let pb = bb.pose * nalgebra::Point::from(desc.anchor_b);
        match &mut kind {
            JointKind::Distance(d) if d.length.is_none() => d.length = Some((pb - pa).norm()),
            JointKind::Rope(r) if r.max_length.is_none() => r.max_length = Some((pb - pa).norm()),
            _ => {}
        }
        let reference = ba.pose.rotation.inverse() * bb.pose.rotation;
        let constraint = JointConstraint::new(
            0,
            0,
            desc.anchor_a - ba.mass.center,
            desc.anchor_b - bb.mass.center,
            reference,
            kind,
        );
        let h = self.joints.insert(Joint {
            body_a: a,
            body_b: b,
            desc: desc.clone(),
            constraint,
            force: Vector::zeros(),
            torque: Space::<D>::ang_zero(),
        });
        self.wake(a);
        self.wake(b);
        Ok(h)
    }

    /// Moves the target of joint `h`'s servo (radians for a hinge, metres for a slider) and
    /// wakes its bodies: a door told to open. Refused (field `joint`) for a stale handle or a
    /// joint without a servo, and (field `target`) for a target that is not finite.
    pub fn set_servo_target(&mut self, h: JointHandle, target: Real) -> Result<(), WorldError> {
        check_finite("target", target)?;
        let no_servo = || WorldError::invalid("joint", "no such joint, or it has no servo");
        let j = self.joints.arena.get_mut(h).ok_or_else(no_servo)?;
        for kind in [&mut j.constraint.kind, &mut j.desc.kind] {
            let servo = match kind {
                JointKind::Revolute(r) => r.servo.as_mut(),
                JointKind::Prismatic(p) => p.servo.as_mut(),
                _ => None,
            };
            servo.ok_or_else(no_servo)?.target = target;
        }
        let (a, b) = (j.body_a, j.body_b);
        self.wake(a);
        self.wake(b);
        Ok(())
    }

    /// Removes a joint (waking its bodies); `None` when the handle is stale.
    pub fn remove_joint(&mut self, h: JointHandle) -> Option<Joint<D>> {
        let j = self.joints.remove(h)?;
        self.wake(j.body_a);
        self.wake(j.body_b);
        Some(j)
    }

    /// The joint of `h`, if live.
    pub fn joint(&self, h: JointHandle) -> Option<&Joint<D>> {
        self.joints.arena.get(h)
    }

    /// Joints in handle order.
    pub fn joints(&self) -> impl Iterator<Item = (JointHandle, &Joint<D>)> + '_ {
        self.joints.arena.iter()
    }

    /// Number of joints.
    pub fn joint_count(&self) -> usize {
        self.joints.arena.len()
    }

    /// The joints attached to body `h`, in handle order.
    pub fn joints_of(&self, h: BodyHandle) -> Vec<JointHandle> {
        self.joints
            .arena
            .iter()
            .filter(|(_, j)| j.body_a == h || j.body_b == h)
            .map(|(jh, _)| jh)
            .collect()
    }

    /// Joints that broke in the last step, in handle order.
    pub fn broken_joints(&self) -> &[JointBroken] {
        &self.joints.broken
    }

    /// Removes every joint attached to body `h` (when the body is removed).
    pub(crate) fn remove_joints_of(&mut self, h: BodyHandle) {
        for jh in self.joints_of(h) {
            self.remove_joint(jh);
        }
    }

    /// True when a joint between the two bodies turns their contacts off.
    pub(crate) fn joint_blocks_contact(&self, a: BodyHandle, b: BodyHandle) -> bool {
        !self.joints.no_contact.is_empty()
            && self.joints.no_contact.binary_search(&ordered(a, b)).is_ok()
    }

    /// Step stage: the solver constraints of the joints whose bodies are both in the
    /// solver (`index`: arena slot -> solver index, `usize::MAX` when left out) and not
    /// both immovable, in handle order.
    pub(crate) fn joint_constraints(
        &self,
        index: &[usize],
        solver_bodies: &[SolverBody<D>],
    ) -> Vec<(JointHandle, JointConstraint<D>)> {
        let mut out = Vec::new();
        for (h, j) in self.joints.arena.iter() {
            let (Some(ba), Some(bb)) = (self.bodies.get(j.body_a), self.bodies.get(j.body_b))
            else {
                continue;
            };
            let (ia, ib) = (
                index[j.body_a.0.index as usize],
                index[j.body_b.0.index as usize],
            );
            if ia == usize::MAX || ib == usize::MAX {
                continue;
            }
            if solver_bodies[ia].inv_mass == 0.0 && solver_bodies[ib].inv_mass == 0.0 {
                continue;
            }
            let mut c = j.constraint.clone();
            c.body_a = ia;
            c.body_b = ib;
            c.local_anchor_a = j.desc.anchor_a - ba.mass.center;
            c.local_anchor_b = j.desc.anchor_b - bb.mass.center;
            out.push((h, c));
        }
        out
    }

    /// Step stage after the solver: impulses kept for warm starting, reactions
    /// recorded, and joints over their break thresholds removed and reported.
    pub(crate) fn finish_joints(
        &mut self,
        solved: &[(JointHandle, JointConstraint<D>)],
        bodies: &[SolverBody<D>],
    ) {
        self.joints.broken.clear();
        let inv_h = self.settings.solver.substeps.max(1) as Real / self.settings.dt;
        let mut breaking = Vec::new();
        for (h, c) in solved {
            let (force, torque) = c.reaction(bodies, inv_h);
            let Some(j) = self.joints.arena.get_mut(*h) else {
                continue;
            };
            j.constraint.impulses = c.impulses.clone();
            j.force = force;
            j.torque = torque;
            let (f, t) = (force.norm(), Space::<D>::ang_norm(&torque));
            let over_force = j.desc.break_force.is_some_and(|max| f > max);
            let over_torque = j.desc.break_torque.is_some_and(|max| t > max);
            if over_force || over_torque {
                breaking.push(JointBroken {
                    joint: *h,
                    body_a: j.body_a,
                    body_b: j.body_b,
                    force: f,
                    torque: t,
                });
            }
        }
        for b in &breaking {
            self.remove_joint(b.joint);
        }
        self.joints.broken = breaking;
    }
}

/// The joints as `&mut dyn Constraint` for [`fathom_solver::SolverInput`].
pub(crate) fn as_constraints<const D: usize>(
    joints: &mut [(JointHandle, JointConstraint<D>)],
) -> Vec<&mut dyn Constraint<D>>
where
    Space<D>: Dim<D>,
{
    joints
        .iter_mut()
        .map(|(_, c)| c as &mut dyn Constraint<D>)
        .collect()
}
