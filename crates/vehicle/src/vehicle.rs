//! The vehicle: a chassis body in a world and the per-step wheel update.
//!
//! [`Vehicle::step`] runs before each `World::step`. For every wheel it casts a
//! sphere of the wheel's radius from the suspension mount along the suspension
//! (the chassis excluded); the hit gives the suspension length, the contact
//! point and normal. The suspension (spring plus damper, never pulling) pushes
//! along the contact normal at the contact, the tyre (`tyre.rs`) adds forces in
//! the contact plane, and the equal and opposite forces go to a dynamic body
//! under the wheel. All forces are world-frame and act for the next step.
//!
//! A braked wheel that has (nearly) stopped on the ground holds on to its
//! contact point like static friction: a spring-damper in the contact plane,
//! tuned from the chassis' effective mass so that it removes the sliding speed
//! in one step and a fraction of the offset, up to `μ N`. Without it a parked
//! car would creep, since a slip-based tyre only pushes back once it slides.

use crate::desc::VehicleDesc;
use crate::error::VehicleError;
use crate::frame::{unit, Axes};
use crate::input::VehicleInputs;
use crate::tyre::{self, TyreStep};
use fathom_math::{AngularInertia, Dim, Pose, Real, Space, Vector};
use fathom_world::{Body, BodyHandle, ColliderHandle, QueryFilter, World};
use nalgebra::Translation;

/// Below this sliding speed, m/s, a braked wheel sticks to the ground.
pub const STICK_SPEED: Real = 0.3;
/// Fraction of a sticking wheel's offset from its anchor removed per step.
const STICK_STIFFNESS: Real = 0.2;
/// The bump stop is this many times stiffer than the spring.
const BUMP_STOP_FACTOR: Real = 10.0;
/// A hit is refined against its tangent plane when that moves it at most this far, m.
const REFINE_WINDOW: Real = 5.0e-3;

/// What one wheel did in the last [`Vehicle::step`] (for the game and the viewer).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WheelState<const D: usize> {
    /// The wheel's cast hit the ground.
    pub in_contact: bool,
    /// Mount to wheel centre, metres (`rest_length` in the air, never below
    /// `rest_length - travel`).
    pub suspension_length: Real,
    /// `rest_length` minus the cast's free length, metres (may exceed `travel`
    /// when the bump stop is hit; 0 in the air).
    pub compression: Real,
    /// Rate of compression, m/s (positive while compressing).
    pub compression_rate: Real,
    /// Steering angle about the car's up axis, radians (positive left).
    pub steer_angle: Real,
    /// Accumulated spin angle, radians (positive rolling forward).
    pub spin_angle: Real,
    /// Spin rate, rad/s.
    pub spin_rate: Real,
    /// Longitudinal slip ratio.
    pub slip_ratio: Real,
    /// Slip angle, radians.
    pub slip_angle: Real,
    /// The brake held the wheel still.
    pub locked: bool,
    /// Normal force of the suspension on the chassis, N.
    pub suspension_force: Real,
    /// Tyre force along the wheel's heading, N.
    pub longitudinal_force: Real,
    /// Tyre force across the heading (left positive), N.
    pub lateral_force: Real,
    /// Contact point on the ground, world frame (meaningful when in contact).
    pub contact_point: Vector<D>,
    /// Ground normal there, world frame, unit.
    pub contact_normal: Vector<D>,
    /// The collider under the wheel.
    pub ground_collider: Option<ColliderHandle>,
    /// Its body.
    pub ground: Option<BodyHandle>,
    /// Static-friction anchor: the ground body and the point in its frame.
    anchor: Option<(BodyHandle, Vector<D>)>,
}

impl<const D: usize> WheelState<D> {
    fn new(rest_length: Real) -> Self {
        Self {
            in_contact: false,
            suspension_length: rest_length,
            compression: 0.0,
            compression_rate: 0.0,
            steer_angle: 0.0,
            spin_angle: 0.0,
            spin_rate: 0.0,
            slip_ratio: 0.0,
            slip_angle: 0.0,
            locked: false,
            suspension_force: 0.0,
            longitudinal_force: 0.0,
            lateral_force: 0.0,
            contact_point: Vector::zeros(),
            contact_normal: Vector::zeros(),
            ground_collider: None,
            ground: None,
            anchor: None,
        }
    }
}

/// A wheel's cast result this step.
#[derive(Clone, Copy, Debug)]
struct Contact<const D: usize> {
    /// Free length of the cast (mount to wheel centre at contact), metres.
    length: Real,
    point: Vector<D>,
    normal: Vector<D>,
    collider: ColliderHandle,
    body: BodyHandle,
}

/// The chassis' state read once per step.
struct ChassisNow<const D: usize>
where
    Space<D>: Dim<D>,
{
    body: Body<D>,
    inv_inertia: AngularInertia<D>,
}

impl<const D: usize> ChassisNow<D>
where
    Space<D>: Dim<D>,
{
    /// Effective mass of the chassis at world point `p` along unit `t`, kg.
    fn effective_mass(&self, p: &Vector<D>, t: &Vector<D>) -> Real {
        let r = p - self.body.center_of_mass();
        let rt = Space::<D>::cross(&r, t);
        let ang = Space::<D>::ang_dot(&rt, &Space::<D>::inertia_apply(&self.inv_inertia, &rt));
        1.0 / (self.body.inv_mass() + ang.max(0.0))
    }
}

/// A vehicle built into a world: the chassis handle, the validated description,
/// the inputs and each wheel's state.
///
/// A car on flat ground at full throttle for two seconds. Only the rear wheels drive and
/// they carry about half the weight, so grip (μ = 1) lets it gain about `μ g / 2` per
/// second, and never more than `μ g`.
///
/// ```
/// use fathom_math::Vector3;
/// use fathom_vehicle::{Vehicle3, VehicleDesc, VehicleInputs};
/// use fathom_world::{BodyDesc, ColliderDesc, Shape, World3};
///
/// let mut world = World3::default();
/// world.add_body(&BodyDesc::fixed()
///     .collider(ColliderDesc::new(Shape::half_space(Vector3::y(), 0.0)?)))?;
/// let desc = VehicleDesc::car(1200.0).at(Vector3::new(0.0, 1.0, 0.0));
/// let mut car = Vehicle3::new(&mut world, &desc)?;
/// car.set_inputs(VehicleInputs::full_throttle())?;
/// for _ in 0..120 {
///     car.step(&mut world)?; // wheel forces first, then the world's step
///     world.step();
/// }
/// assert!(car.wheels().iter().all(|w| w.in_contact));
/// let speed = car.forward_speed(&world).unwrap();
/// let grip_limit = 9.81 * 2.0; // μ g t, all the weight on driven wheels
/// assert!(speed > 0.4 * grip_limit && speed < grip_limit);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct Vehicle<const D: usize>
where
    Space<D>: Dim<D>,
{
    desc: VehicleDesc<D>,
    axes: Axes<D>,
    chassis: BodyHandle,
    suspension_dirs: Vec<Vector<D>>,
    wheels: Vec<WheelState<D>>,
    inputs: VehicleInputs,
    gear: usize,
    engine_rpm: Real,
    /// Position along forward of the non-steered wheels' axle (or the rearmost wheel), m.
    rear_axle: Real,
    /// Lateral position of the car's centre line, m.
    centre_line: Real,
}

impl<const D: usize> Vehicle<D>
where
    Space<D>: Dim<D>,
{
    /// Validates `desc` and creates the chassis body in `world`.
    pub fn new(world: &mut World<D>, desc: &VehicleDesc<D>) -> Result<Self, VehicleError> {
        desc.validate()?;
        let axes = Axes::new(&desc.forward, &desc.up)?;
        let chassis = world.add_body(&desc.chassis)?;
        let suspension_dirs = desc
            .wheels
            .iter()
            .map(|w| unit(&w.suspension_dir).expect("validated"))
            .collect();
        let wheels = desc
            .wheels
            .iter()
            .map(|w| WheelState::new(w.rest_length))
            .collect();
        let along: Vec<Real> = desc
            .wheels
            .iter()
            .map(|w| axes.forward.dot(&w.mount))
            .collect();
        let fixed: Vec<Real> = desc
            .wheels
            .iter()
            .zip(&along)
            .filter(|(w, _)| !w.steers)
            .map(|(_, x)| *x)
            .collect();
        let rear_axle = if fixed.is_empty() {
            along.iter().copied().fold(Real::INFINITY, Real::min)
        } else {
            fixed.iter().sum::<Real>() / fixed.len() as Real
        };
        let n = desc.wheels.len() as Real;
        let centre_line = desc
            .wheels
            .iter()
            .map(|w| axes.lateral_of(&w.mount))
            .sum::<Real>()
            / n;
        Ok(Self {
            desc: desc.clone(),
            axes,
            chassis,
            suspension_dirs,
            wheels,
            inputs: VehicleInputs::default(),
            gear: 0,
            engine_rpm: 0.0,
            rear_axle,
            centre_line,
        })
    }

    /// The chassis body.
    pub fn chassis(&self) -> BodyHandle {
        self.chassis
    }
    /// The (validated) description the vehicle was built from.
    pub fn desc(&self) -> &VehicleDesc<D> {
        &self.desc
    }
    /// The car's axes, chassis body frame.
    pub fn axes(&self) -> &Axes<D> {
        &self.axes
    }
    /// Every wheel's state after the last step, in description order.
    pub fn wheels(&self) -> &[WheelState<D>] {
        &self.wheels
    }
    /// The inputs used by the next step.
    pub fn inputs(&self) -> VehicleInputs {
        self.inputs
    }
    /// Sets the inputs for the next steps (checked: finite and in range).
    pub fn set_inputs(&mut self, inputs: VehicleInputs) -> Result<(), VehicleError> {
        inputs.validate()?;
        self.inputs = inputs;
        Ok(())
    }
    /// The gear in use (0 = first; always 0 for direct drive).
    pub fn gear(&self) -> usize {
        self.gear
    }
    /// Engine speed at the last step, rev/min.
    pub fn engine_rpm(&self) -> Real {
        self.engine_rpm
    }
    /// Distance along forward from the rear axle to the steered wheels, metres
    /// (the wheelbase of the kinematic turning radius `wheelbase / tan(steer)`).
    pub fn wheelbase(&self) -> Real {
        let steered: Vec<Real> = self
            .desc
            .wheels
            .iter()
            .filter(|w| w.steers)
            .map(|w| self.axes.forward.dot(&w.mount))
            .collect();
        if steered.is_empty() {
            return 0.0;
        }
        steered.iter().sum::<Real>() / steered.len() as Real - self.rear_axle
    }

    /// Speed along the car's forward axis, m/s (negative reversing).
    pub fn forward_speed(&self, world: &World<D>) -> Option<Real> {
        let b = world.body(self.chassis)?;
        Some(
            b.linear_velocity()
                .dot(&(b.pose().rotation * self.axes.forward)),
        )
    }

    /// World pose of wheel `i`'s centre, turned by its steering and spin angles
    /// (x of the wheel frame along the chassis' forward at zero angles).
    pub fn wheel_pose(&self, world: &World<D>, i: usize) -> Option<Pose<D>> {
        let b = world.body(self.chassis)?;
        let w = self.desc.wheels.get(i)?;
        let s = &self.wheels[i];
        let centre = w.mount + self.suspension_dirs[i] * s.suspension_length;
        let steer =
            Space::<D>::rotation_from_scaled_axis(&(self.axes.steer_axis() * s.steer_angle));
        let spin = Space::<D>::rotation_from_scaled_axis(&(self.axes.axle() * s.spin_angle));
        let local = Pose::<D>::from_parts(Translation::from(centre), steer)
            * Pose::<D>::from_parts(Translation::from(Vector::<D>::zeros()), spin);
        Some(b.pose() * local)
    }

    /// Applies this step's suspension, tyre, drive and drag forces to the world.
    /// Call once before each `World::step`.
    pub fn step(&mut self, world: &mut World<D>) -> Result<(), VehicleError> {
        let dt = world.settings().dt;
        let body = world
            .body(self.chassis)
            .ok_or(VehicleError::NoChassis(self.chassis))?
            .clone();
        let inv_inertia = Space::<D>::inertia_inverse(&body.world_inertia());
        let now = ChassisNow { body, inv_inertia };
        let contacts = self.cast_wheels(world, &now)?;
        let loads = self.suspension(world, &now, &contacts);
        let torques = self.drivetrain();
        self.steer();
        let in_contact = contacts.iter().filter(|c| c.is_some()).count().max(1) as Real;
        let mut forces = Vec::new();
        for (i, c) in contacts.iter().enumerate() {
            let f = self.wheel_forces(
                world,
                &now,
                i,
                c.as_ref(),
                loads[i],
                torques[i],
                in_contact,
                dt,
            );
            if let Some(f) = f {
                forces.push(f);
            }
        }
        for (f, p, ground) in forces {
            world.apply_force_at_point(self.chassis, f, p)?;
            if let Some(g) = ground {
                world.apply_force_at_point(g, -f, p)?;
            }
        }
        let v = now.body.linear_velocity();
        world.apply_force(self.chassis, -v * (self.desc.drag * v.norm()))?;
        Ok(())
    }

    /// Casts every wheel; `None` for a wheel in the air.
    fn cast_wheels(
        &self,
        world: &World<D>,
        now: &ChassisNow<D>,
    ) -> Result<Vec<Option<Contact<D>>>, VehicleError> {
        let pose = now.body.pose();
        let filter = QueryFilter::new()
            .exclude_body(self.chassis)
            .exclude_sensors();
        let mut out = Vec::with_capacity(self.wheels.len());
        for (w, dir) in self.desc.wheels.iter().zip(&self.suspension_dirs) {
            let mount = pose.transform_point(&w.mount.into()).coords;
            let dir = pose.rotation * *dir;
            let hit = world.cast_sphere(&mount, w.radius, &dir, w.rest_length, &filter)?;
            out.push(hit.map(|h| {
                let length = if h.started_inside {
                    0.0
                } else {
                    refine(&mount, &dir, w.radius, h.distance, &h.point, &h.normal)
                };
                Contact {
                    length,
                    point: h.point,
                    normal: h.normal,
                    collider: h.collider,
                    body: h.body,
                }
            }));
        }
        Ok(out)
    }

    /// Suspension forces (spring, damper, bump stop, anti-roll), never pulling;
    /// fills each wheel's suspension state and returns the normal loads, N.
    fn suspension(
        &mut self,
        world: &World<D>,
        now: &ChassisNow<D>,
        contacts: &[Option<Contact<D>>],
    ) -> Vec<Real> {
        let pose = *now.body.pose();
        let mut loads = vec![0.0; contacts.len()];
        for (i, c) in contacts.iter().enumerate() {
            let w = &self.desc.wheels[i];
            let s = &mut self.wheels[i];
            let Some(c) = c else {
                s.in_contact = false;
                s.suspension_length = w.rest_length;
                s.compression = 0.0;
                s.compression_rate = 0.0;
                s.ground = None;
                s.ground_collider = None;
                s.anchor = None;
                continue;
            };
            let dir = pose.rotation * self.suspension_dirs[i];
            let v_rel = relative_velocity(world, &now.body, c.body, &c.point);
            let compression = w.rest_length - c.length;
            let rate = v_rel.dot(&dir);
            let bump = (compression - w.travel).max(0.0) * w.stiffness * BUMP_STOP_FACTOR;
            loads[i] = w.stiffness * compression + w.damping * rate + bump;
            s.in_contact = true;
            s.suspension_length = c.length.max(w.rest_length - w.travel);
            s.compression = compression;
            s.compression_rate = rate;
            s.contact_point = c.point;
            s.contact_normal = c.normal;
            s.ground = Some(c.body);
            s.ground_collider = Some(c.collider);
        }
        for bar in &self.desc.anti_roll {
            let (l, r) = (&self.wheels[bar.left], &self.wheels[bar.right]);
            let push = bar.stiffness * (l.compression - r.compression);
            if l.in_contact {
                loads[bar.left] += push;
            }
            if r.in_contact {
                loads[bar.right] -= push;
            }
        }
        for (i, load) in loads.iter_mut().enumerate() {
            *load = load.max(0.0);
            self.wheels[i].suspension_force = *load;
        }
        loads
    }

    /// Engine torque on each wheel, N m (automatic gearbox, rev limiter).
    fn drivetrain(&mut self) -> Vec<Real> {
        let e = &self.desc.engine;
        let driven: Vec<usize> = (0..self.wheels.len())
            .filter(|&i| self.desc.wheels[i].drives)
            .collect();
        let mut torques = vec![0.0; self.wheels.len()];
        if driven.is_empty() {
            return torques;
        }
        let spin = driven
            .iter()
            .map(|&i| self.wheels[i].spin_rate)
            .sum::<Real>()
            / driven.len() as Real;
        let to_rpm = 60.0 / std::f32::consts::TAU;
        let ratio = |gear: usize| e.gears.get(gear).copied().unwrap_or(1.0) * e.final_drive;
        if self.inputs.throttle < 0.0 || e.gears.is_empty() {
            self.gear = 0;
        } else {
            let rpm = spin.abs() * ratio(self.gear) * to_rpm;
            if rpm > e.shift_up_rpm && self.gear + 1 < e.gears.len() {
                self.gear += 1;
            } else if rpm < e.shift_down_rpm && self.gear > 0 {
                self.gear -= 1;
            }
        }
        let r = ratio(self.gear);
        self.engine_rpm = spin.abs() * r * to_rpm;
        let engine = if self.engine_rpm < e.max_rpm {
            self.inputs.throttle * e.max_torque
        } else {
            0.0
        };
        for &i in &driven {
            torques[i] = engine * r / driven.len() as Real;
        }
        torques
    }

    /// Each wheel's steering angle from the input (Ackermann if asked).
    fn steer(&mut self) {
        let delta = self.inputs.steering * self.desc.max_steer;
        let base = self.wheelbase();
        let ackermann = self.desc.ackermann && base > 0.0 && delta.abs() > 1e-6;
        for (w, s) in self.desc.wheels.iter().zip(&mut self.wheels) {
            s.steer_angle = if !w.steers || self.axes.left.is_none() {
                0.0
            } else if ackermann {
                // The turning centre is on the rear axle's line at `radius` to the left.
                let radius = base / delta.tan();
                let along = self.axes.forward.dot(&w.mount) - self.rear_axle;
                let side = self.axes.lateral_of(&w.mount) - self.centre_line;
                (along / (radius - side)).atan()
            } else {
                delta
            };
        }
    }

    /// Wheel `i`'s tyre: updates its spin and slip, returns the force on the chassis,
    /// the contact point and the dynamic body under it (for the reaction).
    #[allow(clippy::too_many_arguments)]
    fn wheel_forces(
        &mut self,
        world: &World<D>,
        now: &ChassisNow<D>,
        i: usize,
        contact: Option<&Contact<D>>,
        load: Real,
        drive_torque: Real,
        in_contact: Real,
        dt: Real,
    ) -> Option<(Vector<D>, Vector<D>, Option<BodyHandle>)> {
        let w = self.desc.wheels[i].clone();
        let brake = self.brake_torque(i);
        let pose = *now.body.pose();
        let heading_body = self.axes.steered_forward(self.wheels[i].steer_angle);
        let Some(c) = contact else {
            // In the air: the wheel spins freely under its torques.
            let s = TyreStep {
                load: 0.0,
                ..self.tyre_step(i, &w, 0.0, 0.0, drive_torque, brake, 1.0, dt)
            };
            self.finish_wheel(i, &tyre::solve(&s), dt);
            return None;
        };
        let n = c.normal;
        let heading =
            unit(&(pose.rotation * heading_body - n * n.dot(&(pose.rotation * heading_body))))?;
        let side = crate::frame::cross_vec(&n, &heading);
        let v_rel = relative_velocity(world, &now.body, c.body, &c.point);
        let v_long = v_rel.dot(&heading);
        let v_lat = side.map_or(0.0, |s| v_rel.dot(&s));
        let ground_friction = world.collider(c.collider).map_or(1.0, |g| g.friction());
        let mu = (w.tyre.friction * ground_friction).sqrt();
        let mass_long = now.effective_mass(&c.point, &heading) / in_contact;
        let mass_lat = side.map_or(mass_long, |s| now.effective_mass(&c.point, &s) / in_contact);
        let v_t = v_rel - n * n.dot(&v_rel);
        let sticking = brake > drive_torque.abs()
            && v_t.norm() < STICK_SPEED
            && (self.wheels[i].spin_rate * w.radius).abs() < STICK_SPEED;
        let tangent = if sticking {
            self.stick(world, now, i, c, &v_t, mu * load, in_contact, dt)
        } else {
            self.wheels[i].anchor = None;
            let step = TyreStep {
                load,
                friction: mu,
                mass_long,
                mass_lat,
                ..self.tyre_step(i, &w, v_long, v_lat, drive_torque, brake, 1.0, dt)
            };
            let t = tyre::solve(&step);
            self.finish_wheel(i, &t, dt);
            heading * t.longitudinal + side.map_or(Vector::zeros(), |s| s * t.lateral)
        };
        if sticking {
            let s = &mut self.wheels[i];
            s.longitudinal_force = tangent.dot(&heading);
            s.lateral_force = side.map_or(0.0, |d| tangent.dot(&d));
        }
        let ground = world
            .body(c.body)
            .filter(|b| b.is_dynamic())
            .map(|_| c.body);
        Some((n * load + tangent, c.point, ground))
    }

    /// Brake torque on wheel `i` from the inputs, N m.
    fn brake_torque(&self, i: usize) -> Real {
        let w = &self.desc.wheels[i];
        let mut t = 0.0;
        if w.brakes {
            t += self.inputs.brake * self.desc.brake_torque;
        }
        if w.handbrake && self.inputs.handbrake {
            t += self.desc.handbrake_torque;
        }
        t
    }

    /// The tyre solve's inputs for wheel `i` except load, friction and masses.
    #[allow(clippy::too_many_arguments)]
    fn tyre_step(
        &self,
        i: usize,
        w: &crate::desc::WheelDesc<D>,
        v_long: Real,
        v_lat: Real,
        drive_torque: Real,
        brake_torque: Real,
        mass: Real,
        dt: Real,
    ) -> TyreStep {
        TyreStep {
            v_long,
            v_lat,
            load: 0.0,
            friction: 0.0,
            longitudinal_stiffness: w.tyre.longitudinal_stiffness,
            cornering_stiffness: w.tyre.cornering_stiffness,
            slip_speed_floor: w.tyre.slip_speed_floor,
            omega: self.wheels[i].spin_rate,
            radius: w.radius,
            inertia: w.inertia,
            drive_torque,
            brake_torque,
            mass_long: mass,
            mass_lat: mass,
            dt,
        }
    }

    fn finish_wheel(&mut self, i: usize, t: &tyre::TyreForce, dt: Real) {
        let s = &mut self.wheels[i];
        s.spin_rate = t.omega;
        s.spin_angle = (s.spin_angle + t.omega * dt) % std::f32::consts::TAU;
        s.slip_ratio = t.slip_ratio;
        s.slip_angle = t.slip_angle;
        s.locked = t.locked;
        s.longitudinal_force = t.longitudinal;
        s.lateral_force = t.lateral;
    }

    /// Static friction of a braked, stopped wheel: the force (in the contact
    /// plane) that holds the contact at its anchor, up to `limit` newtons.
    #[allow(clippy::too_many_arguments)]
    fn stick(
        &mut self,
        world: &World<D>,
        now: &ChassisNow<D>,
        i: usize,
        c: &Contact<D>,
        v_t: &Vector<D>,
        limit: Real,
        in_contact: Real,
        dt: Real,
    ) -> Vector<D> {
        let ground_pose = world.body(c.body).map(|b| *b.pose());
        let anchor = match (self.wheels[i].anchor, ground_pose) {
            (Some((g, local)), Some(gp)) if g == c.body => gp.transform_point(&local.into()).coords,
            _ => c.point,
        };
        let n = c.normal;
        let offset = c.point - anchor;
        let offset = offset - n * n.dot(&offset);
        let target = v_t + offset * (STICK_STIFFNESS / dt);
        let Some(dir) = unit(&target) else {
            self.hold_anchor(i, c, ground_pose.as_ref(), &anchor);
            return Vector::zeros();
        };
        let mass = now.effective_mass(&c.point, &dir) / in_contact;
        let mut force = -target * (mass / dt);
        let s = &mut self.wheels[i];
        s.spin_rate = 0.0;
        s.slip_ratio = 0.0;
        s.slip_angle = 0.0;
        s.locked = true;
        if force.norm() > limit {
            // Too steep for the grip: it slides, and sticks again where it stops.
            force *= limit / force.norm();
            self.wheels[i].anchor = None;
        } else {
            self.hold_anchor(i, c, ground_pose.as_ref(), &anchor);
        }
        force
    }

    fn hold_anchor(
        &mut self,
        i: usize,
        c: &Contact<D>,
        ground: Option<&Pose<D>>,
        anchor: &Vector<D>,
    ) {
        self.wheels[i].anchor =
            ground.map(|gp| (c.body, gp.inverse_transform_point(&(*anchor).into()).coords));
    }
}

/// Velocity of the chassis' material point at `p` relative to the ground body's, m/s.
fn relative_velocity<const D: usize>(
    world: &World<D>,
    chassis: &Body<D>,
    ground: BodyHandle,
    p: &Vector<D>,
) -> Vector<D>
where
    Space<D>: Dim<D>,
{
    let ground_v = world
        .body(ground)
        .map_or(Vector::zeros(), |g| g.velocity_at(p));
    chassis.velocity_at(p) - ground_v
}

/// The cast's free length, refined against the hit's tangent plane: the exact
/// cast stops within its tolerance (1 mm) short of the surface; on a locally
/// flat surface the plane gives the exact touching distance. Refinements that
/// would move the hit by more than a few millimetres (curved or edge hits)
/// are not trusted and the cast's distance stands.
fn refine<const D: usize>(
    mount: &Vector<D>,
    dir: &Vector<D>,
    radius: Real,
    distance: Real,
    point: &Vector<D>,
    normal: &Vector<D>,
) -> Real {
    let approach = dir.dot(normal);
    if approach > -1e-3 {
        return distance;
    }
    let t = (radius - (mount - point).dot(normal)) / approach;
    if (t - distance).abs() <= REFINE_WINDOW && t >= 0.0 {
        t
    } else {
        distance
    }
}
