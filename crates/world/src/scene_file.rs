//! Scene files of either dimension: the one runtime 2D/3D switch that the
//! command line and the viewer share.
//!
//! A scene file holds a [`SceneFile`]: `Scene2D(...)` or `Scene3D(...)` around
//! a [`Scene`](crate::Scene). The wrapper needs no doubled parentheses (RON's
//! `unwrap_variant_newtypes` extension is on whether or not the file enables
//! it in a `#![enable(...)]` header). A bare scene `(...)` (what
//! [`Scene::to_ron_string`](crate::Scene::to_ron_string) writes) is read too: vectors have two or three
//! components and shape kinds belong to one dimension, so in practice exactly
//! one reading parses. When both fail, the error reported is the one that got
//! further into the file; when both succeed (a file stating no vector and no
//! dimension-specific shape), the scene is 3D unless told otherwise.

use crate::scene::{Scene2, Scene3, SceneError};
use ron::extensions::Extensions;
use serde::{Deserialize, Serialize};
use std::path::Path;

/// A scene of either dimension.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum SceneFile {
    /// A 2D scene.
    Scene2D(Scene2),
    /// A 3D scene.
    Scene3D(Scene3),
}

impl From<Scene2> for SceneFile {
    fn from(s: Scene2) -> Self {
        Self::Scene2D(s)
    }
}

impl From<Scene3> for SceneFile {
    fn from(s: Scene3) -> Self {
        Self::Scene3D(s)
    }
}

impl SceneFile {
    /// Parses scene text (wrapped or bare; a bare scene of no stated dimension is 3D) and
    /// checks every value (the error names the field's path). Scenes naming grid files
    /// must be read with [`SceneFile::from_ron_file`], which loads them.
    pub fn from_ron_str(text: &str) -> Result<Self, SceneError> {
        let scene = Self::parse(text, false)?;
        scene.validate()?;
        Ok(scene)
    }

    /// Reads a scene file, loads the files it refers to (baked grids, relative to it), then
    /// checks every value (at most [`crate::MAX_SCENE_FILE_BYTES`]; a leading byte-order mark
    /// is skipped). A bare scene of no stated dimension is 2D when the file's stem
    /// ends in `2d`, else 3D.
    pub fn from_ron_file(path: impl AsRef<Path>) -> Result<Self, SceneError> {
        let path = path.as_ref();
        let text = crate::scene::read_scene_text(path)?;
        let stem = path.file_stem().map(|s| s.to_string_lossy().to_lowercase());
        let prefer_2d = stem.is_some_and(|s| s.ends_with("2d"));
        let mut scene = Self::parse(&text, prefer_2d)?;
        scene.load_files(path.parent().unwrap_or_else(|| Path::new(".")))?;
        scene.validate()?;
        Ok(scene)
    }

    /// Whether `text` is meant as a scene: its first item (after blank lines, `//`
    /// comments and `#![...]` headers) is a `Scene2D` / `Scene3D` wrapper or a bare
    /// `(...)`. A file of another format (another wrapper) is not.
    pub fn is_scene_text(text: &str) -> bool {
        first_item(text).is_some_and(|l| is_wrapped_item(l) || l.starts_with('('))
    }

    /// Parses without checking values (grid files are not loaded yet).
    fn parse(text: &str, prefer_2d: bool) -> Result<Self, SceneError> {
        let text = fathom_sdf::strip_byte_order_mark(text);
        if first_item(text).is_some_and(is_wrapped_item) {
            let options = fathom_sdf::ron_options()
                .with_default_extension(Extensions::UNWRAP_VARIANT_NEWTYPES);
            return options.from_str(text).map_err(|e| SceneError::from_ron(&e));
        }
        match (Scene2::from_ron_str(text), Scene3::from_ron_str(text)) {
            (Ok(s2), Ok(_)) if prefer_2d => Ok(Self::Scene2D(s2)),
            (_, Ok(s3)) => Ok(Self::Scene3D(s3)),
            (Ok(s2), Err(_)) => Ok(Self::Scene2D(s2)),
            (Err(e2), Err(e3)) => Err(further_error(e2, e3)),
        }
    }

    /// The scene as RON text in the wrapped form [`SceneFile::from_ron_str`] reads, one
    /// body per line (scenes of thousands of bodies stay readable and diffable).
    pub fn to_ron_string(&self) -> Result<String, SceneError> {
        let config = ron::ser::PrettyConfig::default()
            .depth_limit(2)
            .extensions(Extensions::UNWRAP_VARIANT_NEWTYPES);
        ron::ser::to_string_pretty(self, config).map_err(|e| SceneError::Serialise(e.to_string()))
    }

    /// Checks every value of the scene; the error names the first bad field.
    pub fn validate(&self) -> Result<(), SceneError> {
        match self {
            Self::Scene2D(s) => s.validate(),
            Self::Scene3D(s) => s.validate(),
        }
    }

    /// 2 or 3.
    pub fn dimension(&self) -> usize {
        match self {
            Self::Scene2D(_) => 2,
            Self::Scene3D(_) => 3,
        }
    }

    /// Number of bodies the scene creates.
    pub fn body_count(&self) -> usize {
        match self {
            Self::Scene2D(s) => s.bodies.len(),
            Self::Scene3D(s) => s.bodies.len(),
        }
    }

    /// Loads the files the scene's shapes refer to (baked grids), relative to `base`.
    pub fn load_files(&mut self, base: &Path) -> Result<(), SceneError> {
        match self {
            Self::Scene2D(s) => s.load_files(base),
            Self::Scene3D(s) => s.load_files(base),
        }
    }
}

/// The text's first line that is not blank, a `//` comment or a `#![...]` attribute.
fn first_item(text: &str) -> Option<&str> {
    text.lines()
        .map(str::trim)
        .find(|l| !(l.is_empty() || l.starts_with("//") || l.starts_with("#!")))
}

fn is_wrapped_item(line: &str) -> bool {
    line.starts_with("Scene2D") || line.starts_with("Scene3D")
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
