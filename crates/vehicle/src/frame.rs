//! The car's axes in its body frame, and the one place where 2D and 3D differ:
//! the lateral (axle) axis. In 3D it is `up × forward` (left); a 2D vehicle is
//! a side view in the plane of `forward` and `up`, with no lateral axis, so it
//! neither steers nor feels side forces. Everything else is generic over `D`.

use crate::error::VehicleError;
use fathom_math::{AngVector, Dim, Real, Space, Vector};

/// `a × b` as a vector: `Some` in 3D, `None` in 2D (where it is not a vector).
pub(crate) fn cross_vec<const D: usize>(a: &Vector<D>, b: &Vector<D>) -> Option<Vector<D>> {
    if D != 3 {
        return None;
    }
    let mut c = Vector::<D>::zeros();
    c[0] = a[1] * b[2] - a[2] * b[1];
    c[1] = a[2] * b[0] - a[0] * b[2];
    c[2] = a[0] * b[1] - a[1] * b[0];
    Some(c)
}

/// Unit `v`, or `None` when it is (nearly) zero or not finite.
pub(crate) fn unit<const D: usize>(v: &Vector<D>) -> Option<Vector<D>> {
    let n = v.norm();
    (n.is_finite() && n > 1e-6).then(|| v / n)
}

/// Orthonormal car axes, chassis body frame.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Axes<const D: usize> {
    /// Forward, unit.
    pub forward: Vector<D>,
    /// Up, unit, orthogonal to forward.
    pub up: Vector<D>,
    /// Left = up × forward (3D only).
    pub left: Option<Vector<D>>,
}

impl<const D: usize> Axes<D>
where
    Space<D>: Dim<D>,
{
    /// From a forward and an up axis (forward is made orthogonal to up).
    pub fn new(forward: &Vector<D>, up: &Vector<D>) -> Result<Self, VehicleError> {
        let up = unit(up)
            .ok_or_else(|| VehicleError::invalid("up", "must be a finite, non-zero vector"))?;
        let forward = unit(&(forward - up * forward.dot(&up))).ok_or_else(|| {
            VehicleError::invalid("forward", "must be finite, non-zero and not along `up`")
        })?;
        let left = cross_vec(&up, &forward);
        Ok(Self { forward, up, left })
    }

    /// The axle axis as an angular vector: the spin axis of a wheel rolling forward
    /// (left in 3D, clockwise in 2D).
    pub fn axle(&self) -> AngVector<D> {
        Space::<D>::cross(&self.up, &self.forward)
    }

    /// The up axis as an angular vector (3D; zero in 2D, where nothing steers).
    pub fn steer_axis(&self) -> AngVector<D> {
        match &self.left {
            Some(l) => Space::<D>::cross(&self.forward, l),
            None => Space::<D>::ang_zero(),
        }
    }

    /// Forward turned by `angle` radians about up (towards left for positive angles).
    pub fn steered_forward(&self, angle: Real) -> Vector<D> {
        match &self.left {
            Some(l) => self.forward * angle.cos() + l * angle.sin(),
            None => self.forward,
        }
    }

    /// Lateral coordinate of a body-frame point (left positive; 0 in 2D), metres.
    pub fn lateral_of(&self, p: &Vector<D>) -> Real {
        self.left.map_or(0.0, |l| l.dot(p))
    }
}
