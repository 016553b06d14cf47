//! Ray, sphere and capsule casts against random posed shape trees: no panic, no error for
//! finite input, hits within the cast with finite points and unit normals. Checks shared
//! with `tests/proptest_narrowphase.rs`.
#![no_main]

#[path = "../../tests/proptest_support/mod.rs"]
mod proptest_support;

mod dispatch;

use dispatch::by_dimension;
use fathom_math::{Dim, Space};
use libfuzzer_sys::fuzz_target;
use proptest_support::{check_cast, pose, shape, Bytes};

fn run<const D: usize>(data: &[u8]) -> Result<(), String>
where
    Space<D>: Dim<D>,
{
    let mut b = Bytes::new(data);
    let (target, at) = (shape::<D>(&mut b, 3), pose::<D>(&mut b, 2.0));
    check_cast(&target, &at, &mut b)
        .map_err(|e| format!("{e}\ntarget = {}\npose = {at:?}", target.to_ron()))
}

fuzz_target!(|data: &[u8]| by_dimension(data, run::<2>, run::<3>));
