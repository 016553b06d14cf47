//! The character controller against what a walking character must do, in 2D and 3D: climb a
//! walkable slope at its commanded horizontal speed and not creep up a steep one; climb a
//! step of 0.9 times its step height and not one of 1.1; stay on the ground walking down a
//! slope and stairs; ride translating and rotating platforms; slide along a wall keeping the
//! tangential part of its move; push a crate no harder than its force cap; walk SDF ground no
//! heightfield has (a smooth blend, the same baked into a grid, a passage carved under an
//! overhang); and never end a move inside a collider on random courses.

mod physics_support;
use fathom_math::{AngVector, Dim, Pose, Real, Space, Vector};
use fathom_world::{
    BodyDesc, BodyHandle, CharacterController, ColliderDesc, QueryFilter, Shape, World,
};
use nalgebra::Translation;
use physics_support::*;
use proptest::prelude::*;

const DT: Real = 1.0 / 60.0;
/// The character: a capsule 1.6 m tall (half height 0.5 m, radius 0.3 m).
const HALF: Real = 0.5;
const RADIUS: Real = 0.3;

fn capsule<const D: usize>() -> Shape<D>
where
    Space<D>: Dim<D>,
{
    Shape::<D>::capsule(HALF, RADIUS).unwrap()
}

fn at<const D: usize>(p: Vector<D>) -> Pose<D>
where
    Space<D>: Dim<D>,
{
    Pose::<D>::from_parts(Translation::from(p), Pose::<D>::identity().rotation)
}

/// A heading in the horizontal plane: x in 2D; in 3D 30° from x, so no axis is special.
fn heading<const D: usize>() -> Vector<D> {
    let mut h = Vector::<D>::zeros();
    if D == 2 {
        h[0] = 1.0;
    } else {
        h[0] = (30.0 as Real).to_radians().cos();
        h[2] = (30.0 as Real).to_radians().sin();
    }
    h
}

/// A rotation (angle or scaled axis) tilting +y towards `-dir` by `angle`, so ground rotated
/// by it rises along `dir`.
fn tilt_rising_along<const D: usize>(dir: &Vector<D>, angle: Real) -> AngVector<D>
where
    Space<D>: Dim<D>,
{
    // About dir × up, a positive turn leans +y towards -dir.
    let axis = Space::<D>::cross(dir, &up::<D>());
    axis * angle
}

/// A fixed slab 60 m wide, 1 m thick, whose top face passes through `top` with the given
/// tilt.
fn add_ground<const D: usize>(w: &mut World<D>, top: Vector<D>, tilt: AngVector<D>) -> BodyHandle
where
    Space<D>: Dim<D>,
{
    let r = Space::<D>::rotation_from_scaled_axis(&tilt);
    let mut half = Vector::<D>::repeat(30.0);
    half[1] = 0.5;
    w.add_body(
        &BodyDesc::fixed()
            .position(top - r * up::<D>() * 0.5)
            .rotation(tilt)
            .collider(ColliderDesc::new(Shape::<D>::cuboid(half).unwrap())),
    )
    .unwrap()
}

/// A fixed box with half extents `half` centred at `centre`.
fn add_block<const D: usize>(w: &mut World<D>, centre: Vector<D>, half: Vector<D>) -> BodyHandle
where
    Space<D>: Dim<D>,
{
    w.add_body(
        &BodyDesc::fixed()
            .position(centre)
            .collider(ColliderDesc::new(Shape::<D>::cuboid(half).unwrap())),
    )
    .unwrap()
}

/// Walks the character from `start` for `frames` frames with the per-frame translation
/// `per_frame` (horizontal walk plus a downward push of 2 m/s, as a game's gravity would
/// give); returns its poses and whether each frame ended grounded.
fn walk<const D: usize>(
    w: &World<D>,
    c: &CharacterController<D>,
    start: Vector<D>,
    velocity: Vector<D>,
    frames: usize,
) -> (Vec<Vector<D>>, Vec<bool>)
where
    Space<D>: Dim<D>,
{
    let shape = capsule::<D>();
    let mut pose = at::<D>(start);
    let (mut path, mut grounded) = (vec![start], vec![]);
    for _ in 0..frames {
        let m = c
            .move_shape(w, &shape, &pose, velocity * DT, DT, &QueryFilter::new())
            .unwrap();
        pose.translation.vector += m.translation;
        path.push(pose.translation.vector);
        grounded.push(m.grounded);
    }
    (path, grounded)
}

/// The capsule's centre when standing on ground through `top` with unit normal `n`.
fn standing<const D: usize>(top: Vector<D>, n: Vector<D>, offset: Real) -> Vector<D>
where
    Space<D>: Dim<D>,
{
    top + n * (RADIUS + offset) + up::<D>() * HALF
}

fn climbs_a_walkable_slope_at_speed<const D: usize>()
where
    Space<D>: Dim<D>,
{
    let mut w = awake_world::<D>(-up::<D>() * G);
    let dir = heading::<D>();
    // 25°: below the 45° climbing limit, and gentle enough (under 30°) to stand on.
    let tilt = tilt_rising_along::<D>(&dir, (25.0 as Real).to_radians());
    add_ground(&mut w, Vector::zeros(), tilt);
    let n = Space::<D>::rotation_from_scaled_axis(&tilt) * up::<D>();
    let c = CharacterController::<D>::default();
    let start = standing(Vector::zeros(), n, c.offset) + up::<D>() * 0.01;
    let (path, grounded) = walk(&w, &c, start, dir * 2.0 - up::<D>() * 2.0, 90);
    // From the second frame (the first settles the 1 cm) to the last: 88 frames at 2 m/s.
    let moved = path[90] - path[2];
    let horizontal = moved - up::<D>() * moved.dot(&up::<D>());
    let expected = 2.0 * 88.0 * DT;
    assert!(
        (horizontal.norm() - expected).abs() < 0.02 * expected,
        "{D}D: walked {} m horizontally up 25°, commanded {expected}",
        horizontal.norm()
    );
    assert!((horizontal.normalize() - dir).norm() < 0.01, "{D}D: veered");
    assert!(grounded[2..].iter().all(|g| *g), "{D}D: left the slope");
}

#[test]
fn climbs_a_walkable_slope_at_speed_both_dimensions() {
    climbs_a_walkable_slope_at_speed::<2>();
    climbs_a_walkable_slope_at_speed::<3>();
}

fn stops_at_a_steep_slope<const D: usize>()
where
    Space<D>: Dim<D>,
{
    let mut w = awake_world::<D>(-up::<D>() * G);
    let dir = heading::<D>();
    add_ground(&mut w, Vector::zeros(), Space::<D>::ang_zero());
    // A 60° ramp rising along `dir` from 1 m ahead.
    let tilt = tilt_rising_along::<D>(&dir, (60.0 as Real).to_radians());
    add_ground(&mut w, dir * 1.0, tilt);
    let c = CharacterController::<D>::default();
    let start = standing(Vector::zeros(), up::<D>(), c.offset);
    let (path, _) = walk(&w, &c, start, dir * 2.0 - up::<D>() * 2.0, 60);
    // After a second it has reached the ramp; pushing on for 2 s more must not move it.
    let (path2, _) = walk(&w, &c, path[60], dir * 2.0 - up::<D>() * 2.0, 120);
    let creep = path2[120] - path2[0];
    assert!(
        creep.norm() < 1e-3,
        "{D}D: crept {creep:?} up a 60° slope in 2 s"
    );
    assert!(
        path2[0][1] < start[1] + 0.05,
        "{D}D: climbed the steep slope"
    );
}

#[test]
fn stops_at_a_steep_slope_both_dimensions() {
    stops_at_a_steep_slope::<2>();
    stops_at_a_steep_slope::<3>();
}

/// A fixed box square to the horizontal direction `dir`: `half` is its half extents along
/// `dir`, up and across; `centre` its centre.
fn add_oriented_block<const D: usize>(
    w: &mut World<D>,
    centre: Vector<D>,
    dir: &Vector<D>,
    half: [Real; 3],
) where
    Space<D>: Dim<D>,
{
    let mut h = Vector::<D>::repeat(half[2]);
    h[0] = half[0];
    h[1] = half[1];
    // The rotation taking x to `dir` about up.
    let turn = Space::<D>::cross(&axis::<D>(0), dir);
    let sin = Space::<D>::ang_norm(&turn);
    let axis = if sin > 0.0 { turn * (1.0 / sin) } else { turn };
    w.add_body(
        &BodyDesc::fixed()
            .position(centre)
            .rotation(axis * sin.atan2(dir[0]))
            .collider(ColliderDesc::new(Shape::<D>::cuboid(h).unwrap())),
    )
    .unwrap();
}

/// Walks 2 s at a riser of `height` 1 m ahead; returns how high the feet end.
fn step_onto<const D: usize>(height: Real) -> Real
where
    Space<D>: Dim<D>,
{
    let mut w = awake_world::<D>(-up::<D>() * G);
    add_ground(&mut w, Vector::zeros(), Space::<D>::ang_zero());
    let dir = heading::<D>();
    // The riser's face is 1 m ahead, square to the walk.
    add_oriented_block(
        &mut w,
        dir * 6.0 + up::<D>() * (height / 2.0),
        &dir,
        [5.0, height / 2.0, 5.0],
    );
    let c = CharacterController::<D>::default();
    let start = standing(Vector::zeros(), up::<D>(), c.offset);
    let (path, _) = walk(&w, &c, start, dir * 1.5 - up::<D>() * 2.0, 120);
    path[120][1] - HALF - RADIUS
}

#[test]
fn climbs_a_step_below_its_height_not_above_both_dimensions() {
    fn check<const D: usize>()
    where
        Space<D>: Dim<D>,
    {
        let max = CharacterController::<D>::default()
            .autostep
            .unwrap()
            .max_height;
        let low = step_onto::<D>(0.9 * max);
        assert!(
            low > 0.9 * max,
            "{D}D: feet at {low} m, a {} m step not climbed",
            0.9 * max
        );
        let high = step_onto::<D>(1.1 * max);
        assert!(
            high < 0.05,
            "{D}D: feet at {high} m, a {} m step climbed",
            1.1 * max
        );
    }
    check::<2>();
    check::<3>();
}

/// Walking down a 20° slope at 2 m/s without any downward push, and down stairs (0.2 m risers,
/// 0.4 m treads) at 1.5 m/s: never airborne for more than one frame.
fn stays_snapped_going_down<const D: usize>()
where
    Space<D>: Dim<D>,
{
    let c = CharacterController::<D>::default();
    let dir = heading::<D>();
    let mut w = awake_world::<D>(-up::<D>() * G);
    let tilt = tilt_rising_along::<D>(&(-dir), (20.0 as Real).to_radians());
    add_ground(&mut w, Vector::zeros(), tilt);
    let n = Space::<D>::rotation_from_scaled_axis(&tilt) * up::<D>();
    let (_, grounded) = walk(
        &w,
        &c,
        standing(Vector::zeros(), n, c.offset),
        dir * 2.0,
        90,
    );
    let airborne = grounded.windows(2).filter(|g| !g[0] && !g[1]).count();
    assert_eq!(
        airborne, 0,
        "{D}D: airborne two frames running on the slope: {grounded:?}"
    );

    let mut w = awake_world::<D>(-up::<D>() * G);
    // Ten steps down: tread k spans 0.4 k to 0.4 (k + 1) along `dir`, its top 0.2 k down.
    for k in 0..10 {
        let (top, tread) = (-(k as Real) * 0.2, if k == 9 { 5.0 } else { 0.2 });
        let centre = dir * (0.4 * k as Real + tread) + up::<D>() * (top - 1.0);
        add_oriented_block(&mut w, centre, &dir, [tread, 1.0, 3.0]);
    }
    let start = standing(dir * 0.1, up::<D>(), c.offset);
    let (path, grounded) = walk(&w, &c, start, dir * 1.5, 100);
    let airborne = grounded.windows(2).filter(|g| !g[0] && !g[1]).count();
    assert_eq!(
        airborne, 0,
        "{D}D: airborne two frames running on stairs: {grounded:?}"
    );
    assert!(
        path[100][1] < start[1] - 1.0,
        "{D}D: did not go down the stairs"
    );
}

#[test]
fn stays_snapped_going_down_both_dimensions() {
    stays_snapped_going_down::<2>();
    stays_snapped_going_down::<3>();
}

/// The character stands on a kinematic platform driven by target poses (translating at
/// 2 m/s, or in 3D turning at 1 rad/s about a vertical axis 1.5 m away) for 5 s, commanding
/// no horizontal motion; it must stay where it stood on the platform to 1 cm.
fn rides_platform<const D: usize>(turning: bool)
where
    Space<D>: Dim<D>,
{
    let mut w = awake_world::<D>(-up::<D>() * G);
    let mut half = Vector::<D>::repeat(3.0);
    half[1] = 0.25;
    let platform = w
        .add_body(
            &BodyDesc::kinematic()
                .position(-up::<D>() * 0.25)
                .collider(ColliderDesc::new(Shape::<D>::cuboid(half).unwrap())),
        )
        .unwrap();
    let c = CharacterController::<D>::default();
    let shape = capsule::<D>();
    let start = standing(heading::<D>() * 1.5, up::<D>(), c.offset);
    let mut pose = at::<D>(start);
    let p0 = *w.body(platform).unwrap().pose();
    for i in 1..=300 {
        let t = i as Real * DT;
        let target = if turning {
            let spin = Space::<D>::rotation_from_scaled_axis(
                &(Space::<D>::cross(&axis::<D>(2), &axis::<D>(0)) * t),
            );
            Pose::<D>::from_parts(p0.translation, spin)
        } else {
            let mut p = p0;
            p.translation.vector += heading::<D>() * (2.0 * t);
            p
        };
        w.set_kinematic_target(platform, target).unwrap();
        let m = c
            .move_shape(
                &w,
                &shape,
                &pose,
                -up::<D>() * 2.0 * DT,
                DT,
                &QueryFilter::new(),
            )
            .unwrap();
        pose.translation.vector += m.translation;
        w.step();
    }
    let p = *w.body(platform).unwrap().pose();
    let carried = (p * p0.inverse()).transform_point(&start.into()).coords;
    let drift = pose.translation.vector - carried;
    assert!(
        drift.norm() < 0.01,
        "{D}D: drifted {drift:?} on the {} platform in 5 s",
        if turning { "turning" } else { "moving" }
    );
}

#[test]
fn rides_moving_and_turning_platforms() {
    rides_platform::<2>(false);
    rides_platform::<3>(false);
    rides_platform::<3>(true);
}

/// Hitting a wall at 45° the character keeps the part of its move along the wall: 1%.
fn slides_along_a_wall<const D: usize>()
where
    Space<D>: Dim<D>,
{
    let mut w = awake_world::<D>(Vector::zeros());
    // A wall whose face is the plane x = 1.
    add_block(&mut w, axis::<D>(0) * 6.0, Vector::<D>::repeat(5.0));
    let c = CharacterController::<D> {
        autostep: None,
        snap_to_ground: None,
        ..CharacterController::default()
    };
    // Along the wall: z in 3D (horizontal), y in 2D (the only other direction).
    let along = if D == 3 { axis::<D>(2) } else { up::<D>() };
    let v = (axis::<D>(0) + along) * (2.0 / (2.0 as Real).sqrt());
    let start = Vector::<D>::zeros();
    let (path, _) = walk(&w, &c, start, v, 60);
    // The wall stops the x part between `offset` and `offset` plus the casts' tolerance (a
    // quarter of it) from the wall; after that only `along` moves.
    let (first_touch, _) = path
        .iter()
        .enumerate()
        .find(|(_, p)| p[0] > 1.0 - RADIUS - 1.25 * c.offset - 1e-3)
        .unwrap();
    let slid = (path[60] - path[first_touch]).dot(&along);
    let expected = v.dot(&along) * DT * (60 - first_touch) as Real;
    assert!(
        (slid - expected).abs() < 0.01 * expected,
        "{D}D: slid {slid} m along the wall, the tangential move is {expected} m"
    );
    assert!(path[60][0] < 1.0 - RADIUS, "{D}D: went into the wall");
}

#[test]
fn slides_along_a_wall_keeping_the_tangential_move_both_dimensions() {
    slides_along_a_wall::<2>();
    slides_along_a_wall::<3>();
}

/// Walking at 3 m/s into a 50 kg crate on frictionless ground with a 100 N cap: the crate
/// gains F dt / m a frame, 2 m/s after a second.
fn pushes_with_a_force_cap<const D: usize>()
where
    Space<D>: Dim<D>,
{
    let mut w = awake_world::<D>(-up::<D>() * G);
    add_ground_plane(&mut w, 0.0, 0.0);
    let dir = axis::<D>(0);
    let crate_ = w
        .add_body(
            &BodyDesc::dynamic()
                .position(dir * 1.0 + up::<D>() * 0.5)
                .collider(
                    ColliderDesc::new(Shape::<D>::cuboid(Vector::<D>::repeat(0.5)).unwrap())
                        .mass(50.0)
                        .friction(0.0),
                ),
        )
        .unwrap();
    for _ in 0..10 {
        w.step();
    }
    let c = CharacterController::<D> {
        autostep: None,
        ..CharacterController::default()
    };
    let shape = capsule::<D>();
    let mut pose = at::<D>(standing(-dir * 0.3, up::<D>(), c.offset));
    let mut pushes = 0;
    for _ in 0..60 {
        let m = c
            .move_shape(
                &w,
                &shape,
                &pose,
                (dir * 3.0 - up::<D>() * 2.0) * DT,
                DT,
                &QueryFilter::new(),
            )
            .unwrap();
        pose.translation.vector += m.translation;
        pushes += usize::from(m.collisions.iter().any(|h| h.body == crate_));
        c.push_bodies(&mut w, &m, DT, 80.0, 100.0).unwrap();
        w.step();
    }
    let v = w.body(crate_).unwrap().linear_velocity()[0];
    // Each frame the character runs into the crate the cap's impulse F dt goes in.
    let expected = 100.0 * DT * pushes as Real / 50.0;
    assert!(
        pushes > 40,
        "{D}D: touched the crate in {pushes} frames only"
    );
    assert!(
        (v - expected).abs() < 0.01 * expected,
        "{D}D: crate at {v} m/s, the cap allows {expected}"
    );
}

#[test]
fn pushes_with_a_force_cap_both_dimensions() {
    pushes_with_a_force_cap::<2>();
    pushes_with_a_force_cap::<3>();
}

/// Walks 4 s at 1.5 m/s along x over `ground` (a fixed collider at the origin) from x = -3.5:
/// the character keeps its pace (95%, for the climb's detours) and never overlaps it.
fn walks_over<const D: usize>(ground: Shape<D>, what: &str)
where
    Space<D>: Dim<D>,
{
    let mut w = awake_world::<D>(-up::<D>() * G);
    w.add_body(&BodyDesc::fixed().collider(ColliderDesc::new(ground)))
        .unwrap();
    let c = CharacterController::<D>::default();
    let start = axis::<D>(0) * -3.5 + up::<D>() * (HALF + RADIUS + c.offset);
    let (path, grounded) = walk(&w, &c, start, axis::<D>(0) * 1.5 - up::<D>() * 2.0, 240);
    let shape = capsule::<D>();
    for p in &path {
        let inside = w
            .shape_penetrations(&shape, &at::<D>(*p), &QueryFilter::new())
            .unwrap();
        let deepest = inside.iter().map(|q| q.depth).fold(0.0, Real::max);
        assert!(deepest < 1e-3, "{D}D {what}: {deepest} m inside at {p:?}");
    }
    let ahead = path[240][0] - start[0];
    assert!(
        ahead > 0.95 * 1.5 * 4.0,
        "{D}D {what}: walked {ahead} m of 6"
    );
    let on_ground = grounded.iter().filter(|g| **g).count();
    assert!(
        on_ground > 220,
        "{D}D {what}: on the ground {on_ground} of 240 frames"
    );
}

#[test]
fn walks_sdf_ground_blends_grids_and_overhangs_both_dimensions() {
    fn check<const D: usize>()
    where
        Space<D>: Dim<D>,
    {
        // A slab (top at y = 0) smoothly blended with a ball whose top is 0.4 m above it: a
        // round hill with no seam between the two.
        let mut half = Vector::<D>::repeat(10.0);
        half[1] = 0.5;
        let slab = Shape::<D>::cuboid(half)
            .unwrap()
            .transformed(at::<D>(-up::<D>() * 0.5))
            .unwrap();
        let hill = Shape::<D>::ball(3.0)
            .unwrap()
            .transformed(at::<D>(-up::<D>() * 2.6))
            .unwrap();
        let blended = slab.clone().smooth_union(hill, 0.8).unwrap();
        walks_over::<D>(blended.clone(), "smooth hill");
        // The same hill baked into a 5 cm grid.
        let mut region = fathom_math::Aabb::<D>::new(-half, half);
        region.min[1] = -1.0;
        region.max[1] = 1.0;
        let grid = fathom_sdf::BakedGrid::bake(&blended, &region, 0.05).unwrap();
        let baked = Shape::Grid(fathom_sdf::GridSource::Inline(std::sync::Arc::new(grid)));
        walks_over::<D>(baked, "baked hill");
        // A block 2.8 m tall with a 2 m passage carved through it along x: an overhang to
        // walk under.
        let mut block = Vector::<D>::repeat(2.0);
        block[1] = 1.4;
        let mut passage = Vector::<D>::repeat(3.0);
        passage[1] = 1.0;
        if D == 3 {
            passage[2] = 1.0;
        }
        let carved = Shape::<D>::cuboid(block)
            .unwrap()
            .transformed(at::<D>(up::<D>() * 1.4))
            .unwrap()
            .difference(
                Shape::<D>::cuboid(passage)
                    .unwrap()
                    .transformed(at::<D>(up::<D>() * 1.0))
                    .unwrap(),
            )
            .unwrap();
        walks_over::<D>(slab.union(carved).unwrap(), "passage");
    }
    check::<2>();
    check::<3>();
}

/// A course of random boxes, balls and CSG shapes on the ground.
fn course<const D: usize>(seed: &[(Real, Real, Real, u8)]) -> World<D>
where
    Space<D>: Dim<D>,
{
    let mut w = awake_world::<D>(-up::<D>() * G);
    add_ground(&mut w, Vector::zeros(), Space::<D>::ang_zero());
    for &(x, z, size, kind) in seed {
        let mut p = axis::<D>(0) * x;
        if D == 3 {
            p[2] = z;
        }
        p[1] = size * 0.5;
        let shape = match kind % 3 {
            0 => Shape::<D>::cuboid(Vector::<D>::repeat(size)).unwrap(),
            1 => Shape::<D>::ball(size).unwrap(),
            _ => Shape::<D>::cuboid(Vector::<D>::repeat(size))
                .unwrap()
                .difference(Shape::<D>::ball(size * 1.2).unwrap())
                .unwrap()
                .union(Shape::<D>::ball(size * 0.5).unwrap())
                .unwrap(),
        };
        w.add_body(
            &BodyDesc::fixed()
                .position(p)
                .collider(ColliderDesc::new(shape)),
        )
        .unwrap();
    }
    w
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 12, ..ProptestConfig::default() })]

    /// Random courses and random moves: every move ends outside every collider.
    #[test]
    fn never_ends_a_move_inside_a_collider(
        seed in prop::collection::vec((-4.0f32..4.0, -4.0f32..4.0, 0.2f32..1.0, 0u8..3), 4..10),
        moves in prop::collection::vec((-4.0f32..4.0, -4.0f32..4.0, -3.0f32..2.0), 30),
    ) {
        fn check<const D: usize>(seed: &[(Real, Real, Real, u8)], moves: &[(Real, Real, Real)])
        where
            Space<D>: Dim<D>,
        {
            let w = course::<D>(seed);
            let c = CharacterController::<D>::default();
            let shape = capsule::<D>();
            let mut pose = at::<D>(up::<D>() * 4.0 + axis::<D>(0) * 5.5);
            for &(x, z, y) in moves {
                let mut v = axis::<D>(0) * x + up::<D>() * y;
                if D == 3 {
                    v[2] = z;
                }
                let m = c.move_shape(&w, &shape, &pose, v * DT * 3.0, DT, &QueryFilter::new()).unwrap();
                pose.translation.vector += m.translation;
                let inside = w.shape_penetrations(&shape, &pose, &QueryFilter::new()).unwrap();
                // The casts' tolerance is 1 mm; anything deeper is a move into a collider.
                let deepest = inside.iter().map(|p| p.depth).fold(0.0, Real::max);
                assert!(deepest < 1e-3, "{D}D: ended {deepest} m inside at {:?}", pose.translation.vector);
            }
        }
        check::<2>(&seed, &moves);
        check::<3>(&seed, &moves);
    }
}
