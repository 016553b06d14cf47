//! Narrowphase queries and casts on random shape trees (up to two operator levels of
//! transforms, scaling, rounding, shells, CSG and smooth blends over balls, boxes, rounded
//! boxes and capsules) at random poses, in 2D and 3D: no panic, no error for finite input,
//! finite outputs, unit normals, and `intersects` consistent with `penetration`. The same
//! decoder and checks drive the cargo-fuzz targets `narrowphase` and `casts`
//! (`tests/proptest_support`).

mod proptest_support;

use fathom_math::{Dim, Space};
use proptest::collection::vec;
use proptest::prelude::*;
use proptest_support::{check_cast, check_pair, pose, shape, Bytes};

fn pair<const D: usize>(data: &[u8]) -> Result<(), String>
where
    Space<D>: Dim<D>,
{
    let mut b = Bytes::new(data);
    let (a, pa) = (shape::<D>(&mut b, 2), pose::<D>(&mut b, 2.0));
    let (s, ps) = (shape::<D>(&mut b, 2), pose::<D>(&mut b, 2.0));
    check_pair(&a, &pa, &s, &ps)
}

fn cast<const D: usize>(data: &[u8]) -> Result<(), String>
where
    Space<D>: Dim<D>,
{
    let mut b = Bytes::new(data);
    let (target, at) = (shape::<D>(&mut b, 2), pose::<D>(&mut b, 2.0));
    check_cast(&target, &at, &mut b)
}

proptest! {
    // Bounded so CI stays fast: four narrowphase searches per case on trees of a few nodes.
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn narrowphase_invariants_2d(data in vec(any::<u8>(), 64..160)) {
        let r = pair::<2>(&data);
        prop_assert!(r.is_ok(), "{}", r.unwrap_err());
    }

    #[test]
    fn narrowphase_invariants_3d(data in vec(any::<u8>(), 64..160)) {
        let r = pair::<3>(&data);
        prop_assert!(r.is_ok(), "{}", r.unwrap_err());
    }

    #[test]
    fn cast_invariants_2d(data in vec(any::<u8>(), 32..128)) {
        let r = cast::<2>(&data);
        prop_assert!(r.is_ok(), "{}", r.unwrap_err());
    }

    #[test]
    fn cast_invariants_3d(data in vec(any::<u8>(), 32..128)) {
        let r = cast::<3>(&data);
        prop_assert!(r.is_ok(), "{}", r.unwrap_err());
    }
}

/// Found by `narrowphase_invariants_2d`: a 2D ball of radius 0.05 minus a box that covers
/// it (an empty solid), intersected with a union of boxes, against a box: `distance`
/// reported -0.001 m, below the zero its docs promise for intersecting shapes, while
/// `intersects` says they do not touch. Distances are now clamped at zero.
#[test]
fn distance_is_never_negative_regression() {
    let data = [
        33u8, 154, 88, 0, 0, 29, 0, 29, 0, 0, 20, 149, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 105, 0, 42, 0,
        23, 0, 0, 0, 32, 4, 202, 241, 97, 140, 214, 162, 106, 179, 6, 107, 53, 20, 98, 190, 104,
        94, 199, 79, 131, 243, 249, 69, 215, 217, 137, 211, 94, 144, 5, 168, 98, 183,
    ];
    let mut b = Bytes::new(&data);
    let (a, pa) = (shape::<2>(&mut b, 2), pose::<2>(&mut b, 2.0));
    let (s, ps) = (shape::<2>(&mut b, 2), pose::<2>(&mut b, 2.0));
    let d = fathom_narrowphase::distance(
        &a as &dyn fathom_sdf::Sdf<2>,
        &pa,
        &s as &dyn fathom_sdf::Sdf<2>,
        &ps,
        &fathom_narrowphase::ContactOptions::default(),
    )
    .unwrap();
    assert!(d.distance >= 0.0, "distance {}", d.distance);
}
