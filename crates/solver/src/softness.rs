//! Soft constraints: a constraint that behaves like a damped spring of a given
//! stiffness (hertz) and damping ratio, solved implicitly so it stays stable
//! at any stiffness the substep can resolve.
//!
//! This is the "soft step" formulation of Box2D v3 and Erin Catto's Solver2D:
//! for a substep `h`, angular frequency `ω = 2π f` and damping ratio `ζ`,
//! the velocity constraint `Jv + bias_rate C` is solved with its effective
//! mass scaled by `mass_scale` and the accumulated impulse leaking by
//! `impulse_scale`. A zero frequency gives a rigid constraint.

use fathom_math::Real;
use serde::{Deserialize, Serialize};

/// The coefficients of a soft constraint for one substep length.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Softness {
    /// How much of the position error is fed back per second (1/s).
    pub bias_rate: Real,
    /// Scale on the effective mass (1 for a rigid constraint).
    pub mass_scale: Real,
    /// Fraction of the accumulated impulse removed per iteration (0 for a rigid constraint).
    pub impulse_scale: Real,
}

impl Softness {
    /// A rigid constraint: no bias, full mass, no leak.
    pub const RIGID: Self = Self {
        bias_rate: 0.0,
        mass_scale: 1.0,
        impulse_scale: 0.0,
    };

    /// Softness for stiffness `hertz` (Hz), damping ratio `zeta` (1 = critical) and substep `h` (s).
    /// A zero or negative frequency gives [`Softness::RIGID`].
    pub fn new(hertz: Real, zeta: Real, h: Real) -> Self {
        if hertz <= 0.0 {
            return Self::RIGID;
        }
        let omega = 2.0 * std::f32::consts::PI * hertz;
        let a1 = 2.0 * zeta + h * omega;
        let a2 = h * omega * a1;
        let a3 = 1.0 / (1.0 + a2);
        Self {
            bias_rate: omega / a1,
            mass_scale: a2 * a3,
            impulse_scale: a3,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mass_and_impulse_scales_sum_to_one() {
        // mass_scale + impulse_scale = (a2 + 1) / (1 + a2) = 1 exactly in real arithmetic.
        for (f, z) in [(30.0, 10.0), (60.0, 0.7), (5.0, 1.0)] {
            let s = Softness::new(f, z, 1.0 / 240.0);
            assert!((s.mass_scale + s.impulse_scale - 1.0).abs() < 1e-6);
            assert!(s.bias_rate > 0.0 && s.mass_scale > 0.0 && s.mass_scale < 1.0);
        }
        assert_eq!(Softness::new(0.0, 1.0, 0.01), Softness::RIGID);
    }

    #[test]
    fn stiffer_springs_correct_faster() {
        let soft = Softness::new(10.0, 1.0, 1.0 / 240.0);
        let stiff = Softness::new(60.0, 1.0, 1.0 / 240.0);
        assert!(stiff.bias_rate > soft.bias_rate && stiff.mass_scale > soft.mass_scale);
    }
}
