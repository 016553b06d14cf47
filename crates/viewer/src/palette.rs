//! Body colours. Scenes carry no colour, so each body gets one from a fixed
//! palette by its index in the world (stable across runs and resets); static
//! bodies are grey so moving things stand out, and sleeping bodies can be
//! tinted towards blue-grey when that overlay is on.

/// A linear RGB colour, components in `[0, 1]`.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Rgb {
    /// Red.
    pub r: f32,
    /// Green.
    pub g: f32,
    /// Blue.
    pub b: f32,
}

impl Rgb {
    /// A colour from components in `[0, 1]`.
    pub const fn new(r: f32, g: f32, b: f32) -> Self {
        Self { r, g, b }
    }

    /// The colour as 8-bit sRGB-ish bytes (what a PNG of a flat-lit surface holds, roughly).
    pub fn to_u8(self) -> [u8; 3] {
        [self.r, self.g, self.b].map(|c| (c.clamp(0.0, 1.0) * 255.0).round() as u8)
    }

    /// `self` blended towards `other` by `t` in `[0, 1]`.
    pub fn mix(self, other: Rgb, t: f32) -> Rgb {
        let t = t.clamp(0.0, 1.0);
        Rgb::new(
            self.r + (other.r - self.r) * t,
            self.g + (other.g - self.g) * t,
            self.b + (other.b - self.b) * t,
        )
    }

    /// As a kiss3d colour with alpha 1.
    pub fn to_kiss(self) -> kiss3d::color::Color {
        kiss3d::color::Color::new(self.r, self.g, self.b, 1.0)
    }

    /// A colour from 8-bit components (a pixel of a PNG).
    pub fn from_u8(c: [u8; 3]) -> Self {
        let [r, g, b] = c.map(|x| x as f32 / 255.0);
        Self::new(r, g, b)
    }

    /// The colour encoded with the sRGB transfer curve: what a linear colour becomes in a
    /// screenshot, where the tests look for it.
    pub fn to_srgb(self) -> Self {
        let encode = |c: f32| {
            if c <= 0.003_130_8 {
                12.92 * c
            } else {
                1.055 * c.powf(1.0 / 2.4) - 0.055
            }
        };
        Self::new(encode(self.r), encode(self.g), encode(self.b))
    }

    /// Hue in degrees, `[0, 360)`; `None` for darks (brightest component under 0.15) and
    /// greys and whites (chroma under `min_saturation` times the brightest component).
    pub fn hue(self, min_saturation: f32) -> Option<f32> {
        let (r, g, b) = (self.r, self.g, self.b);
        let max = r.max(g).max(b);
        let chroma = max - r.min(g).min(b);
        if max < 0.15 || chroma < min_saturation * max {
            return None;
        }
        let h = if max == r {
            ((g - b) / chroma).rem_euclid(6.0)
        } else if max == g {
            (b - r) / chroma + 2.0
        } else {
            (r - g) / chroma + 4.0
        };
        Some(h * 60.0)
    }
}

/// The angle between two hues, degrees, in `[0, 180]`.
pub fn hue_distance(a: f32, b: f32) -> f32 {
    let d = (a - b).abs() % 360.0;
    d.min(360.0 - d)
}

/// Saturated, mutually distinct colours for dynamic bodies (none is grey, so a test can
/// tell a body from the ground and the background).
pub const PALETTE: [Rgb; 8] = [
    Rgb::new(0.90, 0.30, 0.25), // red
    Rgb::new(0.20, 0.60, 0.90), // blue
    Rgb::new(0.95, 0.70, 0.15), // amber
    Rgb::new(0.30, 0.75, 0.35), // green
    Rgb::new(0.65, 0.40, 0.85), // violet
    Rgb::new(0.10, 0.75, 0.70), // teal
    Rgb::new(0.95, 0.50, 0.65), // pink
    Rgb::new(0.85, 0.55, 0.25), // orange
];

/// Colour of fixed bodies (the ground, walls, pegs).
pub const FIXED: Rgb = Rgb::new(0.55, 0.55, 0.58);
/// Colour of kinematic bodies.
pub const KINEMATIC: Rgb = Rgb::new(0.75, 0.75, 0.45);
/// What sleeping bodies are tinted towards.
pub const SLEEP_TINT: Rgb = Rgb::new(0.35, 0.38, 0.50);
/// Colour of balls fired from the camera.
pub const PROJECTILE: Rgb = Rgb::new(0.98, 0.92, 0.30);
/// Background.
pub const BACKGROUND: Rgb = Rgb::new(0.09, 0.10, 0.13);

/// The colour of the `index`-th body of the world.
pub fn body_color(index: usize, kind: fathom_world::BodyKind) -> Rgb {
    match kind {
        fathom_world::BodyKind::Fixed => FIXED,
        fathom_world::BodyKind::Kinematic => KINEMATIC,
        fathom_world::BodyKind::Dynamic => PALETTE[index % PALETTE.len()],
    }
}
