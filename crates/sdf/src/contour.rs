//! Any 2D field to contour polylines, by marching squares.
//!
//! The field is sampled on a grid of square cells covering its bounds plus two
//! cells of padding. Each grid edge whose ends differ in sign (negative is
//! inside) gets one crossing point, placed by linear interpolation; each cell
//! joins its crossings in pairs, with the inside on the left, so closed loops
//! run counter-clockwise around solids and clockwise around holes. A saddle
//! cell (opposite corners inside) is resolved by the sign of its centre (the
//! mean of the corners). Segments are then chained through their shared grid
//! edges into polylines; a closed loop repeats its first point at the end.
//! The output is deterministic: loops are ordered by their first cell.

use crate::error::{check_positive, Result};
use crate::grid::{check_region, BakedGrid};
use crate::Sdf;
use fathom_math::{Real, Vector2};

/// Cells of padding around the bounds when contouring.
const CONTOUR_PADDING_CELLS: Real = 2.0;

/// The zero contour of `sdf` on cells of `cell` metres: polylines in the local frame.
///
/// Returns no polylines for a shape with empty bounds. Errors as [`crate::mesh_sdf`].
pub fn contour_sdf(sdf: &(impl Sdf<2> + ?Sized), cell: Real) -> Result<Vec<Vec<Vector2>>> {
    check_positive("cell", cell)?;
    let bounds = sdf.bounds();
    if bounds.is_empty() {
        return Ok(Vec::new());
    }
    check_region("bounds", &bounds)?;
    let grid = BakedGrid::bake(sdf, &bounds.loosened(CONTOUR_PADDING_CELLS * cell), cell)?;
    Ok(contour_grid(&grid))
}

/// The id of a grid edge: `2 * sample + axis`, for the edge from `sample` along `axis`.
type EdgeId = usize;

/// A directed contour segment from the crossing on one edge to the crossing on another.
#[derive(Clone, Copy)]
struct Piece {
    from: EdgeId,
    to: EdgeId,
}

/// The zero contour of a baked 2D grid's samples.
pub fn contour_grid(grid: &BakedGrid<2>) -> Vec<Vec<Vector2>> {
    let (nx, ny) = (grid.dims()[0], grid.dims()[1]);
    let v = grid.values();
    let inside = |i: usize| v[i] < 0.0;
    let mut pieces = Vec::new();
    for j in 0..ny - 1 {
        for i in 0..nx - 1 {
            cell_pieces(v, nx, i, j, &inside, &mut pieces);
        }
    }
    chain(grid, &pieces)
}

/// The contour pieces of cell `(i, j)`, inside on the left.
fn cell_pieces(
    v: &[f32],
    nx: usize,
    i: usize,
    j: usize,
    inside: &impl Fn(usize) -> bool,
    out: &mut Vec<Piece>,
) {
    // Corners counter-clockwise from the lowest, and the edge leaving each (to the next corner).
    let s = j * nx + i;
    let corners = [s, s + 1, s + nx + 1, s + nx];
    let edges = [2 * s, 2 * (s + 1) + 1, 2 * (s + nx), 2 * s + 1];
    // Crossings in counter-clockwise order; `true` when the walk goes from inside to outside.
    let mut crossings: Vec<(EdgeId, bool)> = Vec::with_capacity(4);
    for k in 0..4 {
        let (a, b) = (inside(corners[k]), inside(corners[(k + 1) % 4]));
        if a != b {
            crossings.push((edges[k], a));
        }
    }
    let n = crossings.len();
    if n == 0 {
        return;
    }
    // A saddle with its centre outside joins each inside corner's two crossings (cutting off the
    // inside corners); otherwise each outward crossing joins the next one counter-clockwise.
    let centre_inside = corners.iter().map(|&c| v[c]).sum::<f32>() < 0.0;
    let step = if n == 4 && !centre_inside { n - 1 } else { 1 };
    for (k, &(edge, outward)) in crossings.iter().enumerate() {
        if outward {
            out.push(Piece {
                from: edge,
                to: crossings[(k + step) % n].0,
            });
        }
    }
}

/// The crossing point on grid edge `e`, metres, local frame.
fn crossing(grid: &BakedGrid<2>, e: EdgeId) -> Vector2 {
    let nx = grid.dims()[0];
    let (s, axis) = (e / 2, e % 2);
    let t = if axis == 0 { s + 1 } else { s + nx };
    let (va, vb) = (grid.values()[s], grid.values()[t]);
    let f = (va / (va - vb)).clamp(0.0, 1.0);
    let pa = grid.origin() + Vector2::new((s % nx) as Real, (s / nx) as Real) * grid.cell();
    let mut dir = Vector2::zeros();
    dir[axis] = grid.cell();
    pa + dir * f
}

/// Chains pieces through shared edges into polylines (open chains first from their starts,
/// then closed loops), in order of their first piece.
fn chain(grid: &BakedGrid<2>, pieces: &[Piece]) -> Vec<Vec<Vector2>> {
    // Each edge starts at most one piece and ends at most one (the two cells sharing it walk
    // it in opposite directions).
    let mut starting: Vec<(EdgeId, usize)> = pieces
        .iter()
        .enumerate()
        .map(|(k, p)| (p.from, k))
        .collect();
    starting.sort_unstable();
    let next_piece = |e: EdgeId| {
        starting
            .binary_search_by_key(&e, |x| x.0)
            .ok()
            .map(|i| starting[i].1)
    };
    let mut ends: Vec<EdgeId> = pieces.iter().map(|p| p.to).collect();
    ends.sort_unstable();
    let mut used = vec![false; pieces.len()];
    let mut lines = Vec::new();
    let open_starts = (0..pieces.len()).filter(|&k| ends.binary_search(&pieces[k].from).is_err());
    let order: Vec<usize> = open_starts.chain(0..pieces.len()).collect();
    for k in order {
        if used[k] {
            continue;
        }
        let mut line = vec![crossing(grid, pieces[k].from)];
        let mut cur = Some(k);
        while let Some(c) = cur.filter(|&c| !used[c]) {
            used[c] = true;
            line.push(crossing(grid, pieces[c].to));
            cur = next_piece(pieces[c].to);
        }
        lines.push(line);
    }
    lines
}
