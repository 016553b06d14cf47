//! A shape edited at run time: a base field with a flat list of carves (subtractions) and
//! additions (unions), each placed shape clamped to a band so that an edit far from a point is
//! never evaluated there, found through a uniform grid of cells over the edits' reach.
//!
//! # Why a flat list and a grid, not a CSG tree
//!
//! Nesting `Difference(Union(...))` once per edit makes the tree one level deeper each time
//! ([`crate::MAX_SHAPE_DEPTH`] would stop a terrain after a couple of dozen craters) and makes
//! every evaluation walk every earlier edit. Here the edits are one list, applied in order,
//! and a hash grid (cell size [`Edited::cell_size`], twice the band) maps each cell to the
//! edits whose reach touches it. A query evaluates the base and the edits listed in its own
//! cell only: its cost does not grow with edits elsewhere, and adding an edit costs the cells
//! its reach covers, whatever the size of the base or the number of earlier edits.
//!
//! # The band, and why the field stays honest
//!
//! Skipping an edit by a box test alone would make the field jump: `max(d_base, -d_edit)`
//! is `-d_edit`, not `d_base`, deep inside the base even far from the edit. So the running
//! value is clamped to `[-R, R]` (`R` = [`Edited::band`]) before and after every edit:
//!
//! `d₀ = clamp(d_base, -R, hi)`, carve `dᵢ = clamp(max(dᵢ₋₁, -d_e), -R, hi)`,
//! add `dᵢ = clamp(min(dᵢ₋₁, d_e), -R, hi)`, with `hi = R` once any edit adds and `+∞` while
//! all edits carve.
//!
//! Where an edit's field is at least `R` (outside its reach box,
//! `shape.level_bounds(R)`), its step changes nothing: a carve's `-d_e <= -R <= d` and an
//! add's `d_e >= R >= d`. So skipping it is exact, not an approximation. `clamp`, `min` and
//! `max` are 1-Lipschitz, so the Lipschitz constant is the largest of the base's and the
//! edits'. The price: the field's depth inside the solid is clamped at `-R` (a body sunk
//! deeper than `R` is pushed out as if `R` deep), and once an edit adds, distances above the
//! surface are capped at `R` (casts through open air take steps of at most `R`). Signs are
//! always right, so contacts, casts and queries see the right solid.

use crate::{Sdf, SdfError, Shape, UNBOUNDED_EXTENT};
use fathom_math::{Aabb, Dim, Real, Space, Vector};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::collections::HashMap;

/// Most edits one shape may hold (a bound on a snapshot's size and on a hostile file).
pub const MAX_EDITS: usize = 1 << 16;
/// Most index cells one edit's reach may cover (an edit's cost is its cells).
pub const MAX_EDIT_CELLS: usize = 1 << 16;

/// What an edit does to the solid.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum EditOp {
    /// Cut the shape away (a crater, a tunnel): `max(d, -d_shape)`.
    Carve,
    /// Add the shape (a wall, a mound): `min(d, d_shape)`.
    Add,
}

/// One edit: an operation and the shape it applies, in the edited shape's frame (a placed
/// shape is a [`Shape::Transformed`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, bound = "")]
pub struct Edit<const D: usize>
where
    Space<D>: Dim<D>,
{
    /// Carve or add.
    pub op: EditOp,
    /// The shape carved or added, edited shape's frame.
    pub shape: Shape<D>,
}

/// A base shape with edits applied in order (see the module docs). Built by
/// [`Edited::new`] and grown by [`Edited::push`]; serialised as its base, edits and band
/// (the index is rebuilt when read).
#[derive(Clone, Debug)]
pub struct Edited<const D: usize>
where
    Space<D>: Dim<D>,
{
    base: Box<Shape<D>>,
    edits: Vec<Edit<D>>,
    band: Real,
    /// Derived: the solid's box, the edits' reach boxes, the cell index.
    bounds: Aabb<D>,
    reach: Vec<Aabb<D>>,
    has_add: bool,
    lipschitz: Real,
    cells: HashMap<[i64; D], Vec<u32>>,
}

impl<const D: usize> PartialEq for Edited<D>
where
    Space<D>: Dim<D>,
{
    fn eq(&self, other: &Self) -> bool {
        self.base == other.base && self.edits == other.edits && self.band == other.band
    }
}

/// What an edit cost: index cells its reach covers.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct EditCost {
    /// Index cells the edit was listed in.
    pub cells: usize,
}

impl<const D: usize> Edited<D>
where
    Space<D>: Dim<D>,
{
    /// `base` with no edits yet, edits clamped to a band of `band` metres (see the module docs;
    /// a few times the deepest contact expected, e.g. 1 m for a terrain under cars).
    pub fn new(base: Shape<D>, band: Real) -> crate::Result<Self> {
        crate::check_positive("band", band)?;
        if band >= UNBOUNDED_EXTENT {
            return Err(SdfError::Invalid {
                field: "band",
                reason: format!("must be below {UNBOUNDED_EXTENT} m"),
            });
        }
        Ok(Self::rebuilt(Box::new(base), Vec::new(), band))
    }

    /// The base shape.
    pub fn base(&self) -> &Shape<D> {
        &self.base
    }
    /// The edits, in the order applied.
    pub fn edits(&self) -> &[Edit<D>] {
        &self.edits
    }
    /// The band `R`, metres.
    pub fn band(&self) -> Real {
        self.band
    }
    /// Side of an index cell, metres (twice the band).
    pub fn cell_size(&self) -> Real {
        2.0 * self.band
    }
    /// Index cells in use (for cost reports).
    pub fn index_cells(&self) -> usize {
        self.cells.len()
    }
    /// How many edits a query at `p` evaluates (those listed in its cell).
    pub fn edits_near(&self, p: &Vector<D>) -> usize {
        self.cells.get(&self.cell_of(p)).map_or(0, Vec::len)
    }

    /// Checks an edit before [`Edited::push`]: its shape valid and bounded, its reach within
    /// [`MAX_EDIT_CELLS`], the list below [`MAX_EDITS`], the tree within depth.
    pub fn check_edit(&self, edit: &Edit<D>) -> crate::Result<()> {
        if self.edits.len() >= MAX_EDITS {
            return Err(SdfError::TooLarge {
                field: "edits",
                value: self.edits.len() + 1,
                max: MAX_EDITS,
            });
        }
        // The edit sits one level below this node, which sits below its collider's root.
        if edit.shape.depth() + 1 > crate::MAX_SHAPE_DEPTH {
            return Err(crate::shape_serde::too_deep());
        }
        edit.shape.validate()?;
        let reach = reach_box(&edit.shape, self.band).ok_or_else(|| SdfError::Invalid {
            field: "edit.shape",
            reason: "an edit's shape must be bounded and not empty (a half-space cannot be \
                     carved or added)"
                .into(),
        })?;
        let cells = self.cell_count(&reach);
        if cells > MAX_EDIT_CELLS {
            return Err(SdfError::TooLarge {
                field: "edit.shape",
                value: cells,
                max: MAX_EDIT_CELLS,
            });
        }
        Ok(())
    }

    /// Checks and applies `edit` after the others. Its cost is the cells its reach covers.
    pub fn push(&mut self, edit: Edit<D>) -> crate::Result<EditCost> {
        self.check_edit(&edit)?;
        Ok(self.push_unchecked(edit))
    }

    fn push_unchecked(&mut self, edit: Edit<D>) -> EditCost {
        let i = self.edits.len() as u32;
        let reach = reach_box(&edit.shape, self.band).unwrap_or(Aabb::EMPTY);
        let mut cost = EditCost::default();
        // An over-large reach (only from a file; `check_edit` refuses it) is left unindexed
        // for `validate` to refuse.
        if !reach.is_empty() && self.cell_count(&reach) <= MAX_EDIT_CELLS {
            let (lo, hi) = self.cell_range(&reach);
            for_each_cell(lo, hi, |key| {
                self.cells.entry(key).or_default().push(i);
                cost.cells += 1;
            });
        }
        if edit.op == EditOp::Add {
            self.has_add = true;
            self.bounds = self.bounds.merge(&edit.shape.bounds());
        }
        self.lipschitz = self.lipschitz.max(edit.shape.lipschitz());
        self.reach.push(reach);
        self.edits.push(edit);
        cost
    }

    fn rebuilt(base: Box<Shape<D>>, edits: Vec<Edit<D>>, band: Real) -> Self {
        let mut s = Self {
            bounds: base.bounds(),
            lipschitz: base.lipschitz(),
            base,
            edits: Vec::with_capacity(edits.len()),
            band,
            reach: Vec::new(),
            has_add: false,
            cells: HashMap::new(),
        };
        if !(band.is_finite() && band > 0.0) {
            // Left for `validate` to refuse; no index over a band that is not a length.
            s.edits = edits;
            return s;
        }
        for e in edits {
            s.push_unchecked(e);
        }
        s
    }

    /// Checks the band and every edit (a value read from a file).
    pub fn validate_params(&self) -> crate::Result<()> {
        crate::check_positive("band", self.band)?;
        if self.edits.len() > MAX_EDITS {
            return Err(SdfError::TooLarge {
                field: "edits",
                value: self.edits.len(),
                max: MAX_EDITS,
            });
        }
        if self.reach.len() != self.edits.len()
            || self
                .reach
                .iter()
                .any(|r| r.is_empty() || self.cell_count(r) > MAX_EDIT_CELLS)
        {
            return Err(SdfError::Invalid {
                field: "edits",
                reason: "an edit's shape is unbounded, empty or too large".into(),
            });
        }
        Ok(())
    }

    /// The children for depth counts and visits: the base, then each edit's shape.
    pub(crate) fn children(&self) -> Vec<&Shape<D>> {
        std::iter::once(&*self.base)
            .chain(self.edits.iter().map(|e| &e.shape))
            .collect()
    }
    pub(crate) fn children_mut(&mut self) -> Vec<&mut Shape<D>> {
        std::iter::once(&mut *self.base)
            .chain(self.edits.iter_mut().map(|e| &mut e.shape))
            .collect()
    }

    fn upper(&self) -> Real {
        if self.has_add {
            self.band
        } else {
            Real::INFINITY
        }
    }

    fn cell_of(&self, p: &Vector<D>) -> [i64; D] {
        let s = self.cell_size();
        std::array::from_fn(|i| (p[i] / s).floor() as i64)
    }

    fn cell_range(&self, b: &Aabb<D>) -> ([i64; D], [i64; D]) {
        (self.cell_of(&b.min), self.cell_of(&b.max))
    }

    fn cell_count(&self, b: &Aabb<D>) -> usize {
        let (lo, hi) = self.cell_range(b);
        (0..D).fold(1usize, |n, i| {
            n.saturating_mul((hi[i] - lo[i] + 1).max(0) as usize)
        })
    }

    /// The value and which term set it: `None` for the base, `Some((i, sign))` for edit `i`.
    fn evaluate(&self, p: &Vector<D>) -> (Real, Option<(usize, Real)>) {
        let (lo, hi) = (-self.band, self.upper());
        let mut d = self.base.distance(p).clamp(lo, hi);
        let mut who = None;
        let Some(list) = self.cells.get(&self.cell_of(p)) else {
            return (d, who);
        };
        for &i in list {
            let i = i as usize;
            if !self.reach[i].contains_point(p) {
                continue;
            }
            let e = &self.edits[i];
            let de = e.shape.distance(p);
            let (next, sign) = match e.op {
                EditOp::Carve => (d.max(-de), -1.0),
                EditOp::Add => (d.min(de), 1.0),
            };
            if next != d {
                who = Some((i, sign));
            }
            d = next.clamp(lo, hi);
        }
        (d, who)
    }
}

/// The box where an edit's field is below `band`: outside it the edit changes nothing.
fn reach_box<const D: usize>(shape: &Shape<D>, band: Real) -> Option<Aabb<D>>
where
    Space<D>: Dim<D>,
{
    let b = shape.level_bounds(band);
    let finite = b.min.iter().chain(b.max.iter()).all(|x| x.is_finite());
    (finite && !b.is_empty() && b.extents().max() < UNBOUNDED_EXTENT).then_some(b)
}

/// Calls `f` on every cell key from `lo` to `hi` inclusive.
fn for_each_cell<const D: usize>(lo: [i64; D], hi: [i64; D], mut f: impl FnMut([i64; D])) {
    let mut key = lo;
    loop {
        f(key);
        let mut axis = 0;
        loop {
            if axis == D {
                return;
            }
            if key[axis] < hi[axis] {
                key[axis] += 1;
                break;
            }
            key[axis] = lo[axis];
            axis += 1;
        }
    }
}

impl<const D: usize> Sdf<D> for Edited<D>
where
    Space<D>: Dim<D>,
{
    fn distance(&self, p: &Vector<D>) -> Real {
        self.evaluate(p).0
    }
    fn bounds(&self) -> Aabb<D> {
        self.bounds
    }
    fn level_bounds(&self, level: Real) -> Aabb<D> {
        if level <= 0.0 {
            return self.bounds;
        }
        if level >= self.upper() {
            // Every point's value is at most the band once an edit adds.
            let big = Vector::<D>::repeat(UNBOUNDED_EXTENT);
            return Aabb::new(-big, big);
        }
        // d <= level needs the base or an added shape at most `level` (carves only raise d).
        self.edits
            .iter()
            .filter(|e| e.op == EditOp::Add)
            .fold(self.base.level_bounds(level), |b, e| {
                b.merge(&e.shape.level_bounds(level))
            })
    }
    fn gradient(&self, p: &Vector<D>) -> Vector<D> {
        match self.evaluate(p).1 {
            None => self.base.gradient(p),
            Some((i, sign)) => self.edits[i].shape.gradient(p) * sign,
        }
    }
    fn lipschitz(&self) -> Real {
        self.lipschitz
    }
}

/// What is written: the base, the edits and the band.
#[derive(Serialize)]
#[serde(rename = "Edited", bound = "")]
struct EditedRef<'a, const D: usize>
where
    Space<D>: Dim<D>,
{
    base: &'a Shape<D>,
    edits: &'a [Edit<D>],
    band: Real,
}

#[derive(Deserialize)]
#[serde(rename = "Edited", deny_unknown_fields, bound = "")]
struct EditedData<const D: usize>
where
    Space<D>: Dim<D>,
{
    base: Box<Shape<D>>,
    edits: Vec<Edit<D>>,
    band: Real,
}

impl<const D: usize> Serialize for Edited<D>
where
    Space<D>: Dim<D>,
{
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        EditedRef {
            base: &self.base,
            edits: &self.edits,
            band: self.band,
        }
        .serialize(serializer)
    }
}

impl<'de, const D: usize> Deserialize<'de> for Edited<D>
where
    Space<D>: Dim<D>,
{
    fn deserialize<De: Deserializer<'de>>(deserializer: De) -> Result<Self, De::Error> {
        let d = EditedData::<D>::deserialize(deserializer)?;
        if d.edits.len() > MAX_EDITS {
            return Err(serde::de::Error::custom(format!(
                "`edits` holds {} edits, more than the limit of {MAX_EDITS}",
                d.edits.len()
            )));
        }
        // Edits read from a file are checked by `validate` (band, reach) before use.
        Ok(Edited::rebuilt(d.base, d.edits, d.band))
    }
}
