//! The settings a person changes at run time (key O opens the panel; up and
//! down pick a row, left and right change it): gravity, solver substeps,
//! contact stiffness, sleeping, the time scale and the colliders' contact
//! margin, so the effect of each shows live.
//!
//! Changes are kept as a [`Tuning`] on top of the scene and applied to every
//! world built from it (a reset keeps them; reloading the file starts over).
//! All but the margin take effect at the next step; the margin is a
//! collider's property fixed when it is made, so changing it rebuilds the
//! scene.

use fathom_math::{Dim, Real, Space};
use fathom_world::{Scene, WorldSettings, MAX_SUBSTEPS};

/// One row of the settings panel.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Setting {
    /// Gravity as a multiple of the scene's, 0 to 3 in quarters.
    Gravity,
    /// Solver substeps per step, 1 to [`MAX_SUBSTEPS`], doubling and halving.
    Substeps,
    /// Contact stiffness, Hz, 5 to 240 by factors of 1.5 (the solver caps it at a
    /// quarter of the substep rate).
    ContactHertz,
    /// Whether resting islands fall asleep.
    Sleeping,
    /// Simulated seconds per wall second ([`crate::sim::TIME_SCALE_RANGE`]).
    TimeScale,
    /// Every collider's contact margin as a multiple of the scene's, 1/16 to 16, doubling
    /// and halving (rebuilds the scene).
    Margin,
}

/// The rows in the order the panel shows them.
pub const SETTINGS: [Setting; 6] = [
    Setting::Gravity,
    Setting::Substeps,
    Setting::ContactHertz,
    Setting::Sleeping,
    Setting::TimeScale,
    Setting::Margin,
];

/// Steps of the gravity multiple.
const GRAVITY_STEP: Real = 0.25;
/// Largest gravity multiple.
const MAX_GRAVITY: Real = 3.0;
/// Contact stiffness range, Hz.
const HERTZ_RANGE: (Real, Real) = (5.0, 240.0);
/// Margin multiple range.
const MARGIN_RANGE: (Real, Real) = (1.0 / 16.0, 16.0);

/// Changes made at run time, applied over the scene's own values.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Tuning {
    /// Gravity multiple.
    pub gravity: Real,
    /// Substeps, when changed.
    pub substeps: Option<u32>,
    /// Contact stiffness, Hz, when changed.
    pub contact_hertz: Option<Real>,
    /// Sleeping on or off, when changed.
    pub sleeping: Option<bool>,
    /// Margin multiple.
    pub margin: Real,
}

impl Default for Tuning {
    /// The scene as it is.
    fn default() -> Self {
        Self {
            gravity: 1.0,
            substeps: None,
            contact_hertz: None,
            sleeping: None,
            margin: 1.0,
        }
    }
}

impl Tuning {
    /// The world settings `base` (a world built from `scene`) with the tuning applied.
    pub fn settings<const D: usize>(
        &self,
        scene: &Scene<D>,
        base: &WorldSettings<D>,
    ) -> WorldSettings<D>
    where
        Space<D>: Dim<D>,
    {
        let mut s = base.clone();
        s.gravity = scene.gravity * self.gravity;
        if let Some(n) = self.substeps {
            s.solver.substeps = n;
        }
        if let Some(hz) = self.contact_hertz {
            s.solver.contact_hertz = hz;
        }
        if let Some(on) = self.sleeping {
            s.sleep.enabled = on;
        }
        s
    }

    /// `scene` with every collider's margin scaled by the margin multiple.
    pub fn scene<const D: usize>(&self, scene: &Scene<D>) -> Scene<D>
    where
        Space<D>: Dim<D>,
    {
        let mut out = scene.clone();
        if self.margin != 1.0 {
            for c in out.bodies.iter_mut().flat_map(|b| b.colliders.iter_mut()) {
                c.margin *= self.margin;
            }
        }
        out
    }

    /// Moves `setting` one step up (`up`) or down from its value in `current` (the world's
    /// settings as they are); the time scale is the simulation's, not the tuning's, and is
    /// left alone. Returns whether the scene must be rebuilt for the change to show.
    pub fn adjust<const D: usize>(
        &mut self,
        setting: Setting,
        up: bool,
        current: &WorldSettings<D>,
    ) -> bool
    where
        Space<D>: Dim<D>,
    {
        match setting {
            Setting::Gravity => {
                let step = if up { GRAVITY_STEP } else { -GRAVITY_STEP };
                self.gravity = (self.gravity + step).clamp(0.0, MAX_GRAVITY);
            }
            Setting::Substeps => {
                let n = current.solver.substeps.max(1);
                let n = if up { n * 2 } else { n / 2 };
                self.substeps = Some(n.clamp(1, MAX_SUBSTEPS));
            }
            Setting::ContactHertz => {
                let hz = current.solver.contact_hertz * if up { 1.5 } else { 1.0 / 1.5 };
                self.contact_hertz = Some(hz.clamp(HERTZ_RANGE.0, HERTZ_RANGE.1));
            }
            Setting::Sleeping => self.sleeping = Some(!current.sleep.enabled),
            Setting::TimeScale => {}
            Setting::Margin => {
                let m = self.margin * if up { 2.0 } else { 0.5 };
                self.margin = m.clamp(MARGIN_RANGE.0, MARGIN_RANGE.1);
                return true;
            }
        }
        false
    }
}

/// The panel's text for `setting`: its name, its value in `current` (and `time_scale`), and
/// what the keys do to it.
pub fn describe<const D: usize>(
    setting: Setting,
    tuning: &Tuning,
    current: &WorldSettings<D>,
    time_scale: Real,
) -> String
where
    Space<D>: Dim<D>,
{
    match setting {
        Setting::Gravity => format!(
            "gravity       {:.2} m/s2 (x{:.2})",
            current.gravity.norm(),
            tuning.gravity
        ),
        Setting::Substeps => format!("substeps      {}", current.solver.substeps),
        Setting::ContactHertz => {
            format!("contact hertz {:.1} Hz", current.solver.contact_hertz)
        }
        Setting::Sleeping => format!(
            "sleeping      {}",
            if current.sleep.enabled { "on" } else { "off" }
        ),
        Setting::TimeScale => format!("time scale    x{time_scale}"),
        Setting::Margin => format!("margin        x{} (rebuilds)", tuning.margin),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fathom_world::{BodyDesc, ColliderDesc, Shape};

    fn tunes<const D: usize>()
    where
        Space<D>: Dim<D>,
    {
        let ball = ColliderDesc::new(Shape::ball(0.5).unwrap());
        let scene = Scene::<D> {
            bodies: vec![BodyDesc::dynamic().collider(ball)],
            ..Scene::default()
        };
        let base = scene.build().unwrap().settings().clone();
        let mut t = Tuning::default();
        assert_eq!(t.settings(&scene, &base), base);
        // Gravity down to nothing in quarters, and not below.
        for _ in 0..5 {
            assert!(!t.adjust(Setting::Gravity, false, &base));
        }
        assert_eq!(t.gravity, 0.0);
        assert_eq!(t.settings(&scene, &base).gravity.norm(), 0.0);
        // Substeps double from the scene's 4 and stop at the solver's limit.
        let mut s = base.clone();
        for _ in 0..10 {
            t.adjust(Setting::Substeps, true, &s);
            s = t.settings(&scene, &base);
        }
        assert_eq!(s.solver.substeps, MAX_SUBSTEPS);
        // Stiffness stays in its range; sleeping flips.
        for _ in 0..20 {
            t.adjust(Setting::ContactHertz, false, &s);
            s = t.settings(&scene, &base);
        }
        assert_eq!(s.solver.contact_hertz, HERTZ_RANGE.0);
        t.adjust(Setting::Sleeping, true, &s);
        s = t.settings(&scene, &base);
        assert_eq!(s.sleep.enabled, !base.sleep.enabled);
        // The world accepts every tuned setting.
        assert!(s.validate().is_ok());
        // The margin doubles on every collider and asks for a rebuild.
        assert!(t.adjust(Setting::Margin, true, &s));
        let m0 = scene.bodies[0].colliders[0].margin;
        assert_eq!(t.scene(&scene).bodies[0].colliders[0].margin, 2.0 * m0);
        assert!(describe(Setting::Margin, &t, &s, 1.0).contains("x2"));
        assert!(describe(Setting::Sleeping, &t, &s, 1.0).contains("off"));
    }

    #[test]
    fn tuning_2d_and_3d() {
        tunes::<2>();
        tunes::<3>();
    }
}
