//! Random sequences of world calls with extreme values never panic, a refused call changes
//! nothing, bodies stay finite and snapshots restore to the same state
//! (`tests/proptest_support/api.rs`, which also drives the cargo-fuzz target `world_api`).

mod proptest_support;

use proptest::collection::vec;
use proptest::prelude::*;
use proptest_support::api::run_calls;

proptest! {
    // Bounded so CI stays fast: each case makes up to 48 calls on a world of up to 12 bodies.
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn world_calls_never_break_the_world(data in vec(any::<u8>(), 0..600), dim3 in any::<bool>()) {
        let result = if dim3 { run_calls::<3>(&data) } else { run_calls::<2>(&data) };
        prop_assert!(result.is_ok(), "{}", result.unwrap_err());
    }
}
