//! Runtime guards: what the world does when valid but extreme input (a huge force, an
//! absurd mass ratio, a speed cap set to infinity) drives a body's state to infinity or NaN.
//!
//! Everything the game passes in is checked on the way in (`desc.rs`, `world.rs`), so a
//! non-finite value can only arise inside a step, from arithmetic overflow. The solver
//! checks every body after each of its stages (`fathom_solver::freeze_non_finite`) and
//! freezes the first one to go non-finite on the spot: it becomes a static body at rest
//! for the rest of the step, so the constraints it shares see a finite, immovable body
//! and the NaN never reaches its neighbours. When the step writes the solver's results
//! back, a frozen body is skipped: it keeps its pose from before the step, its velocities
//! are zeroed, and [`WorldEvent::BodyFrozen`] reports its handle at the end of the step.
//!
//! A frozen body stays where it is and acts as a static obstacle (it is never a mover,
//! so it costs no narrowphase work on its own) until the game calls
//! [`World::unfreeze`], usually after fixing whatever input caused it.
//!
//! The speed caps of [`fathom_solver::SolverSettings`] (`max_linear_speed`, m/s, and
//! `max_angular_speed`, rad/s) keep finite but absurd speeds from growing further.

use crate::arena::BodyHandle;
use crate::body::Body;
use crate::error::WorldError;
use crate::events::WorldEvent;
use crate::world::World;
use fathom_math::{Dim, Space, Vector};

/// Marks `b` frozen: at rest, nothing pending, pose left as it was before the step.
pub(crate) fn freeze<const D: usize>(b: &mut Body<D>)
where
    Space<D>: Dim<D>,
{
    b.frozen = true;
    b.linear_velocity = Vector::zeros();
    b.angular_velocity = Space::<D>::ang_zero();
    b.force = Vector::zeros();
    b.torque = Space::<D>::ang_zero();
}

impl<const D: usize> World<D>
where
    Space<D>: Dim<D>,
{
    /// The bodies frozen by the runtime guard (see [`crate::Body::is_frozen`]), in handle order.
    pub fn frozen_bodies(&self) -> impl Iterator<Item = BodyHandle> + '_ {
        self.bodies.iter().filter(|(_, b)| b.frozen).map(|(h, _)| h)
    }

    /// Lets a frozen body move again, at rest, from its current pose (a no-op for a body
    /// that is not frozen). An error for a stale handle.
    pub fn unfreeze(&mut self, h: BodyHandle) -> Result<(), WorldError> {
        let b = self.bodies.get_mut(h).ok_or(WorldError::NoSuchBody(h))?;
        if b.frozen {
            b.frozen = false;
            self.wake(h);
        }
        Ok(())
    }

    /// The freeze events of this step, in handle order.
    pub(crate) fn frozen_events(&mut self) -> Vec<WorldEvent<D>> {
        std::mem::take(&mut self.frozen_now)
            .into_iter()
            .map(|body| WorldEvent::BodyFrozen { body })
            .collect()
    }
}
