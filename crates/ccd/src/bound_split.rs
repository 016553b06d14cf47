//! Best-first bound-split minimisation of a Lipschitz function over a box.
//!
//! A capsule cast needs the smallest field value along a segment, and time of
//! impact needs the smallest `d_A + d_B` over a body's box. Both are the same
//! search: evaluate at a cell's centre `c`; no point of the cell can be lower
//! than `f(c) - L * r` (`r` the cell's half diagonal). Keep cells in a heap by
//! that lower bound, split the most promising one, and stop once the lowest
//! bound is close enough to the best value seen:
//!
//! - `upper < threshold`: a sample proves the minimum is below the threshold (contact);
//! - `lower >= upper - max(upper, epsilon) / 2`: the lower bound is good enough for
//!   a march to make progress (at least half the estimated gap, at least
//!   `epsilon / 2` once `upper >= epsilon`);
//! - the evaluation budget is spent: the caller gets whatever lower bound it has.
//!
//! The search may be restricted to a domain inside the box (time of impact
//! searches only the solid of one shape): cells that provably hold no point
//! of the domain are dropped, and only centres inside it count as samples.
//!
//! The returned `lower` is always a true lower bound of the minimum over the box.

use crate::error::Result;
use fathom_math::{Aabb, Real, Vector};
use std::cmp::Ordering;
use std::collections::BinaryHeap;

/// A cell waiting to be split, ordered so that the heap pops the lowest bound first.
pub(crate) struct Node<const K: usize> {
    lower: Real,
    cell: Aabb<K>,
}

impl<const K: usize> PartialEq for Node<K> {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}
impl<const K: usize> Eq for Node<K> {}
impl<const K: usize> PartialOrd for Node<K> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl<const K: usize> Ord for Node<K> {
    fn cmp(&self, other: &Self) -> Ordering {
        // Reversed: BinaryHeap is a max-heap and we want the lowest bound on top.
        other.lower.total_cmp(&self.lower)
    }
}

/// Reusable heap of a search (kept between the steps of one march to avoid allocating).
pub(crate) type Scratch<const K: usize> = BinaryHeap<Node<K>>;

/// When to stop searching.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Stop {
    /// Stop as soon as a sample falls below this.
    pub threshold: Real,
    /// Absolute accuracy floor of the lower bound.
    pub epsilon: Real,
    /// Most evaluations allowed.
    pub budget: u32,
}

/// What the search proved.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Minimum<const K: usize> {
    /// No point of the box has a value below this.
    pub lower: Real,
    /// The lowest value sampled.
    pub upper: Real,
    /// Where `upper` was sampled.
    pub argmin: Vector<K>,
    /// Evaluations spent.
    pub evals: u32,
}

/// The value of the searched function at a cell's centre.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Eval {
    /// No point of the cell belongs to the domain: drop it.
    Outside,
    /// The function's value at the centre, and whether the centre itself is in the
    /// domain (only such values count as samples of the minimum).
    Value(Real, bool),
}

/// Minimises `f`, `lipschitz`-Lipschitz over the part of `root` that `f` calls the
/// domain (see [`Eval`]), as described in the module docs. `f` gets a cell's centre
/// and half diagonal.
pub(crate) fn minimise<const K: usize>(
    root: &Aabb<K>,
    lipschitz: Real,
    stop: &Stop,
    heap: &mut Scratch<K>,
    mut f: impl FnMut(&Vector<K>, Real) -> Result<Eval>,
) -> Result<Minimum<K>> {
    heap.clear();
    let mut best = Minimum {
        lower: Real::INFINITY,
        upper: Real::INFINITY,
        argmin: root.center(),
        evals: 0,
    };
    // The lowest value seen even outside the domain: the scale of the gap before any
    // sample lands in the domain.
    let mut estimate = Real::INFINITY;
    let mut visit = |cell: Aabb<K>,
                     heap: &mut Scratch<K>,
                     best: &mut Minimum<K>,
                     estimate: &mut Real|
     -> Result<()> {
        let (c, r) = (cell.center(), cell.radius());
        best.evals += 1;
        if let Eval::Value(v, inside) = f(&c, r)? {
            *estimate = estimate.min(v);
            if inside && v < best.upper {
                best.upper = v;
                best.argmin = c;
            }
            heap.push(Node {
                lower: v - lipschitz * r,
                cell,
            });
        }
        Ok(())
    };
    visit(*root, heap, &mut best, &mut estimate)?;
    while let Some(top) = heap.peek() {
        let reference = if best.upper.is_finite() {
            best.upper
        } else {
            estimate
        };
        let good_enough = top.lower >= reference - 0.5 * reference.max(stop.epsilon)
            && (best.upper.is_finite() || top.lower > 0.0);
        if best.upper < stop.threshold || good_enough || best.evals >= stop.budget {
            break;
        }
        let node = heap.pop().expect("peeked");
        for half in node.cell.split() {
            visit(half, heap, &mut best, &mut estimate)?;
        }
    }
    best.lower = heap
        .peek()
        .map_or(Real::INFINITY, |n| n.lower)
        .min(best.upper);
    Ok(best)
}

#[cfg(test)]
mod tests {
    use super::*;
    use fathom_math::Vector;

    #[test]
    fn lower_bound_holds_and_finds_the_minimum() {
        // f(s) = |s - 0.3| on [-1, 1]: 1-Lipschitz, minimum 0 at 0.3.
        let root = Aabb::<1>::new(Vector::<1>::new(-1.0), Vector::<1>::new(1.0));
        let stop = Stop {
            threshold: Real::NEG_INFINITY,
            epsilon: 1e-3,
            budget: 10_000,
        };
        let mut heap = Scratch::new();
        let m = minimise(&root, 1.0, &stop, &mut heap, |s, _| {
            Ok(Eval::Value((s[0] - 0.3).abs(), true))
        })
        .unwrap();
        assert!(
            m.lower <= 0.0,
            "lower {} must bound the true minimum 0",
            m.lower
        );
        // Stopping rule: lower >= upper - epsilon / 2 once upper is small.
        assert!(m.upper - m.lower <= 0.5 * m.upper.max(1e-3) + 1e-6);
        assert!((m.argmin[0] - 0.3).abs() <= m.upper + 1e-6);
    }

    #[test]
    fn threshold_stops_early_and_budget_is_respected() {
        let root = Aabb::<2>::new(Vector::<2>::new(-1.0, -1.0), Vector::<2>::new(1.0, 1.0));
        let mut heap = Scratch::new();
        let stop = Stop {
            threshold: 0.5,
            epsilon: 1e-6,
            budget: 1_000,
        };
        let m = minimise(&root, 1.0, &stop, &mut heap, |p, _| {
            Ok(Eval::Value(p.norm(), true))
        })
        .unwrap();
        assert!(
            m.upper < 0.5 && m.evals == 1,
            "the centre already beats the threshold"
        );
        let stop = Stop {
            threshold: Real::NEG_INFINITY,
            epsilon: 1e-9,
            budget: 7,
        };
        let far = |p: &Vector<2>, _| {
            Ok(Eval::Value(
                (p - Vector::<2>::new(0.77, -0.31)).norm(),
                true,
            ))
        };
        let m = minimise(&root, 1.0, &stop, &mut heap, far).unwrap();
        assert!(
            m.evals <= 8,
            "one split (two evaluations) may finish past the budget"
        );
        assert!(m.lower <= 0.0);
    }
}
