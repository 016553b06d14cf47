//! Axis-aligned bounding boxes in any dimension.
//!
//! The bound-split search of the narrowphase lives on these: a box's centre is
//! where both fields are sampled, its [`Aabb::radius`] (half the diagonal) is how
//! far any point of the box can be from that centre, and [`Aabb::split`] halves
//! it along its longest axis.

use crate::{Dim, Pose, Real, Space, Vector};
use serde::{Deserialize, Serialize};

/// An axis-aligned box `[min, max]` in `D` dimensions.
///
/// A box with `min > max` on some axis is *empty* (see [`Aabb::EMPTY`]); it
/// is the identity of [`Aabb::merge`].
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Aabb<const D: usize> {
    /// Lowest corner.
    pub min: Vector<D>,
    /// Highest corner.
    pub max: Vector<D>,
}

impl<const D: usize> Aabb<D> {
    /// The empty box: merging anything into it gives that thing.
    pub const EMPTY: Self = Self {
        min: Vector::<D>::from_array_storage(nalgebra::ArrayStorage([[Real::INFINITY; D]; 1])),
        max: Vector::<D>::from_array_storage(nalgebra::ArrayStorage([[Real::NEG_INFINITY; D]; 1])),
    };

    /// A box from its corners (not checked; see [`Aabb::is_valid`]).
    pub fn new(min: Vector<D>, max: Vector<D>) -> Self {
        Self { min, max }
    }

    /// A box from its centre and half extents.
    pub fn from_center_half_extents(center: Vector<D>, half: Vector<D>) -> Self {
        Self {
            min: center - half,
            max: center + half,
        }
    }

    /// The smallest box containing every point; [`Aabb::EMPTY`] for none.
    pub fn from_points<'a>(points: impl IntoIterator<Item = &'a Vector<D>>) -> Self {
        points.into_iter().fold(Self::EMPTY, |b, p| b.including(p))
    }

    /// True when the box is finite and `min <= max` on every axis.
    pub fn is_valid(&self) -> bool {
        (0..D).all(|i| {
            self.min[i].is_finite() && self.max[i].is_finite() && self.min[i] <= self.max[i]
        })
    }

    /// True when `min > max` on some axis (the box holds no point).
    /// A NaN bound also makes the box empty, which is why the comparison is negated.
    #[allow(clippy::neg_cmp_op_on_partial_ord)]
    pub fn is_empty(&self) -> bool {
        (0..D).any(|i| !(self.min[i] <= self.max[i]))
    }

    /// This box grown to include `p`.
    pub fn including(&self, p: &Vector<D>) -> Self {
        Self {
            min: self.min.inf(p),
            max: self.max.sup(p),
        }
    }

    /// The smallest box containing both.
    pub fn merge(&self, other: &Self) -> Self {
        Self {
            min: self.min.inf(&other.min),
            max: self.max.sup(&other.max),
        }
    }

    /// The common part of both, or `None` when they do not overlap.
    pub fn intersection(&self, other: &Self) -> Option<Self> {
        let b = Self {
            min: self.min.sup(&other.min),
            max: self.max.inf(&other.max),
        };
        (!b.is_empty()).then_some(b)
    }

    /// True when the boxes overlap (touching counts).
    pub fn intersects(&self, other: &Self) -> bool {
        (0..D).all(|i| self.min[i] <= other.max[i] && other.min[i] <= self.max[i])
    }

    /// True when `p` is inside or on the boundary.
    pub fn contains_point(&self, p: &Vector<D>) -> bool {
        (0..D).all(|i| self.min[i] <= p[i] && p[i] <= self.max[i])
    }

    /// True when `other` lies wholly inside this box.
    pub fn contains(&self, other: &Self) -> bool {
        (0..D).all(|i| self.min[i] <= other.min[i] && other.max[i] <= self.max[i])
    }

    /// The centre.
    pub fn center(&self) -> Vector<D> {
        (self.min + self.max) * 0.5
    }

    /// Half the extent along each axis.
    pub fn half_extents(&self) -> Vector<D> {
        (self.max - self.min) * 0.5
    }

    /// The full extent along each axis.
    pub fn extents(&self) -> Vector<D> {
        self.max - self.min
    }

    /// Half the diagonal: no point of the box is farther than this from [`Aabb::center`].
    pub fn radius(&self) -> Real {
        self.half_extents().norm()
    }

    /// Volume in 3D, area in 2D.
    pub fn volume(&self) -> Real {
        self.extents().iter().product()
    }

    /// Sum of the extents' pairwise products (the surface-area heuristic's measure; perimeter/2 in 2D).
    pub fn surface_measure(&self) -> Real {
        let e = self.extents();
        if D == 1 {
            return 1.0;
        }
        let mut s = 0.0;
        for i in 0..D {
            let mut p = 1.0;
            for j in 0..D {
                if j != i {
                    p *= e[j];
                }
            }
            s += p;
        }
        s
    }

    /// Index of the longest axis (the first of equals).
    pub fn longest_axis(&self) -> usize {
        self.extents().imax()
    }

    /// The two halves of the box, cut across its longest axis.
    pub fn split(&self) -> [Self; 2] {
        let axis = self.longest_axis();
        let mid = 0.5 * (self.min[axis] + self.max[axis]);
        let mut lo = *self;
        let mut hi = *self;
        lo.max[axis] = mid;
        hi.min[axis] = mid;
        [lo, hi]
    }

    /// The box grown by `margin` on every side (shrunk for a negative margin).
    pub fn loosened(&self, margin: Real) -> Self {
        let m = Vector::<D>::repeat(margin);
        Self {
            min: self.min - m,
            max: self.max + m,
        }
    }

    /// The box moved by `offset`.
    pub fn translated(&self, offset: &Vector<D>) -> Self {
        Self {
            min: self.min + offset,
            max: self.max + offset,
        }
    }

    /// Squared distance from `p` to the box (zero inside).
    pub fn distance_squared_to_point(&self, p: &Vector<D>) -> Real {
        let mut s = 0.0;
        for i in 0..D {
            let d = (self.min[i] - p[i]).max(p[i] - self.max[i]).max(0.0);
            s += d * d;
        }
        s
    }

    /// Corner `mask` of the box (`0..2^D`): bit `i` of `mask` picks the max side along
    /// axis `i`, a clear bit the min side.
    pub fn corner(&self, mask: usize) -> Vector<D> {
        Vector::<D>::from_fn(|i, _| {
            if mask >> i & 1 == 1 {
                self.max[i]
            } else {
                self.min[i]
            }
        })
    }

    /// The smallest axis-aligned box containing this box after it is moved by `pose`
    /// (the box is in the pose's local frame; the result is in the parent frame).
    pub fn transformed(&self, pose: &Pose<D>) -> Self
    where
        Space<D>: Dim<D>,
    {
        // Arvo's method: the rotated half extents are |R| times the half extents.
        let r = Space::<D>::rotation_matrix(&pose.rotation);
        let c = pose * nalgebra::Point::from(self.center());
        let h = r.abs() * self.half_extents();
        Self::from_center_half_extents(c.coords, h)
    }

    /// The ray-slab test: the entry and exit parameters `t` of the ray
    /// `origin + t * dir` with `t` in `[0, max_t]`, or `None` on a miss.
    pub fn ray_interval(
        &self,
        origin: &Vector<D>,
        dir: &Vector<D>,
        max_t: Real,
    ) -> Option<(Real, Real)> {
        let mut t0: Real = 0.0;
        let mut t1 = max_t;
        for i in 0..D {
            if dir[i] == 0.0 {
                if origin[i] < self.min[i] || origin[i] > self.max[i] {
                    return None;
                }
                continue;
            }
            let inv = 1.0 / dir[i];
            let (mut a, mut b) = (
                (self.min[i] - origin[i]) * inv,
                (self.max[i] - origin[i]) * inv,
            );
            if a > b {
                std::mem::swap(&mut a, &mut b);
            }
            t0 = t0.max(a);
            t1 = t1.min(b);
            if t0 > t1 {
                return None;
            }
        }
        Some((t0, t1))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Pose2, Pose3, Vector2, Vector3};

    #[test]
    fn split_halves_longest_axis() {
        let b = Aabb::<3>::new(Vector3::new(0.0, 0.0, 0.0), Vector3::new(4.0, 1.0, 2.0));
        let [lo, hi] = b.split();
        assert_eq!(lo.max.x, 2.0);
        assert_eq!(hi.min.x, 2.0);
        assert_eq!(lo.merge(&hi), b);
        // radius is half the diagonal: sqrt(16 + 1 + 4) / 2
        assert!((b.radius() - (21.0f32).sqrt() / 2.0).abs() < 1e-6);
    }

    #[test]
    fn corners_are_the_boxes_vertices() {
        let b = Aabb::<3>::new(Vector3::new(-1.0, 0.0, 2.0), Vector3::new(1.0, 3.0, 5.0));
        assert_eq!(b.corner(0), b.min);
        assert_eq!(b.corner(7), b.max);
        assert_eq!(b.corner(0b101), Vector3::new(1.0, 0.0, 5.0));
        let all: Vec<_> = (0..8).map(|m| b.corner(m)).collect();
        assert_eq!(Aabb::<3>::from_points(all.iter()), b);
    }

    #[test]
    fn empty_is_identity_of_merge_and_from_points() {
        let pts = [Vector2::new(1.0, -2.0), Vector2::new(-1.0, 3.0)];
        let b = Aabb::from_points(&pts);
        assert_eq!(
            b,
            Aabb::new(Vector2::new(-1.0, -2.0), Vector2::new(1.0, 3.0))
        );
        assert_eq!(Aabb::<2>::EMPTY.merge(&b), b);
        assert!(Aabb::<2>::EMPTY.is_empty());
    }

    #[test]
    fn intersection_and_contains() {
        let a = Aabb::<2>::new(Vector2::new(0.0, 0.0), Vector2::new(2.0, 2.0));
        let b = Aabb::<2>::new(Vector2::new(1.0, 1.0), Vector2::new(3.0, 3.0));
        let i = a.intersection(&b).unwrap();
        assert_eq!(i, Aabb::new(Vector2::new(1.0, 1.0), Vector2::new(2.0, 2.0)));
        assert!(a.contains(&i) && b.contains(&i));
        let far = b.translated(&Vector2::new(5.0, 0.0));
        assert!(a.intersection(&far).is_none());
        assert!(!a.intersects(&far));
    }

    #[test]
    fn transformed_box_encloses_rotated_corners() {
        // A unit square rotated 45 degrees spans +-sqrt(2)/2 on both axes: exact for Arvo's bound.
        let b = Aabb::<2>::new(Vector2::new(-0.5, -0.5), Vector2::new(0.5, 0.5));
        let pose = Pose2::new(Vector2::new(1.0, 0.0), std::f32::consts::FRAC_PI_4);
        let t = b.transformed(&pose);
        let h = std::f32::consts::FRAC_1_SQRT_2;
        assert!((t.max - Vector2::new(1.0 + h, h)).norm() < 1e-5);
        let pose3 = Pose3::new(Vector3::new(0.0, 1.0, 0.0), Vector3::new(0.3, -0.2, 1.1));
        let b3 = Aabb::<3>::new(Vector3::new(-1.0, -0.5, -0.2), Vector3::new(1.0, 0.5, 0.2));
        let t3 = b3.transformed(&pose3);
        for i in 0..8 {
            let c = Vector3::new(
                if i & 1 == 0 { b3.min.x } else { b3.max.x },
                if i & 2 == 0 { b3.min.y } else { b3.max.y },
                if i & 4 == 0 { b3.min.z } else { b3.max.z },
            );
            let w = pose3 * nalgebra::Point3::from(c);
            assert!(t3.loosened(1e-5).contains_point(&w.coords));
        }
    }

    #[test]
    fn ray_interval_hits_and_misses() {
        let b = Aabb::<3>::new(Vector3::new(-1.0, -1.0, -1.0), Vector3::new(1.0, 1.0, 1.0));
        let (t0, t1) = b
            .ray_interval(&Vector3::new(-5.0, 0.0, 0.0), &Vector3::x(), 100.0)
            .unwrap();
        assert_eq!((t0, t1), (4.0, 6.0));
        assert!(b
            .ray_interval(&Vector3::new(-5.0, 2.0, 0.0), &Vector3::x(), 100.0)
            .is_none());
        assert!(b
            .ray_interval(&Vector3::new(-5.0, 0.0, 0.0), &Vector3::x(), 3.0)
            .is_none());
    }
}
