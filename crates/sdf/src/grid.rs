//! Baked distance grids: any field sampled on a regular grid (2D or 3D, one generic source)
//! and read back by bilinear / trilinear interpolation.
//!
//! **Memory**: one `f32` per sample, 4 bytes; a grid of `n^D` samples costs `4 n^D` bytes
//! (a 128³ grid is 8 MiB). Grids are capped at [`MAX_GRID_SAMPLES`] samples.
//!
//! **Lipschitz constant** (what the narrowphase's pruning relies on): inside one cell
//! the multilinear interpolant's partial derivative along axis `k` is a convex
//! combination (weights from the other axes) of that cell's edge differences
//! along `k`, divided by the cell size. So `|∂_k f| <= m_k(cell)`, the largest
//! such difference, and `|∇f| <= |m(cell)|`. The field is continuous across
//! cells, so its Lipschitz constant is at most `max over cells |m(cell)|`,
//! computed at bake time. Where the source is smooth on the scale of a cell this
//! is close to the source's own constant; in a cell the source's kink crosses (a
//! ball's centre, a box's medial planes) the interpolant itself is steeper, up
//! to `sqrt(D)` times the source's constant, and the bound honestly says so.
//!
//! **Outside the grid box** the field is `max(g(c(p)), |p - c(p)| + v_min)`, where
//! `c` clamps onto the box and `v_min` is the least sample. Both terms are
//! continuous and equal `g` on the box (`g >= v_min`), the first is
//! `L_g`-Lipschitz (clamping is 1-Lipschitz), the second 1-Lipschitz, so the whole
//! field has Lipschitz constant `max(L_g, 1)` and grows like the distance to the box
//! far away. Bake with some padding around the shape (as [`BakedGrid::bake_shape`] does) so
//! the boundary samples are positive and the box holds the whole surface.

use crate::error::{check_finite_vec, check_positive, Result, SdfError};
use crate::grid_kernel::{
    cell_slope, extend_outside, multilinear, outside_reach, BlockBounds, Derived,
};
use crate::Sdf;
use fathom_math::{Aabb, Real, Vector};
use nalgebra::SVector;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

pub use crate::grid_source::{GridCache, GridSource};

/// The most samples a grid may hold (2²⁷, 512 MiB of `f32`).
pub const MAX_GRID_SAMPLES: usize = 1 << 27;

/// Cells of padding [`BakedGrid::bake_shape`] adds on every side of the shape's bounds.
pub const BAKE_PADDING_CELLS: usize = 2;

/// A field sampled on a regular grid of cubic cells, local frame. See the module docs.
///
/// **Samples are a distance.** The samples must be of a signed distance (negative inside),
/// or of a bound that changes no faster: neighbouring samples along any axis may differ by at
/// most the cell size (plus a few ulps of rounding). Every shape of this crate and every closed
/// mesh bakes to such samples. Samples that break this (random noise, a field scaled up) are
/// refused with [`SdfError::NotADistance`] wherever a grid is made or read ([`BakedGrid::from_samples`]:
/// grid files, inline grids in scenes, snapshots, bakes) rather than accepted with a raised
/// constant: such a field is no distance, and its mass, bounds and contacts would be
/// meaningless. So is a grid with no sample `<= 0` (it holds no surface).
/// [`Sdf::lipschitz`] still reports the interpolant's own constant (module docs).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "GridData<D>")]
pub struct BakedGrid<const D: usize> {
    /// Position of the first sample (the grid's lowest corner), metres, local frame.
    origin: Vector<D>,
    /// Edge length of a cell, metres.
    cell: Real,
    /// Number of samples along each axis (at least 2).
    dims: SVector<usize, D>,
    /// The samples, axis 0 fastest.
    values: Vec<f32>,
    #[serde(skip_serializing)]
    derived: Derived<D>,
}

/// The serialised form of a grid: checked by [`BakedGrid::from_samples`] when read.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub(crate) struct GridData<const D: usize> {
    pub origin: Vector<D>,
    pub cell: Real,
    pub dims: SVector<usize, D>,
    pub values: Vec<f32>,
}

impl<const D: usize> TryFrom<GridData<D>> for BakedGrid<D> {
    type Error = SdfError;
    fn try_from(d: GridData<D>) -> Result<Self> {
        Self::from_samples(d.origin, d.cell, d.dims, d.values)
    }
}

/// Checks per-axis sample counts and returns their product.
pub(crate) fn sample_count<const D: usize>(
    field: &'static str,
    dims: &SVector<usize, D>,
) -> Result<usize> {
    let mut total: usize = 1;
    for &n in dims.iter() {
        if n < 2 {
            return Err(SdfError::TooSmall {
                field,
                value: n,
                min: 2,
            });
        }
        total = total.saturating_mul(n);
    }
    if total > MAX_GRID_SAMPLES {
        return Err(SdfError::TooLarge {
            field,
            value: total,
            max: MAX_GRID_SAMPLES,
        });
    }
    Ok(total)
}

/// The samples per axis that cover `region` with cells of size `cell`, plus `extra` cells
/// past its top along each axis.
pub(crate) fn dims_covering<const D: usize>(
    region: &Aabb<D>,
    cell: Real,
    extra: usize,
) -> Result<SVector<usize, D>> {
    let e = region.extents();
    let mut dims = SVector::<usize, D>::zeros();
    for k in 0..D {
        let n = (e[k] / cell).ceil() + 1.0 + extra as Real;
        if n.is_nan() || n > MAX_GRID_SAMPLES as Real {
            return Err(SdfError::TooLarge {
                field: "cell",
                value: usize::MAX,
                max: MAX_GRID_SAMPLES,
            });
        }
        dims[k] = (n as usize).max(2);
    }
    sample_count("cell", &dims)?;
    Ok(dims)
}

/// Checks that a region is finite and not empty.
pub(crate) fn check_region<const D: usize>(field: &'static str, region: &Aabb<D>) -> Result<()> {
    if !region.is_valid() {
        return Err(SdfError::Invalid {
            field,
            reason: "the region must be finite and not empty".into(),
        });
    }
    Ok(())
}

/// Refuses samples with none `<= 0`: such a grid has no inside and no surface.
fn check_has_inside(values: &[f32]) -> Result<()> {
    if values.iter().all(|&v| v > 0.0) {
        return Err(SdfError::Invalid {
            field: "values",
            reason: "no sample is inside (none is <= 0): the grid holds no surface; bake a \
                     region that contains the shape"
                .into(),
        });
    }
    Ok(())
}

/// Rounding allowed on a step between neighbouring samples, in units of `f32::EPSILON` times
/// the magnitudes involved (the grid's largest coordinate and the two samples). A sample's
/// position `origin + i * cell` is rounded twice per coordinate (at most 2 ulps of the largest
/// coordinate, so the true spacing is off by 4), the source field's value carries the few
/// roundings of its own evaluation on those magnitudes (a norm and a subtraction: about 4 ulps
/// each, 8 for the pair), and storing each as `f32` adds half an ulp: about 13 in all, doubled
/// for fields evaluated through more operations (meshes, CSG trees). Noise breaks the bound by
/// whole cells, not ulps.
const DISTANCE_STEP_ULPS: Real = 32.0;

/// Refuses samples that are not of a signed distance (see "Samples are a distance" in
/// [`BakedGrid`]): along every axis, neighbours may differ by at most the cell size plus
/// [`DISTANCE_STEP_ULPS`] of rounding. Each sample is compared with its next neighbour along
/// each axis, `D` comparisons a sample.
pub(crate) fn check_is_distance<const D: usize>(
    field: &'static str,
    origin: &Vector<D>,
    cell: Real,
    dims: &SVector<usize, D>,
    values: &[f32],
) -> Result<()> {
    let top = origin + dims.map(|n| (n - 1) as Real) * cell;
    let reach = origin.abs().sup(&top.abs()).max();
    let stride = strides(dims);
    for axis in 0..D {
        let step = stride[axis];
        for index in 0..values.len() - step {
            if (index / step) % dims[axis] == dims[axis] - 1 {
                continue; // The last sample along this axis: its neighbour is in the next row.
            }
            let (a, b) = (values[index], values[index + step]);
            let rounding = DISTANCE_STEP_ULPS * Real::EPSILON * (reach + a.abs().max(b.abs()));
            let limit = cell + rounding;
            if (b - a).abs() > limit {
                return Err(SdfError::NotADistance {
                    field,
                    index,
                    neighbour: index + step,
                    axis,
                    difference: (b - a).abs(),
                    limit,
                    cell,
                });
            }
        }
    }
    Ok(())
}

/// Multilinear interpolation weights helper: the stride of each axis.
pub(crate) fn strides<const D: usize>(dims: &SVector<usize, D>) -> SVector<usize, D> {
    let mut s = SVector::<usize, D>::zeros();
    let mut acc = 1;
    for k in 0..D {
        s[k] = acc;
        acc *= dims[k];
    }
    s
}

impl<const D: usize> BakedGrid<D> {
    /// A grid from its samples (axis 0 fastest): `dims[k]` samples along axis `k`, the first
    /// at `origin`, spaced `cell` metres. Checked: finite origin and samples, positive cell,
    /// at least 2 samples per axis, `values.len()` the product of `dims`, some sample `<= 0`,
    /// and the samples a distance (see "Samples are a distance" above).
    pub fn from_samples(
        origin: Vector<D>,
        cell: Real,
        dims: SVector<usize, D>,
        values: Vec<f32>,
    ) -> Result<Self> {
        check_finite_vec("origin", &origin)?;
        check_positive("cell", cell)?;
        let total = sample_count("dims", &dims)?;
        if values.len() != total {
            return Err(SdfError::Invalid {
                field: "values",
                reason: format!(
                    "expected {total} samples for dims {:?}, got {}",
                    dims.as_slice(),
                    values.len()
                ),
            });
        }
        if let Some(v) = values.iter().find(|v| !v.is_finite()) {
            return Err(SdfError::NonFinite {
                field: "values",
                value: *v,
            });
        }
        check_has_inside(&values)?;
        check_is_distance("values", &origin, cell, &dims, &values)?;
        let mut grid = Self {
            origin,
            cell,
            dims,
            values,
            derived: Derived::default(),
        };
        grid.derived = grid.derive();
        Ok(grid)
    }

    /// Samples `sdf` over `region` (local frame) with cells of `cell` metres, in parallel. The
    /// grid starts at `region.min` and covers at least the region.
    pub fn bake(sdf: &(impl Sdf<D> + ?Sized), region: &Aabb<D>, cell: Real) -> Result<Self> {
        Self::bake_fn(region, cell, |p| sdf.distance(p))
    }

    /// Samples `sdf` over its bounds with `resolution` cells along the longest axis, plus
    /// two cells of padding on every side (`BAKE_PADDING_CELLS`).
    pub fn bake_shape(sdf: &(impl Sdf<D> + ?Sized), resolution: usize) -> Result<Self> {
        let (region, cell) = padded_region(&sdf.bounds(), resolution)?;
        Self::bake(sdf, &region, cell)
    }

    /// Samples any function of position (metres, local frame) over `region`, in parallel.
    /// Every sample is computed independently, so the result does not depend on the thread count.
    /// The function must be a signed distance (or a 1-Lipschitz bound of one), as
    /// [`BakedGrid::from_samples`] checks.
    pub fn bake_fn(
        region: &Aabb<D>,
        cell: Real,
        f: impl Fn(&Vector<D>) -> Real + Sync,
    ) -> Result<Self> {
        check_region("region", region)?;
        check_positive("cell", cell)?;
        let dims = dims_covering(region, cell, 0)?;
        let total = dims.iter().product::<usize>();
        let origin = region.min;
        let values: Vec<f32> = (0..total)
            .into_par_iter()
            .map(|i| f(&sample_position(&origin, cell, &dims, i)))
            .collect();
        Self::from_samples(origin, cell, dims, values)
    }

    /// Position of the first sample, metres, local frame.
    pub fn origin(&self) -> Vector<D> {
        self.origin
    }

    /// Cell edge length, metres.
    pub fn cell(&self) -> Real {
        self.cell
    }

    /// Samples along each axis.
    pub fn dims(&self) -> SVector<usize, D> {
        self.dims
    }

    /// The samples, axis 0 fastest.
    pub fn values(&self) -> &[f32] {
        &self.values
    }

    /// Bytes held by the samples: 4 per sample.
    pub fn memory_bytes(&self) -> usize {
        self.values.len() * std::mem::size_of::<f32>()
    }

    /// The box the samples span, local frame.
    pub fn grid_box(&self) -> Aabb<D> {
        let size = self.dims.map(|n| (n - 1) as Real) * self.cell;
        Aabb::new(self.origin, self.origin + size)
    }

    /// The multilinear interpolant of the samples, inside the grid box.
    fn interpolation_lipschitz(&self) -> Real {
        self.derived.lipschitz
    }

    fn derive(&self) -> Derived<D> {
        let cells = self.dims.map(|n| n - 1);
        let n_cells: usize = cells.iter().product();
        let stride = strides(&self.dims);
        let cell_base = |c: usize| -> (SVector<usize, D>, usize) {
            let idx = unflatten(&cells, c);
            (idx, idx.dot(&stride))
        };
        let corners = corner_offsets(&stride);
        // Per cell: |m(cell)| (see the module docs) and whether some corner is <= 0.
        let (lipschitz, lo, hi) = (0..n_cells)
            .into_par_iter()
            .map(|c| {
                let (idx, base) = cell_base(c);
                let values: Vec<Real> = corners.iter().map(|off| self.values[base + off]).collect();
                let slope = cell_slope::<D>(&values, self.cell);
                let touches = corners.iter().any(|off| self.values[base + off] <= 0.0);
                let (lo, hi) = if touches {
                    (idx, idx)
                } else {
                    (cells, SVector::zeros())
                };
                (slope, lo, hi)
            })
            .reduce(
                || (0.0, cells, SVector::zeros()),
                |a, b| (a.0.max(b.0), a.1.inf(&b.1), a.2.sup(&b.2)),
            );
        let min_value = self.values.iter().copied().fold(Real::INFINITY, Real::min);
        let min_boundary = self.boundary_min();
        let mut zero_bounds = (0..D).all(|k| lo[k] <= hi[k]).then(|| {
            let min = self.origin + lo.map(|i| i as Real) * self.cell;
            let max = self.origin + hi.map(|i| (i + 1) as Real) * self.cell;
            Aabb::new(min, max)
        });
        if min_boundary <= 0.0 {
            // Outside the box the field is <= 0 only within -min_value of it (module docs).
            zero_bounds = zero_bounds.map(|b| b.loosened(-min_value));
        }
        Derived {
            lipschitz,
            zero_bounds,
            min_value,
            min_boundary,
            blocks: self.blocks(),
        }
    }

    /// The least and greatest sample of each block of [`BOUND_BLOCK_CELLS`] cells a side
    /// (its boundary samples included).
    fn blocks(&self) -> BlockBounds<D> {
        let count = self.dims.map(|n| (n - 1).div_ceil(BOUND_BLOCK_CELLS));
        let stride = strides(&self.dims);
        let bounds = (0..count.iter().product::<usize>())
            .into_par_iter()
            .map(|b| {
                let a = unflatten(&count, b) * BOUND_BLOCK_CELLS;
                let span = SVector::<usize, D>::from_fn(|k, _| {
                    (a[k] + BOUND_BLOCK_CELLS).min(self.dims[k] - 1) + 1 - a[k]
                });
                let (mut lo, mut hi) = (Real::INFINITY, Real::NEG_INFINITY);
                for i in 0..span.iter().product() {
                    let v = self.values[(a + unflatten(&span, i)).dot(&stride)];
                    lo = lo.min(v);
                    hi = hi.max(v);
                }
                [lo, hi]
            })
            .collect();
        BlockBounds {
            origin: self.origin,
            block: self.cell * BOUND_BLOCK_CELLS as Real,
            count,
            bounds,
        }
    }

    /// The least sample on the grid box's boundary.
    fn boundary_min(&self) -> Real {
        (0..self.values.len())
            .filter(|&i| {
                let idx = unflatten(&self.dims, i);
                (0..D).any(|k| idx[k] == 0 || idx[k] == self.dims[k] - 1)
            })
            .map(|i| self.values[i])
            .fold(Real::INFINITY, Real::min)
    }

    /// Interpolated value and (unnormalised) gradient at `p`, which must be in the grid box.
    /// Gradient components along axes in `clamped` are zero (the outside field does not vary
    /// with them through this term).
    fn interpolate(&self, p: &Vector<D>, clamped: &[bool; D]) -> (Real, Vector<D>) {
        let stride = strides(&self.dims);
        let u = (p - self.origin) / self.cell;
        let mut base = 0;
        let mut t = Vector::<D>::zeros();
        for k in 0..D {
            let i = (u[k].floor().max(0.0) as usize).min(self.dims[k] - 2);
            t[k] = (u[k] - i as Real).clamp(0.0, 1.0);
            base += i * stride[k];
        }
        let corners: Vec<Real> = corner_offsets(&stride)
            .iter()
            .map(|off| self.values[base + off])
            .collect();
        multilinear(&corners, &t, self.cell, clamped)
    }

    /// Field value and gradient (unit, or an axis) at any point: see the module docs.
    fn eval(&self, p: &Vector<D>) -> (Real, Vector<D>) {
        extend_outside(&self.grid_box(), self.derived.min_value, p, |c, clamped| {
            self.interpolate(c, clamped)
        })
    }

    /// The least and greatest sample of the cells under `region` (clamped into the grid
    /// box) when they are at most [`FEW_SAMPLES`], read directly: tighter than the blocks.
    fn sample_interval(&self, region: &Aabb<D>) -> Option<(Real, Real)> {
        let b = self.grid_box();
        let lo = (region.min.sup(&b.min).inf(&b.max) - self.origin) / self.cell;
        let hi = (region.max.sup(&b.min).inf(&b.max) - self.origin) / self.cell;
        let mut a = SVector::<usize, D>::zeros();
        let mut span = SVector::<usize, D>::zeros();
        for k in 0..D {
            let top = self.dims[k] - 2;
            a[k] = (lo[k].floor().max(0.0) as usize).min(top);
            span[k] = (hi[k].floor().max(0.0) as usize).min(top) + 2 - a[k];
        }
        if span.iter().product::<usize>() > FEW_SAMPLES {
            return None;
        }
        let stride = strides(&self.dims);
        let (mut min, mut max) = (Real::INFINITY, Real::NEG_INFINITY);
        for i in 0..span.iter().product() {
            let v = self.values[(a + unflatten(&span, i)).dot(&stride)];
            min = min.min(v);
            max = max.max(v);
        }
        Some((min, max))
    }
}

/// Most samples [`BakedGrid`]'s `interval` reads one by one before it turns to its blocks.
const FEW_SAMPLES: usize = 64;

/// Cells per block edge of a dense grid's min/max blocks ([`Sdf::interval`]).
const BOUND_BLOCK_CELLS: usize = 8;

/// The bounds of a shape padded by [`BAKE_PADDING_CELLS`], and the cell size giving
/// `resolution` cells along its longest axis.
pub(crate) fn padded_region<const D: usize>(
    bounds: &Aabb<D>,
    resolution: usize,
) -> Result<(Aabb<D>, Real)> {
    if resolution < 1 {
        return Err(SdfError::TooSmall {
            field: "resolution",
            value: resolution,
            min: 1,
        });
    }
    check_region("bounds", bounds)?;
    let longest = bounds.extents().max();
    let cell = if longest > 0.0 {
        longest / resolution as Real
    } else {
        1.0
    };
    Ok((bounds.loosened(cell * BAKE_PADDING_CELLS as Real), cell))
}

/// The multi-index of flat index `i` in a grid of `dims` (axis 0 fastest).
pub(crate) fn unflatten<const D: usize>(
    dims: &SVector<usize, D>,
    mut i: usize,
) -> SVector<usize, D> {
    let mut idx = SVector::<usize, D>::zeros();
    for k in 0..D {
        idx[k] = i % dims[k];
        i /= dims[k];
    }
    idx
}

/// Position of flat sample `i`, metres, local frame.
pub(crate) fn sample_position<const D: usize>(
    origin: &Vector<D>,
    cell: Real,
    dims: &SVector<usize, D>,
    i: usize,
) -> Vector<D> {
    origin + unflatten(dims, i).map(|k| k as Real) * cell
}

/// Flat offsets of a cell's `2^D` corners; bit `k` of the corner's number is its step along axis `k`.
pub(crate) fn corner_offsets<const D: usize>(stride: &SVector<usize, D>) -> Vec<usize> {
    (0..1usize << D)
        .map(|mask| {
            (0..D)
                .filter(|k| mask & (1 << k) != 0)
                .map(|k| stride[k])
                .sum()
        })
        .collect()
}

/// The `Sdf` methods both grid kinds share: each has `eval` (value and gradient anywhere),
/// `grid_box` and `derived.{zero_bounds, min_boundary, min_value}` (module docs).
macro_rules! grid_field_common {
    () => {
        fn distance(&self, p: &Vector<D>) -> Real {
            self.eval(p).0
        }
        /// The cells with a value `<= 0` (an interpolant is never below its least corner),
        /// grown when the surface reaches the grid's boundary; [`Aabb::EMPTY`] if none.
        fn bounds(&self) -> Aabb<D> {
            self.derived.zero_bounds.unwrap_or(Aabb::EMPTY)
        }
        fn level_bounds(&self, level: Real) -> Aabb<D> {
            let d = &self.derived;
            crate::grid_kernel::grid_level_bounds(
                self.bounds(),
                self.grid_box(),
                d.min_boundary,
                d.min_value,
                level,
            )
        }
        fn gradient(&self, p: &Vector<D>) -> Vector<D> {
            self.eval(p).1
        }
    };
}
pub(crate) use grid_field_common;

impl<const D: usize> Sdf<D> for BakedGrid<D> {
    grid_field_common!();
    /// `max(L_g, 1)`: see the module docs.
    fn lipschitz(&self) -> Real {
        self.interpolation_lipschitz().max(1.0)
    }
    /// The samples of the cells under `region` when they are few (at most 64), else the
    /// min/max of the blocks of 8 cells a side under it (`None` past 64 blocks); outside the
    /// grid box widened as the module docs' outside field says.
    fn interval(&self, region: &Aabb<D>) -> Option<(Real, Real)> {
        if !region.is_valid() {
            return None;
        }
        let (b, min) = (self.grid_box(), self.derived.min_value);
        match self.sample_interval(region) {
            Some((lo, hi)) => Some((lo, outside_reach(&b, region, min, hi))),
            None => self.derived.blocks.interval(&b, min, region),
        }
    }
}
