//! Contact regions: connected components of the coarse cells that may hold a contact.
//!
//! The search first covers the overlap of the inflated shapes with cells of a coarse size
//! (relative to the shapes, independent of the smallest cell, so this step costs the same at
//! any precision). Cells that touch (share a face, an edge or a corner) belong to one region;
//! each region is then refined on its own into one manifold. Two posts under an arch, or two
//! interlocked rings, give two regions because no chain of touching coarse cells joins them.
//! Regions are ordered by their centroid so that their order (and the contact ids derived from
//! it) does not change from one step to the next.

use fathom_math::{Real, Vector};

use crate::search::Cell;

/// Groups `cells` into connected components of touching boxes, ordered by centroid
/// (lexicographically, first axis first).
pub(crate) fn components<const K: usize>(cells: &[Cell<K>]) -> Vec<Vec<Cell<K>>> {
    let n = cells.len();
    let mut parent: Vec<usize> = (0..n).collect();
    let eps = cells.iter().map(|c| c.bounds.radius()).fold(0.0, Real::max) * 1e-4;
    for i in 0..n {
        let bi = cells[i].bounds.loosened(eps);
        for (j, other) in cells.iter().enumerate().skip(i + 1) {
            if bi.intersects(&other.bounds) {
                union(&mut parent, i, j);
            }
        }
    }
    let mut groups: Vec<Vec<Cell<K>>> = Vec::new();
    let mut slot = vec![usize::MAX; n];
    for (i, cell) in cells.iter().enumerate() {
        let r = find(&mut parent, i);
        if slot[r] == usize::MAX {
            slot[r] = groups.len();
            groups.push(Vec::new());
        }
        groups[slot[r]].push(*cell);
    }
    let mut keyed: Vec<(Vector<K>, Vec<Cell<K>>)> =
        groups.into_iter().map(|g| (centroid(&g), g)).collect();
    keyed.sort_by(|a, b| {
        for k in 0..K {
            match a.0[k].total_cmp(&b.0[k]) {
                std::cmp::Ordering::Equal => continue,
                o => return o,
            }
        }
        std::cmp::Ordering::Equal
    });
    keyed.into_iter().map(|(_, g)| g).collect()
}

fn centroid<const K: usize>(cells: &[Cell<K>]) -> Vector<K> {
    let mut sum = Vector::<K>::zeros();
    let mut w = 0.0;
    for c in cells {
        let v = c.bounds.volume().max(1e-30);
        sum += c.centre() * v;
        w += v;
    }
    sum / w
}

fn find(parent: &mut [usize], mut i: usize) -> usize {
    while parent[i] != i {
        parent[i] = parent[parent[i]];
        i = parent[i];
    }
    i
}

fn union(parent: &mut [usize], a: usize, b: usize) {
    let (ra, rb) = (find(parent, a), find(parent, b));
    if ra != rb {
        // Keep the smaller index as root so the grouping is independent of merge order.
        let (lo, hi) = if ra < rb { (ra, rb) } else { (rb, ra) };
        parent[hi] = lo;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fathom_math::{Aabb, Vector2};

    fn cell(x: Real, y: Real) -> Cell<2> {
        let b = Aabb::new(Vector2::new(x, y), Vector2::new(x + 1.0, y + 1.0));
        Cell {
            bounds: b,
            values: [0.0; 2],
            lows: [0.0; 2],
            depth: 0,
        }
    }

    #[test]
    fn touching_cells_join_and_apart_cells_do_not() {
        // Two diagonal neighbours (touching at a corner) and one cell two units away.
        let cells = [cell(3.0, 0.0), cell(0.0, 0.0), cell(1.0, 1.0)];
        let groups = components(&cells);
        assert_eq!(groups.len(), 2);
        assert_eq!(
            groups[0].len(),
            2,
            "the corner-touching pair comes first (smaller centroid x)"
        );
        assert_eq!(groups[1].len(), 1);
    }
}
