//! Headless runs: step a scene without drawing it and report what happened.
//!
//! This is what `fathom run` prints. Everything in the report but the timing
//! is a pure function of the scene and the step count; `state_hash` lets two
//! runs (other thread counts, other machines of the same build) be compared
//! for bit-identity.

use crate::energy::{EnergyLedger, EnergyReport};
use fathom_math::{Dim, Space};
use fathom_world::SceneFile;
use fathom_world::{Scene, SceneError, World};
use serde::Serialize;
use std::collections::BTreeMap;
use std::time::Instant;

/// What a headless run measured. Serialises to the JSON of `fathom run --json`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RunReport {
    /// Scene name (the file stem).
    pub scene: String,
    /// 2 or 3.
    pub dimension: usize,
    /// Steps taken.
    pub steps: u64,
    /// Bodies in the world.
    pub bodies: usize,
    /// Contact points at the end.
    pub contacts: usize,
    /// Median wall-clock time of one step, milliseconds.
    pub ms_per_step: f64,
    /// Median over the steps that began with an awake body, milliseconds (`None` when
    /// every step was asleep): a sleeping scene costs almost nothing, which the overall
    /// median mixes in.
    pub ms_per_awake_step: Option<f64>,
    /// Steps that began with an awake body.
    pub awake_steps: u64,
    /// Mean wall-clock time of each stage of a step over the run, milliseconds, by the
    /// stage names of `StepProfile::stages` (from `World::profile`).
    pub mean_ms_per_stage: BTreeMap<String, f64>,
    /// Deepest penetration among the final contacts, metres (0 when none).
    pub max_penetration: f32,
    /// Kinetic energy at the end, joules.
    pub kinetic_energy: f32,
    /// 64-bit hash of every body's pose and velocity bits in handle order. Written to JSON
    /// as 16 hex digits in a string: as a number it would exceed 2^53, where JSON readers
    /// such as jq round it.
    #[serde(serialize_with = "hex_u64")]
    pub state_hash: u64,
    /// Bodies the runtime guard froze because their state went non-finite.
    pub frozen_bodies: usize,
    /// The run's energy ledger (see [`crate::energy`]).
    pub energy: EnergyReport,
    /// Peak resident memory of the process so far, KiB (Linux's `VmHWM`; `None`
    /// where the platform does not say).
    pub peak_resident_kib: Option<u64>,
}

/// Steps `scene` `steps` times, calling `progress` after each step with the
/// number done. Runs on the current rayon pool (install one to pick the thread count).
pub fn run_scene(
    name: &str,
    scene: &SceneFile,
    steps: u64,
    progress: &mut dyn FnMut(u64),
) -> Result<RunReport, SceneError> {
    match scene {
        SceneFile::Scene2D(s) => run_dim(name, s, steps, progress),
        SceneFile::Scene3D(s) => run_dim(name, s, steps, progress),
    }
}

fn run_dim<const D: usize>(
    name: &str,
    scene: &Scene<D>,
    steps: u64,
    progress: &mut dyn FnMut(u64),
) -> Result<RunReport, SceneError>
where
    Space<D>: Dim<D>,
{
    let mut world = scene.build()?;
    let mut ledger = EnergyLedger::new(&world);
    let times = timed_steps(
        &mut world,
        |w| w,
        steps,
        &mut ledger,
        progress,
        |w| {
            w.step();
            Ok::<_, SceneError>(())
        },
    )?;
    Ok(report(name, &world, steps, &times, &ledger))
}

/// Runs `step` (which steps the world of `state`, and whatever drives it) `steps` times,
/// timing each, keeping `ledger` and calling `progress` after each.
fn timed_steps<S, const D: usize, E>(
    state: &mut S,
    world: fn(&S) -> &World<D>,
    steps: u64,
    ledger: &mut EnergyLedger,
    progress: &mut dyn FnMut(u64),
    mut step: impl FnMut(&mut S) -> Result<(), E>,
) -> Result<StepTimes, E>
where
    Space<D>: Dim<D>,
{
    let mut times = StepTimes::default();
    for i in 0..steps {
        let awake = world(state).awake_body_count() > 0;
        let start = Instant::now();
        step(state)?;
        times.record(start.elapsed().as_secs_f64() * 1e3, awake, world(state));
        ledger.record(world(state));
        progress(i + 1);
    }
    Ok(times)
}

fn report<const D: usize>(
    name: &str,
    world: &World<D>,
    steps: u64,
    times: &StepTimes,
    ledger: &EnergyLedger,
) -> RunReport
where
    Space<D>: Dim<D>,
{
    RunReport {
        scene: name.to_string(),
        dimension: D,
        steps,
        bodies: world.body_count(),
        contacts: world.contact_count(),
        ms_per_step: times.all.median(),
        ms_per_awake_step: (times.awake.total > 0).then(|| times.awake.median()),
        awake_steps: times.awake.total,
        mean_ms_per_stage: times
            .stages
            .iter()
            .map(|(name, total)| (name.clone(), total / steps.max(1) as f64))
            .collect(),
        max_penetration: world.max_penetration(),
        kinetic_energy: world.kinetic_energy(),
        state_hash: world.state_hash(),
        frozen_bodies: world.bodies().filter(|(_, b)| b.is_frozen()).count(),
        energy: ledger.report(),
        peak_resident_kib: peak_resident_kib(),
    }
}

/// The process's peak resident memory, KiB, from `/proc/self/status` (Linux).
pub fn peak_resident_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// Where the vehicle of a driving scene ended up. Part of the JSON of
/// `fathom run <driving scene> --json` (under `vehicle`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct VehicleReport {
    /// Speed along the car's forward axis, m/s (negative reversing).
    pub speed: f32,
    /// Position of the chassis' origin, world, metres.
    pub position: [f32; 3],
    /// Gear in use (0 = first).
    pub gear: usize,
    /// Wheels touching the ground.
    pub wheels_in_contact: usize,
}

/// A driving scene's run: the world's figures plus the vehicle's.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct DrivingReport {
    /// The world's figures, as for any scene.
    #[serde(flatten)]
    pub run: RunReport,
    /// The vehicle's.
    pub vehicle: VehicleReport,
}

/// Steps a driving scene `steps` times with its scripted inputs (see [`run_scene`]).
pub fn run_driving(
    name: &str,
    scene: &crate::vehicle_scene::DrivingScene,
    steps: u64,
    progress: &mut dyn FnMut(u64),
) -> Result<DrivingReport, crate::vehicle_scene::DrivingSceneError> {
    let mut run = scene.build()?;
    let mut ledger = EnergyLedger::new(&run.world).uncounted("vehicle engine and brakes");
    let times = timed_steps(
        &mut run,
        |r| &r.world,
        steps,
        &mut ledger,
        progress,
        |r| r.step(),
    )?;
    let chassis = run
        .world
        .body(run.vehicle.chassis())
        .expect("the vehicle's chassis stays in its world");
    let p = chassis.position();
    let vehicle = VehicleReport {
        speed: run.vehicle.forward_speed(&run.world).unwrap_or(0.0),
        position: [p.x, p.y, p.z],
        gear: run.vehicle.gear(),
        wheels_in_contact: run.vehicle.wheels().iter().filter(|w| w.in_contact).count(),
    };
    Ok(DrivingReport {
        run: report(name, &run.world, steps, &times, &ledger),
        vehicle,
    })
}

/// The character course's run: the world's figures plus the character's.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CourseReport {
    /// The world's figures, as for any scene.
    #[serde(flatten)]
    pub run: RunReport,
    /// Where the character ended, world, metres.
    pub character_position: [f32; 3],
    /// Whether it ended on the ground.
    pub character_grounded: bool,
}

/// Steps the character course `steps` times with its script (see [`run_scene`]).
pub fn run_course(
    steps: u64,
    progress: &mut dyn FnMut(u64),
) -> Result<CourseReport, fathom_world::WorldError> {
    use crate::character_course::{course_scene, CourseInput, CourseRun, COURSE_SCENE};
    let mut world = course_scene()
        .build()
        .map_err(|e| fathom_world::WorldError::invalid("scene", e.to_string()))?;
    let course = CourseRun::attach(&mut world)?;
    let mut ledger =
        EnergyLedger::new(&world).uncounted("the character's pushes and the door's servo");
    let mut state = (world, course);
    let times = timed_steps(
        &mut state,
        |s| &s.0,
        steps,
        &mut ledger,
        progress,
        |s| {
            let (world, course) = s;
            course.before_step(world, CourseInput::scripted(world))?;
            world.step();
            Ok(())
        },
    )?;
    let (world, course) = state;
    let p = world
        .body(course.character())
        .expect("the character stays in its world")
        .position();
    Ok(CourseReport {
        run: report(COURSE_SCENE, &world, steps, &times, &ledger),
        character_position: [p.x, p.y, p.z],
        character_grounded: course.grounded(),
    })
}

/// Step times in fixed memory: a histogram of logarithmic bins 0.5% wide from 0.1 µs to
/// 100 s. A soak of 100,000 steps must show flat memory, and a list of every step's time
/// grew by 8 bytes a step (800 KB, 5% of the soak's resident memory).
struct Histogram {
    counts: Vec<u64>,
    total: u64,
}

/// Every step's time, and the awake steps' apart.
#[derive(Default)]
struct StepTimes {
    all: Histogram,
    awake: Histogram,
    /// Each stage's summed time, milliseconds.
    stages: BTreeMap<String, f64>,
}

impl StepTimes {
    /// One step of `ms` (begun with a body awake or not) and `world`'s stage times of it.
    fn record<const D: usize>(&mut self, ms: f64, awake: bool, world: &World<D>)
    where
        Space<D>: Dim<D>,
    {
        self.all.record(ms);
        if awake {
            self.awake.record(ms);
        }
        for (name, t) in world.profile().stages() {
            *self.stages.entry(name.to_string()).or_default() += t.as_secs_f64() * 1e3;
        }
    }
}

impl Histogram {
    /// Smallest time binned, ms; anything faster lands in the first bin.
    const FLOOR_MS: f64 = 1e-4;
    /// Ratio between neighbouring bin edges.
    const RATIO: f64 = 1.005;
    const BINS: usize = 4200;

    fn bin(ms: f64) -> usize {
        let x = (ms / Self::FLOOR_MS).max(1.0).ln() / Self::RATIO.ln();
        (x as usize).min(Self::BINS - 1)
    }

    fn record(&mut self, ms: f64) {
        self.counts[Self::bin(ms)] += 1;
        self.total += 1;
    }

    /// The median step time, ms, to within half a bin (0.25%); 0 for no steps.
    fn median(&self) -> f64 {
        if self.total == 0 {
            return 0.0;
        }
        let half = self.total.div_ceil(2);
        let mut seen = 0;
        let bin = self
            .counts
            .iter()
            .position(|&c| {
                seen += c;
                seen >= half
            })
            .unwrap_or(0);
        // The bin's geometric middle.
        Self::FLOOR_MS * Self::RATIO.powf(bin as f64 + 0.5)
    }
}

impl Default for Histogram {
    fn default() -> Self {
        Self {
            counts: vec![0; Self::BINS],
            total: 0,
        }
    }
}

/// `x` as a string of 16 lower-case hex digits.
fn hex_u64<S: serde::Serializer>(x: &u64, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(&format!("{x:016x}"))
}

#[cfg(test)]
mod tests {
    use super::Histogram;

    fn median_of(xs: &[f64]) -> f64 {
        let mut t = Histogram::default();
        xs.iter().for_each(|&x| t.record(x));
        t.median()
    }

    #[test]
    fn median_within_a_quarter_percent() {
        // Half a bin of 0.5% either side of the true median.
        let close = |got: f64, want: f64| (got / want - 1.0).abs() < 2.6e-3;
        assert!(close(median_of(&[3.0, 1.0, 2.0]), 2.0));
        assert!(close(median_of(&[0.02, 7.5, 7.5, 900.0, 7.5]), 7.5));
        assert!(close(median_of(&[12.0; 100_000]), 12.0));
        assert_eq!(median_of(&[]), 0.0);
    }
}
