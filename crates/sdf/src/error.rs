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
    /// A user field's declared Lipschitz constant is clearly false: a sampled slope is steeper
    /// (see `UserField::new`).
    #[error("user field `{name}` declares Lipschitz constant {declared}, but a sampled slope is {observed}")]
    LipschitzClaim {
        /// The user field's name.
        name: String,
        /// The constant it declares.
        declared: f32,
        /// The steepest slope sampled.
        observed: f32,
    },
    /// A user field is unusable (bounds not finite, a distance not finite, ...).
    #[error("user field `{name}` is invalid: {reason}")]
    UserField {
        /// The user field's name.
        name: String,
        /// Why.
        reason: String,
    },
    /// A user field read from a file (scene, snapshot) whose code was not attached again.
    #[error("user field `{name}` is not attached: scene files and snapshots keep only its name; pass the field when restoring (World::restore_with_fields)")]
    Detached {
        /// The user field's name.
        name: String,
    },
    /// A count (a grid resolution, a number of vertices) was below its minimum.
    #[error("`{field}` must be at least {min}, got {value}")]
    TooSmall {
        /// The field that was too small.
        field: &'static str,
        /// The value given.
        value: usize,
        /// The smallest value accepted.
        min: usize,
    },
    /// A request would need more memory than this crate allows (a grid or mesh too fine).
    #[error("`{field}` asks for {value} samples, more than the limit of {max}")]
    TooLarge {
        /// The field that asked for too much.
        field: &'static str,
        /// The number of samples it would need.
        value: usize,
        /// The limit.
        max: usize,
    },
    /// A shape tree nested deeper than [`crate::MAX_SHAPE_DEPTH`], found when it is built into
    /// a collider, validated or read (scene, snapshot, any serde format).
    #[error("`{field}` is a shape tree deeper than the limit of {max} nodes (MAX_SHAPE_DEPTH; operators nested in operators)")]
    TooDeep {
        /// The field holding the tree (`"shape"`).
        field: &'static str,
        /// The limit, [`crate::MAX_SHAPE_DEPTH`].
        max: usize,
    },
    /// Neighbouring samples of a baked grid that differ by more than a signed distance can
    /// over their spacing (see [`crate::BakedGrid`], "Samples are a distance").
    #[error("`{field}` is not a signed distance: samples {index} and {neighbour} (next along axis {axis}) differ by {difference}, more than the {limit} a distance can change over one {cell} m cell")]
    NotADistance {
        /// The field holding the samples (`"values"`).
        field: &'static str,
        /// Flat index of the first sample (axis 0 fastest).
        index: usize,
        /// Flat index of its neighbour.
        neighbour: usize,
        /// The axis along which they are neighbours.
        axis: usize,
        /// How much they differ.
        difference: f32,
        /// The most they may differ: the cell size plus the rounding tolerance.
        limit: f32,
        /// The cell size, metres.
        cell: f32,
    },
    /// A triangle mesh with no vertices or no triangles.
    #[error("the mesh has no {field}")]
    EmptyMesh {
        /// `"vertices"` or `"indices"`.
        field: &'static str,
    },
    /// A triangle refers to a vertex that does not exist.
    #[error("`{field}` refers to vertex {index}, but the mesh has {vertex_count} vertices")]
    IndexOutOfRange {
        /// The field holding the bad index (`"indices"`).
        field: &'static str,
        /// The index given.
        index: u32,
        /// How many vertices there are.
        vertex_count: usize,
    },
    /// A mesh that does not enclose a volume: some edge is not shared by exactly two
    /// triangles running along it in opposite directions.
    #[error("`{field}` does not make a closed, consistently oriented surface: edge {edge:?} is used {count} time(s) in that direction")]
    OpenMesh {
        /// The field holding the triangles (`"indices"`).
        field: &'static str,
        /// The offending edge, as a pair of vertex indices.
        edge: (u32, u32),
        /// How many triangles run along the edge in that direction (a closed surface has exactly 1,
        /// with its twin running the other way).
        count: usize,
    },
    /// A file or string that could not be parsed (RON shape, OBJ mesh, baked-grid file).
    #[error("malformed {format}{}: {message}", path.as_ref().map(|p| format!(" in `{p}`")).unwrap_or_default())]
    Parse {
        /// The format: `"RON"`, `"OBJ"` or `"grid"`.
        format: &'static str,
        /// The file, when it came from one.
        path: Option<String>,
        /// What the parser said, with the position or field name where it has one.
        message: String,
    },
    /// A file larger than the limit for its kind (see [`crate::read_limited`]); nothing past
    /// the limit was read.
    #[error("`{path}` is larger than {max_bytes} bytes, the most read from a file of this kind")]
    FileTooLarge {
        /// The file.
        path: String,
        /// The limit, bytes.
        max_bytes: u64,
    },
    /// A path that names a device, a directory or a socket rather than a file (`/dev/zero`
    /// would never end): refused before anything is read.
    #[error("`{path}` is a {kind}, not a file")]
    NotAFile {
        /// The path.
        path: String,
        /// What it is: `"character device"`, `"directory"`, ...
        kind: &'static str,
    },
    /// A list longer than its limit (a polygon's vertices, a mesh's triangles).
    #[error("`{field}` has {value} entries, more than the limit of {max}")]
    TooMany {
        /// The list that was too long.
        field: &'static str,
        /// Its length.
        value: usize,
        /// The limit.
        max: usize,
    },
    /// A file that could not be read or written.
    #[error("cannot access `{path}`: {message}")]
    Io {
        /// The file.
        path: String,
        /// What the operating system said.
        message: String,
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
pub fn check_finite_vec<const D: usize>(
    field: &'static str,
    v: &fathom_math::Vector<D>,
) -> Result<()> {
    for x in v.iter() {
        check_finite(field, *x)?;
    }
    Ok(())
}
