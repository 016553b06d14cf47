//! The same scene stepped with 1 and 2 rayon threads ends in the same bits.

mod physics_support;
use fathom_math::{Dim, Real, Space, Vector};
use fathom_world::World;
use physics_support::*;

/// A jumble of boxes and balls falling onto a ground box.
fn scene<const D: usize>() -> World<D>
where
    Space<D>: Dim<D>,
{
    let mut w = world_with_gravity::<D>(-up::<D>() * G);
    add_ground_box(&mut w, 10.0);
    for i in 0..24 {
        let mut p = Vector::<D>::zeros();
        p[0] = (i % 4) as Real * 1.1 - 1.6 + 0.05 * (i / 4) as Real;
        p[1] = 0.6 + (i / 4) as Real * 1.05;
        if D == 3 {
            p[D - 1] = ((i * 7) % 3) as Real * 0.3 - 0.3;
        }
        if i % 2 == 0 {
            add_box(&mut w, p, 0.45, 0.6);
        } else {
            add_ball(&mut w, p, 0.45, 0.2);
        }
    }
    w
}

fn hash_with_threads<const D: usize>(threads: usize) -> u64
where
    Space<D>: Dim<D>,
{
    in_pool(threads, || {
        let mut w = scene::<D>();
        run(&mut w, 2.0);
        assert!(w.contact_count() > 0, "D={D}: the scene never touched");
        w.state_hash()
    })
}

#[test]
fn same_bits_with_one_and_two_threads_2d() {
    assert_eq!(hash_with_threads::<2>(1), hash_with_threads::<2>(2));
}

#[test]
fn same_bits_with_one_and_two_threads_3d() {
    assert_eq!(hash_with_threads::<3>(1), hash_with_threads::<3>(2));
}

/// A pyramid of boxes dropped 1 cm apart, row on row (a square pyramid in 3D), with a ball
/// thrown into its side: hundreds of contacts, enough for the solver to share each colour of
/// contacts out over the threads.
fn pyramid<const D: usize>(base: usize) -> World<D>
where
    Space<D>: Dim<D>,
{
    let mut w = world_with_gravity::<D>(-up::<D>() * G);
    add_box_pyramid(&mut w, base);
    let mut p = Vector::<D>::zeros();
    p[0] = -(base as Real);
    p[1] = 1.0;
    let ball = add_ball(&mut w, p, 0.4, 0.2);
    let mut v = Vector::<D>::zeros();
    v[0] = 8.0;
    w.set_linear_velocity(ball, v).expect("live ball");
    w
}

fn pyramid_hash<const D: usize>(base: usize, threads: usize) -> u64
where
    Space<D>: Dim<D>,
{
    in_pool(threads, || {
        let mut w = pyramid::<D>(base);
        run(&mut w, 1.0);
        // Well over the solver's threshold for sharing a colour out (128 contacts).
        assert!(
            w.contact_count() > 400,
            "D={D}: {} points",
            w.contact_count()
        );
        w.state_hash()
    })
}

#[test]
fn pyramid_same_bits_with_one_two_and_four_threads_2d() {
    let one = pyramid_hash::<2>(40, 1);
    assert_eq!(one, pyramid_hash::<2>(40, 2));
    assert_eq!(one, pyramid_hash::<2>(40, 4));
}

#[test]
fn pyramid_same_bits_with_one_two_and_four_threads_3d() {
    let one = pyramid_hash::<3>(14, 1);
    assert_eq!(one, pyramid_hash::<3>(14, 2));
    assert_eq!(one, pyramid_hash::<3>(14, 4));
}
