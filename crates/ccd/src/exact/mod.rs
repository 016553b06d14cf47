//! Closed-form casts: a ball (a ray: radius 0) or a capsule swept against a ball, a box, a
//! capsule or a half-space, exact to the f64 arithmetic they run in.
//!
//! The swept shape touches the target when its centre reaches the target grown by the swept
//! shape (their Minkowski sum); each pair file builds that sum from the pieces in `entry.rs`
//! and the line of the cast meets it in one interval. A hit is declared, as the march
//! declares it, where the swept shape comes within `epsilon` of the surface (the sum grown
//! by `epsilon`): unrefined, at that point; refined, at the crossing itself when the cast
//! crosses the surface within its length, else at the cast's closest approach (a graze).
//! A cast that starts overlapping goes to the march, which finds its deepest point.
//!
//! The cast is carried into the target's frame in f64 from the caller's f32 input, so the
//! distance is exact to f32 rounding of the inputs and of the result (rounded down: never
//! past the surface).

mod ball_ball;
mod ball_capsule;
mod ball_cuboid;
mod ball_half_space;
mod capsule_ball;
mod capsule_capsule;
mod capsule_cuboid;
mod capsule_half_space;
pub(crate) mod entry;

use crate::error::Result;
use crate::field::Field;
use crate::options::CastOptions;
use crate::posed::CastShape;
use crate::result::CastResult;
use entry::{Line, Span, V64};
use fathom_math::{Dim, Pose, Real, Space, Vector};
use fathom_sdf::{Sdf, ShapeKind};

/// A cast in the target's local frame, in f64.
pub(crate) struct Cast64<const D: usize> {
    /// The centre's line (unit direction).
    pub line: Line<D>,
    /// Half the capsule's core (zero for a ball).
    pub half_axis: V64<D>,
    /// The swept radius.
    pub radius: f64,
    capsule: bool,
}

impl<const D: usize> Cast64<D> {
    /// `shape` cast from `origin` along `dir` (non-zero), all in the target's frame.
    pub(crate) fn local(shape: &CastShape<D>, origin: &Vector<D>, dir: &Vector<D>) -> Self {
        Self::framed(
            shape,
            origin,
            dir,
            nalgebra::SMatrix::identity(),
            V64::zeros(),
        )
    }

    /// The same in the caller's frame, where `pose` places the target.
    pub(crate) fn posed(
        shape: &CastShape<D>,
        origin: &Vector<D>,
        dir: &Vector<D>,
        pose: &Pose<D>,
    ) -> Self
    where
        Space<D>: Dim<D>,
    {
        let rotation = Space::<D>::rotation_matrix(&pose.rotation).cast::<f64>();
        let shift = pose.translation.vector.cast::<f64>();
        Self::framed(shape, origin, dir, rotation, shift)
    }

    /// Carried into the frame `p = rotation * local + shift`.
    fn framed(
        shape: &CastShape<D>,
        origin: &Vector<D>,
        dir: &Vector<D>,
        rotation: nalgebra::SMatrix<f64, D, D>,
        shift: V64<D>,
    ) -> Self {
        let to_local = |v: V64<D>| rotation.transpose() * v;
        let line = Line {
            origin: to_local(origin.cast::<f64>() - shift),
            dir: to_local(dir.cast::<f64>()).normalize(),
        };
        let (half_axis, radius, capsule) = match *shape {
            CastShape::Ball { radius } => (V64::zeros(), radius as f64, false),
            CastShape::Capsule { half_axis, radius } => {
                (to_local(half_axis.cast::<f64>()), radius as f64, true)
            }
        };
        Self {
            line,
            half_axis,
            radius,
            capsule,
        }
    }
}

/// The unit y axis (capsules lie along local y).
pub(super) fn y_axis<const D: usize>() -> V64<D> {
    let mut y = V64::<D>::zeros();
    y[1] = 1.0;
    y
}

/// A target with a closed form, its sizes in f64.
enum Target<const D: usize> {
    Ball(f64),
    Capsule(f64, f64),
    Cuboid(V64<D>),
    HalfSpace(V64<D>, f64),
}

impl<const D: usize> Target<D> {
    fn of(kind: ShapeKind<D>) -> Option<Self> {
        Some(match kind {
            ShapeKind::Ball { radius } => Self::Ball(radius as f64),
            ShapeKind::Capsule {
                half_height,
                radius,
            } => Self::Capsule(half_height as f64, radius as f64),
            ShapeKind::Cuboid { half_extents } => Self::Cuboid(half_extents.cast()),
            ShapeKind::HalfSpace { normal, offset } => {
                Self::HalfSpace(normal.cast::<f64>().normalize(), offset as f64)
            }
            ShapeKind::General => return None,
        })
    }

    /// Where the cast's centre is within `grow` of touching the target: one file per pair.
    fn span(&self, cast: &Cast64<D>, grow: f64) -> Option<Span> {
        match (self, cast.capsule) {
            (Self::Ball(r), false) => ball_ball::span(*r, cast, grow),
            (Self::Capsule(h, r), false) => ball_capsule::span(*h, *r, cast, grow),
            (Self::Cuboid(half), false) => ball_cuboid::span(half, cast, grow),
            (Self::HalfSpace(n, o), false) => ball_half_space::span(n, *o, cast, grow),
            (Self::Ball(r), true) => capsule_ball::span(*r, cast, grow),
            (Self::Capsule(h, r), true) => capsule_capsule::span(*h, *r, cast, grow),
            (Self::Cuboid(half), true) => capsule_cuboid::span(half, cast, grow),
            (Self::HalfSpace(n, o), true) => capsule_half_space::span(n, *o, cast, grow),
        }
    }

    /// The point of a capsule's core at `centre` nearest the target.
    fn core(&self, sdf: &dyn Sdf<D>, centre: &Vector<D>, half_axis: &Vector<D>) -> Vector<D> {
        match self {
            Self::Ball(_) => capsule_ball::core(sdf, centre, half_axis),
            Self::Capsule(..) => capsule_capsule::core(sdf, centre, half_axis),
            Self::Cuboid(_) => capsule_cuboid::core(sdf, centre, half_axis),
            Self::HalfSpace(..) => capsule_half_space::core(sdf, centre, half_axis),
        }
    }
}

/// The cast in the target's local frame: `origin`, unit `dir` and `half_axis` in f32 place the
/// result's points, `exact` gives the distance. `None`: no closed form, or the cast starts
/// overlapping (both for the march).
pub(crate) fn cast<const D: usize>(
    field: &Field<'_, D>,
    exact: &Cast64<D>,
    origin: &Vector<D>,
    dir: &Vector<D>,
    half_axis: &Vector<D>,
    max_dist: Real,
    opts: &CastOptions,
) -> Result<Option<CastResult<D>>> {
    let Some(target) = Target::of(field.sdf().kind()) else {
        return Ok(None);
    };
    let Some(t) = hit_distance(&target, exact, max_dist as f64, opts) else {
        return Ok(Some(CastResult::Miss { steps: 0 }));
    };
    let Some(t) = t else {
        return Ok(None);
    };
    let distance = round_down(t);
    let center = origin + dir * distance;
    let core = if exact.capsule {
        target.core(field.sdf(), &center, half_axis)
    } else {
        center
    };
    let normal = field.normal(&core);
    let point = core - normal * field.value(&core)?;
    let fraction = if max_dist > 0.0 {
        (distance / max_dist).min(1.0)
    } else {
        0.0
    };
    Ok(Some(CastResult::Hit {
        distance,
        fraction,
        center,
        point,
        normal,
        // The closed form counts as one step (none when the hit is at the start).
        steps: u32::from(distance > 0.0),
    }))
}

/// The hit's distance along the cast: `None` for a miss, `Some(None)` for a start inside.
fn hit_distance<const D: usize>(
    target: &Target<D>,
    cast: &Cast64<D>,
    max_dist: f64,
    opts: &CastOptions,
) -> Option<Option<f64>> {
    let ahead = |s: &Span| s.exit >= 0.0;
    let touch = target.span(cast, 0.0).filter(ahead);
    if touch.is_some_and(|s| s.enter < 0.0 && s.exit > 0.0) {
        return Some(None);
    }
    let near = target
        .span(cast, opts.epsilon as f64)
        .filter(|s| ahead(s) && s.enter <= max_dist)?;
    let start = near.enter.max(0.0);
    if !opts.refine {
        return Some(Some(start));
    }
    // The crossing, or where a graze comes closest (the middle of its pass within epsilon).
    let aim = match touch {
        Some(s) => s.enter,
        None if near.exit.is_finite() => 0.5 * (near.enter + near.exit),
        None => start,
    };
    Some(Some(aim.min(max_dist).max(start)))
}

/// `t` in f32, rounded down so that it is never past the surface.
fn round_down(t: f64) -> Real {
    let x = t as Real;
    if x > 0.0 && f64::from(x) > t {
        Real::from_bits(x.to_bits() - 1)
    } else {
        x
    }
}
