//! Mass properties of the convex hull (exact, a sum of tetrahedra) against the cube's closed
//! form and parry's `MassProperties::from_convex_polyhedron` on random clouds; and a heightfield,
//! which is terrain, refused on a dynamic body with a typed error (never a NaN mass).

use fathom_math::{Real, Vector3};
use fathom_world::{
    unit_mass_properties, BodyDesc, ColliderDesc, Shape, World, WorldError, WorldSettings,
};
use proptest::prelude::*;

fn rel(a: Real, b: Real) -> Real {
    (a - b).abs() / b.abs().max(1e-9)
}

/// Every corner of a box of half extents `h` about `centre`.
fn box_corners(h: Vector3, centre: Vector3) -> Vec<Vector3> {
    (0..8)
        .map(|k| {
            let s = |bit: usize| if k & bit == 0 { -1.0 } else { 1.0 };
            centre + Vector3::new(s(1) * h.x, s(2) * h.y, s(4) * h.z)
        })
        .collect()
}

#[test]
fn hull_of_a_box_has_the_box_mass_properties() {
    let (h, centre) = (Vector3::new(0.5, 0.2, 0.8), Vector3::new(1.0, -2.0, 0.5));
    let hull = Shape::<3>::convex_hull(&box_corners(h, centre)).unwrap();
    let m = unit_mass_properties(&hull).unwrap();
    let want = 8.0 * h.x * h.y * h.z;
    // 1e-5: f32 sums of twelve tetrahedra of size 1.
    assert!(rel(m.mass, want) < 1e-5, "mass {} vs {want}", m.mass);
    assert!((m.center - centre).norm() < 1e-5, "centre {:?}", m.center);
    // A box's second moment about its centre: m a² / 3 along each axis (a the half extent),
    // zero off the diagonal.
    for i in 0..3 {
        for j in 0..3 {
            let expect = if i == j {
                want * h[i] * h[i] / 3.0
            } else {
                0.0
            };
            let got = m.second_moment[(i, j)];
            assert!((got - expect).abs() < 1e-5, "C[{i}{j}] {got} vs {expect}");
        }
    }
}

/// parry's unit-density mass, centre and inertia matrix of the hull of `points`.
fn parry_mass(points: &[Vector3]) -> (Real, Vector3, nalgebra::Matrix3<Real>) {
    let pts: Vec<_> = points
        .iter()
        .map(|p| parry3d::math::Vector::new(p.x, p.y, p.z))
        .collect();
    let (v, i) = parry3d::transformation::convex_hull(&pts);
    let m = parry3d::mass_properties::MassProperties::from_convex_polyhedron(1.0, &v, &i);
    let c = m.local_com;
    let inertia = m.reconstruct_inertia_matrix();
    let cols = [inertia.x_axis, inertia.y_axis, inertia.z_axis];
    (
        m.mass(),
        Vector3::new(c.x, c.y, c.z),
        nalgebra::Matrix3::from_fn(|r, k| cols[k][r]),
    )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn hull_mass_matches_parry(raw in prop::collection::vec([-1.0f32..1.0, -1.0f32..1.0, -1.0f32..1.0], 8..24),
                               shift in [-2.0f32..2.0, -2.0f32..2.0, -2.0f32..2.0]) {
        let points: Vec<Vector3> = raw
            .iter()
            .map(|p| Vector3::new(p[0], 0.6 * p[1], 0.8 * p[2]) + Vector3::new(shift[0], shift[1], shift[2]))
            .collect();
        let hull = Shape::<3>::convex_hull(&points).unwrap();
        let ours = unit_mass_properties(&hull).unwrap();
        let (mass, centre, inertia) = parry_mass(&points);
        // 1e-4: both sum tetrahedra in f32 (parry about the origin, 2 m away, so its sums
        // cancel more); the volumes are about 1 m³.
        prop_assert!(rel(ours.mass, mass) < 1e-4, "mass {} vs {mass}", ours.mass);
        prop_assert!((ours.center - centre).norm() < 1e-4, "centre {:?} vs {centre:?}", ours.center);
        let ours_i = ours.inertia();
        let scale = inertia.norm();
        prop_assert!((ours_i - inertia).norm() < 1e-3 * scale, "inertia {ours_i:?} vs {inertia:?}");
    }
}

#[test]
fn a_hull_body_weighs_its_volume_times_density() {
    let mut world = World::<3>::new(WorldSettings::default()).unwrap();
    let h = Vector3::new(0.5, 0.5, 0.5);
    let hull = Shape::<3>::convex_hull(&box_corners(h, Vector3::zeros())).unwrap();
    let body = world
        .add_body(&BodyDesc::dynamic().collider(ColliderDesc::new(hull).density(2.0)))
        .unwrap();
    let mass = world.body(body).unwrap().mass();
    assert!(rel(mass, 2.0) < 1e-5, "{mass}");
}

fn terrain<const D: usize>() -> Shape<D>
where
    fathom_math::Space<D>: fathom_math::Dim<D>,
{
    let rows = if D == 3 { 3 } else { 1 };
    Shape::heightfield(vec![vec![0.0, 0.5, 0.2, 0.1]; rows], Default::default()).unwrap()
}

fn heightfield_is_terrain<const D: usize>()
where
    fathom_math::Space<D>: fathom_math::Dim<D>,
{
    assert!(unit_mass_properties(&terrain::<D>()).is_none());
    let mut world = World::<D>::new(WorldSettings::default()).unwrap();
    let dynamic = BodyDesc::dynamic().collider(ColliderDesc::new(terrain::<D>()));
    let err = world.add_body(&dynamic).unwrap_err();
    assert!(
        matches!(&err, WorldError::Invalid { field, reason }
            if field == "colliders[0].shape" && reason.contains("heightfield")),
        "{err:?}"
    );
    world
        .add_body(&BodyDesc::fixed().collider(ColliderDesc::new(terrain::<D>())))
        .unwrap();
}

#[test]
fn heightfield_is_terrain_2d() {
    heightfield_is_terrain::<2>();
}

#[test]
fn heightfield_is_terrain_3d() {
    heightfield_is_terrain::<3>();
}
