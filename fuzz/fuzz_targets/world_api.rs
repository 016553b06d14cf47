//! Random sequences of world calls with extreme values: nothing panics, a refused call
//! changes nothing, bodies stay finite, snapshots restore to the same state. The first
//! byte picks 2D or 3D. Checks shared with `tests/proptest_world_api.rs`.
#![no_main]

#[path = "../../tests/proptest_support/mod.rs"]
mod proptest_support;

use libfuzzer_sys::fuzz_target;
use proptest_support::api::run_calls;

fuzz_target!(|data: &[u8]| {
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    let result = if mode & 1 == 1 {
        run_calls::<3>(rest)
    } else {
        run_calls::<2>(rest)
    };
    if let Err(e) = result {
        panic!("{e}");
    }
});
