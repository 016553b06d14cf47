//! The `fathom` application: what the command line and the viewer need beyond the
//! library (`fathom-physics`): the
//! shipped demo scenes ([`demo_scenes`]), headless runs ([`headless`]), the energy
//! ledger ([`energy`]), the driving scene ([`vehicle_scene`], driven in the viewer by [`drive`]) and the SDF-versus-mesh
//! comparison ([`compare`]).
#![warn(missing_docs)]

pub mod character_course;
pub mod compare;
pub mod demo_scenes;
pub mod drive;
pub mod energy;
pub mod headless;
pub mod vehicle_scene;

/// The README's library walkthrough, compiled and run as a doctest (`cargo test --doc`).
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
