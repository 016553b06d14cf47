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
    /// `Real`s in one lane's angular vector.
    const ANG_FLOATS: usize;
    /// `Real`s in one lane's rotation (nalgebra's storage order).
    const ROT_FLOATS: usize;
    /// The angular vector whose floats are the first columns of `c` ([`Columns`]).
    fn ang_from_columns(c: &[F4]) -> Self::WideAng;
    /// `w` into the first columns of `c`.
    fn ang_to_columns(w: &Self::WideAng, c: &mut [F4]);
    /// The rotation whose floats are the first columns of `c`.
    fn rot_from_columns(c: &[F4]) -> Self::WideRot;
}

/// The most `Real`s of a record that [`gather_columns`] reads.
pub const MAX_COLUMNS: usize = 16;

/// Leading `Real`s of four records, one register per float: column `i` holds float `i` of
/// each lane's record.
pub type Columns = [F4; MAX_COLUMNS];

/// Floats `0..n` of the four records at `p` as [`Columns`] (the rest zero): per record,
/// `n / 4` rounded up unaligned loads of four floats, turned into columns by transposes.
/// Much cheaper than building each register from four scalar loads.
///
/// # Safety
///
/// Each `p[k]` must be valid for reads of `n` consecutive, initialised `Real`s, and
/// `4 <= n <= MAX_COLUMNS`.
#[inline(always)]
pub unsafe fn gather_columns(p: [*const Real; 4], n: usize) -> Columns {
    debug_assert!((4..=MAX_COLUMNS).contains(&n));
    let mut c = [F4::ZERO; MAX_COLUMNS];
    let mut at = 0;
    while at < n {
        // The last load ends at float `n`, overlapping the one before if `n` is not a
        // multiple of four: it never reads past the record's floats.
        let o = at.min(n - 4);
        // SAFETY: `o + 4 <= n`, and the caller vouches for `n` floats at each pointer.
        let rows = p.map(|r| F4::new(unsafe { r.add(o).cast::<[Real; 4]>().read_unaligned() }));
        c[o..o + 4].copy_from_slice(&F4::transpose(rows));
        at = o + 4;
    }
    c
}

/// Columns `0..n` of `c` (`n` a multiple of four): lane `k`'s floats written to `p[k]`, for
/// each `k` whose bit is set in `write`.
///
/// # Safety
///
/// Each `p[k]` with bit `k` of `write` set must be valid for writes of `n` consecutive `Real`s that no
/// other thread reads or writes meanwhile.
#[inline(always)]
pub unsafe fn scatter_columns(p: [*mut Real; 4], write: u32, c: &Columns, n: usize) {
    debug_assert!(n % 4 == 0 && n <= MAX_COLUMNS);
    for o in (0..n).step_by(4) {
        let rows = F4::transpose([c[o], c[o + 1], c[o + 2], c[o + 3]]);
        for k in 0..4 {
            if write & 1 << k != 0 {
                // SAFETY: the caller vouches for `n` writable floats at `p[k]`.
                unsafe {
                    p[k].add(o)
                        .cast::<[Real; 4]>()
                        .write_unaligned(rows[k].to_array())
                };
            }
        }
    }
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
    const ANG_FLOATS: usize = 1;
    const ROT_FLOATS: usize = 2;
    #[inline]
    fn ang_from_columns(c: &[F4]) -> F4 {
        c[0]
    }
    #[inline]
    fn ang_to_columns(w: &F4, c: &mut [F4]) {
        c[0] = *w;
    }
    #[inline]
    fn rot_from_columns(c: &[F4]) -> [F4; 2] {
        [c[0], c[1]]
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
    const ANG_FLOATS: usize = 3;
    const ROT_FLOATS: usize = 4;
    #[inline]
    fn ang_from_columns(c: &[F4]) -> [F4; 3] {
        [c[0], c[1], c[2]]
    }
    #[inline]
    fn ang_to_columns(w: &[F4; 3], c: &mut [F4]) {
        c[..3].copy_from_slice(w);
    }
    #[inline]
    fn rot_from_columns(c: &[F4]) -> [F4; 4] {
        [c[0], c[1], c[2], c[3]]
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

    /// Records of 7 and 13 floats (a 2D and a 3D body's motion state): columns hold each
    /// record's floats, and a store writes only the chosen records' first quads.
    #[test]
    fn columns_load_and_store_records() {
        for n in [7usize, 13] {
            let mut records: Vec<Vec<Real>> = (0..4)
                .map(|k| (0..n + 3).map(|i| (100 * k + i) as Real).collect())
                .collect();
            let p = std::array::from_fn(|k| records[k].as_ptr());
            // SAFETY: every record has at least `n` floats.
            let mut c = unsafe { gather_columns(p, n) };
            for (i, column) in c[..n].iter().enumerate() {
                assert_eq!(
                    column.to_array(),
                    std::array::from_fn(|k| (100 * k + i) as Real)
                );
            }
            assert!(
                c[n..].iter().all(|x| *x == F4::ZERO),
                "columns past n stay zero"
            );
            c[0] = F4::splat(-1.0);
            let write = 0b0101;
            let p = std::array::from_fn(|k| records[k].as_mut_ptr());
            // SAFETY: every record has at least 4 floats, and nothing else reads them.
            unsafe { scatter_columns(p, write, &c, 4) };
            for (k, r) in records.iter().enumerate() {
                let first = if write & 1 << k != 0 {
                    -1.0
                } else {
                    (100 * k) as Real
                };
                assert_eq!(r[0], first, "record {k}");
                assert!(
                    (1..n + 3).all(|i| r[i] == (100 * k + i) as Real),
                    "record {k}"
                );
            }
        }
    }
}
