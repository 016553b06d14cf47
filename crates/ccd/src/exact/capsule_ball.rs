//! A capsule cast against a ball. The capsule `c + s a` (`|s| <= 1`, radius `r`) touches a
//! ball of radius `R` at the origin when `c` is within `R + r` of the segment `-a .. a`: the
//! centre against a capsule.

use super::entry::{capsule, Span};
use super::Cast64;
use fathom_math::Vector;
use fathom_sdf::Sdf;

/// Where the cast's centre is within `grow` of touching a ball of `radius`.
pub(super) fn span<const D: usize>(radius: f64, cast: &Cast64<D>, grow: f64) -> Option<Span> {
    let a = cast.half_axis;
    capsule(&cast.line, &-a, &a, radius + cast.radius + grow)
}

/// The point of the core segment nearest the ball's centre.
pub(super) fn core<const D: usize>(
    _target: &dyn Sdf<D>,
    centre: &Vector<D>,
    half_axis: &Vector<D>,
) -> Vector<D> {
    let (p, q) = (centre - half_axis, centre + half_axis);
    fathom_math::segment::closest_on_segments(&p, &q, &Vector::zeros(), &Vector::zeros()).0
}
