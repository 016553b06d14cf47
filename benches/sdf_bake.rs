//! Baking a 128³ signed distance grid from a ~10k-triangle closed mesh (a torus meshed by
//! surface nets), in parallel with rayon: what issue 2 asks to take "seconds".

use criterion::{criterion_group, criterion_main, Criterion};
use fathom_math::{Aabb, Vector3};
use fathom_physics::sdf::{mesh_sdf, BakedGrid, Sdf, Shape3};
use std::hint::black_box;

/// Surface-net cell giving about 10k triangles on a torus of radii 0.8 and 0.3.
const MESH_CELL: f32 = 0.051;
/// Samples along each axis of the baked grid.
const SAMPLES: usize = 128;

fn bake_mesh(c: &mut Criterion) {
    let torus = Shape3::torus(0.8, 0.3).expect("valid torus");
    let mesh = mesh_sdf(&torus, MESH_CELL).expect("meshable");
    let b = torus.bounds();
    let half = b.half_extents().max() * 1.1;
    let region = Aabb::from_center_half_extents(Vector3::zeros(), Vector3::repeat(half));
    // A hair over side / 127 so that float round-off cannot add a 129th sample.
    let cell = 2.0 * half / (SAMPLES - 1) as f32 * 1.000_01;
    println!(
        "sdf_bake: {} triangles, {} vertices, grid {SAMPLES}^3 = {} samples ({} MiB), {} threads",
        mesh.indices.len(),
        mesh.vertices.len(),
        SAMPLES.pow(3),
        SAMPLES.pow(3) * 4 / (1 << 20),
        rayon::current_num_threads()
    );
    let mut group = c.benchmark_group("sdf_bake");
    group.sample_size(10);
    group.bench_function("torus_mesh_10k_tris_128_cubed", |bench| {
        bench.iter(|| {
            let grid = BakedGrid::from_mesh(black_box(&mesh), &region, cell).expect("closed mesh");
            assert_eq!(grid.dims().iter().product::<usize>(), SAMPLES.pow(3));
            grid
        })
    });
    group.finish();
}

criterion_group!(benches, bake_mesh);
criterion_main!(benches);
