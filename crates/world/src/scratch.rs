//! Buffers a step fills and empties, kept by the world so that a steady step reuses last
//! step's memory instead of allocating: each stage clears its buffer and refills it.
//! Nothing here outlives a step's meaning; it is never serialised.

use crate::arena::ColliderHandle;
use crate::ccd_stage::Sweep;
use crate::contacts::{CachedManifold, PairContacts};
use crate::events::Touch;
use crate::islands::{ColliderMotion, Found, FoundFrom};
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
    /// Each awake moving body's motion over the step, by arena index (continuous collision).
    pub sweeps: Vec<Option<Sweep<D>>>,
    pub motion: ColliderMotion,
    /// The jobs of each run of candidate pairs, found in parallel (`World::pair_jobs`).
    pub job_parts: Vec<Vec<PairJob<D>>>,
    /// The candidate list before last, emptied, for the next merge (`World::update_pairs`).
    pub pairs: Vec<(u64, u64)>,
    /// One manifold buffer per job (at least as many as jobs); a pair's buffer moves into
    /// `found`, then into the contact cache, and the buffer the pair had in the cache comes
    /// back cleared (`World::cache_contacts`).
    pub buffers: Vec<Vec<CachedManifold<D>>>,
    /// One narrowphase output buffer per job, converted into `buffers` with warm starts.
    pub raw: Vec<Vec<Manifold<D>>>,
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
    pub solver: SolverScratch<D>,
    /// A contact cache, emptied, for a step merging sleeping pairs in to fill.
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
        if self.raw.len() < n {
            self.raw.resize_with(n, Vec::new);
        }
        if self.bases.len() < n {
            self.bases.resize(n, (None, false));
        }
    }

    /// The step is over: `found`'s manifolds went into the cache; its lists come back empty.
    pub fn recycle(&mut self, mut found: Found<D>) {
        found.clear();
        self.found = found;
    }

    /// The found pair `f`'s buffer in the old cache, cleared, into the job buffer its new
    /// manifolds were taken from: a settled step's pairs swap the same two buffers back and
    /// forth, found by index.
    pub fn give_back(&mut self, f: &FoundFrom, old_cache: &mut [PairContacts<D>]) {
        if let (Some(job), Some(cached)) = (f.job, f.cached) {
            let mut spent = std::mem::take(&mut old_cache[cached].manifolds);
            spent.clear();
            self.buffers[job] = spent;
        }
    }
}
