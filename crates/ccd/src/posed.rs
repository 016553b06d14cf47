//! Casts against posed shapes and against a list of broadphase candidates.
//!
//! A field lives in its shape's local frame, so a world-frame cast is carried
//! into that frame (origin and direction by the inverse pose, a capsule's axis
//! by the inverse rotation), marched there, and its result carried back. Poses
//! are rigid, so distances along the direction are the same in both frames.

use crate::capsule_cast::SegmentProbe;
use crate::error::{check_pose, check_vector, unit_direction, CcdError, Result};
use crate::exact::Cast64;
use crate::field::Field;
use crate::march::march;
use crate::options::CastOptions;
use crate::result::CastResult;
use crate::sphere_cast::{check_cast, BallProbe};
use fathom_math::{Dim, Pose, Real, Space, Vector};
use fathom_sdf::Sdf;

/// The shape being swept.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum CastShape<const D: usize> {
    /// A ball of this radius (metres) centred on the cast origin; radius 0 is a ray.
    Ball {
        /// Radius, metres.
        radius: Real,
    },
    /// A capsule: the segment from `origin - half_axis` to `origin + half_axis`
    /// (in the frame of the cast), inflated by `radius`.
    Capsule {
        /// Half the core segment, metres, in the frame of the cast.
        half_axis: Vector<D>,
        /// Radius, metres.
        radius: Real,
    },
}

impl<const D: usize> CastShape<D> {
    /// A ray (a ball of radius 0).
    pub fn ray() -> Self {
        Self::Ball { radius: 0.0 }
    }

    fn radius(&self) -> Real {
        match self {
            Self::Ball { radius } | Self::Capsule { radius, .. } => *radius,
        }
    }

    /// Checks what the radius check does not: a capsule's axis must be finite.
    fn check(&self) -> Result<()> {
        match self {
            Self::Ball { .. } => Ok(()),
            Self::Capsule { half_axis, .. } => check_vector("half_axis", half_axis).map(|_| ()),
        }
    }

    /// The same shape in the local frame of `pose` (a capsule's axis turned back by its rotation).
    fn in_frame_of(&self, pose: &Pose<D>) -> Self
    where
        Space<D>: Dim<D>,
    {
        match *self {
            Self::Capsule { half_axis, radius } => Self::Capsule {
                half_axis: pose.inverse_transform_vector(&half_axis),
                radius,
            },
            ball => ball,
        }
    }
}

/// Casts `shape` from `origin` along `dir` for at most `max_dist` against `sdf`,
/// all in the shape's local frame. The general form of [`crate::sphere_cast`],
/// [`crate::ray_cast`] and [`crate::capsule_cast`].
pub fn cast<const D: usize>(
    sdf: &dyn Sdf<D>,
    shape: &CastShape<D>,
    origin: &Vector<D>,
    dir: &Vector<D>,
    max_dist: Real,
    opts: &CastOptions,
) -> Result<CastResult<D>> {
    cast_from("origin", sdf, shape, origin, dir, max_dist, opts)
}

/// [`cast`] with the origin's argument named `origin_field` in errors (a capsule's
/// origin is its `center`): the one place every local-frame cast is checked and marched.
pub(crate) fn cast_from<const D: usize>(
    origin_field: &'static str,
    sdf: &dyn Sdf<D>,
    shape: &CastShape<D>,
    origin: &Vector<D>,
    dir: &Vector<D>,
    max_dist: Real,
    opts: &CastOptions,
) -> Result<CastResult<D>> {
    let unit = check_cast(origin_field, origin, dir, shape.radius(), max_dist, opts)?;
    shape.check()?;
    let exact = Cast64::local(shape, origin, dir);
    cast_checked(sdf, shape, origin, &unit, &exact, max_dist, opts)
}

/// A checked cast in the shape's local frame (`dir` unit): in closed form where the pair has
/// one, else marched.
fn cast_checked<const D: usize>(
    sdf: &dyn Sdf<D>,
    shape: &CastShape<D>,
    origin: &Vector<D>,
    dir: &Vector<D>,
    exact: &Cast64<D>,
    max_dist: Real,
    opts: &CastOptions,
) -> Result<CastResult<D>> {
    let field = Field::new("sdf", sdf)?;
    if opts.closed_form {
        let half_axis = match shape {
            CastShape::Capsule { half_axis, .. } => *half_axis,
            CastShape::Ball { .. } => Vector::zeros(),
        };
        let closed = crate::exact::cast(&field, exact, origin, dir, &half_axis, max_dist, opts)?;
        if let Some(result) = closed {
            return Ok(result);
        }
    }
    match *shape {
        CastShape::Ball { radius } => march(
            &field,
            &mut BallProbe { radius },
            origin,
            dir,
            max_dist,
            opts,
        ),
        CastShape::Capsule { half_axis, radius } => march(
            &field,
            &mut SegmentProbe::new(half_axis, radius),
            origin,
            dir,
            max_dist,
            opts,
        ),
    }
}

/// [`cast`] against a shape placed in the world by `pose`: `origin`, `dir`, a capsule's
/// `half_axis` and the result are all in the world frame.
pub fn cast_posed<const D: usize>(
    sdf: &dyn Sdf<D>,
    pose: &Pose<D>,
    shape: &CastShape<D>,
    origin: &Vector<D>,
    dir: &Vector<D>,
    max_dist: Real,
    opts: &CastOptions,
) -> Result<CastResult<D>>
where
    Space<D>: Dim<D>,
{
    cast_posed_from("origin", sdf, pose, shape, origin, dir, max_dist, opts)
}

/// [`cast_posed`] with the origin's argument named `origin_field` in errors.
#[allow(clippy::too_many_arguments)]
fn cast_posed_from<const D: usize>(
    origin_field: &'static str,
    sdf: &dyn Sdf<D>,
    pose: &Pose<D>,
    shape: &CastShape<D>,
    origin: &Vector<D>,
    dir: &Vector<D>,
    max_dist: Real,
    opts: &CastOptions,
) -> Result<CastResult<D>>
where
    Space<D>: Dim<D>,
{
    check_pose("pose", pose)?;
    // Validate in the world frame so errors name what the caller passed.
    check_cast(origin_field, origin, dir, shape.radius(), max_dist, opts)?;
    shape.check()?;
    let local_origin = pose.inverse_transform_point(&(*origin).into()).coords;
    let local_dir = pose.inverse_transform_vector(dir);
    let local_shape = shape.in_frame_of(pose);
    let local_unit = unit_direction("dir", &local_dir)?;
    let exact = Cast64::posed(shape, origin, dir, pose);
    let local = cast_checked(
        sdf,
        &local_shape,
        &local_origin,
        &local_unit,
        &exact,
        max_dist,
        opts,
    )?;
    Ok(local.transformed(pose))
}

/// [`crate::sphere_cast`] against a posed shape; world frame in and out.
pub fn sphere_cast_posed<const D: usize>(
    sdf: &dyn Sdf<D>,
    pose: &Pose<D>,
    origin: &Vector<D>,
    dir: &Vector<D>,
    radius: Real,
    max_dist: Real,
    opts: &CastOptions,
) -> Result<CastResult<D>>
where
    Space<D>: Dim<D>,
{
    let shape = CastShape::Ball { radius };
    cast_posed(sdf, pose, &shape, origin, dir, max_dist, opts)
}

/// [`crate::ray_cast`] against a posed shape; world frame in and out.
pub fn ray_cast_posed<const D: usize>(
    sdf: &dyn Sdf<D>,
    pose: &Pose<D>,
    origin: &Vector<D>,
    dir: &Vector<D>,
    max_dist: Real,
    opts: &CastOptions,
) -> Result<CastResult<D>>
where
    Space<D>: Dim<D>,
{
    cast_posed(sdf, pose, &CastShape::ray(), origin, dir, max_dist, opts)
}

/// [`crate::capsule_cast`] against a posed shape; world frame in and out.
#[allow(clippy::too_many_arguments)]
pub fn capsule_cast_posed<const D: usize>(
    sdf: &dyn Sdf<D>,
    pose: &Pose<D>,
    center: &Vector<D>,
    half_axis: &Vector<D>,
    radius: Real,
    dir: &Vector<D>,
    max_dist: Real,
    opts: &CastOptions,
) -> Result<CastResult<D>>
where
    Space<D>: Dim<D>,
{
    let shape = CastShape::Capsule {
        half_axis: *half_axis,
        radius,
    };
    cast_posed_from("center", sdf, pose, &shape, center, dir, max_dist, opts)
}

/// The earliest contact among candidates.
#[derive(Clone, Debug, PartialEq)]
pub struct CandidatesResult<const D: usize> {
    /// The earliest [`CastResult::Hit`] or [`CastResult::StartedInside`] (world frame) and
    /// the index of its candidate; the lowest index wins a tie. `None` when no candidate is hit.
    pub earliest: Option<(usize, CastResult<D>)>,
    /// Candidates whose cast ran out of steps before the earliest contact (or anywhere, when
    /// there is none), with how far each proved the path clear: the earliest contact is only
    /// certain up to the smallest of these. Sorted by index.
    pub capped: Vec<(usize, Real)>,
}

/// Casts `shape` (world frame) against every `(shape, pose)` candidate and keeps the
/// earliest contact. Later candidates are cast only as far as the earliest hit so far.
/// Deterministic: candidates are visited in order. Errors name the candidate's index.
pub fn cast_candidates<const D: usize>(
    candidates: &[(&dyn Sdf<D>, Pose<D>)],
    shape: &CastShape<D>,
    origin: &Vector<D>,
    dir: &Vector<D>,
    max_dist: Real,
    opts: &CastOptions,
) -> Result<CandidatesResult<D>>
where
    Space<D>: Dim<D>,
{
    check_cast("origin", origin, dir, shape.radius(), max_dist, opts)?;
    let mut out = CandidatesResult {
        earliest: None,
        capped: Vec::new(),
    };
    let mut limit = max_dist;
    for (index, (sdf, pose)) in candidates.iter().enumerate() {
        // Epsilon past the earliest hit: a candidate whose surface is just past it would
        // otherwise end its shortened cast within epsilon of that surface, a hit earlier than
        // the real one. Its own crossing (refined) or first point within epsilon decides.
        let reach = (limit + opts.epsilon).min(max_dist);
        let result = cast_posed(*sdf, pose, shape, origin, dir, reach, opts).map_err(|e| {
            CcdError::Candidate {
                index,
                source: Box::new(e),
            }
        })?;
        match result {
            CastResult::Hit {
                distance,
                center,
                point,
                normal,
                steps,
                ..
            } if distance < limit || out.earliest.is_none() => {
                let fraction = if max_dist > 0.0 {
                    (distance / max_dist).min(1.0)
                } else {
                    0.0
                };
                limit = distance;
                out.earliest = Some((
                    index,
                    CastResult::Hit {
                        distance,
                        fraction,
                        center,
                        point,
                        normal,
                        steps,
                    },
                ));
            }
            CastResult::StartedInside { .. } => {
                out.earliest = Some((index, result));
                limit = 0.0;
                break;
            }
            CastResult::StepCap {
                distance_reached, ..
            } => out.capped.push((index, distance_reached)),
            _ => {}
        }
    }
    out.capped
        .retain(|&(_, reached)| reached < limit || out.earliest.is_none());
    Ok(out)
}
