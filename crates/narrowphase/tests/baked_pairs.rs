//! Two baked grids of a rounded box stacked face on face, the upper one turned about the
//! vertical: depth, distance and normal against the exact gap of the boxes they sample, within
//! one grid cell (the sampling error: samples are exact, what lies between them interpolated).
//! A grid's field outside its box only bounds the distance (it grows by the least sample), so
//! the separated pair's midpoint and the walks onto the surfaces must not trust it there.
use fathom_math::{Dim, Pose, Pose2, Pose3, Real, Space, Vector, Vector2, Vector3};
use fathom_narrowphase::QueryStats;
use fathom_narrowphase::{distance, penetration, ContactOptions, DEFAULT_MIN_CELL_FRACTION};
use fathom_sdf::{mesh_sdf, BakedGrid, Sdf, Shape, SparseGrid, SparseOptions};

/// Half extents of the inner box and rounding radius: half height 0.3 m.
const HALF: [Real; 3] = [0.4, 0.2, 0.4];
const ROUND: Real = 0.1;

/// The height of B's centre above A's at signed gap `gap`.
fn height(gap: Real) -> Real {
    2.0 * (HALF[1] + ROUND) + gap
}

/// B in 2D: a half turn or none (the box is symmetric, so the contact stays face on face).
fn pose_2d(gap: Real, turn: Real) -> Pose2 {
    Pose2::new(Vector2::new(0.0, height(gap)), turn)
}

/// B in 3D: turned about the vertical.
fn pose_3d(gap: Real, turn: Real) -> Pose3 {
    Pose3::new(Vector3::new(0.0, height(gap), 0.0), Vector3::y() * turn)
}

/// Checks the pair at four gaps; returns the costliest distance and penetration queries'
/// stats (most cells).
fn check<const D: usize>(
    name: &str,
    grid: &dyn Sdf<D>,
    cell: Real,
    turn: Real,
    pose_b: fn(Real, Real) -> Pose<D>,
) -> [QueryStats; 2]
where
    Space<D>: Dim<D>,
{
    let mut worst = [QueryStats::default(); 2];
    let size = grid.bounds().radius();
    let opts = ContactOptions {
        margin: Some(DEFAULT_MIN_CELL_FRACTION * size),
        ..ContactOptions::default()
    };
    let id = Pose::<D>::identity();
    for gap in [0.1, 0.0, -0.02, -0.1] {
        let pb = pose_b(gap, turn);
        let case = format!("{D}D {name} turned {turn}, gap {gap}");
        let d = distance(grid, &id, grid, &pb, &opts).unwrap();
        if gap > 0.0 {
            // Separated: the distance search ends within its budget (a touching pair, gap 0,
            // still refines the whole shared face and may run out: issue 18).
            assert!(!d.stats.hit_budget, "{case}: {:?}", d.stats);
        }
        if d.stats.cells > worst[0].cells {
            worst[0] = d.stats;
        }
        assert!(
            (d.distance - gap.max(0.0)).abs() <= cell,
            "{case}: distance {} (cell {cell})",
            d.distance
        );
        let p = penetration(grid, &id, grid, &pb, &opts).unwrap();
        if p.stats.cells > worst[1].cells {
            worst[1] = p.stats;
        }
        let depth = p.deepest.map_or(0.0, |x| x.depth);
        assert!(
            (depth - (-gap).max(0.0)).abs() <= cell,
            "{case}: depth {depth} (cell {cell})"
        );
        if let Some(deepest) = p.deepest.filter(|_| gap < 0.0) {
            assert!(
                deepest.normal[1] > 0.999,
                "{case}: normal {:?}",
                deepest.normal
            );
        }
    }
    worst
}

fn rounded_box<const D: usize>() -> Shape<D>
where
    Space<D>: Dim<D>,
{
    Shape::rounded_cuboid(Vector::<D>::from_fn(|i, _| HALF[i]), ROUND).unwrap()
}

#[test]
fn baked_rounded_boxes_measure_their_gap() {
    let grid_2d = BakedGrid::bake_shape(&rounded_box::<2>(), 64).unwrap();
    let grid_3d = BakedGrid::bake_shape(&rounded_box::<3>(), 64).unwrap();
    for turn in [0.0, std::f32::consts::PI] {
        check::<2>("baked field", &grid_2d, grid_2d.cell(), turn, pose_2d);
    }
    for turn in [0.0, 0.5] {
        check::<3>("baked field", &grid_3d, grid_3d.cell(), turn, pose_3d);
    }
}

#[test]
fn a_grid_baked_from_a_mesh_measures_its_gap() {
    // The OBJ pair of `fathom compare`: the rounded box meshed (about 10k triangles), the grid
    // baked from the mesh's own distance.
    let mesh = mesh_sdf(&rounded_box::<3>(), 0.03).unwrap();
    let grid = BakedGrid::from_mesh_resolution(&mesh, 64).unwrap();
    let sparse = SparseGrid::from_mesh_resolution(&mesh, 64, &SparseOptions::default()).unwrap();
    for turn in [0.0, 0.5, 1.2] {
        let dense = check::<3>("mesh grid", &grid, grid.cell(), turn, pose_3d);
        let sparse = check::<3>("sparse mesh grid", &sparse, sparse.cell(), turn, pose_3d);
        println!("turn {turn}: dense [distance, penetration] {dense:?}, sparse {sparse:?}");
    }
}

#[test]
fn sparse_grids_measure_their_gap() {
    // The same pairs as sparse grids: the narrow band holds the surface the search walks on,
    // and the coarse field's bounds are honest, so the answers keep within one fine cell.
    let options = SparseOptions::default();
    let grid_2d = SparseGrid::bake_shape(&rounded_box::<2>(), 64, &options).unwrap();
    let grid_3d = SparseGrid::bake_shape(&rounded_box::<3>(), 64, &options).unwrap();
    for turn in [0.0, std::f32::consts::PI] {
        check::<2>("sparse field", &grid_2d, grid_2d.cell(), turn, pose_2d);
    }
    for turn in [0.0, 0.5] {
        check::<3>("sparse field", &grid_3d, grid_3d.cell(), turn, pose_3d);
    }
}
