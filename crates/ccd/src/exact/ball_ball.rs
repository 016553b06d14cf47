//! A ball cast (or a ray: radius 0) against a ball: the centre against the ball grown by the
//! cast's radius.

use super::entry::{ball, Span, V64};
use super::Cast64;

/// Where the cast's centre is within `grow` of touching a ball of `radius`.
pub(super) fn span<const D: usize>(radius: f64, cast: &Cast64<D>, grow: f64) -> Option<Span> {
    ball(&cast.line, &V64::zeros(), radius + cast.radius + grow)
}
