//! A body in free fall drops g t² / 2.

mod physics_support;
use fathom_math::{Dim, Space};
use fathom_world::{BodyDesc, ColliderDesc, Shape};
use physics_support::*;

fn free_fall<const D: usize>()
where
    Space<D>: Dim<D>,
{
    let mut w = world_with_gravity::<D>(-up::<D>() * G);
    let shape = Shape::<D>::ball(0.5).unwrap();
    let b = w
        .add_body(
            &BodyDesc::dynamic()
                .position(up::<D>() * 100.0)
                .collider(ColliderDesc::new(shape)),
        )
        .unwrap();
    run(&mut w, 1.0);
    let fallen = 100.0 - w.body(b).unwrap().position()[1];
    let exact = 0.5 * G;
    // 0.5%: symplectic Euler over N = 240 substeps falls g t² (1 + 1/N) / 2, 0.42% long.
    assert!(
        (fallen - exact).abs() < 0.005 * exact,
        "D={D}: fell {fallen} m, exact {exact} m"
    );
    let v = w.body(b).unwrap().linear_velocity();
    // The velocity is exact (g t) up to f32 round-off of 240 additions.
    assert!((v + up::<D>() * G).norm() < 1e-3 * G, "D={D}: v = {v}");
    assert_eq!(
        v.iter()
            .enumerate()
            .filter(|(i, x)| *i != 1 && **x != 0.0)
            .count(),
        0
    );
}

#[test]
fn free_fall_2d() {
    free_fall::<2>();
}

#[test]
fn free_fall_3d() {
    free_fall::<3>();
}
