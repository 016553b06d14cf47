//! Distances against analytic values, the seeds' worked examples, mesh samples, the cell budget
//! and bad input. Generic checks run for D = 2 and D = 3.

mod common;

use common::Oracle;
use fathom_math::{Aabb, Dim, Pose, Real, Space, Vector, Vector3};
use fathom_narrowphase::{
    contacts, contacts_with, distance, intersects, penetration, penetration_with, ContactOptions,
    KindTag, MeshPoints, NarrowphaseError, ShapeRef, DEFAULT_MIN_CELL_FRACTION,
};
use fathom_sdf::{Sdf, Shape};

fn at<const D: usize>(x: Real, y: Real) -> Pose<D>
where
    Space<D>: Dim<D> + Oracle<D>,
{
    Space::<D>::pose(Space::<D>::vec([x, y, 0.0]), [0.0; 3])
}

/// Separated primitives: the distance matches the analytic value within the smallest cell, and
/// the witness points are that far apart.
fn distances_match_analytic<const D: usize>()
where
    Space<D>: Dim<D> + Oracle<D>,
{
    let v = |x, y, z| Space::<D>::vec([x, y, z]);
    let big = Shape::<D>::cuboid(v(0.5, 0.4, 0.3)).unwrap();
    let small = Shape::<D>::cuboid(v(0.3, 0.3, 0.3)).unwrap();
    let ball = Shape::<D>::ball(0.4).unwrap();
    let capsule = Shape::<D>::capsule(0.5, 0.3).unwrap();
    let cases: Vec<(&Shape<D>, Pose<D>, &Shape<D>, Pose<D>, Real)> = vec![
        // Corner to corner (edge to edge in 3D): gaps 0.4 along x and 0.2 along y.
        (
            &big,
            at(0.0, 0.0),
            &small,
            at(1.2, 0.9),
            (0.4f32 * 0.4 + 0.2 * 0.2).sqrt(),
        ),
        // Face to face: a gap of 0.25 along x over a whole patch.
        (&big, at(0.0, 0.0), &small, at(1.05, 0.1), 0.25),
        // Ball to box (one evaluation) and parallel capsules (a segment search).
        (&ball, at(1.5, 0.2), &big, at(0.0, 0.0), 0.6),
        (&capsule, at(0.0, 0.0), &capsule, at(1.5, 0.3), 0.9),
        // Capsule against a box: its lower end cap above the box's top face.
        (
            &capsule,
            at(0.2, 1.5),
            &big,
            at(0.0, 0.0),
            1.5 - 0.5 - 0.3 - 0.4,
        ),
    ];
    for (a, pa, b, pb, want) in cases {
        let d = distance(a, &pa, b, &pb, &ContactOptions::default()).unwrap();
        // One smallest cell, the tolerance.
        let tol = DEFAULT_MIN_CELL_FRACTION * a.bounds().radius().min(b.bounds().radius());
        assert!(
            (d.distance - want).abs() <= tol,
            "distance {} vs {want}",
            d.distance
        );
        assert!(((d.point_b - d.point_a).norm() - d.distance).abs() <= tol);
        assert!(
            !intersects(a, &pa, b, &pb, &ContactOptions::default())
                .unwrap()
                .intersecting
        );
        assert!(penetration(a, &pa, b, &pb, &ContactOptions::default())
            .unwrap()
            .deepest
            .is_none());
    }
}

#[test]
fn distances_match_analytic_2d() {
    distances_match_analytic::<2>();
}

#[test]
fn distances_match_analytic_3d() {
    distances_match_analytic::<3>();
}

/// Seed 001's worked example: a point at (0.5, 1, 0) inside a ball of radius 2 is 0.882 deep,
/// and pushing it that far along the gradient (0.447, 0.894, 0) lands on (0.894, 1.789, 0).
#[test]
fn seed_worked_example_point_in_ball() {
    let point = MeshPoints::new(vec![Vector3::new(0.5, 1.0, 0.0)], 1.0).unwrap();
    let ball = Shape::<3>::ball(2.0).unwrap();
    let id = Pose::<3>::identity();
    let p = penetration_with(
        ShapeRef::Points(&point),
        &id,
        ShapeRef::Sdf(&ball),
        &id,
        &ContactOptions::default(),
    )
    .unwrap();
    let deep = p.deepest.unwrap();
    // The seed quotes three decimals.
    assert!((deep.depth - 0.882).abs() < 1e-3, "depth {}", deep.depth);
    // The normal points from the point (A) out of the ball's interior towards its surface... as
    // seen from B: A must move by -normal * depth, i.e. along the gradient, to get out.
    assert!((-deep.normal - Vector3::new(0.447, 0.894, 0.0)).norm() < 1e-3);
    assert!((deep.point_b - Vector3::new(0.894, 1.789, 0.0)).norm() < 1e-3);
    // The tree's root bound, the point's distance, and its gradient.
    assert_eq!(p.stats.evaluations, 3);
}

/// A cube given as its mesh's 8 vertices resting on a half-space: its 4 bottom vertices are the
/// manifold, with the vertices' indices as ids, unchanged after a small slide.
#[test]
fn mesh_vertices_rest_on_the_ground() {
    let mut vertices = Vec::new();
    for i in 0..8 {
        let s = |b: usize| if i >> b & 1 == 1 { 0.5 } else { -0.5 };
        vertices.push(Vector3::new(s(0), s(1), s(2)));
    }
    let triangles = [
        [0, 1, 3],
        [0, 3, 2],
        [4, 6, 7],
        [4, 7, 5],
        [0, 4, 5],
        [0, 5, 1],
        [2, 3, 7],
        [2, 7, 6],
        [0, 2, 6],
        [0, 6, 4],
        [1, 5, 7],
        [1, 7, 3],
    ];
    let mesh = MeshPoints::from_triangles(&vertices, &triangles, 0).unwrap();
    let ground = Shape::<3>::half_space(Vector3::y(), 0.0).unwrap();
    let mut ids = Vec::new();
    for dx in [0.0, 0.01] {
        let pose = Space::<3>::pose(Vector3::new(dx, 0.5, 0.0), [0.0; 3]);
        let c = contacts_with(
            ShapeRef::Points(&mesh),
            &pose,
            ShapeRef::Sdf(&ground),
            &Pose::<3>::identity(),
            &ContactOptions::default(),
        )
        .unwrap();
        assert_eq!(c.manifolds.len(), 1);
        let m = &c.manifolds[0];
        assert!(
            (m.normal + Vector3::y()).norm() < 1e-5,
            "from the mesh down into the ground"
        );
        let mut got: Vec<u32> = m.points.iter().map(|p| p.id).collect();
        got.sort_unstable();
        ids.push(got);
        for p in &m.points {
            assert!(p.depth.abs() < 1e-5 && p.point_a.y.abs() < 1e-5);
        }
    }
    // Vertices with y = -0.5 are those whose bit 1 is clear: 0, 1, 4, 5.
    assert_eq!(ids[0], vec![0, 1, 4, 5]);
    assert_eq!(ids[0], ids[1]);
}

/// A tiny budget ends the search early, says so, and still answers with finite values.
fn budget_is_reported<const D: usize>()
where
    Space<D>: Dim<D> + Oracle<D>,
{
    // Rounded boxes: a general search (two plain boxes have a closed form and no budget).
    let a = Shape::<D>::rounded_cuboid(Space::<D>::vec([0.4, 0.4, 0.4]), 0.1).unwrap();
    let pb = Space::<D>::pose(Space::<D>::vec([0.3, 0.8, 0.1]), [0.3, 0.2, 0.1]);
    let opts = ContactOptions {
        max_cells: 12,
        ..ContactOptions::default()
    };
    let c = contacts(&a, &at(0.0, 0.0), &a, &pb, &opts).unwrap();
    assert!(c.stats.hit_budget);
    assert!(c.stats.cells <= 12 + 2, "a split may finish its pair");
    for m in &c.manifolds {
        assert!((m.normal.norm() - 1.0).abs() < 1e-4);
        assert!(m
            .points
            .iter()
            .all(|p| p.depth.is_finite() && p.point_a.iter().all(|x| x.is_finite())));
    }
    let full = contacts(&a, &at(0.0, 0.0), &a, &pb, &ContactOptions::default()).unwrap();
    assert!(!full.stats.hit_budget && full.stats.evaluations > 0 && full.stats.cells > 12);
}

#[test]
fn budget_is_reported_2d() {
    budget_is_reported::<2>();
}

#[test]
fn budget_is_reported_3d() {
    budget_is_reported::<3>();
}

/// A field that answers NaN everywhere (a broken user shape): no panic, nothing non-finite out.
struct Broken;

impl<const D: usize> Sdf<D> for Broken {
    fn distance(&self, _p: &Vector<D>) -> Real {
        Real::NAN
    }
    fn bounds(&self) -> Aabb<D> {
        Aabb::from_center_half_extents(Vector::<D>::zeros(), Vector::<D>::repeat(1.0))
    }
}

/// A field whose Lipschitz constant is not usable.
struct NoLipschitz;

impl<const D: usize> Sdf<D> for NoLipschitz {
    fn distance(&self, p: &Vector<D>) -> Real {
        p.norm() - 1.0
    }
    fn bounds(&self) -> Aabb<D> {
        Aabb::from_center_half_extents(Vector::<D>::zeros(), Vector::<D>::repeat(1.0))
    }
    fn lipschitz(&self) -> Real {
        Real::NAN
    }
}

fn bad_input_is_a_typed_error<const D: usize>()
where
    Space<D>: Dim<D> + Oracle<D>,
{
    let a = Shape::<D>::cuboid(Space::<D>::vec([0.5, 0.5, 0.5])).unwrap();
    let ok = ContactOptions::default();
    let id = Pose::<D>::identity();
    let mut nan = id;
    nan.translation.vector[0] = Real::NAN;
    let mut inf = id;
    inf.translation.vector[1] = Real::INFINITY;
    assert_eq!(
        contacts(&a, &nan, &a, &id, &ok),
        Err(NarrowphaseError::NonFinitePose { field: "pose_a" })
    );
    assert_eq!(
        penetration(&a, &id, &a, &inf, &ok).unwrap_err(),
        NarrowphaseError::NonFinitePose { field: "pose_b" }
    );
    for (opts, field) in [
        (
            ContactOptions {
                margin: Some(-1.0),
                ..ok
            },
            "margin",
        ),
        (
            ContactOptions {
                margin: Some(Real::NAN),
                ..ok
            },
            "margin",
        ),
        (
            ContactOptions {
                min_cell: Some(0.0),
                ..ok
            },
            "min_cell",
        ),
        (
            ContactOptions {
                min_cell: Some(Real::INFINITY),
                ..ok
            },
            "min_cell",
        ),
        (ContactOptions { max_cells: 0, ..ok }, "max_cells"),
    ] {
        match distance(&a, &id, &a, &id, &opts) {
            Err(NarrowphaseError::InvalidOption { field: f, .. }) => assert_eq!(f, field),
            other => panic!("{field}: {other:?}"),
        }
    }
    assert!(matches!(
        intersects(&NoLipschitz, &id, &a, &id, &ok),
        Err(NarrowphaseError::InvalidShape { field: "a", .. })
    ));
    let plane = Shape::<D>::half_space(Space::<D>::vec([0.0, 1.0, 0.0]), 0.0).unwrap();
    assert_eq!(
        contacts(&plane, &id, &plane, &id, &ok),
        Err(NarrowphaseError::Unsupported {
            a: KindTag::HalfSpace,
            b: KindTag::HalfSpace
        })
    );
    // A field that answers NaN: every query returns, and nothing it returns is NaN.
    assert!(!intersects(&Broken, &id, &a, &id, &ok).unwrap().intersecting);
    assert!(penetration(&Broken, &id, &a, &id, &ok)
        .unwrap()
        .deepest
        .is_none());
    assert!(contacts(&Broken, &id, &a, &id, &ok)
        .unwrap()
        .manifolds
        .is_empty());
    // The search finds no point inside a field that is NaN everywhere: no solid, no distance.
    assert_eq!(
        distance(&Broken, &id, &a, &id, &ok).map(|d| d.distance),
        Err(NarrowphaseError::NoSolid)
    );
}

#[test]
fn bad_input_is_a_typed_error_2d() {
    bad_input_is_a_typed_error::<2>();
}

#[test]
fn bad_input_is_a_typed_error_3d() {
    bad_input_is_a_typed_error::<3>();
}

/// Found by the narrowphase fuzz target: a ball minus itself (a solid of no volume, whose
/// field is zero on the sphere) against the same ball at the same pose. The field says
/// they touch (separation exactly 0): `intersects` said yes and `penetration` said no
/// overlap. Both now say they touch, with a depth of zero.
fn touching_shapes_agree<const D: usize>()
where
    Space<D>: Dim<D> + Oracle<D>,
{
    let ball = Shape::<D>::ball(0.05).unwrap();
    let empty = ball.clone().difference(ball.clone()).unwrap();
    let pose = at::<D>(-2.0, -2.0);
    let opts = ContactOptions::default();
    let hit = intersects(&empty, &pose, &ball, &pose, &opts).unwrap();
    let deepest = penetration(&empty, &pose, &ball, &pose, &opts)
        .unwrap()
        .deepest;
    assert_eq!(hit.intersecting, deepest.is_some(), "{D}D: {deepest:?}");
    if let Some(d) = deepest {
        assert_eq!(d.depth, 0.0, "{D}D: a solid of no volume has no depth");
    }
}

#[test]
fn touching_shapes_agree_2d() {
    touching_shapes_agree::<2>();
}

#[test]
fn touching_shapes_agree_3d() {
    touching_shapes_agree::<3>();
}

/// Found by the narrowphase fuzz target: a ball minus itself (a solid of no volume; its
/// field is zero only on the sphere) turned against a capsule cut by a ball. No sample of
/// the search lands on the sphere, so there is no point of A to measure from: the distance
/// was `inf`. It is now a typed refusal (or, where a sample does land on the sphere, the
/// finite distance from it).
#[test]
fn empty_solid_distance_is_finite_or_refused() {
    use nalgebra::{Quaternion, Translation3, UnitQuaternion};
    let ball = Shape::<3>::ball(0.05).unwrap();
    let empty = ball.clone().difference(ball.clone()).unwrap();
    let cut =
        Shape::<3>::intersection_all(vec![Shape::<3>::capsule(0.05, 0.05).unwrap(), ball.clone()])
            .unwrap();
    let turn = UnitQuaternion::from_quaternion(Quaternion::new(
        -0.0936936,
        0.70398414,
        -0.7040084,
        8.869492e-5,
    ));
    let pose_a = Pose::<3>::from_parts(Translation3::new(-1.9976196, -2.0, -2.0), turn);
    let pose_b = Pose::<3>::translation(-2.0, -2.0, -2.0);
    let r = distance(&empty, &pose_a, &cut, &pose_b, &ContactOptions::default());
    match r {
        Ok(d) => assert!(d.distance.is_finite(), "{d:?}"),
        Err(e) => assert_eq!(e, NarrowphaseError::NoSolid),
    }
}
