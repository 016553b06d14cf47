//! Helpers for the property tests: random points, bounded proptest runners, surface samples.

use fathom_math::{Aabb, Real, Vector};
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRng, TestRunner};

/// A runner with a bounded number of cases (keeps the suite fast) and a fixed seed, so that
/// CI sees the same cases on every run.
pub fn runner(cases: u32) -> TestRunner {
    let config = Config {
        cases,
        failure_persistence: None,
        ..Config::default()
    };
    let rng = TestRng::deterministic_rng(config.rng_algorithm);
    TestRunner::new_with_rng(config, rng)
}

/// A strategy for points uniformly in `region`.
pub fn point_in<const D: usize>(region: Aabb<D>) -> impl Strategy<Value = Vector<D>> {
    proptest::collection::vec(0.0f32..=1.0, D).prop_map(move |t| {
        Vector::<D>::from_fn(|i, _| region.min[i] + t[i] * (region.max[i] - region.min[i]))
    })
}

/// A strategy for small offsets: each component in `[-size, size]`.
pub fn offset<const D: usize>(size: Real) -> impl Strategy<Value = Vector<D>> {
    proptest::collection::vec(-size..=size, D).prop_map(Vector::<D>::from_vec)
}

/// Unit directions spread over the circle (D = 2) or sphere (D = 3, Fibonacci lattice).
pub fn unit_directions<const D: usize>(n: usize) -> Vec<Vector<D>> {
    (0..n)
        .map(|i| {
            let mut v = Vector::<D>::zeros();
            if D == 2 {
                let a = i as Real / n as Real * std::f32::consts::TAU;
                v[0] = a.cos();
                v[1] = a.sin();
            } else {
                let y = 1.0 - 2.0 * (i as Real + 0.5) / n as Real;
                let r = (1.0 - y * y).sqrt();
                let a = i as Real * 2.399_963; // the golden angle
                v[0] = r * a.cos();
                v[1] = y;
                v[2] = r * a.sin();
            }
            v
        })
        .collect()
}

/// Points of a (D-1)-dimensional grid over `[-1, 1]` in every axis but `skip`, with `m` steps.
pub fn face_grid<const D: usize>(skip: usize, m: usize) -> Vec<Vector<D>> {
    let axes: Vec<usize> = (0..D).filter(|&k| k != skip).collect();
    let total = (m + 1).pow(axes.len() as u32);
    (0..total)
        .map(|mut i| {
            let mut v = Vector::<D>::zeros();
            for &k in &axes {
                v[k] = -1.0 + 2.0 * (i % (m + 1)) as Real / m as Real;
                i /= m + 1;
            }
            v
        })
        .collect()
}
