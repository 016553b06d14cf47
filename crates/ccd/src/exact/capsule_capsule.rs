//! A capsule cast against a capsule. The cores `c + s a` and `t h` (`h` along local y) come
//! within `R + r` when `c` is within `R + r` of the parallelogram `s a + t h`: the centre
//! against a rounded parallelogram.

use super::entry::{rounded_parallelogram, Span, V64};
use super::{y_axis, Cast64};
use fathom_math::Vector;
use fathom_sdf::Sdf;

/// Where the cast's centre is within `grow` of touching the capsule (`half_height`, `radius`).
pub(super) fn span<const D: usize>(
    half_height: f64,
    radius: f64,
    cast: &Cast64<D>,
    grow: f64,
) -> Option<Span> {
    let h = y_axis::<D>() * half_height;
    let r = radius + cast.radius + grow;
    rounded_parallelogram(&cast.line, &V64::zeros(), &h, &cast.half_axis, r)
}

/// The point of the cast's core nearest the target's core.
pub(super) fn core<const D: usize>(
    target: &dyn Sdf<D>,
    centre: &Vector<D>,
    half_axis: &Vector<D>,
) -> Vector<D> {
    let fathom_sdf::ShapeKind::Capsule { half_height, .. } = target.kind() else {
        return *centre;
    };
    let h = y_axis::<D>().cast::<fathom_math::Real>() * half_height;
    let (p, q) = (centre - half_axis, centre + half_axis);
    fathom_math::segment::closest_between_segments(&p, &q, &-h, &h).0
}
