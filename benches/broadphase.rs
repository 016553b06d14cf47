//! fathom-broadphase against parry3d 0.31's BVH on the same boxes (3D).
//!
//! Scenes at 1k, 10k and 100k proxies: `uniform` (random boxes, about one
//! neighbour each), `clustered` (dense blobs, ~500 boxes each) and `pile` (a
//! lattice of unit boxes where every box touches its 26 neighbours). Rows:
//! - `build`: fathom `insert_many` into an empty broadphase (bulk SAH build)
//!   vs parry `Bvh::from_leaves(Binned)` on the same fat boxes.
//! - `update10`: 10% of the proxies move (an oscillation of amplitude 0.5,
//!   at most 0.05 per step); fathom `update` per mover vs parry
//!   `insert_or_update_partially` per mover + `refit` (parry's cheapest valid
//!   path; rapier also runs `optimize_incremental`, not counted here).
//! - `pairs_full`: every overlapping pair from scratch; fathom `update_pairs`
//!   right after the build (sorted begin events) vs parry
//!   `traverse_bvtt_single_tree::<false>` collecting the leaf pairs (unsorted).
//! - `step10`: `update10` followed by pair finding; fathom `update_pairs`
//!   (sorted begin/end events) vs parry `traverse_bvtt_single_tree::<true>`
//!   (change detection), which yields the pairs touching changed leaves but
//!   not which began or ended (rapier diffs them in a hash map; not counted).
//!
//! Both use a fat margin of 0.1. `fathom_serial` is fathom with rayon off.

use criterion::{criterion_group, criterion_main, BatchSize, BenchmarkId, Criterion};
use fathom_broadphase::{Broadphase, BroadphaseConfig, ProxyKind};
use fathom_math::{Aabb, Real, Vector3};
use parry3d::bounding_volume::Aabb as PAabb;
use parry3d::math::Vector as PVec;
use parry3d::partitioning::{Bvh, BvhBuildStrategy, BvhWorkspace};
use std::hint::black_box;

const MARGIN: Real = 0.1;

/// A deterministic LCG in [0, 1).
struct Lcg(u64);

impl Lcg {
    fn uniform(&mut self) -> Real {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 40) as Real / (1u64 << 24) as Real
    }

    fn vec(&mut self, scale: Real) -> Vector3 {
        Vector3::new(self.uniform(), self.uniform(), self.uniform()) * scale
    }

    fn half(&mut self) -> Vector3 {
        Vector3::new(self.uniform(), self.uniform(), self.uniform()) * 0.5 + Vector3::repeat(0.1)
    }
}

/// The boxes of a scene, and each mover's direction of oscillation.
struct Scene {
    boxes: Vec<Aabb<3>>,
    dirs: Vec<Vector3>,
}

fn scene(kind: &str, n: usize) -> Scene {
    let mut rng = Lcg(n as u64 * 31 + kind.len() as u64);
    // Uniform density 0.25 boxes per unit volume: about one neighbour each.
    let side = (n as Real / 0.25).cbrt();
    let boxes = match kind {
        "uniform" => (0..n)
            .map(|_| Aabb::from_center_half_extents(rng.vec(side), rng.half()))
            .collect(),
        "clustered" => {
            let centers: Vec<Vector3> = (0..n.div_ceil(500)).map(|_| rng.vec(side)).collect();
            (0..n)
                .map(|i| {
                    // Sum of three uniforms: a bell of width ~2 around the cluster centre.
                    let blob = (rng.vec(2.0) + rng.vec(2.0) + rng.vec(2.0)) - Vector3::repeat(3.0);
                    let c = centers[i % centers.len()] + blob * 1.5;
                    Aabb::from_center_half_extents(c, rng.half())
                })
                .collect()
        }
        _ => {
            let s = (n as Real).cbrt().ceil() as usize;
            (0..n)
                .map(|i| {
                    let cell =
                        Vector3::new((i % s) as Real, (i / (s * s)) as Real, (i / s % s) as Real);
                    let jitter = rng.vec(0.04) - Vector3::repeat(0.02);
                    Aabb::from_center_half_extents(cell + jitter, Vector3::repeat(0.5))
                })
                .collect()
        }
    };
    let dirs = (0..n)
        .map(|_| {
            (rng.vec(2.0) - Vector3::repeat(1.0))
                .try_normalize(1e-6)
                .unwrap_or(Vector3::x())
        })
        .collect();
    Scene { boxes, dirs }
}

impl Scene {
    /// Mover `i`'s box at step `s`: its base box shifted by `0.5 sin(0.1 s + i)` along its direction.
    fn moved(&self, i: usize, s: u64) -> Aabb<3> {
        let off = 0.5 * (0.1 * s as Real + i as Real).sin();
        self.boxes[i].translated(&(self.dirs[i] * off))
    }

    fn movers(&self) -> impl Iterator<Item = usize> {
        (0..self.boxes.len()).step_by(10)
    }
}

fn to_parry(b: &Aabb<3>) -> PAabb {
    PAabb::new(
        PVec::new(b.min.x, b.min.y, b.min.z),
        PVec::new(b.max.x, b.max.y, b.max.z),
    )
}

fn fathom(sc: &Scene, parallel_threshold: usize) -> Broadphase<3> {
    let config = BroadphaseConfig {
        margin: MARGIN,
        parallel_threshold,
        ..BroadphaseConfig::default()
    };
    let mut bp = Broadphase::with_config(config).expect("valid config");
    let items = sc
        .boxes
        .iter()
        .enumerate()
        .map(|(i, b)| (i as u64, *b, ProxyKind::Dynamic));
    bp.insert_many(items).expect("valid boxes");
    bp
}

fn parry(sc: &Scene) -> Bvh {
    let fat: Vec<PAabb> = sc
        .boxes
        .iter()
        .map(|b| to_parry(&b.loosened(MARGIN)))
        .collect();
    Bvh::from_leaves(BvhBuildStrategy::Binned, &fat)
}

fn fathom_update(bp: &mut Broadphase<3>, sc: &Scene, s: u64) {
    for i in sc.movers() {
        bp.update(i as u64, sc.moved(i, s)).expect("known key");
    }
}

fn parry_update(bvh: &mut Bvh, ws: &mut BvhWorkspace, sc: &Scene, s: u64) {
    for i in sc.movers() {
        bvh.insert_or_update_partially(to_parry(&sc.moved(i, s)), i as u32, MARGIN);
    }
    bvh.refit(ws);
}

fn parry_pairs<const CHANGES: bool>(bvh: &Bvh, ws: &mut BvhWorkspace) -> Vec<(u32, u32)> {
    let mut out = Vec::new();
    bvh.traverse_bvtt_single_tree::<CHANGES>(ws, &mut |a, b| out.push((a, b)));
    out
}

fn bench_scene(c: &mut Criterion, kind: &str, n: usize) {
    let sc = scene(kind, n);
    // Sanity: both find the same number of pairs on the same fat boxes.
    let ours = fathom(&sc, 512).update_pairs().began.len();
    let theirs = parry_pairs::<false>(&parry(&sc), &mut BvhWorkspace::default()).len();
    assert_eq!(ours, theirs, "{kind} {n}: pair counts differ");
    println!("scene {kind} {n}: {ours} pairs");

    let samples = if n >= 100_000 {
        10
    } else if n >= 10_000 {
        20
    } else {
        50
    };
    let variants: [(&str, usize); 2] = [("fathom", 512), ("fathom_serial", usize::MAX)];

    let mut g = c.benchmark_group(format!("build/{kind}"));
    g.sample_size(samples);
    let items: Vec<_> = sc
        .boxes
        .iter()
        .enumerate()
        .map(|(i, b)| (i as u64, *b, ProxyKind::Dynamic))
        .collect();
    g.bench_function(BenchmarkId::new("fathom", n), |b| {
        b.iter_batched(
            || items.clone(),
            |items| {
                let mut bp = Broadphase::<3>::new();
                bp.insert_many(items).expect("valid boxes");
                bp
            },
            BatchSize::LargeInput,
        )
    });
    let fat: Vec<PAabb> = sc
        .boxes
        .iter()
        .map(|b| to_parry(&b.loosened(MARGIN)))
        .collect();
    g.bench_function(BenchmarkId::new("parry", n), |b| {
        b.iter(|| Bvh::from_leaves(BvhBuildStrategy::Binned, black_box(&fat)))
    });
    g.finish();

    let mut g = c.benchmark_group(format!("update10/{kind}"));
    g.sample_size(samples);
    let mut bp = fathom(&sc, 512);
    bp.update_pairs();
    let mut s = 0;
    g.bench_function(BenchmarkId::new("fathom", n), |b| {
        b.iter(|| {
            s += 1;
            fathom_update(&mut bp, &sc, s)
        })
    });
    let (mut bvh, mut ws) = (parry(&sc), BvhWorkspace::default());
    let mut s = 0;
    g.bench_function(BenchmarkId::new("parry", n), |b| {
        b.iter(|| {
            s += 1;
            parry_update(&mut bvh, &mut ws, &sc, s)
        })
    });
    g.finish();

    let mut g = c.benchmark_group(format!("pairs_full/{kind}"));
    g.sample_size(samples);
    for (name, threshold) in variants {
        let built = fathom(&sc, threshold);
        g.bench_function(BenchmarkId::new(name, n), |b| {
            // `_ref`: the clone is dropped outside the timing.
            b.iter_batched_ref(
                || built.clone(),
                |bp| bp.update_pairs(),
                BatchSize::LargeInput,
            )
        });
    }
    let (bvh, mut ws) = (parry(&sc), BvhWorkspace::default());
    g.bench_function(BenchmarkId::new("parry", n), |b| {
        b.iter(|| parry_pairs::<false>(&bvh, &mut ws))
    });
    g.finish();

    let mut g = c.benchmark_group(format!("step10/{kind}"));
    g.sample_size(samples);
    for (name, threshold) in variants {
        let mut bp = fathom(&sc, threshold);
        bp.update_pairs();
        let mut s = 0;
        g.bench_function(BenchmarkId::new(name, n), |b| {
            b.iter(|| {
                s += 1;
                fathom_update(&mut bp, &sc, s);
                bp.update_pairs()
            })
        });
    }
    let (mut bvh, mut ws) = (parry(&sc), BvhWorkspace::default());
    let mut s = 0;
    g.bench_function(BenchmarkId::new("parry", n), |b| {
        b.iter(|| {
            s += 1;
            parry_update(&mut bvh, &mut ws, &sc, s);
            parry_pairs::<true>(&bvh, &mut ws)
        })
    });
    g.finish();
}

fn benches(c: &mut Criterion) {
    for n in [1_000, 10_000, 100_000] {
        for kind in ["uniform", "clustered", "pile"] {
            bench_scene(c, kind, n);
        }
    }
}

criterion_group!(broadphase, benches);
criterion_main!(broadphase);
