//! Reading a shape tree deeper than `MAX_SHAPE_DEPTH` stops at the limit, in any format:
//! a RON text names the limit at its position, and a binary encoding 100,000 levels deep
//! (which used to overflow the stack while decoding) is an error, not an abort.

use crate::{decode_shapes, Shape3, ShapeDecodeError, MAX_SHAPE_DEPTH};

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

/// Stack of the thread that decodes: far less than an unbounded decoder needs for 100,000
/// levels, enough for the limit.
const SMALL_STACK: usize = 256 * 1024;

/// Decodes `bytes` as a shape with postcard (the snapshot codec) on a small stack: the
/// tree's depth, or why not.
fn decode_binary(bytes: Vec<u8>) -> Result<usize, ShapeDecodeError<postcard::Error>> {
    std::thread::Builder::new()
        .stack_size(SMALL_STACK)
        .spawn(move || decode_shapes(|| postcard::from_bytes::<Shape3>(&bytes)).map(|s| s.depth()))
        .unwrap()
        .join()
        .expect("decoding overflowed a 256 KiB stack or panicked")
}

/// postcard has no recursion limit of its own and drops a custom error's message, so the
/// refusal is told by `decode_shapes` (the shape decoder's own depth guard), not by text.
#[test]
fn a_100000_deep_binary_shape_is_an_error() {
    let encode = |s: &Shape3| postcard::to_stdvec(s).unwrap();
    let ball = Shape3::ball(1.0).unwrap();
    let leaf = encode(&ball);
    // One rounding is a fixed prefix (variant, radius) in front of its child's bytes.
    let once = encode(&ball.rounded(0.1).unwrap());
    let prefix = &once[..once.len() - leaf.len()];
    assert_eq!(&once[prefix.len()..], &leaf[..]);
    let nested = |depth: usize| {
        let mut bytes = prefix.repeat(depth - 1);
        bytes.extend(&leaf);
        bytes
    };
    for depth in [MAX_SHAPE_DEPTH + 1, 100_000] {
        let r = decode_binary(nested(depth));
        assert!(
            matches!(r, Err(ShapeDecodeError::TooDeep)),
            "{depth}: {r:?}"
        );
    }
    // At the limit it decodes.
    assert_eq!(decode_binary(nested(MAX_SHAPE_DEPTH)), Ok(MAX_SHAPE_DEPTH));
}
