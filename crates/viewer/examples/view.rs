//! Opens the viewer window on the built-in demo scenes, or on the RON scenes of
//! a folder, or on one scene file:
//!
//! ```text
//! cargo run -p fathom-viewer --example view -- [SCENE.ron | FOLDER | DEMO-NAME]
//! ```
//!
//! Number keys and arrows switch scenes; H shows the keys.

use fathom_viewer::demo::demo_scenes;
use fathom_viewer::{
    display_available, find_scene, load_scene, load_scene_dir, run_windowed, NamedScene,
    ViewerError,
};
use std::path::Path;
use std::process::ExitCode;

fn scenes_for(arg: Option<&str>) -> Result<(Vec<NamedScene>, usize), ViewerError> {
    match arg {
        None => Ok((demo_scenes(), 0)),
        Some(a) if Path::new(a).is_dir() => Ok((load_scene_dir(a)?, 0)),
        Some(a) if a.ends_with(".ron") => Ok((vec![load_scene(a)?], 0)),
        Some(name) => {
            let demos = demo_scenes();
            let i = find_scene(&demos, name)?;
            Ok((demos, i))
        }
    }
}

fn main() -> ExitCode {
    let arg = std::env::args().nth(1);
    if let Err(e) = display_available() {
        eprintln!("view: {e}");
        return ExitCode::FAILURE;
    }
    match scenes_for(arg.as_deref()).and_then(|(scenes, start)| run_windowed(&scenes, start)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("view: {e}");
            ExitCode::FAILURE
        }
    }
}
