//! Exact (sharp) constructive solid geometry: union, intersection, difference.
//!
//! `min` and `max` of fields with Lipschitz constants `L_i` have Lipschitz
//! constant `max(L_i)`: on any segment, the min/max follows one of the
//! children piecewise. The result is the exact distance outside a union of
//! exact fields and a lower bound elsewhere (inside a union, and everywhere for
//! an intersection or difference), which is all the bound-split search needs.

use crate::error::{Result, SdfError};
use crate::Sdf;
use fathom_math::{Aabb, Real, Vector};
use serde::{Deserialize, Serialize};

/// Distance reported by an (invalid, unvalidated) empty union: far away but finite.
const EMPTY_DISTANCE: Real = Real::MAX;

fn check_count(n: usize) -> Result<()> {
    if n == 0 {
        return Err(SdfError::TooSmall {
            field: "shapes",
            value: 0,
            min: 1,
        });
    }
    Ok(())
}

/// The union of one or more shapes: `min` of their fields.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Union<S> {
    /// The parts, at least one.
    pub shapes: Vec<S>,
}

impl<S> Union<S> {
    /// The union of `shapes` (at least one).
    pub fn new(shapes: Vec<S>) -> Result<Self> {
        check_count(shapes.len())?;
        Ok(Self { shapes })
    }

    /// Checks this operator's own fields (not the children's).
    pub fn validate_params(&self) -> Result<()> {
        check_count(self.shapes.len())
    }
}

/// The child with the least (or, with `sign = -1`, greatest) value at `p`, and that value.
fn extreme<const D: usize, S: Sdf<D>>(
    shapes: &[S],
    p: &Vector<D>,
    sign: Real,
) -> Option<(usize, Real)> {
    let mut best: Option<(usize, Real)> = None;
    for (i, s) in shapes.iter().enumerate() {
        let d = s.distance(p);
        if best.is_none_or(|(_, b)| sign * d < sign * b) {
            best = Some((i, d));
        }
    }
    best
}

fn max_lipschitz<const D: usize, S: Sdf<D>>(shapes: &[S]) -> Real {
    shapes.iter().map(|s| s.lipschitz()).fold(0.0, Real::max)
}

impl<S: Sdf<D>, const D: usize> Sdf<D> for Union<S> {
    fn distance(&self, p: &Vector<D>) -> Real {
        extreme(&self.shapes, p, 1.0).map_or(EMPTY_DISTANCE, |(_, d)| d)
    }
    fn bounds(&self) -> Aabb<D> {
        self.level_bounds(0.0)
    }
    fn level_bounds(&self, level: Real) -> Aabb<D> {
        self.shapes
            .iter()
            .fold(Aabb::EMPTY, |b, s| b.merge(&s.level_bounds(level)))
    }
    fn gradient(&self, p: &Vector<D>) -> Vector<D> {
        extreme(&self.shapes, p, 1.0)
            .map_or_else(Vector::zeros, |(i, _)| self.shapes[i].gradient(p))
    }
    fn lipschitz(&self) -> Real {
        max_lipschitz(&self.shapes)
    }
}

/// The intersection of one or more shapes: `max` of their fields. Its bounds are
/// [`Aabb::EMPTY`] when the parts' boxes do not overlap.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Intersection<S> {
    /// The parts, at least one.
    pub shapes: Vec<S>,
}

impl<S> Intersection<S> {
    /// The intersection of `shapes` (at least one).
    pub fn new(shapes: Vec<S>) -> Result<Self> {
        check_count(shapes.len())?;
        Ok(Self { shapes })
    }

    /// Checks this operator's own fields (not the children's).
    pub fn validate_params(&self) -> Result<()> {
        check_count(self.shapes.len())
    }
}

/// The common part of boxes, or [`Aabb::EMPTY`].
pub(crate) fn intersect_boxes<const D: usize>(a: &Aabb<D>, b: &Aabb<D>) -> Aabb<D> {
    a.intersection(b).unwrap_or(Aabb::EMPTY)
}

impl<S: Sdf<D>, const D: usize> Sdf<D> for Intersection<S> {
    fn distance(&self, p: &Vector<D>) -> Real {
        extreme(&self.shapes, p, -1.0).map_or(EMPTY_DISTANCE, |(_, d)| d)
    }
    fn bounds(&self) -> Aabb<D> {
        self.level_bounds(0.0)
    }
    fn level_bounds(&self, level: Real) -> Aabb<D> {
        let mut boxes = self.shapes.iter().map(|s| s.level_bounds(level));
        let first = boxes.next().unwrap_or(Aabb::EMPTY);
        boxes.fold(first, |b, c| intersect_boxes(&b, &c))
    }
    fn gradient(&self, p: &Vector<D>) -> Vector<D> {
        extreme(&self.shapes, p, -1.0)
            .map_or_else(Vector::zeros, |(i, _)| self.shapes[i].gradient(p))
    }
    fn lipschitz(&self) -> Real {
        max_lipschitz(&self.shapes)
    }
}

/// `base` with `subtract` cut away: `max(a, -b)`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Difference<A, B> {
    /// The shape cut from.
    pub base: A,
    /// The shape cut away.
    pub subtract: B,
}

impl<A, B> Difference<A, B> {
    /// `base` minus `subtract`.
    pub fn new(base: A, subtract: B) -> Self {
        Self { base, subtract }
    }
}

impl<A: Sdf<D>, B: Sdf<D>, const D: usize> Sdf<D> for Difference<A, B> {
    fn distance(&self, p: &Vector<D>) -> Real {
        self.base.distance(p).max(-self.subtract.distance(p))
    }
    fn bounds(&self) -> Aabb<D> {
        self.level_bounds(0.0)
    }
    fn level_bounds(&self, level: Real) -> Aabb<D> {
        // max(a, -b) <= l implies a <= l.
        self.base.level_bounds(level)
    }
    fn gradient(&self, p: &Vector<D>) -> Vector<D> {
        if self.base.distance(p) >= -self.subtract.distance(p) {
            self.base.gradient(p)
        } else {
            -self.subtract.gradient(p)
        }
    }
    fn lipschitz(&self) -> Real {
        self.base.lipschitz().max(self.subtract.lipschitz())
    }
}
