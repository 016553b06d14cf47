//! Random sequences of world calls with extreme values: nothing panics, a refused call
//! changes nothing, bodies stay finite, snapshots restore to the same state. The first
//! byte picks 2D or 3D. Checks shared with `tests/proptest_world_api.rs`.
#![no_main]

#[path = "../../tests/proptest_support/mod.rs"]
mod proptest_support;

mod dispatch;

use dispatch::by_dimension;
use libfuzzer_sys::fuzz_target;
use proptest_support::api::run_calls;

fuzz_target!(|data: &[u8]| by_dimension(data, run_calls::<2>, run_calls::<3>));
