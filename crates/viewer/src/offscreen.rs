//! Screenshots without a window: step a scene a given number of frames (one
//! world step per frame, so the picture does not depend on the machine's
//! speed) and render the last frame into an offscreen texture, then a PNG.
//! No display is needed, only a graphics adapter (llvmpipe will do).
//!
//! kiss3d keeps its GPU context in thread-local storage, drops it with the
//! last window, and yet caches some GPU resources process-wide (its default
//! font among them): a second context, on another thread or after the first
//! surface was dropped, trips over resources of a device that is gone. So
//! all offscreen rendering runs on one long-lived render thread of this
//! crate, whatever thread asks for it, with one offscreen surface that is
//! kept for the life of the process and resized for each request.

use crate::device::{caught, probe_adapter};
use crate::error::ViewerError;
use crate::framing::{
    chase_2d, chase_3d, frame_2d, frame_3d, project_box_2d, project_box_3d, scene_bounds,
};
use crate::input::Overlays;
use crate::panel::SceneList;
use crate::scenes::NamedScene;
use crate::sim::Simulation;
use crate::stage::{collect_boxes, simulate, AnySimulation, BodyBox, Stage};
use fathom_math::Real;
use glamx::Vec2;
use kiss3d::window::{CanvasSetup, NumSamples, OffscreenSurface};
use std::cell::RefCell;
use std::path::Path;
use std::sync::mpsc::{channel, Sender};
use std::sync::{Mutex, OnceLock};

/// An RGB image, 8 bits per channel.
pub type RgbImage = image::RgbImage;

/// How to render offscreen.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct OffscreenOptions {
    /// Image width, pixels (1 to 8192).
    pub width: u32,
    /// Image height, pixels (1 to 8192).
    pub height: u32,
    /// Overlays to draw.
    pub overlays: Overlays,
    /// Draw the status text.
    pub hud: bool,
    /// Antialias with 4 samples per pixel.
    pub antialias: bool,
    /// Shadow maps for the sun (3D). On a software rasteriser they cost most of a frame's
    /// time (seconds for a few hundred bodies).
    pub shadows: bool,
    /// Frame the camera on the scene as it is at each captured frame; otherwise it keeps
    /// the framing of the initial state (so motion shows as motion in the picture).
    pub reframe: bool,
    /// Also draw what a window draws when the scene opens ([`Overlays::on_open`]: the
    /// joints where the scene has any, the ground grid), less the help lines and the swept
    /// paths (screenshots of a moment show no trail of earlier ones).
    pub as_opened: bool,
}

impl Default for OffscreenOptions {
    /// 1280 x 720, antialiased, with shadows and the status text, no overlays, framing each
    /// capture.
    fn default() -> Self {
        Self {
            width: 1280,
            height: 720,
            overlays: Overlays::default(),
            hud: true,
            antialias: true,
            shadows: true,
            reframe: true,
            as_opened: false,
        }
    }
}

impl OffscreenOptions {
    fn validate(&self) -> Result<(), ViewerError> {
        for (field, v) in [("width", self.width), ("height", self.height)] {
            if !(1..=8192).contains(&v) {
                return Err(ViewerError::InvalidOption {
                    field,
                    message: format!("must be 1 to 8192 pixels, got {v}"),
                });
            }
        }
        Ok(())
    }
}

/// One rendered frame.
#[derive(Clone, Debug)]
pub struct Capture {
    /// Steps taken before this frame.
    pub frame: u32,
    /// The picture.
    pub image: RgbImage,
    /// Where each body (with a bounded shape) is in the picture, and its colour.
    pub bodies: Vec<BodyBox>,
    /// The body a scripted drag holds ([`Staging::drag`]), if it picked one.
    pub picked: Option<fathom_world::BodyHandle>,
}

/// What an offscreen render shows and does besides stepping the scene, as a person would
/// in a window: the scene list, the settings panel, a drag with the mouse.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Staging {
    /// The scene list, as key L shows it.
    pub scene_list: Option<SceneList>,
    /// The settings panel with this row selected, as key O shows it.
    pub settings_row: Option<usize>,
    /// A drag with the left mouse button.
    pub drag: Option<ScriptedDrag>,
}

/// A drag with the left mouse button: before the first step it goes down at pixel `from`
/// (origin top left; picking the body there) and the cursor moves to pixel `to`, where
/// it stays, the button held, for every frame rendered.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ScriptedDrag {
    /// Where the button goes down, pixels.
    pub from: [f32; 2],
    /// Where the cursor then holds the body, pixels.
    pub to: [f32; 2],
}

/// Steps `scene` `frames` times and writes the last frame to a PNG at `path` (1280 x 720,
/// with the status text). Needs no display. Returns the frame (its picture, and where
/// each body is in it).
pub fn screenshot(
    scene: &NamedScene,
    frames: u32,
    path: impl AsRef<Path>,
) -> Result<Capture, ViewerError> {
    screenshot_with(scene, frames, path, &OffscreenOptions::default())
}

/// [`screenshot`] with options.
pub fn screenshot_with(
    scene: &NamedScene,
    frames: u32,
    path: impl AsRef<Path>,
    opts: &OffscreenOptions,
) -> Result<Capture, ViewerError> {
    let path = path.as_ref();
    let mut shots = render_offscreen(scene, opts, &[frames])?;
    let shot = shots.pop().expect("one frame was asked for");
    shot.image
        .save_with_format(path, image::ImageFormat::Png)
        .map_err(|e| ViewerError::Image {
            path: path.to_path_buf(),
            message: e.to_string(),
        })?;
    Ok(shot)
}

/// Renders `scene` at each frame number in `frames` (steps taken before it; 0 is the
/// initial state), in increasing order. Fails with [`ViewerError::NoAdapter`] when no
/// graphics adapter can be created. Callable from any thread (see the module docs).
pub fn render_offscreen(
    scene: &NamedScene,
    opts: &OffscreenOptions,
    frames: &[u32],
) -> Result<Vec<Capture>, ViewerError> {
    render_staged(scene, opts, &Staging::default(), frames)
}

/// [`render_offscreen`] with what `staging` shows and does (a scene list, a drag).
pub fn render_staged(
    scene: &NamedScene,
    opts: &OffscreenOptions,
    staging: &Staging,
    frames: &[u32],
) -> Result<Vec<Capture>, ViewerError> {
    opts.validate()?;
    probe_adapter()?;
    let (scene, opts, staging, frames) = (scene.clone(), *opts, staging.clone(), frames.to_vec());
    on_render_thread(move || render_here(&scene, &opts, &staging, frames))
}

/// Where each body (with a bounded shape) appears, and in what colour, in the pictures
/// [`render_offscreen`] takes of `scene` at each frame number in `frames` (in increasing
/// order) with `opts`: the same simulation and camera framing, computed without rendering
/// (no graphics adapter needed). A test can run `fathom view --screenshot` and check its
/// PNG against this.
pub fn body_layout(
    scene: &NamedScene,
    frames: &[u32],
    opts: &OffscreenOptions,
) -> Result<Vec<Vec<BodyBox>>, ViewerError> {
    opts.validate()?;
    let mut frames = frames.to_vec();
    frames.sort_unstable();
    frames.dedup();
    let (w, h) = (opts.width, opts.height);
    // The camera the stage uses: behind a followed body, else framing the scene.
    match simulate(scene)? {
        AnySimulation::Two(sim) => {
            let frame = |sim: &Simulation<2>| match sim.followed() {
                Some(f) => chase_2d(&f.center, f.radius, w, h),
                None => frame_2d(&scene_bounds(sim.world()), w, h),
            };
            layouts(sim, &frames, opts, frame, |(c, zoom), b| {
                project_box_2d(c, *zoom, b, w, h)
            })
        }
        AnySimulation::Three(sim) => {
            let aspect = w as Real / h as Real;
            let frame = |sim: &Simulation<3>| match sim.followed() {
                Some(f) => chase_3d(&f.center, &f.forward, f.radius),
                None => frame_3d(&scene_bounds(sim.world()), aspect),
            };
            layouts(sim, &frames, opts, frame, |(eye, at), b| {
                project_box_3d(eye, at, b, w, h)
            })
        }
    }
}

/// [`body_layout`] for one dimension: `frame` says where the camera is for the world as it
/// is, `project` where a box lands under that camera.
fn layouts<const D: usize, C>(
    mut sim: Simulation<D>,
    frames: &[u32],
    opts: &OffscreenOptions,
    frame: impl Fn(&Simulation<D>) -> C,
    project: impl Fn(&C, &fathom_math::Aabb<D>) -> ([f32; 2], [f32; 2]),
) -> Result<Vec<Vec<BodyBox>>, ViewerError>
where
    fathom_math::Space<D>: fathom_math::Dim<D>,
{
    let initial = frame(&sim);
    let mut taken = 0;
    let mut out = Vec::with_capacity(frames.len());
    for &f in frames {
        sim.step_n(f - taken);
        taken = f;
        let reframed;
        let camera = if opts.reframe {
            reframed = frame(&sim);
            &reframed
        } else {
            &initial
        };
        out.push(collect_boxes(&sim, |b| project(camera, b)));
    }
    Ok(out)
}

/// A job for the render thread.
type Job = Box<dyn FnOnce() + Send>;

/// Runs `f` on the render thread (started on first use) and waits for its result. A panic
/// in `f` is caught there and returned as [`ViewerError::Render`].
fn on_render_thread<T: Send + 'static>(
    f: impl FnOnce() -> Result<T, ViewerError> + Send + 'static,
) -> Result<T, ViewerError> {
    static JOBS: OnceLock<Mutex<Sender<Job>>> = OnceLock::new();
    let jobs = JOBS.get_or_init(|| {
        let (tx, rx) = channel::<Job>();
        std::thread::Builder::new()
            .name("fathom-viewer-render".into())
            .spawn(move || rx.into_iter().for_each(|job| job()))
            .expect("the OS can start a thread");
        Mutex::new(tx)
    });
    let (tx, rx) = channel();
    let job: Job = Box::new(move || {
        let _ = tx.send(caught(f));
    });
    let sent = jobs
        .lock()
        .map_err(|_| ViewerError::Render("render thread lock poisoned".into()))?
        .send(job);
    sent.map_err(|_| ViewerError::Render("the render thread has stopped".into()))?;
    match rx.recv() {
        Ok(Ok(result)) => result,
        Ok(Err(panic)) => Err(ViewerError::Render(panic)),
        Err(_) => Err(ViewerError::Render("the render thread has stopped".into())),
    }
}

/// [`render_offscreen`] on the current thread.
fn render_here(
    scene: &NamedScene,
    opts: &OffscreenOptions,
    staging: &Staging,
    mut frames: Vec<u32>,
) -> Result<Vec<Capture>, ViewerError> {
    frames.sort_unstable();
    frames.dedup();
    thread_local! {
        static SURFACE: RefCell<Option<OffscreenSurface>> = const { RefCell::new(None) };
    }
    let mut surface = SURFACE.with_borrow_mut(Option::take).unwrap_or_else(|| {
        kiss3d::pollster::block_on(OffscreenSurface::with_setup(
            opts.width,
            opts.height,
            CanvasSetup::default(),
        ))
    });
    surface.resize(opts.width, opts.height);
    surface.set_shadows_enabled(opts.shadows);
    surface.set_samples(if opts.antialias {
        NumSamples::Four
    } else {
        NumSamples::One
    });
    let result = render_on(&mut surface, scene, opts, staging, frames);
    SURFACE.with_borrow_mut(|s| *s = Some(surface));
    result
}

fn render_on(
    surface: &mut OffscreenSurface,
    scene: &NamedScene,
    opts: &OffscreenOptions,
    staging: &Staging,
    frames: Vec<u32>,
) -> Result<Vec<Capture>, ViewerError> {
    let mut stage = Stage::new(scene, opts.width, opts.height)?;
    let opened = stage.overlays;
    let mut overlays = opts.overlays;
    if opts.as_opened {
        overlays.joints |= opened.joints;
        overlays.grid |= opened.grid;
    }
    stage.overlays = Overlays {
        help: false,
        ..overlays
    };
    stage.show_hud = opts.hud;
    stage.scene_list = staging.scene_list.clone();
    stage.settings_row = staging.settings_row;
    if let Some(d) = staging.drag {
        let (from, to) = (Vec2::new(d.from[0], d.from[1]), Vec2::new(d.to[0], d.to[1]));
        stage.pointer_down(from);
        stage.pointer_move(to);
    }
    let mut out = Vec::with_capacity(frames.len());
    let mut taken = 0;
    for f in frames {
        stage.step_n(f - taken);
        taken = f;
        if opts.reframe {
            stage.reframe();
        }
        let window = surface.window_mut();
        stage.prepare(window, None);
        kiss3d::pollster::block_on(stage.render(window));
        out.push(Capture {
            frame: f,
            image: surface.snap_image(),
            bodies: stage.body_boxes(),
            picked: stage.held(),
        });
    }
    Ok(out)
}
