//! Bad joint input is a typed error naming the field, and leaves the world unchanged;
//! joints travel in scene files.

use fathom_math::{Dim, Real, Space, Vector};
use fathom_world::{
    BodyDesc, ColliderDesc, DistanceJoint, JointDesc, PrismaticJoint, RevoluteJoint, Scene,
    SceneError, SceneJoint, Shape, SphericalJoint, World, WorldError,
};

fn two_bodies<const D: usize>() -> (World<D>, [fathom_world::BodyHandle; 2])
where
    Space<D>: Dim<D>,
{
    let mut w = World::<D>::default();
    let a = w.add_body(&BodyDesc::fixed()).unwrap();
    let mut p = Vector::<D>::zeros();
    p[1] = -1.0;
    let c = ColliderDesc::new(Shape::<D>::ball(0.2).unwrap());
    let b = w
        .add_body(&BodyDesc::dynamic().position(p).collider(c))
        .unwrap();
    (w, [a, b])
}

fn rejects_bad_joints<const D: usize>()
where
    Space<D>: Dim<D>,
{
    let (mut w, [a, b]) = two_bodies::<D>();
    w.add_joint(a, b, &JointDesc::revolute()).unwrap();
    let hash = (w.state_hash(), w.joint_count());
    let nan = Vector::<D>::repeat(Real::NAN);
    let cases: Vec<(JointDesc<D>, &str)> = vec![
        (JointDesc::revolute().anchor_a(nan), "anchor_a"),
        (
            JointDesc::revolute().anchor_b(Vector::<D>::repeat(Real::INFINITY)),
            "anchor_b",
        ),
        (
            JointDesc::new(RevoluteJoint::<D>::default().limits(0.5, -0.5)),
            "revolute.limits",
        ),
        (
            JointDesc::new(RevoluteJoint::<D>::default().limits(Real::NAN, 0.5)),
            "revolute.limits[0]",
        ),
        (
            JointDesc::new(RevoluteJoint::<D>::default().motor(1.0, -1.0)),
            "revolute.motor.max_force",
        ),
        (
            JointDesc::new(PrismaticJoint::<D>::default().limits(1.0, 0.0)),
            "prismatic.limits",
        ),
        (JointDesc::prismatic(Vector::<D>::zeros()), "prismatic.axis"),
        (
            JointDesc::new(DistanceJoint::default().spring(1.0, 0.5, 2.0, 1.0)),
            "distance.min_length",
        ),
        (
            JointDesc::new(SphericalJoint::<D>::default().cone(Vector::<D>::zeros(), 0.3)),
            "spherical.cone_axis",
        ),
        (JointDesc::revolute().break_force(-1.0), "break_force"),
    ];
    for (desc, field) in cases {
        let err = w.add_joint(a, b, &desc).unwrap_err();
        assert_eq!(err.field(), Some(field), "D={D}: {err}");
    }
    // A body jointed to itself, and a removed body.
    let err = w.add_joint(b, b, &JointDesc::revolute()).unwrap_err();
    assert_eq!(err.field(), Some("body_b"), "D={D}: {err}");
    let stale = w.add_body(&BodyDesc::dynamic()).unwrap();
    w.remove_body(stale);
    let hash = (w.state_hash(), hash.1);
    assert_eq!(
        w.add_joint(a, stale, &JointDesc::fixed()).unwrap_err(),
        WorldError::NoSuchBody(stale)
    );
    assert_eq!(
        (w.state_hash(), w.joint_count()),
        hash,
        "D={D}: world changed"
    );
}

#[test]
fn bad_joints_are_typed_errors_and_change_nothing() {
    rejects_bad_joints::<2>();
    rejects_bad_joints::<3>();
}

fn removing_a_body_removes_its_joints<const D: usize>()
where
    Space<D>: Dim<D>,
{
    let (mut w, [a, b]) = two_bodies::<D>();
    let j = w.add_joint(a, b, &JointDesc::revolute()).unwrap();
    assert_eq!(w.joints_of(b), vec![j]);
    w.remove_body(b);
    assert!(w.joint(j).is_none() && w.joint_count() == 0);
    w.step();
}

#[test]
fn removing_a_body_removes_its_joints_both_dimensions() {
    removing_a_body_removes_its_joints::<2>();
    removing_a_body_removes_its_joints::<3>();
}

fn scene_round_trip<const D: usize>()
where
    Space<D>: Dim<D>,
{
    let mut scene = Scene::<D>::default();
    let mut p = Vector::<D>::zeros();
    p[1] = -1.0;
    scene.bodies.push(BodyDesc::fixed());
    scene.bodies.push(
        BodyDesc::dynamic()
            .position(p)
            .collider(ColliderDesc::new(Shape::<D>::ball(0.2).unwrap())),
    );
    scene.joints.push(SceneJoint {
        body_a: 0,
        body_b: 1,
        joint: JointDesc::new(RevoluteJoint::<D>::default().limits(-0.5, 0.5)).anchor_b(-p),
    });
    let text = scene.to_ron_string().unwrap();
    let back = Scene::<D>::from_ron_str(&text).unwrap();
    assert_eq!(back, scene, "D={D}");
    let mut w = back.build().unwrap();
    assert_eq!(w.joint_count(), 1);
    w.step();
    // A scene without joints still parses (the field defaults to empty).
    let old = Scene::<D>::from_ron_str("(bodies: [])").unwrap();
    assert!(old.joints.is_empty());
    // A joint naming a body that is not there is an error with the joint's path.
    scene.joints[0].body_b = 7;
    match scene.build() {
        Err(SceneError::Invalid(e)) => assert_eq!(e.field(), Some("joints[0].body_b")),
        other => panic!("D={D}: expected an invalid scene, got {:?}", other.err()),
    }
}

#[test]
fn joints_round_trip_through_scene_files() {
    scene_round_trip::<2>();
    scene_round_trip::<3>();
}
