//! The windowed viewer: a kiss3d window showing one scene at a time, keys to
//! control it (see [`crate::input`]) and to switch between scenes. In a scene
//! a controller drives, the driving keys held each frame go to it and a chase
//! camera follows the body it names.

use crate::controller::DriveKeys;
use crate::device::{display_available, guarded};
use crate::error::ViewerError;
use crate::input::{command_for, repeats, Command, HeldKeys};
use crate::panel::SceneList;
use crate::scenes::NamedScene;
use crate::stage::{Press, Stage};
use glamx::Vec2;
use kiss3d::event::{Action, Key, MouseButton, WindowEvent};
use kiss3d::window::{NumSamples, Window};
use std::time::Instant;

/// Longest wall time one frame may advance the simulation by, seconds (after a stall,
/// such as dragging the window, the scene does not jump).
const MAX_FRAME_TIME: f32 = 0.1;
/// The frame rate shown is the number of frames over windows of this many seconds.
const FPS_WINDOW: f64 = 0.5;

/// Frames per second, counted over [`FPS_WINDOW`]-second windows (an average of
/// per-frame rates would be skewed by the odd instant frame, e.g. one not presented).
struct FpsCounter {
    since: Instant,
    frames: u32,
    fps: Option<f64>,
}

impl FpsCounter {
    fn new() -> Self {
        Self {
            since: Instant::now(),
            frames: 0,
            fps: None,
        }
    }

    fn frame(&mut self, now: Instant) -> Option<f64> {
        self.frames += 1;
        let t = now.duration_since(self.since).as_secs_f64();
        if t >= FPS_WINDOW {
            self.fps = Some(self.frames as f64 / t);
            self.frames = 0;
            self.since = now;
        }
        self.fps
    }
}

/// Window size.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WindowOptions {
    /// Width, pixels.
    pub width: u32,
    /// Height, pixels.
    pub height: u32,
}

impl Default for WindowOptions {
    /// 1280 x 720.
    fn default() -> Self {
        Self {
            width: 1280,
            height: 720,
        }
    }
}

/// Opens a window showing `scenes[start]`; number keys and arrows switch between
/// `scenes`. Returns when the window is closed (Escape or the close button).
/// Fails without a display ([`ViewerError::NoDisplay`]; check with
/// [`crate::display_available`] first to fall back to headless) or adapter.
pub fn run_windowed(scenes: &[NamedScene], start: usize) -> Result<(), ViewerError> {
    run_windowed_with(scenes, start, &WindowOptions::default())
}

/// [`run_windowed`] with a window size.
pub fn run_windowed_with(
    scenes: &[NamedScene],
    start: usize,
    opts: &WindowOptions,
) -> Result<(), ViewerError> {
    if scenes.is_empty() {
        return Err(ViewerError::NoScenes);
    }
    if start >= scenes.len() {
        return Err(ViewerError::InvalidOption {
            field: "start",
            message: format!(
                "scene index {start} is out of range: there are {} scenes",
                scenes.len()
            ),
        });
    }
    display_available()?;
    let title = window_title(&scenes[start]);
    let (w, h) = (opts.width.max(1), opts.height.max(1));
    let mut window = guarded(|| kiss3d::pollster::block_on(Window::new_with_size(&title, w, h)))
        .map_err(ViewerError::NoDisplay)?;
    window.rebind_close_key(Some(kiss3d::event::Key::Escape));
    adapt_to_adapter(&mut window);
    kiss3d::pollster::block_on(run_loop(&mut window, scenes, start))
}

/// On a software rasteriser (Mesa's llvmpipe or lavapipe, WARP) shadow maps and 4x
/// antialiasing make a 3D frame take seconds: they are turned off there, saying so.
fn adapt_to_adapter(window: &mut Window) {
    let info = kiss3d::context::Context::get().adapter.get_info();
    if info.device_type == wgpu::DeviceType::Cpu {
        eprintln!(
            "fathom view: software rendering ({}): shadows and antialiasing off",
            info.name
        );
        window.set_shadows_enabled(false);
        window.set_samples(NumSamples::One);
    }
}

fn window_title(scene: &NamedScene) -> String {
    format!("Fathom - {}", scene.name)
}

/// What a frame's events ask of the loop besides the stage's own commands.
enum Request {
    /// Show the scene of this index.
    Switch(usize),
    /// Load the scene on show again from its file.
    Reload,
}

async fn run_loop(
    window: &mut Window,
    scenes: &[NamedScene],
    mut index: usize,
) -> Result<(), ViewerError> {
    let mut scenes = scenes.to_vec();
    let names: Vec<String> = scenes.iter().map(|s| s.name.clone()).collect();
    let mut stage = Stage::new(&scenes[index], window.width(), window.height())?;
    let mut last = Instant::now();
    let mut fps = FpsCounter::new();
    let mut held = HeldKeys::default();
    loop {
        let request = handle_events(window, &mut stage, &mut held, index, &names);
        if let Some(next) = apply_request(request, &mut scenes, index) {
            index = next;
            // Panels stay as they were; the list follows the scene on show.
            let (list, settings) = (stage.scene_list.is_some(), stage.settings_row);
            stage = Stage::new(&scenes[index], window.width(), window.height())?;
            stage.scene_list = list.then(|| SceneList::new(names.clone(), index));
            stage.settings_row = settings;
            window.set_title(&window_title(&scenes[index]));
        }
        let now = Instant::now();
        let elapsed = now.duration_since(last).as_secs_f32();
        last = now;
        let fps = fps.frame(now);
        stage.resize(window.width(), window.height());
        if stage.has_controller() {
            let held = |k| window.get_key(k) == Action::Press;
            stage.set_drive_keys(DriveKeys::from_held(held));
        }
        stage.advance(elapsed.min(MAX_FRAME_TIME));
        stage.follow_camera(elapsed);
        stage.prepare(window, fps);
        if !stage.render(window).await {
            return Ok(());
        }
    }
}

/// Carries out a switch or a reload; returns the scene to build a stage for. A reload that
/// fails (the file does not parse now) keeps the scene on show and says why.
fn apply_request(
    request: Option<Request>,
    scenes: &mut [NamedScene],
    index: usize,
) -> Option<usize> {
    match request? {
        Request::Switch(i) => Some(i),
        Request::Reload => match scenes[index].reload() {
            Some(Ok(fresh)) => {
                eprintln!("fathom view: reloaded {}", fresh.name);
                scenes[index] = fresh;
                Some(index)
            }
            Some(Err(e)) => {
                eprintln!("fathom view: reload failed, keeping the scene on show: {e}");
                None
            }
            None => {
                eprintln!(
                    "fathom view: {} is built in code: nothing to reload",
                    scenes[index].name
                );
                None
            }
        },
    }
}

/// Applies this frame's key presses and mouse events; returns what the loop must do.
fn handle_events(
    window: &mut Window,
    stage: &mut Stage,
    held: &mut HeldKeys,
    index: usize,
    names: &[String],
) -> Option<Request> {
    let count = names.len();
    let mut request = None;
    // Where the cursor is as of each event (a press uses the latest move before it).
    let mut cursor = window.cursor_pos();
    let driving = stage.has_controller();
    for mut event in window.events().iter() {
        let key = match event.value {
            WindowEvent::Key(key, Action::Press, _) => key,
            WindowEvent::Key(key, Action::Release, _) => {
                held.release(key);
                continue;
            }
            WindowEvent::Focus(false) => {
                held.clear();
                stage.pointer_up();
                continue;
            }
            WindowEvent::MouseButton(MouseButton::Button1, Action::Press, _) => {
                let Some((x, y)) = cursor else { continue };
                match stage.pointer_down(Vec2::new(x as f32, y as f32)) {
                    Press::Scene(i) => request = Some(Request::Switch(i)),
                    // The camera does not see the press that picked a body.
                    Press::Picked(_) => event.inhibited = true,
                    Press::Nothing => {}
                }
                continue;
            }
            WindowEvent::MouseButton(MouseButton::Button1, Action::Release, _) => {
                stage.pointer_up();
                continue;
            }
            WindowEvent::CursorPos(x, y, _) => {
                cursor = Some((x, y));
                if stage.held().is_some() {
                    stage.pointer_move(Vec2::new(x as f32, y as f32));
                }
                continue;
            }
            _ => continue,
        };
        let first = held.press(key);
        if let Some(r) = panel_key(stage, key) {
            request = r.or(request);
            continue;
        }
        if driving && DriveKeys::is_drive_key(key) {
            continue;
        }
        let Some(c) = command_for(key) else { continue };
        if !first && !repeats(c) {
            continue;
        }
        match c {
            Command::Scene(i) if i < count => request = Some(Request::Switch(i)),
            Command::Scene(_) => {}
            Command::PreviousScene => request = Some(Request::Switch((index + count - 1) % count)),
            Command::NextScene => request = Some(Request::Switch((index + 1) % count)),
            Command::Reload => request = Some(Request::Reload),
            Command::ToggleSceneList => {
                stage.settings_row = None;
                stage.scene_list = match stage.scene_list.take() {
                    Some(_) => None,
                    None => Some(SceneList::new(names.to_vec(), index)),
                };
            }
            Command::ToggleSettings => {
                stage.scene_list = None;
                stage.settings_row = match stage.settings_row {
                    Some(_) => None,
                    None => Some(0),
                };
            }
            other => {
                if let Err(e) = stage.command(other, cursor) {
                    eprintln!("fathom view: {e}");
                }
            }
        }
    }
    request
}

/// The arrows and enter while a panel shows: they move in the panel (and, for the scene
/// list, enter shows the scene under the cursor). `None` when `key` is not the panel's;
/// `Some(request)` when the panel took it.
fn panel_key(stage: &mut Stage, key: Key) -> Option<Option<Request>> {
    if let Some(list) = &mut stage.scene_list {
        return match key {
            Key::Up => {
                list.move_cursor(-1);
                Some(None)
            }
            Key::Down => {
                list.move_cursor(1);
                Some(None)
            }
            Key::Return | Key::NumpadEnter => Some(Some(Request::Switch(list.cursor))),
            _ => None,
        };
    }
    stage.settings_row?;
    let result = match key {
        Key::Up => {
            stage.select_setting(-1);
            Ok(())
        }
        Key::Down => {
            stage.select_setting(1);
            Ok(())
        }
        Key::Left => stage.adjust_setting(false),
        Key::Right => stage.adjust_setting(true),
        _ => return None,
    };
    if let Err(e) = result {
        eprintln!("fathom view: {e}");
    }
    Some(None)
}
