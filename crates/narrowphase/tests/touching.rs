//! Touching pairs of general fields: the intersection test counts a touch within the query's
//! tolerance, the penetration of a touch is zero, and neither refines the whole interface to
//! prove there is no overlap (the count of field evaluations is deterministic).

mod common;

use common::Oracle;
use fathom_math::{Dim, Pose, Real, Space};
use fathom_narrowphase::{intersects, penetration, ContactOptions, DEFAULT_MIN_CELL_FRACTION};
use fathom_sdf::{Sdf, Shape};

/// Two balls of radius `R` at y = ±`H`, unioned: a general field (not a closed-form kind) whose
/// outermost points along x are `(±R, ±H)`.
const R: Real = 0.25;
const H: Real = 0.3;

fn peanut<const D: usize>() -> Shape<D>
where
    Space<D>: Dim<D> + Oracle<D>,
{
    let ball = |y| {
        let pose = Space::<D>::pose(Space::<D>::vec([0.0, y, 0.0]), [0.0; 3]);
        Shape::<D>::ball(R).unwrap().transformed(pose).unwrap()
    };
    ball(H).union(ball(-H)).unwrap()
}

/// The pair side by side along x with surface gap `gap`, the whole pair turned by `turn`: the
/// gap is the same in every orientation.
fn pair<const D: usize>(gap: Real, turn: [Real; 3]) -> (Pose<D>, Pose<D>)
where
    Space<D>: Dim<D> + Oracle<D>,
{
    let whole = Space::<D>::pose(Space::<D>::vec([0.1, -0.2, 0.3]), turn);
    let b = Space::<D>::pose(Space::<D>::vec([2.0 * R + gap, 0.0, 0.0]), [0.0; 3]);
    (whole, whole * b)
}

fn touching_pairs_are_cheap_and_exact<const D: usize>()
where
    Space<D>: Dim<D> + Oracle<D>,
{
    let shape = peanut::<D>();
    let opts = ContactOptions::default();
    // The pair's size is a shape's bounding radius; the smallest cell is 2% of it, and the
    // touching tolerance an eighth of that.
    let size = shape.bounds().radius();
    let cell = DEFAULT_MIN_CELL_FRACTION * size;
    for k in 0..12 {
        let t = k as Real * 0.53;
        let turn = [t, 0.7 * t + 0.2, 1.3 * t];
        // Exactly touching at two points: an intersection, of depth zero.
        let (pa, pb) = pair::<D>(0.0, turn);
        let hit = intersects(&shape, &pa, &shape, &pb, &opts).unwrap();
        assert!(
            hit.intersecting,
            "turn {turn:?}: touching pair reported apart"
        );
        // A dive to a leaf: a few dozen cells, where proving "apart" refined the interface
        // (about 3,000 evaluations for the compare's touching tori).
        assert!(hit.stats.evaluations <= 200, "{:?}", hit.stats);
        let pen = penetration(&shape, &pa, &shape, &pb, &opts).unwrap();
        let deep = pen
            .deepest
            .expect("a touching pair has a penetration of zero");
        assert!(deep.depth <= 0.25 * cell, "touching depth {}", deep.depth);
        assert!(pen.stats.evaluations <= 1_000, "{:?}", pen.stats);

        // Two smallest cells apart: no intersection, however the pair is turned.
        let (pa, pb) = pair::<D>(2.0 * cell, turn);
        let miss = intersects(&shape, &pa, &shape, &pb, &opts).unwrap();
        assert!(
            !miss.intersecting,
            "turn {turn:?}: pair {} apart intersects",
            2.0 * cell
        );
        assert!(penetration(&shape, &pa, &shape, &pb, &opts)
            .unwrap()
            .deepest
            .is_none());

        // Overlapping by two cells: the depth along x is the overlap. Tolerance: 1% of the
        // size plus a cell, the shape oracle's bound for penetration depths.
        let (pa, pb) = pair::<D>(-2.0 * cell, turn);
        assert!(
            intersects(&shape, &pa, &shape, &pb, &opts)
                .unwrap()
                .intersecting
        );
        let deep = penetration(&shape, &pa, &shape, &pb, &opts)
            .unwrap()
            .deepest
            .expect("overlapping pair");
        let err = (deep.depth - 2.0 * cell).abs();
        assert!(
            err <= 0.01 * size + cell,
            "depth {} for {}",
            deep.depth,
            2.0 * cell
        );
    }
}

#[test]
fn touching_pairs_are_cheap_and_exact_2d() {
    touching_pairs_are_cheap_and_exact::<2>();
}

#[test]
fn touching_pairs_are_cheap_and_exact_3d() {
    touching_pairs_are_cheap_and_exact::<3>();
}
