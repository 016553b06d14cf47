//! The comparison as a markdown table and as a log-log plot of time against triangle count.
//!
//! The plot draws its lines with plotters' bitmap backend and its text with `ab_glyph` and a
//! font compiled into the program (Work Sans, `assets/fonts`), so it renders the same on a
//! machine without system fonts. (plotters' own text needs system fonts, or a registered font
//! through a feature that would also apply to criterion's plots, which register none.)

use super::{CompareError, Query, Row};
use ab_glyph::{point, Font, FontRef, PxScale, ScaleFont};
use plotters::prelude::*;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;

/// Work Sans Regular (SIL Open Font License 1.1, see `assets/fonts/README.md`).
const FONT: &[u8] = include_bytes!("../../assets/fonts/WorkSans-Regular.ttf");

/// A time in nanoseconds as microseconds with a sensible number of digits.
fn micros(ns: f64) -> String {
    let us = ns / 1000.0;
    if us >= 100.0 {
        format!("{us:.0}")
    } else if us >= 1.0 {
        format!("{us:.1}")
    } else {
        format!("{us:.2}")
    }
}

fn opt_len(v: Option<f32>) -> String {
    v.map_or("–".into(), |x| format!("{x:.4}"))
}

fn opt_pct(v: Option<f32>) -> String {
    v.map_or("–".into(), |x| format!("{:.2}%", 100.0 * x))
}

fn opt_count(v: Option<usize>) -> String {
    v.map_or("–".into(), |x| x.to_string())
}

/// An intersection answer, marked when it disagrees with the expected one.
fn hit(answer: Option<bool>, expected: Option<bool>) -> String {
    let Some(a) = answer else {
        return "–".into();
    };
    let word = if a { "hit" } else { "miss" };
    match expected {
        Some(e) if e != a => format!("**{word} (wrong)**"),
        _ => word.into(),
    }
}

/// The rows as a markdown table: pair, pose, triangles, query, both times (µs), the ratio
/// mesh/SDF, both depths (metres; hit/miss for the intersection test), both errors (percent of
/// the smaller shape's bounding radius) and both sides' contact points.
pub fn markdown_table(rows: &[Row]) -> String {
    let mut out = format!(
        "Times: medians per call of {}, in batches; parry's contact manifolds keep their \
         workspace between calls (one per pair and pose), as a simulation would.\n\n",
        super::CLOCK
    );
    out.push_str(
        "| pair | pose | triangles | query | SDF µs | mesh µs | mesh/SDF | SDF depth | \
         mesh depth | SDF error | mesh error | SDF points | mesh points |\n\
         |---|---|--:|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|\n",
    );
    for r in rows {
        let (sdf_depth, mesh_depth) = if r.query == Query::Intersection.name() {
            (
                hit(r.sdf_intersects, r.expected_intersects),
                hit(r.mesh_intersects, r.expected_intersects),
            )
        } else {
            (opt_len(r.sdf_depth), opt_len(r.mesh_depth))
        };
        let budget = if r.sdf_hit_budget { " (cap)" } else { "" };
        // Writing to a String cannot fail.
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {}{} | {} | {:.1} | {} | {} | {} | {} | {} | {} |",
            r.pair,
            r.pose,
            r.triangles,
            r.query,
            micros(r.sdf_ns),
            budget,
            micros(r.mesh_ns),
            r.ratio,
            sdf_depth,
            mesh_depth,
            opt_pct(r.sdf_error),
            opt_pct(r.mesh_error),
            opt_count(r.sdf_points),
            opt_count(r.mesh_points),
        );
    }
    out
}

/// Points of a plotted series: `(triangles target, sdf_ns, mesh_ns)`.
type Series = Vec<(f64, f64, f64)>;

/// The geometric mean of the times of `query` rows of 3D pairs per triangle target:
/// `(target, sdf_ns, mesh_ns)`, by increasing target.
fn series(rows: &[Row], query: Query) -> Series {
    let mut groups: BTreeMap<usize, (f64, f64, usize)> = BTreeMap::new();
    for r in rows
        .iter()
        .filter(|r| r.dimension == 3 && r.query == query.name())
    {
        let g = groups.entry(r.target).or_default();
        g.0 += r.sdf_ns.max(1.0).ln();
        g.1 += r.mesh_ns.max(1.0).ln();
        g.2 += 1;
    }
    groups
        .into_iter()
        .map(|(t, (s, m, n))| (t as f64, (s / n as f64).exp(), (m / n as f64).exp()))
        .collect()
}

/// Plot size, pixels.
const WIDTH: u32 = 1000;
const HEIGHT: u32 = 640;
/// Plotting area margins, pixels: room for the title, tick labels and axis names.
const MARGIN_LEFT: u32 = 90;
const MARGIN_RIGHT: u32 = 30;
const MARGIN_TOP: u32 = 60;
const MARGIN_BOTTOM: u32 = 60;

/// Draws time per query against triangles per shape, log-log, for both sides of the contacts,
/// penetration and distance queries (geometric means over the 3D pairs and placements), as a
/// PNG of 1000 x 640 pixels.
pub fn draw_plot(rows: &[Row], path: &Path) -> Result<(), CompareError> {
    let font = FontRef::try_from_slice(FONT)
        .map_err(|_| CompareError::Plot("the embedded font is not valid".into()))?;
    let mut buf = vec![255u8; (WIDTH * HEIGHT * 3) as usize];
    let texts = draw_lines(rows, &mut buf).map_err(|e| CompareError::Plot(e.to_string()))?;
    let mut canvas = Canvas {
        buf: &mut buf,
        font: &font,
    };
    for t in &texts {
        canvas.text(t);
    }
    image::save_buffer(path, &buf, WIDTH, HEIGHT, image::ExtendedColorType::Rgb8).map_err(|e| {
        CompareError::Io {
            path: path.display().to_string(),
            message: e.to_string(),
        }
    })
}

/// Where a label's anchor point sits on the label.
#[derive(Clone, Copy)]
enum Anchor {
    Left,
    Centre,
    Right,
}

/// A label to draw: baseline-left/centre/right at `(x, y)` pixels.
struct Label {
    x: f32,
    y: f32,
    size: f32,
    anchor: Anchor,
    text: String,
}

fn label(x: i32, y: i32, size: f32, anchor: Anchor, text: impl Into<String>) -> Label {
    Label {
        x: x as f32,
        y: y as f32,
        size,
        anchor,
        text: text.into(),
    }
}

/// An RGB buffer of the plot's size and the font to write on it.
struct Canvas<'a> {
    buf: &'a mut [u8],
    font: &'a FontRef<'static>,
}

impl Canvas<'_> {
    /// Draws `l` in black, antialiased.
    fn text(&mut self, l: &Label) {
        let scaled = self.font.as_scaled(PxScale::from(l.size));
        let width: f32 = l
            .text
            .chars()
            .map(|c| scaled.h_advance(scaled.glyph_id(c)))
            .sum();
        let mut caret = match l.anchor {
            Anchor::Left => l.x,
            Anchor::Centre => l.x - width / 2.0,
            Anchor::Right => l.x - width,
        };
        for c in l.text.chars() {
            let id = scaled.glyph_id(c);
            let glyph = id.with_scale_and_position(l.size, point(caret, l.y));
            caret += scaled.h_advance(id);
            let Some(outline) = self.font.outline_glyph(glyph) else {
                continue;
            };
            let b = outline.px_bounds();
            outline.draw(|gx, gy, coverage| {
                let (px, py) = (b.min.x as i64 + gx as i64, b.min.y as i64 + gy as i64);
                if px < 0 || py < 0 || px >= WIDTH as i64 || py >= HEIGHT as i64 {
                    return;
                }
                let i = 3 * (py as usize * WIDTH as usize + px as usize);
                for v in &mut self.buf[i..i + 3] {
                    *v = (*v as f32 * (1.0 - coverage.clamp(0.0, 1.0))) as u8;
                }
            });
        }
    }
}

/// Powers of ten from below `lo` to above `hi`.
fn decades(lo: f64, hi: f64) -> Vec<f64> {
    let (a, b) = (lo.log10().floor() as i32, hi.log10().ceil() as i32);
    (a..=b).map(|e| 10f64.powi(e)).collect()
}

fn decade_label(v: f64) -> String {
    if v >= 1000.0 {
        format!("{}k", v / 1000.0)
    } else {
        format!("{v}")
    }
}

type PlotResult<T> = Result<T, Box<dyn std::error::Error>>;

/// Draws axes, grid, series and legend marks into `buf`; returns the labels to write on it.
fn draw_lines(rows: &[Row], buf: &mut [u8]) -> PlotResult<Vec<Label>> {
    let queries = [Query::Contacts, Query::Penetration, Query::Distance];
    let all: Vec<(Query, Series)> = queries.iter().map(|&q| (q, series(rows, q))).collect();
    let (mut x0, mut x1, mut y0, mut y1) = (f64::MAX, f64::MIN, f64::MAX, f64::MIN);
    for &(t, s, m) in all.iter().flat_map(|(_, s)| s.iter()) {
        x0 = x0.min(t);
        x1 = x1.max(t);
        y0 = y0.min(s.min(m) / 1000.0);
        y1 = y1.max(s.max(m) / 1000.0);
    }
    if x0 > x1 {
        return Err("no 3D rows to plot".into());
    }
    let (x_range, y_range) = ((x0 * 0.7, x1 * 1.4), (y0 * 0.5, y1 * 2.0));
    let root = BitMapBackend::with_buffer(buf, (WIDTH, HEIGHT)).into_drawing_area();
    let mut chart = ChartBuilder::on(&root)
        .margin_left(MARGIN_LEFT)
        .margin_right(MARGIN_RIGHT)
        .margin_top(MARGIN_TOP)
        .margin_bottom(MARGIN_BOTTOM)
        .build_cartesian_2d(
            (x_range.0..x_range.1).log_scale(),
            (y_range.0..y_range.1).log_scale(),
        )?;
    let mut labels = vec![label(
        (WIDTH / 2) as i32,
        36,
        24.0,
        Anchor::Centre,
        "SDF (Fathom) vs triangle meshes (parry): time per query, 3D pairs",
    )];
    let grey = RGBColor(215, 215, 215);
    for x in decades(x_range.0, x_range.1) {
        if x < x_range.0 || x > x_range.1 {
            continue;
        }
        chart.draw_series(LineSeries::new([(x, y_range.0), (x, y_range.1)], grey))?;
        let (px, py) = chart.backend_coord(&(x, y_range.0));
        labels.push(label(px, py + 22, 16.0, Anchor::Centre, decade_label(x)));
    }
    for y in decades(y_range.0, y_range.1) {
        if y < y_range.0 || y > y_range.1 {
            continue;
        }
        chart.draw_series(LineSeries::new([(x_range.0, y), (x_range.1, y)], grey))?;
        let (px, py) = chart.backend_coord(&(x_range.0, y));
        labels.push(label(px - 8, py + 5, 16.0, Anchor::Right, decade_label(y)));
    }
    let (left, bottom) = chart.backend_coord(&(x_range.0, y_range.0));
    let (right, top) = chart.backend_coord(&(x_range.1, y_range.1));
    root.draw(&Rectangle::new([(left, top), (right, bottom)], BLACK))?;
    labels.push(label(
        (left + right) / 2,
        bottom + 48,
        17.0,
        Anchor::Centre,
        "triangles per shape (log)",
    ));
    labels.push(label(
        left,
        top - 8,
        17.0,
        Anchor::Left,
        "µs per query (log)",
    ));
    let colours = [
        RGBColor(200, 60, 40),
        RGBColor(40, 110, 200),
        RGBColor(40, 150, 70),
    ];
    for (k, ((query, s), colour)) in all.iter().zip(colours).enumerate() {
        let mesh: Vec<(f64, f64)> = s.iter().map(|&(t, _, m)| (t, m / 1000.0)).collect();
        let sdf: Vec<(f64, f64)> = s.iter().map(|&(t, v, _)| (t, v / 1000.0)).collect();
        let solid = colour.stroke_width(3);
        let thin = colour.stroke_width(2);
        chart.draw_series(LineSeries::new(mesh.clone(), solid))?;
        chart.draw_series(mesh.iter().map(|&p| Cross::new(p, 6, solid)))?;
        chart.draw_series(DashedLineSeries::new(sdf.clone(), 8, 5, thin))?;
        chart.draw_series(sdf.iter().map(|&p| Circle::new(p, 5, colour.filled())))?;
        // Legend: two rows per query, top left of the plotting area.
        let (lx, ly) = (left + 16, top + 22 + 44 * k as i32);
        root.draw(&PathElement::new(vec![(lx, ly), (lx + 30, ly)], solid))?;
        root.draw(&Cross::new((lx + 15, ly), 6, solid))?;
        for d in 0..3 {
            let x = lx + 11 * d;
            root.draw(&PathElement::new(
                vec![(x, ly + 20), (x + 6, ly + 20)],
                thin,
            ))?;
        }
        root.draw(&Circle::new((lx + 15, ly + 20), 5, colour.filled()))?;
        let name = query.name();
        labels.push(label(
            lx + 40,
            ly + 5,
            15.0,
            Anchor::Left,
            format!("{name}: mesh (parry)"),
        ));
        labels.push(label(
            lx + 40,
            ly + 25,
            15.0,
            Anchor::Left,
            format!("{name}: SDF (Fathom)"),
        ));
    }
    root.present()?;
    Ok(labels)
}
