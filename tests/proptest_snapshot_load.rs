//! Snapshot loading never panics: random bytes, random bytes behind a correct header (so
//! the decoder, not the checksum, meets them), valid snapshots with bytes flipped, and
//! random RON text. A failed restore leaves the world's state hash unchanged; a successful
//! one steps with finite bodies. The same code drives the cargo-fuzz target
//! `snapshot_load` (`tests/proptest_support`).

mod proptest_support;

use proptest::collection::vec;
use proptest::prelude::*;
use proptest_support::structured::{load_structured, seed_texts};
use proptest_support::{load_snapshot, seed_world, with_header};

proptest! {
    // Bounded so CI stays fast: each case builds and steps a three-body world.
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn random_bytes_restore_or_error(data in vec(any::<u8>(), 0..512)) {
        let r2 = load_snapshot::<2>(&data);
        prop_assert!(r2.is_ok(), "{}", r2.unwrap_err());
        let r3 = load_snapshot::<3>(&data);
        prop_assert!(r3.is_ok(), "{}", r3.unwrap_err());
    }

    /// A real payload with a few bytes changed, under a fixed-up header: decodes to garbage
    /// values or fails, and the world's checks must catch either.
    #[test]
    fn flipped_payload_bytes_restore_or_error(
        flips in vec((any::<u16>(), any::<u8>()), 1..6),
        dim3 in any::<bool>(),
    ) {
        let result = if dim3 { flipped::<3>(&flips) } else { flipped::<2>(&flips) };
        prop_assert!(result.is_ok(), "{}", result.unwrap_err());
    }

    /// A real snapshot edited as a tree (numbers, handles, list elements, variants) with its
    /// checksum dropped: the world's checks, not the parser, meet the edits.
    #[test]
    fn structurally_edited_snapshots_restore_or_error(
        data in vec(any::<u8>(), 0..40),
        dim3 in any::<bool>(),
    ) {
        let (seed2, seed3) = seed_texts();
        let result = if dim3 {
            load_structured::<3>(seed3, &data)
        } else {
            load_structured::<2>(seed2, &data)
        };
        prop_assert!(result.is_ok(), "{}", result.unwrap_err());
    }
}

fn flipped<const D: usize>(flips: &[(u16, u8)]) -> Result<(), String>
where
    fathom_math::Space<D>: fathom_math::Dim<D>,
{
    let snap = seed_world::<D>().snapshot();
    let mut payload = snap[32..].to_vec();
    for &(at, x) in flips {
        let i = usize::from(at) % payload.len();
        payload[i] ^= x.max(1);
    }
    let bytes = with_header::<D>(&snap, &payload);
    load_snapshot::<D>(&bytes[32..])?;
    let mut w = seed_world::<D>();
    let hash = w.state_hash();
    if w.restore(&bytes).is_err() && w.state_hash() != hash {
        return Err("a failed restore changed the world".into());
    }
    Ok(())
}
