//! Wall-clock time per step of a shipped demo scene: mean, median and the worst step.
//!
//! `cargo run --release --example step_timing -- <scene> [warm-up steps] [timed steps]`
//! (default `pyramid_3d 120 100`; `balls_1000` and `boxes_1000` are the lattice piles of
//! `benches/rapier_step.rs`); `SLEEP=1` lets islands sleep, `CONTACT_REUSE=0` turns
//! manifold reuse off. The mean time of each stage
//! comes from `World::profile`. A quick look while working
//! on speed (and a target for `perf record`); the comparison with Rapier is
//! `benches/rapier_step.rs`.

use fathom_app::demo_scenes::demo_scene;
use fathom_math::{Dim, Space};
use fathom_physics::world::SceneFile;
use fathom_world::World;

#[path = "../benches/support/piles.rs"]
mod piles;

fn measure<const D: usize>(name: &str, mut w: World<D>, warm: usize, n: usize)
where
    Space<D>: Dim<D>,
{
    let mut st = w.settings().clone();
    st.sleep.enabled = std::env::var("SLEEP").is_ok();
    if let Ok(reuse) = std::env::var("CONTACT_REUSE") {
        st.contact_reuse = reuse
            .parse()
            .expect("CONTACT_REUSE is a distance in metres");
    }
    w.set_settings(st).unwrap();
    for _ in 0..warm {
        w.step();
    }
    let mut v = Vec::new();
    let mut stages = [0.0f64; 8];
    for _ in 0..n {
        let t = std::time::Instant::now();
        w.step();
        v.push(t.elapsed().as_secs_f64() * 1e3);
        for (sum, (_, d)) in stages.iter_mut().zip(w.profile().stages()) {
            *sum += d.as_secs_f64() * 1e3 / n as f64;
        }
    }
    let mean = v.iter().sum::<f64>() / n as f64;
    let (imax, max) = v
        .iter()
        .enumerate()
        .fold((0, 0.0f64), |a, (i, &x)| if x > a.1 { (i, x) } else { a });
    let mut s = v.clone();
    s.sort_by(|a, b| a.partial_cmp(b).unwrap());
    eprintln!(
        "{name}: {mean:.3} ms/step, median {:.3}, max {max:.3} at step {}; {} pairs, {} contact points, {} of {} touching pairs reused, {} known apart, {} colours",
        s[n / 2],
        warm + imax,
        w.candidate_pair_count(),
        w.contact_count(),
        w.profile().reused_pairs,
        w.profile().touching_pairs,
        w.profile().separated_pairs,
        w.profile().colours,
    );
    let names = w.profile().stages().map(|(name, _)| name);
    let line: Vec<String> = names
        .iter()
        .zip(stages)
        .map(|(name, ms)| format!("{name} {ms:.3}"))
        .collect();
    eprintln!("  mean ms per stage: {}", line.join(", "));
    // A speed change that keeps the simulation the same keeps this.
    eprintln!(
        "  state hash after step {}: {:016x}",
        warm + n,
        w.state_hash()
    );
}

fn main() {
    let name = std::env::args().nth(1).unwrap_or("pyramid_3d".into());
    let warm: usize = std::env::args().nth(2).map_or(120, |s| s.parse().unwrap());
    let n: usize = std::env::args().nth(3).map_or(100, |s| s.parse().unwrap());
    let file = match name.as_str() {
        "balls_1000" => SceneFile::Scene3D(piles::ball_pile()),
        "boxes_1000" => SceneFile::Scene3D(piles::box_pile()),
        _ => (demo_scene(&name).unwrap().build)(),
    };
    match file {
        SceneFile::Scene2D(s) => measure(&name, s.build().unwrap(), warm, n),
        SceneFile::Scene3D(s) => measure(&name, s.build().unwrap(), warm, n),
    }
}
