//! Which collider pairs may interact: collision groups, sensors and the
//! game's per-pair hook.
//!
//! Three layers decide whether two colliders produce contacts, cheapest first:
//!
//! 1. structural: colliders of the same body never touch, and a pair needs a dynamic body;
//! 2. [`CollisionGroups`]: two bit masks per collider, tested both ways (each must be in
//!    a group the other accepts), the scheme of Rapier and Box2D's category/mask bits;
//! 3. the [`PairFilter`] hook, game code called for pairs that passed 1 and 2.
//!
//! A pair that fails never reaches the narrowphase, so it costs nothing and can
//! never touch. Sensors pass the same filters but are tested for overlap only
//! (see `events.rs`): they never reach the solver.
//!
//! Scene queries use [`QueryFilter`], which applies the same group test against
//! the query's own groups, plus "exclude this body / collider / sensors".

use crate::arena::{BodyHandle, ColliderHandle};
use crate::body::Collider;
use crate::world::World;
use fathom_math::{Dim, Space};
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// Membership and filter bit masks. Two colliders may touch when each one's
/// memberships intersect the other's filter. The default is in every group and
/// accepts every group.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(default)]
pub struct CollisionGroups {
    /// The groups this collider belongs to (one bit per group).
    pub memberships: u32,
    /// The groups this collider may touch.
    pub filter: u32,
}

impl Default for CollisionGroups {
    fn default() -> Self {
        Self::ALL
    }
}

impl CollisionGroups {
    /// In every group, touches every group.
    pub const ALL: Self = Self {
        memberships: u32::MAX,
        filter: u32::MAX,
    };
    /// In no group, touches nothing.
    pub const NONE: Self = Self {
        memberships: 0,
        filter: 0,
    };

    /// Groups with these masks.
    pub fn new(memberships: u32, filter: u32) -> Self {
        Self {
            memberships,
            filter,
        }
    }

    /// True when `self` and `other` accept each other.
    pub fn interacts_with(&self, other: &Self) -> bool {
        (self.memberships & other.filter) != 0 && (other.memberships & self.filter) != 0
    }
}

/// The colliders and bodies of a candidate pair, as the [`PairFilter`] sees them
/// (`collider_a` has the lower handle).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FilterPair {
    /// The first collider.
    pub collider_a: ColliderHandle,
    /// The second collider.
    pub collider_b: ColliderHandle,
    /// The first collider's body.
    pub body_a: BodyHandle,
    /// The second collider's body.
    pub body_b: BodyHandle,
}

/// Game code deciding, per candidate pair, whether it may touch (or, for a sensor,
/// be detected). Called during the step, possibly from several threads, so it
/// must be a pure function of its input for the step to stay deterministic.
pub trait PairFilter: Send + Sync {
    /// True to let the pair interact.
    fn allow(&self, pair: &FilterPair) -> bool;
}

impl<F: Fn(&FilterPair) -> bool + Send + Sync> PairFilter for F {
    fn allow(&self, pair: &FilterPair) -> bool {
        self(pair)
    }
}

/// Which colliders a scene query may report. The default reports every collider.
///
/// A ray cast down from a player's eye, skipping the player's own body to find the floor:
///
/// ```
/// use fathom_math::Vector3;
/// use fathom_world::{BodyDesc, ColliderDesc, QueryFilter, Shape, World3};
///
/// let mut world = World3::default();
/// let floor = world.add_body(&BodyDesc::fixed()
///     .collider(ColliderDesc::new(Shape::half_space(Vector3::y(), 0.0)?)))?;
/// let player = world.add_body(&BodyDesc::dynamic()
///     .position(Vector3::new(0.0, 1.0, 0.0))
///     .collider(ColliderDesc::new(Shape::capsule(0.5, 0.3)?)))?;
/// let (eye, down) = (Vector3::new(0.0, 1.5, 0.0), -Vector3::y());
///
/// let hit = world.cast_ray(&eye, &down, 10.0, &QueryFilter::new())?.unwrap();
/// assert_eq!(hit.body, player); // the eye is inside the player's capsule
/// assert!(hit.started_inside && hit.distance == 0.0);
///
/// let skip_self = QueryFilter::new().exclude_body(player);
/// let hit = world.cast_ray(&eye, &down, 10.0, &skip_self)?.unwrap();
/// assert_eq!(hit.body, floor);
/// assert!((hit.distance - 1.5).abs() < 1e-3); // casts stop within 1 mm of the surface
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Default)]
pub struct QueryFilter<'a> {
    /// The query's own groups, tested against each collider's like a pair's.
    pub groups: CollisionGroups,
    /// Skip every collider of this body (e.g. the vehicle's own chassis).
    pub exclude_body: Option<BodyHandle>,
    /// Skip this collider.
    pub exclude_collider: Option<ColliderHandle>,
    /// Skip sensors.
    pub exclude_sensors: bool,
    /// Game code: report a collider only when this returns true.
    pub predicate: Option<&'a (dyn Fn(ColliderHandle) -> bool + Sync)>,
}

impl std::fmt::Debug for QueryFilter<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("QueryFilter")
            .field("groups", &self.groups)
            .field("exclude_body", &self.exclude_body)
            .field("exclude_collider", &self.exclude_collider)
            .field("exclude_sensors", &self.exclude_sensors)
            .field("predicate", &self.predicate.map(|_| "<fn>"))
            .finish()
    }
}

impl<'a> QueryFilter<'a> {
    /// Reports every collider.
    pub fn new() -> Self {
        Self::default()
    }
    /// Sets the query's groups.
    pub fn groups(mut self, groups: CollisionGroups) -> Self {
        self.groups = groups;
        self
    }
    /// Skips the colliders of `body`.
    pub fn exclude_body(mut self, body: BodyHandle) -> Self {
        self.exclude_body = Some(body);
        self
    }
    /// Skips `collider`.
    pub fn exclude_collider(mut self, collider: ColliderHandle) -> Self {
        self.exclude_collider = Some(collider);
        self
    }
    /// Skips sensors.
    pub fn exclude_sensors(mut self) -> Self {
        self.exclude_sensors = true;
        self
    }
    /// Reports only colliders for which `f` returns true.
    pub fn predicate(mut self, f: &'a (dyn Fn(ColliderHandle) -> bool + Sync)) -> Self {
        self.predicate = Some(f);
        self
    }

    /// True when the query may report collider `h`.
    pub fn accepts<const D: usize>(&self, h: ColliderHandle, c: &Collider<D>) -> bool
    where
        Space<D>: Dim<D>,
    {
        self.groups.interacts_with(&c.groups)
            && self.exclude_body != Some(c.body)
            && self.exclude_collider != Some(h)
            && !(self.exclude_sensors && c.sensor)
            && self.predicate.is_none_or(|p| p(h))
    }
}

/// The world's optional game hooks (not serialised: code stays with the world object).
#[derive(Clone)]
pub(crate) struct Hooks<const D: usize>
where
    Space<D>: Dim<D>,
{
    pub(crate) pair_filter: Option<Arc<dyn PairFilter>>,
    pub(crate) contact_modifier: Option<Arc<dyn crate::modify::ContactModifier<D>>>,
}

impl<const D: usize> Default for Hooks<D>
where
    Space<D>: Dim<D>,
{
    fn default() -> Self {
        Self {
            pair_filter: None,
            contact_modifier: None,
        }
    }
}

impl<const D: usize> World<D>
where
    Space<D>: Dim<D>,
{
    /// Installs (or with `None` removes) the game's per-pair filter. It applies from the
    /// next step; contacts of pairs it now rejects end then (with `ContactStopped` events).
    pub fn set_pair_filter(&mut self, filter: Option<Arc<dyn PairFilter>>) {
        self.hooks.pair_filter = filter;
    }

    /// True when colliders `a` and `b` (on different bodies) may interact: their
    /// groups accept each other and the hook, if any, allows them. Sensors included.
    pub(crate) fn pair_allowed(
        &self,
        a: ColliderHandle,
        ca: &Collider<D>,
        b: ColliderHandle,
        cb: &Collider<D>,
    ) -> bool {
        if !ca.groups.interacts_with(&cb.groups) {
            return false;
        }
        match &self.hooks.pair_filter {
            Some(hook) => hook.allow(&FilterPair {
                collider_a: a,
                collider_b: b,
                body_a: ca.body,
                body_b: cb.body,
            }),
            None => true,
        }
    }

    /// True when the pair should reach the contact solver: allowed, and neither is a sensor.
    pub(crate) fn contact_allowed(
        &self,
        a: ColliderHandle,
        ca: &Collider<D>,
        b: ColliderHandle,
        cb: &Collider<D>,
    ) -> bool {
        !ca.sensor && !cb.sensor && self.pair_allowed(a, ca, b, cb)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn groups_must_accept_each_other_both_ways() {
        let a = CollisionGroups::new(0b01, 0b10);
        let b = CollisionGroups::new(0b10, 0b01);
        assert!(a.interacts_with(&b) && b.interacts_with(&a));
        // b accepts a, but a does not accept b: no interaction either way.
        let c = CollisionGroups::new(0b10, 0b11);
        let d = CollisionGroups::new(0b01, 0b01);
        assert!(!c.interacts_with(&d) && !d.interacts_with(&c));
        assert!(CollisionGroups::ALL.interacts_with(&CollisionGroups::ALL));
        assert!(!CollisionGroups::NONE.interacts_with(&CollisionGroups::ALL));
    }
}
