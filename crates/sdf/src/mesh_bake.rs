//! Signed distance grids from closed triangle meshes, and OBJ loading.
//!
//! The unsigned distance is parry3d's triangle-mesh point projection (its BVH,
//! not ours). The sign uses the angle-weighted pseudo-normal of the nearest
//! feature (Bærentzen & Aanæs 2005, what parry does for a mesh built with
//! `TriMeshFlags::ORIENTED`): a point is inside when it lies behind the
//! pseudo-normal of the face, edge or vertex nearest to it. That test is
//! exact for a closed, consistently oriented, manifold mesh, which is why
//! [`BakedGrid::from_mesh`] first checks that every edge has exactly one twin
//! running the other way ([`TriMesh::check_closed`]) and flips an inward-wound
//! mesh (negative enclosed volume) to face out.

use crate::error::{Result, SdfError};
use crate::grid::{padded_region, BakedGrid};
use crate::mesh::TriMesh;
use crate::sparse_grid::{SparseGrid, SparseOptions};
use fathom_math::{Aabb, Real, Vector3};
use parry3d::math::Vector as PVec;
use parry3d::query::PointQueryWithLocation;
use parry3d::shape::{TriMesh as ParryTriMesh, TriMeshFlags};
use std::path::Path;

/// A parry mesh with pseudo-normals, outward-facing, from a checked closed mesh.
fn parry_mesh(mesh: &TriMesh) -> Result<ParryTriMesh> {
    mesh.validate()?;
    mesh.check_closed()?;
    let vertices = mesh
        .vertices
        .iter()
        .map(|v| PVec::new(v.x, v.y, v.z))
        .collect();
    let mut indices = mesh.indices.clone();
    if mesh.signed_volume() < 0.0 {
        for t in &mut indices {
            t.swap(1, 2);
        }
    }
    ParryTriMesh::with_flags(vertices, indices, TriMeshFlags::ORIENTED).map_err(|e| {
        SdfError::Invalid {
            field: "indices",
            reason: e.to_string(),
        }
    })
}

/// Signed distance from `p` to the closed mesh (negative inside).
fn signed_distance(mesh: &ParryTriMesh, p: &Vector3) -> Real {
    let q = PVec::new(p.x, p.y, p.z);
    let (proj, _) = mesh.project_local_point_and_get_location(q, false);
    let d = (q - proj.point).length();
    if proj.is_inside {
        -d
    } else {
        d
    }
}

/// The signed distance to a closed mesh (checked as [`BakedGrid::from_mesh`] does), as a
/// function: the source the grids sample, for the crate's tests to compare against.
#[cfg(test)]
pub(crate) fn mesh_distance(mesh: &TriMesh) -> Result<impl Fn(&Vector3) -> Real> {
    let parry = parry_mesh(mesh)?;
    Ok(move |p: &Vector3| signed_distance(&parry, p))
}

impl BakedGrid<3> {
    /// The signed distance to a closed triangle mesh sampled over `region` (local frame, the
    /// mesh's frame) with cells of `cell` metres, in parallel. Errors: an empty mesh
    /// ([`SdfError::EmptyMesh`]), an index out of range, an open or inconsistently wound mesh
    /// ([`SdfError::OpenMesh`]), a bad region or cell.
    pub fn from_mesh(mesh: &TriMesh, region: &Aabb<3>, cell: Real) -> Result<Self> {
        let parry = parry_mesh(mesh)?;
        Self::bake_fn(region, cell, |p| signed_distance(&parry, p))
    }

    /// [`BakedGrid::from_mesh`] over the mesh's box with `resolution` cells along its longest
    /// axis, plus two cells of padding on every side.
    pub fn from_mesh_resolution(mesh: &TriMesh, resolution: usize) -> Result<Self> {
        mesh.validate()?;
        let (region, cell) = padded_region(&mesh.bounds(), resolution)?;
        Self::from_mesh(mesh, &region, cell)
    }
}

impl SparseGrid<3> {
    /// The signed distance to a closed triangle mesh as a sparse grid (see
    /// [`BakedGrid::from_mesh`] for the mesh checks and errors): fine cells of `cell` metres in
    /// bricks near the surface only, in parallel.
    pub fn from_mesh(
        mesh: &TriMesh,
        region: &Aabb<3>,
        cell: Real,
        options: &SparseOptions,
    ) -> Result<Self> {
        let parry = parry_mesh(mesh)?;
        Self::bake_fn(region, cell, options, |p| signed_distance(&parry, p))
    }

    /// [`SparseGrid::from_mesh`] over the mesh's box with `resolution` fine cells along its
    /// longest axis, plus two cells of padding on every side (as
    /// [`BakedGrid::from_mesh_resolution`]).
    pub fn from_mesh_resolution(
        mesh: &TriMesh,
        resolution: usize,
        options: &SparseOptions,
    ) -> Result<Self> {
        mesh.validate()?;
        let (region, cell) = padded_region(&mesh.bounds(), resolution)?;
        Self::from_mesh(mesh, &region, cell, options)
    }
}

/// Reads every object of an OBJ file into one triangle mesh (polygons are triangulated;
/// normals, texture coordinates and materials are ignored). Errors: the file cannot be read
/// ([`SdfError::Io`]), is larger than [`crate::MAX_OBJ_FILE_BYTES`]
/// ([`SdfError::FileTooLarge`]) or is not a file ([`SdfError::NotAFile`]), it is not valid OBJ ([`SdfError::Parse`] with format `"OBJ"`), or it
/// holds no triangles ([`SdfError::EmptyMesh`]) or a bad index.
pub fn load_obj(path: impl AsRef<Path>) -> Result<TriMesh> {
    let path = path.as_ref();
    let name = path.display().to_string();
    let text = crate::read_text_limited(path, crate::MAX_OBJ_FILE_BYTES)?;
    parse_obj_named(&text, Some(name))
}

/// [`load_obj`] from the text of an OBJ file.
pub fn parse_obj(text: &str) -> Result<TriMesh> {
    parse_obj_named(text, None)
}

fn parse_obj_named(text: &str, path: Option<String>) -> Result<TriMesh> {
    let options = tobj::LoadOptions {
        triangulate: true,
        single_index: false,
        ..Default::default()
    };
    let (models, _materials) = tobj::load_obj_buf(&mut text.as_bytes(), &options, |_| {
        Err(tobj::LoadError::OpenFileFailed)
    })
    .map_err(|e| SdfError::Parse {
        format: "OBJ",
        path: path.clone(),
        message: e.to_string(),
    })?;
    let mut vertices = Vec::new();
    let mut indices = Vec::new();
    for model in &models {
        let m = &model.mesh;
        let base = vertices.len() as u32;
        if m.positions.len() % 3 != 0 || m.indices.len() % 3 != 0 {
            return Err(SdfError::Parse {
                format: "OBJ",
                path,
                message: "positions or faces are not triples".into(),
            });
        }
        vertices.extend(
            m.positions
                .chunks_exact(3)
                .map(|p| Vector3::new(p[0], p[1], p[2])),
        );
        indices.extend(
            m.indices
                .chunks_exact(3)
                .map(|t| [t[0] + base, t[1] + base, t[2] + base]),
        );
    }
    TriMesh::new(vertices, indices)
}
