//! Posed casts (carried into the shape's frame and back) and candidate lists.
mod common;

use common::{axis, translation, Rng};
use fathom_ccd::{
    cast, cast_candidates, cast_posed, sphere_cast_posed, CastOptions, CastResult, CastShape,
    CcdError,
};
use fathom_math::{Dim, Pose, Real, Space, Vector};
use fathom_sdf::{Ball, Cuboid, Sdf};

fn posed_equals_local<const D: usize>()
where
    Space<D>: Dim<D>,
{
    let shape = Cuboid::new(Vector::<D>::from_fn(|i, _| 0.3 + 0.2 * i as Real)).unwrap();
    let mut rng = Rng::new(3);
    let opts = CastOptions::default();
    let mut hits = 0;
    for _ in 0..100 {
        let pose = rng.pose::<D>(2.0);
        let origin = pose.translation.vector + rng.unit::<D>() * 3.0;
        let dir = (pose.translation.vector + rng.vector::<D>(0.5) - origin).normalize();
        let cast_shape = if rng.range(0.0, 1.0) < 0.5 {
            CastShape::Ball {
                radius: rng.range(0.0, 0.3),
            }
        } else {
            CastShape::Capsule {
                half_axis: rng.unit::<D>() * 0.4,
                radius: 0.1,
            }
        };
        let world = cast_posed(&shape, &pose, &cast_shape, &origin, &dir, 6.0, &opts).unwrap();
        // The same cast done by hand in the shape's frame, its result carried out.
        let local_shape = match cast_shape {
            CastShape::Capsule { half_axis, radius } => CastShape::Capsule {
                half_axis: pose.inverse_transform_vector(&half_axis),
                radius,
            },
            ball => ball,
        };
        let lo = pose.inverse_transform_point(&origin.into()).coords;
        let ld = pose.inverse_transform_vector(&dir);
        let local = cast(&shape, &local_shape, &lo, &ld, 6.0, &opts).unwrap();
        same_cast(&world, &local.transformed(&pose));
        // The march sees only the f32 local copy either way: the same bits.
        let march = CastOptions {
            closed_form: false,
            ..opts
        };
        let world_march = cast_posed(&shape, &pose, &cast_shape, &origin, &dir, 6.0, &march);
        let local_march = cast(&shape, &local_shape, &lo, &ld, 6.0, &march).unwrap();
        assert_eq!(world_march.unwrap(), local_march.transformed(&pose));
        if let CastResult::Hit {
            center,
            point,
            normal,
            distance,
            ..
        } = world
        {
            hits += 1;
            // World-frame answers: the centre is on the path, the point on the posed surface.
            assert!((center - (origin + dir * distance)).norm() < 1e-4);
            let on_surface = shape.distance(&pose.inverse_transform_point(&point.into()).coords);
            assert!(on_surface.abs() < 1e-3, "{on_surface}");
            assert!((normal.norm() - 1.0).abs() < 1e-5);
        }
    }
    assert!(hits > 50);
}

/// A posed closed-form cast runs from the caller's world-frame input in f64, a local one from
/// its f32 copy in the shape's frame: they agree to f32 rounding of that copy (1e-6 m at the
/// 5 m of these casts, some 10x at the shallowest incidences here).
fn same_cast<const D: usize>(world: &CastResult<D>, local: &CastResult<D>) {
    match (world, local) {
        (
            CastResult::Hit {
                distance: a,
                point: pa,
                ..
            },
            CastResult::Hit {
                distance: b,
                point: pb,
                ..
            },
        ) => assert!(
            (a - b).abs() < 1e-4 && (pa - pb).norm() < 1e-3,
            "{world:?} {local:?}"
        ),
        _ => assert_eq!(std::mem::discriminant(world), std::mem::discriminant(local)),
    }
}

#[test]
fn posed_casts_match_local_casts() {
    posed_equals_local::<2>();
    posed_equals_local::<3>();
}

fn candidates<const D: usize>()
where
    Space<D>: Dim<D>,
{
    let ball = Ball::new(0.5).unwrap();
    let wall = Cuboid::new(Vector::<D>::repeat(0.5)).unwrap();
    let at = |x: Real| translation(axis::<D>(0) * x);
    let list: Vec<(&dyn Sdf<D>, Pose<D>)> = vec![
        (&ball, at(6.0)),
        (&wall, at(3.0)),
        (&ball, at(9.0)),
        (&ball, at(3.0)),
    ];
    let opts = CastOptions::default();
    let shape = CastShape::Ball { radius: 0.1 };
    let r = cast_candidates(&list, &shape, &Vector::zeros(), &axis::<D>(0), 10.0, &opts).unwrap();
    // Candidates 1 and 3 both touch at 3 - 0.5 - 0.1 = 2.4: the lower index wins the tie.
    let Some((
        index,
        CastResult::Hit {
            distance, fraction, ..
        },
    )) = r.earliest
    else {
        panic!("{r:?}")
    };
    assert_eq!(index, 1);
    assert!((distance - 2.4).abs() < 1e-4 && (fraction - 0.24).abs() < 1e-5);
    assert!(r.capped.is_empty());
    // A starting overlap beats every hit.
    let mut list2 = list.clone();
    list2.push((&ball, at(0.2)));
    let r = cast_candidates(&list2, &shape, &Vector::zeros(), &axis::<D>(0), 10.0, &opts).unwrap();
    assert!(
        matches!(r.earliest, Some((4, CastResult::StartedInside { .. }))),
        "{r:?}"
    );
    // A candidate that runs out of steps before the earliest hit is reported with it: the
    // cuboid passes 0.1 from the path (one step reaches 0.44), the ball is hit at 2 - 0.6.
    let tight = CastOptions {
        max_steps: 1,
        clip_to_bounds: false,
        closed_form: false,
        ..opts
    };
    let grazing = Cuboid::new(Vector::<D>::repeat(1.0)).unwrap();
    let above = translation(axis::<D>(0) * 1.5 + axis::<D>(1) * 1.2);
    let list3: Vec<(&dyn Sdf<D>, Pose<D>)> = vec![(&grazing, above), (&ball, at(2.0))];
    let r = cast_candidates(
        &list3,
        &shape,
        &Vector::zeros(),
        &axis::<D>(0),
        10.0,
        &tight,
    )
    .unwrap();
    assert!(
        matches!(r.earliest, Some((1, CastResult::Hit { .. }))),
        "{r:?}"
    );
    assert_eq!(r.capped.len(), 1);
    assert_eq!(r.capped[0].0, 0);
    // No candidate in the way.
    let r = cast_candidates(&list, &shape, &Vector::zeros(), &-axis::<D>(0), 10.0, &opts).unwrap();
    assert!(r.earliest.is_none() && r.capped.is_empty());
}

#[test]
fn candidates_give_the_earliest_hit() {
    candidates::<2>();
    candidates::<3>();
}

#[test]
fn bad_poses_are_typed_errors() {
    let ball = Ball::new(1.0).unwrap();
    let opts = CastOptions::default();
    let mut pose = translation(axis::<3>(0));
    pose.translation.vector.x = Real::NAN;
    let e = sphere_cast_posed::<3>(
        &ball,
        &pose,
        &Vector::zeros(),
        &axis::<3>(1),
        0.1,
        1.0,
        &opts,
    )
    .unwrap_err();
    assert_eq!(e, CcdError::NonFinitePose { field: "pose" });
    let list: Vec<(&dyn Sdf<3>, Pose<3>)> =
        vec![(&ball, translation(axis::<3>(2) * 5.0)), (&ball, pose)];
    let e = cast_candidates(
        &list,
        &CastShape::ray(),
        &Vector::zeros(),
        &axis::<3>(1),
        1.0,
        &opts,
    )
    .unwrap_err();
    assert_eq!(
        e,
        CcdError::Candidate {
            index: 1,
            source: Box::new(CcdError::NonFinitePose { field: "pose" })
        }
    );
    assert_eq!(e.to_string(), "candidate 1: pose `pose` must be finite");
}
