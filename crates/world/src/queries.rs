//! Scene queries against the whole world: ray casts (first hit, all hits),
//! sphere and shape casts, point queries (containing colliders, nearest
//! collider) and box queries, each with a [`QueryFilter`].
//!
//! Every query takes its candidates from the broadphase (the colliders' world
//! boxes, which contain their shapes) and runs the exact test of `fathom-ccd`
//! or the shape's own field on each, so it reports exactly what a test of
//! every collider would (the tests check this against brute force). Casts walk
//! the broadphase front to back and clip it at the best exact hit so far.
//! Ties break by collider handle, so answers never depend on tree layout.
//!
//! All input and output is in the world frame, at the colliders' poses after
//! the last step (or the last `set_pose`). Distances are metres along the
//! unit direction. An exact cast never reports contact past the surface: a ray or
//! ball cast reports the crossing to 1e-5 of the scene's scale, a capsule or shape cast
//! within the cast tolerance (1 mm, [`fathom_ccd::CastOptions`]) of it. A
//! cast that starts inside a collider hits it at distance 0 with
//! `started_inside` set. A cast whose march ran out of budget against one
//! collider (a pathological field) skips that collider.

use crate::arena::{BodyHandle, ColliderHandle, RawHandle};
use crate::body::Collider;
use crate::filter::QueryFilter;
use crate::world::World;
use fathom_broadphase::QueryControl;
use fathom_ccd::{CastOptions, CastResult, CastShape, Motion, ToiOptions, ToiResult};
use fathom_math::{is_finite_vec, Aabb, Dim, Pose, Real, Space, Vector};
use fathom_narrowphase::ContactOptions;
use fathom_sdf::{Sdf, Shape, ShapeKind};
use thiserror::Error;

/// A bad query argument.
#[derive(Debug, Error, Clone, PartialEq)]
pub enum QueryError {
    /// An argument was NaN, infinite, zero where it must not be, or negative.
    #[error("invalid query argument `{field}`: {reason}")]
    Invalid {
        /// The argument.
        field: &'static str,
        /// Why.
        reason: &'static str,
    },
}

fn invalid(field: &'static str, reason: &'static str) -> QueryError {
    QueryError::Invalid { field, reason }
}

/// What a cast hit.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct QueryHit<const D: usize> {
    /// The collider hit.
    pub collider: ColliderHandle,
    /// Its body.
    pub body: BodyHandle,
    /// Distance travelled before contact, metres along the unit direction.
    pub distance: Real,
    /// `distance / max_dist` (0 when `max_dist` is 0).
    pub fraction: Real,
    /// Contact point on the collider's surface, world frame.
    pub point: Vector<D>,
    /// The collider's outward unit normal there, world frame.
    pub normal: Vector<D>,
    /// True when the cast started overlapping the collider (then `distance` is 0).
    pub started_inside: bool,
}

/// How deep a query shape overlaps a collider ([`World::shape_penetrations`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ShapePenetration<const D: usize> {
    /// The collider.
    pub collider: ColliderHandle,
    /// Its body.
    pub body: BodyHandle,
    /// Overlap depth, metres (positive).
    pub depth: Real,
    /// Unit normal from the collider towards the shape, world frame.
    pub normal: Vector<D>,
    /// The collider's surface point deepest inside the shape, world frame.
    pub point: Vector<D>,
}

/// The nearest point of a collider's surface to a query point.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PointProjection<const D: usize> {
    /// The collider.
    pub collider: ColliderHandle,
    /// Its body.
    pub body: BodyHandle,
    /// Signed distance from the query point to the surface, metres (negative inside;
    /// the shape's field value, exact for exact fields).
    pub distance: Real,
    /// The nearest surface point, world frame.
    pub point: Vector<D>,
    /// The outward unit normal at the query point (the field's gradient), world frame.
    pub normal: Vector<D>,
}

fn check_point<const D: usize>(field: &'static str, v: &Vector<D>) -> Result<(), QueryError> {
    if is_finite_vec(v) {
        Ok(())
    } else {
        Err(invalid(field, "must be finite"))
    }
}

/// A query shape and its pose: the shape valid, the pose finite.
fn check_shape_pose<const D: usize>(shape: &Shape<D>, pose: &Pose<D>) -> Result<(), QueryError>
where
    Space<D>: Dim<D>,
{
    shape
        .validate()
        .map_err(|_| invalid("shape", "fails its own validation"))?;
    check_point("pose.translation", &pose.translation.vector)?;
    if Space::<D>::rotation_matrix(&pose.rotation)
        .iter()
        .all(|x| x.is_finite())
    {
        Ok(())
    } else {
        Err(invalid("pose.rotation", "must be finite"))
    }
}

/// The unit direction, or an error for a zero / non-finite one.
fn check_dir<const D: usize>(dir: &Vector<D>) -> Result<Vector<D>, QueryError> {
    check_point("dir", dir)?;
    let n = dir.norm();
    if n > 1e-12 && n.is_finite() {
        Ok(dir / n)
    } else {
        Err(invalid("dir", "must not be the zero vector"))
    }
}

fn check_len(field: &'static str, x: Real) -> Result<(), QueryError> {
    if x.is_finite() && x >= 0.0 {
        Ok(())
    } else {
        Err(invalid(field, "must be finite and not negative"))
    }
}

/// A world-frame cast: what is swept, from where, along which unit direction, how far.
struct Sweep<const D: usize> {
    shape: CastShape<D>,
    origin: Vector<D>,
    dir: Vector<D>,
    /// The query's full length, metres (for fractions).
    full: Real,
}

impl<const D: usize> Sweep<D> {
    /// A ball of `radius` (0: a ray) swept from `origin` along `dir` for `max_dist`, every
    /// argument checked (the one place the ray and sphere queries validate them).
    fn ball(
        origin: &Vector<D>,
        radius: Real,
        dir: &Vector<D>,
        max_dist: Real,
    ) -> Result<Self, QueryError> {
        check_point("origin", origin)?;
        check_len("radius", radius)?;
        let dir = check_dir(dir)?;
        check_len("max_dist", max_dist)?;
        Ok(Self {
            shape: CastShape::Ball { radius },
            origin: *origin,
            dir,
            full: max_dist,
        })
    }
}

/// The hit on collider `h` at `distance` along a query of full length `full` metres,
/// with the contact `point` and the collider's outward `normal` (world frame).
fn query_hit<const D: usize>(
    full: Real,
    (h, c): (ColliderHandle, &Collider<D>),
    distance: Real,
    (point, normal): (Vector<D>, Vector<D>),
    started_inside: bool,
) -> QueryHit<D>
where
    Space<D>: Dim<D>,
{
    let fraction = if full > 0.0 {
        (distance / full).min(1.0)
    } else {
        0.0
    };
    QueryHit {
        collider: h,
        body: c.body,
        distance,
        fraction,
        point,
        normal,
        started_inside,
    }
}

fn key_handle(k: u64) -> ColliderHandle {
    ColliderHandle(RawHandle::from_bits(k))
}

/// `(distance, collider)` ordering: the nearer wins, then the lower handle.
fn better<const D: usize>(a: &QueryHit<D>, b: &Option<QueryHit<D>>) -> bool {
    b.as_ref()
        .is_none_or(|b| (a.distance, a.collider) < (b.distance, b.collider))
}

impl<const D: usize> World<D>
where
    Space<D>: Dim<D>,
{
    fn accepted<'w>(&'w self, k: ColliderHandle, filter: &QueryFilter) -> Option<&'w Collider<D>> {
        self.colliders.get(k).filter(|c| filter.accepts(k, c))
    }

    /// Every collider, as candidates, when the broadphase is not built (after plain
    /// deserialisation): slower, same answers.
    fn all_keys(&self) -> Vec<u64> {
        self.colliders.iter().map(|(h, _)| h.0.to_bits()).collect()
    }

    /// The exact cast `sweep` against one collider, no farther than `max_dist`.
    fn cast_one(
        h: ColliderHandle,
        c: &Collider<D>,
        sweep: &Sweep<D>,
        max_dist: Real,
    ) -> Option<QueryHit<D>> {
        let opts = CastOptions::default();
        let r = fathom_ccd::cast_posed(
            &c.shape as &dyn Sdf<D>,
            &c.world_pose,
            &sweep.shape,
            &sweep.origin,
            &sweep.dir,
            max_dist,
            &opts,
        )
        .ok()?;
        match r {
            CastResult::Hit {
                distance,
                point,
                normal,
                ..
            } => Some(query_hit(
                sweep.full,
                (h, c),
                distance,
                (point, normal),
                false,
            )),
            CastResult::StartedInside { point, normal, .. } => {
                Some(query_hit(sweep.full, (h, c), 0.0, (point, normal), true))
            }
            CastResult::Miss { .. } | CastResult::StepCap { .. } => None,
        }
    }

    /// The first hit of a ball sweep (a ray for radius 0), candidates front to back.
    fn first_ball_hit(&self, sweep: &Sweep<D>, filter: &QueryFilter) -> Option<QueryHit<D>> {
        let (origin, dir, max_dist) = (&sweep.origin, &sweep.dir, sweep.full);
        let CastShape::Ball { radius } = sweep.shape else {
            unreachable!("ball sweeps only")
        };
        let mut best: Option<QueryHit<D>> = None;
        let mut visit = |k: u64| {
            let h = key_handle(k);
            let Some(c) = self.accepted(h, filter) else {
                return QueryControl::Continue;
            };
            // Cast only as far as the best hit so far (a tie may still win by handle).
            let limit = best.map_or(max_dist, |b| b.distance);
            match Self::cast_one(h, c, sweep, limit) {
                Some(hit) if better(&hit, &best) => {
                    best = Some(hit);
                    QueryControl::ClipTo(hit.distance)
                }
                _ => QueryControl::Continue,
            }
        };
        if self.broadphase_ready {
            // Arguments are checked by the caller, so the broadphase accepts them.
            let _ = self
                .broadphase
                .cast_sphere(origin, radius, dir, max_dist, |hit| visit(hit.key));
        } else {
            for k in self.all_keys() {
                visit(k);
            }
        }
        best
    }

    /// The first collider hit by the ray `origin + t dir`, `t` in `[0, max_dist]` metres
    /// (`dir` need not be unit; world frame).
    pub fn cast_ray(
        &self,
        origin: &Vector<D>,
        dir: &Vector<D>,
        max_dist: Real,
        filter: &QueryFilter,
    ) -> Result<Option<QueryHit<D>>, QueryError> {
        let sweep = Sweep::ball(origin, 0.0, dir, max_dist)?;
        Ok(self.first_ball_hit(&sweep, filter))
    }

    /// Every collider hit by the ray (each once, at its first contact), nearest first
    /// (ties by handle).
    pub fn cast_ray_all(
        &self,
        origin: &Vector<D>,
        dir: &Vector<D>,
        max_dist: Real,
        filter: &QueryFilter,
    ) -> Result<Vec<QueryHit<D>>, QueryError> {
        let sweep = Sweep::ball(origin, 0.0, dir, max_dist)?;
        let keys = if self.broadphase_ready {
            // Arguments are checked above.
            let hits = self.broadphase.ray_hits(origin, &sweep.dir, max_dist);
            hits.unwrap_or_default()
                .into_iter()
                .map(|h| h.key)
                .collect()
        } else {
            self.all_keys()
        };
        let mut out: Vec<QueryHit<D>> = keys
            .into_iter()
            .filter_map(|k| {
                let h = key_handle(k);
                let c = self.accepted(h, filter)?;
                Self::cast_one(h, c, &sweep, max_dist)
            })
            .collect();
        out.sort_by(|a, b| {
            a.distance
                .total_cmp(&b.distance)
                .then(a.collider.cmp(&b.collider))
        });
        Ok(out)
    }

    /// The first collider hit by a ball of `radius` metres swept from `origin` along `dir`
    /// for at most `max_dist` metres (world frame). The vehicle's wheel probe.
    pub fn cast_sphere(
        &self,
        origin: &Vector<D>,
        radius: Real,
        dir: &Vector<D>,
        max_dist: Real,
        filter: &QueryFilter,
    ) -> Result<Option<QueryHit<D>>, QueryError> {
        let sweep = Sweep::ball(origin, radius, dir, max_dist)?;
        Ok(self.first_ball_hit(&sweep, filter))
    }

    /// The first collider hit by `shape`, placed at `pose` (world) and translated along
    /// `dir` for at most `max_dist` metres. Balls use the sphere cast; other shapes
    /// conservative advancement (`fathom_ccd::time_of_impact`) against each candidate,
    /// stopping within 1 mm of contact.
    pub fn cast_shape(
        &self,
        shape: &Shape<D>,
        pose: &Pose<D>,
        dir: &Vector<D>,
        max_dist: Real,
        filter: &QueryFilter,
    ) -> Result<Option<QueryHit<D>>, QueryError> {
        let tolerance = ToiOptions::default().epsilon;
        self.cast_shape_within(shape, pose, dir, max_dist, tolerance, filter)
    }

    /// [`World::cast_shape`] stopping within `tolerance` metres of contact (never past it):
    /// a coarser tolerance is cheaper for curved general fields, whose search refines the
    /// gap to a fraction of it. The character controller casts with a quarter of its offset.
    pub fn cast_shape_within(
        &self,
        shape: &Shape<D>,
        pose: &Pose<D>,
        dir: &Vector<D>,
        max_dist: Real,
        tolerance: Real,
        filter: &QueryFilter,
    ) -> Result<Option<QueryHit<D>>, QueryError> {
        if !(tolerance.is_finite() && tolerance > 0.0) {
            return Err(invalid("tolerance", "must be finite and positive"));
        }
        check_shape_pose(shape, pose)?;
        let dir = check_dir(dir)?;
        check_len("max_dist", max_dist)?;
        if let ShapeKind::Ball { radius } = shape.kind() {
            let sweep = Sweep::ball(&pose.translation.vector, radius, &dir, max_dist)?;
            return Ok(self.first_ball_hit(&sweep, filter));
        }
        let b0 = shape.bounds().transformed(pose);
        let swept = b0.merge(&b0.translated(&(dir * max_dist)));
        if swept.is_empty() || !is_finite_vec(&swept.min) || !is_finite_vec(&swept.max) {
            return Err(invalid("shape", "must be bounded to be cast"));
        }
        let keys = self.box_candidates(&swept);
        let motion = Motion::new(*pose, dir, Space::<D>::ang_zero());
        let mut best: Option<QueryHit<D>> = None;
        for k in keys {
            let h = key_handle(k);
            let Some(c) = self.accepted(h, filter) else {
                continue;
            };
            let limit = best.map_or(max_dist, |b| b.distance);
            if let Some(hit) = self.toi_one(h, c, shape, &motion, (limit, max_dist), tolerance) {
                if better(&hit, &best) {
                    best = Some(hit);
                }
            }
        }
        Ok(best)
    }

    /// Conservative advancement of the moving `shape` against collider `h`.
    fn toi_one(
        &self,
        h: ColliderHandle,
        c: &Collider<D>,
        shape: &Shape<D>,
        motion: &Motion<D>,
        (limit, full): (Real, Real),
        tolerance: Real,
    ) -> Option<QueryHit<D>> {
        let r = fathom_ccd::time_of_impact(
            shape as &dyn Sdf<D>,
            motion,
            &c.shape as &dyn Sdf<D>,
            &Motion::fixed(c.world_pose),
            limit,
            &ToiOptions {
                epsilon: tolerance,
                ..ToiOptions::default()
            },
        )
        .ok()?;
        let (distance, point, normal, started_inside) = match r {
            // Speed is 1 m/s, so time is distance. The normal runs from the cast shape
            // to the collider; the collider's outward normal is its opposite.
            ToiResult::Impact {
                time,
                point_b,
                normal,
                ..
            } => (time, point_b, -normal, false),
            ToiResult::Overlapping { point, normal, .. } => (0.0, point, -normal, true),
            ToiResult::NoImpact { .. } | ToiResult::IterationCap { .. } => return None,
        };
        Some(query_hit(
            full,
            (h, c),
            distance,
            (point, normal),
            started_inside,
        ))
    }

    /// Broadphase keys whose box meets `aabb` (every key without a broadphase), sorted.
    fn box_candidates(&self, aabb: &Aabb<D>) -> Vec<u64> {
        if self.broadphase_ready {
            // The box was checked finite by the caller.
            self.broadphase.overlapping(aabb).unwrap_or_default()
        } else {
            self.all_keys()
        }
    }

    /// The signed distance (field value) of a world point to collider `c`.
    fn field_at(c: &Collider<D>, p: &Vector<D>) -> (Vector<D>, Real) {
        let local = c.world_pose.inverse_transform_point(&(*p).into()).coords;
        (local, c.shape.distance(&local))
    }

    /// The colliders whose solid contains `point` (the boundary counts), sorted by handle.
    pub fn colliders_containing_point(
        &self,
        point: &Vector<D>,
        filter: &QueryFilter,
    ) -> Result<Vec<ColliderHandle>, QueryError> {
        check_point("point", point)?;
        let keys = if self.broadphase_ready {
            self.broadphase.containing(point).unwrap_or_default()
        } else {
            self.all_keys()
        };
        Ok(keys
            .into_iter()
            .map(key_handle)
            .filter(|&h| {
                self.accepted(h, filter)
                    .is_some_and(|c| Self::field_at(c, point).1 <= 0.0)
            })
            .collect())
    }

    /// The collider whose surface is nearest `point` (by signed distance, so a collider
    /// containing the point beats any outside), among those within `max_dist` metres.
    /// `max_dist` may be infinite (then every collider is examined).
    pub fn nearest_collider(
        &self,
        point: &Vector<D>,
        max_dist: Real,
        filter: &QueryFilter,
    ) -> Result<Option<PointProjection<D>>, QueryError> {
        check_point("point", point)?;
        if max_dist.is_nan() || max_dist < 0.0 {
            return Err(invalid("max_dist", "must not be negative or NaN"));
        }
        let keys = if max_dist.is_finite() {
            let reach = Vector::<D>::repeat(max_dist);
            self.box_candidates(&Aabb::new(point - reach, point + reach))
        } else {
            self.all_keys()
        };
        let mut best: Option<PointProjection<D>> = None;
        for k in keys {
            let h = key_handle(k);
            let Some(c) = self.accepted(h, filter) else {
                continue;
            };
            let (local, d) = Self::field_at(c, point);
            let wins = best
                .as_ref()
                .is_none_or(|b| (d, h) < (b.distance, b.collider));
            if d <= max_dist && wins {
                let n = fathom_sdf::normalize_or_axis(c.shape.gradient(&local));
                let surface = local - n * d;
                best = Some(PointProjection {
                    collider: h,
                    body: c.body,
                    distance: d,
                    point: c.world_pose.transform_point(&surface.into()).coords,
                    normal: c.world_pose.transform_vector(&n),
                });
            }
        }
        Ok(best)
    }

    /// Every collider that `shape` at `pose` (world) overlaps, with how deep: moving the shape
    /// by `depth` along `normal` (world, from the collider towards the shape) separates the
    /// pair. Sorted by handle. Colliders whose kinds have no penetration query are skipped.
    pub fn shape_penetrations(
        &self,
        shape: &Shape<D>,
        pose: &Pose<D>,
        filter: &QueryFilter,
    ) -> Result<Vec<ShapePenetration<D>>, QueryError> {
        check_shape_pose(shape, pose)?;
        let bounds = shape.bounds().transformed(pose);
        if bounds.is_empty() || !is_finite_vec(&bounds.min) || !is_finite_vec(&bounds.max) {
            return Err(invalid("shape", "must be bounded"));
        }
        let opts = ContactOptions::default();
        Ok(self
            .box_candidates(&bounds)
            .into_iter()
            .map(key_handle)
            .filter_map(|h| {
                let c = self.accepted(h, filter)?;
                let p = fathom_narrowphase::penetration(
                    &c.shape as &dyn Sdf<D>,
                    &c.world_pose,
                    shape as &dyn Sdf<D>,
                    pose,
                    &opts,
                )
                .ok()?
                .deepest?;
                Some(ShapePenetration {
                    collider: h,
                    body: c.body,
                    depth: p.depth,
                    normal: p.normal,
                    point: p.point_a,
                })
            })
            .collect())
    }

    /// The colliders whose shape overlaps or touches the world box `aabb` (the narrowphase's
    /// `intersects` against the box as a cuboid), sorted by handle.
    pub fn colliders_in_box(
        &self,
        aabb: &Aabb<D>,
        filter: &QueryFilter,
    ) -> Result<Vec<ColliderHandle>, QueryError> {
        check_point("aabb.min", &aabb.min)?;
        check_point("aabb.max", &aabb.max)?;
        if (0..D).any(|i| aabb.min[i] > aabb.max[i]) {
            return Err(invalid("aabb", "min must not exceed max"));
        }
        let half = (aabb.max - aabb.min) * 0.5;
        let cuboid = Shape::<D>::cuboid(half)
            .map_err(|_| invalid("aabb", "must have a positive size on every axis"))?;
        let box_pose = Pose::<D>::from_parts(aabb.center().into(), Pose::<D>::identity().rotation);
        let opts = ContactOptions::default();
        Ok(self
            .box_candidates(aabb)
            .into_iter()
            .map(key_handle)
            .filter(|&h| {
                self.accepted(h, filter).is_some_and(|c| {
                    fathom_narrowphase::intersects(
                        &c.shape as &dyn Sdf<D>,
                        &c.world_pose,
                        &cuboid as &dyn Sdf<D>,
                        &box_pose,
                        &opts,
                    )
                    // Validated shapes and a valid box; a failed query reports no overlap.
                    .is_ok_and(|i| i.intersecting)
                })
            })
            .collect())
    }
}
