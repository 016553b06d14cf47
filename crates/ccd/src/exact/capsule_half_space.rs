//! A capsule cast against a half-space: its lower end against the plane moved out by the
//! radius (`n · (c ± a) <= offset + r` for one sign: `n · c <= offset + r + |n · a|`).

use super::entry::{half_space, Span, V64};
use super::Cast64;
use fathom_math::Vector;
use fathom_sdf::Sdf;

/// Where the cast's centre is within `grow` of touching `n · p <= offset`.
pub(super) fn span<const D: usize>(
    normal: &V64<D>,
    offset: f64,
    cast: &Cast64<D>,
    grow: f64,
) -> Option<Span> {
    let reach = normal.dot(&cast.half_axis).abs();
    half_space(&cast.line, normal, offset + cast.radius + reach + grow)
}

/// The core's end lower along the normal (its middle when it lies parallel to the plane).
pub(super) fn core<const D: usize>(
    target: &dyn Sdf<D>,
    centre: &Vector<D>,
    half_axis: &Vector<D>,
) -> Vector<D> {
    let fathom_sdf::ShapeKind::HalfSpace { normal, .. } = target.kind() else {
        return *centre;
    };
    let along = normal.dot(half_axis);
    if along.abs() <= 1e-6 * half_axis.norm() {
        *centre
    } else {
        centre - half_axis * along.signum()
    }
}
