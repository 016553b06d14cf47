//! Scene files as the viewer sees them: a RON [`Scene`] of either dimension,
//! with a name (the file stem) so number keys, arrows and `fathom view NAME`
//! can pick it.
//!
//! The shipped format (the same as the `fathom` CLI's) wraps the scene in its
//! dimension: `Scene2D(...)` or `Scene3D(...)`, usually after
//! `#![enable(unwrap_variant_newtypes)]` (accepted with or without it).
//! A bare scene `(...)` (what [`Scene::to_ron_string`] writes) is read too:
//! vectors have two or three components and shape kinds belong to one
//! dimension, so in practice exactly one reading parses. When both fail, the
//! error reported is the one that got further into the file; when both
//! succeed (a file stating no vector and no dimension-specific shape), the
//! scene is 3D unless its name ends in `2d`.

use crate::controller::SceneController;
use crate::drive::VehicleController;
use crate::error::ViewerError;
use fathom_vehicle::{InputTrack, VehicleDesc};
use fathom_world::{Scene, Scene2, Scene3, SceneError};
use ron::extensions::Extensions;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// A scene of either dimension; in RON, `Scene2D(...)` or `Scene3D(...)`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum AnyScene {
    /// A 2D scene.
    #[serde(rename = "Scene2D")]
    Two(Scene2),
    /// A 3D scene.
    #[serde(rename = "Scene3D")]
    Three(Scene3),
}

impl AnyScene {
    /// Parses RON text as a 2D or 3D scene (see the module docs for the forms read and how
    /// a bare scene's dimension is chosen; `prefer_2d` breaks the tie). Values are
    /// validated, so a scene naming grid files must be loaded with [`load_scene`] instead.
    pub fn from_ron_str(text: &str, prefer_2d: bool) -> Result<Self, SceneError> {
        let scene = parse_unvalidated(text, prefer_2d)?;
        scene.validate()?;
        Ok(scene)
    }

    /// The scene as RON text in the wrapped form (`Scene2D(...)` / `Scene3D(...)`), one
    /// body per line.
    pub fn to_ron_string(&self) -> Result<String, SceneError> {
        let config = ron::ser::PrettyConfig::default()
            .depth_limit(2)
            .extensions(Extensions::UNWRAP_VARIANT_NEWTYPES);
        ron::ser::to_string_pretty(self, config).map_err(|e| SceneError::Serialise(e.to_string()))
    }

    /// The dimension, 2 or 3.
    pub fn dim(&self) -> usize {
        match self {
            AnyScene::Two(_) => 2,
            AnyScene::Three(_) => 3,
        }
    }

    /// Checks every value; the error names the first bad field.
    pub fn validate(&self) -> Result<(), SceneError> {
        match self {
            AnyScene::Two(s) => s.validate(),
            AnyScene::Three(s) => s.validate(),
        }
    }

    /// Number of bodies the scene creates.
    pub fn body_count(&self) -> usize {
        match self {
            AnyScene::Two(s) => s.bodies.len(),
            AnyScene::Three(s) => s.bodies.len(),
        }
    }
}

impl From<Scene2> for AnyScene {
    fn from(s: Scene2) -> Self {
        AnyScene::Two(s)
    }
}

impl From<Scene3> for AnyScene {
    fn from(s: Scene3) -> Self {
        AnyScene::Three(s)
    }
}

/// Of two parse errors, the one at the later position (line, then column).
fn further_error(a: SceneError, b: SceneError) -> SceneError {
    fn pos(e: &SceneError) -> (usize, usize) {
        match e {
            SceneError::Parse { line, column, .. } => (*line, *column),
            _ => (usize::MAX, usize::MAX),
        }
    }
    if pos(&b) > pos(&a) {
        b
    } else {
        a
    }
}

/// A scene with the name it is shown and picked by, and what drives it besides the
/// world, if anything.
#[derive(Clone, Debug)]
pub struct NamedScene {
    /// Short name (a file's stem), shown on screen.
    pub name: String,
    /// The scene.
    pub scene: AnyScene,
    /// A controller of the scene's dimension (a vehicle), attached to each world built
    /// from the scene.
    pub controller: Option<SceneController>,
}

impl NamedScene {
    /// A scene with a name.
    pub fn new(name: impl Into<String>, scene: impl Into<AnyScene>) -> Self {
        Self {
            name: name.into(),
            scene: scene.into(),
            controller: None,
        }
    }

    /// The scene driven by `controller` as well as by the world; a controller of the
    /// other dimension is [`ViewerError::ControllerDimension`].
    pub fn with_controller(mut self, controller: SceneController) -> Result<Self, ViewerError> {
        if controller.dim() != self.scene.dim() {
            return Err(ViewerError::ControllerDimension {
                name: self.name,
                scene: self.scene.dim(),
                controller: controller.dim(),
            });
        }
        self.controller = Some(controller);
        Ok(self)
    }

    /// A 3D scene with a car on it (a [`VehicleController`]): `desc` is built into each
    /// world made from `scene`, and `inputs` replayed until a driving key is pressed.
    pub fn driving(
        name: impl Into<String>,
        scene: Scene3,
        desc: VehicleDesc<3>,
        inputs: InputTrack,
    ) -> Result<Self, ViewerError> {
        let c = VehicleController::new(desc, inputs)?;
        Self::new(name, scene).with_controller(SceneController::Three(Box::new(c)))
    }
}

/// Loads one scene file: parses it (2D or 3D), loads the grid files its shapes name
/// (relative to the file's folder) and validates it. The name is the file stem.
pub fn load_scene(path: impl AsRef<Path>) -> Result<NamedScene, ViewerError> {
    let path = path.as_ref();
    let text = std::fs::read_to_string(path).map_err(|e| ViewerError::Io {
        path: path.to_path_buf(),
        message: e.to_string(),
    })?;
    let name = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let prefer_2d = name.to_ascii_lowercase().ends_with("2d");
    let scene_err = |source| ViewerError::Scene {
        path: path.to_path_buf(),
        source,
    };
    // Parse first without validation of grid files, which are loaded below.
    let mut scene = parse_unvalidated(&text, prefer_2d).map_err(scene_err)?;
    let base = path.parent().unwrap_or(Path::new("."));
    load_shape_files(&mut scene, base, path)?;
    scene.validate().map_err(scene_err)?;
    Ok(NamedScene::new(name, scene))
}

/// Like [`AnyScene::from_ron_str`] without the validation (grid files are not loaded yet).
fn parse_unvalidated(text: &str, prefer_2d: bool) -> Result<AnyScene, SceneError> {
    if is_wrapped(text) {
        let options =
            fathom_sdf::ron_options().with_default_extension(Extensions::UNWRAP_VARIANT_NEWTYPES);
        return options.from_str(text).map_err(|e| SceneError::Parse {
            line: e.span.start.line,
            column: e.span.start.col,
            message: e.code.to_string(),
        });
    }
    match (Scene2::from_ron_str(text), Scene3::from_ron_str(text)) {
        (Ok(s2), Ok(_)) if prefer_2d => Ok(AnyScene::Two(s2)),
        (_, Ok(s3)) => Ok(AnyScene::Three(s3)),
        (Ok(s2), Err(_)) => Ok(AnyScene::Two(s2)),
        (Err(e2), Err(e3)) => Err(further_error(e2, e3)),
    }
}

/// The text's first line that is not blank, a `//` comment or a `#![...]` attribute.
fn first_item(text: &str) -> Option<&str> {
    text.lines()
        .map(str::trim)
        .find(|l| !(l.is_empty() || l.starts_with("//") || l.starts_with("#!")))
}

/// Whether the text's first item is a `Scene2D` or `Scene3D` wrapper.
fn is_wrapped(text: &str) -> bool {
    first_item(text).is_some_and(|l| l.starts_with("Scene2D") || l.starts_with("Scene3D"))
}

/// Whether the text is a driving scene (its first item is `DrivingScene(...)`): a file of
/// another format, not a malformed scene. Only this known format is recognised, so a
/// misspelt wrapper is still reported as an error.
fn is_driving_scene(text: &str) -> bool {
    first_item(text).is_some_and(|l| l.starts_with("DrivingScene"))
}

fn load_shape_files(scene: &mut AnyScene, base: &Path, path: &Path) -> Result<(), ViewerError> {
    match scene {
        AnyScene::Two(s) => load_files_in(s, base, path),
        AnyScene::Three(s) => load_files_in(s, base, path),
    }
}

fn load_files_in<const D: usize>(
    scene: &mut Scene<D>,
    base: &Path,
    path: &Path,
) -> Result<(), ViewerError>
where
    fathom_math::Space<D>: fathom_math::Dim<D>,
{
    for (i, body) in scene.bodies.iter_mut().enumerate() {
        for (j, c) in body.colliders.iter_mut().enumerate() {
            c.shape
                .load_files(base)
                .map_err(|e| ViewerError::ShapeFile {
                    path: path.to_path_buf(),
                    field: format!("bodies[{i}].colliders[{j}].shape"),
                    message: e.to_string(),
                })?;
        }
    }
    Ok(())
}

/// Loads every `*.ron` scene file of a folder, sorted by file name (so number keys are
/// stable). Driving scene files (`DrivingScene(...)`, another format, which needs its
/// vehicle: see [`NamedScene::driving`]) are skipped; the first scene file that fails
/// stops the load with its error.
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
    paths.retain(|p| std::fs::read_to_string(p).map_or(true, |text| !is_driving_scene(&text)));
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
