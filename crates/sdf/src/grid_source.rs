//! Where a shape tree's baked grid comes from: inline in the scene file, or a grid file.
//!
//! A sparse grid ([`GridSource::Sparse`]) is held inline; its own file format is
//! [`SparseGrid::save`]'s.
//!
//! A grid file is the grid's samples in a small binary format: the bytes
//! `FATHOMGRID`, a format version byte, the dimension byte, then the grid
//! encoded with postcard 1 (integers as varints, each `f32` sample as 4 little-endian
//! bytes, so the samples are the file's last `4 * n` bytes). It is read by
//! [`crate::Shape::load_files`] (or [`crate::Shape::from_ron_file`]); until then the
//! tree only names it, [`crate::Shape::validate`] reports it, and the field is empty
//! (far everywhere, [`Aabb::EMPTY`] bounds).

use crate::error::{Result, SdfError};
use crate::grid::{BakedGrid, GridData};
use crate::sparse_grid::SparseGrid;
use crate::Sdf;
use fathom_math::{Aabb, Real, Vector};
use nalgebra::SVector;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

const MAGIC: &[u8] = b"FATHOMGRID";
/// The grid file format version this build writes and reads (1: a bincode 2 body; 2: a
/// postcard body). Pub to the crate so its tests write files as [`BakedGrid::save`] does.
pub(crate) const VERSION: u8 = 2;

/// Distance reported by a grid file not loaded yet: far, but finite so that operators
/// (scaling, rounding) never produce infinities or NaN from it.
const UNLOADED_DISTANCE: Real = 1.0e18;

/// A baked grid in a shape tree: the samples inline, or a file path (relative to the scene
/// file's folder). Cloning shares the samples.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub enum GridSource<const D: usize> {
    /// The grid itself.
    Inline(Arc<BakedGrid<D>>),
    /// A grid file (see the module docs), and the grid once loaded (never serialised).
    File {
        /// Path of the grid file.
        path: String,
        /// The loaded grid.
        #[serde(skip)]
        grid: Option<Arc<BakedGrid<D>>>,
    },
    /// A narrow-band sparse grid, inline (see [`SparseGrid`]; appended last so that older
    /// scenes and snapshots keep their variant numbers).
    Sparse(Arc<SparseGrid<D>>),
}

/// Two sources are equal when they hold equal grids, or name the same file.
impl<const D: usize> PartialEq for GridSource<D> {
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (GridSource::Inline(a), GridSource::Inline(b)) => a == b,
            (GridSource::File { path: a, .. }, GridSource::File { path: b, .. }) => a == b,
            (GridSource::Sparse(a), GridSource::Sparse(b)) => a == b,
            _ => false,
        }
    }
}

impl<const D: usize> GridSource<D> {
    /// The dense grid, if it is inline or loaded (`None` for a sparse grid).
    pub fn grid(&self) -> Option<&BakedGrid<D>> {
        match self {
            GridSource::Inline(g) => Some(g),
            GridSource::File { grid, .. } => grid.as_deref(),
            GridSource::Sparse(_) => None,
        }
    }

    /// The sparse grid, if this is one.
    pub fn sparse(&self) -> Option<&SparseGrid<D>> {
        match self {
            GridSource::Sparse(g) => Some(g),
            _ => None,
        }
    }

    /// The field, dense or sparse, unless this is a file not loaded yet.
    pub fn field(&self) -> Option<&dyn Sdf<D>> {
        match self {
            GridSource::Sparse(g) => Some(&**g as &dyn Sdf<D>),
            _ => self.grid().map(|g| g as &dyn Sdf<D>),
        }
    }

    /// The fine cell, metres, unless this is a file not loaded yet.
    pub fn cell(&self) -> Option<Real> {
        match self {
            GridSource::Sparse(g) => Some(g.cell()),
            _ => self.grid().map(|g| g.cell()),
        }
    }

    /// True unless this is a file not loaded yet.
    pub fn is_loaded(&self) -> bool {
        self.field().is_some()
    }

    /// Errors when this is a file not loaded yet (the grid itself was checked when made).
    pub fn validate(&self) -> Result<()> {
        match self {
            GridSource::File { path, grid: None } => Err(SdfError::Invalid {
                field: "path",
                reason: format!("grid file `{path}` is not loaded (see Shape::load_files)"),
            }),
            _ => Ok(()),
        }
    }

    /// Loads a file source, resolving a relative path against `base`. Inline sources are left alone.
    pub fn load(&mut self, base: &Path) -> Result<()> {
        self.load_cached(base, &mut GridCache::default())
    }

    /// [`GridSource::load`], sharing the grid already in `cache` for the same full path.
    pub fn load_cached(&mut self, base: &Path, cache: &mut GridCache<D>) -> Result<()> {
        if let GridSource::File { path, grid } = self {
            *grid = Some(cache.get_or_load(base.join(&*path))?);
        }
        Ok(())
    }

    /// The shared dense grid, if it is inline or loaded (clones share the samples).
    pub fn shared(&self) -> Option<&Arc<BakedGrid<D>>> {
        match self {
            GridSource::Inline(g) => Some(g),
            GridSource::File { grid, .. } => grid.as_ref(),
            GridSource::Sparse(_) => None,
        }
    }
}

/// Grid files already read, by full path: a file named by many colliders (or shapes) is read
/// and held in memory once, every source sharing its samples. One cache serves one scene
/// ([`crate::Shape::load_files_cached`]); it does not notice a file changed on disk meanwhile.
#[derive(Debug, Default)]
pub struct GridCache<const D: usize> {
    loaded: HashMap<PathBuf, Arc<BakedGrid<D>>>,
}

impl<const D: usize> GridCache<D> {
    /// The grid of file `path`, read unless already held.
    pub fn get_or_load(&mut self, path: PathBuf) -> Result<Arc<BakedGrid<D>>> {
        if let Some(g) = self.loaded.get(&path) {
            return Ok(Arc::clone(g));
        }
        let g = Arc::new(BakedGrid::load(&path)?);
        self.loaded.insert(path, Arc::clone(&g));
        Ok(g)
    }

    /// How many files have been read.
    pub fn len(&self) -> usize {
        self.loaded.len()
    }

    /// True when no file has been read.
    pub fn is_empty(&self) -> bool {
        self.loaded.is_empty()
    }
}

impl<const D: usize> BakedGrid<D> {
    /// Writes the grid to a file (format in the module docs of `grid_source`).
    pub fn save(&self, path: &Path) -> Result<()> {
        let data = GridData {
            origin: self.origin(),
            cell: self.cell(),
            dims: self.dims(),
            values: self.values().to_vec(),
        };
        let mut bytes = MAGIC.to_vec();
        bytes.extend([VERSION, D as u8]);
        let body = postcard::to_stdvec(&data).map_err(|e| SdfError::Io {
            path: path.display().to_string(),
            message: e.to_string(),
        })?;
        bytes.extend(body);
        std::fs::write(path, bytes).map_err(|e| SdfError::Io {
            path: path.display().to_string(),
            message: e.to_string(),
        })
    }

    /// Reads a grid file, checking its header, its dimension and its samples.
    pub fn load(path: &Path) -> Result<Self> {
        let name = path.display().to_string();
        let bytes = crate::read_limited(path, crate::MAX_GRID_FILE_BYTES)?;
        let bad = |message: String| SdfError::Parse {
            format: "grid",
            path: Some(name.clone()),
            message,
        };
        let body = file_body(&bytes, MAGIC, VERSION, D, "grid").map_err(bad)?;
        let data = decode_body::<D>(body).map_err(bad)?;
        Self::from_samples(data.origin, data.cell, data.dims, data.values)
    }
}

/// The body of a grid file (dense or sparse) after its header: the `magic` bytes, the format
/// `version` byte and the dimension byte `dim`; what is wrong with the header otherwise.
pub(crate) fn file_body<'a>(
    bytes: &'a [u8],
    magic: &[u8],
    version: u8,
    dim: usize,
    kind: &str,
) -> std::result::Result<&'a [u8], String> {
    let header = magic.len() + 2;
    if bytes.len() < header || &bytes[..magic.len()] != magic {
        return Err(format!("not a Fathom {kind} file (bad header)"));
    }
    let (found, d) = (bytes[magic.len()], bytes[magic.len() + 1] as usize);
    if found != version {
        return Err(format!(
            "format version {found}, this build reads {version}"
        ));
    }
    if d != dim {
        return Err(format!(
            "the file holds a {d}D grid, a {dim}D one was expected"
        ));
    }
    Ok(&bytes[header..])
}

/// The head of a grid file's body: everything before the samples, and their count.
type BodyHead<const D: usize> = (Vector<D>, Real, SVector<usize, D>, u64);

/// Decodes a grid file's body (after the header), saying in samples and bytes what is wrong
/// with one of the wrong length.
fn decode_body<const D: usize>(body: &[u8]) -> std::result::Result<GridData<D>, String> {
    // The head alone first: what follows it must be exactly the listed samples before the
    // whole body is decoded (so a wrong length is told in samples and bytes).
    let ((_, _, dims, listed), samples): (BodyHead<D>, &[u8]) = postcard::take_from_bytes(body)
        .map_err(|e| format!("the grid's origin, cell and dims do not decode ({e})"))?;
    let expected = dims.iter().fold(1u64, |n, &k| n.saturating_mul(k as u64));
    if listed != expected {
        return Err(format!(
            "dims {:?} make {expected} samples, but the file lists {listed}",
            dims.as_slice()
        ));
    }
    let want = expected.saturating_mul(SAMPLE_BYTES);
    let found = samples.len() as u64;
    if found != want {
        return Err(format!(
            "{expected} samples for dims {:?} need {want} bytes after the grid's head, the \
             file has {found} ({} samples{})",
            dims.as_slice(),
            found / SAMPLE_BYTES,
            if found % SAMPLE_BYTES == 0 {
                ""
            } else {
                " and a partial one"
            }
        ));
    }
    // The length was checked above, so the samples end exactly at the end of the body.
    postcard::from_bytes(body).map_err(|e| e.to_string())
}

/// Bytes per sample in a grid file (postcard writes an `f32` as 4 little-endian bytes,
/// never as a varint).
const SAMPLE_BYTES: u64 = 4;

impl<const D: usize> Sdf<D> for GridSource<D> {
    fn distance(&self, p: &Vector<D>) -> Real {
        self.field().map_or(UNLOADED_DISTANCE, |g| g.distance(p))
    }
    fn bounds(&self) -> Aabb<D> {
        self.field().map_or(Aabb::EMPTY, |g| g.bounds())
    }
    fn level_bounds(&self, level: Real) -> Aabb<D> {
        self.field().map_or(Aabb::EMPTY, |g| g.level_bounds(level))
    }
    fn gradient(&self, p: &Vector<D>) -> Vector<D> {
        self.field().map_or_else(
            || crate::normalize_or_axis(Vector::zeros()),
            |g| g.gradient(p),
        )
    }
    fn lipschitz(&self) -> Real {
        self.field().map_or(1.0, |g| g.lipschitz())
    }
    fn interval(&self, region: &Aabb<D>) -> Option<(Real, Real)> {
        self.field().and_then(|g| g.interval(region))
    }
}
