//! A kinematic character controller: the shape of a walking character is moved by a desired
//! translation each step with the world's shape casts, never into a collider.
//!
//! [`CharacterController::move_shape`] runs these stages on a copy of the character's pose:
//!
//! 1. **out of overlaps**: a shape that starts inside a collider (a platform rose into it) is
//!    pushed out along the deepest penetration's normal;
//! 2. **ride**: the ground found under the character carries it: its rigid motion over the
//!    step (its kinematic target if it has one, else its velocities) is added to the move;
//! 3. **collide and slide**: the move is cast; at each hit the character stops `offset` short
//!    of the surface and the rest of the move is redirected: along walkable ground (a slope
//!    within `max_slope_climb` of level) keeping its horizontal part, so it climbs at the
//!    commanded horizontal speed; along a wall or too steep a slope without any climb; along
//!    a ceiling. Its downward part stops on ground flatter than `min_slope_slide` (it stands
//!    on a gentle slope) and slides down steeper ground;
//! 4. **step up**: a horizontal move blocked by a riser no taller than the auto-step height,
//!    with walkable ground at least `min_width` deep on top, climbs onto it;
//! 5. **snap**: a character that was on the ground and is not moving up follows the ground
//!    down steps and slopes, up to the snap distance;
//! 6. **ground**: a short probe down says whether it ended on the ground, and on what.
//!
//! The controller only answers where the character may go; the game moves it there (for a
//! kinematic body, [`World::set_kinematic_target`]) and may push the dynamic bodies it hit
//! with [`CharacterController::push_bodies`], with a force cap.

use crate::arena::{BodyHandle, ColliderHandle};
use crate::desc::BodyKind;
use crate::filter::QueryFilter;
use crate::queries::{QueryError, QueryHit};
use crate::world::World;
use fathom_math::{Dim, Pose, Real, Space, Vector};
use fathom_sdf::Shape;
use nalgebra::AbstractRotation;

/// Climbing onto ledges without jumping.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AutoStep {
    /// Tallest riser climbed, metres.
    pub max_height: Real,
    /// Least depth of walkable ground on top of the riser, metres.
    pub min_width: Real,
}

/// How a character moves. Start from `Default` (0.02 m offset, climbs 45°, slides down from
/// 30°, steps 0.3 m onto ledges 0.2 m deep, snaps 0.3 m down).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CharacterController<const D: usize>
where
    Space<D>: Dim<D>,
{
    /// World up, unit.
    pub up: Vector<D>,
    /// Gap kept between the character and every collider, metres.
    pub offset: Real,
    /// Steepest ground walked up, radians from level.
    pub max_slope_climb: Real,
    /// Gentlest ground slid down, radians from level; flatter ground holds the character.
    pub min_slope_slide: Real,
    /// Ledge climbing; `None`: off.
    pub autostep: Option<AutoStep>,
    /// Longest drop followed down while grounded, metres; `None`: off.
    pub snap_to_ground: Option<Real>,
    /// Most cast-and-slide passes a move takes.
    pub max_passes: usize,
}

impl<const D: usize> Default for CharacterController<D>
where
    Space<D>: Dim<D>,
{
    fn default() -> Self {
        let mut up = Vector::<D>::zeros();
        up[1] = 1.0;
        Self {
            up,
            offset: 0.02,
            max_slope_climb: 45f32.to_radians() as Real,
            min_slope_slide: 30f32.to_radians() as Real,
            autostep: Some(AutoStep {
                max_height: 0.3,
                min_width: 0.2,
            }),
            snap_to_ground: Some(0.3),
            max_passes: 8,
        }
    }
}

/// One collider the character's move ran into.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CharacterCollision<const D: usize> {
    /// The collider hit.
    pub collider: ColliderHandle,
    /// Its body.
    pub body: BodyHandle,
    /// Contact point on its surface, world.
    pub point: Vector<D>,
    /// Its outward normal there (towards the character), world.
    pub normal: Vector<D>,
    /// The character's translation up to this hit, world, metres.
    pub translation_before: Vector<D>,
}

/// Where a move took the character.
#[derive(Clone, Debug, PartialEq)]
pub struct CharacterMove<const D: usize> {
    /// The translation to apply to the character's pose, world, metres.
    pub translation: Vector<D>,
    /// The translation asked for, the ground's motion included, world, metres.
    pub desired: Vector<D>,
    /// True when the character ends standing on ground: something facing up right under it
    /// (a slope of any steepness, or the edge of a ledge under its round foot).
    pub grounded: bool,
    /// That ground's normal (where the character touches it), world; compare it with the
    /// controller's `max_slope_climb` to tell walkable ground from a steep slope.
    pub ground_normal: Option<Vector<D>>,
    /// The ground's collider.
    pub ground: Option<ColliderHandle>,
    /// The colliders hit, in order.
    pub collisions: Vec<CharacterCollision<D>>,
}

/// Ground holds the character when its normal is within about 84° of up (cos = 0.1): a
/// ledge's edge under a round foot does, a wall does not.
const SUPPORT_COS: Real = 0.1;

/// A surface whose normal points further down than this (cos of its angle from up) is a
/// ceiling: the move slides along it; above, a wall or steep slope, which may be stepped.
const CEILING_COS: Real = -0.1;

/// Largest push-out per overlap pass, and passes, of stage 1.
const DEPENETRATION_PASSES: usize = 4;

impl<const D: usize> CharacterController<D>
where
    Space<D>: Dim<D>,
{
    /// Moves `shape` at `pose` by `desired` (world, metres, gravity included if the game wants
    /// it) over a step of `dt` seconds, against the colliders `filter` accepts (exclude the
    /// character's own body). Errors name a bad argument.
    pub fn move_shape(
        &self,
        world: &World<D>,
        shape: &Shape<D>,
        pose: &Pose<D>,
        desired: Vector<D>,
        dt: Real,
        filter: &QueryFilter,
    ) -> Result<CharacterMove<D>, QueryError> {
        self.check(&desired, dt)?;
        let q = Query {
            world,
            shape,
            filter,
            c: self,
        };
        let mut at = *pose;
        q.depenetrate(&mut at)?;
        let start_ground = q.ground(&at, self.offset * 2.0)?;
        let ride = start_ground.map_or(Vector::zeros(), |g| q.ride(g.body, &at, dt));
        let asked = desired + ride;
        let was_grounded = start_ground.is_some();
        let mut collisions = Vec::new();
        let moved = q.slide(&mut at, asked, was_grounded, pose, &mut collisions)?;
        if was_grounded && self.up.dot(&moved) <= 1e-6 {
            q.snap(&mut at)?;
        }
        let ground = q.ground(&at, self.offset * 2.0)?;
        Ok(CharacterMove {
            translation: at.translation.vector - pose.translation.vector,
            desired: asked,
            grounded: ground.is_some(),
            ground_normal: ground.map(|g| g.normal),
            ground: ground.map(|g| g.collider),
            collisions,
        })
    }

    fn check(&self, desired: &Vector<D>, dt: Real) -> Result<(), QueryError> {
        let bad = |field, reason| Err(QueryError::Invalid { field, reason });
        if !fathom_math::is_finite_vec(desired) {
            return bad("desired", "must be finite");
        }
        if !(dt.is_finite() && dt > 0.0) {
            return bad("dt", "must be finite and positive");
        }
        if !(self.offset.is_finite() && self.offset > 0.0) {
            return bad("offset", "must be finite and positive");
        }
        if (self.up.norm() - 1.0).abs() > 1e-3 {
            return bad("up", "must be a unit vector");
        }
        Ok(())
    }

    /// True for ground with outward normal `n` the character may walk on.
    fn walkable(&self, n: &Vector<D>) -> bool {
        n.dot(&self.up) >= self.max_slope_climb.cos() - 1e-4
    }

    /// Pushes the dynamic bodies `moved` ran into, as a body of `mass` kg moving at the speed
    /// it asked for over `dt` would, each push at most `max_force` N: a character shoulders crates
    /// aside but cannot shove a truck.
    pub fn push_bodies(
        &self,
        world: &mut World<D>,
        moved: &CharacterMove<D>,
        dt: Real,
        mass: Real,
        max_force: Real,
    ) -> Result<(), crate::WorldError> {
        let velocity = moved.desired / dt;
        for hit in &moved.collisions {
            let Some(b) = world.body(hit.body) else {
                continue;
            };
            if b.kind() != BodyKind::Dynamic {
                continue;
            }
            // Approach speed into the body along its normal.
            let into = -hit.normal;
            let approach = (velocity - b.velocity_at(&hit.point)).dot(&into);
            if approach <= 0.0 {
                continue;
            }
            let r = hit.point - b.center_of_mass();
            let arm = Space::<D>::cross(&r, &into);
            let inv_inertia = Space::<D>::inertia_rotated(&b.inv_inertia_local, &b.pose.rotation);
            let k = b.inv_mass()
                + Space::<D>::ang_dot(&arm, &Space::<D>::inertia_apply(&inv_inertia, &arm))
                + 1.0 / mass;
            let impulse = (approach / k).min(max_force * dt);
            world.apply_impulse_at_point(hit.body, into * impulse, hit.point)?;
        }
        Ok(())
    }
}

/// What the probe down found.
#[derive(Clone, Copy)]
struct Ground<const D: usize> {
    collider: ColliderHandle,
    body: BodyHandle,
    normal: Vector<D>,
    /// From the character down to the ground, metres.
    distance: Real,
}

/// One move's queries: the world, the character's shape and filter, the settings.
struct Query<'a, const D: usize>
where
    Space<D>: Dim<D>,
{
    world: &'a World<D>,
    shape: &'a Shape<D>,
    filter: &'a QueryFilter<'a>,
    c: &'a CharacterController<D>,
}

impl<const D: usize> Query<'_, D>
where
    Space<D>: Dim<D>,
{
    /// A cast stopping within a quarter of the offset of contact: the controller keeps the
    /// offset anyway, and curved general fields cost far less than at the 1 mm default.
    fn cast(
        &self,
        at: &Pose<D>,
        dir: &Vector<D>,
        dist: Real,
    ) -> Result<Option<QueryHit<D>>, QueryError> {
        let tolerance = 0.25 * self.c.offset;
        self.world
            .cast_shape_within(self.shape, at, dir, dist, tolerance, self.filter)
    }

    /// Stage 1: out of any overlap, along each deepest penetration.
    fn depenetrate(&self, at: &mut Pose<D>) -> Result<(), QueryError> {
        for _ in 0..DEPENETRATION_PASSES {
            let overlaps = self.world.shape_penetrations(self.shape, at, self.filter)?;
            let Some(p) = overlaps.iter().max_by(|a, b| a.depth.total_cmp(&b.depth)) else {
                return Ok(());
            };
            at.translation.vector += p.normal * (p.depth + self.c.offset);
        }
        Ok(())
    }

    /// Ground within `reach` below the character: anything facing up that would hold it (the
    /// edge of a ledge a round foot rests on counts; a wall does not).
    fn ground(&self, at: &Pose<D>, reach: Real) -> Result<Option<Ground<D>>, QueryError> {
        let down = -self.c.up;
        Ok(self.cast(at, &down, reach)?.and_then(|h| {
            (h.normal.dot(&self.c.up) > SUPPORT_COS).then_some(Ground {
                collider: h.collider,
                body: h.body,
                normal: h.normal,
                distance: h.distance,
            })
        }))
    }

    /// Stage 2: how far the ground body's material point under the character moves over the
    /// step: to its kinematic target exactly, else at its velocities (the solver's path).
    fn ride(&self, body: BodyHandle, at: &Pose<D>, dt: Real) -> Vector<D> {
        let Some(b) = self.world.body(body) else {
            return Vector::zeros();
        };
        let p = at.translation.vector;
        let moved = match (b.kind(), b.kinematic_target()) {
            (BodyKind::Fixed, _) => return Vector::zeros(),
            (_, Some(target)) => {
                let map = target * b.pose().inverse();
                map.transform_point(&p.into()).coords
            }
            _ => {
                let c = b.center_of_mass();
                let turn = Space::<D>::integrate_rotation(
                    &Space::<D>::rotation_from_scaled_axis(&Space::<D>::ang_zero()),
                    &b.angular_velocity(),
                    dt,
                );
                c + b.linear_velocity() * dt + turn.transform_vector(&(p - c))
            }
        };
        moved - p
    }

    /// Stage 3: cast and slide. Returns the translation made.
    fn slide(
        &self,
        at: &mut Pose<D>,
        desired: Vector<D>,
        grounded: bool,
        start: &Pose<D>,
        collisions: &mut Vec<CharacterCollision<D>>,
    ) -> Result<Vector<D>, QueryError> {
        let up = self.c.up;
        let from = at.translation.vector;
        let mut remaining = desired;
        for _ in 0..self.c.max_passes {
            let len = remaining.norm();
            if len < 1e-6 {
                break;
            }
            let dir = remaining / len;
            let Some(hit) = self.cast(at, &dir, len + self.c.offset)? else {
                at.translation.vector += remaining;
                break;
            };
            // Stop `offset` short of the surface, measured along its normal.
            let facing = (-dir.dot(&hit.normal)).max(1e-3);
            let travel = (hit.distance - self.c.offset / facing).clamp(0.0, len);
            at.translation.vector += dir * travel;
            remaining -= dir * travel;
            collisions.push(CharacterCollision {
                collider: hit.collider,
                body: hit.body,
                point: hit.point,
                normal: hit.normal,
                translation_before: at.translation.vector - start.translation.vector,
            });
            let blocked = remaining;
            remaining = self.redirect(&remaining, &hit.normal);
            if grounded && !self.c.walkable(&hit.normal) && hit.normal.dot(&up) > CEILING_COS {
                if let Some(stepped) = self.step_up(at, &blocked)? {
                    *at = stepped;
                    remaining = up * blocked.dot(&up).min(0.0);
                }
            }
        }
        Ok(at.translation.vector - from)
    }

    /// The rest of a move after a hit on a surface of outward normal `n`.
    fn redirect(&self, m: &Vector<D>, n: &Vector<D>) -> Vector<D> {
        let up = self.c.up;
        let vertical = up * m.dot(&up);
        let horizontal = m - vertical;
        let n_up = n.dot(&up);
        if self.c.walkable(n) {
            // Along the ground, keeping the horizontal part: climb at the commanded speed.
            let along = horizontal - up * (horizontal.dot(n) / n_up);
            let holds = n_up >= self.c.min_slope_slide.cos();
            let fall = if vertical.dot(&up) < 0.0 && !holds {
                vertical - n * vertical.dot(n)
            } else {
                Vector::zeros()
            };
            return along + fall;
        }
        if n_up > CEILING_COS {
            // A wall or too steep a slope: no part of the move goes into it or up it.
            let n_flat = (n - up * n_up).try_normalize(1e-6).unwrap_or(*n);
            let mut h = horizontal;
            let into = h.dot(&n_flat);
            if into < 0.0 {
                h -= n_flat * into;
            }
            let v = if vertical.dot(n) < 0.0 {
                vertical - n * vertical.dot(n)
            } else {
                vertical
            };
            // Sliding down a steep face must not carry the character up it.
            let slid = h + v;
            return if slid.dot(&up) > vertical.dot(&up).max(0.0) {
                slid - up * (slid.dot(&up) - vertical.dot(&up).max(0.0))
            } else {
                slid
            };
        }
        // A ceiling: slide along it.
        let into = m.dot(n);
        if into < 0.0 {
            m - n * into
        } else {
            *m
        }
    }

    /// Stage 4: the pose on top of a riser the horizontal part of `blocked` ran into, if it is
    /// low enough and has room on top.
    fn step_up(&self, at: &Pose<D>, blocked: &Vector<D>) -> Result<Option<Pose<D>>, QueryError> {
        let Some(step) = self.c.autostep else {
            return Ok(None);
        };
        let up = self.c.up;
        let horizontal = blocked - up * blocked.dot(&up);
        let len = horizontal.norm();
        if len < 1e-6 {
            return Ok(None);
        }
        let dir = horizontal / len;
        let rise = match self.cast(at, &up, step.max_height + self.c.offset)? {
            Some(h) => (h.distance - self.c.offset).max(0.0),
            None => step.max_height + self.c.offset,
        };
        let mut raised = *at;
        raised.translation.vector += up * rise;
        // Room on top: clear ahead for the whole move and at least `min_width`.
        let ahead = len.max(step.min_width) + self.c.offset;
        if self.cast(&raised, &dir, ahead)?.is_some() {
            return Ok(None);
        }
        // Walkable ground on top, within the step height.
        let mut over = raised;
        over.translation.vector += dir * len.max(step.min_width);
        let Some(floor) = self.cast(&over, &(-up), rise + self.c.offset)? else {
            return Ok(None);
        };
        let climbed = rise - (floor.distance - self.c.offset);
        if !self.c.walkable(&floor.normal) || climbed > step.max_height + 1e-4 {
            return Ok(None);
        }
        // Only the commanded distance forward, then down onto whatever is there (a round
        // foot first rests on the ledge's edge and climbs it over the next steps).
        let mut top = raised;
        top.translation.vector += dir * len;
        let drop = match self.cast(&top, &(-up), rise + self.c.offset)? {
            Some(h) => (h.distance - self.c.offset).max(0.0),
            None => rise,
        };
        top.translation.vector -= up * drop;
        Ok(Some(top))
    }

    /// Stage 5: down onto ground within the snap distance.
    fn snap(&self, at: &mut Pose<D>) -> Result<(), QueryError> {
        let Some(reach) = self.c.snap_to_ground else {
            return Ok(());
        };
        if let Some(g) = self.ground(at, reach + self.c.offset)? {
            let drop = (g.distance - self.c.offset).max(0.0);
            at.translation.vector -= self.c.up * drop;
        }
        Ok(())
    }
}
