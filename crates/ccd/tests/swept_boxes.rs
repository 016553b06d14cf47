//! The swept-box cull: whenever it says two boxes stay apart, time of impact (conservative
//! advancement on the exact box-box separation) finds no contact and a dense sampling of
//! the boxes' surfaces over the motion finds no point within the slack; it drops a box
//! falling past its neighbour; 2D and 3D, every orientation.
mod common;

use common::{axis, translation, Rng};
use fathom_ccd::{swept_boxes_may_meet, time_of_impact, Motion, ToiOptions, ToiResult};
use fathom_math::{Aabb, Dim, Pose, Real, Space, Vector};
use fathom_sdf::{Sdf, Shape};

/// f32 round-off of distances between points a few metres from the origin.
const ROUND: Real = 1e-5;

/// The largest of `n` samples per edge of A's surface, placed at `s` of the motion, how
/// far inside `slack` of B they come (positive: a point of A closer than the slack).
fn deepest_sample<const D: usize>(
    half_a: &Vector<D>,
    pose_a: &Pose<D>,
    b: &Shape<D>,
    pose_b: &Pose<D>,
    shift: &Vector<D>,
    slack: Real,
) -> Real
where
    Space<D>: Dim<D>,
{
    let n = 6usize;
    let mut worst = Real::NEG_INFINITY;
    for step in 0..=8 {
        let moved = *shift * (step as Real / 8.0);
        // Grid points of the box with at least one coordinate on a face.
        for k in 0..(n + 1).pow(D as u32) {
            let idx = |i: usize| (k / (n + 1).pow(i as u32)) % (n + 1);
            if !(0..D).any(|i| idx(i) == 0 || idx(i) == n) {
                continue;
            }
            let local =
                Vector::<D>::from_fn(|i, _| half_a[i] * (2.0 * idx(i) as Real / n as Real - 1.0));
            let world = pose_a.transform_point(&local.into()).coords + moved;
            let in_b = pose_b.inverse_transform_point(&world.into()).coords;
            worst = worst.max(slack - b.distance(&in_b));
        }
    }
    worst
}

fn cull_never_drops_a_meeting_pair<const D: usize>()
where
    Space<D>: Dim<D>,
{
    let mut rng = Rng::new(0x5eed_b0c5 + D as u64);
    let (mut culled, cases) = (0, 3000);
    for _ in 0..cases {
        let half_a = Vector::<D>::from_fn(|_, _| rng.range(0.05, 0.8));
        let half_b = Vector::<D>::from_fn(|_, _| rng.range(0.05, 0.8));
        // Bounds off their frame's origin, as a shape's bounds may be.
        let (off_a, off_b) = (rng.vector::<D>(0.3), rng.vector::<D>(0.3));
        let (pose_a, pose_b) = (rng.pose::<D>(1.5), rng.pose::<D>(1.5));
        let shift = rng.vector::<D>(2.0);
        let slack = rng.range(0.001, 0.2);
        let bounds = |off: &Vector<D>, half: &Vector<D>| Aabb::new(off - half, off + half);
        let may = swept_boxes_may_meet(
            &bounds(&off_a, &half_a),
            &pose_a,
            &bounds(&off_b, &half_b),
            &pose_b,
            &shift,
            slack,
        );
        if may {
            continue;
        }
        culled += 1;
        // The same boxes as centred cuboids.
        let (box_a, box_b) = (
            Shape::<D>::cuboid(half_a).unwrap(),
            Shape::<D>::cuboid(half_b).unwrap(),
        );
        let (at_a, at_b) = (pose_a * translation(off_a), pose_b * translation(off_b));
        let moving = Motion::new(at_a, shift, Space::<D>::ang_zero());
        let opts = ToiOptions {
            epsilon: slack,
            ..ToiOptions::default()
        };
        let r = time_of_impact(&box_a, &moving, &box_b, &Motion::fixed(at_b), 1.0, &opts).unwrap();
        assert!(
            matches!(r, ToiResult::NoImpact { .. }),
            "culled, yet {r:?}: {half_a:?} {at_a:?} {half_b:?} {at_b:?} {shift:?} {slack}"
        );
        let inside = deepest_sample(&half_a, &at_a, &box_b, &at_b, &shift, slack);
        assert!(inside <= ROUND, "a sample {inside} inside the slack");
    }
    // Random boxes within a few metres: the cull must actually drop pairs.
    assert!(culled * 5 > cases, "only {culled} of {cases} culled");
}

#[test]
fn culled_pairs_never_meet_both_dimensions() {
    cull_never_drops_a_meeting_pair::<2>();
    cull_never_drops_a_meeting_pair::<3>();
}

fn falling_past_a_neighbour<const D: usize>()
where
    Space<D>: Dim<D>,
{
    // Two unit boxes side by side, 0.2 m apart along x; one falls 3 m along -y, past the
    // other. An isotropic speed bound (3 m per step against a 0.2 m gap) cannot drop the
    // pair; the faces along x keep the 0.2 m gap the whole way.
    let unit = Aabb::new(-Vector::<D>::repeat(0.5), Vector::<D>::repeat(0.5));
    let beside = translation(axis::<D>(0) * 1.2);
    let fall = -axis::<D>(1) * 3.0;
    assert!(!swept_boxes_may_meet(
        &unit,
        &Pose::<D>::identity(),
        &unit,
        &beside,
        &fall,
        0.19
    ));
    // Within the slack of the gap they may meet; drifting 0.5 m towards it while falling
    // only 0.3 m, they do meet (after 0.2 m, still side by side).
    assert!(swept_boxes_may_meet(
        &unit,
        &Pose::<D>::identity(),
        &unit,
        &beside,
        &fall,
        0.21
    ));
    let drift = axis::<D>(0) * 0.5 - axis::<D>(1) * 0.3;
    assert!(swept_boxes_may_meet(
        &unit,
        &Pose::<D>::identity(),
        &unit,
        &beside,
        &drift,
        0.0
    ));
}

#[test]
fn a_box_falling_past_its_neighbour_is_dropped_both_dimensions() {
    falling_past_a_neighbour::<2>();
    falling_past_a_neighbour::<3>();
}
