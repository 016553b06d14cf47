//! Typed errors for bad user input.
//!
//! Every public entry point validates its input before touching the
//! structure, so an error never leaves a half-updated tree behind.

use fathom_math::{Aabb, Real, Vector};
use thiserror::Error;

/// What went wrong with a broadphase call.
#[derive(Clone, Copy, Debug, Error, PartialEq)]
pub enum BroadphaseError {
    /// A box has a NaN or infinite coordinate.
    #[error("`{field}` is not finite (a coordinate is NaN or infinite)")]
    NonFiniteAabb {
        /// The argument that held the bad box.
        field: &'static str,
    },
    /// A box has `min > max` on some axis.
    #[error("`{field}` is inverted: min > max on axis {axis}")]
    InvertedAabb {
        /// The argument that held the bad box.
        field: &'static str,
        /// The first axis where `min > max`.
        axis: usize,
    },
    /// No proxy has this key.
    #[error("unknown proxy key {key}")]
    UnknownKey {
        /// The key that was asked for.
        key: u64,
    },
    /// A proxy with this key already exists.
    #[error("duplicate proxy key {key}")]
    DuplicateKey {
        /// The key that was inserted twice.
        key: u64,
    },
    /// A query or configuration scalar or vector is NaN, infinite or out of range.
    #[error("`{field}` is invalid: {reason}")]
    InvalidArgument {
        /// The argument's name.
        field: &'static str,
        /// Why it was refused.
        reason: &'static str,
    },
}

/// Checks that `aabb` is finite with `min <= max` on every axis.
pub(crate) fn check_aabb<const D: usize>(
    field: &'static str,
    aabb: &Aabb<D>,
) -> Result<(), BroadphaseError> {
    if !aabb
        .min
        .iter()
        .chain(aabb.max.iter())
        .all(|x| x.is_finite())
    {
        return Err(BroadphaseError::NonFiniteAabb { field });
    }
    match (0..D).find(|&i| aabb.min[i] > aabb.max[i]) {
        Some(axis) => Err(BroadphaseError::InvertedAabb { field, axis }),
        None => Ok(()),
    }
}

/// Checks that every component of `v` is finite.
pub(crate) fn check_vector<const D: usize>(
    field: &'static str,
    v: &Vector<D>,
) -> Result<(), BroadphaseError> {
    if v.iter().all(|x| x.is_finite()) {
        Ok(())
    } else {
        Err(BroadphaseError::InvalidArgument {
            field,
            reason: "not finite",
        })
    }
}

/// Checks that `x` is finite and not negative.
pub(crate) fn check_non_negative(field: &'static str, x: Real) -> Result<(), BroadphaseError> {
    if x.is_finite() && x >= 0.0 {
        Ok(())
    } else {
        Err(BroadphaseError::InvalidArgument {
            field,
            reason: "must be finite and >= 0",
        })
    }
}
