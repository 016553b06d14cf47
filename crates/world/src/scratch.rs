//! Buffers a step fills and empties, kept by the world so that a steady step reuses last
//! step's memory instead of allocating: each stage clears its buffer and refills it.
//! Nothing here outlives a step's meaning; it is never serialised.

use crate::arena::ColliderHandle;
use crate::contacts::PairContacts;
use crate::events::Touch;
use crate::islands::{ColliderMotion, Found, FoundPair};
use crate::reuse::{PairBasis, SeparatedPair};
use fathom_math::{Dim, Pose, Real, Space};
use fathom_narrowphase::Manifold;
use fathom_solver::{ContactConstraint, SolverBody, SolverScratch};

/// One narrowphase query: the pair, its poses and its speculative reach (the shapes are
/// read from the world by handle).
#[derive(Clone)]
pub(crate) struct PairJob<const D: usize>
where
    Space<D>: Dim<D>,
{
    pub a: ColliderHandle,
    pub b: ColliderHandle,
    pub pose_a: Pose<D>,
    pub pose_b: Pose<D>,
    pub margin: Real,
    /// The pair's index in the contact cache, if it has one.
    pub cached: Option<usize>,
    /// The pair's index in the world's separated pairs, if it has one.
    pub separated: Option<usize>,
}

/// The step's reusable buffers (see the module docs).
#[derive(Default)]
pub(crate) struct StepScratch<const D: usize>
where
    Space<D>: Dim<D>,
{
    pub start_poses: Vec<Option<Pose<D>>>,
    pub motion: ColliderMotion,
    pub jobs: Vec<PairJob<D>>,
    /// One manifold buffer per job (at least as many as jobs); a pair's buffer moves into
    /// `found` and comes back cleared when the step ends.
    pub buffers: Vec<Vec<Manifold<D>>>,
    /// Per job, what its manifolds were computed from and whether they were last step's
    /// (taken into `found`).
    pub bases: Vec<(Option<PairBasis<D>>, bool)>,
    /// This step's separated pairs (swapped with the world's).
    pub separated: Vec<SeparatedPair<D>>,
    pub found: Found<D>,
    pub bodies: Vec<SolverBody<D>>,
    pub index: Vec<usize>,
    pub constraints: Vec<ContactConstraint<D>>,
    /// Per found pair, its first constraint in `constraints`, and one more entry: the
    /// total (pair `i`'s constraints are `firsts[i]..firsts[i + 1]`, one per manifold).
    pub firsts: Vec<usize>,
    /// This step's cache entries of the found pairs, in pair order, before the sleeping
    /// pairs are merged in.
    pub fresh: Vec<PairContacts<D>>,
    pub solver: SolverScratch<D>,
    /// Last step's contact cache, emptied, for the next one to fill.
    pub cache: Vec<PairContacts<D>>,
    /// Last step's touching set, emptied.
    pub touching: Vec<Touch>,
}

impl<const D: usize> StepScratch<D>
where
    Space<D>: Dim<D>,
{
    /// At least `n` manifold buffers, each empty.
    pub fn buffers_for(&mut self, n: usize) {
        if self.buffers.len() < n {
            self.buffers.resize_with(n, Vec::new);
        }
        if self.bases.len() < n {
            self.bases.resize(n, (None, false));
        }
    }

    /// The step's manifolds are spent: their buffers go back, cleared, for the next step.
    pub fn recycle(&mut self, mut found: Found<D>) {
        let mut spare = self.buffers.iter_mut().filter(|b| b.capacity() == 0);
        for FoundPair { mut manifolds, .. } in found.drain(..) {
            manifolds.clear();
            match spare.next() {
                Some(slot) => *slot = manifolds,
                None => break,
            }
        }
        self.found = found;
    }
}
