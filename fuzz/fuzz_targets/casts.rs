//! Ray, sphere and capsule casts against random posed shape trees: no panic, no error for
//! finite input, hits within the cast with finite points and unit normals. Checks shared
//! with `tests/proptest_narrowphase.rs`.
#![no_main]

#[path = "../../tests/proptest_support/mod.rs"]
mod proptest_support;

use fathom_math::{Dim, Space};
use libfuzzer_sys::fuzz_target;
use proptest_support::{check_cast, pose, shape, Bytes};

fn run<const D: usize>(data: &[u8])
where
    Space<D>: Dim<D>,
{
    let mut b = Bytes::new(data);
    let (target, at) = (shape::<D>(&mut b, 3), pose::<D>(&mut b, 2.0));
    if let Err(e) = check_cast(&target, &at, &mut b) {
        panic!("{e}\ntarget = {}\npose = {at:?}", target.to_ron());
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    if mode & 1 == 1 {
        run::<3>(rest);
    } else {
        run::<2>(rest);
    }
});
