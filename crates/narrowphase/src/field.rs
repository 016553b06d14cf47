//! Fields as the search sees them: a shape's signed distance expressed in the
//! search frame (one shape's local frame), with Lipschitz bounds over a cell and
//! a counter of evaluations.
//!
//! The engine never sees shapes, poses or dimensions of the world: only a few
//! fields over a `K`-dimensional search space (the shape frame for two fields,
//! the segment parameter of a capsule for one).

use std::cell::Cell as StdCell;

use fathom_math::{Aabb, Dim, Pose, Real, Space, Vector};
use fathom_sdf::{normalize_or_axis, Sdf};

/// Counts field evaluations of one query.
#[derive(Debug, Default)]
pub(crate) struct Counter {
    evaluations: StdCell<usize>,
}

impl Counter {
    pub fn add(&self, n: usize) {
        self.evaluations.set(self.evaluations.get() + n);
    }
    pub fn get(&self) -> usize {
        self.evaluations.get()
    }
}

/// A scalar field over the search space with bounds over boxes.
pub(crate) trait Field<const K: usize> {
    /// The signed distance (or bound) at `p`, search frame. Never NaN.
    fn value(&self, p: &Vector<K>) -> Real;
    /// The unit gradient at `p`, search frame.
    fn gradient(&self, p: &Vector<K>) -> Vector<K>;
    /// The Lipschitz constant.
    fn lipschitz(&self) -> Real;
    /// A lower bound of the field over `cell`, given its `value` at the centre.
    fn lower(&self, value: Real, cell: &Aabb<K>) -> Real {
        value - self.lipschitz() * cell.radius()
    }
    /// An upper bound of the field over `cell`, given its `value` at the centre.
    fn upper(&self, value: Real, cell: &Aabb<K>) -> Real {
        value + self.lipschitz() * cell.radius()
    }
    /// A box holding the whole solid (`value <= 0`), search frame, when the field knows one:
    /// where a walk onto the surface should start. Far outside it a field may only bound the
    /// distance (a baked grid's value outside its box grows by the least sample, not the
    /// distance), and a walk started there falls short of the surface.
    fn solid_bounds(&self) -> Option<Aabb<K>> {
        None
    }
}

/// Replaces NaN by +infinity ("no information, treat as far outside").
pub(crate) fn sanitize(d: Real) -> Real {
    if d.is_nan() {
        Real::INFINITY
    } else {
        d
    }
}

/// A shape's field seen from the search frame: `d(to_local * p)`.
pub(crate) struct PosedSdf<'a, const D: usize>
where
    Space<D>: Dim<D>,
{
    sdf: &'a dyn Sdf<D>,
    to_local: Pose<D>,
    lipschitz: Real,
    counter: &'a Counter,
    /// The bounds in the search frame, worked out on first use (a CSG tree's walk).
    bounds: std::cell::OnceCell<Aabb<D>>,
    /// Whether the shape bounds itself over boxes ([`Sdf::interval`]); asked on the search's
    /// first cell, so closed-form queries pay nothing and shapes without bounds nothing per cell.
    has_interval: std::cell::OnceCell<bool>,
}

impl<'a, const D: usize> PosedSdf<'a, D>
where
    Space<D>: Dim<D>,
{
    /// `to_local` maps search-frame points into the shape's local frame.
    pub fn new(sdf: &'a dyn Sdf<D>, to_local: Pose<D>, counter: &'a Counter) -> Self {
        Self {
            sdf,
            to_local,
            lipschitz: sdf.lipschitz(),
            counter,
            bounds: std::cell::OnceCell::new(),
            has_interval: std::cell::OnceCell::new(),
        }
    }

    /// Whether [`Sdf::interval`] answers for this shape (probed at its bounds' centre).
    fn has_interval(&self) -> bool {
        *self.has_interval.get_or_init(|| {
            let b = self.sdf.bounds();
            let probe = Aabb::from_center_half_extents(b.center(), Vector::<D>::zeros());
            b.is_valid() && self.sdf.interval(&probe).is_some()
        })
    }

    /// The shape's bounds in the search frame.
    pub fn bounds(&self) -> Aabb<D> {
        *self
            .bounds
            .get_or_init(|| self.sdf.bounds().transformed(&self.to_local.inverse()))
    }
}

impl<const D: usize> Field<D> for PosedSdf<'_, D>
where
    Space<D>: Dim<D>,
{
    fn value(&self, p: &Vector<D>) -> Real {
        self.counter.add(1);
        let q = self.to_local.transform_point(&nalgebra::Point::from(*p));
        sanitize(self.sdf.distance(&q.coords))
    }
    fn gradient(&self, p: &Vector<D>) -> Vector<D> {
        self.counter.add(1);
        let q = self.to_local.transform_point(&nalgebra::Point::from(*p));
        let g = self.sdf.gradient(&q.coords);
        normalize_or_axis(self.to_local.inverse_transform_vector(&g))
    }
    fn lipschitz(&self) -> Real {
        self.lipschitz
    }
    /// The Lipschitz bound, raised by the shape's own bound over the cell where it has one
    /// (a baked grid's block min/max, [`Sdf::interval`]) over the box around the cell in the
    /// shape's frame (which holds the cell, so the bound holds on it).
    fn lower(&self, value: Real, cell: &Aabb<D>) -> Real {
        let lipschitz = value - self.lipschitz * cell.radius();
        if !self.has_interval() {
            return lipschitz;
        }
        match self.sdf.interval(&cell.transformed(&self.to_local)) {
            Some((lo, _)) if lo.is_finite() => lipschitz.max(lo),
            _ => lipschitz,
        }
    }
    fn upper(&self, value: Real, cell: &Aabb<D>) -> Real {
        let lipschitz = value + self.lipschitz * cell.radius();
        if !self.has_interval() {
            return lipschitz;
        }
        match self.sdf.interval(&cell.transformed(&self.to_local)) {
            Some((_, hi)) if hi.is_finite() => lipschitz.min(hi),
            _ => lipschitz,
        }
    }
    fn solid_bounds(&self) -> Option<Aabb<D>> {
        Some(self.bounds()).filter(|b| b.is_valid())
    }
}

/// The plane field `n · p - offset` of a half-space (exact, linear, not counted as an
/// evaluation), with exact bounds over boxes.
pub(crate) struct PlaneField<const D: usize> {
    pub normal: Vector<D>,
    pub offset: Real,
}

impl<const D: usize> Field<D> for PlaneField<D> {
    fn value(&self, p: &Vector<D>) -> Real {
        self.normal.dot(p) - self.offset
    }
    fn gradient(&self, _p: &Vector<D>) -> Vector<D> {
        self.normal
    }
    fn lipschitz(&self) -> Real {
        1.0
    }
    fn lower(&self, value: Real, cell: &Aabb<D>) -> Real {
        value - self.normal.abs().dot(&cell.half_extents())
    }
    fn upper(&self, value: Real, cell: &Aabb<D>) -> Real {
        value + self.normal.abs().dot(&cell.half_extents())
    }
}

/// The raw central-difference gradient of `f` at `p` with step `h` (not normalised: its
/// length drops below one where the stencil straddles a ridge or a corner of the field,
/// which is how the normal estimate tells a reliable gradient from an ambiguous one).
pub(crate) fn central_gradient<const K: usize>(
    f: &dyn Field<K>,
    p: &Vector<K>,
    h: Real,
) -> Vector<K> {
    let mut g = Vector::<K>::zeros();
    for i in 0..K {
        let mut e = Vector::<K>::zeros();
        e[i] = h;
        g[i] = (f.value(&(p + e)) - f.value(&(p - e))) / (2.0 * h);
    }
    if g.iter().all(|x| x.is_finite()) {
        g
    } else {
        Vector::<K>::zeros()
    }
}

/// The signed distance `s` along `dir` from `start` to `f`'s surface, by sphere tracing:
/// from inside (`f < 0`) it marches along `dir` to the exit (`s >= 0`); from outside it marches
/// against `dir` to the entry (`s <= 0`). `None` when an outside march misses within
/// `max_dist`. Steps of `|f| / L` never cross the surface, so the march cannot overshoot.
pub(crate) fn march<const K: usize>(
    f: &dyn Field<K>,
    start: &Vector<K>,
    dir: &Vector<K>,
    max_dist: Real,
    eps: Real,
) -> Option<Real> {
    const MAX_STEPS: usize = 48;
    let l = f.lipschitz().max(1e-6);
    let mut s: Real = 0.0;
    let mut d = f.value(start);
    let inside = d <= 0.0;
    for _ in 0..MAX_STEPS {
        if d.abs() <= eps {
            return Some(s);
        }
        if inside != (d <= 0.0) || !d.is_finite() {
            break;
        }
        let step = d.abs() / l;
        s += if inside { step } else { -step };
        if s.abs() > max_dist {
            return if inside { Some(s.min(max_dist)) } else { None };
        }
        d = f.value(&(start + dir * s));
    }
    // Out of steps: inside marches stop short of the exit (still a lower bound), which is kept;
    // an outside march that has not arrived is a miss.
    if inside || d.abs() <= 4.0 * eps {
        Some(s)
    } else {
        None
    }
}
