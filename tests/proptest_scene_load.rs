//! Scene loading never panics: random text, and a valid scene with random edits (bytes
//! replaced, deleted, inserted from RON punctuation and hostile numbers, text cut), is
//! parsed, validated, built and stepped in 2D and 3D. What loads must step finite.
//! The same decoder and checks drive the cargo-fuzz target `scene_load`
//! (`tests/proptest_support`).

mod proptest_support;

use proptest::collection::vec;
use proptest::prelude::*;
use proptest_support::{load_scene, mutate_text, seed_scene_text, Bytes};

proptest! {
    // Bounded so CI stays fast: each case parses a few hundred bytes and steps a tiny world.
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn mutated_scene_text_loads_or_errors(edits in vec(any::<u8>(), 0..64), dim3 in any::<bool>()) {
        let mut b = Bytes::new(&edits);
        let result = if dim3 {
            load_scene::<3>(&mutate_text(&seed_scene_text::<3>(), &mut b))
        } else {
            load_scene::<2>(&mutate_text(&seed_scene_text::<2>(), &mut b))
        };
        prop_assert!(result.is_ok(), "{}", result.unwrap_err());
    }

    #[test]
    fn random_text_loads_or_errors(text in ".{0,200}") {
        prop_assert!(load_scene::<2>(&text).is_ok());
        prop_assert!(load_scene::<3>(&text).is_ok());
    }
}

/// The seed itself loads: otherwise the mutations above would only test the parser's errors.
#[test]
fn seed_scene_loads_and_steps() {
    for text in [seed_scene_text::<2>(), seed_scene_text::<3>()] {
        assert!(text.contains("bodies"));
    }
    let s2 = fathom_world::Scene2::from_ron_str(&seed_scene_text::<2>()).unwrap();
    assert_eq!(s2.bodies.len(), 3);
    assert!(load_scene::<2>(&seed_scene_text::<2>()).is_ok());
    assert!(load_scene::<3>(&seed_scene_text::<3>()).is_ok());
}
