//! Narrowphase queries on random shape trees at random poses: no panic, finite outputs,
//! unit normals, `intersects` consistent with `penetration`. Checks shared with
//! `tests/proptest_narrowphase.rs`.
#![no_main]

#[path = "../../tests/proptest_support/mod.rs"]
mod proptest_support;

mod dispatch;

use dispatch::by_dimension;
use fathom_math::{Dim, Space};
use libfuzzer_sys::fuzz_target;
use proptest_support::{check_pair, pose, shape, Bytes};

fn run<const D: usize>(data: &[u8]) -> Result<(), String>
where
    Space<D>: Dim<D>,
{
    let mut b = Bytes::new(data);
    let (a, pa) = (shape::<D>(&mut b, 3), pose::<D>(&mut b, 2.0));
    let (s, ps) = (shape::<D>(&mut b, 3), pose::<D>(&mut b, 2.0));
    check_pair(&a, &pa, &s, &ps).map_err(|e| {
        format!(
            "{e}\nA = {}\npose A = {pa:?}\nB = {}\npose B = {ps:?}",
            a.to_ron(),
            s.to_ron()
        )
    })
}

fuzz_target!(|data: &[u8]| by_dimension(data, run::<2>, run::<3>));
