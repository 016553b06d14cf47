//! A capsule cast against a box. The box grown by the capsule is bounded by the box grown by
//! the capsule's radius around either end of its core, and by each box edge swept along the
//! core (a parallelogram) grown by the radius: where the core is parallel to a face, the face
//! swept along it is covered by the two ends and the face's edges swept.

use super::entry::{box_edges, rounded_cuboid, rounded_parallelogram, Span, V64};
use super::Cast64;
use fathom_math::Vector;
use fathom_sdf::Sdf;

/// Where the cast's centre is within `grow` of touching the box of half extents `half`.
pub(super) fn span<const D: usize>(half: &V64<D>, cast: &Cast64<D>, grow: f64) -> Option<Span> {
    let (a, r) = (cast.half_axis, cast.radius + grow);
    let ends = Span::or(
        rounded_cuboid(&cast.line.shifted(&a), half, r),
        rounded_cuboid(&cast.line.shifted(&-a), half, r),
    );
    box_edges(half).fold(ends, |span, (mid, along)| {
        Span::or(span, rounded_parallelogram(&cast.line, &mid, &along, &a, r))
    })
}

/// The point of the cast's core nearest the box: an end, or the point nearest a box edge,
/// whichever the box's field puts nearest (the same pieces as `span`).
pub(super) fn core<const D: usize>(
    target: &dyn Sdf<D>,
    centre: &Vector<D>,
    half_axis: &Vector<D>,
) -> Vector<D> {
    let fathom_sdf::ShapeKind::Cuboid { half_extents } = target.kind() else {
        return *centre;
    };
    let (p, q) = (centre - half_axis, centre + half_axis);
    let half = half_extents.cast::<f64>();
    let on_edges = box_edges(&half).map(|(mid, along)| {
        let (mid, along) = (mid.cast(), along.cast());
        fathom_math::segment::closest_between_segments(&p, &q, &(mid - along), &(mid + along)).0
    });
    [p, q]
        .into_iter()
        .chain(on_edges)
        .min_by(|x, y| target.distance(x).total_cmp(&target.distance(y)))
        .unwrap_or(*centre)
}
