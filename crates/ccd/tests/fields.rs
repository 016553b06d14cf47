//! Casts against fields that only bound distance: over- and under-reporting fields,
//! fathom-sdf's smooth blends, CSG, scaled shapes and baked grids, and a stretched
//! (non-uniformly scaled) ellipsoid; each checked against its analytic source shape.
mod common;

use common::fields::{Grid, Scaled as ScaledBy, Stretched};
use common::{first_root, translation, Rng};
use fathom_ccd::{ray_cast, sphere_cast, CastOptions, CastResult};
use fathom_math::{Dim, Real, Space, Vector};
use fathom_sdf::{BakedGrid, Ball, Cuboid, Sdf, Shape};

/// f32 round-off on coordinates of a few metres.
const ROUND: Real = 1e-5;

/// A random cast from 3-4 m out, aimed within 0.8 m of the origin.
fn aim<const D: usize>(rng: &mut Rng) -> (Vector<D>, Vector<D>) {
    let origin = rng.unit::<D>() * rng.range(3.0, 4.0);
    let dir = (rng.vector::<D>(0.8) - origin).normalize();
    (origin, dir)
}

/// Casts balls at `field` and checks each hit's centre against the true gap
/// `truth(centre) - r`: within `[below, above(r)]`.
fn check_hits<const D: usize>(
    field: &dyn Sdf<D>,
    truth: &dyn Fn(&Vector<D>) -> Real,
    below: Real,
    above: &dyn Fn(Real) -> Real,
    seed: u64,
) -> usize {
    let mut rng = Rng::new(seed);
    let opts = CastOptions::default();
    let mut hits = 0;
    for _ in 0..200 {
        let (origin, dir) = aim::<D>(&mut rng);
        let r = rng.range(0.0, 0.4);
        match sphere_cast::<D>(field, &origin, &dir, r, 8.0, &opts).unwrap() {
            CastResult::Hit { center, .. } => {
                hits += 1;
                let gap = truth(&center) - r;
                assert!(gap >= -below, "past the true surface: gap {gap}");
                assert!(gap <= above(r), "hit too early: gap {gap}, radius {r}");
            }
            CastResult::Miss { .. } => {
                // A miss must be a path that stays clear of the true inflated shape.
                let min_gap = (0..=4000)
                    .map(|k| truth(&(origin + dir * (8.0 * k as Real / 4000.0))) - r)
                    .fold(Real::INFINITY, Real::min);
                assert!(
                    min_gap > -2e-3,
                    "missed a path that enters the shape (gap {min_gap}, sampled every 2 mm)"
                );
            }
            other => panic!("{other:?}"),
        }
    }
    hits
}

fn over_and_under_reporting<const D: usize>() {
    let eps = CastOptions::default().epsilon;
    let cuboid = Cuboid::new(Vector::<D>::repeat(0.6)).unwrap();
    let truth = |p: &Vector<D>| cuboid.distance(p);
    // Twice the distance, honestly reporting L = 2: divided by L the steps are exact,
    // so hits are within epsilon of the true surface and never past it.
    let over = ScaledBy {
        inner: cuboid,
        factor: 2.0,
        lipschitz: 2.0,
    };
    assert!(check_hits::<D>(&over, &truth, ROUND, &|_| eps + ROUND, 1) > 50);
    // Half the distance (still 1-Lipschitz): a hit when d / 1 - r < eps means the true
    // distance is below 2 (r + eps), so hits are early by at most r + 2 eps, never late.
    let under = ScaledBy {
        inner: cuboid,
        factor: 0.5,
        lipschitz: 1.0,
    };
    assert!(check_hits::<D>(&under, &truth, ROUND, &|r| r + 2.0 * eps + ROUND, 2) > 50);
}

#[test]
fn over_and_under_reporting_fields_never_overshoot() {
    over_and_under_reporting::<2>();
    over_and_under_reporting::<3>();
}

fn smooth_blend_and_csg<const D: usize>()
where
    Space<D>: Dim<D>,
{
    let eps = CastOptions::default().epsilon;
    let mut offset = Vector::<D>::zeros();
    offset[0] = 0.5;
    let ball = |v: Vector<D>| {
        Shape::<D>::ball(0.45)
            .unwrap()
            .transformed(translation(v))
            .unwrap()
    };
    // fathom-sdf's smooth union: its own zero set is the surface (the blend is defined by the
    // field); the field under-reports distance near the seam and is 1-Lipschitz.
    let blend = ball(offset).smooth_union(ball(-offset), 0.3).unwrap();
    assert_eq!(Sdf::<D>::lipschitz(&blend), 1.0);
    // With L = 1, d(centre) >= r means no point of the blend is within r of the centre.
    assert!(check_hits::<D>(&blend, &|p| blend.distance(p), ROUND, &|r| r + eps + 0.3, 3) > 50);
    // Ray casts against the blend versus its first sign change along the ray (sampled every
    // 0.5 mm, then bisected): never later.
    let mut rng = Rng::new(4);
    let opts = CastOptions::default();
    for _ in 0..200 {
        let (origin, dir) = aim::<D>(&mut rng);
        let reference = first_root(8.0, 16_000, |t| blend.distance(&(origin + dir * t)));
        match (
            ray_cast::<D>(&blend, &origin, &dir, 8.0, &opts).unwrap(),
            reference,
        ) {
            (CastResult::Hit { distance, .. }, Some(t)) => {
                assert!(distance <= t + ROUND, "{distance} past {t}")
            }
            (CastResult::Hit { center, .. }, None) => {
                assert!(blend.distance(&center) < eps + ROUND)
            }
            (CastResult::Miss { .. }, None) => {}
            (other, t) => panic!("{other:?} vs reference {t:?}"),
        }
    }
    // A CSG union of a cuboid and two balls: exact outside, so hits are within epsilon.
    let csg = Shape::<D>::union_all(vec![
        Shape::<D>::cuboid(Vector::repeat(0.3)).unwrap(),
        ball(offset),
        ball(-offset),
    ])
    .unwrap();
    assert!(check_hits::<D>(&csg, &|p| csg.distance(p), ROUND, &|_| eps + ROUND, 5) > 50);
}

#[test]
fn smooth_blends_and_csg_are_never_overshot() {
    smooth_blend_and_csg::<2>();
    smooth_blend_and_csg::<3>();
}

fn scaled_shapes<const D: usize>()
where
    Space<D>: Dim<D>,
{
    let eps = CastOptions::default().epsilon;
    // fathom-sdf's uniform scale keeps exactness: a unit ball scaled by 0.7 is a ball of 0.7.
    let scaled = Shape::<D>::ball(1.0).unwrap().scaled(0.7).unwrap();
    let exact = Ball::new(0.7).unwrap();
    assert!(check_hits::<D>(&scaled, &|p| exact.distance(p), ROUND, &|_| eps + ROUND, 6) > 50);
    // A non-uniform stretch (test-only: |p / s| - 1, Lipschitz 1 / min s): ray casts
    // against the ellipsoid in closed form (the quadratic |(o + t d) / s|^2 = 1).
    let mut semi = Vector::<D>::repeat(0.5);
    semi[0] = 1.2;
    let ellipsoid = Stretched { semi_axes: semi };
    let opts = CastOptions::default();
    let mut rng = Rng::new(7);
    let mut hits = 0;
    for _ in 0..300 {
        let (origin, dir) = aim::<D>(&mut rng);
        let (o, d) = (origin.component_div(&semi), dir.component_div(&semi));
        let (a, b, c) = (d.dot(&d), 2.0 * o.dot(&d), o.dot(&o) - 1.0);
        let disc = b * b - 4.0 * a * c;
        let exact = (disc >= 0.0).then(|| (-b - disc.sqrt()) / (2.0 * a));
        match (
            ray_cast::<D>(&ellipsoid, &origin, &dir, 8.0, &opts).unwrap(),
            exact,
        ) {
            (
                CastResult::Hit {
                    distance, center, ..
                },
                exact,
            ) => {
                hits += 1;
                assert!(
                    ellipsoid.level(&center) >= 1.0 - ROUND,
                    "inside the ellipsoid"
                );
                if let Some(t) = exact {
                    assert!(distance <= t + ROUND, "{distance} past {t}");
                }
            }
            (CastResult::Miss { .. }, exact) => {
                assert!(exact.is_none() || disc < 1e-3, "missed a crossing ray")
            }
            (other, _) => panic!("{other:?}"),
        }
    }
    assert!(hits > 100);
}

#[test]
fn scaled_and_stretched_shapes_are_never_overshot() {
    scaled_shapes::<2>();
    scaled_shapes::<3>();
}

fn baked_grids<const D: usize>() {
    let eps = CastOptions::default().epsilon;
    let sqrt_d = (D as Real).sqrt();
    let cuboid = Cuboid::new(Vector::<D>::repeat(0.6)).unwrap();
    let truth = |p: &Vector<D>| cuboid.distance(p);
    // fathom-sdf's baked grid interpolates the samples: between samples it can exceed the
    // true distance by up to h sqrt(D) / 2 (for a 1-Lipschitz source), so hits may be past
    // the true surface by that much and no more; early by at most (L - 1) r + L eps + h sqrt(D) / 2.
    // The region is padded beyond the largest cast radius: outside its box a grid only
    // bounds the distance loosely (hits there are early, which the bound below would not allow).
    let cell = if D == 2 { 0.02 } else { 0.05 };
    let grid = BakedGrid::<D>::bake(&cuboid, &cuboid.bounds().loosened(0.6), cell).unwrap();
    let (h, l) = (grid.cell(), Sdf::<D>::lipschitz(&grid));
    let sampling = h * sqrt_d / 2.0;
    assert!(
        check_hits::<D>(
            &grid,
            &truth,
            sampling + ROUND,
            &|r| (l - 1.0) * r + l * eps + sampling + ROUND,
            8
        ) > 50
    );
    // A conservative bake (test-only: samples lowered by h sqrt(D) / 2, Lipschitz sqrt(D))
    // never reports a hit past the true surface.
    let safe = Grid::<D>::bake(&cuboid, h, 0.6);
    let early = |r: Real| (sqrt_d - 1.0) * r + sqrt_d * eps + 2.0 * sampling + ROUND;
    assert!(check_hits::<D>(&safe, &truth, ROUND, &early, 9) > 50);
}

#[test]
fn baked_grids_stay_within_their_sampling_error() {
    baked_grids::<2>();
    baked_grids::<3>();
}
