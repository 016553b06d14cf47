//! Capsule casts: a segment with a radius, swept along a direction.
//!
//! The gap between a capsule and the surface is the smallest `d / L - r` over
//! its core segment `c + s a`, `s` in `[-1, 1]`. A single sample does not bound
//! that, so each step runs a bound-split search on the segment parameter
//! ([`crate::bound_split`]): along the segment `d / L` changes by at most `|a|`
//! per unit of `s`, so a sub-interval sampled at its middle `s_m` with half
//! width `w` is no closer than `d(c + s_m a) / L - r - |a| w`. The search
//! returns a proven lower bound (the step) and the closest sample (the hit
//! test and the contact point). It never samples and hopes: the step is always
//! the certified bound, so a thin feature between two samples is never
//! stepped over. The cost is the refinement near the surface: a capsule
//! lying flat against a face needs about `2 |a| / epsilon` samples in its
//! last steps, which [`CastOptions::max_evaluations`] caps (reported as a step cap).

use crate::bound_split::{minimise, Eval, Scratch, Stop};
use crate::error::Result;
use crate::field::Field;
use crate::march::{Probe, Sample};
use crate::options::CastOptions;
use crate::result::CastResult;
use fathom_math::{Aabb, Real, Vector};
use fathom_sdf::Sdf;

/// A segment `c + s a`, `s` in `[-1, 1]`, inflated by `radius`.
pub(crate) struct SegmentProbe<const D: usize> {
    pub half_axis: Vector<D>,
    pub radius: Real,
    heap: Scratch<1>,
}

impl<const D: usize> SegmentProbe<D> {
    pub(crate) fn new(half_axis: Vector<D>, radius: Real) -> Self {
        Self {
            half_axis,
            radius,
            heap: Scratch::new(),
        }
    }
}

impl<const D: usize> Probe<D> for SegmentProbe<D> {
    fn reach(&self) -> Real {
        self.half_axis.norm() + self.radius
    }
    fn radius(&self) -> Real {
        self.radius
    }
    fn sample(
        &mut self,
        field: &Field<'_, D>,
        center: &Vector<D>,
        threshold: Real,
        epsilon: Real,
        budget: u32,
    ) -> Result<Sample<D>> {
        let root = Aabb::<1>::new(Vector::<1>::new(-1.0), Vector::<1>::new(1.0));
        let stop = Stop {
            threshold,
            epsilon,
            budget,
        };
        let (a, r) = (self.half_axis, self.radius);
        let at = |s: &Vector<1>| center + a * s[0];
        let m = minimise(&root, a.norm(), &stop, &mut self.heap, |s, _| {
            Ok(Eval::Value(field.value(&at(s))? - r, true))
        })?;
        Ok(Sample {
            lower: m.lower,
            upper: m.upper,
            at: at(&m.argmin),
            evals: m.evals,
        })
    }
}

/// Casts a capsule (the segment from `center - half_axis` to `center + half_axis`,
/// inflated by `radius`) along `dir` for at most `max_dist` against `sdf`. Local frame,
/// metres; `Hit::center` is where the segment's midpoint is at contact.
///
/// Errors as [`crate::sphere_cast`], plus a non-finite `half_axis`.
pub fn capsule_cast<const D: usize>(
    sdf: &dyn Sdf<D>,
    center: &Vector<D>,
    half_axis: &Vector<D>,
    radius: Real,
    dir: &Vector<D>,
    max_dist: Real,
    opts: &CastOptions,
) -> Result<CastResult<D>> {
    let shape = crate::posed::CastShape::Capsule {
        half_axis: *half_axis,
        radius,
    };
    crate::posed::cast_from("center", sdf, &shape, center, dir, max_dist, opts)
}
