//! Continuous collision made visible: the paths of the bodies the world sweeps
//! in a step, and the places where a sweep stopped one.
//!
//! The world sweeps a bullet, or a body that moves more than
//! [`CCD_MOTION_FRACTION`] of its smallest half extent in a step, and clips
//! its motion at the first impact (see the world's `ccd_stage`); a wall
//! already within reach stops it by a speculative contact instead. So a
//! step's record tells a swept body by how far it moved or would have moved
//! (its velocity at the start of the step times `dt`), and a stopped one by
//! having moved well short of that: where it ended the step is where the
//! step's collision stopped it, its time of impact.

use crate::palette::Rgb;
use fathom_math::{Dim, Real, Space, Vector};
use fathom_sdf::Sdf;
use fathom_world::{BodyHandle, World, CCD_MOTION_FRACTION};
use std::collections::VecDeque;

/// Steps a path segment or a stop stays on screen.
pub const TRAIL_STEPS: u64 = 90;
/// A body counts as stopped when it moved less than this fraction of its start speed times
/// `dt` (gravity and friction change a fast body's speed by far less in one step).
const CLIPPED_FRACTION: Real = 0.9;
/// Colour of swept paths.
pub const SWEEP_PATH: Rgb = Rgb::new(1.0, 0.6, 0.15);
/// Colour of the places where a sweep stopped a body.
pub const SWEEP_STOP: Rgb = Rgb::new(1.0, 0.15, 0.55);

/// One swept step of one body.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SweptStep<const D: usize> {
    /// The body.
    pub body: BodyHandle,
    /// The step it was swept in (the world's step count after it).
    pub step: u64,
    /// Centre of mass before and after the step, world frame.
    pub path: [Vector<D>; 2],
    /// `Some(fraction)` when the step stopped it short: the fraction of its start speed
    /// times `dt` that it moved, so where it stopped (`path[1]`) is its time of impact.
    pub stopped: Option<Real>,
}

/// The last [`TRAIL_STEPS`] steps' swept motions.
#[derive(Clone, Debug, Default)]
pub struct Sweeps<const D: usize> {
    /// Per dynamic body before the step: centre of mass, speed, and how far it must move
    /// to count as swept.
    before: Vec<(BodyHandle, Vector<D>, Real, Real)>,
    steps: VecDeque<SweptStep<D>>,
}

impl<const D: usize> Sweeps<D>
where
    Space<D>: Dim<D>,
{
    /// Notes where each dynamic body is before a step, and how far it must move to be
    /// swept (bullets: any motion).
    pub fn before_step(&mut self, world: &World<D>) {
        self.before.clear();
        for (h, b) in world.bodies().filter(|(_, b)| b.is_dynamic()) {
            let reach = if b.is_ccd() {
                0.0
            } else {
                let half = b
                    .colliders()
                    .iter()
                    .filter_map(|c| world.collider(*c))
                    .map(|c| c.shape().bounds().half_extents().min())
                    .fold(Real::INFINITY, Real::min);
                CCD_MOTION_FRACTION * half
            };
            if reach.is_finite() {
                let speed = b.linear_velocity().norm();
                self.before.push((h, b.center_of_mass(), speed, reach));
            }
        }
    }

    /// Records the bodies the step swept (moved past their reach), with where a sweep
    /// stopped them; forgets what is older than [`TRAIL_STEPS`].
    pub fn after_step(&mut self, world: &World<D>) {
        let step = world.step_count();
        let dt = world.settings().dt;
        for (h, from, speed, reach) in self.before.drain(..) {
            let Some(b) = world.body(h) else { continue };
            let to = b.center_of_mass();
            let moved = (to - from).norm();
            let free = speed * dt;
            // Bullets count once they move at least a millimetre (a resting bullet is not
            // news).
            if moved <= reach.max(1e-3) && free <= reach.max(1e-3) {
                continue;
            }
            let stopped = (free > 0.0 && moved < CLIPPED_FRACTION * free).then(|| moved / free);
            self.steps.push_back(SweptStep {
                body: h,
                step,
                path: [from, to],
                stopped,
            });
        }
        while self
            .steps
            .front()
            .is_some_and(|s| s.step + TRAIL_STEPS <= step)
        {
            self.steps.pop_front();
        }
    }

    /// The recorded swept steps, oldest first.
    pub fn steps(&self) -> impl Iterator<Item = &SweptStep<D>> + '_ {
        self.steps.iter()
    }

    /// Forgets everything (a reset).
    pub fn clear(&mut self) {
        self.before.clear();
        self.steps.clear();
    }

    /// The paths as lines and the stops as points, for the overlay.
    pub fn geometry(&self) -> crate::overlay::OverlayGeometry<D> {
        let mut out = crate::overlay::OverlayGeometry::default();
        for s in &self.steps {
            out.lines.push((s.path, SWEEP_PATH));
            if s.stopped.is_some() {
                out.points.push((s.path[1], SWEEP_STOP));
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fathom_world::{BodyDesc, ColliderDesc, Shape};

    /// A 5 cm bullet set going at 500 m/s (8.3 m a step) towards a 10 cm wall 1 m away, as
    /// the world's own bullet tests shoot: the step that reaches the wall stops it there.
    fn bullet_is_swept_and_stopped<const D: usize>()
    where
        Space<D>: Dim<D>,
    {
        let mut x = Vector::<D>::zeros();
        x[0] = 1.0;
        let mut w = World::<D>::default();
        let mut wall_half = Vector::<D>::repeat(2.0);
        wall_half[0] = 0.05;
        w.add_body(
            &BodyDesc::fixed()
                .position(x * 1.0)
                .collider(ColliderDesc::new(Shape::cuboid(wall_half).unwrap())),
        )
        .unwrap();
        let bullet = w
            .add_body(
                &BodyDesc::dynamic()
                    .ccd(true)
                    .gravity_scale(0.0)
                    .collider(ColliderDesc::new(Shape::ball(0.05).unwrap())),
            )
            .unwrap();
        w.step();
        w.set_linear_velocity(bullet, x * 500.0).unwrap();
        let mut sweeps = Sweeps::default();
        for _ in 0..3 {
            sweeps.before_step(&w);
            w.step();
            sweeps.after_step(&w);
        }
        let steps: Vec<_> = sweeps.steps().copied().collect();
        assert!(steps.iter().all(|s| s.body == bullet));
        let stop = steps
            .iter()
            .find(|s| s.stopped.is_some())
            .expect("the wall stopped the bullet");
        // It stopped at the wall's face (0.95 m) less its radius, within the sweep's gap
        // and the cast tolerance (a few mm): before the wall, never in it.
        let face = 0.95 - 0.05;
        assert!(
            stop.path[1][0] <= face + 1e-4 && stop.path[1][0] > face - 0.02,
            "{D}D: stopped at {:?}",
            stop.path[1]
        );
        // 8.3 m a step, 0.9 m of it before the wall: about a ninth of the step.
        assert!(stop.stopped.unwrap() < 0.2, "{:?}", stop.stopped);
        let g = sweeps.geometry();
        assert_eq!(g.lines.len(), steps.len());
        assert!(!g.points.is_empty());
        sweeps.clear();
        assert_eq!(sweeps.steps().count(), 0);
    }

    #[test]
    fn sweeps_2d_and_3d() {
        bullet_is_swept_and_stopped::<2>();
        bullet_is_swept_and_stopped::<3>();
    }
}
