//! The one cast loop shared by rays, spheres and capsules.
//!
//! Sphere casting (sphere tracing): at the current position, a probe returns a lower
//! bound `g` on the distance from the swept shape to the surface (the field
//! divided by its Lipschitz constant, minus the swept radius, minimised over
//! the capsule's segment). The path is clear for at least `g`, so the march
//! advances by `g`. It hits when the closest sample is below `epsilon` (and a probe
//! that samples its exact gap, a ball, then refines that end to the crossing), misses
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
            // A probe that samples its exact gap (a ball) closes in on the crossing itself,
            // also from a start within epsilon outside the surface (its real distance, not 0).
            let (t, s) = if opts.refine && s.lower == s.upper {
                let mut refine = Refine {
                    field,
                    probe: &mut *probe,
                    origin,
                    dir,
                    eps,
                    evals_left: &mut evals_left,
                };
                refine.run(t, s, max_dist)?
            } else {
                (t, s)
            };
            let center = origin + dir * t;
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

/// A hit's distance along the cast is refined to this fraction of the scene's scale (the
/// larger of 1 m and the hit point's distance from the shape's origin, which sets the f32
/// round-off of its coordinates: a few ulps, so the bracket can still be that narrow). Below
/// the 1e-5 m asked of exact casts up to 5 m out; false position gets there in a step or two
/// more than at 1e-5.
pub(crate) const REFINE_TOLERANCE: Real = 2e-6;

/// A distance along the cast and its sample.
type At<const D: usize> = (Real, Sample<D>);

/// Most samples one refinement takes.
const REFINE_SAMPLES: u32 = 64;

/// The refinement of a march that ended within `eps` of the surface: the root of the gap
/// along the cast, bracketed so that the reported point is never past the surface.
struct Refine<'a, 'f, const D: usize, P: Probe<D>> {
    field: &'a Field<'f, D>,
    probe: &'a mut P,
    origin: &'a Vector<D>,
    dir: &'a Vector<D>,
    eps: Real,
    evals_left: &'a mut u32,
}

impl<const D: usize, P: Probe<D>> Refine<'_, '_, D, P> {
    fn gap(&mut self, t: Real) -> Result<Sample<D>> {
        let center = self.origin + self.dir * t;
        let s = self
            .probe
            .sample(self.field, &center, 0.0, self.eps, *self.evals_left)?;
        *self.evals_left = self.evals_left.saturating_sub(s.evals);
        Ok(s)
    }

    /// From `t` (gap `s.upper` in `[0, eps)`), the outside end of a bracket of the first
    /// crossing within the cast's length `max_dist`, narrowed to the tolerance, and its
    /// sample; `(t, s)` itself when the cast passes by within `eps` without crossing there
    /// (a grazing hit, or one at the end of the cast, as the march declares it).
    fn run(&mut self, t: Real, s: Sample<D>, max_dist: Real) -> Result<At<D>> {
        let tol = REFINE_TOLERANCE * (self.origin + self.dir * t).norm().max(1.0);
        match self.bracket(t, s, max_dist, tol)? {
            Some((lo, hi)) => self.narrow(lo, hi, tol),
            None => Ok((t, s)),
        }
    }

    /// Stage 1: a point past the surface. Each advance of the outside end keeps the
    /// segment covered by the clear balls of its two ends, so no crossing is skipped.
    fn bracket(
        &mut self,
        mut lo: Real,
        mut s_lo: Sample<D>,
        max_dist: Real,
        tol: Real,
    ) -> Result<Option<(At<D>, At<D>)>> {
        for _ in 0..REFINE_SAMPLES / 2 {
            if s_lo.upper <= 0.0 || *self.evals_left == 0 || lo >= max_dist {
                break;
            }
            // Where a plane with the field's normal would be crossed, and a little more.
            let cos = -self.field.normal(&s_lo.at).dot(self.dir);
            let ahead = if cos > 0.1 {
                s_lo.upper / cos
            } else {
                10.0 * s_lo.upper
            };
            let x = (lo + 1.25 * ahead + tol).min(max_dist);
            let s_x = self.gap(x)?;
            if s_x.upper < 0.0 {
                return Ok(Some(((lo, s_lo), (x, s_x))));
            }
            if x - lo <= s_lo.upper + s_x.upper {
                (lo, s_lo) = (x, s_x);
                continue;
            }
            // Not proven clear that far: one safe step instead.
            let x = (lo + s_lo.upper).min(max_dist);
            let s_x = self.gap(x)?;
            if s_x.upper < 0.0 {
                return Ok(Some(((lo, s_lo), (x, s_x))));
            }
            (lo, s_lo) = (x, s_x);
        }
        Ok((s_lo.upper == 0.0).then_some(((lo, s_lo), (lo, s_lo))))
    }

    /// Stage 2: false position, with a bisection whenever a step did not halve the
    /// bracket, until it is narrower than `tol`; the outside end is kept.
    fn narrow(
        &mut self,
        (mut lo, mut s_lo): At<D>,
        (mut hi, mut s_hi): At<D>,
        tol: Real,
    ) -> Result<At<D>> {
        let mut bisect = false;
        for _ in 0..REFINE_SAMPLES {
            let width = hi - lo;
            if width <= tol || s_lo.upper <= 0.0 || *self.evals_left == 0 {
                break;
            }
            let f = if bisect {
                0.5
            } else {
                (s_lo.upper / (s_lo.upper - s_hi.upper)).clamp(0.01, 0.99)
            };
            let x = lo + width * f;
            let s_x = self.gap(x)?;
            if s_x.upper < 0.0 {
                (hi, s_hi) = (x, s_x);
            } else {
                (lo, s_lo) = (x, s_x);
            }
            bisect = hi - lo > 0.5 * width;
        }
        Ok((lo, s_lo))
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
