//! Fathom's viewer, on kiss3d: watch scenes run in a window, or render them
//! offscreen to PNG files with no display at all.
//!
//! Entry points (what `fathom view` calls):
//! - [`load_scene`] / [`load_scene_dir`] / [`find_scene`]: RON scene files of
//!   either dimension as [`NamedScene`]s; [`demo::demo_scenes`] builds a few in code.
//! - [`run_windowed`]: a window with one scene at a time, keys to control it
//!   and to switch scenes (see [`input::HELP`]).
//! - [`screenshot`] / [`render_offscreen`]: step N frames and render the last
//!   one offscreen, to a PNG or to images in memory (for tests); [`body_layout`]
//!   says where each body will be in such a picture, without rendering.
//! - [`display_available`] / [`probe_adapter`]: whether a window, or at least
//!   offscreen rendering, is possible here, as typed errors rather than panics.
//! - Picking and dragging ([`pick`]): a ray cast through the world's query API picks a
//!   dynamic body and a soft spring drags it to the cursor, in both dimensions.
//! - [`Controller`]: a hook for scenes driven by more than the world (a
//!   [`NamedScene`] may carry one): it gets the driving keys and the world
//!   before each step, may name a body for a chase camera to follow, draws
//!   parts that are not colliders and adds on-screen text (the `fathom`
//!   application drives its car this way; the viewer knows no vehicle).
//!
//! The pieces: [`sim`] drives a world from a scene (pause, step, reset, time
//! scale, fire a ball); [`view2d`] and [`view3d`] keep a kiss3d scene graph in
//! step with the world, meshing each distinct shape once ([`meshing`]: surface
//! nets from fathom-sdf in 3D, filled marching squares in 2D, [`fill2d`]) and
//! drawing it instanced once per collider ([`batches`]);
//! [`overlay`] computes contact, normal and box overlays once for both
//! dimensions; [`stage`] puts a simulation and its view behind one interface.
//!
//! kiss3d uses glam (through glamx) for its maths; vectors and poses are
//! converted from nalgebra only at the kiss3d calls.
#![warn(missing_docs)]

mod app;
pub mod batches;
pub mod chunks;
pub mod controller;
pub mod demo;
mod device;
mod error;
pub mod fill2d;
pub mod framing;
pub mod grid;
pub mod input;
pub mod meshing;
mod offscreen;
pub mod overlay;
pub mod palette;
pub mod panel;
pub mod pick;
mod scenes;
pub mod settings;
pub mod sim;
pub mod stage;
pub mod sweeps;
pub mod timings;
pub mod view2d;
pub mod view3d;

pub use app::{run_windowed, run_windowed_with, WindowOptions};
pub use controller::{Controller, DriveKeys, Follow, Part, SceneController};
pub use device::{display_available, probe_adapter};
pub use error::ViewerError;
pub use offscreen::{
    body_layout, render_offscreen, render_staged, screenshot, screenshot_with, Capture,
    OffscreenOptions, RgbImage, ScriptedDrag, Staging,
};
pub use scenes::{find_scene, load_scene, load_scene_dir, NamedScene, Reload, Source};
