//! Scene files of either dimension.
//!
//! A scene file holds one [`SceneFile`]: `Scene2D(...)` or `Scene3D(...)`
//! around a [`fathom_world::Scene`], so one command line can load any shipped
//! scene and know which world to build. Files start with
//! `#![enable(unwrap_variant_newtypes)]` so the wrapper needs no doubled
//! parentheses; the same is accepted without it.

use fathom_world::{Scene2, Scene3, SceneError};
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

impl SceneFile {
    /// Parses scene text and checks every value (the error names the field's path).
    pub fn from_ron_str(text: &str) -> Result<Self, SceneError> {
        let scene = Self::parse(text)?;
        scene.validate()?;
        Ok(scene)
    }

    /// Parses scene text without checking values (grid files are not loaded yet).
    fn parse(text: &str) -> Result<Self, SceneError> {
        let options = fathom_sdf::ron_options()
            .with_default_extension(ron::extensions::Extensions::UNWRAP_VARIANT_NEWTYPES);
        options.from_str(text).map_err(|e| SceneError::Parse {
            line: e.span.start.line,
            column: e.span.start.col,
            message: e.code.to_string(),
        })
    }

    /// Reads a scene file, loads the files it refers to (baked grids, relative to it), then
    /// checks every value.
    pub fn from_ron_file(path: impl AsRef<Path>) -> Result<Self, SceneError> {
        let path = path.as_ref();
        let text = std::fs::read_to_string(path).map_err(|e| SceneError::Io {
            path: path.display().to_string(),
            message: e.to_string(),
        })?;
        let mut scene = Self::parse(&text)?;
        let base = path.parent().unwrap_or_else(|| Path::new("."));
        scene.load_files(base)?;
        scene.validate()?;
        Ok(scene)
    }

    /// The scene as RON text, in the form [`SceneFile::from_ron_str`] reads.
    pub fn to_ron_string(&self) -> Result<String, SceneError> {
        // One body per line: scenes of thousands of bodies stay readable and diffable.
        let config = ron::ser::PrettyConfig::default()
            .depth_limit(2)
            .extensions(ron::extensions::Extensions::UNWRAP_VARIANT_NEWTYPES);
        ron::ser::to_string_pretty(self, config).map_err(|e| SceneError::Serialise(e.to_string()))
    }

    /// Checks every value of the scene.
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

    fn load_files(&mut self, base: &Path) -> Result<(), SceneError> {
        match self {
            Self::Scene2D(s) => s.load_files(base),
            Self::Scene3D(s) => s.load_files(base),
        }
    }
}
