//! The viewer's one error type: everything that can go wrong between a scene
//! file on disk and a PNG or a window, each variant naming what was wrong.

use fathom_world::{SceneError, WorldError};
use std::path::PathBuf;
use thiserror::Error;

/// Why the viewer could not load, show or capture a scene.
#[derive(Debug, Error)]
pub enum ViewerError {
    /// The scene file could not be read.
    #[error("cannot read scene file {path}: {message}")]
    Io {
        /// The file.
        path: PathBuf,
        /// What the operating system said.
        message: String,
    },
    /// The scene file is malformed or holds a bad value (the error has the line and
    /// column, or the field's path).
    #[error("scene file {path}: {source}")]
    Scene {
        /// The file.
        path: PathBuf,
        /// The parse or validation error.
        #[source]
        source: SceneError,
    },
    /// No scene has this name.
    #[error("unknown scene `{name}`; available scenes: {available}")]
    UnknownScene {
        /// The name asked for.
        name: String,
        /// The names that exist, comma separated.
        available: String,
    },
    /// The viewer was given no scene at all.
    #[error("no scenes to show (the scene list is empty)")]
    NoScenes,
    /// The world refused a change the viewer made (for example a fired ball).
    #[error("world: {0}")]
    World(#[from] WorldError),
    /// A scene's controller refused its description or could not step (a vehicle's error
    /// names the field's path, e.g. `vehicle.wheels[2].radius`).
    #[error("{0}")]
    Controller(Box<dyn std::error::Error + Send + Sync>),
    /// A scene's controller is for the other dimension.
    #[error("scene `{name}` is {scene}D but its controller is {controller}D")]
    ControllerDimension {
        /// The scene.
        name: String,
        /// The scene's dimension.
        scene: usize,
        /// The controller's dimension.
        controller: usize,
    },
    /// No graphics adapter (GPU or software rasteriser) could be created.
    #[error("no graphics adapter available: {0}")]
    NoAdapter(String),
    /// No display to open a window on.
    #[error("no display available: {0}")]
    NoDisplay(String),
    /// A viewer option is out of range.
    #[error("invalid viewer option `{field}`: {message}")]
    InvalidOption {
        /// The option, e.g. `width`.
        field: &'static str,
        /// Why it is invalid.
        message: String,
    },
    /// Rendering failed inside kiss3d or wgpu (the message is theirs).
    #[error("rendering failed: {0}")]
    Render(String),
    /// The screenshot could not be written.
    #[error("cannot write image {path}: {message}")]
    Image {
        /// The PNG path.
        path: PathBuf,
        /// What went wrong.
        message: String,
    },
}
