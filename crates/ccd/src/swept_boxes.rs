//! A cheap proof that two boxes stay apart while one translates relative to the other.
//!
//! Every shape lies inside its local bounds, so two bounds boxes that stay apart prove the
//! shapes do too: a time-of-impact caller can drop the pair before any separation search.
//! The box swept along the motion is the box's Minkowski sum with a segment, and its
//! difference with the other box is a zonotope with generators the edges of both boxes and
//! the motion. Its face normals are the separating axes: the faces of both boxes, in 2D the
//! motion's perpendicular, and in 3D the cross products of the edges and of the motion with
//! each edge. Those 3D cross products are left out (the test is then weaker, never wrong):
//! in a falling pile they cost more than the time-of-impact queries they saved. Unlike a
//! world-axis box test, a box falling past a neighbour beside it is dropped: only the
//! motion's component along each face normal counts.

use fathom_math::{Aabb, Dim, Pose, Real, Space, Vector};

/// Relative rounding allowance: each projection is a few dozen f32 operations on
/// coordinates no larger than the scale they are measured against (6e-8 of it each), so
/// 1e-5 of that scale covers them with room and a proof is never lost to rounding.
const ROUNDING: Real = 1e-5;

/// False when no point of `bounds_a` (a local box, placed by `pose_a`) translated by
/// `s * shift` for any `s` in `[0, 1]` comes within `slack` of `bounds_b` placed by `pose_b`:
/// shapes inside those bounds cannot then meet. True proves nothing (the boxes may meet, or
/// the test may not find the axis that separates them). Empty bounds give true (the caller
/// decides what a shape with no solid does). A rotation is the caller's to fold into
/// `slack`: a point `reach` from its spin centre that turns by `angle` strays at most
/// `angle * reach` from where the translation alone takes it.
pub fn swept_boxes_may_meet<const D: usize>(
    bounds_a: &Aabb<D>,
    pose_a: &Pose<D>,
    bounds_b: &Aabb<D>,
    pose_b: &Pose<D>,
    shift: &Vector<D>,
    slack: Real,
) -> bool
where
    Space<D>: Dim<D>,
{
    if bounds_a.is_empty() || bounds_b.is_empty() {
        return true;
    }
    // Everything in A's frame, where A's box is axis-aligned: `r`'s columns are B's axes.
    let rot_a = Space::<D>::rotation_matrix(&pose_a.rotation);
    let r = rot_a.tr_mul(&Space::<D>::rotation_matrix(&pose_b.rotation));
    let abs_r = r.abs();
    let centre = |bounds: &Aabb<D>, pose: &Pose<D>| pose.transform_point(&bounds.center().into());
    let between = centre(bounds_b, pose_b) - centre(bounds_a, pose_a);
    let (t, d) = (rot_a.tr_mul(&between), rot_a.tr_mul(shift));
    let (ha, hb) = (bounds_a.half_extents(), bounds_b.half_extents());
    let scale = pose_a
        .translation
        .vector
        .amax()
        .max(pose_b.translation.vector.amax())
        + between.amax()
        + shift.amax()
        + ha.amax()
        + hb.amax();
    let slack = slack + ROUNDING * scale;
    // Separated along `l` (scaled by `len`, both radii `reach`) when the interval A's centre
    // sweeps and B's centre are farther apart there than the radii and the slack.
    let separates = |gap: Real, moved: Real, reach: Real| {
        gap - moved.max(0.0) > reach || moved.min(0.0) - gap > reach
    };
    let apart =
        |l: &Vector<D>, len: Real, reach: Real| separates(t.dot(l), d.dot(l), reach + slack * len);
    let faces_a = (0..D).any(|i| {
        let reach = ha[i] + hb.dot(&abs_r.row(i).transpose());
        separates(t[i], d[i], reach + slack)
    });
    let faces_b = || {
        (0..D).any(|j| {
            let reach = ha.dot(&abs_r.column(j)) + hb[j];
            apart(&r.column(j).into_owned(), 1.0, reach)
        })
    };
    if faces_a || faces_b() {
        return false;
    }
    if D == 2 {
        // The motion's own edge: its perpendicular (no motion along it).
        let mut perp = Vector::<D>::zeros();
        perp[0] = -d[1];
        perp[1] = d[0];
        let reach = ha.dot(&perp.abs()) + hb.dot(&r.tr_mul(&perp).abs());
        return !apart(&perp, perp.norm(), reach);
    }
    true
}
