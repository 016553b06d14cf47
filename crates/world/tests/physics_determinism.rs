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
