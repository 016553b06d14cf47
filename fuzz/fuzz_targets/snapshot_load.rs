//! Snapshot loading never panics and a failed restore changes nothing: the bytes are
//! restored as given, as a payload under a correct header, and as RON text, into 2D or 3D
//! worlds (first byte). Checks shared with `tests/proptest_snapshot_load.rs`.
#![no_main]

#[path = "../../tests/proptest_support/mod.rs"]
mod proptest_support;

mod dispatch;

use dispatch::by_dimension;
use libfuzzer_sys::fuzz_target;
use proptest_support::load_snapshot;

fuzz_target!(|data: &[u8]| by_dimension(data, load_snapshot::<2>, load_snapshot::<3>));
