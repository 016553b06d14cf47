//! The mesh side: Fathom shapes turned into parry meshes (3D triangle meshes, 2D polylines) at a
//! calibrated resolution, and parry's queries on them with Fathom's poses.
//!
//! This is the one place that differs by dimension, because parry2d and parry3d are separate
//! crates with separate types; everything else in the comparison is generic over `D`.

use super::CompareError;
use fathom_math::{Dim, Pose, Real, Space, Vector};
use fathom_sdf::{contour_sdf, mesh_sdf, Sdf, TriMesh};

/// parry's answer to a contact-manifold query.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct MeshContacts<const D: usize> {
    /// Manifolds holding at least one point.
    pub manifolds: usize,
    /// Points over all manifolds.
    pub points: usize,
    /// The smallest signed distance of any point (negative: penetration) and the normal of its
    /// manifold, world frame, from A towards B.
    pub deepest: Option<(Real, Vector<D>)>,
}

/// A parry mesh type and its queries, for one dimension. `A` is always at `pose_a`, `B` at
/// `pose_b` (world frame); answers are in the world frame.
pub(crate) trait MeshBackend<const D: usize>: 'static
where
    Space<D>: Dim<D>,
{
    /// The parry shape.
    type Mesh: Send + Sync;
    /// What parry keeps for a pair between contact-manifold calls: its manifolds and its
    /// workspace (a simulation keeps both across steps).
    type Scratch: Default + Send;
    /// Meshes `shape` with about `target` elements (triangles, or segments in 2D); returns the
    /// mesh and its element count.
    fn mesh(shape: &dyn Sdf<D>, target: usize) -> Result<(Self::Mesh, usize), CompareError>;
    /// parry's `intersection_test`.
    fn intersects(
        a: &Self::Mesh,
        pa: &Pose<D>,
        b: &Self::Mesh,
        pb: &Pose<D>,
    ) -> Result<bool, CompareError>;
    /// parry's contact manifolds with `prediction` (metres), updating the pair's `scratch`
    /// from the previous call as a simulation step would.
    fn contacts(
        a: &Self::Mesh,
        pa: &Pose<D>,
        b: &Self::Mesh,
        pb: &Pose<D>,
        prediction: Real,
        scratch: &mut Self::Scratch,
    ) -> Result<MeshContacts<D>, CompareError>;
    /// parry's `contact` with no prediction: overlap depth (positive) and normal, or `None`.
    fn penetration(
        a: &Self::Mesh,
        pa: &Pose<D>,
        b: &Self::Mesh,
        pb: &Pose<D>,
    ) -> Result<Option<(Real, Vector<D>)>, CompareError>;
    /// parry's `distance`.
    fn distance(
        a: &Self::Mesh,
        pa: &Pose<D>,
        b: &Self::Mesh,
        pb: &Pose<D>,
    ) -> Result<Real, CompareError>;
}

fn parry_error(e: impl std::fmt::Display) -> CompareError {
    CompareError::Parry(e.to_string())
}

/// Finds a cell size giving about `target` elements: elements scale as `cell^-(D-1)`, so two
/// corrections from a coarse first guess land within a few percent. Returns the last result.
fn calibrated<T>(
    target: usize,
    dim: usize,
    make: impl Fn(Real) -> Result<(T, usize), CompareError>,
) -> Result<(T, usize), CompareError> {
    let exponent = 1.0 / (dim as Real - 1.0);
    let mut cell = first_cell_guess(dim);
    let mut made = make(cell)?;
    for _ in 0..2 {
        let ratio = made.1.max(1) as Real / target.max(1) as Real;
        cell *= ratio.powf(exponent);
        made = make(cell)?;
    }
    Ok(made)
}

/// A coarse first cell for shapes of about a metre (the comparison's shapes).
fn first_cell_guess(dim: usize) -> Real {
    if dim == 2 {
        0.05
    } else {
        0.1
    }
}

/// Fathom's surface-nets mesh of `shape` with about `target` triangles.
pub(crate) fn fathom_mesh(shape: &dyn Sdf<3>, target: usize) -> Result<TriMesh, CompareError> {
    calibrated(target, 3, |cell| {
        let m = mesh_sdf(shape, cell)?;
        let n = m.indices.len();
        Ok((m, n))
    })
    .map(|(m, _)| m)
}

/// parry's triangle mesh of a Fathom mesh (same vertices and triangles, default flags).
pub(crate) fn parry_trimesh(mesh: &TriMesh) -> Result<parry3d::shape::TriMesh, CompareError> {
    let vertices = mesh
        .vertices
        .iter()
        .map(|v| parry3d::math::Vector::new(v.x, v.y, v.z))
        .collect();
    parry3d::shape::TriMesh::new(vertices, mesh.indices.clone()).map_err(parry_error)
}

/// The queries of [`MeshBackend`] for one parry crate: the same code for parry2d and parry3d,
/// whose types differ only in dimension.
macro_rules! parry_queries {
    ($parry:ident, $d:literal) => {
        fn intersects(
            a: &Self::Mesh,
            pa: &Pose<$d>,
            b: &Self::Mesh,
            pb: &Pose<$d>,
        ) -> Result<bool, CompareError> {
            $parry::query::intersection_test(&(*pa).into(), a, &(*pb).into(), b)
                .map(|r| r.intersecting)
                .map_err(parry_error)
        }

        fn contacts(
            a: &Self::Mesh,
            pa: &Pose<$d>,
            b: &Self::Mesh,
            pb: &Pose<$d>,
            prediction: Real,
            scratch: &mut Self::Scratch,
        ) -> Result<MeshContacts<$d>, CompareError> {
            use $parry::query::{DefaultQueryDispatcher, PersistentQueryDispatcher};
            let pa: $parry::math::Pose = (*pa).into();
            let pb: $parry::math::Pose = (*pb).into();
            let pos12 = pa.inv_mul(&pb);
            let (manifolds, workspace) = scratch;
            DefaultQueryDispatcher
                .contact_manifolds(&pos12, a, b, prediction, manifolds, workspace)
                .map_err(parry_error)?;
            let mut out = MeshContacts {
                manifolds: 0,
                points: 0,
                deepest: None,
            };
            for m in manifolds.iter().filter(|m| !m.points.is_empty()) {
                out.manifolds += 1;
                out.points += m.points.len();
                let n = pa.rotation * m.local_n1;
                let normal = Vector::<$d>::from_iterator(n.to_array());
                for p in &m.points {
                    if out.deepest.is_none_or(|(d, _)| p.dist < d) {
                        out.deepest = Some((p.dist, normal));
                    }
                }
            }
            Ok(out)
        }

        fn penetration(
            a: &Self::Mesh,
            pa: &Pose<$d>,
            b: &Self::Mesh,
            pb: &Pose<$d>,
        ) -> Result<Option<(Real, Vector<$d>)>, CompareError> {
            let c = $parry::query::contact(&(*pa).into(), a, &(*pb).into(), b, 0.0)
                .map_err(parry_error)?;
            Ok(c.map(|c| {
                let n = Vector::<$d>::from_iterator(c.normal1.to_array());
                ((-c.dist).max(0.0), n)
            }))
        }

        fn distance(
            a: &Self::Mesh,
            pa: &Pose<$d>,
            b: &Self::Mesh,
            pb: &Pose<$d>,
        ) -> Result<Real, CompareError> {
            $parry::query::distance(&(*pa).into(), a, &(*pb).into(), b)
                .map(|d| d.distance)
                .map_err(parry_error)
        }
    };
}

/// parry3d triangle meshes.
pub(crate) struct Parry3;

impl MeshBackend<3> for Parry3 {
    type Mesh = parry3d::shape::TriMesh;
    type Scratch = (
        Vec<parry3d::query::ContactManifold<(), ()>>,
        Option<parry3d::query::ContactManifoldsWorkspace>,
    );

    fn mesh(shape: &dyn Sdf<3>, target: usize) -> Result<(Self::Mesh, usize), CompareError> {
        let m = fathom_mesh(shape, target)?;
        Ok((parry_trimesh(&m)?, m.indices.len()))
    }

    parry_queries!(parry3d, 3);
}

/// parry2d polylines (the closed contours of the shapes).
pub(crate) struct Parry2;

impl MeshBackend<2> for Parry2 {
    type Mesh = parry2d::shape::Polyline;
    type Scratch = (
        Vec<parry2d::query::ContactManifold<(), ()>>,
        Option<parry2d::query::ContactManifoldsWorkspace>,
    );

    fn mesh(shape: &dyn Sdf<2>, target: usize) -> Result<(Self::Mesh, usize), CompareError> {
        calibrated(target, 2, |cell| polyline(shape, cell))
    }

    parry_queries!(parry2d, 2);
}

/// A polyline of every contour loop of `shape` at `cell` metres: consecutive points joined,
/// each closed loop closed by a segment back to its first point.
fn polyline(
    shape: &dyn Sdf<2>,
    cell: Real,
) -> Result<(parry2d::shape::Polyline, usize), CompareError> {
    let mut vertices = Vec::new();
    let mut indices: Vec<[u32; 2]> = Vec::new();
    for mut lp in contour_sdf(shape, cell)? {
        let closed = lp.len() > 2 && lp.first() == lp.last();
        if closed {
            lp.pop();
        }
        let base = vertices.len() as u32;
        let n = lp.len() as u32;
        vertices.extend(lp.iter().map(|v| parry2d::math::Vector::new(v.x, v.y)));
        indices.extend((0..n.saturating_sub(1)).map(|i| [base + i, base + i + 1]));
        if closed {
            indices.push([base + n - 1, base]);
        }
    }
    if indices.is_empty() {
        return Err(CompareError::Parry("the contour has no segments".into()));
    }
    let n = indices.len();
    Ok((parry2d::shape::Polyline::new(vertices, Some(indices)), n))
}
