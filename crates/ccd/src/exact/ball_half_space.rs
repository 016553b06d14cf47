//! A ball cast (or a ray) against a half-space: the centre against the plane moved out by the
//! cast's radius.

use super::entry::{half_space, Span, V64};
use super::Cast64;

/// Where the cast's centre is within `grow` of touching `n · p <= offset`.
pub(super) fn span<const D: usize>(
    normal: &V64<D>,
    offset: f64,
    cast: &Cast64<D>,
    grow: f64,
) -> Option<Span> {
    half_space(&cast.line, normal, offset + cast.radius + grow)
}
