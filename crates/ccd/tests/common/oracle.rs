//! parry2d / parry3d as oracles, behind one trait so the tests stay dimension-generic.
//! parry 0.31 speaks glam; poses convert through glamx's nalgebra `From` impls.

use fathom_math::{Dim, Pose, Real, Space, Vector};
use fathom_sdf::{Ball, Capsule, Cuboid, Sdf};

/// A convex shape both engines know. Capsules lie along the local y axis.
#[derive(Clone, Copy, Debug)]
pub enum Convex<const D: usize> {
    Ball(Real),
    Cuboid(Vector<D>),
    Capsule { half_height: Real, radius: Real },
}

impl<const D: usize> Convex<D> {
    pub fn fathom(&self) -> Box<dyn Sdf<D>> {
        match *self {
            Convex::Ball(r) => Box::new(Ball::new(r).unwrap()),
            Convex::Cuboid(h) => Box::new(Cuboid::new(h).unwrap()),
            Convex::Capsule {
                half_height,
                radius,
            } => Box::new(Capsule::new(half_height, radius).unwrap()),
        }
    }
}

/// A parry shape cast's answer: time of impact and the normal on shape 1, world frame.
pub struct OracleHit<const D: usize> {
    pub toi: Real,
    pub normal1: Vector<D>,
}

pub trait Oracle<const D: usize>
where
    Space<D>: Dim<D>,
{
    /// parry's `cast_ray` (solid) against `shape` at `pose`; `dir` unit.
    fn cast_ray(
        shape: &Convex<D>,
        pose: &Pose<D>,
        origin: &Vector<D>,
        dir: &Vector<D>,
        max: Real,
    ) -> Option<Real>;
    /// parry's `cast_shapes`: shape 1 moving at `vel1`, shape 2 fixed.
    fn cast_shapes(
        s1: &Convex<D>,
        pose1: &Pose<D>,
        vel1: &Vector<D>,
        s2: &Convex<D>,
        pose2: &Pose<D>,
        max_toi: Real,
    ) -> Option<OracleHit<D>>;
    /// Same, with shape 1 a capsule around the segment `-half_axis..half_axis` (local frame of pose1).
    fn cast_segment(
        half_axis: &Vector<D>,
        radius: Real,
        pose1: &Pose<D>,
        vel1: &Vector<D>,
        s2: &Convex<D>,
        pose2: &Pose<D>,
        max_toi: Real,
    ) -> Option<OracleHit<D>>;
    /// parry's signed distance (`contact(..).dist`, negative when penetrating) of two shapes.
    fn signed_distance(s1: &Convex<D>, pose1: &Pose<D>, s2: &Convex<D>, pose2: &Pose<D>) -> Real;
    /// The same with shape 1 a capsule around `-half_axis..half_axis`.
    fn segment_signed_distance(
        half_axis: &Vector<D>,
        radius: Real,
        pose1: &Pose<D>,
        s2: &Convex<D>,
        pose2: &Pose<D>,
    ) -> Real;
}

macro_rules! oracle_impl {
    ($d:literal, $parry:ident, $vec:ident, $($c:ident),+) => {
        impl Oracle<$d> for Space<$d> {
            fn cast_ray(shape: &Convex<$d>, pose: &Pose<$d>, origin: &Vector<$d>, dir: &Vector<$d>, max: Real) -> Option<Real> {
                use $parry::query::Ray;
                let ray = Ray::new(to_glam(origin), to_glam(dir));
                let p: $parry::math::Pose = (*pose).into();
                with_shape(shape, |s| s.cast_ray(&p, &ray, max, true))
            }
            fn cast_shapes(
                s1: &Convex<$d>,
                pose1: &Pose<$d>,
                vel1: &Vector<$d>,
                s2: &Convex<$d>,
                pose2: &Pose<$d>,
                max_toi: Real,
            ) -> Option<OracleHit<$d>> {
                let g1 = parry_shape(s1);
                shapes(&*g1, pose1, vel1, s2, pose2, max_toi)
            }
            fn cast_segment(
                half_axis: &Vector<$d>,
                radius: Real,
                pose1: &Pose<$d>,
                vel1: &Vector<$d>,
                s2: &Convex<$d>,
                pose2: &Pose<$d>,
                max_toi: Real,
            ) -> Option<OracleHit<$d>> {
                let a = to_glam(half_axis);
                let g1 = $parry::shape::Capsule::new(-a, a, radius);
                shapes(&g1, pose1, vel1, s2, pose2, max_toi)
            }
            fn signed_distance(s1: &Convex<$d>, pose1: &Pose<$d>, s2: &Convex<$d>, pose2: &Pose<$d>) -> Real {
                signed(&*parry_shape(s1), pose1, s2, pose2)
            }
            fn segment_signed_distance(
                half_axis: &Vector<$d>,
                radius: Real,
                pose1: &Pose<$d>,
                s2: &Convex<$d>,
                pose2: &Pose<$d>,
            ) -> Real {
                let a = to_glam(half_axis);
                signed(&$parry::shape::Capsule::new(-a, a, radius), pose1, s2, pose2)
            }
        }

        fn signed(g1: &dyn $parry::shape::Shape, pose1: &Pose<$d>, s2: &Convex<$d>, pose2: &Pose<$d>) -> Real {
            let g2 = parry_shape(s2);
            let p1: $parry::math::Pose = (*pose1).into();
            let p2: $parry::math::Pose = (*pose2).into();
            // Shapes farther apart than the prediction report no contact: call that infinitely far.
            match $parry::query::contact(&p1, g1, &p2, &*g2, 1.0e3).expect("supported pair") {
                Some(c) => c.dist,
                None => Real::INFINITY,
            }
        }

        fn to_glam(v: &Vector<$d>) -> $parry::math::Vector {
            $parry::math::Vector::new($(v.$c),+)
        }

        fn from_glam(v: $parry::math::Vector) -> Vector<$d> {
            Vector::<$d>::new($(v.$c),+)
        }

        fn parry_shape(s: &Convex<$d>) -> Box<dyn $parry::shape::Shape> {
            match *s {
                Convex::Ball(r) => Box::new($parry::shape::Ball::new(r)),
                Convex::Cuboid(h) => Box::new($parry::shape::Cuboid::new(to_glam(&h))),
                Convex::Capsule { half_height, radius } => {
                    Box::new($parry::shape::Capsule::new_y(half_height, radius))
                }
            }
        }

        fn with_shape<T>(s: &Convex<$d>, f: impl Fn(&dyn $parry::query::RayCast) -> T) -> T {
            match *s {
                Convex::Ball(r) => f(&$parry::shape::Ball::new(r)),
                Convex::Cuboid(h) => f(&$parry::shape::Cuboid::new(to_glam(&h))),
                Convex::Capsule { half_height, radius } => f(&$parry::shape::Capsule::new_y(half_height, radius)),
            }
        }

        fn shapes(
            g1: &dyn $parry::shape::Shape,
            pose1: &Pose<$d>,
            vel1: &Vector<$d>,
            s2: &Convex<$d>,
            pose2: &Pose<$d>,
            max_toi: Real,
        ) -> Option<OracleHit<$d>> {
            use $parry::query::{cast_shapes, ShapeCastOptions};
            let g2 = parry_shape(s2);
            let p1: $parry::math::Pose = (*pose1).into();
            let p2: $parry::math::Pose = (*pose2).into();
            let zero = $parry::math::Vector::ZERO;
            let opts = ShapeCastOptions::with_max_time_of_impact(max_toi);
            let hit = cast_shapes(&p1, to_glam(vel1), g1, &p2, zero, &*g2, opts).expect("supported pair")?;
            Some(OracleHit { toi: hit.time_of_impact, normal1: from_glam(p1.rotation * hit.normal1) })
        }
    };
}

mod d2 {
    use super::*;
    oracle_impl!(2, parry2d, Vec2, x, y);
}
mod d3 {
    use super::*;
    oracle_impl!(3, parry3d, Vec3, x, y, z);
}
