//! Operators that build new fields from others, each with honest bounds and Lipschitz constant.
//!
//! | operator | field | Lipschitz | why |
//! |---|---|---|---|
//! | [`Transformed`] | `f(pose⁻¹ p)` | `L` | an isometry preserves lengths |
//! | [`Scaled`] | `s f(p / s)` | `L` | the chain rule's `1/s` cancels the factor `s` |
//! | [`Rounded`] | `f - r` | `L` | a constant shift |
//! | [`Shell`] | `\|f\| - t` | `L` | `\|·\|` is 1-Lipschitz |
//! | [`Union`], [`Intersection`], [`Difference`] | `min`, `max`, `max(a, -b)` | `max(L_i)` | min/max of `L_i`-Lipschitz functions |
//! | smooth variants | polynomial smooth min/max | `max(L_a, L_b)` | the gradient is a convex combination of the children's (see [`smooth`]) |
//!
//! Exact CSG of exact fields is exact outside a union, but only a bound elsewhere
//! (an intersection or difference under-estimates the distance to its surface);
//! the search needs only the Lipschitz bound and correct sign, which all keep.
//!
//! Bounds are computed through [`crate::Sdf::level_bounds`]: a rounded or
//! shelled child, or a smooth blend, must contain a *level set* `{f <= r}` of
//! its children, which for a bound (not exact) child is not its box loosened by `r`.

mod csg;
mod offset;
pub mod smooth;
mod transform;

pub use csg::{Difference, Intersection, Union};
pub use offset::{Rounded, Shell};
pub use smooth::{SmoothDifference, SmoothIntersection, SmoothUnion};
pub use transform::{Scaled, Transformed};
