//! The typed errors of the narrowphase: bad poses, bad options, bad shapes, unsupported pairs.

use thiserror::Error;

use crate::dispatch::KindTag;

/// What went wrong before a query could run. Every variant names the offending field.
#[derive(Debug, Error, Clone, PartialEq)]
pub enum NarrowphaseError {
    /// A pose had a NaN or infinite component.
    #[error("`{field}` must be finite")]
    NonFinitePose {
        /// `pose_a` or `pose_b`.
        field: &'static str,
    },
    /// An option was NaN, infinite, negative or zero where it must be positive.
    #[error("option `{field}` is invalid: {reason}")]
    InvalidOption {
        /// The option's name (`margin`, `min_cell`, `max_cells`).
        field: &'static str,
        /// Why it was rejected.
        reason: String,
    },
    /// A shape reported unusable bounds or Lipschitz constant.
    #[error("shape `{field}` is invalid: {reason}")]
    InvalidShape {
        /// `a` or `b`.
        field: &'static str,
        /// Why it was rejected.
        reason: String,
    },
    /// `distance` found no point inside one of the shapes: a shape with no solid (a ball
    /// minus itself) is nowhere, so it has no distance to anything.
    #[error("no distance: a shape has no solid (the search found no point inside it)")]
    NoSolid,
    /// The pair of shape kinds has no query (for example two half-spaces).
    #[error("no narrowphase for {a:?} against {b:?}")]
    Unsupported {
        /// Kind of shape A.
        a: KindTag,
        /// Kind of shape B.
        b: KindTag,
    },
}
