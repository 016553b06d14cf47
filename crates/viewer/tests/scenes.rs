//! Scene files as `fathom view` reads them: both dimensions, folder listing,
//! typed errors with line and column, unknown names listing the choices.
//! No graphics needed.

use fathom_viewer::demo::{peg_board, pyramid};
use fathom_viewer::{find_scene, load_scene, load_scene_dir, ViewerError};
use fathom_world::{Scene3, SceneError, SceneFile};
use std::path::PathBuf;

/// A fresh empty folder under the system temp dir.
fn temp_dir(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("fathom-viewer-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

#[test]
fn a_folder_of_2d_and_3d_scenes_loads_sorted_with_dimensions() {
    let dir = temp_dir("dir");
    std::fs::write(dir.join("b_pegs.ron"), peg_board().to_ron_string().unwrap()).unwrap();
    std::fs::write(
        dir.join("a_pyramid.ron"),
        pyramid::<3>(3, 0.5).to_ron_string().unwrap(),
    )
    .unwrap();
    std::fs::write(dir.join("notes.txt"), "not a scene").unwrap();
    // Another format (a driving scene) in the folder is skipped, not an error.
    std::fs::write(
        dir.join("c_driving.ron"),
        "// a car\nDrivingScene(scene: (bodies: []))\n",
    )
    .unwrap();
    let scenes = load_scene_dir(&dir).unwrap();
    let names: Vec<&str> = scenes.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, ["a_pyramid", "b_pegs"]);
    assert_eq!(scenes[0].scene, SceneFile::Scene3D(pyramid::<3>(3, 0.5)));
    assert_eq!(scenes[1].scene, SceneFile::Scene2D(peg_board()));
    assert_eq!(find_scene(&scenes, "b_pegs").unwrap(), 1);
    assert_eq!(find_scene(&scenes, "A_PYRAMID").unwrap(), 0);
    match find_scene(&scenes, "tower") {
        Err(ViewerError::UnknownScene { name, available }) => {
            assert_eq!(name, "tower");
            assert_eq!(available, "a_pyramid, b_pegs");
        }
        other => panic!("{other:?}"),
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn malformed_scene_reports_line_and_column() {
    let dir = temp_dir("bad");
    let path = dir.join("broken.ron");
    // Line 3 holds a value of the wrong type for `substeps`.
    std::fs::write(&path, "(\n    dt: 0.01,\n    substeps: \"four\",\n)\n").unwrap();
    match load_scene(&path) {
        Err(ViewerError::Scene {
            path: p,
            source: SceneError::Parse { line, column, .. },
        }) => {
            assert_eq!(p, path);
            assert_eq!(line, 3);
            assert!(column >= 5, "column {column}");
        }
        other => panic!("{other:?}"),
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bad_values_and_missing_files_are_typed_errors() {
    let dir = temp_dir("invalid");
    let mut scene = pyramid::<3>(2, 0.5);
    scene.dt = -1.0;
    let path = dir.join("negative_dt.ron");
    std::fs::write(&path, scene.to_ron_string().unwrap()).unwrap();
    let e = load_scene(&path).unwrap_err();
    assert!(
        matches!(
            e,
            ViewerError::Scene {
                source: SceneError::Invalid(_),
                ..
            }
        ),
        "{e:?}"
    );
    assert!(e.to_string().contains("dt"), "{e}");
    let e = load_scene(dir.join("missing.ron")).unwrap_err();
    assert!(matches!(e, ViewerError::Io { .. }), "{e:?}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn wrapped_scene_files_round_trip_and_report_errors_inside() {
    let scenes = [
        SceneFile::Scene2D(peg_board()),
        SceneFile::Scene3D(pyramid::<3>(2, 0.5)),
    ];
    for s in &scenes {
        let text = s.to_ron_string().unwrap();
        assert!(
            text.starts_with("#![enable(unwrap_variant_newtypes)]"),
            "{}",
            &text[..60]
        );
        assert_eq!(&SceneFile::from_ron_str(&text).unwrap(), s);
    }
    // Without the extension line and after a comment, the wrapper still reads.
    match SceneFile::from_ron_str("// a comment\nScene3D(dt: 0.02)") {
        Ok(SceneFile::Scene3D(s)) => assert_eq!(s.dt, 0.02),
        other => panic!("{other:?}"),
    }
    // An error inside a wrapped scene points into it (line 3 here).
    let bad = "#![enable(unwrap_variant_newtypes)]\nScene2D(\n    dt: true,\n)\n";
    match SceneFile::from_ron_str(bad) {
        Err(SceneError::Parse { line, .. }) => assert_eq!(line, 3),
        other => panic!("{other:?}"),
    }
}

#[test]
fn dimension_is_read_from_the_text() {
    let three = pyramid::<3>(2, 0.5).to_ron_string().unwrap();
    let two = pyramid::<2>(2, 0.5).to_ron_string().unwrap();
    assert_eq!(SceneFile::from_ron_str(&three).unwrap().dimension(), 3);
    assert_eq!(SceneFile::from_ron_str(&two).unwrap().dimension(), 2);
    // A file that says nothing dimension-specific is 3D unless its name ends in `2d`.
    assert_eq!(
        SceneFile::from_ron_str("()").unwrap(),
        SceneFile::Scene3D(Scene3::default())
    );
    let dir = temp_dir("plain");
    std::fs::write(dir.join("plain_2d.ron"), "()").unwrap();
    std::fs::write(dir.join("plain.ron"), "()").unwrap();
    assert_eq!(
        load_scene(dir.join("plain_2d.ron"))
            .unwrap()
            .scene
            .dimension(),
        2
    );
    assert_eq!(
        load_scene(dir.join("plain.ron")).unwrap().scene.dimension(),
        3
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A window opens the shipped jointed scenes with their joints drawn, and the others
/// without joint lines.
#[test]
fn jointed_scenes_open_with_their_joints_shown() {
    use fathom_viewer::input::Overlays;
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../scenes");
    for (name, jointed) in [("cradle_3d", true), ("door_3d", true), ("bowl_3d", false)] {
        let scene = load_scene(dir.join(format!("{name}.ron"))).unwrap();
        let joints = match &scene.scene {
            SceneFile::Scene2D(s) => s.build().unwrap().joint_count(),
            SceneFile::Scene3D(s) => s.build().unwrap().joint_count(),
        };
        let o = Overlays::on_open(joints);
        assert_eq!(
            (o.joints, o.help),
            (jointed, true),
            "{name}: {joints} joints"
        );
    }
}

/// The reload key reads a scene's file again: an edit shows, a file broken since is a
/// typed error naming it (the scene on show stays), and a scene built in code has nothing
/// to reload.
#[test]
fn a_scene_file_reloads_from_disk() {
    let dir = temp_dir("reload");
    let path = dir.join("drop.ron");
    std::fs::write(&path, "Scene3D(dt: 0.02)").unwrap();
    let scene = load_scene(&path).unwrap();
    let dt = |s: &fathom_viewer::NamedScene| match &s.scene {
        SceneFile::Scene3D(s) => s.dt,
        SceneFile::Scene2D(s) => s.dt,
    };
    assert_eq!(dt(&scene), 0.02);
    std::fs::write(&path, "Scene3D(dt: 0.01)").unwrap();
    let fresh = scene.reload().expect("read from a file").unwrap();
    assert_eq!((fresh.name.as_str(), dt(&fresh)), ("drop", 0.01));
    // The fresh scene reloads too.
    std::fs::write(&path, "Scene3D(dt: oops)").unwrap();
    let e = fresh.reload().expect("still from the file").unwrap_err();
    assert!(
        matches!(&e, ViewerError::Scene { path: p, .. } if *p == path),
        "{e}"
    );
    assert!(fathom_viewer::NamedScene::new("code", Scene3::default())
        .reload()
        .is_none());
    std::fs::remove_dir_all(&dir).unwrap();
}
