//! One pair at one resolution, ready to query from either side.

use super::backend::MeshBackend;
use super::{CompareError, Placement, Query};
use fathom_math::{Dim, Pose, Real, Space, Vector};
use fathom_narrowphase::{ContactOptions, DEFAULT_MIN_CELL_FRACTION};
use fathom_sdf::{Sdf, Shape};
use std::sync::Mutex;

/// One side's answer to one query. Lengths in metres, vectors in the world frame.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Answer {
    /// The intersection test's answer (intersection query only).
    pub intersects: Option<bool>,
    /// Contacts: the deepest penetration (negative for a speculative contact); penetration:
    /// the overlap (0 when none); distance: the distance. `None` when there is no answer
    /// (no contact found, or the intersection query).
    pub depth: Option<Real>,
    /// The normal (A towards B) that goes with `depth`, `D` components.
    pub normal: Option<Vec<Real>>,
    /// Manifolds holding at least one point (contacts query).
    pub manifolds: usize,
    /// Contact points over all manifolds (contacts query).
    pub points: usize,
    /// Field evaluations (the SDF side; 0 for the mesh side).
    pub evals: usize,
    /// The SDF query ran out of cells.
    pub hit_budget: bool,
}

/// A pair ready to query: both shapes as fields and as meshes, and B's pose per placement.
/// Object safe, so 2D and 3D cases sit in one list.
pub trait PairCase: Send + Sync {
    /// Pair name.
    fn pair(&self) -> &'static str;
    /// 2 or 3.
    fn dimension(&self) -> usize;
    /// Triangles (2D: segments) per shape the meshing aimed at.
    fn target(&self) -> usize;
    /// Triangles (2D: segments) per shape made: the mean of the two meshes.
    fn triangles(&self) -> usize;
    /// The smaller shape's bounding radius, metres.
    fn size(&self) -> Real;
    /// The exact contact normal from A towards B, world frame.
    fn reference_normal(&self) -> Vec<Real>;
    /// How far the SDF side's fields may stand from the exact shapes, metres: 0 for analytic
    /// fields, a cell for a baked grid (its samples are exact, what lies between them is
    /// interpolated, and the mesh it was baked from approximates the shape to about a cell).
    fn sampling_error(&self) -> Real;
    /// Fathom's answer.
    fn sdf(&self, query: Query, placement: Placement) -> Result<Answer, CompareError>;
    /// parry's answer on the meshes.
    fn mesh(&self, query: Query, placement: Placement) -> Result<Answer, CompareError>;
}

/// The parts of a pair: the fields, B's pose for a signed gap, and the exact normal.
pub(crate) struct PairDef<const D: usize>
where
    Space<D>: Dim<D>,
{
    pub name: &'static str,
    pub a: Shape<D>,
    pub b: Shape<D>,
    /// B's pose (world) at which the exact signed gap from A (at the identity) is the argument.
    pub pose_b: Box<dyn Fn(Real) -> Pose<D>>,
    /// The exact contact normal, A towards B, world frame.
    pub normal: Vector<D>,
}

/// A pair at one resolution, with parry backend `M`.
pub(crate) struct Case<const D: usize, M: MeshBackend<D>>
where
    Space<D>: Dim<D>,
{
    name: &'static str,
    target: usize,
    triangles: usize,
    size: Real,
    a: Shape<D>,
    b: Shape<D>,
    mesh_a: M::Mesh,
    mesh_b: M::Mesh,
    poses: [Pose<D>; 4],
    normal: Vector<D>,
    opts: ContactOptions,
    /// parry's manifolds and workspace per placement, kept between calls.
    scratch: [Mutex<M::Scratch>; 4],
}

impl<const D: usize, M: MeshBackend<D>> Case<D, M>
where
    Space<D>: Dim<D>,
{
    /// Meshes both fields of `def` at about `target` elements.
    pub fn meshed(def: PairDef<D>, target: usize) -> Result<Self, CompareError> {
        let (mesh_a, na) = M::mesh(&def.a, target)?;
        let (mesh_b, nb) = M::mesh(&def.b, target)?;
        Ok(Self::with_meshes(def, target, (mesh_a, na), (mesh_b, nb)))
    }

    /// A case with meshes made elsewhere (`(mesh, elements)` each).
    pub fn with_meshes(
        def: PairDef<D>,
        target: usize,
        a: (M::Mesh, usize),
        b: (M::Mesh, usize),
    ) -> Self {
        let size = def.a.bounds().radius().min(def.b.bounds().radius());
        // The same margin on both sides: Fathom's default (its smallest cell), given to parry
        // as its prediction distance.
        let opts = ContactOptions {
            margin: Some(DEFAULT_MIN_CELL_FRACTION * size),
            ..ContactOptions::default()
        };
        let poses = Placement::ALL.map(|p| (def.pose_b)(p.gap()));
        Self {
            name: def.name,
            target,
            triangles: (a.1 + b.1).div_ceil(2),
            size,
            a: def.a,
            b: def.b,
            mesh_a: a.0,
            mesh_b: b.0,
            poses,
            normal: def.normal,
            opts,
            scratch: Default::default(),
        }
    }

    fn pose(&self, p: Placement) -> &Pose<D> {
        &self.poses[Self::index(p)]
    }

    fn index(p: Placement) -> usize {
        Placement::ALL
            .iter()
            .position(|&q| q == p)
            .expect("every placement is in ALL")
    }

    fn margin(&self) -> Real {
        self.opts.margin.unwrap_or(0.0)
    }
}

fn to_vec<const D: usize>(v: &Vector<D>) -> Vec<Real> {
    v.iter().copied().collect()
}

impl<const D: usize, M: MeshBackend<D>> PairCase for Case<D, M>
where
    Space<D>: Dim<D>,
    M::Mesh: Send + Sync,
{
    fn pair(&self) -> &'static str {
        self.name
    }

    fn dimension(&self) -> usize {
        D
    }

    fn target(&self) -> usize {
        self.target
    }

    fn triangles(&self) -> usize {
        self.triangles
    }

    fn size(&self) -> Real {
        self.size
    }

    fn reference_normal(&self) -> Vec<Real> {
        to_vec(&self.normal)
    }

    fn sampling_error(&self) -> Real {
        let mut cell: Real = 0.0;
        for shape in [&self.a, &self.b] {
            shape.visit(&mut |s| {
                if let Shape::Grid(g) = s {
                    cell = cell.max(g.cell().unwrap_or(0.0));
                }
            });
        }
        cell
    }

    fn sdf(&self, query: Query, placement: Placement) -> Result<Answer, CompareError> {
        use fathom_narrowphase as np;
        let (a, b): (&dyn Sdf<D>, &dyn Sdf<D>) = (&self.a, &self.b);
        let (pa, pb) = (Pose::<D>::identity(), self.pose(placement));
        let o = &self.opts;
        let answer = match query {
            Query::Intersection => {
                let r = np::intersects(a, &pa, b, pb, o)?;
                Answer {
                    intersects: Some(r.intersecting),
                    evals: r.stats.evaluations,
                    hit_budget: r.stats.hit_budget,
                    ..Answer::default()
                }
            }
            Query::Contacts => {
                let r = np::contacts(a, &pa, b, pb, o)?;
                let deepest = r
                    .manifolds
                    .iter()
                    .flat_map(|m| m.points.iter().map(move |p| (p.depth, m.normal)))
                    .min_by(|x, y| x.0.total_cmp(&y.0));
                Answer {
                    depth: deepest.map(|(d, _)| -d),
                    normal: deepest.map(|(_, n)| to_vec(&n)),
                    manifolds: r.manifolds.iter().filter(|m| !m.points.is_empty()).count(),
                    points: r.manifolds.iter().map(|m| m.points.len()).sum(),
                    evals: r.stats.evaluations,
                    hit_budget: r.stats.hit_budget,
                    ..Answer::default()
                }
            }
            Query::Penetration => {
                let r = np::penetration(a, &pa, b, pb, o)?;
                Answer {
                    depth: Some(r.deepest.map_or(0.0, |d| d.depth)),
                    normal: r.deepest.map(|d| to_vec(&d.normal)),
                    evals: r.stats.evaluations,
                    hit_budget: r.stats.hit_budget,
                    ..Answer::default()
                }
            }
            Query::Distance => {
                let r = np::distance(a, &pa, b, pb, o)?;
                Answer {
                    depth: Some(r.distance),
                    evals: r.stats.evaluations,
                    hit_budget: r.stats.hit_budget,
                    ..Answer::default()
                }
            }
        };
        Ok(answer)
    }

    fn mesh(&self, query: Query, placement: Placement) -> Result<Answer, CompareError> {
        let (a, b) = (&self.mesh_a, &self.mesh_b);
        let (pa, pb) = (Pose::<D>::identity(), self.pose(placement));
        let answer = match query {
            Query::Intersection => Answer {
                intersects: Some(M::intersects(a, &pa, b, pb)?),
                ..Answer::default()
            },
            Query::Contacts => {
                // A poisoned lock only means an earlier call panicked mid-update; parry
                // rebuilds whatever the scratch lacks.
                let mut scratch = self.scratch[Self::index(placement)]
                    .lock()
                    .unwrap_or_else(|e| e.into_inner());
                let c = M::contacts(a, &pa, b, pb, self.margin(), &mut scratch)?;
                Answer {
                    depth: c.deepest.map(|(d, _)| -d),
                    normal: c.deepest.map(|(_, n)| to_vec(&n)),
                    manifolds: c.manifolds,
                    points: c.points,
                    ..Answer::default()
                }
            }
            Query::Penetration => {
                let c = M::penetration(a, &pa, b, pb)?;
                Answer {
                    depth: Some(c.map_or(0.0, |(d, _)| d)),
                    normal: c.map(|(_, n)| to_vec(&n)),
                    ..Answer::default()
                }
            }
            Query::Distance => Answer {
                depth: Some(M::distance(a, &pa, b, pb)?),
                ..Answer::default()
            },
        };
        Ok(answer)
    }
}
