//! Keys and what they do. The mapping is a pure function so it can be tested
//! and listed on screen from one place.
//!
//! In a scene a controller drives (a car), the driving keys (W A S D, the
//! arrows, space; see [`crate::DriveKeys`]) are the controller's: pause is
//! then P, a single step the full stop, and scenes switch with page up / page
//! down and the number keys.

use kiss3d::event::Key;

/// Something a key asks the viewer to do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Command {
    /// Pause or resume.
    TogglePause,
    /// Take one step (and pause).
    Step,
    /// Rebuild the scene.
    Reset,
    /// Fire a fast ball from the camera.
    Fire,
    /// Halve the time scale.
    Slower,
    /// Double the time scale.
    Faster,
    /// Show the `n`-th scene (0-based).
    Scene(usize),
    /// Show the previous scene.
    PreviousScene,
    /// Show the next scene.
    NextScene,
    /// Toggle contact points and normals.
    ToggleContacts,
    /// Toggle bounding boxes.
    ToggleAabbs,
    /// Toggle the sleeping tint.
    ToggleSleep,
    /// Toggle joint lines.
    ToggleJoints,
    /// Toggle the help line.
    ToggleHelp,
    /// Toggle the per-stage timings (numbers and rolling graph).
    ToggleTimings,
    /// Toggle centres of mass.
    ToggleCenters,
    /// Toggle island boxes (grey when the island sleeps).
    ToggleIslands,
    /// Toggle the swept paths and stops of continuous collision.
    ToggleSweeps,
    /// Toggle the ground grid.
    ToggleGrid,
    /// Show or hide the scene list (up / down / enter pick a scene while it shows).
    ToggleSceneList,
    /// Show or hide the settings panel (up / down pick a setting, left / right change it).
    ToggleSettings,
    /// Load the scene's file again from disk and restart it.
    Reload,
    /// Mesh shapes in finer detail (up to a limit, then back to the start).
    MeshDetail,
    /// The scene's controller action (the driving scene blasts a crater ahead of the car).
    Action,
}

/// The command bound to `key`, if any.
pub fn command_for(key: Key) -> Option<Command> {
    use Command::*;
    Some(match key {
        Key::Space | Key::P => TogglePause,
        Key::S | Key::Period => Step,
        Key::R => Reset,
        Key::F => Fire,
        Key::Minus | Key::Subtract => Slower,
        Key::Equals | Key::Add => Faster,
        Key::Left | Key::PageUp => PreviousScene,
        Key::Right | Key::PageDown => NextScene,
        Key::C => ToggleContacts,
        Key::B => ToggleAabbs,
        Key::Z => ToggleSleep,
        Key::J => ToggleJoints,
        Key::H => ToggleHelp,
        Key::T => ToggleTimings,
        Key::M => ToggleCenters,
        Key::I => ToggleIslands,
        Key::V => ToggleSweeps,
        Key::G => ToggleGrid,
        Key::L => ToggleSceneList,
        Key::O => ToggleSettings,
        Key::F5 => Reload,
        Key::U => MeshDetail,
        Key::X => Action,
        other => Scene(digit(other)?),
    })
}

/// 0-based scene index of a number key (1 is the first scene, 0 the tenth).
fn digit(key: Key) -> Option<usize> {
    const KEYS: [Key; 10] = [
        Key::Key1,
        Key::Key2,
        Key::Key3,
        Key::Key4,
        Key::Key5,
        Key::Key6,
        Key::Key7,
        Key::Key8,
        Key::Key9,
        Key::Key0,
    ];
    KEYS.iter().position(|k| *k == key)
}

/// Keys held down, so that a key's auto-repeat (presses with no release between them) is
/// told from a new press.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct HeldKeys {
    held: Vec<Key>,
}

impl HeldKeys {
    /// Records a press of `key`; true for a new press, false for a repeat of a held key.
    pub fn press(&mut self, key: Key) -> bool {
        if self.held.contains(&key) {
            return false;
        }
        self.held.push(key);
        true
    }

    /// Records that `key` went up.
    pub fn release(&mut self, key: Key) {
        self.held.retain(|k| *k != key);
    }

    /// Forgets every key (the window lost focus, so releases may never come).
    pub fn clear(&mut self) {
        self.held.clear();
    }
}

/// Whether holding the key of `c` repeats it: all but firing and the scene's action (one
/// ball, one crater, per press).
pub fn repeats(c: Command) -> bool {
    !matches!(c, Command::Fire | Command::Action)
}

/// The help lines shown at the top of the window.
pub const HELP: [&str; 3] = [
    "space / P pause | S step | R reset | F fire a ball at the mouse | - / + slower / faster | L scene list | 1-9, 0, arrows, PgUp / PgDn: scenes",
    "C contacts | B boxes | Z sleep tint | J joints | M mass centres | I islands | V sweeps | G grid | T stage timings | O settings | U mesh detail",
    "left drag: pick and pull a body | F5 reload the file | H hide help | mouse: orbit (right: pan), wheel zoom | Esc quit",
];

/// The help lines shown in a scene a controller drives (a car).
pub const DRIVE_HELP: [&str; 3] = [
    "W / up throttle | S / down brake, reverse | A D / left right steer | space handbrake | P pause | . step | R reset | PgUp / PgDn, 1-9: scenes",
    "F fire a ball | - / + slower / faster | C contacts | B boxes | Z sleep | J joints | M centres | I islands | V sweeps | G grid | T timings | O settings",
    "X crater ahead | L scene list | left drag: pull a body | F5 reload | U mesh detail | H hide help | mouse: orbit, zoom | Esc quit",
];

/// The help lines for a scene with (`driving`) or without a controller.
pub fn help_lines(driving: bool) -> &'static [&'static str; 3] {
    if driving {
        &DRIVE_HELP
    } else {
        &HELP
    }
}

/// Overlays the viewer can draw.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Overlays {
    /// Contact points and normals.
    pub contacts: bool,
    /// Collider bounding boxes.
    pub aabbs: bool,
    /// Tint sleeping bodies.
    pub sleep: bool,
    /// Joints as lines.
    pub joints: bool,
    /// Help line.
    pub help: bool,
    /// Per-stage timings: numbers and a rolling graph.
    pub timings: bool,
    /// Centres of mass.
    pub centers: bool,
    /// Island boxes (grey for sleeping islands).
    pub islands: bool,
    /// Swept paths and stops of continuous collision.
    pub sweeps: bool,
    /// A grid on the ground.
    pub grid: bool,
}

impl Overlays {
    /// What a window shows when a scene with `joints` joints opens: the help line, the
    /// ground grid, the swept paths of fast bodies, and the joints when there are any (a
    /// cradle's strings, a door's hinge would be hidden else).
    pub fn on_open(joints: usize) -> Self {
        Self {
            help: true,
            joints: joints > 0,
            grid: true,
            sweeps: true,
            ..Self::default()
        }
    }

    /// Applies a toggle command; returns whether `c` was one.
    pub fn apply(&mut self, c: Command) -> bool {
        let flag = match c {
            Command::ToggleContacts => &mut self.contacts,
            Command::ToggleAabbs => &mut self.aabbs,
            Command::ToggleSleep => &mut self.sleep,
            Command::ToggleJoints => &mut self.joints,
            Command::ToggleHelp => &mut self.help,
            Command::ToggleTimings => &mut self.timings,
            Command::ToggleCenters => &mut self.centers,
            Command::ToggleIslands => &mut self.islands,
            Command::ToggleSweeps => &mut self.sweeps,
            Command::ToggleGrid => &mut self.grid,
            _ => return false,
        };
        *flag = !*flag;
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_map_to_commands() {
        assert_eq!(command_for(Key::Space), Some(Command::TogglePause));
        assert_eq!(command_for(Key::P), Some(Command::TogglePause));
        assert_eq!(command_for(Key::Period), Some(Command::Step));
        assert_eq!(command_for(Key::PageDown), Some(Command::NextScene));
        assert_eq!(command_for(Key::R), Some(Command::Reset));
        assert_eq!(command_for(Key::F), Some(Command::Fire));
        assert_eq!(command_for(Key::Key1), Some(Command::Scene(0)));
        assert_eq!(command_for(Key::Key0), Some(Command::Scene(9)));
        assert_eq!(command_for(Key::Right), Some(Command::NextScene));
        assert_eq!(command_for(Key::X), Some(Command::Action));
        assert!(!crate::DriveKeys::is_drive_key(Key::X));
        assert_eq!(command_for(Key::Q), None);
    }

    #[test]
    fn driving_help_lists_the_driving_keys_and_pause_is_not_one_of_them() {
        let help = help_lines(true).join(" ");
        for key in [
            "W / up",
            "S / down",
            "A D / left right",
            "space handbrake",
            "P pause",
            "X crater",
        ] {
            assert!(help.contains(key), "{key} missing from {help}");
        }
        assert_eq!(help_lines(false), &HELP);
        // In a driven scene the driving keys are the car's: pause, step and scene switching
        // must stay reachable on other keys.
        for c in [Command::TogglePause, Command::Step, Command::NextScene] {
            let reachable = [Key::P, Key::Period, Key::PageDown, Key::PageUp]
                .into_iter()
                .filter(|k| !crate::DriveKeys::is_drive_key(*k))
                .any(|k| command_for(k) == Some(c));
            assert!(reachable, "{c:?}");
        }
    }

    #[test]
    fn overlays_toggle() {
        let mut o = Overlays::default();
        assert!(o.apply(Command::ToggleContacts));
        assert!(o.contacts);
        assert!(o.apply(Command::ToggleContacts));
        assert!(!o.contacts);
        assert!(!o.apply(Command::Fire));
        assert_eq!(o, Overlays::default());
    }

    /// Holding F is one press and its repeats: one ball, where each repeat used to fire one.
    /// Other keys (a held S steps on) still repeat.
    #[test]
    fn a_held_key_repeats_all_but_firing() {
        let mut held = HeldKeys::default();
        let fired = |held: &mut HeldKeys, presses: usize| {
            (0..presses).filter(|_| held.press(Key::F)).count()
        };
        assert_eq!(fired(&mut held, 22), 1);
        held.release(Key::F);
        assert_eq!(fired(&mut held, 3), 1);
        // Focus lost with F down: its release never comes, and the next press is new.
        held.clear();
        assert!(held.press(Key::F));
        assert!(held.press(Key::S) && !held.press(Key::S));
        assert!(!repeats(Command::Fire) && repeats(Command::Step) && repeats(Command::Faster));
        assert!(!repeats(Command::Action));
    }
}
