//! Ray and sphere casts end at the surface, not merely within the cast's epsilon of it: the
//! march's last step is refined to the crossing (`march.rs`, `Refine`). These cases have
//! closed forms (`tests/closed_form_casts.rs`), so the march is asked for by name here. Checked against the
//! analytic hit distance on random balls and boxes, head-on to near-grazing, in 2D and 3D.
mod common;

use common::Rng;
use fathom_ccd::{ray_cast, sphere_cast, CastOptions, CastResult};
use fathom_math::{Real, Vector};
use fathom_sdf::{Ball, Cuboid, Sdf};

/// The march, not the closed form these shapes have.
const MARCH: CastOptions = CastOptions {
    epsilon: 1e-3,
    max_steps: 512,
    max_evaluations: 65_536,
    clip_to_bounds: true,
    refine: true,
    closed_form: false,
};

/// Casts per dimension and shape.
const CASTS: usize = 300;

/// The hit distance's allowed error, metres: the refinement's 1e-5 of the hit point's
/// distance from the shape's origin (here under 2.6 m) plus f32 round-off of the field near
/// the surface (about 1e-6 at 8 m) over the cosine of the incidence (kept above 0.3).
const TOL: Real = 5e-5;

/// The distance along the cast, or a panic naming the case.
fn hit_distance<const D: usize>(r: &CastResult<D>, case: &str) -> (Real, Vector<D>) {
    match r {
        CastResult::Hit {
            distance, center, ..
        } => (*distance, *center),
        other => panic!("{case}: expected a hit, got {other:?}"),
    }
}

/// The first root of |o + t d|² = s² (unit d) in f64, the ray against a ball of radius `s`.
fn ball_entry<const D: usize>(o: &Vector<D>, d: &Vector<D>, s: Real) -> f64 {
    let (o, d) = (o.cast::<f64>(), d.cast::<f64>());
    let b = o.dot(&d);
    let c = o.norm_squared() - (s as f64).powi(2);
    -b - (b * b - c).sqrt()
}

/// A start 3-8 m from the origin and a unit direction passing the origin at `offset`
/// (its impact parameter).
fn aimed<const D: usize>(rng: &mut Rng, offset: Real) -> (Vector<D>, Vector<D>) {
    let dir = rng.unit::<D>();
    let mut side = rng.unit::<D>();
    side -= dir * side.dot(&dir);
    let side = side.try_normalize(1e-6).unwrap_or_else(|| {
        let mut e = Vector::<D>::zeros();
        e[if dir[0].abs() < 0.9 { 0 } else { 1 }] = 1.0;
        (e - dir * e.dot(&dir)).normalize()
    });
    let origin = side * offset - dir * rng.range(3.0, 8.0);
    (origin, dir)
}

fn balls<const D: usize>(seed: u64) {
    let mut rng = Rng::new(seed);
    let opts = MARCH;
    let mut worst: Real = 0.0;
    for k in 0..CASTS {
        let radius = rng.range(0.2, 2.0);
        let ball = Ball::new(radius).unwrap();
        // Rays and spheres alike; the impact parameter keeps cos(incidence) >= 0.31.
        let r = if k % 2 == 0 {
            0.0
        } else {
            rng.range(0.01, 0.3)
        };
        let offset = rng.range(0.0, 0.95 * (radius + r));
        let (origin, dir) = aimed::<D>(&mut rng, offset);
        let cast = if r == 0.0 {
            ray_cast(&ball, &origin, &dir, 20.0, &opts)
        } else {
            sphere_cast(&ball, &origin, &dir, r, 20.0, &opts)
        }
        .unwrap();
        let case = format!("{D}D ball {radius}, cast radius {r}, from {origin:?} along {dir:?}");
        let (t, center) = hit_distance(&cast, &case);
        let want = ball_entry(&origin, &dir, radius + r);
        let err = (t as f64 - want).abs() as Real;
        worst = worst.max(err);
        assert!(err <= TOL, "{case}: {t} against {want}");
        // Never past the surface (round-off of the field at 10 m aside).
        assert!(
            ball.distance(&center) - r >= -1e-5,
            "{case}: past the surface"
        );
    }
    println!("{D}D balls: worst hit distance error {worst:e} m");
}

/// The ray's entry into the box of half extents `h` (slabs), in f64, and the cosine of its
/// incidence on the face it enters.
fn box_entry<const D: usize>(h: &Vector<D>, o: &Vector<D>, d: &Vector<D>) -> (f64, f64) {
    let (mut t_in, mut cos) = (f64::NEG_INFINITY, 0.0);
    for i in 0..D {
        let (oi, di, hi) = (o[i] as f64, d[i] as f64, h[i] as f64);
        let t = if di > 0.0 {
            (-hi - oi) / di
        } else {
            (hi - oi) / di
        };
        if t > t_in {
            (t_in, cos) = (t, di.abs());
        }
    }
    (t_in, cos)
}

fn boxes<const D: usize>(seed: u64) {
    let mut rng = Rng::new(seed);
    let opts = MARCH;
    let (mut worst, mut checked): (Real, usize) = (0.0, 0);
    for _ in 0..CASTS {
        let h = Vector::<D>::from_fn(|_, _| rng.range(0.2, 1.5));
        let cuboid = Cuboid::new(h).unwrap();
        // Through a point well inside, from 3-8 m away.
        let target = h.component_mul(&Vector::<D>::from_fn(|_, _| rng.range(-0.8, 0.8)));
        let dir = rng.unit::<D>();
        let origin = target - dir * rng.range(3.0, 8.0);
        let (want, cos) = box_entry(&h, &origin, &dir);
        if cos < 0.3 {
            continue; // near grazing: the slab is ill-conditioned in f32, see `TOL`
        }
        checked += 1;
        let cast = ray_cast(&cuboid, &origin, &dir, 20.0, &opts).unwrap();
        let case = format!("{D}D box {h:?} from {origin:?} along {dir:?}");
        let (t, center) = hit_distance(&cast, &case);
        let err = (t as f64 - want).abs() as Real;
        worst = worst.max(err);
        assert!(err <= TOL, "{case}: {t} against {want}");
        assert!(
            cuboid.distance(&center) >= -1e-5,
            "{case}: past the surface"
        );
    }
    assert!(
        checked > CASTS / 2,
        "{D}D: only {checked} box casts checked"
    );
    println!("{D}D boxes: worst hit distance error {worst:e} m over {checked} casts");
}

#[test]
fn ray_and_sphere_casts_hit_balls_at_the_analytic_distance() {
    balls::<2>(11);
    balls::<3>(12);
}

#[test]
fn rays_hit_boxes_at_the_analytic_distance() {
    boxes::<2>(21);
    boxes::<3>(22);
}

/// A cast that ends within `epsilon` short of a surface is a hit (the march's rule), and the
/// refinement never carries it past the cast's length to the crossing beyond.
fn hit_at_the_end_of_the_cast<const D: usize>() {
    let ball = Ball::new(1.0).unwrap();
    let mut origin = Vector::<D>::zeros();
    origin[0] = -3.0;
    let mut dir = Vector::<D>::zeros();
    dir[0] = 1.0;
    // The surface is 2 m away; the cast stops 0.5 mm (under the 1 mm epsilon) short of it.
    let max_dist = 2.0 - 5e-4;
    let cast = ray_cast(&ball, &origin, &dir, max_dist, &MARCH).unwrap();
    let (t, _) = hit_distance(&cast, &format!("{D}D ray ending short of the ball"));
    assert!(
        t <= max_dist,
        "{D}D: hit at {t}, past the cast's length {max_dist}"
    );
    assert!(
        t >= max_dist - 1e-6,
        "{D}D: hit at {t}, before the cast's end"
    );
}

#[test]
fn refinement_stays_within_the_cast() {
    hit_at_the_end_of_the_cast::<2>();
    hit_at_the_end_of_the_cast::<3>();
}
