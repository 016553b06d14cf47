//! The narrowphase against parry's exact answers for convex primitives (ball, cuboid, capsule),
//! random poses, in 2D and 3D: the same generic checks run for both dimensions.

mod common;

use common::{angles, check_against_parry, pose_pair, prim, size, unit3, Oracle, Prim};
use fathom_math::{Dim, Real, Space};
use proptest::prelude::*;

/// One random pair: B placed around A at a distance up to the sum of their sizes, so that
/// about half the cases overlap.
fn check_pair<const D: usize>(
    a: Prim<D>,
    b: Prim<D>,
    ra: [Real; 3],
    rb: [Real; 3],
    dir: [Real; 3],
    t: Real,
) where
    Space<D>: Dim<D> + Oracle<D>,
{
    let (sa, sb) = (size(&a), size(&b));
    let (pa, pb) = pose_pair::<D>((sa, sb), ra, rb, dir, t);
    check_against_parry(&a.shape(), &pa, &b.shape(), &pb, (sa, sb), |pb| {
        Space::<D>::try_contact(&a, &pa, &b, pb)
    });
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    #[test]
    fn agrees_with_parry_3d(a in prim::<3>(), b in prim::<3>(), ra in angles(), rb in angles(),
                            dir in unit3(), t in 0.2f32..1.1) {
        check_pair::<3>(a, b, ra, rb, dir, t);
    }

    #[test]
    fn agrees_with_parry_2d(a in prim::<2>(), b in prim::<2>(), ra in angles(), rb in angles(),
                            dir in unit3(), t in 0.2f32..1.1) {
        check_pair::<2>(a, b, ra, rb, dir, t);
    }
}
