//! Craters blasted into the terrain ahead of the car: the driving scene's scripted blasts
//! ([`Blast`], in a driving scene file's `blasts`) and the viewer's blast key both call
//! [`blast_ahead`], which carves a ball into the fixed colliders under a point ahead of the
//! chassis with [`fathom_world::World::edit_collider`].

use fathom_math::{Aabb, Pose3, Real, Vector3};
use fathom_world::{BodyHandle, BodyKind, ColliderEdit, EditReport, QueryFilter, Shape, World3};
use serde::{Deserialize, Serialize};

/// One scripted blast: at `time`, a crater `ahead` metres in front of the car.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Blast {
    /// When, seconds from the start.
    pub time: Real,
    /// How far ahead of the chassis, along its heading, metres.
    pub ahead: Real,
    /// Radius of the carved ball, metres.
    pub radius: Real,
    /// Depth of the crater below the surface, metres (at most the radius).
    pub depth: Real,
}

impl Default for Blast {
    /// A 4.3 m wide, 0.3 m deep crater 15 m ahead, at the start: a dip the car drives
    /// through, its rim about 16 degrees steep.
    fn default() -> Self {
        Self {
            time: 0.0,
            ahead: 15.0,
            radius: 8.0,
            depth: 0.3,
        }
    }
}

/// Largest blast radius, metres (an edit's cost is the region it covers).
pub const MAX_BLAST_RADIUS: Real = 20.0;
/// Farthest a blast may land from the car, metres.
pub const MAX_BLAST_REACH: Real = 200.0;

impl Blast {
    /// Checks the values; the error is `(field, reason)`.
    pub fn validate(&self) -> Result<(), (&'static str, String)> {
        let finite = |field, v: Real| {
            if v.is_finite() {
                Ok(())
            } else {
                Err((field, format!("must be finite, got {v}")))
            }
        };
        finite("time", self.time)?;
        finite("ahead", self.ahead)?;
        finite("radius", self.radius)?;
        finite("depth", self.depth)?;
        if self.time < 0.0 {
            return Err(("time", format!("must not be negative, got {}", self.time)));
        }
        if self.ahead.abs() > MAX_BLAST_REACH {
            return Err(("ahead", format!("must be within {MAX_BLAST_REACH} m")));
        }
        if !(self.radius > 0.0 && self.radius <= MAX_BLAST_RADIUS) {
            return Err((
                "radius",
                format!("must be in (0, {MAX_BLAST_RADIUS}] m, got {}", self.radius),
            ));
        }
        if !(self.depth > 0.0 && self.depth <= self.radius) {
            return Err((
                "depth",
                format!("must be in (0, radius] m, got {}", self.depth),
            ));
        }
        Ok(())
    }
}

/// Checks a list of scripted blasts: each one's values, and the list in time order. The
/// error is `(field path, reason)`, e.g. `("blasts[1].radius", ..)`.
pub fn validate_blasts(blasts: &[Blast]) -> Result<(), (String, String)> {
    let mut last = 0.0;
    for (i, b) in blasts.iter().enumerate() {
        let bad = |field: &str, reason: String| (format!("blasts[{i}].{field}"), reason);
        b.validate().map_err(|(f, r)| bad(f, r))?;
        if b.time < last {
            return Err(bad("time", "blasts must be in time order".into()));
        }
        last = b.time;
    }
    Ok(())
}

/// How many of `blasts` (in time order) are due by `time`, counting the `done` already run.
pub fn blasts_due(blasts: &[Blast], done: usize, time: Real) -> usize {
    let rest = blasts.get(done..).unwrap_or_default();
    done.min(blasts.len()) + rest.partition_point(|b| b.time <= time)
}

/// Carves a crater `ahead` metres in front of `chassis` (along its heading, level): a ball of
/// `radius` sunk so that it cuts `depth` below the surface found by a ray straight down there,
/// carved from every fixed collider it overlaps (ground, and any bumps or slabs on it).
/// Returns the edits' reports (empty when no fixed collider lies below).
pub fn blast_ahead(
    world: &mut World3,
    chassis: BodyHandle,
    ahead: Real,
    radius: Real,
    depth: Real,
) -> Vec<EditReport> {
    let Some(body) = world.body(chassis) else {
        return Vec::new();
    };
    let mut heading = body.pose().rotation * Vector3::x();
    heading.y = 0.0;
    let heading = heading.try_normalize(1e-6).unwrap_or_else(Vector3::x);
    let above = body.position() + heading * ahead + Vector3::y() * 50.0;
    let fixed_only = |h| {
        world
            .collider(h)
            .and_then(|c| world.body(c.body()))
            .is_some_and(|b| b.kind() == BodyKind::Fixed)
    };
    let filter = QueryFilter::new().predicate(&fixed_only);
    let Ok(Some(hit)) = world.cast_ray(&above, &-Vector3::y(), 100.0, &filter) else {
        return Vec::new();
    };
    let centre = hit.point + Vector3::y() * (radius - depth);
    let reach = Aabb::new(
        centre - Vector3::repeat(radius),
        centre + Vector3::repeat(radius),
    );
    let hits = world.colliders_in_box(&reach, &filter).unwrap_or_default();
    let Ok(ball) = Shape::ball(radius) else {
        return Vec::new();
    };
    let edit = ColliderEdit::carve(ball, Pose3::translation(centre.x, centre.y, centre.z));
    // A collider the edit refuses (a tree already at the depth limit) keeps its shape.
    hits.into_iter()
        .filter_map(|h| world.edit_collider(h, &edit).ok())
        .collect()
}
