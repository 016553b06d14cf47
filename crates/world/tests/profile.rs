//! `World::profile`: the last step's counts are the scene's, and its stage times add up to
//! at most the step's total. 2D and 3D from one generic function.

use fathom_math::{Dim, Real, Space, Vector};
use fathom_world::{BodyDesc, ColliderDesc, Shape, World};

fn up<const D: usize>(y: Real) -> Vector<D> {
    let mut v = Vector::<D>::zeros();
    v[1] = y;
    v
}

/// Three unit boxes stacked on a slab, each resting 1 cm into the contact margin, with
/// sleeping off: every step solves three touching pairs.
fn stack<const D: usize>() -> World<D>
where
    Space<D>: Dim<D>,
{
    let mut w = World::<D>::default();
    let mut s = w.settings().clone();
    s.sleep.enabled = false;
    w.set_settings(s).unwrap();
    let mut half = Vector::<D>::repeat(5.0);
    half[1] = 0.5;
    w.add_body(
        &BodyDesc::fixed()
            .position(up(-0.5))
            .collider(ColliderDesc::new(Shape::cuboid(half).unwrap())),
    )
    .unwrap();
    for i in 0..3 {
        w.add_body(
            &BodyDesc::dynamic()
                .position(up(0.5 + i as Real))
                .collider(ColliderDesc::new(
                    Shape::cuboid(Vector::<D>::repeat(0.5)).unwrap(),
                )),
        )
        .unwrap();
    }
    w
}

fn counts_and_times<const D: usize>()
where
    Space<D>: Dim<D>,
{
    let mut w = stack::<D>();
    assert_eq!(
        w.profile().total,
        std::time::Duration::ZERO,
        "nothing before a step"
    );
    for _ in 0..10 {
        w.step();
    }
    let p = *w.profile();
    // Ground-box, box-box, box-box: each neighbouring pair touches, nothing else does.
    assert_eq!(p.candidate_pairs, 3, "{p:?}");
    assert_eq!(p.touching_pairs, 3, "{p:?}");
    assert_eq!(p.contact_constraints, 3, "{p:?}");
    assert_eq!((p.joints, p.awake_bodies), (0, 3), "{p:?}");
    // Contacts with the ground get colours of their own (`crates/solver/src/colour.rs`); the
    // two box-box contacts share the middle box, so they take one colour each.
    assert_eq!(p.colours, 3, "{p:?}");
    let stages: std::time::Duration = p.stages().iter().map(|(_, t)| *t).sum();
    assert!(
        stages <= p.total && p.total > std::time::Duration::ZERO,
        "{p:?}"
    );
}

#[test]
fn profile_counts_the_stack_2d() {
    counts_and_times::<2>();
}

#[test]
fn profile_counts_the_stack_3d() {
    counts_and_times::<3>();
}
