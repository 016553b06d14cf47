//! Four lanes of the dimension's quantities, for code that works on four independent items
//! at once (the solver's wide contact passes).
//!
//! A linear vector of four lanes is `[F4; D]`, one SIMD register per component, and is the
//! same in both dimensions. Angular vectors and rotations differ (a scalar and a unit complex
//! number in 2D, a vector and a unit quaternion in 3D), so [`Lanes`] names their four-lane
//! forms and the few operations on them, as [`crate::Dim`] does for one lane; each dimension
//! names its implementation in `Dim::Lanes`.
//!
//! Every operation does the same arithmetic, in the same order, as nalgebra does on one lane,
//! so a lane gives the bits the scalar code would.

use crate::{Real, Vector};
use nalgebra::{Matrix3, UnitComplex, UnitQuaternion, Vector3};
use std::fmt::Debug;

/// Four `Real`s, one per lane.
pub type F4 = wide::f32x4;

/// A linear vector of dimension `D` in four lanes.
pub type Vector4x<const D: usize> = [F4; D];

/// The four-lane forms of a dimension's angular vector (`Ang`) and rotation (`Rot`).
pub trait Lanes<const D: usize>: 'static {
    /// The angular vector of one lane.
    type Ang;
    /// The rotation of one lane.
    type Rot;
    /// An angular vector in four lanes.
    type WideAng: Copy + Debug + PartialEq + Send + Sync;
    /// A rotation in four lanes.
    type WideRot: Copy + Send + Sync;
    /// The angular inertia of one lane.
    type Inertia;
    /// An angular inertia (or its inverse) in four lanes.
    type WideInertia: Copy + Send + Sync;

    /// Zero in every lane.
    fn ang_zero() -> Self::WideAng;
    /// The lanes' angular vectors.
    fn ang_gather(w: [&Self::Ang; 4]) -> Self::WideAng;
    /// Lane `k`'s angular vector.
    fn ang_lane(w: &Self::WideAng, k: usize) -> Self::Ang;
    /// Sets lane `k` of `w` to `v`.
    fn ang_set_lane(w: &mut Self::WideAng, k: usize, v: &Self::Ang);
    /// `a · b` per lane.
    fn ang_dot(a: &Self::WideAng, b: &Self::WideAng) -> F4;
    /// `a += b * s` per lane.
    fn ang_add_scaled(a: &mut Self::WideAng, b: &Self::WideAng, s: F4);
    /// `a -= b * s` per lane.
    fn ang_sub_scaled(a: &mut Self::WideAng, b: &Self::WideAng, s: F4);
    /// The lanes' rotations.
    fn rot_gather(r: [&Self::Rot; 4]) -> Self::WideRot;
    /// `v` rotated by the inverse of `r` per lane (world to body frame).
    fn inverse_rotate(r: &Self::WideRot, v: &Vector4x<D>) -> Vector4x<D>;
    /// `a × b` per lane (`Dim::cross`).
    fn cross(a: &Vector4x<D>, b: &Vector4x<D>) -> Self::WideAng;
    /// The lanes' inertias.
    fn inertia_gather(i: [&Self::Inertia; 4]) -> Self::WideInertia;
    /// `I w` per lane (`Dim::inertia_apply`).
    fn inertia_apply(i: &Self::WideInertia, w: &Self::WideAng) -> Self::WideAng;
}

/// The four-lane operations of 2D ([`Lanes`]).
#[derive(Clone, Copy, Debug)]
pub struct Lanes2;

/// The four-lane operations of 3D ([`Lanes`]).
#[derive(Clone, Copy, Debug)]
pub struct Lanes3;

/// Lane `k` of each component of `v`, as a vector.
#[inline]
pub fn vector_lane<const D: usize>(v: &Vector4x<D>, k: usize) -> Vector<D> {
    Vector::from_fn(|i, _| v[i].as_array()[k])
}

/// Sets lane `k` of `v` to `x`.
#[inline]
pub fn vector_set_lane<const D: usize>(v: &mut Vector4x<D>, k: usize, x: &Vector<D>) {
    for i in 0..D {
        v[i].as_mut_array()[k] = x[i];
    }
}

/// The lanes' vectors, one register per component.
#[inline]
pub fn vector_gather<const D: usize>(v: [&Vector<D>; 4]) -> Vector4x<D> {
    std::array::from_fn(|i| F4::new([v[0][i], v[1][i], v[2][i], v[3][i]]))
}

/// `a · b` per lane, summed in nalgebra's order.
#[inline]
pub fn vector_dot<const D: usize>(a: &Vector4x<D>, b: &Vector4x<D>) -> F4 {
    let mut sum = a[0] * b[0];
    for i in 1..D {
        sum += a[i] * b[i];
    }
    sum
}

/// `a - b` per lane.
#[inline]
pub fn vector_sub<const D: usize>(a: &Vector4x<D>, b: &Vector4x<D>) -> Vector4x<D> {
    std::array::from_fn(|i| a[i] - b[i])
}

/// `a += b * s` per lane.
#[inline]
pub fn vector_add_scaled<const D: usize>(a: &mut Vector4x<D>, b: &Vector4x<D>, s: F4) {
    for i in 0..D {
        a[i] += b[i] * s;
    }
}

/// `a -= b * s` per lane.
#[inline]
pub fn vector_sub_scaled<const D: usize>(a: &mut Vector4x<D>, b: &Vector4x<D>, s: F4) {
    for i in 0..D {
        a[i] -= b[i] * s;
    }
}

impl Lanes<2> for Lanes2 {
    type Ang = Real;
    type Rot = UnitComplex<Real>;
    type WideAng = F4;
    /// `(re, im)` per lane.
    type WideRot = [F4; 2];
    type Inertia = Real;
    type WideInertia = F4;

    #[inline]
    fn ang_zero() -> F4 {
        F4::ZERO
    }
    #[inline]
    fn ang_gather(w: [&Real; 4]) -> F4 {
        F4::new([*w[0], *w[1], *w[2], *w[3]])
    }
    #[inline]
    fn ang_lane(w: &F4, k: usize) -> Real {
        w.as_array()[k]
    }
    #[inline]
    fn ang_set_lane(w: &mut F4, k: usize, v: &Real) {
        w.as_mut_array()[k] = *v;
    }
    #[inline]
    fn ang_dot(a: &F4, b: &F4) -> F4 {
        *a * *b
    }
    #[inline]
    fn ang_add_scaled(a: &mut F4, b: &F4, s: F4) {
        *a += *b * s;
    }
    #[inline]
    fn ang_sub_scaled(a: &mut F4, b: &F4, s: F4) {
        *a -= *b * s;
    }
    #[inline]
    fn rot_gather(r: [&UnitComplex<Real>; 4]) -> [F4; 2] {
        [F4::new(r.map(|r| r.re)), F4::new(r.map(|r| r.im))]
    }
    #[inline]
    fn inverse_rotate(r: &[F4; 2], v: &[F4; 2]) -> [F4; 2] {
        // The conjugate (re, -im) applied as nalgebra applies a unit complex number.
        let (re, im) = (r[0], -r[1]);
        [re * v[0] - im * v[1], im * v[0] + re * v[1]]
    }
    #[inline]
    fn cross(a: &[F4; 2], b: &[F4; 2]) -> F4 {
        // nalgebra's `perp`.
        a[0] * b[1] - a[1] * b[0]
    }
    #[inline]
    fn inertia_gather(i: [&Real; 4]) -> F4 {
        F4::new(i.map(|x| *x))
    }
    #[inline]
    fn inertia_apply(i: &F4, w: &F4) -> F4 {
        *i * *w
    }
}

impl Lanes<3> for Lanes3 {
    type Ang = Vector3<Real>;
    type Rot = UnitQuaternion<Real>;
    type WideAng = [F4; 3];
    /// `(i, j, k, w)` per lane.
    type WideRot = [F4; 4];
    type Inertia = Matrix3<Real>;
    /// Column-major, as nalgebra stores it.
    type WideInertia = [F4; 9];

    #[inline]
    fn ang_zero() -> [F4; 3] {
        [F4::ZERO; 3]
    }
    #[inline]
    fn ang_gather(w: [&Vector3<Real>; 4]) -> [F4; 3] {
        vector_gather(w)
    }
    #[inline]
    fn ang_lane(w: &[F4; 3], k: usize) -> Vector3<Real> {
        vector_lane(w, k)
    }
    #[inline]
    fn ang_set_lane(w: &mut [F4; 3], k: usize, v: &Vector3<Real>) {
        vector_set_lane(w, k, v);
    }
    #[inline]
    fn ang_dot(a: &[F4; 3], b: &[F4; 3]) -> F4 {
        vector_dot(a, b)
    }
    #[inline]
    fn ang_add_scaled(a: &mut [F4; 3], b: &[F4; 3], s: F4) {
        vector_add_scaled(a, b, s);
    }
    #[inline]
    fn ang_sub_scaled(a: &mut [F4; 3], b: &[F4; 3], s: F4) {
        vector_sub_scaled(a, b, s);
    }
    #[inline]
    fn rot_gather(r: [&UnitQuaternion<Real>; 4]) -> [F4; 4] {
        std::array::from_fn(|c| F4::new(r.map(|q| q.coords[c])))
    }
    #[inline]
    fn inverse_rotate(r: &[F4; 4], v: &[F4; 3]) -> [F4; 3] {
        // The conjugate (-u, w) applied as nalgebra applies a unit quaternion:
        // t = 2 (u × v), v' = t w + u × t + v.
        let u = [-r[0], -r[1], -r[2]];
        let two = F4::splat(2.0);
        let t = cross(&u, v).map(|c| c * two);
        let c = cross(&u, &t);
        std::array::from_fn(|i| t[i] * r[3] + c[i] + v[i])
    }
    #[inline]
    fn cross(a: &[F4; 3], b: &[F4; 3]) -> [F4; 3] {
        cross(a, b)
    }
    #[inline]
    fn inertia_gather(i: [&Matrix3<Real>; 4]) -> [F4; 9] {
        std::array::from_fn(|e| F4::new(i.map(|m| m.as_slice()[e])))
    }
    #[inline]
    fn inertia_apply(i: &[F4; 9], w: &[F4; 3]) -> [F4; 3] {
        // nalgebra's product: column by column, `(c0 w0 + c1 w1) + c2 w2`.
        std::array::from_fn(|r| i[r] * w[0] + i[3 + r] * w[1] + i[6 + r] * w[2])
    }
}

/// `a × b` per lane, as nalgebra computes it.
#[inline]
fn cross(a: &[F4; 3], b: &[F4; 3]) -> [F4; 3] {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use nalgebra::Vector2;

    /// Four different rotations and vectors: each lane must give nalgebra's bits.
    #[test]
    fn lanes_match_nalgebra_bit_for_bit() {
        let axes = [
            Vector3::new(0.3, -1.2, 0.7),
            Vector3::new(-2.0, 0.1, 0.4),
            Vector3::new(0.0, 0.0, 1.0),
            Vector3::new(1.5, 2.5, -0.5),
        ];
        let q = axes.map(UnitQuaternion::from_scaled_axis);
        let v = axes.map(|a| a.yzx() * 1.7 + Vector3::new(0.1, 0.2, 0.3));
        let wide = Lanes3::inverse_rotate(
            &Lanes3::rot_gather(q.each_ref()),
            &vector_gather(v.each_ref()),
        );
        for k in 0..4 {
            assert_eq!(
                vector_lane(&wide, k),
                q[k].inverse_transform_vector(&v[k]),
                "3D lane {k}"
            );
            let dot = vector_dot(
                &vector_gather(v.each_ref()),
                &vector_gather(axes.each_ref()),
            );
            assert_eq!(dot.as_array()[k], v[k].dot(&axes[k]), "dot lane {k}");
        }
        // Inverse inertias (full matrices, as a rotated tensor is) and cross products.
        let m = axes.map(|a| {
            let r = UnitQuaternion::from_scaled_axis(a).to_rotation_matrix();
            r.matrix()
                * Matrix3::from_diagonal(&(a.abs() + Vector3::repeat(0.3)))
                * r.matrix().transpose()
        });
        let w = Lanes3::inertia_apply(
            &Lanes3::inertia_gather(m.each_ref()),
            &vector_gather(v.each_ref()),
        );
        let x = Lanes3::cross(
            &vector_gather(v.each_ref()),
            &vector_gather(axes.each_ref()),
        );
        for k in 0..4 {
            assert_eq!(vector_lane(&w, k), m[k] * v[k], "3D inertia lane {k}");
            assert_eq!(
                vector_lane(&x, k),
                v[k].cross(&axes[k]),
                "3D cross lane {k}"
            );
        }
        let c = [0.3, -2.0, 3.1, 1e-3].map(UnitComplex::new);
        let v2 = axes.map(|a| Vector2::new(a.x, a.y));
        let wide = Lanes2::inverse_rotate(
            &Lanes2::rot_gather(c.each_ref()),
            &vector_gather(v2.each_ref()),
        );
        for k in 0..4 {
            assert_eq!(
                vector_lane(&wide, k),
                c[k].inverse_transform_vector(&v2[k]),
                "2D lane {k}"
            );
        }
        let a2 = axes.map(|a| Vector2::new(a.z, a.x));
        let x = Lanes2::cross(&vector_gather(v2.each_ref()), &vector_gather(a2.each_ref()));
        for k in 0..4 {
            assert_eq!(x.as_array()[k], v2[k].perp(&a2[k]), "2D cross lane {k}");
        }
    }
}
