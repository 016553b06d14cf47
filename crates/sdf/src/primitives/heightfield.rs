//! Heightfields: terrain as a grid of heights, in both dimensions from one source.
//!
//! A [`Heightfield<D>`] holds rows of heights sampled at regular spacing: in 3D the rows run
//! along z and each row samples along x (y is up); in 2D there is one row, a height profile
//! over x. Between samples the surface is piecewise linear: a segment per cell in 2D, and in
//! 3D two triangles per cell split along the diagonal from `(x0, z1)` to `(x1, z0)` (the
//! split parry's `HeightField` makes by default, so the two describe the same surface). The
//! samples are centred on the local origin: x runs over `±(columns - 1) * spacing_x / 2`.
//!
//! The solid is the column under the surface down to [`HeightfieldScale::base_depth`] below
//! the lowest sample, so its box is finite (the viewer meshes it, the broadphase boxes it).
//!
//! # The distance
//!
//! The field is `max(box(p), t(p))`, both 1-Lipschitz, so it is 1-Lipschitz (the honest
//! constant the narrowphase's bound-split and the casts' march rely on):
//!
//! - `box` is the exact distance to the solid's bounding box;
//! - `t` is the signed distance to the surface extended past its edges by clamping (each
//!   border segment extruded outward, each corner height carried out as a quarter plane),
//!   negative below it, clamped to `±R` with `R` = [`EXACT_RADIUS_CELLS`] cells. The vertical
//!   gap to the surface bounds the distance from above, so only the cells and border pieces
//!   within that horizontal radius (at most `R`) are visited.
//!
//! Where it is exact: everywhere below the surface within `R` of it, and above the surface
//! (within `R`) wherever the nearest surface point is on the terrain itself rather than on its
//! extension past the edges: every contact on the terrain's top. Elsewhere (beyond `R`, off
//! the edges, under the base) it is a lower bound of the distance, never an over-estimate, so
//! the search and the casts stay conservative there.

use crate::error::{check_finite, check_finite_vec, check_positive, Result, SdfError};
use crate::{central_difference_gradient, Sdf, MAX_GRID_SAMPLES};
use fathom_math::{Aabb, Real, Vector, Vector3};
use serde::{Deserialize, Serialize};
use std::marker::PhantomData;

/// How far from the surface (in cells of the larger spacing) the distance is computed
/// exactly; farther away it is clamped to this (a lower bound, see the module docs). Two cells
/// keep a query near the surface to a handful of triangles.
pub const EXACT_RADIUS_CELLS: Real = 2.0;

/// Sizes of a heightfield: sample spacing and the depth of its solid base.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct HeightfieldScale {
    /// Distance between neighbouring samples along x, metres. Default 1.
    pub spacing_x: Real,
    /// Distance between neighbouring rows along z, metres (unused in 2D). Default 1.
    pub spacing_z: Real,
    /// How far the solid reaches below the lowest sample, metres. Default 1.
    pub base_depth: Real,
}

impl Default for HeightfieldScale {
    fn default() -> Self {
        Self {
            spacing_x: 1.0,
            spacing_z: 1.0,
            base_depth: 1.0,
        }
    }
}

/// What a heightfield is written as in a file: its rows and its scale.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HeightfieldData {
    /// Heights, metres: one row in 2D (along x), rows along z in 3D, each row along x.
    pub heights: Vec<Vec<Real>>,
    /// Spacing and base depth.
    #[serde(default)]
    pub scale: HeightfieldScale,
}

/// A heightfield in `D` dimensions (see the module docs). Built by [`Heightfield::new`], and
/// checked the same way when read from a file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "HeightfieldData", into = "HeightfieldData")]
pub struct Heightfield<const D: usize> {
    /// Heights, row after row (index `row * columns + column`).
    heights: Vec<Real>,
    /// Samples along x.
    columns: usize,
    /// Rows along z (1 in 2D).
    rows: usize,
    scale: HeightfieldScale,
    /// Lowest and highest sample, metres.
    low: Real,
    high: Real,
    dim: PhantomData<[(); D]>,
}

impl<const D: usize> TryFrom<HeightfieldData> for Heightfield<D> {
    type Error = SdfError;
    fn try_from(data: HeightfieldData) -> Result<Self> {
        Self::new(data.heights, data.scale)
    }
}

impl<const D: usize> From<Heightfield<D>> for HeightfieldData {
    fn from(h: Heightfield<D>) -> Self {
        Self {
            heights: h.heights.chunks(h.columns).map(<[Real]>::to_vec).collect(),
            scale: h.scale,
        }
    }
}

/// Checks the rows: how many (one in 2D, two or more in 3D), equal lengths of two or more,
/// finite heights and at most [`MAX_GRID_SAMPLES`] in all. Returns (columns, rows).
fn check_rows<const D: usize>(heights: &[Vec<Real>]) -> Result<(usize, usize)> {
    let rows = heights.len();
    if D == 2 && rows != 1 {
        return Err(SdfError::Invalid {
            field: "heights",
            reason: format!("a 2D heightfield is one row of heights, got {rows} rows"),
        });
    }
    if rows < 2 && D == 3 {
        return Err(SdfError::TooSmall {
            field: "heights",
            value: rows,
            min: 2,
        });
    }
    let columns = heights[0].len();
    if columns < 2 {
        return Err(SdfError::TooSmall {
            field: "heights",
            value: columns,
            min: 2,
        });
    }
    if let Some((i, row)) = heights.iter().enumerate().find(|(_, r)| r.len() != columns) {
        return Err(SdfError::Invalid {
            field: "heights",
            reason: format!(
                "row {i} has {} samples, row 0 has {columns}: rows must be equally long",
                row.len()
            ),
        });
    }
    if rows.saturating_mul(columns) > MAX_GRID_SAMPLES {
        return Err(SdfError::TooLarge {
            field: "heights",
            value: rows.saturating_mul(columns),
            max: MAX_GRID_SAMPLES,
        });
    }
    for h in heights.iter().flatten() {
        check_finite("heights", *h)?;
    }
    Ok((columns, rows))
}

impl<const D: usize> Heightfield<D> {
    /// A heightfield from rows of heights (metres) and its scale. In 2D `heights` is one row
    /// (along x); in 3D two or more rows along z, each along x, all equally long (two or more
    /// samples). Heights must be finite; spacings and base depth finite and positive.
    pub fn new(heights: Vec<Vec<Real>>, scale: HeightfieldScale) -> Result<Self> {
        let (columns, rows) = check_rows::<D>(&heights)?;
        check_positive("spacing_x", scale.spacing_x)?;
        if D == 3 {
            check_positive("spacing_z", scale.spacing_z)?;
        } else {
            check_finite("spacing_z", scale.spacing_z)?;
        }
        check_positive("base_depth", scale.base_depth)?;
        let heights: Vec<Real> = heights.into_iter().flatten().collect();
        let low = heights.iter().copied().fold(Real::INFINITY, Real::min);
        let high = heights.iter().copied().fold(Real::NEG_INFINITY, Real::max);
        // The box's size must be finite too (huge spacings or heights overflow it).
        let hf = Self {
            heights,
            columns,
            rows,
            scale,
            low,
            high,
            dim: PhantomData,
        };
        let b = hf.box3();
        check_finite_vec("scale", &(b.max - b.min))?;
        Ok(hf)
    }

    /// Checks the fields as [`Heightfield::new`] does.
    pub fn validate(&self) -> Result<()> {
        Self::new(HeightfieldData::from(self.clone()).heights, self.scale).map(drop)
    }

    /// Samples along x.
    pub fn columns(&self) -> usize {
        self.columns
    }

    /// Rows along z (1 in 2D).
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// The spacing and base depth.
    pub fn scale(&self) -> HeightfieldScale {
        self.scale
    }

    /// The height of sample `column` of row `row`, metres.
    pub fn height(&self, column: usize, row: usize) -> Real {
        self.heights[row * self.columns + column]
    }

    /// The x of column 0 and the z of row 0 (the samples are centred on the origin).
    fn origin(&self) -> (Real, Real) {
        let x0 = -0.5 * (self.columns - 1) as Real * self.scale.spacing_x;
        let z0 = -0.5 * (self.rows - 1) as Real * self.scale.spacing_z;
        (x0, z0)
    }

    /// Sample `(i, j)` as a 3D point.
    fn vertex(&self, i: usize, j: usize) -> Vector3 {
        let (x0, z0) = self.origin();
        Vector3::new(
            x0 + i as Real * self.scale.spacing_x,
            self.height(i, j),
            z0 + j as Real * self.scale.spacing_z,
        )
    }

    /// The solid's bounding box in 3D (zero thickness in z for one row).
    fn box3(&self) -> Aabb<3> {
        let (x0, z0) = self.origin();
        Aabb::new(
            Vector3::new(x0, self.low - self.scale.base_depth, z0),
            Vector3::new(-x0, self.high, -z0),
        )
    }

    /// The exact-distance radius `R`, metres.
    fn exact_radius(&self) -> Real {
        let z = if self.rows > 1 {
            self.scale.spacing_z
        } else {
            0.0
        };
        EXACT_RADIUS_CELLS * self.scale.spacing_x.max(z)
    }

    /// The surface's height at `(x, z)` (z ignored in 2D), metres: piecewise linear between
    /// samples, the nearest edge's height past the edges.
    pub fn height_at(&self, x: Real, z: Real) -> Real {
        let (x0, z0) = self.origin();
        let u = ((x - x0) / self.scale.spacing_x).clamp(0.0, (self.columns - 1) as Real);
        let i = (u.floor() as usize).min(self.columns - 2);
        let fu = u - i as Real;
        if self.rows == 1 {
            return self.height(i, 0) * (1.0 - fu) + self.height(i + 1, 0) * fu;
        }
        let v = ((z - z0) / self.scale.spacing_z).clamp(0.0, (self.rows - 1) as Real);
        let j = (v.floor() as usize).min(self.rows - 2);
        let fv = v - j as Real;
        let (h00, h10) = (self.height(i, j), self.height(i + 1, j));
        let (h01, h11) = (self.height(i, j + 1), self.height(i + 1, j + 1));
        // The diagonal runs from (x0, z1) to (x1, z0): below it (fu + fv <= 1) the triangle
        // (00, 01, 10), above it (01, 11, 10).
        if fu + fv <= 1.0 {
            h00 + fu * (h10 - h00) + fv * (h01 - h00)
        } else {
            h11 + (1.0 - fu) * (h01 - h11) + (1.0 - fv) * (h10 - h11)
        }
    }

    /// The signed, clamped distance `t` to the extended surface and the nearest point found
    /// (see the module docs), for a 3D point (z = 0 in 2D).
    fn surface_distance(&self, p: &Vector3) -> (Real, Vector3) {
        let gap = p.y - self.height_at(p.x, p.z);
        let big_r = self.exact_radius();
        let r = gap.abs().min(big_r);
        // The point straight above or below is on the extended surface: a first candidate.
        let mut best = Nearest {
            d2: r * r,
            point: Vector3::new(p.x, p.y - gap, p.z),
        };
        self.visit_cells(p, r, &mut best);
        self.visit_borders(p, r, &mut best);
        let sign = if gap >= 0.0 { 1.0 } else { -1.0 };
        (sign * best.d2.sqrt().min(big_r), best.point)
    }

    /// The cell index range a horizontal interval `[lo, hi]` covers along one axis.
    fn cell_range(lo: Real, hi: Real, start: Real, step: Real, samples: usize) -> (usize, usize) {
        let last = samples as isize - 2;
        let a = (((lo - start) / step).floor() as isize).max(0);
        let b = (((hi - start) / step).floor() as isize).min(last);
        if last < 0 || a > b {
            (1, 0)
        } else {
            (a as usize, b as usize)
        }
    }

    /// Offers `best` every triangle of every cell within horizontal radius `r` of `p`.
    fn visit_cells(&self, p: &Vector3, r: Real, best: &mut Nearest) {
        if self.rows < 2 {
            return;
        }
        let (x0, z0) = self.origin();
        let s = &self.scale;
        let (ia, ib) = Self::cell_range(p.x - r, p.x + r, x0, s.spacing_x, self.columns);
        let (ja, jb) = Self::cell_range(p.z - r, p.z + r, z0, s.spacing_z, self.rows);
        for j in ja..=jb {
            for i in ia..=ib {
                let (v00, v10) = (self.vertex(i, j), self.vertex(i + 1, j));
                let (v01, v11) = (self.vertex(i, j + 1), self.vertex(i + 1, j + 1));
                best.offer(p, closest_on_triangle(p, &v00, &v01, &v10));
                best.offer(p, closest_on_triangle(p, &v01, &v11, &v10));
            }
        }
    }

    /// Offers `best` the surface's extension past its four edges and corners, where the disc
    /// of radius `r` about `p` reaches past that edge.
    fn visit_borders(&self, p: &Vector3, r: Real, best: &mut Nearest) {
        let b = self.box3();
        let (last_i, last_j) = (self.columns - 1, self.rows - 1);
        let (x0, z0) = self.origin();
        let s = &self.scale;
        let (x_lo, x_hi) = (p.x - r <= b.min.x, p.x + r >= b.max.x);
        let (z_lo, z_hi) = (p.z - r <= b.min.z, p.z + r >= b.max.z);
        // Edges along z at x = min / max, extruded along -x / +x.
        if self.rows > 1 {
            let (ja, jb) = Self::cell_range(p.z - r, p.z + r, z0, s.spacing_z, self.rows);
            for (reach, i, out) in [(x_lo, 0, -1.0), (x_hi, last_i, 1.0)] {
                if reach {
                    for j in ja..=jb {
                        let (a, c) = (self.vertex(i, j), self.vertex(i, j + 1));
                        best.offer(p, closest_on_strip(p, &a, &c, &Vector3::x(), out));
                    }
                }
            }
        }
        // Edges along x at z = min / max, extruded along -z / +z.
        let (ia, ib) = Self::cell_range(p.x - r, p.x + r, x0, s.spacing_x, self.columns);
        for (reach, j, out) in [(z_lo, 0, -1.0), (z_hi, last_j, 1.0)] {
            if reach {
                for i in ia..=ib {
                    let (a, c) = (self.vertex(i, j), self.vertex(i + 1, j));
                    best.offer(p, closest_on_strip(p, &a, &c, &Vector3::z(), out));
                }
            }
        }
        // Corners: quarter planes at the corner's height.
        for (rx, i, ox) in [(x_lo, 0, -1.0), (x_hi, last_i, 1.0)] {
            for (rz, j, oz) in [(z_lo, 0, -1.0), (z_hi, last_j, 1.0)] {
                if rx && rz {
                    let c = self.vertex(i, j);
                    let mut q = Vector3::new(p.x, c.y, p.z);
                    q.x = if (p.x - c.x) * ox > 0.0 { p.x } else { c.x };
                    q.z = if (p.z - c.z) * oz > 0.0 { p.z } else { c.z };
                    best.offer(p, q);
                }
            }
        }
    }

    /// The field and its gradient at a 3D point (z = 0 in 2D).
    fn eval3(&self, p: &Vector3) -> (Real, Option<Vector3>) {
        let (t, near) = self.surface_distance(p);
        let (b, b_grad) = box_distance(&self.box3(), p, self.rows > 1);
        if b > t {
            return (b, Some(b_grad));
        }
        let w = p - near;
        let len = w.norm();
        // On the surface the direction is undefined: the caller differences the field.
        let g = (len > 1e-6).then(|| w * (t.signum() / len));
        (t, g)
    }
}

/// The nearest point found so far, by squared distance.
struct Nearest {
    d2: Real,
    point: Vector3,
}

impl Nearest {
    fn offer(&mut self, p: &Vector3, q: Vector3) {
        let d2 = (p - q).norm_squared();
        if d2 < self.d2 {
            (self.d2, self.point) = (d2, q);
        }
    }
}

/// The nearest point to `p` on the half-strip swept by segment `a`-`c` along `out * axis`.
/// The segment is perpendicular to the axis (it lies in a plane of constant x or z), so the
/// strip is a rectangle in the orthogonal frame (segment, axis) and clamping each coordinate
/// finds its nearest point.
fn closest_on_strip(p: &Vector3, a: &Vector3, c: &Vector3, axis: &Vector3, out: Real) -> Vector3 {
    let e = c - a;
    let len2 = e.norm_squared();
    let s = if len2 > 0.0 {
        ((p - a).dot(&e) / len2).clamp(0.0, 1.0)
    } else {
        0.0
    };
    let dir = axis * out;
    let t = (p - a).dot(&dir).max(0.0);
    a + e * s + dir * t
}

/// The nearest point to `p` on triangle `abc` (Ericson, Real-Time Collision Detection 5.1.5).
pub(crate) fn closest_on_triangle(p: &Vector3, a: &Vector3, b: &Vector3, c: &Vector3) -> Vector3 {
    let (ab, ac, ap) = (b - a, c - a, p - a);
    let (d1, d2) = (ab.dot(&ap), ac.dot(&ap));
    if d1 <= 0.0 && d2 <= 0.0 {
        return *a;
    }
    let bp = p - b;
    let (d3, d4) = (ab.dot(&bp), ac.dot(&bp));
    if d3 >= 0.0 && d4 <= d3 {
        return *b;
    }
    let vc = d1 * d4 - d3 * d2;
    if vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0 {
        return a + ab * (d1 / (d1 - d3));
    }
    let cp = p - c;
    let (d5, d6) = (ab.dot(&cp), ac.dot(&cp));
    if d6 >= 0.0 && d5 <= d6 {
        return *c;
    }
    let vb = d5 * d2 - d1 * d6;
    if vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0 {
        return a + ac * (d2 / (d2 - d6));
    }
    let va = d3 * d6 - d5 * d4;
    if va <= 0.0 && (d4 - d3) >= 0.0 && (d5 - d6) >= 0.0 {
        return b + (c - b) * ((d4 - d3) / ((d4 - d3) + (d5 - d6)));
    }
    let denom = 1.0 / (va + vb + vc);
    a + ab * (vb * denom) + ac * (vc * denom)
}

/// Exact signed distance to a box and its gradient; with `use_z` false the z axis is ignored
/// (a one-row heightfield's box has no thickness in z: the 2D box, embedded).
fn box_distance(b: &Aabb<3>, p: &Vector3, use_z: bool) -> (Real, Vector3) {
    let c = b.center();
    let h = b.half_extents();
    let mut q = (p - c).abs() - h;
    if !use_z {
        q.z = Real::NEG_INFINITY;
    }
    let outside = q.map(|x| x.max(0.0));
    let out_len = outside.norm();
    let sign = (p - c).map(|x| if x < 0.0 { -1.0 } else { 1.0 });
    if out_len > 0.0 {
        (out_len, outside.component_mul(&sign) / out_len)
    } else {
        let axis = q.imax();
        let mut g = Vector3::zeros();
        g[axis] = sign[axis];
        (q[axis], g)
    }
}

/// `p` as a 3D point: (x, y) in 2D lies in the plane z = 0.
fn to3<const D: usize>(p: &Vector<D>) -> Vector3 {
    Vector3::new(p[0], p[1], if D == 3 { p[2] } else { 0.0 })
}

impl<const D: usize> Sdf<D> for Heightfield<D> {
    fn distance(&self, p: &Vector<D>) -> Real {
        self.eval3(&to3(p)).0
    }
    fn bounds(&self) -> Aabb<D> {
        let b = self.box3();
        Aabb::new(
            Vector::<D>::from_fn(|i, _| b.min[i]),
            Vector::<D>::from_fn(|i, _| b.max[i]),
        )
    }
    fn gradient(&self, p: &Vector<D>) -> Vector<D> {
        match self.eval3(&to3(p)).1 {
            Some(g) => Vector::<D>::from_fn(|i, _| g[i]),
            None => central_difference_gradient(self, p),
        }
    }
}
