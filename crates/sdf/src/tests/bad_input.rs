//! Every constructor refuses bad values with the error variant and the field it names.

use crate::{SdfError, Shape, Shape2, Shape3};
use fathom_math::{Dim, Space, Vector, Vector2};

fn generic_bad_input<const D: usize>()
where
    Space<D>: Dim<D>,
{
    let one = Vector::<D>::repeat(1.0);
    let ball = || Shape::<D>::ball(1.0).unwrap();
    assert_eq!(
        Shape::<D>::ball(0.0),
        Err(SdfError::NonPositive {
            field: "radius",
            value: 0.0
        })
    );
    assert!(matches!(
        Shape::<D>::ball(f32::INFINITY),
        Err(SdfError::NonFinite {
            field: "radius",
            ..
        })
    ));
    let mut h = one;
    h[D - 1] = -1.0;
    assert_eq!(
        Shape::<D>::cuboid(h),
        Err(SdfError::NonPositive {
            field: "half_extents",
            value: -1.0
        })
    );
    assert_eq!(
        Shape::<D>::rounded_cuboid(h, 0.1),
        Err(SdfError::Negative {
            field: "half_extents",
            value: -1.0
        })
    );
    assert_eq!(
        Shape::<D>::rounded_cuboid(one, 0.0),
        Err(SdfError::NonPositive {
            field: "radius",
            value: 0.0
        })
    );
    assert_eq!(
        Shape::<D>::capsule(-0.5, 1.0),
        Err(SdfError::Negative {
            field: "half_height",
            value: -0.5
        })
    );
    assert!(matches!(
        Shape::<D>::half_space(Vector::zeros(), 0.0),
        Err(SdfError::Invalid {
            field: "normal",
            ..
        })
    ));
    assert!(matches!(
        Shape::<D>::half_space(one, f32::NAN),
        Err(SdfError::NonFinite {
            field: "offset",
            ..
        })
    ));
    assert_eq!(
        ball().scaled(0.0),
        Err(SdfError::NonPositive {
            field: "scale",
            value: 0.0
        })
    );
    assert!(matches!(
        ball().rounded(f32::NAN),
        Err(SdfError::NonFinite {
            field: "radius",
            ..
        })
    ));
    assert_eq!(
        ball().shell(-0.1),
        Err(SdfError::NonPositive {
            field: "half_thickness",
            value: -0.1
        })
    );
    assert_eq!(
        Shape::<D>::union_all(vec![]),
        Err(SdfError::TooSmall {
            field: "shapes",
            value: 0,
            min: 1
        })
    );
    assert_eq!(
        Shape::<D>::intersection_all(vec![]),
        Err(SdfError::TooSmall {
            field: "shapes",
            value: 0,
            min: 1
        })
    );
    assert_eq!(
        ball().smooth_union(ball(), -1.0),
        Err(SdfError::NonPositive {
            field: "radius",
            value: -1.0
        })
    );
    assert_eq!(
        ball().smooth_intersection(ball(), 0.0),
        Err(SdfError::NonPositive {
            field: "radius",
            value: 0.0
        })
    );
    assert!(matches!(
        ball().smooth_difference(ball(), f32::NAN),
        Err(SdfError::NonFinite {
            field: "radius",
            ..
        })
    ));
    // A pose read from a file with a rotation that is not unit length.
    let text = ball()
        .transformed(fathom_math::Pose::<D>::identity())
        .unwrap()
        .to_ron();
    let stretched = if D == 2 {
        text.replacen("(1.0, 0.0)", "(2.0, 0.0)", 1)
    } else {
        text.replace("1.0)", "2.0)")
    };
    assert!(
        matches!(
            Shape::<D>::from_ron(&stretched),
            Err(SdfError::Invalid { field: "pose", .. })
        ),
        "{stretched}"
    );
    // A half-space read from a file with a normal that is not unit length.
    let hs = Shape::<D>::half_space(one, 0.0).unwrap().to_ron();
    let first = format!("{}", 1.0 / (D as f32).sqrt());
    let bad = hs.replacen(&first, "3.0", 1);
    assert!(
        matches!(
            Shape::<D>::from_ron(&bad),
            Err(SdfError::Invalid {
                field: "normal",
                ..
            })
        ),
        "{bad}"
    );
}

#[test]
fn generic_bad_input_2d() {
    generic_bad_input::<2>();
}

#[test]
fn generic_bad_input_3d() {
    generic_bad_input::<3>();
}

#[test]
fn planar_bad_input() {
    let p = Vector2::new(0.5, 0.5);
    assert!(matches!(
        Shape2::segment(p, p),
        Err(SdfError::Invalid { field: "b", .. })
    ));
    assert!(matches!(
        Shape2::segment(Vector2::new(f32::NAN, 0.0), p),
        Err(SdfError::NonFinite { field: "a", .. })
    ));
    let two = vec![Vector2::zeros(), Vector2::x()];
    assert_eq!(
        Shape2::polygon(two),
        Err(SdfError::TooSmall {
            field: "vertices",
            value: 2,
            min: 3
        })
    );
    // A bow tie crosses itself.
    let bow_tie = vec![
        Vector2::new(0.0, 0.0),
        Vector2::new(1.0, 1.0),
        Vector2::new(1.0, 0.0),
        Vector2::new(0.0, 1.0),
    ];
    assert!(matches!(
        Shape2::polygon(bow_tie),
        Err(SdfError::Invalid {
            field: "vertices",
            ..
        })
    ));
    let collinear = vec![
        Vector2::new(0.0, 0.0),
        Vector2::new(1.0, 0.0),
        Vector2::new(2.0, 0.0),
    ];
    assert!(matches!(
        Shape2::polygon(collinear),
        Err(SdfError::Invalid {
            field: "vertices",
            ..
        })
    ));
    let repeated = vec![
        Vector2::zeros(),
        Vector2::zeros(),
        Vector2::x(),
        Vector2::y(),
    ];
    assert!(matches!(
        Shape2::polygon(repeated),
        Err(SdfError::Invalid {
            field: "vertices",
            ..
        })
    ));
    let l_shape = vec![
        Vector2::new(0.0, 0.0),
        Vector2::new(1.0, 0.0),
        Vector2::new(1.0, 0.3),
        Vector2::new(0.3, 0.3),
        Vector2::new(0.3, 1.0),
        Vector2::new(0.0, 1.0),
    ];
    assert!(Shape2::polygon(l_shape.clone()).is_ok());
    assert!(matches!(
        Shape2::convex_polygon(l_shape.clone()),
        Err(SdfError::Invalid {
            field: "vertices",
            ..
        })
    ));
    assert!(matches!(
        Shape2::rounded_polygon(l_shape, -0.1),
        Err(SdfError::NonPositive {
            field: "radius",
            ..
        })
    ));
}

#[test]
fn solid_bad_input() {
    assert_eq!(
        Shape3::cylinder(0.0, 1.0),
        Err(SdfError::NonPositive {
            field: "half_height",
            value: 0.0
        })
    );
    assert!(matches!(
        Shape3::cone(1.0, f32::NAN),
        Err(SdfError::NonFinite {
            field: "radius",
            ..
        })
    ));
    assert!(matches!(
        Shape3::torus(0.5, 0.5),
        Err(SdfError::Invalid {
            field: "minor_radius",
            ..
        })
    ));
    assert_eq!(
        Shape3::torus(-1.0, 0.5),
        Err(SdfError::NonPositive {
            field: "major_radius",
            value: -1.0
        })
    );
    assert!(matches!(
        Shape3::capped_torus(1.0, 0.2, 4.0),
        Err(SdfError::Invalid {
            field: "half_angle",
            ..
        })
    ));
    assert_eq!(
        Shape3::capped_torus(1.0, 0.2, 0.0),
        Err(SdfError::NonPositive {
            field: "half_angle",
            value: 0.0
        })
    );
    // Values read from a file go through the same checks.
    let text = Shape3::torus(1.0, 0.2)
        .unwrap()
        .to_ron()
        .replace("0.2", "1.5");
    assert!(matches!(
        Shape3::from_ron(&text),
        Err(SdfError::Invalid {
            field: "minor_radius",
            ..
        })
    ));
}
