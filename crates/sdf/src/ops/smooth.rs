//! Smooth union, intersection and difference with the polynomial (quadratic) smooth minimum.
//!
//! `smin(a, b) = mix(b, a, h) - k h (1 - h)` with `h = clamp(1/2 + (b - a) / 2k, 0, 1)`.
//! Where `|a - b| < k` this is `(a + b)/2 - k/4 - (a - b)²/4k`, whose partial
//! derivatives are `h` and `1 - h`: both in `[0, 1]` and summing to 1, so
//! `∇smin = h ∇a + (1 - h) ∇b` is a convex combination and
//! `|∇smin| <= max(L_a, L_b)`. Outside the band it is `min(a, b)`. Hence the
//! Lipschitz constant of a smooth blend of 1-Lipschitz fields stays 1.
//!
//! `smin` is at most `k/4` below `min(a, b)` (at `a = b`), so a smooth union's
//! zero set lies in its children's `k/4` level sets; `smax(a, b) = -smin(-a, -b)`
//! is never below `max(a, b)`, so smooth intersection and difference lie inside
//! their sharp versions' bounds.

use super::csg::intersect_boxes;
use crate::error::{check_positive, Result};
use crate::{normalize_or_axis, Sdf};
use fathom_math::{Aabb, Real, Vector};
use serde::{Deserialize, Serialize};

/// The polynomial smooth minimum of `a` and `b` with blend radius `k > 0`, and the weight `h`
/// of `a` in its gradient (`∇ = h ∇a + (1 - h) ∇b`).
pub fn smooth_min(a: Real, b: Real, k: Real) -> (Real, Real) {
    let h = (0.5 + 0.5 * (b - a) / k).clamp(0.0, 1.0);
    (b + (a - b) * h - k * h * (1.0 - h), h)
}

/// The polynomial smooth maximum, `-smooth_min(-a, -b, k)`, and the weight of `a` in its gradient.
pub fn smooth_max(a: Real, b: Real, k: Real) -> (Real, Real) {
    let (m, h) = smooth_min(-a, -b, k);
    (-m, h)
}

macro_rules! smooth_op {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
        #[serde(deny_unknown_fields)]
        pub struct $name<A, B> {
            /// First shape.
            pub a: A,
            /// Second shape.
            pub b: B,
            /// Blend radius `k`, metres, positive: how far from the seam the shapes are blended.
            pub radius: Real,
        }

        impl<A, B> $name<A, B> {
            /// The blend of `a` and `b` with a finite positive blend `radius`.
            pub fn new(a: A, b: B, radius: Real) -> Result<Self> {
                Ok(Self { a, b, radius: check_positive("radius", radius)? })
            }

            /// Checks this operator's own fields (not the children's).
            pub fn validate_params(&self) -> Result<()> {
                check_positive("radius", self.radius).map(drop)
            }
        }
    };
}

smooth_op!(
    /// The smooth union of two shapes: `smin(a, b)`, filleted where they meet.
    SmoothUnion
);
smooth_op!(
    /// The smooth intersection of two shapes: `smax(a, b)`.
    SmoothIntersection
);
smooth_op!(
    /// `a` with `b` cut away, the cut's edge filleted: `smax(a, -b)`.
    SmoothDifference
);

/// The normalised blended gradient `h ∇a + (1 - h) ∇b`.
fn blend<const D: usize>(h: Real, ga: Vector<D>, gb: Vector<D>) -> Vector<D> {
    normalize_or_axis(ga * h + gb * (1.0 - h))
}

impl<A: Sdf<D>, B: Sdf<D>, const D: usize> Sdf<D> for SmoothUnion<A, B> {
    fn distance(&self, p: &Vector<D>) -> Real {
        smooth_min(self.a.distance(p), self.b.distance(p), self.radius).0
    }
    fn bounds(&self) -> Aabb<D> {
        self.level_bounds(0.0)
    }
    fn level_bounds(&self, level: Real) -> Aabb<D> {
        // smin >= min(a, b) - k/4, so smin <= l implies a or b <= l + k/4.
        let l = level + 0.25 * self.radius;
        self.a.level_bounds(l).merge(&self.b.level_bounds(l))
    }
    fn gradient(&self, p: &Vector<D>) -> Vector<D> {
        let (_, h) = smooth_min(self.a.distance(p), self.b.distance(p), self.radius);
        blend(h, self.a.gradient(p), self.b.gradient(p))
    }
    fn lipschitz(&self) -> Real {
        self.a.lipschitz().max(self.b.lipschitz())
    }
}

impl<A: Sdf<D>, B: Sdf<D>, const D: usize> Sdf<D> for SmoothIntersection<A, B> {
    fn distance(&self, p: &Vector<D>) -> Real {
        smooth_max(self.a.distance(p), self.b.distance(p), self.radius).0
    }
    fn bounds(&self) -> Aabb<D> {
        self.level_bounds(0.0)
    }
    fn level_bounds(&self, level: Real) -> Aabb<D> {
        // smax >= max(a, b), so smax <= l implies a <= l and b <= l.
        intersect_boxes(&self.a.level_bounds(level), &self.b.level_bounds(level))
    }
    fn gradient(&self, p: &Vector<D>) -> Vector<D> {
        let (_, h) = smooth_max(self.a.distance(p), self.b.distance(p), self.radius);
        blend(h, self.a.gradient(p), self.b.gradient(p))
    }
    fn lipschitz(&self) -> Real {
        self.a.lipschitz().max(self.b.lipschitz())
    }
}

impl<A: Sdf<D>, B: Sdf<D>, const D: usize> Sdf<D> for SmoothDifference<A, B> {
    fn distance(&self, p: &Vector<D>) -> Real {
        smooth_max(self.a.distance(p), -self.b.distance(p), self.radius).0
    }
    fn bounds(&self) -> Aabb<D> {
        self.level_bounds(0.0)
    }
    fn level_bounds(&self, level: Real) -> Aabb<D> {
        // smax(a, -b) >= a.
        self.a.level_bounds(level)
    }
    fn gradient(&self, p: &Vector<D>) -> Vector<D> {
        let (_, h) = smooth_max(self.a.distance(p), -self.b.distance(p), self.radius);
        blend(h, self.a.gradient(p), -self.b.gradient(p))
    }
    fn lipschitz(&self) -> Real {
        self.a.lipschitz().max(self.b.lipschitz())
    }
}
