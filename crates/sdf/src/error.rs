//! The typed errors of shape construction and loading.

use thiserror::Error;

/// What went wrong building or loading a shape. Every variant names the offending field.
#[derive(Debug, Error, Clone, PartialEq)]
pub enum SdfError {
    /// A value was NaN or infinite.
    #[error("`{field}` must be finite, got {value}")]
    NonFinite {
        /// The field that was not finite.
        field: &'static str,
        /// The value given.
        value: f32,
    },
    /// A size that must be positive was zero or negative.
    #[error("`{field}` must be positive, got {value}")]
    NonPositive {
        /// The field that was not positive.
        field: &'static str,
        /// The value given.
        value: f32,
    },
    /// A size that must not be negative was negative.
    #[error("`{field}` must not be negative, got {value}")]
    Negative {
        /// The field that was negative.
        field: &'static str,
        /// The value given.
        value: f32,
    },
    /// Some other invalid value, with a reason.
    #[error("`{field}` is invalid: {reason}")]
    Invalid {
        /// The field that was invalid.
        field: &'static str,
        /// Why.
        reason: String,
    },
}

/// Result alias of this crate.
pub type Result<T> = std::result::Result<T, SdfError>;

/// Checks that `value` is finite.
pub fn check_finite(field: &'static str, value: f32) -> Result<f32> {
    if value.is_finite() {
        Ok(value)
    } else {
        Err(SdfError::NonFinite { field, value })
    }
}

/// Checks that `value` is finite and strictly positive.
pub fn check_positive(field: &'static str, value: f32) -> Result<f32> {
    check_finite(field, value)?;
    if value > 0.0 {
        Ok(value)
    } else {
        Err(SdfError::NonPositive { field, value })
    }
}

/// Checks that `value` is finite and not negative.
pub fn check_non_negative(field: &'static str, value: f32) -> Result<f32> {
    check_finite(field, value)?;
    if value >= 0.0 {
        Ok(value)
    } else {
        Err(SdfError::Negative { field, value })
    }
}

/// Checks that every component of a vector is finite.
pub fn check_finite_vec<const D: usize>(field: &'static str, v: &fathom_math::Vector<D>) -> Result<()> {
    for x in v.iter() {
        check_finite(field, *x)?;
    }
    Ok(())
}
