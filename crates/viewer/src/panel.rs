//! Text on a shaded panel: the status lines, the scene list and the settings
//! panel are each a column of lines on a dark panel fitted to the text, so
//! they read on any background (white text on light terrain did not).
//!
//! This is layout only, in pixels (origin top left, y down, as kiss3d's
//! text): where each line goes, how wide the panel is, which line a click
//! falls on. [`crate::stage`] draws it.

use crate::palette::Rgb;
use glamx::Vec2;
use kiss3d::text::Font;

/// Space between the panel's edge and its text, pixels.
pub const PADDING: f32 = 6.0;
/// Line height as a multiple of the text size.
pub const LINE_SPACING: f32 = 1.15;
/// Colour of panels.
pub const PANEL: Rgb = Rgb::new(0.06, 0.065, 0.08);
/// Colour of a panel's highlighted row.
pub const HIGHLIGHT: Rgb = Rgb::new(0.22, 0.3, 0.45);
/// Colour of text.
pub const TEXT: Rgb = Rgb::new(0.92, 0.92, 0.92);

/// An axis-aligned pixel rectangle.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rect {
    /// Top left corner.
    pub min: Vec2,
    /// Bottom right corner.
    pub max: Vec2,
}

impl Rect {
    /// Whether `p` is inside (edges included).
    pub fn contains(&self, p: Vec2) -> bool {
        p.x >= self.min.x && p.x <= self.max.x && p.y >= self.min.y && p.y <= self.max.y
    }
}

/// Which side of the window a panel hangs from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Anchor {
    /// Its left edge at the given x.
    Left,
    /// Its right edge at the given x.
    Right,
}

/// A column of lines on a panel.
#[derive(Clone, Debug, PartialEq)]
pub struct TextPanel {
    /// The lines and their colours.
    pub lines: Vec<(String, Rgb)>,
    /// Text size, pixels.
    pub size: f32,
    /// Width of each line's text, pixels (measured with the font).
    widths: Vec<f32>,
    /// The panel's outline.
    pub rect: Rect,
    /// A row drawn highlighted, if any.
    pub highlight: Option<usize>,
}

impl TextPanel {
    /// Lays out `lines` of text size `size` on a panel whose top is at `top` and whose
    /// `anchor` side is at `x`, measuring the text with `font`.
    pub fn new(
        lines: Vec<(String, Rgb)>,
        size: f32,
        font: &Font,
        anchor: Anchor,
        x: f32,
        top: f32,
    ) -> Self {
        let widths: Vec<f32> = lines
            .iter()
            .map(|(l, _)| text_width(font, l, size))
            .collect();
        let width = widths.iter().copied().fold(0.0, f32::max) + 2.0 * PADDING;
        let height = lines.len() as f32 * size * LINE_SPACING + 2.0 * PADDING;
        let left = match anchor {
            Anchor::Left => x,
            Anchor::Right => x - width,
        };
        Self {
            lines,
            size,
            widths,
            rect: Rect {
                min: Vec2::new(left, top),
                max: Vec2::new(left + width, top + height),
            },
            highlight: None,
        }
    }

    /// Where line `i`'s text starts (its top left).
    pub fn text_at(&self, i: usize) -> Vec2 {
        self.rect.min + Vec2::new(PADDING, PADDING + i as f32 * self.size * LINE_SPACING)
    }

    /// The band of row `i` across the panel.
    pub fn row(&self, i: usize) -> Rect {
        let top = self.text_at(i).y;
        Rect {
            min: Vec2::new(self.rect.min.x, top),
            max: Vec2::new(self.rect.max.x, top + self.size * LINE_SPACING),
        }
    }

    /// The box of line `i`'s text.
    pub fn text_box(&self, i: usize) -> Rect {
        let at = self.text_at(i);
        Rect {
            min: at,
            max: at + Vec2::new(self.widths[i], self.size),
        }
    }

    /// The row under pixel `p`, if any.
    pub fn hit(&self, p: Vec2) -> Option<usize> {
        (0..self.lines.len()).find(|&i| self.row(i).contains(p))
    }
}

/// Width of `text` at size `size` in `font`, pixels: where the last glyph's advance ends,
/// as kiss3d lays text out.
pub fn text_width(font: &Font, text: &str, size: f32) -> f32 {
    let scale = rusttype::Scale::uniform(size);
    font.font()
        .layout(text, scale, rusttype::point(0.0, 0.0))
        .last()
        .map_or(0.0, |g| {
            g.position().x + g.unpositioned().h_metrics().advance_width
        })
}

/// The scene list: every scene's name, the one on show marked, one under the keyboard's
/// cursor highlighted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SceneList {
    /// The names, in the order number keys and arrows go through them.
    pub names: Vec<String>,
    /// The scene on show.
    pub current: usize,
    /// The scene the keyboard's cursor is on (enter shows it).
    pub cursor: usize,
}

/// The scene list's heading line.
pub const SCENE_LIST_HEADING: &str = "scenes: click, or up / down and enter | L hides";
/// Colour of the scene on show in the list.
pub const CURRENT: Rgb = Rgb::new(1.0, 0.8, 0.3);

impl SceneList {
    /// A list of `names` showing the `current`-th, the cursor on it.
    pub fn new(names: Vec<String>, current: usize) -> Self {
        Self {
            names,
            current,
            cursor: current,
        }
    }

    /// Moves the cursor by `delta` rows, wrapping round.
    pub fn move_cursor(&mut self, delta: isize) {
        let n = self.names.len().max(1) as isize;
        self.cursor = (self.cursor as isize + delta).rem_euclid(n) as usize;
    }

    /// The panel's lines: the heading, then each name (the one on show marked and coloured).
    pub fn lines(&self) -> Vec<(String, Rgb)> {
        let mut out = vec![(SCENE_LIST_HEADING.to_string(), TEXT)];
        for (i, name) in self.names.iter().enumerate() {
            let (mark, colour) = if i == self.current {
                ("> ", CURRENT)
            } else {
                ("   ", TEXT)
            };
            out.push((format!("{mark}{}  {name}", key_label(i)), colour));
        }
        out
    }

    /// The scene of a panel row (the heading is row 0).
    pub fn scene_of_row(&self, row: usize) -> Option<usize> {
        row.checked_sub(1).filter(|i| *i < self.names.len())
    }
}

/// The number key that shows the `i`-th scene, for the list ("1" to "9", "0", then blank).
fn key_label(i: usize) -> &'static str {
    const KEYS: [&str; 10] = ["1", "2", "3", "4", "5", "6", "7", "8", "9", "0"];
    KEYS.get(i).copied().unwrap_or(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn panels_fit_their_text_and_find_rows() {
        let font = Font::default();
        let lines = vec![
            ("short".to_string(), TEXT),
            ("a much longer line".to_string(), TEXT),
        ];
        let p = TextPanel::new(lines.clone(), 16.0, &font, Anchor::Left, 10.0, 20.0);
        let long = text_width(&font, "a much longer line", 16.0);
        // Wider text is wider: about half the size per character in a proportional font.
        assert!(long > text_width(&font, "short", 16.0));
        assert!(
            long > 18.0 * 16.0 * 0.3 && long < 18.0 * 16.0 * 0.8,
            "{long}"
        );
        assert_eq!(p.rect.max.x - p.rect.min.x, long + 2.0 * PADDING);
        assert_eq!(p.rect.min, Vec2::new(10.0, 20.0));
        // Rows stack down from the padding; a click picks the row it falls on.
        assert_eq!(p.text_at(1).y, 20.0 + PADDING + 16.0 * LINE_SPACING);
        assert_eq!(p.hit(p.text_at(1) + Vec2::new(2.0, 2.0)), Some(1));
        assert_eq!(p.hit(Vec2::new(0.0, 0.0)), None);
        // The scene list: a heading, then every name, the shown one marked; the cursor wraps.
        let mut list = SceneList::new(vec!["pile_3d".into(), "cradle_3d".into()], 1);
        let l = list.lines();
        assert_eq!(l.len(), 3);
        assert!(l[2].0.starts_with("> 2") && l[2].0.ends_with("cradle_3d") && l[2].1 == CURRENT);
        assert!(l[1].0.ends_with("pile_3d") && l[1].1 == TEXT);
        list.move_cursor(1);
        assert_eq!(list.cursor, 0);
        list.move_cursor(-1);
        assert_eq!(list.cursor, 1);
        assert_eq!(
            (
                list.scene_of_row(0),
                list.scene_of_row(2),
                list.scene_of_row(3)
            ),
            (None, Some(1), None)
        );
        // Hung from the right, it ends at x.
        let r = TextPanel::new(lines, 16.0, &font, Anchor::Right, 500.0, 0.0);
        assert_eq!(r.rect.max.x, 500.0);
    }
}
