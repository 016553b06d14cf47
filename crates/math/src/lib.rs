//! Fathom's math: the scalar type, axis-aligned boxes in any dimension, poses,
//! and the one small trait ([`Dim`]) through which 2D and 3D differ.
//!
//! Geometry in Fathom is generic over `const D: usize` (`SVector<Real, D>`,
//! [`Aabb<D>`]). Only what touches orientation (rotations, angular velocity,
//! inertia, cross products) depends on the dimension; that lives behind
//! [`Dim`], implemented exactly twice (for [`Space<2>`] and [`Space<3>`]), so
//! the rest of the engine is written once.
//!
//! ```
//! use fathom_math::{Aabb, Dim, Pose2, Space, Vector2, Vector3};
//!
//! // The cross product is a vector in 3D and a scalar (an angle's rate) in 2D.
//! assert_eq!(Space::<3>::cross(&Vector3::x(), &Vector3::y()), Vector3::z());
//! assert_eq!(Space::<2>::cross(&Vector2::x(), &Vector2::y()), 1.0);
//!
//! // A 2 m square turned by 45 degrees and moved 5 m along x: its box is sqrt(2) wide
//! // each side of the new centre.
//! let square = Aabb::from_center_half_extents(Vector2::zeros(), Vector2::new(1.0, 1.0));
//! let pose = Pose2::new(Vector2::new(5.0, 0.0), std::f32::consts::FRAC_PI_4);
//! let turned = square.transformed(&pose);
//! assert!((turned.center() - Vector2::new(5.0, 0.0)).norm() < 1e-5);
//! assert!((turned.half_extents() - Vector2::repeat(2f32.sqrt())).norm() < 1e-5);
//! ```
//!
//! # Where it fits
//!
//! - Every other Fathom crate builds on this one and depends on nothing else of Fathom's.
//! - Users meet its types in every signature of `fathom-world` (`Vector3`, `Pose2`,
//!   [`Real`]); the vectors and poses are nalgebra's, re-exported as [`nalgebra`].
#![warn(missing_docs)]

mod aabb;
mod dim;
#[cfg(feature = "glam")]
pub mod glam;
pub mod lanes;
pub mod segment;
mod show;

pub use aabb::Aabb;
pub use arrayvec;
pub use dim::{AngVector, AngularInertia, Dim, Pose, Rotation, Space};
pub use nalgebra;
pub use show::{Readable, Show};

/// Most points one contact manifold holds (4 in 3D; 2D manifolds use at most 2).
pub const MAX_MANIFOLD_POINTS: usize = 4;

/// The points of one manifold, stored inline: a manifold is built every step for every
/// touching pair, and a heap allocation each would cost more than the points.
pub type ManifoldPoints<T> = arrayvec::ArrayVec<T, MAX_MANIFOLD_POINTS>;

/// The scalar type of the whole engine.
pub type Real = f32;

/// A column vector of dimension `D`.
pub type Vector<const D: usize> = nalgebra::SVector<Real, D>;
/// A point of dimension `D`, stored as a vector (Fathom does not distinguish points from vectors).
pub type Point<const D: usize> = nalgebra::SVector<Real, D>;

/// 2D vector.
pub type Vector2 = Vector<2>;
/// 3D vector.
pub type Vector3 = Vector<3>;
/// 2D axis-aligned box.
pub type Aabb2 = Aabb<2>;
/// 3D axis-aligned box.
pub type Aabb3 = Aabb<3>;
/// 2D pose (rotation by a unit complex number, then translation).
pub type Pose2 = Pose<2>;
/// 3D pose (rotation by a unit quaternion, then translation).
pub type Pose3 = Pose<3>;

/// True when every component of `v` is finite (neither NaN nor infinite).
#[inline]
pub fn is_finite_vec<const D: usize>(v: &Vector<D>) -> bool {
    all_finite(v.as_slice())
}

/// True when every number of `xs` is finite. Over a slice, not nalgebra's element iterator:
/// the solver checks every body after every stage, and the slice loop unrolls to a few
/// vector instructions where the iterator's stride bookkeeping cost ten times as many.
#[inline]
pub fn all_finite(xs: &[Real]) -> bool {
    xs.iter().fold(true, |ok, x| ok & x.is_finite())
}
