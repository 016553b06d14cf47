//! Polygon validation: the sweep agrees with testing every pair of edges, scales to the
//! largest polygons allowed, and refuses larger ones naming the limit.

use super::support::runner;
use crate::primitives::sweep::{segments_touch, sweep};
use crate::{SdfError, Shape2, MAX_POLYGON_VERTICES};
use fathom_math::{Real, Vector2};
use proptest::prelude::*;
use std::cell::Cell;

/// The pairwise check the sweep replaced (kept here as the reference): at least 3 vertices,
/// no zero-length edge, non-zero area, and no two non-adjacent edges touching.
fn brute_force_simple(v: &[Vector2]) -> bool {
    let n = v.len();
    let area: Real = (0..n).map(|i| v[i].perp(&v[(i + 1) % n])).sum();
    if n < 3 || (0..n).any(|i| v[i] == v[(i + 1) % n]) || area == 0.0 {
        return false;
    }
    for i in 0..n {
        for j in i + 1..n {
            let adjacent = j == i + 1 || (i == 0 && j == n - 1);
            if !adjacent && segments_touch(&v[i], &v[(i + 1) % n], &v[j], &v[(j + 1) % n]) {
                return false;
            }
        }
    }
    true
}

/// The convex check the O(n) one replaced: simple, and every turn the way of the area.
fn brute_force_convex(v: &[Vector2]) -> bool {
    let n = v.len();
    let orientation: Real = (0..n)
        .map(|i| v[i].perp(&v[(i + 1) % n]))
        .sum::<Real>()
        .signum();
    brute_force_simple(v)
        && (0..n).all(|i| {
            let turn = (v[(i + 1) % n] - v[i]).perp(&(v[(i + 2) % n] - v[(i + 1) % n]));
            turn * orientation > 0.0
        })
}

/// Polygons of 3 to 9 vertices on a 4 x 4 lattice: shared vertices, collinear edges,
/// vertices on edges and overlaps are common, and every coordinate and product is exact in
/// f32, so the f32 convexity test above is exact too.
fn lattice_polygon() -> impl Strategy<Value = Vec<Vector2>> {
    prop::collection::vec((0..4i32, 0..4i32), 3..=9).prop_map(|p| {
        p.into_iter()
            .map(|(x, y)| Vector2::new(x as Real, y as Real))
            .collect()
    })
}

/// Polygons of 3 to 12 vertices anywhere in a square: general position.
fn float_polygon() -> impl Strategy<Value = Vec<Vector2>> {
    prop::collection::vec((-1.0..1.0f32, -1.0..1.0f32), 3..=12)
        .prop_map(|p| p.into_iter().map(|(x, y)| Vector2::new(x, y)).collect())
}

/// Random polygons per strategy (150,000 each also passed, once, when this was written).
const CASES: u32 = 4000;

#[test]
fn sweep_agrees_with_every_pair() {
    for (name, strategy) in [
        ("lattice", lattice_polygon().boxed()),
        ("float", float_polygon().boxed()),
    ] {
        let (simple, convex) = (Cell::new(0), Cell::new(0));
        runner(CASES)
            .run(&strategy, |v| {
                let expected = brute_force_simple(&v);
                simple.set(simple.get() + usize::from(expected));
                prop_assert_eq!(Shape2::polygon(v.clone()).is_ok(), expected, "{:?}", v);
                prop_assert_eq!(Shape2::rounded_polygon(v.clone(), 0.1).is_ok(), expected);
                let expected = brute_force_convex(&v);
                convex.set(convex.get() + usize::from(expected));
                prop_assert_eq!(
                    Shape2::convex_polygon(v.clone()).is_ok(),
                    expected,
                    "{:?}",
                    v
                );
                Ok(())
            })
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        // Both answers must occur often, or the comparison says little.
        let (simple, convex) = (simple.get(), convex.get());
        println!("{name}: {simple} simple, {convex} convex of {CASES}");
        assert!(
            simple > 200 && convex > 20,
            "{name}: {simple} simple, {convex} convex"
        );
    }
}

/// Degenerate cases by hand: each names what it tests and whether it is simple.
#[test]
fn sweep_degenerate_cases() {
    let p = |pts: &[(Real, Real)]| -> Vec<Vector2> {
        pts.iter().map(|&(x, y)| Vector2::new(x, y)).collect()
    };
    let rows: &[(&str, Vec<Vector2>, bool)] = &[
        ("square", p(&[(0., 0.), (1., 0.), (1., 1.), (0., 1.)]), true),
        (
            "collinear corner",
            p(&[(0., 0.), (1., 0.), (2., 0.), (1., 1.)]),
            true,
        ),
        (
            "vertical edges",
            p(&[(0., 0.), (0., 2.), (1., 1.), (2., 2.), (2., 0.)]),
            true,
        ),
        (
            "vertex on an edge",
            p(&[(0., 0.), (2., 0.), (2., 2.), (1., 0.), (0., 2.)]),
            false,
        ),
        (
            "shared vertex",
            p(&[(0., 0.), (1., 1.), (2., 0.), (2., 2.), (1., 1.), (0., 2.)]),
            false,
        ),
        (
            "spike back along an edge",
            p(&[(0., 0.), (2., 0.), (1., 0.), (1., 1.)]),
            false,
        ),
        (
            "overlapping vertical",
            p(&[(0., 0.), (0., 2.), (1., 2.), (0., 1.), (-1., 3.), (-1., 0.)]),
            false,
        ),
        (
            "bow tie",
            p(&[(0., 0.), (1., 1.), (1., 0.), (0., 1.)]),
            false,
        ),
        (
            "touching at a far corner",
            p(&[
                (0., 0.),
                (4., 0.),
                (4., 4.),
                (2., 4.),
                (3., 2.),
                (1., 2.),
                (2., 4.),
                (0., 4.),
            ]),
            false,
        ),
        (
            "comb",
            p(&[
                (0., 0.),
                (5., 0.),
                (5., 1.),
                (4., 1.),
                (4., 0.5),
                (3., 0.5),
                (3., 1.),
                (2., 1.),
                (2., 0.5),
                (1., 0.5),
                (1., 1.),
                (0., 1.),
            ]),
            true,
        ),
    ];
    for (name, v, simple) in rows {
        assert_eq!(brute_force_simple(v), *simple, "{name}: the reference");
        assert_eq!(Shape2::polygon(v.clone()).is_ok(), *simple, "{name}");
    }
}

/// A star of `n` vertices (n even) alternating between radii 1 and 0.5: every vertical line
/// crosses many edges, a hard case for a sweep, and simple.
fn star(n: usize) -> Vec<Vector2> {
    (0..n)
        .map(|i| {
            let a = std::f64::consts::TAU * i as f64 / n as f64;
            let r = if i % 2 == 0 { 1.0 } else { 0.5 };
            Vector2::new((r * a.cos()) as Real, (r * a.sin()) as Real)
        })
        .collect()
}

#[test]
fn a_200000_vertex_star_validates_in_linearithmic_work() {
    let n = 200_000;
    let v = star(n);
    let start = std::time::Instant::now();
    let report = sweep(&v);
    let elapsed = start.elapsed();
    println!(
        "star of {n}: {:?}, {} pair tests, at most {} edges active, {elapsed:?}",
        report.crossing, report.pair_tests, report.max_active
    );
    assert_eq!(report.crossing, None);
    // At most three pair tests per vertex (two on insertion, one on removal, per edge),
    // where testing every pair would take n (n - 3) / 2 = 2e10.
    assert!(
        report.pair_tests <= 3 * n,
        "{} pair tests",
        report.pair_tests
    );
    assert!(Shape2::polygon(v).is_ok());
}

#[test]
fn a_crossing_deep_inside_a_large_polygon_is_found() {
    // One outer vertex pulled far out across the star (from angle pi to above the top):
    // its two edges cut through the spikes of the upper left quarter.
    let mut v = star(20_000);
    v[10_000] = Vector2::new(0.0, 2.0);
    let report = sweep(&v);
    assert!(report.crossing.is_some());
    assert!(report.pair_tests <= 3 * v.len());
    assert!(matches!(
        Shape2::polygon(v),
        Err(SdfError::Invalid {
            field: "vertices",
            ..
        })
    ));
}

#[test]
fn polygons_over_the_limit_are_refused_naming_it() {
    let v = star(MAX_POLYGON_VERTICES + 2);
    let too_many = Err(SdfError::TooMany {
        field: "vertices",
        value: MAX_POLYGON_VERTICES + 2,
        max: MAX_POLYGON_VERTICES,
    });
    assert_eq!(Shape2::polygon(v.clone()), too_many);
    assert_eq!(Shape2::convex_polygon(v.clone()), too_many);
    assert_eq!(Shape2::rounded_polygon(v, 0.1), too_many);
    assert!(Shape2::polygon(star(MAX_POLYGON_VERTICES)).is_ok());
}

/// A strictly convex polygon of `n` vertices (n even) on integer coordinates (exact in f32):
/// its edges are primitive integer vectors in angle order, each with its opposite.
fn lattice_convex(n: usize) -> Vec<Vector2> {
    let gcd = |mut a: i64, mut b: i64| {
        while b != 0 {
            (a, b) = (b, a % b);
        }
        a.abs()
    };
    let mut k = 1;
    let upper = |k: i64| -> Vec<(i64, i64)> {
        (-k..=k)
            .flat_map(|a| (0..=k).map(move |b| (a, b)))
            .filter(|&(a, b)| (b > 0 || a > 0) && gcd(a, b) == 1)
            .collect()
    };
    while upper(k).len() < n / 2 {
        k += 1;
    }
    let mut half = upper(k);
    let angle = |&(a, b): &(i64, i64)| (b as f64).atan2(a as f64);
    half.sort_by(|p, q| angle(p).total_cmp(&angle(q)));
    half.truncate(n / 2);
    let (mut x, mut y) = (0i64, 0i64);
    half.iter()
        .copied()
        .chain(half.iter().map(|&(a, b)| (-a, -b)))
        .map(|(a, b)| {
            (x, y) = (x + a, y + b);
            assert!(x.abs() < 1 << 24 && y.abs() < 1 << 24, "exact in f32");
            Vector2::new(x as Real, y as Real)
        })
        .collect()
}

#[test]
fn large_convex_polygons_validate_and_a_pentagram_does_not() {
    let v = lattice_convex(100_000);
    assert_eq!(v.len(), 100_000);
    assert!(Shape2::convex_polygon(v).is_ok());
    // Every turn of a pentagram is to the left, but it goes twice around.
    let pentagram: Vec<Vector2> = (0..5)
        .map(|i| {
            let a = std::f32::consts::TAU * (2 * i) as Real / 5.0;
            Vector2::new(a.cos(), a.sin())
        })
        .collect();
    assert!(matches!(
        Shape2::convex_polygon(pentagram),
        Err(SdfError::Invalid { field: "vertices", reason }) if reason.contains("winds 2 times")
    ));
}
