//! Segment geometry of the capsule pairs beyond the closest points (which live in
//! [`fathom_math::segment`]): a segment clipped to a slab.

use fathom_math::{Real, Vector};

/// The part of the parameter interval `within` of the segment `p0 + t (p1 - p0)` whose points
/// lie in the slab `lo <= n · p <= hi`, or `None` when it is empty.
pub(crate) fn clip_to_slab<const D: usize>(
    p0: &Vector<D>,
    p1: &Vector<D>,
    n: &Vector<D>,
    (lo, hi): (Real, Real),
    within: (Real, Real),
) -> Option<(Real, Real)> {
    let (s0, ds) = (n.dot(p0), n.dot(&(p1 - p0)));
    let (mut a, mut b) = within;
    if ds == 0.0 {
        if s0 < lo || s0 > hi {
            return None;
        }
    } else {
        let (ta, tb) = ((lo - s0) / ds, (hi - s0) / ds);
        a = a.max(ta.min(tb));
        b = b.min(ta.max(tb));
    }
    (a <= b).then_some((a, b))
}

#[cfg(test)]
mod tests {
    use super::*;
    use fathom_math::Vector3;

    #[test]
    fn a_slab_clips_a_segment_from_either_side() {
        // From x = -2 to x = 0.5 against -1 <= x <= 1: t in [0.4, 1]; reversed, [0, 0.6].
        let (p0, p1) = (Vector3::new(-2.0, 1.0, 0.0), Vector3::new(0.5, 1.0, 0.0));
        let x = Vector3::x();
        let (lo, hi) = clip_to_slab(&p0, &p1, &x, (-1.0, 1.0), (0.0, 1.0)).unwrap();
        assert!((lo - 0.4).abs() < 1e-6 && (hi - 1.0).abs() < 1e-6);
        let (lo, hi) = clip_to_slab(&p1, &p0, &x, (-1.0, 1.0), (0.0, 1.0)).unwrap();
        assert!(lo.abs() < 1e-6 && (hi - 0.6).abs() < 1e-6);
        // Parallel to the slab: all of it inside, or none.
        let y = Vector3::y();
        assert_eq!(
            clip_to_slab(&p0, &p1, &y, (0.0, 2.0), (0.0, 1.0)),
            Some((0.0, 1.0))
        );
        assert_eq!(clip_to_slab(&p0, &p1, &y, (1.5, 2.0), (0.0, 1.0)), None);
    }
}
