//! Every shape tree reads back from RON unchanged, and a kind of the other dimension is refused.

use super::catalogue::{all_shapes, TestDim};
use crate::{Sdf, SdfError, Shape, Shape2, Shape3};
use fathom_math::{Space, Vector};

fn check_roundtrip<const D: usize>()
where
    Space<D>: TestDim<D>,
{
    for (name, shape) in all_shapes::<D>() {
        let text = shape.to_ron();
        let back = Shape::<D>::from_ron(&text).unwrap_or_else(|e| panic!("{name}: {e}\n{text}"));
        assert_eq!(back, shape, "{name} changed through RON:\n{text}");
        // The same field, bit for bit, at a probe point.
        let p = Vector::<D>::from_fn(|i, _| 0.1 + 0.2 * i as f32);
        assert_eq!(
            back.distance(&p).to_bits(),
            shape.distance(&p).to_bits(),
            "{name}"
        );
    }
}

#[test]
fn every_shape_roundtrips_through_ron_2d() {
    check_roundtrip::<2>();
}

#[test]
fn every_shape_roundtrips_through_ron_3d() {
    check_roundtrip::<3>();
}

#[test]
fn other_dimension_kinds_are_refused() {
    let torus = Shape3::torus(1.0, 0.2).unwrap().to_ron();
    match Shape2::from_ron(&torus) {
        Err(SdfError::Parse {
            format: "RON",
            message,
            ..
        }) => {
            assert!(message.contains("Torus exists only in 3D"), "{message}")
        }
        other => panic!("expected a RON parse error, got {other:?}"),
    }
    let segment = Shape2::segment(Vector::<2>::zeros(), Vector::<2>::x())
        .unwrap()
        .to_ron();
    assert!(matches!(
        Shape3::from_ron(&segment),
        Err(SdfError::Parse { format: "RON", .. })
    ));
}

#[test]
fn bad_values_in_ron_name_the_field() {
    assert_eq!(
        Shape3::from_ron("Ball((radius: -1.0))"),
        Err(SdfError::NonPositive {
            field: "radius",
            value: -1.0
        })
    );
    // A nested bad value: the blend radius of a smooth union inside a transform.
    let nested = Shape3::ball(1.0)
        .unwrap()
        .smooth_union(Shape3::ball(1.0).unwrap(), 0.5)
        .unwrap();
    let text = nested.to_ron().replace("radius: 0.5", "radius: 0.0");
    assert_eq!(
        Shape3::from_ron(&text),
        Err(SdfError::NonPositive {
            field: "radius",
            value: 0.0
        })
    );
    // Malformed text is a parse error that says where.
    match Shape2::from_ron("Ball((radius: 1.0)") {
        Err(SdfError::Parse {
            format: "RON",
            message,
            ..
        }) => assert!(message.contains(':'), "{message}"),
        other => panic!("expected a parse error, got {other:?}"),
    }
    assert!(matches!(
        Shape2::from_ron("Ball((radiuss: 1.0))"),
        Err(SdfError::Parse { message, .. }) if message.contains("radiuss")
    ));
}
