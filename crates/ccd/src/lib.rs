//! Fathom's continuous collision: sphere, ray and capsule casts against signed
//! distance fields, and time of impact between two moving shapes.
//!
//! Fast bodies tunnel through thin geometry when collision is only tested at
//! the end of each step. Every query here advances along the motion by a step
//! the field proves safe (sphere casting, `march.rs`), so none can skip a
//! contact:
//!
//! - [`sphere_cast`], [`ray_cast`], [`capsule_cast`], [`cast`]: a shape swept along a
//!   direction, in the target's local frame; [`cast_posed`] and friends in the world
//!   frame; [`cast_candidates`] for the broadphase's candidate list (earliest hit wins).
//! - [`time_of_impact`]: two shapes moving with linear and angular velocity over a
//!   step, by conservative advancement; [`swept_boxes_may_meet`] drops pairs whose bounds
//!   cannot meet before it is asked.
//!
//! Results say which of hit / started inside / miss / budget-exhausted happened
//! ([`CastResult`], [`ToiResult`]); an exhausted budget is never a miss.
//!
//! Exact hits: a ray, ball or capsule cast against a ball, box, capsule or half-space
//! ([`fathom_sdf::ShapeKind`]) is answered in closed form, in f64 from the caller's input
//! (the cast's centre against the target grown by the swept shape), exact to f32 rounding of
//! the result and never past the surface ([`CastOptions::closed_form`]). Other fields are
//! marched: the march stops within `epsilon` of the surface; a ray or ball cast then closes in
//! on the crossing itself (a bracket of the gap's root along the cast, narrowed to 2e-6 of
//! the hit point's distance from the shape's origin, at least 1 m, and never past the
//! surface), also from a start within `epsilon` outside it. A capsule cast does the same with
//! its segment search as the certificate (the outside end proven clear, the search run down to
//! a quarter of the tolerance's worth of gap, at least two f32 ulps of the scene); at grazing
//! incidence (the gap closing under 0.1 per metre: the cosine over the field's Lipschitz
//! constant) it closes in by Newton steps from outside instead of a chain of proven-clear
//! balls. Steps are sized by that closing rate, not the cosine: a baked grid's gap (`L` up to
//! `sqrt(D)`) closes `L` times slower than its normal says.
//!
//! ```
//! use fathom_ccd::{sphere_cast, CastOptions, CastResult};
//! use fathom_math::Vector3;
//! use fathom_sdf::Ball;
//!
//! // A ball of radius 0.5 swept along x towards a ball of radius 1 at the origin,
//! // starting 5 m away: the surfaces meet after 5 - 1 - 0.5 = 3.5 m.
//! let target = Ball::new(1.0)?;
//! let from = Vector3::new(-5.0, 0.0, 0.0);
//! let hit = sphere_cast(&target, &from, &Vector3::x(), 0.5, 10.0, &CastOptions::default())?;
//! let CastResult::Hit { distance, normal, .. } = hit else { panic!("expected a hit") };
//! let early = 3.5 - distance; // never past the surface; exact (a closed form)
//! assert!((0.0..=1e-6).contains(&early));
//! assert!((normal + Vector3::x()).norm() < 1e-3); // facing the caster
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Honesty with approximate fields: a baked grid, a smooth blend or a stretched
//! shape only bounds distance. Every query divides the field by the shape's
//! [`fathom_sdf::Sdf::lipschitz`] constant, which makes it a lower bound on the
//! true distance, and only then subtracts the swept radius; hits are declared
//! on that lower bound, so a reported contact is never past the true surface
//! (it may be early by however much the field under-reports).
//!
//! Dependencies: `fathom-math` and `fathom-sdf` only (the small separation
//! estimate time of impact needs lives here, see [`separation`]).
//!
//! # Where it fits
//!
//! - `fathom-world` sweeps fast bodies with [`cast_candidates`] and [`time_of_impact`] in the
//!   step, and runs its scene queries (`World::cast_ray`, `cast_sphere`, `cast_shape`)
//!   through this crate; `fathom-vehicle`'s wheels are those sphere casts.
//! - `fathom-narrowphase` answers the same shapes' questions at one instant.
#![warn(missing_docs)]

mod bound_split;
mod box_separation;
mod capsule_cast;
mod closed_form;
mod error;
mod exact;
mod field;
mod march;
mod motion;
mod options;
mod posed;
mod result;
pub mod separation;
mod sphere_cast;
mod swept_boxes;
mod toi;

pub use capsule_cast::capsule_cast;
pub use error::{CcdError, Result};
pub use motion::Motion;
pub use options::{CastOptions, ToiOptions};
pub use posed::{
    capsule_cast_posed, cast, cast_candidates, cast_posed, ray_cast_posed, sphere_cast_posed,
    CandidatesResult, CastShape,
};
pub use result::CastResult;
pub use sphere_cast::{ray_cast, sphere_cast};
pub use swept_boxes::swept_boxes_may_meet;
pub use toi::{time_of_impact, time_of_impact_trusted, ToiResult};
