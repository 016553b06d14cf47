//! The one cast loop shared by rays, spheres and capsules.
//!
//! Sphere casting (sphere tracing): at the current position, a probe returns a lower
//! bound `g` on the distance from the swept shape to the surface (the field
//! divided by its Lipschitz constant, minus the swept radius, minimised over
//! the capsule's segment). The path is clear for at least `g`, so the march
//! advances by `g`. It hits when the closest sample is below `epsilon`, misses
//! once it passes `max_dist` (or leaves the shape's bounds), and reports the
//! step cap rather than a miss when it runs out of steps.
//!
//! Note on the step: the textbook step `(d - r) / L` equals `d / L - r` only for
//! `L = 1`. For a field with `L > 1` that over-reports distance (by up to `L`),
//! `(d - r) / L` can step past the inflated surface, so the radius is
//! subtracted after normalising.

use crate::error::Result;
use crate::field::Field;
use crate::options::CastOptions;
use crate::result::CastResult;
use fathom_math::{Real, Vector};

/// What a probe proved at one position of the cast (normalised field units, metres).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Sample<const D: usize> {
    /// No point of the swept shape is closer to the surface than this.
    pub lower: Real,
    /// The closest sample's gap to the surface (negative: inside).
    pub upper: Real,
    /// Where on the swept shape's core (centre, segment point) `upper` was sampled.
    pub at: Vector<D>,
    /// Field evaluations spent.
    pub evals: u32,
}

/// A swept shape: bounds its gap to the surface around a centre.
pub(crate) trait Probe<const D: usize> {
    /// The farthest any point of the swept shape is from its centre.
    fn reach(&self) -> Real;
    /// The swept radius around the core.
    fn radius(&self) -> Real;
    /// The gap bound at `center`; stop refining once a sample is below `threshold`.
    fn sample(
        &mut self,
        field: &Field<'_, D>,
        center: &Vector<D>,
        threshold: Real,
        epsilon: Real,
        budget: u32,
    ) -> Result<Sample<D>>;
}

/// Marches `probe` from `origin` along the unit `dir` for at most `max_dist` (all in the shape's frame).
pub(crate) fn march<const D: usize, P: Probe<D>>(
    field: &Field<'_, D>,
    probe: &mut P,
    origin: &Vector<D>,
    dir: &Vector<D>,
    max_dist: Real,
    opts: &CastOptions,
) -> Result<CastResult<D>> {
    let eps = opts.epsilon;
    let mut t: Real = 0.0;
    let mut steps = 0u32;
    let mut t_end = max_dist;
    if opts.clip_to_bounds {
        match clip(field, probe.reach(), eps, origin, dir, max_dist) {
            Clip::Outside => return Ok(CastResult::Miss { steps: 0 }),
            Clip::Interval(t0, t1) => {
                t_end = t1;
                if t0 > 0.0 {
                    t = t0;
                    steps = 1;
                }
            }
            Clip::Unknown => {}
        }
    }
    let mut evals_left = opts.max_evaluations;
    loop {
        let center = origin + dir * t;
        let threshold = if t == 0.0 { 0.0 } else { eps };
        let s = probe.sample(field, &center, threshold, eps, evals_left)?;
        evals_left = evals_left.saturating_sub(s.evals);
        if t == 0.0 && s.upper < 0.0 {
            // The first overlapping sample proves the overlap; refine to the deepest.
            let deepest = probe.sample(field, &center, Real::NEG_INFINITY, eps, evals_left)?;
            return Ok(started_inside(field, probe.radius(), &deepest));
        }
        if s.upper < eps {
            return Ok(hit(field, probe.radius(), &s, t, max_dist, center, steps));
        }
        // A budget-starved probe may not prove any clearance: report the cap, not a miss.
        if s.lower <= 0.0 || s.lower.is_nan() {
            return Ok(CastResult::StepCap {
                distance_reached: t,
                steps,
            });
        }
        if t >= t_end {
            return Ok(CastResult::Miss { steps });
        }
        if steps >= opts.max_steps || evals_left == 0 {
            return Ok(CastResult::StepCap {
                distance_reached: t,
                steps,
            });
        }
        t = (t + s.lower).min(t_end);
        steps += 1;
    }
}

enum Clip {
    /// The cast never comes within reach of the shape's bounds.
    Outside,
    /// Entry and exit distances.
    Interval(Real, Real),
    /// The bounds are not usable (NaN); march the whole way.
    Unknown,
}

/// Where the cast meets the shape's bounds grown by the swept shape's `reach`. It
/// enters where the grown box begins (a first step no probe is needed for), and it is
/// over where the box grown by `epsilon` more ends (within epsilon of the box is already a hit).
fn clip<const D: usize>(
    field: &Field<'_, D>,
    reach: Real,
    eps: Real,
    origin: &Vector<D>,
    dir: &Vector<D>,
    max_dist: Real,
) -> Clip {
    let b = field.sdf().bounds();
    let has_nan = b.min.iter().chain(b.max.iter()).any(|x| x.is_nan());
    if has_nan {
        return Clip::Unknown;
    }
    if b.is_empty() {
        return Clip::Outside;
    }
    let Some((t0_eps, t1)) = b.loosened(reach + eps).ray_interval(origin, dir, max_dist) else {
        return Clip::Outside;
    };
    let t0 = b
        .loosened(reach)
        .ray_interval(origin, dir, max_dist)
        .map_or(t0_eps, |(t0, _)| t0);
    Clip::Interval(t0, t1)
}

/// The surface point nearest a core sample: `q - n * (gap + radius)` (`gap + radius = d(q) / L`).
fn surface_point<const D: usize>(
    field: &Field<'_, D>,
    radius: Real,
    s: &Sample<D>,
) -> (Vector<D>, Vector<D>) {
    let normal = field.normal(&s.at);
    (s.at - normal * (s.upper + radius), normal)
}

fn started_inside<const D: usize>(
    field: &Field<'_, D>,
    radius: Real,
    s: &Sample<D>,
) -> CastResult<D> {
    let (point, normal) = surface_point(field, radius, s);
    CastResult::StartedInside {
        point,
        normal,
        depth: -s.upper,
    }
}

fn hit<const D: usize>(
    field: &Field<'_, D>,
    radius: Real,
    s: &Sample<D>,
    t: Real,
    max_dist: Real,
    center: Vector<D>,
    steps: u32,
) -> CastResult<D> {
    let (point, normal) = surface_point(field, radius, s);
    let fraction = if max_dist > 0.0 {
        (t / max_dist).min(1.0)
    } else {
        0.0
    };
    CastResult::Hit {
        distance: t,
        fraction,
        center,
        point,
        normal,
        steps,
    }
}
