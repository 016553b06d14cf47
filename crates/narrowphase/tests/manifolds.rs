//! Contact manifolds a solver can stack on: resting boxes give their corners with stable ids,
//! shapes touching in two places give two manifolds. Each check is one generic function run
//! for D = 2 and D = 3.

mod common;

use common::Oracle;
use fathom_math::{Dim, Pose, Real, Space, Vector};
use fathom_narrowphase::{contacts, ContactOptions, Contacts, DEFAULT_MIN_CELL_FRACTION};
use fathom_sdf::{Sdf, Shape};

/// The smallest cell the default options give for a shape of bounding radius `r`.
fn cell(r: Real) -> Real {
    DEFAULT_MIN_CELL_FRACTION * r
}

/// The bottom corners (y = -h_y) of a box of half extents `h` at `pose`, world frame.
fn bottom_corners<const D: usize>(h: &Vector<D>, pose: &Pose<D>) -> Vec<Vector<D>>
where
    Space<D>: Dim<D>,
{
    let n = 1usize << (D - 1);
    (0..n)
        .map(|mask| {
            let mut c = Vector::<D>::zeros();
            let mut bit = 0;
            for i in 0..D {
                c[i] = if i == 1 {
                    -h[1]
                } else {
                    let s = if mask >> bit & 1 == 1 { 1.0 } else { -1.0 };
                    bit += 1;
                    s * h[i]
                };
            }
            pose.transform_point(&nalgebra::Point::from(c)).coords
        })
        .collect()
}

/// One manifold whose points sit on the box's bottom corners (each within `tol`), with depths
/// within `tol` of zero; returns each corner's id.
fn corner_ids<const D: usize>(
    c: &Contacts<D>,
    corners: &[Vector<D>],
    tol: Real,
    b_is_box: bool,
) -> Vec<u32>
where
    Space<D>: Dim<D>,
{
    assert_eq!(c.manifolds.len(), 1, "one region: {c:?}");
    let m = &c.manifolds[0];
    assert_eq!(m.points.len(), corners.len(), "a point per corner: {m:?}");
    assert!((m.normal.norm() - 1.0).abs() < 1e-4);
    corners
        .iter()
        .map(|corner| {
            let p = m
                .points
                .iter()
                .min_by(|x, y| {
                    let (px, py) = if b_is_box {
                        (x.point_b, y.point_b)
                    } else {
                        (x.point_a, y.point_a)
                    };
                    (px - corner).norm().total_cmp(&(py - corner).norm())
                })
                .unwrap();
            let q = if b_is_box { p.point_b } else { p.point_a };
            assert!(
                (q - corner).norm() <= tol,
                "corner {corner:?} nearest point {q:?} (tol {tol})"
            );
            assert!(p.depth.abs() <= tol, "resting depth {}", p.depth);
            p.id
        })
        .collect()
}

fn resting_box_pose<const D: usize>(h: &Vector<D>, top: Real, dx: Real) -> Pose<D>
where
    Space<D>: Dim<D> + Oracle<D>,
{
    // Turned about the vertical axis in 3D (so the corners are not on the tangent axes).
    Space::<D>::pose(
        Space::<D>::vec([0.1 + dx, top + h[1], -0.2 + 0.5 * dx]),
        [0.0, 0.4, 0.0],
    )
}

/// A box resting on a half-space and on a larger box: one manifold of 4 (3D) or 2 (2D) points
/// at its bottom corners, depths about zero, and the same ids after a small slide.
fn box_rests_on_ground_and_on_box<const D: usize>()
where
    Space<D>: Dim<D> + Oracle<D>,
{
    let h = Space::<D>::vec([0.5, 0.3, 0.4]);
    let small = Shape::<D>::cuboid(h).unwrap();
    let ground = Shape::<D>::half_space(Space::<D>::vec([0.0, 1.0, 0.0]), 0.0).unwrap();
    let big_h = Space::<D>::vec([2.0, 0.5, 2.0]);
    let big = Shape::<D>::cuboid(big_h).unwrap();
    let big_pose = Space::<D>::pose(Space::<D>::vec([0.0, -0.5, 0.0]), [0.0; 3]);
    let opts = ContactOptions::default();
    // The points are placed to within a leaf cell (half a smallest cell) and projected onto the
    // surfaces; one smallest cell is the tolerance.
    let tol = cell(small.bounds().radius());
    for (floor, floor_pose) in [(&ground, Pose::<D>::identity()), (&big, big_pose)] {
        let mut ids = Vec::new();
        for dx in [0.0, 0.01] {
            let pose = resting_box_pose(&h, 0.0, dx);
            let c = contacts(floor, &floor_pose, &small, &pose, &opts).unwrap();
            assert!(!c.stats.hit_budget);
            let up = Space::<D>::vec([0.0, 1.0, 0.0]);
            assert!(
                (c.manifolds[0].normal - up).norm() < 1e-3,
                "normal from floor to box: {c:?}"
            );
            ids.push(corner_ids(&c, &bottom_corners(&h, &pose), tol, true));
            // The mirrored pair: the same contact seen from the box.
            let m = contacts(&small, &pose, floor, &floor_pose, &opts).unwrap();
            assert!(
                (m.manifolds[0].normal + up).norm() < 1e-3,
                "normal from box to floor"
            );
            corner_ids(&m, &bottom_corners(&h, &pose), tol, false);
        }
        assert_eq!(ids[0], ids[1], "ids survive a small slide");
        let mut unique = ids[0].clone();
        unique.sort_unstable();
        unique.dedup();
        assert_eq!(unique.len(), ids[0].len(), "ids are distinct");
    }
}

#[test]
fn box_rests_on_ground_and_on_box_2d() {
    box_rests_on_ground_and_on_box::<2>();
}

#[test]
fn box_rests_on_ground_and_on_box_3d() {
    box_rests_on_ground_and_on_box::<3>();
}

/// A tilted box resting on one bottom edge (3D) or corner (2D) pressed into the floor: the
/// deepest point is its lowest corner with the analytic depth.
fn tilted_box_reports_its_lowest_corner<const D: usize>()
where
    Space<D>: Dim<D> + Oracle<D>,
{
    let h = Space::<D>::vec([0.5, 0.3, 0.4]);
    let small = Shape::<D>::cuboid(h).unwrap();
    let ground = Shape::<D>::half_space(Space::<D>::vec([0.0, 1.0, 0.0]), 0.0).unwrap();
    // Tilted 0.3 rad about z (the 2D rotation) and pushed 0.01 below touching.
    let angle: Real = 0.3;
    let touch = h[0] * angle.sin() + h[1] * angle.cos();
    let pose = Space::<D>::pose(
        Space::<D>::vec([0.0, touch - 0.01, 0.0]),
        [angle, 0.0, 0.0].map(|a| a),
    );
    let pose = if D == 3 {
        Space::<D>::pose(pose.translation.vector, [0.0, 0.0, angle])
    } else {
        pose
    };
    let c = contacts(
        &ground,
        &Pose::<D>::identity(),
        &small,
        &pose,
        &ContactOptions::default(),
    )
    .unwrap();
    assert_eq!(c.manifolds.len(), 1);
    let deepest = c.manifolds[0]
        .points
        .iter()
        .map(|p| p.depth)
        .fold(Real::INFINITY, Real::min);
    let tol = cell(small.bounds().radius());
    // The lowest corner is 0.01 below the ground.
    assert!((deepest + 0.01).abs() <= tol, "deepest {deepest}");
}

#[test]
fn tilted_box_reports_its_lowest_corner_2d() {
    tilted_box_reports_its_lowest_corner::<2>();
}

#[test]
fn tilted_box_reports_its_lowest_corner_3d() {
    tilted_box_reports_its_lowest_corner::<3>();
}

/// A thin plank (2 cm thick) on the ground with a margin (5 cm) wider than it is thick, turned
/// slightly and either way up: every point is a corner of the face turned to the ground, at its
/// analytic height, and every such corner within the margin is there. A top corner standing
/// over a bottom one is within the margin too, but taking its place would drop a support.
fn thin_plank_keeps_its_lower_corners<const D: usize>()
where
    Space<D>: Dim<D> + Oracle<D>,
{
    let h = Space::<D>::vec([0.5, 0.01, 0.3]);
    let plank = Shape::<D>::cuboid(h).unwrap();
    let ground = Shape::<D>::half_space(Space::<D>::vec([0.0, 1.0, 0.0]), 0.0).unwrap();
    let margin = 0.05;
    let opts = ContactOptions {
        margin: Some(margin),
        ..ContactOptions::default()
    };
    let zero = Vector::<D>::zeros();
    for flip in [0.0, std::f32::consts::PI] {
        for tilt in [[0.0, 0.4, 0.0], [0.02, 0.4, -0.01], [-0.01, -1.0, 0.03]] {
            let turned = Space::<D>::pose(zero, tilt) * Space::<D>::pose(zero, [flip, 0.0, 0.0]);
            let corners: Vec<Vector<D>> = (0..1usize << D)
                .map(|bits| {
                    let c =
                        Vector::<D>::from_fn(|i, _| if bits >> i & 1 == 1 { h[i] } else { -h[i] });
                    turned.transform_vector(&c)
                })
                .collect();
            // Lowest corner 2 mm into the ground.
            let low = corners.iter().map(|c| c[1]).fold(Real::INFINITY, Real::min);
            let lift = Space::<D>::vec([0.1, -low - 0.002, -0.2]);
            let pose = Pose::<D>::from_parts(lift.into(), turned.rotation);
            let c = contacts(&ground, &Pose::<D>::identity(), &plank, &pose, &opts).unwrap();
            // The face turned to the ground: the corners on the side of local y that faces down.
            let down = if turned.transform_vector(&Space::<D>::vec([0.0, 1.0, 0.0]))[1] < 0.0 {
                1
            } else {
                0
            };
            let face: Vec<Vector<D>> = (0..1usize << D)
                .filter(|bits| bits >> 1 & 1 == down)
                .map(|bits| corners[bits] + lift)
                .filter(|c| c[1] <= margin)
                .collect();
            let what = format!("D={D} flip {flip} tilt {tilt:?}: {c:?}");
            assert_eq!(c.manifolds.len(), 1, "{what}");
            let m = &c.manifolds[0];
            assert_eq!(m.points.len(), face.len(), "{what}");
            for p in m.points.iter() {
                // Closed form: corners and heights to f32 rounding of the transforms.
                let on_face = face.iter().any(|c| (p.point_b - c).norm() < 1e-5);
                assert!(on_face, "{what}: {p:?} is not a lower corner");
                assert!((p.depth - p.point_b[1]).abs() < 1e-5, "{what}: {p:?}");
            }
        }
    }
}

#[test]
fn thin_plank_keeps_its_lower_corners_2d() {
    thin_plank_keeps_its_lower_corners::<2>();
}

#[test]
fn thin_plank_keeps_its_lower_corners_3d() {
    thin_plank_keeps_its_lower_corners::<3>();
}

/// An arch: a box with a box cut out of its underside, leaving two legs.
fn arch<const D: usize>() -> Shape<D>
where
    Space<D>: Dim<D> + Oracle<D>,
{
    let outer = Shape::<D>::cuboid(Space::<D>::vec([1.5, 0.5, 0.5])).unwrap();
    let cut = Shape::<D>::cuboid(Space::<D>::vec([1.0, 0.45, 0.6]))
        .unwrap()
        .transformed(Space::<D>::pose(
            Space::<D>::vec([0.0, -0.2, 0.0]),
            [0.0; 3],
        ))
        .unwrap();
    outer.difference(cut).unwrap()
}

/// An arch standing on the ground, and on a slab: one manifold under each leg.
fn arch_on_two_legs_gives_two_manifolds<const D: usize>()
where
    Space<D>: Dim<D> + Oracle<D>,
{
    let arch = arch::<D>();
    let pose = Space::<D>::pose(Space::<D>::vec([0.0, 0.5, 0.0]), [0.0; 3]);
    let ground = Shape::<D>::half_space(Space::<D>::vec([0.0, 1.0, 0.0]), 0.0).unwrap();
    let slab = Shape::<D>::cuboid(Space::<D>::vec([3.0, 0.25, 3.0])).unwrap();
    let slab_pose = Space::<D>::pose(Space::<D>::vec([0.0, -0.25, 0.0]), [0.0; 3]);
    for (floor, floor_pose) in [(&ground, Pose::<D>::identity()), (&slab, slab_pose)] {
        let c = contacts(floor, &floor_pose, &arch, &pose, &ContactOptions::default()).unwrap();
        assert_eq!(c.manifolds.len(), 2, "{c:?}");
        // Regions come ordered along x: the left leg (x in [-1.5, -1]) then the right one.
        // Each point within a smallest cell of its leg's footprint.
        let tol = cell(arch.bounds().radius());
        for (m, side) in c.manifolds.iter().zip([-1.0, 1.0]) {
            assert_eq!(m.points.len(), if D == 2 { 2 } else { 4 });
            for p in &m.points {
                let x = p.point_b[0] * side;
                assert!(
                    (1.0 - tol..=1.5 + tol).contains(&x),
                    "leg point at x = {}",
                    p.point_b[0]
                );
            }
        }
    }
}

#[test]
fn arch_on_two_legs_gives_two_manifolds_2d() {
    arch_on_two_legs_gives_two_manifolds::<2>();
}

#[test]
fn arch_on_two_legs_gives_two_manifolds_3d() {
    arch_on_two_legs_gives_two_manifolds::<3>();
}

/// Two interlocked tori (3D) touching at two places, two manifolds, each near its analytic
/// contact point ((1.5, 0, 0) and (-0.5, 0, 0): see the comment inside).
#[test]
fn interlocked_tori_touch_twice() {
    // Torus A about y (core circle radius 1 in the xz plane). Torus B about z, centred at
    // (0.5, 0, 0): its core passes 0.5 from A's core exactly at (1.5, 0, 0) and (-0.5, 0, 0),
    // and farther everywhere else. Tubes of 0.26 overlap there by 0.02.
    let t = Shape::<3>::torus(1.0, 0.26).unwrap();
    let pa = Pose::<3>::identity();
    let pb = Space::<3>::pose(
        Space::<3>::vec([0.5, 0.0, 0.0]),
        [std::f32::consts::FRAC_PI_2, 0.0, 0.0],
    );
    let c = contacts(&t, &pa, &t, &pb, &ContactOptions::default()).unwrap();
    assert_eq!(c.manifolds.len(), 2, "{c:?}");
    let tol = 0.05; // a few smallest cells (0.025): the contact patch is about 0.2 across.
    for (m, x) in c.manifolds.iter().zip([-0.5, 1.5]) {
        let deepest = m
            .points
            .iter()
            .min_by(|a, b| a.depth.total_cmp(&b.depth))
            .unwrap();
        let mid = (deepest.point_a + deepest.point_b) * 0.5;
        assert!(
            (mid - Space::<3>::vec([x, 0.0, 0.0])).norm() <= 0.26 + tol,
            "contact at {mid:?}"
        );
        assert!(
            (deepest.depth + 0.02).abs() <= tol,
            "depth {}",
            deepest.depth
        );
    }
}

/// A bar inside a ring (2D), touching its inner rim at both ends: two manifolds, one per end.
#[test]
fn bar_in_ring_touches_twice() {
    // Ring: core radius 1, half thickness 0.1, so its inner rim has radius 0.9. The bar's corners
    // (+-0.9, +-0.1) are at radius 0.9055: each end overlaps the rim by about 0.0055.
    let ring = Shape::<2>::ball(1.0).unwrap().shell(0.1).unwrap();
    let bar = Shape::<2>::cuboid(Space::<2>::vec([0.9, 0.1, 0.0])).unwrap();
    let c = contacts(
        &ring,
        &Pose::<2>::identity(),
        &bar,
        &Pose::<2>::identity(),
        &ContactOptions::default(),
    )
    .unwrap();
    assert_eq!(c.manifolds.len(), 2, "{c:?}");
    for (m, side) in c.manifolds.iter().zip([-1.0, 1.0]) {
        // From the ring (A) towards the bar (B): inwards, along -x at the right end.
        assert!(
            (m.normal - Space::<2>::vec([-side, 0.0, 0.0])).norm() < 0.15,
            "{m:?}"
        );
        for p in &m.points {
            assert!((p.point_b[0] - 0.9 * side).abs() <= 0.02, "{p:?}");
            assert!(p.depth <= 0.0 && p.depth >= -0.01, "{p:?}");
        }
    }
}

/// Two equal boxes stacked face on face and pressed 1 cm into each other: every corner of the
/// contact reads the overlap, -0.01 (a rim point must not read the side face's zero distance),
/// and the same ids after a small slide.
fn equal_boxes_pressed_together<const D: usize>()
where
    Space<D>: Dim<D> + Oracle<D>,
{
    let h = Space::<D>::vec([0.5, 0.5, 0.5]);
    let b = Shape::<D>::cuboid(h).unwrap();
    let below = Pose::<D>::identity();
    let opts = ContactOptions::default();
    let mut ids = Vec::new();
    for dx in [0.0, 0.002] {
        let above = Space::<D>::pose(Space::<D>::vec([dx, 0.99, 0.0]), [0.0; 3]);
        let c = contacts(&b, &below, &b, &above, &opts).unwrap();
        assert_eq!(c.manifolds.len(), 1, "{c:?}");
        let m = &c.manifolds[0];
        assert!((m.normal - Space::<D>::vec([0.0, 1.0, 0.0])).norm() < 1e-5);
        assert_eq!(m.points.len(), if D == 2 { 2 } else { 4 });
        for p in &m.points {
            // Exact geometry in f32: the overlap to float round-off.
            assert!((p.depth + 0.01).abs() < 1e-5, "depth {} in {m:?}", p.depth);
            let sep = (p.point_b - p.point_a).dot(&m.normal);
            assert!((sep - p.depth).abs() < 1e-5);
        }
        let mut id: Vec<u32> = m.points.iter().map(|p| p.id).collect();
        id.sort_unstable();
        ids.push(id);
    }
    assert_eq!(ids[0], ids[1], "ids survive a small slide");
}

#[test]
fn equal_boxes_pressed_together_2d() {
    equal_boxes_pressed_together::<2>();
}

#[test]
fn equal_boxes_pressed_together_3d() {
    equal_boxes_pressed_together::<3>();
}

/// A box overhanging the edge of the box below: the contact is the overlap of the two faces,
/// clipped at the lower box's side (x = 0.5), not the upper box's corners.
fn overhanging_box_is_clipped_at_the_edge<const D: usize>()
where
    Space<D>: Dim<D> + Oracle<D>,
{
    let h = Space::<D>::vec([0.5, 0.5, 0.5]);
    let b = Shape::<D>::cuboid(h).unwrap();
    let above = Space::<D>::pose(Space::<D>::vec([0.7, 0.995, 0.0]), [0.0; 3]);
    let c = contacts(
        &b,
        &Pose::<D>::identity(),
        &b,
        &above,
        &ContactOptions::default(),
    )
    .unwrap();
    let m = &c.manifolds[0];
    let xs: Vec<Real> = m.points.iter().map(|p| p.point_b[0]).collect();
    // The face overlap spans x in [0.2, 0.5].
    assert!(xs.iter().any(|x| (x - 0.5).abs() < 1e-5), "{xs:?}");
    assert!(xs.iter().any(|x| (x - 0.2).abs() < 1e-5), "{xs:?}");
    assert!(m.points.iter().all(|p| (p.depth + 0.005).abs() < 1e-5));
}

#[test]
fn overhanging_box_is_clipped_at_the_edge_2d() {
    overhanging_box_is_clipped_at_the_edge::<2>();
}

#[test]
fn overhanging_box_is_clipped_at_the_edge_3d() {
    overhanging_box_is_clipped_at_the_edge::<3>();
}

/// Two 3D boxes crossing edge on edge (each turned 45 degrees about a different axis, so only
/// an edge of each reaches the other): one point, the edges' closest points, with the analytic
/// depth.
#[test]
fn crossed_edges_meet_at_one_point() {
    use fathom_math::{Pose3, Vector3};
    let b = Shape::<3>::cuboid(Vector3::new(0.5, 0.5, 0.5)).unwrap();
    let q = std::f32::consts::FRAC_PI_4;
    // Lower box: its top edge along z at height sqrt(2)/2. Upper box: its bottom edge along x.
    let lower = Pose3::new(Vector3::zeros(), Vector3::new(0.0, 0.0, q));
    let reach = 0.5 * 2f32.sqrt();
    let upper = Pose3::new(
        Vector3::new(0.0, 2.0 * reach - 0.02, 0.0),
        Vector3::new(q, 0.0, 0.0),
    );
    let c = contacts(&b, &lower, &b, &upper, &ContactOptions::default()).unwrap();
    assert_eq!(c.manifolds.len(), 1, "{c:?}");
    let m = &c.manifolds[0];
    assert_eq!(m.points.len(), 1, "{m:?}");
    assert!((m.normal - Vector3::y()).norm() < 1e-4, "{m:?}");
    // The edges cross at the origin's vertical, overlapping by 2 cm.
    assert!((m.points[0].depth + 0.02).abs() < 1e-4, "{m:?}");
    assert!(m.points[0].point_a.xz().norm() < 1e-4);
}

/// A box half overhanging the box below (as in a pyramid), tilted a few milliradians one way
/// and then the other: one tilt puts the upper box's corner on the lower box's top face, the
/// other the lower box's corner on the upper box's bottom face, so the reference face flips
/// between the two boxes. The points are the same overlap corners either way and must keep
/// their ids, or a solver loses its warm start at every wobble (a 100-row pyramid lost 3% of
/// its points' warm starts per step and crept).
fn ids_survive_a_flip_of_reference_face<const D: usize>()
where
    Space<D>: Dim<D> + Oracle<D>,
{
    let h = Space::<D>::vec([0.5, 0.5, 0.5]);
    let b = Shape::<D>::cuboid(h).unwrap();
    let opts = ContactOptions::default();
    let by_position = |tilt: Real| {
        let angles = if D == 2 {
            [tilt, 0.0, 0.0]
        } else {
            [0.0, 0.0, tilt]
        };
        let above = Space::<D>::pose(Space::<D>::vec([0.5, 0.999, 0.0]), angles);
        let c = contacts(&b, &Pose::<D>::identity(), &b, &above, &opts).unwrap();
        assert_eq!(c.manifolds.len(), 1, "{c:?}");
        let mut points: Vec<(i32, i32, u32)> = c.manifolds[0]
            .points
            .iter()
            .map(|p| {
                // Positions to the decimetre: the overlap corners sit 0.5 m apart.
                let q = (p.point_a + p.point_b) * 0.5;
                let z = if D == 3 { q[2] } else { 0.0 };
                (
                    (q[0] * 10.0).round() as i32,
                    (z * 10.0).round() as i32,
                    p.id,
                )
            })
            .collect();
        points.sort_unstable();
        points
    };
    // 4 mrad across a 1 m face: 4 mm, four times the face hysteresis (1 mm per metre).
    let (left, right) = (by_position(0.004), by_position(-0.004));
    assert_eq!(left.len(), if D == 2 { 2 } else { 4 });
    assert_eq!(
        left, right,
        "same corners, same ids, whichever face is the reference"
    );
}

#[test]
fn ids_survive_a_flip_of_reference_face_2d() {
    ids_survive_a_flip_of_reference_face::<2>();
}

#[test]
fn ids_survive_a_flip_of_reference_face_3d() {
    ids_survive_a_flip_of_reference_face::<3>();
}
