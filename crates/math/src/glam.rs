//! Conversions to and from glam 0.33, the vector library Bevy, macroquad and parry 0.31 speak
//! (the `glam` feature). Fathom's vectors, rotations and poses are nalgebra types, and
//! nalgebra's `convert-glam033` implements `From` both ways, so `.into()` is the whole API:
//!
//! ```
//! use fathom_math::{glam, Pose2, Pose3, Vector2, Vector3};
//!
//! let v: glam::Vec3 = Vector3::new(1.0, 2.0, 3.0).into();
//! assert_eq!(v, glam::Vec3::new(1.0, 2.0, 3.0));
//! let back: Vector3 = v.into();
//! assert_eq!(back, Vector3::new(1.0, 2.0, 3.0));
//!
//! // A pose is a translation and a rotation: (Vec3, Quat) in 3D, (Vec2, angle) in 2D.
//! let pose = Pose3::new(Vector3::new(1.0, 0.0, 0.0), Vector3::new(0.0, 0.5, 0.0));
//! let (t, q): (glam::Vec3, glam::Quat) = pose.into();
//! assert_eq!(t, glam::Vec3::X);
//! assert!((q.to_axis_angle().1 - 0.5).abs() < 1e-6);
//! let same: Pose3 = (t, q).into();
//! assert!((same.rotation.angle() - 0.5).abs() < 1e-6);
//!
//! let flat: (glam::Vec2, f32) = Pose2::new(Vector2::new(0.0, 2.0), 0.25).into();
//! assert_eq!(flat, (glam::Vec2::new(0.0, 2.0), 0.25));
//! ```

pub use ::glam::*;
