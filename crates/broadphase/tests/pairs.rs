//! Pair events against a brute-force oracle that recomputes every fat box
//! from the documented rule and tests every pair, for D = 2 and D = 3.

mod common;

use common::{box_from, unit_at, Lcg};
use fathom_broadphase::{Broadphase, BroadphaseConfig, PairChanges, ProxyKind};
use fathom_math::{Aabb, Dim, Real, Space, Vector};
use proptest::prelude::*;
use std::collections::{BTreeMap, BTreeSet};

/// Margin of the tests: a power of two so fat boxes of the integer-built boxes stay exact.
const MARGIN: Real = 0.25;

#[derive(Clone, Debug)]
enum Op {
    Insert([i8; 6], bool),
    /// Move proxy number `.0 % len` to a new box (teleport) ...
    Teleport(u16, [i8; 6]),
    /// ... or nudge it by `.1 / 16` per axis (small moves, mostly inside the fat box).
    Nudge(u16, [i8; 3]),
    Remove(u16),
    /// Call `update_pairs` and compare.
    Step,
}

fn op() -> impl Strategy<Value = Op> {
    let c6 = any::<[i8; 6]>().prop_map(|mut c| {
        // Keep centres within [-16, 16] so many boxes overlap.
        for x in &mut c[..3] {
            *x %= 32;
        }
        c
    });
    prop_oneof![
        3 => (c6.clone(), any::<bool>()).prop_map(|(c, s)| Op::Insert(c, s)),
        2 => (any::<u16>(), c6).prop_map(|(k, c)| Op::Teleport(k, c)),
        4 => (any::<u16>(), any::<[i8; 3]>()).prop_map(|(k, d)| Op::Nudge(k, d)),
        1 => any::<u16>().prop_map(Op::Remove),
        2 => Just(Op::Step),
    ]
}

/// The oracle: key -> (tight, fat, kind), maintained by the documented fat-box rule.
#[derive(Default)]
struct Model<const D: usize> {
    proxies: BTreeMap<u64, (Aabb<D>, Aabb<D>, ProxyKind)>,
    pairs: BTreeSet<(u64, u64)>,
}

impl<const D: usize> Model<D> {
    fn margin(kind: ProxyKind) -> Real {
        if kind == ProxyKind::Static {
            0.0
        } else {
            MARGIN
        }
    }

    fn nth_key(&self, n: u16) -> Option<u64> {
        let len = self.proxies.len();
        (len > 0).then(|| *self.proxies.keys().nth(n as usize % len).expect("in range"))
    }

    fn set_tight(&mut self, key: u64, tight: Aabb<D>) {
        let p = self.proxies.get_mut(&key).expect("model key");
        p.0 = tight;
        if !p.1.contains(&tight) {
            p.1 = tight.loosened(Self::margin(p.2));
        }
    }

    /// Brute force over every pair of fat boxes.
    fn overlapping_pairs(&self) -> BTreeSet<(u64, u64)> {
        let v: Vec<_> = self.proxies.iter().collect();
        let mut out = BTreeSet::new();
        for (i, (ka, a)) in v.iter().enumerate() {
            for (kb, b) in &v[i + 1..] {
                let both_static = a.2 == ProxyKind::Static && b.2 == ProxyKind::Static;
                if !both_static && a.1.intersects(&b.1) {
                    out.insert((**ka, **kb));
                }
            }
        }
        out
    }

    /// Expected events since the last step.
    fn step(&mut self) -> PairChanges {
        let now = self.overlapping_pairs();
        let began = now.difference(&self.pairs).copied().collect();
        let ended = self.pairs.difference(&now).copied().collect();
        self.pairs = now;
        PairChanges { began, ended }
    }
}

fn broadphase<const D: usize>(parallel_threshold: usize) -> Broadphase<D>
where
    Space<D>: Dim<D>,
{
    Broadphase::with_config(BroadphaseConfig {
        margin: MARGIN,
        parallel_threshold,
        ..BroadphaseConfig::default()
    })
    .expect("valid config")
}

/// Runs `ops` on a serial and a fully parallel broadphase and the model; every
/// step's events must agree, as must fat boxes and the current pair set.
fn check_ops<const D: usize>(ops: &[Op])
where
    Space<D>: Dim<D>,
{
    let mut serial = broadphase::<D>(usize::MAX);
    let mut parallel = broadphase::<D>(1);
    let mut model = Model::<D>::default();
    let mut next_key = 1000u64;
    for op in ops.iter().chain([&Op::Step]) {
        match op {
            Op::Insert(c, is_static) => {
                let kind = if *is_static {
                    ProxyKind::Static
                } else {
                    ProxyKind::Dynamic
                };
                let b = box_from::<D>(c);
                // Keys are sparse and unordered so key order differs from slot order.
                next_key = next_key.wrapping_mul(31).wrapping_add(7) % 1_000_003;
                if model.proxies.contains_key(&next_key) {
                    continue;
                }
                serial.insert(next_key, b, kind).unwrap();
                parallel.insert(next_key, b, kind).unwrap();
                model
                    .proxies
                    .insert(next_key, (b, b.loosened(Model::<D>::margin(kind)), kind));
            }
            Op::Teleport(n, c) => {
                let Some(key) = model.nth_key(*n) else {
                    continue;
                };
                let b = box_from::<D>(c);
                let moved = serial.update(key, b).unwrap();
                assert_eq!(moved, parallel.update(key, b).unwrap());
                let old_fat = model.proxies[&key].1;
                model.set_tight(key, b);
                assert_eq!(
                    moved,
                    model.proxies[&key].1 != old_fat || !old_fat.contains(&b)
                );
            }
            Op::Nudge(n, d) => {
                let Some(key) = model.nth_key(*n) else {
                    continue;
                };
                let shift = Vector::<D>::from_fn(|i, _| d[i] as Real / 64.0);
                let b = model.proxies[&key].0.translated(&shift);
                serial.update(key, b).unwrap();
                parallel.update(key, b).unwrap();
                model.set_tight(key, b);
            }
            Op::Remove(n) => {
                let Some(key) = model.nth_key(*n) else {
                    continue;
                };
                serial.remove(key).unwrap();
                parallel.remove(key).unwrap();
                model.proxies.remove(&key);
            }
            Op::Step => {
                let expected = model.step();
                let got = serial.update_pairs();
                assert_eq!(got, expected, "serial events differ from brute force");
                assert_eq!(parallel.update_pairs(), got, "parallel differs from serial");
                let current: Vec<_> = model.pairs.iter().copied().collect();
                assert_eq!(serial.pairs(), current);
                assert_eq!(serial.brute_force_pairs(), current);
                assert_eq!(serial.stats().pairs, current.len());
                for (k, p) in &model.proxies {
                    assert_eq!(serial.fat_aabb(*k).unwrap(), p.1, "fat box of {k}");
                }
                serial.validate().unwrap();
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    #[test]
    fn pair_events_match_brute_force_2d(ops in prop::collection::vec(op(), 1..120)) {
        check_ops::<2>(&ops);
    }

    #[test]
    fn pair_events_match_brute_force_3d(ops in prop::collection::vec(op(), 1..120)) {
        check_ops::<3>(&ops);
    }
}

/// A larger scene (bulk insert, then moves of a third) where the parallel path
/// really splits work: serial and parallel outputs are identical and match brute force.
fn large_scene_serial_equals_parallel<const D: usize>()
where
    Space<D>: Dim<D>,
{
    let mut rng = Lcg(7);
    let n = 1500;
    // Similar density in both dimensions: ~n boxes per 30^2 in 2D, per 10^3 in 3D.
    let world = if D == 3 { 10.0 } else { 30.0 };
    let boxes: Vec<Aabb<D>> = (0..n).map(|_| rng.aabb(world)).collect();
    let items = boxes.iter().enumerate().map(|(i, b)| {
        let kind = if i % 5 == 0 {
            ProxyKind::Static
        } else {
            ProxyKind::Dynamic
        };
        (i as u64 * 17 % 10007, *b, kind)
    });
    let mut serial = broadphase::<D>(usize::MAX);
    let mut parallel = broadphase::<D>(1);
    serial.insert_many(items.clone()).unwrap();
    parallel.insert_many(items).unwrap();
    serial.validate().unwrap();
    let first = serial.update_pairs();
    assert_eq!(parallel.update_pairs(), first);
    assert_eq!(first.began, serial.brute_force_pairs());
    assert!(
        first.began.len() > n,
        "scene should be dense: {} pairs",
        first.began.len()
    );
    // Moving a tenth takes the per-proxy query path, a third the tree-against-tree path.
    for (round, stride) in [(0, 10), (1, 3), (2, 10)] {
        for i in (round..n).step_by(stride) {
            let shift = Vector::<D>::from_fn(|_, _| rng.uniform() - 0.5);
            let key = i as u64 * 17 % 10007;
            let b = serial.aabb(key).unwrap().translated(&shift);
            serial.update(key, b).unwrap();
            parallel.update(key, b).unwrap();
        }
        let before = serial.pairs();
        let changes = serial.update_pairs();
        assert_eq!(parallel.update_pairs(), changes);
        let after = serial.brute_force_pairs();
        assert_eq!(serial.pairs(), after);
        let expected_began: Vec<_> = after
            .iter()
            .filter(|p| before.binary_search(p).is_err())
            .copied()
            .collect();
        let expected_ended: Vec<_> = before
            .iter()
            .filter(|p| after.binary_search(p).is_err())
            .copied()
            .collect();
        assert_eq!(changes.began, expected_began);
        assert_eq!(changes.ended, expected_ended);
    }
    serial.validate().unwrap();
}

#[test]
fn large_scene_serial_equals_parallel_2d() {
    large_scene_serial_equals_parallel::<2>();
}

#[test]
fn large_scene_serial_equals_parallel_3d() {
    large_scene_serial_equals_parallel::<3>();
}

/// Proxies of one group never pair, on the incremental path (few moved) and the bulk path
/// (all new): ten overlapping boxes in two groups give only the 25 pairs across the groups,
/// and leaving a group brings its pairs back.
fn groups_never_pair<const D: usize>()
where
    Space<D>: Dim<D>,
{
    let unit = |x: Real| unit_at::<D>(0, x);
    let mut bp = Broadphase::<D>::new();
    for k in 0..10u64 {
        bp.insert(k, unit(0.01 * k as Real), ProxyKind::Dynamic)
            .unwrap();
        bp.set_group(k, Some(k % 2)).unwrap();
    }
    let changes = bp.update_pairs();
    let expected: Vec<(u64, u64)> = (0..10u64)
        .flat_map(|a| (a + 1..10).map(move |b| (a, b)))
        .filter(|(a, b)| a % 2 != b % 2)
        .collect();
    assert_eq!(changes.began, expected, "D={D}: bulk path");
    assert_eq!(bp.pairs(), expected);
    assert_eq!(bp.brute_force_pairs(), expected, "D={D}: the oracle agrees");
    // One proxy moves (the incremental path): still no pair within its group.
    bp.update(4, unit(0.2)).unwrap();
    bp.update_pairs();
    assert_eq!(bp.pairs(), expected, "D={D}: incremental path");
    // Out of its group, proxy 0 pairs with 2, 4, 6 and 8 again.
    bp.set_group(0, None).unwrap();
    let changes = bp.update_pairs();
    assert_eq!(changes.began, vec![(0, 2), (0, 4), (0, 6), (0, 8)], "D={D}");
    assert!(
        bp.set_group(99, None).is_err(),
        "an unknown key is an error"
    );
}

#[test]
fn groups_never_pair_2d() {
    groups_never_pair::<2>();
}

#[test]
fn groups_never_pair_3d() {
    groups_never_pair::<3>();
}

/// A box falling at a steady 0.03 m a step (margin 0.1 m) leaves a plain fat box on the
/// fourth step: its lower face gains 0.03 m a step on 0.1 m of slack. Updated with its
/// displacement, the fat box also reaches `prediction` (4) displacements, 0.12 m, further
/// down, so the box leaves it on the eighth step. (No step ends within 0.01 m of a fat box's
/// face, so round-off decides nothing.)
fn prediction_reinserts_less<const D: usize>()
where
    Space<D>: Dim<D>,
{
    let at = |y: Real| unit_at::<D>(1, y);
    let mut step = Vector::<D>::zeros();
    step[1] = -0.03;
    let count = |predict: bool| {
        let mut bp = Broadphase::<D>::new();
        bp.insert(1, at(0.0), ProxyKind::Dynamic).unwrap();
        let mut reinserted = 0;
        for k in 1..=60 {
            let tight = at(-0.03 * k as Real);
            let moved = if predict {
                bp.update_moving(1, tight, &step).unwrap()
            } else {
                bp.update(1, tight).unwrap()
            };
            reinserted += usize::from(moved);
            let fat = bp.fat_aabb(1).unwrap();
            assert!(
                fat.contains(&tight),
                "D={D}: the fat box holds the tight one"
            );
        }
        bp.validate().unwrap();
        reinserted
    };
    // 60 steps: every 4th step plain; predicted, the first at step 4 (the insert had no
    // displacement) and then every 8th (12, 20, ..., 60).
    assert_eq!(count(false), 15, "D={D}: plain re-insertions");
    assert_eq!(count(true), 8, "D={D}: predicted re-insertions");
}

#[test]
fn prediction_reinserts_less_2d() {
    prediction_reinserts_less::<2>();
}

#[test]
fn prediction_reinserts_less_3d() {
    prediction_reinserts_less::<3>();
}
