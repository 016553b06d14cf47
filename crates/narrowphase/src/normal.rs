//! The contact normal of two general fields at a deep point, and the depth along it.
//!
//! At the deepest point `p` of an overlap (the minimiser of `d0 + d1`) the two fields'
//! gradients are opposite wherever both are smooth, and either gives the normal. Where one
//! shape has an edge or a corner at `p` (a box's corner poking into a face) its gradient is
//! ambiguous, and only the other shape's is right. The central-difference gradient with a
//! step of a leaf cell tells the two apart: its length is one on a smooth part of an exact
//! field and drops below one when the stencil straddles a ridge. So the normal blends the two
//! unit gradients with weights that fall off sharply with that length, relative to the better
//! one. When both are on ridges (two crossing edges) the deep point is first slid onto both
//! ridges by a compass search on `d0 + d1`, after which the symmetric stencils are unbiased.
//!
//! The depth is then measured along the normal through `p` by sphere tracing to each surface,
//! which is exact for flat faces, edges and corners alike (the value `d0 + d1` itself
//! under-estimates an edge-edge overlap by up to a factor of sqrt 2).

use fathom_math::{Real, Vector};

use crate::field::{central_gradient, march, Field};

/// Below this length (relative to the Lipschitz constant) a central-difference gradient is
/// taken to straddle a ridge.
const RIDGE: Real = 0.95;
/// How sharply a less reliable gradient's weight falls off with its relative length.
const SHARPNESS: Real = 40.0;

/// The unit normal from A towards B at `p` (search frame), and `p` possibly slid onto the
/// ridges of both fields. `h` is the stencil step (a leaf cell radius).
pub(crate) fn normal_at<const D: usize>(
    a: &dyn Field<D>,
    b: &dyn Field<D>,
    p: Vector<D>,
    h: Real,
) -> (Vector<D>, Vector<D>) {
    let (n, ra, rb) = blended(a, b, &p, h);
    if ra < RIDGE && rb < RIDGE {
        let q = refine_onto_ridges(a, b, p, h);
        let (n2, _, _) = blended(a, b, &q, h);
        return (n2, q);
    }
    (n, p)
}

fn blended<const D: usize>(
    a: &dyn Field<D>,
    b: &dyn Field<D>,
    p: &Vector<D>,
    h: Real,
) -> (Vector<D>, Real, Real) {
    let ga = central_gradient(a, p, h) / a.lipschitz().max(1e-6);
    let gb = central_gradient(b, p, h) / b.lipschitz().max(1e-6);
    let (ra, rb) = (ga.norm(), gb.norm());
    let rmax = ra.max(rb);
    if rmax <= 1e-6 || rmax.is_nan() {
        let g = a.gradient(p) - b.gradient(p);
        return (unit_or(g, a.gradient(p)), 0.0, 0.0);
    }
    let wa = (-SHARPNESS * (1.0 - ra / rmax)).exp();
    let wb = (-SHARPNESS * (1.0 - rb / rmax)).exp();
    let mut v = Vector::<D>::zeros();
    if ra > 1e-6 {
        v += ga * (wa / ra);
    }
    if rb > 1e-6 {
        v -= gb * (wb / rb);
    }
    let fallback = if ra >= rb { ga / ra } else { -gb / rb };
    (unit_or(v, fallback), ra, rb)
}

/// `v` normalised, or `fallback` normalised, or the first axis.
pub(crate) fn unit_or<const D: usize>(v: Vector<D>, fallback: Vector<D>) -> Vector<D> {
    for w in [v, fallback] {
        let l = w.norm();
        if l > 1e-9 && l.is_finite() {
            return w / l;
        }
    }
    let mut e = Vector::<D>::zeros();
    e[0] = 1.0;
    e
}

/// Compass search on `d0 + d1` from `p`, with steps from `h` down to `h / 256` along the axes
/// and the diagonals (the diagonals keep it from stalling in a valley oblique to the axes).
fn refine_onto_ridges<const D: usize>(
    a: &dyn Field<D>,
    b: &dyn Field<D>,
    mut p: Vector<D>,
    h: Real,
) -> Vector<D> {
    const MAX_MOVES: usize = 64;
    let dirs = compass_directions::<D>();
    let sum = |q: &Vector<D>| a.value(q) + b.value(q);
    let mut f = sum(&p);
    let mut step = h;
    let mut moves = 0;
    while step > h / 256.0 && moves < MAX_MOVES {
        let mut improved = false;
        for d in &dirs {
            let q = p + d * step;
            let fq = sum(&q);
            if fq < f - 1e-7 * h {
                p = q;
                f = fq;
                improved = true;
                moves += 1;
                break;
            }
        }
        if !improved {
            step *= 0.5;
        }
    }
    p
}

fn compass_directions<const D: usize>() -> Vec<Vector<D>> {
    let mut dirs = Vec::new();
    for i in 0..D {
        for s in [1.0, -1.0] {
            let mut e = Vector::<D>::zeros();
            e[i] = s;
            dirs.push(e);
        }
    }
    for mask in 0..(1usize << D) {
        let v = Vector::<D>::from_fn(|i, _| if mask >> i & 1 == 1 { 1.0 } else { -1.0 });
        dirs.push(v.normalize());
    }
    dirs
}

/// Where the line through `p` along `n` leaves A (upwards, `point_a`) and B (downwards,
/// `point_b`), and the signed separation `(point_b - point_a) · n` (negative when overlapping).
/// `None` when a march misses its surface within `reach`.
pub(crate) fn along_normal<const D: usize>(
    a: &dyn Field<D>,
    b: &dyn Field<D>,
    p: &Vector<D>,
    n: &Vector<D>,
    reach: Real,
    eps: Real,
) -> Option<(Vector<D>, Vector<D>, Real)> {
    let sa = march(a, p, n, reach, eps)?;
    let sb = march(b, p, &-n, reach, eps)?;
    let pa = p + n * sa;
    let pb = p - n * sb;
    Some((pa, pb, -(sa + sb)))
}
