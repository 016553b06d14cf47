//! Snapshots: saving, stepping on, and restoring gives the same bits as never
//! having saved (binary and RON); broken snapshots are typed errors that leave
//! the target world exactly as it was.

use fathom_math::{Dim, Real, Space, Vector};
use fathom_world::{BodyDesc, ColliderDesc, FilterPair, Shape, SnapshotError, World, WorldEvent};
use std::sync::Arc;

fn up<const D: usize>() -> Vector<D> {
    let mut v = Vector::<D>::zeros();
    v[1] = 1.0;
    v
}

/// Ground, a column of boxes and balls (touching, so the contact cache and its
/// warm-start impulses matter), a bullet and a sensor.
fn scene<const D: usize>() -> World<D>
where
    Space<D>: Dim<D>,
{
    let mut w = World::<D>::default();
    w.add_body(&BodyDesc::fixed().collider(ColliderDesc::new(
        Shape::<D>::half_space(up::<D>(), 0.0).unwrap(),
    )))
    .unwrap();
    for i in 0..6 {
        let mut p = up::<D>() * (0.5 + 1.05 * i as Real);
        p[0] = 0.03 * i as Real;
        let shape = if i % 2 == 0 {
            Shape::<D>::cuboid(Vector::<D>::repeat(0.5)).unwrap()
        } else {
            Shape::<D>::ball(0.5).unwrap()
        };
        w.add_body(
            &BodyDesc::dynamic()
                .position(p)
                .collider(ColliderDesc::new(shape)),
        )
        .unwrap();
    }
    // A bullet (no gravity) that crosses the sensor after step 100 and then hits the
    // column, so the steps after the save have sensor and contact events to compare.
    let mut side = up::<D>() * 1.5;
    side[0] = -45.0;
    let mut v = Vector::<D>::zeros();
    v[0] = 20.0;
    w.add_body(
        &BodyDesc::dynamic()
            .position(side)
            .linear_velocity(v)
            .gravity_scale(0.0)
            .ccd(true)
            .collider(ColliderDesc::new(Shape::<D>::ball(0.1).unwrap())),
    )
    .unwrap();
    let mut sensor_at = up::<D>() * 1.0;
    sensor_at[0] = -10.0;
    w.add_body(&BodyDesc::fixed().position(sensor_at).collider(
        ColliderDesc::new(Shape::<D>::cuboid(Vector::<D>::repeat(1.0)).unwrap()).sensor(true),
    ))
    .unwrap();
    w
}

fn steps<const D: usize>(w: &mut World<D>, n: usize) -> Vec<WorldEvent<D>>
where
    Space<D>: Dim<D>,
{
    let mut events = Vec::new();
    for _ in 0..n {
        w.step();
        events.extend(w.drain_events());
    }
    events
}

fn round_trip<const D: usize>()
where
    Space<D>: Dim<D>,
{
    let mut w = scene::<D>();
    steps(&mut w, 100);
    let bin = w.snapshot();
    let text = w.snapshot_ron();
    let events = steps(&mut w, 100);
    let want = w.state_hash();
    let entered = |e: &WorldEvent<D>| matches!(e, WorldEvent::SensorEntered { .. });
    let started = |e: &WorldEvent<D>| matches!(e, WorldEvent::ContactStarted { .. });
    assert!(
        events.iter().any(entered) && events.iter().any(started),
        "{D}D: the scene should produce events after the save: {events:?}"
    );

    let mut from_bin = World::<D>::from_snapshot(&bin).unwrap();
    assert_eq!(
        steps(&mut from_bin, 100),
        events,
        "{D}D binary: events differ"
    );
    assert_eq!(from_bin.state_hash(), want, "{D}D binary: state differs");

    let mut from_ron = World::<D>::from_snapshot_ron(&text).unwrap();
    assert_eq!(steps(&mut from_ron, 100), events, "{D}D RON: events differ");
    assert_eq!(from_ron.state_hash(), want, "{D}D RON: state differs");

    // Restoring into a world that has lived its own life gives the same result too.
    let mut other = scene::<D>();
    steps(&mut other, 7);
    other.restore(&bin).unwrap();
    steps(&mut other, 100);
    assert_eq!(other.state_hash(), want, "{D}D restore(): state differs");
    assert_eq!(
        w.contact_pairs(),
        other.contact_pairs(),
        "{D}D: contact caches differ"
    );
}

#[test]
fn restored_worlds_step_to_the_same_bits() {
    round_trip::<2>();
    round_trip::<3>();
}

fn broken_snapshots_leave_the_world_untouched<const D: usize>()
where
    Space<D>: Dim<D>,
{
    let mut source = scene::<D>();
    steps(&mut source, 20);
    let bin = source.snapshot();
    let text = source.snapshot_ron();

    let mut target = scene::<D>();
    steps(&mut target, 3);
    let before = target.state_hash();
    let before_bytes = target.snapshot();
    let check = |target: &World<D>, r: Result<(), SnapshotError>, what: &str| {
        assert!(r.is_err(), "{D}D {what}: accepted");
        assert_eq!(target.state_hash(), before, "{D}D {what}: target changed");
        assert_eq!(
            target.snapshot(),
            before_bytes,
            "{D}D {what}: target changed"
        );
        r.unwrap_err()
    };

    for cut in [0, 5, 31, 32, bin.len() / 2, bin.len() - 1] {
        let r = target.restore(&bin[..cut]);
        let e = check(&target, r, &format!("truncated to {cut}"));
        assert!(
            matches!(e, SnapshotError::Truncated { .. }),
            "{D}D cut {cut}: {e:?}"
        );
    }
    // A flipped bit anywhere: header fields are checked one by one, the payload by checksum.
    for at in [0, 9, 10, 20, 28, 40, bin.len() / 2, bin.len() - 1] {
        let mut bad = bin.clone();
        bad[at] ^= 0x10;
        let r = target.restore(&bad);
        let e = check(&target, r, &format!("bit flipped at {at}"));
        assert!(
            matches!(
                e,
                SnapshotError::BadMagic
                    | SnapshotError::Version { .. }
                    | SnapshotError::Dimension { .. }
                    | SnapshotError::Truncated { .. }
                    | SnapshotError::TrailingBytes { .. }
                    | SnapshotError::Checksum { .. }
            ),
            "{D}D flip at {at}: {e:?}"
        );
    }
    let mut longer = bin.clone();
    longer.push(0);
    let r = target.restore(&longer);
    check(&target, r, "trailing byte");

    let r = target.restore_ron(&text[..text.len() / 2]);
    let e = check(&target, r, "truncated RON");
    assert!(matches!(e, SnapshotError::Decode(_)), "{D}D: {e:?}");
    // Change one digit of a number: parses, but the checksum catches it.
    let digit = text
        .find("step_count: ")
        .expect("the world has a step count")
        + 12;
    let mut bad = text.clone().into_bytes();
    bad[digit] = if bad[digit] == b'9' { b'8' } else { b'9' };
    let r = target.restore_ron(std::str::from_utf8(&bad).unwrap());
    let e = check(&target, r, "corrupted RON");
    assert!(matches!(e, SnapshotError::Checksum { .. }), "{D}D: {e:?}");
}

#[test]
fn truncated_or_corrupted_snapshots_are_typed_errors() {
    broken_snapshots_leave_the_world_untouched::<2>();
    broken_snapshots_leave_the_world_untouched::<3>();
}

#[test]
fn a_snapshot_of_the_other_dimension_is_refused() {
    let two = scene::<2>().snapshot();
    let mut three = scene::<3>();
    let before = three.state_hash();
    assert_eq!(
        three.restore(&two),
        Err(SnapshotError::Dimension {
            found: 2,
            expected: 3
        })
    );
    assert_eq!(three.state_hash(), before);
}

/// A snapshot of format 3 (a bincode 2 payload) is refused by its version before its payload
/// is read; a payload that decodes before its end (length and checksum made to match) is
/// refused for its trailing bytes rather than cut.
#[test]
fn old_format_and_trailing_payload_bytes_are_refused() {
    let snap = scene::<3>().snapshot();
    let mut target = scene::<3>();
    let before = target.state_hash();
    let mut old = snap.clone();
    old[8..10].copy_from_slice(&3u16.to_le_bytes());
    assert_eq!(
        target.restore(&old),
        Err(SnapshotError::Version {
            found: 3,
            supported: fathom_world::SNAPSHOT_VERSION
        })
    );
    let mut payload = snap[32..].to_vec();
    payload.extend_from_slice(&[0; 3]);
    let mut h = fathom_world::Fnv1a::default();
    h.write(&payload);
    let mut longer = snap[..16].to_vec();
    longer.extend_from_slice(&(payload.len() as u64).to_le_bytes());
    longer.extend_from_slice(&h.finish().to_le_bytes());
    longer.extend_from_slice(&payload);
    assert_eq!(
        target.restore(&longer),
        Err(SnapshotError::TrailingBytes { extra: 3 })
    );
    assert_eq!(target.state_hash(), before);
}

#[test]
fn restore_keeps_the_pair_filter_hook() {
    // A hook that lets nothing touch: after restore the boxes still fall through the ground.
    let mut w = scene::<3>();
    let snap = w.snapshot();
    w.set_pair_filter(Some(Arc::new(|_: &FilterPair| false)));
    w.restore(&snap).unwrap();
    steps(&mut w, 60);
    assert!(
        w.contact_pairs().is_empty(),
        "the hook was dropped by restore"
    );
    let lowest = w
        .bodies()
        .filter(|(_, b)| b.is_dynamic())
        .map(|(_, b)| b.position()[1])
        .fold(Real::INFINITY, Real::min);
    assert!(
        lowest < -1.0,
        "bodies did not fall through: lowest at {lowest}"
    );
}

/// The RON snapshot `text` without its checksum and with the number after the first
/// `field: ` replaced by `value`; `None` when the field does not occur.
fn with_value(text: &str, field: &str, value: &str) -> Option<String> {
    let text = strip_checksum(text);
    let key = format!("{field}: ");
    let start = text.find(&key)? + key.len();
    let len = text[start..].find(|c: char| !(c.is_ascii_digit() || "-+.eE".contains(c)))?;
    (len > 0).then(|| format!("{}{value}{}", &text[..start], &text[start + len..]))
}

/// A RON snapshot may leave its checksum out (a person editing one by hand).
fn strip_checksum(text: &str) -> String {
    let start = text.find("checksum: Some(").expect("a checksum");
    let end = start + text[start..].find(')').unwrap() + 1;
    format!("{}checksum: None{}", &text[..start], &text[end..])
}

/// Values a descriptor would refuse are refused in a snapshot too, even one without a
/// checksum: NaN and infinities in a collider's friction, restitution, margin or box, a
/// body's damping or gravity scale, or a cached contact impulse (one NaN impulse froze 9
/// bodies within 60 steps), and a negative impulse. The error names the field; the world
/// restored into is unchanged; and the unedited text without its checksum still restores.
fn unchecked_ron_values_are_validated<const D: usize>()
where
    Space<D>: Dim<D>,
{
    let mut source = scene::<D>();
    steps(&mut source, 20);
    let text = source.snapshot_ron();
    let mut target = scene::<D>();
    let before = target.state_hash();
    World::<D>::from_snapshot_ron(&strip_checksum(&text)).expect("no checksum is allowed");
    let cases = [
        ("friction", "NaN"),
        ("restitution", "inf"),
        ("margin", "-inf"),
        ("linear_damping", "NaN"),
        ("angular_damping", "-1.0"),
        ("gravity_scale", "inf"),
        ("normal_impulse", "NaN"),
        ("total_normal_impulse", "-2.0"),
        ("separation", "NaN"),
    ];
    for (field, value) in cases {
        let bad = with_value(&text, field, value)
            .unwrap_or_else(|| panic!("{D}D: the snapshot has no {field}"));
        let err = target.restore_ron(&bad).expect_err(field);
        assert!(
            matches!(err, SnapshotError::Inconsistent(_)) && err.to_string().contains(field),
            "{D}D {field} = {value}: {err}"
        );
        assert_eq!(target.state_hash(), before, "{D}D {field}: target changed");
    }
    // A collider's saved box at infinity used to panic when the broadphase was rebuilt.
    let aabb = text.find("aabb: (").expect("a collider box");
    let start = aabb + text[aabb..].find("min: (").unwrap() + 6;
    let end = start + text[start..].find(',').unwrap();
    let bad = strip_checksum(&format!("{}-inf{}", &text[..start], &text[end..]));
    let err = target.restore_ron(&bad).expect_err("infinite box");
    assert!(err.to_string().contains("box"), "{D}D: {err}");
    assert_eq!(target.state_hash(), before);
}

#[test]
fn unchecked_ron_values_are_validated_2d() {
    unchecked_ron_values_are_validated::<2>();
}

#[test]
fn unchecked_ron_values_are_validated_3d() {
    unchecked_ron_values_are_validated::<3>();
}

/// A snapshot may hold any step count: the last one wraps to 0 as a frame counter does (it
/// was an overflow panic in debug builds, found by the `snapshot_structured` fuzz target).
#[test]
fn the_largest_step_count_wraps() {
    let mut w = scene::<3>();
    steps(&mut w, 2);
    let text = w.snapshot_ron();
    let at = text.find("step_count: 2").expect("the step count");
    let edited = format!(
        "{}step_count: 18446744073709551615{}",
        &text[..at],
        &text[at + "step_count: 2".len()..]
    );
    w.restore_ron(&strip_checksum(&edited)).unwrap();
    assert_eq!(w.step_count(), u64::MAX);
    w.step();
    assert_eq!(w.step_count(), 0);
}

/// `World` through plain serde (here RON, as a user would with any format): a world comes
/// back stepping to the same bits, and a decoded world is checked as a restore is, so a NaN
/// that a snapshot would refuse is refused here too, naming the field.
fn plain_serde_checks_the_world<const D: usize>()
where
    Space<D>: Dim<D>,
{
    let mut source = scene::<D>();
    steps(&mut source, 20);
    let text = ron::ser::to_string_pretty(&source, ron::ser::PrettyConfig::default()).unwrap();
    let mut back: World<D> = ron::from_str(&text).expect("a saved world reads back");
    assert_eq!(back.state_hash(), source.state_hash(), "{D}D");
    steps(&mut back, 10);
    steps(&mut source, 10);
    assert_eq!(back.state_hash(), source.state_hash(), "{D}D: stepped on");
    for field in ["friction", "gravity_scale", "normal_impulse"] {
        let key = format!("{field}: ");
        let start = text.find(&key).unwrap() + key.len();
        let len = text[start..].find([',', '\n']).unwrap();
        let bad = format!("{}NaN{}", &text[..start], &text[start + len..]);
        let err = ron::from_str::<World<D>>(&bad).expect_err(field);
        assert!(err.to_string().contains(field), "{D}D {field}: {err}");
    }
}

#[test]
fn plain_serde_checks_the_world_2d() {
    plain_serde_checks_the_world::<2>();
}

#[test]
fn plain_serde_checks_the_world_3d() {
    plain_serde_checks_the_world::<3>();
}

/// A chain of `depth` nodes: roundings (or two-shape unions) around a ball.
fn chain<const D: usize>(depth: usize, union: bool) -> Shape<D>
where
    Space<D>: Dim<D>,
{
    let mut s = Shape::<D>::ball(0.5).unwrap();
    for _ in 1..depth {
        s = if union {
            Shape::union_all(vec![s, Shape::<D>::ball(0.25).unwrap()]).unwrap()
        } else {
            s.rounded(0.001).unwrap()
        };
    }
    s
}

/// One depth limit for building, both snapshot formats and restoring: a tree of
/// `MAX_SHAPE_DEPTH` nodes is accepted and round-trips through RON and binary snapshots; one
/// node more (or 5,000 more, which used to take seconds and overflow the stack) is refused
/// at `add_body` with an error naming the shape, and the world is unchanged.
fn shape_depth_is_limited<const D: usize>()
where
    Space<D>: Dim<D>,
{
    use fathom_sdf::MAX_SHAPE_DEPTH;
    for union in [false, true] {
        let mut w = World::<D>::default();
        let deep = chain::<D>(MAX_SHAPE_DEPTH, union);
        assert_eq!(deep.depth(), MAX_SHAPE_DEPTH);
        w.add_body(&BodyDesc::dynamic().collider(ColliderDesc::new(deep)))
            .expect("a tree at the limit is accepted");
        w.step();
        let hash = w.state_hash();
        let from_ron = World::<D>::from_snapshot_ron(&w.snapshot_ron()).expect("RON round trip");
        let from_bin = World::<D>::from_snapshot(&w.snapshot()).expect("binary round trip");
        assert_eq!(from_ron.state_hash(), hash);
        assert_eq!(from_bin.state_hash(), hash);
        for depth in [MAX_SHAPE_DEPTH + 1, 5_000] {
            let desc = BodyDesc::dynamic().collider(ColliderDesc::new(chain::<D>(depth, union)));
            let err = w.add_body(&desc).expect_err("too deep");
            assert!(
                err.to_string().contains("deeper than"),
                "{D}D depth {depth}: {err}"
            );
            assert_eq!(w.state_hash(), hash, "{D}D depth {depth}: world changed");
        }
    }
}

#[test]
fn shape_depth_is_limited_2d() {
    shape_depth_is_limited::<2>();
}

#[test]
fn shape_depth_is_limited_3d() {
    shape_depth_is_limited::<3>();
}
