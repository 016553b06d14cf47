//! The `fathom` command line: run scenes headless, list them, compare SDF
//! collision against triangle meshes.

use clap::{Parser, Subcommand};
use fathom_app::demo_scenes::{demo_scene, DEMO_SCENES};
use fathom_app::headless::{run_scene, RunReport};
use fathom_physics::world::SceneFile;
use indicatif::{ProgressBar, ProgressStyle};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "fathom",
    version,
    about = "Fathom: SDF rigid-body physics in 2D and 3D"
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Step a scene headless and print a summary (or one JSON object).
    Run {
        /// A scene file, or the name of a shipped scene (see `fathom scenes`).
        scene: String,
        /// Number of steps (at least 1).
        #[arg(long, default_value_t = 600, value_parser = clap::value_parser!(u64).range(1..))]
        steps: u64,
        /// Worker threads for the parallel stages (default: all cores).
        #[arg(long)]
        threads: Option<usize>,
        /// Print exactly one JSON object instead of the summary.
        #[arg(long)]
        json: bool,
    },
    /// Open a scene in the viewer (headless run when no display is available).
    View {
        /// Scene files or shipped scenes' names: the window opens the first (default: the 3D
        /// pyramid) and lists the shipped scenes and every file given (key L).
        scenes: Vec<String>,
        /// Step this many frames, render the last one offscreen to this PNG and exit.
        #[arg(long, value_name = "FILE.png", value_parser = png_path)]
        screenshot: Option<PathBuf>,
        /// With --screenshot: frames to step before the picture (default 120).
        #[arg(long, requires = "screenshot")]
        frames: Option<u32>,
        /// With --screenshot: also write where each body (with a bounded shape) is in the
        /// picture, as JSON: its pixel box, colour and whether it is dynamic.
        #[arg(long, value_name = "FILE.json", requires = "screenshot")]
        layout: Option<PathBuf>,
    },
    /// List the shipped scenes.
    Scenes,
    /// Render every shipped scene offscreen to DIR/NAME.png (the pictures in docs/).
    Screenshots {
        /// The folder to write into (made if missing).
        #[arg(long, default_value = "docs")]
        dir: PathBuf,
        /// Frames to step before each picture.
        #[arg(long, default_value_t = 120)]
        frames: u32,
    },
    /// Compare SDF collision against parry's triangle meshes on the same shapes.
    Compare {
        /// Fewer resolutions and shorter timing (under a minute).
        #[arg(long)]
        quick: bool,
        /// Print one JSON array of rows instead of the markdown table.
        #[arg(long)]
        json: bool,
        /// Also draw time against triangle count (log-log) into this PNG file.
        #[arg(long, value_name = "FILE.png")]
        plot: Option<PathBuf>,
    },
}

/// A `--screenshot` path: the picture is always PNG, so the name must say so.
fn png_path(arg: &str) -> Result<PathBuf, String> {
    let path = PathBuf::from(arg);
    let png = path
        .extension()
        .is_some_and(|x| x.eq_ignore_ascii_case("png"));
    if png {
        Ok(path)
    } else {
        Err(format!(
            "`{arg}` is not a .png file name: screenshots are written as PNG"
        ))
    }
}

/// Mesa's EGL probes Wayland and prints "error: XDG_RUNTIME_DIR is invalid or not set"
/// when the variable names no private folder, on every run, even under X or offscreen.
/// Pointing it at a fresh private folder (mode 0700, as the XDG spec asks) keeps that
/// noise out of the output; a valid value is left alone.
/// The folder is removed when the returned guard drops.
fn quiet_runtime_dir() -> Option<RuntimeDir> {
    let valid = std::env::var_os("XDG_RUNTIME_DIR").is_some_and(|d| Path::new(&d).is_dir());
    if valid {
        return None;
    }
    let dir = std::env::temp_dir().join(format!("fathom-runtime-{}", std::process::id()));
    private_dir(&dir).ok()?;
    std::env::set_var("XDG_RUNTIME_DIR", &dir);
    Some(RuntimeDir(dir))
}

/// A runtime folder made by [`quiet_runtime_dir`], removed on drop.
struct RuntimeDir(PathBuf);

impl Drop for RuntimeDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

#[cfg(unix)]
fn private_dir(dir: &Path) -> std::io::Result<()> {
    use std::os::unix::fs::DirBuilderExt;
    std::fs::DirBuilder::new().mode(0o700).create(dir)
}

#[cfg(not(unix))]
fn private_dir(dir: &Path) -> std::io::Result<()> {
    std::fs::create_dir_all(dir)
}

/// The scene `fathom` runs when given no command.
const DEFAULT_SCENE: &str = "pyramid_3d";

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Some(Command::Run {
            scene,
            steps,
            threads,
            json,
        }) => run(&scene, steps, threads, json),
        Some(Command::Scenes) => {
            list_scenes();
            Ok(())
        }
        Some(Command::Compare { quick, json, plot }) => compare(quick, json, plot.as_deref()),
        Some(Command::View {
            scenes,
            screenshot,
            frames,
            layout,
        }) => {
            let shot = screenshot.map(|png| Shot {
                png,
                frames: frames.unwrap_or(120),
                layout,
            });
            let (first, more) = scenes
                .split_first()
                .map_or((DEFAULT_SCENE, &[][..]), |(f, m)| (f.as_str(), m));
            view(first, more, shot)
        }
        Some(Command::Screenshots { dir, frames }) => screenshots(&dir, frames),
        None => view(DEFAULT_SCENE, &[], None),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("fathom: {message}");
            ExitCode::FAILURE
        }
    }
}

/// The character course, built in code (its hooks are code), last in the list.
use fathom_app::character_course::COURSE_SCENE;
use fathom_app::DRIVING_SCENE;

/// What `fathom view --screenshot` asks for.
struct Shot {
    /// The PNG to write.
    png: PathBuf,
    /// Frames (steps) before the picture.
    frames: u32,
    /// Where to write the bodies' places in the picture (JSON), if anywhere.
    layout: Option<PathBuf>,
}

/// What `fathom view --screenshot` and `fathom screenshots` render: the default size, with
/// what a window shows when the scene opens (its joints, the ground grid).
fn shot_options() -> fathom_viewer::OffscreenOptions {
    fathom_viewer::OffscreenOptions {
        as_opened: true,
        ..Default::default()
    }
}

/// Renders every shipped scene at `frames` to `dir/NAME.png`.
fn screenshots(dir: &Path, frames: u32) -> Result<(), String> {
    let _runtime = quiet_runtime_dir();
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    for name in fathom_app::shipped_scene_names() {
        let png = dir.join(format!("{name}.png"));
        let named = view_scene(name)?;
        fathom_viewer::screenshot_with(&named, frames, &png, &shot_options())
            .map_err(|e| format!("{name}: {e}"))?;
        println!("wrote {}", png.display());
    }
    Ok(())
}

/// Opens the viewer on `arg` (with `more` scene files in its list), renders a screenshot
/// of `arg`, or (without a display) says so in one line and runs `arg` headless instead.
fn view(arg: &str, more: &[String], shot: Option<Shot>) -> Result<(), String> {
    let _runtime = quiet_runtime_dir();
    let named = view_scene(arg)?;
    if let Some(shot) = shot {
        let capture =
            fathom_viewer::screenshot_with(&named, shot.frames, &shot.png, &shot_options())
                .map_err(|e| e.to_string())?;
        println!("wrote {}", shot.png.display());
        if let Some(path) = shot.layout {
            let json = serde_json::to_string(&capture.bodies).map_err(|e| e.to_string())?;
            std::fs::write(&path, json).map_err(|e| format!("{}: {e}", path.display()))?;
            println!("wrote {}", path.display());
        }
        return Ok(());
    }
    if let Err(reason) = fathom_viewer::display_available() {
        eprintln!("fathom: no display ({reason}); running `{arg}` headless for 300 steps instead");
        return run(arg, 300, None, false);
    }
    let (scenes, start) = window_scenes(arg, named, more)?;
    match fathom_viewer::run_windowed(&scenes, start) {
        Err(fathom_viewer::ViewerError::NoDisplay(_)) => {
            eprintln!(
                "fathom: the window could not open; running `{arg}` headless for 300 steps instead"
            );
            run(arg, 300, None, false)
        }
        other => other.map_err(|e| e.to_string()),
    }
}

/// `arg` (a scene file, or a shipped scene's name) as the viewer shows it; a driving
/// scene comes with its car, driven by its script until a driving key is pressed.
fn view_scene(arg: &str) -> Result<fathom_viewer::NamedScene, String> {
    if arg == COURSE_SCENE {
        return Ok(fathom_app::character_course::course_view());
    }
    if arg == fathom_app::tunnels::TUNNELS_SCENE {
        return fathom_app::tunnels::tunnels_view().map_err(|e| e.to_string());
    }
    let Some(path) = driving_file(arg) else {
        let (name, scene) = load_scene(arg)?;
        let named = named_scene(name, scene);
        // A scene read from a file is read again on the reload key (F5).
        let Some(file) = scene_file(arg) else {
            return Ok(named);
        };
        return Ok(named.with_reload(move || fathom_viewer::load_scene(&file)));
    };
    let name = path
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or(DRIVING_SCENE);
    let at = |e: &dyn std::fmt::Display| format!("{}: {e}", path.display());
    let scene =
        fathom_app::vehicle_scene::DrivingScene::from_ron_file(&path).map_err(|e| at(&e))?;
    let named = fathom_app::drive::driving_view(name, scene).map_err(|e| at(&e))?;
    let (again, name) = (path.clone(), name.to_string());
    Ok(named.with_reload(move || reload_driving(&again, &name)))
}

/// The driving scene `path` read again, with its car (the reload key).
fn reload_driving(
    path: &Path,
    name: &str,
) -> Result<fathom_viewer::NamedScene, fathom_viewer::ViewerError> {
    let bad = |e: &dyn std::fmt::Display| fathom_viewer::ViewerError::Io {
        path: path.to_path_buf(),
        message: e.to_string(),
    };
    let scene =
        fathom_app::vehicle_scene::DrivingScene::from_ron_file(path).map_err(|e| bad(&e))?;
    fathom_app::drive::driving_view(name, scene).map_err(|e| bad(&e))
}

/// The file `arg` is read from: itself when it is a file, else the shipped scene file of
/// that name (`None` for a scene built in code).
fn scene_file(arg: &str) -> Option<PathBuf> {
    let path = Path::new(arg);
    if path.is_file() {
        return Some(path.to_path_buf());
    }
    let file = scenes_dir().join(format!("{arg}.ron"));
    file.is_file().then_some(file)
}

use fathom_app::shipped_scene_names;

/// Whether `arg` names the shipped scene `name`: by its name, or as the path of its file.
fn names_shipped(arg: &str, name: &str) -> bool {
    if arg == name {
        return true;
    }
    let file = scenes_dir().join(format!("{name}.ron"));
    match (std::fs::canonicalize(arg), std::fs::canonicalize(file)) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}

/// The scenes the window can switch between (number keys, arrows, page up / down, the
/// scene list): every shipped scene, then `arg` when it is another file, then the `more`
/// files given; the window starts at `arg`.
fn window_scenes(
    arg: &str,
    named: fathom_viewer::NamedScene,
    more: &[String],
) -> Result<(Vec<fathom_viewer::NamedScene>, usize), String> {
    let names = shipped_scene_names();
    let shipped_at = names.iter().position(|n| names_shipped(arg, n));
    let mut scenes = Vec::with_capacity(names.len() + 1 + more.len());
    for (i, name) in names.iter().enumerate() {
        if Some(i) == shipped_at {
            scenes.push(named.clone());
            continue;
        }
        scenes.push(view_scene(name)?);
    }
    let start = shipped_at.unwrap_or(scenes.len());
    if shipped_at.is_none() {
        scenes.push(named);
    }
    for extra in more {
        if !names.iter().any(|n| names_shipped(extra, n)) {
            scenes.push(view_scene(extra)?);
        }
    }
    Ok((scenes, start))
}

/// A scene of either dimension as the viewer takes it.
fn named_scene(name: String, scene: SceneFile) -> fathom_viewer::NamedScene {
    match scene {
        SceneFile::Scene2D(s) => fathom_viewer::NamedScene::new(name, s),
        SceneFile::Scene3D(s) => fathom_viewer::NamedScene::new(name, s),
    }
}

fn list_scenes() {
    for s in DEMO_SCENES {
        println!("{:<14} {}", s.name, s.description);
    }
    println!(
        "{DRIVING_SCENE:<14} a car on sphere-cast wheels over SDF terrain (scripted; WASD in the viewer)"
    );
    println!(
        "{COURSE_SCENE:<14} a character course: slopes, steps, a door, platforms (scripted; WASD in the viewer)"
    );
}

/// Folder of the shipped scene files (next to the package, or `./scenes`).
fn scenes_dir() -> PathBuf {
    let here = Path::new("scenes");
    if here.is_dir() {
        return here.to_path_buf();
    }
    Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes")
}

/// Loads `arg` as a file if it is one, else as a shipped scene by name.
fn load_scene(arg: &str) -> Result<(String, SceneFile), String> {
    let path = Path::new(arg);
    let name = path
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or(arg)
        .to_string();
    if path.is_file() {
        let scene =
            SceneFile::from_ron_file(path).map_err(|e| format!("{}: {e}", path.display()))?;
        return Ok((name, scene));
    }
    let file = scenes_dir().join(format!("{arg}.ron"));
    if file.is_file() {
        let scene =
            SceneFile::from_ron_file(&file).map_err(|e| format!("{}: {e}", file.display()))?;
        return Ok((name, scene));
    }
    if let Some(demo) = demo_scene(arg) {
        return Ok((name, (demo.build)()));
    }
    if path.extension().is_some() || path.components().count() > 1 {
        return Err(format!("{arg}: file not found"));
    }
    let names = shipped_scene_names();
    Err(format!(
        "no scene file or shipped scene named `{arg}`; shipped scenes: {}",
        names.join(", ")
    ))
}

fn run(arg: &str, steps: u64, threads: Option<usize>, json: bool) -> Result<(), String> {
    let mut builder = rayon::ThreadPoolBuilder::new();
    if let Some(k) = threads {
        if k == 0 {
            return Err("--threads must be at least 1".into());
        }
        builder = builder.num_threads(k);
    }
    let pool = builder
        .build()
        .map_err(|e| format!("cannot start worker threads: {e}"))?;
    let bar = if json {
        ProgressBar::hidden()
    } else {
        ProgressBar::new(steps)
    };
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} steps, {per_sec}, eta {eta}")
            .expect("a valid template"),
    );
    if let Some(path) = driving_file(arg) {
        return run_driving(&path, &pool, &bar, steps, json);
    }
    if arg == COURSE_SCENE {
        return run_course(&pool, &bar, steps, json);
    }
    let (name, scene) = load_scene(arg)?;
    let report = pool
        .install(|| run_scene(&name, &scene, steps, &mut |i| bar.set_position(i)))
        .map_err(|e| format!("{arg}: {e}"))?;
    bar.finish_and_clear();
    print_report(&report, &report, json, &[])
}

/// Prints a run's `report` as one JSON object, or the summary of its world figures `run`
/// followed by `extra` lines.
fn print_report(
    report: &impl serde::Serialize,
    run: &RunReport,
    json: bool,
    extra: &[String],
) -> Result<(), String> {
    if json {
        let text = serde_json::to_string(report).map_err(|e| e.to_string())?;
        println!("{text}");
    } else {
        print_summary(run);
        extra.iter().for_each(|line| println!("{line}"));
    }
    Ok(())
}

/// `arg` (a file, or a shipped scene's name) when it is a driving scene file.
fn driving_file(arg: &str) -> Option<PathBuf> {
    [PathBuf::from(arg), scenes_dir().join(format!("{arg}.ron"))]
        .into_iter()
        .find(|p| p.is_file() && fathom_app::vehicle_scene::DrivingScene::is_driving_file(p))
}

/// Runs a driving scene with its scripted inputs; the JSON adds the vehicle's figures.
fn run_driving(
    path: &Path,
    pool: &rayon::ThreadPool,
    bar: &ProgressBar,
    steps: u64,
    json: bool,
) -> Result<(), String> {
    let name = path
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or("driving");
    let scene = fathom_app::vehicle_scene::DrivingScene::from_ron_file(path)
        .map_err(|e| format!("{}: {e}", path.display()))?;
    let report = pool
        .install(|| {
            fathom_app::headless::run_driving(name, &scene, steps, &mut |i| bar.set_position(i))
        })
        .map_err(|e| format!("{}: {e}", path.display()))?;
    bar.finish_and_clear();
    let v = &report.vehicle;
    let [x, y, z] = v.position;
    let extra = [
        format!("vehicle speed    {:.3} m/s (gear {})", v.speed, v.gear + 1),
        format!("vehicle position ({x:.3}, {y:.3}, {z:.3}) m"),
    ];
    print_report(&report, &report.run, json, &extra)
}

/// Runs the character course with its script; the JSON adds the character's figures.
fn run_course(
    pool: &rayon::ThreadPool,
    bar: &ProgressBar,
    steps: u64,
    json: bool,
) -> Result<(), String> {
    let report = pool
        .install(|| fathom_app::headless::run_course(steps, &mut |i| bar.set_position(i)))
        .map_err(|e| format!("{COURSE_SCENE}: {e}"))?;
    bar.finish_and_clear();
    let [x, y, z] = report.character_position;
    let grounded = report.character_grounded;
    let extra = [format!(
        "character        ({x:.3}, {y:.3}, {z:.3}) m, grounded {grounded}"
    )];
    print_report(&report, &report.run, json, &extra)
}

fn compare(quick: bool, json: bool, plot: Option<&Path>) -> Result<(), String> {
    let opts = fathom_app::compare::CompareOptions { quick };
    let mut progress = |line: &str| eprintln!("fathom compare: {line}");
    let rows = fathom_app::compare::run(&opts, &mut progress).map_err(|e| e.to_string())?;
    if let Some(path) = plot {
        fathom_app::compare::draw_plot(&rows, path).map_err(|e| e.to_string())?;
    }
    if json {
        println!(
            "{}",
            serde_json::to_string(&rows).map_err(|e| e.to_string())?
        );
    } else {
        print!("{}", fathom_app::compare::markdown_table(&rows));
    }
    Ok(())
}

fn print_summary(r: &RunReport) {
    println!("scene            {} ({}D)", r.scene, r.dimension);
    println!("steps            {}", r.steps);
    println!("bodies           {}", r.bodies);
    println!("contacts         {}", r.contacts);
    println!("ms per step      {:.3} (median)", r.ms_per_step);
    match r.ms_per_awake_step {
        Some(ms) => println!(
            "ms awake step    {ms:.3} (median of {} awake steps)",
            r.awake_steps
        ),
        None => println!("ms awake step    - (every step was asleep)"),
    }
    let stages: Vec<String> = r
        .mean_ms_per_stage
        .iter()
        .map(|(name, ms)| format!("{name} {ms:.3}"))
        .collect();
    println!("ms per stage     {} (mean)", stages.join(", "));
    println!("max penetration  {:.5} m", r.max_penetration);
    println!("kinetic energy   {:.4} J", r.kinetic_energy);
    println!("state hash       {:016x}", r.state_hash);
    println!("frozen bodies    {}", r.frozen_bodies);
    let e = &r.energy;
    let rise = match e.max_excess {
        Some(x) => format!("max excess {x:.3} J"),
        None => format!(
            "max rise {:.3} J ({} not counted)",
            e.max_rise,
            e.uncounted.join(", ")
        ),
    };
    println!(
        "energy           start {:.1} J, max {:.1} J, kinematic work <= {:.1} J, {rise}",
        e.start, e.max, e.kinematic_work
    );
    if let Some(kib) = r.peak_resident_kib {
        println!("peak memory      {:.1} MiB", kib as f64 / 1024.0);
    }
}
