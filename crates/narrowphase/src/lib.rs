//! Fathom's narrowphase: contact queries between signed distance fields by bound-split search.
//!
//! Two shapes collide where a point is inside both. A bound-split search looks for such
//! points by splitting boxes: a box of radius `r` around `c` can only hold a point of a field
//! with Lipschitz constant `L` below `m` if `d(c) - L r <= m`, so whole boxes are ruled out by
//! one evaluation. This crate builds everything on one such branch-and-bound engine
//! (`search.rs`) with several objectives:
//!
//! | query | objective | result |
//! |---|---|---|
//! | [`intersects`] | any point with `max(dA, dB) <= 0`, or touching (greedy, early out) | [`Intersection`] |
//! | [`penetration`] | the deepest point by `dA + dB`, then the normal and depth along it | [`Penetration`] |
//! | [`distance`] | the minimiser of `max(dA, dB)`: midpoint of the closest segment | [`Distance`] |
//! | [`contacts`] | regions of the inflated overlap, per region its extremes along tangents | [`Contacts`] |
//!
//! Closed forms replace the search where they are exact and cheaper, picked by a dispatch table
//! over [`fathom_sdf::ShapeKind`]: a ball against anything is one evaluation, a capsule is a 1D
//! search along its segment, a half-space is one field's lowest points, and a mesh's vertex
//! samples ([`MeshPoints`]) are walked in a tree. Searches run in one shape's local frame; every
//! answer is in the world frame, normals point from A to B, and every query reports
//! [`QueryStats`] (evaluations, cells, and whether the cell budget ran out).
//!
//! ```
//! use fathom_math::{Pose3, Vector3};
//! use fathom_narrowphase::{contacts, ContactOptions};
//! use fathom_sdf::{Cuboid, HalfSpace};
//!
//! let ground = HalfSpace::new(Vector3::y(), 0.0).unwrap();
//! let cube = Cuboid::new(Vector3::new(0.5, 0.5, 0.5)).unwrap();
//! let c = contacts(&ground, &Pose3::identity(), &cube, &Pose3::translation(0.0, 0.5, 0.0),
//!     &ContactOptions::default()).unwrap();
//! assert_eq!(c.manifolds.len(), 1);
//! assert_eq!(c.manifolds[0].points.len(), 4); // the cube's four bottom corners
//! ```
//!
//! # Where it fits
//!
//! - `fathom-sdf` gives the fields it searches; `fathom-math` the poses.
//! - `fathom-world` calls it for every broadphase pair each step and keeps the manifolds
//!   for warm starting; sensors use [`intersects`].
//! - `fathom-ccd` answers the questions about motion (casts, time of impact); this crate
//!   answers them at one instant.
#![warn(missing_docs)]

mod curved;
mod dispatch;
mod error;
mod field;
mod manifold;
mod mesh_points;
mod normal;
mod obb;
mod objectives;
mod options;
mod pairs;
mod regions;
mod search;
mod types;

pub use dispatch::{KindTag, ShapeRef};
pub use error::NarrowphaseError;
pub use mesh_points::MeshPoints;
pub use options::{ContactOptions, DEFAULT_MAX_CELLS, DEFAULT_MIN_CELL_FRACTION};
pub use types::{
    ContactPoint, Contacts, Deepest, Distance, Intersection, Manifold, Penetration, QueryStats,
};

use fathom_math::{Dim, Pose, Real, Space};
use fathom_sdf::{Sdf, ShapeKind};

use pairs::{Ctx, PairQuery};

/// True when the shapes overlap or touch (no margin). Two general fields touch at a point
/// within a quarter of the smallest cell ([`ContactOptions::min_cell`]; times the Lipschitz
/// constant of a field that only bounds its distance) of both surfaces: closed shapes that
/// touch intersect, as in parry, and the search need not refine the whole interface of a
/// touching pair to prove it apart (a greedy bound-split search, out on the first such point;
/// [`penetration`] reads such a touch as depth zero). The closed forms touch exactly, and a
/// field against a capsule or a half-space is searched breadth-first for a point inside both.
/// Overlaps thinner than the smallest cell may be missed.
pub fn intersects<const D: usize>(
    a: &dyn Sdf<D>,
    pose_a: &Pose<D>,
    b: &dyn Sdf<D>,
    pose_b: &Pose<D>,
    opts: &ContactOptions,
) -> Result<Intersection, NarrowphaseError>
where
    Space<D>: Dim<D>,
{
    intersects_with(ShapeRef::Sdf(a), pose_a, ShapeRef::Sdf(b), pose_b, opts)
}

/// The deepest point of the overlap of the shapes (no margin), or `None` in
/// [`Penetration::deepest`] when they do not overlap.
pub fn penetration<const D: usize>(
    a: &dyn Sdf<D>,
    pose_a: &Pose<D>,
    b: &dyn Sdf<D>,
    pose_b: &Pose<D>,
    opts: &ContactOptions,
) -> Result<Penetration<D>, NarrowphaseError>
where
    Space<D>: Dim<D>,
{
    penetration_with(ShapeRef::Sdf(a), pose_a, ShapeRef::Sdf(b), pose_b, opts)
}

/// The distance between the shapes with witness points (zero when they intersect).
/// [`NarrowphaseError::NoSolid`] when a shape has no solid to measure from.
pub fn distance<const D: usize>(
    a: &dyn Sdf<D>,
    pose_a: &Pose<D>,
    b: &dyn Sdf<D>,
    pose_b: &Pose<D>,
    opts: &ContactOptions,
) -> Result<Distance<D>, NarrowphaseError>
where
    Space<D>: Dim<D>,
{
    distance_with(ShapeRef::Sdf(a), pose_a, ShapeRef::Sdf(b), pose_b, opts)
}

/// Every contact region of the shapes inflated by the margin, one [`Manifold`] each.
pub fn contacts<const D: usize>(
    a: &dyn Sdf<D>,
    pose_a: &Pose<D>,
    b: &dyn Sdf<D>,
    pose_b: &Pose<D>,
    opts: &ContactOptions,
) -> Result<Contacts<D>, NarrowphaseError>
where
    Space<D>: Dim<D>,
{
    contacts_with(ShapeRef::Sdf(a), pose_a, ShapeRef::Sdf(b), pose_b, opts)
}

/// [`intersects`] for any [`ShapeRef`] (fields or mesh samples).
pub fn intersects_with<const D: usize>(
    a: ShapeRef<'_, D>,
    pose_a: &Pose<D>,
    b: ShapeRef<'_, D>,
    pose_b: &Pose<D>,
    opts: &ContactOptions,
) -> Result<Intersection, NarrowphaseError>
where
    Space<D>: Dim<D>,
{
    run(a, pose_a, b, pose_b, opts, |q, ctx| q.intersects(ctx)).map(|(intersecting, stats)| {
        Intersection {
            intersecting,
            stats,
        }
    })
}

/// [`penetration`] for any [`ShapeRef`].
pub fn penetration_with<const D: usize>(
    a: ShapeRef<'_, D>,
    pose_a: &Pose<D>,
    b: ShapeRef<'_, D>,
    pose_b: &Pose<D>,
    opts: &ContactOptions,
) -> Result<Penetration<D>, NarrowphaseError>
where
    Space<D>: Dim<D>,
{
    run(a, pose_a, b, pose_b, opts, |q, ctx| q.penetration(ctx))
        .map(|(deepest, stats)| Penetration { deepest, stats })
}

/// [`distance`] for any [`ShapeRef`].
pub fn distance_with<const D: usize>(
    a: ShapeRef<'_, D>,
    pose_a: &Pose<D>,
    b: ShapeRef<'_, D>,
    pose_b: &Pose<D>,
    opts: &ContactOptions,
) -> Result<Distance<D>, NarrowphaseError>
where
    Space<D>: Dim<D>,
{
    let ((distance, point_a, point_b), stats) =
        run(a, pose_a, b, pose_b, opts, |q, ctx| q.distance(ctx))?;
    if !distance.is_finite() {
        return Err(NarrowphaseError::NoSolid);
    }
    Ok(Distance {
        distance,
        point_a,
        point_b,
        stats,
    })
}

/// [`contacts`] for any [`ShapeRef`].
pub fn contacts_with<const D: usize>(
    a: ShapeRef<'_, D>,
    pose_a: &Pose<D>,
    b: ShapeRef<'_, D>,
    pose_b: &Pose<D>,
    opts: &ContactOptions,
) -> Result<Contacts<D>, NarrowphaseError>
where
    Space<D>: Dim<D>,
{
    let mut manifolds = Vec::new();
    contacts_into(a, pose_a, b, pose_b, opts, &mut manifolds)
        .map(|stats| Contacts { manifolds, stats })
}

/// [`contacts_with`] appending to `out`, a buffer the caller keeps across queries: a world
/// stepping thousands of pairs reuses one per pair, and the closed-form pairs (boxes,
/// capsules, balls, half-spaces) then allocate nothing. On error `out` is left as it was.
pub fn contacts_into<const D: usize>(
    a: ShapeRef<'_, D>,
    pose_a: &Pose<D>,
    b: ShapeRef<'_, D>,
    pose_b: &Pose<D>,
    opts: &ContactOptions,
    out: &mut Vec<Manifold<D>>,
) -> Result<QueryStats, NarrowphaseError>
where
    Space<D>: Dim<D>,
{
    run(a, pose_a, b, pose_b, opts, |q, ctx| q.contacts(ctx, out)).map(|((), stats)| stats)
}

/// [`contacts_into`] for a caller that validated the shapes, poses and options once, when
/// they were made: a world checks them at its API edge, so its thousands of pairs a step skip
/// the checks (debug builds still run them). Errors only for a pair of kinds with no query.
///
/// `sizes` are the shapes' [`query_size`]s, which such a caller computes once per shape.
pub fn contacts_trusted<const D: usize>(
    a: &dyn Sdf<D>,
    pose_a: &Pose<D>,
    b: &dyn Sdf<D>,
    pose_b: &Pose<D>,
    sizes: [Option<Real>; 2],
    opts: &ContactOptions,
    out: &mut Vec<Manifold<D>>,
) -> Result<QueryStats, NarrowphaseError>
where
    Space<D>: Dim<D>,
{
    let (a, b) = (ShapeRef::Sdf(a), ShapeRef::Sdf(b));
    debug_assert!(check(&a, pose_a, &b, pose_b, opts).is_ok());
    debug_assert_eq!(sizes, [a.size(), b.size()]);
    let size = pair_size(sizes[0], sizes[1]);
    run_trusted(a, pose_a, b, pose_b, opts, size, |q, ctx| {
        q.contacts(ctx, out)
    })
    .map(|((), stats)| stats)
}

/// Validates the inputs, then [`run_trusted`].
fn run<'a, const D: usize, T>(
    a: ShapeRef<'a, D>,
    pose_a: &Pose<D>,
    b: ShapeRef<'a, D>,
    pose_b: &Pose<D>,
    opts: &ContactOptions,
    f: impl FnOnce(&dyn PairQuery<D>, &mut Ctx) -> T,
) -> Result<(T, QueryStats), NarrowphaseError>
where
    Space<D>: Dim<D>,
{
    let size = check(&a, pose_a, &b, pose_b, opts)?;
    run_trusted(a, pose_a, b, pose_b, opts, size, f)
}

/// Every input check of a query; the pair's size on success.
fn check<const D: usize>(
    a: &ShapeRef<'_, D>,
    pose_a: &Pose<D>,
    b: &ShapeRef<'_, D>,
    pose_b: &Pose<D>,
    opts: &ContactOptions,
) -> Result<Real, NarrowphaseError>
where
    Space<D>: Dim<D>,
{
    check_pose("pose_a", pose_a)?;
    check_pose("pose_b", pose_b)?;
    opts.validate()?;
    Ok(pair_size(shape_size("a", a)?, shape_size("b", b)?))
}

/// The size a shape's contact queries resolve their options against (the smaller of a pair's
/// two): its bounding radius, `None` for a half-space, which has no size.
pub fn query_size<const D: usize>(shape: &dyn Sdf<D>) -> Option<Real>
where
    Space<D>: Dim<D>,
{
    ShapeRef::Sdf(shape).size()
}

/// The size the options resolve against: the smaller shape's bounding radius (1 m for two
/// shapes without size).
fn pair_size(a: Option<Real>, b: Option<Real>) -> Real {
    match (a, b) {
        (Some(x), Some(y)) => x.min(y),
        (Some(x), None) | (None, Some(x)) => x,
        (None, None) => 1.0,
    }
}

/// Resolves the options for a pair of `size`, dispatches, runs `f`, returns its answer and
/// stats.
fn run_trusted<'a, const D: usize, T>(
    a: ShapeRef<'a, D>,
    pose_a: &Pose<D>,
    b: ShapeRef<'a, D>,
    pose_b: &Pose<D>,
    opts: &ContactOptions,
    size: Real,
    f: impl FnOnce(&dyn PairQuery<D>, &mut Ctx) -> T,
) -> Result<(T, QueryStats), NarrowphaseError>
where
    Space<D>: Dim<D>,
{
    let mut ctx = Ctx::new(opts.resolve(size));
    let answer = dispatch::with_pair(a, pose_a, b, pose_b, |query| f(query, &mut ctx))?;
    Ok((answer, ctx.stats()))
}

fn check_pose<const D: usize>(field: &'static str, pose: &Pose<D>) -> Result<(), NarrowphaseError>
where
    Space<D>: Dim<D>,
{
    if fathom_math::is_finite_vec(&pose.translation.vector)
        && Space::<D>::rotation_is_finite(&pose.rotation)
    {
        Ok(())
    } else {
        Err(NarrowphaseError::NonFinitePose { field })
    }
}

/// The bounding radius of a shape (`None` for a half-space, which has no size), after checking
/// its bounds and Lipschitz constant.
fn shape_size<const D: usize>(
    field: &'static str,
    s: &ShapeRef<'_, D>,
) -> Result<Option<Real>, NarrowphaseError>
where
    Space<D>: Dim<D>,
{
    let invalid = |reason: String| NarrowphaseError::InvalidShape { field, reason };
    match s {
        ShapeRef::Points(_) => Ok(s.size()),
        ShapeRef::Sdf(f) => {
            let l = f.lipschitz();
            if !(l.is_finite() && l > 0.0) {
                return Err(invalid(format!(
                    "lipschitz must be finite and positive, got {l}"
                )));
            }
            let b = f.bounds();
            if !b.is_valid() {
                return Err(invalid(format!(
                    "bounds must be finite and non-empty, got {b:?}"
                )));
            }
            Ok(s.size())
        }
    }
}

impl<const D: usize> ShapeRef<'_, D>
where
    Space<D>: Dim<D>,
{
    /// The bounding radius (`None` for a half-space, which has no size).
    fn size(&self) -> Option<Real> {
        match self {
            ShapeRef::Points(m) => Some(m.bounds().radius().max(m.spacing())),
            ShapeRef::Sdf(f) => match f.kind() {
                ShapeKind::HalfSpace { .. } => None,
                _ => Some(f.bounds().radius().max(Real::MIN_POSITIVE)),
            },
        }
    }
}
