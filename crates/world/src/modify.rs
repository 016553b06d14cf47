//! Contact modification: game code that sees each contact manifold after collision and before
//! the solver, and may change its friction, restitution and sliding (tangent) velocity, or
//! leave points out of the solve. Conveyor belts and one-way platforms are built on it, and
//! ship here as [`Conveyor`] and [`OneWayPlatform`].
//!
//! The changes apply to this step's solve only: the manifold itself (its points, the events
//! and the contact cache) is what collision found. A dropped point gets no impulse and starts
//! the next step cold. The hook runs on the step's thread, manifold by manifold in pair order
//! (the order of [`crate::World::contact_pairs`]), so a hook with state sees the same
//! sequence on every run and thread count. Its options apply to the whole manifold, as
//! Jolt's contact settings do; the points can only be kept or dropped.

use crate::arena::{BodyHandle, ColliderHandle};
use crate::body::Body;
use crate::contacts::CachedPoint;
use crate::world::World;
use fathom_math::{Dim, Real, Space, Vector, MAX_MANIFOLD_POINTS};
use fathom_solver::ContactConstraint;
use std::sync::Arc;

/// One manifold as a [`ContactModifier`] sees it. A is the collider with the lower handle.
pub struct ModifiableContact<'a, const D: usize>
where
    Space<D>: Dim<D>,
{
    /// The first collider.
    pub collider_a: ColliderHandle,
    /// The second collider.
    pub collider_b: ColliderHandle,
    /// The first collider's body.
    pub body_a: BodyHandle,
    /// The second collider's body.
    pub body_b: BodyHandle,
    /// The bodies as the step starts (pose, velocities, mass), A's then B's.
    pub bodies: [&'a Body<D>; 2],
    /// Unit normal from A towards B, world.
    pub normal: Vector<D>,
    /// The points collision found (world points on each surface, separation, id).
    pub points: &'a [CachedPoint<D>],
    /// Coulomb friction of the contact (the colliders' combined coefficient going in).
    pub friction: Real,
    /// Restitution of the contact (the larger of the colliders' going in).
    pub restitution: Real,
    /// The velocity at which B's surface should slide relative to A's, world, m/s; friction
    /// drives the contact towards it instead of towards sticking. Only its part in the
    /// tangent plane counts.
    pub tangent_velocity: Vector<D>,
    keep: [bool; MAX_MANIFOLD_POINTS],
}

impl<const D: usize> ModifiableContact<'_, D>
where
    Space<D>: Dim<D>,
{
    /// Leaves point `i` of [`Self::points`] out of this step's solve.
    pub fn drop_point(&mut self, i: usize) {
        if let Some(k) = self.keep.get_mut(i) {
            *k = false;
        }
    }
    /// Leaves every point out: the bodies pass through each other this step.
    pub fn drop_all(&mut self) {
        self.keep = [false; MAX_MANIFOLD_POINTS];
    }
    /// True while point `i` is solved.
    pub fn is_kept(&self, i: usize) -> bool {
        i < self.points.len() && self.keep[i]
    }
    /// The velocity of `body`'s material point at world position `p`, m/s (for a hook that
    /// compares how the two sides move).
    pub fn velocity_at(&self, side: usize, p: &Vector<D>) -> Vector<D> {
        self.bodies[side].velocity_at(p)
    }
    /// Which side (0 for A, 1 for B) collider `c` is, if it is in this contact.
    pub fn side_of(&self, c: ColliderHandle) -> Option<usize> {
        [self.collider_a, self.collider_b]
            .iter()
            .position(|&x| x == c)
    }
}

/// Game code that changes contacts before the solver (see the module docs). It must be
/// `Send + Sync`; the world calls it from the step.
pub trait ContactModifier<const D: usize>: Send + Sync
where
    Space<D>: Dim<D>,
{
    /// Changes `contact` in place.
    fn modify(&self, contact: &mut ModifiableContact<'_, D>);
}

impl<const D: usize, F> ContactModifier<D> for F
where
    Space<D>: Dim<D>,
    F: Fn(&mut ModifiableContact<'_, D>) + Send + Sync,
{
    fn modify(&self, contact: &mut ModifiableContact<'_, D>) {
        self(contact)
    }
}

/// Several modifiers, run in order on every contact.
impl<const D: usize> ContactModifier<D> for Vec<Arc<dyn ContactModifier<D>>>
where
    Space<D>: Dim<D>,
{
    fn modify(&self, contact: &mut ModifiableContact<'_, D>) {
        for m in self {
            m.modify(contact);
        }
    }
}

/// A conveyor belt: whatever touches `collider` is carried at `velocity` (world, m/s) along
/// the belt's surface, as far as friction allows.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Conveyor<const D: usize>
where
    Space<D>: Dim<D>,
{
    /// The belt's collider.
    pub collider: ColliderHandle,
    /// The belt surface's speed, world, m/s.
    pub velocity: Vector<D>,
}

impl<const D: usize> ContactModifier<D> for Conveyor<D>
where
    Space<D>: Dim<D>,
{
    fn modify(&self, contact: &mut ModifiableContact<'_, D>) {
        // B's surface relative to A's: the carried body moves at the belt's speed.
        match contact.side_of(self.collider) {
            Some(0) => contact.tangent_velocity += self.velocity,
            Some(_) => contact.tangent_velocity -= self.velocity,
            None => {}
        }
    }
}

/// A one-way platform: bodies pass through `collider` moving along `up` and land on it from
/// above. A contact holds only while its normal (from the platform to the other body) is
/// within `max_angle` of `up` and the other body is not rising through the platform.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct OneWayPlatform<const D: usize>
where
    Space<D>: Dim<D>,
{
    /// The platform's collider.
    pub collider: ColliderHandle,
    /// Unit direction in which bodies pass through, world.
    pub up: Vector<D>,
    /// Largest angle between a holding contact's normal and `up`, radians.
    pub max_angle: Real,
}

impl<const D: usize> OneWayPlatform<D>
where
    Space<D>: Dim<D>,
{
    /// A platform passed through along `up` (normalised here), holding contacts within 45°
    /// of it. `None` when `up` is zero or not finite.
    pub fn new(collider: ColliderHandle, up: Vector<D>) -> Option<Self> {
        let up = up.try_normalize(Real::EPSILON)?;
        Some(Self {
            collider,
            up,
            max_angle: std::f32::consts::FRAC_PI_4 as Real,
        })
    }
}

/// Rising faster than this through a platform, m/s, passes it (below it a resting body's
/// jitter would let it sink through).
const RISING_SPEED: Real = 0.01;

impl<const D: usize> ContactModifier<D> for OneWayPlatform<D>
where
    Space<D>: Dim<D>,
{
    fn modify(&self, contact: &mut ModifiableContact<'_, D>) {
        let Some(side) = contact.side_of(self.collider) else {
            return;
        };
        let (platform, other) = (side, 1 - side);
        // The normal points from A to B: from the platform to the other body when it is A.
        let normal = if platform == 0 {
            contact.normal
        } else {
            -contact.normal
        };
        if normal.dot(&self.up) < self.max_angle.cos() {
            contact.drop_all();
            return;
        }
        for (i, p) in contact.points.iter().enumerate() {
            let at = (p.point_a + p.point_b) * 0.5;
            let rising = (contact.velocity_at(other, &at) - contact.velocity_at(platform, &at))
                .dot(&self.up);
            if rising > RISING_SPEED {
                contact.drop_point(i);
            }
        }
    }
}

impl<const D: usize> World<D>
where
    Space<D>: Dim<D>,
{
    /// Installs (or with `None` removes) the game's contact modifier; it applies from the next
    /// step. Like the pair filter it is code, so snapshots do not carry it and a restore
    /// keeps the one installed.
    pub fn set_contact_modifier(&mut self, modifier: Option<Arc<dyn ContactModifier<D>>>) {
        self.hooks.contact_modifier = modifier;
    }

    /// Step stage 4b: the contact modifier sees each manifold of `found` in pair order and
    /// changes its constraint (`constraints`, one per manifold in the same order); values
    /// the solver cannot use (negative or not finite) leave the constraint's own.
    pub(crate) fn modify_contacts(
        &self,
        found: &crate::islands::Found<D>,
        constraints: &mut [ContactConstraint<D>],
    ) {
        let Some(modifier) = &self.hooks.contact_modifier else {
            return;
        };
        let manifolds = found
            .pairs
            .iter()
            .flat_map(|f| f.manifolds.iter().map(move |m| (f, m)));
        for ((f, m), c) in manifolds.zip(constraints) {
            let (ca, cb) = (
                self.colliders.get(f.a).expect("live"),
                self.colliders.get(f.b).expect("live"),
            );
            let mut contact = ModifiableContact {
                collider_a: f.a,
                collider_b: f.b,
                body_a: ca.body,
                body_b: cb.body,
                bodies: [
                    self.bodies.get(ca.body).expect("live"),
                    self.bodies.get(cb.body).expect("live"),
                ],
                normal: m.normal,
                points: &m.points,
                friction: c.friction,
                restitution: c.restitution,
                tangent_velocity: c.tangent_velocity,
                keep: [true; MAX_MANIFOLD_POINTS],
            };
            modifier.modify(&mut contact);
            contact.apply_to(c);
        }
    }
}

impl<const D: usize> ModifiableContact<'_, D>
where
    Space<D>: Dim<D>,
{
    /// The hook's decisions into the contact's constraint, but for values the solver cannot
    /// use (negative or not finite), which leave the constraint's own.
    fn apply_to(&self, c: &mut ContactConstraint<D>) {
        if self.friction.is_finite() && self.friction >= 0.0 {
            c.friction = self.friction;
        }
        if self.restitution.is_finite() && self.restitution >= 0.0 {
            c.restitution = self.restitution;
        }
        if fathom_math::is_finite_vec(&self.tangent_velocity) {
            c.tangent_velocity = self.tangent_velocity;
        }
        if self.keep.iter().take(c.points.len()).any(|k| !k) {
            let kept = c.points.iter().zip(self.keep).filter(|(_, k)| *k);
            c.points = kept.map(|(p, _)| p.clone()).collect();
        }
    }
}
