//! From the points a region's searches found to a manifold a solver can stack on.
//!
//! A region contributes candidates: its deepest point and its extremes along tangent
//! directions (two in 2D, four in 3D, at a fixed generic angle to the tangent basis so that
//! they land on a flat contact's corners rather than along its edges). Each candidate is
//! projected onto both surfaces, its depth is its signed separation along the normal, and its
//! key is the direction it extremises (0 for the deepest), which together with the region's
//! index makes an id that survives small slides. Near-duplicates are merged, points beyond the
//! margin dropped, and if too many remain the area-maximising reduction keeps the deepest and
//! the set spanning the largest area.

use fathom_math::{Dim, ManifoldPoints, Pose, Real, Space, Vector, MAX_MANIFOLD_POINTS};
use smallvec::SmallVec;

/// Candidates of one manifold before reduction: a box face clipped by a box face gives at
/// most eight, which stay off the heap; the field searches may give more.
pub(crate) type Candidates<const D: usize> = SmallVec<[Candidate<D>; 8]>;

use crate::field::Field;
use crate::types::{ContactPoint, Manifold};

/// Angle of the first extreme direction from the first tangent (radians): generic, so that
/// neither the tangent axes nor their diagonals (where boxes have edges) are hit.
const DIRECTION_ANGLE: Real = 0.35;
/// Ids per region: key 0 is the deepest point, 1..=4 the tangent extremes.
pub(crate) const IDS_PER_REGION: u32 = 8;

/// A contact point in the search frame before it becomes a [`ContactPoint`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Candidate<const D: usize> {
    pub point_a: Vector<D>,
    pub point_b: Vector<D>,
    pub depth: Real,
    pub key: u32,
}

impl<const D: usize> Candidate<D> {
    fn location(&self) -> Vector<D> {
        (self.point_a + self.point_b) * 0.5
    }
}

/// The tangent directions whose extremes span a region (search frame), for unit normal `n`.
pub(crate) fn tangent_directions<const D: usize>(n: &Vector<D>) -> Vec<Vector<D>>
where
    Space<D>: Dim<D>,
{
    let [t1, t2] = Space::<D>::tangents(n);
    if D == 2 {
        return vec![t1, -t1];
    }
    (0..4)
        .map(|k| {
            let a = DIRECTION_ANGLE + k as Real * std::f32::consts::FRAC_PI_2;
            t1 * a.cos() + t2 * a.sin()
        })
        .collect()
}

/// Projects a point `q` of a region onto both surfaces. The shape whose surface faces the
/// normal less (the one that bounds the region sideways, at a corner or a rim) gives the anchor
/// point by its own gradient; the other point lies along the normal from it at the separation
/// the other field measures there.
pub(crate) fn project<const D: usize>(
    a: &dyn Field<D>,
    b: &dyn Field<D>,
    q: &Vector<D>,
    values: [Real; 2],
    n: &Vector<D>,
    key: u32,
) -> Candidate<D> {
    let (ga, gb) = (a.gradient(q), b.gradient(q));
    if -gb.dot(n) <= ga.dot(n) {
        let pb = q - gb * values[1];
        let depth = a.value(&pb);
        Candidate {
            point_a: pb - n * depth,
            point_b: pb,
            depth,
            key,
        }
    } else {
        let pa = q - ga * values[0];
        let depth = b.value(&pa);
        Candidate {
            point_a: pa,
            point_b: pa + n * depth,
            depth,
            key,
        }
    }
}

/// Merges candidates closer than `merge` (keeping the first), drops those separated by more
/// than `margin`, drops the deepest point (key `deep_key`) when an extreme at least `merge` from
/// it is as deep within `tol`, and
/// reduces to `max_points` by keeping the deepest and maximising the spanned area.
pub(crate) fn reduce<const D: usize>(
    candidates: &[Candidate<D>],
    n: &Vector<D>,
    margin: Real,
    merge: Real,
    tol: Real,
    deep_key: Option<u32>,
) -> ManifoldPoints<Candidate<D>>
where
    Space<D>: Dim<D>,
{
    let max_points = if D == 2 { 2 } else { 4 };
    let is_deep = |c: &Candidate<D>| deep_key == Some(c.key);
    let deep_at = candidates.iter().find(|c| is_deep(c)).map(|c| c.location());
    // An extreme within `merge` of the deepest point is that point found again (the core of a
    // point contact on a curved surface), not a corner of a flat patch that could replace it.
    // Only a deep point compares against it: the closed-form pairs have none and skip it.
    let deepest_extreme = match deep_at {
        None => Real::INFINITY,
        Some(p) => candidates
            .iter()
            .filter(|c| !is_deep(c))
            .filter(|c| (c.location() - p).norm() >= merge)
            .map(|c| c.depth)
            .fold(Real::INFINITY, Real::min),
    };
    let mut kept: Candidates<D> = Candidates::new();
    for c in candidates {
        let finite = c.depth.is_finite()
            && c.point_a
                .iter()
                .chain(c.point_b.iter())
                .all(|x| x.is_finite());
        if !finite || c.depth > margin {
            continue;
        }
        if is_deep(c) && c.depth >= deepest_extreme - tol {
            continue;
        }
        if kept
            .iter()
            .any(|k| (k.location() - c.location()).norm() < merge)
        {
            continue;
        }
        kept.push(*c);
    }
    if kept.len() <= max_points {
        return ManifoldPoints::try_from(kept.as_slice()).expect("at most max_points");
    }
    area_maximising(&kept, n, max_points)
}

/// The area-maximising reduction: the deepest candidate, the one farthest from it, then
/// (3D) the one spanning the largest triangle with those two, then the one making the largest
/// hull with those three. Ties keep the earliest candidate, so the choice is deterministic.
fn area_maximising<const D: usize>(
    c: &[Candidate<D>],
    n: &Vector<D>,
    max_points: usize,
) -> ManifoldPoints<Candidate<D>>
where
    Space<D>: Dim<D>,
{
    let [t1, t2] = Space::<D>::tangents(n);
    let plane: SmallVec<[[Real; 2]; 16]> = c
        .iter()
        .map(|k| {
            let p = k.location();
            [t1.dot(&p), if D == 2 { 0.0 } else { t2.dot(&p) }]
        })
        .collect();
    let mut chosen: ManifoldPoints<usize> = ManifoldPoints::new();
    chosen.push((0..c.len()).fold(0, |b, i| if c[i].depth < c[b].depth { i } else { b }));
    while chosen.len() < max_points.min(c.len()) {
        let mut best: Option<(Real, usize)> = None;
        for i in (0..c.len()).filter(|i| !chosen.contains(i)) {
            let mut pts: ManifoldPoints<[Real; 2]> = chosen.iter().map(|&j| plane[j]).collect();
            pts.push(plane[i]);
            let size = match pts.len() {
                2 => ((pts[0][0] - pts[1][0]).powi(2) + (pts[0][1] - pts[1][1]).powi(2)).sqrt(),
                _ => hull_area(&pts),
            };
            if best.is_none_or(|(s, _)| size > s) {
                best = Some((size, i));
            }
        }
        match best {
            Some((_, i)) => chosen.push(i),
            None => break,
        }
    }
    chosen.sort_unstable();
    chosen.into_iter().map(|i| c[i]).collect()
}

/// Area of the convex hull of at most [`MAX_MANIFOLD_POINTS`] planar points (monotone chain,
/// then the shoelace formula).
fn hull_area(points: &[[Real; 2]]) -> Real {
    let mut p: ManifoldPoints<[Real; 2]> = points.iter().copied().collect();
    p.sort_by(|a, b| a[0].total_cmp(&b[0]).then(a[1].total_cmp(&b[1])));
    let cross = |o: [Real; 2], a: [Real; 2], b: [Real; 2]| {
        (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])
    };
    // Each pass pushes at most every point once (and pops one), so the hull fits twice the input.
    let mut hull = fathom_math::arrayvec::ArrayVec::<[Real; 2], { 2 * MAX_MANIFOLD_POINTS }>::new();
    for pass in 0..2 {
        let start = hull.len();
        for k in 0..p.len() {
            let q = if pass == 0 { p[k] } else { p[p.len() - 1 - k] };
            while hull.len() >= start + 2
                && cross(hull[hull.len() - 2], hull[hull.len() - 1], q) <= 0.0
            {
                hull.pop();
            }
            hull.push(q);
        }
        hull.pop();
    }
    let mut area = 0.0;
    for i in 0..hull.len() {
        let (a, b) = (hull[i], hull[(i + 1) % hull.len()]);
        area += a[0] * b[1] - a[1] * b[0];
    }
    0.5 * area.abs()
}

/// The manifold of candidates found in the world frame already (the box pairs), ids
/// `id_base + key`: [`to_world`] without a transform.
pub(crate) fn in_world<const D: usize>(
    candidates: &[Candidate<D>],
    n: &Vector<D>,
    id_base: u32,
) -> Manifold<D>
where
    Space<D>: Dim<D>,
{
    let mut points = ManifoldPoints::new();
    for c in candidates.iter().take(MAX_MANIFOLD_POINTS) {
        points.push(ContactPoint {
            point_a: c.point_a,
            point_b: c.point_b,
            depth: c.depth,
            id: id_base + c.key,
        });
    }
    Manifold { normal: *n, points }
}

/// The manifold in the world frame (ids are `id_base + key`) (`frame` maps the search frame to world).
pub(crate) fn to_world<const D: usize>(
    candidates: &[Candidate<D>],
    n: &Vector<D>,
    id_base: u32,
    frame: &Pose<D>,
) -> Manifold<D>
where
    Space<D>: Dim<D>,
{
    let to_world = |p: &Vector<D>| frame.transform_point(&nalgebra::Point::from(*p)).coords;
    let points = candidates
        .iter()
        .map(|c| ContactPoint {
            point_a: to_world(&c.point_a),
            point_b: to_world(&c.point_b),
            depth: c.depth,
            id: id_base + c.key,
        })
        .collect();
    Manifold {
        normal: frame.transform_vector(n),
        points,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fathom_math::Vector3;

    fn cand(x: Real, z: Real, depth: Real, key: u32) -> Candidate<3> {
        let p = Vector3::new(x, 0.0, z);
        Candidate {
            point_a: p,
            point_b: p,
            depth,
            key,
        }
    }

    #[test]
    fn hull_area_ignores_an_interior_point() {
        // Half the unit square, with a point inside: the hull is the triangle, area 1/2.
        let pts = [[0.0, 0.0], [1.0, 0.0], [0.7, 0.3], [1.0, 1.0]];
        assert!((hull_area(&pts) - 0.5).abs() < 1e-6);
        let square = [[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]];
        assert!((hull_area(&square) - 1.0).abs() < 1e-6);
    }

    #[test]
    fn reduction_keeps_deepest_and_largest_quad() {
        // Five candidates: a deep point at the centre and four corners; the deepest must stay,
        // and three corners spanning the largest area (a triangle of half the square) join it.
        let n = Vector3::y();
        let c = [
            cand(0.0, 0.0, -0.5, 0),
            cand(1.0, 1.0, -0.1, 1),
            cand(-1.0, 1.0, -0.1, 2),
            cand(-1.0, -1.0, -0.1, 3),
            cand(1.0, -1.0, -0.1, 4),
        ];
        let r = reduce(&c, &n, 0.1, 0.01, 0.01, Some(0));
        assert_eq!(r.len(), 4);
        assert!(r.iter().any(|k| k.key == 0));
    }

    #[test]
    fn flat_deepest_point_gives_way_to_the_corners() {
        // The deepest point is no deeper than the corners: the four corners are the manifold.
        let n = Vector3::y();
        let c = [
            cand(0.0, 0.0, -0.1, 0),
            cand(1.0, 1.0, -0.1, 1),
            cand(-1.0, 1.0, -0.1, 2),
            cand(-1.0, -1.0, -0.1, 3),
            cand(1.0, -1.0, -0.1, 4),
        ];
        let r = reduce(&c, &n, 0.1, 0.01, 0.01, Some(0));
        assert_eq!(
            r.iter().map(|k| k.key).collect::<Vec<_>>(),
            vec![1, 2, 3, 4]
        );
    }

    #[test]
    fn candidates_beyond_the_margin_are_dropped() {
        let n = Vector3::y();
        let r = reduce(
            &[cand(0.0, 0.0, 0.5, 1), cand(1.0, 0.0, 0.05, 2)],
            &n,
            0.1,
            0.01,
            0.01,
            Some(0),
        );
        assert_eq!(r.len(), 1);
        assert_eq!(r[0].key, 2);
    }
}
