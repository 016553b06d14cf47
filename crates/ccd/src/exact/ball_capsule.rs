//! A ball cast (or a ray) against a capsule along local y: the centre against the capsule
//! grown by the cast's radius.

use super::entry::{capsule, Span};
use super::{y_axis, Cast64};

/// Where the cast's centre is within `grow` of touching the capsule (`half_height`, `radius`).
pub(super) fn span<const D: usize>(
    half_height: f64,
    radius: f64,
    cast: &Cast64<D>,
    grow: f64,
) -> Option<Span> {
    let a = y_axis::<D>() * half_height;
    capsule(&cast.line, &-a, &a, radius + cast.radius + grow)
}
