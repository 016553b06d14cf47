//! Offsets of a field: rounding (inflate by a margin) and shell (onion).

use crate::error::{check_positive, Result};
use crate::{Sdf, ShapeKind};
use fathom_math::{Aabb, Real, Vector};
use serde::{Deserialize, Serialize};

/// The shape inflated by `radius`: `f - r`, every point within `r` of it (for an exact child).
/// Keeps the child's Lipschitz constant (a constant shift).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Rounded<S> {
    /// The margin, metres, positive.
    pub radius: Real,
    /// The child shape.
    pub shape: S,
}

impl<S> Rounded<S> {
    /// `shape` inflated by a finite positive `radius`.
    pub fn new(radius: Real, shape: S) -> Result<Self> {
        Ok(Self {
            radius: check_positive("radius", radius)?,
            shape,
        })
    }

    /// Checks this operator's own fields (not the child's).
    pub fn validate_params(&self) -> Result<()> {
        check_positive("radius", self.radius).map(drop)
    }
}

impl<S: Sdf<D>, const D: usize> Sdf<D> for Rounded<S> {
    fn distance(&self, p: &Vector<D>) -> Real {
        self.shape.distance(p) - self.radius
    }
    fn bounds(&self) -> Aabb<D> {
        self.level_bounds(0.0)
    }
    fn level_bounds(&self, level: Real) -> Aabb<D> {
        self.shape.level_bounds(level + self.radius)
    }
    fn gradient(&self, p: &Vector<D>) -> Vector<D> {
        self.shape.gradient(p)
    }
    fn lipschitz(&self) -> Real {
        self.shape.lipschitz()
    }
    fn kind(&self) -> ShapeKind<D> {
        match self.shape.kind() {
            ShapeKind::Ball { radius } => ShapeKind::Ball {
                radius: radius + self.radius,
            },
            ShapeKind::Capsule {
                half_height,
                radius,
            } => ShapeKind::Capsule {
                half_height,
                radius: radius + self.radius,
            },
            ShapeKind::HalfSpace { normal, offset } => ShapeKind::HalfSpace {
                normal,
                offset: offset + self.radius,
            },
            // A rounded box is not a box: it is searched as a general field.
            ShapeKind::Cuboid { .. } | ShapeKind::General => ShapeKind::General,
        }
    }
    fn interval(&self, region: &Aabb<D>) -> Option<(Real, Real)> {
        let (lo, hi) = self.shape.interval(region)?;
        Some((lo - self.radius, hi - self.radius))
    }
}

/// A hollow shell of the child's surface: `|f| - t`, a wall `2 t` thick centred on the surface
/// (the "onion" operator). Keeps the child's Lipschitz constant (`|·|` is 1-Lipschitz).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Shell<S> {
    /// Half the wall thickness, metres, positive.
    pub half_thickness: Real,
    /// The child shape.
    pub shape: S,
}

impl<S> Shell<S> {
    /// A shell of `shape` with a finite positive `half_thickness`.
    pub fn new(half_thickness: Real, shape: S) -> Result<Self> {
        Ok(Self {
            half_thickness: check_positive("half_thickness", half_thickness)?,
            shape,
        })
    }

    /// Checks this operator's own fields (not the child's).
    pub fn validate_params(&self) -> Result<()> {
        check_positive("half_thickness", self.half_thickness).map(drop)
    }
}

impl<S: Sdf<D>, const D: usize> Sdf<D> for Shell<S> {
    fn distance(&self, p: &Vector<D>) -> Real {
        self.shape.distance(p).abs() - self.half_thickness
    }
    fn bounds(&self) -> Aabb<D> {
        self.level_bounds(0.0)
    }
    fn level_bounds(&self, level: Real) -> Aabb<D> {
        // |f| - t <= l implies f <= l + t.
        self.shape.level_bounds(level + self.half_thickness)
    }
    fn gradient(&self, p: &Vector<D>) -> Vector<D> {
        let g = self.shape.gradient(p);
        if self.shape.distance(p) < 0.0 {
            -g
        } else {
            g
        }
    }
    fn lipschitz(&self) -> Real {
        self.shape.lipschitz()
    }
}
