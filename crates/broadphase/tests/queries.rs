//! Box, point, ray and swept-sphere queries against brute force over the
//! tight boxes, for D = 2 and D = 3, on random sets with random edits.

mod common;

use common::box_from;
use fathom_broadphase::{Broadphase, CastHit, ProxyKind, QueryControl};
use fathom_math::{Aabb, Dim, Real, Space, Vector};
use proptest::prelude::*;

/// Builds a broadphase from boxes (every third static), then moves some
/// (so fat boxes differ from tight ones) and removes a few.
fn scene<const D: usize>(
    boxes: &[[i8; 6]],
    moves: &[[i8; 6]],
) -> (Broadphase<D>, Vec<(u64, Aabb<D>)>)
where
    Space<D>: Dim<D>,
{
    let mut bp = Broadphase::<D>::new();
    let mut live = Vec::new();
    for (i, c) in boxes.iter().enumerate() {
        let kind = if i % 3 == 0 {
            ProxyKind::Static
        } else {
            ProxyKind::Dynamic
        };
        let key = (i as u64 * 7919) % 10_007;
        bp.insert(key, box_from(c), kind).unwrap();
        live.push((key, box_from::<D>(c)));
    }
    for (j, c) in moves.iter().enumerate() {
        if live.is_empty() {
            break;
        }
        let i = j * 5 % live.len();
        if c[5] % 4 == 0 {
            bp.remove(live[i].0).unwrap();
            live.remove(i);
        } else {
            // A small shift, often within the fat box: tight and fat boxes differ.
            let shift = Vector::<D>::from_fn(|a, _| c[a] as Real / 128.0);
            live[i].1 = live[i].1.translated(&shift);
            bp.update(live[i].0, live[i].1).unwrap();
        }
    }
    (bp, live)
}

/// Brute-force casts: every box grown by `radius` that the path enters, sorted by (t, key).
fn brute_cast<const D: usize>(
    live: &[(u64, Aabb<D>)],
    o: &Vector<D>,
    r: Real,
    d: &Vector<D>,
    max_t: Real,
) -> Vec<CastHit> {
    let mut hits: Vec<CastHit> = live
        .iter()
        .filter_map(|(k, b)| {
            b.loosened(r)
                .ray_interval(o, d, max_t)
                .map(|(t, _)| CastHit { key: *k, t })
        })
        .collect();
    hits.sort_by(|a, b| a.t.total_cmp(&b.t).then(a.key.cmp(&b.key)));
    hits
}

fn check_queries<const D: usize>(
    boxes: &[[i8; 6]],
    moves: &[[i8; 6]],
    q: &[i8; 6],
    r: u8,
    d: [i8; 3],
) where
    Space<D>: Dim<D>,
{
    let (bp, live) = scene::<D>(boxes, moves);
    // Box query.
    let qb = box_from::<D>(q);
    let mut expected: Vec<u64> = live
        .iter()
        .filter(|(_, b)| b.intersects(&qb))
        .map(|p| p.0)
        .collect();
    expected.sort_unstable();
    assert_eq!(bp.overlapping(&qb).unwrap(), expected);
    // Point query.
    let p = qb.center();
    let mut expected: Vec<u64> = live
        .iter()
        .filter(|(_, b)| b.contains_point(&p))
        .map(|p| p.0)
        .collect();
    expected.sort_unstable();
    assert_eq!(bp.containing(&p).unwrap(), expected);
    // Ray and swept-sphere casts (radius 0 is the ray), from the query box's corner.
    let o = qb.min;
    let dir = Vector::<D>::from_fn(|i, _| d[i] as Real / 16.0);
    for radius in [0.0, r as Real / 64.0] {
        for max_t in [Real::INFINITY, 2.0] {
            let got = bp.sphere_hits(&o, radius, &dir, max_t).unwrap();
            let want = brute_cast(&live, &o, radius, &dir, max_t);
            // The same slab test on the same boxes runs in both, so t matches exactly.
            assert_eq!(got, want, "radius {radius} max_t {max_t}");
            check_early_exit(&bp, &o, radius, &dir, max_t, &want);
        }
    }
}

/// Stop after k hits gives the first k; clipping at a hit's t keeps only hits up to it.
fn check_early_exit<const D: usize>(
    bp: &Broadphase<D>,
    o: &Vector<D>,
    r: Real,
    d: &Vector<D>,
    max_t: Real,
    want: &[CastHit],
) where
    Space<D>: Dim<D>,
{
    let k = want.len() / 2;
    let mut got = Vec::new();
    bp.cast_sphere(o, r, d, max_t, |h| {
        got.push(h);
        if got.len() > k {
            QueryControl::Stop
        } else {
            QueryControl::Continue
        }
    })
    .unwrap();
    assert_eq!(got, want[..(k + 1).min(want.len())]);
    if let Some(clip) = want.get(k) {
        let mut got = Vec::new();
        bp.cast_sphere(o, r, d, max_t, |h| {
            got.push(h);
            if h.key == clip.key {
                QueryControl::ClipTo(h.t)
            } else {
                QueryControl::Continue
            }
        })
        .unwrap();
        let expected: Vec<_> = want.iter().filter(|h| h.t <= clip.t).copied().collect();
        assert_eq!(got, expected);
    }
}

fn coords() -> impl Strategy<Value = [i8; 6]> {
    any::<[i8; 6]>().prop_map(|mut c| {
        for x in &mut c[..3] {
            *x %= 24;
        }
        c
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, ..ProptestConfig::default() })]

    #[test]
    fn queries_match_brute_force_2d(
        boxes in prop::collection::vec(coords(), 0..80),
        moves in prop::collection::vec(coords(), 0..40),
        q in coords(), r in any::<u8>(), d in any::<[i8; 3]>(),
    ) {
        check_queries::<2>(&boxes, &moves, &q, r, d);
    }

    #[test]
    fn queries_match_brute_force_3d(
        boxes in prop::collection::vec(coords(), 0..80),
        moves in prop::collection::vec(coords(), 0..40),
        q in coords(), r in any::<u8>(), d in any::<[i8; 3]>(),
    ) {
        check_queries::<3>(&boxes, &moves, &q, r, d);
    }
}
