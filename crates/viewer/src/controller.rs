//! Controllers: the hook through which something besides the world drives a
//! scene on show (a vehicle on the keyboard, a scripted actor), so the viewer
//! stays generic and never needs to know a game's file format.
//!
//! A [`Controller`] travels with a [`crate::NamedScene`]. The simulation calls
//! it after every build of the world (start and reset: it adds its bodies
//! then) and before every world step (it applies its forces then), handing it
//! the driving keys held in the window, or `None` while nobody has touched
//! them (then it replays its script, which is what screenshots see, so they
//! are reproducible). It may name a body for the camera to follow, draw parts
//! that are not colliders (wheels), and add lines to the on-screen text.

use crate::error::ViewerError;
use crate::palette::Rgb;
use fathom_math::{Dim, Pose, Space, Vector};
use fathom_sdf::Shape;
use fathom_world::{BodyHandle, World};
use kiss3d::event::Key;

/// The driving keys held down: W / up arrow, S / down arrow, A / left arrow,
/// D / right arrow, space.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DriveKeys {
    /// Accelerate (W, up arrow).
    pub forward: bool,
    /// Brake, then reverse once stopped (S, down arrow).
    pub back: bool,
    /// Steer left (A, left arrow).
    pub left: bool,
    /// Steer right (D, right arrow).
    pub right: bool,
    /// Handbrake (space).
    pub handbrake: bool,
}

impl DriveKeys {
    /// The driving keys held, asking `held` about each key.
    pub fn from_held(held: impl Fn(Key) -> bool) -> Self {
        Self {
            forward: held(Key::W) || held(Key::Up),
            back: held(Key::S) || held(Key::Down),
            left: held(Key::A) || held(Key::Left),
            right: held(Key::D) || held(Key::Right),
            handbrake: held(Key::Space),
        }
    }

    /// Whether any driving key is held.
    pub fn any(&self) -> bool {
        self.forward || self.back || self.left || self.right || self.handbrake
    }

    /// Whether `key` is a driving key (while a controller drives, these keys are
    /// not scene commands).
    pub fn is_drive_key(key: Key) -> bool {
        matches!(
            key,
            Key::W | Key::A | Key::S | Key::D | Key::Up | Key::Down | Key::Left | Key::Right
        ) || key == Key::Space
    }
}

/// A body for the camera to follow, and which way is its front.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Follow<const D: usize> {
    /// The body.
    pub body: BodyHandle,
    /// Its forward direction, body frame (unit); the chase camera sits behind it.
    pub forward: Vector<D>,
}

/// Something drawn that is not a collider (a wheel): a shape and a colour.
#[derive(Clone, Debug, PartialEq)]
pub struct Part<const D: usize>
where
    Space<D>: Dim<D>,
{
    /// The shape, in the part's own frame (metres).
    pub shape: Shape<D>,
    /// The colour it is drawn in.
    pub color: Rgb,
}

/// Drives a scene beside the world's own dynamics (see the module docs).
pub trait Controller<const D: usize>: Send
where
    Space<D>: Dim<D>,
{
    /// Called after every build of the world (the first and each reset): adds the
    /// controller's bodies and forgets the state of any previous world.
    fn attach(&mut self, world: &mut World<D>) -> Result<(), ViewerError>;

    /// Called before every world step: applies this step's forces. `keys` are the
    /// driving keys held in the window, or `None` while none has been pressed since the
    /// last reset (replay the script then).
    fn before_step(
        &mut self,
        world: &mut World<D>,
        keys: Option<&DriveKeys>,
    ) -> Result<(), ViewerError>;

    /// The scene's own action, on the X key (the driving scene blasts a crater ahead of
    /// the car). Does nothing unless a controller has one.
    fn action(&mut self, world: &mut World<D>) -> Result<(), ViewerError> {
        let _ = world;
        Ok(())
    }

    /// The body the camera should follow, if any.
    fn follow(&self) -> Option<Follow<D>>;

    /// Parts drawn besides the colliders (wheels), indexed by [`Controller::part_poses`].
    fn parts(&self) -> Vec<Part<D>>;

    /// Where to draw parts this frame: (index into [`Controller::parts`], world pose).
    fn part_poses(&self, world: &World<D>) -> Vec<(usize, Pose<D>)>;

    /// Lines added to the on-screen text (e.g. the speed). `keys` says whether the keys
    /// (true) or the script (false) drive.
    fn hud_lines(&self, world: &World<D>, keys: bool) -> Vec<String>;

    /// A copy in its initial state or current state (it is attached again before use).
    fn clone_box(&self) -> Box<dyn Controller<D>>;
}

/// A controller for a scene of either dimension.
pub enum SceneController {
    /// For a 2D scene.
    Two(Box<dyn Controller<2>>),
    /// For a 3D scene.
    Three(Box<dyn Controller<3>>),
}

impl SceneController {
    /// 2 or 3.
    pub fn dim(&self) -> usize {
        match self {
            SceneController::Two(_) => 2,
            SceneController::Three(_) => 3,
        }
    }
}

impl Clone for SceneController {
    fn clone(&self) -> Self {
        match self {
            SceneController::Two(c) => SceneController::Two(c.clone_box()),
            SceneController::Three(c) => SceneController::Three(c.clone_box()),
        }
    }
}

impl std::fmt::Debug for SceneController {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "SceneController({}D)", self.dim())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wasd_and_arrows_are_driving_keys() {
        let held = [Key::W, Key::Left, Key::Space];
        let keys = DriveKeys::from_held(|k| held.contains(&k));
        assert_eq!(
            keys,
            DriveKeys {
                forward: true,
                back: false,
                left: true,
                right: false,
                handbrake: true
            }
        );
        assert!(keys.any());
        assert!(!DriveKeys::from_held(|_| false).any());
        let arrows = DriveKeys::from_held(|k| k == Key::Down || k == Key::Right);
        assert!(arrows.back && arrows.right && !arrows.forward);
        for k in [Key::W, Key::S, Key::Up, Key::Right, Key::Space] {
            assert!(DriveKeys::is_drive_key(k), "{k:?}");
        }
        for k in [Key::R, Key::P, Key::F, Key::PageUp, Key::Key1] {
            assert!(!DriveKeys::is_drive_key(k), "{k:?}");
        }
    }
}
