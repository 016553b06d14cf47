//! What a baked grid must be to be accepted (samples of a distance, some sample inside),
//! messages a user can act on for broken grid files, grid files read once however often they
//! are named, and shape trees read with a bounded depth.

use super::catalogue::{all_shapes, TestDim};
use crate::grid::GridData;
use crate::{
    decode_shapes, BakedGrid, GridCache, GridSource, Sdf, SdfError, Shape, Shape3,
    ShapeDecodeError, MAX_SHAPE_DEPTH,
};
use fathom_math::{Real, Space, Vector3};
use nalgebra::SVector;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The grids `scenes/mesh_3d.ron` ships (baked from closed OBJ meshes).
fn shipped_grid(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../scenes/meshes")
        .join(name)
}

/// A folder of this test process's own.
fn scratch(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("fathom-sdf-{test}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The largest step between neighbouring samples along any axis, in cells (1 for an exact
/// distance sampled along its gradient).
fn steepest_step<const D: usize>(g: &BakedGrid<D>) -> Real {
    let (dims, v) = (g.dims(), g.values());
    let mut stride = 1;
    let mut worst: Real = 0.0;
    for k in 0..D {
        for i in 0..v.len() - stride {
            if (i / stride) % dims[k] != dims[k] - 1 {
                worst = worst.max((v[i + stride] - v[i]).abs());
            }
        }
        stride *= dims[k];
    }
    worst / g.cell()
}

/// 8 bits of a fixed xorshift sequence per call, as a value in [-1, 1).
fn noise(state: &mut u64) -> f32 {
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    (*state >> 56) as f32 / 128.0 - 1.0
}

/// 1 m³ of noise: 11³ samples a decimetre apart, each in [-1, 1) (a distance could change by
/// 0.1 between neighbours; noise changes by up to 2).
fn noise_samples() -> (Vector3, Real, SVector<usize, 3>, Vec<f32>) {
    let mut state = 0x9e37_79b9_7f4a_7c15;
    let values = (0..11 * 11 * 11).map(|_| noise(&mut state)).collect();
    (Vector3::repeat(-0.5), 0.1, SVector::repeat(11), values)
}

/// Writes a grid file holding `data` as [`BakedGrid::save`] would (a grid that cannot be
/// made in memory can still be written by another tool).
fn write_grid_file(path: &Path, data: &GridData<3>) {
    let mut bytes = b"FATHOMGRID".to_vec();
    bytes.extend([crate::grid_source::VERSION, 3]);
    bytes.extend(postcard::to_stdvec(data).unwrap());
    std::fs::write(path, bytes).unwrap();
}

/// Every shape of the catalogue bakes to samples that pass the check; the steepest step over
/// a cell is 1 (an exact distance sampled along its gradient) up to rounding.
fn bakes_are_distances<const D: usize>()
where
    Space<D>: TestDim<D>,
{
    for (name, shape) in all_shapes::<D>() {
        if matches!(shape, Shape::HalfSpace(_)) {
            continue; // Unbounded: its 20 km box is no grid to bake.
        }
        let grid = BakedGrid::bake_shape(&shape, if D == 2 { 40 } else { 20 })
            .unwrap_or_else(|e| panic!("{D}D {name}: {e}"));
        // An ulp of coordinates near 1 m is 7e-6 of these cells (1/40 to 1/20 of the shape):
        // the steepest step measured is 1 + 6e-6 (a 2D L-shaped polygon); allow about 14 ulps.
        let steepest = steepest_step(&grid);
        assert!(steepest <= 1.0 + 1e-4, "{D}D {name}: step {steepest}");
        let again = BakedGrid::from_samples(
            grid.origin(),
            grid.cell(),
            grid.dims(),
            grid.values().to_vec(),
        )
        .unwrap();
        assert_eq!(again, grid, "{D}D {name}: accepted unchanged");
    }
}

#[test]
fn bakes_are_distances_2d() {
    bakes_are_distances::<2>();
}

#[test]
fn bakes_are_distances_3d() {
    bakes_are_distances::<3>();
}

/// The shipped mesh grids load, unchanged, with the constant their cells give; saving and
/// loading again gives the same grid.
#[test]
fn shipped_grids_are_accepted_unchanged() {
    let dir = scratch("shipped");
    for name in ["star.grid", "cross.grid"] {
        let grid = BakedGrid::<3>::load(&shipped_grid(name)).unwrap();
        let bytes = std::fs::read(shipped_grid(name)).unwrap();
        let (raw, rest): (GridData<3>, _) = postcard::take_from_bytes(&bytes[12..]).unwrap();
        assert!(rest.is_empty(), "{name}: nothing after the samples");
        assert_eq!(grid.values(), &raw.values[..], "{name}: samples unchanged");
        // Measured: 1 + 3e-6 (cross.grid); the same allowance as for the catalogue's bakes.
        let steepest = steepest_step(&grid);
        assert!(steepest <= 1.0 + 1e-4, "{name}: step {steepest}");
        // The interpolant's constant is at most sqrt(3) times the steepest edge (grid.rs docs).
        assert!(grid.lipschitz() <= 3f32.sqrt() * steepest.max(1.0) + 1e-5);
        let copy = dir.join(name);
        grid.save(&copy).unwrap();
        assert_eq!(BakedGrid::<3>::load(&copy).unwrap(), grid, "{name}");
    }
}

/// Noise is refused, made in memory, read from a grid file or inline in RON, naming the two
/// samples and the axis (it used to get 4e6 kg from 1 m³ and gain 45 MJ).
#[test]
fn noise_grid_is_refused() {
    let (origin, cell, dims, values) = noise_samples();
    let err = BakedGrid::<3>::from_samples(origin, cell, dims, values.clone()).unwrap_err();
    let SdfError::NotADistance {
        field,
        index,
        neighbour,
        axis,
        difference,
        limit,
        ..
    } = err.clone()
    else {
        panic!("not refused as a distance: {err}");
    };
    assert_eq!(field, "values");
    assert_eq!(neighbour - index, [1, 11, 121][axis]);
    assert!(difference > limit && limit < 0.11, "{err}");
    assert!(
        err.to_string().contains("is not a signed distance"),
        "{err}"
    );

    let path = scratch("noise").join("noise.grid");
    let data = GridData {
        origin,
        cell,
        dims,
        values: values.clone(),
    };
    write_grid_file(&path, &data);
    assert_eq!(BakedGrid::<3>::load(&path).unwrap_err(), err, "from a file");

    let inline = format!("Grid(Inline({}))", ron::to_string(&data).unwrap());
    let err = Shape3::from_ron(&inline).unwrap_err();
    assert!(
        err.to_string().contains("is not a signed distance"),
        "{err}"
    );
}

/// A grid with no sample inside is refused for what it is: it holds no surface.
#[test]
fn all_positive_grid_holds_no_surface() {
    let dims = SVector::repeat(3);
    let err = BakedGrid::<3>::from_samples(Vector3::zeros(), 1.0, dims, vec![0.5; 27]).unwrap_err();
    assert!(
        matches!(
            err,
            SdfError::Invalid {
                field: "values",
                ..
            }
        ),
        "{err}"
    );
    let text = err.to_string();
    assert!(
        text.contains("no sample is inside") && text.contains("no surface"),
        "{text}"
    );
}

/// A grid file cut short or with bytes added says how many samples and bytes it should hold
/// and how many it has, naming the file (it used to print `UnexpectedEnd { additional: 4 }`).
#[test]
fn wrong_length_grid_file_names_the_counts() {
    let dir = scratch("length");
    let grid = BakedGrid::bake_shape(&Shape3::ball(0.5).unwrap(), 4).unwrap();
    let n = grid.values().len();
    let good = dir.join("good.grid");
    grid.save(&good).unwrap();
    let bytes = std::fs::read(&good).unwrap();
    for (name, cut, want) in [
        ("short.grid", &bytes[..bytes.len() - 4], n - 1),
        ("shorter.grid", &bytes[..bytes.len() - 6], n - 2),
    ] {
        let path = dir.join(name);
        std::fs::write(&path, cut).unwrap();
        let err = BakedGrid::<3>::load(&path).unwrap_err();
        let SdfError::Parse {
            format: "grid",
            path: Some(p),
            message,
        } = &err
        else {
            panic!("{name}: {err:?}");
        };
        assert_eq!(p, &path.display().to_string());
        assert!(
            message.contains(&format!("{n} samples"))
                && message.contains(&format!("need {} bytes", 4 * n))
                && message.contains(&format!("({want} samples")),
            "{name}: {message}"
        );
    }
    let long = dir.join("long.grid");
    std::fs::write(&long, [&bytes[..], &[0; 4]].concat()).unwrap();
    let err = BakedGrid::<3>::load(&long).unwrap_err().to_string();
    assert!(
        err.contains(&format!("the file has {}", 4 * n + 4)),
        "{err}"
    );
}

/// A grid file of format 1 (a bincode 2 body) is refused by its version, naming both.
#[test]
fn old_format_grid_file_is_refused() {
    let dir = scratch("old_format");
    let good = dir.join("good.grid");
    BakedGrid::bake_shape(&Shape3::ball(0.5).unwrap(), 4)
        .unwrap()
        .save(&good)
        .unwrap();
    let mut bytes = std::fs::read(&good).unwrap();
    bytes[10] = 1;
    let old = dir.join("old.grid");
    std::fs::write(&old, bytes).unwrap();
    let err = BakedGrid::<3>::load(&old).unwrap_err().to_string();
    assert!(
        err.contains("format version 1, this build reads 2"),
        "{err}"
    );
}

/// One grid file named 40 times in a tree (or across a scene's colliders, sharing a cache) is
/// read once, and every source holds the same samples.
#[test]
fn grid_file_named_many_times_is_read_once() {
    let dir = scratch("shared");
    BakedGrid::bake_shape(&Shape3::ball(0.5).unwrap(), 4)
        .unwrap()
        .save(&dir.join("ball.grid"))
        .unwrap();
    let source = || {
        Shape3::Grid(GridSource::File {
            path: "ball.grid".into(),
            grid: None,
        })
    };
    let mut tree = Shape3::union_all((0..40).map(|_| source())).unwrap();
    let mut cache = GridCache::default();
    tree.load_files_cached(&dir, &mut cache).unwrap();
    let mut other = source();
    other.load_files_cached(&dir, &mut cache).unwrap();
    assert_eq!(cache.len(), 1, "one file read");
    let mut grids = Vec::new();
    tree.visit(&mut |s| {
        if let Shape::Grid(g) = s {
            grids.push(Arc::clone(g.shared().unwrap()));
        }
    });
    assert_eq!(grids.len(), 40);
    let Shape::Grid(g) = &other else { panic!() };
    let first = g.shared().unwrap();
    assert!(grids.iter().all(|g| Arc::ptr_eq(g, first)), "one copy");
    // Plain `load_files` shares within its tree too.
    let mut tree = Shape3::union_all((0..3).map(|_| source())).unwrap();
    tree.load_files(&dir).unwrap();
    let Shape::Union(u) = &tree else { panic!() };
    let shared = |s: &Shape3| match s {
        Shape::Grid(g) => Arc::clone(g.shared().unwrap()),
        _ => panic!(),
    };
    assert!(Arc::ptr_eq(&shared(&u.shapes[0]), &shared(&u.shapes[2])));
}

/// `depth` nested roundings of a ball, as compact RON, written without building the tree.
fn nested_ron(depth: usize) -> String {
    let open = "Rounded((radius:0.01,shape:".repeat(depth - 1);
    let close = "))".repeat(depth - 1);
    format!("{open}Ball((radius:0.5)){close}")
}

/// A shape nested 100,000 deep in RON is refused at the limit, on a 256 KiB stack (an
/// unbounded decoder would overflow it); 24 deep reads, 25 is refused with the limit named,
/// the same error `validate` gives a built tree.
#[test]
fn deep_ron_shape_is_refused_at_the_limit() {
    let read = |depth: usize| {
        let text = nested_ron(depth);
        std::thread::Builder::new()
            .stack_size(256 * 1024)
            .spawn(move || {
                decode_shapes(|| crate::ron_options().from_str::<Shape3>(&text))
                    .map(|s| s.depth())
                    .map_err(|e| e.map_format(|e| e.to_string()))
            })
            .unwrap()
            .join()
            .expect("no stack overflow")
    };
    assert_eq!(read(MAX_SHAPE_DEPTH), Ok(MAX_SHAPE_DEPTH));
    for depth in [MAX_SHAPE_DEPTH + 1, 100_000] {
        assert_eq!(read(depth), Err(ShapeDecodeError::TooDeep), "depth {depth}");
        let err = Shape3::from_ron(&nested_ron(depth)).unwrap_err();
        assert!(
            err.to_string().contains("deeper than the limit of 24"),
            "{err}"
        );
    }
    let mut built = Shape3::ball(0.5).unwrap();
    for _ in 0..MAX_SHAPE_DEPTH {
        built = built.rounded(0.01).unwrap();
    }
    assert_eq!(
        built.validate(),
        Err(SdfError::TooDeep {
            field: "shape",
            max: MAX_SHAPE_DEPTH
        })
    );
}
