//! Jacobian rows and small blocks of rows: the building blocks every joint
//! is made of, written once for 2D and 3D.
//!
//! A row constrains one scalar velocity
//! `Cdot = lin · (v_b - v_a) + ang_b · w_b - ang_a · w_a`. A point constraint
//! is `D` linear rows, an angular lock `ANGULAR_DOF` angular rows, a limit or
//! motor one row. Rows that act together (the components of a point
//! constraint) are solved as a block with their coupled effective mass, which
//! converges in one pass where row-by-row Gauss–Seidel would need many; this
//! matters for long chains.
// Rows and blocks are small fixed arrays indexed in step with each other: index loops
// read clearer than zipped iterators here.
#![allow(clippy::needless_range_loop)]

use crate::body::SolverBody;
use fathom_math::{AngVector, Dim, Real, Space, Vector};

/// Most rows in one block: a 3D weld's 3 angular and 3 linear rows.
pub(crate) const MAX_ROWS: usize = 6;

/// One velocity constraint row between bodies A and B (world frame).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Row<const D: usize>
where
    Space<D>: Dim<D>,
{
    /// Linear part, applied to B's velocity (and negated to A's).
    pub lin: Vector<D>,
    /// Angular part on A's angular velocity (subtracted).
    pub ang_a: AngVector<D>,
    /// Angular part on B's angular velocity.
    pub ang_b: AngVector<D>,
}

impl<const D: usize> Row<D>
where
    Space<D>: Dim<D>,
{
    /// The row of the relative velocity of B's point at `r_b` and A's point at `r_a`
    /// along `dir` (offsets from the centres of mass, world frame).
    pub fn linear(dir: Vector<D>, r_a: &Vector<D>, r_b: &Vector<D>) -> Self {
        Self {
            ang_a: Space::<D>::cross(r_a, &dir),
            ang_b: Space::<D>::cross(r_b, &dir),
            lin: dir,
        }
    }

    /// The row of the relative angular velocity `w_b - w_a` about `axis`.
    pub fn angular(axis: AngVector<D>) -> Self {
        Self {
            lin: Vector::zeros(),
            ang_a: axis,
            ang_b: axis,
        }
    }

    /// The same row with the opposite sign.
    pub fn negated(&self) -> Self {
        Self {
            lin: -self.lin,
            ang_a: -self.ang_a,
            ang_b: -self.ang_b,
        }
    }

    /// The constrained velocity `Cdot` of the bodies as they move now.
    pub fn velocity(&self, a: &SolverBody<D>, b: &SolverBody<D>) -> Real {
        self.lin.dot(&(b.linear_velocity - a.linear_velocity))
            + Space::<D>::ang_dot(&self.ang_b, &b.angular_velocity)
            - Space::<D>::ang_dot(&self.ang_a, &a.angular_velocity)
    }

    /// `J M⁻¹ Jᵀ` between this row and `other`.
    pub fn coupling(&self, other: &Self, a: &SolverBody<D>, b: &SolverBody<D>) -> Real {
        (a.inv_mass + b.inv_mass) * self.lin.dot(&other.lin)
            + Space::<D>::ang_dot(
                &self.ang_a,
                &Space::<D>::inertia_apply(&a.inv_inertia, &other.ang_a),
            )
            + Space::<D>::ang_dot(
                &self.ang_b,
                &Space::<D>::inertia_apply(&b.inv_inertia, &other.ang_b),
            )
    }

    /// Applies the impulse `lambda` along the row: `+` to B, `-` to A.
    pub fn apply(&self, bodies: &mut [SolverBody<D>], ia: usize, ib: usize, lambda: Real) {
        let a = &mut bodies[ia];
        a.linear_velocity -= self.lin * (a.inv_mass * lambda);
        a.angular_velocity -= Space::<D>::inertia_apply(&a.inv_inertia, &self.ang_a) * lambda;
        let b = &mut bodies[ib];
        b.linear_velocity += self.lin * (b.inv_mass * lambda);
        b.angular_velocity += Space::<D>::inertia_apply(&b.inv_inertia, &self.ang_b) * lambda;
    }
}

/// Up to [`MAX_ROWS`] rows solved together.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Block<const D: usize>
where
    Space<D>: Dim<D>,
{
    pub rows: [Row<D>; MAX_ROWS],
    pub n: usize,
    /// Which rows are pure angular rows (their impulses accumulate as a torque impulse).
    pub angular: [bool; MAX_ROWS],
}

impl<const D: usize> Block<D>
where
    Space<D>: Dim<D>,
{
    /// An empty block.
    pub fn empty() -> Self {
        Self {
            rows: [Row::angular(Space::<D>::ang_zero()); MAX_ROWS],
            n: 0,
            angular: [false; MAX_ROWS],
        }
    }

    /// Appends a row (ignored beyond [`MAX_ROWS`]); `angular` marks a pure angular row.
    pub fn push(&mut self, row: Row<D>, angular: bool) {
        if self.n < MAX_ROWS {
            self.rows[self.n] = row;
            self.angular[self.n] = angular;
            self.n += 1;
        }
    }

    /// `J_i M⁻¹ otherᵀ` for every row `i`.
    pub fn couplings(
        &self,
        other: &Row<D>,
        a: &SolverBody<D>,
        b: &SolverBody<D>,
    ) -> [Real; MAX_ROWS] {
        let mut out = [0.0; MAX_ROWS];
        for i in 0..self.n {
            out[i] = self.rows[i].coupling(other, a, b);
        }
        out
    }

    /// The constrained velocities of every row.
    pub fn velocities(&self, a: &SolverBody<D>, b: &SolverBody<D>) -> [Real; MAX_ROWS] {
        let mut out = [0.0; MAX_ROWS];
        for (o, r) in out.iter_mut().zip(&self.rows[..self.n]) {
            *o = r.velocity(a, b);
        }
        out
    }

    /// Solves `K x = rhs` for the block's coupled effective mass `K = J M⁻¹ Jᵀ`.
    /// Directions along which nothing can move get zero.
    pub fn solve_mass(
        &self,
        a: &SolverBody<D>,
        b: &SolverBody<D>,
        rhs: [Real; MAX_ROWS],
    ) -> [Real; MAX_ROWS] {
        let mut k = [[0.0; MAX_ROWS]; MAX_ROWS];
        for i in 0..self.n {
            for j in 0..self.n {
                k[i][j] = self.rows[i].coupling(&self.rows[j], a, b);
            }
        }
        solve_dense(k, rhs, self.n)
    }

    /// Applies `lambda[i]` along row `i`.
    pub fn apply(
        &self,
        bodies: &mut [SolverBody<D>],
        ia: usize,
        ib: usize,
        lambda: &[Real; MAX_ROWS],
    ) {
        for (r, l) in self.rows[..self.n].iter().zip(lambda) {
            r.apply(bodies, ia, ib, *l);
        }
    }
}

/// Gaussian elimination with partial pivoting on the leading `n x n` system.
/// A pivot below a millionth of the largest diagonal entry marks a direction in
/// which the bodies cannot move (infinite mass): its unknown is set to zero.
pub(crate) fn solve_dense(
    mut k: [[Real; MAX_ROWS]; MAX_ROWS],
    mut rhs: [Real; MAX_ROWS],
    n: usize,
) -> [Real; MAX_ROWS] {
    let scale = (0..n).map(|i| k[i][i].abs()).fold(0.0, Real::max);
    let tiny = (scale * 1e-6).max(Real::MIN_POSITIVE);
    let mut dead = [false; MAX_ROWS];
    for col in 0..n {
        let pivot = (col..n)
            .max_by(|&i, &j| k[i][col].abs().total_cmp(&k[j][col].abs()))
            .unwrap_or(col);
        k.swap(col, pivot);
        rhs.swap(col, pivot);
        if k[col][col].abs() <= tiny {
            dead[col] = true;
            continue;
        }
        for row in col + 1..n {
            let f = k[row][col] / k[col][col];
            for c in col..n {
                k[row][c] -= f * k[col][c];
            }
            rhs[row] -= f * rhs[col];
        }
    }
    let mut x = [0.0; MAX_ROWS];
    for row in (0..n).rev() {
        if dead[row] {
            continue;
        }
        let s: Real = (row + 1..n).map(|c| k[row][c] * x[c]).sum();
        x[row] = (rhs[row] - s) / k[row][row];
    }
    x
}

/// The unit vector along world axis `i`.
pub(crate) fn unit<const D: usize>(i: usize) -> Vector<D> {
    let mut v = Vector::<D>::zeros();
    v[i] = 1.0;
    v
}

/// The world's unit angular axes (`ANGULAR_DOF` of them; the rest of the array
/// repeats the first): `z` in 2D, `x, y, z` in 3D. Built from cross products of
/// the linear axes so it needs nothing beyond [`Dim`].
pub(crate) fn angular_basis<const D: usize>() -> ([AngVector<D>; MAX_ROWS], usize)
where
    Space<D>: Dim<D>,
{
    let e = |i: usize| unit::<D>(i % D);
    let mut out = [Space::<D>::cross(&e(0), &e(1)); MAX_ROWS];
    if D == 3 {
        for (k, o) in out.iter_mut().enumerate().take(3) {
            *o = Space::<D>::cross(&e(k + 1), &e(k + 2));
        }
    }
    (out, Space::<D>::ANGULAR_DOF)
}

/// Unit angular axes orthogonal to the unit axis `a` and to each other
/// (`ANGULAR_DOF - 1` of them: none in 2D, two in 3D), by Gram–Schmidt on the
/// world axes, each time taking the axis with the largest remainder.
pub(crate) fn perpendicular_axes<const D: usize>(
    a: &AngVector<D>,
) -> ([AngVector<D>; MAX_ROWS], usize)
where
    Space<D>: Dim<D>,
{
    let (basis, n) = angular_basis::<D>();
    let mut out = [*a; MAX_ROWS];
    let mut count = 0;
    while count + 1 < n {
        let residual = |b: &AngVector<D>| {
            let mut v = *b - *a * Space::<D>::ang_dot(a, b);
            for t in &out[..count] {
                v = v - *t * Space::<D>::ang_dot(t, &v);
            }
            v
        };
        let best = basis[..n]
            .iter()
            .map(residual)
            .max_by(|x, y| Space::<D>::ang_norm(x).total_cmp(&Space::<D>::ang_norm(y)))
            .expect("at least one axis");
        out[count] = best * (1.0 / Space::<D>::ang_norm(&best));
        count += 1;
    }
    (out, count)
}

#[cfg(test)]
mod tests {
    use super::*;
    use nalgebra::Vector3;

    #[test]
    fn dense_solve_matches_known_solution() {
        let mut k = [[0.0; MAX_ROWS]; MAX_ROWS];
        k[0][..3].copy_from_slice(&[4.0, 1.0, 0.0]);
        k[1][..3].copy_from_slice(&[1.0, 3.0, 1.0]);
        k[2][..3].copy_from_slice(&[0.0, 1.0, 2.0]);
        let x = [1.0, -2.0, 0.5];
        let mut rhs = [0.0; MAX_ROWS];
        rhs[..3].copy_from_slice(&[
            4.0 * x[0] + x[1],
            x[0] + 3.0 * x[1] + x[2],
            x[1] + 2.0 * x[2],
        ]);
        let got = solve_dense(k, rhs, 3);
        for i in 0..3 {
            // f32 elimination on a well-conditioned 3x3: a few ulps.
            assert!((got[i] - x[i]).abs() < 1e-5, "{got:?}");
        }
        // A zero row (a direction nothing can move in) gets no impulse, not NaN.
        let mut k = [[0.0; MAX_ROWS]; MAX_ROWS];
        k[0][0] = 2.0;
        let mut rhs = [0.0; MAX_ROWS];
        rhs[..2].copy_from_slice(&[4.0, 1.0]);
        let got = solve_dense(k, rhs, 2);
        assert_eq!(got[..2], [2.0, 0.0]);
    }

    #[test]
    fn perpendicular_axes_are_orthonormal() {
        for a in [
            Vector3::x(),
            Vector3::new(1.0, 1.0, 1.0).normalize(),
            Vector3::new(0.0, -0.6, 0.8),
        ] {
            let (t, n) = perpendicular_axes::<3>(&a);
            assert_eq!(n, 2);
            for i in 0..2 {
                assert!(t[i].dot(&a).abs() < 1e-6 && (t[i].norm() - 1.0).abs() < 1e-6);
            }
            assert!(t[0].dot(&t[1]).abs() < 1e-6);
        }
        assert_eq!(perpendicular_axes::<2>(&1.0).1, 0);
        assert_eq!(angular_basis::<2>().0[0], 1.0);
    }
}
