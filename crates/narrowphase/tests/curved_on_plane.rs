//! Curved, non-convex shapes on a half-space (the general half-space pair): a torus lying flat
//! on the ground in 3D, an annulus (a disk with a hole) on a line in 2D. Before the half-space
//! pair searched a reach objective, a resting torus got no penetration at all and one contact
//! point on its flank, above the plane, so it rocked and sank. Each check is one generic function
//! run for D = 2 and D = 3, against the shapes' analytic lowest points.

mod common;

use common::Oracle;
use fathom_math::{Dim, Pose, Real, Space, Vector};
use fathom_narrowphase::{
    contacts, penetration, ContactOptions, Contacts, Manifold, DEFAULT_MIN_CELL_FRACTION,
};
use fathom_sdf::{Sdf, Shape};

/// The 3D torus and the 2D annulus, with what the tests need to know about their bottoms.
trait Ring<const D: usize>: Dim<D> + Oracle<D>
where
    Space<D>: Dim<D>,
{
    /// The shape, its hole around the local y axis.
    fn shape() -> Shape<D>;
    /// Height of the centre above the lowest point when tilted by `tilt` (3D: about x).
    fn centre_height(tilt: Real) -> Real;
    /// Distance of a local point from the set of lowest points of the untilted shape.
    fn bottom_distance(p: &Vector<D>) -> Real;
    /// Radius of curvature of the bottom across the set of lowest points.
    fn bottom_radius() -> Real;
}

/// How far a contact point may sit from the lowest points of a bottom of radius `r`: the
/// half-space pair puts a region's extremes where the surface normal leans atan(0.1) from the
/// ground's (its reach weight, see `pairs/halfspace_sdf.rs`), `0.1 r` aside and `0.005 r` up;
/// plus one smallest cell, the search's resolution.
fn beside_bottom(r: Real, cell: Real) -> Real {
    0.1 * r + cell
}

/// Torus of core radius 0.8 and tube radius 0.25 about the local y axis.
const MAJOR: Real = 0.8;
const MINOR: Real = 0.25;

impl Ring<3> for Space<3> {
    fn shape() -> Shape<3> {
        Shape::<3>::torus(MAJOR, MINOR).unwrap()
    }
    fn centre_height(tilt: Real) -> Real {
        // The core circle's lowest point is MAJOR sin(tilt) below the centre; the tube adds MINOR.
        MAJOR * tilt.sin() + MINOR
    }
    fn bottom_distance(p: &Vector<3>) -> Real {
        // The lowest points are the circle of radius MAJOR at y = -MINOR.
        let rho = (p.x * p.x + p.z * p.z).sqrt();
        ((rho - MAJOR).powi(2) + (p.y + MINOR).powi(2)).sqrt()
    }
    fn bottom_radius() -> Real {
        MINOR
    }
}

/// Annulus: the disk of radius 1 less the disk of radius 0.6.
impl Ring<2> for Space<2> {
    fn shape() -> Shape<2> {
        Shape::<2>::ball(1.0)
            .unwrap()
            .difference(Shape::<2>::ball(0.6).unwrap())
            .unwrap()
    }
    fn centre_height(_tilt: Real) -> Real {
        1.0
    }
    fn bottom_distance(p: &Vector<2>) -> Real {
        (p - Vector::<2>::new(0.0, -1.0)).norm()
    }
    fn bottom_radius() -> Real {
        1.0
    }
}

fn ground<const D: usize>() -> Shape<D>
where
    Space<D>: Dim<D> + Oracle<D>,
{
    Shape::<D>::half_space(Space::<D>::vec([0.0, 1.0, 0.0]), 0.0).unwrap()
}

/// The smallest cell the default options give for the ring: the tolerance of every placement.
fn cell<const D: usize>() -> Real
where
    Space<D>: Ring<D>,
{
    DEFAULT_MIN_CELL_FRACTION * <Space<D> as Ring<D>>::shape().bounds().radius()
}

/// The ring with its lowest point at height `-delta` (negative `delta`: a gap above the ground).
fn ring_pose<const D: usize>(delta: Real, tilt: Real, dx: Real) -> Pose<D>
where
    Space<D>: Ring<D>,
{
    let y = <Space<D> as Ring<D>>::centre_height(tilt) - delta;
    Space::<D>::pose(Space::<D>::vec([dx, y, 0.5 * dx]), [tilt, 0.0, 0.0])
}

fn local<const D: usize>(pose: &Pose<D>, p: &Vector<D>) -> Vector<D>
where
    Space<D>: Dim<D>,
{
    pose.inverse_transform_point(&nalgebra::Point::from(*p))
        .coords
}

fn ring_contacts<const D: usize>(pose: &Pose<D>, opts: &ContactOptions) -> Contacts<D>
where
    Space<D>: Ring<D>,
{
    let ring = <Space<D> as Ring<D>>::shape();
    let c = contacts(&ground::<D>(), &Pose::<D>::identity(), &ring, pose, opts).unwrap();
    assert!(!c.stats.hit_budget, "within the cell budget: {:?}", c.stats);
    c
}

/// The one manifold of `c`, with the ground's normal.
fn one_manifold<const D: usize>(c: &Contacts<D>) -> &Manifold<D>
where
    Space<D>: Dim<D> + Oracle<D>,
{
    // The bottom of the ring is one connected region.
    assert_eq!(c.manifolds.len(), 1, "one region: {c:?}");
    let m = &c.manifolds[0];
    // The normal of a half-space contact is the plane's, exactly (up to rounding).
    assert!((m.normal - Space::<D>::vec([0.0, 1.0, 0.0])).norm() < 1e-5);
    m
}

/// A ring resting with depth δ: penetration is δ along the ground's normal, at the bottom.
fn resting_ring_penetration<const D: usize>()
where
    Space<D>: Ring<D>,
{
    let ring = <Space<D> as Ring<D>>::shape();
    let tol = cell::<D>();
    for delta in [0.001, 0.01, 0.05] {
        let pose = ring_pose::<D>(delta, 0.0, 0.0);
        let p = penetration(
            &ground::<D>(),
            &Pose::<D>::identity(),
            &ring,
            &pose,
            &ContactOptions::default(),
        )
        .unwrap();
        let d = p
            .deepest
            .unwrap_or_else(|| panic!("δ = {delta}: no penetration"));
        assert!(!p.stats.hit_budget);
        // Depth and point within one smallest cell: the search's resolution.
        assert!(
            (d.depth - delta).abs() <= tol,
            "δ = {delta}: depth {}",
            d.depth
        );
        assert!((d.normal - Space::<D>::vec([0.0, 1.0, 0.0])).norm() < 1e-5);
        let b = <Space<D> as Ring<D>>::bottom_distance(&local(&pose, &d.point_b));
        assert!(
            b <= tol,
            "δ = {delta}: point {:?} is {b} from the bottom",
            d.point_b
        );
    }
}

#[test]
fn resting_ring_penetration_2d() {
    resting_ring_penetration::<2>();
}

#[test]
fn resting_ring_penetration_3d() {
    resting_ring_penetration::<3>();
}

/// A ring resting with depth δ, or hovering a gap under the margin: one manifold whose points
/// lie on the bottom with depth -δ (or +gap).
fn resting_ring_contacts<const D: usize>()
where
    Space<D>: Ring<D>,
{
    let tol = cell::<D>();
    let opts = ContactOptions {
        margin: Some(0.02),
        ..Default::default()
    };
    for delta in [0.001, 0.01, 0.05, -0.01] {
        let pose = ring_pose::<D>(delta, 0.0, 0.0);
        let c = ring_contacts::<D>(&pose, &opts);
        let m = one_manifold(&c);
        assert!(!m.points.is_empty());
        let near = beside_bottom(<Space<D> as Ring<D>>::bottom_radius(), tol);
        for p in &m.points {
            // Each beside the bottom, and within one smallest cell of the analytic depth (the
            // 0.005 r the extremes sit up is below a cell for both rings).
            let b = <Space<D> as Ring<D>>::bottom_distance(&local(&pose, &p.point_b));
            assert!(b <= near, "δ = {delta}: {p:?} is {b} from the bottom");
            assert!(
                (p.depth + delta).abs() <= tol,
                "δ = {delta}: depth {}",
                p.depth
            );
            assert!(
                (p.point_b[1] - p.depth).abs() < 1e-4,
                "depth is the height over ground"
            );
        }
    }
}

#[test]
fn resting_ring_contacts_2d() {
    resting_ring_contacts::<2>();
}

#[test]
fn resting_ring_contacts_3d() {
    resting_ring_contacts::<3>();
}

/// A torus lying flat rests on four points spread around its ring, not on one.
#[test]
fn flat_torus_manifold_spans_the_ring() {
    for delta in [0.001, 0.01, 0.05] {
        let pose = ring_pose::<3>(delta, 0.0, 0.0);
        let c = ring_contacts::<3>(&pose, &ContactOptions::default());
        let m = one_manifold(&c);
        assert_eq!(m.points.len(), 4, "δ = {delta}: {m:?}");
        for p in &m.points {
            // On the bottom ring: 0.8 from the axis within one smallest cell (the extremes sit
            // 0.1 * 0.25 = 0.025 outward of it, under the cell of 0.03).
            let rho = (p.point_b.x.powi(2) + p.point_b.z.powi(2)).sqrt();
            assert!((rho - MAJOR).abs() <= cell::<3>(), "δ = {delta}: {p:?}");
            assert!((p.depth + delta).abs() <= cell::<3>(), "δ = {delta}: {p:?}");
        }
        // Pairwise apart by at least the core radius (four points a quarter turn apart on the
        // ring are 1.13 apart, opposite ones 1.6).
        for (i, a) in m.points.iter().enumerate() {
            for b in &m.points[i + 1..] {
                assert!((a.point_b - b.point_b).norm() >= MAJOR, "{a:?} {b:?}");
            }
        }
        // Around the axis: no gap between consecutive azimuths above 120 degrees, so the points
        // surround the centre of mass and span more than a quarter turn either way.
        let mut az: Vec<Real> = m
            .points
            .iter()
            .map(|p| p.point_b.z.atan2(p.point_b.x))
            .collect();
        az.sort_by(Real::total_cmp);
        let gaps = az.windows(2).map(|w| w[1] - w[0]);
        let wrap = az[0] + std::f32::consts::TAU - az[az.len() - 1];
        let widest = gaps.fold(wrap, Real::max);
        assert!(widest <= 120f32.to_radians(), "azimuths {az:?}");
    }
}

/// A ring tilted by 0.3 rad touches with one side: penetration finds its analytic lowest point
/// and depth, and the contacts lie on that side.
fn tilted_ring_touches_with_its_lowest_point<const D: usize>()
where
    Space<D>: Ring<D>,
{
    let ring = <Space<D> as Ring<D>>::shape();
    let tol = cell::<D>();
    let (delta, tilt) = (0.01, 0.3);
    let pose = ring_pose::<D>(delta, tilt, 0.0);
    let p = penetration(
        &ground::<D>(),
        &Pose::<D>::identity(),
        &ring,
        &pose,
        &ContactOptions::default(),
    )
    .unwrap();
    let d = p.deepest.expect("the tilted ring penetrates");
    assert!((d.depth - delta).abs() <= tol, "depth {}", d.depth);
    // On the surface and at the analytic lowest height (each within one smallest cell).
    assert!(ring.distance(&local(&pose, &d.point_b)).abs() <= tol);
    assert!((d.point_b[1] + delta).abs() <= tol, "{:?}", d.point_b);
    // The lowest point lies on the side tilted down: in 3D at z = 0.8 cos(0.3) (the ring runs
    // along x there, flat to second order, so x is left free).
    if D == 3 {
        let z = pose.translation.vector[2] + MAJOR * tilt.cos();
        assert!((d.point_b[2] - z).abs() <= tol, "{:?}", d.point_b);
    }
    let c = ring_contacts::<D>(&pose, &ContactOptions::default());
    let m = one_manifold(&c);
    let deepest = m
        .points
        .iter()
        .map(|p| p.depth)
        .fold(Real::INFINITY, Real::min);
    assert!((deepest + delta).abs() <= tol, "deepest contact {deepest}");
    for q in &m.points {
        // Every point near the lowest one (the far side is 2 * 0.8 sin 0.3 = 0.47 up).
        assert!(q.depth <= tol, "{q:?}");
        assert!((q.point_b - d.point_b).norm() <= 0.5, "{q:?}");
    }
}

#[test]
fn tilted_ring_touches_with_its_lowest_point_2d() {
    tilted_ring_touches_with_its_lowest_point::<2>();
}

#[test]
fn tilted_ring_touches_with_its_lowest_point_3d() {
    tilted_ring_touches_with_its_lowest_point::<3>();
}

/// After a small slide the contact points keep their ids and move with the ring.
fn ids_survive_a_small_slide<const D: usize>()
where
    Space<D>: Ring<D>,
{
    let tol = cell::<D>();
    let dx = 0.01;
    let before = ring_contacts::<D>(&ring_pose::<D>(0.01, 0.0, 0.0), &ContactOptions::default());
    let after = ring_contacts::<D>(&ring_pose::<D>(0.01, 0.0, dx), &ContactOptions::default());
    let (m0, m1) = (one_manifold(&before), one_manifold(&after));
    let ids = |m: &Manifold<D>| {
        let mut v: Vec<u32> = m.points.iter().map(|p| p.id).collect();
        v.sort_unstable();
        v
    };
    assert_eq!(ids(m0), ids(m1));
    let shift = Space::<D>::vec([dx, 0.0, 0.5 * dx]);
    for p in &m0.points {
        let q = m1.points.iter().find(|q| q.id == p.id).unwrap();
        // The same point of the ring, moved by the slide (within one smallest cell).
        assert!(
            (q.point_b - p.point_b - shift).norm() <= tol,
            "{p:?} -> {q:?}"
        );
    }
}

#[test]
fn ids_survive_a_small_slide_2d() {
    ids_survive_a_small_slide::<2>();
}

#[test]
fn ids_survive_a_small_slide_3d() {
    ids_survive_a_small_slide::<3>();
}
