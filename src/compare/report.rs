//! The comparison as a markdown table and as a log-log plot of time against triangle count.
//!
//! The plot draws text with plotters' `ab_glyph` backend and a font compiled into the program
//! (Work Sans, `assets/fonts`), so it renders the same on a machine without system fonts.

use super::{CompareError, Query, Row};
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
    let mut out = String::from(
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

/// The geometric mean of the times of `query` rows of 3D pairs per triangle target:
/// `(target, sdf_ns, mesh_ns)`, by increasing target.
fn series(rows: &[Row], query: Query) -> Vec<(f64, f64, f64)> {
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

/// Draws time per query against triangles per shape, log-log, for both sides of the contacts,
/// penetration and distance queries (geometric means over the 3D pairs and placements), as a
/// PNG of 1000 x 640 pixels.
pub fn draw_plot(rows: &[Row], path: &Path) -> Result<(), CompareError> {
    plot_inner(rows, path).map_err(|e| CompareError::Plot(e.to_string()))
}

type PlotResult = Result<(), Box<dyn std::error::Error>>;

fn plot_inner(rows: &[Row], path: &Path) -> PlotResult {
    // Registering the same font again replaces it: harmless.
    plotters::style::register_font("sans-serif", FontStyle::Normal, FONT)
        .map_err(|_| "the embedded font is not a valid TrueType font")?;
    let queries = [Query::Contacts, Query::Penetration, Query::Distance];
    let all: Vec<(Query, Vec<(f64, f64, f64)>)> =
        queries.iter().map(|&q| (q, series(rows, q))).collect();
    let points = all.iter().flat_map(|(_, s)| s.iter());
    let (mut x0, mut x1, mut y0, mut y1) = (f64::MAX, f64::MIN, f64::MAX, f64::MIN);
    for &(t, s, m) in points {
        x0 = x0.min(t);
        x1 = x1.max(t);
        y0 = y0.min(s.min(m) / 1000.0);
        y1 = y1.max(s.max(m) / 1000.0);
    }
    if x0 > x1 {
        return Err("no 3D rows to plot".into());
    }
    let root = BitMapBackend::new(path, (1000, 640)).into_drawing_area();
    root.fill(&WHITE)?;
    let mut chart = ChartBuilder::on(&root)
        .caption(
            "SDF (Fathom) vs triangle meshes (parry): time per query",
            ("sans-serif", 26),
        )
        .margin(16)
        .x_label_area_size(50)
        .y_label_area_size(70)
        .build_cartesian_2d(
            (x0 * 0.8..x1 * 1.25).log_scale(),
            (y0 * 0.5..y1 * 2.0).log_scale(),
        )?;
    chart
        .configure_mesh()
        .x_desc("triangles per shape")
        .x_label_formatter(&|x| format!("{x:.0}"))
        .y_label_formatter(&|y| format!("{y}"))
        .y_desc("time per query (µs)")
        .label_style(("sans-serif", 16))
        .draw()?;
    let colours = [
        RGBColor(200, 60, 40),
        RGBColor(40, 110, 200),
        RGBColor(40, 150, 70),
    ];
    for ((query, s), colour) in all.iter().zip(colours) {
        let mesh: Vec<(f64, f64)> = s.iter().map(|&(t, _, m)| (t, m / 1000.0)).collect();
        let sdf: Vec<(f64, f64)> = s.iter().map(|&(t, v, _)| (t, v / 1000.0)).collect();
        let solid = colour.stroke_width(3);
        chart
            .draw_series(LineSeries::new(mesh.clone(), solid))?
            .label(format!("{} — mesh (parry)", query.name()))
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 24, y)], solid));
        chart.draw_series(mesh.iter().map(|&p| Cross::new(p, 6, solid)))?;
        let thin = colour.stroke_width(2);
        chart
            .draw_series(DashedLineSeries::new(sdf.clone(), 8, 5, thin))?
            .label(format!("{} — SDF (Fathom)", query.name()))
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 24, y)], thin));
        chart.draw_series(sdf.iter().map(|&p| Circle::new(p, 5, colour.filled())))?;
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperLeft)
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .label_font(("sans-serif", 16))
        .draw()?;
    root.present()?;
    Ok(())
}
