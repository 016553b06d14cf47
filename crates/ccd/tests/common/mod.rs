//! Shared test support: a seeded RNG, test-only approximate fields, and the parry oracle.
#![allow(dead_code)]

pub mod fields;
pub mod oracle;

use fathom_math::{Dim, Pose, Real, Space, Vector};
use nalgebra::RealField;

/// SplitMix64: a tiny deterministic generator so every run tests the same cases.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Self(seed)
    }
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    /// Uniform in `[lo, hi)`.
    pub fn range(&mut self, lo: Real, hi: Real) -> Real {
        let u = (self.next_u64() >> 40) as Real / (1u64 << 24) as Real;
        lo + (hi - lo) * u
    }
    /// A uniformly random unit vector.
    pub fn unit<const D: usize>(&mut self) -> Vector<D> {
        loop {
            let v = Vector::<D>::from_fn(|_, _| self.range(-1.0, 1.0));
            let n = v.norm();
            if n > 0.1 && n <= 1.0 {
                return v / n;
            }
        }
    }
    /// A vector with components uniform in `[-a, a)`.
    pub fn vector<const D: usize>(&mut self, a: Real) -> Vector<D> {
        Vector::<D>::from_fn(|_, _| self.range(-a, a))
    }
    /// A random pose: translation in `[-a, a)`, any rotation.
    pub fn pose<const D: usize>(&mut self, a: Real) -> Pose<D>
    where
        Space<D>: Dim<D>,
    {
        let axis = self.unit::<D>();
        let angle = self.range(-3.1, 3.1);
        // A random scaled axis: in 2D its cross-product form is the scalar angle.
        let mut other = self.unit::<D>();
        if (other - axis).norm() < 0.1 {
            other = -axis;
        }
        let w = Space::<D>::cross(&axis, &other);
        let n = Space::<D>::ang_norm(&w).max(1e-6);
        let rotation = Space::<D>::rotation_from_scaled_axis(&(w * (angle / n)));
        Pose::<D>::from_parts(self.vector::<D>(a).into(), rotation)
    }
}

/// The unit vector along axis `i`.
pub fn axis<const D: usize>(i: usize) -> Vector<D> {
    let mut e = Vector::<D>::zeros();
    e[i] = 1.0;
    e
}

/// `x` in the float type `T` of a helper (f32 for the casts' own precision, f64 for oracles).
fn real<T: RealField + Copy>(x: f64) -> T {
    nalgebra::convert(x)
}

/// The first root of a function that is positive at `lo` and non-positive at `hi`, by bisection.
pub fn bisect<T: RealField + Copy>(mut lo: T, mut hi: T, f: impl Fn(T) -> T) -> T {
    for _ in 0..60 {
        let mid = (lo + hi) * real(0.5);
        if f(mid) > T::zero() {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    hi
}

/// The first time in `[0, end]` where `f` drops to zero or below, by sampling `n` steps then
/// bisecting the first bracket; `None` if every sample is positive.
pub fn first_root(end: Real, n: usize, f: impl Fn(Real) -> Real) -> Option<Real> {
    let mut prev = 0.0;
    if f(0.0) <= 0.0 {
        return Some(0.0);
    }
    for k in 1..=n {
        let t = end * k as Real / n as Real;
        if f(t) <= 0.0 {
            return Some(bisect(prev, t, &f));
        }
        prev = t;
    }
    None
}

/// The minimum of a convex function on `[lo, hi]` by golden-section search: `(x, f(x))`.
pub fn golden_min<T: RealField + Copy>(mut lo: T, mut hi: T, f: impl Fn(T) -> T) -> (T, T) {
    let g = (real::<T>(5.0).sqrt() - T::one()) * real(0.5);
    for _ in 0..80 {
        let (x1, x2) = (hi - g * (hi - lo), lo + g * (hi - lo));
        if f(x1) <= f(x2) {
            hi = x2;
        } else {
            lo = x1;
        }
    }
    let x = (lo + hi) * real(0.5);
    (x, f(x))
}

/// The first contact of a convex gap function of time on `[0, end]` (positive at 0):
/// `(Some(time), smallest gap)`, or `(None, smallest gap)` when it stays positive.
pub fn convex_first_root<T: RealField + Copy>(end: T, g: impl Fn(T) -> T) -> (Option<T>, T) {
    let zero = T::zero();
    if g(zero) <= zero {
        return (Some(zero), g(zero));
    }
    let (tm, gm) = golden_min(zero, end, &g);
    let gm = gm.min(g(end));
    let tm = if g(end) <= gm { end } else { tm };
    if gm > zero {
        (None, gm)
    } else {
        (Some(bisect(zero, tm, &g)), gm)
    }
}

/// The pose that only translates by `v`.
pub fn translation<const D: usize>(v: Vector<D>) -> Pose<D>
where
    Space<D>: Dim<D>,
{
    Pose::<D>::from_parts(
        v.into(),
        Space::<D>::rotation_from_scaled_axis(&Space::<D>::ang_zero()),
    )
}
