//! The world's typed errors. Every invalid value names its field (with a
//! path such as `bodies[2].colliders[0].density` when it comes from a scene).

use crate::arena::{BodyHandle, ColliderHandle};
use fathom_sdf::SdfError;
use thiserror::Error;

/// What a world call rejected. A call that returns an error changed nothing.
#[derive(Debug, Error, Clone, PartialEq)]
pub enum WorldError {
    /// A value was NaN, infinite, or out of its range.
    #[error("invalid `{field}`: {reason}")]
    Invalid {
        /// The offending field.
        field: String,
        /// Why it was rejected.
        reason: String,
    },
    /// A shape failed its own validation.
    #[error("invalid shape in `{field}`: {source}")]
    Shape {
        /// The collider's shape field.
        field: String,
        /// The shape's own error (names the shape's field).
        source: SdfError,
    },
    /// The body handle is stale or was never issued by this world.
    #[error("no body {0:?} in this world")]
    NoSuchBody(BodyHandle),
    /// The collider handle is stale or was never issued by this world.
    #[error("no collider {0:?} in this world")]
    NoSuchCollider(ColliderHandle),
}

impl WorldError {
    /// An [`WorldError::Invalid`] for `field`.
    pub fn invalid(field: impl Into<String>, reason: impl Into<String>) -> Self {
        Self::Invalid {
            field: field.into(),
            reason: reason.into(),
        }
    }

    /// The same error with its field prefixed by `path` (`path.field`).
    pub fn prefixed(self, path: &str) -> Self {
        match self {
            Self::Invalid { field, reason } => Self::Invalid {
                field: format!("{path}.{field}"),
                reason,
            },
            Self::Shape { field, source } => Self::Shape {
                field: format!("{path}.{field}"),
                source,
            },
            other => other,
        }
    }

    /// The field this error names, if any.
    pub fn field(&self) -> Option<&str> {
        match self {
            Self::Invalid { field, .. } | Self::Shape { field, .. } => Some(field),
            _ => None,
        }
    }
}

pub(crate) fn check_finite(field: &str, x: f32) -> Result<(), WorldError> {
    if x.is_finite() {
        Ok(())
    } else {
        Err(WorldError::invalid(
            field,
            format!("must be finite, got {x}"),
        ))
    }
}

pub(crate) fn check_non_negative(field: &str, x: f32) -> Result<(), WorldError> {
    check_finite(field, x)?;
    if x >= 0.0 {
        Ok(())
    } else {
        Err(WorldError::invalid(
            field,
            format!("must not be negative, got {x}"),
        ))
    }
}

pub(crate) fn check_positive(field: &str, x: f32) -> Result<(), WorldError> {
    check_finite(field, x)?;
    if x > 0.0 {
        Ok(())
    } else {
        Err(WorldError::invalid(
            field,
            format!("must be positive, got {x}"),
        ))
    }
}

pub(crate) fn check_finite_all<'a>(
    field: &str,
    xs: impl IntoIterator<Item = &'a f32>,
) -> Result<(), WorldError> {
    for x in xs {
        check_finite(field, *x)?;
    }
    Ok(())
}
