//! Heightfields (2D and 3D) and convex hulls (3D hull, 2D hull polygon): the Lipschitz claim
//! on random pairs, exactness against brute force, typed errors for bad input, RON.

use super::support::{offset, point_in, runner};
use crate::primitives::heightfield::closest_on_triangle;
use crate::{HeightfieldScale, Sdf, SdfError, Shape, Shape2, Shape3};
use fathom_math::{Aabb, Dim, Real, Space, Vector, Vector2, Vector3};
use proptest::prelude::*;

const SCALE: HeightfieldScale = HeightfieldScale {
    spacing_x: 0.4,
    spacing_z: 0.3,
    base_depth: 0.5,
};

/// Rough terrain: heights up to ±0.6 m over 0.3-0.4 m cells (slopes up to 4).
fn rough_rows(rows: usize, columns: usize, seed: u32) -> Vec<Vec<Real>> {
    (0..rows)
        .map(|j| {
            (0..columns)
                .map(|i| {
                    let k = (i as u32 * 7919 + j as u32 * 104729 + seed * 31337) % 1000;
                    1.2 * (k as Real / 1000.0) - 0.6
                })
                .collect()
        })
        .collect()
}

fn rough<const D: usize>(seed: u32) -> Shape<D>
where
    Space<D>: Dim<D>,
{
    let rows = if D == 3 { 6 } else { 1 };
    Shape::heightfield(rough_rows(rows, 9, seed), SCALE).unwrap()
}

/// `|d(p) - d(q)| <= L |p - q|` on random pairs: near (what the search's pruning relies on)
/// and far, in and around the box (past the edges, under the base, high above).
fn check_heightfield_lipschitz<const D: usize>()
where
    Space<D>: Dim<D>,
{
    for seed in 0..4 {
        let shape = rough::<D>(seed);
        let l = shape.lipschitz();
        assert_eq!(l, 1.0);
        let region = shape.bounds().loosened(1.5);
        for size in [0.02, 0.3, 2.0] {
            runner(256)
                .run(&(point_in(region), offset::<D>(size)), |(p, dp)| {
                    let q = p + dp;
                    let (a, b) = (shape.distance(&p), shape.distance(&q));
                    // Float slack: sums of a few terms of size ~3 m, f32.
                    prop_assert!(
                        (a - b).abs() <= l * dp.norm() + 2e-6 * (1.0 + p.norm()),
                        "seed {seed}: |{a} - {b}| > {}",
                        dp.norm()
                    );
                    Ok(())
                })
                .unwrap();
        }
    }
}

#[test]
fn heightfield_lipschitz_claim_holds_2d() {
    check_heightfield_lipschitz::<2>();
}

#[test]
fn heightfield_lipschitz_claim_holds_3d() {
    check_heightfield_lipschitz::<3>();
}

/// Brute force: the distance from `p` to the surface's triangles (3D) or segments (2D, as
/// degenerate triangles), every cell visited.
fn brute_surface<const D: usize>(rows: &[Vec<Real>], p: &Vector<D>) -> Real {
    let (nx, nz) = (rows[0].len(), rows.len());
    let x0 = -0.5 * (nx - 1) as Real * SCALE.spacing_x;
    let z0 = -0.5 * (nz - 1) as Real * SCALE.spacing_z;
    let v = |i: usize, j: usize| {
        let z = if nz > 1 {
            z0 + j as Real * SCALE.spacing_z
        } else {
            0.0
        };
        Vector3::new(x0 + i as Real * SCALE.spacing_x, rows[j][i], z)
    };
    let p3 = Vector3::new(p[0], p[1], if D == 3 { p[2] } else { 0.0 });
    let mut best = Real::INFINITY;
    let mut offer = |a: Vector3, b: Vector3, c: Vector3| {
        best = best.min((p3 - closest_on_triangle(&p3, &a, &b, &c)).norm());
    };
    for i in 0..nx - 1 {
        if nz == 1 {
            offer(v(i, 0), v(i + 1, 0), v(i + 1, 0));
        }
        for j in 0..nz.saturating_sub(1) {
            offer(v(i, j), v(i, j + 1), v(i + 1, j));
            offer(v(i, j + 1), v(i + 1, j + 1), v(i + 1, j));
        }
    }
    best
}

/// Above the surface, over the terrain's inside (a cell from the edges) and within the exact
/// radius: the distance is the surface's, to rounding; below it (and above the base), minus it.
fn check_heightfield_exact<const D: usize>()
where
    Space<D>: Dim<D>,
{
    let rows_n = if D == 3 { 6 } else { 1 };
    let rows = rough_rows(rows_n, 9, 7);
    let shape = Shape::<D>::heightfield(rows.clone(), SCALE).unwrap();
    let Shape::Heightfield(hf) = &shape else {
        unreachable!()
    };
    let b = shape.bounds();
    let mut inner = b;
    inner.min[0] += SCALE.spacing_x;
    inner.max[0] -= SCALE.spacing_x;
    if D == 3 {
        inner.min[2] += SCALE.spacing_z;
        inner.max[2] -= SCALE.spacing_z;
    }
    let (above, below) = (std::cell::Cell::new(0), std::cell::Cell::new(0));
    runner(512)
        .run(&(point_in(inner), -0.3f32..0.3), |(p, dy)| {
            let z = if D == 3 { p[2] } else { 0.0 };
            let mut q = p;
            q[1] = hf.height_at(p[0], z) + dy;
            let want = brute_surface::<D>(&rows, &q);
            let got = shape.distance(&q);
            // Nearest surface point off the terrain (past an edge) or under the base: not
            // the cases this checks.
            let inside_box = q[1] > b.min[1] + want;
            if want < 0.8 * SCALE.spacing_x && inside_box {
                let signed = if dy >= 0.0 { want } else { -want };
                let count = if dy >= 0.0 { &above } else { &below };
                count.set(count.get() + 1);
                // 2e-6 m: f32 rounding of closest-point sums of size ~1 m.
                prop_assert!((got - signed).abs() < 2e-6, "at {q:?}: {got} vs {signed}");
            }
            Ok(())
        })
        .unwrap();
    assert!(
        above.get() > 100 && below.get() > 100,
        "{above:?} {below:?}"
    );
}

#[test]
fn heightfield_distance_is_exact_near_the_surface_2d() {
    check_heightfield_exact::<2>();
}

#[test]
fn heightfield_distance_is_exact_near_the_surface_3d() {
    check_heightfield_exact::<3>();
}

#[test]
fn heightfield_bounds_reach_the_base() {
    let shape = Shape3::heightfield(vec![vec![0.0, 1.0], vec![-1.0, 0.5]], SCALE).unwrap();
    let b = shape.bounds();
    let want = Aabb::new(
        Vector3::new(-0.2, -1.5, -0.15),
        Vector3::new(0.2, 1.0, 0.15),
    );
    assert!((b.min - want.min).norm() < 1e-6 && (b.max - want.max).norm() < 1e-6);
    // Straight under the base's middle by 1 m: 1 m out.
    assert!((shape.distance(&Vector3::new(0.0, -2.5, 0.0)) - 1.0).abs() < 1e-6);
}

fn field_of(e: &SdfError) -> &'static str {
    match e {
        SdfError::NonFinite { field, .. }
        | SdfError::NonPositive { field, .. }
        | SdfError::Invalid { field, .. }
        | SdfError::TooSmall { field, .. }
        | SdfError::TooMany { field, .. }
        | SdfError::TooLarge { field, .. } => field,
        other => panic!("unexpected {other:?}"),
    }
}

#[test]
fn bad_heightfields_are_typed_errors() {
    let ok = || vec![vec![0.0; 3]; 2];
    let s = SCALE;
    let cases: Vec<(Result<Shape3, SdfError>, &str)> = vec![
        (
            Shape3::heightfield(vec![vec![0.0, Real::NAN, 0.0]; 2], s),
            "heights",
        ),
        (
            Shape3::heightfield(vec![vec![0.0, Real::INFINITY]; 2], s),
            "heights",
        ),
        (Shape3::heightfield(vec![vec![0.0]; 2], s), "heights"),
        (Shape3::heightfield(vec![vec![0.0; 3]], s), "heights"),
        (Shape3::heightfield(Vec::new(), s), "heights"),
        (
            Shape3::heightfield(vec![vec![0.0; 3], vec![0.0; 2]], s),
            "heights",
        ),
        (
            Shape3::heightfield(
                ok(),
                HeightfieldScale {
                    spacing_x: 0.0,
                    ..s
                },
            ),
            "spacing_x",
        ),
        (
            Shape3::heightfield(
                ok(),
                HeightfieldScale {
                    spacing_z: -1.0,
                    ..s
                },
            ),
            "spacing_z",
        ),
        (
            Shape3::heightfield(
                ok(),
                HeightfieldScale {
                    base_depth: Real::NAN,
                    ..s
                },
            ),
            "base_depth",
        ),
        (
            Shape3::heightfield(
                ok(),
                HeightfieldScale {
                    spacing_x: 3e38,
                    ..s
                },
            ),
            "scale",
        ),
    ];
    for (i, (r, field)) in cases.into_iter().enumerate() {
        let e = r.expect_err(&format!("case {i} must fail"));
        assert_eq!(field_of(&e), field, "case {i}: {e}");
    }
    // 2D: one row only.
    let e = Shape2::heightfield(vec![vec![0.0; 3]; 2], s).unwrap_err();
    assert_eq!(field_of(&e), "heights");
    assert!(Shape2::heightfield(vec![vec![0.0; 2]], s).is_ok());
}

#[test]
fn heightfields_read_from_ron_are_checked() {
    let text = "Heightfield((heights: [[0.0, 0.5, 0.25], [0.1, 0.2, 0.3]], \
                scale: (spacing_x: 2.0, spacing_z: 1.5, base_depth: 1.0)))";
    let shape = Shape3::from_ron(text).unwrap();
    let again = Shape3::from_ron(&shape.to_ron()).unwrap();
    assert_eq!(shape, again);
    // The scale's fields default (1 m each).
    let shape = Shape2::from_ron("Heightfield((heights: [[0.0, 1.0]]))").unwrap();
    assert_eq!(shape.bounds().min, Vector2::new(-0.5, -1.0));
    // A bad value is refused when read, naming the field.
    let bad = "Heightfield((heights: [[0.0, 0.5], [0.1]]))";
    let e = Shape3::from_ron(bad).unwrap_err();
    assert!(e.to_string().contains("heights"), "{e}");
    let bad = "Heightfield((heights: [[0.0, 0.5], [0.1, 0.0]], scale: (spacing_x: -1.0)))";
    let e = Shape3::from_ron(bad).unwrap_err();
    assert!(e.to_string().contains("spacing_x"), "{e}");
    // A 2D file with two rows is refused too.
    let e = Shape2::from_ron("Heightfield((heights: [[0.0, 1.0], [0.0, 1.0]]))").unwrap_err();
    assert!(e.to_string().contains("heights"), "{e}");
}

fn cube() -> Vec<Vector3> {
    (0..8)
        .map(|k| {
            let s = |bit: usize| if k & bit == 0 { -0.5 } else { 0.5 };
            Vector3::new(s(1), s(2), s(4))
        })
        .collect()
}

#[test]
fn hull_of_a_cube_is_the_cube() {
    let mut points = cube();
    points.push(Vector3::new(0.1, 0.2, -0.1)); // inside: dropped
    let hull = Shape3::convex_hull(&points).unwrap();
    let boxy = Shape3::cuboid(Vector3::repeat(0.5)).unwrap();
    runner(256)
        .run(
            &point_in(Aabb::from_center_half_extents(
                Vector3::zeros(),
                Vector3::repeat(1.5),
            )),
            |p| {
                // 1e-6 m: f32 rounding at 1 m.
                prop_assert!((hull.distance(&p) - boxy.distance(&p)).abs() < 1e-6);
                Ok(())
            },
        )
        .unwrap();
    let Shape::ConvexHull(h) = &hull else {
        unreachable!()
    };
    assert_eq!(h.get().vertices().len(), 8);
    assert_eq!(Shape3::from_ron(&hull.to_ron()).unwrap(), hull);
}

#[test]
fn bad_hulls_are_typed_errors() {
    let flat: Vec<Vector3> = (0..6)
        .map(|i| Vector3::new(i as Real, (i * i) as Real, 0.0))
        .collect();
    let line: Vec<Vector3> = (0..6).map(|i| Vector3::repeat(i as Real)).collect();
    let mut nan = cube();
    nan[3].y = Real::NAN;
    for (points, field) in [
        (cube()[..3].to_vec(), "points"),
        (nan, "points"),
        (flat, "points"),
        (line, "points"),
        (vec![Vector3::zeros(); 5], "points"),
    ] {
        let e = Shape3::convex_hull(&points).unwrap_err();
        assert_eq!(field_of(&e), field, "{e}");
    }
    let e = Shape3::from_ron("ConvexHull((points: [(0, 0, 0), (1, 0, 0), (0, 1, 0), (1, 1, 0)]))")
        .unwrap_err();
    assert!(e.to_string().contains("points"), "{e}");
    // A hull is 3D only.
    assert!(Shape2::from_ron("ConvexHull((points: [(0, 0, 0)]))").is_err());
}

#[test]
fn hull_of_a_2d_cloud_is_its_convex_polygon() {
    let v = Vector2::new;
    let cloud = [
        v(0.0, 0.0),
        v(2.0, 0.0),
        v(1.0, 0.0), // on an edge: dropped
        v(2.0, 1.0),
        v(0.5, 0.5), // inside: dropped
        v(0.0, 1.0),
        v(2.0, 1.0), // repeated
    ];
    let hull = Shape2::convex_hull(&cloud).unwrap();
    let want =
        Shape2::convex_polygon(vec![v(0.0, 0.0), v(2.0, 0.0), v(2.0, 1.0), v(0.0, 1.0)]).unwrap();
    assert_eq!(hull, want);
    let line = [v(0.0, 0.0), v(1.0, 1.0), v(2.0, 2.0)];
    assert_eq!(field_of(&Shape2::convex_hull(&line).unwrap_err()), "points");
    assert_eq!(
        field_of(&Shape2::convex_hull(&line[..2]).unwrap_err()),
        "points"
    );
    let nan = [v(0.0, 0.0), v(1.0, Real::NAN), v(2.0, 2.0)];
    assert_eq!(field_of(&Shape2::convex_hull(&nan).unwrap_err()), "points");
}
