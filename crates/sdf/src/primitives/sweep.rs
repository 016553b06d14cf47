//! Is a polygon simple? A Shamos–Hoey sweep over its edges, O(n log n).
//!
//! The sweep visits the vertices in lexicographic order (x, then y) and keeps the edges
//! that span the sweep position in a balanced ordered set, bottom to top. Two edges are
//! tested only when they become neighbours in that order: when one is inserted, or when an
//! edge between them is removed. Until the sweep passes the leftmost touching point of two
//! edges their order is well defined and never changes, so the first touching pair is found
//! before the order could go wrong (Shamos and Hoey's argument), and the sweep stops there.
//!
//! What counts as touching is the same as testing every pair: two edges that are not
//! neighbours in the polygon touching anywhere (crossing, an end on the other, collinear
//! overlap), or two vertices at the same point. Neighbouring edges share their vertex, which
//! is allowed, unless they run back over each other (collinear, same direction from the
//! shared vertex): such a polygon always has a non-neighbouring touching pair too, and
//! reporting the overlap keeps the order well defined.
//!
//! Orientation signs are exact (`robust`, Shewchuk's adaptive predicates on the f32
//! coordinates widened to f64, exact for every finite f32), so the sweep and the pairwise
//! test agree on every input, degenerate ones included.

use fathom_math::Vector2;
use std::cmp::Ordering;
use std::collections::BTreeSet;
use std::ops::Bound::{Excluded, Unbounded};

/// A point as the sweep sees it: f64, with -0.0 folded into +0.0 so that the total order
/// used for sorting agrees with `==` on the f32 coordinates.
type Point = [f64; 2];

fn point(v: &Vector2) -> Point {
    [f64::from(v.x) + 0.0, f64::from(v.y) + 0.0]
}

/// Lexicographic order of points: x, then y (the sweep's order).
fn lex(a: &Point, b: &Point) -> Ordering {
    a[0].total_cmp(&b[0]).then(a[1].total_cmp(&b[1]))
}

/// Twice the signed area of the triangle `a b c`, with the exact sign: positive when `c` is
/// left of the line from `a` to `b`, zero when the three are collinear.
fn orient(a: &Point, b: &Point, c: &Point) -> f64 {
    let coord = |p: &Point| robust::Coord { x: p[0], y: p[1] };
    robust::orient2d(coord(a), coord(b), coord(c))
}

/// True when `p`, known to be collinear with `a` and `b`, lies on the closed segment `a b`.
fn on_collinear(a: &Point, b: &Point, p: &Point) -> bool {
    (0..2).all(|k| p[k] >= a[k].min(b[k]) && p[k] <= a[k].max(b[k]))
}

/// True when the closed segments `p1 p2` and `q1 q2` share a point (exact).
#[cfg(test)]
pub(crate) fn segments_touch(p1: &Vector2, p2: &Vector2, q1: &Vector2, q2: &Vector2) -> bool {
    let [p1, p2, q1, q2] = [p1, p2, q1, q2].map(point);
    points_touch(&p1, &p2, &q1, &q2)
}

fn points_touch(p1: &Point, p2: &Point, q1: &Point, q2: &Point) -> bool {
    let d1 = orient(p1, p2, q1);
    let d2 = orient(p1, p2, q2);
    let d3 = orient(q1, q2, p1);
    let d4 = orient(q1, q2, p2);
    if d1 * d2 < 0.0 && d3 * d4 < 0.0 {
        return true;
    }
    (d1 == 0.0 && on_collinear(p1, p2, q1))
        || (d2 == 0.0 && on_collinear(p1, p2, q2))
        || (d3 == 0.0 && on_collinear(q1, q2, p1))
        || (d4 == 0.0 && on_collinear(q1, q2, p2))
}

/// Why a polygon is not simple.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Crossing {
    /// Two edges (by index: edge `i` runs from vertex `i` to vertex `i + 1`) touch.
    Edges(usize, usize),
    /// Two vertices are at the same point.
    Vertices(usize, usize),
}

/// What the sweep found and how much it tested.
#[derive(Clone, Copy, Debug)]
pub(crate) struct SweepReport {
    /// The first touching pair found, if any.
    pub crossing: Option<Crossing>,
    /// Edge pairs tested (at most three per vertex: the sweep's work bound).
    pub pair_tests: usize,
    /// The most edges in the ordered set at once.
    pub max_active: usize,
}

/// An edge in the sweep's ordered set, its ends in sweep order (`left` first).
#[derive(Clone, Copy, Debug)]
struct ActiveEdge {
    left: Point,
    right: Point,
    edge: usize,
}

impl ActiveEdge {
    fn new(v: &[Point], edge: usize) -> Self {
        let (a, b) = (v[edge], v[(edge + 1) % v.len()]);
        let (left, right) = if lex(&a, &b).is_le() { (a, b) } else { (b, a) };
        Self { left, right, edge }
    }

    /// Below (`Less`) or above `other`, for an `other` that starts at or after this edge's
    /// start while this edge spans the sweep: which side of this edge's line `other` leaves on.
    fn order_later(&self, other: &Self) -> Ordering {
        for p in [&other.left, &other.right] {
            let side = orient(&self.left, &self.right, p);
            if side != 0.0 {
                return if side > 0.0 {
                    Ordering::Less
                } else {
                    Ordering::Greater
                };
            }
        }
        // Collinear edges spanning the sweep together overlap: the sweep reports them when
        // they meet, and the index only keeps the order total meanwhile.
        self.edge.cmp(&other.edge)
    }
}

/// The order of edges that span the sweep together, bottom to top. Every pair the set ever
/// compares spans the sweep at the same time (an edge is compared while being inserted at
/// its start, removed at its end, or looked up in between) and, until the sweep stops, the
/// two touch nowhere left of the sweep, so the order is the order of their heights there.
impl Ord for ActiveEdge {
    fn cmp(&self, other: &Self) -> Ordering {
        if self.edge == other.edge {
            Ordering::Equal
        } else if lex(&self.left, &other.left).is_le() {
            self.order_later(other)
        } else {
            other.order_later(self).reverse()
        }
    }
}

impl PartialOrd for ActiveEdge {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl PartialEq for ActiveEdge {
    fn eq(&self, other: &Self) -> bool {
        self.edge == other.edge
    }
}

impl Eq for ActiveEdge {}

/// The sweep's state: the polygon, the ordered set and the work done.
struct Sweep<'a> {
    v: &'a [Point],
    active: BTreeSet<ActiveEdge>,
    pair_tests: usize,
    max_active: usize,
}

impl Sweep<'_> {
    fn n(&self) -> usize {
        self.v.len()
    }

    /// True when edges `a` and `b` touch in a way a simple polygon forbids.
    fn touch(&mut self, a: &ActiveEdge, b: &ActiveEdge) -> bool {
        self.pair_tests += 1;
        let n = self.n();
        let (first, second) = if (a.edge + 1) % n == b.edge {
            (a.edge, b.edge)
        } else if (b.edge + 1) % n == a.edge {
            (b.edge, a.edge)
        } else {
            return points_touch(&a.left, &a.right, &b.left, &b.right);
        };
        // Neighbours in the polygon share vertex `second`: they may only meet there, so they
        // fail when collinear and running the same way out of it (one lies along the other).
        let shared = self.v[second];
        let (p, q) = (self.v[first], self.v[(second + 1) % n]);
        orient(&shared, &p, &q) == 0.0
            && (on_collinear(&shared, &p, &q) || on_collinear(&shared, &q, &p))
    }

    /// Tests `e` against both its neighbours in the ordered set.
    fn test_neighbours(&mut self, e: &ActiveEdge) -> Option<Crossing> {
        let below = self.active.range(..*e).next_back().copied();
        let above = self.active.range((Excluded(*e), Unbounded)).next().copied();
        for other in [below, above].into_iter().flatten() {
            if self.touch(e, &other) {
                return Some(edges(e.edge, other.edge));
            }
        }
        None
    }

    /// Removes `e`; its former neighbours become neighbours and are tested.
    fn remove(&mut self, e: &ActiveEdge) -> Option<Crossing> {
        let below = self.active.range(..*e).next_back().copied();
        let above = self.active.range((Excluded(*e), Unbounded)).next().copied();
        let removed = self.active.remove(e);
        debug_assert!(removed, "an ending edge is in the set");
        match (below, above) {
            (Some(b), Some(a)) if self.touch(&b, &a) => Some(edges(b.edge, a.edge)),
            _ => None,
        }
    }

    /// Inserts `e` and tests it against its new neighbours.
    fn insert(&mut self, e: ActiveEdge) -> Option<Crossing> {
        self.active.insert(e);
        self.max_active = self.max_active.max(self.active.len());
        self.test_neighbours(&e)
    }

    /// The sweep's step at vertex `i`: its ending edges leave the set, then its starting
    /// edges join it (its two edges meet only at the vertex itself, so the order of the two
    /// stages loses no touching pair).
    fn visit(&mut self, i: usize) -> Option<Crossing> {
        let n = self.n();
        let incident = [
            ActiveEdge::new(self.v, (i + n - 1) % n),
            ActiveEdge::new(self.v, i),
        ];
        let here = self.v[i];
        for e in incident.iter().filter(|e| e.right == here) {
            if let Some(c) = self.remove(e) {
                return Some(c);
            }
        }
        for e in incident.iter().filter(|e| e.left == here) {
            if let Some(c) = self.insert(*e) {
                return Some(c);
            }
        }
        None
    }
}

/// The pair of edges in index order.
fn edges(a: usize, b: usize) -> Crossing {
    Crossing::Edges(a.min(b), a.max(b))
}

/// Sweeps the closed polygon `vertices` (at least 3, finite, no zero-length edge) for the
/// first pair of touching edges or coinciding vertices.
pub(crate) fn sweep(vertices: &[Vector2]) -> SweepReport {
    let v: Vec<Point> = vertices.iter().map(point).collect();
    let mut order: Vec<usize> = (0..v.len()).collect();
    order.sort_unstable_by(|&a, &b| lex(&v[a], &v[b]).then(a.cmp(&b)));
    let mut report = SweepReport {
        crossing: None,
        pair_tests: 0,
        max_active: 0,
    };
    // Coinciding vertices end up next to each other; with them gone, every sweep position
    // holds one vertex, which the sweep's steps rely on.
    if let Some(w) = order.windows(2).find(|w| v[w[0]] == v[w[1]]) {
        report.crossing = Some(Crossing::Vertices(w[0].min(w[1]), w[0].max(w[1])));
        return report;
    }
    let mut sweep = Sweep {
        v: &v,
        active: BTreeSet::new(),
        pair_tests: 0,
        max_active: 0,
    };
    report.crossing = order.iter().find_map(|&i| sweep.visit(i));
    report.pair_tests = sweep.pair_tests;
    report.max_active = sweep.max_active;
    report
}
