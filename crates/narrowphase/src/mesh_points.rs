//! Triangle-mesh colliders as point samples: the vertices (and optionally points along the
//! edges) of a mesh, tested against another shape's field.
//!
//! A field answers "how deep is this point" in one evaluation, so a mesh against a field is the
//! deepest of its samples. The samples sit in a small bounding-box tree built once; a query
//! walks it from the root and skips a node whose box cannot hold a sample within the margin
//! (`d(c) - L r > margin` at the box's centre `c`, radius `r`), so a mesh of thousands of
//! vertices resting on the ground costs the vertices near the contact plus a logarithm.
//! Samples miss penetrations through the middle of a face or an edge (a box poking into a
//! coarse triangle); edge samples narrow that gap, at a cost per sample.

use fathom_math::{Aabb, Real, Vector};

use crate::error::NarrowphaseError;

/// Samples per tree leaf.
const LEAF_SIZE: usize = 4;

/// One node of the sample tree: a box and either two children or a range of samples.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Node<const D: usize> {
    pub bounds: Aabb<D>,
    pub start: usize,
    pub end: usize,
    /// Indices of the two children; `None` for a leaf.
    pub children: Option<[usize; 2]>,
}

/// A mesh as point samples in its LOCAL frame, with a tree over them.
#[derive(Clone, Debug, PartialEq)]
pub struct MeshPoints<const D: usize> {
    points: Vec<Vector<D>>,
    ids: Vec<u32>,
    nodes: Vec<Node<D>>,
    spacing: Real,
}

impl<const D: usize> MeshPoints<D> {
    /// Samples at `points` (local frame, metres). Contacting samples closer than `spacing`
    /// (metres) belong to the same contact region. Each sample's id is its index.
    pub fn new(points: Vec<Vector<D>>, spacing: Real) -> Result<Self, NarrowphaseError> {
        if points.is_empty() {
            return Err(shape_error("points", "must not be empty"));
        }
        if points.iter().any(|p| p.iter().any(|x| !x.is_finite())) {
            return Err(shape_error("points", "must be finite"));
        }
        if points.len() > u32::MAX as usize {
            return Err(shape_error("points", "too many samples"));
        }
        if !(spacing.is_finite() && spacing > 0.0) {
            return Err(shape_error("spacing", "must be finite and positive"));
        }
        let ids: Vec<u32> = (0..points.len() as u32).collect();
        let mut mesh = Self {
            points,
            ids,
            nodes: Vec::new(),
            spacing,
        };
        mesh.build();
        Ok(mesh)
    }

    /// The vertices of a mesh of `triangles` (indices into `vertices`, local frame), plus
    /// `edge_samples` evenly spaced points inside each edge. Vertex `i` keeps id `i`; edge
    /// samples get the ids after the vertices. The region spacing is 1.5 times the mean edge
    /// length (neighbouring vertices of one contact patch are linked).
    pub fn from_triangles(
        vertices: &[Vector<D>],
        triangles: &[[u32; 3]],
        edge_samples: usize,
    ) -> Result<Self, NarrowphaseError> {
        let n = vertices.len();
        let mut edges: Vec<[u32; 2]> = Vec::new();
        for t in triangles {
            if t.iter().any(|&i| i as usize >= n) {
                return Err(shape_error("triangles", "index out of range"));
            }
            for k in 0..3 {
                let (a, b) = (t[k], t[(k + 1) % 3]);
                edges.push([a.min(b), a.max(b)]);
            }
        }
        edges.sort_unstable();
        edges.dedup();
        let mut points = vertices.to_vec();
        let mut total = 0.0;
        for [a, b] in &edges {
            let (pa, pb) = (vertices[*a as usize], vertices[*b as usize]);
            total += (pb - pa).norm();
            for s in 1..=edge_samples {
                let t = s as Real / (edge_samples + 1) as Real;
                points.push(pa + (pb - pa) * t);
            }
        }
        let mean = if edges.is_empty() {
            0.0
        } else {
            total / edges.len() as Real
        };
        let spacing = if mean > 0.0 && mean.is_finite() {
            1.5 * mean
        } else {
            1.0
        };
        Self::new(points, spacing)
    }

    /// Number of samples.
    pub fn len(&self) -> usize {
        self.points.len()
    }

    /// True when there are no samples (never, for a constructed value).
    pub fn is_empty(&self) -> bool {
        self.points.is_empty()
    }

    /// Linking distance of contact regions, metres.
    pub fn spacing(&self) -> Real {
        self.spacing
    }

    /// The box of all samples, local frame.
    pub fn bounds(&self) -> Aabb<D> {
        self.nodes[0].bounds
    }

    /// The samples in tree order (local frame) with their ids.
    pub(crate) fn samples(&self) -> (&[Vector<D>], &[u32]) {
        (&self.points, &self.ids)
    }

    pub(crate) fn nodes(&self) -> &[Node<D>] {
        &self.nodes
    }

    fn build(&mut self) {
        self.nodes.clear();
        self.build_node(0, self.points.len());
    }

    /// Builds the node over samples `start..end` (reordering them), returns its index.
    fn build_node(&mut self, start: usize, end: usize) -> usize {
        let bounds = Aabb::from_points(&self.points[start..end]);
        let index = self.nodes.len();
        self.nodes.push(Node {
            bounds,
            start,
            end,
            children: None,
        });
        if end - start <= LEAF_SIZE {
            return index;
        }
        let axis = bounds.longest_axis();
        let mid = (start + end) / 2;
        let mut order: Vec<usize> = (start..end).collect();
        order.sort_by(|&i, &j| {
            self.points[i][axis]
                .total_cmp(&self.points[j][axis])
                .then(i.cmp(&j))
        });
        let pts: Vec<Vector<D>> = order.iter().map(|&i| self.points[i]).collect();
        let ids: Vec<u32> = order.iter().map(|&i| self.ids[i]).collect();
        self.points[start..end].copy_from_slice(&pts);
        self.ids[start..end].copy_from_slice(&ids);
        let left = self.build_node(start, mid);
        let right = self.build_node(mid, end);
        self.nodes[index].children = Some([left, right]);
        index
    }
}

fn shape_error(field: &'static str, reason: &str) -> NarrowphaseError {
    NarrowphaseError::InvalidShape {
        field,
        reason: reason.into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fathom_math::Vector3;

    #[test]
    fn tree_covers_every_sample_once() {
        let pts: Vec<Vector3> = (0..37)
            .map(|i| Vector3::new((i * 7 % 11) as Real, (i % 5) as Real, i as Real * 0.1))
            .collect();
        let m = MeshPoints::new(pts.clone(), 1.0).unwrap();
        let (samples, ids) = m.samples();
        let mut seen: Vec<u32> = ids.to_vec();
        seen.sort_unstable();
        assert_eq!(seen, (0..37).collect::<Vec<u32>>());
        for (p, id) in samples.iter().zip(ids) {
            assert_eq!(*p, pts[*id as usize]);
        }
        for node in m.nodes() {
            for p in &samples[node.start..node.end] {
                assert!(node.bounds.contains_point(p));
            }
        }
    }

    #[test]
    fn bad_input_names_the_field() {
        assert!(matches!(
            MeshPoints::<3>::new(vec![], 1.0),
            Err(NarrowphaseError::InvalidShape {
                field: "points",
                ..
            })
        ));
        assert!(matches!(
            MeshPoints::new(vec![Vector3::zeros()], Real::NAN),
            Err(NarrowphaseError::InvalidShape {
                field: "spacing",
                ..
            })
        ));
        assert!(matches!(
            MeshPoints::from_triangles(&[Vector3::zeros()], &[[0, 1, 2]], 0),
            Err(NarrowphaseError::InvalidShape {
                field: "triangles",
                ..
            })
        ));
    }
}
