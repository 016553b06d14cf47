//! A conservative separation estimate between two posed fields.
//!
//! The distance between shapes A and B is the smallest distance to B of any
//! point of A. The normalised field `d_B / L_B` never exceeds the distance to
//! B, so its minimum over A's solid is a lower bound on `dist(A, B)`, and a
//! negative minimum means a point of A lies inside B (they overlap). The
//! bound-split search of `bound_split.rs` finds it: cells of A's box
//! are dropped when `d_A / L_A` at the centre exceeds the half diagonal (no
//! point of A inside), a kept cell is no closer to B than `d_B(c) / L_B - r`,
//! and only centres inside A count as samples.
//!
//! Why not minimise `d_A + d_B` over space (also a lower bound, and exact for
//! exact fields)? It is constant along the whole line through both closest
//! points, deep into both interiors, so the search must refine that entire
//! line to the tolerance; over A's solid, `d_B` grows as soon as the point
//! moves away from the closest point.
//!
//! Pairs of primitives (balls, capsules, boxes, half-spaces) skip the search:
//! `closed_form.rs` gives their separation exactly.
//!
//! The search runs in the local frame of the shape with the smaller box
//! (tight there; the other field is evaluated through the relative pose).

use crate::bound_split::{minimise, Eval, Scratch, Stop};
use crate::error::Result;
use crate::field::Field;
use fathom_math::{Dim, Pose, Real, Space, Vector};

/// What the search proved about the separation (metres; world frame points).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Separation<const D: usize> {
    /// The shapes are at least this far apart (negative: they may overlap).
    pub lower: Real,
    /// The closest sample: a point of one shape this far from the other, as far as
    /// the fields tell (negative: inside it).
    pub upper: Real,
    /// Witness point on A's surface (estimate), world frame.
    pub point_a: Vector<D>,
    /// Witness point on B's surface (estimate), world frame.
    pub point_b: Vector<D>,
    /// Unit normal from A towards B, world frame.
    pub normal: Vector<D>,
    /// Cells evaluated (each costs one or two field evaluations).
    pub evals: u32,
}

/// Bounds the separation of `a` at `pose_a` and `b` at `pose_b`; `None` when either
/// shape has no solid.
pub(crate) fn separation<const D: usize>(
    a: &Field<'_, D>,
    pose_a: &Pose<D>,
    b: &Field<'_, D>,
    pose_b: &Pose<D>,
    stop: &Stop,
    heap: &mut Scratch<D>,
) -> Result<Option<Separation<D>>>
where
    Space<D>: Dim<D>,
{
    if let Some(exact) = crate::closed_form::separation(a.sdf(), pose_a, b.sdf(), pose_b) {
        return Ok(Some(exact));
    }
    let (box_a, box_b) = (a.sdf().bounds(), b.sdf().bounds());
    if box_a.is_empty() || box_b.is_empty() {
        return Ok(None);
    }
    // Search over the solid of the shape with the smaller box (`s`); `o` is the other.
    let a_is_search = box_a.radius() <= box_b.radius();
    let (s, pose_s, o, pose_o, root) = if a_is_search {
        (a, pose_a, b, pose_b, box_a)
    } else {
        (b, pose_b, a, pose_a, box_b)
    };
    let rel = pose_o.inv_mul(pose_s);
    let m = minimise(&root, 1.0, stop, heap, |x, radius| {
        let in_s = s.value(x)?;
        if in_s > radius {
            return Ok(Eval::Outside);
        }
        let in_o = rel.transform_point(&(*x).into()).coords;
        Ok(Eval::Value(o.value(&in_o)?, in_s <= 0.0))
    })?;
    if !m.upper.is_finite() && !m.lower.is_finite() {
        return Ok(None); // no cell can hold a point of the searched shape
    }
    let x_s = m.argmin;
    let x_o = rel.transform_point(&x_s.into()).coords;
    // Outward normals and nearest surface points of each shape, world frame.
    let witness =
        |f: &Field<'_, D>, pose: &Pose<D>, x: &Vector<D>| -> Result<(Vector<D>, Vector<D>)> {
            let n = pose.transform_vector(&f.normal(x));
            let p = pose.transform_point(&(*x).into()).coords - n * f.value(x)?;
            Ok((p, n))
        };
    let (p_s, _) = witness(s, pose_s, &x_s)?;
    let (p_o, n_o) = witness(o, pose_o, &x_o)?;
    // At the closest point of the searched shape, the other field's gradient is the
    // direction of the closest pair (a vertex-face contact gets the face's normal).
    let (point_a, point_b, normal) = if a_is_search {
        (p_s, p_o, -n_o)
    } else {
        (p_o, p_s, n_o)
    };
    Ok(Some(Separation {
        lower: m.lower,
        upper: m.upper,
        point_a,
        point_b,
        normal,
        evals: m.evals,
    }))
}
