//! Capsule casts against general fields end at the crossing, not anywhere within the cast's
//! epsilon of it (`march.rs`, `Refine`, with the segment search as the certificate). Scenes of
//! CSG bodies (unions of posed balls, boxes and capsules: exact distances outside, so the
//! first contact is the union's) against an f64 oracle built from the convex parts, at random
//! and at grazing incidence (cos < 0.05), in 2D and 3D.
mod common;

use common::{convex_first_root, golden_min, Rng};
use fathom_ccd::{cast_candidates, CastOptions, CastResult, CastShape};
use fathom_math::{Dim, Pose, Real, Space, Vector};
use fathom_sdf::{Sdf, Shape, ShapeKind};
use nalgebra::{SMatrix, SVector};

type V64<const D: usize> = SVector<f64, D>;

/// How far past the start the casts look, metres.
const MAX_DIST: Real = 10.0;

/// The casts' epsilon ([`CastOptions::default`]), metres.
const EPSILON: f64 = 1e-3;

/// Bodies per scene.
const BODIES: usize = 3;

/// A convex part in f64, placed in the world (`rot`, `at`): the oracle's view of a primitive.
#[derive(Clone, Copy, Debug)]
enum Kind<const D: usize> {
    Ball(f64),
    Cuboid(V64<D>),
    /// Along the part's y axis, as [`Shape::capsule`].
    Capsule {
        half_height: f64,
        radius: f64,
    },
}

#[derive(Clone, Copy, Debug)]
struct Part<const D: usize> {
    kind: Kind<D>,
    rot: SMatrix<f64, D, D>,
    at: V64<D>,
}

impl<const D: usize> Part<D> {
    /// The exact distance from `p` (world, f64) to the part.
    fn distance(&self, p: &V64<D>) -> f64 {
        let q = self.rot.transpose() * (p - self.at);
        match self.kind {
            Kind::Ball(r) => q.norm() - r,
            Kind::Cuboid(h) => {
                let e = q.abs() - h;
                e.map(|x| x.max(0.0)).norm() + e.max().min(0.0)
            }
            Kind::Capsule {
                half_height,
                radius,
            } => {
                let mut c = V64::<D>::zeros();
                c[1] = q[1].clamp(-half_height, half_height);
                (q - c).norm() - radius
            }
        }
    }
}

/// A cast in f64: the capsule's centre, direction (unit), half axis and radius.
#[derive(Clone, Copy, Debug)]
struct Cast64<const D: usize> {
    origin: V64<D>,
    dir: V64<D>,
    half_axis: V64<D>,
    radius: f64,
}

impl<const D: usize> Cast64<D> {
    /// The exact gap of the capsule at `t` to a convex part (the distance to a convex set is
    /// convex along the segment), with the segment parameter of the closest point.
    fn gap(&self, part: &Part<D>, t: f64) -> (f64, f64) {
        let c = self.origin + self.dir * t;
        let (s, g) = golden_min(-1.0, 1.0, |s| part.distance(&(c + self.half_axis * s)));
        (g - self.radius, s)
    }

    /// The first contact with a part along the cast (the gap is convex in `t` for a
    /// translating capsule and a convex part), and the smallest gap on the way.
    fn first_contact(&self, part: &Part<D>) -> (Option<f64>, f64) {
        convex_first_root(MAX_DIST as f64, |t| self.gap(part, t).0)
    }

    /// The cosine of the incidence at `t` on `part`: minus the gap's rate along the cast.
    fn incidence(&self, part: &Part<D>, t: f64) -> f64 {
        let h = 1e-6;
        -(self.gap(part, t + h).0 - self.gap(part, t - h).0) / (2.0 * h)
    }
}

/// The oracle's first contact: the body, the distance, the cosine of the incidence, and the
/// next body's first contact (a near tie may go either way).
#[derive(Clone, Copy, Debug)]
struct Contact {
    body: usize,
    t: f64,
    cos: f64,
    runner_up: f64,
    /// Some part the cast passes within the march's epsilon of without entering it: a hit by
    /// the cast's definition ([`CastOptions::epsilon`]), not a crossing to compare.
    near_miss: bool,
}

/// A scene: its fields (body frame) and poses, and the oracle's parts per body (world frame).
struct Scene<const D: usize>
where
    Space<D>: Dim<D>,
{
    shapes: Vec<Shape<D>>,
    poses: Vec<Pose<D>>,
    parts: Vec<Vec<Part<D>>>,
}

fn rotation64<const D: usize>(pose: &Pose<D>) -> SMatrix<f64, D, D>
where
    Space<D>: Dim<D>,
{
    Space::<D>::rotation_matrix(&pose.rotation).cast::<f64>()
}

/// A random convex primitive and its f64 twin in its own frame.
fn primitive<const D: usize>(rng: &mut Rng) -> (Shape<D>, Kind<D>)
where
    Space<D>: Dim<D>,
{
    match rng.next_u64() % 3 {
        0 => {
            let r = rng.range(0.25, 0.7);
            (Shape::ball(r).unwrap(), Kind::Ball(r as f64))
        }
        1 => {
            let h = Vector::<D>::from_fn(|_, _| rng.range(0.15, 0.6));
            (Shape::cuboid(h).unwrap(), Kind::Cuboid(h.cast::<f64>()))
        }
        _ => {
            let (hh, r) = (rng.range(0.2, 0.6), rng.range(0.1, 0.35));
            let kind = Kind::Capsule {
                half_height: hh as f64,
                radius: r as f64,
            };
            (Shape::capsule(hh, r).unwrap(), kind)
        }
    }
}

/// Three bodies, each a union of two or three posed primitives, posed within 1.3 m of the
/// origin.
fn scene<const D: usize>(rng: &mut Rng) -> Scene<D>
where
    Space<D>: Dim<D>,
{
    let mut out = Scene {
        shapes: Vec::new(),
        poses: Vec::new(),
        parts: Vec::new(),
    };
    for _ in 0..BODIES {
        let body = rng.pose::<D>(1.3);
        let (body_rot, body_at) = (rotation64(&body), body.translation.vector.cast::<f64>());
        let mut shapes = Vec::new();
        let mut parts = Vec::new();
        for _ in 0..2 + rng.next_u64() % 2 {
            let (shape, kind) = primitive::<D>(rng);
            let local = rng.pose::<D>(0.5);
            let at = body_at + body_rot * local.translation.vector.cast::<f64>();
            let rot = body_rot * rotation64(&local);
            shapes.push(shape.transformed(local).unwrap());
            parts.push(Part { kind, rot, at });
        }
        let shape = Shape::union_all(shapes).unwrap();
        assert_eq!(
            shape.kind(),
            ShapeKind::General,
            "a field without closed form"
        );
        out.shapes.push(shape);
        out.poses.push(body);
        out.parts.push(parts);
    }
    out
}

impl<const D: usize> Scene<D>
where
    Space<D>: Dim<D>,
{
    /// The smallest gap of the capsule to any part at `t`.
    fn gap(&self, cast: &Cast64<D>, t: f64) -> f64 {
        self.parts
            .iter()
            .flatten()
            .map(|p| cast.gap(p, t).0)
            .fold(f64::INFINITY, f64::min)
    }

    /// The first contact along the cast, `None` when the cast misses everything.
    fn first_contact(&self, cast: &Cast64<D>) -> Option<Contact> {
        let mut firsts: Vec<(f64, usize, &Part<D>)> = Vec::new();
        let mut near_miss = false;
        for (body, parts) in self.parts.iter().enumerate() {
            let mut first: Option<(f64, usize, &Part<D>)> = None;
            for p in parts {
                match cast.first_contact(p) {
                    (Some(t), _) if first.is_none_or(|f| t < f.0) => first = Some((t, body, p)),
                    (None, gap) => near_miss |= gap <= 1.1 * EPSILON,
                    _ => {}
                }
            }
            firsts.extend(first);
        }
        firsts.sort_by(|a, b| a.0.total_cmp(&b.0));
        let &(t, body, part) = firsts.first()?;
        Some(Contact {
            body,
            t,
            cos: cast.incidence(part, t),
            runner_up: firsts.get(1).map_or(f64::INFINITY, |f| f.0),
            near_miss,
        })
    }

    /// The same path moved sideways so that it dips `depth` into the part it first hits
    /// (its smallest gap along the path becomes `-depth`): a grazing entry. `None` when the
    /// path meets the part head-on through its closest approach.
    fn grazing(&self, cast: &Cast64<D>, depth: f64) -> Option<Cast64<D>> {
        let contact = self.first_contact(cast)?;
        let part = self.parts[contact.body]
            .iter()
            .find(|p| cast.first_contact(p).0 == Some(contact.t))?;
        let (tm, dip) = golden_min(0.0, MAX_DIST as f64, |t| cast.gap(part, t).0);
        // Away from the part, across the path: the outward normal at the closest point.
        let s = cast.gap(part, tm).1;
        let p = cast.origin + cast.dir * tm + cast.half_axis * s;
        let n = V64::<D>::from_fn(|i, _| {
            let mut e = V64::<D>::zeros();
            e[i] = 1e-6;
            (part.distance(&(p + e)) - part.distance(&(p - e))) / 2e-6
        });
        let side = (n - cast.dir * n.dot(&cast.dir)).try_normalize(1e-3)?;
        let moved = |by: f64| Cast64 {
            origin: cast.origin + side * by,
            ..*cast
        };
        // To first order the smallest gap grows by the shift times the normal's part across
        // the path (exactly, for a path in the plane of a ball's centre); convexity in the
        // path's offset makes the dip at most `depth`, and the oracle measures what it is.
        Some(moved((-dip - depth) / n.dot(&side)))
    }
}

/// A random capsule cast from 3.5-5 m out towards a point within 1 m of the origin; every
/// fourth a segment (radius 0).
fn random_cast<const D: usize>(rng: &mut Rng, k: usize) -> Cast64<D> {
    let origin = rng.unit::<D>() * rng.range(3.5, 5.0);
    let dir = (rng.vector::<D>(1.0) - origin).cast::<f64>().normalize();
    let half_axis = rng.unit::<D>() * rng.range(0.1, 0.8);
    let radius = if k % 4 == 0 {
        0.0
    } else {
        rng.range(0.05, 0.3)
    };
    Cast64 {
        origin: origin.cast::<f64>(),
        dir,
        half_axis: half_axis.cast::<f64>(),
        radius: radius as f64,
    }
}

/// The f32 cast the oracle's cast stands for (rounded once; the oracle then uses the rounded
/// values so both see the same cast).
fn rounded<const D: usize>(c: &Cast64<D>) -> (Cast64<D>, Vector<D>, Vector<D>, CastShape<D>) {
    let (o, d, a) = (
        c.origin.cast::<Real>(),
        c.dir.cast::<Real>(),
        c.half_axis.cast::<Real>(),
    );
    let shape = CastShape::Capsule {
        half_axis: a,
        radius: c.radius as Real,
    };
    let exact = Cast64 {
        origin: o.cast::<f64>(),
        dir: c.dir,
        half_axis: a.cast::<f64>(),
        radius: c.radius as Real as f64,
    };
    (exact, o, d, shape)
}

/// The f32 round-off of the field near the surface, metres of gap: the cast's start is
/// carried into the body's frame and then each part's (two f32 transforms of coordinates up
/// to 5 m, a few ulps of 4.8e-7 m each) before a part's distance is taken.
const ROUNDOFF: f64 = 3e-6;

/// The hit distance's allowed error, metres, at incidence `cos`: the refinement brackets
/// the crossing to 2e-6 of the scene's scale (under 5 m here: 1e-5 m), and the field's
/// round-off moves the crossing by that over the cosine.
fn tolerance(cos: f64) -> f64 {
    1e-5 + ROUNDOFF / cos
}

/// Incidences below this are reported, not asserted: the f32 field's round-off alone moves
/// the crossing by 1e-6 / cos (over 1e-4 m), and a grazing refinement may stop at the
/// march's end (see `march.rs`, `Refine::graze`), never past the surface.
const EXTREME: f64 = 0.01;

/// Worst errors seen, for the report.
#[derive(Default)]
struct Tally {
    casts: usize,
    worst: f64,
    worst_grazing: f64,
    grazing: usize,
    extreme: usize,
    worst_extreme: f64,
}

/// Casts `cast` through the scene and checks it against the oracle.
fn check<const D: usize>(scene: &Scene<D>, c: &Cast64<D>, tally: &mut Tally) -> bool
where
    Space<D>: Dim<D>,
{
    let (c, o, d, shape) = rounded(c);
    if scene.gap(&c, 0.0) < 0.01 {
        return false; // starts (nearly) inside: not a cast to refine
    }
    let Some(want) = scene.first_contact(&c) else {
        return false;
    };
    if want.runner_up - want.t < 1e-4 || want.cos <= 0.0 || want.near_miss {
        return false; // a near tie of two bodies, a touch that never enters, or a near miss
    }
    let candidates: Vec<(&dyn Sdf<D>, Pose<D>)> = scene
        .shapes
        .iter()
        .zip(&scene.poses)
        .map(|(s, p)| (s as &dyn Sdf<D>, *p))
        .collect();
    let got = cast_candidates(
        &candidates,
        &shape,
        &o,
        &d,
        MAX_DIST,
        &CastOptions::default(),
    )
    .unwrap();
    let case = format!("{D}D {c:?}: want {want:?}, got {got:?}");
    let Some((body, CastResult::Hit { distance, .. })) = got.earliest else {
        panic!("{case}");
    };
    assert_eq!(body, want.body, "{case}: another body");
    let t = distance as f64;
    let err = t - want.t;
    // Never past the surface: the capsule's gap at the reported distance is not below the
    // f32 round-off of the field.
    let gap = scene.gap(&c, t);
    assert!(gap >= -ROUNDOFF, "{case}: past the surface by {gap:e}");
    if want.cos < EXTREME {
        // Below it only the safety above is asserted: see `EXTREME`.
        tally.extreme += 1;
        tally.worst_extreme = tally.worst_extreme.max(err.abs());
        return true;
    }
    assert!(err.abs() <= tolerance(want.cos), "{case}: off by {err:e}");
    tally.casts += 1;
    if want.cos < 0.05 {
        tally.grazing += 1;
        tally.worst_grazing = tally.worst_grazing.max(err.abs());
    } else {
        tally.worst = tally.worst.max(err.abs());
    }
    true
}

fn csg_scenes<const D: usize>(seed: u64)
where
    Space<D>: Dim<D>,
{
    let mut rng = Rng::new(seed);
    let mut tally = Tally::default();
    let mut k = 0;
    while tally.casts < 200 || tally.grazing < 100 {
        let scene = scene::<D>(&mut rng);
        for _ in 0..4 {
            k += 1;
            let c = random_cast::<D>(&mut rng, k);
            check(&scene, &c, &mut tally);
            // Depths of 1e-6 to 1e-3 m give cosines of about 0.002 to 0.06 on these curvatures.
            let depth = 10f64.powf(rng.range(-6.0, -3.0) as f64);
            if let Some(g) = scene.grazing(&rounded(&c).0, depth) {
                check(&scene, &g, &mut tally);
            }
        }
        assert!(k < 4_000, "{D}D: too few usable casts");
    }
    println!(
        "{D}D CSG scenes: {} capsule casts, worst hit distance error {:e} m at cos >= 0.05; \
         {} of them grazing (0.01 <= cos < 0.05), worst {:e} m; {} at cos < 0.01 (not asserted), worst {:e} m",
        tally.casts,
        tally.worst,
        tally.grazing,
        tally.worst_grazing,
        tally.extreme,
        tally.worst_extreme
    );
}

#[test]
fn capsule_casts_against_csg_scenes_match_the_oracle() {
    csg_scenes::<2>(181);
    csg_scenes::<3>(182);
}
