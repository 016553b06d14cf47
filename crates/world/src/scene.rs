//! Scenes: a world written as a RON file.
//!
//! ```ron
//! (
//!     gravity: (0.0, -9.81),
//!     dt: 0.016666668,
//!     substeps: 4,
//!     bodies: [
//!         (kind: Fixed, colliders: [(shape: /* a fathom-sdf shape */)]),
//!         (position: (0.0, 2.0), colliders: [(shape: /* ... */, friction: 0.6)]),
//!     ],
//!     // Optional: joints between bodies by index (anchors in each body's frame).
//!     joints: [
//!         (body_a: 0, body_b: 1, joint: (kind: Revolute((limits: Some((-0.5, 0.5)))),
//!                                        anchor_b: (0.0, 1.0))),
//!     ],
//! )
//! ```
//!
//! Every field has a default (see [`BodyDesc`] and [`ColliderDesc`]), so a
//! file only says what differs. Malformed text is a [`SceneError::Parse`]
//! with the line and column (a file over [`MAX_SCENE_FILE_BYTES`], or a path that is
//! not a file, is [`SceneError::File`]); a well-formed file with a bad value is a
//! [`SceneError::Invalid`] naming the field by its path
//! (`bodies[3].colliders[0].density`). A misspelt field is a parse error, never
//! silently ignored.

use crate::desc::BodyDesc;
use crate::error::WorldError;
use crate::world::{World, WorldSettings};
use fathom_math::{Dim, Real, Space, Vector};
use fathom_solver::SolverSettings;
use serde::{Deserialize, Serialize};
use thiserror::Error;

/// A scene: world parameters and bodies with their colliders.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields, bound = "")]
pub struct Scene<const D: usize>
where
    Space<D>: Dim<D>,
{
    /// Gravity, world, m/s².
    pub gravity: Vector<D>,
    /// Time step, seconds (at most [`crate::MAX_DT`]).
    pub dt: Real,
    /// Solver substeps per step.
    pub substeps: u32,
    /// The bodies, created in this order (so body `i` gets the `i`-th handle).
    pub bodies: Vec<BodyDesc<D>>,
    /// Joints between bodies given by their index in `bodies`, created after the bodies
    /// (left out of the file when there are none).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub joints: Vec<SceneJoint<D>>,
}

/// A joint in a scene: two bodies by index into [`Scene::bodies`] and the descriptor.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, bound = "")]
pub struct SceneJoint<const D: usize>
where
    Space<D>: Dim<D>,
{
    /// Index of body A in the scene's bodies.
    pub body_a: usize,
    /// Index of body B in the scene's bodies.
    pub body_b: usize,
    /// The joint.
    #[serde(default)]
    pub joint: crate::joints::JointDesc<D>,
}

/// A 2D scene.
pub type Scene2 = Scene<2>;
/// A 3D scene.
pub type Scene3 = Scene<3>;

impl<const D: usize> Default for Scene<D>
where
    Space<D>: Dim<D>,
{
    fn default() -> Self {
        let s = WorldSettings::<D>::default();
        Self {
            gravity: s.gravity,
            dt: s.dt,
            substeps: s.solver.substeps,
            bodies: Vec::new(),
            joints: Vec::new(),
        }
    }
}

/// Why a scene could not be loaded or built.
#[derive(Debug, Error, Clone, PartialEq)]
pub enum SceneError {
    /// The text is not a valid scene (syntax, unknown field, wrong type).
    #[error("scene parse error at line {line}, column {column}: {message}")]
    Parse {
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
        /// What the parser expected.
        message: String,
    },
    /// A value is out of range (the error names the field's path).
    #[error("invalid scene: {0}")]
    Invalid(#[from] WorldError),
    /// The scene file (or a file it refers to) could not be read.
    #[error("cannot read scene file `{path}`: {message}")]
    Io {
        /// The file.
        path: String,
        /// The operating system's message.
        message: String,
    },
    /// The scene file is larger than [`MAX_SCENE_FILE_BYTES`], or not a file (a device such
    /// as `/dev/zero`, a directory): refused before it is read past the limit. The error
    /// names the file and the limit.
    #[error("cannot read scene file: {0}")]
    File(fathom_sdf::SdfError),
    /// The scene could not be written as text.
    #[error("scene could not be serialised: {0}")]
    Serialise(String),
}

/// Largest scene file read, bytes: [`fathom_sdf::MAX_RON_FILE_BYTES`] (64 MiB; the shipped
/// scenes are under 100 KiB, and large samples belong in grid files, read under their own
/// limit).
pub const MAX_SCENE_FILE_BYTES: u64 = fathom_sdf::MAX_RON_FILE_BYTES;

impl SceneError {
    /// A parse error from ron's, at its line and column, worded for the file's author (see
    /// [`fathom_sdf::ron_error_message`]: too deep a file names the shape-depth limit, not
    /// ron's options).
    pub fn from_ron(e: &ron::error::SpannedError) -> Self {
        SceneError::Parse {
            line: e.span.start.line,
            column: e.span.start.col,
            message: fathom_sdf::ron_error_message(&e.code),
        }
    }

    /// A scene file read with [`read_scene_text`] failed: [`SceneError::Io`] when the system
    /// could not read it, [`SceneError::File`] when it was refused.
    fn from_read(e: fathom_sdf::SdfError) -> Self {
        match e {
            fathom_sdf::SdfError::Io { path, message } => SceneError::Io { path, message },
            other => SceneError::File(other),
        }
    }
}

/// The text of a scene file, read under [`MAX_SCENE_FILE_BYTES`] (so `/dev/zero` or a huge
/// file costs nothing), without a leading UTF-8 byte-order mark.
pub fn read_scene_text(path: &std::path::Path) -> Result<String, SceneError> {
    fathom_sdf::read_text_limited(path, MAX_SCENE_FILE_BYTES).map_err(SceneError::from_read)
}

impl<const D: usize> Scene<D>
where
    Space<D>: Dim<D>,
{
    /// Parses a RON scene (a leading UTF-8 byte-order mark is skipped). The values are
    /// checked by [`Scene::build`] (or [`Scene::validate`]).
    pub fn from_ron_str(text: &str) -> Result<Self, SceneError> {
        fathom_sdf::ron_options()
            .from_str(fathom_sdf::strip_byte_order_mark(text))
            .map_err(|e| SceneError::from_ron(&e))
    }

    /// Reads a RON scene file (at most [`MAX_SCENE_FILE_BYTES`]); shapes that refer to files
    /// (baked grids) are loaded relative to the scene file's folder.
    pub fn from_ron_file(path: impl AsRef<std::path::Path>) -> Result<Self, SceneError> {
        let path = path.as_ref();
        let text = read_scene_text(path)?;
        let mut scene = Self::from_ron_str(&text)?;
        scene.load_files(path.parent().unwrap_or_else(|| std::path::Path::new(".")))?;
        Ok(scene)
    }

    /// Loads the files the scene's shapes refer to (baked grids), relative to `base`; an
    /// error names the collider's shape by its path in the scene. A file named by many
    /// colliders is read once and its samples shared ([`fathom_sdf::GridCache`]).
    pub fn load_files(&mut self, base: &std::path::Path) -> Result<(), SceneError> {
        let mut cache = fathom_sdf::GridCache::default();
        for (i, b) in self.bodies.iter_mut().enumerate() {
            for (k, c) in b.colliders.iter_mut().enumerate() {
                c.shape
                    .load_files_cached(base, &mut cache)
                    .map_err(|source| {
                        SceneError::Invalid(WorldError::Shape {
                            field: format!("bodies[{i}].colliders[{k}].shape"),
                            source,
                        })
                    })?;
            }
        }
        Ok(())
    }

    /// The scene as pretty RON text.
    pub fn to_ron_string(&self) -> Result<String, SceneError> {
        ron::ser::to_string_pretty(self, ron::ser::PrettyConfig::default())
            .map_err(|e| SceneError::Serialise(e.to_string()))
    }

    /// The world settings this scene asks for.
    pub fn settings(&self) -> WorldSettings<D> {
        WorldSettings {
            gravity: self.gravity,
            dt: self.dt,
            solver: SolverSettings {
                substeps: self.substeps,
                ..SolverSettings::default()
            },
            ..WorldSettings::default()
        }
    }

    /// Checks every value; the error names the first bad field by its path.
    pub fn validate(&self) -> Result<(), SceneError> {
        self.settings().validate()?;
        for (i, b) in self.bodies.iter().enumerate() {
            b.validate()
                .map_err(|e| e.prefixed(&format!("bodies[{i}]")))?;
        }
        for (i, j) in self.joints.iter().enumerate() {
            self.check_joint(j)
                .map_err(|e| e.prefixed(&format!("joints[{i}]")))?;
        }
        Ok(())
    }

    /// A scene joint's body indices (in range, distinct) and descriptor.
    fn check_joint(&self, j: &SceneJoint<D>) -> Result<(), WorldError> {
        let n = self.bodies.len();
        for (field, i) in [("body_a", j.body_a), ("body_b", j.body_b)] {
            if i >= n {
                return Err(WorldError::invalid(
                    field,
                    format!("body index {i} is out of range (the scene has {n} bodies)"),
                ));
            }
        }
        if j.body_a == j.body_b {
            return Err(WorldError::invalid(
                "body_b",
                "a joint needs two different bodies",
            ));
        }
        j.joint.validate().map_err(|e| e.prefixed("joint"))
    }

    /// A new world holding the scene's bodies (body `i` gets the `i`-th handle).
    pub fn build(&self) -> Result<World<D>, SceneError> {
        let mut world = World::new(self.settings())?;
        let mut handles = Vec::with_capacity(self.bodies.len());
        for (i, b) in self.bodies.iter().enumerate() {
            handles.push(
                world
                    .add_body(b)
                    .map_err(|e| e.prefixed(&format!("bodies[{i}]")))?,
            );
        }
        for (i, j) in self.joints.iter().enumerate() {
            let path = format!("joints[{i}]");
            self.check_joint(j).map_err(|e| e.prefixed(&path))?;
            world
                .add_joint(handles[j.body_a], handles[j.body_b], &j.joint)
                .map_err(|e| e.prefixed(&path))?;
        }
        Ok(world)
    }
}
