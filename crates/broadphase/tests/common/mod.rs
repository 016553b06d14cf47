//! Shared helpers of the integration tests: boxes from small integers (so
//! coordinates, margins and touches are exact in binary floating point).

#![allow(dead_code)]

use fathom_math::{Aabb, Real, Vector};

/// A box from 6 small integers: centre `c[0..D] / 2`, half extents `(|c[3+i]| % 8 + 1) / 4`.
pub fn box_from<const D: usize>(c: &[i8; 6]) -> Aabb<D> {
    let center = Vector::<D>::from_fn(|i, _| c[i] as Real * 0.5);
    let half =
        Vector::<D>::from_fn(|i, _| ((c[3 + i] as i32).unsigned_abs() % 8 + 1) as Real * 0.25);
    Aabb::from_center_half_extents(center, half)
}

/// The unit box whose lower corner is at `x` along `axis` and 0 along the others.
pub fn unit_at<const D: usize>(axis: usize, x: Real) -> Aabb<D> {
    let mut lo = Vector::<D>::zeros();
    lo[axis] = x;
    Aabb::new(lo, lo.add_scalar(1.0))
}

/// A deterministic pseudo-random sequence in [0, 1) (LCG), for large fixed scenes.
pub struct Lcg(pub u64);

impl Lcg {
    /// The next number in [0, 1).
    pub fn uniform(&mut self) -> Real {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 40) as Real / (1u64 << 24) as Real
    }

    /// A random box in a cube of side `world`, half extents in [0.1, 0.6).
    pub fn aabb<const D: usize>(&mut self, world: Real) -> Aabb<D> {
        let c = Vector::<D>::from_fn(|_, _| self.uniform() * world);
        let h = Vector::<D>::from_fn(|_, _| 0.1 + 0.5 * self.uniform());
        Aabb::from_center_half_extents(c, h)
    }
}
