//! Primitives written once for every dimension: ball, cuboid, rounded cuboid,
//! capsule, half-space. All are exact distance fields (Lipschitz 1) with
//! analytic gradients.

use crate::error::{check_finite_vec, check_non_negative, check_positive, Result, SdfError};
use crate::{normalize_or_axis, Sdf, ShapeKind};
use fathom_math::{Aabb, Real, Vector};
use serde::{Deserialize, Serialize};

/// Half of the extent given to unbounded shapes' boxes (a half-space is cut to this size).
pub const UNBOUNDED_EXTENT: Real = 1.0e4;

/// A ball (disc in 2D) of `radius` centred on the origin.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Ball {
    /// Radius in metres.
    pub radius: Real,
}

impl Ball {
    /// A ball of the given radius (must be finite and positive).
    pub fn new(radius: Real) -> Result<Self> {
        Ok(Self {
            radius: check_positive("radius", radius)?,
        })
    }

    /// Checks the fields as [`Ball::new`] does (for values that came from a file).
    pub fn validate(&self) -> Result<()> {
        Self::new(self.radius).map(drop)
    }
}

impl<const D: usize> Sdf<D> for Ball {
    fn distance(&self, p: &Vector<D>) -> Real {
        p.norm() - self.radius
    }
    fn bounds(&self) -> Aabb<D> {
        Aabb::from_center_half_extents(Vector::zeros(), Vector::repeat(self.radius))
    }
    fn gradient(&self, p: &Vector<D>) -> Vector<D> {
        normalize_or_axis(*p)
    }
    fn kind(&self) -> ShapeKind<D> {
        ShapeKind::Ball {
            radius: self.radius,
        }
    }
}

/// A box centred on the origin with the given half extents.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Cuboid<const D: usize> {
    /// Half the size along each local axis, metres.
    pub half_extents: Vector<D>,
}

impl<const D: usize> Cuboid<D> {
    /// A cuboid of the given half extents (each finite and positive).
    pub fn new(half_extents: Vector<D>) -> Result<Self> {
        for h in half_extents.iter() {
            check_positive("half_extents", *h)?;
        }
        Ok(Self { half_extents })
    }

    /// Checks the fields as [`Cuboid::new`] does.
    pub fn validate(&self) -> Result<()> {
        Self::new(self.half_extents).map(drop)
    }
}

/// Distance to a box of half extents `h`, and its gradient (shared with the rounded cuboid).
pub(crate) fn box_distance_gradient<const D: usize>(
    h: &Vector<D>,
    p: &Vector<D>,
) -> (Real, Vector<D>) {
    let q = p.abs() - h;
    let outside = q.map(|x| x.max(0.0));
    let out_len = outside.norm();
    if out_len > 0.0 {
        let g = outside.component_mul(&p.map(|x| if x < 0.0 { -1.0 } else { 1.0 }));
        (out_len, g / out_len)
    } else {
        // Inside: the nearest face is the axis with the largest q.
        let axis = q.imax();
        let mut g = Vector::<D>::zeros();
        g[axis] = if p[axis] < 0.0 { -1.0 } else { 1.0 };
        (q[axis], g)
    }
}

impl<const D: usize> Sdf<D> for Cuboid<D> {
    fn distance(&self, p: &Vector<D>) -> Real {
        box_distance_gradient(&self.half_extents, p).0
    }
    fn bounds(&self) -> Aabb<D> {
        Aabb::from_center_half_extents(Vector::zeros(), self.half_extents)
    }
    fn gradient(&self, p: &Vector<D>) -> Vector<D> {
        box_distance_gradient(&self.half_extents, p).1
    }
    fn distance_and_gradient(&self, p: &Vector<D>) -> (Real, Vector<D>) {
        box_distance_gradient(&self.half_extents, p)
    }
    fn kind(&self) -> ShapeKind<D> {
        ShapeKind::Cuboid {
            half_extents: self.half_extents,
        }
    }
}

/// A box with rounded edges: a cuboid of `half_extents` inflated by `radius`.
/// Its outer size is `half_extents + radius` on each axis.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RoundedCuboid<const D: usize> {
    /// Half extents of the inner (sharp) box, metres.
    pub half_extents: Vector<D>,
    /// Rounding radius, metres.
    pub radius: Real,
}

impl<const D: usize> RoundedCuboid<D> {
    /// A rounded cuboid: inner half extents (each positive or zero) and a positive rounding radius.
    pub fn new(half_extents: Vector<D>, radius: Real) -> Result<Self> {
        for h in half_extents.iter() {
            check_non_negative("half_extents", *h)?;
        }
        Ok(Self {
            half_extents,
            radius: check_positive("radius", radius)?,
        })
    }

    /// Checks the fields as [`RoundedCuboid::new`] does.
    pub fn validate(&self) -> Result<()> {
        Self::new(self.half_extents, self.radius).map(drop)
    }
}

impl<const D: usize> Sdf<D> for RoundedCuboid<D> {
    fn distance(&self, p: &Vector<D>) -> Real {
        box_distance_gradient(&self.half_extents, p).0 - self.radius
    }
    fn bounds(&self) -> Aabb<D> {
        Aabb::from_center_half_extents(Vector::zeros(), self.half_extents.add_scalar(self.radius))
    }
    fn gradient(&self, p: &Vector<D>) -> Vector<D> {
        box_distance_gradient(&self.half_extents, p).1
    }
    fn distance_and_gradient(&self, p: &Vector<D>) -> (Real, Vector<D>) {
        let (d, g) = box_distance_gradient(&self.half_extents, p);
        (d - self.radius, g)
    }
}

/// A capsule: the points within `radius` of the segment from `-half_height` to
/// `+half_height` along the local y axis.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Capsule {
    /// Half the length of the core segment, metres.
    pub half_height: Real,
    /// Radius, metres.
    pub radius: Real,
}

impl Capsule {
    /// A capsule of the given half height (zero or more) and radius (positive).
    pub fn new(half_height: Real, radius: Real) -> Result<Self> {
        Ok(Self {
            half_height: check_non_negative("half_height", half_height)?,
            radius: check_positive("radius", radius)?,
        })
    }

    /// Checks the fields as [`Capsule::new`] does.
    pub fn validate(&self) -> Result<()> {
        Self::new(self.half_height, self.radius).map(drop)
    }

    fn offset<const D: usize>(&self, p: &Vector<D>) -> Vector<D> {
        let mut q = *p;
        q[1] -= p[1].clamp(-self.half_height, self.half_height);
        q
    }
}

impl<const D: usize> Sdf<D> for Capsule {
    fn distance(&self, p: &Vector<D>) -> Real {
        self.offset(p).norm() - self.radius
    }
    fn bounds(&self) -> Aabb<D> {
        let mut h = Vector::<D>::repeat(self.radius);
        h[1] += self.half_height;
        Aabb::from_center_half_extents(Vector::zeros(), h)
    }
    fn gradient(&self, p: &Vector<D>) -> Vector<D> {
        let q = self.offset(p);
        if q.norm() > 1e-12 {
            q.normalize()
        } else {
            // On the core segment: any direction across it is a valid normal.
            let mut e = Vector::<D>::zeros();
            e[0] = 1.0;
            e
        }
    }
    fn kind(&self) -> ShapeKind<D> {
        ShapeKind::Capsule {
            half_height: self.half_height,
            radius: self.radius,
        }
    }
}

/// The half-space `n · p <= offset`: everything below the plane with unit
/// normal `n` at signed distance `offset` from the origin.
///
/// Its [`Sdf::bounds`] are cut to a large box ([`UNBOUNDED_EXTENT`]) so the
/// bound-split search has something finite to start from; the narrowphase
/// handles half-spaces by a closed form that does not rely on that box.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HalfSpace<const D: usize> {
    /// Outward unit normal.
    pub normal: Vector<D>,
    /// Signed distance of the plane from the origin along `normal`, metres.
    pub offset: Real,
}

impl<const D: usize> HalfSpace<D> {
    /// A half-space from an outward normal (normalised here; must be non-zero and finite) and an offset.
    pub fn new(normal: Vector<D>, offset: Real) -> Result<Self> {
        check_finite_vec("normal", &normal)?;
        let len = normal.norm();
        if len.is_nan() || len <= 1e-12 {
            return Err(SdfError::Invalid {
                field: "normal",
                reason: "must not be zero".into(),
            });
        }
        crate::error::check_finite("offset", offset)?;
        // Its bounds are the solid part of a box of UNBOUNDED_EXTENT: a plane outside that box
        // would leave them empty, and no query could find it.
        if offset.abs() >= UNBOUNDED_EXTENT {
            return Err(SdfError::Invalid {
                field: "offset",
                reason: format!(
                    "must lie within ±{UNBOUNDED_EXTENT} m of the origin, got {offset}; \
                     move the body instead"
                ),
            });
        }
        Ok(Self {
            normal: normal / len,
            offset,
        })
    }

    /// Checks the fields: finite, and a unit normal (within 1e-4, float round-off of a
    /// normalised vector written to a file with a few digits).
    pub fn validate(&self) -> Result<()> {
        Self::new(self.normal, self.offset)?;
        if (self.normal.norm() - 1.0).abs() > 1e-4 {
            return Err(SdfError::Invalid {
                field: "normal",
                reason: "must have unit length".into(),
            });
        }
        Ok(())
    }
}

impl<const D: usize> Sdf<D> for HalfSpace<D> {
    fn distance(&self, p: &Vector<D>) -> Real {
        self.normal.dot(p) - self.offset
    }
    fn bounds(&self) -> Aabb<D> {
        // The box of the part of the half-space within UNBOUNDED_EXTENT of the origin,
        // tight on any axis the normal is aligned with.
        let e = UNBOUNDED_EXTENT;
        let mut b = Aabb::from_center_half_extents(Vector::zeros(), Vector::repeat(e));
        for i in 0..D {
            let n = self.normal[i];
            if (n.abs() - 1.0).abs() < 1e-6 {
                if n > 0.0 {
                    b.max[i] = self.offset;
                } else {
                    b.min[i] = -self.offset;
                }
            }
        }
        b
    }
    fn gradient(&self, _p: &Vector<D>) -> Vector<D> {
        self.normal
    }
    fn kind(&self) -> ShapeKind<D> {
        ShapeKind::HalfSpace {
            normal: self.normal,
            offset: self.offset,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fathom_math::{Vector2, Vector3};

    #[test]
    fn seed_worked_example_ball_radius_two() {
        // A worked example: a ball of radius 2 and the point (0.5, 1, 0) gives -0.882
        // (inside by 0.882).
        let d = Ball::new(2.0)
            .unwrap()
            .distance(&Vector3::new(0.5, 1.0, 0.0));
        assert!((d + 0.882).abs() < 1e-3);
    }

    #[test]
    fn cuboid_distance_inside_outside_corner() {
        let c = Cuboid::new(Vector2::new(1.0, 0.5)).unwrap();
        assert!((c.distance(&Vector2::new(0.0, 0.0)) + 0.5).abs() < 1e-6);
        assert!((c.distance(&Vector2::new(2.0, 1.5)) - 2.0f32.sqrt()).abs() < 1e-6);
        assert_eq!(c.gradient(&Vector2::new(0.0, 0.4)), Vector2::new(0.0, 1.0));
    }

    #[test]
    fn bad_sizes_name_the_field() {
        assert_eq!(
            Ball::new(-1.0),
            Err(SdfError::NonPositive {
                field: "radius",
                value: -1.0
            })
        );
        assert!(matches!(
            Ball::new(f32::NAN),
            Err(SdfError::NonFinite {
                field: "radius",
                ..
            })
        ));
        assert!(matches!(
            Capsule::new(-0.1, 1.0),
            Err(SdfError::Negative {
                field: "half_height",
                ..
            })
        ));
        assert!(matches!(
            HalfSpace::new(Vector3::zeros(), 0.0),
            Err(SdfError::Invalid {
                field: "normal",
                ..
            })
        ));
    }

    /// A plane at or past the bounded extent has an empty box, so it is refused; one just
    /// inside it keeps a box that holds its solid side.
    #[test]
    fn a_half_space_beyond_its_extent_is_refused() {
        for offset in [-UNBOUNDED_EXTENT, UNBOUNDED_EXTENT, -2.0e6, 1.0e30] {
            assert!(matches!(
                HalfSpace::new(Vector2::new(0.0, 1.0), offset),
                Err(SdfError::Invalid {
                    field: "offset",
                    ..
                })
            ));
        }
        for offset in [-0.99 * UNBOUNDED_EXTENT, 0.99 * UNBOUNDED_EXTENT] {
            let h = HalfSpace::new(Vector3::new(0.0, -1.0, 0.0), offset).unwrap();
            assert!(h.bounds().is_valid(), "{offset}");
        }
    }
}
