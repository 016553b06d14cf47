//! Edited colliders (run-time carves and additions, [`fathom_sdf::Edited`]) drawn in
//! chunks, so that an edit re-meshes only the chunks its reach touches.
//!
//! The drawn region of the shape is cut into a lattice of equal chunks (at most
//! [`MAX_CHUNKS_ACROSS`] along an axis, [`MAX_CHUNKS`] in all). A chunk no edit reaches is
//! drawn from the base shape: an exact box where the base is a box, else the field
//! meshed at the shape's usual cell. A chunk an edit reaches is meshed at a fine cell
//! ([`FINE_CELLS`] across a chunk) so that a crater much smaller than the terrain shows.
//! Each chunk's piece is meshed over the chunk's box only (its mesh reaches a cell or two
//! past it, so neighbours overlap instead of leaving seams), on a lattice aligned across
//! chunks of the same cell, so overlapping pieces of equal cells coincide.
//!
//! The field evaluations of an edit are those of the chunks it reaches, whatever the size
//! of the shape; the pieces are then put together into one mesh, one draw call.

use fathom_math::{Aabb, Dim, Real, Space, Vector};
use fathom_sdf::{Edited, Sdf, Shape, ShapeKind};

/// Most chunks along one axis.
pub const MAX_CHUNKS_ACROSS: Real = 64.0;
/// Most chunks in all (bounds the pieces of a compact shape).
pub const MAX_CHUNKS: Real = 4096.0;
/// Cells across a chunk an edit reaches.
pub const FINE_CELLS: Real = 48.0;
/// Cells of overlap a piece's mesh may reach past its chunk (the mesher's padding).
const PIECE_REACH_CELLS: Real = 2.0;

/// What to draw for one chunk.
pub enum Piece<'a, const D: usize>
where
    Space<D>: Dim<D>,
{
    /// A solid box (the base box cut to the chunk), drawn exactly.
    Solid(Aabb<D>),
    /// The field over `region`, sampled on `cell` cells starting at `region.min`.
    Field {
        /// The shape's field (with the edits), local frame.
        field: &'a dyn Sdf<D>,
        /// The chunk's box.
        region: Aabb<D>,
        /// The sampling cell, metres (a whole fraction of the chunk's edge).
        cell: Real,
    },
}

/// A field read over a window: its distance, with bounds cut to the window (so a mesher
/// that samples its bounds samples only there).
pub struct Windowed<'a, const D: usize> {
    /// The field.
    pub field: &'a dyn Sdf<D>,
    /// The window, local frame.
    pub region: Aabb<D>,
}

impl<const D: usize> Sdf<D> for Windowed<'_, D>
where
    Space<D>: Dim<D>,
{
    fn distance(&self, p: &Vector<D>) -> Real {
        self.field.distance(p)
    }
    fn bounds(&self) -> Aabb<D> {
        self.field
            .bounds()
            .intersection(&self.region)
            .unwrap_or(Aabb::EMPTY)
    }
    fn lipschitz(&self) -> Real {
        self.field.lipschitz()
    }
}

/// An edited shape's pieces, one per chunk (see the module docs).
pub struct Chunked<const D: usize, M>
where
    Space<D>: Dim<D>,
{
    region: Aabb<D>,
    edge: Real,
    counts: [usize; D],
    base_cell: Real,
    pieces: Vec<Option<M>>,
    fine: Vec<bool>,
    base: Shape<D>,
    edits_seen: usize,
}

impl<const D: usize, M> Chunked<D, M>
where
    Space<D>: Dim<D>,
{
    /// Chunks `edited` over `drawable` (the shape as drawn: itself when bounded, else cut
    /// to the view's clip box; see [`crate::meshing::drawable`]), meshing every chunk with
    /// `mesh`; untouched chunks use cells of about `base_cell` metres. `None` when the
    /// drawable has no finite box.
    pub fn new(
        drawable: &Shape<D>,
        edited: &Edited<D>,
        base_cell: Real,
        mesh: &mut impl FnMut(Piece<'_, D>) -> Option<M>,
    ) -> Option<Self> {
        let region = drawable.bounds();
        if !(region.is_valid() && region.extents().max().is_finite()) {
            return None;
        }
        let ext = region.extents();
        let volume: Real = ext.iter().map(|e| e.max(Real::EPSILON)).product();
        let mut edge = (ext.max() / MAX_CHUNKS_ACROSS)
            .max((volume / MAX_CHUNKS).powf(1.0 / D as Real))
            .max(Real::EPSILON);
        let counts = loop {
            // Rounding up may overshoot the budget: then widen the chunks a little.
            let counts: [usize; D] =
                std::array::from_fn(|i| ((ext[i] / edge).ceil() as usize).max(1));
            let total = counts.iter().product::<usize>() as Real;
            if total <= MAX_CHUNKS {
                break counts;
            }
            edge *= (total / MAX_CHUNKS).powf(1.0 / D as Real).max(1.01);
        };
        let total = counts.iter().product();
        // A whole number of cells per chunk, so pieces of one cell share one lattice.
        let base_cell = edge / (edge / base_cell.max(Real::EPSILON)).ceil().max(1.0);
        let mut out = Self {
            region,
            edge,
            counts,
            base_cell,
            pieces: Vec::new(),
            fine: vec![false; total],
            base: edited.base().clone(),
            edits_seen: 0,
        };
        for reach in edit_reaches(edited, 0) {
            out.mark(&reach);
        }
        let pieces = (0..total).map(|i| out.piece(i, drawable, mesh)).collect();
        out.pieces = pieces;
        out.edits_seen = edited.edits().len();
        Some(out)
    }

    /// Brings the pieces up to `edited` (the same collider's shape, grown by edits since
    /// the last call): re-meshes the chunks the new edits reach, and returns how many. An
    /// `edited` that is not a growth of the last (another base, fewer edits) re-meshes all.
    pub fn update(
        &mut self,
        drawable: &Shape<D>,
        edited: &Edited<D>,
        mesh: &mut impl FnMut(Piece<'_, D>) -> Option<M>,
    ) -> usize {
        if *edited.base() != self.base || edited.edits().len() < self.edits_seen {
            let cell = self.base_cell;
            if let Some(fresh) = Self::new(drawable, edited, cell, mesh) {
                *self = fresh;
            }
            return self.pieces.len();
        }
        let mut redo = Vec::new();
        for reach in edit_reaches(edited, self.edits_seen) {
            redo.extend(self.mark(&reach));
        }
        redo.sort_unstable();
        redo.dedup();
        for &i in &redo {
            self.pieces[i] = self.piece(i, drawable, mesh);
        }
        self.edits_seen = edited.edits().len();
        redo.len()
    }

    /// The pieces meshed (chunks with nothing to draw have none), in chunk order.
    pub fn pieces(&self) -> impl Iterator<Item = &M> {
        self.pieces.iter().flatten()
    }

    /// Chunks in the lattice.
    pub fn chunk_count(&self) -> usize {
        self.pieces.len()
    }

    /// Chunks meshed at the fine cell (reached by an edit).
    pub fn fine_count(&self) -> usize {
        self.fine.iter().filter(|f| **f).count()
    }

    /// The chunks' edge, metres.
    pub fn edge(&self) -> Real {
        self.edge
    }

    /// Marks fine every chunk whose piece could show `reach` (its box, widened by how far
    /// an untouched piece's mesh reaches past its chunk: nothing for exact boxes); returns
    /// them.
    fn mark(&mut self, reach: &Aabb<D>) -> Vec<usize> {
        let margin = match self.base.kind() {
            ShapeKind::Cuboid { .. } => 0.0,
            _ => PIECE_REACH_CELLS * self.base_cell,
        };
        let grown = reach.loosened(margin);
        let Some(r) = grown.intersection(&self.region) else {
            return Vec::new();
        };
        let cell_of = |x: Real, i: usize| {
            (((x - self.region.min[i]) / self.edge).floor().max(0.0) as usize)
                .min(self.counts[i] - 1)
        };
        let lo: [usize; D] = std::array::from_fn(|i| cell_of(r.min[i], i));
        let hi: [usize; D] = std::array::from_fn(|i| cell_of(r.max[i], i));
        let mut out = Vec::new();
        let mut at = lo;
        loop {
            let index = self.index(&at);
            self.fine[index] = true;
            out.push(index);
            let Some(axis) = (0..D).find(|&a| at[a] < hi[a]) else {
                break;
            };
            at[axis] += 1;
            at[..axis].copy_from_slice(&lo[..axis]);
        }
        out
    }

    fn index(&self, at: &[usize; D]) -> usize {
        (0..D).rev().fold(0, |acc, a| acc * self.counts[a] + at[a])
    }

    fn chunk_box(&self, index: usize) -> Aabb<D> {
        let mut rest = index;
        let mut min = self.region.min;
        for a in 0..D {
            min[a] += (rest % self.counts[a]) as Real * self.edge;
            rest /= self.counts[a];
        }
        Aabb::new(min, min + Vector::<D>::repeat(self.edge))
    }

    fn piece(
        &self,
        index: usize,
        drawable: &Shape<D>,
        mesh: &mut impl FnMut(Piece<'_, D>) -> Option<M>,
    ) -> Option<M> {
        let region = self.chunk_box(index);
        if self.fine[index] {
            let cell = self.edge / FINE_CELLS;
            return mesh(Piece::Field {
                field: drawable,
                region,
                cell,
            });
        }
        if let ShapeKind::Cuboid { half_extents } = self.base.kind() {
            let solid = Aabb::new(-half_extents, half_extents);
            return mesh(Piece::Solid(solid.intersection(&region)?));
        }
        mesh(Piece::Field {
            field: drawable,
            region,
            cell: self.base_cell,
        })
    }
}

/// The reach boxes of `edited`'s edits from the `from`-th on: where each may change the
/// field (the box of its shape's `band` level, as [`Edited`] indexes it).
fn edit_reaches<const D: usize>(edited: &Edited<D>, from: usize) -> Vec<Aabb<D>>
where
    Space<D>: Dim<D>,
{
    let band = edited.band();
    edited.edits()[from.min(edited.edits().len())..]
        .iter()
        .map(|e| e.shape.level_bounds(band))
        .filter(|b| b.is_valid())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use fathom_math::Pose;
    use fathom_sdf::{Edit, EditOp};

    /// A box of half extents `h` (wide and thin: terrain) edited by balls of radius `r`
    /// at `centres`.
    fn terrain<const D: usize>(h: Vector<D>, r: Real, centres: &[Vector<D>]) -> Edited<D>
    where
        Space<D>: Dim<D>,
    {
        let mut e = Edited::new(Shape::cuboid(h).unwrap(), 0.5).unwrap();
        for c in centres {
            let mut at = Pose::<D>::identity();
            at.translation.vector = *c;
            let shape = Shape::ball(r).unwrap().transformed(at).unwrap();
            e.push(Edit {
                op: EditOp::Carve,
                shape,
            })
            .unwrap();
        }
        e
    }

    /// Records each piece asked for: (solid?, region, cell).
    fn recorder<const D: usize>(
        log: &mut Vec<(bool, Aabb<D>, Real)>,
    ) -> impl FnMut(Piece<'_, D>) -> Option<(bool, Aabb<D>, Real)> + '_
    where
        Space<D>: Dim<D>,
    {
        move |p| {
            let r = match p {
                Piece::Solid(b) => (true, b, 0.0),
                Piece::Field { region, cell, .. } => (false, region, cell),
            };
            log.push(r);
            Some(r)
        }
    }

    fn edits_remesh_only_the_chunks_they_reach<const D: usize>()
    where
        Space<D>: Dim<D>,
    {
        let mut h = Vector::<D>::repeat(100.0);
        h[1] = 1.0;
        let crater = |x: Real| {
            let mut c = Vector::<D>::zeros();
            c[0] = x;
            c[1] = 1.0;
            c
        };
        let first = terrain(h, 2.0, &[crater(0.0)]);
        let shape = Shape::Edited(first.clone());
        let mut log = Vec::new();
        let mut chunks = Chunked::new(&shape, &first, 1.0, &mut recorder(&mut log)).unwrap();
        let total = chunks.chunk_count();
        assert_eq!(
            log.len(),
            total,
            "{D}D: every chunk meshed once at the start"
        );
        assert!(total <= MAX_CHUNKS as usize, "{D}D: {total} chunks");
        // 200 m across in 64 chunks: 3.125 m each; a 2 m crater (+ 0.5 m band) spans 2 to
        // 4 chunks along each long axis.
        let span = 2usize.pow(D as u32 - 1)..=4usize.pow(D as u32 - 1);
        let fine = chunks.fine_count();
        assert!(span.contains(&fine), "{D}D: {fine} fine chunks");
        // Every chunk the crater reaches is fine; untouched chunks are exact boxes.
        for (solid, region, cell) in &log {
            let reached = region.intersects(&Aabb::new(crater(0.0), crater(0.0)).loosened(2.5));
            assert!(!reached || !solid, "{D}D: {region:?} drawn as a box");
            assert!(*solid || *cell > 0.0);
        }
        // A second crater far away re-meshes only its own chunks.
        let second = terrain(h, 2.0, &[crater(0.0), crater(60.0)]);
        let shape = Shape::Edited(second.clone());
        log.clear();
        let redone = chunks.update(&shape, &second, &mut recorder(&mut log));
        assert_eq!(redone, log.len());
        assert!(span.contains(&redone), "{D}D: {redone} re-meshed");
        assert!(log.iter().all(|(solid, region, cell)| !solid
            && *cell == chunks.edge() / FINE_CELLS
            && region.center()[0] > 50.0));
        // Nothing new: nothing re-meshed.
        log.clear();
        assert_eq!(chunks.update(&shape, &second, &mut recorder(&mut log)), 0);
        // A shape with fewer edits (a reset world) re-meshes everything.
        let shape = Shape::Edited(first.clone());
        assert_eq!(
            chunks.update(&shape, &first, &mut recorder(&mut log)),
            total
        );
    }

    #[test]
    fn edits_remesh_only_their_chunks_2d() {
        edits_remesh_only_the_chunks_they_reach::<2>();
    }

    #[test]
    fn edits_remesh_only_their_chunks_3d() {
        edits_remesh_only_the_chunks_they_reach::<3>();
    }

    #[test]
    fn chunks_tile_the_shape_and_share_lattices() {
        let h = fathom_math::Vector3::new(30.0, 2.0, 10.0);
        let e = terrain::<3>(h, 1.0, &[]);
        let shape = Shape::Edited(e.clone());
        let mut log = Vec::new();
        let chunks = Chunked::new(&shape, &e, 0.7, &mut recorder(&mut log)).unwrap();
        // The boxes cover the shape exactly once (volumes add up, no overlap).
        let volume: Real = log
            .iter()
            .map(|(_, b, _)| b.extents().iter().product::<Real>())
            .sum();
        assert!((volume - 8.0 * h.x * h.y * h.z).abs() < 1e-3 * volume);
        for (i, (_, a, _)) in log.iter().enumerate() {
            for (_, b, _) in &log[i + 1..] {
                let overlap = a.intersection(b).map_or(0.0, |o| o.extents().min());
                assert!(overlap < 1e-3, "{a:?} and {b:?} overlap");
            }
        }
        // Base cell: a whole number of cells per chunk, no coarser than asked.
        let n = chunks.edge() / chunks.base_cell;
        assert!((n - n.round()).abs() < 1e-3 && chunks.base_cell <= 0.7);
    }
}
