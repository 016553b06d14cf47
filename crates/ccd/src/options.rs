//! Tolerances and budgets of the casts and of time of impact.
//!
//! All of them are absolute (metres, or the field's units): a cast does not
//! know the size of the world it runs in, so the caller (the world, which
//! does) chooses. The defaults suit bodies of roughly 0.01 m to 100 m.

use crate::error::{check_positive, Result};
use fathom_math::Real;

/// Settings of [`crate::sphere_cast`], [`crate::ray_cast`], [`crate::capsule_cast`] and their posed forms.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CastOptions {
    /// A cast hits when the swept shape is closer than this to the surface, metres
    /// (measured by the field divided by its Lipschitz constant, which never
    /// exceeds the true distance). Must be positive. Default `1e-3` (Box2D's time of
    /// impact works to a similar quarter of its 5 mm slop). Cost: a capsule lying flat
    /// against a face needs about `4 |half_axis| / epsilon` samples in its last steps.
    /// Rays and spheres are cheap at any epsilon; their hits, and capsules', are refined past
    /// it to the surface crossing (see the crate docs). Casts answered in
    /// closed form (primitive targets, see [`CastOptions::closed_form`]) hit exactly where the
    /// shapes touch, and call a pass within epsilon that never touches a hit at its closest
    /// approach (unrefined: where it first comes within epsilon), as the march does.
    pub epsilon: Real,
    /// The most steps the march may take before it reports [`crate::CastResult::StepCap`].
    /// Default 512.
    pub max_steps: u32,
    /// The most field evaluations one cast may make (a capsule cast makes several
    /// per step to bound the field along its segment). Running out is reported as
    /// [`crate::CastResult::StepCap`]. Default 65 536.
    pub max_evaluations: u32,
    /// Jump straight to where the cast enters the shape's [`fathom_sdf::Sdf::bounds`]
    /// (grown by the swept shape's reach) and stop where it leaves them. Sound because
    /// the bounds contain the whole solid. Default `true`.
    pub clip_to_bounds: bool,
    /// Refine a ray's, ball's or capsule's hit from within `epsilon` of the surface to the crossing
    /// itself (see the crate docs). Default `true`; a caller that needs only a time that
    /// is never past the surface (the world's continuous collision) may skip it.
    pub refine: bool,
    /// Answer a ball, ray or capsule cast against a ball, box, capsule or half-space in
    /// closed form (exact, see the crate docs) instead of marching. Default `true`; `false`
    /// forces the march (tests compare the two).
    pub closed_form: bool,
}

impl Default for CastOptions {
    fn default() -> Self {
        Self {
            epsilon: 1e-3,
            max_steps: 512,
            max_evaluations: 65_536,
            clip_to_bounds: true,
            refine: true,
            closed_form: true,
        }
    }
}

impl CastOptions {
    /// Checks the options; the error names the bad field.
    pub fn validate(&self) -> Result<()> {
        check_positive("epsilon", self.epsilon)?;
        Ok(())
    }
}

/// Settings of [`crate::time_of_impact`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ToiOptions {
    /// Bodies are in contact when their separation (a lower bound from both fields)
    /// drops below this, metres. Must be positive. Default `1e-3`.
    pub epsilon: Real,
    /// The most advancement iterations before [`crate::ToiResult::IterationCap`]. Default 256.
    pub max_iterations: u32,
    /// The most search cells over the whole query (each costs one or two field
    /// evaluations; each iteration's separation search spends some). Near contact a
    /// search refines the patch where the shapes are within about twice the gap of
    /// each other to cells of a quarter of the gap: tens of thousands of cells for
    /// curved 3D pairs at `epsilon = 1e-3`. Default 1 048 576.
    pub max_evaluations: u32,
}

impl Default for ToiOptions {
    fn default() -> Self {
        Self {
            epsilon: 1e-3,
            max_iterations: 256,
            max_evaluations: 1 << 20,
        }
    }
}

impl ToiOptions {
    /// Checks the options; the error names the bad field.
    pub fn validate(&self) -> Result<()> {
        check_positive("epsilon", self.epsilon)?;
        Ok(())
    }
}
