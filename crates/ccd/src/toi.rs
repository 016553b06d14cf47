//! Body-versus-body time of impact by conservative advancement.
//!
//! Both shapes move rigidly over `[0, dt]` ([`Motion`]). At the current time
//! the separation search ([`crate::separation`]) proves the shapes are at
//! least `s` apart. No point of A approaches any point of B faster than
//! `|v_A - v_B| + |w_A| r_A + |w_B| r_B` (the rotation centres' relative speed
//! plus each spin times its reach), so nothing can touch before
//! `t + s / speed`: advancing there never skips a contact, however thin the
//! shapes or fast the motion. Iteration stops when the closest sample is
//! within `epsilon` (impact), when `dt` is reached (no impact), or when the
//! iteration or evaluation budget runs out (reported as such, never as "no impact").
//! A gap that cannot close to `epsilon` by `dt` at that speed ends it early (no impact).

use crate::bound_split::{Scratch, Stop};
use crate::error::{check_non_negative, Result};
use crate::field::Field;
use crate::motion::Motion;
use crate::options::ToiOptions;
use crate::separation::{separation, Separation};
use fathom_math::{Dim, Pose, Real, Space, Vector};
use fathom_sdf::Sdf;

/// The outcome of [`time_of_impact`]. Points and normals are in the world frame.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ToiResult<const D: usize>
where
    Space<D>: Dim<D>,
{
    /// The shapes come within `epsilon` of each other at `time`.
    Impact {
        /// Seconds from the start of the step, in `[0, dt]`.
        time: Real,
        /// The contact point (midway between the witnesses), world frame.
        point: Vector<D>,
        /// Unit contact normal from A towards B, world frame.
        normal: Vector<D>,
        /// Estimated closest point on A's surface at `time`, world frame.
        point_a: Vector<D>,
        /// Estimated closest point on B's surface at `time`, world frame.
        point_b: Vector<D>,
        /// A's pose at `time`.
        pose_a: Pose<D>,
        /// B's pose at `time`.
        pose_b: Pose<D>,
        /// Advancement iterations taken.
        iterations: u32,
    },
    /// The shapes already overlap at `t = 0`: a contact to resolve, not an impact.
    Overlapping {
        /// A point in the overlap (midway between the witnesses), world frame.
        point: Vector<D>,
        /// Unit normal from A towards B (the direction to push B out), world frame.
        normal: Vector<D>,
        /// How deep the deepest sample found is inside both shapes together, metres (a lower bound).
        depth: Real,
    },
    /// No contact within `[0, dt]`, proven.
    NoImpact {
        /// Advancement iterations taken.
        iterations: u32,
    },
    /// The iteration or evaluation budget ran out; no contact before `time_reached`
    /// is proven, the rest of the step is undecided.
    IterationCap {
        /// Seconds up to which the step is proven free of contact.
        time_reached: Real,
        /// Advancement iterations taken.
        iterations: u32,
    },
}

/// The earliest time in `[0, dt]` (seconds) at which `a`, moving by `motion_a`, comes
/// within `opts.epsilon` of `b`, moving by `motion_b` (a fixed `b` is [`Motion::fixed`]).
///
/// Errors: a non-finite motion (named `motion_a` / `motion_b`), a negative or non-finite
/// `dt`, bad `opts`, a shape (`a` / `b`) with a bad Lipschitz constant or a NaN distance.
pub fn time_of_impact<const D: usize>(
    a: &dyn Sdf<D>,
    motion_a: &Motion<D>,
    b: &dyn Sdf<D>,
    motion_b: &Motion<D>,
    dt: Real,
    opts: &ToiOptions,
) -> Result<ToiResult<D>>
where
    Space<D>: Dim<D>,
{
    motion_a.validate("motion_a")?;
    motion_b.validate("motion_b")?;
    check_non_negative("dt", dt)?;
    opts.validate()?;
    time_of_impact_trusted(a, motion_a, b, motion_b, dt, opts)
}

/// [`time_of_impact`] for a caller that has validated the motions, `dt` and `opts` itself (a
/// world checks poses, velocities and settings where they enter it, not once per pair per
/// step). Invalid inputs give an unspecified result, never undefined behaviour; a shape with
/// a bad Lipschitz constant or a NaN distance is still an error.
pub fn time_of_impact_trusted<const D: usize>(
    a: &dyn Sdf<D>,
    motion_a: &Motion<D>,
    b: &dyn Sdf<D>,
    motion_b: &Motion<D>,
    dt: Real,
    opts: &ToiOptions,
) -> Result<ToiResult<D>>
where
    Space<D>: Dim<D>,
{
    let (fa, fb) = (Field::new("a", a)?, Field::new("b", b)?);
    let speed = (motion_a.linvel - motion_b.linvel).norm()
        + motion_a.spin_speed(a)
        + motion_b.spin_speed(b);
    let mut heap = Scratch::new();
    let mut evals_left = opts.max_evaluations;
    let (mut t, mut iterations): (Real, u32) = (0.0, 0);
    loop {
        let (pose_a, pose_b) = (motion_a.pose_at(t), motion_b.pose_at(t));
        let threshold = if iterations == 0 { 0.0 } else { opts.epsilon };
        let stop = Stop {
            threshold,
            epsilon: opts.epsilon,
            budget: evals_left,
        };
        let Some(sep) = separation(&fa, &pose_a, &fb, &pose_b, &stop, &mut heap)? else {
            return Ok(ToiResult::NoImpact { iterations }); // a shape with no solid
        };
        evals_left = evals_left.saturating_sub(sep.evals);
        if iterations == 0 && sep.upper < 0.0 {
            // The first sample inside proves the overlap; refine to the deepest.
            let deepest = Stop {
                threshold: Real::NEG_INFINITY,
                ..stop
            };
            let sep = separation(&fa, &pose_a, &fb, &pose_b, &deepest, &mut heap)?.unwrap_or(sep);
            return Ok(overlapping(&sep));
        }
        if sep.upper < opts.epsilon {
            return Ok(impact(&sep, t, pose_a, pose_b, iterations));
        }
        if sep.lower <= 0.0 || sep.lower.is_nan() {
            return Ok(ToiResult::IterationCap {
                time_reached: t,
                iterations,
            });
        }
        // Nothing closes faster than `speed`: a gap that stays over `epsilon` until `dt`
        // proves no impact without sampling the end of the step.
        if t >= dt || speed == 0.0 || t + (sep.lower - opts.epsilon) / speed >= dt {
            return Ok(ToiResult::NoImpact { iterations });
        }
        if iterations >= opts.max_iterations || evals_left == 0 {
            return Ok(ToiResult::IterationCap {
                time_reached: t,
                iterations,
            });
        }
        t = (t + sep.lower / speed).min(dt);
        iterations += 1;
    }
}

fn overlapping<const D: usize>(sep: &Separation<D>) -> ToiResult<D>
where
    Space<D>: Dim<D>,
{
    let point = (sep.point_a + sep.point_b) * 0.5;
    ToiResult::Overlapping {
        point,
        normal: sep.normal,
        depth: -sep.upper,
    }
}

fn impact<const D: usize>(
    sep: &Separation<D>,
    time: Real,
    pose_a: Pose<D>,
    pose_b: Pose<D>,
    iterations: u32,
) -> ToiResult<D>
where
    Space<D>: Dim<D>,
{
    ToiResult::Impact {
        time,
        point: (sep.point_a + sep.point_b) * 0.5,
        normal: sep.normal,
        point_a: sep.point_a,
        point_b: sep.point_b,
        pose_a,
        pose_b,
        iterations,
    }
}
