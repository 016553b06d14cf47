//! Rigid placement and uniform scaling of a field.

use crate::error::{check_finite_vec, check_positive, Result, SdfError};
use crate::{Sdf, ShapeKind};
use fathom_math::{Aabb, Dim, Pose, Real, Space, Vector};
use nalgebra::Point;
use serde::{Deserialize, Serialize};

/// A shape moved by a rigid `pose` (from the child's frame into this one). Lipschitz and
/// exactness are the child's: an isometry preserves distances.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[serde(bound(serialize = "S: Serialize", deserialize = "S: Deserialize<'de>"))]
pub struct Transformed<S, const D: usize>
where
    Space<D>: Dim<D>,
{
    /// Maps the child's local frame into this shape's frame.
    pub pose: Pose<D>,
    /// The child shape.
    pub shape: S,
}

/// Checks that a pose is finite and its rotation orthonormal (within 1e-4: round-off of a
/// rotation written to a file with a few digits).
pub(crate) fn check_pose<const D: usize>(pose: &Pose<D>) -> Result<()>
where
    Space<D>: Dim<D>,
{
    check_finite_vec("pose", &pose.translation.vector)?;
    let r = Space::<D>::rotation_matrix(&pose.rotation);
    if !r.iter().all(|x| x.is_finite())
        || (r.transpose() * r - nalgebra::SMatrix::<Real, D, D>::identity()).amax() > 1e-4
    {
        return Err(SdfError::Invalid {
            field: "pose",
            reason: "the rotation must be finite and of unit length".into(),
        });
    }
    Ok(())
}

impl<S, const D: usize> Transformed<S, D>
where
    Space<D>: Dim<D>,
{
    /// `shape` placed by `pose` (checked: finite, a proper rotation).
    pub fn new(pose: Pose<D>, shape: S) -> Result<Self> {
        check_pose(&pose)?;
        Ok(Self { pose, shape })
    }

    /// Checks this operator's own fields (not the child's).
    pub fn validate_params(&self) -> Result<()> {
        check_pose(&self.pose)
    }

    fn to_local(&self, p: &Vector<D>) -> Vector<D> {
        self.pose.inverse_transform_point(&Point::from(*p)).coords
    }
}

impl<S: Sdf<D>, const D: usize> Sdf<D> for Transformed<S, D>
where
    Space<D>: Dim<D>,
{
    fn distance(&self, p: &Vector<D>) -> Real {
        self.shape.distance(&self.to_local(p))
    }
    fn bounds(&self) -> Aabb<D> {
        self.level_bounds(0.0)
    }
    fn level_bounds(&self, level: Real) -> Aabb<D> {
        let b = self.shape.level_bounds(level);
        if b.is_empty() {
            b
        } else {
            b.transformed(&self.pose)
        }
    }
    fn gradient(&self, p: &Vector<D>) -> Vector<D> {
        self.pose.rotation * self.shape.gradient(&self.to_local(p))
    }
    fn lipschitz(&self) -> Real {
        self.shape.lipschitz()
    }
    fn kind(&self) -> ShapeKind<D> {
        match self.shape.kind() {
            // n·q <= o with q = Rᵀ(p - t)  <=>  (Rn)·p <= o + (Rn)·t.
            ShapeKind::HalfSpace { normal, offset } => {
                let n = self.pose.rotation * normal;
                ShapeKind::HalfSpace {
                    normal: n,
                    offset: offset + n.dot(&self.pose.translation.vector),
                }
            }
            // A ball stays a ball about the origin when it is only rotated.
            ShapeKind::Ball { radius } if self.pose.translation.vector == Vector::<D>::zeros() => {
                ShapeKind::Ball { radius }
            }
            _ => ShapeKind::General,
        }
    }
    /// The child's bounds over the box around the region moved into the child's frame.
    fn interval(&self, region: &Aabb<D>) -> Option<(Real, Real)> {
        self.shape
            .interval(&region.transformed(&self.pose.inverse()))
    }
}

/// A shape scaled uniformly by `scale` about the local origin: `s f(p / s)`. The field keeps
/// its child's Lipschitz constant (and exactness): `∇(s f(p/s)) = ∇f(p/s)`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scaled<S> {
    /// The factor, positive.
    pub scale: Real,
    /// The child shape.
    pub shape: S,
}

impl<S> Scaled<S> {
    /// `shape` scaled by a finite positive `scale`.
    pub fn new(scale: Real, shape: S) -> Result<Self> {
        Ok(Self {
            scale: check_positive("scale", scale)?,
            shape,
        })
    }

    /// Checks this operator's own fields (not the child's).
    pub fn validate_params(&self) -> Result<()> {
        check_positive("scale", self.scale).map(drop)
    }
}

impl<S: Sdf<D>, const D: usize> Sdf<D> for Scaled<S> {
    fn distance(&self, p: &Vector<D>) -> Real {
        self.scale * self.shape.distance(&(p / self.scale))
    }
    fn bounds(&self) -> Aabb<D> {
        self.level_bounds(0.0)
    }
    fn level_bounds(&self, level: Real) -> Aabb<D> {
        // s f(p/s) <= l  <=>  f(p/s) <= l/s.
        let b = self.shape.level_bounds(level / self.scale);
        if b.is_empty() {
            b
        } else {
            Aabb::new(b.min * self.scale, b.max * self.scale)
        }
    }
    fn gradient(&self, p: &Vector<D>) -> Vector<D> {
        self.shape.gradient(&(p / self.scale))
    }
    fn lipschitz(&self) -> Real {
        self.shape.lipschitz()
    }
    fn kind(&self) -> ShapeKind<D> {
        let s = self.scale;
        match self.shape.kind() {
            ShapeKind::Ball { radius } => ShapeKind::Ball { radius: radius * s },
            ShapeKind::Capsule {
                half_height,
                radius,
            } => ShapeKind::Capsule {
                half_height: half_height * s,
                radius: radius * s,
            },
            ShapeKind::HalfSpace { normal, offset } => ShapeKind::HalfSpace {
                normal,
                offset: offset * s,
            },
            ShapeKind::Cuboid { half_extents } => ShapeKind::Cuboid {
                half_extents: half_extents * s,
            },
            ShapeKind::General => ShapeKind::General,
        }
    }
    /// The child's bounds over the region scaled into its frame, scaled back.
    fn interval(&self, region: &Aabb<D>) -> Option<(Real, Real)> {
        let inner = Aabb::new(region.min / self.scale, region.max / self.scale);
        let (lo, hi) = self.shape.interval(&inner)?;
        Some((self.scale * lo, self.scale * hi))
    }
}
