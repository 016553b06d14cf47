//! Search options and their resolution into concrete lengths.
//!
//! Every length has a default relative to the shapes' sizes (the smaller bounding
//! radius), so that a millimetre gear and a ten-metre boulder are searched to the
//! same relative precision.

use fathom_math::Real;

use crate::error::NarrowphaseError;

/// Default smallest cell, as a fraction of the smaller shape's bounding radius.
pub const DEFAULT_MIN_CELL_FRACTION: Real = 0.02;
/// Default cell budget of one query.
pub const DEFAULT_MAX_CELLS: usize = 20_000;
/// Size of the coarse cells that separate contact regions, as a fraction of the smaller shape's
/// bounding radius: regions closer than about this are merged into one manifold.
pub const COARSE_FRACTION: Real = 0.125;

/// Options of a narrowphase query. `None` lengths are resolved from the shapes' sizes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ContactOptions {
    /// Contact margin, metres: each shape is inflated by it, so contacts separated by up to
    /// about the margin are reported as speculative (positive depth). `None`: the smallest cell.
    pub margin: Option<Real>,
    /// Smallest cell, metres: the diagonal of a cell that is no longer split; it bounds how
    /// precisely points are placed. `None`: 2% of the smaller shape's bounding radius.
    pub min_cell: Option<Real>,
    /// Most cells one query may examine; past it the query returns its best answer so far and
    /// sets [`crate::QueryStats::hit_budget`].
    pub max_cells: usize,
}

impl Default for ContactOptions {
    fn default() -> Self {
        Self {
            margin: None,
            min_cell: None,
            max_cells: DEFAULT_MAX_CELLS,
        }
    }
}

impl ContactOptions {
    /// Checks the options (finite, non-negative margin, positive smallest cell and budget).
    pub fn validate(&self) -> Result<(), NarrowphaseError> {
        if let Some(m) = self.margin {
            if !(m.is_finite() && m >= 0.0) {
                return Err(invalid(
                    "margin",
                    format!("must be finite and not negative, got {m}"),
                ));
            }
        }
        if let Some(c) = self.min_cell {
            if !(c.is_finite() && c > 0.0) {
                return Err(invalid(
                    "min_cell",
                    format!("must be finite and positive, got {c}"),
                ));
            }
        }
        if self.max_cells == 0 {
            return Err(invalid("max_cells", "must be at least 1".into()));
        }
        Ok(())
    }

    /// The options as concrete lengths for shapes whose smaller bounding radius is `size`.
    pub(crate) fn resolve(&self, size: Real) -> Settings {
        let min_cell = self.min_cell.unwrap_or(DEFAULT_MIN_CELL_FRACTION * size);
        let leaf_radius = 0.5 * min_cell;
        Settings {
            margin: self.margin.unwrap_or(min_cell),
            leaf_radius,
            tol: 0.25 * leaf_radius,
            coarse_radius: (COARSE_FRACTION * size).max(2.0 * leaf_radius),
            max_cells: self.max_cells,
            size,
        }
    }
}

impl Settings {
    /// The leaf radius of the intersection test: half the usual, so that an overlap one
    /// smallest cell deep (an edge-edge overlap is a small tetrahedron, whose inscribed ball is
    /// a third of its depth) still holds a leaf's centre. Shapes touch within this reach (see
    /// [`crate::intersects`]).
    pub fn touch_leaf(&self) -> Real {
        0.5 * self.leaf_radius
    }
}

fn invalid(field: &'static str, reason: String) -> NarrowphaseError {
    NarrowphaseError::InvalidOption { field, reason }
}

/// Options resolved into lengths (metres).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Settings {
    /// Contact margin.
    pub margin: Real,
    /// Radius (half diagonal) of a cell that is not split.
    pub leaf_radius: Real,
    /// Objective tolerance: a cell that cannot improve the best value by more is pruned.
    pub tol: Real,
    /// Radius of the cells whose connected components are the contact regions.
    pub coarse_radius: Real,
    /// Cell budget.
    pub max_cells: usize,
    /// The smaller shape's bounding radius.
    pub size: Real,
}
