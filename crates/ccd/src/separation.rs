//! A conservative separation estimate between two posed fields.
//!
//! For any point `x`, `dist(x, A) + dist(x, B) >= dist(A, B)`, with equality
//! on the segment between the closest points. The normalised fields never
//! exceed the true distances, so `h(x) = d_A(x)/L_A + d_B(x)/L_B` never exceeds
//! `dist(x, A) + dist(x, B)`, and its minimum over any region that holds one of
//! the closest points (the box of either shape does) is a lower bound on
//! `dist(A, B)`. For exact fields it is the distance itself: points inside `A`
//! give `dist(x, B) - depth_A(x) >= dist(A, B)`. `h` is 2-Lipschitz, so the
//! bound-split search of [`crate::bound_split`] minimises it with proven lower
//! bounds. The search runs in the local frame of the shape with the smaller
//! box (its box is tight there; the other field is evaluated through the
//! relative pose). A negative minimum means the shapes overlap.

use crate::bound_split::{minimise, Scratch, Stop};
use crate::error::Result;
use crate::field::Field;
use fathom_math::{Dim, Pose, Real, Space, Vector};

/// What the search proved about the separation (metres; world frame points).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Separation<const D: usize> {
    /// The shapes are at least this far apart (negative: they may overlap).
    pub lower: Real,
    /// The smallest `h` sampled: the shapes are this close as far as the fields tell.
    pub upper: Real,
    /// Witness point on A's surface (estimate), world frame.
    pub point_a: Vector<D>,
    /// Witness point on B's surface (estimate), world frame.
    pub point_b: Vector<D>,
    /// Unit normal from A towards B, world frame.
    pub normal: Vector<D>,
    /// Evaluations (of both fields) spent.
    pub evals: u32,
}

/// Bounds the separation of `a` at `pose_a` and `b` at `pose_b`.
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
    let (box_a, box_b) = (a.sdf().bounds(), b.sdf().bounds());
    if box_a.is_empty() || box_b.is_empty() {
        return Ok(None);
    }
    // Search in the frame of the smaller box; `s` is that shape, `o` the other.
    let a_is_search = box_a.radius() <= box_b.radius();
    let (s, pose_s, o, pose_o, root) = if a_is_search {
        (a, pose_a, b, pose_b, box_a)
    } else {
        (b, pose_b, a, pose_a, box_b)
    };
    let rel = pose_o.inv_mul(pose_s);
    let m = minimise(&root, 2.0, stop, heap, |x| {
        let in_o = rel.transform_point(&(*x).into()).coords;
        Ok(s.value(x)? + o.value(&in_o)?)
    })?;
    let x_s = m.argmin;
    let x_o = rel.transform_point(&x_s.into()).coords;
    // Outward normals and nearest surface points of each shape, world frame.
    let witness =
        |f: &Field<'_, D>, pose: &Pose<D>, x: &Vector<D>| -> Result<(Vector<D>, Vector<D>)> {
            let n = pose.transform_vector(&f.normal(x));
            let p = pose.transform_point(&(*x).into()).coords - n * f.value(x)?;
            Ok((p, n))
        };
    let (p_s, n_s) = witness(s, pose_s, &x_s)?;
    let (p_o, n_o) = witness(o, pose_o, &x_o)?;
    let ((point_a, n_a), (point_b, n_b)) = if a_is_search {
        ((p_s, n_s), (p_o, n_o))
    } else {
        ((p_o, n_o), (p_s, n_s))
    };
    // A's outward normal and the reverse of B's agree at a contact; average them.
    let both = n_a - n_b;
    let normal = if both.norm() > 1e-6 {
        both.normalize()
    } else {
        n_a
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
