//! Bad input is a typed error naming the field, and leaves the structure untouched.

use fathom_broadphase::{Broadphase, BroadphaseConfig, BroadphaseError, ProxyKind, QueryControl};
use fathom_math::{Aabb, Dim, Real, Space, Vector};

fn unit<const D: usize>(x: Real) -> Aabb<D> {
    let mut min = Vector::<D>::zeros();
    min[0] = x;
    Aabb::new(min, min.add_scalar(1.0))
}

fn bad_input_is_typed<const D: usize>()
where
    Space<D>: Dim<D>,
{
    let mut bp = Broadphase::<D>::new();
    bp.insert(1, unit(0.0), ProxyKind::Dynamic).unwrap();
    let mut nan = unit::<D>(0.0);
    nan.max[D - 1] = Real::NAN;
    let mut inverted = unit::<D>(0.0);
    inverted.min[1] = 2.0;
    let inf = Aabb::new(Vector::<D>::zeros(), Vector::<D>::repeat(Real::INFINITY));
    assert_eq!(
        bp.insert(2, nan, ProxyKind::Static),
        Err(BroadphaseError::NonFiniteAabb { field: "aabb" })
    );
    assert_eq!(
        bp.insert(2, inf, ProxyKind::Static),
        Err(BroadphaseError::NonFiniteAabb { field: "aabb" })
    );
    assert_eq!(
        bp.insert(2, inverted, ProxyKind::Dynamic),
        Err(BroadphaseError::InvertedAabb {
            field: "aabb",
            axis: 1
        })
    );
    assert_eq!(
        bp.insert(1, unit(3.0), ProxyKind::Dynamic),
        Err(BroadphaseError::DuplicateKey { key: 1 })
    );
    assert_eq!(
        bp.update(1, nan),
        Err(BroadphaseError::NonFiniteAabb { field: "aabb" })
    );
    assert_eq!(
        bp.update(9, unit(0.0)),
        Err(BroadphaseError::UnknownKey { key: 9 })
    );
    assert!(matches!(
        bp.update_moving(1, unit(5.0), &Vector::<D>::repeat(Real::INFINITY)),
        Err(BroadphaseError::InvalidArgument {
            field: "displacement",
            ..
        })
    ));
    assert_eq!(bp.remove(9), Err(BroadphaseError::UnknownKey { key: 9 }));
    assert_eq!(bp.aabb(9), Err(BroadphaseError::UnknownKey { key: 9 }));
    // A batch with one bad entry (or a repeated key) inserts nothing.
    let batch = [
        (5, unit(0.0), ProxyKind::Dynamic),
        (6, inverted, ProxyKind::Dynamic),
    ];
    assert!(matches!(
        bp.insert_many(batch),
        Err(BroadphaseError::InvertedAabb { .. })
    ));
    let batch = [
        (5, unit(0.0), ProxyKind::Dynamic),
        (5, unit(1.0), ProxyKind::Static),
    ];
    assert_eq!(
        bp.insert_many(batch),
        Err(BroadphaseError::DuplicateKey { key: 5 })
    );
    assert!(!bp.contains(5));
    // The failed update left the old box in place.
    assert_eq!(bp.aabb(1), Ok(unit(0.0)));
    assert_eq!(bp.len(), 1);
    bp.validate().unwrap();
    // Queries.
    let nan_v = Vector::<D>::repeat(Real::NAN);
    let o = Vector::<D>::zeros();
    let go = |_| QueryControl::Continue;
    assert!(matches!(
        bp.containing(&nan_v),
        Err(BroadphaseError::InvalidArgument { field: "point", .. })
    ));
    assert!(matches!(
        bp.overlapping(&inverted),
        Err(BroadphaseError::InvertedAabb { field: "aabb", .. })
    ));
    assert!(matches!(
        bp.cast_ray(&nan_v, &o, 1.0, go),
        Err(BroadphaseError::InvalidArgument {
            field: "origin",
            ..
        })
    ));
    assert!(matches!(
        bp.cast_ray(&o, &nan_v, 1.0, go),
        Err(BroadphaseError::InvalidArgument { field: "dir", .. })
    ));
    assert!(matches!(
        bp.cast_ray(&o, &o, Real::NAN, go),
        Err(BroadphaseError::InvalidArgument { field: "max_t", .. })
    ));
    assert!(matches!(
        bp.cast_sphere(&o, -1.0, &o, 1.0, go),
        Err(BroadphaseError::InvalidArgument {
            field: "radius",
            ..
        })
    ));
    // Configuration.
    let bad = BroadphaseConfig {
        margin: -0.1,
        ..BroadphaseConfig::default()
    };
    assert!(matches!(
        Broadphase::<D>::with_config(bad),
        Err(BroadphaseError::InvalidArgument {
            field: "config.margin",
            ..
        })
    ));
    let bad = BroadphaseConfig {
        prediction: Real::NAN,
        ..BroadphaseConfig::default()
    };
    assert!(matches!(
        Broadphase::<D>::with_config(bad),
        Err(BroadphaseError::InvalidArgument {
            field: "config.prediction",
            ..
        })
    ));
    let bad = BroadphaseConfig {
        parallel_threshold: 0,
        ..BroadphaseConfig::default()
    };
    assert!(Broadphase::<D>::with_config(bad).is_err());
}

#[test]
fn bad_input_is_typed_2d() {
    bad_input_is_typed::<2>();
}

#[test]
fn bad_input_is_typed_3d() {
    bad_input_is_typed::<3>();
}

/// Static proxies never pair with each other, and a removed-then-reinserted
/// key whose pair comes back reports nothing (the set did not change).
fn static_pairs_and_reinsert<const D: usize>()
where
    Space<D>: Dim<D>,
{
    let mut bp = Broadphase::<D>::new();
    bp.insert(1, unit(0.0), ProxyKind::Static).unwrap();
    bp.insert(2, unit(0.5), ProxyKind::Static).unwrap();
    bp.insert(3, unit(0.9), ProxyKind::Dynamic).unwrap();
    assert_eq!(bp.update_pairs().began, vec![(1, 3), (2, 3)]);
    bp.remove(3).unwrap();
    bp.insert(3, unit(0.7), ProxyKind::Dynamic).unwrap();
    assert!(bp.update_pairs().is_empty());
    bp.remove(3).unwrap();
    assert_eq!(bp.update_pairs().ended, vec![(1, 3), (2, 3)]);
    assert!(bp.pairs().is_empty());
}

#[test]
fn static_pairs_and_reinsert_2d() {
    static_pairs_and_reinsert::<2>();
}

#[test]
fn static_pairs_and_reinsert_3d() {
    static_pairs_and_reinsert::<3>();
}
