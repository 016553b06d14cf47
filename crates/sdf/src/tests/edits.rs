//! Edited shapes: skipping far edits through the cell index is exact (the indexed field equals
//! the banded field evaluated with every edit), the field keeps its Lipschitz bound across
//! reach boundaries, its signs are those of the nested CSG tree, and it round-trips through RON.

use crate::{Edit, EditOp, Edited, Sdf, Shape};
use fathom_math::{Dim, Pose, Real, Space, Vector};

fn at<const D: usize>(x: Real, y: Real) -> Vector<D> {
    let mut v = Vector::<D>::zeros();
    v[0] = x;
    v[1] = y;
    v
}

fn placed<const D: usize>(r: Real, c: Vector<D>) -> Shape<D>
where
    Space<D>: Dim<D>,
{
    let mut pose = Pose::<D>::identity();
    pose.translation.vector = c;
    Shape::ball(r).unwrap().transformed(pose).unwrap()
}

/// A 20 m slab with a row of craters and two mounds.
fn terrain<const D: usize>() -> (Shape<D>, Vec<Edit<D>>)
where
    Space<D>: Dim<D>,
{
    let mut half = Vector::<D>::repeat(10.0);
    half[1] = 1.0;
    let base = Shape::cuboid(half)
        .unwrap()
        .transformed({
            let mut p = Pose::<D>::identity();
            p.translation.vector = at::<D>(0.0, -1.0);
            p
        })
        .unwrap();
    let mut edits = Vec::new();
    for i in 0..12 {
        let x = -8.0 + 1.3 * i as Real;
        edits.push(Edit {
            op: if i % 4 == 3 {
                EditOp::Add
            } else {
                EditOp::Carve
            },
            shape: placed(
                0.5 + 0.1 * (i % 3) as Real,
                at::<D>(x, 0.1 * (i % 2) as Real),
            ),
        });
    }
    (base, edits)
}

/// The banded field with every edit evaluated (no index): the definition in `edited.rs`.
fn all_edits<const D: usize>(base: &Shape<D>, edits: &[Edit<D>], band: Real, p: &Vector<D>) -> Real
where
    Space<D>: Dim<D>,
{
    let hi = if edits.iter().any(|e| e.op == EditOp::Add) {
        band
    } else {
        Real::INFINITY
    };
    edits
        .iter()
        .fold(base.distance(p).clamp(-band, hi), |d, e| {
            let de = e.shape.distance(p);
            match e.op {
                EditOp::Carve => d.max(-de),
                EditOp::Add => d.min(de),
            }
            .clamp(-band, hi)
        })
}

fn lattice<const D: usize>(step: Real) -> Vec<Vector<D>> {
    let mut out = Vec::new();
    let n = (20.0 / step) as i32;
    for i in 0..=n {
        for j in 0..=(4.0 / step) as i32 {
            let mut p = at::<D>(-10.0 + i as Real * step, -2.5 + j as Real * step);
            if D == 3 {
                p[2] = 0.37 * (i % 5) as Real - 0.7;
            }
            out.push(p);
        }
    }
    out
}

fn check<const D: usize>()
where
    Space<D>: Dim<D>,
{
    let (base, edits) = terrain::<D>();
    let band = 0.75;
    let mut e = Edited::new(base.clone(), band).unwrap();
    for edit in &edits {
        e.push(edit.clone()).unwrap();
    }
    let nested = edits.iter().fold(base.clone(), |s, ed| match ed.op {
        EditOp::Carve => s.difference(ed.shape.clone()).unwrap(),
        EditOp::Add => s.union(ed.shape.clone()).unwrap(),
    });
    let points = lattice::<D>(0.07);
    for p in &points {
        let got = e.distance(p);
        // Bit-equal: an edit outside its reach changes nothing, so skipping it is exact.
        assert_eq!(got, all_edits(&base, &edits, band, p), "D={D} at {p:?}");
        // The same solid as the nested tree (1e-6: a point on the surface may take either sign).
        let want = nested.distance(p);
        assert!(
            got.signum() == want.signum() || want.abs() < 1e-6,
            "D={D} at {p:?}: {got} vs nested {want}"
        );
    }
    // Lipschitz 1 across every step of the lattice, reach boundaries included (1e-5 m:
    // f32 round-off of the distances).
    assert_eq!(e.lipschitz(), 1.0);
    for w in points.windows(2) {
        let (a, b) = (e.distance(&w[0]), e.distance(&w[1]));
        assert!(
            (a - b).abs() <= (w[0] - w[1]).norm() + 1e-5,
            "D={D} at {:?}",
            w[0]
        );
    }
    // RON round trip: the same shape, index rebuilt.
    let s = Shape::Edited(e.clone());
    let back = Shape::<D>::from_ron(&s.to_ron()).unwrap();
    assert_eq!(back, s);
    for p in points.iter().step_by(17) {
        assert_eq!(back.distance(p), e.distance(p));
    }
}

#[test]
fn edited_fields_skip_far_edits_exactly_and_stay_lipschitz_2d() {
    check::<2>();
}
#[test]
fn edited_fields_skip_far_edits_exactly_and_stay_lipschitz_3d() {
    check::<3>();
}

#[test]
fn unbounded_edits_are_refused() {
    let mut e = Edited::new(Shape::<3>::ball(1.0).unwrap(), 1.0).unwrap();
    let plane = Shape::<3>::half_space(Vector::<3>::y(), 0.0).unwrap();
    assert!(e
        .push(Edit {
            op: EditOp::Carve,
            shape: plane
        })
        .is_err());
    assert!(Edited::new(Shape::<2>::ball(1.0).unwrap(), Real::NAN).is_err());
}
