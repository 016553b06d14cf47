//! Shape trees in snapshots are read with a bounded depth: a snapshot whose shape nests
//! 100,000 deep (valid checksum, binary or RON) is a typed error naming the limit, decoded on
//! a 256 KiB stack (it used to abort the process with a stack overflow); 24 deep round-trips;
//! 25 deep is refused with the same limit whether built, or restored in either format. The
//! target world is unchanged.

use fathom_math::{Dim, Space};
use fathom_sdf::{SdfError, MAX_SHAPE_DEPTH};
use fathom_world::{BodyDesc, ColliderDesc, Fnv1a, Shape, SnapshotError, World, WorldError};

/// Stack of the thread that restores: far less than an unbounded decoder needs for 100,000
/// levels (the main thread's 8 MiB overflowed), enough for the limit.
const SMALL_STACK: usize = 256 * 1024;

/// Binary snapshot header: the payload length at byte 16, its FNV-1a checksum at 24, 32 bytes.
const HEADER_LEN: usize = 32;

/// A world with one dynamic body holding a two-node tree: a rounded ball.
fn world<const D: usize>() -> World<D>
where
    Space<D>: Dim<D>,
{
    let shape = Shape::<D>::ball(0.5).unwrap().rounded(0.125).unwrap();
    let mut w = World::<D>::default();
    w.add_body(&BodyDesc::dynamic().collider(ColliderDesc::new(shape)))
        .unwrap();
    w
}

/// `outer` split around `inner`: (before, after).
fn split<'a>(outer: &'a [u8], inner: &[u8]) -> (&'a [u8], &'a [u8]) {
    let at = outer
        .windows(inner.len())
        .position(|w| w == inner)
        .expect("the child inside its parent");
    (&outer[..at], &outer[at + inner.len()..])
}

/// `whole` with its one copy of `old` replaced by `prefix^n new suffix^n`.
fn splice(
    whole: &[u8],
    old: &[u8],
    (prefix, new, suffix): (&[u8], &[u8], &[u8]),
    n: usize,
) -> Vec<u8> {
    let (before, after) = split(whole, old);
    let mut out = before.to_vec();
    for _ in 0..n {
        out.extend_from_slice(prefix);
    }
    out.extend_from_slice(new);
    for _ in 0..n {
        out.extend_from_slice(suffix);
    }
    out.extend_from_slice(after);
    out
}

/// The world's binary snapshot with its rounded ball replaced by `depth` nodes (roundings
/// around the ball), with a valid length and checksum.
fn deep_binary<const D: usize>(depth: usize) -> Vec<u8>
where
    Space<D>: Dim<D>,
{
    // The payload's own codec, so the shape's bytes are found inside the snapshot.
    let encode = |s: &Shape<D>| postcard::to_stdvec(s).unwrap();
    let ball = Shape::<D>::ball(0.5).unwrap();
    let (leaf, rounded) = (encode(&ball), encode(&ball.clone().rounded(0.125).unwrap()));
    let (prefix, suffix) = split(&rounded, &leaf);
    let snapshot = world::<D>().snapshot();
    let payload = splice(
        &snapshot[HEADER_LEN..],
        &rounded,
        (prefix, &leaf, suffix),
        depth - 1,
    );
    let mut h = Fnv1a::default();
    h.write(&payload);
    let mut out = snapshot[..16].to_vec();
    out.extend_from_slice(&(payload.len() as u64).to_le_bytes());
    out.extend_from_slice(&h.finish().to_le_bytes());
    out.extend_from_slice(&payload);
    out
}

/// The extent of the parenthesised block that starts at `text[start..]` with `Name(`.
fn block(text: &str, start: usize) -> usize {
    let mut open = 0;
    for (i, c) in text[start..].char_indices() {
        match c {
            '(' => open += 1,
            ')' if open == 1 => return start + i + 1,
            ')' => open -= 1,
            _ => {}
        }
    }
    panic!("unclosed block")
}

/// The world's RON snapshot with its rounded ball replaced by `depth` nodes, checksum left out
/// (a RON snapshot may drop it, so nothing stops a hostile one this way).
fn deep_ron<const D: usize>(depth: usize) -> String
where
    Space<D>: Dim<D>,
{
    let text = world::<D>().snapshot_ron();
    let start = text.find("Rounded(").expect("the rounded ball");
    let end = block(&text, start);
    let ball = start + text[start..].find("Ball(").unwrap();
    let ball_end = block(&text, ball);
    let parts = (
        &text.as_bytes()[start..ball],
        &text.as_bytes()[ball..ball_end],
        &text.as_bytes()[ball_end..end],
    );
    let spliced = splice(
        text.as_bytes(),
        &text.as_bytes()[start..end],
        parts,
        depth - 1,
    );
    let text = String::from_utf8(spliced).unwrap();
    let at = text.find("checksum: Some(").expect("a checksum");
    let close = at + text[at..].find(')').unwrap() + 1;
    format!("{}checksum: None{}", &text[..at], &text[close..])
}

/// Restores into a fresh copy of [`world`] on a small stack, checking that a failed restore
/// leaves the target's state hash as it was: the restored collider's tree depth, or the error.
fn restore_small_stack<const D: usize>(snapshot: Snapshot) -> Result<usize, SnapshotError>
where
    Space<D>: Dim<D>,
{
    std::thread::Builder::new()
        .stack_size(SMALL_STACK)
        .spawn(move || {
            let mut target = world::<D>();
            let before = target.state_hash();
            let result = match &snapshot {
                Snapshot::Binary(b) => target.restore(b),
                Snapshot::Ron(t) => target.restore_ron(t),
            };
            if result.is_err() {
                assert_eq!(
                    target.state_hash(),
                    before,
                    "a failed restore changed the world"
                );
            }
            result.map(|()| {
                let (_, c) = target.colliders().next().expect("a collider");
                c.shape().depth()
            })
        })
        .unwrap()
        .join()
        .expect("restoring overflowed a 256 KiB stack or panicked")
}

/// A snapshot in either format.
enum Snapshot {
    Binary(Vec<u8>),
    Ron(String),
}

fn deep_snapshots_are_refused_at_the_limit<const D: usize>()
where
    Space<D>: Dim<D>,
{
    let refusal = SnapshotError::ShapeTooDeep {
        max: MAX_SHAPE_DEPTH,
    };
    let too_deep = Err(refusal.clone());
    // The splice itself is sound: at 2 nodes it is the world's own snapshot, at 24 a
    // deeper tree that restores.
    for depth in [2, 3, MAX_SHAPE_DEPTH] {
        let bin = restore_small_stack::<D>(Snapshot::Binary(deep_binary::<D>(depth)));
        assert_eq!(bin, Ok(depth), "{D}D binary, {depth} nodes");
        let ron = restore_small_stack::<D>(Snapshot::Ron(deep_ron::<D>(depth)));
        assert_eq!(ron, Ok(depth), "{D}D RON, {depth} nodes");
    }
    for depth in [MAX_SHAPE_DEPTH + 1, 100_000] {
        let bin = restore_small_stack::<D>(Snapshot::Binary(deep_binary::<D>(depth)));
        assert_eq!(bin, too_deep, "{D}D binary, {depth} nodes");
        let ron = restore_small_stack::<D>(Snapshot::Ron(deep_ron::<D>(depth)));
        assert_eq!(ron, too_deep, "{D}D RON, {depth} nodes");
    }
    let message = refusal.to_string();
    assert!(message.contains("deeper than the limit of 24"), "{message}");
}

#[test]
fn deep_snapshots_are_refused_at_the_limit_2d() {
    deep_snapshots_are_refused_at_the_limit::<2>();
}

#[test]
fn deep_snapshots_are_refused_at_the_limit_3d() {
    deep_snapshots_are_refused_at_the_limit::<3>();
}

/// Building a collider of 25 nodes names the same limit as restoring one.
fn building_names_the_same_limit<const D: usize>()
where
    Space<D>: Dim<D>,
{
    let mut shape = Shape::<D>::ball(0.5).unwrap();
    for _ in 0..MAX_SHAPE_DEPTH {
        shape = shape.rounded(0.125).unwrap();
    }
    let mut w = world::<D>();
    let before = w.state_hash();
    let err = w
        .add_body(&BodyDesc::dynamic().collider(ColliderDesc::new(shape)))
        .unwrap_err();
    assert!(
        matches!(
            err,
            WorldError::Shape {
                source: SdfError::TooDeep {
                    max: MAX_SHAPE_DEPTH,
                    ..
                },
                ..
            }
        ),
        "{D}D: {err}"
    );
    assert!(
        err.to_string().contains("deeper than the limit of 24"),
        "{err}"
    );
    assert_eq!(w.state_hash(), before);
}

#[test]
fn building_names_the_same_limit_2d() {
    building_names_the_same_limit::<2>();
}

#[test]
fn building_names_the_same_limit_3d() {
    building_names_the_same_limit::<3>();
}
