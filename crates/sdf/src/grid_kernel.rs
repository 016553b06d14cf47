//! What the dense ([`crate::BakedGrid`]) and sparse ([`crate::SparseGrid`]) grids share: the
//! multilinear kernel of one cell, its slope bound, the field outside the grid box, and
//! per-block min/max bounds for [`crate::Sdf::interval`].

use crate::normalize_or_axis;
use fathom_math::{Aabb, Real, Vector};
use nalgebra::SVector;

/// Most blocks [`BlockBounds::interval`] visits before it gives up (returns `None`): a box that
/// big is bounded well enough by the Lipschitz constant, and the search asks for bounds of every
/// cell it splits, so the walk must stay short.
pub(crate) const MAX_INTERVAL_BLOCKS: usize = 64;

/// What a grid (dense or sparse) computes from its samples once, when it is made or read.
#[derive(Clone, Debug, PartialEq, Default)]
pub(crate) struct Derived<const D: usize> {
    /// The largest slope of any cell: the field's Lipschitz constant.
    pub lipschitz: Real,
    /// The box of the cells with a corner at or below zero, grown where the grid's boundary
    /// is (`None`: no inside).
    pub zero_bounds: Option<Aabb<D>>,
    /// The smallest sample.
    pub min_value: Real,
    /// The smallest sample on the grid box's boundary.
    pub min_boundary: Real,
    /// Per-block min/max for [`crate::Sdf::interval`].
    pub blocks: BlockBounds<D>,
}

/// Multilinear weight of corner `mask` (bit `k`: the corner's step along axis `k`) at the
/// cell coordinates `t`, leaving out axis `skip` (`None`: all axes).
fn weight<const D: usize>(mask: usize, t: &Vector<D>, skip: Option<usize>) -> Real {
    let mut w = 1.0;
    for k in (0..D).filter(|&k| Some(k) != skip) {
        w *= if mask & (1 << k) != 0 {
            t[k]
        } else {
            1.0 - t[k]
        };
    }
    w
}

/// The multilinear interpolant of one cell's `2^D` corner values (indexed by mask) at the
/// cell coordinates `t` (each in `[0, 1]`), and its gradient for a cell of edge `cell` metres;
/// gradient components along `clamped` axes are zero (see [`extend_outside`]).
pub(crate) fn multilinear<const D: usize>(
    corners: &[Real],
    t: &Vector<D>,
    cell: Real,
    clamped: &[bool; D],
) -> (Real, Vector<D>) {
    let mut value = 0.0;
    let mut grad = Vector::<D>::zeros();
    for (mask, &v) in corners.iter().enumerate() {
        value += weight(mask, t, None) * v;
        for k in (0..D).filter(|&k| !clamped[k]) {
            let s = if mask & (1 << k) != 0 { 1.0 } else { -1.0 };
            grad[k] += s * weight(mask, t, Some(k)) * v / cell;
        }
    }
    (value, grad)
}

/// `|m(cell)|` of the module docs of [`crate::BakedGrid`]: a bound on the interpolant's
/// gradient inside one cell, from the largest edge difference along each axis.
pub(crate) fn cell_slope<const D: usize>(corners: &[Real], cell: Real) -> Real {
    let mut m2 = 0.0;
    for k in 0..D {
        let m = (0..corners.len())
            .filter(|mask| mask & (1 << k) == 0)
            .map(|mask| (corners[mask | (1 << k)] - corners[mask]).abs())
            .fold(0.0, Real::max);
        m2 += m * m;
    }
    m2.sqrt() / cell
}

/// The field at any point from the interpolant `inner` on the grid box: `max(g(c(p)),
/// |p - c(p)| + min_value)` with `c` the clamp onto the box (module docs of
/// [`crate::BakedGrid`]). `inner` gets the clamped point and which axes were clamped.
pub(crate) fn extend_outside<const D: usize>(
    grid_box: &Aabb<D>,
    min_value: Real,
    p: &Vector<D>,
    inner: impl FnOnce(&Vector<D>, &[bool; D]) -> (Real, Vector<D>),
) -> (Real, Vector<D>) {
    let c = p.sup(&grid_box.min).inf(&grid_box.max);
    let mut clamped = [false; D];
    for k in 0..D {
        clamped[k] = c[k] != p[k];
    }
    let (g, grad) = inner(&c, &clamped);
    let e = (p - c).norm();
    let far = e + min_value;
    if e > 0.0 && far > g {
        (far, (p - c) / e)
    } else {
        (g, normalize_or_axis(grad))
    }
}

/// The least and greatest value of a grid's field over blocks of cells: a block's bounds hold
/// every sample of its cells (their corners included), and a multilinear cell never leaves the
/// range of its corners, so they bound the field on the block.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct BlockBounds<const D: usize> {
    /// Lowest corner of block 0, metres.
    pub origin: Vector<D>,
    /// Edge of a block, metres.
    pub block: Real,
    /// Blocks along each axis.
    pub count: SVector<usize, D>,
    /// `[min, max]` per block, axis 0 fastest.
    pub bounds: Vec<[f32; 2]>,
}

/// No blocks: [`BlockBounds::interval`] answers `None`.
impl<const D: usize> Default for BlockBounds<D> {
    fn default() -> Self {
        Self {
            origin: Vector::<D>::zeros(),
            block: 1.0,
            count: SVector::<usize, D>::zeros(),
            bounds: Vec::new(),
        }
    }
}

impl<const D: usize> BlockBounds<D> {
    /// The range of blocks (inclusive, per axis) touching `region` clamped into `grid_box`.
    fn block_range(
        &self,
        grid_box: &Aabb<D>,
        region: &Aabb<D>,
    ) -> (SVector<usize, D>, SVector<usize, D>) {
        let index = |x: Real, k: usize| -> usize {
            let i = ((x - self.origin[k]) / self.block).floor().max(0.0) as usize;
            i.min(self.count[k] - 1)
        };
        let lo = region.min.sup(&grid_box.min).inf(&grid_box.max);
        let hi = region.max.sup(&grid_box.min).inf(&grid_box.max);
        let mut a = SVector::<usize, D>::zeros();
        let mut b = SVector::<usize, D>::zeros();
        for k in 0..D {
            a[k] = index(lo[k], k);
            b[k] = index(hi[k], k);
        }
        (a, b)
    }

    /// Bounds of the field over `region` (any box): the blocks under its clamp onto
    /// `grid_box` bound the interpolant `g` there; outside the box the field is
    /// `max(g(c(p)), |p - c(p)| + min_value)` (see [`extend_outside`]), at least `g(c(p))` and
    /// at most the larger of `g`'s bound and the farthest reach outside plus `min_value`.
    /// `None` when more than [`MAX_INTERVAL_BLOCKS`] blocks would be visited.
    pub fn interval(
        &self,
        grid_box: &Aabb<D>,
        min_value: Real,
        region: &Aabb<D>,
    ) -> Option<(Real, Real)> {
        if !region.is_valid() || self.bounds.is_empty() {
            return None;
        }
        let (a, b) = self.block_range(grid_box, region);
        let n: usize = (0..D).map(|k| b[k] - a[k] + 1).product();
        if n > MAX_INTERVAL_BLOCKS {
            return None;
        }
        let (mut lo, mut hi) = (Real::INFINITY, Real::NEG_INFINITY);
        for i in 0..n {
            let mut rest = i;
            let mut flat = 0;
            let mut stride = 1;
            for k in 0..D {
                let span = b[k] - a[k] + 1;
                flat += (a[k] + rest % span) * stride;
                rest /= span;
                stride *= self.count[k];
            }
            let [l, h] = self.bounds[flat];
            lo = lo.min(l);
            hi = hi.max(h);
        }
        Some((lo, outside_reach(grid_box, region, min_value, hi)))
    }
}

/// `hi`, an upper bound of the interpolant over `region` clamped into `grid_box`, raised to
/// bound the outside field too: there it is at most the larger of `hi` and the farthest reach
/// of `region` beyond the box plus `min_value` (see [`extend_outside`]).
pub(crate) fn outside_reach<const D: usize>(
    grid_box: &Aabb<D>,
    region: &Aabb<D>,
    min_value: Real,
    hi: Real,
) -> Real {
    let reach = (grid_box.min - region.min)
        .sup(&(region.max - grid_box.max))
        .sup(&Vector::<D>::zeros())
        .norm();
    if reach > 0.0 {
        hi.max(reach + min_value)
    } else {
        hi
    }
}

/// A grid's `level_bounds` (both kinds): its solid's `bounds` at or below level 0; the grid box
/// below the least value on its faces (outside, the field is at least that); beyond, the box
/// grown by how far the outside field (which rises from `min_value`) stays under `level`.
pub(crate) fn grid_level_bounds<const D: usize>(
    bounds: Aabb<D>,
    grid_box: Aabb<D>,
    min_boundary: Real,
    min_value: Real,
    level: Real,
) -> Aabb<D> {
    if level <= 0.0 {
        bounds
    } else if level < min_boundary {
        grid_box
    } else {
        grid_box.loosened(level - min_value)
    }
}
