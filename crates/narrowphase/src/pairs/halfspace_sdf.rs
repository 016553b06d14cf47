//! A half-space against any field: the field's lowest points along the plane's normal.
//!
//! The plane is linear, so it needs no second field: it enters the search as an exact,
//! uncounted constraint with exact bounds over a box, and the normal of every contact is the
//! plane's. The deepest point is the shape's lowest point (a bounded search along `-n`, tilted
//! by a small generic tangent so a flat bottom has one lowest corner), and each region's
//! manifold adds the extremes along the tangent directions: a box resting on the ground gets its
//! four corners (two in 2D), a non-convex shape one manifold per foot.

use fathom_math::{Dim, Pose, Real, Space, Vector};
use fathom_sdf::Sdf;

use super::sdf_sdf::EXTREME_CAP_FACTOR;
use super::{world_point, Closest, Ctx, PairQuery};
use crate::field::{Field, PlaneField, PosedSdf};
use crate::manifold::{reduce, tangent_directions, to_world, Candidate, IDS_PER_REGION};
use crate::objectives::{Extreme, MaxOf};
use crate::options::Settings;
use crate::regions::components;
use crate::search::{cover, minimise, Budget, Cell, Order, Params, Problem};
use crate::types::{Deepest, Manifold};

/// How far the lowest-point direction leans along a tangent (breaks a flat bottom's ties).
const LOWEST_TILT: Real = 0.01;
/// How far the tangent extremes lean down the normal: their points lie at the shape's
/// surface (the bottom of the inflated region) rather than anywhere in the margin's thickness.
const LEAN: Real = 0.3;

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

    /// The direction of "lowest": against the normal, leaning a little along a tangent.
    fn down(n: &Vector<D>) -> Vector<D> {
        let [t, _] = Space::<D>::tangents(n);
        (-n + t * LOWEST_TILT).normalize()
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
        let problem = Problem::new(vec![&f as &dyn Field<D>, &plane], 0.0);
        let mut params = Params::new(Order::BreadthFirst, ctx.settings.leaf_radius, 0.0);
        params.stop_at = Some(0.0);
        params.cutoff = 0.0;
        if !ctx.budget.take() {
            return false;
        }
        let Some(root) = problem.evaluate(f.bounds(), 0) else {
            return false;
        };
        minimise(&problem, &MaxOf, &params, &[root], &mut ctx.budget).is_some()
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

    fn contacts(&self, ctx: &mut Ctx) -> Vec<Manifold<D>> {
        let f = PosedSdf::new(self.sdf, Pose::<D>::identity(), &ctx.counter);
        let plane = self.plane();
        let s = ctx.settings;
        let cap = ctx.descent_cap(D);
        let problem = Problem::new(vec![&f as &dyn Field<D>, &plane], s.margin);
        let root = f.bounds().loosened(s.margin);
        let cells = cover(&problem, root, s.coarse_radius, &mut ctx.budget);
        let n = plane.normal;
        let mut out = Vec::new();
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
        out
    }
}

/// The candidates of one region (field frame): the lowest point (key 0, a capped greedy
/// search: a flat bottom has no single lowest point, and any of it is as deep) and the extremes
/// along the tangent directions leaning down the normal (keys 1..): they span the region, and
/// the lowest corner of a tilted flat bottom is always one of them (one of the four directions,
/// 90 degrees apart, lies in the corner's normal cone, where that corner beats its neighbours).
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
    let low = Extreme {
        dir: HalfSpaceSdf::<D>::down(&n),
        lambda: 0.0,
        fields: 2,
    };
    let mut greedy = Params::new(Order::Greedy, s.leaf_radius, s.tol);
    greedy.cap = cap;
    // The greedy dive can spend its cap under a hole (a torus lying flat: the cells below its
    // centre look lowest and hold nothing); then the certified order finds the lowest point.
    let mut certified = Params::new(Order::BestBound, s.leaf_radius, s.tol);
    certified.cap = 4 * EXTREME_CAP_FACTOR * cap;
    let lowest = minimise(problem, &low, &greedy, cells, budget)
        .or_else(|| minimise(problem, &low, &certified, cells, budget));
    if let Some(e) = lowest {
        cands.push(HalfSpaceSdf::<D>::candidate(
            f,
            plane,
            &e.point,
            e.values[0],
            0,
        ));
    }
    let mut params = Params::new(Order::BestBound, s.leaf_radius, s.tol);
    params.cap = EXTREME_CAP_FACTOR * cap;
    for (k, u) in tangent_directions(&n).into_iter().enumerate() {
        let ext = Extreme {
            dir: (u - n * LEAN).normalize(),
            lambda: 0.0,
            fields: 2,
        };
        if let Some(e) = minimise(problem, &ext, &params, cells, budget) {
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

/// The shape's lowest point along the plane normal, world frame: the deepest of
/// [`lowest_points`] over the whole shape (`None` if the search found no point inside it).
fn closest<const D: usize>(pair: &HalfSpaceSdf<'_, D>, ctx: &mut Ctx) -> Option<Closest<D>>
where
    Space<D>: Dim<D>,
{
    let f = PosedSdf::new(pair.sdf, Pose::<D>::identity(), &ctx.counter);
    let plane = pair.plane();
    let s = ctx.settings;
    let cap = ctx.descent_cap(D);
    let mut problem = Problem::new(vec![&f as &dyn Field<D>, &plane], 0.0);
    problem.limits[1] = Real::INFINITY;
    if !ctx.budget.take() {
        return None;
    }
    let root = problem.evaluate(f.bounds(), 0)?;
    let cands = lowest_points(&problem, &f, &plane, &[root], &s, cap, &mut ctx.budget);
    let c = cands.iter().min_by(|x, y| x.depth.total_cmp(&y.depth))?;
    Some(Closest {
        separation: c.depth,
        normal: pair.pose_sdf.transform_vector(&plane.normal),
        point_a: world_point(&pair.pose_sdf, &c.point_a),
        point_b: world_point(&pair.pose_sdf, &c.point_b),
    })
}
