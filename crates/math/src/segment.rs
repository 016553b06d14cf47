//! Segments: the closest points of two of them. Capsules are segments inflated by a radius,
//! so the narrowphase's capsule pairs and continuous collision's capsule separations both
//! start from here.

use crate::Vector;

/// The closest points of segments `p0 p1` and `q0 q1` (either may have no length); parallel
/// segments give the pair at `p0`'s end of their overlap (Ericson, Real-Time Collision
/// Detection, 5.1.9).
pub fn closest_on_segments<const D: usize>(
    p0: &Vector<D>,
    p1: &Vector<D>,
    q0: &Vector<D>,
    q1: &Vector<D>,
) -> (Vector<D>, Vector<D>) {
    let (d1, d2, r) = (p1 - p0, q1 - q0, p0 - q0);
    let (a, e, f) = (d1.norm_squared(), d2.norm_squared(), d2.dot(&r));
    let (s, t) = if a <= 0.0 && e <= 0.0 {
        (0.0, 0.0)
    } else if a <= 0.0 {
        (0.0, (f / e).clamp(0.0, 1.0))
    } else {
        let c = d1.dot(&r);
        if e <= 0.0 {
            ((-c / a).clamp(0.0, 1.0), 0.0)
        } else {
            let b = d1.dot(&d2);
            let denom = a * e - b * b;
            let s = if denom > 0.0 {
                ((b * f - c * e) / denom).clamp(0.0, 1.0)
            } else {
                0.0
            };
            let t = (b * s + f) / e;
            if t < 0.0 {
                ((-c / a).clamp(0.0, 1.0), 0.0)
            } else if t > 1.0 {
                (((b - c) / a).clamp(0.0, 1.0), 1.0)
            } else {
                (s, t)
            }
        }
    };
    (p0 + d1 * s, q0 + d2 * t)
}

/// The closest points of segments `p0 p1` and `q0 q1`, robust when they are nearly parallel:
/// the nearer of [`closest_on_segments`]'s pair and each end with its closest point on the
/// other segment. In f32 the equations' denominator (the squared sine of the angle times the
/// squared lengths) cancels below about 1e-3 rad, and the pair can land at the wrong end of the
/// overlap: two 0.2 m segments 5.8e-4 rad apart came out 1.3e-4 m too far. Separated segments
/// are nearest at an end unless their closest points are inside both, where the equations are
/// well posed (or the distance barely varies along them).
pub fn closest_between_segments<const D: usize>(
    p0: &Vector<D>,
    p1: &Vector<D>,
    q0: &Vector<D>,
    q1: &Vector<D>,
) -> (Vector<D>, Vector<D>) {
    let on_q = |p: &Vector<D>| (*p, closest_on_segments(p, p, q0, q1).1);
    let on_p = |q: &Vector<D>| (closest_on_segments(q, q, p0, p1).1, *q);
    [on_q(p0), on_q(p1), on_p(q0), on_p(q1)].into_iter().fold(
        closest_on_segments(p0, p1, q0, q1),
        |best, c| {
            if (c.1 - c.0).norm_squared() < (best.1 - best.0).norm_squared() {
                c
            } else {
                best
            }
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Vector3;

    #[test]
    fn crossing_segments_meet_at_their_crossing() {
        let (s, t) = closest_on_segments(
            &Vector3::new(-1.0, 0.5, 0.0),
            &Vector3::new(1.0, 0.5, 0.0),
            &Vector3::new(0.25, 0.0, -1.0),
            &Vector3::new(0.25, 0.0, 1.0),
        );
        assert!((s - Vector3::new(0.25, 0.5, 0.0)).norm() < 1e-6);
        assert!((t - Vector3::new(0.25, 0.0, 0.0)).norm() < 1e-6);
    }

    #[test]
    fn a_point_against_a_segment_is_its_projection() {
        let p = Vector3::new(0.3, 1.0, 0.0);
        let (s, t) = closest_on_segments(&p, &p, &Vector3::zeros(), &Vector3::x());
        assert_eq!(s, p);
        assert!((t - Vector3::new(0.3, 0.0, 0.0)).norm() < 1e-6);
    }

    #[test]
    fn nearly_parallel_segments_are_nearest_at_the_right_end() {
        // Two 0.2 m segments 1 mm apart at one end and 1.2 mm at the other (1e-3 rad apart,
        // turned off the axes): the nearest pair is at the 1 mm end.
        let (c, s) = (0.6f32, 0.8f32);
        let turn = |x: f32, y: f32| Vector3::new(c * x - s * y, s * x + c * y, 0.3);
        let (p0, p1) = (turn(0.0, 0.0), turn(0.2, 0.0));
        let (q0, q1) = (turn(0.003, 0.001), turn(0.203, 0.0012));
        let (a, b) = closest_between_segments(&p0, &p1, &q0, &q1);
        assert!(((b - a).norm() - 0.001).abs() < 2e-6, "{}", (b - a).norm());
        assert!((b - q0).norm() < 1e-6);
    }
}
