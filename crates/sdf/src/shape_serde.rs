//! Reading shape trees with a bounded depth, in every serde format.
//!
//! A shape's children are boxed shapes, so a derived decoder recurses once per level of the
//! tree: a binary snapshot 100,000 levels deep overflowed the stack inside the decoder, before
//! [`Shape::validate`] could refuse it. Here every [`Shape`] node read counts itself on a
//! per-thread counter and the read fails with a serde error naming [`MAX_SHAPE_DEPTH`] as soon
//! as the count passes it, so the recursion is never deeper than the limit. The counter is
//! restored when a node's read ends, also by an error or an unwinding panic.
//!
//! [`decode_shapes`] runs a decoder and tells a refusal for depth apart from any other failure
//! of the format, so a caller can return its own typed error.

use crate::shape::{Shape, MAX_SHAPE_DEPTH};
use crate::SdfError;
use fathom_math::{Dim, Space};
use serde::{de, Deserialize, Deserializer, Serialize, Serializer};
use std::cell::Cell;

thread_local! {
    /// Shape nodes being read on this thread, outermost first.
    static DEPTH: Cell<usize> = const { Cell::new(0) };
    /// Whether a node was refused for depth since the last [`decode_shapes`] began.
    static REFUSED: Cell<bool> = const { Cell::new(false) };
}

/// One level of a shape tree being read; leaving it (drop, error or unwind) pops the level.
struct Level;

impl Level {
    /// Enters a level, or `None` (remembering the refusal) past [`MAX_SHAPE_DEPTH`].
    fn enter() -> Option<Self> {
        let depth = DEPTH.with(Cell::get) + 1;
        if depth > MAX_SHAPE_DEPTH {
            REFUSED.with(|r| r.set(true));
            return None;
        }
        DEPTH.with(|d| d.set(depth));
        Some(Level)
    }
}

impl Drop for Level {
    fn drop(&mut self) {
        DEPTH.with(|d| d.set(d.get().saturating_sub(1)));
    }
}

/// The error a tree deeper than [`MAX_SHAPE_DEPTH`] gets, wherever it is found.
pub(crate) fn too_deep() -> SdfError {
    SdfError::TooDeep {
        field: "shape",
        max: MAX_SHAPE_DEPTH,
    }
}

/// The derived decoder (`#[serde(remote = "Self")]` on [`Shape`] makes it the inherent
/// `Shape::deserialize`), entered only within the depth limit.
impl<'de, const D: usize> Deserialize<'de> for Shape<D>
where
    Space<D>: Dim<D>,
{
    fn deserialize<De: Deserializer<'de>>(deserializer: De) -> Result<Self, De::Error> {
        let _level = Level::enter().ok_or_else(|| de::Error::custom(too_deep()))?;
        // The inherent function (the derived decoder), not this trait method.
        Shape::<D>::deserialize(deserializer)
    }
}

/// The derived encoder, unchanged (`remote = "Self"` applies to both derives).
impl<const D: usize> Serialize for Shape<D>
where
    Space<D>: Dim<D>,
{
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        // The inherent function (the derived encoder), not this trait method.
        Shape::<D>::serialize(self, serializer)
    }
}

/// Why [`decode_shapes`] failed.
#[derive(Debug, Clone, PartialEq)]
pub enum ShapeDecodeError<E> {
    /// The data holds a shape tree deeper than [`MAX_SHAPE_DEPTH`]; reading stopped there.
    TooDeep,
    /// Any other failure of the format.
    Format(E),
}

impl<E> ShapeDecodeError<E> {
    /// The same error with the format's error mapped by `f`.
    pub fn map_format<F>(self, f: impl FnOnce(E) -> F) -> ShapeDecodeError<F> {
        match self {
            Self::TooDeep => ShapeDecodeError::TooDeep,
            Self::Format(e) => ShapeDecodeError::Format(f(e)),
        }
    }
}

/// Runs `decode` (any serde decoder of data that may hold shape trees) and tells a tree
/// refused for being deeper than [`MAX_SHAPE_DEPTH`] apart from other failures.
pub fn decode_shapes<T, E>(
    decode: impl FnOnce() -> Result<T, E>,
) -> Result<T, ShapeDecodeError<E>> {
    let outer = REFUSED.with(|r| r.replace(false));
    let result = decode();
    let refused = REFUSED.with(|r| r.replace(outer));
    result.map_err(|e| {
        if refused {
            ShapeDecodeError::TooDeep
        } else {
            ShapeDecodeError::Format(e)
        }
    })
}
