//! Rigid motion over a time step: constant linear and angular velocity.
//!
//! A body spins about its centre (`local_center`, usually the centre of mass)
//! at a constant world-frame angular velocity `w` while that centre moves at
//! `v`. The pose at time `t` rotates by the exponential map of `w t` (through
//! [`Dim::rotation_from_scaled_axis`], the same code in 2D and 3D). No point
//! of a shape whose solid lies within `r_max` of the centre moves faster than
//! `|v| + |w| r_max`: that is the speed bound conservative advancement divides by.

use crate::error::{check_pose, check_vector, CcdError, Result};
use fathom_math::{AngVector, Dim, Pose, Real, Space, Vector};
use fathom_sdf::Sdf;

/// A shape's motion over a step: its pose at `t = 0` and constant velocities (world frame).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Motion<const D: usize>
where
    Space<D>: Dim<D>,
{
    /// Pose at `t = 0`, local to world.
    pub pose: Pose<D>,
    /// Velocity of the rotation centre, metres per second, world frame.
    pub linvel: Vector<D>,
    /// Angular velocity, radians per second, world frame (a scalar in 2D).
    pub angvel: AngVector<D>,
    /// The point the body spins about, in the shape's local frame (the centre of mass).
    pub local_center: Vector<D>,
}

impl<const D: usize> Motion<D>
where
    Space<D>: Dim<D>,
{
    /// A shape that stays at `pose`.
    pub fn fixed(pose: Pose<D>) -> Self {
        Self::new(pose, Vector::zeros(), Space::<D>::ang_zero())
    }

    /// A shape moving from `pose` at `linvel` (m/s) and spinning at `angvel` (rad/s) about its local origin.
    pub fn new(pose: Pose<D>, linvel: Vector<D>, angvel: AngVector<D>) -> Self {
        Self {
            pose,
            linvel,
            angvel,
            local_center: Vector::zeros(),
        }
    }

    /// The same motion spinning about `local_center` (local frame) instead of the local origin.
    pub fn with_local_center(mut self, local_center: Vector<D>) -> Self {
        self.local_center = local_center;
        self
    }

    /// The pose at time `t` (seconds), local to world.
    pub fn pose_at(&self, t: Real) -> Pose<D> {
        let spin = Space::<D>::rotation_from_scaled_axis(&(self.angvel * t));
        let rotation = spin * self.pose.rotation;
        let center = self.pose.transform_point(&self.local_center.into()).coords + self.linvel * t;
        let translation = center - rotation * self.local_center;
        Pose::<D>::from_parts(translation.into(), rotation)
    }

    /// Checks every field; `name` is the argument this motion was passed as.
    pub(crate) fn validate(&self, name: &'static str) -> Result<()> {
        check_pose(name, &self.pose)?;
        check_vector(name, &self.linvel)?;
        check_vector(name, &self.local_center)?;
        if Space::<D>::ang_is_finite(&self.angvel) {
            Ok(())
        } else {
            Err(CcdError::NonFiniteVector { field: name })
        }
    }

    /// The fastest any point of `sdf`'s solid moves relative to the centre's
    /// translation: `|w| r_max`, with `r_max` the farthest bounds corner from the centre.
    pub(crate) fn spin_speed(&self, sdf: &dyn Sdf<D>) -> Real {
        let w = Space::<D>::ang_norm(&self.angvel);
        if w == 0.0 {
            return 0.0;
        }
        w * farthest_corner(sdf, &self.local_center)
    }
}

/// The largest distance from `center` to a corner of `sdf`'s bounds (local frame).
fn farthest_corner<const D: usize>(sdf: &dyn Sdf<D>, center: &Vector<D>) -> Real {
    let b = sdf.bounds();
    if b.is_empty() {
        return 0.0;
    }
    let mut far: Real = 0.0;
    for mask in 0..(1usize << D) {
        let corner = Vector::<D>::from_fn(|i, _| {
            if mask & (1 << i) == 0 {
                b.min[i]
            } else {
                b.max[i]
            }
        });
        far = far.max((corner - center).norm());
    }
    far
}
