//! The dimension trait: everything that differs between 2D and 3D.
//!
//! In 2D a rotation is a unit complex number, angular velocity and inertia are
//! scalars, and `a × b` is a scalar; in 3D they are a unit quaternion, a
//! vector, a 3x3 tensor and a vector. [`Dim`] names these types and the few
//! operations the engine needs on them, and is implemented exactly twice.
//! Generic code carries the bound `Space<D>: Dim<D>` and is written once.

use crate::lanes::{Lanes, Lanes2, Lanes3};
use crate::{Real, Vector};
use nalgebra::{
    AbstractRotation, Matrix3, SMatrix, Unit, UnitComplex, UnitQuaternion, Vector2, Vector3,
};
use serde::{de::DeserializeOwned, Serialize};
use std::fmt::Debug;
use std::ops::{Add, AddAssign, Mul, Neg, Sub, SubAssign};

/// Marker type for the dimension `D`; [`Dim`] is implemented for `Space<2>` and `Space<3>`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Space<const D: usize>;

/// Angular quantities (velocity, torque, impulse) in dimension `D`: a scalar in 2D, a vector in 3D.
pub type AngVector<const D: usize> = <Space<D> as Dim<D>>::AngVector;
/// Rotation in dimension `D`: `UnitComplex` in 2D, `UnitQuaternion` in 3D.
pub type Rotation<const D: usize> = <Space<D> as Dim<D>>::Rotation;
/// Angular inertia (or its inverse) in dimension `D`: a scalar in 2D, a symmetric 3x3 tensor in 3D.
pub type AngularInertia<const D: usize> = <Space<D> as Dim<D>>::AngularInertia;
/// A rigid transform in dimension `D`: rotate, then translate. Maps local coordinates to the parent (world) frame.
pub type Pose<const D: usize> = nalgebra::Isometry<Real, Rotation<D>, D>;

/// What differs between 2D and 3D. Implemented for [`Space<2>`] and [`Space<3>`] only.
pub trait Dim<const D: usize>: 'static + Send + Sync {
    /// Rotation type.
    type Rotation: AbstractRotation<Real, D>
        + Copy
        + Debug
        + PartialEq
        + Send
        + Sync
        + Serialize
        + DeserializeOwned
        + Mul<Vector<D>, Output = Vector<D>>;
    /// Angular velocity / torque / angular impulse.
    type AngVector: Copy
        + Debug
        + PartialEq
        + Send
        + Sync
        + Serialize
        + DeserializeOwned
        + Add<Output = Self::AngVector>
        + Sub<Output = Self::AngVector>
        + Neg<Output = Self::AngVector>
        + Mul<Real, Output = Self::AngVector>
        + AddAssign
        + SubAssign;
    /// Angular inertia tensor (or its inverse), in whatever frame the caller says.
    type AngularInertia: Copy + Debug + PartialEq + Send + Sync + Serialize + DeserializeOwned;
    /// The angular vector and rotation in four lanes (`lanes.rs`).
    type Lanes: Lanes<
        D,
        Ang = Self::AngVector,
        Rot = Self::Rotation,
        Inertia = Self::AngularInertia,
    >;

    /// Number of rotational degrees of freedom: 1 in 2D, 3 in 3D.
    const ANGULAR_DOF: usize;

    /// The rotation as a `D x D` matrix.
    fn rotation_matrix(r: &Self::Rotation) -> SMatrix<Real, D, D>;
    /// The zero angular vector.
    fn ang_zero() -> Self::AngVector;
    /// Dot product of angular vectors.
    fn ang_dot(a: &Self::AngVector, b: &Self::AngVector) -> Real;
    /// Length of an angular vector (|w| in 3D, |w| of the scalar in 2D).
    fn ang_norm(a: &Self::AngVector) -> Real {
        Self::ang_dot(a, a).sqrt()
    }
    /// True when every component is finite.
    fn ang_is_finite(a: &Self::AngVector) -> bool;
    /// True when every coordinate of the rotation (complex number or quaternion) is finite.
    fn rotation_is_finite(r: &Self::Rotation) -> bool;
    /// The cross product `a × b` (a scalar in 2D: the z of the 3D product).
    fn cross(a: &Vector<D>, b: &Vector<D>) -> Self::AngVector;
    /// `w × r`: the velocity of a point at offset `r` on a body spinning at `w`.
    fn ang_cross(w: &Self::AngVector, r: &Vector<D>) -> Vector<D>;
    /// The rotation reached by spinning at `w` for `dt` from `r` (renormalised).
    fn integrate_rotation(r: &Self::Rotation, w: &Self::AngVector, dt: Real) -> Self::Rotation;
    /// The rotation of the scaled axis (angle in radians) `v` (exponential map).
    fn rotation_from_scaled_axis(v: &Self::AngVector) -> Self::Rotation;
    /// The scaled axis of `r` (logarithm map), angle in `[-pi, pi]`.
    fn scaled_axis(r: &Self::Rotation) -> Self::AngVector;
    /// An upper bound on the angle of `r`, radians, equal to it up to a relative `θ²/3`
    /// for small turns and with no inverse trigonometry (`tan(θ/2)` times 2 in 3D, `tan θ`
    /// in 2D, π there past a quarter turn).
    fn angle_bound(r: &Self::Rotation) -> Real;
    /// Rotates an angular vector (identity in 2D).
    fn rotate_ang(r: &Self::Rotation, w: &Self::AngVector) -> Self::AngVector;
    /// The zero inertia (what a static or rotation-locked body has as inverse).
    fn inertia_zero() -> Self::AngularInertia;
    /// The angular inertia about the origin of a body whose second moment of
    /// mass is `c = ∫ ρ x xᵀ dV` (kg m²): `tr(c) I - c` in 3D, `tr(c)` in 2D.
    fn inertia_from_second_moment(c: &SMatrix<Real, D, D>) -> Self::AngularInertia;
    /// The second moment of a point mass `m` at `r`, for the parallel-axis shift
    /// (`m (|r|² I - r rᵀ)` in 3D, `m |r|²` in 2D).
    fn point_mass_inertia(m: Real, r: &Vector<D>) -> Self::AngularInertia;
    /// Sum of two inertias expressed in the same frame and about the same point.
    fn inertia_add(a: &Self::AngularInertia, b: &Self::AngularInertia) -> Self::AngularInertia;
    /// `a - b`.
    fn inertia_sub(a: &Self::AngularInertia, b: &Self::AngularInertia) -> Self::AngularInertia;
    /// The inertia scaled by `s`.
    fn inertia_scale(a: &Self::AngularInertia, s: Real) -> Self::AngularInertia;
    /// The inverse, with zero where the inertia is zero (locked or degenerate axes).
    fn inertia_inverse(a: &Self::AngularInertia) -> Self::AngularInertia;
    /// The tensor rotated from a local frame into the frame of `r`: `R I Rᵀ`.
    fn inertia_rotated(a: &Self::AngularInertia, r: &Self::Rotation) -> Self::AngularInertia;
    /// `I w`.
    fn inertia_apply(a: &Self::AngularInertia, w: &Self::AngVector) -> Self::AngVector;
    /// True when every component is finite.
    fn inertia_is_finite(a: &Self::AngularInertia) -> bool;
    /// The angular vector with 1 on each axis of `xyz` that is free and 0 on each locked one
    /// (2D reads only `z`, the plane's normal).
    fn ang_mask(free_xyz: [bool; 3]) -> Self::AngVector;
    /// `a` with the components where `mask` is 0 set to 0.
    fn ang_masked(a: &Self::AngVector, mask: &Self::AngVector) -> Self::AngVector;
    /// `P I P` with `P = diag(mask)`: the inverse inertia of a body whose rotation about the
    /// masked-out world axes is locked (a torque about them turns nothing).
    fn inertia_masked(a: &Self::AngularInertia, mask: &Self::AngVector) -> Self::AngularInertia;
    /// The body-frame inertia [`Dim::gyroscopic`] needs, from the body-frame inverse inertia
    /// (computed once a step, not every substep); `None` where the gyroscopic change is zero:
    /// in 2D (ω × Iω = 0 for a scalar spin), for an isotropic body and for one with a locked
    /// (zero) inverse-inertia axis.
    fn gyroscopic_inertia(inv_inertia_local: &Self::AngularInertia)
        -> Option<Self::AngularInertia>;
    /// The torque-free (gyroscopic) change of a spinning body's world angular velocity `w`
    /// over a substep of `h` seconds: the `x` for which the world angular momentum is the same
    /// after the body turns from `r` at the midpoint spin `(w + x) / 2` (by
    /// [`Dim::integrate_rotation`], as a free body drifts), solved implicitly (Newton), so the
    /// angular momentum is kept to round-off and fast spins stay stable. Between them the world
    /// inertia turns with the body and ω follows: the tennis-racket flip. `inertia_local`
    /// is the body-frame inertia of [`Dim::gyroscopic_inertia`].
    fn gyroscopic(
        r: &Self::Rotation,
        inertia_local: &Self::AngularInertia,
        w: &Self::AngVector,
        h: Real,
    ) -> Self::AngVector;
    /// Unit tangents orthogonal to the unit normal `n` and to each other:
    /// `D - 1` of them (the rest of the array repeats the first and is unused).
    fn tangents(n: &Vector<D>) -> [Vector<D>; 2];
}

/// Newton steps of the gyroscopic update at most. From the start `x = w` the error falls
/// quadratically: two steps reach f32 round-off below a tenth of a radian per substep, and
/// near the solver's cap of a quarter turn three left |L| 0.26% off where six leave 0.015%.
const GYROSCOPIC_NEWTON_STEPS: usize = 6;

fn inverse_or_zero(x: Real) -> Real {
    if x != 0.0 && x.is_finite() {
        1.0 / x
    } else {
        0.0
    }
}

impl Dim<2> for Space<2> {
    type Rotation = UnitComplex<Real>;
    type AngVector = Real;
    type AngularInertia = Real;
    type Lanes = Lanes2;
    const ANGULAR_DOF: usize = 1;

    #[inline]
    fn rotation_matrix(r: &Self::Rotation) -> SMatrix<Real, 2, 2> {
        *r.to_rotation_matrix().matrix()
    }
    #[inline]
    fn ang_zero() -> Real {
        0.0
    }
    #[inline]
    fn ang_dot(a: &Real, b: &Real) -> Real {
        a * b
    }
    #[inline]
    fn ang_is_finite(a: &Real) -> bool {
        a.is_finite()
    }
    #[inline]
    fn rotation_is_finite(r: &Self::Rotation) -> bool {
        r.re.is_finite() & r.im.is_finite()
    }
    #[inline]
    fn cross(a: &Vector2<Real>, b: &Vector2<Real>) -> Real {
        a.perp(b)
    }
    #[inline]
    fn ang_cross(w: &Real, r: &Vector2<Real>) -> Vector2<Real> {
        Vector2::new(-w * r.y, w * r.x)
    }
    #[inline]
    fn integrate_rotation(r: &Self::Rotation, w: &Real, dt: Real) -> Self::Rotation {
        UnitComplex::new(w * dt) * r
    }
    #[inline]
    fn rotation_from_scaled_axis(v: &Real) -> Self::Rotation {
        UnitComplex::new(*v)
    }
    #[inline]
    fn scaled_axis(r: &Self::Rotation) -> Real {
        r.angle()
    }
    #[inline]
    fn angle_bound(r: &Self::Rotation) -> Real {
        // θ = atan(|im| / re) ≤ |im| / re below a quarter turn.
        if r.re > 0.0 {
            r.im.abs() / r.re
        } else {
            std::f32::consts::PI
        }
    }
    #[inline]
    fn rotate_ang(_r: &Self::Rotation, w: &Real) -> Real {
        *w
    }
    #[inline]
    fn inertia_zero() -> Real {
        0.0
    }
    #[inline]
    fn inertia_from_second_moment(c: &SMatrix<Real, 2, 2>) -> Real {
        c.trace()
    }
    #[inline]
    fn point_mass_inertia(m: Real, r: &Vector2<Real>) -> Real {
        m * r.norm_squared()
    }
    #[inline]
    fn inertia_add(a: &Real, b: &Real) -> Real {
        a + b
    }
    #[inline]
    fn inertia_sub(a: &Real, b: &Real) -> Real {
        a - b
    }
    #[inline]
    fn inertia_scale(a: &Real, s: Real) -> Real {
        a * s
    }
    #[inline]
    fn inertia_inverse(a: &Real) -> Real {
        inverse_or_zero(*a)
    }
    #[inline]
    fn inertia_rotated(a: &Real, _r: &Self::Rotation) -> Real {
        *a
    }
    #[inline]
    fn inertia_apply(a: &Real, w: &Real) -> Real {
        a * w
    }
    #[inline]
    fn inertia_is_finite(a: &Real) -> bool {
        a.is_finite()
    }
    #[inline]
    fn ang_mask(free_xyz: [bool; 3]) -> Real {
        Real::from(u8::from(free_xyz[2]))
    }
    #[inline]
    fn ang_masked(a: &Real, mask: &Real) -> Real {
        a * mask
    }
    #[inline]
    fn inertia_masked(a: &Real, mask: &Real) -> Real {
        a * mask
    }
    #[inline]
    fn gyroscopic_inertia(_: &Real) -> Option<Real> {
        None
    }
    #[inline]
    fn gyroscopic(_: &Self::Rotation, _: &Real, w: &Real, _: Real) -> Real {
        *w
    }
    #[inline]
    fn tangents(n: &Vector2<Real>) -> [Vector2<Real>; 2] {
        let t = Vector2::new(-n.y, n.x);
        [t, t]
    }
}

impl Dim<3> for Space<3> {
    type Rotation = UnitQuaternion<Real>;
    type AngVector = Vector3<Real>;
    type AngularInertia = Matrix3<Real>;
    type Lanes = Lanes3;
    const ANGULAR_DOF: usize = 3;

    #[inline]
    fn rotation_matrix(r: &Self::Rotation) -> Matrix3<Real> {
        *r.to_rotation_matrix().matrix()
    }
    #[inline]
    fn ang_zero() -> Vector3<Real> {
        Vector3::zeros()
    }
    #[inline]
    fn ang_dot(a: &Vector3<Real>, b: &Vector3<Real>) -> Real {
        a.dot(b)
    }
    #[inline]
    fn ang_is_finite(a: &Vector3<Real>) -> bool {
        crate::all_finite(a.as_slice())
    }
    #[inline]
    fn rotation_is_finite(r: &Self::Rotation) -> bool {
        crate::all_finite(r.coords.as_slice())
    }
    #[inline]
    fn cross(a: &Vector3<Real>, b: &Vector3<Real>) -> Vector3<Real> {
        a.cross(b)
    }
    #[inline]
    fn ang_cross(w: &Vector3<Real>, r: &Vector3<Real>) -> Vector3<Real> {
        w.cross(r)
    }
    #[inline]
    fn integrate_rotation(r: &Self::Rotation, w: &Vector3<Real>, dt: Real) -> Self::Rotation {
        // q' = q + dt/2 * (0, w) q, renormalised: the usual first-order update.
        let q = r.quaternion();
        let dq = nalgebra::Quaternion::from_parts(0.0, *w) * *q * (0.5 * dt);
        UnitQuaternion::new_normalize(q + dq)
    }
    #[inline]
    fn rotation_from_scaled_axis(v: &Vector3<Real>) -> Self::Rotation {
        UnitQuaternion::from_scaled_axis(*v)
    }
    #[inline]
    fn scaled_axis(r: &Self::Rotation) -> Vector3<Real> {
        r.scaled_axis()
    }
    #[inline]
    fn angle_bound(r: &Self::Rotation) -> Real {
        // θ = 2 atan(|v| / |w|) ≤ 2 |v| / |w| (infinite at a half turn).
        2.0 * r.imag().norm() / r.w.abs()
    }
    #[inline]
    fn rotate_ang(r: &Self::Rotation, w: &Vector3<Real>) -> Vector3<Real> {
        r * w
    }
    #[inline]
    fn inertia_zero() -> Matrix3<Real> {
        Matrix3::zeros()
    }
    #[inline]
    fn inertia_from_second_moment(c: &Matrix3<Real>) -> Matrix3<Real> {
        Matrix3::identity() * c.trace() - c
    }
    #[inline]
    fn point_mass_inertia(m: Real, r: &Vector3<Real>) -> Matrix3<Real> {
        (Matrix3::identity() * r.norm_squared() - r * r.transpose()) * m
    }
    #[inline]
    fn inertia_add(a: &Matrix3<Real>, b: &Matrix3<Real>) -> Matrix3<Real> {
        a + b
    }
    #[inline]
    fn inertia_sub(a: &Matrix3<Real>, b: &Matrix3<Real>) -> Matrix3<Real> {
        a - b
    }
    #[inline]
    fn inertia_scale(a: &Matrix3<Real>, s: Real) -> Matrix3<Real> {
        a * s
    }
    #[inline]
    fn inertia_inverse(a: &Matrix3<Real>) -> Matrix3<Real> {
        // Invert on the principal axes so that locked (zero) axes stay zero.
        // Eigenvalues below a millionth of the largest are round-off of a zero.
        let eig = a.symmetric_eigen();
        let floor = eig.eigenvalues.amax() * 1e-6;
        let inv = eig
            .eigenvalues
            .map(|x| if x > floor { inverse_or_zero(x) } else { 0.0 });
        eig.eigenvectors * Matrix3::from_diagonal(&inv) * eig.eigenvectors.transpose()
    }
    #[inline]
    fn inertia_rotated(a: &Matrix3<Real>, r: &Self::Rotation) -> Matrix3<Real> {
        let m = r.to_rotation_matrix();
        m.matrix() * a * m.matrix().transpose()
    }
    #[inline]
    fn inertia_apply(a: &Matrix3<Real>, w: &Vector3<Real>) -> Vector3<Real> {
        a * w
    }
    #[inline]
    fn inertia_is_finite(a: &Matrix3<Real>) -> bool {
        crate::all_finite(a.as_slice())
    }
    #[inline]
    fn ang_mask(free_xyz: [bool; 3]) -> Vector3<Real> {
        Vector3::from(free_xyz.map(|f| Real::from(u8::from(f))))
    }
    #[inline]
    fn ang_masked(a: &Vector3<Real>, mask: &Vector3<Real>) -> Vector3<Real> {
        a.component_mul(mask)
    }
    #[inline]
    fn inertia_masked(a: &Matrix3<Real>, mask: &Vector3<Real>) -> Matrix3<Real> {
        Matrix3::from_diagonal(mask) * a * Matrix3::from_diagonal(mask)
    }
    #[inline]
    fn gyroscopic_inertia(inv: &Matrix3<Real>) -> Option<Matrix3<Real>> {
        // Isotropic (ω × Iω = 0 for any ω): no change, and no inverse to take.
        if *inv == Matrix3::from_diagonal_element(inv.m11) {
            return None;
        }
        inv.try_inverse()
    }
    #[inline]
    fn gyroscopic(
        r: &Self::Rotation,
        inertia: &Matrix3<Real>,
        w: &Vector3<Real>,
        h: Real,
    ) -> Vector3<Real> {
        if *w == Vector3::zeros() {
            return *w;
        }
        // Worked in the body frame of each rotation, where the inertia is constant:
        // I(R) x = R I Rᵀ x, so no world inertia matrix is ever formed.
        let m = r.to_rotation_matrix().into_inner();
        let lb = inertia * m.tr_mul(w);
        let l = m * lb;
        let l_norm2 = lb.norm_squared();
        // A spin along a principal axis (or an isotropic body) has no gyroscopic change.
        if w.cross(&l).norm_squared() <= 1e-12 * w.norm_squared() * l_norm2 {
            return *w;
        }
        // Newton on F(x) = I(R₂) x - L, where R₂ is the rotation reached at the midpoint spin
        // (w + x) / 2 (the spin a free body drifts at over the substep), in R₂'s frame:
        // Rᵀ F = I xᵦ - Rᵀ L with the Jacobian I + (I [xᵦ]× - [I xᵦ]×) h / 2.
        let mut x = *w;
        for _ in 0..GYROSCOPIC_NEWTON_STEPS {
            let m2 = Self::integrate_rotation(r, &((w + x) * 0.5), h)
                .to_rotation_matrix()
                .into_inner();
            let xb = m2.tr_mul(&x);
            let l2b = inertia * xb;
            let fb = l2b - m2.tr_mul(&l);
            if fb.norm_squared() <= 1e-14 * l_norm2 {
                break;
            }
            let jacobian = inertia + (inertia * xb.cross_matrix() - l2b.cross_matrix()) * (0.5 * h);
            let Some(step) = jacobian.try_inverse() else {
                break;
            };
            let dx = m2 * (step * fb);
            x -= dx;
            // Newton's error after a step is about h |x| times the step's relative size
            // squared: below f32 round-off, the next residual need not be formed.
            if h * x.norm() * dx.norm_squared() <= 1e-7 * x.norm_squared() {
                break;
            }
        }
        x
    }
    #[inline]
    fn tangents(n: &Vector3<Real>) -> [Vector3<Real>; 2] {
        // Duff et al., "Building an orthonormal basis, revisited".
        let sign = 1.0f32.copysign(n.z);
        let a = -1.0 / (sign + n.z);
        let b = n.x * n.y * a;
        let t1 = Vector3::new(1.0 + sign * n.x * n.x * a, sign * b, -sign * n.x);
        let t2 = Vector3::new(b, sign + n.y * n.y * a, -n.y);
        [
            Unit::new_normalize(t1).into_inner(),
            Unit::new_normalize(t2).into_inner(),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check_cross_identity<const D: usize>(a: Vector<D>, b: Vector<D>, w: AngVector<D>)
    where
        Space<D>: Dim<D>,
    {
        // (w × a) · b == w · (a × b): the identity the solver's Jacobians rely on.
        let lhs = Space::<D>::ang_cross(&w, &a).dot(&b);
        let rhs = Space::<D>::ang_dot(&w, &Space::<D>::cross(&a, &b));
        assert!((lhs - rhs).abs() < 1e-4, "{lhs} vs {rhs}");
    }

    #[test]
    fn cross_identity_both_dimensions() {
        check_cross_identity::<2>(Vector2::new(1.0, 2.0), Vector2::new(-0.5, 0.3), 0.7);
        check_cross_identity::<3>(
            Vector3::new(1.0, 2.0, 3.0),
            Vector3::new(-0.5, 0.3, 0.2),
            Vector3::new(0.1, -0.7, 0.4),
        );
    }

    #[test]
    fn gyroscopic_update_keeps_the_world_angular_momentum() {
        // Bodies with unequal moments in turned principal frames, started in many
        // orientations and spinning about many axes, up to the solver's cap of a quarter turn
        // per substep: the update's end spin x must satisfy I(R₂) x = L, R₂ the rotation at the
        // midpoint spin. Within 2e-5 of |L| up to half a radian per substep (f32 round-off of
        // the rotations and products, a few ulps, grown by cancellation), 2e-4 up to the cap.
        let h = 1.0 / 240.0;
        let frame = UnitQuaternion::from_scaled_axis(Vector3::new(0.3, -0.8, 0.5));
        let principal = Matrix3::from_diagonal(&Vector3::new(0.1, 0.37, 0.45));
        let f = frame.to_rotation_matrix().into_inner();
        let inertia = f * principal * f.transpose();
        for k in 0..200 {
            let t = k as Real;
            let r = UnitQuaternion::from_scaled_axis(Vector3::new(
                (t * 0.37).sin() * 3.0,
                (t * 0.71).cos() * 3.0,
                (t * 1.13).sin(),
            ));
            let axis = Vector3::new((t * 0.53).cos(), (t * 0.29).sin(), (t * 0.91).cos() + 0.1);
            let speed = 0.25 * std::f32::consts::PI / h * ((k % 20) as Real / 19.0).powi(2) + 0.1;
            let w = axis.normalize() * speed;
            let m = r.to_rotation_matrix().into_inner();
            let l = m * (inertia * m.tr_mul(&w));
            let x = Space::<3>::gyroscopic(&r, &inertia, &w, h);
            let m2 = Space::<3>::rotation_matrix(&Space::<3>::integrate_rotation(
                &r,
                &((w + x) * 0.5),
                h,
            ));
            let l2 = m2 * (inertia * m2.tr_mul(&x));
            let (off, tolerance) = (
                (l2 - l).norm() / l.norm(),
                if h * speed <= 0.5 { 2e-5 } else { 2e-4 },
            );
            assert!(off < tolerance, "{speed} rad/s: |L| off by {off} of |L|");
        }
    }

    #[test]
    fn angle_bound_is_an_upper_bound_tight_for_small_turns() {
        // Angles from a micro-radian to a full half turn, about several axes and both senses.
        let axes = [
            Vector3::x(),
            -Vector3::y(),
            Vector3::new(1.0, 2.0, -3.0).normalize(),
        ];
        for k in 0..=60 {
            let angle = std::f32::consts::PI * (k as Real / 60.0).powi(3) + 1e-6;
            for axis in axes {
                let r = Space::<3>::rotation_from_scaled_axis(&(axis * angle));
                let (exact, bound) = (r.angle(), Space::<3>::angle_bound(&r));
                // Round-off of the quaternion's parts: a few ulps of the angle.
                assert!(
                    bound >= exact * (1.0 - 1e-6),
                    "3D {angle}: {bound} < {exact}"
                );
                if angle < 0.1 {
                    // θ²/3 relative, the series of 2 tan(θ/2) (and of tan θ below).
                    assert!(bound <= exact * (1.0 + angle * angle / 3.0) + 1e-6);
                }
            }
            for sign in [1.0, -1.0] {
                let r = Space::<2>::rotation_from_scaled_axis(&(sign * angle));
                let (exact, bound) = (r.angle().abs(), Space::<2>::angle_bound(&r));
                assert!(
                    bound >= exact * (1.0 - 1e-6),
                    "2D {angle}: {bound} < {exact}"
                );
                if angle < 0.1 {
                    assert!(bound <= exact * (1.0 + angle * angle / 2.0) + 1e-6);
                }
            }
        }
    }

    #[test]
    fn tangents_are_orthonormal() {
        for n in [
            Vector3::z(),
            -Vector3::z(),
            Vector3::new(1.0, 2.0, -3.0).normalize(),
        ] {
            let [t1, t2] = Space::<3>::tangents(&n);
            assert!(t1.dot(&n).abs() < 1e-6 && t2.dot(&n).abs() < 1e-6 && t1.dot(&t2).abs() < 1e-6);
            assert!((t1.norm() - 1.0).abs() < 1e-6 && (t2.norm() - 1.0).abs() < 1e-6);
        }
        let [t, _] = Space::<2>::tangents(&Vector2::new(0.6, 0.8));
        assert!(t.dot(&Vector2::new(0.6, 0.8)).abs() < 1e-7);
    }

    #[test]
    fn inertia_of_point_masses_matches_second_moment() {
        // A point mass at r: tr(c) I - c with c = m r rᵀ equals m (|r|² I - r rᵀ).
        let r = Vector3::new(1.0, -2.0, 0.5);
        let c = r * r.transpose() * 2.0;
        let i = Space::<3>::inertia_from_second_moment(&c);
        assert!((i - Space::<3>::point_mass_inertia(2.0, &r)).norm() < 1e-5);
        let inv = Space::<3>::inertia_inverse(&i);
        // The inertia of one point mass is singular along r: the inverse keeps that axis at zero.
        assert!((inv * r).norm() < 1e-4);
    }

    #[test]
    fn integrate_rotation_quarter_turn() {
        // Spinning at pi/2 rad/s for 1 s in small steps gives a quarter turn.
        let mut q = UnitQuaternion::identity();
        for _ in 0..1000 {
            q = Space::<3>::integrate_rotation(
                &q,
                &Vector3::new(0.0, 0.0, std::f32::consts::FRAC_PI_2),
                1e-3,
            );
        }
        assert!((q.angle() - std::f32::consts::FRAC_PI_2).abs() < 1e-3);
        let c = Space::<2>::integrate_rotation(&UnitComplex::identity(), &1.0, 0.5);
        assert!((c.angle() - 0.5).abs() < 1e-6);
    }
}
