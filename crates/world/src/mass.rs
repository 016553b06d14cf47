//! Mass properties: mass, centre of mass and the second moment of mass.
//!
//! Shapes report their properties for unit density as (mass, centroid,
//! second moment `C = ∫ ρ (x - c)(x - c)ᵀ dV` about the centroid). The
//! second moment is a plain `D x D` matrix, so moving it between frames,
//! adding shapes and shifting the reference point are the same code in 2D and
//! 3D; only the final conversion to an angular inertia goes through
//! [`Dim::inertia_from_second_moment`] (`tr(C) I - C` in 3D, `tr(C)` in 2D).
//!
//! Primitives have closed forms. Any other field (CSG, smooth blends, baked
//! grids) is integrated over its bounds on a voxel grid, each cell weighted by
//! the fraction of it inside the surface (estimated from the distance at its
//! centre), doubling the resolution until the mass changes by under 0.5%.

use fathom_math::{AngularInertia, Dim, Pose, Real, Space, Vector};
use fathom_sdf::Sdf;
use nalgebra::SMatrix;
use serde::{Deserialize, Serialize};
use std::f32::consts::PI;

/// Mass, centre of mass and second moment of mass of a body or shape.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct MassProperties<const D: usize> {
    /// Mass, kg.
    pub mass: Real,
    /// Centre of mass, local frame, metres.
    pub center: Vector<D>,
    /// Second moment of mass about `center`, local axes, kg m².
    pub second_moment: SMatrix<Real, D, D>,
}

impl<const D: usize> MassProperties<D>
where
    Space<D>: Dim<D>,
{
    /// Nothing: the identity of [`MassProperties::add`].
    pub fn zero() -> Self {
        Self {
            mass: 0.0,
            center: Vector::zeros(),
            second_moment: SMatrix::zeros(),
        }
    }

    /// True when the mass, centre and second moment are all finite.
    pub fn is_finite(&self) -> bool {
        self.mass.is_finite()
            && self.center.iter().all(|x| x.is_finite())
            && self.second_moment.iter().all(|x| x.is_finite())
    }

    /// The angular inertia about the centre of mass, local axes, kg m².
    pub fn inertia(&self) -> AngularInertia<D> {
        Space::<D>::inertia_from_second_moment(&self.second_moment)
    }

    /// The same mass distribution with every mass multiplied by `k` (a density).
    pub fn scaled(&self, k: Real) -> Self {
        Self {
            mass: self.mass * k,
            center: self.center,
            second_moment: self.second_moment * k,
        }
    }

    /// The distribution expressed in the parent frame of `pose`.
    pub fn transformed(&self, pose: &Pose<D>) -> Self {
        let r = Space::<D>::rotation_matrix(&pose.rotation);
        Self {
            mass: self.mass,
            center: pose.rotation * self.center + pose.translation.vector,
            second_moment: r * self.second_moment * r.transpose(),
        }
    }

    /// The combined distribution (both in the same frame).
    pub fn add(&self, other: &Self) -> Self {
        let mass = self.mass + other.mass;
        if mass <= 0.0 {
            return Self::zero();
        }
        let center = (self.center * self.mass + other.center * other.mass) / mass;
        let shift = |p: &Self| {
            let d = p.center - center;
            p.second_moment + d * d.transpose() * p.mass
        };
        Self {
            mass,
            center,
            second_moment: shift(self) + shift(other),
        }
    }
}

/// Volume (area in 2D) of the unit ball.
fn unit_ball_volume<const D: usize>() -> Real {
    if D == 2 {
        PI
    } else {
        4.0 / 3.0 * PI
    }
}

/// A ball of radius `r` at unit density.
pub fn ball<const D: usize>(r: Real) -> MassProperties<D>
where
    Space<D>: Dim<D>,
{
    let mass = unit_ball_volume::<D>() * r.powi(D as i32);
    // ∫ x_i² over a D-ball of mass m is m r² / (D + 2).
    let c = SMatrix::<Real, D, D>::identity() * (mass * r * r / (D as Real + 2.0));
    MassProperties {
        mass,
        center: Vector::zeros(),
        second_moment: c,
    }
}

/// A box of half extents `h` at unit density.
pub fn cuboid<const D: usize>(h: &Vector<D>) -> MassProperties<D>
where
    Space<D>: Dim<D>,
{
    let mass: Real = h.iter().map(|x| 2.0 * x).product();
    let diag = h.map(|x| mass * x * x / 3.0);
    MassProperties {
        mass,
        center: Vector::zeros(),
        second_moment: SMatrix::from_diagonal(&diag),
    }
}

/// A capsule along local y (core half height `hh`, radius `r`) at unit density:
/// a cylinder (rectangle in 2D) plus a ball split into two caps at `±hh`.
pub fn capsule<const D: usize>(hh: Real, r: Real) -> MassProperties<D>
where
    Space<D>: Dim<D>,
{
    let caps = ball::<D>(r);
    let (core_mass, core_across) = if D == 2 {
        // Rectangle 2r x 2hh: ∫x² = m r² / 3.
        let m = 4.0 * r * hh;
        (m, m * r * r / 3.0)
    } else {
        // Cylinder: ∫x² = m r² / 4.
        let m = PI * r * r * 2.0 * hh;
        (m, m * r * r / 4.0)
    };
    // Mean |y| of a half ball about its flat face: 4r / 3π (half disc), 3r / 8 (hemisphere).
    let mean_abs_y = if D == 2 {
        4.0 * r / (3.0 * PI)
    } else {
        3.0 * r / 8.0
    };
    let cap_yy =
        caps.second_moment[(1, 1)] + 2.0 * hh * mean_abs_y * caps.mass + hh * hh * caps.mass;
    let mut c = SMatrix::<Real, D, D>::identity() * (core_across + caps.second_moment[(0, 0)]);
    c[(1, 1)] = core_mass * hh * hh / 3.0 + cap_yy;
    MassProperties {
        mass: core_mass + caps.mass,
        center: Vector::zeros(),
        second_moment: c,
    }
}

/// Why a field could not be integrated.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum IntegrationError {
    /// The bounds are empty, not finite, or too large to be a finite solid.
    Unbounded,
    /// No part of the bounds is inside the surface.
    Empty,
}

/// Largest extent a shape may have and still be integrated (metres): larger
/// bounds are the stand-in boxes of unbounded shapes such as half-spaces.
const MAX_INTEGRABLE_EXTENT: Real = 0.5 * fathom_sdf::UNBOUNDED_EXTENT;
/// Relative change of mass between two resolutions that ends the refinement.
const MASS_TOLERANCE: Real = 0.005;

/// Integrates the field `sdf` at unit density over its bounds, doubling the
/// grid until the mass changes by under 0.5% (or the cell budget is spent).
pub fn integrate<const D: usize>(sdf: &dyn Sdf<D>) -> Result<MassProperties<D>, IntegrationError>
where
    Space<D>: Dim<D>,
{
    let b = sdf.bounds();
    if !b.is_valid() || b.extents().max() >= MAX_INTEGRABLE_EXTENT || b.volume() <= 0.0 {
        return Err(IntegrationError::Unbounded);
    }
    // About two million cells at most: 1024² in 2D, 128³ in 3D.
    let max_n: usize = if D == 2 { 1024 } else { 128 };
    let mut n = 16;
    let mut last = voxel_sum(sdf, &b, n);
    while n < max_n {
        n *= 2;
        let next = voxel_sum(sdf, &b, n);
        let converged =
            (next.mass - last.mass).abs() <= MASS_TOLERANCE * next.mass.max(Real::MIN_POSITIVE);
        last = next;
        if converged {
            break;
        }
    }
    if last.mass <= 0.0 {
        return Err(IntegrationError::Empty);
    }
    Ok(last)
}

/// One voxel sum over `b` with `n` cells per axis: mass, first and second moments,
/// reduced to a centroid and a second moment about it.
fn voxel_sum<const D: usize>(
    sdf: &dyn Sdf<D>,
    b: &fathom_math::Aabb<D>,
    n: usize,
) -> MassProperties<D>
where
    Space<D>: Dim<D>,
{
    let cell = b.extents() / n as Real;
    let cell_volume: Real = cell.iter().product();
    let ramp = cell.max() * sdf.lipschitz().max(1.0);
    let mut mass = 0.0f64;
    let mut first = nalgebra::SVector::<f64, D>::zeros();
    let mut second = SMatrix::<f64, D, D>::zeros();
    let total = n.pow(D as u32);
    for flat in 0..total {
        let mut p = Vector::<D>::zeros();
        let mut rest = flat;
        for i in 0..D {
            p[i] = b.min[i] + (rest % n) as Real * cell[i] + 0.5 * cell[i];
            rest /= n;
        }
        // Fraction of the cell inside: exact for a plane through an axis-aligned cell.
        let inside = (0.5 - sdf.distance(&p) / ramp).clamp(0.0, 1.0);
        if inside > 0.0 {
            let w = f64::from(inside * cell_volume);
            let q = p.cast::<f64>();
            mass += w;
            first += q * w;
            second += q * q.transpose() * w;
        }
    }
    if mass <= 0.0 {
        return MassProperties::zero();
    }
    let center = first / mass;
    let about_center = second - center * center.transpose() * mass;
    // A cell's own spread (cell² / 12 per axis) is part of its second moment.
    let own = SMatrix::<f64, D, D>::from_diagonal(&cell.cast::<f64>().map(|c| mass * c * c / 12.0));
    MassProperties {
        mass: mass as Real,
        center: center.cast::<Real>(),
        second_moment: (about_center + own).cast::<Real>(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fathom_math::{Vector2, Vector3};
    use fathom_sdf::{Ball, Capsule, Cuboid};

    fn rel(a: Real, b: Real) -> Real {
        (a - b).abs() / b.abs().max(1e-9)
    }

    #[test]
    fn closed_forms_match_textbook_values() {
        // Solid sphere: I = 2/5 m r²; disc: I = 1/2 m r².
        let b3 = ball::<3>(2.0);
        let i3 = b3.inertia();
        assert!(rel(b3.mass, 4.0 / 3.0 * PI * 8.0) < 1e-6);
        assert!(rel(i3[(0, 0)], 0.4 * b3.mass * 4.0) < 1e-6);
        let b2 = ball::<2>(2.0);
        assert!(rel(b2.inertia(), 0.5 * b2.mass * 4.0) < 1e-6);
        // Box: I_z = m (w² + h²) / 12.
        let c2 = cuboid::<2>(&Vector2::new(1.0, 0.5));
        assert!(rel(c2.inertia(), c2.mass * (4.0 + 1.0) / 12.0) < 1e-6);
    }

    /// Closed form against the voxel integral of the same primitive, in any dimension.
    fn check_against_integral<const D: usize>(closed: MassProperties<D>, sdf: &dyn Sdf<D>)
    where
        Space<D>: Dim<D>,
    {
        let num = integrate(sdf).unwrap();
        // 2%: the refinement stops when the mass changes by under 0.5% per doubling,
        // and the remaining error (curved surface in cells) shrinks like the cell size.
        assert!(
            rel(num.mass, closed.mass) < 0.02,
            "{} vs {}",
            num.mass,
            closed.mass
        );
        assert!(num.center.norm() < 0.01 * closed.mass.powf(1.0 / D as Real));
        for i in 0..D {
            let (a, b) = (num.second_moment[(i, i)], closed.second_moment[(i, i)]);
            assert!(rel(a, b) < 0.03, "axis {i}: {a} vs {b}");
        }
    }

    #[test]
    fn integration_matches_closed_forms() {
        check_against_integral::<2>(ball::<2>(0.7), &Ball::new(0.7).unwrap());
        check_against_integral::<3>(ball::<3>(0.7), &Ball::new(0.7).unwrap());
        check_against_integral::<2>(capsule::<2>(0.6, 0.3), &Capsule::new(0.6, 0.3).unwrap());
        check_against_integral::<3>(capsule::<3>(0.6, 0.3), &Capsule::new(0.6, 0.3).unwrap());
        let h3 = Vector3::new(0.5, 0.2, 0.9);
        check_against_integral::<3>(cuboid::<3>(&h3), &Cuboid::new(h3).unwrap());
    }

    #[test]
    fn moving_and_adding_follow_the_parallel_axis_rule() {
        // Two unit balls at ±1 on x: I_y about the middle = 2 (I_ball + m · 1²).
        let b = ball::<3>(0.5);
        let left = b.transformed(&Pose::<3>::translation(-1.0, 0.0, 0.0));
        let right = b.transformed(&Pose::<3>::translation(1.0, 0.0, 0.0));
        let sum = left.add(&right);
        assert!(sum.center.norm() < 1e-6);
        let want = 2.0 * (b.inertia()[(1, 1)] + b.mass);
        assert!(rel(sum.inertia()[(1, 1)], want) < 1e-5);
        // Rotating a box by 90° about z swaps its x and y moments.
        let c = cuboid::<3>(&Vector3::new(1.0, 0.25, 0.5));
        let rot = Pose::<3>::rotation(Vector3::z() * std::f32::consts::FRAC_PI_2);
        let r = c.transformed(&rot);
        assert!(rel(r.second_moment[(0, 0)], c.second_moment[(1, 1)]) < 1e-5);
    }

    #[test]
    fn unbounded_fields_are_refused() {
        let h = fathom_sdf::HalfSpace::new(Vector3::y(), 0.0).unwrap();
        assert_eq!(integrate::<3>(&h), Err(IntegrationError::Unbounded));
    }
}
