//! The `fathom` application: what the command line and the viewer need beyond the
//! library (`fathom-physics`): the
//! shipped demo scenes ([`demo_scenes`]), headless runs ([`headless`]), the energy
//! ledger ([`energy`]), the driving scene ([`vehicle_scene`], driven in the viewer by [`drive`],
//! with craters blasted into it by [`craters`]; [`noise_terrain`] drives it on a user field) and the SDF-versus-mesh
//! comparison ([`compare`]), and the 2D tunnel-digging demo ([`tunnels`]).
#![warn(missing_docs)]

pub mod character_course;
pub mod compare;
pub mod craters;
pub mod demo_scenes;
pub mod drive;
pub mod energy;
pub mod headless;
pub mod noise_terrain;
pub mod tunnels;
pub mod vehicle_scene;

/// The shipped driving scene (`scenes/driving.ron`), after the demo scenes in the viewer's
/// scene list.
pub const DRIVING_SCENE: &str = "driving";

/// Every shipped scene's name, in the order the viewer lists and switches through them: the
/// demo scenes, the driving scene, the character course.
pub fn shipped_scene_names() -> Vec<&'static str> {
    demo_scenes::DEMO_SCENES
        .iter()
        .map(|d| d.name)
        .chain([DRIVING_SCENE, character_course::COURSE_SCENE])
        .collect()
}

/// The README's library walkthrough, compiled and run as a doctest (`cargo test --doc`).
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
