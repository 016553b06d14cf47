//! Islands and sleeping.
//!
//! Bodies connected by contacts or joints form an island; an island is the
//! unit that sleeps and wakes, because a body at rest on a moving one is not
//! at rest. Islands are rebuilt after every step by union–find over the
//! step's contact pairs (sorted by collider pair) and the joints (in handle
//! order), always keeping the smaller index as the root, so the partition and
//! its ids do not depend on thread count or history.
//!
//! Every awake dynamic body has a sleep timer that grows while its linear and
//! angular speeds stay below the thresholds of [`SleepSettings`] and resets
//! otherwise. When the smallest timer in an island reaches `time_to_sleep`
//! the island falls asleep: velocities are zeroed, boxes made tight, and from
//! then on its bodies skip integration and solving, and pairs between sleeping
//! (or static) bodies are neither box-tested again nor sent to the narrowphase
//! — their cached manifolds stay, ready to warm-start the island when it wakes.
//!
//! An island wakes when an awake body (or a moving kinematic body) touches it
//! (a narrowphase manifold with one of its bodies), when a joint to it is made
//! or removed, or when the game pushes, moves or sets the velocity of one of
//! its bodies. A woken island's own contacts are taken from the cache for that
//! step (the bodies have not moved since the cache was written).

use crate::arena::{BodyHandle, ColliderHandle, RawHandle};
use crate::contacts::PairContacts;
use crate::desc::BodyKind;
use crate::error::{check_non_negative, check_positive, WorldError};
use crate::world::World;
use fathom_math::{Dim, Real, Space, Vector};
use fathom_solver::{Motion, SolverBody};
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;

/// When bodies fall asleep.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct SleepSettings {
    /// Whether islands may sleep at all.
    pub enabled: bool,
    /// A body is calm below this speed of its centre of mass, m/s.
    pub linear_threshold: Real,
    /// A body is calm below this angular speed, rad/s.
    pub angular_threshold: Real,
    /// An island sleeps once all its bodies have been calm this long, seconds.
    pub time_to_sleep: Real,
}

impl Default for SleepSettings {
    /// Box2D's values: 5 cm/s, about 2.9 degrees/s, half a second.
    fn default() -> Self {
        Self {
            enabled: true,
            linear_threshold: 0.05,
            angular_threshold: 0.05,
            time_to_sleep: 0.5,
        }
    }
}

impl SleepSettings {
    /// Checks every field.
    pub fn validate(&self) -> Result<(), WorldError> {
        check_non_negative("sleep.linear_threshold", self.linear_threshold)?;
        check_non_negative("sleep.angular_threshold", self.angular_threshold)?;
        check_positive("sleep.time_to_sleep", self.time_to_sleep)
    }
}

/// Sleep bookkeeping of one body slot.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
struct Entry {
    /// Generation of the body the entry belongs to (a reused slot starts afresh).
    generation: u32,
    /// How long the body has been calm, seconds.
    timer: Real,
    /// The sleeping island's id (the bits of its lowest body handle), when asleep.
    island: Option<u64>,
}

/// The sleep state of every body, by arena slot.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub(crate) struct SleepState {
    entries: Vec<Entry>,
    /// Non-static bodies handed to the solver in the last step.
    solved: usize,
}

/// Whether each collider's body moves this step and whether it sleeps, by collider slot
/// ([`World::collider_motion`]); dead slots read as neither.
#[derive(Default)]
pub(crate) struct ColliderMotion {
    slots: Vec<Option<(u32, (bool, bool))>>,
    /// Some collider's body sleeps (none: no pair is asleep, no island to wake).
    asleep: bool,
}

impl ColliderMotion {
    fn flags(&self, c: ColliderHandle) -> Option<(bool, bool)> {
        self.slots
            .get(c.0.index as usize)
            .copied()
            .flatten()
            .filter(|(g, _)| *g == c.0.generation)
            .map(|(_, f)| f)
    }

    /// The collider is live and its body takes part in this step's collision.
    pub(crate) fn moves(&self, c: ColliderHandle) -> bool {
        self.flags(c).is_some_and(|(mover, _)| mover)
    }

    /// True when some collider's body sleeps.
    pub(crate) fn any_asleep(&self) -> bool {
        self.asleep
    }

    /// Both colliders live, neither body a mover, and at least one asleep: a pair whose
    /// cached contacts stay as they are.
    pub(crate) fn pair_asleep(&self, a: ColliderHandle, b: ColliderHandle) -> bool {
        match (self.flags(a), self.flags(b)) {
            (Some((ma, sa)), Some((mb, sb))) => !ma && !mb && (sa || sb),
            _ => false,
        }
    }
}

/// The step's manifolds by collider pair, in pair order, as the pipeline gathers them: in
/// the cache's form, so that they become the cache by a move (`World::cache_contacts`), and
/// beside them where each came from.
pub(crate) struct Found<const D: usize>
where
    Space<D>: Dim<D>,
{
    /// Each pair's manifolds and what they were computed from (`reuse.rs`): each point
    /// carries its warm start, and the solved impulses once the solver has run.
    pub pairs: Vec<PairContacts<D>>,
    /// Where each pair's manifolds came from (`from[i]` is of `pairs[i]`).
    pub from: Vec<FoundFrom>,
}

impl<const D: usize> Default for Found<D>
where
    Space<D>: Dim<D>,
{
    fn default() -> Self {
        Self {
            pairs: Vec::new(),
            from: Vec::new(),
        }
    }
}

/// Where a found pair's manifolds came from; its colliders too, which the islands read after
/// the manifolds went into the cache.
#[derive(Clone, Copy)]
pub(crate) struct FoundFrom {
    pub a: ColliderHandle,
    pub b: ColliderHandle,
    /// The pair's index in the world's contact cache, if it has one.
    pub cached: Option<usize>,
    /// The narrowphase job whose manifold buffer the pair's manifolds are (none for a pair
    /// carried over from a woken island).
    pub job: Option<usize>,
}

impl<const D: usize> Found<D>
where
    Space<D>: Dim<D>,
{
    pub fn len(&self) -> usize {
        self.pairs.len()
    }

    pub fn is_empty(&self) -> bool {
        self.pairs.is_empty()
    }

    pub fn clear(&mut self) {
        self.pairs.clear();
        self.from.clear();
    }

    pub fn push(&mut self, pair: PairContacts<D>, cached: Option<usize>, job: Option<usize>) {
        let (a, b) = (pair.a, pair.b);
        self.pairs.push(pair);
        self.from.push(FoundFrom { a, b, cached, job });
    }

    /// Back in pair order after pairs were added out of it.
    fn sort(&mut self) {
        let mut both: Vec<_> = self.pairs.drain(..).zip(self.from.drain(..)).collect();
        both.sort_by_key(|(p, _)| p.key());
        (self.pairs, self.from) = both.into_iter().unzip();
    }
}

/// Union–find whose roots are the smallest member (deterministic ids).
struct UnionFind(Vec<usize>);

impl UnionFind {
    fn find(&mut self, mut i: usize) -> usize {
        while self.0[i] != i {
            self.0[i] = self.0[self.0[i]];
            i = self.0[i];
        }
        i
    }
    fn union(&mut self, a: usize, b: usize) {
        let (ra, rb) = (self.find(a), self.find(b));
        let (lo, hi) = (ra.min(rb), ra.max(rb));
        self.0[hi] = lo;
    }
}

impl SleepState {
    fn entry(&self, h: BodyHandle) -> Option<&Entry> {
        self.entries
            .get(h.0.index as usize)
            .filter(|e| e.generation == h.0.generation)
    }

    fn entry_mut(&mut self, h: BodyHandle) -> &mut Entry {
        let i = h.0.index as usize;
        if self.entries.len() <= i {
            self.entries.resize(i + 1, Entry::default());
        }
        let e = &mut self.entries[i];
        if e.generation != h.0.generation {
            *e = Entry {
                generation: h.0.generation,
                ..Entry::default()
            };
        }
        e
    }

    pub(crate) fn sleeping(&self, h: BodyHandle) -> bool {
        self.entry(h).is_some_and(|e| e.island.is_some())
    }
}

impl<const D: usize> World<D>
where
    Space<D>: Dim<D>,
{
    /// True when body `h` is asleep (false for stale handles and static bodies).
    pub fn is_sleeping(&self, h: BodyHandle) -> bool {
        self.sleep.sleeping(h)
    }

    /// Number of non-static bodies that are awake.
    pub fn awake_body_count(&self) -> usize {
        self.bodies
            .iter()
            .filter(|(h, b)| b.kind != BodyKind::Fixed && !self.sleep.sleeping(*h))
            .count()
    }

    /// Number of non-static bodies the solver integrated and solved in the last step
    /// (sleeping bodies cost nothing and are not counted).
    pub fn solved_body_count(&self) -> usize {
        self.sleep.solved
    }

    /// Wakes body `h` and its island.
    pub fn wake_body(&mut self, h: BodyHandle) -> Result<(), WorldError> {
        if !self.bodies.contains(h) {
            return Err(WorldError::NoSuchBody(h));
        }
        self.wake(h);
        Ok(())
    }

    /// Wakes the island of `h` (if asleep) and restarts `h`'s sleep timer.
    /// Stale handles and static bodies are ignored.
    pub(crate) fn wake(&mut self, h: BodyHandle) {
        match self.bodies.get(h) {
            Some(b) if b.kind != BodyKind::Fixed => {}
            _ => return,
        }
        if let Some(island) = self.sleep.entry(h).and_then(|e| e.island) {
            self.wake_island(island);
        }
        self.sleep.entry_mut(h).timer = 0.0;
    }

    /// Wakes every body of the sleeping island `island`; returns them in handle order.
    fn wake_island(&mut self, island: u64) -> Vec<BodyHandle> {
        self.cache_settled = false;
        let mut woken = Vec::new();
        for (i, e) in self.sleep.entries.iter_mut().enumerate() {
            if e.island == Some(island) {
                e.island = None;
                e.timer = 0.0;
                woken.push(BodyHandle(RawHandle {
                    index: i as u32,
                    generation: e.generation,
                }));
            }
        }
        woken
    }

    /// True for a body that takes part in this step's collision: awake and dynamic,
    /// or kinematic and moving.
    pub(crate) fn is_mover(&self, h: BodyHandle) -> bool {
        let Some(b) = self.bodies.get(h) else {
            return false;
        };
        if b.frozen {
            return false;
        }
        match b.kind {
            BodyKind::Dynamic => !self.sleep.sleeping(h),
            BodyKind::Kinematic => {
                b.linear_velocity != Vector::<D>::zeros()
                    || Space::<D>::ang_norm(&b.angular_velocity) > 0.0
            }
            BodyKind::Fixed => false,
        }
    }

    /// True when the body is left out of the solver this step.
    pub(crate) fn skips_solver(&self, h: BodyHandle) -> bool {
        self.sleep.sleeping(h)
    }

    /// Step stage after the narrowphase: islands touched by awake bodies wake, and
    /// their cached manifolds (with static bodies and among themselves) join `found`.
    /// `motion` is the step's collider table: with no body asleep there is nothing to wake.
    pub(crate) fn wake_touched(&mut self, found: &mut Found<D>, motion: &ColliderMotion) {
        if !motion.any_asleep() {
            return;
        }
        let mut woken: BTreeSet<BodyHandle> = BTreeSet::new();
        let mut islands: Vec<u64> = Vec::new();
        for FoundFrom { a, b, .. } in &found.from {
            for c in [a, b] {
                if let Some(island) = self
                    .colliders
                    .get(*c)
                    .and_then(|c| self.sleep.entry(c.body))
                    .and_then(|e| e.island)
                {
                    islands.push(island);
                }
            }
        }
        while let Some(island) = islands.pop() {
            let bodies = self.wake_island(island);
            woken.extend(bodies);
            // A cached pair from a woken body to another sleeping island wakes that one too.
            for p in &self.contacts {
                let (Some(ca), Some(cb)) = (self.colliders.get(p.a), self.colliders.get(p.b))
                else {
                    continue;
                };
                for (x, y) in [(ca.body, cb.body), (cb.body, ca.body)] {
                    if woken.contains(&x) {
                        if let Some(other) = self.sleep.entry(y).and_then(|e| e.island) {
                            if !islands.contains(&other) {
                                islands.push(other);
                            }
                        }
                    }
                }
            }
        }
        if woken.is_empty() {
            return;
        }
        let have: BTreeSet<(u64, u64)> = found.pairs.iter().map(PairContacts::key).collect();
        for (i, p) in self.contacts.iter().enumerate() {
            if have.contains(&p.key()) || !self.cached_pair_wakes_with(p, &woken) {
                continue;
            }
            let pair = PairContacts {
                a: p.a,
                b: p.b,
                manifolds: p.manifolds.clone(),
                // Asleep, neither body moved since the points were placed.
                basis: p.basis.clone(),
            };
            found.push(pair, Some(i), None);
        }
        found.sort();
    }

    /// A cached pair is reused for a woken island when one body woke this step and
    /// the other woke too or is static (so neither was in this step's narrowphase).
    fn cached_pair_wakes_with(&self, p: &PairContacts<D>, woken: &BTreeSet<BodyHandle>) -> bool {
        let (Some(ca), Some(cb)) = (self.colliders.get(p.a), self.colliders.get(p.b)) else {
            return false;
        };
        let fixed = |h: BodyHandle| {
            self.bodies
                .get(h)
                .is_some_and(|b| !self.is_mover(h) && !b.is_dynamic())
        };
        let (wa, wb) = (woken.contains(&ca.body), woken.contains(&cb.body));
        match (wa, wb) {
            (true, true) => true,
            (true, false) => fixed(cb.body),
            (false, true) => fixed(ca.body),
            (false, false) => false,
        }
    }

    /// Each collider's body read once into a table by collider slot (its generation, whether
    /// the body is a mover, whether it sleeps), so that a stage walking every pair costs two
    /// loads per pair, not four arena lookups.
    /// The table is refilled in place (its memory is the step's scratch).
    pub(crate) fn collider_motion(&self, motion: &mut ColliderMotion) {
        let slots = &mut motion.slots;
        slots.clear();
        slots.resize(self.colliders.capacity_index(), None);
        let mut asleep = false;
        for (h, c) in self.colliders.iter() {
            let flags = (self.is_mover(c.body), self.sleep.sleeping(c.body));
            asleep |= flags.1;
            slots[h.0.index as usize] = Some((h.0.generation, flags));
        }
        motion.asleep = asleep;
    }

    /// Records how many non-static bodies the solver got this step.
    pub(crate) fn record_solved(&mut self, bodies: &[SolverBody<D>]) {
        self.sleep.solved = bodies.iter().filter(|b| b.motion != Motion::Static).count();
    }

    /// Step stage last: islands from this step's contacts and joints; timers; calm
    /// islands fall asleep. With sleeping disabled, every sleeping body wakes.
    pub(crate) fn update_islands(&mut self, found: &Found<D>) {
        let settings = self.settings.sleep;
        if !settings.enabled {
            for e in &mut self.sleep.entries {
                e.island = None;
                e.timer = 0.0;
            }
            return;
        }
        let awake: Vec<BodyHandle> = self
            .bodies
            .iter()
            .filter(|(h, b)| b.is_dynamic() && !self.sleep.sleeping(*h))
            .map(|(h, _)| h)
            .collect();
        if awake.is_empty() {
            return;
        }
        let mut local = vec![usize::MAX; self.bodies.capacity_index()];
        for (i, h) in awake.iter().enumerate() {
            local[h.0.index as usize] = i;
        }
        let mut uf = UnionFind((0..awake.len()).collect());
        let mut restless = vec![false; awake.len()];
        let body_of = |c: ColliderHandle| self.colliders.get(c).map(|c| c.body);
        let edges = found
            .from
            .iter()
            .filter_map(|f| Some((body_of(f.a)?, body_of(f.b)?)))
            .chain(self.joints.arena.iter().map(|(_, j)| (j.body_a, j.body_b)));
        for (x, y) in edges {
            let (lx, ly) = (local[x.0.index as usize], local[y.0.index as usize]);
            match (lx != usize::MAX, ly != usize::MAX) {
                (true, true) => uf.union(lx, ly),
                // Touching a moving kinematic body keeps a body awake.
                (true, false) if self.is_kinematic_mover(y) => restless[lx] = true,
                (false, true) if self.is_kinematic_mover(x) => restless[ly] = true,
                _ => {}
            }
        }
        let dt = self.settings.dt;
        let mut min_timer = vec![Real::MAX; awake.len()];
        for (i, h) in awake.iter().enumerate() {
            let b = self.bodies.get(*h).expect("live");
            let calm = !restless[i]
                && b.linear_velocity.norm() < settings.linear_threshold
                && Space::<D>::ang_norm(&b.angular_velocity) < settings.angular_threshold;
            let e = self.sleep.entry_mut(*h);
            e.timer = if calm { e.timer + dt } else { 0.0 };
            let root = uf.find(i);
            min_timer[root] = min_timer[root].min(e.timer);
        }
        for (i, h) in awake.iter().enumerate() {
            let root = uf.find(i);
            if min_timer[root] >= settings.time_to_sleep {
                self.put_to_sleep(*h, awake[root].0.to_bits());
            }
        }
    }

    fn is_kinematic_mover(&self, h: BodyHandle) -> bool {
        self.bodies
            .get(h)
            .is_some_and(|b| b.kind == BodyKind::Kinematic)
            && self.is_mover(h)
    }

    /// Puts one body to sleep in `island`: at rest, with tight boxes.
    fn put_to_sleep(&mut self, h: BodyHandle, island: u64) {
        self.sleep.entry_mut(h).island = Some(island);
        let b = self.bodies.get_mut(h).expect("live");
        b.linear_velocity = Vector::zeros();
        b.angular_velocity = Space::<D>::ang_zero();
        b.force = Vector::zeros();
        b.torque = Space::<D>::ang_zero();
        let pose = b.pose;
        for &c in &b.colliders.clone() {
            let Some(col) = self.colliders.get_mut(c) else {
                continue;
            };
            col.world_pose = pose * col.local_pose;
            col.aabb = crate::pipeline::collider_aabb(&col.shape, &col.world_pose, col.margin);
            if self.broadphase_ready {
                // The key was inserted with the collider and the box is finite.
                let _ = self.broadphase.update(c.0.to_bits(), col.aabb);
            }
        }
    }
}
