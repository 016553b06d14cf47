//! Scene loading never panics: the input is either scene text as it is, or edits to a
//! valid seed scene (first byte odd). Loads that succeed are built and stepped; bodies
//! must stay finite. Checks shared with `tests/proptest_scene_load.rs`.
#![no_main]

#[path = "../../tests/proptest_support/mod.rs"]
mod proptest_support;

use libfuzzer_sys::fuzz_target;
use proptest_support::{load_scene, mutate_text, seed_scene_text, Bytes};

fuzz_target!(|data: &[u8]| {
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    let dim3 = mode & 2 != 0;
    let text = if mode & 1 == 1 {
        let mut b = Bytes::new(rest);
        if dim3 {
            mutate_text(&seed_scene_text::<3>(), &mut b)
        } else {
            mutate_text(&seed_scene_text::<2>(), &mut b)
        }
    } else {
        String::from_utf8_lossy(rest).into_owned()
    };
    let result = if dim3 {
        load_scene::<3>(&text)
    } else {
        load_scene::<2>(&text)
    };
    if let Err(e) = result {
        panic!("{e}\n--- scene ---\n{text}");
    }
});
