//! Contact modification, in both dimensions: a conveyor carries a box at the belt's speed,
//! a one-way platform lets a ball up through it and holds it from above, dropped points let
//! bodies pass, an overridden friction is the friction the solver uses, and the hook sees
//! every manifold once a step in the same order on any thread count.

mod physics_support;
use fathom_math::{Dim, Real, Space, Vector};
use fathom_world::{
    BodyDesc, BodyHandle, ColliderDesc, ColliderHandle, ContactModifier, Conveyor,
    ModifiableContact, OneWayPlatform, Shape, World,
};
use physics_support::*;
use std::sync::{Arc, Mutex};

/// A fixed slab 40 m wide with its top face at y = 0; returns its collider.
fn add_slab<const D: usize>(w: &mut World<D>, friction: Real) -> ColliderHandle
where
    Space<D>: Dim<D>,
{
    add_slab_at(w, 0.0, 20.0, 0.5, friction)
}

/// A fixed slab of half width `half_width` and half thickness `half_height` with its top
/// face at `top`; returns its collider.
fn add_slab_at<const D: usize>(
    w: &mut World<D>,
    top: Real,
    half_width: Real,
    half_height: Real,
    friction: Real,
) -> ColliderHandle
where
    Space<D>: Dim<D>,
{
    let mut half = Vector::<D>::repeat(half_width);
    half[1] = half_height;
    let slab = Shape::<D>::cuboid(half).unwrap();
    let h = w
        .add_body(
            &BodyDesc::fixed()
                .position(up::<D>() * (top - half_height))
                .collider(ColliderDesc::new(slab).friction(friction)),
        )
        .unwrap();
    w.body(h).unwrap().colliders()[0]
}

fn ball<const D: usize>(w: &mut World<D>, at: Vector<D>, v: Vector<D>) -> BodyHandle
where
    Space<D>: Dim<D>,
{
    w.add_body(
        &BodyDesc::dynamic()
            .position(at)
            .linear_velocity(v)
            .collider(ColliderDesc::new(Shape::<D>::ball(0.25).unwrap())),
    )
    .unwrap()
}

/// A belt moving at 1 m/s (along x in 2D; along (0.6, 0, 0.8) in 3D, so no axis is special)
/// under a resting box: friction 0.8 brings the box to the belt's speed within 0.2 s.
fn conveyor_carries_a_box<const D: usize>()
where
    Space<D>: Dim<D>,
{
    let mut w = awake_world::<D>(-up::<D>() * G);
    let belt = add_slab(&mut w, 0.8);
    let mut dir = axis::<D>(0);
    if D == 3 {
        dir = axis::<D>(0) * 0.6 + axis::<D>(2) * 0.8;
    }
    let conveyor = Conveyor {
        collider: belt,
        velocity: dir * 1.0,
    };
    w.set_contact_modifier(Some(Arc::new(conveyor)));
    let b = add_box(&mut w, up::<D>() * 0.25, 0.25, 0.8);
    for _ in 0..120 {
        w.step();
    }
    let v = w.body(b).unwrap().linear_velocity();
    // The bound: the belt's speed within 2%.
    assert!(
        (v - dir).norm() < 0.02,
        "{D}D: box moves at {v:?}, belt at {dir:?}"
    );
}

#[test]
fn conveyor_carries_a_box_both_dimensions() {
    conveyor_carries_a_box::<2>();
    conveyor_carries_a_box::<3>();
}

/// A 20 cm thick platform with its top at y = 2: a ball thrown up from below at 8 m/s (it
/// would rise 3.26 m) passes through and lands on it; a ball dropped from above rests on it.
fn one_way_platform<const D: usize>()
where
    Space<D>: Dim<D>,
{
    let mut w = awake_world::<D>(-up::<D>() * G);
    add_slab(&mut w, 0.6);
    let platform = add_slab_at(&mut w, 2.0, 3.0, 0.1, 0.6);
    let one_way = OneWayPlatform::new(platform, up::<D>()).unwrap();
    w.set_contact_modifier(Some(Arc::new(one_way)));
    let thrown = ball(&mut w, up::<D>() * 0.25, up::<D>() * 8.0);
    let dropped = ball(
        &mut w,
        up::<D>() * 4.0 + axis::<D>(0) * 1.0,
        Vector::zeros(),
    );
    for _ in 0..240 {
        w.step();
    }
    let rest = 2.0 + 0.25;
    for (name, b) in [("thrown", thrown), ("dropped", dropped)] {
        let body = w.body(b).unwrap();
        let y = body.position()[1];
        // Resting on the platform: a soft contact under the ball's weight sinks millimetres.
        assert!(
            (y - rest).abs() < 5e-3 && body.linear_velocity().norm() < 0.05,
            "{D}D {name} ball at y = {y}, v = {:?}; expected at rest at {rest}",
            body.linear_velocity()
        );
    }
}

#[test]
fn one_way_platform_both_dimensions() {
    one_way_platform::<2>();
    one_way_platform::<3>();
}

/// Dropping every point: a box resting on the ground falls through it as if it were not there.
fn dropped_points_let_bodies_pass<const D: usize>()
where
    Space<D>: Dim<D>,
{
    let mut w = awake_world::<D>(-up::<D>() * G);
    add_slab(&mut w, 0.6);
    let b = add_box(&mut w, up::<D>() * 0.25, 0.25, 0.6);
    for _ in 0..30 {
        w.step();
    }
    let rest = w.body(b).unwrap().position()[1];
    assert!(
        (rest - 0.25).abs() < 5e-3,
        "{D}D: box should rest first, at {rest}"
    );
    w.set_contact_modifier(Some(Arc::new(|c: &mut ModifiableContact<'_, D>| {
        c.drop_all()
    })));
    for _ in 0..30 {
        w.step();
    }
    // Free fall from rest for 0.5 s: 1.226 m (the step's drift is exact for free bodies).
    let y = w.body(b).unwrap().position()[1];
    let fall = 0.5 * G * 0.25;
    assert!(
        (rest - y - fall).abs() < 1e-3,
        "{D}D: fell {} m, free fall {fall} m",
        rest - y
    );
}

#[test]
fn dropped_points_let_bodies_pass_both_dimensions() {
    dropped_points_let_bodies_pass::<2>();
    dropped_points_let_bodies_pass::<3>();
}

/// On a 20° slope of friction 1 a box holds; with the hook setting friction 0 it slides at
/// g sin 20°.
fn friction_override_is_used<const D: usize>()
where
    Space<D>: Dim<D>,
{
    let angle: Real = 20.0_f32.to_radians() as Real;
    let g = -up::<D>() * G;
    let mut w = awake_world::<D>(g);
    add_slab(&mut w, 1.0);
    let b = add_box(&mut w, up::<D>() * 0.25, 0.25, 1.0);
    // Tilt gravity instead of the ground: the slope is the x axis, falling towards +x.
    let tilted = (axis::<D>(0) * angle.sin() - up::<D>() * angle.cos()) * G;
    w.set_gravity(tilted).unwrap();
    for _ in 0..30 {
        w.step();
    }
    let held = w.body(b).unwrap().linear_velocity().norm();
    assert!(
        held < 1e-3,
        "{D}D: friction 1 should hold at 20°, v = {held}"
    );
    w.set_contact_modifier(Some(Arc::new(|c: &mut ModifiableContact<'_, D>| {
        c.friction = 0.0
    })));
    w.step();
    let v0 = w.body(b).unwrap().linear_velocity()[0];
    for _ in 0..60 {
        w.step();
    }
    let accel = w.body(b).unwrap().linear_velocity()[0] - v0;
    let expected = G * angle.sin();
    assert!(
        (accel - expected).abs() < 0.01 * expected,
        "{D}D: slid at {accel} m/s², frictionless {expected}"
    );
}

#[test]
fn friction_override_is_used_both_dimensions() {
    friction_override_is_used::<2>();
    friction_override_is_used::<3>();
}

/// Records what the hook saw: (collider a, collider b, point count) per call.
struct Recorder<const D: usize>(Mutex<Vec<(ColliderHandle, ColliderHandle, usize)>>);

impl<const D: usize> ContactModifier<D> for Recorder<D>
where
    Space<D>: Dim<D>,
{
    fn modify(&self, c: &mut ModifiableContact<'_, D>) {
        let seen = (c.collider_a, c.collider_b, c.points.len());
        self.0.lock().unwrap().push(seen);
    }
}

/// A pile of balls and boxes falling onto the ground: each step the hook sees exactly the
/// manifolds the step found, in pair order; and the whole sequence is the same at 1 and 4
/// threads.
fn hook_sees_each_manifold_once<const D: usize>(
    threads: usize,
) -> Vec<Vec<(ColliderHandle, ColliderHandle, usize)>>
where
    Space<D>: Dim<D>,
{
    in_pool(threads, || {
        let mut w = awake_world::<D>(-up::<D>() * G);
        add_slab(&mut w, 0.6);
        for i in 0..40 {
            let mut p = up::<D>() * (0.3 + 0.55 * (i / 8) as Real);
            p[0] = (i % 8) as Real * 0.52 - 2.0;
            if i % 2 == 0 {
                ball(&mut w, p, Vector::zeros());
            } else {
                add_box(&mut w, p, 0.24, 0.6);
            }
        }
        let recorder = Arc::new(Recorder::<D>(Mutex::new(Vec::new())));
        w.set_contact_modifier(Some(recorder.clone()));
        let mut steps = Vec::new();
        for _ in 0..90 {
            w.step();
            let seen = std::mem::take(&mut *recorder.0.lock().unwrap());
            let expected: Vec<_> = w
                .contact_pairs()
                .iter()
                .flat_map(|p| p.manifolds.iter().map(move |m| (p.a, p.b, m.points.len())))
                .collect();
            assert_eq!(seen, expected, "{D}D: the hook saw other manifolds");
            steps.push(seen);
        }
        steps
    })
}

#[test]
fn hook_sees_each_manifold_once_in_a_fixed_order() {
    assert_eq!(
        hook_sees_each_manifold_once::<2>(1),
        hook_sees_each_manifold_once::<2>(4)
    );
    assert_eq!(
        hook_sees_each_manifold_once::<3>(1),
        hook_sees_each_manifold_once::<3>(4)
    );
}
