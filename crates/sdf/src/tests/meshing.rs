//! Surface nets (3D) and marching squares (2D): output on the zero set, closed, outward.

use super::catalogue::all_shapes;
use crate::{contour_sdf, mesh_sdf, Sdf, SdfError, Shape, Shape2, Shape3};
use fathom_math::{Real, Vector2, Vector3};
use std::f32::consts::PI;

#[test]
fn every_surface_net_vertex_is_within_one_cell_of_the_zero_set() {
    let cell = 0.05;
    for (name, shape) in all_shapes::<3>() {
        if matches!(shape, Shape::HalfSpace(_)) {
            continue; // Unbounded: see `meshing_an_unbounded_shape_is_refused`.
        }
        let mesh = mesh_sdf(&shape, cell).unwrap();
        assert!(
            mesh.indices.len() > 100,
            "{name}: {} triangles",
            mesh.indices.len()
        );
        // A vertex lies in a cell whose corners change sign, so the zero set crosses that cell:
        // the vertex is within one cell diagonal of it, and |d| <= L * diagonal.
        let bound = shape.lipschitz() * cell * 3f32.sqrt() + 1e-5;
        for v in &mesh.vertices {
            assert!(
                shape.distance(v).abs() <= bound,
                "{name}: vertex {v:?} has d = {}",
                shape.distance(v)
            );
        }
        for &i in mesh.indices.iter().flatten() {
            assert!((i as usize) < mesh.vertices.len());
        }
    }
}

#[test]
fn surface_nets_of_a_ball_are_closed_and_outward() {
    let r = 0.7;
    let mesh = mesh_sdf(&Shape3::ball(r).unwrap(), 0.05).unwrap();
    mesh.check_closed().unwrap();
    // Outward winding gives a positive volume; the polyhedron inscribed in the sphere is a
    // little smaller than it (chords cut inside): within 3% at 28 cells across.
    let exact = 4.0 / 3.0 * PI * r * r * r;
    let v = mesh.signed_volume();
    assert!(
        v > 0.0 && (v - exact).abs() < 0.03 * exact,
        "volume {v} vs {exact}"
    );
    // Each triangle's normal points away from the centre.
    for t in &mesh.indices {
        let [a, b, c] = t.map(|i| mesh.vertices[i as usize]);
        assert!((b - a).cross(&(c - a)).dot(&(a + b + c)) > 0.0);
    }
}

#[test]
fn meshing_bad_input() {
    let ball = Shape3::ball(1.0).unwrap();
    assert_eq!(
        mesh_sdf(&ball, 0.0),
        Err(SdfError::NonPositive {
            field: "cell",
            value: 0.0
        })
    );
    assert!(matches!(
        mesh_sdf(&ball, f32::NAN),
        Err(SdfError::NonFinite { field: "cell", .. })
    ));
    assert_eq!(
        contour_sdf(&Shape2::ball(1.0).unwrap(), -1.0),
        Err(SdfError::NonPositive {
            field: "cell",
            value: -1.0
        })
    );
    // A disjoint intersection has empty bounds: nothing to mesh.
    let far = Shape3::ball(0.5)
        .unwrap()
        .transformed(fathom_math::Pose3::translation(5.0, 0.0, 0.0))
        .unwrap();
    let empty = Shape3::intersection_all(vec![ball.clone(), far]).unwrap();
    assert!(mesh_sdf(&empty, 0.1).unwrap().indices.is_empty());
}

#[test]
fn meshing_an_unbounded_shape_is_refused() {
    // A half-space's box is 20 km wide: at 5 cm cells that is far over the sample limit.
    let hs = Shape3::half_space(Vector3::y(), 0.0).unwrap();
    assert!(matches!(
        mesh_sdf(&hs, 0.05),
        Err(SdfError::TooLarge { field: "cell", .. })
    ));
}

/// Twice the signed area of a closed polyline (positive counter-clockwise).
fn twice_area(line: &[Vector2]) -> Real {
    line.windows(2).map(|w| w[0].perp(&w[1])).sum()
}

#[test]
fn contour_points_lie_on_the_zero_set_and_loops_close() {
    let cell = 0.02;
    for (name, shape) in all_shapes::<2>() {
        if matches!(shape, Shape::HalfSpace(_) | Shape::Segment(_)) {
            continue; // Unbounded, or with no inside (a segment's field is never negative).
        }
        let lines = contour_sdf(&shape, cell).unwrap();
        assert!(!lines.is_empty(), "{name}");
        // A contour point is on a grid edge whose ends change sign: within one cell of the zero
        // set, so |d| <= L * cell.
        let bound = shape.lipschitz() * cell + 1e-5;
        for line in &lines {
            assert_eq!(
                line.first(),
                line.last(),
                "{name}: a bounded shape's contour loops close"
            );
            assert!(line.len() >= 4, "{name}");
            for p in line {
                assert!(
                    shape.distance(p).abs() <= bound,
                    "{name}: {p:?} has d = {}",
                    shape.distance(p)
                );
            }
        }
    }
}

#[test]
fn contour_of_a_ring_has_an_outer_and_an_inner_loop() {
    let ring = Shape2::ball(1.0).unwrap().shell(0.2).unwrap();
    let mut lines = contour_sdf(&ring, 0.02).unwrap();
    assert_eq!(lines.len(), 2);
    lines.sort_by(|a, b| twice_area(b).abs().total_cmp(&twice_area(a).abs()));
    // Outer loop counter-clockwise around the solid, inner loop clockwise around the hole;
    // areas within 1% of the circles' (inscribed polygon with 2 cm edges).
    let (outer, inner) = (twice_area(&lines[0]) / 2.0, twice_area(&lines[1]) / 2.0);
    assert!(
        outer > 0.0 && (outer - PI * 1.44).abs() < 0.01 * PI * 1.44,
        "{outer}"
    );
    assert!(
        inner < 0.0 && (-inner - PI * 0.64).abs() < 0.01 * PI * 0.64,
        "{inner}"
    );
}
