//! Events and filtering: sensors report each crossing once and push nothing,
//! collision groups and the pair hook keep pairs apart, contacts start and
//! stop once, force events follow the threshold, and event order is the same
//! for any thread count.

use fathom_math::{Dim, Real, Space, Vector};
use fathom_world::{
    BodyDesc, BodyHandle, ColliderDesc, CollisionGroups, FilterPair, Shape, World, WorldEvent,
    WorldSettings,
};
use std::sync::Arc;

fn axis<const D: usize>(i: usize) -> Vector<D> {
    let mut v = Vector::<D>::zeros();
    v[i] = 1.0;
    v
}

fn ground<const D: usize>(w: &mut World<D>, groups: CollisionGroups) -> BodyHandle
where
    Space<D>: Dim<D>,
{
    w.add_body(&BodyDesc::fixed().collider(
        ColliderDesc::new(Shape::<D>::half_space(axis::<D>(1), 0.0).unwrap()).groups(groups),
    ))
    .unwrap()
}

fn ball<const D: usize>(w: &mut World<D>, at: Vector<D>, c: ColliderDesc<D>) -> BodyHandle
where
    Space<D>: Dim<D>,
{
    w.add_body(&BodyDesc::dynamic().position(at).collider(c))
        .unwrap()
}

fn ball_desc<const D: usize>(r: Real) -> ColliderDesc<D>
where
    Space<D>: Dim<D>,
{
    ColliderDesc::new(Shape::<D>::ball(r).unwrap())
}

/// A ball crosses a static sensor box four times (back and forth): exactly one
/// enter and one exit per crossing, in that order, and its velocity never changes.
fn sensor_crossings<const D: usize>()
where
    Space<D>: Dim<D>,
{
    let mut w = World::<D>::new(WorldSettings {
        gravity: Vector::<D>::zeros(),
        ..WorldSettings::default()
    })
    .unwrap();
    let sensor = w
        .add_body(&BodyDesc::fixed().collider(
            ColliderDesc::new(Shape::<D>::cuboid(Vector::<D>::repeat(1.0)).unwrap()).sensor(true),
        ))
        .unwrap();
    let sensor_c = w.body(sensor).unwrap().colliders()[0];
    let b = ball(&mut w, axis::<D>(0) * -3.0, ball_desc::<D>(0.25));
    let mut log = Vec::new();
    for crossing in 0..4 {
        let sign = if crossing % 2 == 0 { 1.0 } else { -1.0 };
        let v = axis::<D>(0) * (3.0 * sign);
        w.set_linear_velocity(b, v).unwrap();
        // 3 m/s for 2.5 s: 7.5 m, from one side (|x| = 3) to beyond the other.
        for _ in 0..150 {
            w.step();
            assert_eq!(
                w.body(b).unwrap().linear_velocity(),
                v,
                "{D}D: the sensor pushed"
            );
            log.extend(w.drain_events());
        }
        assert!(
            w.contact_pairs().is_empty(),
            "{D}D: a sensor made a contact"
        );
    }
    let ball_c = w.body(b).unwrap().colliders()[0];
    let mut expected = Vec::new();
    for _ in 0..4 {
        expected.push(WorldEvent::SensorEntered {
            sensor: sensor_c,
            other: ball_c,
        });
        expected.push(WorldEvent::SensorExited {
            sensor: sensor_c,
            other: ball_c,
            removed: false,
        });
    }
    assert_eq!(log, expected, "{D}D");
}

#[test]
fn sensors_report_each_crossing_once_and_push_nothing() {
    sensor_crossings::<2>();
    sensor_crossings::<3>();
}

/// Balls in a group the ground filters out fall through it; a default ball lands.
fn groups_filter<const D: usize>()
where
    Space<D>: Dim<D>,
{
    let mut w = World::<D>::default();
    ground(&mut w, CollisionGroups::new(0b01, 0b01));
    let ghost = ball(
        &mut w,
        axis::<D>(1) * 1.0,
        ball_desc::<D>(0.5).groups(CollisionGroups::new(0b10, 0b11)),
    );
    // Filters the ground out from its own side only: still no contact (both ways needed).
    let shy = ball(
        &mut w,
        axis::<D>(1) * 1.0 + axis::<D>(0) * 3.0,
        ball_desc::<D>(0.5).groups(CollisionGroups::new(0b01, 0b10)),
    );
    let lander = ball(
        &mut w,
        axis::<D>(1) * 1.0 + axis::<D>(0) * 6.0,
        ball_desc::<D>(0.5),
    );
    let mut log = Vec::new();
    for _ in 0..90 {
        w.step();
        log.extend(w.drain_events());
        for b in [ghost, shy] {
            assert!(w.contacts_of(b).is_empty(), "{D}D: a filtered pair touched");
        }
    }
    for b in [ghost, shy] {
        assert!(
            w.body(b).unwrap().position()[1] < -2.0,
            "{D}D: filtered ball did not fall through"
        );
    }
    let y = w.body(lander).unwrap().position()[1];
    // Resting on the ground: centre at its radius, within the solver's soft penetration.
    assert!((y - 0.5).abs() < 0.02, "{D}D: lander at {y}");
    let lander_c = w.body(lander).unwrap().colliders()[0];
    let starts: Vec<_> = log
        .iter()
        .filter(|e| matches!(e, WorldEvent::ContactStarted { .. }))
        .collect();
    assert_eq!(starts.len(), 1, "{D}D: {log:?}");
    assert_eq!(starts[0].pair().expect("a pair event").1, lander_c);
    assert!(!log
        .iter()
        .any(|e| matches!(e, WorldEvent::ContactStopped { .. })));
}

#[test]
fn groups_that_filter_each_other_never_touch() {
    groups_filter::<2>();
    groups_filter::<3>();
}

#[test]
fn the_pair_hook_vetoes_pairs_and_its_removal_restores_them() {
    let mut w = World::<3>::default();
    ground(&mut w, CollisionGroups::ALL);
    let vetoed = ball(&mut w, axis::<3>(1) * 1.0, ball_desc::<3>(0.5));
    let kept = ball(
        &mut w,
        axis::<3>(1) * 1.0 + axis::<3>(0) * 3.0,
        ball_desc::<3>(0.5),
    );
    w.set_pair_filter(Some(Arc::new(move |p: &FilterPair| {
        p.body_a != vetoed && p.body_b != vetoed
    })));
    for _ in 0..60 {
        w.step();
    }
    assert!(w.body(vetoed).unwrap().position()[1] < -1.0);
    assert!((w.body(kept).unwrap().position()[1] - 0.5).abs() < 0.02);
}

/// Contact started once on landing, force events only above the threshold, and a
/// removed body's contact stops with `removed` set.
fn contact_lifecycle<const D: usize>()
where
    Space<D>: Dim<D>,
{
    let mut w = World::<D>::default();
    ground(&mut w, CollisionGroups::ALL);
    // 1 kg balls dropped 0.1 m: weight 9.81 N, landing at 1.4 m/s, so the landing step's
    // force is about m v / dt = 84 N. One reports above 5 N, the other above 200 N.
    let light = ball(
        &mut w,
        axis::<D>(1) * 0.6,
        ball_desc::<D>(0.5).mass(1.0).force_event_threshold(5.0),
    );
    let heavy_t = ball(
        &mut w,
        axis::<D>(1) * 0.6 + axis::<D>(0) * 3.0,
        ball_desc::<D>(0.5).mass(1.0).force_event_threshold(200.0),
    );
    let mut log = Vec::new();
    for _ in 0..120 {
        w.step();
        log.extend(w.drain_events());
    }
    let light_c = w.body(light).unwrap().colliders()[0];
    let heavy_c = w.body(heavy_t).unwrap().colliders()[0];
    let count = |c, f: fn(&WorldEvent<D>) -> bool| {
        log.iter()
            .filter(|e| e.pair().expect("a pair event").1 == c && f(e))
            .count()
    };
    let is_start: fn(&WorldEvent<D>) -> bool = |e| matches!(e, WorldEvent::ContactStarted { .. });
    let is_force: fn(&WorldEvent<D>) -> bool = |e| matches!(e, WorldEvent::ContactForce { .. });
    assert_eq!(count(light_c, is_start), 1, "{D}D");
    assert_eq!(count(heavy_c, is_start), 1, "{D}D");
    assert_eq!(
        count(heavy_c, is_force),
        0,
        "{D}D: reported above a 200 N threshold"
    );
    // At rest, the last force event (before the island falls asleep and the solver
    // stops) carries the weight, within 5%: the soft contact still settles by fractions
    // of a millimetre per step.
    let last = log
        .iter()
        .rev()
        .find(|e| e.pair().expect("a pair event").1 == light_c && is_force(e))
        .cloned();
    match last {
        Some(WorldEvent::ContactForce {
            total_force,
            direction,
            ..
        }) => {
            assert!(
                (total_force - 9.81).abs() < 0.05 * 9.81,
                "{D}D: force {total_force}"
            );
            // From the ground (a) towards the ball (b): up.
            assert!(direction[1] > 0.99, "{D}D: direction {direction:?}");
        }
        other => panic!("{D}D: no force event at rest: {other:?}"),
    }
    w.remove_body(light).unwrap();
    w.step();
    let stopped: Vec<_> = w
        .events()
        .iter()
        .filter(|e| matches!(e, WorldEvent::ContactStopped { removed: true, .. }))
        .collect();
    assert_eq!(stopped.len(), 1, "{D}D: {:?}", w.events());
    assert_eq!(stopped[0].pair().expect("a pair event").1, light_c);
}

#[test]
fn contacts_start_and_stop_once_and_force_events_follow_the_threshold() {
    contact_lifecycle::<2>();
    contact_lifecycle::<3>();
}

/// Twelve balls landing together (same step) on the ground and on each other:
/// events are sorted by pair, and identical for 1 and 4 threads.
fn event_order<const D: usize>(threads: usize) -> Vec<WorldEvent<D>>
where
    Space<D>: Dim<D>,
{
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap();
    pool.install(|| {
        let mut w = World::<D>::default();
        ground(&mut w, CollisionGroups::ALL);
        for i in 0..12 {
            let x = (i % 6) as Real * 1.2;
            let y = 0.6 + (i / 6) as Real * 1.05;
            ball(
                &mut w,
                axis::<D>(0) * x + axis::<D>(1) * y,
                ball_desc::<D>(0.5),
            );
        }
        let mut log = Vec::new();
        for _ in 0..60 {
            w.step();
            let events = w.drain_events();
            let keys: Vec<_> = events.iter().filter_map(|e| e.pair()).collect();
            assert!(
                keys.windows(2).all(|k| k[0] <= k[1]),
                "{D}D: unsorted {keys:?}"
            );
            log.extend(events);
        }
        log
    })
}

#[test]
fn events_arrive_in_a_deterministic_order() {
    let one = event_order::<2>(1);
    assert!(one.len() >= 12, "expected landings, got {one:?}");
    assert_eq!(one, event_order::<2>(4));
    let one = event_order::<3>(1);
    assert!(one.len() >= 12, "expected landings, got {one:?}");
    assert_eq!(one, event_order::<3>(4));
}

/// The colliders of one body never pair, however they overlap: a body of 200 balls at one
/// spot, resting on a fixed ball, gives 200 candidate pairs (each ball with the support), not
/// the 19,900 among its own balls as well (at 5,000 colliders those cost 188 ms a step).
fn one_body_colliders_never_pair<const D: usize>()
where
    Space<D>: Dim<D>,
{
    let mut w = World::<D>::default();
    w.add_body(&BodyDesc::fixed().collider(ball_desc::<D>(0.5)))
        .unwrap();
    let mut cluster = BodyDesc::dynamic().position(axis::<D>(1) * 0.9);
    for i in 0..200 {
        let mut at = Vector::<D>::zeros();
        at[0] = 1e-3 * i as Real;
        cluster = cluster.collider(ball_desc::<D>(0.5).position(at));
    }
    w.add_body(&cluster).unwrap();
    w.step();
    assert_eq!(w.candidate_pair_count(), 200, "D={D}");
    assert!(w.contact_pairs().iter().all(|p| {
        let body = |c| w.collider(c).unwrap().body();
        body(p.a) != body(p.b)
    }));
}

#[test]
fn colliders_of_one_body_never_pair() {
    one_body_colliders_never_pair::<2>();
    one_body_colliders_never_pair::<3>();
}
