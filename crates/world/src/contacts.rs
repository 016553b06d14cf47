//! The contact cache: last step's manifolds per collider pair, kept sorted by
//! the pair's handles so lookups and iteration are deterministic.
//!
//! Each point keeps its identifier from the narrowphase and the impulses the
//! solver ended the step with; next step, a point with the same identifier
//! starts from those impulses (warm starting). Friction is stored as a world
//! vector and projected onto the new tangents, so warm starting survives a
//! slowly turning normal in 3D.

use crate::arena::{BodyHandle, ColliderHandle};
use crate::reuse::PairBasis;
use fathom_math::{Dim, ManifoldPoints, Real, Space, Vector};
use serde::{Deserialize, Serialize};

/// One contact point as the world keeps it.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(bound = "")]
pub struct CachedPoint<const D: usize> {
    /// Point on collider A's surface, world, metres (at the start of the last step).
    pub point_a: Vector<D>,
    /// Point on collider B's surface, world, metres.
    pub point_b: Vector<D>,
    /// Signed separation along the normal, metres (< 0 penetrating, > 0 speculative).
    pub separation: Real,
    /// Identifier stable while the contact persists.
    pub id: u32,
    /// Normal impulse of the last substep, N s (the warm start).
    pub normal_impulse: Real,
    /// Friction impulse of the last substep, world, N s.
    pub friction_impulse: Vector<D>,
    /// Normal impulse over the whole last step, N s (`/ dt` gives the contact force).
    pub total_normal_impulse: Real,
}

/// One manifold: a normal and its points.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(bound = "")]
pub struct CachedManifold<const D: usize> {
    /// Unit normal from A to B, world.
    pub normal: Vector<D>,
    /// Its points.
    pub points: ManifoldPoints<CachedPoint<D>>,
}

/// The manifolds of one collider pair (`a` has the lower handle index).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(bound = "")]
pub struct PairContacts<const D: usize>
where
    Space<D>: Dim<D>,
{
    /// Collider A.
    pub a: ColliderHandle,
    /// Collider B.
    pub b: ColliderHandle,
    /// Manifolds (one per contact region).
    pub manifolds: Vec<CachedManifold<D>>,
    /// What the manifolds were computed from, for reusing them (`reuse.rs`); `None`: compute
    /// them afresh next step.
    pub basis: Option<PairBasis<D>>,
}

/// The sort key of the collider pair `a`, `b`: every per-pair list of the world is in this
/// order.
pub(crate) fn pair_key(a: ColliderHandle, b: ColliderHandle) -> (u64, u64) {
    (a.0.to_bits(), b.0.to_bits())
}

impl<const D: usize> PairContacts<D>
where
    Space<D>: Dim<D>,
{
    /// The sort key of the pair.
    pub fn key(&self) -> (u64, u64) {
        pair_key(self.a, self.b)
    }

    /// Last step's impulses of the point `id`: (normal impulse, friction vector).
    pub fn warm_start(&self, id: u32) -> Option<(Real, Vector<D>)> {
        self.manifolds
            .iter()
            .flat_map(|m| m.points.iter())
            .find(|p| p.id == id)
            .map(|p| (p.normal_impulse, p.friction_impulse))
    }
}

/// A contact of one body as the game sees it: one manifold, with the normal
/// pointing from this body towards the other.
#[derive(Clone, Debug, PartialEq)]
pub struct BodyContact<const D: usize> {
    /// This body's collider.
    pub collider: ColliderHandle,
    /// The other collider.
    pub other_collider: ColliderHandle,
    /// The other body.
    pub other_body: BodyHandle,
    /// Unit normal from this body towards the other, world.
    pub normal: Vector<D>,
    /// The points.
    pub points: Vec<BodyContactPoint<D>>,
}

/// A point of a [`BodyContact`].
#[derive(Clone, Debug, PartialEq)]
pub struct BodyContactPoint<const D: usize> {
    /// Point on this body's surface, world, metres.
    pub point: Vector<D>,
    /// Point on the other body's surface, world, metres.
    pub other_point: Vector<D>,
    /// Signed separation, metres (< 0 penetrating).
    pub separation: Real,
    /// Normal impulse the other body applied to this one over the last step, N s.
    pub normal_impulse: Real,
    /// Friction impulse over the last substep applied to this body, world, N s.
    pub friction_impulse: Vector<D>,
}

impl<const D: usize> BodyContact<D>
where
    Space<D>: Dim<D>,
{
    /// The contact seen from side A (`flip = false`) or side B.
    pub(crate) fn from_pair(
        pair: &PairContacts<D>,
        m: &CachedManifold<D>,
        other_body: BodyHandle,
        flip: bool,
    ) -> Self {
        let (collider, other_collider) = if flip {
            (pair.b, pair.a)
        } else {
            (pair.a, pair.b)
        };
        let points = m
            .points
            .iter()
            .map(|p| BodyContactPoint {
                point: if flip { p.point_b } else { p.point_a },
                other_point: if flip { p.point_a } else { p.point_b },
                separation: p.separation,
                normal_impulse: p.total_normal_impulse,
                // The stored friction impulse acts on B; A gets its opposite.
                friction_impulse: if flip {
                    p.friction_impulse
                } else {
                    -p.friction_impulse
                },
            })
            .collect();
        Self {
            collider,
            other_collider,
            other_body,
            normal: if flip { -m.normal } else { m.normal },
            points,
        }
    }
}
