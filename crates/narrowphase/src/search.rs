//! The one branch-and-bound engine behind every query.
//!
//! Bound-split search, generalised to any objective: a cell (box) of radius `r` around a
//! centre `c` can hold a point of field `i` below `limit_i` only if
//! `d_i(c) - L_i r <= limit_i`; cells that cannot are dropped, and so are cells whose
//! lower bound on the objective cannot beat the best feasible centre found so far by more
//! than a tolerance. What differs between queries is only the objective (see
//! [`crate::objectives`]) and the order cells are taken in:
//!
//! - breadth-first (a first-in first-out queue), level by level;
//! - best-first on the objective's lower bound, which stops as soon as the best cell left
//!   cannot improve on the answer (bounded objectives such as extremes along a direction cost
//!   a logarithm of the precision, not an enumeration);
//! - greedy on the objective at the centre plus a penalty for a centre outside the limits
//!   (deepest first), which reaches a good leaf in one dive and is capped when the objective is
//!   flat (resting contacts), where any point of the flat set is as good as another; the
//!   intersection test ([`touch_point`]) dives this way.
//!
//! A cell is split in two across its longest axis until its radius is at most the leaf radius.
//! Every cell costs one unit of the query's budget; when it runs out the engine returns its best
//! answer so far and the budget records that it was hit.

use std::cmp::Ordering;
use std::collections::BinaryHeap;

use fathom_math::{Aabb, Real, Vector};

use crate::field::Field;
use crate::objectives::Objective;

/// Weight of a centre's distance from feasibility in the greedy order. Above 1, so that
/// stepping away from the feasible set never pays (an objective falls by at most 1 per unit
/// step), the dive follows the feasible set down instead of the infeasible shadow below it.
const GREEDY_PENALTY: Real = 2.0;

/// A box of the search space with the fields' values at its centre.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Cell<const K: usize> {
    pub bounds: Aabb<K>,
    /// Values of the fields at the centre (unused entries are `-inf`).
    pub values: [Real; 2],
    /// Lower bounds of the fields over the cell (unused entries are `-inf`), worked out once
    /// when the cell is evaluated: a shape's own bounds over a box cost a walk of its blocks.
    pub lows: [Real; 2],
    pub depth: u32,
}

impl<const K: usize> Cell<K> {
    pub fn centre(&self) -> Vector<K> {
        self.bounds.center()
    }
}

/// One or two fields with the limit each must meet (`d_i <= limit_i`).
pub(crate) struct Problem<'a, const K: usize> {
    pub fields: Vec<&'a dyn Field<K>>,
    pub limits: [Real; 2],
}

impl<'a, const K: usize> Problem<'a, K> {
    /// A problem over one or two fields, each limited by `limit`.
    pub fn new(fields: Vec<&'a dyn Field<K>>, limit: Real) -> Self {
        Self {
            fields,
            limits: [limit; 2],
        }
    }

    /// Evaluates the fields at the centre of `bounds`, field by field, and drops the cell as
    /// soon as one field proves it empty (so a pruned cell often costs one evaluation, not two).
    pub fn evaluate(&self, bounds: Aabb<K>, depth: u32) -> Option<Cell<K>> {
        let c = bounds.center();
        let mut values = [Real::NEG_INFINITY; 2];
        let mut lows = [Real::NEG_INFINITY; 2];
        for (i, f) in self.fields.iter().enumerate() {
            let v = f.value(&c);
            let low = f.lower(v, &bounds);
            if low > self.limits[i] {
                return None;
            }
            values[i] = v;
            lows[i] = low;
        }
        Some(Cell {
            bounds,
            values,
            lows,
            depth,
        })
    }

    /// Lower bounds of the fields over the cell.
    pub fn lower(&self, cell: &Cell<K>) -> [Real; 2] {
        cell.lows
    }

    /// How far the centre is from meeting the limits, as a distance: each field's excess over
    /// its limit divided by its Lipschitz constant (a lower bound on the distance from the centre
    /// to where that field meets its limit), summed; zero for a feasible centre.
    pub fn excess(&self, cell: &Cell<K>) -> Real {
        self.fields
            .iter()
            .enumerate()
            .map(|(i, f)| (cell.values[i] - self.limits[i]).max(0.0) / f.lipschitz().max(1e-6))
            .sum()
    }

    /// True when the centre meets every limit.
    pub fn centre_feasible(&self, cell: &Cell<K>) -> bool {
        (0..self.fields.len()).all(|i| cell.values[i] <= self.limits[i])
    }

    /// True when every point of the cell meets every limit (no split needed to know it).
    pub fn wholly_feasible(&self, cell: &Cell<K>) -> bool {
        self.fields
            .iter()
            .enumerate()
            .all(|(i, f)| f.upper(cell.values[i], &cell.bounds) <= self.limits[i])
    }
}

/// The cell budget of one query, shared by all its searches.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Budget {
    pub cells: usize,
    pub max_cells: usize,
    pub hit: bool,
}

impl Budget {
    pub fn new(max_cells: usize) -> Self {
        Self {
            cells: 0,
            max_cells,
            hit: false,
        }
    }
    /// Takes one cell from the budget; false (and records the hit) when none is left.
    pub fn take(&mut self) -> bool {
        if self.cells >= self.max_cells {
            self.hit = true;
            false
        } else {
            self.cells += 1;
            true
        }
    }
}

/// The order cells are taken in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Order {
    /// Level by level (a first-in first-out queue).
    BreadthFirst,
    /// Smallest objective lower bound first; stops when no cell can improve.
    BestBound,
    /// Smallest objective value at the centre first (deeper first on ties): one dive to a leaf.
    Greedy,
}

/// How a search runs.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Params {
    pub order: Order,
    /// Cells of at most this radius are not split.
    pub leaf_radius: Real,
    /// A cell is dropped when its lower bound is not below `best - tol`.
    pub tol: Real,
    /// A cell whose lower bound exceeds this holds nothing of interest.
    pub cutoff: Real,
    /// Stop as soon as a feasible centre reaches this value.
    pub stop_at: Option<Real>,
    /// Most cells this search may split (a convergence cap, unlike the query's budget).
    pub cap: usize,
}

impl Params {
    pub fn new(order: Order, leaf_radius: Real, tol: Real) -> Self {
        Self {
            order,
            leaf_radius,
            tol,
            cutoff: Real::INFINITY,
            stop_at: None,
            cap: usize::MAX,
        }
    }
}

/// The best feasible centre found.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Found<const K: usize> {
    pub point: Vector<K>,
    pub value: Real,
    pub values: [Real; 2],
}

struct Entry<const K: usize> {
    key: Real,
    depth: u32,
    seq: u64,
    cell: Cell<K>,
}

impl<const K: usize> PartialEq for Entry<K> {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}
impl<const K: usize> Eq for Entry<K> {}
impl<const K: usize> PartialOrd for Entry<K> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl<const K: usize> Ord for Entry<K> {
    /// The heap is a max-heap: the smallest key (then the deepest, then the oldest) is greatest.
    fn cmp(&self, other: &Self) -> Ordering {
        other
            .key
            .total_cmp(&self.key)
            .then(self.depth.cmp(&other.depth))
            .then(other.seq.cmp(&self.seq))
    }
}

/// Minimises `objective` over the feasible points of the `start` cells.
pub(crate) fn minimise<const K: usize, O: Objective<K>>(
    problem: &Problem<'_, K>,
    objective: &O,
    params: &Params,
    start: &[Cell<K>],
    budget: &mut Budget,
) -> Option<Found<K>> {
    run(problem, objective, params, start, budget).best
}

/// [`minimise`], and up to `keep` of the cells it left unsplit, first in its order (for a
/// best-first search stopped by its cap: the cells still most likely to hold the minimum).
pub(crate) fn minimise_keeping<const K: usize, O: Objective<K>>(
    problem: &Problem<'_, K>,
    objective: &O,
    params: &Params,
    start: &[Cell<K>],
    budget: &mut Budget,
    keep: usize,
) -> (Option<Found<K>>, Vec<Cell<K>>) {
    let mut search = run(problem, objective, params, start, budget);
    let rest = std::iter::from_fn(|| search.heap.pop().map(|e| e.cell))
        .take(keep)
        .collect();
    (search.best, rest)
}

fn run<'s, 'a, const K: usize, O: Objective<K>>(
    problem: &'s Problem<'a, K>,
    objective: &'s O,
    params: &'s Params,
    start: &[Cell<K>],
    budget: &mut Budget,
) -> Search<'s, 'a, K, O> {
    let mut search = Search {
        problem,
        objective,
        params,
        best: None,
        heap: BinaryHeap::new(),
        seq: 0,
    };
    for cell in start {
        if search.consider(cell) {
            return search;
        }
        search.push(*cell);
    }
    let mut split = 0usize;
    while let Some(entry) = search.heap.pop() {
        let cell = entry.cell;
        if search.pruned(&cell) {
            if params.order == Order::BestBound {
                break;
            }
            continue;
        }
        if cell.bounds.radius() <= params.leaf_radius {
            continue;
        }
        if split >= params.cap {
            search.push(cell);
            break;
        }
        split += 1;
        for half in cell.bounds.split() {
            if !budget.take() {
                return search;
            }
            let Some(child) = problem.evaluate(half, cell.depth + 1) else {
                continue;
            };
            if search.consider(&child) {
                return search;
            }
            if !search.pruned(&child) {
                search.push(child);
            }
        }
    }
    search
}

struct Search<'s, 'a, const K: usize, O: Objective<K>> {
    problem: &'s Problem<'a, K>,
    objective: &'s O,
    params: &'s Params,
    best: Option<Found<K>>,
    heap: BinaryHeap<Entry<K>>,
    seq: u64,
}

impl<const K: usize, O: Objective<K>> Search<'_, '_, K, O> {
    fn lower_bound(&self, cell: &Cell<K>) -> Real {
        self.objective
            .lower_bound(&cell.bounds, &cell.values, &self.problem.lower(cell))
    }

    fn pruned(&self, cell: &Cell<K>) -> bool {
        let lb = self.lower_bound(cell);
        lb > self.params.cutoff || self.best.is_some_and(|b| lb >= b.value - self.params.tol)
    }

    /// Records the centre if it is feasible and better; true when the search can stop.
    fn consider(&mut self, cell: &Cell<K>) -> bool {
        if !self.problem.centre_feasible(cell) {
            return false;
        }
        let c = cell.centre();
        let v = self.objective.value(&c, &cell.values);
        if self.best.is_none_or(|b| v < b.value) {
            self.best = Some(Found {
                point: c,
                value: v,
                values: cell.values,
            });
        }
        self.params.stop_at.is_some_and(|s| v <= s)
    }

    fn push(&mut self, cell: Cell<K>) {
        let key = match self.params.order {
            Order::BreadthFirst => cell.depth as Real,
            Order::BestBound => self.lower_bound(&cell),
            Order::Greedy => {
                self.objective.value(&cell.centre(), &cell.values)
                    + GREEDY_PENALTY * self.problem.excess(&cell)
            }
        };
        // Breadth-first ignores depth on ties (all equal) and keeps insertion order.
        let depth = if self.params.order == Order::BreadthFirst {
            0
        } else {
            cell.depth
        };
        self.seq += 1;
        self.heap.push(Entry {
            key,
            depth,
            seq: self.seq,
            cell,
        });
    }
}

/// A centre of `root` inside every field's solid, or touching them all, out on the first one
/// found; `None` means no leaf qualifies or the budget ran out. Cells are split down to
/// `leaf_radius`, and a touch is every field within one leaf's reach (`leaf_radius` times its
/// Lipschitz constant): the leaf holding a touching point has its centre that close.
///
/// The dive is greedy on `max(d0, d1)`, so a touching pair costs one dive to its deepest cell
/// rather than its whole interface refined to prove there is no overlap. `strict` asks for a
/// centre inside every solid, breadth-first: the first one is among the coarsest that qualify,
/// well inside a wide overlap rather than at its rim.
pub(crate) fn touch_point<const K: usize>(
    fields: Vec<&dyn Field<K>>,
    root: Aabb<K>,
    leaf_radius: Real,
    strict: bool,
    budget: &mut Budget,
) -> Option<Vector<K>> {
    let reach = fields.iter().map(|f| f.lipschitz()).fold(0.0, Real::max) * leaf_radius;
    let (touch, order) = match strict {
        true => (0.0, Order::BreadthFirst),
        false => (reach, Order::Greedy),
    };
    let problem = Problem::new(fields, touch);
    let mut params = Params::new(order, leaf_radius, 0.0);
    params.stop_at = Some(touch);
    params.cutoff = touch;
    if !budget.take() {
        return None;
    }
    let root = problem.evaluate(root, 0)?;
    minimise(
        &problem,
        &crate::objectives::MaxOf,
        &params,
        &[root],
        budget,
    )
    .map(|f| f.point)
}

/// The cells of `root` that may hold a feasible point, split breadth-first down to `radius`,
/// and further (down to a quarter of it) where that is still unsure: a cell is kept at `radius`
/// only when its centre is within half its radius of meeting every limit. A bound rather than
/// a distance (a CSG difference inside its cut) can leave a cell far from any contact looking
/// possible; such cells are split until the bound rules them out, so two contacts a short way
/// apart are not joined through them. Cells wholly feasible are kept whole: nothing inside them
/// needs telling apart.
pub(crate) fn cover<const K: usize>(
    problem: &Problem<'_, K>,
    root: Aabb<K>,
    radius: Real,
    budget: &mut Budget,
) -> Vec<Cell<K>> {
    let mut out = Vec::new();
    if !budget.take() {
        return out;
    }
    let Some(first) = problem.evaluate(root, 0) else {
        return out;
    };
    let mut queue = std::collections::VecDeque::from([first]);
    while let Some(cell) = queue.pop_front() {
        let r = cell.bounds.radius();
        let near = (0..problem.fields.len())
            .all(|i| cell.values[i] - problem.limits[i] <= 0.5 * problem.fields[i].lipschitz() * r);
        if (r <= radius && near) || r <= 0.25 * radius || problem.wholly_feasible(&cell) {
            out.push(cell);
            continue;
        }
        let mut children = Vec::with_capacity(2);
        for half in cell.bounds.split() {
            if !budget.take() {
                children.clear();
                break;
            }
            if let Some(child) = problem.evaluate(half, cell.depth + 1) {
                children.push(child);
            }
        }
        if budget.hit {
            // Out of budget: keep the unsplit cell (conservative) and everything queued.
            out.push(cell);
            out.extend(queue.drain(..));
            break;
        }
        queue.extend(children);
    }
    out
}
