//! Contacts where a surface is curved: the deepest point of a face resting on a curved surface
//! (a box on a ball, a bump, a cylinder's side), and the ends of a line contact.
//!
//! The field search places points to its tolerance, which is enough where the sum `dA + dB`
//! has a sharp minimum (a corner on a face) or none (a face on a face). On a curved support the
//! sum is flat to second order across a cap `sqrt(tol * radius)` wide, anywhere in which the
//! search may stop; a contact point that wanders within that cap rocks the body it holds. These
//! helpers take the search's answer and finish it with the sum's own derivatives.

use fathom_math::{Dim, Real, Space, Vector};

use crate::field::Field;

/// Secant-Newton steps of [`settle`] at most.
const SETTLE_STEPS: usize = 8;
/// Slope of the sum along a line contact past which the line has ended: one shape's surface
/// turns away there (a face's edge), and the sum rises as fast as a distance does.
const END_SLOPE: Real = 0.5;
/// Bisection steps locating a line's end.
const END_BISECTIONS: usize = 16;

/// The gradient of `dA + dB` at `q`, less its part along `n` when given.
fn slope<const D: usize>(
    fa: &dyn Field<D>,
    fb: &dyn Field<D>,
    q: &Vector<D>,
    n: Option<&Vector<D>>,
) -> Vector<D> {
    let g = fa.gradient(q) + fb.gradient(q);
    n.map_or(g, |n| g - n * n.dot(&g))
}

/// Moves `p` downhill on `dA + dB` by secant-Newton steps along the gradient of the sum (its
/// part within the contact plane when `n` is given), at most `max_step` each, and returns it
/// with the sum there. A step is kept only when the sum curves by more than `flat` along it,
/// falls, and the slope falls as a Newton step promises: the step then lands where the two
/// normals face each other. A sum that falls linearly (a face tilted on a face) or not at all
/// (a face on a face) leaves the point where it was.
pub(crate) fn settle<const D: usize>(
    fa: &dyn Field<D>,
    fb: &dyn Field<D>,
    mut p: Vector<D>,
    n: Option<&Vector<D>>,
    probe: Real,
    max_step: Real,
    flat: Real,
) -> (Vector<D>, Real) {
    let mut f = fa.value(&p) + fb.value(&p);
    let mut g = slope(fa, fb, &p, n);
    for _ in 0..SETTLE_STEPS {
        let s0 = g.norm();
        // Also stops on NaN.
        if s0.is_nan() || s0 <= 1e-6 {
            break;
        }
        let u = g / s0;
        let curvature = (s0 - u.dot(&slope(fa, fb, &(p - u * probe), n))) / probe;
        if curvature.is_nan() || curvature <= flat {
            break;
        }
        let step = (s0 / curvature).min(max_step);
        let q = p - u * step;
        let (fq, gq) = (fa.value(&q) + fb.value(&q), slope(fa, fb, &q, n));
        // A full Newton step at least halves a curved slope; a shortened one, in proportion.
        let promised = 1.0 - 0.5 * step * curvature / s0;
        if !(fq <= f + 1e-3 * probe && gq.norm() <= promised * s0) {
            break;
        }
        (p, f, g) = (q, fq.min(f), gq);
    }
    (p, f)
}

/// The direction of a line contact at its point `p` (normal `n`), if the contact is one: the
/// sum's curvature within the contact plane is below `flat` along one direction (the line)
/// and well above it across (a cylinder's side, a box's edge). The direction's sign is fixed
/// by the plane's first tangent, so that the line's ends keep their identities step to step.
/// None in 2D, where the contact plane is a line and a contact is a point or a face.
pub(crate) fn line_direction<const D: usize>(
    fa: &dyn Field<D>,
    fb: &dyn Field<D>,
    p: &Vector<D>,
    n: &Vector<D>,
    probe: Real,
    flat: Real,
) -> Option<Vector<D>>
where
    Space<D>: Dim<D>,
{
    if D != 3 {
        return None;
    }
    let t = Space::<D>::tangents(n);
    let dg = |j: usize| {
        let (qp, qm) = (p + t[j] * probe, p - t[j] * probe);
        (slope(fa, fb, &qp, Some(n)) - slope(fa, fb, &qm, Some(n))) / (2.0 * probe)
    };
    let (d0, d1) = (dg(0), dg(1));
    let (a, c) = (t[0].dot(&d0), t[1].dot(&d1));
    let b = 0.5 * (t[0].dot(&d1) + t[1].dot(&d0));
    let mid = 0.5 * (a + c);
    let spread = (0.25 * (a - c) * (a - c) + b * b).sqrt();
    let (low, high) = (mid - spread, mid + spread);
    if !(low.abs() < flat && high > 10.0 * flat) {
        return None;
    }
    // The eigenvector of `low`: of the two forms, the one that does not vanish.
    let (e1, e2) = ([b, low - a], [low - c, b]);
    let e = if e1[0].hypot(e1[1]) >= e2[0].hypot(e2[1]) {
        e1
    } else {
        e2
    };
    let l = (t[0] * e[0] + t[1] * e[1]).try_normalize(1e-12)?;
    let sign = if l.dot(&t[0]).abs() > 1e-3 {
        l.dot(&t[0]).signum()
    } else {
        l.dot(&t[1]).signum()
    };
    Some(l * sign)
}

/// `p` moved along the normal `n` (from A to B) to where both fields read the same: midway
/// between the surfaces. The sum is level along the normal, so the search's deepest point may
/// sit anywhere across the overlap; a point deep in one shape feels that shape's edges from
/// as far off as it is deep (its closest face changes), which would cut a line short or hide
/// it. From midway both are felt alike, within half the depth.
pub(crate) fn midway<const D: usize>(
    fa: &dyn Field<D>,
    fb: &dyn Field<D>,
    p: &Vector<D>,
    n: &Vector<D>,
) -> Vector<D> {
    p + n * (0.5 * (fb.value(p) - fa.value(p)))
}

/// The end of the line contact through `p` along `l`: how far the sum stays level (its slope
/// along `l` under [`END_SLOPE`]) and within `band` of its value at `p`, found by doubling
/// from `probe` up to `reach` and then bisecting; returned pulled back by `probe`, inside.
pub(crate) fn line_end<const D: usize>(
    fa: &dyn Field<D>,
    fb: &dyn Field<D>,
    p: &Vector<D>,
    l: &Vector<D>,
    probe: Real,
    reach: Real,
    band: Real,
) -> Vector<D> {
    let f0 = fa.value(p) + fb.value(p);
    let on_line = |t: Real| {
        let q = p + l * t;
        let f = fa.value(&q) + fb.value(&q);
        f <= f0 + band && l.dot(&slope(fa, fb, &q, None)) < END_SLOPE
    };
    let (mut lo, mut hi) = (0.0, probe);
    while hi < reach && on_line(hi) {
        lo = hi;
        hi *= 2.0;
    }
    if hi >= reach && on_line(reach) {
        return p + l * reach;
    }
    hi = hi.min(reach);
    for _ in 0..END_BISECTIONS {
        let mid = 0.5 * (lo + hi);
        if on_line(mid) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    p + l * (lo - probe).max(0.0)
}
