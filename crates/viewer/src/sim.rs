//! The simulation the viewer drives: a world built from a scene, with the
//! controls a person has over it (pause, single step, reset, time scale,
//! firing a ball) and the figures shown on screen.
//!
//! Time: every frame the elapsed wall time, scaled by the time scale, is
//! added to an accumulator and whole steps of the scene's `dt` are taken
//! from it, at most [`MAX_STEPS_PER_FRAME`] per frame (a slow frame drops
//! time instead of spiralling). Screenshots bypass this and take exactly one
//! step per frame, so they do not depend on the machine's speed.
//!
//! A scene's [`Controller`] (a vehicle) is attached to every world built (at
//! the start and on each reset) and runs before every step, with the driving
//! keys once one has been pressed since the last reset, or with none (its
//! script) until then.

use crate::controller::{Controller, DriveKeys};
use crate::error::ViewerError;
use crate::pick::{pick, spring_impulse, Grab};
use crate::settings::{Setting, Tuning};
use crate::sweeps::Sweeps;
use crate::timings::StageHistory;
use fathom_math::{Aabb, Dim, Real, Space, Vector};
use fathom_sdf::Sdf;
use fathom_world::{BodyDesc, BodyHandle, ColliderDesc, Scene, Shape, World};
use std::time::Instant;

/// Most steps one frame may take.
pub const MAX_STEPS_PER_FRAME: u32 = 4;
/// Slowest and fastest time scales.
pub const TIME_SCALE_RANGE: (Real, Real) = (1.0 / 16.0, 4.0);
/// Weight of the newest step in the moving average of step times.
const STEP_TIME_SMOOTHING: f64 = 0.1;

/// The figures shown on screen.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SimStats {
    /// Bodies in the world.
    pub bodies: usize,
    /// Dynamic and kinematic bodies that are not asleep.
    pub awake: usize,
    /// Contact points of the last step (speculative ones included).
    pub contacts: usize,
    /// Moving average of the wall time of one step, milliseconds.
    pub ms_per_step: f64,
    /// Steps taken since the last reset.
    pub steps: u64,
    /// Simulated time since the last reset, seconds.
    pub time: Real,
}

/// The body a chase camera follows, as it is now.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Followed<const D: usize> {
    /// Centre of the box of its bounded colliders, world frame.
    pub center: Vector<D>,
    /// Its forward direction, world frame (unit).
    pub forward: Vector<D>,
    /// Radius of the box of its colliders, metres.
    pub radius: Real,
}

/// A world built from a scene, and the viewer's controls over it.
pub struct Simulation<const D: usize>
where
    Space<D>: Dim<D>,
{
    scene: Scene<D>,
    world: World<D>,
    paused: bool,
    time_scale: Real,
    accumulator: Real,
    ms_per_step: Option<f64>,
    stages: StageHistory,
    fired: Vec<BodyHandle>,
    /// The body the mouse holds, if any.
    grab: Option<Grab<D>>,
    /// The last steps' swept motions (continuous collision).
    sweeps: Sweeps<D>,
    /// Settings changed at run time, applied to every world built.
    tuning: Tuning,
    controller: Option<Box<dyn Controller<D>>>,
    /// The driving keys, once one was pressed since the last reset.
    keys: Option<DriveKeys>,
    /// Why the controller stopped (it is not run again until a reset).
    controller_error: Option<String>,
}

impl<const D: usize> Simulation<D>
where
    Space<D>: Dim<D>,
{
    /// Builds the scene's world (running, time scale 1).
    pub fn new(scene: Scene<D>) -> Result<Self, ViewerError> {
        Self::with_controller(scene, None)
    }

    /// Builds the scene's world and attaches `controller` to it.
    pub fn with_controller(
        scene: Scene<D>,
        mut controller: Option<Box<dyn Controller<D>>>,
    ) -> Result<Self, ViewerError> {
        let mut world = scene.build().map_err(|source| ViewerError::Scene {
            path: "<scene>".into(),
            source,
        })?;
        if let Some(c) = &mut controller {
            c.attach(&mut world)?;
        }
        Ok(Self {
            scene,
            world,
            paused: false,
            time_scale: 1.0,
            accumulator: 0.0,
            ms_per_step: None,
            stages: StageHistory::default(),
            fired: Vec::new(),
            grab: None,
            sweeps: Sweeps::default(),
            tuning: Tuning::default(),
            controller,
            keys: None,
            controller_error: None,
        })
    }

    /// The scene's controller, if it has one.
    pub fn controller(&self) -> Option<&dyn Controller<D>> {
        self.controller.as_deref()
    }

    /// Tells the simulation which driving keys are held this frame. Until one is
    /// pressed the controller replays its script; from then until a reset it gets
    /// the keys.
    pub fn set_drive_keys(&mut self, keys: DriveKeys) {
        if keys.any() || self.keys.is_some() {
            self.keys = Some(keys);
        }
    }

    /// Whether the keys (rather than the controller's script) drive.
    pub fn driven_by_keys(&self) -> bool {
        self.keys.is_some()
    }

    /// Why the controller stopped running, if it did (until the next reset).
    pub fn controller_error(&self) -> Option<&str> {
        self.controller_error.as_deref()
    }

    /// The body the controller asks the camera to follow, as it is now: `None` without
    /// a controller, or when the body is gone or has no bounded collider.
    pub fn followed(&self) -> Option<Followed<D>> {
        let f = self.controller.as_ref()?.follow()?;
        let body = self.world.body(f.body)?;
        let mut aabb = Aabb::EMPTY;
        for c in body
            .colliders()
            .iter()
            .filter_map(|c| self.world.collider(*c))
        {
            let local = c.shape().bounds();
            if !crate::framing::is_unbounded(&local) {
                aabb = aabb.merge(&local.transformed(c.world_pose()));
            }
        }
        let forward = body.pose().rotation * f.forward;
        let n = forward.norm();
        (aabb.is_valid() && n.is_finite() && n > 1e-6).then(|| Followed {
            center: aabb.center(),
            forward: forward / n,
            radius: aabb.radius(),
        })
    }

    /// The world.
    pub fn world(&self) -> &World<D> {
        &self.world
    }

    /// The last steps' time per stage (the world's profile of each).
    pub fn stage_history(&self) -> &StageHistory {
        &self.stages
    }

    /// The scene the world was built from.
    pub fn scene(&self) -> &Scene<D> {
        &self.scene
    }

    /// Rebuilds the world from the scene (fired balls go away) and attaches the
    /// controller to it again, back on its script; pause and time scale stay.
    pub fn reset(&mut self) {
        // The scene built once already, so it builds again (tuned settings are checked
        // when they are made).
        if let Ok(w) = build_tuned(&self.scene, &self.tuning) {
            self.world = w;
        }
        self.accumulator = 0.0;
        self.stages.clear();
        self.fired.clear();
        self.grab = None;
        self.sweeps.clear();
        self.keys = None;
        self.controller_error = None;
        if let Some(c) = &mut self.controller {
            // It attached to a world of this scene before, so it attaches again.
            if let Err(e) = c.attach(&mut self.world) {
                self.controller_failed(e);
            }
        }
    }

    fn controller_failed(&mut self, e: ViewerError) {
        eprintln!("fathom-viewer: the scene's controller stopped: {e}");
        self.controller_error = Some(e.to_string());
    }

    /// Takes one step now, paused or not, and times it (the controller's part included).
    pub fn step_once(&mut self) {
        // The viewer's own bookkeeping (the drag spring, the sweep record) is not timed.
        self.pull_grab();
        let t0 = Instant::now();
        if let (Some(c), None) = (&mut self.controller, &self.controller_error) {
            if let Err(e) = c.before_step(&mut self.world, self.keys.as_ref()) {
                self.controller_failed(e);
            }
        }
        let t1 = Instant::now();
        self.sweeps.before_step(&self.world);
        let t2 = Instant::now();
        self.world.step();
        let ms = ((t1 - t0) + t2.elapsed()).as_secs_f64() * 1e3;
        self.sweeps.after_step(&self.world);
        self.stages.push(self.world.profile());
        self.ms_per_step = Some(match self.ms_per_step {
            Some(avg) => avg + (ms - avg) * STEP_TIME_SMOOTHING,
            None => ms,
        });
    }

    /// Runs the controller's action ([`Controller::action`]; the X key), if the scene
    /// has a controller that has not stopped.
    pub fn action(&mut self) {
        if let (Some(c), None) = (&mut self.controller, &self.controller_error) {
            if let Err(e) = c.action(&mut self.world) {
                self.controller_failed(e);
            }
        }
    }

    /// The settings changed at run time.
    pub fn tuning(&self) -> &Tuning {
        &self.tuning
    }

    /// Moves `setting` one step up or down (see [`crate::settings`]); a change the world
    /// refuses is undone and returned as its error. A margin change rebuilds the scene.
    pub fn adjust(&mut self, setting: Setting, up: bool) -> Result<(), ViewerError> {
        if setting == Setting::TimeScale {
            if up {
                self.faster();
            } else {
                self.slower();
            }
            return Ok(());
        }
        let before = self.tuning;
        let rebuild = self.tuning.adjust(setting, up, self.world.settings());
        let applied = if rebuild {
            build_tuned(&self.scene, &self.tuning).map(|_| self.reset())
        } else {
            let s = self.tuning.settings(&self.scene, self.world.settings());
            self.world.set_settings(s).map_err(ViewerError::World)
        };
        if applied.is_err() {
            self.tuning = before;
        }
        applied
    }

    /// Picks the dynamic body the ray `origin + t dir` (`t` up to `max_dist`) meets first
    /// and holds it by the point it met (see [`crate::pick`]); `None` (and nothing held)
    /// when the ray meets no dynamic body first.
    pub fn pick(
        &mut self,
        origin: Vector<D>,
        dir: Vector<D>,
        max_dist: Real,
    ) -> Option<BodyHandle> {
        self.grab = pick(&self.world, &origin, &dir, max_dist);
        self.grab.map(|g| g.body)
    }

    /// Moves the cursor holding the picked body to `target` (world); ignored when nothing
    /// is held or `target` is not finite.
    pub fn drag_to(&mut self, target: Vector<D>) {
        if let Some(g) = &mut self.grab {
            if target.iter().all(|x| x.is_finite()) {
                g.target = target;
            }
        }
    }

    /// Lets go of the picked body.
    pub fn release(&mut self) {
        self.grab = None;
    }

    /// The last steps' swept motions and where sweeps stopped bodies.
    pub fn sweeps(&self) -> &Sweeps<D> {
        &self.sweeps
    }

    /// The body the mouse holds, if any (and where).
    pub fn grab(&self) -> Option<&Grab<D>> {
        self.grab.as_ref()
    }

    /// The drag spring's pull for this step (see [`crate::pick`]); a body gone since it
    /// was picked is let go.
    fn pull_grab(&mut self) {
        let Some(g) = self.grab else { return };
        let dt = self.world.settings().dt;
        match spring_impulse(&self.world, &g, dt) {
            Some(pull) => {
                // The impulses are finite and capped, the body live: the world accepts them.
                let _ = self
                    .world
                    .apply_impulse_at_point(g.body, pull.impulse, pull.point);
                let _ = self.world.apply_angular_impulse(g.body, pull.angular);
            }
            None => self.grab = None,
        }
    }

    /// Takes `n` steps now, regardless of pause and time scale.
    pub fn step_n(&mut self, n: u32) {
        for _ in 0..n {
            self.step_once();
        }
    }

    /// Advances by `elapsed` seconds of wall time (see the module docs); returns the
    /// number of steps taken. Nothing happens while paused or for a bad `elapsed`.
    pub fn advance(&mut self, elapsed: Real) -> u32 {
        if self.paused || !(elapsed.is_finite() && elapsed > 0.0) {
            return 0;
        }
        let dt = self.world.settings().dt;
        self.accumulator += elapsed * self.time_scale;
        let mut steps = 0;
        while self.accumulator >= dt && steps < MAX_STEPS_PER_FRAME {
            self.step_once();
            self.accumulator -= dt;
            steps += 1;
        }
        if steps == MAX_STEPS_PER_FRAME {
            // Behind: drop the backlog rather than fall further behind every frame.
            self.accumulator = self.accumulator.min(dt);
        }
        steps
    }

    /// Whether stepping is paused.
    pub fn is_paused(&self) -> bool {
        self.paused
    }

    /// Pauses or resumes.
    pub fn set_paused(&mut self, paused: bool) {
        self.paused = paused;
    }

    /// The time scale (simulated seconds per wall second).
    pub fn time_scale(&self) -> Real {
        self.time_scale
    }

    /// Doubles the time scale, up to [`TIME_SCALE_RANGE`]'s maximum.
    pub fn faster(&mut self) {
        self.time_scale = (self.time_scale * 2.0).min(TIME_SCALE_RANGE.1);
    }

    /// Halves the time scale, down to [`TIME_SCALE_RANGE`]'s minimum.
    pub fn slower(&mut self) {
        self.time_scale = (self.time_scale * 0.5).max(TIME_SCALE_RANGE.0);
    }

    /// Fires a dense ball of `radius` metres from `origin` (world) along `direction`
    /// at `speed` m/s. The direction need not be unit length but must be finite and
    /// non-zero; the speed and radius must be positive.
    pub fn fire(
        &mut self,
        origin: Vector<D>,
        direction: Vector<D>,
        speed: Real,
        radius: Real,
    ) -> Result<BodyHandle, ViewerError> {
        let n = direction.norm();
        if !(n.is_finite() && n > 1e-9) {
            return Err(ViewerError::InvalidOption {
                field: "direction",
                message: format!("must be finite and non-zero, got {direction:?}"),
            });
        }
        if !(speed.is_finite() && speed > 0.0) {
            return Err(ViewerError::InvalidOption {
                field: "speed",
                message: format!("must be positive, got {speed}"),
            });
        }
        let shape = Shape::ball(radius).map_err(|e| ViewerError::InvalidOption {
            field: "radius",
            message: e.to_string(),
        })?;
        // Dense (8 kg/m³, or kg/m² in 2D: eight times the default) so it knocks things
        // over; swept with continuous collision so it does not pass through thin walls.
        let desc = BodyDesc::<D>::dynamic()
            .ccd(true)
            .position(origin)
            .linear_velocity(direction * (speed / n))
            .collider(ColliderDesc::new(shape).density(8.0).restitution(0.2));
        let h = self.world.add_body(&desc)?;
        self.fired.push(h);
        Ok(h)
    }

    /// Balls fired since the last reset.
    pub fn fired(&self) -> &[BodyHandle] {
        &self.fired
    }

    /// The figures shown on screen.
    pub fn stats(&self) -> SimStats {
        let w = &self.world;
        SimStats {
            bodies: w.body_count(),
            awake: w.awake_body_count(),
            contacts: w.contact_count(),
            ms_per_step: self.ms_per_step.unwrap_or(0.0),
            steps: w.step_count(),
            time: w.step_count() as Real * w.settings().dt,
        }
    }
}

/// `scene`'s world with `tuning` applied (the scene's own world when nothing is tuned).
fn build_tuned<const D: usize>(scene: &Scene<D>, tuning: &Tuning) -> Result<World<D>, ViewerError>
where
    Space<D>: Dim<D>,
{
    let scene_error = |source| ViewerError::Scene {
        path: "<scene>".into(),
        source,
    };
    if *tuning == Tuning::default() {
        return scene.build().map_err(scene_error);
    }
    let mut world = tuning.scene(scene).build().map_err(scene_error)?;
    let settings = tuning.settings(scene, world.settings());
    world.set_settings(settings)?;
    Ok(world)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn falling_ball<const D: usize>() -> Scene<D>
    where
        Space<D>: Dim<D>,
    {
        let mut up = Vector::<D>::zeros();
        up[1] = 1.0;
        let ground =
            BodyDesc::fixed().collider(ColliderDesc::new(Shape::half_space(up, 0.0).unwrap()));
        let ball = BodyDesc::dynamic()
            .position(up * 2.0)
            .collider(ColliderDesc::new(Shape::ball(0.5).unwrap()));
        Scene {
            bodies: vec![ground, ball],
            ..Scene::default()
        }
    }

    fn controls<const D: usize>()
    where
        Space<D>: Dim<D>,
    {
        let mut sim = Simulation::new(falling_ball::<D>()).unwrap();
        let dt = sim.world().settings().dt;
        // 2.5 steps' worth of time takes 2 steps and keeps the half step for the next frame.
        assert_eq!(sim.advance(2.5 * dt), 2);
        assert_eq!(sim.advance(0.6 * dt), 1);
        // A long stall is capped.
        assert_eq!(sim.advance(100.0 * dt), MAX_STEPS_PER_FRAME);
        sim.set_paused(true);
        assert_eq!(sim.advance(10.0 * dt), 0);
        sim.step_once();
        let stats = sim.stats();
        assert_eq!(stats.steps, 8);
        assert_eq!(stats.bodies, 2);
        assert_eq!(stats.awake, 1);
        // The ball fell: after 8 steps it has moved down.
        let y = sim.world().bodies().nth(1).unwrap().1.position()[1];
        assert!(y < 2.0);
        // Time scale halves and doubles within its range.
        for _ in 0..10 {
            sim.slower();
        }
        assert_eq!(sim.time_scale(), TIME_SCALE_RANGE.0);
        for _ in 0..10 {
            sim.faster();
        }
        assert_eq!(sim.time_scale(), TIME_SCALE_RANGE.1);
        // Firing adds a moving body; reset removes it and rewinds.
        let mut dir = Vector::<D>::zeros();
        dir[0] = 2.0;
        let h = sim.fire(Vector::<D>::repeat(3.0), dir, 30.0, 0.2).unwrap();
        assert!(sim.world().body(h).unwrap().is_ccd());
        let v = sim.world().body(h).unwrap().linear_velocity();
        assert!((v[0] - 30.0).abs() < 1e-4 && v.norm() < 30.0 + 1e-4);
        assert_eq!(sim.stats().bodies, 3);
        sim.reset();
        assert_eq!(sim.stats().bodies, 2);
        assert_eq!(sim.stats().steps, 0);
        assert!(sim.fired().is_empty());
        // Bad shots are typed errors naming the field.
        let e = sim
            .fire(Vector::<D>::zeros(), Vector::<D>::zeros(), 1.0, 0.2)
            .unwrap_err();
        assert!(matches!(
            e,
            ViewerError::InvalidOption {
                field: "direction",
                ..
            }
        ));
        let e = sim
            .fire(Vector::<D>::zeros(), dir, Real::NAN, 0.2)
            .unwrap_err();
        assert!(matches!(
            e,
            ViewerError::InvalidOption { field: "speed", .. }
        ));
        let e = sim.fire(Vector::<D>::zeros(), dir, 1.0, -1.0).unwrap_err();
        assert!(matches!(
            e,
            ViewerError::InvalidOption {
                field: "radius",
                ..
            }
        ));
        assert_eq!(sim.stats().bodies, 2);
    }

    #[test]
    fn controls_2d() {
        controls::<2>();
    }

    #[test]
    fn controls_3d() {
        controls::<3>();
    }
}
