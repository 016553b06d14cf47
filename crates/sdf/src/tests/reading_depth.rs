//! Reading a shape tree deeper than `MAX_SHAPE_DEPTH` stops at the limit, in any format:
//! a RON text names the limit at its position, and a binary encoding 100,000 levels deep
//! (which used to overflow the stack while decoding) is an error, not an abort.

use crate::{Shape3, MAX_SHAPE_DEPTH};

/// Ball inside `depth` roundings.
fn rounded_ron(depth: usize) -> String {
    let mut s = "Ball((radius: 1.0))".to_string();
    for _ in 0..depth {
        s = format!("Rounded((radius: 0.1, shape: {s}))");
    }
    s
}

#[test]
fn ron_past_the_limit_names_it() {
    assert!(Shape3::from_ron(&rounded_ron(MAX_SHAPE_DEPTH - 1)).is_ok());
    for depth in [MAX_SHAPE_DEPTH, 100, 10_000] {
        let e = Shape3::from_ron(&rounded_ron(depth))
            .unwrap_err()
            .to_string();
        assert!(
            e.contains(&format!("deeper than the limit of {MAX_SHAPE_DEPTH}"))
                && !e.contains("serde_stacker"),
            "{depth}: {e}"
        );
    }
}

#[test]
fn a_100000_deep_binary_shape_is_an_error() {
    let config = bincode::config::standard();
    let encode = |s: &Shape3| bincode::serde::encode_to_vec(s, config).unwrap();
    let ball = Shape3::ball(1.0).unwrap();
    let leaf = encode(&ball);
    // One rounding is a fixed prefix (variant, radius) in front of its child's bytes.
    let once = encode(&ball.rounded(0.1).unwrap());
    let prefix = &once[..once.len() - leaf.len()];
    assert_eq!(&once[prefix.len()..], &leaf[..]);
    let mut bytes = prefix.repeat(100_000);
    bytes.extend(&leaf);
    let r = bincode::serde::decode_from_slice::<Shape3, _>(&bytes, config);
    let e = r.expect_err("past the depth limit").to_string();
    assert!(
        e.contains(&format!("deeper than the limit of {MAX_SHAPE_DEPTH}")),
        "{e}"
    );
    // At the limit it decodes.
    let mut bytes = prefix.repeat(MAX_SHAPE_DEPTH - 1);
    bytes.extend(&leaf);
    let (shape, _) = bincode::serde::decode_from_slice::<Shape3, _>(&bytes, config).unwrap();
    assert_eq!(shape.depth(), MAX_SHAPE_DEPTH);
}
