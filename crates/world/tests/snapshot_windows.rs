//! Structured corruption of binary snapshots: every 4-byte window of the payload is
//! overwritten with an extreme float (infinity, NaN, 1e30, a subnormal, -1) and the
//! checksum recomputed, so the value reaches the decoder and the checks behind it. Each
//! restore ends in a typed error that leaves the target world as it was, or in a world that
//! steps without a panic and whose bodies stay finite.

use fathom_math::{is_finite_vec, Dim, Real, Space, Vector};
use fathom_world::{BodyDesc, ColliderDesc, Fnv1a, JointDesc, Shape, World};
use std::panic::{catch_unwind, AssertUnwindSafe};

const HEADER_LEN: usize = 32;

fn at<const D: usize>(x: Real, y: Real) -> Vector<D> {
    let mut v = Vector::<D>::zeros();
    v[0] = x;
    v[1] = y;
    v
}

/// Ground, a box, a ball, a rounded union, a kinematic paddle and two jointed balls, stepped
/// until contacts and their impulses are cached.
fn scene<const D: usize>() -> World<D>
where
    Space<D>: Dim<D>,
{
    let mut w = World::<D>::default();
    let ground = Shape::<D>::half_space(at::<D>(0.0, 1.0), 0.0).unwrap();
    w.add_body(&BodyDesc::fixed().collider(ColliderDesc::new(ground)))
        .unwrap();
    let cube = Shape::<D>::cuboid(Vector::<D>::repeat(0.5)).unwrap();
    w.add_body(
        &BodyDesc::dynamic()
            .position(at::<D>(0.0, 0.5))
            .collider(ColliderDesc::new(cube)),
    )
    .unwrap();
    w.add_body(
        &BodyDesc::dynamic()
            .position(at::<D>(0.1, 1.5))
            .collider(ColliderDesc::new(Shape::<D>::ball(0.5).unwrap())),
    )
    .unwrap();
    let blob = Shape::<D>::union_all(vec![
        Shape::<D>::ball(0.3).unwrap(),
        Shape::<D>::capsule(0.4, 0.2).unwrap(),
    ])
    .unwrap()
    .rounded(0.01)
    .unwrap();
    w.add_body(
        &BodyDesc::dynamic()
            .position(at::<D>(2.0, 0.3))
            .collider(ColliderDesc::new(blob).friction(0.3).restitution(0.2)),
    )
    .unwrap();
    w.add_body(
        &BodyDesc::kinematic()
            .position(at::<D>(-2.0, 0.5))
            .linear_velocity(at::<D>(0.1, 0.0))
            .collider(ColliderDesc::new(Shape::<D>::ball(0.4).unwrap())),
    )
    .unwrap();
    let a = w
        .add_body(
            &BodyDesc::dynamic()
                .position(at::<D>(4.0, 3.0))
                .collider(ColliderDesc::new(Shape::<D>::ball(0.2).unwrap())),
        )
        .unwrap();
    let b = w
        .add_body(
            &BodyDesc::dynamic()
                .position(at::<D>(4.5, 3.0))
                .collider(ColliderDesc::new(Shape::<D>::ball(0.2).unwrap())),
        )
        .unwrap();
    w.add_joint(a, b, &JointDesc::distance()).unwrap();
    for _ in 0..20 {
        w.step();
    }
    w
}

/// `snap` with the payload's checksum recomputed.
fn resealed(mut snap: Vec<u8>) -> Vec<u8> {
    let mut h = Fnv1a::default();
    h.write(&snap[HEADER_LEN..]);
    snap[24..32].copy_from_slice(&h.finish().to_le_bytes());
    snap
}

fn finite<const D: usize>(w: &World<D>) -> bool
where
    Space<D>: Dim<D>,
{
    w.bodies().all(|(_, b)| {
        is_finite_vec(&b.position())
            && is_finite_vec(&b.linear_velocity())
            && Space::<D>::ang_is_finite(&b.angular_velocity())
    })
}

/// Every window and every value: no panic, a failed restore changes nothing, a restored world
/// steps finite. (Before the restored values were checked, the same corruption gave 60 panics.)
fn every_window_restores_or_refuses<const D: usize>()
where
    Space<D>: Dim<D>,
{
    let snap = scene::<D>().snapshot();
    let mut target = World::<D>::from_snapshot(&snap).unwrap();
    let before = target.state_hash();
    let values: [f32; 5] = [f32::INFINITY, f32::NAN, 1e30, 1e-40, -1.0];
    let (mut refused, mut restored) = (0, 0);
    let mut failures = Vec::new();
    for start in HEADER_LEN..snap.len() - 3 {
        for v in values {
            let mut bad = snap.clone();
            bad[start..start + 4].copy_from_slice(&v.to_le_bytes());
            let bad = resealed(bad);
            let outcome = catch_unwind(AssertUnwindSafe(|| match target.restore(&bad) {
                Err(_) => Ok(false),
                Ok(()) => {
                    target.step();
                    Ok(true)
                }
            }));
            match outcome {
                Ok(Ok(false)) => {
                    refused += 1;
                    if target.state_hash() != before {
                        failures.push(format!("{start} = {v}: refused but changed the world"));
                    }
                }
                Ok(Ok(true)) => {
                    restored += 1;
                    if !finite(&target) {
                        failures.push(format!("{start} = {v}: a body went non-finite"));
                    }
                    target.restore(&snap).unwrap();
                }
                Ok(Err(())) => unreachable!(),
                Err(_) => {
                    failures.push(format!("{start} = {v}: panicked"));
                    target.restore(&snap).unwrap();
                }
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{D}D: {} of {} corruptions failed ({refused} refused, {restored} restored): {:#?}",
        failures.len(),
        refused + restored,
        &failures[..failures.len().min(40)]
    );
    eprintln!(
        "{D}D: {} bytes, {refused} refused, {restored} restored",
        snap.len()
    );
    assert!(refused > 0 && restored > 0, "{D}D: {refused} / {restored}");
}

#[test]
fn every_float_window_restores_or_refuses_2d() {
    every_window_restores_or_refuses::<2>();
}

#[test]
fn every_float_window_restores_or_refuses_3d() {
    every_window_restores_or_refuses::<3>();
}
