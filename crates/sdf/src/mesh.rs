//! Any 3D field to a triangle mesh, by surface nets (the `fast-surface-nets` crate).
//!
//! The field is sampled on a grid of cubic cells covering its bounds plus two
//! cells of padding (surface nets needs the samples on both sides of the
//! surface, and never makes faces on the grid's outer layer). Each cell that
//! the surface crosses gets one vertex (the mean of its edges' crossings), so
//! every vertex lies in a cell whose corners change sign: within one cell
//! diagonal of the zero set. Vertices are in the field's local frame; triangles
//! are wound counter-clockwise seen from outside (outward normals).

use crate::error::{check_finite_vec, Result, SdfError};
use crate::grid::{check_region, BakedGrid};
use crate::Sdf;
use fast_surface_nets::ndshape::RuntimeShape;
use fast_surface_nets::{surface_nets, SurfaceNetsBuffer};
use fathom_math::{Aabb, Real, Vector3};
use serde::{Deserialize, Serialize};

/// Most vertices a [`TriMesh`] may have: 2^22 (4,194,304), 48 MiB of positions. A 64 MiB
/// OBJ file ([`crate::MAX_OBJ_FILE_BYTES`]) holds about 2 million; a collision mesh is only
/// baked to a grid, whose resolution, not the mesh's, decides the detail.
pub const MAX_MESH_VERTICES: usize = 1 << 22;

/// Most triangles a [`TriMesh`] may have: 2^22 (4,194,304). Checking closedness sorts three
/// edges per triangle (about 100 MiB at the limit) and baking builds a tree over them.
pub const MAX_MESH_TRIANGLES: usize = 1 << 22;

/// Cells of padding around the bounds when meshing.
const MESH_PADDING_CELLS: Real = 2.0;

/// A triangle mesh: vertex positions (metres, local frame) and triangles as vertex indices.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct TriMesh {
    /// Vertex positions.
    pub vertices: Vec<Vector3>,
    /// Triangles, three indices into `vertices` each, counter-clockwise seen from outside.
    pub indices: Vec<[u32; 3]>,
}

impl TriMesh {
    /// A mesh from vertices and triangles. Checked: at least one of each, at most
    /// [`MAX_MESH_VERTICES`] and [`MAX_MESH_TRIANGLES`], finite vertices, indices in range. (Closedness is checked where it matters, see [`TriMesh::check_closed`].)
    pub fn new(vertices: Vec<Vector3>, indices: Vec<[u32; 3]>) -> Result<Self> {
        let mesh = Self { vertices, indices };
        mesh.validate()?;
        Ok(mesh)
    }

    /// Checks what [`TriMesh::new`] checks.
    pub fn validate(&self) -> Result<()> {
        if self.vertices.is_empty() {
            return Err(SdfError::EmptyMesh { field: "vertices" });
        }
        if self.indices.is_empty() {
            return Err(SdfError::EmptyMesh { field: "indices" });
        }
        check_count("vertices", self.vertices.len(), MAX_MESH_VERTICES)?;
        check_count("indices", self.indices.len(), MAX_MESH_TRIANGLES)?;
        for v in &self.vertices {
            check_finite_vec("vertices", v)?;
        }
        let n = self.vertices.len();
        for &i in self.indices.iter().flatten() {
            if i as usize >= n {
                return Err(SdfError::IndexOutOfRange {
                    field: "indices",
                    index: i,
                    vertex_count: n,
                });
            }
        }
        if self.total_area() <= 0.0 {
            // Triangles all on a line close up edge for edge and enclose nothing: a "solid"
            // with no volume that a bake would turn into a shape of no inside.
            return Err(SdfError::Invalid {
                field: "indices",
                reason: "every triangle has zero area".into(),
            });
        }
        Ok(())
    }

    /// The summed area of the triangles, square metres.
    pub fn total_area(&self) -> f32 {
        self.indices
            .iter()
            .map(|t| {
                let [a, b, c] = t.map(|i| self.vertices[i as usize]);
                0.5 * (b - a).cross(&(c - a)).norm()
            })
            .sum()
    }

    /// Checks that the triangles make a closed, consistently oriented surface: every directed
    /// edge `(a, b)` is used by exactly one triangle and its twin `(b, a)` by exactly one other.
    /// Deterministic: the first bad edge in sorted order is reported.
    pub fn check_closed(&self) -> Result<()> {
        let mut edges: Vec<(u32, u32)> = self
            .indices
            .iter()
            .flat_map(|t| [(t[0], t[1]), (t[1], t[2]), (t[2], t[0])])
            .collect();
        edges.sort_unstable();
        let count = |e: (u32, u32)| {
            let start = edges.partition_point(|x| *x < e);
            edges[start..].iter().take_while(|x| **x == e).count()
        };
        for (i, &e) in edges.iter().enumerate() {
            if i > 0 && edges[i - 1] == e {
                return Err(SdfError::OpenMesh {
                    field: "indices",
                    edge: e,
                    count: count(e),
                });
            }
            let twin = (e.1, e.0);
            if count(twin) != 1 {
                return Err(SdfError::OpenMesh {
                    field: "indices",
                    edge: twin,
                    count: count(twin),
                });
            }
        }
        Ok(())
    }

    /// The signed volume enclosed (positive for outward-facing triangles), cubic metres.
    pub fn signed_volume(&self) -> Real {
        self.indices
            .iter()
            .map(|t| {
                let [a, b, c] = t.map(|i| self.vertices[i as usize]);
                a.dot(&b.cross(&c)) / 6.0
            })
            .sum()
    }

    /// The box around the vertices, local frame.
    pub fn bounds(&self) -> Aabb<3> {
        Aabb::from_points(&self.vertices)
    }
}

/// Refuses a list longer than `max`, naming it.
fn check_count(field: &'static str, value: usize, max: usize) -> Result<()> {
    if value > max {
        return Err(SdfError::TooMany { field, value, max });
    }
    Ok(())
}

/// Meshes the surface `distance = 0` of `sdf` with surface nets on cells of `cell` metres.
///
/// Returns an empty mesh for a shape with empty bounds. Errors: `cell` not finite or not
/// positive, bounds not finite ([`SdfError::Invalid`] naming `bounds`), or a grid over
/// [`crate::MAX_GRID_SAMPLES`] samples ([`SdfError::TooLarge`] naming `cell`).
pub fn mesh_sdf(sdf: &(impl Sdf<3> + ?Sized), cell: Real) -> Result<TriMesh> {
    crate::error::check_positive("cell", cell)?;
    let bounds = sdf.bounds();
    if bounds.is_empty() {
        return Ok(TriMesh::default());
    }
    check_region("bounds", &bounds)?;
    let grid = BakedGrid::bake(sdf, &bounds.loosened(MESH_PADDING_CELLS * cell), cell)?;
    Ok(mesh_grid(&grid))
}

/// Meshes the zero level of a baked grid's samples.
pub fn mesh_grid(grid: &BakedGrid<3>) -> TriMesh {
    let dims = grid.dims();
    let shape = RuntimeShape::<u32, 3>::new([dims[0] as u32, dims[1] as u32, dims[2] as u32]);
    let mut buffer = SurfaceNetsBuffer::default();
    let max = [dims[0] as u32 - 1, dims[1] as u32 - 1, dims[2] as u32 - 1];
    surface_nets(grid.values(), &shape, [0; 3], max, &mut buffer);
    let origin = grid.origin();
    let vertices: Vec<Vector3> = buffer
        .positions
        .iter()
        .map(|p| origin + Vector3::new(p[0], p[1], p[2]) * grid.cell())
        .collect();
    let indices = buffer
        .indices
        .chunks_exact(3)
        .map(|t| [t[0], t[1], t[2]])
        .collect();
    TriMesh { vertices, indices }
}
