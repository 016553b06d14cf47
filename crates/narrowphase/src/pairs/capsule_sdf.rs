//! A capsule against any field: a one-dimensional branch and bound along its core segment.
//!
//! A capsule is the set of points within `r` of a segment, so its separation from a field's
//! shape is `min_t d(s(t)) - r` over the segment `s(t)`: a one-field search over the segment
//! parameter with the field's Lipschitz constant (the parameter is arc length). Contact regions
//! are intervals of the parameter (a capsule across two rails touches twice); each gives its
//! deepest point and its two ends, and the normal is the field's gradient at the deepest point.

use fathom_math::{Aabb, Dim, Pose, Real, Space, Vector};
use fathom_sdf::Sdf;

use super::sdf_sdf::SdfSdf;
use super::{world_point, Closest, Ctx, PairQuery};
use crate::field::{Field, PosedSdf};
use crate::manifold::{reduce, to_world, Candidate, IDS_PER_REGION};
use crate::objectives::{Extreme, First};
use crate::regions::components;
use crate::search::{cover, minimise, touch_point, Order, Params, Problem};
use crate::types::{Deepest, Manifold};

/// A capsule (A) against a field (B); the search runs in B's frame.
pub(crate) struct CapsuleSdf<'a, const D: usize>
where
    Space<D>: Dim<D>,
{
    pub half_height: Real,
    pub radius: Real,
    pub pose_capsule: Pose<D>,
    pub sdf: &'a dyn Sdf<D>,
    pub pose_sdf: Pose<D>,
}

/// `t -> d(e0 + t axis) - r` over the segment's arc length.
struct SegmentField<'f, 'a, const D: usize>
where
    Space<D>: Dim<D>,
{
    field: &'f PosedSdf<'a, D>,
    e0: Vector<D>,
    axis: Vector<D>,
    radius: Real,
}

impl<const D: usize> SegmentField<'_, '_, D>
where
    Space<D>: Dim<D>,
{
    fn at(&self, t: Real) -> Vector<D> {
        self.e0 + self.axis * t
    }
}

impl<const D: usize> Field<1> for SegmentField<'_, '_, D>
where
    Space<D>: Dim<D>,
{
    fn value(&self, t: &Vector<1>) -> Real {
        self.field.value(&self.at(t[0])) - self.radius
    }
    fn gradient(&self, t: &Vector<1>) -> Vector<1> {
        let g = self.field.gradient(&self.at(t[0])).dot(&self.axis);
        Vector::<1>::new(if g < 0.0 { -1.0 } else { 1.0 })
    }
    fn lipschitz(&self) -> Real {
        self.field.lipschitz()
    }
}

impl<const D: usize> CapsuleSdf<'_, D>
where
    Space<D>: Dim<D>,
{
    /// The segment's ends in the field's frame, its unit axis and its length.
    fn segment(&self) -> (Vector<D>, Vector<D>, Real) {
        let rel = self.pose_sdf.inverse() * self.pose_capsule;
        let mut up = Vector::<D>::zeros();
        up[1] = self.half_height;
        let e0 = rel.transform_point(&nalgebra::Point::from(-up)).coords;
        let e1 = rel.transform_point(&nalgebra::Point::from(up)).coords;
        let len = (e1 - e0).norm();
        let axis = if len > 0.0 {
            (e1 - e0) / len
        } else {
            Vector::<D>::zeros()
        };
        (e0, axis, len)
    }

    fn root(len: Real) -> Aabb<1> {
        Aabb::new(Vector::<1>::new(0.0), Vector::<1>::new(len))
    }

    /// The feature of the capsule at segment point `s` against the field, world frame, along
    /// the normal `n` (field frame, from the capsule to the field's shape).
    fn candidate(
        &self,
        f: &PosedSdf<'_, D>,
        s: &Vector<D>,
        n: &Vector<D>,
        key: u32,
    ) -> Candidate<D> {
        let d = f.value(s);
        let g = f.gradient(s);
        let point_b = s - g * d;
        let point_a = s + n * self.radius;
        Candidate {
            point_a,
            point_b,
            depth: (point_b - point_a).dot(n),
            key,
        }
    }

    fn closest(&self, ctx: &mut Ctx) -> Closest<D> {
        let field = PosedSdf::new(self.sdf, Pose::<D>::identity(), &ctx.counter);
        let (e0, axis, len) = self.segment();
        let seg = SegmentField {
            field: &field,
            e0,
            axis,
            radius: self.radius,
        };
        let problem = Problem::new(vec![&seg as &dyn Field<1>], Real::INFINITY);
        let s = &ctx.settings;
        let mut params = Params::new(Order::Greedy, s.leaf_radius, s.tol);
        params.cap = ctx.descent_cap(1);
        let t = match ctx
            .budget
            .take()
            .then(|| problem.evaluate(Self::root(len), 0))
            .flatten()
        {
            Some(root) => minimise(&problem, &First, &params, &[root], &mut ctx.budget)
                .map_or(0.5 * len, |f| f.point[0]),
            None => 0.5 * len,
        };
        let p = seg.at(t);
        let d = field.value(&p);
        let g = field.gradient(&p);
        Closest {
            separation: d - self.radius,
            normal: self.pose_sdf.transform_vector(&-g),
            point_a: world_point(&self.pose_sdf, &(p - g * self.radius)),
            point_b: world_point(&self.pose_sdf, &(p - g * d)),
        }
    }
}

impl<const D: usize> PairQuery<D> for CapsuleSdf<'_, D>
where
    Space<D>: Dim<D>,
{
    fn intersects(&self, ctx: &mut Ctx) -> bool {
        let field = PosedSdf::new(self.sdf, Pose::<D>::identity(), &ctx.counter);
        let (e0, axis, len) = self.segment();
        let seg = SegmentField {
            field: &field,
            e0,
            axis,
            radius: self.radius,
        };
        // Strictly inside: penetration reads the segment's closest point, which a touch within
        // a leaf's reach need not reach.
        let (fields, leaf) = (vec![&seg as &dyn Field<1>], ctx.settings.leaf_radius);
        touch_point(fields, Self::root(len), leaf, true, &mut ctx.budget).is_some()
    }

    fn penetration(&self, ctx: &mut Ctx) -> Option<Deepest<D>> {
        let c = self.closest(ctx);
        if c.separation >= -self.radius {
            return c.penetration();
        }
        // The core segment itself is inside the other shape: the nearest way out is no longer
        // the field's gradient at one segment point, so search the pair as two general fields.
        let capsule = fathom_sdf::Capsule {
            half_height: self.half_height,
            radius: self.radius,
        };
        let general = SdfSdf {
            a: &capsule,
            pose_a: self.pose_capsule,
            b: self.sdf,
            pose_b: self.pose_sdf,
        };
        general.penetration(ctx)
    }

    fn distance(&self, ctx: &mut Ctx) -> (Real, Vector<D>, Vector<D>) {
        self.closest(ctx).distance()
    }

    fn contacts(&self, ctx: &mut Ctx, out: &mut Vec<Manifold<D>>) {
        let field = PosedSdf::new(self.sdf, Pose::<D>::identity(), &ctx.counter);
        let (e0, axis, len) = self.segment();
        let seg = SegmentField {
            field: &field,
            e0,
            axis,
            radius: self.radius,
        };
        let s = ctx.settings;
        let problem = Problem::new(vec![&seg as &dyn Field<1>], s.margin);
        let cells = cover(&problem, Self::root(len), s.coarse_radius, &mut ctx.budget);
        for (region, cells) in components(&cells).into_iter().enumerate() {
            let mut deep = Params::new(Order::Greedy, s.leaf_radius, s.tol);
            deep.cap = ctx.descent_cap(1);
            let Some(best) = minimise(&problem, &First, &deep, &cells, &mut ctx.budget) else {
                continue;
            };
            let p = seg.at(best.point[0]);
            let n = -field.gradient(&p);
            let mut cands = vec![self.candidate(&field, &p, &n, 0)];
            for (k, dir) in [-1.0, 1.0].into_iter().enumerate() {
                let ext = Extreme {
                    dir: Vector::<1>::new(dir),
                    lambda: 0.25,
                    fields: 1,
                };
                let params = Params::new(Order::BestBound, s.leaf_radius, s.tol);
                if let Some(e) = minimise(&problem, &ext, &params, &cells, &mut ctx.budget) {
                    cands.push(self.candidate(&field, &seg.at(e.point[0]), &n, k as u32 + 1));
                }
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
                let base = region as u32 * IDS_PER_REGION;
                out.push(to_world(&kept, &n, base, &self.pose_sdf));
            }
        }
    }
}
