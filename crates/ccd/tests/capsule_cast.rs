//! Capsule casts: agreement with sphere casts and with a half-space in closed form, thin
//! features between samples, overlaps along the segment, flat contact and its budget.
mod common;

use common::{axis, Rng};
use fathom_ccd::{capsule_cast, sphere_cast, CastOptions, CastResult, CcdError};
use fathom_math::{Real, Vector};
use fathom_sdf::{Ball, Cuboid, HalfSpace, Sdf};

/// f32 round-off on coordinates of a few metres.
const ROUND: Real = 1e-5;

fn zero_axis_is_a_sphere<const D: usize>() {
    let target = Cuboid::new(Vector::<D>::repeat(0.5)).unwrap();
    let mut rng = Rng::new(5);
    let opts = CastOptions::default();
    for _ in 0..100 {
        let origin = rng.unit::<D>() * 3.0;
        let dir = (rng.vector::<D>(0.6) - origin).normalize();
        let s = sphere_cast::<D>(&target, &origin, &dir, 0.2, 5.0, &opts).unwrap();
        let c =
            capsule_cast::<D>(&target, &origin, &Vector::zeros(), 0.2, &dir, 5.0, &opts).unwrap();
        assert_eq!(s, c, "a capsule with a zero segment is a ball");
    }
}

#[test]
fn capsule_with_zero_segment_equals_sphere_cast() {
    zero_axis_is_a_sphere::<2>();
    zero_axis_is_a_sphere::<3>();
}

fn against_half_space<const D: usize>() {
    let mut rng = Rng::new(9);
    let opts = CastOptions::default();
    for _ in 0..200 {
        let n = rng.unit::<D>();
        let plane = HalfSpace::new(n, 0.0).unwrap();
        let (a, r) = (rng.unit::<D>() * rng.range(0.0, 1.5), rng.range(0.0, 0.3));
        let center = n * rng.range(2.0, 4.0) + rng.vector::<D>(1.0);
        let dir = loop {
            let d = rng.unit::<D>();
            if d.dot(&n) <= -0.3 {
                break d;
            }
        };
        // Closed form: the lowest point of the capsule is n.c - |n.a| - r above the plane,
        // closing at -dir.n per metre travelled.
        let cos = -dir.dot(&n);
        let exact = (n.dot(&center) - n.dot(&a).abs() - r) / cos;
        let res = capsule_cast::<D>(&plane, &center, &a, r, &dir, 30.0, &opts).unwrap();
        let CastResult::Hit {
            distance,
            normal,
            point,
            ..
        } = res
        else {
            panic!("{res:?}")
        };
        assert!(
            distance <= exact + ROUND,
            "{distance} after the exact {exact}"
        );
        assert!(
            distance >= exact - (opts.epsilon + ROUND) / cos,
            "{distance} before {exact} by more than epsilon"
        );
        assert!((normal - n).norm() < 1e-5, "the plane's normal");
        assert!(
            n.dot(&point).abs() < 1e-4,
            "contact point on the plane: {}",
            n.dot(&point)
        );
    }
}

#[test]
fn capsule_against_half_space_matches_closed_form() {
    against_half_space::<2>();
    against_half_space::<3>();
}

fn thin_needle<const D: usize>() {
    // A 4 m capsule sweeps sideways past a 2 cm ball placed 0.74 m along its segment:
    // sampling only the ends and the middle would miss it.
    let needle = common::fields::Translated {
        inner: Ball::new(0.02).unwrap(),
        offset: axis::<D>(0) + axis::<D>(1) * 0.74,
    };
    let opts = CastOptions::default();
    let res = capsule_cast::<D>(
        &needle,
        &Vector::zeros(),
        &(axis::<D>(1) * 2.0),
        0.05,
        &axis::<D>(0),
        3.0,
        &opts,
    )
    .unwrap();
    let CastResult::Hit {
        distance, point, ..
    } = res
    else {
        panic!("{res:?}")
    };
    // Exact: the segment point (0, 0.74) reaches within 0.02 + 0.05 of the needle at x = 0.93.
    assert!(
        (distance - 0.93).abs() <= opts.epsilon + ROUND,
        "{distance}"
    );
    // The closest segment point is located to the search tolerance (epsilon / 2): around the
    // needle the gap grows quadratically, so it may slide sqrt(2 * 0.07 * epsilon / 2) ~ 8 mm.
    assert!(
        (point - (axis::<D>(0) * 0.98 + axis::<D>(1) * 0.74)).norm() < 1e-2,
        "{point:?}"
    );
}

#[test]
fn thin_feature_between_samples_is_hit() {
    thin_needle::<2>();
    thin_needle::<3>();
}

fn overlap_in_the_middle<const D: usize>() {
    // Ball of 0.3 at the origin; a capsule of radius 0.1 along y through x = 0.2, ends far out.
    let ball = Ball::new(0.3).unwrap();
    let opts = CastOptions::default();
    let center = axis::<D>(0) * 0.2 + axis::<D>(1) * 0.9;
    let res = capsule_cast::<D>(
        &ball,
        &center,
        &(axis::<D>(1) * 1.6),
        0.1,
        &axis::<D>(0),
        1.0,
        &opts,
    )
    .unwrap();
    let CastResult::StartedInside { depth, normal, .. } = res else {
        panic!("{res:?}")
    };
    // Deepest overlap: 0.3 + 0.1 - 0.2 at the segment point nearest the ball's centre (0.2, 0).
    assert!((depth - 0.2).abs() <= opts.epsilon, "{depth}");
    assert!((normal - axis::<D>(0)).norm() < 1e-2, "{normal:?}");
}

#[test]
fn overlap_along_the_segment_is_found_at_its_deepest() {
    overlap_in_the_middle::<2>();
    overlap_in_the_middle::<3>();
}

fn flat_contact<const D: usize>() {
    // A capsule lying parallel to a wall's face, moving onto it: every segment point
    // arrives at once, the costly case for the segment search.
    let wall = Cuboid::new(Vector::<D>::repeat(3.0)).unwrap();
    let center = axis::<D>(0) * 5.0;
    let (a, r) = (axis::<D>(1) * 1.0, 0.25);
    let opts = CastOptions::default();
    let res = capsule_cast::<D>(&wall, &center, &a, r, &-axis::<D>(0), 4.0, &opts).unwrap();
    let CastResult::Hit {
        distance,
        center: c,
        ..
    } = res
    else {
        panic!("{res:?}")
    };
    assert!(
        (distance - 1.75).abs() <= opts.epsilon + ROUND,
        "{distance}"
    );
    assert!(wall.distance(&c) - r >= -ROUND, "not past the face");
    // A budget too small for the march's final refinement is a step cap, not a miss (the
    // closed form a box has would answer without one).
    let tight = CastOptions {
        max_evaluations: 200,
        closed_form: false,
        ..opts
    };
    let res = capsule_cast::<D>(&wall, &center, &a, r, &-axis::<D>(0), 4.0, &tight).unwrap();
    let CastResult::StepCap {
        distance_reached, ..
    } = res
    else {
        panic!("{res:?}")
    };
    assert!(distance_reached <= 1.75 + ROUND);
}

#[test]
fn flat_contact_is_hit_and_its_budget_reported() {
    flat_contact::<2>();
    flat_contact::<3>();
}

#[test]
fn bad_capsule_input_is_a_typed_error() {
    let ball = Ball::new(1.0).unwrap();
    let opts = CastOptions::default();
    let (c, d) = (axis::<3>(0) * 3.0, -axis::<3>(0));
    let e =
        capsule_cast::<3>(&ball, &c, &Vector::repeat(Real::NAN), 0.1, &d, 1.0, &opts).unwrap_err();
    assert_eq!(e, CcdError::NonFiniteVector { field: "half_axis" });
    let e =
        capsule_cast::<3>(&ball, &(c * Real::NAN), &axis::<3>(1), 0.1, &d, 1.0, &opts).unwrap_err();
    assert_eq!(e, CcdError::NonFiniteVector { field: "center" });
    let e = capsule_cast::<2>(
        &ball,
        &Vector::zeros(),
        &Vector::zeros(),
        -1.0,
        &axis::<2>(0),
        1.0,
        &opts,
    )
    .unwrap_err();
    assert_eq!(
        e,
        CcdError::Negative {
            field: "radius",
            value: -1.0
        }
    );
}
