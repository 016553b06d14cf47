//! What a cast found: a hit, an overlap at the start, a miss, or the step cap.
//!
//! The four outcomes are distinct on purpose. A cast that ran out of steps has
//! not proven that the path is clear, so it must not read as a miss: the
//! caller falls back to a discrete test from `distance_reached`. An overlap at
//! the start is not a new impact either; the solver resolves it as a contact.

use fathom_math::{Dim, Pose, Real, Space, Vector};

/// The outcome of a cast. Vectors are in the frame of the query: the shape's
/// local frame for the plain casts, the world frame for the posed ones.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum CastResult<const D: usize> {
    /// The swept shape reaches the surface within the cast.
    Hit {
        /// How far the cast moved before contact, metres along the unit direction.
        distance: Real,
        /// `distance / max_dist` (0 when `max_dist` is 0): the time of contact as a fraction of the motion.
        fraction: Real,
        /// Where the swept shape's centre (the sphere's centre, the capsule's segment midpoint) is at contact.
        center: Vector<D>,
        /// The contact point on the target surface (estimated as the nearest surface
        /// point `q - n * d(q) / L` from the closest sample `q` of the swept shape's core).
        point: Vector<D>,
        /// The target's outward unit normal at the contact (its normalised gradient).
        normal: Vector<D>,
        /// Steps the march took (a jump to the shape's bounds counts as one).
        steps: u32,
    },
    /// The swept shape already overlaps the target at distance 0: an overlap to
    /// resolve, not a new impact.
    StartedInside {
        /// The surface point nearest the deepest sample found (estimate, see `Hit::point`).
        point: Vector<D>,
        /// The target's outward unit normal there: pushing along it separates.
        normal: Vector<D>,
        /// How deep the deepest sample lies inside, metres (a lower bound on the true depth).
        depth: Real,
    },
    /// The path up to `max_dist` is clear (proven by the field's bound at every step).
    Miss {
        /// Steps taken.
        steps: u32,
    },
    /// The step or evaluation budget ran out before the cast could decide. The path is
    /// proven clear only up to `distance_reached`; beyond it, fall back to a discrete test.
    StepCap {
        /// How far the cast proved the path clear, metres.
        distance_reached: Real,
        /// Steps taken.
        steps: u32,
    },
}

impl<const D: usize> CastResult<D> {
    /// The distance of contact: `Some(distance)` for a hit, `Some(0)` for a start inside, else `None`.
    pub fn hit_distance(&self) -> Option<Real> {
        match self {
            Self::Hit { distance, .. } => Some(*distance),
            Self::StartedInside { .. } => Some(0.0),
            _ => None,
        }
    }

    /// True for [`CastResult::Hit`] and [`CastResult::StartedInside`].
    pub fn is_contact(&self) -> bool {
        self.hit_distance().is_some()
    }

    /// The same result with its points and normal carried from a shape's local frame
    /// to its parent (world) frame by `pose`.
    pub fn transformed(&self, pose: &Pose<D>) -> Self
    where
        Space<D>: Dim<D>,
    {
        let point = |p: &Vector<D>| pose.transform_point(&(*p).into()).coords;
        let vector = |v: &Vector<D>| pose.transform_vector(v);
        match *self {
            Self::Hit {
                distance,
                fraction,
                center,
                point: p,
                normal,
                steps,
            } => Self::Hit {
                distance,
                fraction,
                center: point(&center),
                point: point(&p),
                normal: vector(&normal),
                steps,
            },
            Self::StartedInside {
                point: p,
                normal,
                depth,
            } => Self::StartedInside {
                point: point(&p),
                normal: vector(&normal),
                depth,
            },
            other => other,
        }
    }
}
