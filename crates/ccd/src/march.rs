//! The one cast loop shared by rays, spheres and capsules.
//!
//! Sphere casting (sphere tracing): at the current position, a probe returns a lower
//! bound `g` on the distance from the swept shape to the surface (the field
//! divided by its Lipschitz constant, minus the swept radius, minimised over
//! the capsule's segment). The path is clear for at least `g`, so the march
//! advances by `g`. It hits when the closest sample is below `epsilon` (and then refines
//! that end to the crossing, see [`Refine`]), misses
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

impl<const D: usize> Sample<D> {
    /// Whether the sample proves the swept shape clear of the surface here.
    fn clear(&self) -> bool {
        self.lower >= 0.0
    }
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
            // Close in on the crossing itself, also from a start within epsilon outside the
            // surface (its real distance, not 0).
            let (t, s) = if opts.refine {
                let mut refine = Refine {
                    field,
                    probe: &mut *probe,
                    origin,
                    dir,
                    resolution: 0.0,
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

/// The finest gap, as a fraction of the scene's scale, that a refinement sample with an
/// interval bound (a capsule's) resolves: two f32 ulps of the coordinates, below which the
/// field's own round-off decides the sign.
const ROUNDOFF_GAP: Real = 2.0 * Real::EPSILON;

/// Below this closing rate (the cosine of the incidence) a refinement is grazing: see
/// [`Refine::graze`].
const GRAZING: Real = 0.1;

/// The smallest closing rate a grazing Newton step divides by: its longest step is 125
/// times the gap (at most 12.5 cm from within the default 1 mm epsilon).
const MIN_CLOSING: Real = 0.01;

/// A distance along the cast and its sample.
type At<const D: usize> = (Real, Sample<D>);

/// Most samples one refinement takes.
const REFINE_SAMPLES: u32 = 64;

/// The refinement of a march that ended within `eps` of the surface: the root of the gap
/// along the cast, bracketed so that the reported point is never past the surface.
///
/// The outside end of the bracket is always a sample that proves the swept shape clear
/// ([`Sample::clear`]); the other end is one that does not. A ball's sample is exact, so that
/// end is past the surface. A capsule's is an interval from its segment search, run here to
/// [`Refine::resolution`]: an end it leaves undecided is within that gap of the surface, which
/// moves the crossing past it by at most the resolution over the incidence's cosine.
struct Refine<'a, 'f, const D: usize, P: Probe<D>> {
    field: &'a Field<'f, D>,
    probe: &'a mut P,
    origin: &'a Vector<D>,
    dir: &'a Vector<D>,
    /// How close to the surface a sample's search may stop undecided (set by `run`).
    resolution: Real,
    evals_left: &'a mut u32,
}

impl<const D: usize, P: Probe<D>> Refine<'_, '_, D, P> {
    fn gap(&mut self, t: Real) -> Result<Sample<D>> {
        let center = self.origin + self.dir * t;
        let s = self
            .probe
            .sample(self.field, &center, 0.0, self.resolution, *self.evals_left)?;
        *self.evals_left = self.evals_left.saturating_sub(s.evals);
        Ok(s)
    }

    /// How fast the sample's (normalised) gap closes per metre of cast: the field's rate along
    /// the cast at the closest point of the swept shape's core, over its Lipschitz constant
    /// ([`Field::closing_rate`]; the cosine of the incidence only for `L = 1`).
    fn closing_rate(&self, s: &Sample<D>) -> Real {
        self.field.closing_rate(&s.at, self.dir)
    }

    /// From `t` (gap `s.upper` in `[0, eps)`), the outside end of a bracket of the first
    /// crossing within the cast's length `max_dist`, narrowed to the tolerance, and its
    /// sample; `(t, s)` itself when the cast passes by within `eps` without crossing there
    /// (a grazing hit, or one at the end of the cast, as the march declares it).
    fn run(&mut self, t: Real, s: Sample<D>, max_dist: Real) -> Result<At<D>> {
        let scale = (self.origin + self.dir * t).norm().max(1.0);
        let tol = REFINE_TOLERANCE * scale;
        let s = if s.lower < s.upper {
            // A quarter of the tolerance's worth of gap at this incidence keeps an undecided
            // end within a quarter of the tolerance of the crossing, down to the round-off.
            let cos = self.closing_rate(&s).clamp(0.0, 1.0);
            self.resolution = (0.25 * tol * cos).max(ROUNDOFF_GAP * scale);
            // The march's search stopped at its first sample under `eps`; the bracket needs
            // its lower bound (the march's step already proved this point clear).
            self.gap(t)?
        } else {
            s
        };
        match self.bracket(t, s, max_dist, tol)? {
            Some((lo, hi)) => self.narrow(lo, hi, tol),
            None => Ok((t, s)),
        }
    }

    /// Stage 1: a point not proven clear. Each advance of the outside end keeps the segment
    /// covered by the clear balls (proven lower bounds) of its two ends, so no crossing is
    /// skipped; except for interval samples at grazing incidence (see [`Refine::graze`]),
    /// where such a chain of balls would take hundreds of searches.
    fn bracket(
        &mut self,
        mut lo: Real,
        mut s_lo: Sample<D>,
        max_dist: Real,
        tol: Real,
    ) -> Result<Option<(At<D>, At<D>)>> {
        for _ in 0..REFINE_SAMPLES / 2 {
            if !s_lo.clear() || s_lo.upper <= 0.0 || *self.evals_left == 0 || lo >= max_dist {
                break;
            }
            let cos = self.closing_rate(&s_lo);
            // An exact sample (a ball's) is cheap enough for the chain of clear balls even
            // at grazing incidence; an interval one (a capsule's) is not.
            let exact = s_lo.lower == s_lo.upper;
            if cos < GRAZING && !exact {
                return self.graze((lo, s_lo), cos, max_dist, tol);
            }
            // Where a plane with the field's normal would be crossed, and a little more.
            let ahead = if cos > GRAZING {
                s_lo.upper / cos
            } else {
                10.0 * s_lo.upper
            };
            let x = (lo + 1.25 * ahead + tol).min(max_dist);
            let s_x = self.gap(x)?;
            if !s_x.clear() {
                return Ok(Some(((lo, s_lo), (x, s_x))));
            }
            if x - lo <= s_lo.lower + s_x.lower {
                (lo, s_lo) = (x, s_x);
                continue;
            }
            // Not proven clear that far: one safe step instead.
            let x = (lo + s_lo.lower).min(max_dist);
            let s_x = self.gap(x)?;
            if !s_x.clear() {
                return Ok(Some(((lo, s_lo), (x, s_x))));
            }
            (lo, s_lo) = (x, s_x);
        }
        Ok(Self::at_end(lo, s_lo, max_dist))
    }

    /// Stage 1 at grazing incidence (the gap closing at `cos < GRAZING` per metre at `lo`):
    /// Newton steps on the gap from outside, aimed a quarter past, until one lands inside.
    /// Where the gap is convex along the cast (a smooth surface) a Newton step from outside
    /// never passes the crossing, so a clear point still closing in becomes the outside end
    /// without the clear balls covering the way (the one place a crossing could be skipped:
    /// a sliver shorter along the cast than a step, at most `1.25 / MIN_CLOSING` times the gap).
    /// A clear point where the gap grows again is past the closest approach: the next samples
    /// search between for it (secant on the closing rate), and a pass that never crosses ends
    /// as the march declared it.
    fn graze(
        &mut self,
        (mut lo, mut s_lo): At<D>,
        mut cos: Real,
        max_dist: Real,
        tol: Real,
    ) -> Result<Option<(At<D>, At<D>)>> {
        // A clear point past the closest approach, and its (negative) closing rate.
        let mut past: Option<(Real, Real)> = None;
        for _ in 0..REFINE_SAMPLES / 2 {
            let x = match past {
                None if cos > 0.0 => lo + 1.25 * s_lo.upper / cos.max(MIN_CLOSING) + tol,
                None => break, // moving away already: no crossing ahead
                Some((p, _)) if p - lo <= tol => break,
                Some((p, c_p)) => lo + (p - lo) * (cos / (cos - c_p)).clamp(0.1, 0.9),
            };
            let x = x.min(max_dist);
            let s_x = self.gap(x)?;
            if !s_x.clear() {
                return Ok(Some(((lo, s_lo), (x, s_x))));
            }
            let c_x = self.closing_rate(&s_x);
            if c_x > 0.0 {
                (lo, s_lo, cos) = (x, s_x, c_x);
            } else {
                past = Some((x, c_x));
            }
            if s_lo.upper <= 0.0 || *self.evals_left == 0 || lo >= max_dist {
                break;
            }
        }
        Ok(Self::at_end(lo, s_lo, max_dist))
    }

    /// The bracket when the search ends on a clear point exactly at the surface, or at the
    /// cast's end (the cast stops within `eps` of a surface it never reaches: its hit is the
    /// end, not where it came within `eps`, or a later surface would read as an earlier hit).
    fn at_end(lo: Real, s_lo: Sample<D>, max_dist: Real) -> Option<(At<D>, At<D>)> {
        (s_lo.clear() && (s_lo.upper == 0.0 || lo >= max_dist)).then_some(((lo, s_lo), (lo, s_lo)))
    }

    /// Stage 2: false position, with a bisection whenever a step did not halve the
    /// bracket (or the inside end has no gap below zero to interpolate to), until it is
    /// narrower than `tol`; the outside end is kept.
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
            let f = if bisect || s_hi.upper >= 0.0 {
                0.5
            } else {
                (s_lo.upper / (s_lo.upper - s_hi.upper)).clamp(0.01, 0.99)
            };
            let x = lo + width * f;
            let s_x = self.gap(x)?;
            if s_x.clear() {
                (lo, s_lo) = (x, s_x);
            } else {
                (hi, s_hi) = (x, s_x);
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
