//! The extension point for constraints other than contacts (joints).
//!
//! The substep loop calls every [`Constraint`] at the same stages as contacts
//! (prepare once, then per substep warm start, biased solve and relaxation),
//! before the contacts, as Box2D v3 does: joints are usually stiffer and
//! fewer, so solving them first lets contacts have the last word on
//! penetration. A joint type only has to implement this trait to run inside
//! the same soft-step solver.

use crate::body::SolverBody;
use crate::contact::StepContext;
use fathom_math::{Dim, Space};

/// A velocity constraint between solver bodies, solved by sequential impulses.
pub trait Constraint<const D: usize>: Send + Sync
where
    Space<D>: Dim<D>,
{
    /// Once per step, before any substep: anchors, effective masses, softness.
    fn prepare(&mut self, bodies: &[SolverBody<D>], ctx: &StepContext);
    /// Once per substep: re-apply the accumulated impulse.
    fn warm_start(&mut self, bodies: &mut [SolverBody<D>], ctx: &StepContext);
    /// Once per substep with `use_bias = true` (correct position error softly),
    /// then again with `false` (relax: velocities only).
    fn solve(&mut self, bodies: &mut [SolverBody<D>], ctx: &StepContext, use_bias: bool);
}
