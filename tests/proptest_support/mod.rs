//! Shared by the proptest properties (`tests/proptest_*.rs`) and the cargo-fuzz targets
//! (`fuzz/fuzz_targets/*.rs`, which include this file by path): one decoder that turns any
//! byte string into scene text, shape trees, poses and cast arguments, and one set of
//! invariant checks. Proptest feeds it random bytes on stable Rust in CI; libFuzzer feeds
//! it coverage-guided bytes on nightly. Either way the same code decides what a failure is.
//!
//! Every check returns `Err(message)` instead of panicking so proptest can shrink the input
//! and the fuzz targets can panic with the message.
#![allow(dead_code)] // each test binary uses a different part

pub mod api;
pub mod structured;

use fathom_ccd::{CastOptions, CastResult, CastShape};
use fathom_math::{is_finite_vec, Dim, Pose, Real, Space, Vector};
use fathom_narrowphase::ContactOptions;
use fathom_sdf::{Sdf, Shape};
use fathom_world::{Scene, World};

/// Reads values from a byte string; past its end every read is zero, so any input decodes.
pub struct Bytes<'a> {
    data: &'a [u8],
    at: usize,
}

impl<'a> Bytes<'a> {
    /// A reader at the start of `data`.
    pub fn new(data: &'a [u8]) -> Self {
        Self { data, at: 0 }
    }
    /// The next byte (0 past the end).
    pub fn byte(&mut self) -> u8 {
        let b = self.data.get(self.at).copied().unwrap_or(0);
        self.at += 1;
        b
    }
    /// A number in `[0, 1]` from two bytes.
    pub fn unit(&mut self) -> Real {
        let v = u16::from_le_bytes([self.byte(), self.byte()]);
        Real::from(v) / Real::from(u16::MAX)
    }
    /// A number in `[lo, hi]`.
    pub fn range(&mut self, lo: Real, hi: Real) -> Real {
        lo + (hi - lo) * self.unit()
    }
    /// A vector with components in `[lo, hi]`.
    pub fn vector<const D: usize>(&mut self, lo: Real, hi: Real) -> Vector<D> {
        Vector::<D>::from_fn(|_, _| self.range(lo, hi))
    }
    /// The bytes not read yet.
    pub fn rest(&self) -> &'a [u8] {
        self.data.get(self.at..).unwrap_or(&[])
    }
}

/// A rigid pose: translation in `[-reach, reach]` per axis, any rotation (angle or scaled
/// axis up to about pi, built as the cross product of two random vectors).
pub fn pose<const D: usize>(b: &mut Bytes, reach: Real) -> Pose<D>
where
    Space<D>: Dim<D>,
{
    let t = b.vector::<D>(-reach, reach);
    let (u, v) = (b.vector::<D>(-1.8, 1.8), b.vector::<D>(-1.8, 1.8));
    let r = Space::<D>::rotation_from_scaled_axis(&Space::<D>::cross(&u, &v));
    Pose::<D>::from_parts(t.into(), r)
}

/// A shape tree of at most `depth` operator levels, sizes 0.05 to 2 m. Constructors that
/// reject the decoded values fall back to a ball, so every input gives a valid tree.
pub fn shape<const D: usize>(b: &mut Bytes, depth: u32) -> Shape<D>
where
    Space<D>: Dim<D>,
{
    let fallback = || Shape::ball(0.5).expect("a valid radius");
    let size = |b: &mut Bytes| b.range(0.05, 2.0);
    let leaf = depth == 0;
    let pick = b.byte() % if leaf { 4 } else { 12 };
    let made = match pick {
        0 => Shape::ball(size(b)),
        1 => Shape::cuboid(b.vector::<D>(0.05, 2.0)),
        2 => {
            let r = b.range(0.0, 0.3);
            Shape::rounded_cuboid(b.vector::<D>(0.05, 2.0), r)
        }
        3 => Shape::capsule(size(b), size(b)),
        4 => shape(b, depth - 1).transformed(pose(b, 1.5)),
        5 => shape(b, depth - 1).scaled(b.range(0.2, 3.0)),
        6 => shape(b, depth - 1).rounded(b.range(0.0, 0.3)),
        7 => shape(b, depth - 1).shell(b.range(0.02, 0.3)),
        8 => Shape::union_all(vec![shape(b, depth - 1), shape(b, depth - 1)]),
        9 => Shape::intersection_all(vec![shape(b, depth - 1), shape(b, depth - 1)]),
        10 => shape(b, depth - 1).difference(shape(b, depth - 1)),
        _ => shape(b, depth - 1).smooth_union(shape(b, depth - 1), b.range(0.01, 0.5)),
    };
    made.unwrap_or_else(|_| fallback())
}

fn finite_vec<const D: usize>(what: &str, v: &Vector<D>) -> Result<(), String> {
    if is_finite_vec(v) {
        Ok(())
    } else {
        Err(format!("{what} is not finite: {v:?}"))
    }
}

fn unit_vec<const D: usize>(what: &str, v: &Vector<D>) -> Result<(), String> {
    finite_vec(what, v)?;
    // f32 normalisation of a finite gradient: a few ulps off unit length.
    if (v.norm() - 1.0).abs() < 1e-3 {
        Ok(())
    } else {
        Err(format!(
            "{what} is not a unit vector: |{v:?}| = {}",
            v.norm()
        ))
    }
}

/// The narrowphase invariants for one pair at finite poses: no panic, every query
/// answers (`Unsupported` pairs excepted), outputs finite, normals unit, and
/// `intersects` consistent with `penetration`.
pub fn check_pair<const D: usize>(
    a: &Shape<D>,
    pose_a: &Pose<D>,
    b: &Shape<D>,
    pose_b: &Pose<D>,
) -> Result<(), String>
where
    Space<D>: Dim<D>,
{
    use fathom_narrowphase::{contacts, distance, intersects, penetration, NarrowphaseError};
    let opts = ContactOptions::default();
    let (da, db) = (a as &dyn Sdf<D>, b as &dyn Sdf<D>);
    // Typed refusals that finite input may still get: a pair of kinds without a query, and
    // an empty solid (an intersection of disjoint parts has empty bounds).
    let empty = a.bounds().is_empty() || b.bounds().is_empty();
    let answer = |e: NarrowphaseError| match e {
        NarrowphaseError::Unsupported { .. } => Ok(None),
        NarrowphaseError::InvalidShape { .. } if empty => Ok(None),
        other => Err(format!("finite input rejected: {other}")),
    };
    let Some(hit) = intersects(da, pose_a, db, pose_b, &opts)
        .map(Some)
        .or_else(answer)?
    else {
        return Ok(());
    };
    let pen = penetration(da, pose_a, db, pose_b, &opts).map_err(|e| e.to_string())?;
    if let Some(d) = &pen.deepest {
        if !(d.depth.is_finite() && d.depth >= 0.0) {
            return Err(format!(
                "penetration depth {} is not finite and >= 0",
                d.depth
            ));
        }
        unit_vec("penetration normal", &d.normal)?;
        finite_vec("penetration point_a", &d.point_a)?;
        finite_vec("penetration point_b", &d.point_b)?;
    }
    let budget = hit.stats.hit_budget || pen.stats.hit_budget;
    if !budget && hit.intersecting && pen.deepest.is_none() {
        return Err("intersects found an overlap that penetration did not".into());
    }
    // A penetration deeper than the search's smallest cell (2% of the smaller shape's
    // bounding radius, at most 2% of 2 m here, so 0.05 m is safely above it) is an overlap
    // intersects cannot miss.
    if !budget && !hit.intersecting && pen.deepest.is_some_and(|d| d.depth > 0.05) {
        return Err(format!(
            "penetration found depth {} but intersects found no overlap",
            pen.deepest.map_or(0.0, |d| d.depth)
        ));
    }
    let dist = match distance(da, pose_a, db, pose_b, &opts) {
        Ok(d) => d,
        // A shape with no solid (a ball minus itself) has no distance: a typed refusal,
        // which only a pair that does not overlap may get.
        Err(NarrowphaseError::NoSolid) if !hit.intersecting => return Ok(()),
        Err(e) => return Err(e.to_string()),
    };
    // Finite, not necessarily >= 0: see `distance_is_never_negative_regression` in
    // tests/proptest_narrowphase.rs for the sign.
    if !dist.distance.is_finite() {
        return Err(format!("distance {} is not finite", dist.distance));
    }
    finite_vec("distance point_a", &dist.point_a)?;
    finite_vec("distance point_b", &dist.point_b)?;
    let found = contacts(da, pose_a, db, pose_b, &opts).map_err(|e| e.to_string())?;
    for m in &found.manifolds {
        unit_vec("manifold normal", &m.normal)?;
        for p in &m.points {
            finite_vec("contact point_a", &p.point_a)?;
            finite_vec("contact point_b", &p.point_b)?;
            if !p.depth.is_finite() {
                return Err(format!("contact depth {} is not finite", p.depth));
            }
        }
    }
    Ok(())
}

/// The cast invariants for one finite cast against a posed shape: no panic, no error,
/// a hit within `[0, max_dist]` with finite points and a unit normal, a step cap that
/// proved no more than was asked.
pub fn check_cast<const D: usize>(
    target: &Shape<D>,
    pose: &Pose<D>,
    b: &mut Bytes,
) -> Result<(), String>
where
    Space<D>: Dim<D>,
{
    let origin = b.vector::<D>(-4.0, 4.0);
    let mut dir = b.vector::<D>(-1.0, 1.0);
    if dir.norm() < 1e-3 {
        dir[0] = 1.0;
    }
    let max_dist = b.range(0.0, 10.0);
    let radius = b.range(0.0, 0.5);
    let shape = match b.byte() % 3 {
        0 => CastShape::ray(),
        1 => CastShape::Ball { radius },
        _ => CastShape::Capsule {
            half_axis: b.vector::<D>(-0.5, 0.5),
            radius,
        },
    };
    let opts = CastOptions::default();
    let result = fathom_ccd::cast_posed(target, pose, &shape, &origin, &dir, max_dist, &opts)
        .map_err(|e| format!("finite cast rejected: {e}"))?;
    match result {
        CastResult::Hit {
            distance,
            fraction,
            center,
            point,
            normal,
            ..
        } => {
            // The march stops within epsilon (1e-3 m) of the surface; f32 sums along a
            // path of up to 10 m add a few ulps.
            if !(distance >= 0.0 && distance <= max_dist + 1e-3 && fraction.is_finite()) {
                return Err(format!("hit distance {distance} outside [0, {max_dist}]"));
            }
            finite_vec("hit center", &center)?;
            finite_vec("hit point", &point)?;
            unit_vec("hit normal", &normal)
        }
        CastResult::StartedInside {
            point,
            normal,
            depth,
        } => {
            finite_vec("inside point", &point)?;
            unit_vec("inside normal", &normal)?;
            if depth.is_finite() && depth >= 0.0 {
                Ok(())
            } else {
                Err(format!("inside depth {depth} not finite and >= 0"))
            }
        }
        CastResult::StepCap {
            distance_reached, ..
        } => {
            if distance_reached.is_finite() && distance_reached <= max_dist + 1e-3 {
                Ok(())
            } else {
                Err(format!("step cap reached {distance_reached} of {max_dist}"))
            }
        }
        CastResult::Miss { .. } => Ok(()),
    }
}

/// A small valid scene of every body kind, collider option and joint, as text: the seed
/// that mutation starts from.
pub fn seed_scene_text<const D: usize>() -> String
where
    Space<D>: Dim<D>,
{
    use fathom_world::{BodyDesc, ColliderDesc, JointDesc, SceneJoint};
    let mut half = Vector::<D>::repeat(5.0);
    half[1] = 0.5;
    let mut up = Vector::<D>::zeros();
    up[1] = 1.0;
    let scene = Scene::<D> {
        bodies: vec![
            BodyDesc::fixed().collider(ColliderDesc::new(Shape::cuboid(half).unwrap())),
            BodyDesc::dynamic().position(up * 2.0).collider(
                ColliderDesc::new(Shape::capsule(0.3, 0.2).unwrap())
                    .friction(0.4)
                    .restitution(0.2),
            ),
            BodyDesc::kinematic().position(up * 4.0).collider(
                ColliderDesc::new(
                    Shape::ball(0.3)
                        .unwrap()
                        .smooth_union(Shape::cuboid(Vector::repeat(0.2)).unwrap(), 0.1)
                        .unwrap(),
                )
                .sensor(true),
            ),
        ],
        joints: vec![SceneJoint {
            body_a: 0,
            body_b: 1,
            joint: JointDesc::default(),
        }],
        ..Scene::default()
    };
    scene.to_ron_string().expect("a scene always serialises")
}

/// `seed` with edits decoded from `b`: bytes replaced, deleted, inserted (from a set of RON
/// punctuation, digits and words that matter: `NaN`, `inf`, `-1e30`, ...) or the text cut.
pub fn mutate_text(seed: &str, b: &mut Bytes) -> String {
    const PIECES: &[&str] = &[
        "(",
        ")",
        "[",
        "]",
        ",",
        ":",
        "\"",
        "-",
        ".",
        "0",
        "1e30",
        "-1e30",
        "NaN",
        "inf",
        "-inf",
        "0.0",
        "-1.0",
        "Ball",
        "Cuboid",
        "Torus",
        "Union",
        "Static",
        "None",
        "Some(",
        "bodies",
        "joints",
        "shape",
        "radius",
        "1.5e-45",
        "18446744073709551616",
    ];
    let mut text: Vec<u8> = seed.as_bytes().to_vec();
    let edits = b.byte() % 8 + 1;
    for _ in 0..edits {
        if text.is_empty() {
            break;
        }
        let at = usize::from(u16::from_le_bytes([b.byte(), b.byte()])) % text.len();
        match b.byte() % 4 {
            0 => text[at] = b.byte(),
            1 => {
                text.remove(at);
            }
            2 => {
                let piece = PIECES[usize::from(b.byte()) % PIECES.len()];
                text.splice(at..at, piece.bytes());
            }
            _ => text.truncate(at),
        }
    }
    String::from_utf8_lossy(&text).into_owned()
}

/// Loads scene text the way `fathom run` does (parse, validate, build) and, when it builds,
/// steps it twice: nothing may panic and every body must stay finite.
pub fn load_scene<const D: usize>(text: &str) -> Result<(), String>
where
    Space<D>: Dim<D>,
{
    let Ok(scene) = Scene::<D>::from_ron_str(text) else {
        return Ok(());
    };
    if scene.validate().is_err() {
        return Ok(());
    }
    // Keep a fuzzed scene small enough to step quickly.
    if scene.bodies.len() > 16 {
        return Ok(());
    }
    let Ok(mut world) = scene.build() else {
        return Ok(());
    };
    for _ in 0..2 {
        world.step();
    }
    world_is_finite(&world)
}

/// Every body's pose and velocities are finite.
pub fn world_is_finite<const D: usize>(world: &World<D>) -> Result<(), String>
where
    Space<D>: Dim<D>,
{
    for (h, b) in world.bodies() {
        let finite = is_finite_vec(&b.position())
            && is_finite_vec(&b.linear_velocity())
            && Space::<D>::ang_is_finite(&b.angular_velocity());
        if !finite {
            return Err(format!("body {h:?} is not finite"));
        }
    }
    Ok(())
}

/// Restores a snapshot from bytes three ways (as given, as a payload under a correct
/// header, as RON text) into a stepped world; an error must leave the world's state hash
/// as it was, a success must step twice with finite bodies.
pub fn load_snapshot<const D: usize>(data: &[u8]) -> Result<(), String>
where
    Space<D>: Dim<D>,
{
    let mut world = seed_world::<D>();
    let hash = world.state_hash();
    let reheaded = with_header::<D>(&world.snapshot(), data);
    let text = String::from_utf8_lossy(data).into_owned();
    let attempts: [&dyn Fn(&mut World<D>) -> bool; 3] = [
        &|w| w.restore(data).is_ok(),
        &|w| w.restore(&reheaded).is_ok(),
        &|w| w.restore_ron(&text).is_ok(),
    ];
    for attempt in attempts {
        if attempt(&mut world) {
            for _ in 0..2 {
                world.step();
            }
            world_is_finite(&world)?;
            world = seed_world::<D>();
        } else if world.state_hash() != hash {
            return Err("a failed restore changed the world".into());
        }
    }
    Ok(())
}

/// The seed scene's world after a few steps (contacts cached, joints warm).
pub fn seed_world<const D: usize>() -> World<D>
where
    Space<D>: Dim<D>,
{
    let scene = Scene::<D>::from_ron_str(&seed_scene_text::<D>()).expect("the seed parses");
    let mut w = scene.build().expect("the seed builds");
    for _ in 0..3 {
        w.step();
    }
    w
}

/// `payload` behind the header of `valid` (a real snapshot) with the length and checksum
/// fixed up, so the decoder itself (not the checksum) meets the bytes.
pub fn with_header<const D: usize>(valid: &[u8], payload: &[u8]) -> Vec<u8> {
    let mut h = fathom_world::Fnv1a::default();
    h.write(payload);
    let mut out = valid[..16].to_vec();
    out.extend_from_slice(&(payload.len() as u64).to_le_bytes());
    out.extend_from_slice(&h.finish().to_le_bytes());
    out.extend_from_slice(payload);
    out
}
