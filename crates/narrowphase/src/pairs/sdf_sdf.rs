//! Two general fields: the full bound-split search, in A's local frame.
//!
//! The root cell is A's bounds intersected with B's bounds brought into A's frame (the
//! dispatcher puts the smaller shape first, so the root is tight around it). The queries:
//!
//! - intersects: greedy on `max(dA, dB)`, out on the first centre inside both or touching both
//!   surfaces (see [`touch_point`]);
//! - penetration: greedy on `dA + dB` over points inside both (the overlap's deepest point), then
//!   the normal from the gradients there (see [`crate::normal`]) and the depth along it;
//! - distance: best-first on `max(dA, dB)` over the union of the bounds, capped: its minimiser is
//!   the midpoint of the closest segment, and the witnesses are polished onto each surface from
//!   the best centre and the cells the cap left (see [`DISTANCE_CAP_FACTOR`]);
//! - contacts: the inflated overlap covered by coarse cells, split into connected regions, and
//!   per region a deepest point (normal), extremes along tangent directions, and a manifold.

use fathom_math::{Aabb, Dim, Pose, Real, Space, Vector};
use fathom_sdf::Sdf;

use super::{world_point, Ctx, PairQuery};
use crate::curved::{line_direction, line_end, midway, settle};
use crate::field::{Counter, Field, PosedSdf};
use crate::manifold::{project, reduce, tangent_directions, to_world, Candidate, IDS_PER_REGION};
use crate::normal::{along_normal, facing_normal, nearest_on_surface, normal_at, separating_axis};
use crate::objectives::{Extreme, MaxOf, Sum};
use crate::options::Settings;
use crate::regions::components;
use crate::search::{
    cover, minimise, minimise_keeping, touch_point, Budget, Cell, Found, Order, Params, Problem,
};
use crate::types::{Deepest, Manifold};

/// Weight of `dA + dB` in the extreme objectives (ties of a flat rim go to the interface).
const EXTREME_LAMBDA: Real = 0.25;
/// An extreme search splits at most this many times the descent cap. A polygonal region's
/// extreme is a vertex and is certified well before; a curved rim's extreme is flat to second
/// order (every point of a cap `sqrt(tol * radius)` wide is within the tolerance), which
/// certifying would enumerate, while any point of that cap is as good a contact point.
pub(crate) const EXTREME_CAP_FACTOR: usize = 2;

/// The distance search is best-first, splitting at most this many times the descent cap, and
/// [`closest_of`] finds the closest pair of the basins it ends in. Certifying the minimum to the
/// tolerance enumerates cells wherever `max(dA, dB)` is flat or has several equal minima
/// (parallel faces, two tubes crossing twice): `fathom compare`'s separated pairs all end at
/// this cap, and half of it let the bumpy heightfield oracle end in the wrong basin.
const DISTANCE_CAP_FACTOR: usize = 16;
/// Cells left by the capped distance search that [`closest_of`] polishes from besides the best:
/// the best centre alone can sit where a field only bounds its distance (a heightfield's side),
/// and its witnesses then under-read the gap.
const RESTARTS: usize = 8;
/// Alternating projections (the point of A nearest to the point of B, and back) that polish the
/// search's answer into the closest pair of the two convex patches near it.
const POLISH_STEPS: usize = 16;

/// The region's extremes along the tangent directions, as candidates keyed 1, 2, ...: each the
/// farthest point of the margin-inflated region that way, and one beyond the margin (on the rim
/// around a curved contact) settled onto the contact beside it (see [`settle`]).
fn extremes<const D: usize>(
    [fa, fb]: [&dyn Field<D>; 2],
    problem: &Problem<'_, D>,
    cells: &[Cell<D>],
    n: &Vector<D>,
    s: &Settings,
    cap: usize,
    budget: &mut Budget,
) -> Vec<Candidate<D>>
where
    Space<D>: Dim<D>,
{
    let mut params = Params::new(Order::BestBound, s.leaf_radius, s.tol);
    params.cap = EXTREME_CAP_FACTOR * cap;
    let mut out = Vec::new();
    for (k, u) in tangent_directions(n).into_iter().enumerate() {
        let key = k as u32 + 1;
        let ext = Extreme {
            dir: u,
            lambda: EXTREME_LAMBDA,
            fields: 2,
        };
        let Some(e) = minimise(problem, &ext, &params, cells, budget) else {
            continue;
        };
        let mut c = project(fa, fb, &e.point, e.values, n, key);
        if c.depth > s.margin {
            let (q, _) = settle(fa, fb, e.point, Some(n), probe(s), s.coarse_radius, flat(s));
            c = project(fa, fb, &q, [fa.value(&q), fb.value(&q)], n, key);
        }
        out.push(c);
    }
    out
}

/// The closest points of A and B near the midpoint `p` of their closest segment: each point
/// walked onto its surface (see [`crate::normal::onto_surface`]), then alternately the point
/// of one nearest the other's, while that brings them closer.
fn polish<const D: usize>(
    fa: &dyn Field<D>,
    fb: &dyn Field<D>,
    p: &Vector<D>,
) -> (Vector<D>, Vector<D>)
where
    Space<D>: Dim<D>,
{
    let mut pa = nearest_on_surface(fa, p);
    let mut pb = nearest_on_surface(fb, p);
    for _ in 0..POLISH_STEPS {
        let qa = nearest_on_surface(fa, &pb);
        let qb = nearest_on_surface(fb, &qa);
        if (qb - qa).norm() >= (pb - pa).norm() {
            break;
        }
        (pa, pb) = (qa, qb);
    }
    (pa, pb)
}

/// [`polish`] from `p` and from the centre of each of `rest` (the cells a capped search left,
/// most promising first), keeping the closest pair whose points are both within `on` of their
/// surfaces, and true; the pair from `p` and false when none is.
fn closest_of<const D: usize>(
    fa: &dyn Field<D>,
    fb: &dyn Field<D>,
    p: &Vector<D>,
    rest: &[Cell<D>],
    on: Real,
) -> ((Vector<D>, Vector<D>), bool)
where
    Space<D>: Dim<D>,
{
    let first = polish(fa, fb, p);
    let on_surfaces =
        |(a, b): &(Vector<D>, Vector<D>)| fa.value(a).abs().max(fb.value(b).abs()) <= on;
    let gap = |(a, b): &(Vector<D>, Vector<D>)| (b - a).norm();
    rest.iter()
        .map(|c| polish(fa, fb, &c.centre()))
        .chain(std::iter::once(first))
        .filter(on_surfaces)
        .min_by(|x, y| gap(x).total_cmp(&gap(y)))
        .map_or((first, false), |pair| (pair, true))
}

/// The step of the finite differences that [`settle`] and the line search take.
fn probe(s: &Settings) -> Real {
    0.25 * s.leaf_radius
}

/// Curvatures of the sum below this are flat: a radius a thousand times the smaller shape is
/// round-off, not a curved surface.
fn flat(s: &Settings) -> Real {
    1e-3 / s.size
}

/// Two general fields, searched in A's frame.
pub(crate) struct SdfSdf<'a, const D: usize>
where
    Space<D>: Dim<D>,
{
    pub a: &'a dyn Sdf<D>,
    pub pose_a: Pose<D>,
    pub b: &'a dyn Sdf<D>,
    pub pose_b: Pose<D>,
}

impl<'a, const D: usize> SdfSdf<'a, D>
where
    Space<D>: Dim<D>,
{
    /// Both fields in A's frame.
    fn fields<'c>(&self, counter: &'c Counter) -> (PosedSdf<'c, D>, PosedSdf<'c, D>)
    where
        'a: 'c,
    {
        let to_b = self.pose_b.inverse() * self.pose_a;
        (
            PosedSdf::new(self.a, Pose::<D>::identity(), counter),
            PosedSdf::new(self.b, to_b, counter),
        )
    }

    /// Evaluates the root cell of `problem` (taking it from the budget).
    fn root(
        problem: &Problem<'_, D>,
        bounds: Option<Aabb<D>>,
        budget: &mut Budget,
    ) -> Option<Cell<D>> {
        let bounds = bounds?;
        if !budget.take() {
            return None;
        }
        problem.evaluate(bounds, 0)
    }
}

impl<const D: usize> SdfSdf<'_, D>
where
    Space<D>: Dim<D>,
{
    /// A point inside both shapes or where they touch, search frame ([`touch_point`]; strictly
    /// inside both when `strict`).
    fn common_point(&self, ctx: &mut Ctx, strict: bool) -> Option<Vector<D>> {
        let (fa, fb) = self.fields(&ctx.counter);
        // Loosened for a touch: a pair touching face to face meets on a plane of both boxes,
        // which rounding can leave on either side.
        let leaf = ctx.settings.touch_leaf();
        let grow = if strict { 0.0 } else { leaf };
        let root = fa
            .bounds()
            .loosened(grow)
            .intersection(&fb.bounds().loosened(grow))?;
        let fields = vec![&fa as &dyn Field<D>, &fb];
        touch_point(fields, root, leaf, strict, &mut ctx.budget)
    }

    /// The overlap's deepest point found by a capped greedy dive on `dA + dB`.
    fn deepest(&self, ctx: &mut Ctx) -> Option<Found<D>> {
        let (fa, fb) = self.fields(&ctx.counter);
        let s = ctx.settings;
        let problem = Problem::new(vec![&fa as &dyn Field<D>, &fb], 0.0);
        let mut params = Params::new(Order::Greedy, s.leaf_radius, s.tol);
        params.cap = ctx.descent_cap(D);
        let budget = &mut ctx.budget;
        let root = Self::root(&problem, fa.bounds().intersection(&fb.bounds()), budget)?;
        minimise(&problem, &Sum, &params, &[root], budget)
    }

    /// The penetration of a pair that touches at `p` (both surfaces within a leaf's reach) and
    /// has no point inside both: depth zero, the normal from the fields there.
    fn touching(
        &self,
        fa: &dyn Field<D>,
        fb: &dyn Field<D>,
        p: &Vector<D>,
        s: &Settings,
    ) -> Deepest<D> {
        let (n, p) = normal_at(fa, fb, *p, 2.0 * s.leaf_radius);
        Deepest {
            depth: 0.0,
            normal: self.pose_a.transform_vector(&n),
            point_a: world_point(&self.pose_a, &nearest_on_surface(fa, &p)),
            point_b: world_point(&self.pose_a, &nearest_on_surface(fb, &p)),
        }
    }
}

impl<const D: usize> PairQuery<D> for SdfSdf<'_, D>
where
    Space<D>: Dim<D>,
{
    fn intersects(&self, ctx: &mut Ctx) -> bool {
        self.common_point(ctx, false).is_some()
    }

    fn penetration(&self, ctx: &mut Ctx) -> Option<Deepest<D>> {
        let common = self.common_point(ctx, false)?;
        let s = ctx.settings;
        let best = match self.deepest(ctx) {
            Some(best) => best,
            None => {
                // No deep point within the cap. A pair that only touches (within a leaf's reach)
                // has depth zero; a real overlap is searched level by level, whose first point
                // is well inside it, where the separating axis below must start (the dive's
                // first point can lie at the overlap's rim).
                let inside = {
                    let (fa, fb) = self.fields(&ctx.counter);
                    fa.value(&common).max(fb.value(&common)) <= 0.0
                };
                let inside = inside.then(|| self.common_point(ctx, true)).flatten();
                let (fa, fb) = self.fields(&ctx.counter);
                let Some(inside) = inside else {
                    return Some(self.touching(&fa, &fb, &common, &s));
                };
                let values = [fa.value(&inside), fb.value(&inside)];
                Found {
                    point: inside,
                    value: values[0] + values[1],
                    values,
                }
            }
        };
        let (fa, fb) = self.fields(&ctx.counter);
        let (n, p) = normal_at(&fa, &fb, best.point, 2.0 * s.leaf_radius);
        // The supports are searched near the overlap: a little beyond the depth so far, and at
        // least a fraction of the shapes' size (edges and corners within it are found).
        let reach = 2.0 * (-best.value).max(0.0) + (0.25 * s.size).max(4.0 * s.leaf_radius);
        let (n, depth, pa, pb) = separating_axis(&fa, &fb, &p, &n, 2.0 * s.leaf_radius, reach);
        Some(Deepest {
            depth: depth.max(0.0),
            normal: self.pose_a.transform_vector(&n),
            point_a: world_point(&self.pose_a, &pa),
            point_b: world_point(&self.pose_a, &pb),
        })
    }

    fn distance(&self, ctx: &mut Ctx) -> (Real, Vector<D>, Vector<D>) {
        // The overlap test may spend half of what is left: a touching pair can take all of it
        // to rule out an overlap (the whole interface refined), and the distance search would
        // then have no cell to start from.
        let full = ctx.budget.max_cells;
        ctx.budget.max_cells = ctx.budget.cells + (full - ctx.budget.cells) / 2;
        let common = self.common_point(ctx, false);
        ctx.budget.max_cells = full;
        if let Some(p) = common {
            let w = world_point(&self.pose_a, &p);
            return (0.0, w, w);
        }
        let (fa, fb) = self.fields(&ctx.counter);
        let s = ctx.settings;
        let problem = Problem::new(vec![&fa as &dyn Field<D>, &fb], Real::INFINITY);
        let mut params = Params::new(Order::BestBound, s.leaf_radius, s.tol);
        params.cap = DISTANCE_CAP_FACTOR * ctx.descent_cap(D);
        let budget = &mut ctx.budget;
        let root = Self::root(&problem, Some(fa.bounds().merge(&fb.bounds())), budget);
        let Some(root) = root else {
            return (Real::INFINITY, Vector::<D>::zeros(), Vector::<D>::zeros());
        };
        let (best, rest) = minimise_keeping(&problem, &MaxOf, &params, &[root], budget, RESTARTS);
        let Some(best) = best else {
            return (Real::INFINITY, Vector::<D>::zeros(), Vector::<D>::zeros());
        };
        let p = best.point;
        // No finite value even at the best point: a field with no solid to measure from.
        if !best.values.iter().all(|v| v.is_finite()) {
            return (Real::INFINITY, Vector::<D>::zeros(), Vector::<D>::zeros());
        }
        if best.values[0].max(best.values[1]) <= 0.0 {
            let w = world_point(&self.pose_a, &p);
            return (0.0, w, w);
        }
        let ((pa, pb), on_surfaces) = closest_of(&fa, &fb, &p, &rest, s.leaf_radius);
        // Witnesses on both surfaces measure the distance themselves. Otherwise (a field that
        // only bounds the distance far from its surface, as a baked grid does outside its box,
        // walked them short) the fields' sum at the midpoint, which exact fields never put
        // below the distance. A sample just inside one shape and just outside the other can
        // sum below zero (an empty CSG solid gave -0.001 m, found by the proptest); a distance
        // is never negative.
        let d = if on_surfaces {
            (pb - pa).norm()
        } else {
            (pb - pa).norm().min(best.values[0] + best.values[1])
        }
        .max(0.0);
        (
            d,
            world_point(&self.pose_a, &pa),
            world_point(&self.pose_a, &pb),
        )
    }

    fn contacts(&self, ctx: &mut Ctx, out: &mut Vec<Manifold<D>>) {
        let (fa, fb) = self.fields(&ctx.counter);
        let s = ctx.settings;
        let problem = Problem::new(vec![&fa as &dyn Field<D>, &fb], s.margin);
        let Some(root) = fa
            .bounds()
            .loosened(s.margin)
            .intersection(&fb.bounds().loosened(s.margin))
        else {
            return;
        };
        let cap = ctx.descent_cap(D);
        let budget = &mut ctx.budget;
        let cells = cover(&problem, root, s.coarse_radius, budget);
        for (region, cells) in components(&cells).into_iter().enumerate() {
            let mut deep = Params::new(Order::Greedy, s.leaf_radius, s.tol);
            deep.cap = cap;
            let Some(best) = minimise(&problem, &Sum, &deep, &cells, budget) else {
                continue;
            };
            let (probe, flat) = (probe(&s), flat(&s));
            let (deepest, deepest_sum) =
                settle(&fa, &fb, best.point, None, probe, s.coarse_radius, flat);
            let (n, p) = normal_at(&fa, &fb, deepest, 2.0 * s.leaf_radius);
            // The separating axis with the least overlap near the deep point: exact for faces
            // resting on faces, where a blend of gradients could lean on a nearby edge.
            let reach = 2.0 * (-deepest_sum).max(0.0) + (0.25 * s.size).max(4.0 * s.leaf_radius);
            let n = match facing_normal(&fa, &fb, &p) {
                Some(n) => n,
                None => separating_axis(&fa, &fb, &p, &n, 2.0 * s.leaf_radius, reach).0,
            };
            let mut cands: Vec<Candidate<D>> = Vec::new();
            let reach = 4.0 * s.margin + 4.0 * s.leaf_radius - deepest_sum.min(0.0);
            if let Some((pa, pb, sep)) = along_normal(&fa, &fb, &p, &n, reach, 1e-3 * s.leaf_radius)
            {
                cands.push(Candidate {
                    point_a: pa,
                    point_b: pb,
                    depth: sep,
                    key: 0,
                });
            }
            let mid = midway(&fa, &fb, &p, &n);
            if let Some(l) = line_direction(&fa, &fb, &mid, &n, probe, flat) {
                for (k, dir) in [l, -l].into_iter().enumerate() {
                    let q = line_end(&fa, &fb, &mid, &dir, probe, 2.0 * s.size, s.margin);
                    let values = [fa.value(&q), fb.value(&q)];
                    cands.push(project(&fa, &fb, &q, values, &n, k as u32 + 1));
                }
            } else {
                cands.extend(extremes([&fa, &fb], &problem, &cells, &n, &s, cap, budget));
            }
            let kept = reduce(
                &cands,
                &n,
                s.margin,
                2.0 * s.leaf_radius,
                s.leaf_radius,
                Some(0),
            );
            if !kept.is_empty() {
                out.push(to_world(
                    &kept,
                    &n,
                    region as u32 * IDS_PER_REGION,
                    &self.pose_a,
                ));
            }
        }
    }
}
