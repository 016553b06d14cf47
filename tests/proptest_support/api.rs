//! Random sequences of world calls with extreme values (the `world_api` fuzz target and
//! `tests/proptest_world_api.rs`): bodies, colliders and joints added and removed (stale
//! handles included), forces, impulses, poses, velocities, settings, steps, queries and
//! snapshots. Every call must return, never panic; a call that returns an error must leave
//! the world's state hash as it was; after every step the bodies are finite; and a
//! snapshot restores to the same state hash.

use super::{pose, shape, world_is_finite, Bytes};
use fathom_math::{Dim, Pose, Real, Space, Vector};
use fathom_world::arena::RawHandle;
use fathom_world::{
    BodyDesc, BodyHandle, BodyKind, ColliderDesc, ColliderHandle, JointDesc, JointHandle,
    QueryFilter, Shape, World,
};

/// Most calls one input makes, and most bodies it builds: a fuzz input stays cheap.
const MAX_CALLS: usize = 48;
const MAX_BODIES: usize = 12;

/// Values at the edges of `f32` and of what a descriptor accepts.
const EXTREMES: [Real; 16] = [
    0.0,
    -0.0,
    -1.0,
    1e-6,
    1e-30,
    1.5e-45,
    1e6,
    -1e6,
    1e19,
    1e30,
    -1e30,
    3.4e38,
    -3.4e38,
    Real::NAN,
    Real::INFINITY,
    Real::NEG_INFINITY,
];

/// A number: half the time an ordinary one in `[-10, 10]`, else one of [`EXTREMES`].
fn value(b: &mut Bytes) -> Real {
    let pick = b.byte();
    if pick < 128 {
        b.range(-10.0, 10.0)
    } else {
        EXTREMES[usize::from(pick) % EXTREMES.len()]
    }
}

fn vector<const D: usize>(b: &mut Bytes) -> Vector<D> {
    Vector::<D>::from_fn(|_, _| value(b))
}

/// An angular vector (scalar in 2D): the cross product of two random vectors, so its
/// components reach the extremes too.
fn angular<const D: usize>(b: &mut Bytes) -> fathom_math::AngVector<D>
where
    Space<D>: Dim<D>,
{
    let (u, v) = (vector::<D>(b), vector::<D>(b));
    Space::<D>::cross(&u, &v)
}

/// A shape: usually a valid tree, sometimes a constructor given extreme sizes (which must
/// refuse them with an error, so the ball stands in).
fn any_shape<const D: usize>(b: &mut Bytes) -> Shape<D>
where
    Space<D>: Dim<D>,
{
    let made = match b.byte() % 4 {
        0 => Shape::ball(value(b)),
        1 => Shape::cuboid(vector::<D>(b)),
        2 => Shape::capsule(value(b), value(b)),
        _ => return shape::<D>(b, 2),
    };
    made.unwrap_or_else(|_| Shape::ball(0.5).expect("a valid radius"))
}

fn collider<const D: usize>(b: &mut Bytes) -> ColliderDesc<D>
where
    Space<D>: Dim<D>,
{
    let mut c = ColliderDesc::new(any_shape::<D>(b));
    for _ in 0..b.byte() % 4 {
        c = match b.byte() % 7 {
            0 => c.position(vector::<D>(b)),
            1 => c.density(value(b)),
            2 => c.mass(value(b)),
            3 => c.friction(value(b)),
            4 => c.restitution(value(b)),
            5 => c.margin(value(b)),
            _ => c.sensor(b.byte() % 2 == 0),
        };
    }
    c
}

fn body<const D: usize>(b: &mut Bytes) -> BodyDesc<D>
where
    Space<D>: Dim<D>,
{
    let kind = [BodyKind::Dynamic, BodyKind::Fixed, BodyKind::Kinematic][usize::from(b.byte() % 3)];
    let mut d = BodyDesc::dynamic()
        .kind(kind)
        .position(b.vector::<D>(-4.0, 4.0));
    for _ in 0..b.byte() % 4 {
        d = match b.byte() % 8 {
            0 => d.position(vector::<D>(b)),
            1 => d.rotation(angular::<D>(b)),
            2 => d.linear_velocity(vector::<D>(b)),
            3 => d.angular_velocity(angular::<D>(b)),
            4 => d.linear_damping(value(b)),
            5 => d.gravity_scale(value(b)),
            6 => d.ccd(true),
            _ => d.angular_damping(value(b)),
        };
    }
    for _ in 0..1 + b.byte() % 2 {
        d = d.collider(collider::<D>(b));
    }
    d
}

fn joint<const D: usize>(b: &mut Bytes) -> JointDesc<D>
where
    Space<D>: Dim<D>,
{
    let j = match b.byte() % 5 {
        0 => JointDesc::fixed(),
        1 => JointDesc::revolute(),
        2 => JointDesc::prismatic(vector::<D>(b)),
        3 => JointDesc::spherical(),
        _ => JointDesc::distance(),
    };
    match b.byte() % 4 {
        0 => j.anchor_a(vector::<D>(b)),
        1 => j.anchor_b(b.vector::<D>(-1.0, 1.0)),
        2 => j.break_force(value(b)),
        _ => j.break_torque(value(b)),
    }
}

/// Handles the sequence has seen, live or removed: stale ones are picked as often as live.
struct Seen {
    bodies: Vec<BodyHandle>,
    colliders: Vec<ColliderHandle>,
    joints: Vec<JointHandle>,
}

fn pick<T: Copy>(b: &mut Bytes, from: &[T]) -> Option<T> {
    (!from.is_empty()).then(|| from[usize::from(b.byte()) % from.len()])
}

/// What one call may do: change the world, or not (a refused call, a query).
enum Outcome {
    MayChange,
    Unchanged,
}

fn result<T, E>(r: Result<T, E>) -> Outcome {
    if r.is_ok() {
        Outcome::MayChange
    } else {
        Outcome::Unchanged
    }
}

/// An add call's outcome; the new handle joins `seen` to be picked by later calls.
fn remember<H, E>(r: Result<H, E>, seen: &mut Vec<H>) -> Outcome {
    match r {
        Ok(h) => {
            seen.push(h);
            Outcome::MayChange
        }
        Err(_) => Outcome::Unchanged,
    }
}

/// A new body's handle and its colliders' handles join `seen`.
fn remember_body<const D: usize>(w: &World<D>, h: BodyHandle, seen: &mut Seen)
where
    Space<D>: Dim<D>,
{
    seen.bodies.push(h);
    seen.colliders
        .extend(w.body(h).map_or(&[][..], |x| x.colliders()).iter());
}

/// One call decoded from `b`.
fn call<const D: usize>(w: &mut World<D>, seen: &mut Seen, b: &mut Bytes) -> Result<Outcome, String>
where
    Space<D>: Dim<D>,
{
    let body_h = |b: &mut Bytes, seen: &Seen| match b.byte() {
        // A forged handle: a small slot index with any generation.
        0..=31 => BodyHandle(RawHandle::from_bits(
            u64::from(b.byte() % 16) << 32 | u64::from(b.byte()),
        )),
        _ => pick(b, &seen.bodies).expect("the ground is always seen"),
    };
    Ok(match b.byte() % 20 {
        0 | 1 if w.body_count() < MAX_BODIES => match w.add_body(&body::<D>(b)) {
            Ok(h) => {
                remember_body(w, h, seen);
                Outcome::MayChange
            }
            Err(_) => Outcome::Unchanged,
        },
        2 => {
            let h = body_h(b, seen);
            w.remove_body(h);
            Outcome::MayChange
        }
        3 => remember(
            w.add_collider(body_h(b, seen), &collider::<D>(b)),
            &mut seen.colliders,
        ),
        4 => {
            if let Some(h) = pick(b, &seen.colliders) {
                w.remove_collider(h);
            }
            Outcome::MayChange
        }
        5 => {
            let (a, c) = (body_h(b, seen), body_h(b, seen));
            remember(w.add_joint(a, c, &joint::<D>(b)), &mut seen.joints)
        }
        6 => {
            if let Some(h) = pick(b, &seen.joints) {
                w.remove_joint(h);
            }
            Outcome::MayChange
        }
        7 => result(w.apply_impulse(body_h(b, seen), vector::<D>(b))),
        8 => result(w.apply_force(body_h(b, seen), vector::<D>(b))),
        9 => result(w.apply_torque(body_h(b, seen), angular::<D>(b))),
        10 => result(w.apply_impulse_at_point(body_h(b, seen), vector::<D>(b), vector::<D>(b))),
        11 => {
            let p = Pose::<D>::from_parts(vector::<D>(b).into(), pose::<D>(b, 1.0).rotation);
            result(w.set_pose(body_h(b, seen), p))
        }
        12 => result(w.set_linear_velocity(body_h(b, seen), vector::<D>(b))),
        13 => result(w.set_angular_velocity(body_h(b, seen), angular::<D>(b))),
        14 => result(w.set_gravity(vector::<D>(b))),
        15 => {
            let mut s = w.settings().clone();
            match b.byte() % 4 {
                0 => s.dt = value(b),
                1 => s.solver.substeps = u32::from(b.byte()) * 3,
                2 => s.solver.contact_hertz = value(b),
                _ => s.solver.max_linear_speed = value(b),
            }
            result(w.set_settings(s))
        }
        16 => {
            let (o, d) = (vector::<D>(b), vector::<D>(b));
            let f = QueryFilter::new();
            let _ = w.cast_ray(&o, &d, value(b), &f);
            let _ = w.cast_sphere(&o, value(b), &d, value(b), &f);
            let _ = w.colliders_containing_point(&o, &f);
            Outcome::Unchanged
        }
        17 => {
            let s = any_shape::<D>(b);
            let p = pose::<D>(b, 5.0);
            let _ = w.cast_shape(&s, &p, &vector::<D>(b), value(b), &QueryFilter::new());
            Outcome::Unchanged
        }
        18 => {
            let snap = w.snapshot();
            let mut back = World::<D>::from_snapshot(&snap)
                .map_err(|e| format!("a world refused its own snapshot: {e}"))?;
            if back.state_hash() != w.state_hash() {
                return Err("a snapshot restored to another state".into());
            }
            back.step();
            w.step();
            if back.state_hash() != w.state_hash() {
                return Err("a restored world stepped to other bits".into());
            }
            Outcome::MayChange
        }
        _ => {
            for _ in 0..1 + b.byte() % 3 {
                w.step();
            }
            world_is_finite(w)?;
            Outcome::MayChange
        }
    })
}

/// Runs the calls decoded from `data` on a world with ground; `Err` says which invariant broke.
pub fn run_calls<const D: usize>(data: &[u8]) -> Result<(), String>
where
    Space<D>: Dim<D>,
{
    let mut w = World::<D>::default();
    let mut up = Vector::<D>::zeros();
    up[1] = 1.0;
    let ground = BodyDesc::fixed().collider(ColliderDesc::new(
        Shape::half_space(up, 0.0).map_err(|e| e.to_string())?,
    ));
    let mut seen = Seen {
        bodies: Vec::new(),
        colliders: Vec::new(),
        joints: Vec::new(),
    };
    let ground = w.add_body(&ground).map_err(|e| e.to_string())?;
    remember_body(&w, ground, &mut seen);
    let mut b = Bytes::new(data);
    for i in 0..MAX_CALLS {
        if b.rest().is_empty() {
            break;
        }
        let before = w.state_hash();
        if let Outcome::Unchanged =
            call(&mut w, &mut seen, &mut b).map_err(|e| format!("call {i}: {e}"))?
        {
            if w.state_hash() != before {
                return Err(format!(
                    "call {i}: a refused call or a query changed the world"
                ));
            }
        }
    }
    w.step();
    world_is_finite(&w)
}
