//! Example shapes of every kind and operator, for the property tests.

use crate::{Shape, Shape2, Shape3};
use fathom_math::{Dim, Pose, Real, Space, Vector, Vector2, Vector3};
use std::f32::consts::PI;

/// What a test needs that differs by dimension: the dimension-only shapes, and a pose.
pub trait TestDim<const D: usize>: Dim<D> {
    /// One of every kind that exists only in this dimension, named.
    fn specific_shapes() -> Vec<(&'static str, Shape<D>)>
    where
        Space<D>: Dim<D>;
    /// A pose with a non-trivial rotation and translation.
    fn some_pose() -> Pose<D>
    where
        Space<D>: Dim<D>;
}

impl TestDim<2> for Space<2> {
    fn specific_shapes() -> Vec<(&'static str, Shape2)> {
        let star: Vec<Vector2> = (0..10)
            .map(|i| {
                let a = i as Real * PI / 5.0;
                let r = if i % 2 == 0 { 1.0 } else { 0.45 };
                Vector2::new(a.cos(), a.sin()) * r
            })
            .collect();
        let l_shape = vec![
            Vector2::new(0.0, 0.0),
            Vector2::new(1.0, 0.0),
            Vector2::new(1.0, 0.3),
            Vector2::new(0.3, 0.3),
            Vector2::new(0.3, 1.0),
            Vector2::new(0.0, 1.0),
        ];
        let hexagon = (0..6)
            .map(|i| Vector2::new((i as Real * PI / 3.0).cos(), (i as Real * PI / 3.0).sin()))
            .collect();
        vec![
            (
                "segment",
                Shape2::segment(Vector2::new(-0.7, 0.2), Vector2::new(0.5, -0.4)).unwrap(),
            ),
            ("convex_polygon", Shape2::convex_polygon(hexagon).unwrap()),
            ("star_polygon", Shape2::polygon(star).unwrap()),
            ("l_polygon", Shape2::polygon(l_shape.clone()).unwrap()),
            (
                "rounded_polygon",
                Shape2::rounded_polygon(l_shape, 0.1).unwrap(),
            ),
        ]
    }
    fn some_pose() -> Pose<2> {
        Pose::<2>::new(Vector2::new(0.4, -0.3), 0.7)
    }
}

impl TestDim<3> for Space<3> {
    fn specific_shapes() -> Vec<(&'static str, Shape3)> {
        // A pentagonal bipyramid with a point inside, which the hull drops.
        let mut cloud: Vec<Vector3> = (0..5)
            .map(|i| {
                let a = i as Real * 2.0 * PI / 5.0;
                Vector3::new(0.8 * a.cos(), 0.1 * i as Real - 0.2, 0.7 * a.sin())
            })
            .collect();
        cloud.extend([Vector3::new(0.1, 0.9, 0.0), Vector3::new(-0.1, -0.8, 0.1)]);
        cloud.push(Vector3::new(0.05, 0.0, 0.05));
        vec![
            ("convex_hull", Shape3::convex_hull(&cloud).unwrap()),
            ("cylinder", Shape3::cylinder(0.6, 0.4).unwrap()),
            ("cone", Shape3::cone(0.5, 0.7).unwrap()),
            ("torus", Shape3::torus(0.8, 0.25).unwrap()),
            ("capped_torus", Shape3::capped_torus(0.7, 0.2, 2.2).unwrap()),
        ]
    }
    fn some_pose() -> Pose<3> {
        Pose::<3>::new(Vector3::new(0.4, -0.3, 0.2), Vector3::new(0.3, -0.5, 0.9))
    }
}

fn vector<const D: usize>(values: [Real; 3]) -> Vector<D> {
    Vector::<D>::from_fn(|i, _| values[i])
}

/// A bumpy heightfield about 2 m across: 5 samples along x (and 4 rows along z in 3D).
pub fn heightfield<const D: usize>() -> Shape<D>
where
    Space<D>: Dim<D>,
{
    let rows = if D == 2 { 1 } else { 4 };
    let heights = (0..rows)
        .map(|j| {
            (0..5)
                .map(|i| 0.3 * ((i * 7 + j * 3) % 5) as Real / 4.0 - 0.1)
                .collect()
        })
        .collect();
    let scale = crate::HeightfieldScale {
        spacing_x: 0.5,
        spacing_z: 0.6,
        base_depth: 0.4,
    };
    Shape::heightfield(heights, scale).unwrap()
}

/// The primitives written for any dimension, named.
pub fn generic_primitives<const D: usize>() -> Vec<(&'static str, Shape<D>)>
where
    Space<D>: Dim<D>,
{
    vec![
        ("ball", Shape::ball(0.8).unwrap()),
        ("cuboid", Shape::cuboid(vector([0.9, 0.5, 0.3])).unwrap()),
        (
            "rounded_cuboid",
            Shape::rounded_cuboid(vector([0.6, 0.3, 0.2]), 0.15).unwrap(),
        ),
        ("capsule", Shape::capsule(0.5, 0.3).unwrap()),
        (
            "half_space",
            Shape::half_space(vector([0.3, 1.0, -0.4]), 0.2).unwrap(),
        ),
        ("heightfield", heightfield::<D>()),
    ]
}

/// Every primitive of dimension `D`.
pub fn primitives<const D: usize>() -> Vec<(&'static str, Shape<D>)>
where
    Space<D>: TestDim<D>,
{
    let mut all = generic_primitives::<D>();
    all.extend(Space::<D>::specific_shapes());
    all
}

/// Every operator applied to primitives of dimension `D` (the last dimension-specific
/// shape takes part, so that 2D-only and 3D-only kinds are combined too).
pub fn operators<const D: usize>() -> Vec<(&'static str, Shape<D>)>
where
    Space<D>: TestDim<D>,
{
    let ball = || Shape::<D>::ball(0.7).unwrap();
    let cuboid = || Shape::<D>::cuboid(vector([0.8, 0.4, 0.5])).unwrap();
    let special = || Space::<D>::specific_shapes().pop().unwrap().1;
    let moved = |s: Shape<D>| s.transformed(Space::<D>::some_pose()).unwrap();
    vec![
        ("transformed", moved(cuboid())),
        ("scaled", special().scaled(1.7).unwrap()),
        ("rounded", cuboid().rounded(0.2).unwrap()),
        ("shell", ball().shell(0.1).unwrap()),
        (
            "union",
            Shape::union_all(vec![ball(), moved(cuboid()), special()]).unwrap(),
        ),
        (
            "intersection",
            Shape::intersection_all(vec![ball(), cuboid()]).unwrap(),
        ),
        (
            "difference",
            cuboid().difference(ball().scaled(0.6).unwrap()).unwrap(),
        ),
        (
            "smooth_union",
            ball().smooth_union(moved(cuboid()), 0.3).unwrap(),
        ),
        (
            "smooth_intersection",
            ball().smooth_intersection(moved(special()), 0.25).unwrap(),
        ),
        (
            "smooth_difference",
            cuboid()
                .smooth_difference(ball().scaled(0.5).unwrap(), 0.2)
                .unwrap(),
        ),
        // A rounded intersection: the child under-estimates distance, so the rounded
        // bounds must come from its level set, not its box.
        (
            "rounded_intersection",
            Shape::intersection_all(vec![ball(), moved(cuboid())])
                .unwrap()
                .rounded(0.3)
                .unwrap(),
        ),
        (
            "shell_of_smooth_union",
            special()
                .smooth_union(ball(), 0.4)
                .unwrap()
                .shell(0.05)
                .unwrap(),
        ),
    ]
}

/// Every primitive and operator of dimension `D`.
pub fn all_shapes<const D: usize>() -> Vec<(&'static str, Shape<D>)>
where
    Space<D>: TestDim<D>,
{
    let mut all = primitives::<D>();
    all.extend(operators::<D>());
    all
}
