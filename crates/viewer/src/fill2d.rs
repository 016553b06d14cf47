//! Filled 2D shapes: triangles covering `{p : d(p) <= 0}` of any 2D field.
//!
//! kiss3d's 2D mode draws triangle meshes, and a shape's contour alone is not
//! enough: it may be non-convex or have holes (a gear, a ring), which a
//! polygon triangulator would have to untangle. Instead this samples the
//! field on a grid and fills each cell with the part of it that is inside
//! (filled marching squares): a cell's inside region, with crossings placed
//! by linear interpolation of the corner values, is always convex, so a fan
//! triangulates it. Runs of cells that are wholly inside are merged into one
//! rectangle per row, which keeps the triangle count near the boundary's
//! length rather than the area. The segments joining two crossings in a cell
//! are the outline, drawn on top so edges stay crisp.

use fathom_math::{Aabb, Real, Vector2};
use fathom_sdf::Sdf;

/// Most cells along one axis; finer requests are coarsened to this.
pub const MAX_CELLS_PER_AXIS: usize = 512;

/// A filled shape, in the shape's local frame (metres).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct FilledShape2 {
    /// Triangle corners.
    pub vertices: Vec<Vector2>,
    /// Counter-clockwise triangles indexing `vertices`.
    pub triangles: Vec<[u32; 3]>,
    /// Boundary segments (the zero contour), unordered.
    pub outline: Vec<[Vector2; 2]>,
}

impl FilledShape2 {
    /// Total area of the triangles, m².
    pub fn area(&self) -> Real {
        self.triangles
            .iter()
            .map(|t| {
                let [a, b, c] = t.map(|i| self.vertices[i as usize]);
                0.5 * (b - a).perp(&(c - a))
            })
            .sum()
    }

    /// Total length of the outline, m.
    pub fn outline_length(&self) -> Real {
        self.outline.iter().map(|[a, b]| (b - a).norm()).sum()
    }

    fn push_polygon(&mut self, poly: &[Vector2]) {
        if poly.len() < 3 {
            return;
        }
        let base = self.vertices.len() as u32;
        self.vertices.extend_from_slice(poly);
        for i in 1..poly.len() as u32 - 1 {
            self.triangles.push([base, base + i, base + i + 1]);
        }
    }
}

/// The grid of field samples over a region.
struct Samples<'a> {
    sdf: &'a dyn Sdf<2>,
    origin: Vector2,
    cell: Vector2,
    nx: usize,
    values: Vec<Real>,
}

impl<'a> Samples<'a> {
    fn new(sdf: &'a dyn Sdf<2>, region: &Aabb<2>, cell: Real) -> Self {
        let ext = region.extents();
        let count = |e: Real| ((e / cell).ceil() as usize).clamp(1, MAX_CELLS_PER_AXIS);
        let (nx, ny) = (count(ext.x), count(ext.y));
        let step = Vector2::new(ext.x / nx as Real, ext.y / ny as Real);
        let mut values = Vec::with_capacity((nx + 1) * (ny + 1));
        for j in 0..=ny {
            for i in 0..=nx {
                let p = region.min + Vector2::new(i as Real * step.x, j as Real * step.y);
                values.push(sdf.distance(&p));
            }
        }
        Self {
            sdf,
            origin: region.min,
            cell: step,
            nx,
            values,
        }
    }

    fn ny(&self) -> usize {
        self.values.len() / (self.nx + 1) - 1
    }

    fn point(&self, i: usize, j: usize) -> Vector2 {
        self.origin + Vector2::new(i as Real * self.cell.x, j as Real * self.cell.y)
    }

    fn value(&self, i: usize, j: usize) -> Real {
        self.values[j * (self.nx + 1) + i]
    }

    /// Corners of cell (i, j) counter-clockwise from its lower-left, with their values.
    fn corners(&self, i: usize, j: usize) -> [(Vector2, Real); 4] {
        [(i, j), (i + 1, j), (i + 1, j + 1), (i, j + 1)]
            .map(|(a, b)| (self.point(a, b), self.value(a, b)))
    }
}

/// Where the field crosses zero on the edge from `a` to `b` (their values of opposite sign).
fn crossing((pa, da): (Vector2, Real), (pb, db): (Vector2, Real)) -> Vector2 {
    let t = da / (da - db);
    pa + (pb - pa) * t.clamp(0.0, 1.0)
}

fn inside(d: Real) -> bool {
    d <= 0.0
}

/// Fills the inside of `sdf` within `region` (local frame, metres) on a grid of roughly
/// `cell`-sized squares (at most [`MAX_CELLS_PER_AXIS`] per axis). An empty or invalid
/// region, or a non-positive `cell`, gives an empty shape.
pub fn fill_sdf_2d(sdf: &dyn Sdf<2>, region: &Aabb<2>, cell: Real) -> FilledShape2 {
    let mut out = FilledShape2::default();
    let usable =
        region.is_valid() && cell.is_finite() && cell > 0.0 && region.extents().min() > 0.0;
    if !usable {
        return out;
    }
    let s = Samples::new(sdf, region, cell);
    for j in 0..s.ny() {
        let mut i = 0;
        while i < s.nx {
            let run = full_run(&s, i, j);
            if run > 0 {
                let (a, b) = (s.point(i, j), s.point(i + run, j + 1));
                out.push_polygon(&[a, Vector2::new(b.x, a.y), b, Vector2::new(a.x, b.y)]);
                i += run;
            } else {
                fill_cell(&s, i, j, &mut out);
                i += 1;
            }
        }
    }
    out
}

/// How many cells from (i, j) along the row are wholly inside.
fn full_run(s: &Samples, i: usize, j: usize) -> usize {
    (i..s.nx)
        .take_while(|&k| s.corners(k, j).iter().all(|c| inside(c.1)))
        .count()
}

/// Fills the inside part of one boundary (or empty) cell and records its outline.
fn fill_cell(s: &Samples, i: usize, j: usize, out: &mut FilledShape2) {
    let c = s.corners(i, j);
    let ins = c.map(|x| inside(x.1));
    let saddle = ins[0] == ins[2] && ins[1] == ins[3] && ins[0] != ins[1];
    if saddle {
        // The two inside corners are joined through the cell only when its centre is inside.
        let centre = (c[0].0 + c[2].0) * 0.5;
        if !inside(s.sdf.distance(&centre)) {
            for k in (0..4).filter(|&k| ins[k]) {
                let next = crossing(c[k], c[(k + 1) % 4]);
                let prev = crossing(c[(k + 3) % 4], c[k]);
                out.push_polygon(&[c[k].0, next, prev]);
                out.outline.push([next, prev]);
            }
            return;
        }
    }
    let mut poly: Vec<(Vector2, bool)> = Vec::with_capacity(6);
    for k in 0..4 {
        let n = (k + 1) % 4;
        if ins[k] {
            poly.push((c[k].0, false));
        }
        if ins[k] != ins[n] {
            poly.push((crossing(c[k], c[n]), true));
        }
    }
    let m = poly.len();
    for k in 0..m {
        let (a, b) = (poly[k], poly[(k + 1) % m]);
        if a.1 && b.1 && m >= 3 {
            out.outline.push([a.0, b.0]);
        }
    }
    out.push_polygon(&poly.iter().map(|p| p.0).collect::<Vec<_>>());
}

#[cfg(test)]
mod tests {
    use super::*;
    use fathom_sdf::{Ball, Cuboid, Shape2};
    use std::f32::consts::PI;

    fn region(h: Real) -> Aabb<2> {
        Aabb::new(Vector2::new(-h, -h), Vector2::new(h, h))
    }

    #[test]
    fn disc_area_and_perimeter_match_the_circle() {
        let r = 1.3;
        let ball = Ball::new(r).unwrap();
        let f = fill_sdf_2d(&ball, &region(1.5), 0.05);
        // Chords of a cell-sized polygon lose about (cell^2 / 12r) per unit length of
        // boundary: ~2.5e-3 of the area here; 1% is comfortably above it.
        assert!(
            (f.area() - PI * r * r).abs() < 0.01 * PI * r * r,
            "area {}",
            f.area()
        );
        assert!(
            (f.outline_length() - 2.0 * PI * r).abs() < 0.01 * 2.0 * PI * r,
            "len {}",
            f.outline_length()
        );
        // Every vertex lies inside the disc or on its boundary (within interpolation error).
        assert!(f.vertices.iter().all(|v| v.norm() <= r + 1e-3));
    }

    #[test]
    fn ring_with_a_hole_has_the_annulus_area() {
        let outer = Shape2::ball(1.0).unwrap();
        let inner = Shape2::ball(0.5).unwrap();
        let ring = outer.difference(inner).unwrap();
        let f = fill_sdf_2d(&ring, &region(1.2), 0.02);
        let exact = PI * (1.0 - 0.25);
        // As above: boundary chord error is well below 1% at 50 cells per radius.
        assert!(
            (f.area() - exact).abs() < 0.01 * exact,
            "area {} vs {exact}",
            f.area()
        );
        let exact_len = 2.0 * PI * 1.5;
        assert!((f.outline_length() - exact_len).abs() < 0.01 * exact_len);
    }

    #[test]
    fn grid_aligned_box_is_exact_and_cheap() {
        let b = Cuboid::new(Vector2::new(0.5, 0.25)).unwrap();
        let f = fill_sdf_2d(&b, &region(1.0), 0.125);
        // Edges fall on grid lines or are crossed linearly by an exact linear field:
        // only float rounding remains.
        assert!((f.area() - 0.5).abs() < 1e-4, "area {}", f.area());
        assert!((f.outline_length() - 3.0).abs() < 1e-4);
        // Interior rows are merged: far fewer triangles than 2 per inside cell (32 cells).
        assert!(f.triangles.len() < 64, "{} triangles", f.triangles.len());
    }

    #[test]
    fn triangles_are_counter_clockwise() {
        let ball = Ball::new(0.7).unwrap();
        let f = fill_sdf_2d(&ball, &region(1.0), 0.1);
        for t in &f.triangles {
            let [a, b, c] = t.map(|i| f.vertices[i as usize]);
            assert!((b - a).perp(&(c - a)) >= -1e-9);
        }
    }

    #[test]
    fn bad_regions_and_cells_give_nothing() {
        let ball = Ball::new(0.7).unwrap();
        assert_eq!(
            fill_sdf_2d(&ball, &Aabb::EMPTY, 0.1),
            FilledShape2::default()
        );
        assert_eq!(
            fill_sdf_2d(&ball, &region(1.0), 0.0),
            FilledShape2::default()
        );
        assert_eq!(
            fill_sdf_2d(&ball, &region(1.0), Real::NAN),
            FilledShape2::default()
        );
        // A shape outside the region fills nothing.
        let far = Aabb::new(Vector2::new(5.0, 5.0), Vector2::new(6.0, 6.0));
        assert!(fill_sdf_2d(&ball, &far, 0.1).triangles.is_empty());
    }

    #[test]
    fn cell_count_is_capped() {
        let ball = Ball::new(0.7).unwrap();
        let f = fill_sdf_2d(&ball, &region(1.0), 1e-6);
        // At the cap (512 cells per axis) the boundary has at most ~4 * 512 cells.
        assert!(f.outline.len() <= 4 * MAX_CELLS_PER_AXIS);
        assert!((f.area() - PI * 0.49).abs() < 0.01);
    }
}
