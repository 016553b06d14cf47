//! A half-space against any field: the field's lowest points along the plane's normal.
//!
//! The plane is linear, so it needs no second field: it enters the search as an exact,
//! uncounted constraint with exact bounds over a box, and the normal of every contact is the
//! plane's. Every point is the minimiser of `-(a u) · p + f(p) + plane(p)` over a region: the
//! field-informed measure `f + plane` of how high the surface near `p` is, against the reach
//! along a tangent `u` (see [`reach_objective`]). With a tiny `a` that is the deepest point; with
//! `a = 0.1` along four tangent directions (two in 2D) the extremes that span the region: a flat
//! bottom's corners, a curved bottom's points beside its lowest ones (a torus lying flat rests on
//! four points of its bottom ring), a non-convex shape one manifold per foot.

use fathom_math::{Dim, Pose, Real, Space, Vector};
use fathom_sdf::Sdf;

use super::sdf_sdf::EXTREME_CAP_FACTOR;
use super::{world_point, Closest, Ctx, PairQuery};
use crate::field::{Field, PlaneField, PosedSdf};
use crate::manifold::{reduce, tangent_directions, to_world, Candidate, IDS_PER_REGION};
use crate::objectives::{Extreme, Objective};
use crate::options::Settings;
use crate::regions::components;
use crate::search::{cover, minimise, touch_point, Budget, Cell, Found, Order, Params, Problem};
use crate::types::{Deepest, Manifold};

/// The reach weight of the lowest point's objective: tiny, it only breaks a flat bottom's ties.
const LOWEST_TILT: Real = 0.01;
/// Weight of the reach along a tangent against height in the extremes' objective (see
/// [`reach_objective`]): small, so that a curved bottom's extremes lie close to its lowest
/// points (`R a^2 / 2` above them: 1.25 mm for a tube of radius 0.25).
const REACH: Real = 0.1;
/// Weight of `f + plane` in the slab polish of an extreme (ties of the slab's rim go to the
/// surface).
const SLAB_LAMBDA: Real = 0.25;

/// A half-space `normal · x <= offset` (A, its local frame at `pose_plane`) against a field (B).
pub(crate) struct HalfSpaceSdf<'a, const D: usize>
where
    Space<D>: Dim<D>,
{
    pub normal: Vector<D>,
    pub offset: Real,
    pub pose_plane: Pose<D>,
    pub sdf: &'a dyn Sdf<D>,
    pub pose_sdf: Pose<D>,
}

impl<const D: usize> HalfSpaceSdf<'_, D>
where
    Space<D>: Dim<D>,
{
    /// The plane in the field's frame.
    fn plane(&self) -> PlaneField<D> {
        let rel = self.pose_plane.inverse() * self.pose_sdf;
        let normal = rel.inverse_transform_vector(&self.normal);
        let offset = self.offset - self.normal.dot(&rel.translation.vector);
        PlaneField { normal, offset }
    }

    /// A point `q` of the shape's region as a contact: projected onto the shape by its gradient,
    /// then onto the plane along the normal.
    fn candidate(
        f: &PosedSdf<'_, D>,
        plane: &PlaneField<D>,
        q: &Vector<D>,
        d: Real,
        key: u32,
    ) -> Candidate<D> {
        let point_b = q - f.gradient(q) * d;
        let depth = plane.value(&point_b);
        Candidate {
            point_a: point_b - plane.normal * depth,
            point_b,
            depth,
            key,
        }
    }
}

impl<const D: usize> PairQuery<D> for HalfSpaceSdf<'_, D>
where
    Space<D>: Dim<D>,
{
    fn intersects(&self, ctx: &mut Ctx) -> bool {
        let f = PosedSdf::new(self.sdf, Pose::<D>::identity(), &ctx.counter);
        let plane = self.plane();
        // Strictly inside both: penetration reads the same closest point, and a touch has no
        // depth there (see `Closest::penetration`).
        let (fields, leaf) = (vec![&f as &dyn Field<D>, &plane], ctx.settings.leaf_radius);
        touch_point(fields, f.bounds(), leaf, true, &mut ctx.budget).is_some()
    }

    fn penetration(&self, ctx: &mut Ctx) -> Option<Deepest<D>> {
        closest(self, ctx).and_then(|c| c.penetration())
    }

    fn distance(&self, ctx: &mut Ctx) -> (Real, Vector<D>, Vector<D>) {
        match closest(self, ctx) {
            Some(c) => c.distance(),
            None => (Real::INFINITY, Vector::<D>::zeros(), Vector::<D>::zeros()),
        }
    }

    fn contacts(&self, ctx: &mut Ctx, out: &mut Vec<Manifold<D>>) {
        let f = PosedSdf::new(self.sdf, Pose::<D>::identity(), &ctx.counter);
        let plane = self.plane();
        let s = ctx.settings;
        let cap = ctx.descent_cap(D);
        let problem = Problem::new(vec![&f as &dyn Field<D>, &plane], s.margin);
        let root = f.bounds().loosened(s.margin);
        let cells = cover(&problem, root, s.coarse_radius, &mut ctx.budget);
        let n = plane.normal;
        for (region, cells) in components(&cells).into_iter().enumerate() {
            let cands = lowest_points(&problem, &f, &plane, &cells, &s, cap, &mut ctx.budget);
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
                    &self.pose_sdf,
                ));
            }
        }
    }
}

/// The candidates of one region (field frame): the lowest point (key 0) and the extremes
/// along the tangent directions (keys 1..), each the minimiser of an [`Extreme`] objective
/// `-(a u) · p + f(p) + plane(p)` over the region (see [`reach_objective`]).
fn lowest_points<const D: usize>(
    problem: &Problem<'_, D>,
    f: &PosedSdf<'_, D>,
    plane: &PlaneField<D>,
    cells: &[Cell<D>],
    s: &Settings,
    cap: usize,
    budget: &mut Budget,
) -> Vec<Candidate<D>>
where
    Space<D>: Dim<D>,
{
    let n = plane.normal;
    let mut cands = Vec::new();
    if let Some(e) = lowest(problem, &n, cells, s, cap, budget) {
        cands.push(HalfSpaceSdf::<D>::candidate(
            f,
            plane,
            &e.point,
            e.values[0],
            0,
        ));
    }
    for (k, u) in tangent_directions(&n).into_iter().enumerate() {
        if let Some(e) = extreme(problem, plane, &u, cells, s, cap, budget) {
            cands.push(HalfSpaceSdf::<D>::candidate(
                f,
                plane,
                &e.point,
                e.values[0],
                k as u32 + 1,
            ));
        }
    }
    cands
}

/// The objective whose minimiser is a region's extreme along the tangent `u` at the shape's
/// surface: `-(a u) · p + f(p) + plane(p)`. For an exact field `f + plane` is at least the
/// plane's value at the shape's lowest point, with equality on the vertical line through it, so
/// `f + plane` measures how high the surface near `p` is and `a` trades height for reach: a
/// flat bottom's minimiser is its corner farthest along `u` (for `a < 1`), a curved bottom's is
/// where the surface normal leans `atan(a)` from the plane's, `R a^2 / 2` above its lowest point
/// for a radius of curvature `R`. (Leaning the plain direction `u - c n` instead, as this pair
/// once did, puts a curved bottom's extreme at the top of the margin band: a torus lying flat got
/// points on its flanks, above the plane, and rocked on its one deepest point.)
fn reach_objective<const D: usize>(u: &Vector<D>, a: Real) -> Extreme<D> {
    Extreme {
        dir: u * a,
        lambda: 1.0,
        fields: 2,
    }
}

/// A greedy (capped) search: a flat bottom's objective is flat, and enumerating it to certify
/// the minimiser would cost its area in cells, while any point of it is as good.
fn greedy_params(s: &Settings, cap: usize) -> Params {
    let mut params = Params::new(Order::Greedy, s.leaf_radius, s.tol);
    params.cap = cap;
    params
}

/// The region's lowest point: the reach objective along a tangent with a tiny weight (a flat
/// bottom's ties go to one edge, so the point does not wander from step to step).
fn lowest<const D: usize>(
    problem: &Problem<'_, D>,
    n: &Vector<D>,
    cells: &[Cell<D>],
    s: &Settings,
    cap: usize,
    budget: &mut Budget,
) -> Option<Found<D>>
where
    Space<D>: Dim<D>,
{
    let [t, _] = Space::<D>::tangents(n);
    let obj = reach_objective(&t, LOWEST_TILT);
    minimise(
        problem,
        &obj,
        &greedy_params(s, EXTREME_CAP_FACTOR * cap),
        cells,
        budget,
    )
}

/// The region's extreme along the tangent `u`: the greedy minimiser of the reach objective,
/// polished by a certified search for the point farthest along `u` in the thin slab of the region
/// no higher than it (on a flat bottom that is the corner the greedy search may stop short of),
/// keeping whichever is better by the reach objective.
fn extreme<const D: usize>(
    problem: &Problem<'_, D>,
    plane: &PlaneField<D>,
    u: &Vector<D>,
    cells: &[Cell<D>],
    s: &Settings,
    cap: usize,
    budget: &mut Budget,
) -> Option<Found<D>>
where
    Space<D>: Dim<D>,
{
    let obj = reach_objective(u, REACH);
    let first = minimise(problem, &obj, &greedy_params(s, cap), cells, budget)?;
    let slab = Problem {
        fields: problem.fields.clone(),
        limits: [
            problem.limits[0],
            problem.limits[1].min(plane.value(&first.point) + s.tol),
        ],
    };
    let far = Extreme {
        dir: *u,
        lambda: SLAB_LAMBDA,
        fields: 2,
    };
    let mut params = Params::new(Order::BestBound, s.leaf_radius, s.tol);
    params.cap = EXTREME_CAP_FACTOR * cap;
    let better = |e: &Found<D>| obj.value(&e.point, &e.values);
    match minimise(&slab, &far, &params, cells, budget) {
        Some(e) if better(&e) < better(&first) => Some(e),
        _ => Some(first),
    }
}

/// The shape's lowest point along the plane normal, world frame (`None` if no search found a
/// point inside the shape).
///
/// The lowest point lies in the slab of the shape's bounds within `w` of their lowest level for
/// some `w`: starting from the coarse cell size and doubling, the slab is covered with coarse
/// cells (as [`PairQuery::contacts`] covers its region) and [`lowest`] searches those. A greedy
/// search from the whole shape instead can dive into the wrong part of a curved or tilted shape
/// (a torus's far side) and spend its cap there.
fn closest<const D: usize>(pair: &HalfSpaceSdf<'_, D>, ctx: &mut Ctx) -> Option<Closest<D>>
where
    Space<D>: Dim<D>,
{
    let f = PosedSdf::new(pair.sdf, Pose::<D>::identity(), &ctx.counter);
    let plane = pair.plane();
    let s = ctx.settings;
    let cap = ctx.descent_cap(D);
    let bounds = f.bounds();
    let centre = plane.value(&bounds.center());
    let (base, top) = (plane.lower(centre, &bounds), plane.upper(centre, &bounds));
    let mut problem = Problem::new(vec![&f as &dyn Field<D>, &plane], 0.0);
    let mut w = s.coarse_radius;
    let e = loop {
        problem.limits[1] = base + w;
        let cells = cover(&problem, bounds, s.coarse_radius, &mut ctx.budget);
        if let Some(e) = lowest(&problem, &plane.normal, &cells, &s, cap, &mut ctx.budget) {
            break e;
        }
        if base + w >= top || ctx.budget.hit || !w.is_finite() {
            return None;
        }
        w *= 2.0;
    };
    let c = HalfSpaceSdf::<D>::candidate(&f, &plane, &e.point, e.values[0], 0);
    Some(Closest {
        separation: c.depth,
        normal: pair.pose_sdf.transform_vector(&plane.normal),
        point_a: world_point(&pair.pose_sdf, &c.point_a),
        point_b: world_point(&pair.pose_sdf, &c.point_b),
    })
}
