//! Properties every shape and operator must keep, checked at random points for D = 2 and 3:
//! the Lipschitz bound, bounds holding the zero set (and level sets), unit outward gradients.

use super::catalogue::{all_shapes, TestDim};
use super::support::{offset, point_in, runner};
use crate::{Sdf, Shape};
use fathom_math::{Aabb, Real, Space, Vector};
use proptest::prop_assert;

/// Float slack of a Lipschitz check: each evaluation rounds sums, products and a square root of
/// terms the size of the coordinates, a few dozen ulps (f32 ulp ≈ 1.2e-7 relative) of them.
fn slack<const D: usize>(p: &Vector<D>, q: &Vector<D>) -> Real {
    1e-5 * (1.0 + p.norm() + q.norm())
}

/// Where to sample: the shape's box grown by half its size, clipped to a 6 m cube (the
/// half-space's box is cut at 10 km).
fn region<const D: usize>(shape: &Shape<D>) -> Aabb<D>
where
    Space<D>: TestDim<D>,
{
    let b = shape.bounds();
    let grown = b.loosened(0.5 * b.half_extents().max() + 0.2);
    let cube = Aabb::from_center_half_extents(Vector::<D>::zeros(), Vector::<D>::repeat(3.0));
    grown.intersection(&cube).unwrap_or(cube)
}

fn check_lipschitz<const D: usize>()
where
    Space<D>: TestDim<D>,
{
    for (name, shape) in all_shapes::<D>() {
        let l = shape.lipschitz();
        assert!(l >= 1.0 && l.is_finite(), "{name}: L = {l}");
        // Near pairs (what pruning relies on) and far pairs.
        for size in [0.05, 1.5] {
            runner(96)
                .run(&(point_in(region(&shape)), offset::<D>(size)), |(p, dp)| {
                    let q = p + dp;
                    let (a, b) = (shape.distance(&p), shape.distance(&q));
                    prop_assert!(a.is_finite() && b.is_finite());
                    prop_assert!(
                        (a - b).abs() <= l * dp.norm() + slack(&p, &q),
                        "{name}: |{a} - {b}| > {l} * {}",
                        dp.norm()
                    );
                    Ok(())
                })
                .unwrap_or_else(|e| panic!("{name}: {e}"));
        }
    }
}

#[test]
fn lipschitz_bound_holds_2d() {
    check_lipschitz::<2>();
}

#[test]
fn lipschitz_bound_holds_3d() {
    check_lipschitz::<3>();
}

fn check_bounds<const D: usize>()
where
    Space<D>: TestDim<D>,
{
    for (name, shape) in all_shapes::<D>() {
        // Levels 0 (bounds) and above (what rounding, shells and smooth unions of this shape use).
        for level in [0.0, 0.1, 0.4] {
            let b = shape.level_bounds(level);
            // Loosened by float round-off of the box corners' arithmetic.
            let tolerant = b.loosened(1e-5 * (1.0 + b.max.abs().max()));
            runner(256)
                .run(&point_in(region(&shape).loosened(level)), |p| {
                    if shape.distance(&p) <= level {
                        prop_assert!(
                            tolerant.contains_point(&p),
                            "{name}: {p:?} has d <= {level} outside {b:?}"
                        );
                    }
                    Ok(())
                })
                .unwrap_or_else(|e| panic!("{name}: {e}"));
        }
        assert_eq!(shape.level_bounds(0.0), shape.bounds(), "{name}");
    }
}

#[test]
fn bounds_hold_the_level_sets_2d() {
    check_bounds::<2>();
}

#[test]
fn bounds_hold_the_level_sets_3d() {
    check_bounds::<3>();
}

/// Moves `p` towards the zero set by Newton steps along the gradient.
fn onto_surface<const D: usize>(shape: &Shape<D>, mut p: Vector<D>) -> Vector<D>
where
    Space<D>: TestDim<D>,
{
    for _ in 0..12 {
        let d = shape.distance(&p);
        p -= shape.gradient(&p) * (d / shape.lipschitz());
    }
    p
}

fn check_gradients<const D: usize>()
where
    Space<D>: TestDim<D>,
{
    for (name, shape) in all_shapes::<D>() {
        let size = shape.bounds().half_extents().max().min(3.0);
        let h = 1e-3 * size;
        let near = std::cell::Cell::new(0);
        runner(96)
            .run(
                &(point_in(region(&shape)), offset::<D>(0.02 * size)),
                |(p, jitter)| {
                    let s = onto_surface(&shape, p) + jitter;
                    if shape.distance(&s).abs() > 0.03 * size {
                        return Ok(()); // Newton did not reach the surface from here (a blend's saddle).
                    }
                    near.set(near.get() + 1);
                    let g = shape.gradient(&s);
                    prop_assert!(
                        (g.norm() - 1.0).abs() < 1e-4,
                        "{name}: |g| = {} at {s:?}",
                        g.norm()
                    );
                    // Outward: the field grows along g. The forward difference over h (one-sided, so
                    // that it also holds on an unsigned field's zero set, a segment) is at least a
                    // tenth of the step; its rounding error is ~1e-6 / 1e-3 << 0.1.
                    let rise = (shape.distance(&(s + g * h)) - shape.distance(&s)) / h;
                    prop_assert!(
                        rise > 0.1,
                        "{name}: field does not grow along its gradient at {s:?} ({rise})"
                    );
                    Ok(())
                },
            )
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(
            near.get() >= 48,
            "{name}: only {} points reached the surface",
            near.get()
        );
    }
}

#[test]
fn gradients_are_unit_and_outward_2d() {
    check_gradients::<2>();
}

#[test]
fn gradients_are_unit_and_outward_3d() {
    check_gradients::<3>();
}
