//! Times polygon validation: a star of `n` vertices as a simple polygon and a convex
//! `n`-gon on integer coordinates as a convex one. Run with `cargo run --release -p fathom-sdf --example
//! polygon_validation -- 50000 200000`.

use fathom_math::Vector2;
use fathom_sdf::Shape2;
use std::time::Instant;

/// A star: `n` vertices (n even) alternating between radii 1 and 0.5.
fn star(n: usize) -> Vec<Vector2> {
    (0..n)
        .map(|i| {
            let a = std::f32::consts::TAU * i as f32 / n as f32;
            let r = if i % 2 == 0 { 1.0 } else { 0.5 };
            Vector2::new(r * a.cos(), r * a.sin())
        })
        .collect()
}

/// A strictly convex polygon of `n` vertices (n even) at integer coordinates, exact in f32
/// (`None` when they would not be): the edges are the primitive integer vectors of a square, in angle order (each
/// with its opposite, so the outline closes).
fn convex(n: usize) -> Option<Vec<Vector2>> {
    let gcd = |mut a: i64, mut b: i64| {
        while b != 0 {
            (a, b) = (b, a % b);
        }
        a.abs()
    };
    let mut k = 1i64;
    let upper = |k: i64| {
        let mut e: Vec<(i64, i64)> = (-k..=k)
            .flat_map(|a| (0..=k).map(move |b| (a, b)))
            .filter(|&(a, b)| (b > 0 || a > 0) && gcd(a, b) == 1)
            .collect();
        e.sort_by(|p, q| {
            (p.1 as f64)
                .atan2(p.0 as f64)
                .total_cmp(&(q.1 as f64).atan2(q.0 as f64))
        });
        e
    };
    while upper(k).len() < n / 2 {
        k += 1;
    }
    let mut half = upper(k);
    half.truncate(n / 2);
    let edges: Vec<(i64, i64)> = half
        .iter()
        .copied()
        .chain(half.iter().map(|&(a, b)| (-a, -b)))
        .collect();
    let (mut x, mut y) = (0i64, 0i64);
    let v: Vec<Vector2> = edges
        .iter()
        .map(|&(a, b)| {
            (x, y) = (x + a, y + b);
            (x, y)
        })
        .map(|(x, y)| Vector2::new(x as f32, y as f32))
        .collect();
    let exact = v
        .iter()
        .all(|p| p.x.abs() < (1 << 24) as f32 && p.y.abs() < (1 << 24) as f32);
    exact.then_some(v)
}

fn main() {
    let sizes: Vec<usize> = std::env::args()
        .skip(1)
        .map(|a| a.parse().expect("vertex counts"))
        .collect();
    for n in sizes {
        let v = star(n);
        let t = Instant::now();
        let ok = Shape2::polygon(v).map(drop);
        println!(
            "polygon, star of {n}: {:?} in {:.3} s",
            ok,
            t.elapsed().as_secs_f64()
        );
        let Some(v) = convex(n) else {
            println!("convex_polygon, {n}-gon: too many vertices for exact integer coordinates");
            continue;
        };
        let t = Instant::now();
        let ok = Shape2::convex_polygon(v).map(drop);
        println!(
            "convex_polygon, {n}-gon (integer): {:?} in {:.3} s",
            ok,
            t.elapsed().as_secs_f64()
        );
    }
}
