//! The objectives the engine minimises over the feasible points of a problem.
//!
//! Each gives its value at a point (from the fields' values there) and a lower bound over a
//! cell (from the fields' lower bounds there), which is all branch and bound needs:
//!
//! - [`MaxOf`]: `max(d0, d1)`: below zero means inside both (intersection); its minimiser for
//!   separated shapes is the midpoint of the closest segment, where it is half the distance.
//! - [`Sum`]: `d0 + d1`: the deepest point of an overlap (the penetration objective).
//! - [`First`]: `d0` alone, for one-field problems (a capsule's segment, a mesh's points).
//! - [`Extreme`]: `-(u · p) + λ (d0 + d1)`: the point of a region farthest along `u`. The small
//!   `λ` term breaks the ties of a flat region's rim (its whole thickness is equally far along
//!   `u`) in favour of the contact interface, so the extreme is unique and its search costs a
//!   logarithm of the precision.

use fathom_math::{Aabb, Real, Vector};

/// Something to minimise over the feasible points of a problem.
pub(crate) trait Objective<const K: usize> {
    /// The value at `p`, where the fields are `d`.
    fn value(&self, p: &Vector<K>, d: &[Real; 2]) -> Real;
    /// A lower bound of the value over `cell`, whose centre values are `d` and whose fields'
    /// lower bounds are `lo`.
    fn lower_bound(&self, cell: &Aabb<K>, d: &[Real; 2], lo: &[Real; 2]) -> Real;
}

/// `max(d0, d1)` (with one field: `d0`).
pub(crate) struct MaxOf;

impl<const K: usize> Objective<K> for MaxOf {
    fn value(&self, _p: &Vector<K>, d: &[Real; 2]) -> Real {
        d[0].max(d[1])
    }
    fn lower_bound(&self, _cell: &Aabb<K>, _d: &[Real; 2], lo: &[Real; 2]) -> Real {
        lo[0].max(lo[1])
    }
}

/// `d0 + d1`.
pub(crate) struct Sum;

impl<const K: usize> Objective<K> for Sum {
    fn value(&self, _p: &Vector<K>, d: &[Real; 2]) -> Real {
        d[0] + d[1]
    }
    fn lower_bound(&self, _cell: &Aabb<K>, _d: &[Real; 2], lo: &[Real; 2]) -> Real {
        lo[0] + lo[1]
    }
}

/// `d0`.
pub(crate) struct First;

impl<const K: usize> Objective<K> for First {
    fn value(&self, _p: &Vector<K>, d: &[Real; 2]) -> Real {
        d[0]
    }
    fn lower_bound(&self, _cell: &Aabb<K>, _d: &[Real; 2], lo: &[Real; 2]) -> Real {
        lo[0]
    }
}

/// `-(dir · p) + lambda * (d0 + d1)`: maximise along `dir`, ties to the interface.
/// With one field, only `d0` enters the tie-break.
pub(crate) struct Extreme<const K: usize> {
    pub dir: Vector<K>,
    pub lambda: Real,
    pub fields: usize,
}

impl<const K: usize> Extreme<K> {
    fn field_sum(&self, d: &[Real; 2]) -> Real {
        d[..self.fields].iter().sum()
    }
}

impl<const K: usize> Objective<K> for Extreme<K> {
    fn value(&self, p: &Vector<K>, d: &[Real; 2]) -> Real {
        -self.dir.dot(p) + self.lambda * self.field_sum(d)
    }
    fn lower_bound(&self, cell: &Aabb<K>, _d: &[Real; 2], lo: &[Real; 2]) -> Real {
        // The linear part is bounded exactly by the box's best corner.
        let reach = self.dir.dot(&cell.center()) + self.dir.abs().dot(&cell.half_extents());
        -reach + self.lambda * self.field_sum(lo)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fathom_math::Vector2;

    #[test]
    fn extreme_bound_is_exact_for_the_linear_part() {
        // The farthest corner of [0,2]x[0,1] along (1,1)/sqrt2 is (2,1): reach 3/sqrt2.
        let cell = Aabb::new(Vector2::new(0.0, 0.0), Vector2::new(2.0, 1.0));
        let e = Extreme {
            dir: Vector2::new(1.0, 1.0).normalize(),
            lambda: 0.0,
            fields: 2,
        };
        let lb = e.lower_bound(&cell, &[0.0, 0.0], &[0.0, 0.0]);
        assert!((lb + 3.0 / 2.0f32.sqrt()).abs() < 1e-6);
        assert!((e.value(&Vector2::new(2.0, 1.0), &[0.0, 0.0]) - lb).abs() < 1e-6);
    }

    #[test]
    fn bounds_never_exceed_values() {
        // A lower bound built from lower bounds of the fields is below the value at any point.
        let cell = Aabb::new(Vector2::new(-1.0, -1.0), Vector2::new(1.0, 1.0));
        let (d, lo) = ([0.3, -0.2], [-1.1, -1.6]);
        for p in [Vector2::new(0.5, -0.5), Vector2::new(-1.0, 1.0)] {
            assert!(<Sum as Objective<2>>::lower_bound(&Sum, &cell, &d, &lo) <= Sum.value(&p, &d));
            assert!(
                <MaxOf as Objective<2>>::lower_bound(&MaxOf, &cell, &d, &lo) <= MaxOf.value(&p, &d)
            );
        }
    }
}
