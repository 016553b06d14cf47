//! fathom-ccd casts and time of impact, with parry3d 0.31's casts on the same convex shapes (3D).
//!
//! Each row runs a batch of 64 fixed casts, aimed from 4-5 m away at random points within
//! 0.5 m of the target's centre (about two thirds hit), over at most 10 m:
//! - `ray`, `sphere` (radius 0.2), `capsule` (segment of 0.6 m, radius 0.1) against
//!   `primitive` (a cuboid), `csg` (a cuboid and two balls, smooth-unioned with a capsule:
//!   a general field) and `grid` (that CSG shape baked at 64 cells along its longest side);
//! - `parry_*` the same casts with parry (`cast_ray`, `cast_shapes` with a ball or capsule)
//!   against the cuboid (parry has no CSG or SDF grid, so only the primitive is compared).
//!
//! `toi/*`: a 2 m bar spinning at 8 rad/s while drifting at 2 m/s into a wall (impact at
//! ~0.16 s of a 0.5 s step), fathom's conservative advancement vs parry's
//! `cast_shapes_nonlinear` (also conservative advancement, with convex-only distances).

use criterion::{criterion_group, criterion_main, Criterion};
use fathom_ccd::{cast, time_of_impact, CastOptions, CastShape, Motion, ToiOptions};
use fathom_math::{Pose3, Real, Vector3};
use fathom_sdf::{BakedGrid, Sdf, Shape3};
use parry3d::math::{Pose as PPose, Vector as PVec};
use parry3d::query::{
    cast_shapes, cast_shapes_nonlinear, NonlinearRigidMotion, Ray, RayCast, ShapeCastOptions,
};
use parry3d::shape::{Ball as PBall, Capsule as PCapsule, Cuboid as PCuboid};
use std::hint::black_box;

const HALF: [Real; 3] = [0.6, 0.4, 0.5];
const MAX: Real = 10.0;

/// A deterministic LCG in [-1, 1).
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> Real {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 40) as Real / (1u64 << 24) as Real) * 2.0 - 1.0
    }
    fn unit(&mut self) -> Vector3 {
        loop {
            let v = Vector3::new(self.next(), self.next(), self.next());
            if v.norm() > 0.1 && v.norm() <= 1.0 {
                return v.normalize();
            }
        }
    }
}

/// 64 (origin, unit direction) pairs aimed near the origin.
fn casts() -> Vec<(Vector3, Vector3)> {
    let mut rng = Lcg(7);
    (0..64)
        .map(|_| {
            let origin = rng.unit() * (4.5 + 0.5 * rng.next());
            let target = Vector3::new(rng.next(), rng.next(), rng.next()) * 0.5;
            (origin, (target - origin).normalize())
        })
        .collect()
}

fn csg() -> Shape3 {
    let ball = |x: Real| {
        Shape3::ball(0.35)
            .unwrap()
            .transformed(Pose3::translation(x, 0.0, 0.0))
            .unwrap()
    };
    let core = Shape3::union_all(vec![
        Shape3::cuboid(Vector3::new(0.4, 0.3, 0.3)).unwrap(),
        ball(0.6),
        ball(-0.6),
    ])
    .unwrap();
    let bar = Shape3::capsule(0.5, 0.15).unwrap();
    core.smooth_union(bar, 0.2).unwrap()
}

fn casters() -> [(&'static str, CastShape<3>); 3] {
    [
        ("ray", CastShape::ray()),
        ("sphere", CastShape::Ball { radius: 0.2 }),
        (
            "capsule",
            CastShape::Capsule {
                half_axis: Vector3::new(0.0, 0.3, 0.0),
                radius: 0.1,
            },
        ),
    ]
}

fn fathom_casts(c: &mut Criterion) {
    let cuboid = Shape3::cuboid(Vector3::from(HALF)).unwrap();
    let csg = csg();
    let grid = BakedGrid::<3>::bake_shape(&csg, 64).unwrap();
    let targets: [(&str, &dyn Sdf<3>); 3] =
        [("primitive", &cuboid), ("csg", &csg), ("grid", &grid)];
    let set = casts();
    let opts = CastOptions::default();
    let mut group = c.benchmark_group("cast64");
    for (caster, shape) in casters() {
        for (target, sdf) in targets {
            group.bench_function(format!("{caster}/{target}"), |b| {
                b.iter(|| {
                    let mut hits = 0;
                    for (o, d) in &set {
                        hits += cast(sdf, &shape, o, d, MAX, &opts).unwrap().is_contact() as u32;
                    }
                    black_box(hits)
                })
            });
        }
    }
    group.finish();
}

fn pvec(v: &Vector3) -> PVec {
    PVec::new(v.x, v.y, v.z)
}

fn parry_casts(c: &mut Criterion) {
    let cuboid = PCuboid::new(PVec::new(HALF[0], HALF[1], HALF[2]));
    let set = casts();
    let identity = PPose::IDENTITY;
    let opts = ShapeCastOptions::with_max_time_of_impact(MAX);
    let mut group = c.benchmark_group("cast64");
    group.bench_function("parry_ray/primitive", |b| {
        b.iter(|| {
            let mut hits = 0;
            for (o, d) in &set {
                let ray = Ray::new(pvec(o), pvec(d));
                hits += cuboid.cast_ray(&identity, &ray, MAX, true).is_some() as u32;
            }
            black_box(hits)
        })
    });
    let ball = PBall::new(0.2);
    let capsule = PCapsule::new(PVec::new(0.0, -0.3, 0.0), PVec::new(0.0, 0.3, 0.0), 0.1);
    let shapes: [(&str, &dyn parry3d::shape::Shape); 2] =
        [("sphere", &ball), ("capsule", &capsule)];
    for (name, shape) in shapes {
        group.bench_function(format!("parry_{name}/primitive"), |b| {
            b.iter(|| {
                let mut hits = 0;
                for (o, d) in &set {
                    let start = PPose::from_translation(pvec(o));
                    let hit =
                        cast_shapes(&start, pvec(d), shape, &identity, PVec::ZERO, &cuboid, opts);
                    hits += hit.unwrap().is_some() as u32;
                }
                black_box(hits)
            })
        });
    }
    group.finish();
}

fn toi(c: &mut Criterion) {
    let bar = Shape3::cuboid(Vector3::new(1.0, 0.02, 0.02)).unwrap();
    let wall = Shape3::cuboid(Vector3::new(0.05, 5.0, 5.0)).unwrap();
    let spin = Vector3::new(0.0, 0.0, 8.0);
    let start = Pose3::new(
        Vector3::zeros(),
        Vector3::new(0.0, 0.0, std::f32::consts::FRAC_PI_2),
    );
    let motion = Motion::new(start, Vector3::new(2.0, 0.0, 0.0), spin);
    let wall_pose = Pose3::translation(1.35, 0.0, 0.0);
    let opts = ToiOptions::default();
    let mut group = c.benchmark_group("toi");
    group.bench_function("fathom/spinning_bar", |b| {
        b.iter(|| {
            time_of_impact(&bar, &motion, &wall, &Motion::fixed(wall_pose), 0.5, &opts).unwrap()
        })
    });
    let pbar = PCuboid::new(PVec::new(1.0, 0.02, 0.02));
    let pwall = PCuboid::new(PVec::new(0.05, 5.0, 5.0));
    let m1 = NonlinearRigidMotion::new(
        start.into(),
        PVec::ZERO,
        PVec::new(2.0, 0.0, 0.0),
        pvec(&spin),
    );
    let m2 = NonlinearRigidMotion::constant_position(wall_pose.into());
    group.bench_function("parry/spinning_bar", |b| {
        b.iter(|| cast_shapes_nonlinear(&m1, &pbar, &m2, &pwall, 0.0, 0.5, true).unwrap())
    });
    group.finish();
}

criterion_group!(benches, fathom_casts, parry_casts, toi);
criterion_main!(benches);
