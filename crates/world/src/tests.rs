//! World API behaviour: validation that leaves the world untouched, handles,
//! removal, mass properties from colliders, scenes.

use crate::*;
use fathom_math::{Dim, Real, Space, Vector};

fn up<const D: usize>() -> Vector<D> {
    let mut v = Vector::<D>::zeros();
    v[1] = 1.0;
    v
}

fn ball_body<const D: usize>(r: Real) -> BodyDesc<D>
where
    Space<D>: Dim<D>,
{
    BodyDesc::dynamic().collider(ColliderDesc::new(Shape::<D>::ball(r).unwrap()))
}

fn rejected_calls_change_nothing<const D: usize>()
where
    Space<D>: Dim<D>,
{
    let mut w = World::<D>::default();
    let ok = w.add_body(&ball_body::<D>(0.5)).unwrap();
    let hash = w.state_hash();
    let mut bad = ball_body::<D>(0.5);
    bad.position[0] = Real::NAN;
    assert_eq!(w.add_body(&bad).unwrap_err().field(), Some("position"));
    // A bad collider among good ones: the whole body is refused, nothing is half-created.
    let bad = ball_body::<D>(0.5)
        .collider(ColliderDesc::new(Shape::<D>::ball(1.0).unwrap()).density(-1.0));
    assert_eq!(
        w.add_body(&bad).unwrap_err().field(),
        Some("colliders[1].density")
    );
    let bad = ColliderDesc::new(Shape::<D>::ball(1.0).unwrap()).friction(Real::INFINITY);
    assert_eq!(
        w.add_collider(ok, &bad).unwrap_err().field(),
        Some("friction")
    );
    // A half-space has no finite mass: not allowed on a dynamic body.
    let plane = ColliderDesc::new(Shape::<D>::half_space(up::<D>(), 0.0).unwrap());
    assert_eq!(
        w.add_collider(ok, &plane).unwrap_err().field(),
        Some("shape")
    );
    assert!(w.set_linear_velocity(ok, up::<D>() * Real::NAN).is_err());
    assert!(w.apply_force(ok, up::<D>() * Real::INFINITY).is_err());
    assert_eq!((w.body_count(), w.collider_count()), (1, 1));
    assert_eq!(w.state_hash(), hash);
    assert!(World::<D>::new(WorldSettings {
        dt: 0.0,
        ..WorldSettings::default()
    })
    .is_err());
}

#[test]
fn rejected_calls_change_nothing_both_dimensions() {
    rejected_calls_change_nothing::<2>();
    rejected_calls_change_nothing::<3>();
}

fn handles_and_removal<const D: usize>()
where
    Space<D>: Dim<D>,
{
    let mut w = World::<D>::default();
    let a = w.add_body(&ball_body::<D>(0.5)).unwrap();
    let b = w
        .add_body(&ball_body::<D>(0.5).position(up::<D>() * 3.0))
        .unwrap();
    let ca = w.body(a).unwrap().colliders()[0];
    assert!(w.remove_body(a).is_some());
    assert!(w.body(a).is_none() && w.collider(ca).is_none() && w.remove_body(a).is_none());
    assert!(matches!(
        w.apply_impulse(a, up::<D>()),
        Err(WorldError::NoSuchBody(_))
    ));
    let c = w.add_body(&ball_body::<D>(0.5)).unwrap();
    assert_ne!(a, c, "a reused slot gets a new generation");
    assert_eq!(w.bodies().map(|(h, _)| h).collect::<Vec<_>>(), vec![c, b]);
    // Removing the only collider leaves a massless dynamic body: 1 kg, as documented.
    let cb = w.body(b).unwrap().colliders()[0];
    w.remove_collider(cb).unwrap();
    assert_eq!(w.body(b).unwrap().mass(), 1.0);
    w.step();
}

#[test]
fn handles_and_removal_both_dimensions() {
    handles_and_removal::<2>();
    handles_and_removal::<3>();
}

/// `{:?}` of a world is a one-line summary that names its counts, not every body.
fn debug_summary<const D: usize>()
where
    Space<D>: Dim<D>,
{
    let mut w = World::<D>::default();
    for i in 0..3 {
        w.add_body(&ball_body::<D>(0.5).position(up::<D>() * (2.0 * i as Real)))
            .unwrap();
    }
    w.step();
    let text = format!("{w:?}");
    for part in ["step_count: 1", "bodies: 3", "colliders: 3", "joints: 0"] {
        assert!(text.contains(part), "{part} in {text}");
    }
    assert!(
        !text.contains('\n') && !text.contains("BodyHandle"),
        "{text}"
    );
}

#[test]
fn debug_summary_both_dimensions() {
    debug_summary::<2>();
    debug_summary::<3>();
}

#[test]
fn body_mass_combines_colliders() {
    // Two unit-density balls of radius 0.5 at x = ±1: mass 2 m, centre at the origin,
    // I_y = 2 (2/5 m r² + m · 1²).
    let ball = |x: Real| {
        ColliderDesc::new(Shape::<3>::ball(0.5).unwrap()).position(Vector::<3>::new(x, 0.0, 0.0))
    };
    let mut w = World::<3>::default();
    let b = w
        .add_body(
            &BodyDesc::dynamic()
                .position(Vector::<3>::new(0.0, 5.0, 0.0))
                .collider(ball(-1.0))
                .collider(ball(1.0)),
        )
        .unwrap();
    let body = w.body(b).unwrap();
    let m = 4.0 / 3.0 * std::f32::consts::PI * 0.125;
    assert!((body.mass() - 2.0 * m).abs() < 1e-5);
    assert!(body.local_center_of_mass().norm() < 1e-6);
    let want = 2.0 * (0.4 * m * 0.25 + m);
    assert!((body.local_inertia()[(1, 1)] - want).abs() < 1e-4 * want);
    // A given mass overrides the density.
    let heavy = ColliderDesc::new(Shape::<3>::ball(0.5).unwrap()).mass(7.0);
    let h = w.add_body(&BodyDesc::dynamic().collider(heavy)).unwrap();
    assert!((w.body(h).unwrap().mass() - 7.0).abs() < 1e-5);
}

#[test]
fn scenes_report_line_column_and_field_path() {
    let text = "(\n  gravity: (0.0, -9.81),\n  bodies: [\n    (kind: Dynamc),\n  ],\n)";
    match Scene2::from_ron_str(text) {
        // 1-based: the `D` of `Dynamc`.
        Err(SceneError::Parse { line, column, .. }) => assert_eq!((line, column), (4, 12)),
        other => panic!("expected a parse error, got {other:?}"),
    }
    let mut scene = Scene2::default();
    scene.bodies.push(ball_body::<2>(0.5));
    scene.bodies.push(
        ball_body::<2>(0.5)
            .collider(ColliderDesc::new(Shape::<2>::ball(1.0).unwrap()).margin(-1.0)),
    );
    let text = scene.to_ron_string().unwrap();
    let parsed = Scene2::from_ron_str(&text).unwrap();
    assert_eq!(parsed, scene);
    match parsed.build() {
        Err(SceneError::Invalid(e)) => assert_eq!(e.field(), Some("bodies[1].colliders[1].margin")),
        other => panic!(
            "expected an invalid field, got {:?}",
            other.map(|w| w.body_count())
        ),
    }
    scene.bodies.pop();
    let w = scene.build().unwrap();
    assert_eq!(w.body_count(), 1);
    assert_eq!(w.settings().dt, 1.0 / 60.0);
}

#[test]
fn defaults_fill_missing_scene_fields() {
    let text = "(bodies: [(position: (1.0, 2.0), colliders: [(shape: Ball((radius: 0.25)))])])";
    let scene = Scene2::from_ron_str(text).unwrap();
    let w = scene.build().unwrap();
    let (_, b) = w.bodies().next().unwrap();
    assert_eq!(b.position(), Vector::<2>::new(1.0, 2.0));
    assert_eq!(w.settings().solver.substeps, 4);
}

#[test]
fn fixed_bodies_are_written_fixed_and_read_under_the_old_name() {
    let scene = Scene2::from_ron_str("(bodies: [(kind: Static), (kind: Fixed)])").unwrap();
    assert!(scene
        .bodies
        .iter()
        .all(|b| b.kind == crate::BodyKind::Fixed));
    assert_eq!(BodyDesc::<2>::fixed().kind, crate::BodyKind::Fixed);
    assert!(scene.to_ron_string().unwrap().contains("kind: Fixed"));
}

fn ground_and_ball<const D: usize>() -> (World<D>, BodyHandle)
where
    Space<D>: Dim<D>,
{
    let mut w = World::<D>::default();
    let plane = ColliderDesc::new(Shape::<D>::half_space(up::<D>(), 0.0).unwrap());
    w.add_body(&BodyDesc::fixed().collider(plane)).unwrap();
    let ball = w
        .add_body(&ball_body::<D>(0.5).position(up::<D>() * 0.6))
        .unwrap();
    (w, ball)
}

fn resting_contact_reports_the_weight<const D: usize>()
where
    Space<D>: Dim<D>,
{
    let (mut w, ball) = ground_and_ball::<D>();
    for _ in 0..120 {
        w.step();
    }
    let contacts = w.contacts_of(ball);
    assert_eq!(contacts.len(), 1);
    let c = &contacts[0];
    // The normal points from the ball to the ground, and the step's impulse carries the weight
    // (1% for the soft contact still settling).
    assert!(
        (c.normal + up::<D>()).norm() < 1e-3,
        "normal {:?}",
        c.normal
    );
    let weight = w.body(ball).unwrap().mass() * 9.81 * w.settings().dt;
    let total: Real = c.points.iter().map(|p| p.normal_impulse).sum();
    assert!(
        (total - weight).abs() < 0.01 * weight,
        "{total} vs {weight}"
    );
    assert!(w.max_penetration() < 0.01 && w.contact_count() == 1);
}

#[test]
fn resting_contact_reports_the_weight_both_dimensions() {
    resting_contact_reports_the_weight::<2>();
    resting_contact_reports_the_weight::<3>();
}

fn kinematic_bodies_follow_their_velocity<const D: usize>()
where
    Space<D>: Dim<D>,
{
    let (mut w, ball) = ground_and_ball::<D>();
    let mut x = Vector::<D>::zeros();
    x[0] = 1.0;
    let pusher = BodyDesc::kinematic()
        .position(up::<D>() * 0.5 - x * 2.0)
        .linear_velocity(x)
        .collider(ColliderDesc::new(Shape::<D>::ball(0.5).unwrap()));
    let k = w.add_body(&pusher).unwrap();
    for _ in 0..120 {
        w.step();
    }
    // Gravity and the ball it pushes do not slow it: 2 m in 2 s (f32 round-off only).
    let p = w.body(k).unwrap().position();
    assert!(
        (p - up::<D>() * 0.5).norm() < 1e-3,
        "kinematic body at {p:?}"
    );
    assert!(
        w.body(ball).unwrap().position()[0] > 0.5,
        "the ball was not pushed"
    );
}

#[test]
fn kinematic_bodies_follow_their_velocity_both_dimensions() {
    kinematic_bodies_follow_their_velocity::<2>();
    kinematic_bodies_follow_their_velocity::<3>();
}

#[test]
fn serialised_world_resumes_bit_identically() {
    let (mut w, _) = ground_and_ball::<3>();
    let _ = w
        .add_body(&ball_body::<3>(0.4).position(Vector::<3>::new(0.3, 2.0, 0.1)))
        .unwrap();
    for _ in 0..30 {
        w.step();
    }
    let bytes = postcard::to_stdvec(&w).unwrap();
    let mut restored: World3 = postcard::from_bytes(&bytes).unwrap();
    assert_eq!(restored.state_hash(), w.state_hash());
    for _ in 0..60 {
        w.step();
        restored.step();
    }
    assert_eq!(restored.state_hash(), w.state_hash());
}

#[test]
fn handles_print_for_people() {
    use crate::arena::RawHandle;
    let raw = RawHandle {
        index: 3,
        generation: 1,
    };
    assert_eq!(crate::BodyHandle(raw).to_string(), "body 3v1");
    assert_eq!(
        format!("{:?}", crate::ColliderHandle(raw)),
        "ColliderHandle(3v1)"
    );
    assert_eq!(crate::JointHandle(raw).to_string(), "joint 3v1");
}

/// The solver's guard freezes any body whose state stops being finite, a static one too (a
/// joint impulse that overflows, times its zero inverse mass, is a NaN velocity). A static
/// body never moves, so the world does not take that over: only the dynamic body is frozen
/// and reported.
fn static_bodies_are_never_frozen<const D: usize>()
where
    Space<D>: Dim<D>,
{
    let mut w = World::<D>::default();
    let ground = w
        .add_body(&BodyDesc::fixed().collider(ColliderDesc::new(
            Shape::<D>::half_space(up::<D>(), 0.0).unwrap(),
        )))
        .unwrap();
    let ball = w
        .add_body(&ball_body::<D>(0.5).position(up::<D>() * 0.5))
        .unwrap();
    let (mut solved, mut index) = (Vec::new(), Vec::new());
    w.solver_bodies(&mut solved, &mut index);
    for sb in &mut solved {
        sb.linear_velocity = up::<D>() * Real::NAN;
        sb.freeze();
    }
    w.write_back_bodies(&solved, &index);
    assert_eq!(w.frozen_now, vec![ball], "{D}D");
    assert!(!w.body(ground).unwrap().is_frozen());
    assert_eq!(w.frozen_bodies().collect::<Vec<_>>(), vec![ball]);
}

#[test]
fn static_bodies_are_never_frozen_both_dimensions() {
    static_bodies_are_never_frozen::<2>();
    static_bodies_are_never_frozen::<3>();
}

/// The cached sweep sizes (`ccd_stage.rs`) are what a fresh computation gives after each
/// change of bodies and colliders: a stale size would leave a fast body unswept.
fn sweep_sizes_follow_changes<const D: usize>()
where
    Space<D>: Dim<D>,
{
    let mut w = World::<D>::default();
    let check = |w: &World<D>, when: &str| {
        for (h, b) in w.bodies() {
            assert_eq!(
                w.sweep_size_of(h),
                w.sweep_size(b),
                "{D}D, {when}: body {h:?}"
            );
        }
        for (h, c) in w.colliders() {
            assert_eq!(
                w.collider_sizes[h.0.index as usize],
                w.collider_sizes_of(c),
                "{D}D, {when}: {h:?}"
            );
        }
    };
    let first = w.add_body(&ball_body::<D>(0.5)).unwrap();
    w.step();
    check(&w, "first step");
    let late = w.add_body(&ball_body::<D>(0.2)).unwrap();
    let bare = w.add_body(&BodyDesc::dynamic()).unwrap();
    w.step();
    check(&w, "bodies added");
    let box_collider = ColliderDesc::new(Shape::<D>::cuboid(Vector::<D>::repeat(0.05)).unwrap())
        .position(up::<D>() * 0.7);
    let c = w.add_collider(bare, &box_collider).unwrap();
    let extra = w.add_collider(first, &box_collider).unwrap();
    w.step();
    check(&w, "colliders added");
    assert!(
        w.sweep_size_of(bare).is_some(),
        "{D}D: a body given a collider has a size"
    );
    w.remove_collider(c).unwrap();
    w.remove_collider(extra).unwrap();
    w.remove_body(late).unwrap();
    w.step();
    check(&w, "removed");
    assert!(
        w.sweep_size_of(bare).is_none(),
        "{D}D: no solid collider, no size"
    );
    let restored = World::<D>::from_snapshot(&w.snapshot()).unwrap();
    let mut restored = restored;
    restored.step();
    check(&restored, "restored");
}

#[test]
fn sweep_sizes_follow_changes_both_dimensions() {
    sweep_sizes_follow_changes::<2>();
    sweep_sizes_follow_changes::<3>();
}
