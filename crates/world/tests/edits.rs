//! Run-time CSG edits of colliders (`World::edit_collider`), in 2D and 3D: a ball rests at
//! the analytic depth of a carved crater, bodies near an edit wake and far ones sleep on, the
//! broadphase box and mass match a collider built fresh with the edited shape, an edit's cost
//! does not grow with the terrain, and edited worlds are deterministic across threads and
//! snapshots.

mod physics_support;
use fathom_math::{Dim, Pose, Real, Space, Vector};
use fathom_sdf::{Sdf, SdfError};
use fathom_world::{
    BodyDesc, BodyHandle, ColliderDesc, ColliderEdit, ColliderHandle, EditOp, Shape, World,
    WorldError,
};
use physics_support::*;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

fn at<const D: usize>(x: Real, y: Real) -> Vector<D> {
    let mut v = Vector::<D>::zeros();
    v[0] = x;
    v[1] = y;
    v
}

fn pose<const D: usize>(p: Vector<D>) -> Pose<D>
where
    Space<D>: Dim<D>,
{
    let mut pose = Pose::<D>::identity();
    pose.translation.vector = p;
    pose
}

/// A fixed slab of half width `w` whose top face is y = 0, 2 m thick; its collider.
fn slab<const D: usize>(world: &mut World<D>, w: Real) -> (BodyHandle, ColliderHandle)
where
    Space<D>: Dim<D>,
{
    let mut half = Vector::<D>::repeat(w);
    half[1] = 1.0;
    let b = world
        .add_body(
            &BodyDesc::fixed()
                .position(-up::<D>())
                .collider(ColliderDesc::new(Shape::cuboid(half).unwrap())),
        )
        .unwrap();
    (b, world.body(b).unwrap().colliders()[0])
}

/// A ball of radius `r` dropped at `p`, damped so it settles instead of rolling for ever.
fn damped_ball<const D: usize>(world: &mut World<D>, p: Vector<D>, r: Real) -> BodyHandle
where
    Space<D>: Dim<D>,
{
    world
        .add_body(
            &BodyDesc::dynamic()
                .position(p)
                .linear_damping(2.0)
                .angular_damping(2.0)
                .collider(ColliderDesc::new(Shape::ball(r).unwrap())),
        )
        .unwrap()
}

const CRATER_RADIUS: Real = 1.0;
/// The crater's centre is this far above the ground's top face: its bowl is 0.5 m deep.
const CRATER_CENTRE_Y: Real = 0.5;
const BALL_RADIUS: Real = 0.25;

/// Where the ball's centre ends up: dropped at `x`, with or without the crater.
fn rest_height<const D: usize>(crater: bool, x: Real) -> Vector<D>
where
    Space<D>: Dim<D>,
{
    let mut w = awake_world::<D>(-up::<D>() * G);
    let (_, ground) = slab(&mut w, 5.0);
    if crater {
        let edit = ColliderEdit::carve(
            Shape::ball(CRATER_RADIUS).unwrap(),
            pose(at::<D>(0.0, CRATER_CENTRE_Y)),
        );
        w.edit_collider(ground, &edit).unwrap();
    }
    let ball = damped_ball(&mut w, at::<D>(x, 1.0), BALL_RADIUS);
    run(&mut w, 8.0);
    w.body(ball).unwrap().position()
}

fn crater_rest_depth<const D: usize>()
where
    Space<D>: Dim<D>,
{
    // The solver lets a resting ball sink by its steady-state penetration; on flat ground
    // and at the bottom of the bowl the contact normal is vertical either way, so the same
    // sink applies: measured once on flat ground and taken off the analytic height.
    let flat = rest_height::<D>(false, 0.0);
    let sink = BALL_RADIUS - flat[1];
    let got = rest_height::<D>(true, 0.3);
    // In a spherical bowl a ball touching the wall has its centre R - r from the bowl's
    // centre: at the bottom, on the axis, R - r below it. Where the ball ended up off the
    // axis (it rolled in from x = 0.3), the height there.
    let off = got[0];
    let want = CRATER_CENTRE_Y - ((CRATER_RADIUS - BALL_RADIUS).powi(2) - off * off).sqrt() - sink;
    // 1e-4 m: ball and crater are exact fields (the edit's band keeps the bowl exact), so
    // what is left is the solver's settling, well below it after 8 s of damping.
    assert!(
        (got[1] - want).abs() < 1e-4,
        "D={D}: ball at {got:?}, want y = {want} (sink on flat ground {sink})"
    );
    // Off-centre drop: it rolled down into the bottom (1 cm: a damped ball in a bowl
    // still rocks a little after 8 s).
    assert!(got[0].abs() < 1e-2, "D={D}: ball at {got:?}");
}

#[test]
fn a_ball_rests_at_the_analytic_depth_of_a_crater_2d() {
    crater_rest_depth::<2>();
}
#[test]
fn a_ball_rests_at_the_analytic_depth_of_a_crater_3d() {
    crater_rest_depth::<3>();
}

fn near_bodies_wake<const D: usize>()
where
    Space<D>: Dim<D>,
{
    let mut w = world_with_gravity::<D>(-up::<D>() * G);
    let (_, ground) = slab(&mut w, 10.0);
    let near = add_box(&mut w, at::<D>(0.0, 0.25), 0.25, 0.6);
    let far = add_box(&mut w, at::<D>(6.0, 0.25), 0.25, 0.6);
    for _ in 0..600 {
        w.step();
        if w.awake_body_count() == 0 {
            break;
        }
    }
    assert!(
        w.is_sleeping(near) && w.is_sleeping(far),
        "D={D}: not asleep"
    );
    let report = w
        .edit_collider(
            ground,
            &ColliderEdit::carve(Shape::ball(1.0).unwrap(), pose(at::<D>(0.0, 0.3))),
        )
        .unwrap();
    assert_eq!(report.woken, vec![near], "D={D}");
    assert!(!w.is_sleeping(near) && w.is_sleeping(far), "D={D}");
    run(&mut w, 1.0);
    // The near box fell into the crater; the far one never moved.
    assert!(w.body(near).unwrap().position()[1] < 0.0, "D={D}");
    assert!(w.is_sleeping(far), "D={D}");
}

#[test]
fn bodies_near_an_edit_wake_and_far_ones_sleep_on_2d() {
    near_bodies_wake::<2>();
}
#[test]
fn bodies_near_an_edit_wake_and_far_ones_sleep_on_3d() {
    near_bodies_wake::<3>();
}

/// The edits of the box and mass tests: (op, radius, centre).
fn some_edits<const D: usize>() -> Vec<(EditOp, Real, Vector<D>)> {
    vec![
        (EditOp::Carve, 0.4, at::<D>(0.9, 0.4)),
        (EditOp::Carve, 0.3, at::<D>(-0.8, -0.1)),
        (EditOp::Add, 0.35, at::<D>(1.2, -0.3)),
    ]
}

/// The same edits as a nested CSG tree, body frame (the body sits at `origin`).
fn nested<const D: usize>(base: Shape<D>, origin: Vector<D>) -> Shape<D>
where
    Space<D>: Dim<D>,
{
    some_edits::<D>().into_iter().fold(base, |s, (op, r, c)| {
        let part = Shape::ball(r)
            .unwrap()
            .transformed(pose(c - origin))
            .unwrap();
        match op {
            EditOp::Carve => s.difference(part).unwrap(),
            EditOp::Add => s.union(part).unwrap(),
        }
    })
}

fn boxes_and_mass_match_fresh<const D: usize>()
where
    Space<D>: Dim<D>,
{
    let origin = at::<D>(0.2, 0.1);
    let mut half = Vector::<D>::repeat(0.6);
    half[0] = 1.0;
    half[1] = 0.5;
    let base = Shape::cuboid(half).unwrap();
    let desc = |shape: Shape<D>| {
        BodyDesc::dynamic()
            .position(origin)
            .collider(ColliderDesc::new(shape).density(2.0))
    };
    let mut w = awake_world::<D>(Vector::<D>::zeros());
    let edited = w.add_body(&desc(base.clone())).unwrap();
    let c = w.body(edited).unwrap().colliders()[0];
    for (op, r, centre) in some_edits::<D>() {
        let edit = ColliderEdit {
            op,
            ..ColliderEdit::carve(Shape::ball(r).unwrap(), pose(centre))
        };
        w.edit_collider(c, &edit).unwrap();
    }
    let fresh = w.add_body(&desc(nested(base, origin))).unwrap();
    let fc = w.body(fresh).unwrap().colliders()[0];
    // Broadphase boxes: the same box arithmetic, so equal to round-off.
    let (a, b) = (
        w.collider(c).unwrap().aabb(),
        w.collider(fc).unwrap().aabb(),
    );
    assert!(
        (a.min - b.min).amax() < 1e-5 && (a.max - b.max).amax() < 1e-5,
        "D={D}: edited box {a:?}, fresh {b:?}"
    );
    let (be, bf) = (w.body(edited).unwrap(), w.body(fresh).unwrap());
    // 2%: the fresh collider is a voxel integral refined until it moves by under 0.5%, the
    // edited one a closed-form box plus voxel integrals of each edit's region.
    let rel = |x: Real, y: Real| (x - y).abs() / y.abs().max(1e-6);
    assert!(
        rel(be.mass(), bf.mass()) < 0.02,
        "D={D}: mass {} vs fresh {}",
        be.mass(),
        bf.mass()
    );
    // 1 cm: the centre of mass of a 2 m body to the voxel integrals' resolution.
    let dc = (be.local_center_of_mass() - bf.local_center_of_mass()).norm();
    assert!(dc < 0.01, "D={D}: centres differ by {dc}");
    // The inertia as quadratic forms about each axis (one in 2D): 3%, second moments
    // weigh the voxel error at the rim more.
    let axes: Vec<_> = (0..if D == 2 { 1 } else { 3 })
        .map(|i| Space::<D>::cross(&axis::<D>((i + 1) % D), &axis::<D>((i + 2) % D)))
        .map(|w| {
            if D == 2 {
                Space::<D>::cross(&axis::<D>(0), &axis::<D>(1))
            } else {
                w
            }
        })
        .collect();
    for w_axis in axes {
        let moment = |b: &fathom_world::Body<D>| {
            Space::<D>::ang_dot(
                &w_axis,
                &Space::<D>::inertia_apply(&b.local_inertia(), &w_axis),
            )
        };
        let (x, y) = (moment(be), moment(bf));
        assert!(rel(x, y) < 0.03, "D={D}: moment {x} vs fresh {y}");
    }
}

#[test]
fn broadphase_box_and_mass_match_a_fresh_collider_2d() {
    boxes_and_mass_match_fresh::<2>();
}
#[test]
fn broadphase_box_and_mass_match_a_fresh_collider_3d() {
    boxes_and_mass_match_fresh::<3>();
}

/// A flat slab `half_width` wide with its top at y = 0 that counts its evaluations: the
/// terrain of the cost test.
struct CountingSlab<const D: usize> {
    half_width: Real,
    calls: AtomicUsize,
}

impl<const D: usize> Sdf<D> for CountingSlab<D>
where
    Space<D>: Dim<D>,
{
    fn distance(&self, p: &Vector<D>) -> Real {
        self.calls.fetch_add(1, Ordering::Relaxed);
        let mut q = p.map(|x| x.abs()) - Vector::<D>::repeat(self.half_width);
        q[1] = (p[1] + 1.0).abs() - 1.0;
        let outside = q.map(|x| x.max(0.0)).norm();
        outside + q.max().min(0.0)
    }
    fn bounds(&self) -> fathom_math::Aabb<D> {
        let mut h = Vector::<D>::repeat(self.half_width);
        h[1] = 1.0;
        fathom_math::Aabb::from_center_half_extents(-up::<D>(), h)
    }
}

/// (index cells, terrain evaluations, edits a query there evaluates) of one crater carved
/// after `earlier` others spread over a terrain of half width `half_width`.
fn edit_cost<const D: usize>(half_width: Real, earlier: usize) -> (usize, usize, usize)
where
    Space<D>: Dim<D>,
{
    let slab = Arc::new(CountingSlab::<D> {
        half_width,
        calls: AtomicUsize::new(0),
    });
    let field: Arc<dyn Sdf<D>> = slab.clone();
    let mut w = World::<D>::default();
    let b = w
        .add_body(
            &BodyDesc::fixed().collider(ColliderDesc::new(Shape::user("slab", field).unwrap())),
        )
        .unwrap();
    let c = w.body(b).unwrap().colliders()[0];
    let crater = |x: Real| ColliderEdit::carve(Shape::ball(1.0).unwrap(), pose(at::<D>(x, 0.0)));
    for i in 0..earlier {
        let x = -half_width + (i as Real + 0.5) * 2.0 * half_width / earlier as Real;
        w.edit_collider(c, &crater(x + 7.0)).unwrap();
    }
    let before = slab.calls.load(Ordering::Relaxed);
    let report = w.edit_collider(c, &crater(0.0)).unwrap();
    let evaluations = slab.calls.load(Ordering::Relaxed) - before;
    let Shape::Edited(e) = w.collider(c).unwrap().shape() else {
        panic!("edited")
    };
    (report.cells, evaluations, e.edits_near(&at::<D>(0.0, 0.0)))
}

fn cost_follows_the_edit<const D: usize>()
where
    Space<D>: Dim<D>,
{
    // Terrains of 20 m, 200 m and 2 km, with as many earlier craters as metres / 10.
    let costs: Vec<_> = [10.0, 100.0, 1000.0]
        .iter()
        .map(|&w| edit_cost::<D>(w, (w / 5.0) as usize))
        .collect();
    println!("D={D}: (cells, terrain evaluations, edits near) at 20 m, 200 m, 2 km: {costs:?}");
    assert!(costs.iter().all(|c| *c == costs[0]), "D={D}: {costs:?}");
    // A 1 m crater with a 1 m band covers a 6 m box: 4 cells of 2 m per axis at most.
    assert!(costs[0].0 <= 4usize.pow(D as u32), "D={D}: {costs:?}");
    // A fixed terrain needs no mass: the edit evaluates the terrain nowhere.
    assert_eq!(costs[0].1, 0, "D={D}");
}

#[test]
fn an_edit_costs_the_same_on_terrains_of_three_sizes_2d() {
    cost_follows_the_edit::<2>();
}
#[test]
fn an_edit_costs_the_same_on_terrains_of_three_sizes_3d() {
    cost_follows_the_edit::<3>();
}

/// Field evaluations of the mass change of one carve into dynamic boxes of three sizes.
fn mass_cost<const D: usize>()
where
    Space<D>: Dim<D>,
{
    let samples: Vec<usize> = [1.0, 4.0, 16.0]
        .iter()
        .map(|&h| {
            let mut w = World::<D>::default();
            let b = w
                .add_body(&BodyDesc::dynamic().collider(ColliderDesc::new(
                    Shape::cuboid(Vector::<D>::repeat(h)).unwrap(),
                )))
                .unwrap();
            let c = w.body(b).unwrap().colliders()[0];
            let corner = Vector::<D>::repeat(h);
            let r = w
                .edit_collider(
                    c,
                    &ColliderEdit::carve(Shape::ball(0.5).unwrap(), pose(corner)),
                )
                .unwrap();
            r.mass_samples
        })
        .collect();
    println!("D={D}: mass-change evaluations for boxes of 2 m, 8 m, 32 m: {samples:?}");
    assert!(
        samples.iter().all(|s| *s == samples[0] && *s > 0),
        "D={D}: {samples:?}"
    );
}

#[test]
fn a_mass_change_costs_the_same_for_bodies_of_three_sizes_2d() {
    mass_cost::<2>();
}
#[test]
fn a_mass_change_costs_the_same_for_bodies_of_three_sizes_3d() {
    mass_cost::<3>();
}

/// Balls dropped into a slab that is carved at steps 20 and 40 and built up at step 60;
/// returns the state hash after `steps` (snapshotting and restoring at step 30 if asked).
fn edited_run<const D: usize>(steps: usize, snapshot_at: Option<usize>) -> u64
where
    Space<D>: Dim<D>,
{
    let mut w = world_with_gravity::<D>(-up::<D>() * G);
    let (_, ground) = slab(&mut w, 6.0);
    for i in 0..6 {
        add_ball(
            &mut w,
            at::<D>(-2.5 + i as Real, 0.3 + 0.1 * i as Real),
            0.25,
            0.0,
        );
    }
    for s in 0..steps {
        let edit = match s {
            20 => Some(ColliderEdit::carve(
                Shape::ball(1.0).unwrap(),
                pose(at::<D>(-1.0, 0.2)),
            )),
            40 => Some(ColliderEdit::carve(
                Shape::ball(0.8).unwrap(),
                pose(at::<D>(1.5, 0.0)),
            )),
            60 => Some(ColliderEdit::add(
                Shape::ball(0.5).unwrap(),
                pose(at::<D>(0.0, -0.2)),
            )),
            _ => None,
        };
        if let Some(e) = edit {
            w.edit_collider(ground, &e).unwrap();
        }
        if snapshot_at == Some(s) {
            let bytes = w.snapshot();
            w = World::<D>::from_snapshot(&bytes).unwrap();
        }
        w.step();
    }
    w.state_hash()
}

fn edited_worlds_are_deterministic<const D: usize>()
where
    Space<D>: Dim<D>,
{
    let hashes: Vec<u64> = [1, 2, 4]
        .iter()
        .map(|&t| in_pool(t, || edited_run::<D>(90, None)))
        .collect();
    assert!(hashes.iter().all(|h| *h == hashes[0]), "D={D}: {hashes:?}");
    // A snapshot between edits restores the edits, and the run goes on to the same bits.
    assert_eq!(edited_run::<D>(90, Some(30)), hashes[0], "D={D}");
}

#[test]
fn edited_worlds_are_deterministic_across_threads_and_snapshots_2d() {
    edited_worlds_are_deterministic::<2>();
}
#[test]
fn edited_worlds_are_deterministic_across_threads_and_snapshots_3d() {
    edited_worlds_are_deterministic::<3>();
}

fn bad_edits_are_refused<const D: usize>()
where
    Space<D>: Dim<D>,
{
    let mut w = World::<D>::default();
    let (b, c) = slab(&mut w, 5.0);
    let ball = || Shape::<D>::ball(1.0).unwrap();
    let mut nan = pose(at::<D>(0.0, 0.0));
    nan.translation.vector[0] = Real::NAN;
    let err = w
        .edit_collider(c, &ColliderEdit::carve(ball(), nan))
        .unwrap_err();
    assert_eq!(err.field(), Some("pose"), "D={D}: {err}");
    let plane = Shape::<D>::half_space(up::<D>(), 0.0).unwrap();
    let err = w
        .edit_collider(c, &ColliderEdit::carve(plane, pose(at::<D>(0.0, 0.0))))
        .unwrap_err();
    assert!(matches!(err, WorldError::Shape { .. }), "D={D}: {err}");
    let band = ColliderEdit {
        band: -1.0,
        ..ColliderEdit::carve(ball(), pose(at::<D>(0.0, 0.0)))
    };
    assert_eq!(w.edit_collider(c, &band).unwrap_err().field(), Some("band"));
    // 22 roundings and a placement: one level too deep once placed under the edit list.
    let deep = (0..22).fold(ball(), |s, _| s.rounded(0.01).unwrap());
    let err = w
        .edit_collider(c, &ColliderEdit::carve(deep, pose(at::<D>(0.0, 0.0))))
        .unwrap_err();
    assert!(
        matches!(
            err,
            WorldError::Shape {
                source: SdfError::TooDeep { .. },
                ..
            }
        ),
        "D={D}: {err}"
    );
    w.remove_body(b);
    let err = w
        .edit_collider(c, &ColliderEdit::carve(ball(), pose(at::<D>(0.0, 0.0))))
        .unwrap_err();
    assert_eq!(err, WorldError::NoSuchCollider(c));
    // Nothing above changed the world: no edited shape was left behind.
    assert_eq!(w.collider_count(), 0);
}

#[test]
fn bad_edits_are_refused_with_typed_errors_2d() {
    bad_edits_are_refused::<2>();
}
#[test]
fn bad_edits_are_refused_with_typed_errors_3d() {
    bad_edits_are_refused::<3>();
}
