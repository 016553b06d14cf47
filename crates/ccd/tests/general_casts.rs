//! Casts against general fields (no closed form): the march, refined to the crossing. A CSG
//! shape (a union and a difference of exact primitives, whose zero sets are exact) against an
//! f64 oracle, a baked grid against the shape it was baked from (within the grid's own
//! sampling error), and casts that start just outside a surface report their real distance.
mod common;

use common::{axis, Rng};
use fathom_ccd::{cast, CastOptions, CastResult, CastShape};
use fathom_math::{Real, Vector};
use fathom_sdf::{BakedGrid, Sdf, Shape};
use nalgebra::SVector;

type V64<const D: usize> = SVector<f64, D>;

/// Casts per dimension.
const CASTS: usize = 300;

/// Incidences shallower than this are not drawn: the refinement's bracket is exact at any
/// incidence, but the f32 field's round-off (1e-7 m) grows by 1/cos along the cast.
const MIN_COS: f64 = 0.3;

/// The CSG scene: a ball of 1 m at the origin united with a box (half extents 0.8, 0.3, ...)
/// centred 1.2 m along x, less a ball of 0.5 m at (-1, 0.6). Exact fields, so outside the
/// union the min of the two is the exact distance.
fn csg<const D: usize>() -> (Shape<D>, impl Fn(&V64<D>) -> f64)
where
    fathom_math::Space<D>: fathom_math::Dim<D>,
{
    let mut half = Vector::<D>::repeat(0.3);
    half[0] = 0.8;
    let at = |x: Real, y: Real| {
        let mut v = Vector::<D>::zeros();
        (v[0], v[1]) = (x, y);
        common::translation::<D>(v)
    };
    let shape = Shape::ball(1.0)
        .unwrap()
        .union(
            Shape::cuboid(half)
                .unwrap()
                .transformed(at(1.2, 0.0))
                .unwrap(),
        )
        .unwrap()
        .difference(
            Shape::ball(0.5)
                .unwrap()
                .transformed(at(-1.0, 0.6))
                .unwrap(),
        )
        .unwrap();
    let half64 = half.cast::<f64>();
    let oracle = move |p: &V64<D>| {
        let mut c = V64::<D>::zeros();
        c[0] = 1.2;
        let q = (p - c).abs() - half64;
        let cuboid = q.map(|x| x.max(0.0)).norm() + q.max().min(0.0);
        let united = (p.norm() - 1.0).min(cuboid);
        let mut hole = V64::<D>::zeros();
        (hole[0], hole[1]) = (-1.0, 0.6);
        united.max(0.5 - (p - hole).norm())
    };
    (shape, oracle)
}

/// The first crossing of the level `radius` of a 1-Lipschitz f64 field along the cast, by
/// sphere tracing to 1e-12 m (at cos >= `MIN_COS` the crossing is within 4e-12 of there).
fn trace<const D: usize>(
    f: &impl Fn(&V64<D>) -> f64,
    o: &V64<D>,
    d: &V64<D>,
    radius: f64,
) -> Option<f64> {
    let mut t = 0.0;
    for _ in 0..1_000_000 {
        let g = f(&(o + d * t)) - radius;
        if g < 1e-12 {
            return Some(t);
        }
        t += g;
        if t > 20.0 {
            return None;
        }
    }
    None
}

/// The cosine of the incidence at `t`: minus the field's rate along the cast.
fn incidence<const D: usize>(f: &impl Fn(&V64<D>) -> f64, o: &V64<D>, d: &V64<D>, t: f64) -> f64 {
    let h = 1e-6;
    -(f(&(o + d * (t + h))) - f(&(o + d * (t - h)))) / (2.0 * h)
}

/// Rays (and balls, if `balls`) cast at `shape` from 3-6 m away towards a point near its
/// middle; each hit is compared with the oracle's crossing of the same level. Returns the
/// worst error, metres. `slack`: the field's own error on the surface.
fn against_oracle<const D: usize>(
    seed: u64,
    shape: &dyn Sdf<D>,
    oracle: &impl Fn(&V64<D>) -> f64,
    balls: bool,
    slack: f64,
) -> f64 {
    let mut rng = Rng::new(seed);
    let opts = CastOptions::default();
    let (mut worst, mut checked) = (0.0f64, 0);
    while checked < CASTS {
        let dir = rng.unit::<D>();
        let origin = rng.vector::<D>(0.5) - dir * rng.range(3.0, 6.0);
        let radius = if checked % 2 == 0 || !balls {
            0.0
        } else {
            rng.range(0.01, 0.2)
        };
        let (o, d) = (origin.cast::<f64>(), dir.cast::<f64>().normalize());
        let Some(want) = trace(oracle, &o, &d, radius as f64) else {
            continue;
        };
        let cos = incidence(oracle, &o, &d, want);
        if cos < MIN_COS || oracle(&o) - (radius as f64) < 0.01 {
            continue;
        }
        checked += 1;
        let got = cast(
            shape,
            &CastShape::Ball { radius },
            &origin,
            &dir,
            20.0,
            &opts,
        )
        .unwrap();
        let case =
            format!("{D}D radius {radius} from {origin:?} along {dir:?}: want {want}, got {got:?}");
        let CastResult::Hit { distance, .. } = got else {
            panic!("{case}");
        };
        let u = distance as f64;
        // The refinement's tolerance (2e-6 of the hit point's distance from the origin, at
        // least 1 m), f32 round-off of the field and of the distance (an ulp at 8 m is 1e-6
        // m) and the field's own error, over the cosine.
        let p = (o + d * want).norm().max(1.0);
        let tol = 2e-6 * p + (1e-6 + slack) / cos;
        let err = u - want;
        assert!(err.abs() <= tol, "{case}: off by {err:e}");
        worst = worst.max(err.abs());
    }
    worst
}

fn csg_scene<const D: usize>(seed: u64)
where
    fathom_math::Space<D>: fathom_math::Dim<D>,
{
    let (shape, oracle) = csg::<D>();
    assert_eq!(shape.kind(), fathom_sdf::ShapeKind::General);
    // Outside a union of exact fields the min is the exact distance: balls too.
    let worst = against_oracle(seed, &shape, &oracle, true, 0.0);
    assert!(worst <= 1e-5, "{D}D CSG: worst {worst:e} m");
    println!("{D}D CSG: worst hit distance error {worst:e} m");
}

#[test]
fn casts_against_csg_match_the_oracle() {
    csg_scene::<2>(1);
    csg_scene::<3>(2);
}

/// A ball of 1 m baked on a grid of 64 cells across. The grid's sampling error near the
/// surface: multilinear interpolation of `|p| - 1`, whose curvature across is `1 / |p|`, is
/// off by at most `D h² / (8 (1 - sqrt(D) h))` for cells of `h` (the interpolant's error
/// bound `h² |f''| / 8` per axis).
fn grid_scene<const D: usize>(seed: u64) {
    let ball = fathom_sdf::Ball::new(1.0).unwrap();
    let grid = BakedGrid::<D>::bake_shape(&ball, 64).unwrap();
    let h = grid.cell() as f64;
    let d = D as f64;
    let sampling = d * h * h / (8.0 * (1.0 - d.sqrt() * h));
    // Rays only: a ball cast divides the grid's field by its Lipschitz constant (above 1
    // where the interpolant is steeper than the distance) and touches an earlier level.
    let oracle = |p: &V64<D>| p.norm() - 1.0;
    let worst = against_oracle(seed, &grid, &oracle, false, sampling);
    println!("{D}D grid (cell {h} m, sampling error {sampling:e} m): worst {worst:e} m");
}

#[test]
fn casts_against_a_baked_grid_are_within_its_sampling_error() {
    grid_scene::<2>(3);
    grid_scene::<3>(4);
}

/// A cast that starts outside the surface but within the march's epsilon of it, heading in:
/// its distance is the real one (a few tenths of a millimetre), not 0.
fn starts_near<const D: usize>()
where
    fathom_math::Space<D>: fathom_math::Dim<D>,
{
    let (shape, _) = csg::<D>();
    let opts = CastOptions::default();
    // The ball's surface at -x is 1 m from the origin (the hole is above it): start 0.5 mm
    // outside, heading in at 60 degrees from the normal; the crossing is 1 mm along.
    let gap: Real = 5e-4;
    let origin = axis::<D>(0) * -(1.0 + gap);
    let dir = axis::<D>(0) * 0.5 + axis::<D>(1) * -(0.75 as Real).sqrt();
    for (shape, name) in [
        (&shape as &dyn Sdf<D>, "CSG"),
        (&fathom_sdf::Ball::new(1.0).unwrap(), "ball"),
    ] {
        let r = cast(shape, &CastShape::ray(), &origin, &dir, 1.0, &opts).unwrap();
        let CastResult::Hit { distance, .. } = r else {
            panic!("{D}D {name}: {r:?}")
        };
        // Exactly: |o + t d| = 1 with o = -(1 + g) x: t = (1 + g)/2 - sqrt(((1 + g)/2)² - 2g - g²).
        let (g, half) = (gap as f64, (1.0 + gap as f64) / 2.0);
        let want = half - (half * half - 2.0 * g - g * g).sqrt();
        let err = (distance as f64 - want).abs();
        assert!(err <= 2e-5, "{D}D {name}: {distance} against {want}");
    }
}

#[test]
fn a_cast_starting_within_epsilon_outside_reports_its_real_distance() {
    starts_near::<2>();
    starts_near::<3>();
}
