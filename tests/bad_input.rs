//! The bad-input suite: every public entry point that takes user values is fed NaN,
//! infinities, zero and negative sizes, absurd magnitudes (1e30), degenerate polygons and
//! meshes, bad timesteps and substeps, stale handles, malformed scene files and corrupted
//! snapshots. Each row of each table names the input and the typed error it must give (the
//! error's kind and the field, path or line it names); every row that calls a world also
//! checks that the world is exactly as before (its snapshot bytes and `state_hash`).
//! World rows run in 2D and 3D from one generic table.
//!
//! Entry points covered:
//! - shapes (`fathom_sdf`): `Shape::{ball, cuboid, rounded_cuboid, capsule, half_space,
//!   transformed, scaled, rounded, shell, union, intersection, smooth_union,
//!   smooth_intersection, smooth_difference}`, 2D `Shape::{segment, convex_polygon, polygon,
//!   rounded_polygon}`, 3D `Shape::{cylinder, cone, torus, capped_torus}`, `TriMesh::new`,
//!   `TriMesh::check_closed`, `BakedGrid::from_samples`, `BakedGrid::from_mesh_resolution`,
//!   `Shape::from_ron`;
//! - world settings: `World::new`, `World::set_settings` (gravity, dt, substeps, every
//!   solver and sleep field), `World::set_gravity`;
//! - descriptors: `World::add_body` (every `BodyDesc` field and every `ColliderDesc` field:
//!   shape, position, rotation, density, mass, friction, restitution, margin, force event
//!   threshold; empty solids, unbounded shapes on dynamic bodies, masses that overflow),
//!   `World::add_collider`, `World::add_joint` (every `JointDesc` field, a body jointed to
//!   itself);
//! - game-loop calls: `set_pose`, `set_linear_velocity`, `set_angular_velocity`,
//!   `apply_force`, `apply_torque`, `apply_force_at_point`, `apply_impulse`,
//!   `apply_angular_impulse`, `apply_impulse_at_point`, `unfreeze`, and every lookup and
//!   removal (`body`, `collider`, `joint`, `remove_body`, `remove_collider`, `remove_joint`,
//!   `contacts_of`) with handles of removed objects;
//! - scene queries: `cast_ray`, `cast_ray_all`, `cast_sphere`, `cast_shape`,
//!   `colliders_containing_point`, `nearest_collider`, `colliders_in_box`;
//! - scenes: `Scene::from_ron_str`, `Scene::from_ron_file`, `Scene::validate`,
//!   `Scene::build`, `fathom_physics::world::SceneFile::from_ron_str` and `from_ron_file` (wrong types,
//!   missing and unknown fields, unknown shape kinds, truncated text, bad values by path,
//!   joint indices);
//! - snapshots: `World::restore`, `World::from_snapshot`, `World::restore_ron`,
//!   `World::from_snapshot_ron` (truncated, bad magic, version, dimension, checksum,
//!   trailing bytes, malformed and tampered RON);
//! - narrowphase: `intersects`, `penetration`, `distance`, `contacts` with non-finite poses
//!   and every `ContactOptions` field;
//! - continuous collision: `sphere_cast`, `ray_cast`, `capsule_cast`, `cast`, `cast_posed`,
//!   `cast_candidates`, `time_of_impact`, `CastOptions`, `ToiOptions`;
//! - broadphase: `Broadphase::{insert, insert_many, update, remove, overlapping,
//!   containing, cast_ray, cast_sphere}`.

use fathom_broadphase::{Broadphase, BroadphaseError, ProxyKind, QueryControl};
use fathom_ccd::{CastOptions, CastShape, CcdError, Motion, ToiOptions};
use fathom_math::{Aabb, Dim, Pose, Real, Space, Vector, Vector2, Vector3};
use fathom_narrowphase::{ContactOptions, NarrowphaseError};
use fathom_physics::world::SceneFile;
use fathom_sdf::{BakedGrid, Sdf, SdfError, Shape, TriMesh};
use fathom_world::{
    BodyDesc, BodyHandle, ColliderDesc, ColliderHandle, JointDesc, JointKind, QueryError,
    QueryFilter, RevoluteJoint, Scene, SceneError, SnapshotError, World, WorldError, WorldSettings,
};

const NAN: Real = Real::NAN;
const INF: Real = Real::INFINITY;

/// What a call gave back, reduced to what the table checks: the error's kind and the
/// field (or path) it names.
#[derive(Debug, PartialEq)]
enum Got {
    /// `WorldError::Invalid` naming this field path.
    Invalid(String),
    /// `WorldError::Shape` naming this field path.
    Shape(String),
    NoSuchBody,
    NoSuchCollider,
    /// `QueryError::Invalid` naming this argument.
    Query(&'static str),
    /// The call returned `None` / nothing (a stale handle to a lookup or removal).
    Nothing,
    /// The call was accepted: only for rows whose point is that it must not panic.
    Accepted,
}

impl From<WorldError> for Got {
    fn from(e: WorldError) -> Self {
        match e {
            WorldError::Invalid { field, .. } => Got::Invalid(field),
            WorldError::Shape { field, .. } => Got::Shape(field),
            WorldError::NoSuchBody(_) => Got::NoSuchBody,
            WorldError::NoSuchCollider(_) => Got::NoSuchCollider,
        }
    }
}

impl From<QueryError> for Got {
    fn from(e: QueryError) -> Self {
        match e {
            QueryError::Invalid { field, .. } => Got::Query(field),
        }
    }
}

fn got<T, E: Into<Got>>(r: Result<T, E>) -> Got {
    match r {
        Ok(_) => Got::Accepted,
        Err(e) => e.into(),
    }
}

fn invalid(field: &str) -> Got {
    Got::Invalid(field.to_string())
}

fn axis<const D: usize>(i: usize, x: Real) -> Vector<D> {
    let mut v = Vector::<D>::zeros();
    v[i] = x;
    v
}

/// An angular vector of magnitude `x` (about z in 3D; the angle itself in 2D).
fn ang<const D: usize>(x: Real) -> fathom_math::AngVector<D>
where
    Space<D>: Dim<D>,
{
    Space::<D>::cross(&axis::<D>(0, x), &axis::<D>(1, 1.0))
}

/// The world every world row starts from, and handles into it (some of them stale).
struct Fixture {
    ground: BodyHandle,
    ball: BodyHandle,
    ball_collider: ColliderHandle,
    removed_body: BodyHandle,
    removed_collider: ColliderHandle,
}

fn fixture<const D: usize>() -> (World<D>, Fixture)
where
    Space<D>: Dim<D>,
{
    let mut w = World::<D>::default();
    let mut half = Vector::<D>::repeat(5.0);
    half[1] = 0.5;
    let ground = w
        .add_body(
            &BodyDesc::fixed()
                .position(axis(1, -0.5))
                .collider(ColliderDesc::new(Shape::cuboid(half).unwrap())),
        )
        .unwrap();
    let ball = w
        .add_body(
            &BodyDesc::dynamic()
                .position(axis(1, 1.0))
                .collider(ColliderDesc::new(Shape::ball(0.5).unwrap())),
        )
        .unwrap();
    let gone = w
        .add_body(
            &BodyDesc::dynamic()
                .position(axis(0, 3.0))
                .collider(ColliderDesc::new(Shape::ball(0.5).unwrap()))
                .collider(ColliderDesc::new(Shape::ball(0.2).unwrap())),
        )
        .unwrap();
    let removed_collider = w.body(gone).unwrap().colliders()[1];
    w.remove_collider(removed_collider).unwrap();
    w.remove_body(gone).unwrap();
    w.add_joint(ground, ball, &JointDesc::default()).unwrap();
    for _ in 0..5 {
        w.step();
    }
    let ball_collider = w.body(ball).unwrap().colliders()[0];
    let fix = Fixture {
        ground,
        ball,
        ball_collider,
        removed_body: gone,
        removed_collider,
    };
    (w, fix)
}

/// A pose that only translates by `t`.
fn shifted<const D: usize>(t: Vector<D>) -> Pose<D>
where
    Space<D>: Dim<D>,
{
    Pose::<D>::from_parts(
        t.into(),
        Space::<D>::rotation_from_scaled_axis(&Space::<D>::ang_zero()),
    )
}

type Row<const D: usize> = (
    &'static str,
    Got,
    Box<dyn Fn(&mut World<D>, &Fixture) -> Got>,
);

fn row<const D: usize>(
    name: &'static str,
    want: Got,
    call: impl Fn(&mut World<D>, &Fixture) -> Got + 'static,
) -> Row<D>
where
    Space<D>: Dim<D>,
{
    (name, want, Box::new(call))
}

fn body_row<const D: usize>(name: &'static str, want: Got, desc: BodyDesc<D>) -> Row<D>
where
    Space<D>: Dim<D>,
{
    row(name, want, move |w, _| got(w.add_body(&desc)))
}

fn ball_desc<const D: usize>() -> ColliderDesc<D>
where
    Space<D>: Dim<D>,
{
    ColliderDesc::new(Shape::ball(0.5).unwrap())
}

fn with_settings<const D: usize>(f: impl Fn(&mut WorldSettings<D>)) -> WorldSettings<D> {
    let mut s = WorldSettings::<D>::default();
    f(&mut s);
    s
}

fn settings_rows<const D: usize>() -> Vec<Row<D>>
where
    Space<D>: Dim<D>,
{
    let set = |name, field: &str, f: fn(&mut WorldSettings<D>)| {
        let s = with_settings(f);
        row::<D>(name, invalid(field), move |w, _| {
            got(w.set_settings(s.clone()))
        })
    };
    vec![
        row("gravity NaN", invalid("gravity"), |w, _| {
            got(w.set_gravity(axis(1, NAN)))
        }),
        row("gravity -inf", invalid("gravity"), |w, _| {
            got(w.set_gravity(axis(0, -INF)))
        }),
        set("dt zero", "dt", |s| s.dt = 0.0),
        set("dt negative", "dt", |s| s.dt = -1.0 / 60.0),
        set("dt NaN", "dt", |s| s.dt = NAN),
        set("dt infinite", "dt", |s| s.dt = INF),
        set("dt 1e9", "dt", |s| s.dt = 1e9),
        set("gravity in settings 1/0", "gravity", |s| s.gravity[1] = INF),
        set("zero substeps", "substeps", |s| s.solver.substeps = 0),
        set("contact hertz NaN", "solver.contact_hertz", |s| {
            s.solver.contact_hertz = NAN
        }),
        set(
            "contact damping negative",
            "solver.contact_damping_ratio",
            |s| s.solver.contact_damping_ratio = -1.0,
        ),
        set("joint hertz inf", "solver.joint_hertz", |s| {
            s.solver.joint_hertz = INF
        }),
        set("push-out negative", "solver.max_push_out_speed", |s| {
            s.solver.max_push_out_speed = -3.0
        }),
        set(
            "restitution threshold NaN",
            "solver.restitution_threshold",
            |s| s.solver.restitution_threshold = NAN,
        ),
        set("max speed negative", "solver.max_linear_speed", |s| {
            s.solver.max_linear_speed = -1.0
        }),
        set("max angular speed NaN", "solver.max_angular_speed", |s| {
            s.solver.max_angular_speed = NAN
        }),
        set("rotation cap NaN", "solver.max_rotation_per_substep", |s| {
            s.solver.max_rotation_per_substep = NAN
        }),
        set("sleep threshold negative", "sleep.linear_threshold", |s| {
            s.sleep.linear_threshold = -0.1
        }),
        set("sleep angular NaN", "sleep.angular_threshold", |s| {
            s.sleep.angular_threshold = NAN
        }),
        set("time to sleep zero", "sleep.time_to_sleep", |s| {
            s.sleep.time_to_sleep = 0.0
        }),
    ]
}

fn body_rows<const D: usize>() -> Vec<Row<D>>
where
    Space<D>: Dim<D>,
{
    let dynamic = || BodyDesc::<D>::dynamic().collider(ball_desc());
    let with_collider = |c: ColliderDesc<D>| BodyDesc::<D>::dynamic().collider(c);
    let disjoint = Shape::intersection_all(vec![
        Shape::ball(0.5).unwrap(),
        Shape::ball(0.5)
            .unwrap()
            .transformed(shifted::<D>(axis(0, 3.0)))
            .unwrap(),
    ])
    .unwrap();
    let plane = Shape::half_space(axis(1, 1.0), 0.0).unwrap();
    let bad_shape: Shape<D> = serde_bad_ball();
    vec![
        body_row(
            "position NaN",
            invalid("position"),
            dynamic().position(axis(0, NAN)),
        ),
        body_row(
            "position inf",
            invalid("position"),
            dynamic().position(axis(1, INF)),
        ),
        body_row(
            "rotation NaN",
            invalid("rotation"),
            dynamic().rotation(ang(NAN)),
        ),
        body_row(
            "linear velocity inf",
            invalid("linear_velocity"),
            dynamic().linear_velocity(axis(0, -INF)),
        ),
        body_row(
            "angular velocity NaN",
            invalid("angular_velocity"),
            dynamic().angular_velocity(ang(NAN)),
        ),
        body_row(
            "linear damping negative",
            invalid("linear_damping"),
            dynamic().linear_damping(-1.0),
        ),
        body_row(
            "angular damping NaN",
            invalid("angular_damping"),
            dynamic().angular_damping(NAN),
        ),
        body_row(
            "gravity scale inf",
            invalid("gravity_scale"),
            dynamic().gravity_scale(INF),
        ),
        body_row(
            "gravity scale 1e30",
            invalid("gravity_scale"),
            dynamic().gravity_scale(1e30),
        ),
        body_row(
            "collider position NaN",
            invalid("colliders[0].position"),
            with_collider(ball_desc().position(axis(0, NAN))),
        ),
        body_row(
            "collider rotation inf",
            invalid("colliders[0].rotation"),
            with_collider(ball_desc().rotation(ang(INF))),
        ),
        body_row(
            "density negative",
            invalid("colliders[0].density"),
            with_collider(ball_desc().density(-1.0)),
        ),
        body_row(
            "density NaN",
            invalid("colliders[0].density"),
            with_collider(ball_desc().density(NAN)),
        ),
        body_row(
            "density 1e30 overflows the mass",
            invalid("colliders[0].density"),
            with_collider(ColliderDesc::new(Shape::ball(1e15).unwrap()).density(1e30)),
        ),
        body_row(
            "a fixed body's mass overflows",
            invalid("colliders[0].density"),
            BodyDesc::fixed().collider(ColliderDesc::new(Shape::capsule(1e19, 1e19).unwrap())),
        ),
        body_row(
            "density so small 1/m overflows",
            invalid("mass"),
            with_collider(ball_desc().density(1e-44)),
        ),
        body_row(
            "mass zero",
            invalid("colliders[0].mass"),
            with_collider(ball_desc().mass(0.0)),
        ),
        body_row(
            "mass negative",
            invalid("colliders[0].mass"),
            with_collider(ball_desc().mass(-2.0)),
        ),
        body_row(
            "mass NaN",
            invalid("colliders[0].mass"),
            with_collider(ball_desc().mass(NAN)),
        ),
        body_row(
            "friction negative",
            invalid("colliders[0].friction"),
            with_collider(ball_desc().friction(-0.1)),
        ),
        body_row(
            "restitution NaN",
            invalid("colliders[0].restitution"),
            with_collider(ball_desc().restitution(NAN)),
        ),
        body_row(
            "margin negative",
            invalid("colliders[0].margin"),
            with_collider(ball_desc().margin(-0.01)),
        ),
        body_row(
            "force threshold negative",
            invalid("colliders[0].force_event_threshold"),
            with_collider(ball_desc().force_event_threshold(-1.0)),
        ),
        body_row(
            "second collider bad",
            invalid("colliders[1].friction"),
            dynamic().collider(ball_desc().friction(INF)),
        ),
        body_row(
            "empty solid (disjoint intersection)",
            invalid("colliders[0].shape"),
            with_collider(ColliderDesc::new(disjoint)),
        ),
        body_row(
            "half-space on a dynamic body",
            invalid("colliders[0].shape"),
            with_collider(ColliderDesc::new(plane)),
        ),
        body_row(
            "shape with a negative radius (built by serde)",
            Got::Shape("colliders[0].shape".into()),
            with_collider(ColliderDesc::new(bad_shape)),
        ),
        body_row(
            "collider box overflows at 3e38",
            invalid("colliders[0].shape"),
            BodyDesc::fixed()
                .position(axis(0, 3.0e38))
                // Massless and small, so the box (not the mass) is what overflows.
                .collider(
                    ColliderDesc::new(Shape::ball(1.0).unwrap())
                        .density(0.0)
                        .position(axis(0, 3.0e38)),
                ),
        ),
    ]
}

/// `Ball((radius: -1.0))` as a file could hold it, bypassing the constructor's check.
fn serde_bad_ball<const D: usize>() -> Shape<D>
where
    Space<D>: Dim<D>,
{
    ron::from_str("Ball((radius: -1.0))").expect("well-formed RON")
}

fn collider_and_joint_rows<const D: usize>() -> Vec<Row<D>>
where
    Space<D>: Dim<D>,
{
    let joint = |f: fn(&mut JointDesc<D>)| {
        let mut j = JointDesc::<D>::default();
        f(&mut j);
        j
    };
    let j_anchor = joint(|j| j.anchor_a[0] = NAN);
    let j_anchor_b = joint(|j| j.anchor_b[1] = INF);
    let j_break = joint(|j| j.break_force = Some(0.0));
    let j_torque = joint(|j| j.break_torque = Some(NAN));
    let j_limits = joint(|j| {
        j.kind = JointKind::Revolute(RevoluteJoint {
            limits: Some([0.5, -0.5]),
            ..RevoluteJoint::default()
        })
    });
    let j_limit_nan = joint(|j| {
        j.kind = JointKind::Revolute(RevoluteJoint {
            limits: Some([NAN, 0.5]),
            ..RevoluteJoint::default()
        })
    });
    let add = move |j: JointDesc<D>| {
        move |w: &mut World<D>, f: &Fixture| got(w.add_joint(f.ground, f.ball, &j))
    };
    vec![
        row("collider on removed body", Got::NoSuchBody, |w, f| {
            got(w.add_collider(f.removed_body, &ColliderDesc::default()))
        }),
        row(
            "collider too heavy on a fixed body",
            invalid("density"),
            |w, f| {
                let huge = ColliderDesc::new(Shape::capsule(1e19, 1e19).unwrap());
                got(w.add_collider(f.ground, &huge))
            },
        ),
        row("collider density NaN", invalid("density"), |w, f| {
            got(w.add_collider(f.ball, &ColliderDesc::default().density(NAN)))
        }),
        row("collider empty solid", invalid("shape"), |w, f| {
            let empty = Shape::intersection_all(vec![
                Shape::ball(0.1).unwrap(),
                Shape::ball(0.1)
                    .unwrap()
                    .transformed(shifted::<D>(axis(1, 1.0)))
                    .unwrap(),
            ])
            .unwrap();
            got(w.add_collider(f.ball, &ColliderDesc::new(empty)))
        }),
        row("joint to itself", invalid("body_b"), |w, f| {
            got(w.add_joint(f.ball, f.ball, &JointDesc::default()))
        }),
        row("joint to removed body", Got::NoSuchBody, |w, f| {
            got(w.add_joint(f.ground, f.removed_body, &JointDesc::default()))
        }),
        row("joint anchor NaN", invalid("anchor_a"), add(j_anchor)),
        row("joint anchor inf", invalid("anchor_b"), add(j_anchor_b)),
        row("break force zero", invalid("break_force"), add(j_break)),
        row("break torque NaN", invalid("break_torque"), add(j_torque)),
        row("limits inverted", invalid("revolute.limits"), add(j_limits)),
        row("limit NaN", invalid("revolute.limits[0]"), add(j_limit_nan)),
    ]
}

fn game_loop_rows<const D: usize>() -> Vec<Row<D>>
where
    Space<D>: Dim<D>,
{
    let nan_pose = shifted::<D>(axis(0, NAN));
    let nan_rot = Pose::<D>::from_parts(
        Vector::<D>::zeros().into(),
        Space::<D>::rotation_from_scaled_axis(&ang(NAN)),
    );
    vec![
        row(
            "set_pose NaN translation",
            invalid("pose.translation"),
            move |w, f| got(w.set_pose(f.ball, nan_pose)),
        ),
        row(
            "set_pose NaN rotation",
            invalid("pose.rotation"),
            move |w, f| got(w.set_pose(f.ball, nan_rot)),
        ),
        row("set_pose removed", Got::NoSuchBody, |w, f| {
            got(w.set_pose(f.removed_body, Pose::<D>::identity()))
        }),
        row(
            "set_linear_velocity NaN",
            invalid("linear_velocity"),
            |w, f| got(w.set_linear_velocity(f.ball, axis(0, NAN))),
        ),
        row("set_linear_velocity removed", Got::NoSuchBody, |w, f| {
            got(w.set_linear_velocity(f.removed_body, Vector::zeros()))
        }),
        row(
            "set_angular_velocity inf",
            invalid("angular_velocity"),
            |w, f| got(w.set_angular_velocity(f.ball, ang(INF))),
        ),
        row("apply_force NaN", invalid("force"), |w, f| {
            got(w.apply_force(f.ball, axis(1, NAN)))
        }),
        row("apply_force removed", Got::NoSuchBody, |w, f| {
            got(w.apply_force(f.removed_body, axis(1, 1.0)))
        }),
        row("apply_torque NaN", invalid("torque"), |w, f| {
            got(w.apply_torque(f.ball, ang(NAN)))
        }),
        row(
            "apply_force_at_point point NaN",
            invalid("point"),
            |w, f| got(w.apply_force_at_point(f.ball, axis(1, 1.0), axis(0, NAN))),
        ),
        row("apply_impulse inf", invalid("impulse"), |w, f| {
            got(w.apply_impulse(f.ball, axis(0, INF)))
        }),
        row(
            "apply_angular_impulse NaN",
            invalid("angular_impulse"),
            |w, f| got(w.apply_angular_impulse(f.ball, ang(NAN))),
        ),
        row("apply_impulse_at_point NaN", invalid("impulse"), |w, f| {
            got(w.apply_impulse_at_point(f.ball, axis(0, NAN), Vector::zeros()))
        }),
        row("apply_impulse_at_point removed", Got::NoSuchBody, |w, f| {
            got(w.apply_impulse_at_point(f.removed_body, axis(0, 1.0), Vector::zeros()))
        }),
        row("unfreeze removed", Got::NoSuchBody, |w, f| {
            got(w.unfreeze(f.removed_body))
        }),
        row("remove_body removed", Got::Nothing, |w, f| {
            nothing(w.remove_body(f.removed_body).is_none())
        }),
        row("remove_collider removed", Got::Nothing, |w, f| {
            nothing(w.remove_collider(f.removed_collider).is_none())
        }),
        row("lookups of removed handles", Got::Nothing, |w, f| {
            nothing(
                w.body(f.removed_body).is_none()
                    && w.collider(f.removed_collider).is_none()
                    && w.contacts_of(f.removed_body).is_empty(),
            )
        }),
    ]
}

fn nothing(ok: bool) -> Got {
    if ok {
        Got::Nothing
    } else {
        Got::Accepted
    }
}

fn query_rows<const D: usize>() -> Vec<Row<D>>
where
    Space<D>: Dim<D>,
{
    let all = QueryFilter::default;
    let x = || axis::<D>(0, 1.0);
    vec![
        row("ray origin NaN", Got::Query("origin"), move |w, _| {
            got(w.cast_ray(&axis(0, NAN), &x(), 1.0, &all()))
        }),
        row("ray zero direction", Got::Query("dir"), move |w, _| {
            got(w.cast_ray(&Vector::zeros(), &Vector::zeros(), 1.0, &all()))
        }),
        row(
            "ray negative length",
            Got::Query("max_dist"),
            move |w, _| got(w.cast_ray(&Vector::zeros(), &x(), -1.0, &all())),
        ),
        row("ray_all direction NaN", Got::Query("dir"), move |w, _| {
            got(w.cast_ray_all(&Vector::zeros(), &axis(1, NAN), 1.0, &all()))
        }),
        row(
            "sphere radius negative",
            Got::Query("radius"),
            move |w, _| got(w.cast_sphere(&Vector::zeros(), -0.1, &x(), 1.0, &all())),
        ),
        row("sphere length NaN", Got::Query("max_dist"), move |w, _| {
            got(w.cast_sphere(&Vector::zeros(), 0.1, &x(), NAN, &all()))
        }),
        row(
            "shape cast pose NaN",
            Got::Query("pose.translation"),
            move |w, _| {
                let pose = shifted::<D>(axis(0, NAN));
                got(w.cast_shape(&Shape::ball(0.2).unwrap(), &pose, &x(), 1.0, &all()))
            },
        ),
        row("point query NaN", Got::Query("point"), move |w, _| {
            got(w.colliders_containing_point(&axis(1, NAN), &all()))
        }),
        row(
            "nearest max_dist NaN",
            Got::Query("max_dist"),
            move |w, _| got(w.nearest_collider(&Vector::zeros(), NAN, &all())),
        ),
        row("box inverted", Got::Query("aabb"), move |w, _| {
            got(w.colliders_in_box(&Aabb::new(x(), -x()), &all()))
        }),
        row("box NaN", Got::Query("aabb.min"), move |w, _| {
            got(w.colliders_in_box(&Aabb::new(axis(0, NAN), x()), &all()))
        }),
    ]
}

/// Runs every world row on a fresh fixture: the error must be the one named, and the world
/// (its snapshot bytes and state hash) must be exactly as before.
fn world_rows<const D: usize>()
where
    Space<D>: Dim<D>,
{
    let rows: Vec<Row<D>> = [
        settings_rows::<D>(),
        body_rows::<D>(),
        collider_and_joint_rows::<D>(),
        game_loop_rows::<D>(),
        query_rows::<D>(),
    ]
    .into_iter()
    .flatten()
    .collect();
    let (mut w, fix) = fixture::<D>();
    let (bytes, hash) = (w.snapshot(), w.state_hash());
    for (name, want, call) in &rows {
        let got = call(&mut w, &fix);
        assert_eq!(&got, want, "{D}D row `{name}`");
        assert_eq!(
            w.state_hash(),
            hash,
            "{D}D row `{name}` changed the state hash"
        );
        assert!(w.snapshot() == bytes, "{D}D row `{name}` changed the world");
    }
    // The fixture's live handles still work: nothing was left half-done.
    assert!(w.body(fix.ball).is_some() && w.collider(fix.ball_collider).is_some());
    w.step();
}

#[test]
fn world_entry_points_2d() {
    world_rows::<2>();
}

#[test]
fn world_entry_points_3d() {
    world_rows::<3>();
}

/// 1e30 magnitudes that are valid are accepted, and the world steps them to finite states
/// (speeds capped by the solver, not NaN).
fn absurd_but_valid<const D: usize>()
where
    Space<D>: Dim<D>,
{
    let (mut w, fix) = fixture::<D>();
    w.set_linear_velocity(fix.ball, axis(0, 1e30)).unwrap();
    w.apply_force(fix.ball, axis(1, 1e30)).unwrap();
    w.add_body(
        &BodyDesc::dynamic()
            .position(axis(0, 1e30))
            .collider(ball_desc()),
    )
    .unwrap();
    w.add_body(
        &BodyDesc::dynamic()
            .position(axis(1, 5.0))
            .collider(ball_desc().density(1e30)),
    )
    .unwrap();
    for _ in 0..3 {
        w.step();
    }
    for (h, b) in w.bodies() {
        let v = b.linear_velocity();
        assert!(v.iter().all(|x| x.is_finite()), "{D}D body {h:?}: {v:?}");
        assert!(v.norm() <= w.settings().solver.max_linear_speed * 1.0001);
    }
}

#[test]
fn absurd_but_valid_values_step_finite_2d() {
    absurd_but_valid::<2>();
}

#[test]
fn absurd_but_valid_values_step_finite_3d() {
    absurd_but_valid::<3>();
}

// ---- shapes ----

/// The Debug form of an sdf error starts with its kind and names its field.
fn sdf_is(r: Result<impl std::fmt::Debug, SdfError>, kind: &str, field: &str, name: &str) {
    let e = r.expect_err(name);
    let text = format!("{e:?}");
    assert!(
        text.starts_with(kind) && text.contains(&format!("field: \"{field}\"")),
        "row `{name}`: expected {kind} naming `{field}`, got {text}"
    );
}

fn shape_rows<const D: usize>()
where
    Space<D>: Dim<D>,
{
    let ball = || Shape::<D>::ball(0.5).unwrap();
    sdf_is(Shape::<D>::ball(NAN), "NonFinite", "radius", "ball NaN");
    sdf_is(Shape::<D>::ball(0.0), "NonPositive", "radius", "ball zero");
    sdf_is(
        Shape::<D>::ball(-1.0),
        "NonPositive",
        "radius",
        "ball negative",
    );
    sdf_is(Shape::<D>::ball(INF), "NonFinite", "radius", "ball inf");
    sdf_is(
        Shape::<D>::cuboid(axis(0, -1.0)),
        "NonPositive",
        "half_extents",
        "cuboid",
    );
    sdf_is(
        Shape::<D>::rounded_cuboid(Vector::repeat(1.0), NAN),
        "NonFinite",
        "radius",
        "rounded cuboid",
    );
    sdf_is(
        Shape::<D>::capsule(-1.0, 0.5),
        "Negative",
        "half_height",
        "capsule",
    );
    sdf_is(
        Shape::<D>::half_space(Vector::zeros(), 0.0),
        "Invalid",
        "normal",
        "plane",
    );
    sdf_is(
        Shape::<D>::half_space(axis(1, 1.0), NAN),
        "NonFinite",
        "offset",
        "plane offset",
    );
    let nan_pose = shifted::<D>(axis(0, NAN));
    sdf_is(
        ball().transformed(nan_pose),
        "NonFinite",
        "pose",
        "transformed",
    );
    sdf_is(ball().scaled(0.0), "NonPositive", "scale", "scaled zero");
    sdf_is(ball().rounded(-0.1), "NonPositive", "radius", "rounded");
    sdf_is(ball().shell(0.0), "NonPositive", "half_thickness", "shell");
    sdf_is(
        Shape::<D>::union_all(vec![]),
        "TooSmall",
        "shapes",
        "empty union",
    );
    sdf_is(
        Shape::<D>::intersection_all(vec![]),
        "TooSmall",
        "shapes",
        "empty intersection",
    );
    sdf_is(
        ball().smooth_union(ball(), -1.0),
        "NonPositive",
        "radius",
        "smooth union",
    );
    sdf_is(
        ball().smooth_intersection(ball(), NAN),
        "NonFinite",
        "radius",
        "smooth int.",
    );
    sdf_is(
        ball().smooth_difference(ball(), INF),
        "NonFinite",
        "radius",
        "smooth diff.",
    );
    sdf_is(
        Shape::<D>::from_ron("Ball((radius: -1.0))"),
        "NonPositive",
        "radius",
        "from_ron",
    );
}

#[test]
fn shape_constructors_2d() {
    shape_rows::<2>();
    let v = Vector2::new;
    sdf_is(
        Shape::segment(v(1.0, 1.0), v(1.0, 1.0)),
        "Invalid",
        "b",
        "segment of zero length",
    );
    sdf_is(
        Shape::convex_polygon(vec![]),
        "TooSmall",
        "vertices",
        "empty polygon",
    );
    let line = vec![v(0.0, 0.0), v(1.0, 0.0), v(2.0, 0.0)];
    sdf_is(
        Shape::convex_polygon(line.clone()),
        "Invalid",
        "vertices",
        "zero-area convex",
    );
    sdf_is(
        Shape::polygon(line),
        "Invalid",
        "vertices",
        "zero-area polygon",
    );
    let bow = vec![v(0.0, 0.0), v(1.0, 1.0), v(1.0, 0.0), v(0.0, 1.0)];
    sdf_is(
        Shape::polygon(bow),
        "Invalid",
        "vertices",
        "self-crossing polygon",
    );
    let tri = vec![v(0.0, 0.0), v(1.0, 0.0), v(0.0, 1.0)];
    sdf_is(
        Shape::rounded_polygon(tri, -0.1),
        "NonPositive",
        "radius",
        "rounded polygon",
    );
    sdf_is(
        Shape::convex_polygon(vec![v(0.0, 0.0), v(NAN, 0.0), v(0.0, 1.0)]),
        "NonFinite",
        "vertices",
        "polygon NaN vertex",
    );
}

#[test]
fn shape_constructors_3d() {
    shape_rows::<3>();
    sdf_is(
        Shape::cylinder(0.5, 0.0),
        "NonPositive",
        "radius",
        "cylinder",
    );
    sdf_is(Shape::cone(NAN, 0.5), "NonFinite", "half_height", "cone");
    sdf_is(
        Shape::torus(1.0, -0.1),
        "NonPositive",
        "minor_radius",
        "torus",
    );
    sdf_is(
        Shape::capped_torus(1.0, 0.2, NAN),
        "NonFinite",
        "half_angle",
        "capped torus",
    );
}

#[test]
fn meshes_and_grids() {
    let v = Vector3::new;
    sdf_is(
        TriMesh::new(vec![], vec![]),
        "EmptyMesh",
        "vertices",
        "empty mesh",
    );
    sdf_is(
        TriMesh::new(vec![v(0.0, 0.0, 0.0)], vec![]),
        "EmptyMesh",
        "indices",
        "no triangles",
    );
    let tri = vec![v(0.0, 0.0, 0.0), v(1.0, 0.0, 0.0), v(0.0, 1.0, 0.0)];
    sdf_is(
        TriMesh::new(tri.clone(), vec![[0, 1, 7]]),
        "IndexOutOfRange",
        "indices",
        "index out of range",
    );
    sdf_is(
        TriMesh::new(vec![v(NAN, 0.0, 0.0)], vec![[0, 0, 0]]),
        "NonFinite",
        "vertices",
        "NaN vertex",
    );
    // One triangle is open: every edge is used once.
    let open = TriMesh::new(tri.clone(), vec![[0, 1, 2]]).unwrap();
    sdf_is(open.check_closed(), "OpenMesh", "indices", "open mesh");
    sdf_is(
        BakedGrid::from_mesh_resolution(&open, 8),
        "OpenMesh",
        "indices",
        "baking an open mesh",
    );
    let dims = nalgebra::SVector::<usize, 3>::new(2, 2, 2);
    sdf_is(
        BakedGrid::<3>::from_samples(Vector3::zeros(), 0.0, dims, vec![0.0; 8]),
        "NonPositive",
        "cell",
        "grid cell zero",
    );
    sdf_is(
        BakedGrid::<3>::from_samples(Vector3::zeros(), 0.1, dims, vec![NAN; 8]),
        "NonFinite",
        "values",
        "grid NaN sample",
    );
}

/// A "closed" mesh of two back-to-back zero-area triangles (all corners on a line) encloses
/// nothing: rejected, naming the triangles.
#[test]
fn zero_area_mesh_is_rejected() {
    let v = Vector3::new;
    let flat = vec![v(0.0, 0.0, 0.0), v(1.0, 0.0, 0.0), v(2.0, 0.0, 0.0)];
    sdf_is(
        TriMesh::new(flat, vec![[0, 1, 2], [0, 2, 1]]),
        "Invalid",
        "indices",
        "zero-area mesh",
    );
}

// ---- scenes ----

fn parse_error_line(r: Result<impl std::fmt::Debug, SceneError>, name: &str) -> usize {
    match r {
        Err(SceneError::Parse { line, column, .. }) => {
            assert!(
                line >= 1 && column >= 1,
                "row `{name}`: line {line} column {column}"
            );
            line
        }
        other => panic!("row `{name}`: expected a parse error, got {other:?}"),
    }
}

fn scene_invalid(r: Result<impl std::fmt::Debug, SceneError>, field: &str, name: &str) {
    match r {
        Err(SceneError::Invalid(e)) => assert_eq!(e.field(), Some(field), "row `{name}`"),
        other => panic!("row `{name}`: expected Invalid({field}), got {other:?}"),
    }
}

#[test]
fn malformed_scene_text() {
    // (name, text, line of the error)
    let rows: &[(&str, &str, usize)] = &[
        ("wrong type", "(\n  dt: \"fast\",\n)", 2),
        ("negative count", "(\n  substeps: -1,\n)", 2),
        ("unknown field", "(\n  bodies: [],\n  dtt: 0.1,\n)", 3),
        ("unknown body field", "(bodies: [(\n  colour: 1,\n)])", 2),
        (
            "unknown shape kind",
            "(bodies: [(colliders: [(\n  shape: Sphere((radius: 1.0)),\n)])])",
            2,
        ),
        (
            "missing joint field",
            "(bodies: [(), ()],\n joints: [(body_a: 0)])",
            2,
        ),
        (
            "truncated",
            "(\n  gravity: (0.0, -9.81),\n  bodies: [(pos",
            3,
        ),
        (
            "3D gravity in a 2D scene",
            "(gravity: (0.0, -9.81, 0.0))",
            1,
        ),
        ("not RON at all", "\u{1}\u{2}", 1),
        ("empty", "", 1),
    ];
    for (name, text, line) in rows {
        assert_eq!(
            parse_error_line(Scene::<2>::from_ron_str(text), name),
            *line,
            "{name}"
        );
    }
}

#[test]
fn scene_values_by_path() {
    let rows: &[(&str, &str, &str)] = &[
        ("dt zero", "(dt: 0.0)", "dt"),
        ("dt negative", "(dt: -0.01)", "dt"),
        ("dt NaN", "(dt: NaN)", "dt"),
        ("dt 1e9", "(dt: 1e9)", "dt"),
        ("gravity scale 1e30", "(bodies: [(gravity_scale: 1e30)])", "bodies[0].gravity_scale"),
        ("zero substeps", "(substeps: 0)", "substeps"),
        ("gravity inf", "(gravity: (0.0, -inf))", "gravity"),
        (
            "density path",
            "(bodies: [(), (colliders: [(), (density: -1.0)])])",
            "bodies[1].colliders[1].density",
        ),
        ("position NaN", "(bodies: [(position: (NaN, 0.0))])", "bodies[0].position"),
        (
            "zero-radius ball",
            "(bodies: [(colliders: [(shape: Ball((radius: 0.0)))])])",
            "bodies[0].colliders[0].shape",
        ),
        (
            "degenerate polygon",
            "(bodies: [(colliders: [(shape: ConvexPolygon((vertices: [(0.0, 0.0), (1.0, 0.0)])))])])",
            "bodies[0].colliders[0].shape",
        ),
        ("joint index", "(bodies: [()], joints: [(body_a: 0, body_b: 3)])", "joints[0].body_b"),
        ("joint to itself", "(bodies: [()], joints: [(body_a: 0, body_b: 0)])", "joints[0].body_b"),
        (
            "inverted limits",
            "(bodies: [(), ()], joints: [(body_a: 0, body_b: 1, joint: (kind: Revolute((limits: Some((1.0, -1.0))))))])",
            "joints[0].joint.revolute.limits",
        ),
    ];
    for (name, text, field) in rows {
        let scene = Scene::<2>::from_ron_str(text).unwrap_or_else(|e| panic!("{name}: {e}"));
        scene_invalid(scene.validate(), field, name);
        scene_invalid(scene.build().map(|_| ()), field, name);
        // Scene files enable `unwrap_variant_newtypes`, under which the doubled parentheses
        // of the rows with shapes or limits read differently; the plain rows go through too.
        if !text.contains("((") {
            let wrapped = format!("Scene2D{text}");
            scene_invalid(SceneFile::from_ron_str(&wrapped), field, name);
        }
    }
    // A bad value in a body after the empty-solid check also names its path in 3D.
    let s3 = Scene::<3>::from_ron_str("(bodies: [(colliders: [(margin: -1.0)])])").unwrap();
    scene_invalid(
        s3.build().map(|_| ()),
        "bodies[0].colliders[0].margin",
        "3D margin",
    );
}

#[test]
fn scene_files_and_wrappers() {
    assert!(matches!(
        Scene::<3>::from_ron_file("/nonexistent/fathom/scene.ron"),
        Err(SceneError::Io { path, .. }) if path.contains("nonexistent")
    ));
    assert!(matches!(
        SceneFile::from_ron_file("/nonexistent/fathom/scene.ron"),
        Err(SceneError::Io { .. })
    ));
    assert_eq!(
        parse_error_line(SceneFile::from_ron_str("Scene4D(())"), "unknown dim"),
        1
    );
    assert_eq!(
        parse_error_line(
            SceneFile::from_ron_str("Scene2D(\n dt: 1.0,\n gravity: 3,\n)"),
            "type"
        ),
        3
    );
}

// ---- snapshots ----

fn snapshot_world<const D: usize>() -> World<D>
where
    Space<D>: Dim<D>,
{
    fixture::<D>().0
}

fn restore_fails<const D: usize>(bytes: &[u8], want: fn(&SnapshotError) -> bool, name: &str)
where
    Space<D>: Dim<D>,
{
    let mut w = snapshot_world::<D>();
    let (before, hash) = (w.snapshot(), w.state_hash());
    let e = w.restore(bytes).expect_err(name);
    assert!(want(&e), "row `{name}`: got {e:?}");
    assert!(
        w.snapshot() == before && w.state_hash() == hash,
        "row `{name}` changed the world"
    );
    assert!(World::<D>::from_snapshot(bytes).is_err());
}

fn restore_ron_fails<const D: usize>(text: &str, want: fn(&SnapshotError) -> bool, name: &str)
where
    Space<D>: Dim<D>,
{
    let mut w = snapshot_world::<D>();
    let (before, hash) = (w.snapshot(), w.state_hash());
    let e = w.restore_ron(text).expect_err(name);
    assert!(want(&e), "row `{name}`: got {e:?}");
    assert!(
        w.snapshot() == before && w.state_hash() == hash,
        "row `{name}` changed the world"
    );
    assert!(World::<D>::from_snapshot_ron(text).is_err());
}

fn snapshot_rows<const D: usize>()
where
    Space<D>: Dim<D>,
{
    use SnapshotError as E;
    let good = snapshot_world::<D>().snapshot();
    let edit = |f: &dyn Fn(&mut Vec<u8>)| {
        let mut b = good.clone();
        f(&mut b);
        b
    };
    restore_fails::<D>(&[], |e| matches!(e, E::Truncated { found: 0, .. }), "empty");
    restore_fails::<D>(
        &good[..20],
        |e| matches!(e, E::Truncated { .. }),
        "cut header",
    );
    let cut = good.len() - 1;
    restore_fails::<D>(
        &good[..cut],
        |e| matches!(e, E::Truncated { .. }),
        "cut payload",
    );
    restore_fails::<D>(&edit(&|b| b[0] = b'X'), |e| *e == E::BadMagic, "magic");
    restore_fails::<D>(
        &edit(&|b| b[8] = 99),
        |e| matches!(e, E::Version { found: 99, .. }),
        "version",
    );
    restore_fails::<D>(
        &edit(&|b| b[10] = 7),
        |e| matches!(e, E::Dimension { found: 7, .. }),
        "dim",
    );
    let mid = good.len() / 2 + 16;
    restore_fails::<D>(
        &edit(&|b| b[mid] ^= 0x40),
        |e| matches!(e, E::Checksum { .. }),
        "flip",
    );
    restore_fails::<D>(
        &edit(&|b| b.push(0)),
        |e| matches!(e, E::TrailingBytes { extra: 1 }),
        "trail",
    );
    let text = snapshot_world::<D>().snapshot_ron();
    restore_ron_fails::<D>(
        &text[..text.len() / 2],
        |e| matches!(e, E::Decode(_)),
        "cut RON",
    );
    restore_ron_fails::<D>(
        "not a snapshot",
        |e| matches!(e, E::Decode(_)),
        "garbage RON",
    );
    let version = format!("version: {}", fathom_world::SNAPSHOT_VERSION);
    let bumped = text.replacen(&version, "version: 9", 1);
    assert_ne!(bumped, text, "the RON holds the version");
    restore_ron_fails::<D>(
        &bumped,
        |e| matches!(e, E::Version { found: 9, .. }),
        "RON version",
    );
    let dim = text.replacen(&format!("dim: {D}"), "dim: 4", 1);
    restore_ron_fails::<D>(
        &dim,
        |e| matches!(e, E::Dimension { found: 4, .. }),
        "RON dim",
    );
    let tampered = text.replacen("step_count: 5", "step_count: 6", 1);
    assert_ne!(tampered, text, "the RON holds the step count");
    restore_ron_fails::<D>(
        &tampered,
        |e| matches!(e, E::Checksum { .. }),
        "RON tampered",
    );
}

#[test]
fn corrupted_snapshots_2d() {
    snapshot_rows::<2>();
    // A 2D snapshot is not a 3D world.
    let s2 = snapshot_world::<2>().snapshot();
    restore_fails::<3>(
        &s2,
        |e| matches!(e, SnapshotError::Dimension { found: 2, .. }),
        "2D in 3D",
    );
}

#[test]
fn corrupted_snapshots_3d() {
    snapshot_rows::<3>();
}

// ---- narrowphase ----

fn np_is<T: std::fmt::Debug>(r: Result<T, NarrowphaseError>, want: NarrowphaseError, name: &str) {
    match (r, &want) {
        (
            Err(NarrowphaseError::InvalidOption { field, .. }),
            NarrowphaseError::InvalidOption { field: f, .. },
        ) => {
            assert_eq!(field, *f, "row `{name}`")
        }
        (Err(e), _) if matches!(want, NarrowphaseError::InvalidOption { .. }) => {
            panic!("row `{name}`: got {e:?}")
        }
        (Err(e), _) => assert_eq!(e, want, "row `{name}`"),
        (Ok(v), _) => panic!("row `{name}`: accepted, {v:?}"),
    }
}

fn narrowphase_rows<const D: usize>()
where
    Space<D>: Dim<D>,
{
    use fathom_narrowphase::{contacts, distance, intersects, penetration};
    let ball = Shape::<D>::ball(0.5).unwrap();
    let b: &dyn Sdf<D> = &ball;
    let id = Pose::<D>::identity();
    let nan = shifted::<D>(axis(0, NAN));
    let inf = shifted::<D>(axis(1, INF));
    let ok = ContactOptions::default();
    let opt = |f: fn(&mut ContactOptions)| {
        let mut o = ContactOptions::default();
        f(&mut o);
        o
    };
    let bad_opts = [
        ("margin NaN", opt(|o| o.margin = Some(NAN)), "margin"),
        ("margin negative", opt(|o| o.margin = Some(-0.1)), "margin"),
        ("min_cell zero", opt(|o| o.min_cell = Some(0.0)), "min_cell"),
        ("min_cell inf", opt(|o| o.min_cell = Some(INF)), "min_cell"),
        ("max_cells zero", opt(|o| o.max_cells = 0), "max_cells"),
    ];
    let pose_a = NarrowphaseError::NonFinitePose { field: "pose_a" };
    let pose_b = NarrowphaseError::NonFinitePose { field: "pose_b" };
    for (name, o, field) in &bad_opts {
        let want = || NarrowphaseError::InvalidOption {
            field,
            reason: String::new(),
        };
        np_is(intersects(b, &id, b, &id, o), want(), name);
        np_is(penetration(b, &id, b, &id, o), want(), name);
        np_is(distance(b, &id, b, &id, o), want(), name);
        np_is(contacts(b, &id, b, &id, o), want(), name);
    }
    np_is(
        intersects(b, &nan, b, &id, &ok),
        pose_a.clone(),
        "intersects pose_a NaN",
    );
    np_is(
        penetration(b, &id, b, &inf, &ok),
        pose_b.clone(),
        "penetration pose_b inf",
    );
    np_is(
        distance(b, &nan, b, &id, &ok),
        pose_a.clone(),
        "distance pose_a NaN",
    );
    np_is(
        contacts(b, &id, b, &nan, &ok),
        pose_b,
        "contacts pose_b NaN",
    );
    let plane = Shape::<D>::half_space(axis(1, 1.0), 0.0).unwrap();
    let p: &dyn Sdf<D> = &plane;
    assert!(matches!(
        contacts(p, &id, p, &id, &ok),
        Err(NarrowphaseError::Unsupported { .. })
    ));
}

#[test]
fn narrowphase_queries_2d() {
    narrowphase_rows::<2>();
}

#[test]
fn narrowphase_queries_3d() {
    narrowphase_rows::<3>();
}

// ---- continuous collision ----

fn ccd_rows<const D: usize>()
where
    Space<D>: Dim<D>,
{
    use fathom_ccd::time_of_impact;
    use fathom_ccd::{capsule_cast, cast, cast_candidates, cast_posed, ray_cast, sphere_cast};
    use CcdError as E;
    let ball = Shape::<D>::ball(0.5).unwrap();
    let b: &dyn Sdf<D> = &ball;
    let o = CastOptions::default();
    let (zero, x) = (Vector::<D>::zeros(), axis::<D>(0, 1.0));
    let origin = axis::<D>(0, -3.0);
    let eps = |e: Real| CastOptions {
        epsilon: e,
        ..CastOptions::default()
    };
    let nan_pose = shifted::<D>(axis(0, NAN));
    let rows: Vec<(&str, Result<_, CcdError>, CcdError)> = vec![
        (
            "origin NaN",
            sphere_cast(b, &axis(0, NAN), &x, 0.1, 5.0, &o),
            E::NonFiniteVector { field: "origin" },
        ),
        (
            "dir zero",
            sphere_cast(b, &origin, &zero, 0.1, 5.0, &o),
            E::ZeroVector { field: "dir" },
        ),
        (
            "dir inf",
            ray_cast(b, &origin, &axis(0, INF), 5.0, &o),
            E::NonFiniteVector { field: "dir" },
        ),
        (
            "radius negative",
            sphere_cast(b, &origin, &x, -0.1, 5.0, &o),
            E::Negative {
                field: "radius",
                value: -0.1,
            },
        ),
        (
            "radius NaN",
            sphere_cast(b, &origin, &x, NAN, 5.0, &o),
            E::NonFinite {
                field: "radius",
                value: NAN,
            },
        ),
        (
            "max_dist negative",
            ray_cast(b, &origin, &x, -1.0, &o),
            E::Negative {
                field: "max_dist",
                value: -1.0,
            },
        ),
        (
            "max_dist inf",
            ray_cast(b, &origin, &x, INF, &o),
            E::NonFinite {
                field: "max_dist",
                value: INF,
            },
        ),
        (
            "epsilon zero",
            ray_cast(b, &origin, &x, 5.0, &eps(0.0)),
            E::NonPositive {
                field: "epsilon",
                value: 0.0,
            },
        ),
        (
            "epsilon NaN",
            ray_cast(b, &origin, &x, 5.0, &eps(NAN)),
            E::NonFinite {
                field: "epsilon",
                value: NAN,
            },
        ),
        (
            "capsule axis NaN",
            capsule_cast(b, &origin, &axis(1, NAN), 0.1, &x, 5.0, &o),
            E::NonFiniteVector { field: "half_axis" },
        ),
        (
            "capsule center inf",
            capsule_cast(b, &axis(0, INF), &x, 0.1, &x, 5.0, &o),
            E::NonFiniteVector { field: "center" },
        ),
        (
            "cast radius negative",
            cast(b, &CastShape::Ball { radius: -1.0 }, &origin, &x, 5.0, &o),
            E::Negative {
                field: "radius",
                value: -1.0,
            },
        ),
        (
            "posed pose NaN",
            cast_posed(b, &nan_pose, &CastShape::ray(), &origin, &x, 5.0, &o),
            E::NonFinitePose { field: "pose" },
        ),
    ];
    for (name, r, want) in rows {
        let e = r.expect_err(name);
        // NaN != NaN: compare the Debug forms, which print the field and the value.
        assert_eq!(format!("{e:?}"), format!("{want:?}"), "row `{name}`");
    }
    let id = Pose::<D>::identity();
    let candidates: Vec<(&dyn Sdf<D>, Pose<D>)> = vec![(b, id), (b, nan_pose)];
    let e = cast_candidates(&candidates, &CastShape::ray(), &origin, &x, 5.0, &o).unwrap_err();
    assert!(
        matches!(e, E::Candidate { index: 1, ref source } if **source == E::NonFinitePose { field: "pose" }),
        "{e:?}"
    );
    let still = Motion::<D>::fixed(id);
    let bad = Motion::<D>::fixed(nan_pose);
    let to = ToiOptions::default();
    let r = time_of_impact(b, &bad, b, &still, 1.0, &to).unwrap_err();
    assert_eq!(r, E::NonFinitePose { field: "motion_a" });
    let r = time_of_impact(b, &still, b, &still, -1.0, &to).unwrap_err();
    assert_eq!(
        r,
        E::Negative {
            field: "dt",
            value: -1.0
        }
    );
    let zero_eps = ToiOptions {
        epsilon: 0.0,
        ..ToiOptions::default()
    };
    let r = time_of_impact(b, &still, b, &still, 1.0, &zero_eps).unwrap_err();
    assert_eq!(
        r,
        E::NonPositive {
            field: "epsilon",
            value: 0.0
        }
    );
}

#[test]
fn ccd_casts_2d() {
    ccd_rows::<2>();
}

#[test]
fn ccd_casts_3d() {
    ccd_rows::<3>();
}

// ---- broadphase ----

fn broadphase_rows<const D: usize>()
where
    Space<D>: Dim<D>,
{
    use BroadphaseError as E;
    let mut bp = Broadphase::<D>::new();
    let unit = Aabb::new(Vector::<D>::repeat(-1.0), Vector::repeat(1.0));
    bp.insert(1, unit, ProxyKind::Dynamic).unwrap();
    bp.insert(2, unit, ProxyKind::Static).unwrap();
    let nan_box = Aabb::new(axis::<D>(0, NAN), Vector::repeat(1.0));
    let inverted = Aabb::new(Vector::<D>::repeat(1.0), Vector::repeat(-1.0));
    let before = (
        bp.len(),
        bp.aabb(1).unwrap(),
        bp.overlapping(&unit).unwrap(),
    );
    let check = |bp: &Broadphase<D>, name: &str| {
        assert_eq!(
            (
                bp.len(),
                bp.aabb(1).unwrap(),
                bp.overlapping(&unit).unwrap()
            ),
            before,
            "{name}"
        );
        bp.validate().unwrap_or_else(|e| panic!("{name}: {e}"));
    };
    let rows: Vec<(&str, Result<(), E>, E)> = vec![
        (
            "insert NaN box",
            bp.insert(3, nan_box, ProxyKind::Dynamic),
            E::NonFiniteAabb { field: "aabb" },
        ),
        (
            "insert inverted",
            bp.insert(3, inverted, ProxyKind::Dynamic),
            E::InvertedAabb {
                field: "aabb",
                axis: 0,
            },
        ),
        (
            "insert duplicate",
            bp.insert(1, unit, ProxyKind::Dynamic),
            E::DuplicateKey { key: 1 },
        ),
        (
            "insert_many one bad",
            bp.insert_many([
                (5, unit, ProxyKind::Dynamic),
                (6, nan_box, ProxyKind::Static),
            ]),
            E::NonFiniteAabb {
                field: "items[].aabb",
            },
        ),
        (
            "update NaN",
            bp.update(1, nan_box).map(|_| ()),
            E::NonFiniteAabb { field: "aabb" },
        ),
        (
            "update unknown",
            bp.update(9, unit).map(|_| ()),
            E::UnknownKey { key: 9 },
        ),
        ("remove unknown", bp.remove(9), E::UnknownKey { key: 9 }),
        (
            "overlapping NaN",
            bp.overlapping(&nan_box).map(|_| ()),
            E::NonFiniteAabb { field: "aabb" },
        ),
        (
            "containing NaN",
            bp.containing(&axis(1, NAN)).map(|_| ()),
            E::InvalidArgument {
                field: "point",
                reason: "not finite",
            },
        ),
        (
            "ray origin NaN",
            bp.cast_ray(&axis(0, NAN), &axis(0, 1.0), 1.0, |_| {
                QueryControl::Continue
            }),
            E::InvalidArgument {
                field: "origin",
                reason: "not finite",
            },
        ),
        (
            "sphere radius negative",
            bp.cast_sphere(&Vector::zeros(), -1.0, &axis(0, 1.0), 1.0, |_| {
                QueryControl::Continue
            }),
            E::InvalidArgument {
                field: "radius",
                reason: "must be finite and >= 0",
            },
        ),
    ];
    for (name, r, want) in rows {
        assert_eq!(
            format!("{:?}", r.unwrap_err()),
            format!("{want:?}"),
            "row `{name}`"
        );
        check(&bp, name);
    }
}

#[test]
fn broadphase_proxies_2d() {
    broadphase_rows::<2>();
}

#[test]
fn broadphase_proxies_3d() {
    broadphase_rows::<3>();
}
