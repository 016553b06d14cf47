//! Narrow-band sparse distance grids: fine samples in bricks near the surface only, a coarse
//! grid everywhere else (2D or 3D, one generic source), read by multilinear interpolation.
//!
//! **Layout.** The grid box is cut into coarse cells of `brick` fine cells a side. Every
//! coarse cell has its `2^D` coarse corner samples (`f32`); a coarse cell that holds a fine
//! sample within the narrow band of the surface also has a *brick*: the `brick^D` fine samples
//! it owns (fine index `i` is owned by coarse cell `i / brick`; its upper faces are owned by
//! the next cells), stored as `u16` on one grid-wide quantisation (`value = lo + q * step`). A
//! dense grid of the same fine cell holds `4 n^D` bytes; this one about `16 (n / brick)^D` for
//! the coarse level (sample, brick slot, min/max) plus `2 brick^D` per brick, and bricks grow
//! with the surface's area (`n^(D-1)`), not the box's volume. See `docs/sparse_grids.md` for measured ratios.
//!
//! **Which coarse cells get a brick.** With the query band `δ` ([`SparseOptions::band_cells`]
//! fine cells), a coarse cell gets a brick when one of its fine samples has `|d| <= δ + h√D`
//! (`h` the fine cell). A fine cell holding a point with `|d| <= δ` has all its corners within
//! `δ + h√D` of the surface (the source is 1-Lipschitz), so every coarse cell holding one of
//! those corners has a brick: within the band the sparse field uses exactly the dense grid's
//! samples (quantised: error at most `step / 2`, [`SparseGrid::quantisation_step`]).
//!
//! **Continuity, so the bounds stay honest.** Where a brick meets a coarse cell without one,
//! the fine and coarse interpolants would disagree on the shared face (a jump of up to the
//! coarse level's error). Instead, a fine sample lying in any coarse cell without a brick is
//! not stored: it is marked [`FROM_COARSE`] and read as the coarse interpolant at that point
//! (so is a fine sample whose owner is past the grid's top faces, or has no brick).
//! A multilinear function sampled at the fine nodes of a face and re-interpolated is the same
//! function, so the two sides agree on every shared face, and two bricks agree on theirs (the
//! same source sample, quantised once for the whole grid). The field is continuous (up to float
//! rounding), and its Lipschitz constant is bounded as for [`crate::BakedGrid`]: the largest
//! `|m(cell)|` over every brick's fine cells and every coarse cell without a brick, computed
//! when the grid is made. Nothing needs absorbing: there is no jump `e`.
//!
//! **Outside the grid box** the field is extended as [`crate::BakedGrid`]'s is, with the least
//! value of the interpolant (`max(L, 1)` Lipschitz).
//!
//! **Bounds over boxes** ([`Sdf::interval`]): every coarse cell keeps the least and greatest
//! value of its samples (its brick's, or its corners').

use crate::error::{check_finite_vec, check_positive, Result, SdfError};
use crate::grid::{
    check_is_distance, check_region, corner_offsets, dims_covering, grid_field_common,
    padded_region, sample_count, strides, unflatten, MAX_GRID_SAMPLES,
};
use crate::grid_kernel::{cell_slope, extend_outside, multilinear, BlockBounds, Derived};
use crate::grid_source::file_body;
use crate::Sdf;
use fathom_math::{Aabb, Real, Vector};
use nalgebra::SVector;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::path::Path;

/// A stored fine sample that is read as the coarse interpolant instead (see the module docs).
pub const FROM_COARSE: u16 = u16::MAX;

/// Largest quantised value of a stored sample ([`FROM_COARSE`] is reserved).
const MAX_LEVEL: Real = (u16::MAX - 1) as Real;

/// The slot of a coarse cell without a brick.
const NO_BRICK: u32 = u32::MAX;

/// Most fine cells along a brick's edge.
pub const MAX_BRICK_CELLS: usize = 32;

/// How a sparse grid is baked.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SparseOptions {
    /// Fine cells along a brick's edge (1 to [`MAX_BRICK_CELLS`]). Default 8, as PhysX's
    /// sparse SDFs use: smaller bricks follow the surface more tightly but cost more coarse
    /// cells and more duplicated brick faces.
    pub brick_cells: usize,
    /// Half width of the band about the surface, in fine cells, where the field is the dense
    /// grid's (non-negative, finite). Default 1: contacts and the search's leaves live there.
    pub band_cells: Real,
}

impl Default for SparseOptions {
    fn default() -> Self {
        Self {
            brick_cells: 8,
            band_cells: 1.0,
        }
    }
}

impl SparseOptions {
    /// Checks the fields, naming the bad one.
    pub fn validate(&self) -> Result<()> {
        check_brick(self.brick_cells)?;
        crate::error::check_non_negative("band_cells", self.band_cells)?;
        Ok(())
    }
}

fn check_brick(brick: usize) -> Result<()> {
    if brick < 1 {
        return Err(SdfError::TooSmall {
            field: "brick_cells",
            value: brick,
            min: 1,
        });
    }
    if brick > MAX_BRICK_CELLS {
        return Err(SdfError::TooLarge {
            field: "brick_cells",
            value: brick,
            max: MAX_BRICK_CELLS,
        });
    }
    Ok(())
}

/// A narrow-band sparse grid, local frame. See the module docs. Serialised as its parts.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(try_from = "SparseData<D>")]
pub struct SparseGrid<const D: usize> {
    parts: SparseData<D>,
    derived: Derived<D>,
}

impl<const D: usize> Serialize for SparseGrid<D> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        self.parts.serialize(s)
    }
}

/// The stored parts of a sparse grid (and its serialised form, checked by
/// [`SparseGrid::from_parts`] when read).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
struct SparseData<const D: usize> {
    /// Position of the first sample, metres, local frame.
    origin: Vector<D>,
    /// Edge of a fine cell, metres.
    cell: Real,
    /// Fine cells along a brick's (a coarse cell's) edge.
    brick: usize,
    /// Coarse samples along each axis (at least 2).
    coarse_dims: SVector<usize, D>,
    /// The coarse samples, axis 0 fastest.
    coarse: Vec<f32>,
    /// Per coarse cell (axis 0 fastest): its brick's number, or `u32::MAX`.
    slots: Vec<u32>,
    /// The quantisation `[lo, step]` of every stored fine sample.
    quantisation: [f32; 2],
    /// `brick^D` quantised samples per brick (the ones it owns), axis 0 fastest.
    samples: Vec<u16>,
}

impl<const D: usize> TryFrom<SparseData<D>> for SparseGrid<D> {
    type Error = SdfError;
    fn try_from(d: SparseData<D>) -> Result<Self> {
        Self::from_parts(d)
    }
}

fn invalid(field: &'static str, reason: String) -> SdfError {
    SdfError::Invalid { field, reason }
}

/// One brick while baking: its coarse cell and its fine samples.
struct BakedBrick {
    cell: usize,
    values: Vec<f32>,
}

impl<const D: usize> SparseGrid<D> {
    /// Checks every part (finite, consistent lengths, every brick used by one coarse cell, the
    /// coarse samples a distance, some value `<= 0`) and derives the bounds.
    fn from_parts(d: SparseData<D>) -> Result<Self> {
        check_finite_vec("origin", &d.origin)?;
        check_positive("cell", d.cell)?;
        check_brick(d.brick).map_err(|_| {
            invalid(
                "brick",
                format!("must be 1 to {MAX_BRICK_CELLS}, got {}", d.brick),
            )
        })?;
        let n_coarse = sample_count("coarse_dims", &d.coarse_dims)?;
        if d.coarse.len() != n_coarse {
            return Err(invalid(
                "coarse",
                format!("expected {n_coarse} samples, got {}", d.coarse.len()),
            ));
        }
        if let Some(v) = d.coarse.iter().find(|v| !v.is_finite()) {
            return Err(SdfError::NonFinite {
                field: "coarse",
                value: *v,
            });
        }
        let n_cells: usize = d.coarse_dims.iter().map(|n| n - 1).product();
        if d.slots.len() != n_cells {
            return Err(invalid(
                "slots",
                format!(
                    "expected one per coarse cell, {n_cells}, got {}",
                    d.slots.len()
                ),
            ));
        }
        let per_brick = d.brick.pow(D as u32);
        let bricks = d.samples.len() / per_brick;
        if d.samples.len() % per_brick != 0 || bricks > MAX_GRID_SAMPLES / per_brick {
            return Err(invalid(
                "samples",
                format!(
                    "{} samples are not a whole number of bricks of {per_brick} (at most {} samples)",
                    d.samples.len(),
                    MAX_GRID_SAMPLES
                ),
            ));
        }
        check_slots(&d.slots, bricks)?;
        let [lo, step] = d.quantisation;
        if !lo.is_finite() || !step.is_finite() || step < 0.0 {
            return Err(invalid(
                "quantisation",
                format!("[lo, step] must be finite with step >= 0, got [{lo}, {step}]"),
            ));
        }
        let coarse_cell = d.cell * d.brick as Real;
        check_is_distance("coarse", &d.origin, coarse_cell, &d.coarse_dims, &d.coarse)?;
        let mut grid = Self {
            parts: d,
            derived: Derived::default(),
        };
        grid.derived = grid.derive();
        if grid.derived.min_value > 0.0 {
            return Err(invalid(
                "coarse",
                "no value is inside (none is <= 0): the grid holds no surface; bake a region \
                 that contains the shape"
                    .into(),
            ));
        }
        Ok(grid)
    }

    /// Samples `sdf` over `region` (local frame) with fine cells of `cell` metres, bricks near
    /// its surface only (see the module docs), in parallel.
    pub fn bake(
        sdf: &(impl Sdf<D> + ?Sized),
        region: &Aabb<D>,
        cell: Real,
        options: &SparseOptions,
    ) -> Result<Self> {
        Self::bake_fn(region, cell, options, |p| sdf.distance(p))
    }

    /// [`SparseGrid::bake`] over the shape's bounds with `resolution` fine cells along the
    /// longest axis, plus two cells of padding on every side (as [`crate::BakedGrid::bake_shape`]).
    pub fn bake_shape(
        sdf: &(impl Sdf<D> + ?Sized),
        resolution: usize,
        options: &SparseOptions,
    ) -> Result<Self> {
        let (region, cell) = padded_region(&sdf.bounds(), resolution)?;
        Self::bake(sdf, &region, cell, options)
    }

    /// Samples any signed distance (or 1-Lipschitz bound of one; the choice of bricks relies on
    /// it) over `region`, in parallel. Every sample is computed on its own, at a position
    /// made from its whole-grid index, so the result does not depend on the thread count.
    pub fn bake_fn(
        region: &Aabb<D>,
        cell: Real,
        options: &SparseOptions,
        f: impl Fn(&Vector<D>) -> Real + Sync,
    ) -> Result<Self> {
        check_region("region", region)?;
        check_positive("cell", cell)?;
        options.validate()?;
        let brick = options.brick_cells;
        let coarse_cell = cell * brick as Real;
        // One coarse layer more than covers the region: fine samples on the grid's top faces
        // have no owner and read the coarse level, so the surface must stay a cell away.
        let coarse_dims = dims_covering(region, coarse_cell, 1)?;
        let n_coarse: usize = coarse_dims.iter().product();

        let origin = region.min;
        let at = |fine: SVector<usize, D>| origin + fine.map(|i| i as Real) * cell;
        let coarse: Vec<f32> = (0..n_coarse)
            .into_par_iter()
            .map(|i| f(&at(unflatten(&coarse_dims, i) * brick)))
            .collect();
        // A fine sample can be within `band` only in a cell whose corners are within
        // `band` plus half the cell's diagonal (1-Lipschitz source).
        let band = (options.band_cells + (D as Real).sqrt()) * cell;
        let half_diagonal = 0.5 * coarse_cell * (D as Real).sqrt();
        let cells = coarse_dims.map(|n| n - 1);
        let stride = strides(&coarse_dims);
        let corners = corner_offsets(&stride);
        let side = SVector::<usize, D>::repeat(brick + 1);
        let per_brick = brick.pow(D as u32);
        let found: Vec<BakedBrick> = (0..cells.iter().product::<usize>())
            .into_par_iter()
            .filter_map(|c| {
                let idx = unflatten(&cells, c);
                let base = idx.dot(&stride);
                let near = corners
                    .iter()
                    .map(|o| coarse[base + o].abs())
                    .fold(Real::INFINITY, Real::min);
                if near > half_diagonal + band {
                    return None;
                }
                // A cheaper look first: the samples every half brick (every fine sample is
                // within half a sub-cell's diagonal of one), so most far cells cost 3^D samples.
                let half = (brick / 2).max(1);
                let sub = SVector::<usize, D>::repeat(brick / half + 1);
                let sub_reach = 0.5 * (half as Real) * cell * (D as Real).sqrt();
                let sub_near = (0..sub.iter().product())
                    .map(|j| f(&at(idx * brick + unflatten(&sub, j) * half)).abs())
                    .fold(Real::INFINITY, Real::min);
                if brick % half == 0 && sub_near > sub_reach + band {
                    return None;
                }
                let values: Vec<f32> = (0..(brick + 1).pow(D as u32))
                    .map(|j| f(&at(idx * brick + unflatten(&side, j))))
                    .collect();
                values
                    .iter()
                    .any(|v| v.abs() <= band)
                    .then_some(BakedBrick { cell: c, values })
            })
            .collect();
        if found.len() > MAX_GRID_SAMPLES / per_brick {
            return Err(SdfError::TooLarge {
                field: "cell",
                value: found.len().saturating_mul(per_brick),
                max: MAX_GRID_SAMPLES,
            });
        }
        let mut slots = vec![NO_BRICK; cells.iter().product()];
        for (n, b) in found.iter().enumerate() {
            slots[b.cell] = n as u32;
        }
        let stored: Vec<Vec<bool>> = found
            .iter()
            .map(|b| stored_mask(&cells, &slots, brick, unflatten(&cells, b.cell)))
            .collect();
        let (lo, hi) = found
            .iter()
            .zip(&stored)
            .flat_map(|(b, keep)| b.values.iter().zip(keep).filter(|p| *p.1).map(|p| *p.0))
            .fold((Real::INFINITY, Real::NEG_INFINITY), |(l, h), v| {
                (l.min(v), h.max(v))
            });
        let (lo, step) = if lo <= hi {
            (lo, (hi - lo) / MAX_LEVEL)
        } else {
            (0.0, 0.0)
        };
        let mut samples = Vec::with_capacity(found.len() * per_brick);
        let owned = |j: &usize| unflatten(&side, *j).iter().all(|&i| i < brick);
        for (b, keep) in found.iter().zip(&stored) {
            let nodes = (0..side.iter().product()).filter(owned);
            samples.extend(nodes.map(|j| match keep[j] {
                false => FROM_COARSE,
                true if step > 0.0 => {
                    ((b.values[j] - lo) / step).round().clamp(0.0, MAX_LEVEL) as u16
                }
                true => 0,
            }));
        }
        Self::from_parts(SparseData {
            origin,
            cell,
            brick,
            coarse_dims,
            coarse,
            slots,
            quantisation: [lo, step],
            samples,
        })
    }

    /// Position of the first sample, metres, local frame.
    pub fn origin(&self) -> Vector<D> {
        self.parts.origin
    }

    /// Edge of a fine cell, metres.
    pub fn cell(&self) -> Real {
        self.parts.cell
    }

    /// Fine cells along a brick's edge.
    pub fn brick_cells(&self) -> usize {
        self.parts.brick
    }

    /// Coarse samples along each axis.
    pub fn coarse_dims(&self) -> SVector<usize, D> {
        self.parts.coarse_dims
    }

    /// How many bricks of fine samples the grid holds.
    pub fn brick_count(&self) -> usize {
        self.parts.samples.len() / self.parts.brick.pow(D as u32)
    }

    /// The quantisation step of stored fine samples, metres: within the band the field is
    /// the dense grid's to within half of it.
    pub fn quantisation_step(&self) -> Real {
        self.parts.quantisation[1]
    }

    /// Bytes held: coarse samples (4 each), brick slots (4 per coarse cell), fine samples (2
    /// each) and the per-coarse-cell min/max (8 each).
    pub fn memory_bytes(&self) -> usize {
        4 * self.parts.coarse.len()
            + 4 * self.parts.slots.len()
            + 2 * self.parts.samples.len()
            + 8 * self.parts.slots.len()
    }

    /// The box the samples span, local frame.
    pub fn grid_box(&self) -> Aabb<D> {
        let size = self.parts.coarse_dims.map(|n| (n - 1) as Real) * self.coarse_cell();
        Aabb::new(self.parts.origin, self.parts.origin + size)
    }

    fn coarse_cell(&self) -> Real {
        self.parts.cell * self.parts.brick as Real
    }

    /// The coarse corner values of coarse cell `idx`, by corner mask.
    fn coarse_corners(&self, idx: &SVector<usize, D>) -> Vec<Real> {
        let stride = strides(&self.parts.coarse_dims);
        let base = idx.dot(&stride);
        corner_offsets(&stride)
            .iter()
            .map(|o| self.parts.coarse[base + o])
            .collect()
    }

    /// Every fine value of coarse cell `idx`'s brick, `(brick + 1)^D` of them.
    fn brick_values(&self, idx: &SVector<usize, D>) -> Vec<Real> {
        let side = SVector::<usize, D>::repeat(self.parts.brick + 1);
        let coarse = self.coarse_corners(idx);
        (0..side.iter().product())
            .map(|j| self.node_value(idx, &unflatten(&side, j), &coarse))
            .collect()
    }

    /// The fine value at node `node` (each index `0..=brick`) of coarse cell `idx`, whose
    /// corner values are `coarse`: its owner's stored sample, or the coarse interpolant where
    /// it is not stored (module docs). Every cell holding the node gets the same value.
    fn node_value(
        &self,
        idx: &SVector<usize, D>,
        node: &SVector<usize, D>,
        coarse: &[Real],
    ) -> Real {
        let cells = self.parts.coarse_dims.map(|n| n - 1);
        let global = idx * self.parts.brick + node;
        let owner = global / self.parts.brick;
        let q = if (0..D).all(|k| owner[k] < cells[k]) {
            match self.parts.slots[owner.dot(&strides(&cells))] {
                NO_BRICK => FROM_COARSE,
                slot => {
                    let local = global - owner * self.parts.brick;
                    let side = SVector::<usize, D>::repeat(self.parts.brick);
                    let per_brick = self.parts.brick.pow(D as u32);
                    self.parts.samples[slot as usize * per_brick + local.dot(&strides(&side))]
                }
            }
        } else {
            FROM_COARSE
        };
        if q == FROM_COARSE {
            let t = node.map(|i| i as Real / self.parts.brick as Real);
            multilinear(coarse, &t, 1.0, &[true; D]).0
        } else {
            self.parts.quantisation[0] + q as Real * self.parts.quantisation[1]
        }
    }

    /// The interpolant and its gradient at `p` in the grid box (see `BakedGrid`'s).
    fn interpolate(&self, p: &Vector<D>, clamped: &[bool; D]) -> (Real, Vector<D>) {
        let cells = self.parts.coarse_dims.map(|n| n - 1);
        let u = (p - self.parts.origin) / self.coarse_cell();
        let idx =
            SVector::<usize, D>::from_fn(|k, _| (u[k].floor().max(0.0) as usize).min(cells[k] - 1));
        let coarse = self.coarse_corners(&idx);
        let slot = self.parts.slots[idx.dot(&strides(&cells))];
        if slot == NO_BRICK {
            let t = (u - idx.map(|i| i as Real)).map(|x| x.clamp(0.0, 1.0));
            return multilinear(&coarse, &t, self.coarse_cell(), clamped);
        }
        let w = (u - idx.map(|i| i as Real)) * self.parts.brick as Real;
        let j = SVector::<usize, D>::from_fn(|k, _| {
            (w[k].floor().max(0.0) as usize).min(self.parts.brick - 1)
        });
        let t = (w - j.map(|i| i as Real)).map(|x| x.clamp(0.0, 1.0));
        let corners: Vec<Real> = (0..1usize << D)
            .map(|mask| {
                let node = j + SVector::<usize, D>::from_fn(|k, _| (mask >> k) & 1);
                self.node_value(&idx, &node, &coarse)
            })
            .collect();
        multilinear(&corners, &t, self.parts.cell, clamped)
    }

    fn eval(&self, p: &Vector<D>) -> (Real, Vector<D>) {
        extend_outside(&self.grid_box(), self.derived.min_value, p, |c, clamped| {
            self.interpolate(c, clamped)
        })
    }

    /// Per coarse cell: the slope bound, the cells with a value `<= 0`, and the min/max.
    fn derive(&self) -> Derived<D> {
        let cells = self.parts.coarse_dims.map(|n| n - 1);
        let per_cell: Vec<CellFacts<D>> = (0..cells.iter().product())
            .into_par_iter()
            .map(|c| self.derive_cell(&unflatten(&cells, c), self.parts.slots[c]))
            .collect();
        let mut lipschitz: Real = 0.0;
        let mut zero: Option<Aabb<D>> = None;
        let mut min_value = Real::INFINITY;
        let mut min_boundary = Real::INFINITY;
        for facts in &per_cell {
            lipschitz = lipschitz.max(facts.slope);
            if let Some(z) = &facts.zero {
                zero = Some(zero.map_or(*z, |a| a.merge(z)));
            }
            min_value = min_value.min(facts.range[0]);
            min_boundary = min_boundary.min(facts.boundary_min);
        }
        if min_boundary <= 0.0 {
            // Outside the box the field is <= 0 only within -min_value of it.
            zero = zero.map(|b| b.loosened(-min_value));
        }
        Derived {
            lipschitz,
            zero_bounds: zero,
            min_value,
            min_boundary,
            blocks: BlockBounds {
                origin: self.parts.origin,
                block: self.coarse_cell(),
                count: cells,
                bounds: per_cell.iter().map(|p| p.range).collect(),
            },
        }
    }

    fn derive_cell(&self, idx: &SVector<usize, D>, slot: u32) -> CellFacts<D> {
        let corner_of = |cell: Real, at: Vector<D>| Aabb::new(at, at.add_scalar(cell));
        let low = self.parts.origin + idx.map(|i| i as Real) * self.coarse_cell();
        let range = |v: &[Real]| {
            v.iter()
                .fold([Real::INFINITY, Real::NEG_INFINITY], |[l, h], &x| {
                    [l.min(x), h.max(x)]
                })
        };
        let cells = self.parts.coarse_dims.map(|n| n - 1);
        // The least value at nodes on the grid box's faces (`side` nodes a side, `step` fine
        // cells apart).
        let boundary_min = |values: &[Real], side: usize, step: usize| {
            let n = SVector::<usize, D>::repeat(side);
            values
                .iter()
                .enumerate()
                .filter(|(j, _)| {
                    let g = idx * self.parts.brick + unflatten(&n, *j) * step;
                    (0..D).any(|k| g[k] == 0 || g[k] == cells[k] * self.parts.brick)
                })
                .map(|(_, &v)| v)
                .fold(Real::INFINITY, Real::min)
        };
        if slot == NO_BRICK {
            let corners = self.coarse_corners(idx);
            let zero = corners
                .iter()
                .any(|&v| v <= 0.0)
                .then(|| corner_of(self.coarse_cell(), low));
            return CellFacts {
                slope: cell_slope::<D>(&corners, self.coarse_cell()),
                zero,
                range: range(&corners),
                boundary_min: boundary_min(&corners, 2, self.parts.brick),
            };
        }
        let values = self.brick_values(idx);
        let side = SVector::<usize, D>::repeat(self.parts.brick + 1);
        let stride = strides(&side);
        let offsets = corner_offsets(&stride);
        let fine = SVector::<usize, D>::repeat(self.parts.brick);
        let mut slope: Real = 0.0;
        let mut zero: Option<Aabb<D>> = None;
        for f in 0..self.parts.brick.pow(D as u32) {
            let j = unflatten(&fine, f);
            let base = j.dot(&stride);
            let corners: Vec<Real> = offsets.iter().map(|o| values[base + o]).collect();
            slope = slope.max(cell_slope::<D>(&corners, self.parts.cell));
            if corners.iter().any(|&v| v <= 0.0) {
                let b = corner_of(
                    self.parts.cell,
                    low + j.map(|i| i as Real) * self.parts.cell,
                );
                zero = Some(zero.map_or(b, |a| a.merge(&b)));
            }
        }
        CellFacts {
            slope,
            zero,
            range: range(&values),
            boundary_min: boundary_min(&values, self.parts.brick + 1, 1),
        }
    }
}

/// What [`SparseGrid`]'s derivation learns from one coarse cell.
struct CellFacts<const D: usize> {
    /// `|m(cell)|` over its cells (its own, or its brick's fine cells).
    slope: Real,
    /// Its cells with a value `<= 0`.
    zero: Option<Aabb<D>>,
    /// Its least and greatest value.
    range: [f32; 2],
    /// Its least value on the grid box's faces (`+inf` off them).
    boundary_min: Real,
}

/// Which fine samples of the brick in coarse cell `idx` are stored: those lying in no coarse
/// cell without a brick (the others are read from the coarse level, see the module docs).
fn stored_mask<const D: usize>(
    cells: &SVector<usize, D>,
    slots: &[u32],
    brick: usize,
    idx: SVector<usize, D>,
) -> Vec<bool> {
    let side = SVector::<usize, D>::repeat(brick + 1);
    let stride = strides(cells);
    (0..(brick + 1).pow(D as u32))
        .map(|j| {
            let node = unflatten(&side, j);
            // Each axis: the coarse cells holding this node (one inside, two on a face).
            (0..1usize << D).all(|mask| {
                let mut flat = 0;
                for k in 0..D {
                    let step = (mask >> k) & 1;
                    let c = match (node[k], step) {
                        (0, 1) if idx[k] == 0 => return true,
                        (0, 1) => idx[k] - 1,
                        (n, 1) if n == brick && idx[k] + 1 < cells[k] => idx[k] + 1,
                        (_, 1) => return true, // the same cell as step 0, or off the grid
                        _ => idx[k],
                    };
                    flat += c * stride[k];
                }
                slots[flat] != NO_BRICK
            })
        })
        .collect()
}

/// Every brick number below `bricks` is used by exactly one coarse cell; no other is.
fn check_slots(slots: &[u32], bricks: usize) -> Result<()> {
    let mut used = vec![false; bricks];
    for (c, &s) in slots.iter().enumerate() {
        if s == NO_BRICK {
            continue;
        }
        let s = s as usize;
        if s >= bricks || std::mem::replace(&mut used[s], true) {
            return Err(invalid(
                "slots",
                format!(
                    "coarse cell {c} names brick {s}, which is out of range (the file holds \
                     {bricks}) or named twice"
                ),
            ));
        }
    }
    if let Some(s) = used.iter().position(|u| !u) {
        return Err(invalid(
            "slots",
            format!("brick {s} belongs to no coarse cell"),
        ));
    }
    Ok(())
}

impl<const D: usize> Sdf<D> for SparseGrid<D> {
    grid_field_common!();
    /// `max(L, 1)` with `L` the interpolant's (module docs).
    fn lipschitz(&self) -> Real {
        self.derived.lipschitz.max(1.0)
    }
    /// The min/max of the coarse cells under `region` (module docs).
    fn interval(&self, region: &Aabb<D>) -> Option<(Real, Real)> {
        self.derived
            .blocks
            .interval(&self.grid_box(), self.derived.min_value, region)
    }
}

const MAGIC: &[u8] = b"FATHOMSPARSE";
/// The sparse grid file format version this build writes and reads.
const VERSION: u8 = 1;

impl<const D: usize> SparseGrid<D> {
    /// Writes the grid to a file: the bytes `FATHOMSPARSE`, a version byte, the dimension byte,
    /// then the grid encoded with postcard 1.
    pub fn save(&self, path: &Path) -> Result<()> {
        let io = |message: String| SdfError::Io {
            path: path.display().to_string(),
            message,
        };
        let mut bytes = MAGIC.to_vec();
        bytes.extend([VERSION, D as u8]);
        bytes.extend(postcard::to_stdvec(self).map_err(|e| io(e.to_string()))?);
        std::fs::write(path, bytes).map_err(|e| io(e.to_string()))
    }

    /// Reads a sparse grid file, checking its header, its dimension and every part (a bad
    /// part is an error naming it).
    pub fn load(path: &Path) -> Result<Self> {
        let name = path.display().to_string();
        let bytes = crate::read_limited(path, crate::MAX_GRID_FILE_BYTES)?;
        Self::from_bytes(&bytes, Some(name))
    }

    /// [`SparseGrid::load`] from a file's bytes; `path` only names it in errors.
    pub fn from_bytes(bytes: &[u8], path: Option<String>) -> Result<Self> {
        let bad = |message: String| SdfError::Parse {
            format: "sparse grid",
            path: path.clone(),
            message,
        };
        let body = file_body(bytes, MAGIC, VERSION, D, "sparse grid").map_err(bad)?;
        let data: SparseData<D> = postcard::from_bytes(body).map_err(|e| bad(e.to_string()))?;
        Self::from_parts(data)
    }
}
