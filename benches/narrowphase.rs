//! fathom-narrowphase `contacts` on typical pairs, each at the default smallest cell and at one
//! ten times smaller. A closed form (ball-ball) costs a couple of evaluations; the searched
//! pairs should cost about a constant number of extra evaluations per halving of the cell
//! (bounded objectives: extremes and deepest points), not a factor (enumerating a flat contact).
//! The field evaluations of each case are printed once before it is timed.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use fathom_math::{Pose3, Real, Vector3};
use fathom_narrowphase::{contacts, ContactOptions, DEFAULT_MIN_CELL_FRACTION};
use fathom_sdf::{Sdf, Shape3};
use std::hint::black_box;

/// A gear: a disc (cylinder about y) with `teeth` box teeth around its rim, built from CSG.
fn gear(teeth: usize) -> Shape3 {
    let mut parts = vec![Shape3::cylinder(0.2, 1.0).unwrap()];
    for k in 0..teeth {
        let a = k as Real * std::f32::consts::TAU / teeth as Real;
        let pose = Pose3::new(
            Vector3::new(1.1 * a.cos(), 0.0, -1.1 * a.sin()),
            Vector3::new(0.0, a, 0.0),
        );
        parts.push(
            Shape3::cuboid(Vector3::new(0.15, 0.2, 0.1))
                .unwrap()
                .transformed(pose)
                .unwrap(),
        );
    }
    Shape3::union_all(parts).unwrap()
}

struct Case {
    name: &'static str,
    a: Shape3,
    pose_a: Pose3,
    b: Shape3,
    pose_b: Pose3,
}

fn cases() -> Vec<Case> {
    let cuboid = |x, y, z| Shape3::cuboid(Vector3::new(x, y, z)).unwrap();
    let torus = Shape3::torus(1.0, 0.26).unwrap();
    let teeth = 12;
    let pitch = std::f32::consts::TAU / teeth as Real;
    vec![
        Case {
            name: "ball_ball",
            a: Shape3::ball(0.5).unwrap(),
            pose_a: Pose3::identity(),
            b: Shape3::ball(0.5).unwrap(),
            pose_b: Pose3::translation(0.9, 0.1, 0.0),
        },
        Case {
            name: "cuboid_on_cuboid",
            a: cuboid(2.0, 0.5, 2.0),
            pose_a: Pose3::identity(),
            b: cuboid(0.5, 0.3, 0.4),
            pose_b: Pose3::new(Vector3::new(0.1, 0.8, -0.2), Vector3::new(0.0, 0.4, 0.0)),
        },
        Case {
            name: "tilted_cuboids",
            a: cuboid(0.5, 0.5, 0.5),
            pose_a: Pose3::identity(),
            b: cuboid(0.5, 0.5, 0.5),
            pose_b: Pose3::new(Vector3::new(0.2, 1.05, 0.1), Vector3::new(0.3, 0.2, 0.4)),
        },
        Case {
            // A capsule (core half length 0.4, radius 0.2) lying along x on a box's top face,
            // 1 mm in: the two points of a capsule resting in a heap of boxes.
            name: "capsule_on_cuboid",
            a: Shape3::capsule(0.4, 0.2).unwrap(),
            pose_a: Pose3::new(
                Vector3::new(0.1, 0.5 + 0.2 - 0.001, -0.2),
                Vector3::new(0.0, 0.0, std::f32::consts::FRAC_PI_2),
            ),
            b: cuboid(1.0, 0.5, 1.0),
            pose_b: Pose3::identity(),
        },
        Case {
            // Two logs: capsules (core half length 0.4, radius 0.2) lying along x, B on A offset
            // 0.2 along the axis and 1 mm in: the two points of logs stacked on logs.
            name: "capsule_on_capsule",
            a: Shape3::capsule(0.4, 0.2).unwrap(),
            pose_a: Pose3::new(
                Vector3::zeros(),
                Vector3::new(0.0, 0.0, std::f32::consts::FRAC_PI_2),
            ),
            b: Shape3::capsule(0.4, 0.2).unwrap(),
            pose_b: Pose3::new(
                Vector3::new(0.2, 0.4 - 0.001, 0.0),
                Vector3::new(0.0, 0.0, std::f32::consts::FRAC_PI_2),
            ),
        },
        Case {
            // Interlocked rings touching at (1.5, 0, 0) and (-0.5, 0, 0).
            name: "torus_torus_two_places",
            a: torus.clone(),
            pose_a: Pose3::identity(),
            b: torus,
            pose_b: Pose3::new(
                Vector3::new(0.5, 0.0, 0.0),
                Vector3::new(std::f32::consts::FRAC_PI_2, 0.0, 0.0),
            ),
        },
        Case {
            // Two gears meshing: B turned half a tooth, centres 2.16 apart: A's tip presses into B's
            // rim, B's two nearest tips come within the margin of A's rim (tips reach 1.25).
            name: "gear_gear",
            a: gear(teeth),
            pose_a: Pose3::identity(),
            b: gear(teeth),
            pose_b: Pose3::new(
                Vector3::new(2.16, 0.0, 0.0),
                Vector3::new(0.0, 0.5 * pitch, 0.0),
            ),
        },
    ]
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("narrowphase_contacts");
    for case in cases() {
        let size = case.a.bounds().radius().min(case.b.bounds().radius());
        let default_cell = DEFAULT_MIN_CELL_FRACTION * size;
        for (label, min_cell) in [
            ("default_cell", None),
            ("cell_div10", Some(default_cell / 10.0)),
        ] {
            let opts = ContactOptions {
                min_cell,
                ..ContactOptions::default()
            };
            let once = contacts(&case.a, &case.pose_a, &case.b, &case.pose_b, &opts).unwrap();
            println!(
                "{}/{label}: evaluations {} cells {} manifolds {} points {} hit_budget {}",
                case.name,
                once.stats.evaluations,
                once.stats.cells,
                once.manifolds.len(),
                once.manifolds.iter().map(|m| m.points.len()).sum::<usize>(),
                once.stats.hit_budget
            );
            group.bench_with_input(BenchmarkId::new(case.name, label), &opts, |bench, opts| {
                bench.iter(|| {
                    black_box(contacts(&case.a, &case.pose_a, &case.b, &case.pose_b, opts).unwrap())
                })
            });
        }
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
