//! The `fathom` command line, run as a user runs it: every shipped scene
//! steps headless and prints one JSON object with finite values; bad input
//! exits non-zero with an error that says where and what.

use fathom_app::demo_scenes::DEMO_SCENES;
use fathom_physics::world::SceneFile;
use std::path::Path;
use std::process::Command;

fn fathom() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_fathom"));
    c.current_dir(env!("CARGO_MANIFEST_DIR"));
    c
}

fn scene_path(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("scenes")
        .join(format!("{name}.ron"))
        .display()
        .to_string()
}

#[test]
fn shipped_scene_files_match_their_builders() {
    for demo in DEMO_SCENES {
        let text = std::fs::read_to_string(scene_path(demo.name)).expect("scene file exists");
        let expected = format!("{}\n", (demo.build)().to_ron_string().unwrap());
        assert!(
            text == expected,
            "scenes/{}.ron differs from its builder: run `cargo run --example write_scenes`",
            demo.name
        );
        // From the file: scenes naming baked grid files load them relative to the scene.
        let parsed = SceneFile::from_ron_file(scene_path(demo.name)).unwrap();
        assert_eq!(
            parsed,
            (demo.build)(),
            "{} does not round-trip through RON",
            demo.name
        );
    }
}

/// Steps per scene in this test: 600 as the issue asks, except the three big
/// box scenes, whose box-box contacts still go through the general search
/// (about 1 s per step at the test profile's opt-level 1, so 600 steps would
/// take the whole CI budget); they run 20 steps here.
fn steps_for(name: &str) -> u64 {
    match name {
        "pyramid_2d" | "pyramid_3d" | "pile_3d" => 20,
        _ => 600,
    }
}

#[test]
fn every_shipped_scene_runs_to_valid_json() {
    for demo in DEMO_SCENES {
        let steps = steps_for(demo.name);
        let out = fathom()
            .args([
                "run",
                &scene_path(demo.name),
                "--steps",
                &steps.to_string(),
                "--json",
            ])
            .output()
            .expect("fathom runs");
        assert!(
            out.status.success(),
            "{}: {}",
            demo.name,
            String::from_utf8_lossy(&out.stderr)
        );
        let stdout = String::from_utf8(out.stdout).unwrap();
        assert_eq!(
            stdout.lines().count(),
            1,
            "exactly one JSON object: {stdout}"
        );
        let v: serde_json::Value = serde_json::from_str(&stdout).unwrap();
        assert_eq!(v["scene"], demo.name);
        assert_eq!(v["steps"], steps);
        assert_eq!(
            v["bodies"].as_u64().unwrap() as usize,
            (demo.build)().body_count()
        );
        for key in ["ms_per_step", "max_penetration", "kinetic_energy"] {
            let x = v[key].as_f64().unwrap_or(f64::NAN);
            assert!(
                x.is_finite() && x >= 0.0,
                "{}: {key} = {}",
                demo.name,
                v[key]
            );
        }
        assert!(v["contacts"].is_u64() && hash_of(&v).is_some(), "{stdout}");
    }
}

#[test]
fn thread_count_does_not_change_the_state() {
    let hash = |threads: &str| {
        let args = [
            "run",
            "tower_3d",
            "--steps",
            "120",
            "--json",
            "--threads",
            threads,
        ];
        let (out, _) = passing_run(&args);
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        hash_of(&v).unwrap()
    };
    assert_eq!(hash("1"), hash("2"));
}

#[test]
fn malformed_scene_reports_line_and_column() {
    let dir = std::env::temp_dir().join(format!("fathom-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("broken.ron");
    std::fs::write(
        &path,
        "Scene2D(\n    gravity: (0.0, -9.81),\n    dt: oops,\n)",
    )
    .unwrap();
    let (_, err) = failing_run(&["run", path.to_str().unwrap(), "--steps", "1"]);
    assert!(err.contains("line 3"), "names the line: {err}");

    std::fs::write(&path, "Scene2D(dt: -1.0)").unwrap();
    let (_, err) = failing_run(&["run", path.to_str().unwrap(), "--steps", "1"]);
    assert!(err.contains("dt"), "names the field: {err}");
}

#[test]
fn unknown_scene_lists_the_shipped_ones() {
    let (_, err) = failing_run(&["run", "no_such_scene", "--steps", "1"]);
    for demo in DEMO_SCENES {
        assert!(err.contains(demo.name), "lists {}: {err}", demo.name);
    }
}

/// Runs `fathom` with `args`, which must fail; its exit code and standard error.
fn failing_run(args: &[&str]) -> (Option<i32>, String) {
    let out = fathom().args(args).output().unwrap();
    assert!(!out.status.success(), "{args:?} succeeded");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The run's state hash, which the JSON carries as 16 hex digits in a string.
fn hash_of(v: &serde_json::Value) -> Option<u64> {
    let s = v["state_hash"].as_str()?;
    (s.len() == 16).then_some(())?;
    u64::from_str_radix(s, 16).ok()
}

#[test]
fn a_missing_file_is_named_as_missing() {
    let (code, err) = failing_run(&["run", "scenes/no_such_file.ron", "--steps", "1"]);
    assert_eq!(code, Some(1));
    assert!(
        err.contains("scenes/no_such_file.ron: file not found"),
        "says the file is missing: {err}"
    );
}

#[test]
fn zero_steps_is_refused() {
    let (code, err) = failing_run(&["run", "pyramid_2d", "--steps", "0"]);
    assert_eq!(code, Some(2), "a usage error");
    assert!(err.contains("--steps"), "names the option: {err}");
}

#[test]
fn a_screenshot_name_that_is_not_png_is_refused() {
    let (code, err) = failing_run(&["view", "tower_2d", "--screenshot", "shot.jpg"]);
    assert_eq!(code, Some(2), "a usage error");
    assert!(err.contains("`shot.jpg` is not a .png file name"), "{err}");
}

/// Runs `fathom` with `args`, which must succeed; its standard output and error.
fn passing_run(args: &[&str]) -> (String, String) {
    let out = fathom().args(args).output().unwrap();
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    assert!(
        out.status.success(),
        "{args:?} failed: {}",
        text(&out.stderr)
    );
    (text(&out.stdout), text(&out.stderr))
}

#[test]
fn the_summary_times_awake_steps_apart_and_prints_the_hash_in_hex() {
    let (out, _) = passing_run(&["run", "tower_2d", "--steps", "20"]);
    assert!(
        out.contains("ms awake step") && out.contains("(median of 20 awake steps)"),
        "{out}"
    );
    let hash = out
        .lines()
        .find_map(|l| l.strip_prefix("state hash"))
        .map(str::trim)
        .unwrap_or_default();
    assert!(
        hash.len() == 16 && u64::from_str_radix(hash, 16).is_ok(),
        "16 hex digits: {out}"
    );
}

#[test]
fn motor_work_is_named_as_uncounted_not_called_an_excess() {
    let energy = |scene| {
        let (out, _) = passing_run(&["run", scene, "--steps", "30", "--json"]);
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        v["energy"].clone()
    };
    let door = energy("door_3d");
    assert!(door["max_excess"].is_null(), "{door}");
    assert_eq!(door["uncounted"], serde_json::json!(["joint motors"]));
    // Without a motor every source is counted: the excess is a number, and a resting
    // tower invents no energy (at most float noise on its joules).
    let tower = energy("tower_3d");
    assert_eq!(tower["uncounted"], serde_json::json!([]));
    let excess = tower["max_excess"].as_f64().expect("a counted excess");
    assert!(excess <= 1e-3, "{tower}");
}

/// The character course's script walks the whole course: up the ramp, down the stairs, past
/// the crate, through the servo door, over the moving platform and the conveyor, and jumps
/// up through the one-way platform to stand on it; the same bits at 1 and 4 threads.
#[test]
fn the_character_course_is_walked_to_the_end_on_any_thread_count() {
    use fathom_app::character_course::{CHARACTER_HALF, CHARACTER_RADIUS, ONE_WAY_TOP, ONE_WAY_X};
    let run = |threads: &str| {
        let args = [
            "run",
            "character_3d",
            "--steps",
            "1200",
            "--json",
            "--threads",
            threads,
        ];
        let (out, _) = passing_run(&args);
        serde_json::from_str::<serde_json::Value>(&out).unwrap()
    };
    let one = run("1");
    let p: Vec<f64> = one["character_position"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_f64().unwrap())
        .collect();
    let feet = p[1] - f64::from(CHARACTER_HALF + CHARACTER_RADIUS);
    // Standing on the one-way platform: not in it, and no higher than the controller's 2 cm
    // offset plus its casts' 5 mm tolerance above it.
    let above = feet - f64::from(ONE_WAY_TOP);
    assert!(
        (0.0..0.026).contains(&above),
        "feet at {feet} m, the one-way platform's top is {ONE_WAY_TOP} m"
    );
    assert!(
        (f64::from(ONE_WAY_X[0])..f64::from(ONE_WAY_X[1])).contains(&p[0]),
        "x = {}",
        p[0]
    );
    assert_eq!(one["character_grounded"], serde_json::Value::Bool(true));
    assert_eq!(hash_of(&one), hash_of(&run("4")));
}
