//! One module per pair of shape kinds. Each answers the four queries for its natural order
//! (the special shape first); [`Flipped`] answers the mirrored order by swapping the inputs and
//! negating normals and swapping points in the answers.

pub(crate) mod ball_sdf;
pub(crate) mod capsule_capsule;
pub(crate) mod capsule_cuboid;
pub(crate) mod capsule_sdf;
pub(crate) mod cuboid_cuboid;
pub(crate) mod halfspace_cuboid;
pub(crate) mod halfspace_sdf;
pub(crate) mod mesh_sdf;
pub(crate) mod sdf_sdf;
pub(crate) mod segment;

use fathom_math::{Pose, Real, Vector};

use crate::field::Counter;
use crate::options::Settings;
use crate::search::Budget;
use crate::types::{Deepest, Manifold, QueryStats};

/// The running state of one query: resolved options, evaluation counter, cell budget.
pub(crate) struct Ctx {
    pub settings: Settings,
    pub counter: Counter,
    pub budget: Budget,
}

impl Ctx {
    pub fn new(settings: Settings) -> Self {
        Self {
            settings,
            counter: Counter::default(),
            budget: Budget::new(settings.max_cells),
        }
    }

    pub fn stats(&self) -> QueryStats {
        QueryStats {
            evaluations: self.counter.get(),
            cells: self.budget.cells,
            hit_budget: self.budget.hit,
        }
    }

    /// How many cells a greedy descent may split before it settles for its best point: a few per
    /// level between the coarse cells and the leaves (so it grows with the log of the precision).
    pub fn descent_cap(&self, dims: usize) -> usize {
        let s = &self.settings;
        let levels = dims as Real
            * (s.coarse_radius.max(s.size) / s.leaf_radius)
                .max(1.0)
                .log2();
        16 + 4 * levels.ceil() as usize
    }
}

/// The closest features of two shapes, world frame: signed separation along the unit normal
/// from A to B (negative when overlapping) and a point on each surface.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Closest<const D: usize> {
    pub separation: Real,
    pub normal: Vector<D>,
    pub point_a: Vector<D>,
    pub point_b: Vector<D>,
}

impl<const D: usize> Closest<D> {
    /// The deepest point when the shapes touch or overlap: `separation <= 0`, the same
    /// test as `intersects`, so that touching shapes (an empty CSG solid's surface against
    /// a ball, found by the fuzzer) give a depth of zero rather than "no overlap".
    pub fn penetration(&self) -> Option<Deepest<D>> {
        (self.separation <= 0.0).then_some(Deepest {
            depth: -self.separation,
            normal: self.normal,
            point_a: self.point_a,
            point_b: self.point_b,
        })
    }

    pub fn distance(&self) -> (Real, Vector<D>, Vector<D>) {
        if self.separation <= 0.0 {
            let mid = (self.point_a + self.point_b) * 0.5;
            (0.0, mid, mid)
        } else {
            (self.separation, self.point_a, self.point_b)
        }
    }
}

/// The four queries of one pair, in its natural order.
pub(crate) trait PairQuery<const D: usize> {
    fn intersects(&self, ctx: &mut Ctx) -> bool;
    fn penetration(&self, ctx: &mut Ctx) -> Option<Deepest<D>>;
    fn distance(&self, ctx: &mut Ctx) -> (Real, Vector<D>, Vector<D>);
    /// Appends the pair's manifolds to `out` (a buffer the caller reuses).
    fn contacts(&self, ctx: &mut Ctx, out: &mut Vec<Manifold<D>>);
}

/// A pair whose answers all follow from one closed-form computation of the closest features
/// (balls, capsules): `intersects`, `penetration` and `distance` read [`ClosedForm::closest`],
/// and `contacts` is [`ClosedForm::manifolds`]. Implementing this implements [`PairQuery`].
pub(crate) trait ClosedForm<const D: usize> {
    /// The closest features, world frame.
    fn closest(&self, ctx: &mut Ctx) -> Closest<D>;
    /// Appends the contact manifolds (points within the contact margin) to `out`.
    fn manifolds(&self, ctx: &mut Ctx, out: &mut Vec<Manifold<D>>);
}

impl<const D: usize, T: ClosedForm<D>> PairQuery<D> for T {
    fn intersects(&self, ctx: &mut Ctx) -> bool {
        self.closest(ctx).separation <= 0.0
    }
    fn penetration(&self, ctx: &mut Ctx) -> Option<Deepest<D>> {
        self.closest(ctx).penetration()
    }
    fn distance(&self, ctx: &mut Ctx) -> (Real, Vector<D>, Vector<D>) {
        self.closest(ctx).distance()
    }
    fn contacts(&self, ctx: &mut Ctx, out: &mut Vec<Manifold<D>>) {
        self.manifolds(ctx, out)
    }
}

/// A pair answered in the mirrored order: B's answers seen from A.
pub(crate) struct Flipped<P>(pub P);

impl<const D: usize, P: PairQuery<D>> PairQuery<D> for Flipped<P> {
    fn intersects(&self, ctx: &mut Ctx) -> bool {
        self.0.intersects(ctx)
    }
    fn penetration(&self, ctx: &mut Ctx) -> Option<Deepest<D>> {
        self.0.penetration(ctx).map(|d| Deepest {
            depth: d.depth,
            normal: -d.normal,
            point_a: d.point_b,
            point_b: d.point_a,
        })
    }
    fn distance(&self, ctx: &mut Ctx) -> (Real, Vector<D>, Vector<D>) {
        let (d, a, b) = self.0.distance(ctx);
        (d, b, a)
    }
    fn contacts(&self, ctx: &mut Ctx, out: &mut Vec<Manifold<D>>) {
        let first = out.len();
        self.0.contacts(ctx, out);
        for m in &mut out[first..] {
            m.normal = -m.normal;
            for p in &mut m.points {
                std::mem::swap(&mut p.point_a, &mut p.point_b);
            }
        }
    }
}

/// A point of the search frame `frame` in the world.
pub(crate) fn world_point<const D: usize>(frame: &Pose<D>, p: &Vector<D>) -> Vector<D>
where
    fathom_math::Space<D>: fathom_math::Dim<D>,
{
    frame.transform_point(&nalgebra::Point::from(*p)).coords
}
