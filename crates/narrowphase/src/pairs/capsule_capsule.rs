//! Two capsules in closed form: two segments inflated by their radii.
//!
//! Everything reduces to the two core segments, in A's frame, less the radii. A field search
//! along one capsule's segment read the other's distance to within a leaf cell: two nearly
//! parallel capsules lying on each other (logs on logs) got one point 5 mm out and one 3 mm in,
//! shifting between steps, and never slept. The closed form:
//!
//! - the closest points of the segments give the normal (from A to B) and the separation (their
//!   distance less both radii), exactly;
//! - when the segments touch or cross (distance about zero) that direction is float noise, so
//!   the normal is the best separating axis of the segments' Minkowski difference instead: in
//!   2D the normals of both segments (a parallelogram's sides), in 3D the cross product of their
//!   directions (a flat parallelogram), each turned to separate more, ties oriented from A's
//!   centre towards B's;
//! - nearly parallel segments overlapping along their mean direction touch along a line: at
//!   each end of the overlap, the segment end that bounds it and its closest point on the other
//!   segment are a point, at its separation along the shared normal, keyed by the overlap's end
//!   (lower or upper along the mean direction, which follows A's direction). A point moves
//!   continuously while the capsules slide (when the bounding end changes from one segment to
//!   the other, both are at the same place), so its id stays with it;
//! - otherwise the contact is the one point at the closest points.
//!
//! The line is kept while both of its ends are within the margin (a tilted log's far end lifts
//! off smoothly) and sit over each other (the depth along the normal then is their real
//! separation): the angle bound is generous, so the manifold does not flicker between one point
//! and two at an angle threshold when the capsules rest side by side.

use fathom_math::{Dim, ManifoldPoints, Pose, Real, Space, Vector};

use super::capsule_cuboid::TOUCH_FRACTION;
use super::cuboid_cuboid::{EDGE_TOL, PARALLEL_SINE};
use super::{world_point, ClosedForm, Closest, Ctx};
use crate::manifold::{reduce, to_world, Candidate, Candidates};
use crate::obb::cross3;
use crate::types::Manifold;
use fathom_math::arrayvec::ArrayVec;
use fathom_math::segment::{closest_between_segments, closest_on_segments};

/// Segments closer to parallel than this (sine of their angle) may touch along a line. An outer
/// bound only, the margin and lateral tests below decide: past it, two ends within the default
/// margin (2% of the smaller size) lie closer than `margin / 0.2`, a tenth of that size, along
/// the line, where one point loses little; and the points at equal coordinates along the mean
/// direction stay well placed (that direction is within 6 degrees of both segments).
const LINE_SINE: Real = 0.2;
/// Key of the line's end lower along the mean direction; the upper end is `LINE_KEY + 1`.
const LINE_KEY: u32 = 0;
/// Key of a single-point contact.
const SINGLE_KEY: u32 = 2;

/// A capsule of core half length `half_a` (along its local y) and radius `radius_a` at
/// `pose_a` (A) against one of `half_b` and `radius_b` at `pose_b` (B).
pub(crate) struct CapsuleCapsule<const D: usize>
where
    Space<D>: Dim<D>,
{
    pub half_a: Real,
    pub radius_a: Real,
    pub pose_a: Pose<D>,
    pub half_b: Real,
    pub radius_b: Real,
    pub pose_b: Pose<D>,
}

/// The core segments in A's frame.
struct Local<const D: usize> {
    a0: Vector<D>,
    a1: Vector<D>,
    b0: Vector<D>,
    b1: Vector<D>,
}

/// The nearest (or, when the cores cross, least deep) features of the core segments, A's
/// frame: the cores' signed separation along the unit `normal` (from A to B) and the core
/// point of each it is measured between.
#[derive(Clone, Copy, Debug)]
struct Near<const D: usize> {
    core_separation: Real,
    normal: Vector<D>,
    on_a: Vector<D>,
    on_b: Vector<D>,
}

/// Which segment a touching axis is the normal of (its core point is the other's deepest end).
#[derive(Clone, Copy, Debug, PartialEq)]
enum Owner {
    A,
    B,
    /// Both (3D: normal to both directions; or the segments are parallel): the closest points.
    Both,
}

impl<const D: usize> CapsuleCapsule<D>
where
    Space<D>: Dim<D>,
{
    fn local(&self) -> Local<D> {
        let rel = self.pose_a.inverse() * self.pose_b;
        let along = |h: Real| {
            let mut v = Vector::<D>::zeros();
            v[1] = h;
            v
        };
        let at = |v: Vector<D>| rel.transform_point(&nalgebra::Point::from(v)).coords;
        Local {
            a0: along(-self.half_a),
            a1: along(self.half_a),
            b0: at(along(-self.half_b)),
            b1: at(along(self.half_b)),
        }
    }

    fn radii(&self) -> Real {
        self.radius_a + self.radius_b
    }

    /// The contact at the closest points (A's frame).
    fn single(&self, near: &Near<D>) -> Candidate<D> {
        let n = near.normal;
        Candidate {
            point_a: near.on_a + n * self.radius_a,
            point_b: near.on_b - n * self.radius_b,
            depth: near.core_separation - self.radii(),
            key: SINGLE_KEY,
        }
    }

    /// The manifold's points (A's frame) and its normal from A to B.
    fn manifold(&self, ctx: &mut Ctx) -> (Vector<D>, ManifoldPoints<Candidate<D>>) {
        ctx.budget.cells += 1;
        let s = ctx.settings;
        let l = self.local();
        let near = l.near(s.size);
        let single = self.single(&near);
        if single.depth > s.margin {
            return (near.normal, ManifoldPoints::new());
        }
        let merge = 1e-4 * s.size;
        let tie = EDGE_TOL * s.size;
        if let Some(ends) = l.line(&near, self.radius_a, self.radius_b, merge) {
            // Each end must sit over the other segment: the depth along the normal then is its
            // real separation up to `tie` (the tolerance at which a box face wins over its edge).
            let over = ends.iter().all(|(_, lateral)| *lateral <= tie);
            let points: Candidates<D> = ends.iter().map(|(c, _)| *c).collect();
            let kept = reduce(&points, &near.normal, s.margin, merge, 0.0, None);
            let deepest = kept.iter().map(|c| c.depth).fold(Real::INFINITY, Real::min);
            // The line must also carry the contact's depth (the ends bound a linear gap).
            if over && !kept.is_empty() && deepest <= single.depth + tie {
                return (near.normal, kept);
            }
        }
        (
            near.normal,
            reduce(&[single], &near.normal, s.margin, merge, 0.0, None),
        )
    }
}

/// `v` turned a quarter turn in the plane of the first two axes (2D: the perpendicular).
fn perp<const D: usize>(v: &Vector<D>) -> Vector<D> {
    let mut p = Vector::<D>::zeros();
    p[0] = -v[1];
    p[1] = v[0];
    p
}

impl<const D: usize> Local<D>
where
    Space<D>: Dim<D>,
{
    /// The cores' nearest features: the closest points when they are apart, else the best
    /// separating axis of the segments.
    fn near(&self, size: Real) -> Near<D> {
        let (on_a, on_b) = closest_between_segments(&self.a0, &self.a1, &self.b0, &self.b1);
        let v = on_b - on_a;
        let d = v.norm();
        let touch = TOUCH_FRACTION * size;
        if d > touch {
            return Near {
                core_separation: d,
                normal: v / d,
                on_a,
                on_b,
            };
        }
        let (separation, normal, owner) = self
            .touching_axes()
            .into_iter()
            .map(|(n, owner)| {
                let (sep, n) = self.along(n);
                (sep, n, owner)
            })
            .fold(None, |acc: Option<(Real, Vector<D>, Owner)>, a| match acc {
                Some(b) if b.0 >= a.0 => Some(b),
                _ => Some(a),
            })
            .expect("there is always an axis");
        let n = normal;
        // The deepest end of the segment the axis is not the normal of, and its closest point on
        // the other; where that segment is parallel to the axis's plane, the closest points.
        let flat = |p: &Vector<D>, q: &Vector<D>| (n.dot(&(q - p))).abs() <= touch;
        let (on_a, on_b) = match owner {
            Owner::A if !flat(&self.b0, &self.b1) => {
                let end = if n.dot(&self.b0) <= n.dot(&self.b1) {
                    self.b0
                } else {
                    self.b1
                };
                (closest_on_segments(&end, &end, &self.a0, &self.a1).1, end)
            }
            Owner::B if !flat(&self.a0, &self.a1) => {
                let end = if n.dot(&self.a0) >= n.dot(&self.a1) {
                    self.a0
                } else {
                    self.a1
                };
                (end, closest_on_segments(&end, &end, &self.b0, &self.b1).1)
            }
            _ => (on_a, on_b),
        };
        Near {
            core_separation: separation,
            normal: n,
            on_a,
            on_b,
        }
    }

    /// The separation of B's segment from A's along the unit axis `n` (`min n·B - max n·A`),
    /// with `n` turned to the side on which it separates more (ties: from A's centre towards
    /// B's).
    fn along(&self, n: Vector<D>) -> (Real, Vector<D>) {
        let sep = |n: &Vector<D>| {
            let low_b = n.dot(&self.b0).min(n.dot(&self.b1));
            let high_a = n.dot(&self.a0).max(n.dot(&self.a1));
            low_b - high_a
        };
        let (forward, backward) = (sep(&n), sep(&-n));
        let centres = (self.b0 + self.b1 - self.a0 - self.a1).dot(&n);
        if backward > forward || (backward == forward && centres < 0.0) {
            (backward, -n)
        } else {
            (forward, n)
        }
    }

    /// The candidate axes of touching or crossing segments: the faces of their Minkowski
    /// difference (2D: each segment's normal; 3D: the cross product of the directions). For
    /// parallel segments (3D) or points, the direction from A's line towards B's centre.
    fn touching_axes(&self) -> ArrayVec<(Vector<D>, Owner), 2> {
        let unit = |v: Vector<D>| {
            let len = v.norm();
            (len > 0.0).then(|| v / len)
        };
        let (ua, ub) = (unit(self.a1 - self.a0), unit(self.b1 - self.b0));
        let mut axes = ArrayVec::new();
        if D == 2 {
            axes.extend(ua.map(|u| (perp(&u), Owner::A)));
            axes.extend(ub.map(|u| (perp(&u), Owner::B)));
        } else if let (Some(ua), Some(ub)) = (ua, ub) {
            let c = cross3(&ua, &ub);
            let s = c.norm();
            if s > PARALLEL_SINE {
                axes.push((c / s, Owner::Both));
            }
        }
        if axes.is_empty() {
            let mut x = Vector::<D>::zeros();
            x[0] = 1.0;
            let base = ua.or(ub).unwrap_or(x);
            let centres = (self.b0 + self.b1 - self.a0 - self.a1) * 0.5;
            let off = centres - base * base.dot(&centres);
            let n = unit(off).unwrap_or_else(|| Space::<D>::tangents(&base)[0]);
            axes.push((n, Owner::Both));
        }
        axes
    }

    /// The two ends of the line along which nearly parallel segments touch, A's frame, lower
    /// along the segments' mean direction first: each is the segment end that bounds the
    /// overlap there and its closest point on the other segment, measured along `near`'s normal,
    /// with how far the two are from lying along that normal (`|v| - n·v`, what the depth along
    /// the normal understates their separation by). `None` unless the segments are within
    /// [`LINE_SINE`] of parallel, side by side (the normal within it of perpendicular to them)
    /// and overlap by more than `merge` along their mean direction.
    fn line(
        &self,
        near: &Near<D>,
        radius_a: Real,
        radius_b: Real,
        merge: Real,
    ) -> Option<[(Candidate<D>, Real); 2]> {
        let (da, db) = (self.a1 - self.a0, self.b1 - self.b0);
        let (la, lb) = (da.norm(), db.norm());
        if la <= 0.0 || lb <= 0.0 {
            return None;
        }
        let ua = da / la;
        let ub = if ua.dot(&db) < 0.0 { -db / lb } else { db / lb };
        let sine = (ub - ua * ua.dot(&ub)).norm();
        let u = (ua + ub).normalize();
        let n = near.normal;
        if sine > LINE_SINE || n.dot(&u).abs() > LINE_SINE {
            return None;
        }
        // Each segment's ends, lower along `u` first.
        let ends = |p: Vector<D>, q: Vector<D>| {
            if u.dot(&p) <= u.dot(&q) {
                [p, q]
            } else {
                [q, p]
            }
        };
        let (ea, eb) = (ends(self.a0, self.a1), ends(self.b0, self.b1));
        if u.dot(&ea[1]).min(u.dot(&eb[1])) - u.dot(&ea[0]).max(u.dot(&eb[0])) <= merge {
            return None;
        }
        let end = |k: usize| {
            // The inner of the two ends on this side bounds the overlap.
            let a_inner = if k == 0 {
                u.dot(&ea[0]) >= u.dot(&eb[0])
            } else {
                u.dot(&ea[1]) <= u.dot(&eb[1])
            };
            let (pa, pb) = if a_inner {
                let e = ea[k];
                (e, closest_on_segments(&e, &e, &self.b0, &self.b1).1)
            } else {
                let e = eb[k];
                (closest_on_segments(&e, &e, &self.a0, &self.a1).1, e)
            };
            let v = pb - pa;
            let along = n.dot(&v);
            let candidate = Candidate {
                point_a: pa + n * radius_a,
                point_b: pb - n * radius_b,
                depth: along - radius_a - radius_b,
                key: LINE_KEY + k as u32,
            };
            (candidate, v.norm() - along)
        };
        Some([end(0), end(1)])
    }
}

impl<const D: usize> ClosedForm<D> for CapsuleCapsule<D>
where
    Space<D>: Dim<D>,
{
    /// The pair's closest features, world frame.
    fn closest(&self, ctx: &mut Ctx) -> Closest<D> {
        ctx.budget.cells += 1;
        let near = self.local().near(ctx.settings.size);
        let c = self.single(&near);
        Closest {
            separation: c.depth,
            normal: self.pose_a.transform_vector(&near.normal),
            point_a: world_point(&self.pose_a, &c.point_a),
            point_b: world_point(&self.pose_a, &c.point_b),
        }
    }

    fn manifolds(&self, ctx: &mut Ctx, out: &mut Vec<Manifold<D>>) {
        let (n, points) = self.manifold(ctx);
        if points.is_empty() {
            return;
        }
        out.push(to_world(&points, &n, 0, &self.pose_a));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fathom_math::{Vector2, Vector3};

    fn local3(b0: Vector3, b1: Vector3) -> Local<3> {
        Local {
            a0: Vector3::new(-1.0, 0.0, 0.0),
            a1: Vector3::new(1.0, 0.0, 0.0),
            b0,
            b1,
        }
    }

    #[test]
    fn crossing_segments_in_3d_separate_along_the_cross_product() {
        // B crosses A 1e-6 above it, along z: the normal is +y, the separation 1e-6.
        let l = local3(Vector3::new(0.2, 1e-6, -1.0), Vector3::new(0.2, 1e-6, 1.0));
        let near = l.near(1.0);
        assert!((near.normal - Vector3::y()).norm() < 1e-6, "{near:?}");
        assert!((near.core_separation - 1e-6).abs() < 1e-7);
    }

    #[test]
    fn crossing_segments_in_2d_leave_by_the_shorter_way() {
        // A along x from -1 to 1; B from (0.5, -0.1) to (0.7, 1): B's lower end is 0.1 below A,
        // and A's far end is 0.47 beyond B's line: the least way out is B up by 0.1.
        let l = Local::<2> {
            a0: Vector2::new(-1.0, 0.0),
            a1: Vector2::new(1.0, 0.0),
            b0: Vector2::new(0.5, -0.1),
            b1: Vector2::new(0.7, 1.0),
        };
        let near = l.near(1.0);
        assert!((near.normal - Vector2::y()).norm() < 1e-6, "{near:?}");
        assert!((near.core_separation + 0.1).abs() < 1e-6, "{near:?}");
        assert!(
            (near.on_b - l.b0).norm() < 1e-6 && (near.on_a - Vector2::new(0.5, 0.0)).norm() < 1e-6
        );
    }
}
