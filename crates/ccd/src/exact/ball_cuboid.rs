//! A ball cast (or a ray) against a box: the centre against the box grown by the cast's
//! radius (faces pushed out, edges and corners rounded).

use super::entry::{rounded_cuboid, Span, V64};
use super::Cast64;

/// Where the cast's centre is within `grow` of touching the box of half extents `half`.
pub(super) fn span<const D: usize>(half: &V64<D>, cast: &Cast64<D>, grow: f64) -> Option<Span> {
    rounded_cuboid(&cast.line, half, cast.radius + grow)
}
