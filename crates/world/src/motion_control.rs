//! Game control of how bodies move: kinematic bodies driven to target poses, and locked axes.
//!
//! A kinematic body given a target pose moves there in exactly one step: at the start of the
//! step it gets the linear and angular velocity that carry it there, so contacts, friction
//! and continuous collision see a platform moving at that speed, not a teleport; at the end
//! it is put exactly on the target. It then stays there, at rest, until it gets another
//! target, a velocity (which makes it velocity-driven again) or a pose. Between steps its
//! velocities read as those it moved with.

use crate::arena::BodyHandle;
use crate::desc::BodyKind;
use crate::error::WorldError;
use crate::world::World;
use fathom_math::{Dim, Pose, Space};
use fathom_solver::LockedAxes;
use nalgebra::AbstractRotation;

impl<const D: usize> World<D>
where
    Space<D>: Dim<D>,
{
    /// Drives kinematic body `h` so that its origin is at `target` after the next step
    /// (Rapier's `set_next_kinematic_position`). Refused for a body that is not kinematic
    /// (field `kind`) and for a pose that is not finite or that one step cannot reach
    /// (field `target`).
    pub fn set_kinematic_target(
        &mut self,
        h: BodyHandle,
        target: Pose<D>,
    ) -> Result<(), WorldError> {
        let b = self.bodies.get(h).ok_or(WorldError::NoSuchBody(h))?;
        if b.kind != BodyKind::Kinematic {
            return Err(WorldError::invalid(
                "kind",
                format!(
                    "only a kinematic body takes a target pose, this one is {:?}",
                    b.kind
                ),
            ));
        }
        self.check_pose(h, &target, "target")?;
        let (v, w) = velocities_to(b, &target, self.settings.dt);
        if !(fathom_math::is_finite_vec(&v) && Space::<D>::ang_is_finite(&w)) {
            return Err(WorldError::invalid(
                "target",
                "too far to reach in one step at a finite speed",
            ));
        }
        self.body_mut(h)?.kinematic_target = Some(target);
        self.wake(h);
        Ok(())
    }

    /// Locks world axes of body `h` (dynamic bodies; the others ignore locks). Its velocity
    /// along and about the locked axes is zeroed now.
    pub fn set_locked_axes(&mut self, h: BodyHandle, locks: LockedAxes) -> Result<(), WorldError> {
        let b = self.body_mut(h)?;
        b.locked_axes = locks;
        if b.kind == BodyKind::Dynamic {
            (b.linear_velocity, b.angular_velocity) =
                locks.constrain(&b.linear_velocity, &b.angular_velocity);
        }
        self.wake(h);
        Ok(())
    }

    /// Step stage 0: each kinematic body driven by a target gets the velocities that carry it
    /// there over the step.
    pub(crate) fn drive_kinematic_targets(&mut self) {
        let dt = self.settings.dt;
        for (_, b) in self.bodies.iter_mut() {
            if let (Some(target), false) = (b.kinematic_target, b.frozen) {
                (b.linear_velocity, b.angular_velocity) = velocities_to(b, &target, dt);
            }
        }
    }
}

/// The velocities of `b`'s centre of mass and rotation that take its origin to `target` in
/// `dt` seconds: the solver moves the centre in a straight line and turns the body at a
/// constant rate.
fn velocities_to<const D: usize>(
    b: &crate::Body<D>,
    target: &Pose<D>,
    dt: fathom_math::Real,
) -> (fathom_math::Vector<D>, fathom_math::AngVector<D>)
where
    Space<D>: Dim<D>,
{
    let centre = b.center_of_mass();
    let target_centre = target.rotation * b.mass.center + target.translation.vector;
    let turn = target.rotation * b.pose.rotation.inverse();
    (
        (target_centre - centre) / dt,
        Space::<D>::scaled_axis(&turn) * (1.0 / dt),
    )
}
