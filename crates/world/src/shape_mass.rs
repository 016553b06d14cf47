//! Mass properties of a [`Shape`] tree at unit density: closed forms where
//! they exist (ball, cuboid, capsule, cylinder, torus, convex hull, and rigid placements
//! and uniform scalings of those), the voxel integral of the field for
//! everything else (CSG, smooth blends, rounded shapes, polygons, grids).
//!
//! A heightfield is terrain: like a half-space it has no finite mass here (a dynamic body
//! made of it is refused with a typed error), though its solid is bounded.

use crate::mass::{self, IntegrationError, MassProperties};
use fathom_math::{Dim, Real, Space, Vector};
use fathom_sdf::Shape;
use nalgebra::SMatrix;
use std::f32::consts::PI;

/// A diagonal second moment from its x, y, z entries (z unused in 2D).
fn diagonal<const D: usize>(xyz: [Real; 3]) -> SMatrix<Real, D, D> {
    SMatrix::from_fn(|i, j| if i == j { xyz[i.min(2)] } else { 0.0 })
}

/// Unit-density mass properties of `shape` in its local frame, or `None` for
/// shapes without finite mass (half-spaces and anything unbounded).
pub fn unit_mass_properties<const D: usize>(shape: &Shape<D>) -> Option<MassProperties<D>>
where
    Space<D>: Dim<D>,
{
    if let Some(closed) = closed_form(shape) {
        return closed;
    }
    match mass::integrate::<D>(shape) {
        Ok(m) => Some(m),
        Err(IntegrationError::Unbounded) => None,
        // A field with no inside (a disjoint intersection) weighs nothing.
        Err(IntegrationError::Empty) => Some(MassProperties::zero()),
    }
}

/// `Some(answer)` when `shape` has a closed form (the answer being `None` for
/// unbounded shapes), `None` when it must be integrated.
fn closed_form<const D: usize>(shape: &Shape<D>) -> Option<Option<MassProperties<D>>>
where
    Space<D>: Dim<D>,
{
    Some(Some(match shape {
        Shape::Ball(b) => mass::ball::<D>(b.radius),
        Shape::Cuboid(c) => mass::cuboid::<D>(&c.half_extents),
        Shape::Capsule(c) => mass::capsule::<D>(c.half_height, c.radius),
        Shape::HalfSpace(_) | Shape::Heightfield(_) => return Some(None),
        Shape::ConvexHull(h) => convex_hull::<D>(h.get()),
        Shape::Cylinder(c) => {
            let c = c.get();
            let m = PI * c.radius * c.radius * 2.0 * c.half_height;
            let across = m * c.radius * c.radius / 4.0;
            let along = m * c.half_height * c.half_height / 3.0;
            MassProperties {
                mass: m,
                center: Vector::zeros(),
                second_moment: diagonal([across, along, across]),
            }
        }
        Shape::Torus(t) => {
            let t = t.get();
            let (big, small) = (t.major_radius, t.minor_radius);
            let m = 2.0 * PI * PI * big * small * small;
            // ∫y² = m r²/4 (across the tube); ∫x² = ∫z² = m (R²/2 + 3r²/8).
            let across = m * (0.5 * big * big + 0.375 * small * small);
            let along = 0.25 * m * small * small;
            MassProperties {
                mass: m,
                center: Vector::zeros(),
                second_moment: diagonal([across, along, across]),
            }
        }
        Shape::Transformed(t) => {
            return closed_form(&t.shape).map(|o| o.map(|m| m.transformed(&t.pose)))
        }
        Shape::Scaled(s) => {
            let k = s.scale;
            return closed_form(&s.shape).map(|o| {
                o.map(|m| MassProperties {
                    mass: m.mass * k.powi(D as i32),
                    center: m.center * k,
                    second_moment: m.second_moment * k.powi(D as i32 + 2),
                })
            });
        }
        _ => return None,
    }))
}

/// A convex hull's mass properties, exactly: the sum over its faces of the tetrahedra from an
/// inner point (the vertices' mean) to each face. A tetrahedron with one corner at the origin
/// and the others `a, b, c` has volume `V = det[a b c] / 6` and `∫ x xᵀ = V/20 (Σ vvᵀ + s sᵀ)`
/// with `s = a + b + c` (the origin adding nothing).
fn convex_hull<const D: usize>(hull: &fathom_sdf::ConvexHull) -> MassProperties<D>
where
    Space<D>: Dim<D>,
{
    let v = hull.vertices();
    let o = v.iter().sum::<nalgebra::Vector3<Real>>() / v.len() as Real;
    let (mut volume, mut first, mut second) =
        (0.0, nalgebra::Vector3::zeros(), nalgebra::Matrix3::zeros());
    for f in hull.faces() {
        let [a, b, c] = f.map(|i| v[i as usize] - o);
        let vol = a.dot(&b.cross(&c)) / 6.0;
        let s = a + b + c;
        volume += vol;
        first += s * (vol / 4.0);
        second += (a * a.transpose() + b * b.transpose() + c * c.transpose() + s * s.transpose())
            * (vol / 20.0);
    }
    let centre = first / volume;
    let moment = second - centre * centre.transpose() * volume;
    MassProperties {
        mass: volume,
        center: Vector::<D>::from_fn(|i, _| (centre + o)[i]),
        second_moment: SMatrix::from_fn(|i, j| moment[(i, j)]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fathom_math::{Pose, Vector3};

    fn rel(a: Real, b: Real) -> Real {
        (a - b).abs() / b.abs().max(1e-9)
    }

    #[test]
    fn torus_closed_form_matches_its_integral() {
        let torus = Shape::<3>::torus(1.0, 0.3).unwrap();
        let closed = unit_mass_properties(&torus).unwrap();
        let integral = mass::integrate::<3>(&torus).unwrap();
        // 2%: the voxel sum stops refining once the mass changes by under 0.5% per doubling.
        assert!(
            rel(integral.mass, closed.mass) < 0.02,
            "{} vs {}",
            integral.mass,
            closed.mass
        );
        for i in 0..3 {
            let (a, b) = (integral.second_moment[(i, i)], closed.second_moment[(i, i)]);
            assert!(rel(a, b) < 0.03, "axis {i}: {a} vs {b}");
        }
    }

    #[test]
    fn placed_and_scaled_shapes_keep_closed_forms() {
        let ball = Shape::<3>::ball(0.5).unwrap();
        let moved = ball
            .clone()
            .transformed(Pose::<3>::translation(1.0, 2.0, 3.0))
            .unwrap();
        let m = unit_mass_properties(&moved).unwrap();
        assert!((m.center - Vector3::new(1.0, 2.0, 3.0)).norm() < 1e-6);
        let big = ball.scaled(2.0).unwrap();
        let b = unit_mass_properties(&big).unwrap();
        let want = mass::ball::<3>(1.0);
        assert!(
            rel(b.mass, want.mass) < 1e-5
                && rel(b.second_moment[(0, 0)], want.second_moment[(0, 0)]) < 1e-5
        );
    }

    #[test]
    fn csg_is_integrated_and_half_spaces_have_no_mass() {
        // A 2x1 box with a unit ball's worth... a box minus a ball cut at a corner: lighter than the box.
        let boxy = Shape::<2>::cuboid(nalgebra::Vector2::new(1.0, 0.5)).unwrap();
        let cut = boxy
            .clone()
            .difference(Shape::<2>::ball(0.5).unwrap())
            .unwrap();
        let whole = unit_mass_properties(&boxy).unwrap();
        let holed = unit_mass_properties(&cut).unwrap();
        let want = whole.mass - PI * 0.25;
        // 2%: voxel refinement tolerance (0.5% per doubling) plus the curved edge of the hole.
        assert!(rel(holed.mass, want) < 0.02, "{} vs {}", holed.mass, want);
        assert!(
            unit_mass_properties(&Shape::<3>::half_space(Vector3::y(), 0.0).unwrap()).is_none()
        );
    }
}
