//! Sphere and ray casts against one field, in the shape's local frame.
//!
//! A ball of radius `r` touches the shape exactly when its centre touches the
//! shape inflated by `r`, whose (lower-bound) field is `d / L - r`: the cast
//! marches the centre as a point against that (see [`crate::march`] for the
//! loop). A ray is the same cast with `r = 0`.

use crate::error::{check_non_negative, check_vector, unit_direction, Result};
use crate::field::Field;
use crate::march::{Probe, Sample};
use crate::options::CastOptions;
use crate::result::CastResult;
use fathom_math::{Real, Vector};
use fathom_sdf::Sdf;

/// A ball: one evaluation bounds its gap exactly.
pub(crate) struct BallProbe {
    pub radius: Real,
}

impl<const D: usize> Probe<D> for BallProbe {
    fn reach(&self) -> Real {
        self.radius
    }
    fn radius(&self) -> Real {
        self.radius
    }
    fn sample(
        &mut self,
        field: &Field<'_, D>,
        center: &Vector<D>,
        _threshold: Real,
        _epsilon: Real,
        _budget: u32,
    ) -> Result<Sample<D>> {
        let gap = field.value(center)? - self.radius;
        Ok(Sample {
            lower: gap,
            upper: gap,
            at: *center,
            evals: 1,
        })
    }
}

/// Checks the arguments shared by every cast; returns the unit direction.
pub(crate) fn check_cast<const D: usize>(
    origin_field: &'static str,
    origin: &Vector<D>,
    dir: &Vector<D>,
    radius: Real,
    max_dist: Real,
    opts: &CastOptions,
) -> Result<Vector<D>> {
    check_vector(origin_field, origin)?;
    let dir = unit_direction("dir", dir)?;
    check_non_negative("radius", radius)?;
    check_non_negative("max_dist", max_dist)?;
    opts.validate()?;
    Ok(dir)
}

/// Casts a ball of `radius` (metres) from `origin` along `dir` for at most `max_dist`
/// metres against `sdf`. Everything is in the shape's local frame; `dir` need not be
/// unit length (it is normalised, and distances are along the unit direction) but must
/// be non-zero and finite.
///
/// See [`CastResult`] for the four outcomes. Errors: a non-finite `origin`, a zero or
/// non-finite `dir`, a negative or non-finite `radius` / `max_dist`, bad `opts`, a
/// shape with a bad Lipschitz constant or a NaN distance.
pub fn sphere_cast<const D: usize>(
    sdf: &dyn Sdf<D>,
    origin: &Vector<D>,
    dir: &Vector<D>,
    radius: Real,
    max_dist: Real,
    opts: &CastOptions,
) -> Result<CastResult<D>> {
    let shape = crate::posed::CastShape::Ball { radius };
    crate::posed::cast_from("origin", sdf, &shape, origin, dir, max_dist, opts)
}

/// Casts a ray: a [`sphere_cast`] of radius 0. Local frame, metres.
pub fn ray_cast<const D: usize>(
    sdf: &dyn Sdf<D>,
    origin: &Vector<D>,
    dir: &Vector<D>,
    max_dist: Real,
    opts: &CastOptions,
) -> Result<CastResult<D>> {
    sphere_cast(sdf, origin, dir, 0.0, max_dist, opts)
}
