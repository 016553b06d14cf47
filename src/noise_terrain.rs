//! A procedural terrain as a user field (`fathom_sdf::Shape::user`): rolling ground made of
//! four sine waves of different wavelengths and headings, and the driving scene's car on it
//! ([`noise_driving_scene`]).
//!
//! The height `h(x, z)` has slope at most `G = Σ aᵢ 2π / λᵢ`, so `(y - h) / sqrt(1 + G²)` is
//! never more than the distance to the surface and changes by at most 1 per metre: an honest
//! Lipschitz constant of 1, which the sampled check of `Shape::user` confirms. It is cut to a
//! box by `max` with the box's exact field, which keeps both properties.
//!
//! A scene holding it cannot be written to a file with its code: a snapshot keeps it by the
//! name [`NOISE_TERRAIN`], and `World::restore_with_fields` attaches it again.

use crate::vehicle_scene::{driving_scene, DrivingScene};
use fathom_math::{Aabb, Real, Vector3};
use fathom_sdf::{Sdf, SdfError};
use fathom_world::{BodyDesc, ColliderDesc, Scene3, Shape};
use std::f32::consts::TAU;
use std::sync::Arc;

/// The name the terrain is saved and re-attached under.
pub const NOISE_TERRAIN: &str = "noise_terrain";

/// One wave of the terrain: amplitude and wavelength (metres), heading and phase (radians).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Wave {
    /// Amplitude, metres.
    pub amplitude: Real,
    /// Wavelength, metres.
    pub wavelength: Real,
    /// Heading of the wave's crests' normal in the ground plane, radians from +x.
    pub heading: Real,
    /// Phase, radians.
    pub phase: Real,
}

/// Rolling ground of summed waves, top near y = 0, cut to a square of `half_width` metres and
/// `depth` metres thick.
#[derive(Clone, Debug, PartialEq)]
pub struct NoiseTerrain {
    /// The waves.
    pub waves: Vec<Wave>,
    /// Half the side of the square, metres.
    pub half_width: Real,
    /// How deep the solid goes below y = 0, metres.
    pub depth: Real,
}

impl Default for NoiseTerrain {
    /// Four waves from 41 m to 5.3 m long, 0.35 m to 6 cm high: slopes under 15 degrees.
    fn default() -> Self {
        let wave = |amplitude, wavelength, heading, phase| Wave {
            amplitude,
            wavelength,
            heading,
            phase,
        };
        Self {
            waves: vec![
                wave(0.35, 41.0, 0.3, 0.0),
                wave(0.25, 23.0, 1.9, 1.3),
                wave(0.12, 11.0, 4.1, 2.2),
                wave(0.06, 5.3, 5.3, 0.7),
            ],
            half_width: 400.0,
            depth: 3.0,
        }
    }
}

impl NoiseTerrain {
    /// The ground's height at `(x, z)`, metres.
    pub fn height(&self, x: Real, z: Real) -> Real {
        self.waves
            .iter()
            .map(|w| {
                let along = x * w.heading.cos() + z * w.heading.sin();
                w.amplitude * (TAU * along / w.wavelength + w.phase).sin()
            })
            .sum()
    }

    /// The steepest slope the height can have, `Σ aᵢ 2π / λᵢ`.
    pub fn max_slope(&self) -> Real {
        self.waves
            .iter()
            .map(|w| w.amplitude.abs() * TAU / w.wavelength)
            .sum()
    }

    fn peak(&self) -> Real {
        self.waves.iter().map(|w| w.amplitude.abs()).sum()
    }

    /// The terrain as a collider shape, named [`NOISE_TERRAIN`] (checked by the sampled
    /// Lipschitz test).
    pub fn shape(self) -> Result<Shape<3>, SdfError> {
        Shape::user(NOISE_TERRAIN, Arc::new(self))
    }
}

impl Sdf<3> for NoiseTerrain {
    fn distance(&self, p: &Vector3) -> Real {
        let surface = (p.y - self.height(p.x, p.z)) / (1.0 + self.max_slope().powi(2)).sqrt();
        let b = self.bounds();
        let q = (p - b.center()).abs() - b.half_extents();
        let boxed = q.map(|x| x.max(0.0)).norm() + q.max().min(0.0);
        surface.max(boxed)
    }
    fn bounds(&self) -> Aabb<3> {
        Aabb::new(
            Vector3::new(-self.half_width, -self.depth, -self.half_width),
            Vector3::new(self.half_width, self.peak(), self.half_width),
        )
    }
}

/// The driving scene's car and inputs on the noise terrain alone (no ramp, hills or
/// obstacles: their bases sit on flat ground), the car dropped in at the terrain's height.
pub fn noise_driving_scene() -> Result<DrivingScene, SdfError> {
    let terrain = NoiseTerrain::default();
    let spawn = terrain.height(0.0, 0.0) + 0.85;
    let ground = BodyDesc::fixed().collider(ColliderDesc::new(terrain.shape()?).friction(0.9));
    let base = driving_scene();
    Ok(DrivingScene {
        scene: Scene3 {
            bodies: vec![ground],
            ..base.scene
        },
        vehicle: base.vehicle.at(Vector3::new(0.0, spawn, 0.0)),
        ..base
    })
}
