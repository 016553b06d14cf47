//! Scene builders shared by the world's physics tests, written once for 2D and 3D.
#![allow(dead_code)]

use fathom_math::{Dim, Real, Space, Vector};
use fathom_world::{Body, BodyDesc, BodyHandle, ColliderDesc, Shape, World, WorldSettings};

/// Standard gravity, m/s².
pub const G: Real = 9.81;

/// The unit vector along axis `i`.
pub fn axis<const D: usize>(i: usize) -> Vector<D> {
    let mut v = Vector::<D>::zeros();
    v[i] = 1.0;
    v
}

/// World "up" (+y).
pub fn up<const D: usize>() -> Vector<D> {
    axis::<D>(1)
}

/// A world with gravity `g` (world, m/s²) and default dt and substeps; `sleep` says whether
/// islands may fall asleep.
fn world<const D: usize>(g: Vector<D>, sleep: bool) -> World<D>
where
    Space<D>: Dim<D>,
{
    let mut settings = WorldSettings {
        gravity: g,
        ..WorldSettings::default()
    };
    settings.sleep.enabled = sleep;
    World::new(settings).expect("valid settings")
}

/// A world with gravity `g` (world, m/s²) and default dt and substeps.
pub fn world_with_gravity<const D: usize>(g: Vector<D>) -> World<D>
where
    Space<D>: Dim<D>,
{
    world(g, true)
}

/// A world with gravity `g` in which nothing falls asleep (so a test sees every motion).
pub fn awake_world<const D: usize>(g: Vector<D>) -> World<D>
where
    Space<D>: Dim<D>,
{
    world(g, false)
}

/// Kinetic plus potential energy of `b` under gravity `G` along -y (zero at y = 0), J, in
/// f64 so that sums over many bodies keep their low bits.
pub fn mechanical_energy<const D: usize>(b: &Body<D>) -> f64
where
    Space<D>: Dim<D>,
{
    b.kinetic_energy() as f64 + (b.mass() * G) as f64 * b.center_of_mass()[1] as f64
}

/// Runs `f` in a rayon pool of `threads` threads.
pub fn in_pool<T: Send>(threads: usize, f: impl FnOnce() -> T + Send) -> T {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("thread pool")
        .install(f)
}

/// A static ground: the half-space y <= 0 with the given friction and restitution.
pub fn add_ground_plane<const D: usize>(
    w: &mut World<D>,
    friction: Real,
    restitution: Real,
) -> BodyHandle
where
    Space<D>: Dim<D>,
{
    let plane = Shape::<D>::half_space(up::<D>(), 0.0).expect("unit normal");
    let c = ColliderDesc::new(plane)
        .friction(friction)
        .restitution(restitution);
    w.add_body(&BodyDesc::fixed().collider(c))
        .expect("valid ground")
}

/// A static ground box whose top face is at y = 0.
pub fn add_ground_box<const D: usize>(w: &mut World<D>, half_width: Real) -> BodyHandle
where
    Space<D>: Dim<D>,
{
    let mut half = Vector::<D>::repeat(half_width);
    half[1] = 0.5;
    let shape = Shape::<D>::cuboid(half).expect("positive sizes");
    w.add_body(
        &BodyDesc::fixed()
            .position(-up::<D>() * 0.5)
            .collider(ColliderDesc::new(shape)),
    )
    .expect("valid ground")
}

/// A dynamic cube (square in 2D) of half extent `h` at `p`.
pub fn add_box<const D: usize>(
    w: &mut World<D>,
    p: Vector<D>,
    h: Real,
    friction: Real,
) -> BodyHandle
where
    Space<D>: Dim<D>,
{
    let shape = Shape::<D>::cuboid(Vector::<D>::repeat(h)).expect("positive size");
    let c = ColliderDesc::new(shape).friction(friction);
    w.add_body(&BodyDesc::dynamic().position(p).collider(c))
        .expect("valid box")
}

/// A pyramid of unit boxes `base` wide (a square pyramid in 3D) on a ground box, each box
/// 1 cm from its neighbours and the row below (friction 0.6).
pub fn add_box_pyramid<const D: usize>(w: &mut World<D>, base: usize)
where
    Space<D>: Dim<D>,
{
    add_ground_box(w, base as Real * 2.0);
    let h = 0.5;
    let depth = if D == 3 { base } else { 1 };
    for row in 0..base {
        let n = base - row;
        for (i, k) in (0..n).flat_map(|i| (0..depth.min(n)).map(move |k| (i, k))) {
            let mut p = Vector::<D>::zeros();
            p[0] = (i as Real - 0.5 * (n - 1) as Real) * 2.02 * h;
            p[1] = h + 2.02 * h * row as Real;
            if D == 3 {
                p[2] = (k as Real - 0.5 * (depth.min(n) - 1) as Real) * 2.02 * h;
            }
            add_box(w, p, h, 0.6);
        }
    }
}

/// A dynamic ball of radius `r` at `p`.
pub fn add_ball<const D: usize>(
    w: &mut World<D>,
    p: Vector<D>,
    r: Real,
    restitution: Real,
) -> BodyHandle
where
    Space<D>: Dim<D>,
{
    let shape = Shape::<D>::ball(r).expect("positive radius");
    let c = ColliderDesc::new(shape).restitution(restitution);
    w.add_body(&BodyDesc::dynamic().position(p).collider(c))
        .expect("valid ball")
}

/// Steps `w` for `seconds` of simulated time.
pub fn run<const D: usize>(w: &mut World<D>, seconds: Real)
where
    Space<D>: Dim<D>,
{
    let steps = (seconds / w.settings().dt).round() as usize;
    for _ in 0..steps {
        w.step();
    }
}
