//! A real snapshot edited as a tree (numbers, handles, list elements, variants; checksum
//! dropped) restores or is refused with the target unchanged; an accepted one steps with
//! finite bodies and its own snapshots restore to the same state. The first byte picks 2D or
//! 3D. Checks shared with `tests/proptest_snapshot_load.rs`.
#![no_main]

#[path = "../../tests/proptest_support/mod.rs"]
mod proptest_support;

mod dispatch;

use dispatch::by_dimension;
use libfuzzer_sys::fuzz_target;
use proptest_support::structured::{load_structured, seed_texts};

fuzz_target!(|data: &[u8]| {
    let (seed2, seed3) = seed_texts();
    by_dimension(
        data,
        |rest| load_structured::<2>(seed2, rest),
        |rest| load_structured::<3>(seed3, rest),
    );
});
