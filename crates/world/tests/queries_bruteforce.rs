//! Every scene query against a brute-force check over all colliders, on random
//! worlds (proptest over a seed), in 2D and 3D.
//!
//! The oracle loops over every collider, applies the filter by hand, places
//! the shape at its body's *current* pose (so a stale collider pose or box in
//! the world would show) and runs the same exact primitive the world uses on
//! each. Ball colliders are also checked against closed forms (ray-sphere
//! intersection, point-in-ball), which the primitives must match within the
//! cast tolerance.

use fathom_ccd::{CastOptions, Motion, ToiOptions, ToiResult};
use fathom_math::{Aabb, Dim, Pose, Real, Space, Vector};
use fathom_narrowphase::ContactOptions;
use fathom_sdf::{Sdf, ShapeKind};
use fathom_world::{
    BodyDesc, BodyHandle, Collider, ColliderDesc, ColliderHandle, CollisionGroups, QueryFilter,
    QueryHit, Shape, World,
};
use proptest::prelude::*;

/// The cast tolerance: a hit is declared within this of the surface (fathom-ccd's epsilon).
const EPS: Real = 1e-3;

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> Real {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        ((self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 40) as Real) / (1u64 << 24) as Real
    }
    fn range(&mut self, lo: Real, hi: Real) -> Real {
        lo + (hi - lo) * self.next()
    }
    fn pick(&mut self, n: usize) -> usize {
        ((self.next() * n as Real) as usize).min(n - 1)
    }
    fn vec<const D: usize>(&mut self, lo: Real, hi: Real) -> Vector<D> {
        Vector::<D>::from_fn(|_, _| self.range(lo, hi))
    }
    fn unit<const D: usize>(&mut self) -> Vector<D> {
        loop {
            let v = self.vec::<D>(-1.0, 1.0);
            if v.norm() > 0.1 {
                return v.normalize();
            }
        }
    }
    fn groups(&mut self) -> CollisionGroups {
        [
            CollisionGroups::ALL,
            CollisionGroups::new(0b01, u32::MAX),
            CollisionGroups::new(0b10, u32::MAX),
        ][self.pick(3)]
    }
}

fn random_shape<const D: usize>(rng: &mut Rng) -> Shape<D>
where
    Space<D>: Dim<D>,
{
    match rng.pick(3) {
        0 => Shape::<D>::ball(rng.range(0.2, 1.0)).unwrap(),
        1 => Shape::<D>::cuboid(rng.vec::<D>(0.2, 1.0)).unwrap(),
        _ => Shape::<D>::capsule(rng.range(0.1, 0.6), rng.range(0.15, 0.5)).unwrap(),
    }
}

/// 10 to 20 bodies in a 16 m box, static or dynamic, one or two colliders each, some
/// sensors, random groups; stepped twice so dynamic bodies have moved.
fn random_world<const D: usize>(rng: &mut Rng) -> (World<D>, Vec<BodyHandle>)
where
    Space<D>: Dim<D>,
{
    let mut w = World::<D>::default();
    let mut bodies = Vec::new();
    for _ in 0..10 + rng.pick(11) {
        let mut desc = if rng.next() < 0.4 {
            BodyDesc::fixed()
        } else {
            BodyDesc::dynamic()
        }
        .position(rng.vec::<D>(-8.0, 8.0))
        .rotation(Space::<D>::cross(&rng.unit::<D>(), &rng.unit::<D>()) * 1.5);
        for _ in 0..1 + rng.pick(2) {
            desc = desc.collider(
                ColliderDesc::new(random_shape::<D>(rng))
                    .position(rng.vec::<D>(-0.8, 0.8))
                    .sensor(rng.next() < 0.15)
                    .groups(rng.groups()),
            );
        }
        bodies.push(w.add_body(&desc).unwrap());
    }
    w.step();
    w.step();
    (w, bodies)
}

fn random_filter<'a, const D: usize>(rng: &mut Rng, bodies: &[BodyHandle]) -> QueryFilter<'a> {
    let mut f = QueryFilter::new().groups(CollisionGroups::new(
        u32::MAX,
        [u32::MAX, 0b01, 0b10][rng.pick(3)],
    ));
    if rng.next() < 0.5 {
        f = f.exclude_body(bodies[rng.pick(bodies.len())]);
    }
    if rng.next() < 0.5 {
        f = f.exclude_sensors();
    }
    f
}

/// Every collider the filter accepts, at its body's current pose.
fn accepted<'w, const D: usize>(
    w: &'w World<D>,
    f: &QueryFilter,
) -> Vec<(ColliderHandle, &'w Collider<D>, Pose<D>)>
where
    Space<D>: Dim<D>,
{
    w.colliders()
        .filter(|(h, c)| {
            f.groups.interacts_with(&c.groups())
                && f.exclude_body != Some(c.body())
                && !(f.exclude_sensors && c.is_sensor())
                && f.exclude_collider != Some(*h)
        })
        .map(|(h, c)| (h, c, *w.body(c.body()).unwrap().pose() * *c.local_pose()))
        .collect()
}

/// Brute-force sphere cast (radius 0: ray) over every accepted collider: all hits, sorted.
fn brute_casts<const D: usize>(
    w: &World<D>,
    f: &QueryFilter,
    origin: &Vector<D>,
    radius: Real,
    dir: &Vector<D>,
    max_dist: Real,
) -> Vec<(Real, ColliderHandle)>
where
    Space<D>: Dim<D>,
{
    let mut out: Vec<_> = accepted(w, f)
        .into_iter()
        .filter_map(|(h, c, pose)| {
            let r = fathom_ccd::sphere_cast_posed(
                c.shape() as &dyn Sdf<D>,
                &pose,
                origin,
                dir,
                radius,
                max_dist,
                &CastOptions::default(),
            )
            .unwrap();
            r.hit_distance().map(|d| (d, h))
        })
        .collect();
    out.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    out
}

/// The world's first hit agrees with the oracle's: the same distance within the band where a
/// cast may stop, and the same collider or, at a near tie, another whose surface the hit
/// point lies on. A cast stops at the first sample closer than EPS to a surface (along the
/// normal); along a ray meeting the surface at angle θ to its normal that band is EPS / cos θ
/// long, so two casts that sample differently (the world's is clipped by its best hit so far
/// and goes through the broadphase) may stop that far apart at grazing incidence.
fn same_first<const D: usize>(
    w: &World<D>,
    dir: &Vector<D>,
    got: Option<QueryHit<D>>,
    all: &[(Real, ColliderHandle)],
    what: &str,
) where
    Space<D>: Dim<D>,
{
    match (got, all.first()) {
        (None, None) => {}
        (Some(h), Some(&(d, c))) => {
            // cos θ floored at 0.01: a ray within 0.6° of a face is a tie of everything near.
            let band = EPS / h.normal.dot(&dir.normalize()).abs().max(0.01);
            assert!(
                (h.distance - d).abs() <= band + 1e-4,
                "{what}: distance {} vs {d} (band {band})",
                h.distance
            );
            if h.collider != c {
                assert!(
                    all.iter().any(|x| x.1 == h.collider),
                    "{what}: not a real hit"
                );
                let col = w.collider(h.collider).unwrap();
                let local = col.world_pose().inverse_transform_point(&h.point.into());
                let gap = col.shape().distance(&local.coords);
                // 1e-4 m: f32 rounding at the 30 m scale of these queries.
                assert!(
                    h.started_inside || gap.abs() <= EPS + 1e-4,
                    "{what}: {:?} hit {gap} m off its surface, {c:?} is first",
                    h.collider
                );
            }
        }
        (g, b) => panic!("{what}: world {g:?}, brute force {b:?}"),
    }
}

/// Closed-form ray-ball entry distance (None when missed or behind), in f64: in f32 the
/// discriminant `b² - (|o - c|² - r²)` loses 1e-4 m to cancellation at 20 m.
fn ray_ball<const D: usize>(o: &Vector<D>, d: &Vector<D>, c: &Vector<D>, r: Real) -> Option<Real> {
    let oc: Vec<f64> = (0..D).map(|i| f64::from(o[i]) - f64::from(c[i])).collect();
    let d: Vec<f64> = (0..D).map(|i| f64::from(d[i])).collect();
    let dot = |a: &[f64], b: &[f64]| a.iter().zip(b).map(|(x, y)| x * y).sum::<f64>();
    let (b, oc2, r) = (dot(&oc, &d), dot(&oc, &oc), f64::from(r));
    let disc = b * b - (oc2 - r * r);
    if disc < 0.0 {
        return None;
    }
    let t = if oc2.sqrt() <= r {
        0.0
    } else {
        -b - disc.sqrt()
    };
    (t >= 0.0).then_some(t as Real)
}

fn check_casts<const D: usize>(w: &World<D>, rng: &mut Rng, bodies: &[BodyHandle])
where
    Space<D>: Dim<D>,
{
    for q in 0..6 {
        let f = random_filter::<D>(rng, bodies);
        let origin = rng.vec::<D>(-12.0, 12.0);
        // Aim near a random point of the world so most rays hit something.
        let dir = (rng.vec::<D>(-6.0, 6.0) - origin).normalize();
        let max_dist = rng.range(5.0, 30.0);
        let what = format!("{D}D query {q}");

        let all = brute_casts(w, &f, &origin, 0.0, &dir, max_dist);
        same_first(
            w,
            &dir,
            w.cast_ray(&origin, &dir, max_dist, &f).unwrap(),
            &all,
            &format!("{what} ray"),
        );
        let got = w.cast_ray_all(&origin, &dir, max_dist, &f).unwrap();
        let got_ids: Vec<_> = got.iter().map(|h| h.collider).collect();
        let mut want_ids: Vec<_> = all.iter().map(|x| x.1).collect();
        let mut sorted_got = got_ids.clone();
        sorted_got.sort();
        want_ids.sort();
        assert_eq!(sorted_got, want_ids, "{what} ray_all");
        assert!(
            got.windows(2).all(|p| p[0].distance <= p[1].distance),
            "{what}: unsorted"
        );
        for h in &got {
            let c = w.collider(h.collider).unwrap();
            assert_eq!(h.body, c.body());
            assert!((h.fraction * max_dist - h.distance).abs() <= 1e-4 * max_dist);
            if let ShapeKind::Ball { radius } = c.shape().kind() {
                let center = c.world_pose().translation.vector;
                let exact = match ray_ball(&origin, &dir, &center, radius) {
                    Some(t) => t,
                    None => {
                        // A grazing ray, or one leaving from within EPS of the surface: the
                        // cast declares a hit where the ray comes within EPS of the surface,
                        // and this one passes just outside the ball.
                        let t = (center - origin).dot(&dir).max(0.0);
                        let miss = (origin + dir * t - center).norm() - radius;
                        assert!(
                            miss <= EPS + 1e-4,
                            "{what}: a hit on a ball missed by {miss}"
                        );
                        t
                    }
                };
                // Never past the surface, and declared where the ray point is within EPS of
                // it (perpendicular gap: at grazing incidence the along-ray distance to the
                // surface may exceed EPS). 1e-4 m covers f32 rounding at these 30 m scales.
                let gap = (origin + dir * h.distance - center).norm() - radius;
                let declared = h.started_inside || (-1e-4..=EPS + 1e-4).contains(&gap);
                assert!(
                    h.distance <= exact + 1e-4 && declared,
                    "{what}: ball hit at {} (gap {gap}) vs exact {exact}",
                    h.distance
                );
                if !h.started_inside {
                    assert!((h.point - center).norm() - radius <= EPS + 1e-4);
                    assert!((h.normal - (h.point - center).normalize()).norm() < 1e-2);
                }
            }
        }

        let radius = rng.range(0.05, 0.6);
        let all = brute_casts(w, &f, &origin, radius, &dir, max_dist);
        let got = w.cast_sphere(&origin, radius, &dir, max_dist, &f).unwrap();
        same_first(w, &dir, got, &all, &format!("{what} sphere"));
    }
}

fn check_points<const D: usize>(w: &World<D>, rng: &mut Rng, bodies: &[BodyHandle])
where
    Space<D>: Dim<D>,
{
    for q in 0..10 {
        let f = random_filter::<D>(rng, bodies);
        let p = rng.vec::<D>(-10.0, 10.0);
        let what = format!("{D}D point {q}");
        let field = |c: &Collider<D>, pose: &Pose<D>| {
            c.shape()
                .distance(&pose.inverse_transform_point(&p.into()).coords)
        };
        let want: Vec<_> = accepted(w, &f)
            .into_iter()
            .filter(|(_, c, pose)| field(c, pose) <= 0.0)
            .map(|(h, _, _)| h)
            .collect();
        assert_eq!(
            w.colliders_containing_point(&p, &f).unwrap(),
            want,
            "{what}"
        );
        for (h, c, pose) in accepted(w, &f) {
            if let ShapeKind::Ball { radius } = c.shape().kind() {
                let gap = (p - pose.translation.vector).norm() - radius;
                // Away from the boundary (f32 rounding), the closed form decides.
                if gap.abs() > 1e-4 {
                    assert_eq!(want.contains(&h), gap < 0.0, "{what}: ball {h:?}");
                }
            }
        }

        let max_dist = if q % 3 == 0 {
            Real::INFINITY
        } else {
            rng.range(0.5, 6.0)
        };
        let best = accepted(w, &f)
            .into_iter()
            .map(|(h, c, pose)| (field(c, &pose), h))
            .filter(|(d, _)| *d <= max_dist)
            .min_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        let got = w.nearest_collider(&p, max_dist, &f).unwrap();
        assert_eq!(
            got.map(|g| (g.distance, g.collider)),
            best,
            "{what} nearest"
        );
        if let Some(g) = got {
            // The projected point lies on the surface (exact fields: within f32 rounding).
            let c = w.collider(g.collider).unwrap();
            let on = field_at_world(c, &g.point);
            assert!(on.abs() < 1e-3, "{what}: projection {on} off the surface");
        }
    }
}

fn field_at_world<const D: usize>(c: &Collider<D>, p: &Vector<D>) -> Real
where
    Space<D>: Dim<D>,
{
    let local = c.world_pose().inverse_transform_point(&(*p).into()).coords;
    c.shape().distance(&local)
}

fn check_boxes<const D: usize>(w: &World<D>, rng: &mut Rng, bodies: &[BodyHandle])
where
    Space<D>: Dim<D>,
{
    for q in 0..4 {
        let f = random_filter::<D>(rng, bodies);
        let center = rng.vec::<D>(-8.0, 8.0);
        let half = rng.vec::<D>(0.3, 3.0);
        let aabb = Aabb::new(center - half, center + half);
        let cuboid = Shape::<D>::cuboid(half).unwrap();
        let box_pose = Pose::<D>::from_parts(center.into(), Pose::<D>::identity().rotation);
        let want: Vec<_> = accepted(w, &f)
            .into_iter()
            .filter(|(_, c, pose)| {
                fathom_narrowphase::intersects(
                    c.shape() as &dyn Sdf<D>,
                    pose,
                    &cuboid as &dyn Sdf<D>,
                    &box_pose,
                    &ContactOptions::default(),
                )
                .unwrap()
                .intersecting
            })
            .map(|(h, _, _)| h)
            .collect();
        let got = w.colliders_in_box(&aabb, &f).unwrap();
        assert_eq!(got, want, "{D}D box {q}");
        for (h, c, pose) in accepted(w, &f) {
            if let ShapeKind::Ball { radius } = c.shape().kind() {
                // Closed form: distance from the centre to the box against the radius.
                let p = pose.translation.vector;
                let gap = (p - p.sup(&aabb.min).inf(&aabb.max)).norm() - radius;
                if gap.abs() > 1e-3 {
                    assert_eq!(got.contains(&h), gap < 0.0, "{D}D box {q}: ball {h:?}");
                }
            }
        }
    }
}

fn check_shape_cast<const D: usize>(w: &World<D>, rng: &mut Rng, bodies: &[BodyHandle])
where
    Space<D>: Dim<D>,
{
    let f = random_filter::<D>(rng, bodies);
    let shape = Shape::<D>::cuboid(rng.vec::<D>(0.1, 0.4)).unwrap();
    let origin = rng.vec::<D>(-12.0, 12.0);
    let pose = Pose::<D>::from_parts(origin.into(), Pose::<D>::identity().rotation);
    let dir = (rng.vec::<D>(-5.0, 5.0) - origin).normalize();
    let max_dist = 25.0;
    let motion = Motion::new(pose, dir, Space::<D>::ang_zero());
    let mut all: Vec<(Real, ColliderHandle)> = accepted(w, &f)
        .into_iter()
        .filter_map(|(h, c, p)| {
            let r = fathom_ccd::time_of_impact(
                &shape as &dyn Sdf<D>,
                &motion,
                c.shape() as &dyn Sdf<D>,
                &Motion::fixed(p),
                max_dist,
                &ToiOptions::default(),
            )
            .unwrap();
            match r {
                ToiResult::Impact { time, .. } => Some((time, h)),
                ToiResult::Overlapping { .. } => Some((0.0, h)),
                _ => None,
            }
        })
        .collect();
    all.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    let got = w.cast_shape(&shape, &pose, &dir, max_dist, &f).unwrap();
    same_first(w, &dir, got, &all, &format!("{D}D shape cast"));
}

fn all_queries<const D: usize>(seed: u64)
where
    Space<D>: Dim<D>,
{
    let mut rng = Rng(seed | 1);
    let (w, bodies) = random_world::<D>(&mut rng);
    check_casts(&w, &mut rng, &bodies);
    check_points(&w, &mut rng, &bodies);
    check_boxes(&w, &mut rng, &bodies);
    check_shape_cast(&w, &mut rng, &bodies);
    // The same answers without a broadphase (a world deserialised by plain serde).
    let bytes = postcard::to_stdvec(&w).unwrap();
    let plain: World<D> = postcard::from_bytes(&bytes).unwrap();
    let mut rng2 = Rng(seed | 1);
    let _ = random_world::<D>(&mut rng2);
    check_casts(&plain, &mut rng2, &bodies);
    check_points(&plain, &mut rng2, &bodies);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn queries_match_brute_force_2d(seed in any::<u64>()) {
        all_queries::<2>(seed);
    }

    #[test]
    fn queries_match_brute_force_3d(seed in any::<u64>()) {
        all_queries::<3>(seed);
    }
}

#[test]
fn bad_query_arguments_are_typed_errors() {
    let w = World::<3>::default();
    let f = QueryFilter::new();
    let o = Vector::<3>::zeros();
    let x = Vector::<3>::x();
    let field = |e: fathom_world::QueryError| match e {
        fathom_world::QueryError::Invalid { field, .. } => field,
    };
    assert_eq!(
        field(w.cast_ray(&(o * Real::NAN), &x, 1.0, &f).unwrap_err()),
        "origin"
    );
    assert_eq!(field(w.cast_ray(&o, &o, 1.0, &f).unwrap_err()), "dir");
    assert_eq!(field(w.cast_ray(&o, &x, -1.0, &f).unwrap_err()), "max_dist");
    assert_eq!(
        field(w.cast_sphere(&o, -0.1, &x, 1.0, &f).unwrap_err()),
        "radius"
    );
    assert_eq!(
        field(w.nearest_collider(&o, Real::NAN, &f).unwrap_err()),
        "max_dist"
    );
    let inverted = Aabb::new(x, o);
    assert_eq!(
        field(w.colliders_in_box(&inverted, &f).unwrap_err()),
        "aabb"
    );
}

/// The vehicle's probe: a sphere cast down from inside the chassis, excluding it.
#[test]
fn sphere_cast_excluding_the_chassis_finds_the_ground() {
    let mut w = World::<3>::default();
    let up = Vector::<3>::y();
    w.add_body(
        &BodyDesc::fixed().collider(ColliderDesc::new(Shape::<3>::half_space(up, 0.0).unwrap())),
    )
    .unwrap();
    let chassis = w
        .add_body(
            &BodyDesc::dynamic()
                .position(up * 1.0)
                .collider(ColliderDesc::new(
                    Shape::<3>::cuboid(Vector::<3>::new(1.0, 0.25, 2.0)).unwrap(),
                )),
        )
        .unwrap();
    let origin = Vector::<3>::new(0.8, 1.0, 1.5);
    let f = QueryFilter::new().exclude_body(chassis);
    let hit = w
        .cast_sphere(&origin, 0.3, &-up, 2.0, &f)
        .unwrap()
        .expect("the ground");
    // Wheel of radius 0.3 from y = 1 touches the plane y = 0 after 0.7 m (within the cast epsilon).
    assert!((hit.distance - 0.7).abs() <= EPS + 1e-5, "{}", hit.distance);
    assert!((hit.normal - up).norm() < 1e-4);
    let inside = w
        .cast_sphere(&origin, 0.3, &-up, 2.0, &QueryFilter::new())
        .unwrap()
        .unwrap();
    assert!(inside.started_inside && inside.body == chassis);
}
