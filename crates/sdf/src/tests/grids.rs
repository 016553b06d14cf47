//! Baked grids: agreement with their source, honest Lipschitz constants and bounds, files,
//! and grids baked from a closed triangle mesh (a meshed torus) with the right sign.

use super::catalogue::{all_shapes, TestDim};
use super::support::{offset, point_in, runner};
use crate::{mesh_sdf, BakedGrid, GridSource, Sdf, SdfError, Shape, Shape3, TriMesh};
use fathom_math::{Aabb, Real, Space, Vector3};
use proptest::prop_assert;
use std::sync::Arc;

fn check_grid_agrees<const D: usize>()
where
    Space<D>: TestDim<D>,
{
    for (name, shape) in all_shapes::<D>() {
        if matches!(shape, Shape::HalfSpace(_)) {
            continue; // Unbounded: its 20 km box is no grid to bake.
        }
        let grid = BakedGrid::bake_shape(&shape, if D == 2 { 40 } else { 20 }).unwrap();
        let diag = grid.cell() * (D as Real).sqrt();
        let l = shape.lipschitz();
        let inner = grid.grid_box();
        assert_eq!(
            grid.memory_bytes(),
            4 * grid.dims().iter().product::<usize>()
        );
        // Multilinear interpolation is a convex combination of corner samples, each within
        // L * diag of the value at p: the grid agrees with its source within one cell diagonal.
        runner(128)
            .run(&point_in(inner), |p| {
                let (g, s) = (grid.distance(&p), shape.distance(&p));
                prop_assert!(
                    (g - s).abs() <= l * diag + 1e-5,
                    "{name}: grid {g} vs source {s} at {p:?}"
                );
                Ok(())
            })
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        // Lipschitz honesty and bounds, inside and outside the grid box.
        let outer = inner.loosened(inner.half_extents().max());
        let gl = grid.lipschitz();
        runner(128)
            .run(&(point_in(outer), offset::<D>(0.2)), |(p, dp)| {
                let (a, b) = (grid.distance(&p), grid.distance(&(p + dp)));
                // Float slack as in the shape properties: a few dozen ulps of the coordinates.
                prop_assert!(
                    (a - b).abs() <= gl * dp.norm() + 1e-5 * (1.0 + p.norm()),
                    "{name}: L {gl} broken"
                );
                if a <= 0.0 {
                    prop_assert!(
                        grid.bounds().loosened(1e-5).contains_point(&p),
                        "{name}: {p:?} outside bounds"
                    );
                }
                if a <= 0.3 {
                    prop_assert!(grid.level_bounds(0.3).loosened(1e-5).contains_point(&p));
                }
                let g = grid.gradient(&p);
                prop_assert!((g.norm() - 1.0).abs() < 1e-4);
                Ok(())
            })
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        // Each per-cell edge slope is at most the source's L, so the per-cell bound is at most
        // sqrt(D) L (reached only in cells where the source has a kink).
        assert!(
            gl >= 1.0 && gl <= (D as Real).sqrt() * l + 1e-3,
            "{name}: baked L = {gl}"
        );
    }
}

#[test]
fn baked_grid_agrees_with_source_2d() {
    check_grid_agrees::<2>();
}

#[test]
fn baked_grid_agrees_with_source_3d() {
    check_grid_agrees::<3>();
}

#[test]
fn grids_roundtrip_inline_and_by_file() {
    let ball = Shape3::ball(0.5).unwrap();
    let grid = Arc::new(BakedGrid::bake_shape(&ball, 6).unwrap());
    let inline = Shape3::Grid(GridSource::Inline(grid.clone()))
        .rounded(0.1)
        .unwrap();
    assert_eq!(Shape3::from_ron(&inline.to_ron()).unwrap(), inline);

    let dir = std::env::temp_dir().join(format!("fathom-sdf-grid-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    grid.save(&dir.join("ball.grid")).unwrap();
    let by_file = Shape3::Grid(GridSource::File {
        path: "ball.grid".into(),
        grid: None,
    });
    let text = by_file.to_ron();
    let mut read = Shape3::from_ron(&text).unwrap();
    assert_eq!(read, by_file);
    assert!(matches!(
        read.validate(),
        Err(SdfError::Invalid { field: "path", .. })
    ));
    read.load_files(&dir).unwrap();
    read.validate().unwrap();
    let p = Vector3::new(0.1, 0.2, -0.3);
    assert_eq!(read.distance(&p), grid.distance(&p));
    // A 3D grid file read as 2D, and a file that is not a grid, are parse errors.
    assert!(matches!(
        BakedGrid::<2>::load(&dir.join("ball.grid")),
        Err(SdfError::Parse { format: "grid", .. })
    ));
    std::fs::write(dir.join("bad.grid"), b"not a grid").unwrap();
    assert!(matches!(
        BakedGrid::<3>::load(&dir.join("bad.grid")),
        Err(SdfError::Parse { format: "grid", .. })
    ));
    assert!(matches!(
        BakedGrid::<3>::load(&dir.join("missing.grid")),
        Err(SdfError::Io { .. })
    ));
    std::fs::write(dir.join("scene.ron"), &text).unwrap();
    assert_eq!(
        Shape3::from_ron_file(dir.join("scene.ron"))
            .unwrap()
            .distance(&p),
        grid.distance(&p)
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bad_grid_input_names_the_field() {
    let ball = Shape3::ball(1.0).unwrap();
    let dims = nalgebra::SVector::<usize, 3>::new(2, 2, 2);
    assert_eq!(
        BakedGrid::bake_shape(&ball, 0),
        Err(SdfError::TooSmall {
            field: "resolution",
            value: 0,
            min: 1
        })
    );
    assert_eq!(
        BakedGrid::bake(&ball, &ball.bounds(), 0.0),
        Err(SdfError::NonPositive {
            field: "cell",
            value: 0.0
        })
    );
    assert!(matches!(
        BakedGrid::bake(&ball, &ball.bounds(), 1e-4),
        Err(SdfError::TooLarge { field: "cell", .. })
    ));
    assert!(matches!(
        BakedGrid::bake(&ball, &Aabb::EMPTY, 0.1),
        Err(SdfError::Invalid {
            field: "region",
            ..
        })
    ));
    assert!(matches!(
        BakedGrid::<3>::from_samples(Vector3::zeros(), 1.0, dims, vec![0.0; 7]),
        Err(SdfError::Invalid {
            field: "values",
            ..
        })
    ));
    assert!(matches!(
        BakedGrid::<3>::from_samples(Vector3::zeros(), 1.0, dims, vec![f32::NAN; 8]),
        Err(SdfError::NonFinite {
            field: "values",
            ..
        })
    ));
    assert_eq!(
        BakedGrid::<3>::from_samples(
            Vector3::zeros(),
            1.0,
            nalgebra::SVector::<usize, 3>::new(2, 1, 2),
            vec![0.0; 4]
        ),
        Err(SdfError::TooSmall {
            field: "dims",
            value: 1,
            min: 2
        })
    );
}

/// A torus meshed by surface nets: closed, ~n triangles, and its analytic field.
fn meshed_torus(cell: Real) -> (Shape3, TriMesh) {
    let torus = Shape3::torus(0.8, 0.3).unwrap();
    let mesh = mesh_sdf(&torus, cell).unwrap();
    (torus, mesh)
}

#[test]
fn mesh_baked_grid_has_the_right_sign() {
    let cell = 0.08;
    let (torus, mesh) = meshed_torus(cell);
    mesh.check_closed().unwrap();
    let grid = BakedGrid::from_mesh_resolution(&mesh, 24).unwrap();
    // The mesh is within one surface-net cell diagonal of the torus, the grid within one of
    // its own cell diagonals of the mesh: away from that band the signs must agree.
    let band = cell * 3f32.sqrt() + grid.cell() * 3f32.sqrt();
    let region = torus.bounds().loosened(0.3);
    let checked = std::cell::Cell::new(0);
    runner(256)
        .run(&point_in(region), |p| {
            let exact = torus.distance(&p);
            if exact.abs() > band {
                checked.set(checked.get() + 1);
                let g = grid.distance(&p);
                prop_assert!(
                    (g < 0.0) == (exact < 0.0),
                    "sign at {p:?}: grid {g}, torus {exact}"
                );
                prop_assert!(
                    (g - exact).abs() <= band,
                    "value at {p:?}: grid {g}, torus {exact}"
                );
            }
            Ok(())
        })
        .unwrap();
    assert!(
        checked.get() > 64,
        "only {} points away from the band",
        checked.get()
    );
    // Points on the torus's core circle are deep inside; its centre is in the hole.
    assert!(grid.distance(&Vector3::new(0.8, 0.0, 0.0)) < -0.2);
    assert!(grid.distance(&Vector3::zeros()) > 0.3);
}

#[test]
fn inward_wound_mesh_is_flipped_and_a_tetrahedron_is_signed_right() {
    let v = vec![Vector3::zeros(), Vector3::x(), Vector3::y(), Vector3::z()];
    let outward = vec![[0, 2, 1], [0, 1, 3], [0, 3, 2], [1, 2, 3]];
    let mesh = TriMesh::new(v.clone(), outward.clone()).unwrap();
    assert!(mesh.signed_volume() > 0.0);
    let inward = TriMesh::new(v, outward.iter().map(|t| [t[0], t[2], t[1]]).collect()).unwrap();
    let region = Aabb::new(Vector3::repeat(-0.5), Vector3::repeat(1.5));
    for m in [&mesh, &inward] {
        let grid = BakedGrid::from_mesh(m, &region, 0.1).unwrap();
        assert!(grid.distance(&Vector3::repeat(0.2)) < 0.0);
        assert!(grid.distance(&Vector3::repeat(0.6)) > 0.0);
        // Exact at a sample point: (-0.5, -0.5, -0.5) is sqrt(0.75) from the corner at the origin.
        assert!((grid.distance(&Vector3::repeat(-0.5)) - 0.75f32.sqrt()).abs() < 1e-5);
    }
}

#[test]
fn bad_meshes_name_the_problem() {
    let v = vec![Vector3::zeros(), Vector3::x(), Vector3::y(), Vector3::z()];
    let region = Aabb::new(Vector3::repeat(-0.5), Vector3::repeat(1.5));
    assert_eq!(
        TriMesh::new(vec![], vec![[0, 1, 2]]),
        Err(SdfError::EmptyMesh { field: "vertices" })
    );
    assert_eq!(
        TriMesh::new(v.clone(), vec![]),
        Err(SdfError::EmptyMesh { field: "indices" })
    );
    assert_eq!(
        TriMesh::new(v.clone(), vec![[0, 1, 9]]),
        Err(SdfError::IndexOutOfRange {
            field: "indices",
            index: 9,
            vertex_count: 4
        })
    );
    let mut bad = v.clone();
    bad[2].y = f32::INFINITY;
    assert!(matches!(
        TriMesh::new(bad, vec![[0, 1, 2]]),
        Err(SdfError::NonFinite {
            field: "vertices",
            ..
        })
    ));
    // A tetrahedron missing its last face: (1, 3) is the first edge (in sorted order) whose
    // twin (3, 1) no triangle uses.
    let open = TriMesh::new(v.clone(), vec![[0, 2, 1], [0, 1, 3], [0, 3, 2]]).unwrap();
    assert_eq!(
        BakedGrid::from_mesh(&open, &region, 0.1),
        Err(SdfError::OpenMesh {
            field: "indices",
            edge: (3, 1),
            count: 0
        })
    );
    // Two faces running the same way along an edge: inconsistent winding.
    let flipped = TriMesh::new(v, vec![[0, 2, 1], [0, 1, 3], [0, 3, 2], [1, 3, 2]]).unwrap();
    assert!(matches!(
        BakedGrid::from_mesh(&flipped, &region, 0.1),
        Err(SdfError::OpenMesh {
            field: "indices",
            ..
        })
    ));
}

#[test]
fn obj_loading() {
    let cube =
        "v -1 -1 -1\nv 1 -1 -1\nv 1 1 -1\nv -1 1 -1\nv -1 -1 1\nv 1 -1 1\nv 1 1 1\nv -1 1 1\n\
                f 1 4 3 2\nf 5 6 7 8\nf 1 2 6 5\nf 2 3 7 6\nf 3 4 8 7\nf 4 1 5 8\n";
    let mesh = crate::parse_obj(cube).unwrap();
    assert_eq!((mesh.vertices.len(), mesh.indices.len()), (8, 12));
    mesh.check_closed().unwrap();
    assert!((mesh.signed_volume() - 8.0).abs() < 1e-5);
    let grid = BakedGrid::from_mesh_resolution(&mesh, 8).unwrap();
    assert!((grid.distance(&Vector3::zeros()) + 1.0).abs() < 1e-5);
    assert!(matches!(
        crate::parse_obj("v 1 2 x\nf 1 2 3\n"),
        Err(SdfError::Parse { format: "OBJ", .. })
    ));
    assert_eq!(
        crate::parse_obj("# nothing\n"),
        Err(SdfError::EmptyMesh { field: "vertices" })
    );
    let missing = std::env::temp_dir().join("fathom-sdf-no-such-file.obj");
    assert!(matches!(
        crate::load_obj(&missing),
        Err(SdfError::Io { .. })
    ));
}
