//! Scene files as the viewer sees them: a [`SceneFile`] of either dimension
//! (read as the `fathom` command line reads it), with a name (the file stem) so
//! number keys, arrows and `fathom view NAME` can pick it.

use crate::controller::SceneController;
use crate::error::ViewerError;
use fathom_world::SceneFile;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Loads a scene again from where it came from (its file): what the reload key runs.
pub type Reload = Arc<dyn Fn() -> Result<NamedScene, ViewerError> + Send + Sync>;

/// How a scene is loaded again, if it came from somewhere it can be read again from.
#[derive(Clone, Default)]
pub struct Source(Option<Reload>);

impl std::fmt::Debug for Source {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(if self.0.is_some() {
            "Source(reloadable)"
        } else {
            "Source(none)"
        })
    }
}

/// A scene with the name it is shown and picked by, and what drives it besides the
/// world, if anything.
#[derive(Clone, Debug)]
pub struct NamedScene {
    /// Short name (a file's stem), shown on screen.
    pub name: String,
    /// The scene.
    pub scene: SceneFile,
    /// A controller of the scene's dimension (a vehicle, say), attached to each world built
    /// from the scene.
    pub controller: Option<SceneController>,
    /// How to load it again (scenes built in code have nothing to reload).
    pub source: Source,
}

impl NamedScene {
    /// A scene with a name.
    pub fn new(name: impl Into<String>, scene: impl Into<SceneFile>) -> Self {
        Self {
            name: name.into(),
            scene: scene.into(),
            controller: None,
            source: Source::default(),
        }
    }

    /// The scene, loaded again by `reload` when the reload key is pressed (a file's loader
    /// reads the file again, so an edit shows).
    pub fn with_reload(
        mut self,
        reload: impl Fn() -> Result<NamedScene, ViewerError> + Send + Sync + 'static,
    ) -> Self {
        self.source = Source(Some(Arc::new(reload)));
        self
    }

    /// The scene loaded again from its source: `None` for a scene with none (built in
    /// code), else the fresh scene or why it could not be loaded (the file is bad now).
    pub fn reload(&self) -> Option<Result<NamedScene, ViewerError>> {
        let fresh = (self.source.0.as_ref()?)();
        // The fresh scene keeps the way back to its source, whatever its loader set.
        Some(fresh.map(|mut s| {
            s.source = self.source.clone();
            s
        }))
    }

    /// The scene driven by `controller` as well as by the world; a controller of the
    /// other dimension is [`ViewerError::ControllerDimension`].
    pub fn with_controller(mut self, controller: SceneController) -> Result<Self, ViewerError> {
        if controller.dim() != self.scene.dimension() {
            return Err(ViewerError::ControllerDimension {
                name: self.name,
                scene: self.scene.dimension(),
                controller: controller.dim(),
            });
        }
        self.controller = Some(controller);
        Ok(self)
    }
}

/// Loads one scene file: parses it (2D or 3D, see [`SceneFile::from_ron_file`]), loads
/// the grid files its shapes name (relative to the file's folder) and validates it. The
/// name is the file stem.
pub fn load_scene(path: impl AsRef<Path>) -> Result<NamedScene, ViewerError> {
    let path = path.as_ref();
    let name = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let scene = SceneFile::from_ron_file(path).map_err(|source| match source {
        fathom_world::SceneError::Io { message, .. } => ViewerError::Io {
            path: path.to_path_buf(),
            message,
        },
        source => ViewerError::Scene {
            path: path.to_path_buf(),
            source,
        },
    })?;
    let again = path.to_path_buf();
    Ok(NamedScene::new(name, scene).with_reload(move || load_scene(&again)))
}

/// Loads every `*.ron` scene file of a folder, sorted by file name (so number keys are
/// stable). Files of another format (their first item another wrapper than `Scene2D` /
/// `Scene3D`, see [`SceneFile::is_scene_text`]) are skipped; the first scene file that
/// fails stops the load with its error.
pub fn load_scene_dir(dir: impl AsRef<Path>) -> Result<Vec<NamedScene>, ViewerError> {
    let dir = dir.as_ref();
    let io = |e: std::io::Error| ViewerError::Io {
        path: dir.to_path_buf(),
        message: e.to_string(),
    };
    let mut paths: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(io)?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "ron"))
        .collect();
    paths.sort();
    // Bounded like every scene read; a file that cannot be read is kept, so its load reports why.
    paths.retain(|p| {
        fathom_world::read_scene_text(p).map_or(true, |t| SceneFile::is_scene_text(&t))
    });
    paths.iter().map(load_scene).collect()
}

/// The index of the scene called `name` (exact match, then case-insensitive), or
/// [`ViewerError::UnknownScene`] listing the available names.
pub fn find_scene(scenes: &[NamedScene], name: &str) -> Result<usize, ViewerError> {
    scenes
        .iter()
        .position(|s| s.name == name)
        .or_else(|| {
            scenes
                .iter()
                .position(|s| s.name.eq_ignore_ascii_case(name))
        })
        .ok_or_else(|| ViewerError::UnknownScene {
            name: name.to_string(),
            available: scenes
                .iter()
                .map(|s| s.name.as_str())
                .collect::<Vec<_>>()
                .join(", "),
        })
}
