//! A shape's field divided by its Lipschitz constant.
//!
//! If `|d(p) - d(q)| <= L |p - q|` and `d = 0` on the surface, then
//! `d(p) / L` never exceeds the true distance from `p` to the surface. Every
//! query in this crate works on that normalised value, so a field that
//! over-reports distance (a non-uniform stretch, a baked grid with `L > 1`)
//! cannot make a step jump past the surface, and one that under-reports it
//! (a smooth blend) only makes the steps shorter.

use crate::error::{CcdError, Result};
use fathom_math::{Real, Vector};
use fathom_sdf::{normalize_or_axis, Sdf};

/// A shape with its Lipschitz constant checked, evaluating `d(p) / L`.
pub(crate) struct Field<'a, const D: usize> {
    sdf: &'a dyn Sdf<D>,
    inv_lipschitz: Real,
    name: &'static str,
}

impl<'a, const D: usize> Field<'a, D> {
    /// Wraps `sdf`; an error when its Lipschitz constant is not finite and positive.
    pub(crate) fn new(name: &'static str, sdf: &'a dyn Sdf<D>) -> Result<Self> {
        let l = sdf.lipschitz();
        if l.is_finite() && l > 0.0 {
            Ok(Self {
                sdf,
                inv_lipschitz: 1.0 / l,
                name,
            })
        } else {
            Err(CcdError::BadLipschitz {
                field: name,
                value: l,
            })
        }
    }

    /// The shape.
    pub(crate) fn sdf(&self) -> &'a dyn Sdf<D> {
        self.sdf
    }

    /// `d(p) / L`, a lower bound on the distance from `p` to the surface (local frame).
    /// `+inf` is allowed (a shape with no surface); NaN is an error.
    pub(crate) fn value(&self, p: &Vector<D>) -> Result<Real> {
        let d = self.sdf.distance(p);
        if d.is_nan() {
            Err(CcdError::NanDistance { field: self.name })
        } else {
            Ok(d * self.inv_lipschitz)
        }
    }

    /// How fast `d(p + t dir) / L` falls per metre of `t` at `p`: the rate at which a cast
    /// along `dir` closes the normalised gap. Not the cosine of the incidence: a field with
    /// `L > 1` (a baked grid, up to `sqrt(D)`) closes its normalised gap `L` times slower,
    /// and a step sized by the cosine falls that much short of the crossing.
    pub(crate) fn closing_rate(&self, p: &Vector<D>, dir: &Vector<D>) -> Real {
        let rate = -self.sdf.gradient(p).dot(dir) * self.inv_lipschitz;
        if rate.is_finite() {
            rate
        } else {
            0.0
        }
    }

    /// The outward unit normal at `p` (normalised gradient; never NaN).
    pub(crate) fn normal(&self, p: &Vector<D>) -> Vector<D> {
        normalize_or_axis(self.sdf.gradient(p))
    }
}
