//! Events of a step: contacts that started or stopped, sensors entered or
//! left, contact forces above a collider's threshold, and bodies the runtime
//! guard froze (`guards.rs`).
//!
//! The world keeps the set of touching pairs ([`Touch`], sorted) from one
//! step to the next, and each step's events are the difference between the
//! old set and the new one, so a pair reports `Started` once and `Stopped`
//! once however long it touches. Events are sorted by collider pair (then by
//! kind), so the order is the same for any thread count and any history of
//! queries.
//!
//! **When a contact pair touches.** Manifolds include speculative points up
//! to the margin (plus the step's closing distance), so "has a manifold" would
//! fire long before impact. A pair starts touching when a point is within
//! [`TOUCH_SLOP`] or the solver pushed on it this step (a speculative contact
//! that stopped a fast body), and keeps touching until every point is farther
//! than the pair's margin and the solver no longer pushes. The band between
//! the two thresholds keeps a resting contact, whose separation jitters by
//! fractions of a millimetre, from flickering.
//!
//! **Sensors** are tested for overlap at the end of the step with the
//! narrowphase's exact `intersects` (no margin, no hysteresis): entering and
//! leaving are geometric facts, and no solver jitters a sensor.

use crate::arena::{BodyHandle, ColliderHandle, RawHandle};
use crate::contacts::PairContacts;
use crate::world::World;
use fathom_math::{Dim, Real, Space, Vector};
use fathom_narrowphase::ContactOptions;
use fathom_sdf::Sdf;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

/// A contact pair starts touching when a point is within this separation, metres
/// (Box2D's linear slop: the solver's soft contacts rest within it).
pub const TOUCH_SLOP: Real = 0.005;

/// A pair touching (or, for sensors, overlapping) after a step.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Touch {
    /// The collider with the lower handle.
    pub a: ColliderHandle,
    /// The other collider.
    pub b: ColliderHandle,
    /// True when one of the two is a sensor (an overlap, not a contact).
    pub sensor: bool,
}

impl Touch {
    fn key(&self) -> (u64, u64) {
        crate::contacts::pair_key(self.a, self.b)
    }
}

/// Something that happened during a step. Pairs are ordered (`a` has the lower handle).
///
/// After each [`World::step`], read [`World::events`] or take them with
/// [`World::drain_events`]. A ball dropped on the ground starts touching it once:
///
/// ```
/// use fathom_math::Vector3;
/// use fathom_world::{BodyDesc, ColliderDesc, Shape, World3, WorldEvent};
///
/// let mut world = World3::default();
/// let ground = world.add_body(&BodyDesc::fixed()
///     .collider(ColliderDesc::new(Shape::half_space(Vector3::y(), 0.0)?)))?;
/// let ball = world.add_body(&BodyDesc::dynamic()
///     .position(Vector3::new(0.0, 1.0, 0.0))
///     .collider(ColliderDesc::new(Shape::ball(0.25)?)))?;
/// let collider_of = |b| world.body(b).unwrap().colliders()[0];
/// let pair = (collider_of(ground), collider_of(ball));
///
/// let mut started = Vec::new();
/// for step in 1..=90 {
///     world.step();
///     for event in world.drain_events() {
///         if let WorldEvent::ContactStarted { a, b } = event {
///             started.push((step, a, b));
///         }
///     }
/// }
/// assert_eq!(started.len(), 1); // once, however long it rests
/// let (step, a, b) = started[0];
/// assert_eq!((a, b), pair); // the ground's collider has the lower handle
/// // A 0.75 m fall takes sqrt(2 * 0.75 / 9.81) = 0.39 s, 23.5 steps of 1/60 s.
/// assert!((22..=25).contains(&step));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(bound = "")]
pub enum WorldEvent<const D: usize> {
    /// Two colliders began touching.
    ContactStarted {
        /// Lower collider handle.
        a: ColliderHandle,
        /// Higher collider handle.
        b: ColliderHandle,
    },
    /// Two colliders stopped touching (or one was removed, or a filter now rejects them).
    ContactStopped {
        /// Lower collider handle.
        a: ColliderHandle,
        /// Higher collider handle.
        b: ColliderHandle,
        /// True when `a` or `b` no longer exists.
        removed: bool,
    },
    /// A collider began overlapping a sensor.
    SensorEntered {
        /// The sensor.
        sensor: ColliderHandle,
        /// The collider that entered it.
        other: ColliderHandle,
    },
    /// A collider stopped overlapping a sensor.
    SensorExited {
        /// The sensor.
        sensor: ColliderHandle,
        /// The collider that left it.
        other: ColliderHandle,
        /// True when either no longer exists.
        removed: bool,
    },
    /// A touching pair pressed harder than the lower force threshold of its colliders.
    ContactForce {
        /// Lower collider handle.
        a: ColliderHandle,
        /// Higher collider handle.
        b: ColliderHandle,
        /// Sum of the normal forces over the step, N (normal impulse / dt).
        total_force: Real,
        /// Largest single-point normal force, N.
        max_point_force: Real,
        /// Impulse-weighted contact normal, unit, world frame, from `a` towards `b`.
        direction: Vector<D>,
    },
    /// The step's guard froze a body whose state stopped being finite (see
    /// [`crate::Body::is_frozen`]); it keeps its pose from before the step, at rest.
    BodyFrozen {
        /// The frozen body.
        body: BodyHandle,
    },
}

impl<const D: usize> WorldEvent<D> {
    /// The pair this event is about, lower handle first (`None` for a body event).
    pub fn pair(&self) -> Option<(ColliderHandle, ColliderHandle)> {
        match *self {
            Self::ContactStarted { a, b }
            | Self::ContactStopped { a, b, .. }
            | Self::ContactForce { a, b, .. } => Some((a, b)),
            Self::SensorEntered { sensor, other } | Self::SensorExited { sensor, other, .. } => {
                Some((sensor.min(other), sensor.max(other)))
            }
            Self::BodyFrozen { .. } => None,
        }
    }

    /// Sort key: body events first (by handle), then by pair, stop before start before force.
    fn sort_key(&self) -> (u8, u64, u64, u8) {
        let Some((a, b)) = self.pair() else {
            let Self::BodyFrozen { body } = self else {
                unreachable!("only body events have no pair")
            };
            return (0, body.0.to_bits(), 0, 0);
        };
        let rank = match self {
            Self::ContactStopped { .. } | Self::SensorExited { .. } => 0,
            Self::ContactStarted { .. } | Self::SensorEntered { .. } => 1,
            _ => 2,
        };
        (1, a.0.to_bits(), b.0.to_bits(), rank)
    }
}

impl<const D: usize> World<D>
where
    Space<D>: Dim<D>,
{
    /// The events of the last step, sorted by collider pair (replaced by each step).
    pub fn events(&self) -> &[WorldEvent<D>] {
        &self.events
    }

    /// Takes the events of the last step, leaving none.
    pub fn drain_events(&mut self) -> Vec<WorldEvent<D>> {
        std::mem::take(&mut self.events)
    }

    /// The pairs touching (or overlapping a sensor) after the last step, sorted.
    pub fn touching_pairs(&self) -> &[Touch] {
        &self.touching
    }

    /// Last stage of the step: the new touching set from the contact cache and the
    /// sensor overlaps, its difference from the old one as events, and force events.
    /// An unchanged cache (`cache_changed` false) touches as it did: the hysteresis keeps a
    /// pair's answer when its contacts are the same.
    /// `now` is an empty buffer to fill (the step's scratch); the old touching set comes
    /// back in it, emptied.
    pub(crate) fn update_events(&mut self, cache_changed: bool, now: &mut Vec<Touch>) {
        now.clear();
        if cache_changed {
            self.touching_contacts(now);
        } else {
            now.extend(self.touching.iter().filter(|t| !t.sensor).copied());
        }
        let sensors = self.sensor_overlaps();
        let mut events = if cache_changed || !sensors.is_empty() || self.touching.len() != now.len()
        {
            // The contacts come in pair order: only sensors need sorting in.
            if !sensors.is_empty() {
                now.extend(sensors);
                now.sort_unstable_by_key(Touch::key);
            }
            self.touch_changes(now)
        } else {
            // The same contacts touching, and no sensor overlapping before or now.
            Vec::new()
        };
        events.extend(self.force_events());
        events.extend(self.frozen_events());
        events.sort_by_key(WorldEvent::sort_key);
        std::mem::swap(&mut self.touching, now);
        now.clear();
        self.events = events;
    }

    /// Contact pairs of the cache that touch, with the hysteresis of the module docs. The
    /// cache and the old touching set are both in pair order: one merge walk tells which
    /// pairs touched before.
    fn touching_contacts(&self, out: &mut Vec<Touch>) {
        let before = &self.touching[..];
        let mut k = 0;
        for p in &self.contacts {
            let key = p.key();
            while before.get(k).is_some_and(|t| t.key() < key) {
                k += 1;
            }
            let was = before.get(k).is_some_and(|t| t.key() == key);
            if self.contact_touches(p, was) {
                out.push(Touch {
                    a: p.a,
                    b: p.b,
                    sensor: false,
                });
            }
        }
    }

    /// Whether the cached pair `p` touches, `was` saying whether it touched before. The
    /// reach is at least [`TOUCH_SLOP`], so a point within that answers before the colliders'
    /// margins are looked up (most pairs of a resting pile). Cached pairs are of live
    /// colliders (removal drops a collider's pairs; a restore checks them).
    fn contact_touches(&self, p: &PairContacts<D>, was: bool) -> bool {
        if pair_touches(p, TOUCH_SLOP) {
            return true;
        }
        if !was {
            return false;
        }
        let (Some(ca), Some(cb)) = (self.colliders.get(p.a), self.colliders.get(p.b)) else {
            return false;
        };
        pair_touches(p, ca.margin.max(cb.margin).max(TOUCH_SLOP))
    }

    /// Candidate pairs with exactly one sensor that overlap at the end of the step,
    /// tested in parallel and gathered in pair order.
    fn sensor_overlaps(&self) -> Vec<Touch> {
        if !self.colliders.iter().any(|(_, c)| c.sensor) {
            return Vec::new();
        }
        let jobs: Vec<_> = self
            .pairs
            .iter()
            .filter_map(|&(ka, kb)| {
                let a = ColliderHandle(RawHandle::from_bits(ka));
                let b = ColliderHandle(RawHandle::from_bits(kb));
                let (ca, cb) = (self.colliders.get(a)?, self.colliders.get(b)?);
                let moving = |c: &crate::body::Collider<D>| {
                    self.bodies
                        .get(c.body)
                        .is_some_and(|b| b.kind != crate::desc::BodyKind::Fixed)
                };
                let ok = ca.sensor != cb.sensor
                    && (moving(ca) || moving(cb))
                    && ca.aabb.intersects(&cb.aabb)
                    && self.pair_allowed(a, ca, b, cb);
                ok.then_some((a, ca, b, cb))
            })
            .collect();
        let opts = ContactOptions::default();
        jobs.par_iter()
            .filter(|(_, ca, _, cb)| {
                fathom_narrowphase::intersects(
                    &ca.shape as &dyn Sdf<D>,
                    &ca.world_pose,
                    &cb.shape as &dyn Sdf<D>,
                    &cb.world_pose,
                    &opts,
                )
                // Shapes are validated on the way in; a failed query reports no overlap.
                .is_ok_and(|i| i.intersecting)
            })
            .map(|(a, _, b, _)| Touch {
                a: *a,
                b: *b,
                sensor: true,
            })
            .collect()
    }

    /// Started/entered for pairs new in `now`, stopped/exited for pairs gone from it.
    fn touch_changes(&self, now: &[Touch]) -> Vec<WorldEvent<D>> {
        let mut out = Vec::new();
        // A settled step's sets are mostly the same: the common start has no events.
        let same = self
            .touching
            .iter()
            .zip(now)
            .take_while(|(o, n)| o == n)
            .count();
        let (mut i, mut j) = (same, same);
        while i < self.touching.len() || j < now.len() {
            let old = self.touching.get(i);
            let new = now.get(j);
            match (old, new) {
                (Some(o), Some(n)) if o.key() == n.key() => {
                    if o.sensor != n.sensor {
                        // A collider became (or stopped being) a sensor: end the old kind, start the new.
                        out.push(self.ended(o));
                        out.push(self.began(n));
                    }
                    i += 1;
                    j += 1;
                }
                (Some(o), Some(n)) if o.key() < n.key() => {
                    out.push(self.ended(o));
                    i += 1;
                }
                (Some(o), None) => {
                    out.push(self.ended(o));
                    i += 1;
                }
                (_, Some(n)) => {
                    out.push(self.began(n));
                    j += 1;
                }
                (None, None) => unreachable!("loop condition"),
            }
        }
        out
    }

    fn sensor_and_other(&self, t: &Touch) -> (ColliderHandle, ColliderHandle) {
        match self.colliders.get(t.b) {
            Some(cb) if cb.sensor => (t.b, t.a),
            _ => (t.a, t.b),
        }
    }

    fn began(&self, t: &Touch) -> WorldEvent<D> {
        if t.sensor {
            let (sensor, other) = self.sensor_and_other(t);
            WorldEvent::SensorEntered { sensor, other }
        } else {
            WorldEvent::ContactStarted { a: t.a, b: t.b }
        }
    }

    fn ended(&self, t: &Touch) -> WorldEvent<D> {
        let removed = !(self.colliders.contains(t.a) && self.colliders.contains(t.b));
        if t.sensor {
            let (sensor, other) = self.sensor_and_other(t);
            WorldEvent::SensorExited {
                sensor,
                other,
                removed,
            }
        } else {
            WorldEvent::ContactStopped {
                a: t.a,
                b: t.b,
                removed,
            }
        }
    }

    /// A force event for every cached pair whose total normal force exceeds the lower
    /// threshold of its two colliders.
    fn force_events(&self) -> Vec<WorldEvent<D>> {
        let dt = self.settings.dt;
        let mut out = Vec::new();
        if self
            .colliders
            .iter()
            .all(|(_, c)| c.force_event_threshold.is_none())
        {
            return out;
        }
        for p in &self.contacts {
            let (Some(ca), Some(cb)) = (self.colliders.get(p.a), self.colliders.get(p.b)) else {
                continue;
            };
            let threshold = match (ca.force_event_threshold, cb.force_event_threshold) {
                (Some(x), Some(y)) => x.min(y),
                (Some(x), None) | (None, Some(x)) => x,
                (None, None) => continue,
            };
            let (mut total, mut max_point, mut dir) = (0.0, 0.0 as Real, Vector::<D>::zeros());
            for m in &p.manifolds {
                for q in &m.points {
                    let f = q.total_normal_impulse / dt;
                    total += f;
                    max_point = max_point.max(f);
                    dir += m.normal * f;
                }
            }
            let n = dir.norm();
            if total > threshold && n > 0.0 {
                out.push(WorldEvent::ContactForce {
                    a: p.a,
                    b: p.b,
                    total_force: total,
                    max_point_force: max_point,
                    direction: dir / n,
                });
            }
        }
        out
    }
}

/// True when a point of the pair is within `reach` or carried a normal impulse.
fn pair_touches<const D: usize>(p: &PairContacts<D>, reach: Real) -> bool
where
    Space<D>: Dim<D>,
{
    p.manifolds
        .iter()
        .flat_map(|m| m.points.iter())
        .any(|q| q.separation <= reach || q.total_normal_impulse > 0.0)
}
