//! Sparse (narrow-band) grids against the dense grid of the same cell and the exact source:
//! memory, error in the band, continuity and the Lipschitz claim, interval bounds, files.

use super::support::runner;
use crate::grid_kernel::multilinear;
use crate::{BakedGrid, Sdf, Shape, SparseGrid, SparseOptions, TriMesh};
use fathom_math::{Aabb, Dim, Pose, Real, Space, Vector};
use nalgebra::SVector;
use proptest::prelude::*;
use proptest::strategy::ValueTree;
use std::path::Path;

/// What the dense grid of cell `h` with its first sample at `origin` reads at `p`: the
/// multilinear interpolant of the source's samples at the corners of `p`'s cell (as `f32`),
/// computed from the `2^D` corners alone so no dense grid need be baked.
fn dense_value<const D: usize>(
    f: &impl Fn(&Vector<D>) -> Real,
    origin: &Vector<D>,
    h: Real,
    p: &Vector<D>,
) -> Real {
    let u = (p - origin) / h;
    let i = u.map(|x| x.floor());
    let corners: Vec<Real> = (0..1usize << D)
        .map(|mask| {
            let node = i + Vector::<D>::from_fn(|k, _| ((mask >> k) & 1) as Real);
            f(&(origin + node * h))
        })
        .collect();
    multilinear(&corners, &(u - i), h, &[true; D]).0
}

/// Points within `band` of the surface of `f` in `region`, found by rejection from a fixed
/// seed (deterministic).
fn band_points<const D: usize>(
    f: &impl Fn(&Vector<D>) -> Real,
    region: &Aabb<D>,
    band: Real,
    count: usize,
) -> Vec<Vector<D>> {
    let mut runner = runner(1);
    let strategy = super::support::point_in(*region);
    let mut out = Vec::with_capacity(count);
    for _ in 0..200 * count {
        let p = strategy.new_tree(&mut runner).unwrap().current();
        if f(&p).abs() <= band {
            out.push(p);
            if out.len() == count {
                break;
            }
        }
    }
    assert_eq!(out.len(), count, "enough points near the surface");
    out
}

/// Worst error against `f` of the sparse grid and of the dense grid of the same cell at
/// `points`.
fn errors<const D: usize>(
    grid: &SparseGrid<D>,
    f: &impl Fn(&Vector<D>) -> Real,
    points: &[Vector<D>],
) -> (Real, Real) {
    let mut worst = (0.0, 0.0);
    for p in points {
        let exact = f(p);
        let dense = dense_value(f, &grid.origin(), grid.cell(), p);
        worst.0 = Real::max(worst.0, (grid.distance(p) - exact).abs());
        worst.1 = Real::max(worst.1, (dense - exact).abs());
    }
    worst
}

/// The sparse field within the band is the dense grid's (its samples quantised: half a step,
/// plus float rounding of the two interpolations, relative to the field's magnitude).
fn check_band_error<const D: usize>(shape: &Shape<D>, resolution: usize)
where
    Space<D>: Dim<D>,
{
    let grid = SparseGrid::bake_shape(shape, resolution, &SparseOptions::default()).unwrap();
    let f = |p: &Vector<D>| shape.distance(p);
    let points = band_points(&f, &grid.grid_box(), grid.cell(), 400);
    let (sparse, dense) = errors(&grid, &f, &points);
    let slack = 0.5 * grid.quantisation_step() + 1e-5 * grid.grid_box().radius();
    assert!(
        sparse <= dense + slack,
        "{D}D: sparse error {sparse} beyond the dense grid's {dense} + {slack}"
    );
    assert!(grid.brick_count() > 0);
}

fn ring_2d() -> Shape<2> {
    let outer = Shape::<2>::ball(1.0).unwrap();
    let hole = Shape::<2>::cuboid(Vector::<2>::new(0.3, 0.5)).unwrap();
    outer.difference(hole).unwrap()
}

fn torus_3d() -> Shape<3> {
    Shape::<3>::torus(0.8, 0.3).unwrap()
}

#[test]
fn sparse_error_in_the_band_is_the_dense_grids_2d() {
    check_band_error(&ring_2d(), 256);
}

#[test]
fn sparse_error_in_the_band_is_the_dense_grids_3d() {
    check_band_error(&torus_3d(), 64);
}

/// Continuity and the Lipschitz claim: nearby pairs of points anywhere (across brick faces,
/// between bricks and coarse cells, outside the box) change by at most `L` times their
/// distance, plus float rounding of two interpolations (relative to the field's size).
fn check_lipschitz<const D: usize>(shape: &Shape<D>, resolution: usize)
where
    Space<D>: Dim<D>,
{
    let grid = SparseGrid::bake_shape(shape, resolution, &SparseOptions::default()).unwrap();
    let l = grid.lipschitz();
    let region = grid.grid_box().loosened(0.2);
    let step = grid.cell() * 0.37;
    let rounding = 1e-5 * region.radius();
    runner(600)
        .run(
            &(
                super::support::point_in(region),
                super::support::offset::<D>(step),
            ),
            |(p, e)| {
                let (a, b) = (grid.distance(&p), grid.distance(&(p + e)));
                prop_assert!(
                    (a - b).abs() <= l * e.norm() + rounding,
                    "{D}D: |{a} - {b}| over {} > L = {l}",
                    e.norm()
                );
                Ok(())
            },
        )
        .unwrap();
    // Every brick face: points on both sides of a coarse plane agree.
    let coarse = grid.cell() * grid.brick_cells() as Real;
    let b = grid.grid_box();
    for k in 0..D {
        for n in 1..grid.coarse_dims()[k] - 1 {
            for m in 0..40 {
                let mut p = b.center();
                for j in (0..D).filter(|&j| j != k) {
                    p[j] = b.min[j] + (b.max[j] - b.min[j]) * (m as Real + 0.5) / 40.0;
                }
                p[k] = b.min[k] + n as Real * coarse;
                let mut below = p;
                below[k] -= 1e-4 * grid.cell();
                let jump = (grid.distance(&p) - grid.distance(&below)).abs();
                assert!(
                    jump <= l * 1e-4 * grid.cell() + rounding,
                    "{D}D: jump {jump} at {p:?}"
                );
            }
        }
    }
}

#[test]
fn sparse_field_is_continuous_within_its_lipschitz_bound_2d() {
    check_lipschitz(&ring_2d(), 128);
}

#[test]
fn sparse_field_is_continuous_within_its_lipschitz_bound_3d() {
    check_lipschitz(&torus_3d(), 40);
}

/// `interval` holds every value of the field over random boxes (sampled at the box's corners,
/// centre and random points), for dense and sparse grids and the operators that forward it.
fn check_intervals<const D: usize>(field: &dyn Sdf<D>, region: Aabb<D>, name: &str) {
    let answered = std::cell::Cell::new(0);
    runner(300)
        .run(
            &(
                super::support::point_in(region),
                super::support::offset::<D>(0.3),
            ),
            |(c, h)| {
                let b = Aabb::from_center_half_extents(c, h.abs());
                let Some((lo, hi)) = field.interval(&b) else {
                    return Ok(());
                };
                answered.set(answered.get() + 1);
                let mut probe = super::support::runner(1);
                let inside = super::support::point_in(b);
                let mut points: Vec<Vector<D>> = (0..1usize << D).map(|m| b.corner(m)).collect();
                points.push(b.center());
                for _ in 0..24 {
                    points.push(inside.new_tree(&mut probe).unwrap().current());
                }
                for p in points {
                    let d = field.distance(&p);
                    // Rounding of the interpolation, relative to the field's size.
                    let tol = 1e-5 * (1.0 + d.abs());
                    prop_assert!(
                        lo - tol <= d && d <= hi + tol,
                        "{name}: {d} at {p:?} outside [{lo}, {hi}] over {b:?}"
                    );
                }
                Ok(())
            },
        )
        .unwrap();
    let answered = answered.get();
    assert!(answered > 100, "{name}: only {answered} boxes were bounded");
}

fn intervals_hold<const D: usize>(shape: Shape<D>, pose: Pose<D>)
where
    Space<D>: Dim<D>,
{
    let dense = BakedGrid::bake_shape(&shape, 48).unwrap();
    let sparse = SparseGrid::bake_shape(&shape, 48, &SparseOptions::default()).unwrap();
    let region = dense.grid_box().loosened(0.3);
    check_intervals(&dense, region, "dense");
    check_intervals(&sparse, region, "sparse");
    let grid = Shape::Grid(crate::GridSource::Inline(std::sync::Arc::new(dense)));
    let moved = grid.clone().transformed(pose).unwrap();
    check_intervals(&moved, region, "transformed");
    check_intervals(&grid.clone().scaled(1.7).unwrap(), region, "scaled");
    check_intervals(&grid.rounded(0.05).unwrap(), region, "rounded");
}

#[test]
fn grid_intervals_bound_the_field_2d() {
    intervals_hold(ring_2d(), Pose::<2>::new(Vector::<2>::new(0.1, -0.2), 0.7));
}

#[test]
fn grid_intervals_bound_the_field_3d() {
    let pose = Pose::<3>::new(
        nalgebra::Vector3::new(0.1, -0.2, 0.05),
        nalgebra::Vector3::new(0.3, -0.5, 0.8),
    );
    intervals_hold(torus_3d(), pose);
}

/// The shipped OBJ meshes, and a ~100k-triangle sphere (surface nets of a unit ball).
fn meshes() -> Vec<(String, TriMesh)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scenes/meshes");
    let mut out: Vec<(String, TriMesh)> = ["cross.obj", "star.obj"]
        .iter()
        .map(|n| (n.to_string(), crate::load_obj(dir.join(n)).unwrap()))
        .collect();
    let ball = Shape::<3>::ball(1.0).unwrap();
    out.push((
        "sphere".into(),
        crate::mesh_sdf(&ball, SPHERE_MESH_CELL).unwrap(),
    ));
    out
}

/// Surface-net cell giving a unit sphere about 100k triangles.
const SPHERE_MESH_CELL: Real = 0.0193;

/// Bytes of the dense grid `BakedGrid::from_mesh_resolution(mesh, resolution)` makes (4 per
/// sample), counted without baking it: the same padded region and cell.
fn dense_bytes(mesh: &TriMesh, resolution: usize) -> usize {
    let (region, cell) = crate::grid::padded_region(&mesh.bounds(), resolution).unwrap();
    let e = region.extents();
    4 * (0..3)
        .map(|k| (e[k] / cell).ceil() as usize + 1)
        .product::<usize>()
}

/// The sparse grid of `mesh` at `resolution` is at least 10x smaller than the dense grid of
/// the same cell, and as accurate near the surface (against parry's exact mesh distance).
fn check_mesh(name: &str, mesh: &TriMesh, resolution: usize) {
    let grid =
        SparseGrid::from_mesh_resolution(mesh, resolution, &SparseOptions::default()).unwrap();
    let dense = dense_bytes(mesh, resolution);
    let ratio = dense as Real / grid.memory_bytes() as Real;
    println!(
        "{name} ({} triangles) at {resolution}: {} bricks, {} B against {dense} B, {ratio:.1}x",
        mesh.indices.len(),
        grid.brick_count(),
        grid.memory_bytes()
    );
    assert!(
        ratio >= 10.0,
        "{name}: {} bytes against the dense grid's {dense} ({ratio}x)",
        grid.memory_bytes(),
    );
    let f = crate::mesh_bake::mesh_distance(mesh).unwrap();
    let points = band_points(&f, &grid.grid_box(), grid.cell(), 150);
    let (sparse, dense) = errors(&grid, &f, &points);
    let slack = 0.5 * grid.quantisation_step() + 1e-5 * grid.grid_box().radius();
    assert!(
        sparse <= dense + slack,
        "{name}: sparse error {sparse} beyond the dense grid's {dense} + {slack}"
    );
}

/// The shipped OBJ meshes at 512 fine cells along their longest side (the ratio grows with
/// the resolution: 2-6x at 64-256, see `docs/sparse_grids.md`).
#[test]
fn sparse_obj_grids_are_ten_times_smaller_and_as_accurate() {
    for (name, mesh) in meshes().into_iter().filter(|m| m.0 != "sphere") {
        check_mesh(&name, &mesh, 512);
    }
}

/// A 100k-triangle sphere at 320 fine cells across.
#[test]
fn sparse_grid_of_a_100k_triangle_mesh_is_ten_times_smaller_and_as_accurate() {
    let (name, mesh) = meshes().pop().unwrap();
    assert!(mesh.indices.len() >= 100_000, "{}", mesh.indices.len());
    check_mesh(&name, &mesh, 320);
}

/// Files: a sparse grid reads back equal; a malformed one is a typed error naming the part.
fn check_files<const D: usize>(shape: &Shape<D>)
where
    Space<D>: Dim<D>,
{
    let grid = SparseGrid::bake_shape(shape, 32, &SparseOptions::default()).unwrap();
    let dir = std::env::temp_dir().join(format!("fathom_sparse_{D}_{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("g.sparse");
    grid.save(&path).unwrap();
    assert_eq!(SparseGrid::<D>::load(&path).unwrap(), grid);
    let bytes = std::fs::read(&path).unwrap();
    let err = SparseGrid::<D>::from_bytes(&bytes[..bytes.len() - 3], None).unwrap_err();
    assert!(matches!(err, crate::SdfError::Parse { .. }), "{err}");
    // A wrong dimension is named.
    let err = SparseGrid::<1>::from_bytes(&bytes, None).unwrap_err();
    assert!(err.to_string().contains("1D"), "{err}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn sparse_grid_files_roundtrip_and_refuse_garbage() {
    check_files(&ring_2d());
    check_files(&torus_3d());
}

#[test]
fn malformed_sparse_parts_name_the_field() {
    let grid = SparseGrid::bake_shape(&torus_3d(), 24, &SparseOptions::default()).unwrap();
    let text = ron::to_string(&grid).unwrap();
    let parse = |t: &str| ron::from_str::<SparseGrid<3>>(t).unwrap_err().to_string();
    let coarse_len = grid.coarse_dims().iter().product::<usize>();
    // One slot naming a brick out of range.
    let bad_slot = text.replacen("slots:[", "slots:[4000000,", 1);
    assert!(parse(&bad_slot).contains("slots"), "{}", parse(&bad_slot));
    let bad_quant = text.replacen("quantisation:(", "quantisation:(-1e40,", 1);
    assert!(!parse(&bad_quant).is_empty());
    let bad_brick = text.replacen("brick:8", "brick:0", 1);
    assert!(parse(&bad_brick).contains("brick"), "{}", parse(&bad_brick));
    assert!(coarse_len > 0);
    // Options are checked too.
    let bad = SparseOptions {
        band_cells: Real::NAN,
        ..SparseOptions::default()
    };
    let err = SparseGrid::bake_shape(&torus_3d(), 24, &bad).unwrap_err();
    assert!(err.to_string().contains("band_cells"), "{err}");
    let bad = SparseOptions {
        brick_cells: 0,
        ..SparseOptions::default()
    };
    let err = SparseGrid::bake_shape(&torus_3d(), 24, &bad).unwrap_err();
    assert!(err.to_string().contains("brick_cells"), "{err}");
    let _ = SVector::<usize, 3>::zeros();
}

/// Numbers for the docs (run with `--ignored --nocapture`).
#[test]
#[ignore]
fn report_sparse_memory() {
    for (name, mesh) in meshes() {
        for res in [64, 128, 256] {
            let grid =
                SparseGrid::from_mesh_resolution(&mesh, res, &SparseOptions::default()).unwrap();
            println!(
                "{name} ({} tris) res {res}: {} bricks, {} B sparse, {} B dense, {:.1}x",
                mesh.indices.len(),
                grid.brick_count(),
                grid.memory_bytes(),
                dense_bytes(&mesh, res),
                dense_bytes(&mesh, res) as Real / grid.memory_bytes() as Real
            );
        }
    }
}

/// A sparse grid in a shape tree: the same field, and it survives RON (scenes, snapshots).
#[test]
fn sparse_grid_in_a_shape_tree_roundtrips() {
    let grid = SparseGrid::bake_shape(&ring_2d(), 48, &SparseOptions::default()).unwrap();
    let shape = Shape::<2>::Grid(crate::GridSource::Sparse(std::sync::Arc::new(grid.clone())));
    let back = Shape::<2>::from_ron(&shape.to_ron()).unwrap();
    assert_eq!(back, shape);
    shape.validate().unwrap();
    for p in [Vector::<2>::new(0.3, 0.1), Vector::<2>::new(-2.0, 0.5)] {
        assert_eq!(shape.distance(&p), grid.distance(&p));
        assert_eq!(back.distance(&p), grid.distance(&p));
    }
}
