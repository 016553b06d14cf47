//! Structure-aware snapshot mutation (the `snapshot_structured` fuzz target and
//! `tests/proptest_snapshot_load.rs`): a real snapshot's RON text is split into tokens and
//! edited as a tree, not as bytes, so the edits reach the world's checks instead of the
//! parser: numbers replaced by extremes, handles and counts by other integers, list elements
//! dropped, duplicated or swapped, enum variants renamed. The checksum is dropped (a RON
//! snapshot may leave it out; the payload is then trusted to nothing but the checks), so
//! every edit meets the same validation a binary snapshot with a recomputed checksum meets.

use super::{world_is_finite, Bytes};
use fathom_math::{Dim, Space};
use fathom_world::World;
use std::ops::Range;
use std::sync::OnceLock;

#[derive(Clone, Copy, PartialEq)]
enum Kind {
    Number,
    Word,
    Open,
    Close,
    Comma,
    Other,
}

/// The text's tokens as (kind, byte range); strings are kept whole as `Other`.
fn tokens(text: &str) -> Vec<(Kind, Range<usize>)> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        let start = i;
        let kind = if c.is_ascii_whitespace() {
            i += 1;
            continue;
        } else if c.is_ascii_digit()
            || (c == b'-' && bytes.get(i + 1).is_some_and(u8::is_ascii_digit))
        {
            i += 1;
            while i < bytes.len()
                && (bytes[i].is_ascii_alphanumeric() || b".+-_".contains(&bytes[i]))
            {
                i += 1;
            }
            Kind::Number
        } else if c.is_ascii_alphabetic() || c == b'_' {
            while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
                i += 1;
            }
            Kind::Word
        } else if c == b'"' {
            i += 1;
            while i < bytes.len() && bytes[i] != b'"' {
                i += 1 + usize::from(bytes[i] == b'\\');
            }
            i = (i + 1).min(bytes.len());
            Kind::Other
        } else {
            i += 1;
            match c {
                b'(' | b'[' | b'{' => Kind::Open,
                b')' | b']' | b'}' => Kind::Close,
                b',' => Kind::Comma,
                _ => Kind::Other,
            }
        };
        out.push((kind, start..i));
    }
    out
}

/// The byte range of the list element (a value up to its comma) that starts at token `at`,
/// with the comma after it; `None` when `at` does not start an element.
fn element(toks: &[(Kind, Range<usize>)], at: usize) -> Option<Range<usize>> {
    let before = at.checked_sub(1).map(|i| toks[i].0);
    if !matches!(before, Some(Kind::Open | Kind::Comma))
        || matches!(toks[at].0, Kind::Close | Kind::Comma)
    {
        return None;
    }
    let mut depth = 0i32;
    for (j, (kind, r)) in toks.iter().enumerate().skip(at) {
        match kind {
            Kind::Open => depth += 1,
            Kind::Close if depth == 0 => return Some(toks[at].1.start..toks[j - 1].1.end),
            Kind::Close => depth -= 1,
            Kind::Comma if depth == 0 => return Some(toks[at].1.start..r.end),
            _ => {}
        }
    }
    None
}

/// Replacement numbers: the edges of `f32` and `u64`, and handles' usual values.
const NUMBERS: &[&str] = &[
    "NaN",
    "inf",
    "-inf",
    "1e30",
    "-1e30",
    "3.4e38",
    "1.5e-45",
    "-0.0",
    "0",
    "1",
    "2",
    "3",
    "-1",
    "7",
    "1000000",
    "4294967295",
    "4294967296",
    "18446744073709551615",
];

/// Names that occur in snapshots: other variants an enum may be renamed to.
const WORDS: &[&str] = &[
    "Dynamic",
    "Fixed",
    "Kinematic",
    "Ball",
    "Cuboid",
    "Capsule",
    "Union",
    "Rounded",
    "Some",
    "None",
    "true",
    "false",
    "Revolute",
    "Prismatic",
    "Distance",
    "Spherical",
];

/// `text` with 1 to 4 structural edits decoded from `b`, and its checksum dropped.
pub fn mutate_structure(text: &str, b: &mut Bytes) -> String {
    let mut text = text.to_owned();
    for _ in 0..1 + b.byte() % 4 {
        let toks = tokens(&text);
        if toks.is_empty() {
            break;
        }
        let at = usize::from(u16::from_le_bytes([b.byte(), b.byte()])) % toks.len();
        // Move to the nearest token of the kind the edit needs.
        let find = |kind: Kind| (at..toks.len()).chain(0..at).find(|&i| toks[i].0 == kind);
        match b.byte() % 6 {
            0 | 1 => {
                if let Some(i) = find(Kind::Number) {
                    let n = NUMBERS[usize::from(b.byte()) % NUMBERS.len()];
                    text.replace_range(toks[i].1.clone(), n);
                }
            }
            2 => {
                if let Some(i) = find(Kind::Word) {
                    let w = WORDS[usize::from(b.byte()) % WORDS.len()];
                    text.replace_range(toks[i].1.clone(), w);
                }
            }
            3 => {
                if let Some(r) = (at..toks.len()).find_map(|i| element(&toks, i)) {
                    text.replace_range(r, "");
                }
            }
            4 => {
                if let Some(r) = (at..toks.len()).find_map(|i| element(&toks, i)) {
                    let mut copy = text[r.clone()].to_owned();
                    if !copy.ends_with(',') {
                        copy = format!(",{copy}");
                        text.insert_str(r.end, &copy);
                    } else {
                        text.insert_str(r.start, &copy);
                    }
                }
            }
            _ => {
                let second = usize::from(b.byte());
                let numbers: Vec<usize> = (0..toks.len())
                    .filter(|&i| toks[i].0 == Kind::Number)
                    .collect();
                if numbers.len() >= 2 {
                    let (i, j) = (numbers[at % numbers.len()], numbers[second % numbers.len()]);
                    let (lo, hi) = (i.min(j), i.max(j));
                    let (a, c) = (
                        text[toks[lo].1.clone()].to_owned(),
                        text[toks[hi].1.clone()].to_owned(),
                    );
                    text.replace_range(toks[hi].1.clone(), &a);
                    text.replace_range(toks[lo].1.clone(), &c);
                }
            }
        }
    }
    drop_checksum(&text)
}

fn drop_checksum(text: &str) -> String {
    match text.find("checksum: Some(") {
        Some(start) => match text[start..].find(')') {
            Some(len) => format!(
                "{}checksum: None{}",
                &text[..start],
                &text[start + len + 1..]
            ),
            None => text.to_owned(),
        },
        None => text.to_owned(),
    }
}

/// A world that has stepped until its bodies rest on the ground and its joint is warm: the
/// snapshot carries contacts, impulses, touching pairs and sleep state to mutate.
fn structured_seed<const D: usize>() -> World<D>
where
    Space<D>: Dim<D>,
{
    let mut w = super::seed_world::<D>();
    for _ in 0..60 {
        w.step();
    }
    w
}

/// The RON snapshots of the 2D and 3D [`structured_seed`], made once per process.
pub fn seed_texts() -> &'static (String, String) {
    static SEEDS: OnceLock<(String, String)> = OnceLock::new();
    SEEDS.get_or_init(|| {
        (
            structured_seed::<2>().snapshot_ron(),
            structured_seed::<3>().snapshot_ron(),
        )
    })
}

/// Restores the RON snapshot `seed` (one of [`seed_texts`]) after the edits decoded from
/// `data`. A refused one must
/// leave the target's state hash as it was; an accepted one must step with finite bodies,
/// and its own binary and RON snapshots must restore to the same state.
pub fn load_structured<const D: usize>(seed: &str, data: &[u8]) -> Result<(), String>
where
    Space<D>: Dim<D>,
{
    let text = mutate_structure(seed, &mut Bytes::new(data));
    let mut target = super::seed_world::<D>();
    let before = target.state_hash();
    if target.restore_ron(&text).is_err() {
        return if target.state_hash() == before {
            Ok(())
        } else {
            Err("a refused snapshot changed the world".into())
        };
    }
    let hash = target.state_hash();
    let binary = World::<D>::from_snapshot(&target.snapshot())
        .map_err(|e| format!("an accepted world refused its own binary snapshot: {e}"))?;
    let ron = World::<D>::from_snapshot_ron(&target.snapshot_ron())
        .map_err(|e| format!("an accepted world refused its own RON snapshot: {e}"))?;
    if binary.state_hash() != hash || ron.state_hash() != hash {
        return Err("an accepted world's snapshot restored to another state".into());
    }
    for _ in 0..3 {
        target.step();
    }
    world_is_finite(&target)
}
