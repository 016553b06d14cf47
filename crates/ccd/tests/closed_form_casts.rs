//! Closed-form casts against an f64 brute-force oracle: random scenes of balls, boxes,
//! capsules and a half-space, in 2D and 3D, swept by rays, balls and capsules, head-on to
//! grazing (cos of the incidence down to 1e-3). The cast must name the body the oracle hits
//! first, at its distance to within 1e-5 m, and never past the surface.
//!
//! The oracle knows nothing of the Minkowski sums the casts use: it evaluates each body's
//! signed distance in f64 (from the same f32 poses), minimises it over the capsule's core by
//! golden-section search (the distance to a convex body is convex along a segment) and finds
//! the first crossing of the gap along the cast by bisection (the gap is convex in the
//! distance travelled, so it falls to its minimum and rises after).
mod common;

use common::Rng;
use fathom_ccd::{cast_candidates, CastOptions, CastResult, CastShape};
use fathom_math::{Dim, Pose, Real, Space, Vector};
use fathom_sdf::{Sdf, Shape};
use nalgebra::{SMatrix, SVector};

type V64<const D: usize> = SVector<f64, D>;

/// The hit distance's allowed error, metres (the bar; the casts run in f64 and round
/// the result down to f32, some 5e-7 m at the 8 m these casts travel).
const TOL: f64 = 1e-5;

/// How far past the surface a hit may be, metres: f64 round-off. At a tangent the crossing
/// is ill-conditioned: the line's offset is known to ~1e-15 m at these sizes, which moves a
/// tangent crossing by ~sqrt(2 R 1e-15), 1e-7 m, in the oracle and the casts alike.
const PAST: f64 = 1e-6;

/// Below this cosine of the incidence a hit counts as grazing.
const GRAZING: f64 = 0.05;

/// Casts per dimension and cast shape.
const CASTS: usize = 200;

#[derive(Clone, Copy, Debug)]
enum Prim<const D: usize> {
    Ball(f64),
    Cuboid(V64<D>),
    /// Half height along local y, radius.
    Capsule(f64, f64),
    /// `n · p <= offset`.
    HalfSpace(V64<D>, f64),
}

impl<const D: usize> Prim<D> {
    /// The exact signed distance, f64.
    fn signed(&self, p: &V64<D>) -> f64 {
        match self {
            Self::Ball(r) => p.norm() - r,
            Self::Cuboid(h) => {
                let q = p.abs() - h;
                q.map(|x| x.max(0.0)).norm() + q.max().min(0.0)
            }
            Self::Capsule(h, r) => {
                let mut on_axis = V64::<D>::zeros();
                on_axis[1] = p[1].clamp(-h, *h);
                (p - on_axis).norm() - r
            }
            Self::HalfSpace(n, o) => n.dot(p) - o,
        }
    }
}

struct Body<const D: usize>
where
    Space<D>: Dim<D>,
{
    prim: Prim<D>,
    shape: Shape<D>,
    pose: Pose<D>,
    rotation: SMatrix<f64, D, D>,
    shift: V64<D>,
    /// A bound on the body's extent from its origin (infinite for the half-space).
    extent: f64,
}

impl<const D: usize> Body<D>
where
    Space<D>: Dim<D>,
{
    fn new(prim: Prim<D>, pose: Pose<D>) -> Self {
        let f = |x: f64| x as Real;
        let (shape, extent) = match prim {
            Prim::Ball(r) => (Shape::ball(f(r)), r),
            Prim::Cuboid(h) => (Shape::cuboid(h.map(f)), h.norm()),
            Prim::Capsule(h, r) => (Shape::capsule(f(h), f(r)), h + r),
            Prim::HalfSpace(n, o) => (Shape::half_space(n.map(f), f(o)), f64::INFINITY),
        };
        // The oracle's shape is the f32 one the engine holds.
        let prim = match prim {
            Prim::Ball(r) => Prim::Ball(f(r) as f64),
            Prim::Cuboid(h) => Prim::Cuboid(h.map(|x| f(x) as f64)),
            Prim::Capsule(h, r) => Prim::Capsule(f(h) as f64, f(r) as f64),
            Prim::HalfSpace(n, o) => Prim::HalfSpace(n.map(|x| f(x) as f64), f(o) as f64),
        };
        Self {
            prim,
            shape: shape.unwrap(),
            pose,
            rotation: Space::<D>::rotation_matrix(&pose.rotation).cast(),
            shift: pose.translation.vector.cast(),
            extent,
        }
    }

    fn signed(&self, x: &V64<D>) -> f64 {
        self.prim
            .signed(&(self.rotation.transpose() * (x - self.shift)))
    }
}

/// A cast in f64: origin, unit direction, the capsule's half axis (zero for a ball), radius.
struct Cast<const D: usize> {
    origin: V64<D>,
    dir: V64<D>,
    half_axis: V64<D>,
    radius: f64,
}

/// The minimum of a convex function on `[lo, hi]` by golden-section search, and where.
fn golden(mut lo: f64, mut hi: f64, f: impl Fn(f64) -> f64) -> (f64, f64) {
    let g = 0.5 * (5f64.sqrt() - 1.0);
    let (mut a, mut b) = (hi - g * (hi - lo), lo + g * (hi - lo));
    let (mut fa, mut fb) = (f(a), f(b));
    for _ in 0..90 {
        if fa <= fb {
            hi = b;
            (b, fb) = (a, fa);
            a = hi - g * (hi - lo);
            fa = f(a);
        } else {
            lo = a;
            (a, fa) = (b, fb);
            b = lo + g * (hi - lo);
            fb = f(b);
        }
    }
    let ends = [(f(lo), lo), (f(hi), hi), (fa, a), (fb, b)];
    let best = ends.into_iter().min_by(|x, y| x.0.total_cmp(&y.0)).unwrap();
    (best.1, best.0)
}

impl<const D: usize> Cast<D> {
    /// The gap between the swept shape at distance `t` and the body.
    fn gap(&self, body: &Body<D>, t: f64) -> f64
    where
        Space<D>: Dim<D>,
    {
        let c = self.origin + self.dir * t;
        let core = if self.half_axis == V64::<D>::zeros() {
            body.signed(&c)
        } else {
            golden(-1.0, 1.0, |s| body.signed(&(c + self.half_axis * s))).1
        };
        core - self.radius
    }

    /// Whether the cast's line passes within the body's extent (a cheap cull).
    fn near(&self, body: &Body<D>, max: f64) -> bool
    where
        Space<D>: Dim<D>,
    {
        let w = body.shift - self.origin;
        let t = w.dot(&self.dir).clamp(0.0, max);
        (w - self.dir * t).norm() <= body.extent + self.half_axis.norm() + self.radius + 0.01
    }

    /// The first crossing of the body within `max`, and the closest approach's gap.
    fn crossing(&self, body: &Body<D>, max: f64) -> (Option<f64>, f64)
    where
        Space<D>: Dim<D>,
    {
        if !self.near(body, max) {
            return (None, f64::INFINITY);
        }
        let (t_min, g_min) = golden(0.0, max, |t| self.gap(body, t));
        if g_min > 0.0 {
            return (None, g_min);
        }
        let (mut lo, mut hi) = (0.0, t_min);
        for _ in 0..80 {
            let mid = 0.5 * (lo + hi);
            if self.gap(body, mid) > 0.0 {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        (Some(lo), g_min)
    }

    /// The cosine of the incidence at distance `t`: minus the gap's rate along the cast.
    fn incidence(&self, body: &Body<D>, t: f64) -> f64
    where
        Space<D>: Dim<D>,
    {
        let h = 1e-7;
        -(self.gap(body, t + h) - self.gap(body, t - h)) / (2.0 * h)
    }
}

/// A scene: a dozen primitives in a 10 m box and a tilted floor.
fn scene<const D: usize>(rng: &mut Rng) -> Vec<Body<D>>
where
    Space<D>: Dim<D>,
{
    let mut bodies = Vec::new();
    for k in 0..12 {
        let size = |rng: &mut Rng| rng.range(0.2, 1.2) as f64;
        let prim = match k % 3 {
            0 => Prim::Ball(size(rng)),
            1 => Prim::Cuboid(V64::<D>::from_fn(|_, _| size(rng))),
            _ => Prim::Capsule(size(rng), 0.5 * size(rng)),
        };
        bodies.push(Body::new(prim, rng.pose::<D>(5.0)));
    }
    let mut up = Vector::<D>::zeros();
    up[1] = 1.0;
    let n = (up + rng.vector::<D>(0.3)).normalize().cast::<f64>();
    bodies.push(Body::new(Prim::HalfSpace(n, -6.0), rng.pose::<D>(0.5)));
    bodies
}

/// The swept shape for cast `k`: a ray, a ball or a capsule.
fn cast_shape<const D: usize>(rng: &mut Rng, kind: usize) -> CastShape<D> {
    match kind {
        0 => CastShape::ray(),
        1 => CastShape::Ball {
            radius: rng.range(0.01, 0.4),
        },
        _ => CastShape::Capsule {
            half_axis: rng.unit::<D>() * rng.range(0.05, 0.6),
            radius: rng.range(0.0, 0.3),
        },
    }
}

/// A unit vector across `dir`.
fn across<const D: usize>(rng: &mut Rng, dir: &V64<D>) -> V64<D> {
    loop {
        let s = rng.unit::<D>().cast::<f64>();
        let s = s - dir * s.dot(dir);
        if s.norm() > 0.1 {
            return s.normalize();
        }
    }
}

/// A cast aimed at `body` from 3-8 m away: through its middle, or offset to just inside the
/// edge of what it can hit (the boundary found by bisection on the offset), a grazing pass.
fn aimed<const D: usize>(
    rng: &mut Rng,
    body: &Body<D>,
    shape: &CastShape<D>,
    graze: bool,
) -> (Vector<D>, Vector<D>)
where
    Space<D>: Dim<D>,
{
    let dir = rng.unit::<D>();
    let d = dir.cast::<f64>();
    let (half_axis, radius) = match *shape {
        CastShape::Ball { radius } => (V64::zeros(), radius as f64),
        CastShape::Capsule { half_axis, radius } => (half_axis.cast(), radius as f64),
    };
    let back = rng.range(3.0, 8.0) as f64;
    let (base, side) = match body.prim {
        // A point on the plane (below the scene's middle) and a direction across it.
        Prim::HalfSpace(..) => {
            let n = body.rotation * body.prim_normal();
            let below = body.shift + n * (n.dot(&-body.shift) + body.plane_offset());
            (below, across(rng, &n))
        }
        _ => (body.shift, across(rng, &d)),
    };
    let reach = if body.extent.is_finite() {
        body.extent + half_axis.norm() + radius + 0.1
    } else {
        0.0
    };
    let cast_at = |offset: f64| Cast {
        origin: base - d * back + side * offset,
        dir: d,
        half_axis,
        radius,
    };
    let offset = if !graze || reach == 0.0 {
        rng.range(0.0, 0.9) as f64 * reach * 0.3
    } else {
        let (mut lo, mut hi) = (0.0, reach);
        for _ in 0..50 {
            let mid = 0.5 * (lo + hi);
            let hits = golden(0.0, 2.0 * back + reach, |t| cast_at(mid).gap(body, t)).1 <= 0.0;
            if hits {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        lo * (1.0 - 10f64.powf(-rng.range(3.0, 6.5) as f64))
    };
    let origin = cast_at(offset).origin;
    (origin.map(|x| x as Real), dir)
}

impl<const D: usize> Body<D>
where
    Space<D>: Dim<D>,
{
    fn prim_normal(&self) -> V64<D> {
        match self.prim {
            Prim::HalfSpace(n, _) => n,
            _ => V64::zeros(),
        }
    }
    fn plane_offset(&self) -> f64 {
        match self.prim {
            Prim::HalfSpace(_, o) => o,
            _ => 0.0,
        }
    }
}

#[derive(Default, Debug)]
struct Tally {
    hits: usize,
    grazing: usize,
    worst: f64,
    worst_grazing: f64,
    /// Passes within epsilon of a body without crossing it, which the casts call hits.
    near_misses: usize,
}

fn run<const D: usize>(seed: u64, kind: usize) -> Tally
where
    Space<D>: Dim<D>,
{
    let mut rng = Rng::new(seed);
    let opts = CastOptions::default();
    let eps = opts.epsilon as f64;
    let max = 20.0;
    let mut tally = Tally::default();
    let mut done = 0;
    while done < CASTS {
        let bodies = scene::<D>(&mut rng);
        let list: Vec<(&dyn Sdf<D>, Pose<D>)> = bodies
            .iter()
            .map(|b| (&b.shape as &dyn Sdf<D>, b.pose))
            .collect();
        for _ in 0..20 {
            let shape = cast_shape::<D>(&mut rng, kind);
            let target = &bodies[rng.next_u64() as usize % bodies.len()];
            let graze = rng.next_u64() % 2 == 0;
            let (origin, dir) = aimed(&mut rng, target, &shape, graze);
            let cast = oracle_cast(&shape, &origin, &dir);
            // Starts overlapping or within epsilon of a body: not what this test is about.
            if bodies.iter().any(|b| cast.gap(b, 0.0) < 2.0 * eps) {
                continue;
            }
            done += 1;
            check(
                &bodies, &list, &cast, &shape, &origin, &dir, max, &opts, &mut tally,
            );
        }
    }
    tally
}

fn oracle_cast<const D: usize>(
    shape: &CastShape<D>,
    origin: &Vector<D>,
    dir: &Vector<D>,
) -> Cast<D> {
    let (half_axis, radius) = match *shape {
        CastShape::Ball { radius } => (V64::zeros(), radius as f64),
        CastShape::Capsule { half_axis, radius } => (half_axis.cast(), radius as f64),
    };
    Cast {
        origin: origin.cast(),
        dir: dir.cast::<f64>().normalize(),
        half_axis,
        radius,
    }
}

#[allow(clippy::too_many_arguments)]
fn check<const D: usize>(
    bodies: &[Body<D>],
    list: &[(&dyn Sdf<D>, Pose<D>)],
    cast: &Cast<D>,
    shape: &CastShape<D>,
    origin: &Vector<D>,
    dir: &Vector<D>,
    max: f64,
    opts: &CastOptions,
    tally: &mut Tally,
) where
    Space<D>: Dim<D>,
{
    let eps = opts.epsilon as f64;
    let first = bodies
        .iter()
        .enumerate()
        .filter_map(|(i, b)| cast.crossing(b, max).0.map(|t| (i, t)))
        .min_by(|a, b| a.1.total_cmp(&b.1));
    let got = cast_candidates(list, shape, origin, dir, max as Real, opts).unwrap();
    let case =
        format!("{D}D {shape:?} from {origin:?} along {dir:?}: oracle {first:?}, got {got:?}");
    let hit = match got.earliest {
        Some((i, CastResult::Hit { distance, .. })) => Some((i, distance as f64)),
        None => None,
        Some(other) => panic!("{case}: unexpected {other:?}"),
    };
    assert!(got.capped.is_empty(), "{case}: capped");
    match (first, hit) {
        (Some((i, t)), Some((j, u))) if i == j || (t - u).abs() <= TOL => {
            let j_gap = cast.gap(&bodies[j], u);
            assert!(j_gap >= -PAST, "{case}: past the surface by {j_gap}");
            let err = (u - t).abs();
            assert!(err <= TOL, "{case}: off by {err:e}");
            let cos = cast.incidence(&bodies[i], t);
            tally.hits += 1;
            tally.worst = tally.worst.max(err);
            if cos < GRAZING {
                tally.grazing += 1;
                tally.worst_grazing = tally.worst_grazing.max(err);
            }
        }
        // A pass within epsilon of a body before the oracle's crossing (or with none) is a
        // hit by the casts' rule: it must be within epsilon there, and not past the surface.
        (first, Some((j, u))) if first.is_none_or(|(_, t)| u <= t) => {
            let gap = cast.gap(&bodies[j], u);
            assert!(
                (-PAST..=eps).contains(&gap),
                "{case}: hit where the gap is {gap}"
            );
            tally.near_misses += 1;
        }
        (None, None) => {}
        _ => panic!("{case}: not the oracle's answer"),
    }
}

fn all_casts<const D: usize>(seed: u64)
where
    Space<D>: Dim<D>,
{
    for (kind, name) in ["rays", "balls", "capsules"].into_iter().enumerate() {
        let t = run::<D>(seed + kind as u64, kind);
        println!("{D}D {name}: {t:?}");
        // Half the casts graze; most of those pass below the grazing cosine.
        assert!(t.hits >= CASTS / 2, "{D}D {name}: only {} hits", t.hits);
        assert!(
            t.grazing >= CASTS / 10,
            "{D}D {name}: only {} grazing",
            t.grazing
        );
        assert!(
            t.near_misses <= CASTS / 20,
            "{D}D {name}: {} near misses",
            t.near_misses
        );
    }
}

#[test]
fn closed_form_casts_match_the_oracle_in_2d() {
    all_casts::<2>(100);
}

#[test]
fn closed_form_casts_match_the_oracle_in_3d() {
    all_casts::<3>(200);
}
