//! Readable text for vectors and poses.
//!
//! nalgebra's `Display` draws a vector as a boxed column matrix and its `Debug` as nested
//! brackets (`[[0.0, 1.25, 0.0]]`); a log line or a HUD wants `(0, 1.25, 0)`. The vectors
//! are nalgebra's types, so Fathom cannot give them a `Display` of its own: [`Readable::show`]
//! wraps one in [`Show`], which has it. A precision (`{:.2}`) applies to every number.
//!
//! ```
//! use fathom_math::{Pose2, Pose3, Readable, Vector2, Vector3};
//!
//! assert_eq!(Vector3::new(0.0, 1.25, 0.0).show().to_string(), "(0, 1.25, 0)");
//! assert_eq!(format!("{:.2}", Vector2::new(1.0, -0.5).show()), "(1.00, -0.50)");
//! let turned = Pose2::new(Vector2::new(5.0, 0.0), std::f32::consts::FRAC_PI_2);
//! assert_eq!(format!("{:.3}", turned.show()), "(5.000, 0.000) turned 1.571 rad");
//! let pose = Pose3::translation(1.0, 2.0, 3.0);
//! assert_eq!(pose.show().to_string(), "(1, 2, 3) turned 0 rad");
//! let spun = Pose3::rotation(Vector3::z() * std::f32::consts::FRAC_PI_2);
//! assert_eq!(format!("{:.2}", spun.show()), "(0.00, 0.00, 0.00) turned 1.57 rad about (0.00, 0.00, 1.00)");
//! ```

use crate::{Pose2, Pose3, Real, Vector};
use std::fmt::{self, Display, Formatter};

/// A value with a readable [`Display`]; made by [`Readable::show`].
#[derive(Clone, Copy, Debug)]
pub struct Show<'a, T: ?Sized>(&'a T);

/// Values that [`Show`] can print.
pub trait Readable {
    /// Wrap `self` for printing with `{}`.
    fn show(&self) -> Show<'_, Self> {
        Show(self)
    }
}

impl<const D: usize> Readable for Vector<D> {}
impl Readable for Pose2 {}
impl Readable for Pose3 {}

fn number(f: &mut Formatter<'_>, x: Real) -> fmt::Result {
    match f.precision() {
        Some(p) => write!(f, "{x:.p$}"),
        None => write!(f, "{x}"),
    }
}

fn components(f: &mut Formatter<'_>, xs: impl IntoIterator<Item = Real>) -> fmt::Result {
    f.write_str("(")?;
    for (i, x) in xs.into_iter().enumerate() {
        if i > 0 {
            f.write_str(", ")?;
        }
        number(f, x)?;
    }
    f.write_str(")")
}

impl<const D: usize> Display for Show<'_, Vector<D>> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        components(f, self.0.iter().copied())
    }
}

impl Display for Show<'_, Pose2> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        components(f, self.0.translation.vector.iter().copied())?;
        f.write_str(" turned ")?;
        number(f, self.0.rotation.angle())?;
        f.write_str(" rad")
    }
}

impl Display for Show<'_, Pose3> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        components(f, self.0.translation.vector.iter().copied())?;
        f.write_str(" turned ")?;
        match self.0.rotation.axis_angle() {
            Some((axis, angle)) => {
                number(f, angle)?;
                f.write_str(" rad about ")?;
                components(f, axis.iter().copied())
            }
            None => {
                number(f, 0.0)?;
                f.write_str(" rad")
            }
        }
    }
}
