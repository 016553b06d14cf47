//! What the last step cost, stage by stage: wall-clock time and how much work each stage had.
//!
//! A game's HUD, the viewer and `fathom run --json` read [`World::profile`] to see where a
//! scene's time goes. Timing costs one clock read per stage (a few tens of nanoseconds), so
//! it is always on. Times are of this machine and this run; they never feed back into the
//! simulation, so a step's result is the same bits whether or not anyone reads them.

use std::time::{Duration, Instant};

use fathom_math::{Dim, Space};
use serde::Serialize;

use crate::world::World;

/// The last step's time per named stage, and its counts. All zero before the first step.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct StepProfile {
    /// Collider boxes of moving bodies, and the broadphase's candidate pairs.
    pub broadphase: Duration,
    /// Contact manifolds of the candidate pairs (the SDF queries).
    pub narrowphase: Duration,
    /// Waking touched islands, and the solver's bodies, contacts and joints.
    pub solver_setup: Duration,
    /// The impulse solver: colouring, prepare, the substeps, restitution.
    pub solver: Duration,
    /// Write-back of solved bodies and joints.
    pub write_back: Duration,
    /// Continuous collision: sweeps of fast bodies.
    pub continuous: Duration,
    /// The contact cache and the events.
    pub contacts_events: Duration,
    /// Islands and sleeping.
    pub islands: Duration,
    /// The whole step.
    pub total: Duration,
    /// Candidate pairs of the broadphase.
    pub candidate_pairs: usize,
    /// Pairs with a manifold.
    pub touching_pairs: usize,
    /// Touching pairs that kept last step's manifolds, moved with the bodies, instead of a
    /// narrowphase query (`WorldSettings::contact_reuse`).
    pub reused_pairs: usize,
    /// Candidate pairs known to be apart from an earlier query, so not queried (the same
    /// setting).
    pub separated_pairs: usize,
    /// Contact constraints the solver got (one per manifold).
    pub contact_constraints: usize,
    /// Joints the solver got.
    pub joints: usize,
    /// Colours of the solver's contact graph (contacts of one colour share no moving body).
    pub colours: usize,
    /// Bodies the solver moved.
    pub awake_bodies: usize,
}

impl StepProfile {
    /// Every stage's name and time, in step order (the total not included).
    pub fn stages(&self) -> [(&'static str, Duration); 8] {
        [
            ("broadphase", self.broadphase),
            ("narrowphase", self.narrowphase),
            ("solver setup", self.solver_setup),
            ("solver", self.solver),
            ("write back", self.write_back),
            ("continuous", self.continuous),
            ("contacts/events", self.contacts_events),
            ("islands", self.islands),
        ]
    }
}

/// Times consecutive stages: each [`Laps::lap`] charges the time since the last one.
pub(crate) struct Laps {
    start: Instant,
    last: Instant,
}

impl Laps {
    pub(crate) fn start() -> Self {
        let now = Instant::now();
        Self {
            start: now,
            last: now,
        }
    }

    /// Adds the time since the last lap to `stage`.
    pub(crate) fn lap(&mut self, stage: &mut Duration) {
        let now = Instant::now();
        *stage += now - self.last;
        self.last = now;
    }

    /// The time since [`Laps::start`].
    pub(crate) fn total(&self) -> Duration {
        self.last - self.start
    }
}

impl<const D: usize> World<D>
where
    Space<D>: Dim<D>,
{
    /// What the last step cost, stage by stage (zeros before the first step).
    ///
    /// ```
    /// use fathom_math::Vector3;
    /// use fathom_world::{BodyDesc, ColliderDesc, Shape, World3};
    ///
    /// let mut world = World3::default();
    /// world.add_body(&BodyDesc::fixed()
    ///     .collider(ColliderDesc::new(Shape::cuboid(Vector3::new(5.0, 0.5, 5.0))?)))?;
    /// world.add_body(&BodyDesc::dynamic()
    ///     .position(Vector3::new(0.0, 0.99, 0.0))
    ///     .collider(ColliderDesc::new(Shape::ball(0.5)?)))?;
    /// world.step(); // the ball rests on the slab, 1 cm into its margin
    /// let p = world.profile();
    /// assert_eq!((p.touching_pairs, p.awake_bodies), (1, 1));
    /// assert!(p.stages().iter().map(|(_, t)| *t).sum::<std::time::Duration>() <= p.total);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn profile(&self) -> &StepProfile {
        &self.profile
    }
}
