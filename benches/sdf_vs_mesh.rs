//! SDF collision (Fathom) against triangle-mesh collision (parry) on the same shapes, with
//! criterion. The cases are `fathom_app::compare`'s: six 3D pairs meshed at about 1k, 10k and 100k
//! triangles per shape, and a 2D pair against parry2d polylines at 1k and 10k segments. Each
//! case is timed for the query that matters at each placement: the intersection test and
//! contacts at a shallow overlap, penetration at a deep one, and distance when separated.
//! Accuracy (depths, normals, errors against exact references, manifold points) is what
//! `fathom compare` prints beside its own timings; this bench is the careful timing.
//!
//! Run one pair: `cargo bench --bench sdf_vs_mesh -- tori_crossing`.

use criterion::{criterion_group, criterion_main, Criterion};
use fathom_app::compare::{build_cases, PairCase, Placement, Query};
use std::hint::black_box;

/// Triangles (2D: segments) per shape, by dimension.
const TARGETS_3D: &[usize] = &[1_000, 10_000, 100_000];
const TARGETS_2D: &[usize] = &[1_000, 10_000];

/// The query timed at each placement.
const TIMED: &[(Query, Placement)] = &[
    (Query::Intersection, Placement::Shallow),
    (Query::Contacts, Placement::Shallow),
    (Query::Penetration, Placement::Deep),
    (Query::Distance, Placement::Separated),
];

fn bench_case(c: &mut Criterion, case: &dyn PairCase) {
    for &(query, placement) in TIMED {
        let id = format!(
            "sdf_vs_mesh/{}/{}/{}",
            case.pair(),
            case.target(),
            query.name()
        );
        let mut group = c.benchmark_group(id);
        group.bench_function("sdf", |b| {
            b.iter(|| black_box(case.sdf(query, placement).expect("a valid query")))
        });
        group.bench_function("mesh", |b| {
            b.iter(|| black_box(case.mesh(query, placement).expect("a valid query")))
        });
        group.finish();
    }
}

fn sdf_vs_mesh(c: &mut Criterion) {
    let scratch = std::env::temp_dir().join(format!("fathom-sdf-vs-mesh-{}", std::process::id()));
    std::fs::create_dir_all(&scratch).expect("a scratch folder for the OBJ pair");
    for (dimension, targets) in [(3, TARGETS_3D), (2, TARGETS_2D)] {
        for &target in targets {
            for case in build_cases(dimension, target, &scratch).expect("the pairs build") {
                bench_case(c, case.as_ref());
            }
        }
    }
    // Only the OBJ files written above are in it; failing to remove it loses nothing.
    let _ = std::fs::remove_dir_all(&scratch);
}

criterion_group! {
    name = benches;
    // Mesh queries at 100k triangles take up to seconds: few samples keep the run finite.
    config = Criterion::default().sample_size(10);
    targets = sdf_vs_mesh
}
criterion_main!(benches);
