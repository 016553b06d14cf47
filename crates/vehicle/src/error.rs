//! Typed errors: every bad value names its field, so a scene file's author
//! (or a game) learns exactly what to fix, and nothing ever panics or goes NaN.

use fathom_math::Real;
use fathom_world::{BodyHandle, QueryError, WorldError};
use thiserror::Error;

/// Why a vehicle could not be built or stepped.
#[derive(Debug, Error, Clone, PartialEq)]
pub enum VehicleError {
    /// A value of the description or of the inputs is out of range.
    #[error("invalid vehicle value `{field}`: {reason}")]
    Invalid {
        /// The field's path, e.g. `wheels[2].radius`.
        field: String,
        /// Why it is rejected.
        reason: String,
    },
    /// The world refused the chassis (its body description is invalid).
    #[error("vehicle chassis: {0}")]
    World(#[from] WorldError),
    /// A wheel cast was refused (only for values the description checks let through).
    #[error("wheel cast: {0}")]
    Query(#[from] QueryError),
    /// The chassis body is no longer in the world.
    #[error("the vehicle's chassis body {0:?} is not in the world")]
    NoChassis(BodyHandle),
}

impl VehicleError {
    /// An [`VehicleError::Invalid`] for `field`.
    pub fn invalid(field: impl Into<String>, reason: impl Into<String>) -> Self {
        Self::Invalid {
            field: field.into(),
            reason: reason.into(),
        }
    }

    /// The same error with its field path prefixed (`wheels[1]` + `radius`).
    pub fn prefixed(self, path: &str) -> Self {
        match self {
            Self::Invalid { field, reason } => Self::Invalid {
                field: format!("{path}.{field}"),
                reason,
            },
            other => other,
        }
    }

    /// The field named by an [`VehicleError::Invalid`].
    pub fn field(&self) -> Option<&str> {
        match self {
            Self::Invalid { field, .. } => Some(field),
            _ => None,
        }
    }
}

/// `x` must be finite.
pub(crate) fn finite(field: &str, x: Real) -> Result<(), VehicleError> {
    if x.is_finite() {
        Ok(())
    } else {
        Err(VehicleError::invalid(
            field,
            format!("must be finite, got {x}"),
        ))
    }
}

/// `x` must be finite and not negative.
pub(crate) fn non_negative(field: &str, x: Real) -> Result<(), VehicleError> {
    if x.is_finite() && x >= 0.0 {
        Ok(())
    } else {
        Err(VehicleError::invalid(
            field,
            format!("must be finite and not negative, got {x}"),
        ))
    }
}

/// `x` must be finite and positive.
pub(crate) fn positive(field: &str, x: Real) -> Result<(), VehicleError> {
    if x.is_finite() && x > 0.0 {
        Ok(())
    } else {
        Err(VehicleError::invalid(
            field,
            format!("must be finite and positive, got {x}"),
        ))
    }
}

/// `x` must lie in `[lo, hi]` (and so be finite).
pub(crate) fn in_range(field: &str, x: Real, lo: Real, hi: Real) -> Result<(), VehicleError> {
    if x.is_finite() && (lo..=hi).contains(&x) {
        Ok(())
    } else {
        Err(VehicleError::invalid(
            field,
            format!("must lie in [{lo}, {hi}], got {x}"),
        ))
    }
}
