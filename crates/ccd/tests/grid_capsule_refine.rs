//! Capsule and segment casts against a baked grid of a unit ball (`march.rs`, `Refine`, with
//! the segment search as the certificate), 2D and 3D, at many directions and incidences,
//! against the analytic contact in f64.
//!
//! What the march hits: the level `d / L = r` of the grid's field `d` (the radius is taken
//! off after dividing by the grid's Lipschitz constant `L`, see `march.rs`). Near the ball's
//! surface the grid's `d` is `|p| - 1` to within its sampling error, so that level is the
//! ball grown by `L r`: the analytic answer is the first contact of a capsule of radius
//! `L r` with the unit ball. For a segment (`r = 0`) that is the ball itself. `L` is `sqrt(D)`
//! for this grid (the cells at the ball's centre), so a capsule with `r > 0` stops
//! `(L - 1) r` of gap before the baked surface grown by `r`: sound, not exact (see
//! `radius_level`).
mod common;

use common::{convex_first_root, golden_min, Rng};
use fathom_ccd::{cast, CastOptions, CastResult, CastShape};
use fathom_math::{Real, Vector};
use fathom_sdf::{BakedGrid, Ball, Sdf};
use nalgebra::SVector;

type V64<const D: usize> = SVector<f64, D>;

/// How far past the start the casts look, metres.
const MAX_DIST: Real = 10.0;

/// Casts per dimension whose incidence is asserted.
const CASTS: usize = 300;

/// Incidences below this are checked for safety only (never past the baked surface): the
/// f32 round-off of the field moves the crossing by 1e-7 / cos, and a grazing refinement may
/// stop at the march's end (`Refine::graze`).
const EXTREME: f64 = 0.01;

/// The f32 round-off of the grid's field near the surface, metres of gap: coordinates up to
/// 5 m (ulp 4.8e-7 m) carried to the contact, and the interpolation of f32 samples.
const ROUNDOFF: f64 = 2e-6;

/// The grid's sampling error near the surface. Multilinear interpolation of `|p| - 1` (whose
/// second derivative across is `1 / |p|`, at most `1 / (1 - sqrt(D) h)` in a cell the
/// surface crosses) is off by at most `h² |f''| / 8` per axis: `D h² / (8 (1 - sqrt(D) h))`
/// for cells of `h`. It is never below `|p| - 1`: interpolating a convex function along
/// each axis in turn over-estimates it.
fn sampling_error(d: usize, h: f64) -> f64 {
    let d = d as f64;
    d * h * h / (8.0 * (1.0 - d.sqrt() * h))
}

/// The level of `|p| - 1` the march stops at for a swept radius `r` against a field of
/// Lipschitz constant `l`: `d / L = r` (the radius comes off the normalised field).
fn radius_level(l: f64, r: f64) -> f64 {
    l * r
}

/// A segment cast in f64: centre, unit direction, half axis.
#[derive(Clone, Copy, Debug)]
struct Cast64<const D: usize> {
    origin: V64<D>,
    dir: V64<D>,
    half_axis: V64<D>,
}

impl<const D: usize> Cast64<D> {
    /// The smallest `|p| - 1` over the segment at `t` (convex in `s` and in `t`).
    fn ball_gap(&self, t: f64) -> f64 {
        let c = self.origin + self.dir * t;
        golden_min(-1.0, 1.0, |s| (c + self.half_axis * s).norm()).1 - 1.0
    }

    /// The first `t` where the segment comes within `level` of the unit ball.
    fn first_at(&self, level: f64) -> Option<f64> {
        convex_first_root(MAX_DIST as f64, |t| self.ball_gap(t) - level).0
    }

    /// The smallest gap to the level along the cast.
    fn dip(&self, level: f64) -> f64 {
        golden_min(0.0, MAX_DIST as f64, |t| self.ball_gap(t)).1 - level
    }

    /// The cast moved across its path (towards `towards`, made perpendicular) so that it
    /// dips `depth` into the level: bisection on the offset between through the middle
    /// (`0`) and a miss (`2 m`).
    fn dipping(&self, level: f64, depth: f64, towards: &V64<D>) -> Option<Self> {
        let side = (towards - self.dir * towards.dot(&self.dir)).try_normalize(1e-3)?;
        let moved = |k: f64| Cast64 {
            origin: self.origin + side * k,
            ..*self
        };
        let (mut lo, mut hi) = (0.0, 2.0);
        if moved(lo).dip(level) > -depth {
            return None;
        }
        for _ in 0..50 {
            let mid = 0.5 * (lo + hi);
            if moved(mid).dip(level) <= -depth {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        Some(moved(lo))
    }

    /// The smallest grid value over the segment at `t`, normalised by `l`: a scan of 1001
    /// points, then a golden-section search around the lowest (the interpolant is smooth
    /// within a cell, and the scan's spacing is under a cell).
    fn grid_gap(&self, grid: &BakedGrid<D>, l: f64, t: f64) -> f64 {
        let c = self.origin + self.dir * t;
        let f = |s: f64| grid.distance(&(c + self.half_axis * s).cast::<Real>()) as f64 / l;
        let n = 1000;
        let step = 2.0 / n as f64;
        let best = (0..=n)
            .map(|k| -1.0 + step * k as f64)
            .min_by(|a, b| f(*a).total_cmp(&f(*b)))
            .unwrap();
        let lo = (best - step).max(-1.0);
        let hi = (best + step).min(1.0);
        golden_min(lo, hi, f).1.min(f(best))
    }
}

/// Where the march starts: the cast's entry into the field's bounds grown by the capsule's
/// reach (`march.rs`, `clip`).
fn clip_entry<const D: usize>(
    grid: &BakedGrid<D>,
    origin: &Vector<D>,
    dir: &Vector<D>,
    reach: Real,
) -> f64 {
    grid.bounds()
        .loosened(reach)
        .ray_interval(origin, dir, MAX_DIST)
        .map_or(f64::INFINITY, |(t0, _)| t0 as f64)
}

#[derive(Default)]
struct Tally {
    casts: usize,
    segments: usize,
    extreme: usize,
    /// Worst distance before the analytic contact, and worst past the band's far end.
    worst_early: f64,
    worst_late: f64,
    /// Worst distance from the analytic contact: segments, capsules (not entering past the
    /// level), and at grazing incidence (cos < 0.1), with the widest band.
    worst_segment: f64,
    worst_capsule: f64,
    grazing: usize,
    worst_grazing: f64,
    widest_band: f64,
    /// Worst distance before the grid's own crossing of the level, and that times the cosine.
    worst_short: f64,
    worst_short_cos: f64,
    /// Worst distance before the analytic contact of a cast that enters past the level.
    worst_entry: f64,
    /// Casts that enter the bounds past the level (hit at their entry, or miss the ball grown
    /// by the radius).
    late_entries: usize,
}

/// The largest swept radius drawn, metres.
const MAX_RADIUS: Real = 0.2;

/// A unit ball baked with cells of 1/32 m (64 across the ball), padded so that the level the
/// widest capsule stops at (`radius_level`, at most `sqrt(3) MAX_RADIUS`) is inside the grid
/// box with two cells to spare. Outside its box a grid's field is clamped (fathom-sdf's grid
/// module docs): it stays near the boundary samples for a metre or more out, so with
/// `bake_shape`'s two cells of padding (boundary samples of 6 cm) any capsule of radius
/// over 6 cm / L hits the slab in front of a face, wherever the clip to the bounds lets it.
fn baked_ball<const D: usize>() -> BakedGrid<D> {
    let ball = Ball::new(1.0).unwrap();
    let cell = 1.0 / 32.0;
    let pad = (3.0 as Real).sqrt() * MAX_RADIUS + 2.0 * cell;
    BakedGrid::<D>::bake(&ball, &ball.bounds().loosened(pad), cell).unwrap()
}

/// Casts through the baked ball with at most `max_evaluations` a cast; `short` of the
/// grid's own crossing is allowed at most `budget_slack` more than the tolerance.
fn grid_casts<const D: usize>(seed: u64, max_evaluations: u32, budget_slack: f64) {
    let grid = baked_ball::<D>();
    let h = grid.cell() as f64;
    let l = grid.lipschitz() as f64;
    let sampling = sampling_error(D, h);
    let opts = CastOptions {
        max_evaluations,
        ..CastOptions::default()
    };
    let mut rng = Rng::new(seed);
    let mut tally = Tally::default();
    let mut tries = 0;
    while tally.casts < CASTS {
        tries += 1;
        assert!(tries < 10 * CASTS, "{D}D: too few usable casts");
        // From 3-5 m out towards a point within 1.3 m of the centre: every incidence, from
        // head-on to passing by.
        let origin = rng.unit::<D>() * rng.range(3.0, 5.0);
        let dir = (rng.vector::<D>(1.3) - origin).normalize();
        let half_axis = rng.unit::<D>() * rng.range(0.1, 0.8);
        let radius = if tries % 2 == 0 {
            0.0
        } else {
            rng.range(0.02, MAX_RADIUS)
        };
        let mut c = Cast64 {
            origin: origin.cast::<f64>(),
            dir: dir.cast::<f64>(),
            half_axis: half_axis.cast::<f64>(),
        };
        let level = radius_level(l, radius as f64);
        if tries % 3 == 0 {
            // Grazing: moved sideways to dip 1-30 mm into the level (cos about 0.04-0.25).
            let depth = 10f64.powf(rng.range(-3.0, -1.5) as f64);
            let Some(g) = c.dipping(level, depth, &rng.unit::<D>().cast::<f64>()) else {
                continue;
            };
            c = g;
        }
        let origin = c.origin.cast::<Real>();
        let c = Cast64 {
            origin: origin.cast::<f64>(),
            ..c
        };
        // The analytic contact, and where the level less the sampling error is reached: the
        // grid's crossing lies between (its field is within [0, sampling] above `|p| - 1`).
        let Some(want) = c.first_at(level) else {
            continue;
        };
        if c.ball_gap(0.0) - level < 0.01 {
            continue; // starts (nearly) inside: not a cast to refine
        }
        let far = c.first_at(level - sampling).unwrap();
        let cos = -(c.ball_gap(want + 1e-6) - c.ball_gap(want - 1e-6)) / 2e-6;
        // A pass that dips less than the sampling error into the level may miss the grid's.
        if c.ball_gap(golden_min(0.0, MAX_DIST as f64, |t| c.ball_gap(t)).0) > level - sampling {
            continue;
        }
        let shape = CastShape::Capsule { half_axis, radius };
        let got = cast(&grid, &shape, &origin, &dir, MAX_DIST, &opts).unwrap();
        let case =
            format!("{D}D {c:?} radius {radius}: want {want} (to {far}, cos {cos}), got {got:?}");
        let entry = clip_entry(&grid, &origin, &dir, half_axis.norm() + radius);
        let touch = c.first_at(radius as f64);
        let CastResult::Hit { distance, .. } = got else {
            // Where the march would enter the bounds past the level, it proves only the real
            // contact: a cast that never touches the ball grown by the radius may miss.
            assert!(entry >= want && touch.is_none(), "{case}");
            tally.late_entries += 1;
            continue;
        };
        let t = distance as f64;
        // The refinement's tolerance (2e-6 of the hit point's distance from the centre, at
        // least 1 m: under 3e-6 m here) and the round-off over the cosine.
        let slack = 3e-6 + ROUNDOFF / cos.max(EXTREME);
        // Never past the baked surface grown by the radius: the capsule's normalised gap to
        // the grid at the hit is not below zero (`d / L` never exceeds the distance to the
        // grid's surface, so a point with `d / L >= r` is at least `r` from it). A cast that
        // enters the bounds already past that level hits at its entry: there only the real
        // contact is proven clear, so it is checked against the unit ball's (the grid's
        // surface lies inside the ball, so its contact is no earlier).
        if entry < want {
            let gap = c.grid_gap(&grid, l, t) - radius as f64;
            assert!(gap >= -ROUNDOFF, "{case}: past the grid's level by {gap:e}");
        } else {
            let touch = touch.unwrap_or(f64::INFINITY);
            assert!(t <= touch, "{case}: {:e} m past the surface", t - touch);
        }
        if cos < EXTREME {
            tally.extreme += 1;
            continue;
        }
        // Within the band the grid's level crossing lies in; or, where the march enters the
        // bounds already past that level (the clip proves only the real contact clear:
        // see `baked_ball`), at its entry.
        let early = want - t;
        let late = t - far.max(entry);
        tally.late_entries += usize::from(entry >= want);
        assert!(
            early <= slack && late <= slack,
            "{case}: {early:e} m before the analytic contact, {late:e} m past the band"
        );
        tally.casts += 1;
        tally.segments += usize::from(radius == 0.0);
        tally.worst_early = tally.worst_early.max(early);
        tally.worst_late = tally.worst_late.max(late);
        let err = (t - want).abs();
        if entry < want {
            // How close to the grid's own crossing of its level the refinement came: it never
            // ends past it (asserted above), so only the distance before it is measured.
            let g = |t: f64| c.grid_gap(&grid, l, t) - radius as f64;
            let (mut lo, mut hi) = (t, far + slack);
            if g(hi) <= 0.0 {
                for _ in 0..40 {
                    let mid = 0.5 * (lo + hi);
                    if g(mid) > 0.0 {
                        lo = mid;
                    } else {
                        hi = mid;
                    }
                }
                let short = hi - t;
                let bound = 1e-5 + budget_slack + ROUNDOFF / cos;
                assert!(
                    short <= bound,
                    "{case}: {short:e} m before the grid's crossing"
                );
                tally.worst_short = tally.worst_short.max(short);
                tally.worst_short_cos = tally.worst_short_cos.max(short * cos);
            }
        }
        if entry >= want {
            tally.worst_entry = tally.worst_entry.max(err);
        } else if cos < 0.1 {
            tally.grazing += 1;
            tally.worst_grazing = tally.worst_grazing.max(err);
        } else if radius == 0.0 {
            tally.worst_segment = tally.worst_segment.max(err);
        } else {
            tally.worst_capsule = tally.worst_capsule.max(err);
        }
        tally.widest_band = tally.widest_band.max(far - want);
    }
    assert!(tally.grazing >= 20, "{D}D: too few grazing casts");
    println!(
        "{D}D grid (cell {h} m, L {l}, sampling error {sampling:e} m, at most {max_evaluations} \
         evaluations): {} casts ({} segments); \
         worst error against the analytic contact: segments {:e} m, capsules {:e} m, \
         {} grazing (0.01 <= cos < 0.1) {:e} m (widest band {:e} m); worst before the \
         contact {:e} m, past the band {:e} m; worst before the grid's own crossing {:e} m \
         ({:e} m times the cosine); {} entering past the level, worst {:e} m; \
         {} at cos < {EXTREME} (safety only)",
        tally.casts,
        tally.segments,
        tally.worst_segment,
        tally.worst_capsule,
        tally.grazing,
        tally.worst_grazing,
        tally.widest_band,
        tally.worst_early,
        tally.worst_late,
        tally.worst_short,
        tally.worst_short_cos,
        tally.late_entries,
        tally.worst_entry,
        tally.extreme
    );
}

/// The default evaluation budget (65 536 a cast).
const BUDGET: u32 = 65_536;

/// With the default budget a few 3D casts run out before the bracket narrows to the
/// tolerance, and end up to 3e-5 m short of the grid's crossing (never past it): certifying a
/// capsule clear within 1e-6 m of gap near a baked surface takes its segment search up to
/// 36 000 evaluations (cells of the resolution over the flat of the gap along the segment).
const BUDGET_SHORT: f64 = 2e-5;

#[test]
fn capsule_casts_against_a_baked_ball_are_within_its_sampling_error() {
    grid_casts::<2>(183, BUDGET, 0.0);
    grid_casts::<3>(184, BUDGET, BUDGET_SHORT);
}

/// Given the evaluations, the 3D casts reach the grid's crossing to the tolerance too.
#[test]
fn with_the_budget_for_it_3d_capsule_casts_reach_the_grids_crossing() {
    grid_casts::<3>(184, 1 << 22, 0.0);
}
