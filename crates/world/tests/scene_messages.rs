//! Scene files a user wrote badly get messages that say what to change: too deep a shape
//! tree names the depth limit and where it was reached (not ron's options), a UTF-8
//! byte-order mark is skipped, an overflowing rotation names the rotation field, and files
//! that are not files or are too large are refused before they are read.

use fathom_math::{Dim, Space};
use fathom_sdf::{SdfError, MAX_SHAPE_DEPTH};
use fathom_world::{Scene, SceneError, WorldError, MAX_SCENE_FILE_BYTES};
use std::path::PathBuf;

/// A scene of one body whose collider's shape is a ball inside `depth` operators of `kind`.
fn nested_scene(kind: &str, depth: usize) -> String {
    let mut shape = "Ball((radius: 0.5))".to_string();
    for _ in 0..depth {
        shape = match kind {
            "Rounded" => format!("Rounded((radius: 0.01, shape: {shape}))"),
            _ => format!("Union((shapes: [{shape}]))"),
        };
    }
    format!("(bodies: [(colliders: [(shape: {shape})])])")
}

/// What a load gave, reduced to what the tables check.
#[derive(Debug, PartialEq)]
enum Got {
    /// Loaded and every value checked.
    Ok,
    /// A parse error at a line and column, with its message.
    Parse(usize, usize, String),
    /// `SceneError::Invalid` naming this field path.
    Invalid(String),
    /// Anything else, as text.
    Other(String),
}

fn load<const D: usize>(text: &str) -> Got
where
    Space<D>: Dim<D>,
{
    match Scene::<D>::from_ron_str(text).and_then(|s| s.validate()) {
        Ok(()) => Got::Ok,
        Err(SceneError::Parse {
            line,
            column,
            message,
        }) => Got::Parse(line, column, message),
        Err(SceneError::Invalid(e)) => Got::Invalid(e.field().unwrap_or("").to_string()),
        Err(e) => Got::Other(e.to_string()),
    }
}

/// The message of a tree past the limit: it names the limit and its value, and says
/// nothing of ron's options (which a scene's author cannot change).
fn is_depth_message(message: &str) -> bool {
    message.contains(&format!("deeper than the limit of {MAX_SHAPE_DEPTH}"))
        && message.contains("MAX_SHAPE_DEPTH")
        && !message.contains("recursion_limit")
        && !message.contains("serde_stacker")
}

fn deep_trees<const D: usize>()
where
    Space<D>: Dim<D>,
{
    // (kind, depth in operators): the ball makes the tree one node deeper.
    for (kind, depth) in [
        ("Rounded", 30),
        ("Union", 30),
        ("Rounded", 200),
        ("Union", 100),
    ] {
        let text = nested_scene(kind, depth);
        match load::<D>(&text) {
            Got::Parse(line, column, message) => {
                assert!(is_depth_message(&message), "{kind} x{depth}: {message}");
                // Where: at the node one past the limit (the text is one line; columns
                // count from 1, and ron may point at the space before a value).
                let opened = text.match_indices(kind).nth(MAX_SHAPE_DEPTH).unwrap().0 + 1;
                assert_eq!(line, 1, "{kind} x{depth}");
                assert!(
                    column.abs_diff(opened) <= 1,
                    "{kind} x{depth}: {column} vs {opened}"
                );
            }
            other => panic!("{kind} x{depth}: expected a parse error, got {other:?}"),
        }
    }
    // Up to the limit is fine: 20 nested unions (which ron's default nesting limit refused).
    for (kind, depth) in [("Union", 20), ("Rounded", MAX_SHAPE_DEPTH - 1)] {
        assert_eq!(
            load::<D>(&nested_scene(kind, depth)),
            Got::Ok,
            "{kind} x{depth}"
        );
    }
}

#[test]
fn too_deep_a_shape_tree_names_the_depth_limit_2d() {
    deep_trees::<2>();
}

#[test]
fn too_deep_a_shape_tree_names_the_depth_limit_3d() {
    deep_trees::<3>();
}

#[test]
fn the_ron_nesting_message_names_the_shape_limit() {
    let message = fathom_sdf::ron_error_message(&ron::Error::ExceededRecursionLimit);
    assert!(message.contains(&MAX_SHAPE_DEPTH.to_string()) && !message.contains("serde_stacker"));
}

fn byte_order_mark<const D: usize>()
where
    Space<D>: Dim<D>,
{
    // Editors on some systems start a UTF-8 file with U+FEFF; it was `1:1 Expected identifier`.
    assert_eq!(load::<D>("\u{feff}(bodies: [(), ()])"), Got::Ok);
    let dir = temp_dir(&format!("bom{D}"));
    let path = dir.join("scene.ron");
    std::fs::write(&path, "\u{feff}(bodies: [()])").unwrap();
    assert_eq!(Scene::<D>::from_ron_file(&path).unwrap().bodies.len(), 1);
    // A mark anywhere else is still an error, at its position.
    assert!(matches!(
        load::<D>("(bodies: [\u{feff}])"),
        Got::Parse(1, 11, _)
    ));
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn a_byte_order_mark_is_skipped_2d() {
    byte_order_mark::<2>();
}

#[test]
fn a_byte_order_mark_is_skipped_3d() {
    byte_order_mark::<3>();
}

#[test]
fn an_overflowing_rotation_names_the_rotation_field() {
    // A 3D scaled axis of 1e30 rad: its length (the angle) overflows f32, so every pose
    // would be NaN; the error used to name the shape (whose box became NaN).
    let rows: &[(&str, &str)] = &[
        (
            "(bodies: [(rotation: (1e30, 0.0, 0.0), colliders: [()])])",
            "bodies[0].rotation",
        ),
        (
            "(bodies: [(colliders: [(), (rotation: (0.0, 1e30, 0.0))])])",
            "bodies[0].colliders[1].rotation",
        ),
        (
            "(bodies: [(), (rotation: (0.0, 0.0, -1e30))])",
            "bodies[1].rotation",
        ),
    ];
    for (text, field) in rows {
        assert_eq!(load::<3>(text), Got::Invalid(field.to_string()), "{text}");
        let scene = Scene::<3>::from_ron_str(text).unwrap();
        match scene.build() {
            Err(SceneError::Invalid(e)) => assert_eq!(e.field(), Some(*field)),
            other => panic!("{text}: {:?}", other.map(|_| ())),
        }
    }
    // Large turns that stay finite are rotations: 1e30 rad in 2D (an angle, no length to
    // take) and 1e18 rad about an axis in 3D.
    assert_eq!(
        load::<2>("(bodies: [(rotation: 1e30, colliders: [()])])"),
        Got::Ok
    );
    assert_eq!(
        load::<3>("(bodies: [(rotation: (1e18, 0.0, 0.0))])"),
        Got::Ok
    );
}

fn temp_dir(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("fathom-world-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Bytes this thread has read through system calls (Linux), to show a refusal read nothing.
fn bytes_read() -> Option<u64> {
    let io = std::fs::read_to_string("/proc/thread-self/io").ok()?;
    io.lines()
        .find_map(|l| l.strip_prefix("rchar: "))
        .and_then(|n| n.trim().parse().ok())
}

#[cfg(unix)]
fn refused_files<const D: usize>()
where
    Space<D>: Dim<D>,
{
    let before = bytes_read();
    // A device as the scene file: refused before a byte is read (it used to read until
    // memory ran out).
    match Scene::<D>::from_ron_file("/dev/zero") {
        Err(SceneError::File(SdfError::NotAFile { path, .. })) => assert_eq!(path, "/dev/zero"),
        other => panic!("{:?}", other.map(|_| ())),
    }
    // A device as a grid file that a scene names: the error names the collider's shape.
    let text = "(bodies: [(colliders: [(shape: Grid(File(path: \"/dev/zero\")))])])";
    let mut scene = Scene::<D>::from_ron_str(text).unwrap();
    match scene.load_files(std::path::Path::new(".")) {
        Err(SceneError::Invalid(WorldError::Shape { field, source })) => {
            assert_eq!(field, "bodies[0].colliders[0].shape");
            assert!(matches!(source, SdfError::NotAFile { .. }), "{source:?}");
        }
        other => panic!("{other:?}"),
    }
    if let (Some(b), Some(a)) = (before, bytes_read()) {
        // The two refusals read nothing; the slack is for this thread's other reads
        // (the /proc file itself, a few hundred bytes).
        assert!(a - b < 64 << 10, "{} bytes read", a - b);
    }
    // A file one byte over the limit (sparse: no disk used) is refused from its length,
    // naming the file and the limit.
    let dir = temp_dir(&format!("big{D}"));
    let path = dir.join("big.ron");
    let f = std::fs::File::create(&path).unwrap();
    f.set_len(MAX_SCENE_FILE_BYTES + 1).unwrap();
    match Scene::<D>::from_ron_file(&path) {
        Err(SceneError::File(SdfError::FileTooLarge { path: p, max_bytes })) => {
            assert_eq!(
                (p, max_bytes),
                (path.display().to_string(), MAX_SCENE_FILE_BYTES)
            );
        }
        other => panic!("{:?}", other.map(|_| ())),
    }
    std::fs::remove_dir_all(dir).unwrap();
}

#[cfg(unix)]
#[test]
fn devices_and_oversized_files_are_refused_2d() {
    refused_files::<2>();
}

#[cfg(unix)]
#[test]
fn devices_and_oversized_files_are_refused_3d() {
    refused_files::<3>();
}
