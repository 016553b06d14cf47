//! The world: arenas of bodies and colliders, their creation and removal,
//! game-loop access (poses, velocities, forces, impulses, contacts) and the
//! figures a headless run reports (state hash, energy, penetration).
//!
//! Every call that can fail validates everything first and only then
//! changes the world, so an error leaves the world exactly as it was.

use crate::arena::{Arena, BodyHandle, ColliderHandle};
use crate::body::{Body, Collider};
use crate::contacts::{BodyContact, PairContacts};
use crate::desc::{check_ang, BodyDesc, BodyKind, ColliderDesc};
use crate::error::{check_finite_all, check_positive, WorldError};
use crate::mass::MassProperties;
use crate::shape_mass::unit_mass_properties;
use fathom_broadphase::{Broadphase, ProxyKind};
use fathom_math::{Aabb, AngVector, Dim, Pose, Real, Space, Vector};
use fathom_solver::SolverSettings;
use serde::{Deserialize, Serialize};

/// Global parameters of a world.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, bound = "")]
pub struct WorldSettings<const D: usize> {
    /// Gravity, world frame, m/s². Default: 9.81 down the y axis.
    pub gravity: Vector<D>,
    /// Time step, seconds, at most [`MAX_DT`]. Default 1/60.
    pub dt: Real,
    /// Solver tuning (substeps, contact stiffness...).
    pub solver: SolverSettings,
    /// When islands fall asleep (see `islands.rs`).
    pub sleep: crate::islands::SleepSettings,
    /// Manifold reuse distance, metres, at most [`MAX_CONTACT_REUSE`]. A pair of boxes or
    /// half-spaces whose shapes moved less than this relative to each other since the
    /// narrowphase last ran keeps its manifolds, moved with the bodies (`reuse.rs`; Jolt's
    /// body pair cache); a pair of any shapes found apart stays known apart while they move
    /// less than this. The narrowphase reaches this much farther for every pair. 0 queries
    /// every pair every step. Default 1 mm.
    pub contact_reuse: Real,
}

impl<const D: usize> Default for WorldSettings<D> {
    fn default() -> Self {
        let mut gravity = Vector::<D>::zeros();
        gravity[1] = -9.81;
        Self {
            gravity,
            dt: 1.0 / 60.0,
            solver: SolverSettings::default(),
            sleep: crate::islands::SleepSettings::default(),
            contact_reuse: 0.001,
        }
    }
}

/// Most solver substeps a step may take: a step's cost grows with them, and past 64 the
/// soft contacts are already as stiff as the substep can resolve at any sensible `dt`.
pub const MAX_SUBSTEPS: u32 = 64;

/// Longest time step, seconds (10 Hz). A longer step is no simulation a game runs: a body at
/// the default speed cap crosses 100 m in one, and `dt: 1e9` gained energy up to that cap.
pub const MAX_DT: Real = 0.1;

/// Largest [`WorldSettings::contact_reuse`], metres: reused manifolds miss new speculative
/// points within this of the reach, and a longer reach finds points no step needs.
pub const MAX_CONTACT_REUSE: Real = 0.01;

impl<const D: usize> WorldSettings<D> {
    /// Checks every field.
    pub fn validate(&self) -> Result<(), WorldError> {
        check_finite_all("gravity", self.gravity.iter())?;
        check_positive("dt", self.dt)?;
        if self.dt > MAX_DT {
            return Err(WorldError::invalid(
                "dt",
                format!("must be at most {MAX_DT} s (MAX_DT), got {}", self.dt),
            ));
        }
        let s = &self.solver;
        if s.substeps == 0 || s.substeps > MAX_SUBSTEPS {
            return Err(WorldError::invalid(
                "substeps",
                format!("must be 1 to {MAX_SUBSTEPS}, got {}", s.substeps),
            ));
        }
        for (field, v) in [
            ("solver.contact_hertz", s.contact_hertz),
            ("solver.contact_damping_ratio", s.contact_damping_ratio),
            ("solver.joint_hertz", s.joint_hertz),
            ("solver.joint_damping_ratio", s.joint_damping_ratio),
            ("solver.max_push_out_speed", s.max_push_out_speed),
            ("solver.restitution_threshold", s.restitution_threshold),
            ("solver.max_linear_speed", s.max_linear_speed),
            ("solver.max_angular_speed", s.max_angular_speed),
            (
                "solver.max_rotation_per_substep",
                s.max_rotation_per_substep,
            ),
        ] {
            crate::error::check_non_negative(field, v)?;
        }
        crate::error::check_non_negative("contact_reuse", self.contact_reuse)?;
        if self.contact_reuse > MAX_CONTACT_REUSE {
            return Err(WorldError::invalid(
                "contact_reuse",
                format!(
                    "must be at most {MAX_CONTACT_REUSE} m (MAX_CONTACT_REUSE), got {}",
                    self.contact_reuse
                ),
            ));
        }
        self.sleep.validate()?;
        Ok(())
    }
}

/// A physics world in `D` dimensions: bodies, their colliders and joints, stepped by
/// [`World::step`] (see the crate docs for the pipeline).
///
/// Build one with [`World::default`] (gravity 9.81 m/s² down y, `dt` 1/60 s) or
/// [`World::new`], add bodies from [`BodyDesc`]s, step, and read each [`Body`] back by its
/// handle. A 2D box landing on the ground and falling asleep:
///
/// ```
/// use fathom_math::Vector2;
/// use fathom_world::{BodyDesc, ColliderDesc, Shape, World2};
///
/// let mut world = World2::default();
/// world.add_body(&BodyDesc::fixed()
///     .collider(ColliderDesc::new(Shape::half_space(Vector2::y(), 0.0)?)))?;
/// let crate_ = world.add_body(&BodyDesc::dynamic()
///     .position(Vector2::new(0.0, 3.0))
///     .collider(ColliderDesc::new(Shape::cuboid(Vector2::new(0.5, 0.25))?)))?;
/// for _ in 0..180 {
///     world.step(); // three seconds
/// }
/// let y = world.body(crate_).unwrap().position().y;
/// assert!((y - 0.25).abs() < 0.005); // on its half height, within TOUCH_SLOP (5 mm)
/// assert!(world.is_sleeping(crate_)); // calm for half a second: no more work per step
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// In 3D, without gravity, an impulse on a 2 kg ball: it coasts at `j / m`.
///
/// ```
/// use fathom_math::Vector3;
/// use fathom_world::{BodyDesc, ColliderDesc, Shape, World3, WorldSettings};
///
/// let no_gravity = WorldSettings { gravity: Vector3::zeros(), ..Default::default() };
/// let mut world = World3::new(no_gravity)?;
/// let ball = world.add_body(&BodyDesc::dynamic()
///     .collider(ColliderDesc::new(Shape::ball(0.5)?).mass(2.0)))?;
/// world.apply_impulse(ball, Vector3::new(4.0, 0.0, 0.0))?; // 4 N s
/// for _ in 0..30 {
///     world.step(); // half a second
/// }
/// let body = world.body(ball).unwrap();
/// assert!((body.linear_velocity().x - 2.0).abs() < 1e-5);
/// assert!((body.position().x - 1.0).abs() < 1e-4); // 2 m/s for 0.5 s
///
/// // Bad settings are refused, naming the field.
/// let err = World3::new(WorldSettings { dt: 0.0, ..Default::default() }).err().unwrap();
/// assert_eq!(err.field(), Some("dt"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// Saving and restoring the whole state: [`World::snapshot`] and [`World::restore`]
/// (example at [`World::state_hash`]). Contacts and sensors of the last step:
/// [`World::drain_events`].
/// `Deserialize` is written by hand (`snapshot/fields.rs`): decoding checks the world.
#[derive(Serialize)]
#[serde(bound = "")]
pub struct World<const D: usize>
where
    Space<D>: Dim<D>,
{
    pub(crate) settings: WorldSettings<D>,
    pub(crate) bodies: Arena<Body<D>, BodyHandle>,
    pub(crate) colliders: Arena<Collider<D>, ColliderHandle>,
    /// Manifolds of the last step, sorted by pair key.
    pub(crate) contacts: Vec<PairContacts<D>>,
    /// Candidate pairs from the broadphase (collider keys, sorted).
    #[serde(skip)]
    pub(crate) pairs: Vec<(u64, u64)>,
    #[serde(skip)]
    pub(crate) broadphase: Broadphase<D>,
    /// False after deserialisation: the broadphase is rebuilt before the next step.
    #[serde(skip)]
    pub(crate) broadphase_ready: bool,
    pub(crate) step_count: u64,
    /// Joints, the contacts they turn off, last step's breaks (see `joints.rs`).
    pub(crate) joints: crate::joints::JointSet<D>,
    /// Islands and sleeping (see `islands.rs`).
    pub(crate) sleep: crate::islands::SleepState,
    /// Events of the last step (see `events.rs`).
    pub(crate) events: Vec<crate::events::WorldEvent<D>>,
    /// Pairs touching or overlapping (sensors) after the last step, sorted by pair.
    pub(crate) touching: Vec<crate::events::Touch>,
    /// Candidate pairs last found apart, sorted by pair (`reuse.rs`).
    pub(crate) separated: Vec<crate::reuse::SeparatedPair<D>>,
    /// The game's pair filter and contact modifier (code, so never serialised).
    #[serde(skip)]
    pub(crate) hooks: crate::filter::Hooks<D>,
    /// Bodies frozen by this step's guard, in handle order (turned into events at the end
    /// of the step, so never serialised).
    #[serde(skip)]
    pub(crate) frozen_now: Vec<BodyHandle>,
    /// True when the last step solved no pair and nothing has woken or been removed since:
    /// every cached pair then sleeps, and a step that solves none leaves the cache and the
    /// touching set as they are (`cache_contacts`). False after deserialisation.
    #[serde(skip)]
    pub(crate) cache_settled: bool,
    /// The step's reusable buffers (`scratch.rs`).
    #[serde(skip)]
    pub(crate) scratch: crate::scratch::StepScratch<D>,
    /// What the last step cost (`profile.rs`).
    #[serde(skip)]
    pub(crate) profile: crate::profile::StepProfile,
    /// Each body's sweep size by arena index (`ccd_stage.rs`), kept while no body's
    /// colliders or mass change.
    #[serde(skip)]
    pub(crate) sweep_sizes: Vec<Option<(Real, Real)>>,
    /// Each collider's fixed sizes by arena index, kept with the sweep sizes.
    #[serde(skip)]
    pub(crate) collider_sizes: Vec<crate::ccd_stage::ColliderSizes>,
    /// False after a body's colliders or mass changed, and after deserialisation.
    #[serde(skip)]
    pub(crate) sweep_sizes_ready: bool,
}

/// A summary, not the whole state (a world holds thousands of bodies): the settings, the
/// step count and how many bodies, colliders, joints, pairs and contact points there are.
impl<const D: usize> std::fmt::Debug for World<D>
where
    Space<D>: Dim<D>,
{
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("World")
            .field("settings", &self.settings)
            .field("step_count", &self.step_count)
            .field("bodies", &self.body_count())
            .field("awake_bodies", &self.awake_body_count())
            .field("colliders", &self.collider_count())
            .field("joints", &self.joint_count())
            .field("candidate_pairs", &self.candidate_pair_count())
            .field("contact_points", &self.contact_count())
            .finish()
    }
}

/// A 2D world.
pub type World2 = World<2>;
/// A 3D world.
pub type World3 = World<3>;

impl<const D: usize> Default for World<D>
where
    Space<D>: Dim<D>,
{
    fn default() -> Self {
        Self::with_valid_settings(WorldSettings::default())
    }
}

impl<const D: usize> World<D>
where
    Space<D>: Dim<D>,
{
    /// An empty world with the given settings.
    pub fn new(settings: WorldSettings<D>) -> Result<Self, WorldError> {
        settings.validate()?;
        Ok(Self::with_valid_settings(settings))
    }

    pub(crate) fn with_valid_settings(settings: WorldSettings<D>) -> Self {
        Self {
            settings,
            bodies: Arena::new(),
            colliders: Arena::new(),
            contacts: Vec::new(),
            pairs: Vec::new(),
            broadphase: Broadphase::new(),
            broadphase_ready: true,
            step_count: 0,
            joints: Default::default(),
            sleep: Default::default(),
            events: Vec::new(),
            touching: Vec::new(),
            separated: Vec::new(),
            hooks: crate::filter::Hooks::default(),
            frozen_now: Vec::new(),
            cache_settled: false,
            scratch: Default::default(),
            profile: Default::default(),
            sweep_sizes: Vec::new(),
            collider_sizes: Vec::new(),
            sweep_sizes_ready: false,
        }
    }

    /// The settings.
    pub fn settings(&self) -> &WorldSettings<D> {
        &self.settings
    }

    /// Replaces the settings (validated first).
    pub fn set_settings(&mut self, settings: WorldSettings<D>) -> Result<(), WorldError> {
        settings.validate()?;
        self.settings = settings;
        self.cache_settled = false;
        Ok(())
    }

    /// Sets gravity (world, m/s²).
    pub fn set_gravity(&mut self, g: Vector<D>) -> Result<(), WorldError> {
        check_finite_all("gravity", g.iter())?;
        self.settings.gravity = g;
        Ok(())
    }

    /// Number of steps taken (wrapping after `u64::MAX`, which a snapshot may hold).
    pub fn step_count(&self) -> u64 {
        self.step_count
    }

    // ---- creation and removal ----

    /// Creates a body and its colliders. Nothing is created when anything is invalid.
    pub fn add_body(&mut self, desc: &BodyDesc<D>) -> Result<BodyHandle, WorldError> {
        desc.validate()?;
        let prepared = desc
            .colliders
            .iter()
            .enumerate()
            .map(|(i, c)| {
                collider_mass(c, desc.kind).map_err(|e| e.prefixed(&format!("colliders[{i}]")))
            })
            .collect::<Result<Vec<_>, _>>()?;
        let pose = desc.pose();
        for (i, c) in desc.colliders.iter().enumerate() {
            check_collider_box(c, &pose).map_err(|e| e.prefixed(&format!("colliders[{i}]")))?;
        }
        let total = desc
            .colliders
            .iter()
            .zip(&prepared)
            .fold(MassProperties::zero(), |acc, (c, m)| {
                acc.add(&m.0.transformed(&c.local_pose()))
            });
        check_body_mass(&total, desc.kind)?;
        let body = Body {
            kind: desc.kind,
            pose,
            linear_velocity: if desc.kind == BodyKind::Fixed {
                Vector::zeros()
            } else {
                desc.linear_velocity
            },
            angular_velocity: if desc.kind == BodyKind::Fixed {
                Space::<D>::ang_zero()
            } else {
                desc.angular_velocity
            },
            linear_damping: desc.linear_damping,
            angular_damping: desc.angular_damping,
            gravity_scale: desc.gravity_scale,
            force: Vector::zeros(),
            torque: Space::<D>::ang_zero(),
            mass: MassProperties::zero(),
            inv_mass: 0.0,
            inertia_local: Space::<D>::inertia_zero(),
            inv_inertia_local: Space::<D>::inertia_zero(),
            colliders: Vec::new(),
            ccd: desc.ccd,
            frozen: false,
            locked_axes: desc.locked_axes,
            kinematic_target: None,
        };
        let handle = self.bodies.insert(body);
        for (c, mass) in desc.colliders.iter().zip(prepared) {
            self.insert_collider(handle, c, mass.0, mass.1);
        }
        self.update_mass(handle);
        Ok(handle)
    }

    /// Attaches a collider to `body`. Nothing changes when it is invalid.
    pub fn add_collider(
        &mut self,
        body: BodyHandle,
        desc: &ColliderDesc<D>,
    ) -> Result<ColliderHandle, WorldError> {
        let kind = self
            .bodies
            .get(body)
            .ok_or(WorldError::NoSuchBody(body))?
            .kind;
        desc.validate()?;
        let (mass, density) = collider_mass(desc, kind)?;
        let b = self.bodies.get(body).expect("checked above");
        check_collider_box(desc, &b.pose)?;
        check_body_mass(&b.mass.add(&mass.transformed(&desc.local_pose())), kind)?;
        let h = self.insert_collider(body, desc, mass, density);
        self.update_mass(body);
        self.wake(body);
        Ok(h)
    }

    fn insert_collider(
        &mut self,
        body: BodyHandle,
        desc: &ColliderDesc<D>,
        mass: MassProperties<D>,
        density: Real,
    ) -> ColliderHandle {
        let b = &self.bodies.get(body).expect("checked by the caller");
        let local_pose = desc.local_pose();
        let world_pose = b.pose * local_pose;
        let kind = if b.kind == BodyKind::Fixed {
            ProxyKind::Static
        } else {
            ProxyKind::Dynamic
        };
        let collider = Collider {
            body,
            local_pose,
            shape: desc.shape.clone(),
            friction: desc.friction,
            restitution: desc.restitution,
            margin: desc.margin,
            mass: mass.transformed(&local_pose),
            world_pose,
            aabb: Aabb::EMPTY,
            sensor: desc.sensor,
            groups: desc.groups,
            force_event_threshold: desc.force_event_threshold,
            density,
        };
        let h = self.colliders.insert(collider);
        let aabb = crate::pipeline::collider_aabb(
            &self.colliders.get(h).expect("just inserted").shape,
            &world_pose,
            desc.margin,
        );
        let c = self.colliders.get_mut(h).expect("just inserted");
        c.aabb = aabb;
        if self.broadphase_ready {
            crate::pipeline::insert_proxy(&mut self.broadphase, h, c, kind);
        }
        self.bodies
            .get_mut(body)
            .expect("checked by the caller")
            .colliders
            .push(h);
        h
    }

    /// Recomputes a body's mass properties from its colliders.
    pub(crate) fn update_mass(&mut self, h: BodyHandle) {
        self.sweep_sizes_ready = false;
        let total = {
            let b = self.bodies.get(h).expect("live body");
            b.colliders
                .iter()
                .filter_map(|c| self.colliders.get(*c))
                .fold(MassProperties::zero(), |acc, c| acc.add(&c.mass))
        };
        let b = self.bodies.get_mut(h).expect("live body");
        b.mass = total;
        b.inertia_local = total.inertia();
        if b.kind != BodyKind::Dynamic {
            b.inv_mass = 0.0;
            b.inv_inertia_local = Space::<D>::inertia_zero();
        } else if total.mass > 0.0 {
            b.inv_mass = 1.0 / total.mass;
            b.inv_inertia_local = Space::<D>::inertia_inverse(&b.inertia_local);
        } else {
            // A dynamic body without mass (no colliders, zero density) gets 1 kg at its
            // origin and does not rotate, as in Box2D.
            b.mass = MassProperties {
                mass: 1.0,
                ..MassProperties::zero()
            };
            b.inv_mass = 1.0;
            b.inv_inertia_local = Space::<D>::inertia_zero();
        }
    }

    /// Removes a body, its colliders and its joints (waking its island); `None` when the
    /// handle is stale.
    pub fn remove_body(&mut self, h: BodyHandle) -> Option<Body<D>> {
        self.wake(h);
        self.remove_joints_of(h);
        let body = self.bodies.remove(h)?;
        for c in &body.colliders {
            self.detach_collider(*c);
        }
        Some(body)
    }

    /// Removes a collider (the body's mass is recomputed); `None` when the handle is stale.
    pub fn remove_collider(&mut self, h: ColliderHandle) -> Option<Collider<D>> {
        let c = self.detach_collider(h)?;
        if let Some(b) = self.bodies.get_mut(c.body) {
            b.colliders.retain(|x| *x != h);
            self.update_mass(c.body);
            self.wake(c.body);
        }
        Some(c)
    }

    fn detach_collider(&mut self, h: ColliderHandle) -> Option<Collider<D>> {
        let c = self.colliders.remove(h)?;
        let key = h.0.to_bits();
        if self.broadphase_ready {
            // The key was inserted with the collider; a failure here would be a broadphase bug.
            let _ = self.broadphase.remove(key);
        }
        self.pairs.retain(|(a, b)| *a != key && *b != key);
        self.contacts.retain(|p| p.a != h && p.b != h);
        self.separated.retain(|p| p.a != h && p.b != h);
        self.cache_settled = false;
        Some(c)
    }

    // ---- lookups ----

    /// The body of `h`, if live.
    pub fn body(&self, h: BodyHandle) -> Option<&Body<D>> {
        self.bodies.get(h)
    }
    /// The collider of `h`, if live.
    pub fn collider(&self, h: ColliderHandle) -> Option<&Collider<D>> {
        self.colliders.get(h)
    }
    /// Bodies in handle order.
    pub fn bodies(&self) -> impl Iterator<Item = (BodyHandle, &Body<D>)> + '_ {
        self.bodies.iter()
    }
    /// Colliders in handle order.
    pub fn colliders(&self) -> impl Iterator<Item = (ColliderHandle, &Collider<D>)> + '_ {
        self.colliders.iter()
    }
    /// Number of bodies.
    pub fn body_count(&self) -> usize {
        self.bodies.len()
    }
    /// Number of colliders.
    pub fn collider_count(&self) -> usize {
        self.colliders.len()
    }

    // ---- game-loop access ----

    pub(crate) fn body_mut(&mut self, h: BodyHandle) -> Result<&mut Body<D>, WorldError> {
        self.bodies.get_mut(h).ok_or(WorldError::NoSuchBody(h))
    }

    /// Sets the pose of a body's origin (a teleport: contacts are found anew next step).
    pub fn set_pose(&mut self, h: BodyHandle, pose: Pose<D>) -> Result<(), WorldError> {
        self.check_pose(h, &pose, "pose")?;
        let b = self.body_mut(h)?;
        b.pose = pose;
        // A body driven by poses stays where it was put.
        if b.kinematic_target.is_some() {
            b.kinematic_target = Some(pose);
        }
        self.refresh_collider_poses(h);
        self.wake(h);
        Ok(())
    }

    /// Checks that body `h` may take `pose` (called `field` in the error): finite, and its
    /// colliders' world boxes finite there.
    pub(crate) fn check_pose(
        &self,
        h: BodyHandle,
        pose: &Pose<D>,
        field: &str,
    ) -> Result<(), WorldError> {
        check_finite_all(
            &format!("{field}.translation"),
            pose.translation.vector.iter(),
        )?;
        let m = Space::<D>::rotation_matrix(&pose.rotation);
        check_finite_all(&format!("{field}.rotation"), m.iter())?;
        let b = self.bodies.get(h).ok_or(WorldError::NoSuchBody(h))?;
        for c in b.colliders.iter().filter_map(|c| self.colliders.get(*c)) {
            let aabb = crate::pipeline::collider_aabb(&c.shape, &(pose * c.local_pose), c.margin);
            if !box_is_finite(&aabb) {
                return Err(WorldError::invalid(
                    format!("{field}.translation"),
                    "a collider's world box would overflow f32 there",
                ));
            }
        }
        Ok(())
    }

    /// After a teleport: collider poses and boxes follow the body at once.
    fn refresh_collider_poses(&mut self, h: BodyHandle) {
        let b = self.bodies.get(h).expect("live body");
        for &c in &b.colliders {
            let col = self
                .colliders
                .get_mut(c)
                .expect("attached collider is live");
            col.world_pose = b.pose * col.local_pose;
            col.aabb = crate::pipeline::collider_aabb(&col.shape, &col.world_pose, col.margin);
            if self.broadphase_ready {
                // The key was inserted with the collider and the box is finite.
                let _ = self.broadphase.update(c.0.to_bits(), col.aabb);
            }
        }
    }

    /// Sets the velocity of the centre of mass (world, m/s); ignored for static bodies.
    pub fn set_linear_velocity(&mut self, h: BodyHandle, v: Vector<D>) -> Result<(), WorldError> {
        check_finite_all("linear_velocity", v.iter())?;
        let b = self.body_mut(h)?;
        if b.kind != BodyKind::Fixed {
            b.linear_velocity = v;
            b.kinematic_target = None;
        }
        self.wake(h);
        Ok(())
    }

    /// Sets the angular velocity (world, rad/s); ignored for static bodies.
    pub fn set_angular_velocity(
        &mut self,
        h: BodyHandle,
        w: AngVector<D>,
    ) -> Result<(), WorldError> {
        check_ang::<D>("angular_velocity", &w)?;
        let b = self.body_mut(h)?;
        if b.kind != BodyKind::Fixed {
            b.angular_velocity = w;
            b.kinematic_target = None;
        }
        self.wake(h);
        Ok(())
    }

    /// Adds a force (world, N) through the centre of mass for the next step.
    pub fn apply_force(&mut self, h: BodyHandle, f: Vector<D>) -> Result<(), WorldError> {
        check_finite_all("force", f.iter())?;
        let b = self.body_mut(h)?;
        let total = b.force + f;
        stays_finite::<D>("force", &total, &b.torque)?;
        b.force = total;
        self.wake(h);
        Ok(())
    }

    /// Adds a torque (world, N m) for the next step.
    pub fn apply_torque(&mut self, h: BodyHandle, t: AngVector<D>) -> Result<(), WorldError> {
        check_ang::<D>("torque", &t)?;
        let b = self.body_mut(h)?;
        let total = b.torque + t;
        stays_finite::<D>("torque", &b.force, &total)?;
        b.torque = total;
        self.wake(h);
        Ok(())
    }

    /// Adds a force (world, N) acting at the world point `p` for the next step.
    pub fn apply_force_at_point(
        &mut self,
        h: BodyHandle,
        f: Vector<D>,
        p: Vector<D>,
    ) -> Result<(), WorldError> {
        check_finite_all("force", f.iter())?;
        check_finite_all("point", p.iter())?;
        let b = self.body_mut(h)?;
        let r = p - b.center_of_mass();
        let (force, torque) = (b.force + f, b.torque + Space::<D>::cross(&r, &f));
        stays_finite::<D>("force", &force, &torque)?;
        (b.force, b.torque) = (force, torque);
        self.wake(h);
        Ok(())
    }

    /// Applies an impulse (world, N s) through the centre of mass now (dynamic bodies only).
    pub fn apply_impulse(&mut self, h: BodyHandle, j: Vector<D>) -> Result<(), WorldError> {
        check_finite_all("impulse", j.iter())?;
        let b = self.body_mut(h)?;
        let v = b.linear_velocity + j * b.inv_mass;
        stays_finite::<D>("impulse", &v, &b.angular_velocity)?;
        b.linear_velocity = v;
        self.wake(h);
        Ok(())
    }

    /// Applies an angular impulse (world, N m s) now (dynamic bodies only).
    pub fn apply_angular_impulse(
        &mut self,
        h: BodyHandle,
        j: AngVector<D>,
    ) -> Result<(), WorldError> {
        check_ang::<D>("angular_impulse", &j)?;
        let b = self.body_mut(h)?;
        let inv_i = Space::<D>::inertia_rotated(&b.inv_inertia_local, &b.pose.rotation);
        let w = b.angular_velocity + Space::<D>::inertia_apply(&inv_i, &j);
        stays_finite::<D>("angular_impulse", &b.linear_velocity, &w)?;
        b.angular_velocity = w;
        self.wake(h);
        Ok(())
    }

    /// Applies an impulse (world, N s) at the world point `p` now (dynamic bodies only).
    pub fn apply_impulse_at_point(
        &mut self,
        h: BodyHandle,
        j: Vector<D>,
        p: Vector<D>,
    ) -> Result<(), WorldError> {
        check_finite_all("impulse", j.iter())?;
        check_finite_all("point", p.iter())?;
        let b = self.body_mut(h)?;
        let r = p - b.center_of_mass();
        let inv_i = Space::<D>::inertia_rotated(&b.inv_inertia_local, &b.pose.rotation);
        let v = b.linear_velocity + j * b.inv_mass;
        let w = b.angular_velocity + Space::<D>::inertia_apply(&inv_i, &Space::<D>::cross(&r, &j));
        stays_finite::<D>("impulse", &v, &w)?;
        (b.linear_velocity, b.angular_velocity) = (v, w);
        self.wake(h);
        Ok(())
    }

    /// The current contacts (manifolds of the last step) of body `h`, in pair order,
    /// with normals pointing away from `h`. Empty for a stale handle.
    pub fn contacts_of(&self, h: BodyHandle) -> Vec<BodyContact<D>> {
        if !self.bodies.contains(h) {
            return Vec::new();
        }
        let mut out = Vec::new();
        for pair in &self.contacts {
            let (Some(ca), Some(cb)) = (self.colliders.get(pair.a), self.colliders.get(pair.b))
            else {
                continue;
            };
            let side = if ca.body == h {
                Some((false, cb.body))
            } else if cb.body == h {
                Some((true, ca.body))
            } else {
                None
            };
            if let Some((flip, other)) = side {
                out.extend(
                    pair.manifolds
                        .iter()
                        .map(|m| BodyContact::from_pair(pair, m, other, flip)),
                );
            }
        }
        out
    }

    /// Every pair's manifolds of the last step, sorted by collider pair.
    pub fn contact_pairs(&self) -> &[PairContacts<D>] {
        &self.contacts
    }
}

/// Refuses a call whose finite input would still make a body's linear or angular quantity
/// non-finite (an impulse of 3e38 applied twice, or 1e33 on a 1e-6 kg body), so the body is
/// left as it was.
fn stays_finite<const D: usize>(
    field: &str,
    linear: &Vector<D>,
    angular: &AngVector<D>,
) -> Result<(), WorldError>
where
    Space<D>: Dim<D>,
{
    if linear.iter().all(|x| x.is_finite()) && Space::<D>::ang_is_finite(angular) {
        Ok(())
    } else {
        Err(WorldError::invalid(
            field,
            "would make the body's velocity, force or torque non-finite",
        ))
    }
}

/// Every body's total mass must be finite (a fixed body's too: it is reported, saved and
/// counted in kinetic energy); a dynamic body's must also invert to finite inverse mass and
/// inertia (a density of 1e-40 would give 1/m = inf).
fn check_body_mass<const D: usize>(
    total: &MassProperties<D>,
    kind: BodyKind,
) -> Result<(), WorldError>
where
    Space<D>: Dim<D>,
{
    let overflow = || {
        WorldError::invalid(
            "mass",
            "the body's total mass or inertia (or their inverses) overflow f32",
        )
    };
    if !total.is_finite() {
        return Err(overflow());
    }
    if kind != BodyKind::Dynamic || total.mass <= 0.0 {
        return Ok(());
    }
    let inv = Space::<D>::inertia_inverse(&total.inertia());
    // Every angular axis is the cross product of two coordinate axes (one pair in 2D).
    let axis = |i: usize| Vector::<D>::from_fn(|r, _| if r == i { 1.0 } else { 0.0 });
    let inertia_finite = (0..D).all(|i| {
        (i + 1..D).all(|j| {
            let w = Space::<D>::cross(&axis(i), &axis(j));
            Space::<D>::ang_is_finite(&Space::<D>::inertia_apply(&inv, &w))
        })
    });
    if (1.0 / total.mass).is_finite() && inertia_finite {
        Ok(())
    } else {
        Err(overflow())
    }
}

fn box_is_finite<const D: usize>(aabb: &Aabb<D>) -> bool {
    aabb.min
        .iter()
        .chain(aabb.max.iter())
        .all(|x| x.is_finite())
}

/// The collider's world box at the body pose `body`: its shape must hold a point (an
/// intersection of disjoint parts is empty) and the box must be finite (the broadphase and
/// every query need finite boxes).
fn check_collider_box<const D: usize>(
    desc: &ColliderDesc<D>,
    body: &Pose<D>,
) -> Result<(), WorldError>
where
    Space<D>: Dim<D>,
{
    use fathom_sdf::Sdf;
    if desc.shape.bounds().is_empty() {
        return Err(WorldError::invalid(
            "shape",
            "the shape is empty (e.g. an intersection of disjoint parts)",
        ));
    }
    let aabb =
        crate::pipeline::collider_aabb(&desc.shape, &(body * desc.local_pose()), desc.margin);
    if box_is_finite(&aabb) && !aabb.is_empty() {
        Ok(())
    } else {
        Err(WorldError::invalid(
            "shape",
            format!("the collider's world box overflows f32 ({aabb:?}): too large or too far out"),
        ))
    }
}

/// A collider's mass properties in its own frame and its density, checking that a dynamic
/// body gets finite mass.
pub(crate) fn collider_mass<const D: usize>(
    desc: &ColliderDesc<D>,
    kind: BodyKind,
) -> Result<(MassProperties<D>, Real), WorldError>
where
    Space<D>: Dim<D>,
{
    let unit = unit_mass_properties(&desc.shape);
    let unit = match (unit, kind) {
        (Some(u), _) => u,
        (None, BodyKind::Dynamic) => {
            return Err(WorldError::invalid(
                "shape",
                "the shape has no finite mass (a half-space, a heightfield: terrain); attach it to a static or kinematic body",
            ))
        }
        (None, _) => return Ok((MassProperties::zero(), desc.density)),
    };
    let (field, props, density) = match desc.mass {
        Some(m) if unit.mass > 0.0 => ("mass", unit.scaled(m / unit.mass), m / unit.mass),
        Some(_) => {
            return Err(WorldError::invalid(
                "mass",
                "the shape has no volume to carry a mass",
            ))
        }
        None => ("density", unit.scaled(desc.density), desc.density),
    };
    // Any kind: a fixed body's mass is reported and saved too.
    if !props.is_finite() {
        return Err(WorldError::invalid(
            field,
            "the collider's mass or inertia overflows f32 (shape or density too large)",
        ));
    }
    Ok((props, density))
}
