//! Every primitive against an independent oracle at random points: the distance to a dense
//! sample of its surface (from the surface's own parametrisation) signed by a direct
//! membership test. The oracle's error is at most the sampling's covering radius, which
//! is what each tolerance below is.

use super::support::{face_grid, point_in, runner, unit_directions};
use crate::{Sdf, Shape, Shape2, Shape3};
use fathom_math::{Aabb, Dim, Real, Space, Vector, Vector2, Vector3};
use proptest::prop_assert;
use std::f32::consts::TAU;

struct Oracle<const D: usize> {
    surface: Vec<Vector<D>>,
    inside: Box<dyn Fn(&Vector<D>) -> bool>,
    /// Subtracted from the sampled distance (a rounded polygon is its polygon's field minus r).
    shift: Real,
    /// Largest error of the sampled distance: the covering radius of the samples.
    tol: Real,
}

impl<const D: usize> Oracle<D> {
    fn distance(&self, p: &Vector<D>) -> Real {
        let m = self
            .surface
            .iter()
            .map(|s| (p - s).norm_squared())
            .fold(Real::INFINITY, Real::min)
            .sqrt();
        (if (self.inside)(p) { -m } else { m }) - self.shift
    }
}

fn check<const D: usize>(name: &str, shape: &Shape<D>, oracle: &Oracle<D>, region: Aabb<D>)
where
    Space<D>: Dim<D>,
{
    runner(48)
        .run(&point_in(region), |p| {
            let (d, o) = (shape.distance(&p), oracle.distance(&p));
            prop_assert!(
                (d - o).abs() <= oracle.tol
                    || ((d.abs() - o.abs()).abs() <= oracle.tol && o.abs() <= oracle.tol),
                "{name}: field {d} vs oracle {o} at {p:?}"
            );
            Ok(())
        })
        .unwrap_or_else(|e| panic!("{name}: {e}"));
}

fn region<const D: usize>(shape: &Shape<D>) -> Aabb<D>
where
    Space<D>: Dim<D>,
{
    let b = shape.bounds();
    b.loosened(0.3 * b.radius())
}

fn vector<const D: usize>(v: [Real; 3]) -> Vector<D> {
    Vector::<D>::from_fn(|i, _| v[i])
}

/// Ball, cuboid, rounded cuboid and capsule: the primitives written for any dimension.
fn generic_cases<const D: usize>() -> Vec<(&'static str, Shape<D>, Oracle<D>)>
where
    Space<D>: Dim<D>,
{
    let dirs = unit_directions::<D>(if D == 2 { 1500 } else { 12000 });
    let ball = Oracle {
        surface: dirs.iter().map(|u| u * 0.8).collect(),
        inside: Box::new(|p: &Vector<D>| p.norm() < 0.8),
        shift: 0.0,
        // Fibonacci spacing on the sphere of 0.8: 0.8 * sqrt(4π / 12000) ≈ 0.026 (circle: 0.0034).
        tol: 0.03,
    };
    let h: Vector<D> = vector([0.9, 0.5, 0.3]);
    let box_surface = |h: Vector<D>, m: usize| -> Vec<Vector<D>> {
        (0..D)
            .flat_map(|k| {
                face_grid::<D>(k, m).into_iter().flat_map(move |v| {
                    [1.0, -1.0].map(|s| {
                        let mut q = v.component_mul(&h);
                        q[k] = s * h[k];
                        q
                    })
                })
            })
            .collect()
    };
    let clamp_box = |p: &Vector<D>, h: &Vector<D>| p.sup(&-h).inf(h);
    let cuboid = Oracle {
        surface: box_surface(h, 60),
        inside: Box::new(move |p: &Vector<D>| (0..D).all(|k| p[k].abs() < h[k])),
        shift: 0.0,
        // Face grid step 1.8 / 60 = 0.03, covering radius 0.03 * sqrt(2) / 2 < 0.025.
        tol: 0.025,
    };
    let (hr, r) = (vector::<D>([0.6, 0.3, 0.2]), 0.15);
    let offsets = unit_directions::<D>(if D == 2 { 200 } else { 300 });
    let rounded_surface: Vec<Vector<D>> = box_surface(hr, 24)
        .into_iter()
        .flat_map(|b| offsets.iter().map(move |u| b + u * r))
        // Pushed out to exactly r from its nearest box point (clamping): on the surface.
        .map(|x| {
            let c = clamp_box(&x, &hr);
            c + (x - c).normalize() * r
        })
        .collect();
    let rounded = Oracle {
        surface: rounded_surface,
        inside: Box::new(move |p: &Vector<D>| (p - clamp_box(p, &hr)).norm() < r),
        shift: 0.0,
        // Face step 1.2 / 24 = 0.05 (covering radius 0.036 on the flat parts); offset
        // directions 0.15 * 0.2 = 0.03 apart on the round parts.
        tol: 0.04,
    };
    let (hh, cr) = (0.5, 0.3);
    fn axis_point<const D: usize>(y: Real) -> Vector<D> {
        let mut c = Vector::<D>::zeros();
        c[1] = y;
        c
    }
    let core_gap = move |x: &Vector<D>| (x - axis_point::<D>(x[1].clamp(-hh, hh))).norm();
    let capsule_surface: Vec<Vector<D>> = (0..=50)
        .map(|i| axis_point::<D>(-hh + 2.0 * hh * i as Real / 50.0))
        .flat_map(|c| {
            unit_directions::<D>(if D == 2 { 400 } else { 3000 })
                .into_iter()
                .map(move |u| c + u * cr)
        })
        .filter(|x| (core_gap(x) - cr).abs() < 1e-4)
        .collect();
    let capsule = Oracle {
        surface: capsule_surface,
        inside: Box::new(move |p: &Vector<D>| core_gap(p) < cr),
        shift: 0.0,
        // Core step 0.02, directions 0.3 * sqrt(4π / 3000) ≈ 0.02 apart.
        tol: 0.025,
    };
    vec![
        ("ball", Shape::ball(0.8).unwrap(), ball),
        ("cuboid", Shape::cuboid(h).unwrap(), cuboid),
        (
            "rounded_cuboid",
            Shape::rounded_cuboid(hr, r).unwrap(),
            rounded,
        ),
        ("capsule", Shape::capsule(hh, cr).unwrap(), capsule),
    ]
}

fn check_generic<const D: usize>()
where
    Space<D>: Dim<D>,
{
    for (name, shape, oracle) in generic_cases::<D>() {
        check(name, &shape, &oracle, region(&shape));
    }
    // The half-space: its signed distance is the offset of p from the plane point n * offset
    // along n (and its zero set is that plane).
    let n = vector::<D>([0.3, 1.0, -0.4]).normalize();
    let hs = Shape::<D>::half_space(vector([0.3, 1.0, -0.4]), 0.2).unwrap();
    let cube = Aabb::from_center_half_extents(Vector::<D>::zeros(), Vector::<D>::repeat(2.0));
    runner(48)
        .run(&point_in(cube), |p| {
            let expected = (p - n * 0.2).dot(&n);
            prop_assert!((hs.distance(&p) - expected).abs() < 1e-5);
            Ok(())
        })
        .unwrap();
}

#[test]
fn generic_primitives_match_oracle_2d() {
    check_generic::<2>();
}

#[test]
fn generic_primitives_match_oracle_3d() {
    check_generic::<3>();
}

/// Winding number of a closed polygon around `p` (a different inside test from the
/// implementation's crossing count).
fn winding(v: &[Vector2], p: &Vector2) -> i32 {
    let mut w = 0;
    for i in 0..v.len() {
        let (a, b) = (v[i] - p, v[(i + 1) % v.len()] - p);
        let cross = a.perp(&b);
        if a.y <= 0.0 && b.y > 0.0 && cross > 0.0 {
            w += 1;
        } else if a.y > 0.0 && b.y <= 0.0 && cross < 0.0 {
            w -= 1;
        }
    }
    w
}

fn polygon_oracle(v: Vec<Vector2>, shift: Real) -> Oracle<2> {
    let step = 0.004;
    let surface = (0..v.len())
        .flat_map(|i| {
            let (a, b) = (v[i], v[(i + 1) % v.len()]);
            let n = ((b - a).norm() / step).ceil() as usize;
            (0..n).map(move |k| a + (b - a) * (k as Real / n as Real))
        })
        .collect();
    // Edge samples at most 0.004 apart: covering radius 0.002.
    Oracle {
        surface,
        inside: Box::new(move |p| winding(&v, p) != 0),
        shift,
        tol: 0.003,
    }
}

#[test]
fn planar_primitives_match_oracle() {
    let specific = <Space<2> as super::catalogue::TestDim<2>>::specific_shapes();
    for (name, shape) in specific {
        let oracle = match &shape {
            Shape2::Segment(s) => {
                let (a, b) = (s.get().a, s.get().b);
                let surface = (0..=1000)
                    .map(|k| a + (b - a) * (k as Real / 1000.0))
                    .collect();
                // 1.4 m long in 1000 steps: covering radius 0.0007.
                Oracle {
                    surface,
                    inside: Box::new(|_| false),
                    shift: 0.0,
                    tol: 0.001,
                }
            }
            Shape2::ConvexPolygon(s) => polygon_oracle(s.get().vertices.clone(), 0.0),
            Shape2::Polygon(s) => polygon_oracle(s.get().vertices.clone(), 0.0),
            Shape2::RoundedPolygon(s) => polygon_oracle(s.get().vertices.clone(), s.get().radius),
            other => panic!("unexpected 2D shape {other:?}"),
        };
        check(name, &shape, &oracle, region(&shape));
    }
}

/// Points of the solid of revolution of a profile curve `(ρ, y)` about the y axis.
fn revolve(profile: impl Iterator<Item = (Real, Real)>, angles: usize) -> Vec<Vector3> {
    profile
        .flat_map(|(rho, y)| {
            (0..angles).map(move |i| {
                let a = i as Real / angles as Real * TAU;
                Vector3::new(rho * a.cos(), y, rho * a.sin())
            })
        })
        .collect()
}

fn steps(n: usize) -> impl Iterator<Item = Real> + Clone {
    (0..=n).map(move |i| i as Real / n as Real)
}

#[test]
fn solid_primitives_match_oracle() {
    let rho = |p: &Vector3| (p.x * p.x + p.z * p.z).sqrt();
    // Cylinder h 0.6, r 0.4: side and caps, 0.02 apart or closer.
    let (h, r) = (0.6, 0.4);
    let side = revolve(steps(60).map(|t| (r, -h + 2.0 * h * t)), 200);
    let caps = revolve(steps(20).flat_map(|t| [(r * t, h), (r * t, -h)]), 200);
    let cylinder = Oracle {
        surface: side.into_iter().chain(caps).collect(),
        inside: Box::new(move |p| rho(p) < r && p.y.abs() < h),
        shift: 0.0,
        // Height step 0.02, arc step 0.4 * τ / 200 = 0.0126: covering radius < 0.015.
        tol: 0.015,
    };
    // Cone h 0.5, r 0.7: slant (radius shrinking to the apex) and base.
    let (ch, cr) = (0.5, 0.7);
    let slant = revolve(steps(60).map(|t| (cr * (1.0 - t), -ch + 2.0 * ch * t)), 240);
    let base = revolve(steps(35).map(|t| (cr * t, -ch)), 240);
    let cone = Oracle {
        surface: slant.into_iter().chain(base).collect(),
        inside: Box::new(move |p| p.y.abs() < ch && rho(p) < cr * (ch - p.y) / (2.0 * ch)),
        shift: 0.0,
        // Slant step ≈ 1.22 / 60 = 0.02, arc 0.7 τ / 240 = 0.018: covering radius < 0.015.
        tol: 0.015,
    };
    // Torus R 0.8, r 0.25: the tube's circles.
    let (tr, tm) = (0.8, 0.25);
    let tube = |a: Real| Vector3::new(a.cos(), 0.0, a.sin());
    let torus_surface = steps(400)
        .flat_map(|s| steps(100).map(move |t| (s * TAU, t * TAU)))
        .map(|(a, b)| tube(a) * (tr + tm * b.cos()) + Vector3::y() * (tm * b.sin()))
        .collect();
    let torus = Oracle {
        surface: torus_surface,
        inside: Box::new(move |p| (rho(p) - tr).powi(2) + p.y * p.y < tm * tm),
        shift: 0.0,
        // Around the big circle 1.05 τ / 400 = 0.016, around the tube 0.25 τ / 100 = 0.016.
        tol: 0.015,
    };
    // Capped torus R 0.7, r 0.2, half angle 2.2: tube over the arc plus the two end caps.
    let (cr_, cm, ca) = (0.7, 0.2, 2.2);
    let arc: Vec<Vector3> = steps(2000)
        .map(|t| tube(-ca + 2.0 * ca * t) * cr_)
        .collect();
    let mut capped: Vec<Vector3> = steps(300)
        .flat_map(|s| steps(100).map(move |t| (-ca + 2.0 * ca * s, t * TAU)))
        .map(|(a, b)| tube(a) * (cr_ + cm * b.cos()) + Vector3::y() * (cm * b.sin()))
        .collect();
    for (end, sign) in [(ca, 1.0), (-ca, -1.0)] {
        let out = Vector3::new(-end.sin(), 0.0, end.cos()) * sign;
        let centre = tube(end) * cr_;
        capped.extend(
            unit_directions::<3>(3000)
                .into_iter()
                .filter(|u| u.dot(&out) >= 0.0)
                .map(|u| centre + u * cm),
        );
    }
    let capped_torus = Oracle {
        surface: capped,
        inside: Box::new(move |p| arc.iter().any(|c| (p - c).norm() < cm)),
        shift: 0.0,
        // Arc step 0.7 * 4.4 / 300 = 0.01, tube 0.2 τ / 100 = 0.013, caps 0.2 * 0.065 = 0.013.
        tol: 0.015,
    };
    let shapes = [
        ("cylinder", Shape3::cylinder(h, r).unwrap(), cylinder),
        ("cone", Shape3::cone(ch, cr).unwrap(), cone),
        ("torus", Shape3::torus(tr, tm).unwrap(), torus),
        (
            "capped_torus",
            Shape3::capped_torus(cr_, cm, ca).unwrap(),
            capped_torus,
        ),
    ];
    for (name, shape, oracle) in shapes {
        check(name, &shape, &oracle, region(&shape));
    }
}
