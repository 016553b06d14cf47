//! Typed errors for bad cast and time-of-impact input.
//!
//! Every public entry point validates what the caller passes before it
//! marches: a NaN or infinite coordinate, a zero direction, a negative radius
//! or distance, a non-finite pose. Each is reported with the name of the
//! offending argument so the caller can find it, and nothing downstream ever
//! sees a NaN.

use fathom_math::{is_finite_vec, Dim, Pose, Real, Space, Vector};
use thiserror::Error;

/// What was wrong with the input of a cast or time-of-impact query.
#[derive(Debug, Error, Clone, PartialEq)]
pub enum CcdError {
    /// A scalar argument was NaN or infinite.
    #[error("`{field}` must be finite, got {value}")]
    NonFinite {
        /// The argument.
        field: &'static str,
        /// The value given.
        value: Real,
    },
    /// A vector argument had a NaN or infinite component.
    #[error("`{field}` must have finite components")]
    NonFiniteVector {
        /// The argument.
        field: &'static str,
    },
    /// A direction was (numerically) the zero vector.
    #[error("`{field}` must not be the zero vector")]
    ZeroVector {
        /// The argument.
        field: &'static str,
    },
    /// A radius, distance or time was negative.
    #[error("`{field}` must not be negative, got {value}")]
    Negative {
        /// The argument.
        field: &'static str,
        /// The value given.
        value: Real,
    },
    /// A tolerance that must be strictly positive was not.
    #[error("`{field}` must be positive, got {value}")]
    NonPositive {
        /// The argument.
        field: &'static str,
        /// The value given.
        value: Real,
    },
    /// A pose had a NaN or infinite translation or rotation.
    #[error("pose `{field}` must be finite")]
    NonFinitePose {
        /// The argument.
        field: &'static str,
    },
    /// A shape reported a Lipschitz constant that is not finite and positive,
    /// so no step along its field can be trusted.
    #[error("shape `{field}` reports Lipschitz constant {value}; it must be finite and positive")]
    BadLipschitz {
        /// The shape argument.
        field: &'static str,
        /// The constant it reported.
        value: Real,
    },
    /// A shape's distance field returned NaN during the query.
    #[error("shape `{field}` returned NaN from its distance field")]
    NanDistance {
        /// The shape argument.
        field: &'static str,
    },
    /// One entry of a candidate list was bad.
    #[error("candidate {index}: {source}")]
    Candidate {
        /// Position of the candidate in the list.
        index: usize,
        /// What was wrong with it.
        source: Box<CcdError>,
    },
}

/// Result alias of this crate.
pub type Result<T> = std::result::Result<T, CcdError>;

/// Below this length a direction is treated as zero (its square would underflow `f32`).
const MIN_DIRECTION_NORM: Real = 1e-12;

pub(crate) fn check_finite(field: &'static str, value: Real) -> Result<Real> {
    if value.is_finite() {
        Ok(value)
    } else {
        Err(CcdError::NonFinite { field, value })
    }
}

pub(crate) fn check_non_negative(field: &'static str, value: Real) -> Result<Real> {
    check_finite(field, value)?;
    if value >= 0.0 {
        Ok(value)
    } else {
        Err(CcdError::Negative { field, value })
    }
}

pub(crate) fn check_positive(field: &'static str, value: Real) -> Result<Real> {
    check_finite(field, value)?;
    if value > 0.0 {
        Ok(value)
    } else {
        Err(CcdError::NonPositive { field, value })
    }
}

pub(crate) fn check_vector<const D: usize>(
    field: &'static str,
    v: &Vector<D>,
) -> Result<Vector<D>> {
    if is_finite_vec(v) {
        Ok(*v)
    } else {
        Err(CcdError::NonFiniteVector { field })
    }
}

/// The direction normalised to unit length; an error for a zero or non-finite one.
pub(crate) fn unit_direction<const D: usize>(
    field: &'static str,
    v: &Vector<D>,
) -> Result<Vector<D>> {
    check_vector(field, v)?;
    let n = v.norm();
    if n > MIN_DIRECTION_NORM && n.is_finite() {
        Ok(v / n)
    } else {
        Err(CcdError::ZeroVector { field })
    }
}

pub(crate) fn check_pose<const D: usize>(field: &'static str, pose: &Pose<D>) -> Result<()>
where
    Space<D>: Dim<D>,
{
    let r = Space::<D>::rotation_matrix(&pose.rotation);
    if is_finite_vec(&pose.translation.vector) && r.iter().all(|x| x.is_finite()) {
        Ok(())
    } else {
        Err(CcdError::NonFinitePose { field })
    }
}
