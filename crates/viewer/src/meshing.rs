//! Turning colliders' fields into drawable triangles, once per distinct shape.
//!
//! The mesh detail key (U) multiplies every resolution below by a fineness of
//! 2, 4 or 8 ([`mesh_3d_fine`], [`fill_2d_fine`]) and meshes the scene again.
//!
//! 3D shapes are meshed with fathom-sdf's surface nets ([`fathom_sdf::mesh_sdf`]),
//! 2D shapes are filled with [`crate::fill2d`]. Both run at a resolution
//! relative to the shape's size ([`CELLS_ACROSS_3D`], [`CELLS_ACROSS_2D`]
//! cells across its largest extent), so a pebble and a boulder look equally
//! smooth. Unbounded shapes are intersected with a clip box first (see
//! [`crate::framing::clip_box`]). Results are cached by shape value: a pyramid
//! of a hundred equal boxes meshes one box.

use crate::chunks::{Chunked, Piece, Windowed};
use crate::fill2d::{fill_sdf_2d, FilledShape2};
use crate::framing::is_unbounded;
use fathom_math::{Aabb, Dim, Pose, Real, Space, Vector2, Vector3};
use fathom_sdf::{Edited, Sdf, Shape, Shape2, Shape3, ShapeKind};

/// Cells across a 3D shape's largest extent, for a shape large in its scene.
pub const CELLS_ACROSS_3D: Real = 40.0;
/// Fewest cells across a 3D shape's largest extent, for a shape small in its scene.
pub const FEWEST_CELLS_ACROSS_3D: Real = 12.0;
/// Cells across a 3D shape as wide as its whole scene: about one cell per 4 pixels on a
/// 1280-pixel-wide view of the scene (more would only add triangles too small to see).
pub const CELLS_PER_SCENE_3D: Real = 250.0;
/// Cells at least across a 3D shape's smallest extent (so thin walls are not lost).
pub const MIN_CELLS_ACROSS_3D: Real = 4.0;
/// Most cells in one 3D mesh's grid (bounds the time to mesh a long thin wall).
pub const MAX_CELLS_3D: Real = 4.0e6;
/// Cells across a 2D shape's largest extent.
pub const CELLS_ACROSS_2D: Real = 96.0;
/// Cells at least across a 2D shape's smallest extent.
pub const MIN_CELLS_ACROSS_2D: Real = 24.0;

/// A triangle mesh in a shape's local frame (metres), counter-clockwise seen from outside.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Mesh3 {
    /// Vertex positions.
    pub vertices: Vec<Vector3>,
    /// Triangles indexing `vertices`.
    pub triangles: Vec<[u32; 3]>,
}

/// The shape to draw: `shape` itself when bounded, else its intersection with `clip`
/// (local frame), a box, so that it has finite extent.
pub fn drawable<const D: usize>(shape: &Shape<D>, clip: &Aabb<D>) -> Option<Shape<D>>
where
    Space<D>: Dim<D>,
{
    if !is_unbounded(&shape.bounds()) {
        return Some(shape.clone());
    }
    let mut at = Pose::<D>::identity();
    at.translation.vector = clip.center();
    let placed = Shape::cuboid(clip.half_extents())
        .ok()?
        .transformed(at)
        .ok()?;
    Shape::intersection_all(vec![shape.clone(), placed]).ok()
}

/// Meshes a 3D shape (clipped to `clip` when unbounded) with a level of detail for a
/// scene of radius `scene_radius` metres ([`detail_3d`]). `None` when it has no inside
/// (or cannot be meshed, which is reported on stderr). A box is meshed exactly, with its
/// 12 triangles (surface nets would spend thousands on its flat faces, which a software
/// rasteriser then draws for every box of a pyramid).
pub fn mesh_3d(shape: &Shape3, clip: &Aabb<3>, scene_radius: Real) -> Option<Mesh3> {
    mesh_3d_fine(shape, clip, scene_radius, 1.0)
}

/// [`mesh_3d`] with `fineness` times the cells across (the mesh detail key): curved
/// shapes (gears, CSG rims) lose their facets, at the cost of more triangles.
pub fn mesh_3d_fine(
    shape: &Shape3,
    clip: &Aabb<3>,
    scene_radius: Real,
    fineness: Real,
) -> Option<Mesh3> {
    if let ShapeKind::Cuboid { half_extents } = shape.kind() {
        return Some(box_mesh(&half_extents));
    }
    let target = drawable(shape, clip)?;
    let cell = drawn_cell_3d(&target, scene_radius, fineness)?;
    let m = match fathom_sdf::mesh_sdf(&target, cell) {
        Ok(m) => m,
        Err(e) => {
            // Cells are relative to the shape's size, so this only fails for a shape with
            // non-finite bounds; it is drawn as nothing, and said so.
            eprintln!("fathom-viewer: cannot mesh a shape ({e}); it is not drawn");
            return None;
        }
    };
    if m.indices.is_empty() {
        return None;
    }
    Some(Mesh3 {
        vertices: m.vertices,
        triangles: m.indices,
    })
}

/// An edited 3D shape (clipped to `clip` when unbounded) in chunks (see
/// [`crate::chunks`]), untouched chunks meshed as [`mesh_3d_fine`] would mesh the whole.
/// `None` when it has no finite box.
pub fn chunked_3d(
    shape: &Shape3,
    edited: &Edited<3>,
    clip: &Aabb<3>,
    scene_radius: Real,
    fineness: Real,
) -> Option<Chunked<3, Mesh3>> {
    let target = drawable(shape, clip)?;
    let cell = drawn_cell_3d(&target, scene_radius, fineness)?;
    Chunked::new(&target, edited, cell, &mut mesh_piece_3d)
}

/// The meshing cell of a drawable 3D shape ([`drawable`]) in a scene of radius
/// `scene_radius` at `fineness` ([`detail_3d`], [`cell_3d`]); `None` when it has no box.
fn drawn_cell_3d(target: &Shape3, scene_radius: Real, fineness: Real) -> Option<Real> {
    let b = target.bounds();
    if !b.is_valid() {
        return None;
    }
    let across = detail_3d(b.extents().max(), scene_radius) * fineness.max(1.0);
    Some(cell_3d(&b.extents(), across))
}

/// Brings `chunks` up to `shape`, the same collider's edited shape (see
/// [`Chunked::update`]); returns the chunks re-meshed.
pub fn update_chunked_3d(
    chunks: &mut Chunked<3, Mesh3>,
    shape: &Shape3,
    edited: &Edited<3>,
    clip: &Aabb<3>,
) -> usize {
    drawable(shape, clip).map_or(0, |target| {
        chunks.update(&target, edited, &mut mesh_piece_3d)
    })
}

/// One chunk's mesh: a box exactly, a field by surface nets over the chunk.
pub fn mesh_piece_3d(piece: Piece<'_, 3>) -> Option<Mesh3> {
    match piece {
        Piece::Solid(b) => {
            let mut m = box_mesh(&b.half_extents());
            let c = b.center();
            m.vertices.iter_mut().for_each(|v| *v += c);
            Some(m)
        }
        Piece::Field {
            field,
            region,
            cell,
        } => {
            let m = fathom_sdf::mesh_sdf(&Windowed { field, region }, cell).ok()?;
            (!m.indices.is_empty()).then_some(Mesh3 {
                vertices: m.vertices,
                triangles: m.indices,
            })
        }
    }
}

/// The pieces put together into one mesh (`None` when there is nothing to draw).
pub fn join_3d<'a>(pieces: impl Iterator<Item = &'a Mesh3>) -> Option<Mesh3> {
    let mut out = Mesh3::default();
    for p in pieces {
        let base = out.vertices.len() as u32;
        out.vertices.extend_from_slice(&p.vertices);
        out.triangles
            .extend(p.triangles.iter().map(|t| t.map(|i| i + base)));
    }
    (!out.triangles.is_empty()).then_some(out)
}

/// Cells across a shape of largest extent `extent` in a scene of radius `scene_radius`
/// (metres): [`CELLS_PER_SCENE_3D`] times the fraction of the scene it spans, between
/// [`FEWEST_CELLS_ACROSS_3D`] and [`CELLS_ACROSS_3D`]. A thousand pebbles in a pile are
/// meshed coarser than one boulder (the mesh is drawn once per collider).
pub fn detail_3d(extent: Real, scene_radius: Real) -> Real {
    let fraction = extent / (2.0 * scene_radius).max(Real::EPSILON);
    (CELLS_PER_SCENE_3D * fraction).clamp(FEWEST_CELLS_ACROSS_3D, CELLS_ACROSS_3D)
}

/// The meshing cell (metres) for a box of `extents`: `cells_across` across the largest
/// extent, [`MIN_CELLS_ACROSS_3D`] across the smallest, coarsened to stay under
/// [`MAX_CELLS_3D`] cells.
pub fn cell_3d(extents: &Vector3, cells_across: Real) -> Real {
    let fine = (extents.max() / cells_across).min(extents.min() / MIN_CELLS_ACROSS_3D);
    let budget = (extents.x * extents.y * extents.z / MAX_CELLS_3D).cbrt();
    fine.max(budget)
}

/// The 24 corners (4 per face, so each face is lit flat) and 12 triangles of the box of
/// half extents `h`, counter-clockwise seen from outside.
pub fn box_mesh(h: &Vector3) -> Mesh3 {
    let mut mesh = Mesh3::default();
    for axis in 0..3 {
        for sign in [-1.0, 1.0] {
            let (u, v) = ((axis + 1) % 3, (axis + 2) % 3);
            let base = mesh.vertices.len() as u32;
            for (a, b) in [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)] {
                let mut p = Vector3::zeros();
                p[axis] = sign * h[axis];
                p[u] = a * h[u];
                p[v] = b * h[v];
                mesh.vertices.push(p);
            }
            // (u, v, axis) is a right-handed cycle, so the corners above run
            // counter-clockwise seen from +axis; reversed for the -axis face.
            if sign > 0.0 {
                mesh.triangles
                    .extend([[base, base + 1, base + 2], [base, base + 2, base + 3]]);
            } else {
                mesh.triangles
                    .extend([[base, base + 2, base + 1], [base, base + 3, base + 2]]);
            }
        }
    }
    mesh
}

/// The rectangle of half extents `h`: two triangles and its four edges.
pub fn box_fill(h: &Vector2) -> FilledShape2 {
    let vertices = vec![
        Vector2::new(-h.x, -h.y),
        Vector2::new(h.x, -h.y),
        Vector2::new(h.x, h.y),
        Vector2::new(-h.x, h.y),
    ];
    let outline = (0..4)
        .map(|i| [vertices[i], vertices[(i + 1) % 4]])
        .collect();
    FilledShape2 {
        vertices,
        triangles: vec![[0, 1, 2], [0, 2, 3]],
        outline,
    }
}

/// Fills a 2D shape (clipped to `clip` when unbounded). `None` when it has no inside.
/// A box is filled exactly (two triangles).
pub fn fill_2d(shape: &Shape2, clip: &Aabb<2>) -> Option<FilledShape2> {
    fill_2d_fine(shape, clip, 1.0)
}

/// [`fill_2d`] with `fineness` times the cells across (the mesh detail key).
pub fn fill_2d_fine(shape: &Shape2, clip: &Aabb<2>, fineness: Real) -> Option<FilledShape2> {
    if let ShapeKind::Cuboid { half_extents } = shape.kind() {
        return Some(box_fill(&half_extents));
    }
    let target = drawable(shape, clip)?;
    let b = target.bounds();
    if !b.is_valid() {
        return None;
    }
    // Fine enough across the largest extent, and across the smallest so that the corners
    // of a thin wall are not visibly cut (a corner loses at most half a cell).
    let ext = b.extents();
    let cell =
        (ext.max() / CELLS_ACROSS_2D).min(ext.min() / MIN_CELLS_ACROSS_2D) / fineness.max(1.0);
    // One cell of border so the outline closes around shapes touching their bounds.
    let f = fill_sdf_2d(&target, &b.loosened(cell), cell);
    (!f.triangles.is_empty()).then_some(f)
}

/// A cache from shape value to whatever was built from it (meshes, GPU buffers).
/// Lookups compare shapes by value, in insertion order: few distinct shapes per scene.
pub struct ShapeCache<const D: usize, T>
where
    Space<D>: Dim<D>,
{
    entries: Vec<(Shape<D>, T)>,
}

impl<const D: usize, T: Clone> ShapeCache<D, T>
where
    Space<D>: Dim<D>,
{
    /// An empty cache.
    pub fn new() -> Self {
        Self {
            entries: Vec::new(),
        }
    }

    /// The cached value for `shape`, building it with `build` on a miss.
    pub fn get_or_insert_with(&mut self, shape: &Shape<D>, build: impl FnOnce() -> T) -> T {
        if let Some((_, v)) = self.entries.iter().find(|(s, _)| s == shape) {
            return v.clone();
        }
        let v = build();
        self.entries.push((shape.clone(), v.clone()));
        v
    }

    /// Number of distinct shapes built.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// True when nothing was built yet.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}

impl<const D: usize, T: Clone> Default for ShapeCache<D, T>
where
    Space<D>: Dim<D>,
{
    fn default() -> Self {
        Self::new()
    }
}

/// The clip box of a collider in its local frame: the world clip box seen from the
/// collider's pose (a box containing it, since rotation widens boxes).
pub fn local_clip<const D: usize>(world_clip: &Aabb<D>, pose: &Pose<D>) -> Aabb<D>
where
    Space<D>: Dim<D>,
{
    world_clip.transformed(&pose.inverse())
}

#[cfg(test)]
mod tests {
    use super::*;
    use fathom_math::{Aabb2, Vector2};

    #[test]
    fn cache_builds_each_shape_once() {
        let mut c: ShapeCache<2, usize> = ShapeCache::new();
        let mut builds = 0;
        let a = Shape2::ball(1.0).unwrap();
        let b = Shape2::ball(2.0).unwrap();
        for s in [&a, &b, &a, &a, &b] {
            c.get_or_insert_with(s, || {
                builds += 1;
                builds
            });
        }
        assert_eq!(builds, 2);
        assert_eq!(c.len(), 2);
    }

    #[test]
    fn unbounded_ground_is_clipped_to_the_box() {
        let ground = Shape2::half_space(Vector2::y(), 0.0).unwrap();
        let clip = Aabb2::new(Vector2::new(-10.0, -4.0), Vector2::new(10.0, 4.0));
        let f = fill_2d(&ground, &clip).unwrap();
        // The clipped ground is the lower half of the clip box: 20 m x 4 m. Its edges are
        // straight, so interpolation is exact along them; only its 4 corners, where two
        // planes meet inside one cell, are cut by a chamfer of at most half a cell's area.
        let cell = (20.0 / CELLS_ACROSS_2D).min(4.0 / MIN_CELLS_ACROSS_2D);
        assert!(
            (f.area() - 80.0).abs() < 4.0 * 0.5 * cell * cell,
            "area {}",
            f.area()
        );
        assert!(f.area() <= 80.0 + 1e-3);
    }

    #[test]
    fn thin_walls_get_fine_cells_within_budget() {
        let c = cell_3d(&Vector3::new(1.0, 1.0, 1.0), CELLS_ACROSS_3D);
        assert!((c - 1.0 / CELLS_ACROSS_3D).abs() < 1e-7);
        // A 4 m x 4 m x 5 cm wall: 4 cells across its thickness.
        let wall = Vector3::new(4.0, 4.0, 0.05);
        assert!((cell_3d(&wall, CELLS_ACROSS_3D) - 0.05 / MIN_CELLS_ACROSS_3D).abs() < 1e-7);
        // A 100 m x 100 m x 1 cm sheet would need 6.4e8 cells: coarsened to the budget.
        let sheet = Vector3::new(100.0, 100.0, 0.01);
        let c = cell_3d(&sheet, CELLS_ACROSS_3D);
        assert!(sheet.x * sheet.y * sheet.z / (c * c * c) <= MAX_CELLS_3D * 1.001);
    }

    #[test]
    fn small_shapes_in_big_scenes_get_fewer_cells() {
        // A 1 m shape in a 1 m scene: full detail; in a 20 m scene (radius 10): 250 / 20.
        assert_eq!(detail_3d(1.0, 0.5), CELLS_ACROSS_3D);
        assert!((detail_3d(1.0, 10.0) - 12.5).abs() < 1e-4);
        assert_eq!(detail_3d(0.1, 100.0), FEWEST_CELLS_ACROSS_3D);
        assert_eq!(detail_3d(1.0, 0.0), CELLS_ACROSS_3D);
    }

    #[test]
    fn boxes_are_meshed_exactly_and_face_out() {
        let h = Vector3::new(0.5, 0.25, 1.0);
        let m = mesh_3d(&Shape3::cuboid(h).unwrap(), &Aabb::EMPTY, 1.0).unwrap();
        assert_eq!((m.vertices.len(), m.triangles.len()), (24, 12));
        let mut volume = 0.0;
        for t in &m.triangles {
            let [a, b, c] = t.map(|i| m.vertices[i as usize]);
            volume += a.dot(&b.cross(&c)) / 6.0;
            // Each face's normal points away from the centre (outward winding).
            let n = (b - a).cross(&(c - a));
            assert!(n.dot(&((a + b + c) / 3.0)) > 0.0, "{t:?}");
        }
        // The divergence theorem gives the box's volume exactly (float rounding only).
        assert!((volume - 8.0 * h.x * h.y * h.z).abs() < 1e-5, "{volume}");
        let f = fill_2d(
            &Shape2::cuboid(Vector2::new(0.5, 0.25)).unwrap(),
            &Aabb2::EMPTY,
        )
        .unwrap();
        assert!((f.area() - 0.5).abs() < 1e-6);
        assert_eq!(f.outline.len(), 4);
    }

    #[test]
    fn disc_fill_is_a_disc() {
        let s = Shape2::ball(0.3).unwrap();
        let f = fill_2d(&s, &Aabb2::EMPTY).unwrap();
        // Resolution 96 cells across: area error well under 1% (see fill2d's tests).
        let exact = std::f32::consts::PI * 0.09;
        assert!((f.area() - exact).abs() < 0.01 * exact);
    }
}
