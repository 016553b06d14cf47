//! Renders a scene offscreen to a PNG, no display needed:
//!
//! ```text
//! cargo run -p fathom-viewer --example screenshot -- SCENE OUT.png [FRAMES]
//! ```
//!
//! `SCENE` is a RON scene file or the name of a built-in demo scene
//! (pyramid3d, shapes3d, pyramid2d, pegs2d). FRAMES defaults to 120.

use fathom_viewer::demo::demo_scenes;
use fathom_viewer::{find_scene, load_scene, screenshot, NamedScene, ViewerError};
use std::process::ExitCode;

fn pick(arg: &str) -> Result<NamedScene, ViewerError> {
    if arg.ends_with(".ron") {
        return load_scene(arg);
    }
    let demos = demo_scenes();
    let i = find_scene(&demos, arg)?;
    Ok(demos[i].clone())
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (Some(scene), Some(out)) = (args.first(), args.get(1)) else {
        eprintln!("usage: screenshot SCENE OUT.png [FRAMES]");
        return ExitCode::from(2);
    };
    let frames = match args.get(2).map(|f| f.parse::<u32>()) {
        None => 120,
        Some(Ok(f)) => f,
        Some(Err(e)) => {
            eprintln!("screenshot: FRAMES: {e}");
            return ExitCode::from(2);
        }
    };
    let result = pick(scene).and_then(|s| screenshot(&s, frames, out));
    match result {
        Ok(shot) => {
            let bodies = shot.bodies.len();
            println!("wrote {out} ({scene}, {frames} frames, {bodies} bodies in view)");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("screenshot: {e}");
            ExitCode::FAILURE
        }
    }
}
