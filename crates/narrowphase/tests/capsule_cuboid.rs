//! A capsule against a cuboid, the closed form: parry's exact answers on random poses, and the
//! manifolds a solver rests on (a capsule lying flat gives two points with ids that survive a
//! slide and a small turn, an upright one a single point under its cap, one across a box's edge
//! a single point). Each check is one generic function run for D = 2 and D = 3.

mod common;

use common::{
    about_z, angle_deg, angles, capsule, only_manifold, pose_pair, size, unit3, world, Oracle, Prim,
};
use fathom_math::{Dim, Pose, Real, Space, Vector};
use fathom_narrowphase::{
    contacts, penetration, ContactOptions, Contacts, DEFAULT_MIN_CELL_FRACTION,
};
use proptest::prelude::*;

/// Exact geometry in f32 on metre-sized shapes: a few ulps of the coordinates.
const EXACT: Real = 1e-5;

/// A random capsule against a random box around it, about half the cases overlapping: the
/// contacts and the penetration agree with parry (on the capsule's core segment, less the
/// radius, which is exact).
fn agrees_with_parry<const D: usize>(
    (hh, r): (Real, Real),
    half: [Real; 3],
    ra: [Real; 3],
    rb: [Real; 3],
    dir: [Real; 3],
    t: Real,
) where
    Space<D>: Dim<D> + Oracle<D>,
{
    let (a, b) = (
        Prim::<D>::Capsule(hh, r),
        Prim::Cuboid(Space::<D>::vec(half)),
    );
    let (sa, sb) = (size(&a), size(&b));
    let small = sa.min(sb);
    let (pa, pb) = pose_pair::<D>((sa, sb), ra, rb, dir, t);
    let (shape_a, shape_b) = (a.shape(), b.shape());
    let opts = ContactOptions::default();
    // The default margin is one smallest cell.
    let margin = DEFAULT_MIN_CELL_FRACTION * small;
    // Where parry has no answer (a segment touching the box, rarely) there is nothing to check.
    let Some((dist, normal)) = Space::<D>::try_contact(&a, &pa, &b, &pb) else {
        return;
    };
    let c = contacts(&shape_a, &pa, &shape_b, &pb, &opts).unwrap();
    let m = contacts(&shape_b, &pb, &shape_a, &pa, &opts).unwrap();
    assert_eq!(c.stats.evaluations, 0, "a closed form evaluates no field");
    // Both sides are exact up to f32 round-off (EXACT) on shapes about a metre across.
    if dist > margin + EXACT {
        assert!(
            c.manifolds.is_empty(),
            "parry {dist}, margin {margin}: {c:?}"
        );
        assert!(m.manifolds.is_empty());
        return;
    }
    if dist > -EXACT {
        return;
    }
    let man = only_manifold(&c);
    let mirrored = only_manifold(&m);
    assert!(
        (man.normal + mirrored.normal).norm() < EXACT,
        "mirrored normal"
    );
    assert_eq!(man.points.len(), mirrored.points.len());
    assert!((man.normal.norm() - 1.0).abs() < 1e-4, "unit normal");
    for p in &man.points {
        let sep = (p.point_b - p.point_a).dot(&man.normal);
        assert!(
            (sep - p.depth).abs() < EXACT,
            "depth is the points' separation"
        );
    }
    let pen = penetration(&shape_a, &pa, &shape_b, &pb, &opts).unwrap();
    let deep = pen.deepest.expect("parry overlaps");
    // The bounds: 1% of the smaller shape's size (plus round-off) and 3 degrees.
    let tol = 0.01 * small + EXACT;
    // B moved along `n` by `depth` and the tolerance no longer overlaps A: parry's distance of
    // separated shapes (GJK) is reliable, unlike its depth of a segment through a box. `None`
    // where parry has no answer.
    let separates = |n: &Vector<D>, depth: Real| {
        let moved = Space::<D>::shifted(&pb, &(n * (depth + tol)));
        Space::<D>::try_contact(&a, &pa, &b, &moved).map(|(after, _)| after >= -EXACT)
    };
    let deepest = man
        .points
        .iter()
        .map(|p| p.depth)
        .fold(Real::INFINITY, Real::min);
    assert!(
        (deepest + deep.depth).abs() <= tol,
        "deepest point {deepest} vs penetration {}: {man:?}",
        deep.depth
    );
    // Ours are ways out: B moved by our depth along our normal is free.
    for (n, depth, what) in [
        (man.normal, -deepest, "manifold"),
        (deep.normal, deep.depth, "penetration"),
    ] {
        assert!(
            separates(&n, depth) != Some(false),
            "{what} normal {n:?} and depth {depth} (parry {normal:?}, {}) do not separate",
            -dist
        );
    }
    // And the least ones: parry's depth and normal, when parry's answer is itself a way out.
    // With the core segment deep in the box parry was seen to give 0.083 where the segment
    // needs 0.158 to leave (the separating axis answer, which sampling 400k directions
    // confirmed), and such an answer does not separate.
    if separates(&normal, -dist) != Some(true) {
        return;
    }
    assert!(
        (deep.depth + dist).abs() <= tol,
        "penetration {} vs parry {}",
        deep.depth,
        -dist
    );
    // Within 3 degrees of parry's normal, unless the least translation is not unique (a
    // capsule parallel to a face over a ridge): ours is then another one (checked above).
    let ang = angle_deg(&deep.normal, &normal);
    assert!(
        ang <= 3.0 || separates(&deep.normal, deep.depth) != Some(false),
        "{ang} deg"
    );
}

fn half() -> impl Strategy<Value = [Real; 3]> {
    [0.2f32..0.8, 0.2f32..0.8, 0.2f32..0.8]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, ..ProptestConfig::default() })]

    #[test]
    fn agrees_with_parry_3d(c in capsule(), h in half(), ra in angles(), rb in angles(),
                            dir in unit3(), t in 0.1f32..1.1) {
        agrees_with_parry::<3>(c, h, ra, rb, dir, t);
    }

    #[test]
    fn agrees_with_parry_2d(c in capsule(), h in half(), ra in angles(), rb in angles(),
                            dir in unit3(), t in 0.1f32..1.1) {
        agrees_with_parry::<2>(c, h, ra, rb, dir, t);
    }
}

/// The box of the resting tests, its pose (turned, so that its frame is not the world's) and
/// a capsule of core half length 0.4 and radius 0.2.
struct Scene<const D: usize>
where
    Space<D>: Dim<D>,
{
    box_half: Vector<D>,
    box_pose: Pose<D>,
}

const HH: Real = 0.4;
const R: Real = 0.2;

impl<const D: usize> Scene<D>
where
    Space<D>: Dim<D> + Oracle<D>,
{
    fn new() -> Self {
        Self {
            box_half: Space::<D>::vec([1.0, 0.5, 0.8]),
            box_pose: Space::<D>::pose(Space::<D>::vec([0.3, -0.4, 0.2]), about_z::<D>(0.2)),
        }
    }

    /// The capsule at `local` (a pose in the box's frame), world frame.
    fn capsule_at(&self, local: Pose<D>) -> Pose<D> {
        self.box_pose * local
    }

    /// Contacts both ways round: capsule first, and box first (mirrored: the same points, the
    /// normal reversed, the points swapped).
    fn contacts(&self, capsule_pose: &Pose<D>) -> Contacts<D> {
        let capsule = Prim::<D>::Capsule(HH, R).shape();
        let cuboid = Prim::<D>::Cuboid(self.box_half).shape();
        let opts = ContactOptions::default();
        let c = contacts(&capsule, capsule_pose, &cuboid, &self.box_pose, &opts).unwrap();
        let m = contacts(&cuboid, &self.box_pose, &capsule, capsule_pose, &opts).unwrap();
        assert_eq!(c.manifolds.len(), m.manifolds.len());
        for (a, b) in c.manifolds.iter().zip(&m.manifolds) {
            assert!((a.normal + b.normal).norm() < EXACT);
            for (p, q) in a.points.iter().zip(&b.points) {
                assert_eq!(
                    (p.point_a, p.point_b, p.depth, p.id),
                    (q.point_b, q.point_a, q.depth, q.id)
                );
            }
        }
        c
    }

    /// The box's top face normal in the world, pointing from the capsule into the box.
    fn down(&self) -> Vector<D> {
        self.box_pose
            .transform_vector(&-Space::<D>::vec([0.0, 1.0, 0.0]))
    }
}

/// A capsule lying along the box's x on its top face, pressed 1 mm in: two points at the core's
/// ends' feet, depth -1 mm, normal into the top face; slid 1 mm and turned a little (tilted about
/// z by 5 mrad, and in 3D turned 10 mrad about the vertical), the same two ids at the same ends
/// and the analytic depths.
fn capsule_lying_flat_gives_two_stable_points<const D: usize>()
where
    Space<D>: Dim<D> + Oracle<D>,
{
    let s = Scene::<D>::new();
    let top = s.box_half[1];
    let lie = std::f32::consts::FRAC_PI_2;
    let centre = |dx: Real| Space::<D>::vec([-0.2 + dx, top + R - 0.001, 0.1]);
    // Variants: (slide, tilt about z, turn about the vertical (3D)).
    let variants: [(Real, Real, Real); 4] = [
        (0.0, 0.0, 0.0),
        (0.001, 0.0, 0.0),
        (0.0, 0.005, 0.0),
        (0.001, -0.005, if D == 3 { 0.01 } else { 0.0 }),
    ];
    let mut ids = Vec::new();
    for (dx, tilt, turn) in variants {
        let lying = Space::<D>::pose(Vector::<D>::zeros(), about_z::<D>(lie + tilt));
        let turned = Space::<D>::pose(Vector::<D>::zeros(), [0.0, turn, 0.0]);
        let mut local = turned * lying;
        local.translation.vector = centre(dx);
        let pose = s.capsule_at(local);
        let c = s.contacts(&pose);
        let m = only_manifold(&c);
        assert_eq!(m.points.len(), 2, "two points: {m:?}");
        assert!((m.normal - s.down()).norm() < EXACT, "{m:?}");
        // The core's ends, box frame, each with its expected point on the face and depth.
        let ends = [-HH, HH].map(|y| {
            let mut e = Vector::<D>::zeros();
            e[1] = y;
            local.transform_point(&nalgebra::Point::from(e)).coords
        });
        let mut by_end: Vec<u32> = Vec::new();
        for e in ends {
            let mut foot = e;
            foot[1] = top;
            let want_b = world(&s.box_pose, foot);
            let p = m
                .points
                .iter()
                .min_by(|p, q| {
                    let (dp, dq) = ((p.point_b - want_b).norm(), (q.point_b - want_b).norm());
                    dp.total_cmp(&dq)
                })
                .unwrap();
            assert!(
                (p.point_b - want_b).norm() < EXACT,
                "foot {want_b:?}: {m:?}"
            );
            let depth = e[1] - top - R;
            assert!(
                (p.depth - depth).abs() < EXACT,
                "depth {} vs {depth}",
                p.depth
            );
            by_end.push(p.id);
        }
        assert_ne!(by_end[0], by_end[1], "distinct ids");
        ids.push(by_end);
    }
    assert!(ids.iter().all(|i| *i == ids[0]), "ids survive: {ids:?}");
}

#[test]
fn capsule_lying_flat_gives_two_stable_points_2d() {
    capsule_lying_flat_gives_two_stable_points::<2>();
}

#[test]
fn capsule_lying_flat_gives_two_stable_points_3d() {
    capsule_lying_flat_gives_two_stable_points::<3>();
}

/// A capsule standing upright on the box's top, 5 mm in: one point under its cap, at the
/// lower core end's foot, depth -5 mm.
fn upright_capsule_touches_at_one_point<const D: usize>()
where
    Space<D>: Dim<D> + Oracle<D>,
{
    let s = Scene::<D>::new();
    let top = s.box_half[1];
    let centre = Space::<D>::vec([0.3, top + HH + R - 0.005, -0.2]);
    let pose = s.capsule_at(Space::<D>::pose(centre, [0.0; 3]));
    let c = s.contacts(&pose);
    let m = only_manifold(&c);
    assert_eq!(m.points.len(), 1, "{m:?}");
    assert!((m.normal - s.down()).norm() < EXACT);
    let mut foot = centre;
    foot[1] = top;
    let p = m.points[0];
    assert!(
        (p.point_b - world(&s.box_pose, foot)).norm() < EXACT,
        "{p:?}"
    );
    assert!((p.depth + 0.005).abs() < EXACT, "{p:?}");
}

#[test]
fn upright_capsule_touches_at_one_point_2d() {
    upright_capsule_touches_at_one_point::<2>();
}

#[test]
fn upright_capsule_touches_at_one_point_3d() {
    upright_capsule_touches_at_one_point::<3>();
}

/// A unit box turned 45 degrees about z, so its top is an edge along z (3D) or a corner (2D)
/// at height sqrt(2)/2, and a capsule lying along x across it: one point, over the edge, with
/// the analytic depth. Twice: the capsule 1 cm in with its core outside the box (closest
/// points), and the core itself 5 cm into the box (the edge axis, or in 2D the core's normal).
fn capsule_across_an_edge_touches_at_one_point<const D: usize>()
where
    Space<D>: Dim<D> + Oracle<D>,
{
    let cube = Prim::<D>::Cuboid(Space::<D>::vec([0.5, 0.5, 0.5])).shape();
    let box_pose = Space::<D>::pose(
        Vector::<D>::zeros(),
        about_z::<D>(std::f32::consts::FRAC_PI_4),
    );
    let reach = 0.5 * 2f32.sqrt();
    let opts = ContactOptions::default();
    // (radius, core height): the capsule's bottom 1 cm below the edge (depth -0.01), then the
    // core 5 cm below it with a radius of 0.1 (depth -0.15: the least way out is straight up;
    // the faces at 45 degrees would need 0.39 more).
    for (r, height, depth) in [(0.3, reach + 0.3 - 0.01, -0.01), (0.1, reach - 0.05, -0.15)] {
        let capsule = Prim::<D>::Capsule(0.5, r).shape();
        let pose = Space::<D>::pose(
            Space::<D>::vec([0.1, height, 0.0]),
            about_z::<D>(std::f32::consts::FRAC_PI_2),
        );
        let c = contacts(&capsule, &pose, &cube, &box_pose, &opts).unwrap();
        let m = only_manifold(&c);
        assert_eq!(m.points.len(), 1, "{m:?}");
        let down = -Space::<D>::vec([0.0, 1.0, 0.0]);
        assert!((m.normal - down).norm() < EXACT, "{m:?}");
        let p = m.points[0];
        assert!(
            (p.depth - depth).abs() < EXACT,
            "depth {} vs {depth}",
            p.depth
        );
        // On the box: the edge's (corner's) top, straight under the core.
        assert!(
            (p.point_b - Space::<D>::vec([0.0, reach, 0.0])).norm() < EXACT,
            "{p:?}"
        );
        let pen = penetration(&capsule, &pose, &cube, &box_pose, &opts).unwrap();
        let deep = pen.deepest.unwrap();
        assert!((deep.depth + depth).abs() < EXACT && (deep.normal - down).norm() < EXACT);
    }
}

#[test]
fn capsule_across_an_edge_touches_at_one_point_2d() {
    capsule_across_an_edge_touches_at_one_point::<2>();
}

#[test]
fn capsule_across_an_edge_touches_at_one_point_3d() {
    capsule_across_an_edge_touches_at_one_point::<3>();
}
