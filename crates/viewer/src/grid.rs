//! A grid laid on the ground, so the shape of terrain reads: lines at round
//! spacings along each horizontal axis, each following the surface of the
//! fixed bodies under it (found by casting rays down through the world's
//! query API), lifted a hair off it so the surface does not hide them.
//!
//! Fixed bodies do not move, so the grid is computed once per scene.

use crate::framing::is_unbounded;
use crate::palette::Rgb;
use fathom_math::{Aabb, Dim, Real, Space, Vector};
use fathom_world::{BodyKind, ColliderHandle, QueryFilter, World};
use std::collections::BTreeSet;

/// Colour of grid lines: darker than the fixed grey, lighter than the background.
pub const GRID: Rgb = Rgb::new(0.3, 0.31, 0.34);
/// About this many lines across the grid's larger side.
const LINES_ACROSS: Real = 20.0;
/// Most lines per direction (on a long terrain the grid covers the part around what moves).
const MAX_LINES: usize = 41;
/// Samples per grid spacing along a line (a line bends with the terrain at each).
const SAMPLES_PER_CELL: usize = 4;
/// How far lines sit off the surface, as a fraction of the grid spacing.
const LIFT: Real = 0.01;
/// Steepest rise between neighbouring samples that a line follows, as rise over run: a
/// steeper one is a step or a wall (a post, a bar overhead), where the line breaks rather
/// than hang a curtain down its side.
const MAX_SLOPE: Real = 2.0;

/// The smallest of 1, 2, 5 times a power of ten that is at least `x`.
pub fn round_spacing(x: Real) -> Real {
    let p = 10.0_f32.powf(x.max(1e-6).log10().floor());
    [1.0, 2.0, 5.0, 10.0]
        .into_iter()
        .map(|m| m * p)
        .find(|s| *s >= x)
        .unwrap_or(10.0 * p)
}

/// The grid's segments (world frame) over the part of `area` (the view's clip box) that
/// fixed bodies cover, axis 1 being up. Empty when no fixed body is there.
pub fn ground_grid<const D: usize>(world: &World<D>, area: &Aabb<D>) -> Vec<[Vector<D>; 2]>
where
    Space<D>: Dim<D>,
{
    let fixed: BTreeSet<ColliderHandle> = world
        .colliders()
        .filter(|(_, c)| {
            world
                .body(c.body())
                .is_some_and(|b| b.kind() == BodyKind::Fixed)
        })
        .map(|(h, _)| h)
        .collect();
    let mut reach = Aabb::EMPTY;
    for h in &fixed {
        let Some(c) = world.collider(*h) else {
            continue;
        };
        // An unbounded ground (a half-space) is drawn as a square slab as wide as the area
        // round its own origin (see `view3d`): the grid stays on it.
        let b = if is_unbounded(c.aabb()) {
            let at = c.world_pose().translation.vector;
            let half = Vector::<D>::repeat(0.5 * area.extents().max());
            Aabb::new(at - half, at + half)
        } else {
            *c.aabb()
        };
        reach = reach.merge(&b);
    }
    // The grid covers what is both ground and in view.
    let (mut lo, mut hi) = (reach.min.sup(&area.min), reach.max.inf(&area.max));
    if (0..D).any(|i| i != 1 && hi[i] <= lo[i]) {
        return Vec::new();
    }
    let widest = (0..D)
        .filter(|&i| i != 1)
        .map(|i| hi[i] - lo[i])
        .fold(0.0, Real::max);
    // Cells at most twice the largest moving body, so the ground reads at the scale of
    // what moves on it (a car on a kilometre of terrain), and then at most MAX_LINES of
    // them across, centred on the moving bodies.
    let (movers, largest) = moving_extent(world);
    let cap = if largest > 0.0 {
        2.0 * largest
    } else {
        Real::INFINITY
    };
    let spacing = round_spacing((widest / LINES_ACROSS).min(cap));
    let half = 0.5 * spacing * (MAX_LINES - 1) as Real;
    if movers.is_valid() {
        let c = movers.center();
        for i in (0..D).filter(|&i| i != 1) {
            lo[i] = lo[i].max(c[i] - half);
            hi[i] = hi[i].min(c[i] + half);
        }
    }
    let only_fixed = |c: ColliderHandle| fixed.contains(&c);
    let filter = QueryFilter {
        predicate: Some(&only_fixed),
        ..QueryFilter::default()
    };
    let top = area.max[1].max(reach.max[1]) + spacing;
    let depth = top - area.min[1].min(reach.min[1]) + spacing;
    let drop = |mut p: Vector<D>| {
        p[1] = top;
        let mut down = Vector::<D>::zeros();
        down[1] = -1.0;
        let hit = world.cast_ray(&p, &down, depth, &filter).ok()??;
        Some(hit.point + hit.normal * (LIFT * spacing))
    };
    let mut out = Vec::new();
    for along in (0..D).filter(|&i| i != 1) {
        for start in line_starts::<D>(&lo, &hi, spacing, along) {
            let (a, b) = (lo[along], hi[along]);
            let steps = (((b - a) / spacing).ceil() as usize * SAMPLES_PER_CELL).max(1);
            let mut last: Option<Vector<D>> = None;
            for k in 0..=steps {
                let mut p = start;
                p[along] = a + (b - a) * k as Real / steps as Real;
                let here = drop(p);
                if let (Some(u), Some(v)) = (last, here) {
                    let run = spacing / SAMPLES_PER_CELL as Real;
                    if (v[1] - u[1]).abs() <= MAX_SLOPE * run {
                        out.push([u, v]);
                    }
                }
                last = here;
            }
        }
    }
    out
}

/// The box of every dynamic body's bounded colliders, and the largest extent of one body's.
fn moving_extent<const D: usize>(world: &World<D>) -> (Aabb<D>, Real)
where
    Space<D>: Dim<D>,
{
    let (mut all, mut largest) = (Aabb::EMPTY, 0.0 as Real);
    for (_, b) in world.bodies().filter(|(_, b)| b.is_dynamic()) {
        let mut one = Aabb::EMPTY;
        for c in b.colliders().iter().filter_map(|c| world.collider(*c)) {
            if !is_unbounded(c.aabb()) {
                one = one.merge(c.aabb());
            }
        }
        if one.is_valid() {
            largest = largest.max(one.extents().max());
            all = all.merge(&one);
        }
    }
    (all, largest)
}

/// The start of every grid line along axis `along`: all combinations of round multiples
/// of `spacing` in the other horizontal axes (none in 2D: one line).
fn line_starts<const D: usize>(
    lo: &Vector<D>,
    hi: &Vector<D>,
    spacing: Real,
    along: usize,
) -> Vec<Vector<D>> {
    let mut starts = vec![*lo];
    for axis in (0..D).filter(|&i| i != 1 && i != along) {
        let first = (lo[axis] / spacing).ceil() as i64;
        let last = (hi[axis] / spacing).floor() as i64;
        starts = starts
            .into_iter()
            .flat_map(|s| {
                (first..=last).map(move |k| {
                    let mut p = s;
                    p[axis] = k as Real * spacing;
                    p
                })
            })
            .collect();
    }
    starts
}

#[cfg(test)]
mod tests {
    use super::*;
    use fathom_math::Vector3;
    use fathom_world::{BodyDesc, ColliderDesc, Shape, World3};

    #[test]
    fn spacings_are_round() {
        assert_eq!(round_spacing(0.7), 1.0);
        assert_eq!(round_spacing(1.3), 2.0);
        assert_eq!(round_spacing(3.0), 5.0);
        assert!((round_spacing(0.031) - 0.05).abs() < 1e-6);
        assert_eq!(round_spacing(60.0), 100.0);
    }

    /// Over a ground plane with a 1 m step (a box), the grid lies on the plane and climbs
    /// onto the box: every point sits on a surface, lifted by the same hair.
    #[test]
    fn the_grid_follows_the_ground() {
        let mut w = World3::default();
        let plane = Shape::half_space(Vector3::y(), 0.0).unwrap();
        w.add_body(&BodyDesc::fixed().collider(ColliderDesc::new(plane)))
            .unwrap();
        let step = Shape::cuboid(Vector3::new(2.0, 0.5, 2.0)).unwrap();
        w.add_body(
            &BodyDesc::fixed()
                .position(Vector3::new(0.0, 0.5, 0.0))
                .collider(ColliderDesc::new(step)),
        )
        .unwrap();
        // A dynamic ball above is not ground: the rays pass it.
        w.add_body(
            &BodyDesc::dynamic()
                .position(Vector3::new(0.0, 3.0, 0.0))
                .collider(ColliderDesc::new(Shape::ball(0.5).unwrap())),
        )
        .unwrap();
        let area = Aabb::new(
            Vector3::new(-10.0, -1.0, -10.0),
            Vector3::new(10.0, 4.0, 10.0),
        );
        let g = ground_grid(&w, &area);
        // 20 m across, 20 lines: 1 m spacing, 21 lines each way, 80 segments each, but
        // the 1 m rises onto the box: the 17 lines that cross it break at both its edges
        // (the 2 lines along its edges, z = +-2, rise where the samples meet them).
        assert!(
            g.len() < 2 * 21 * 80 && g.len() >= 2 * 21 * 80 - 2 * 2 * 21,
            "{}",
            g.len()
        );
        for [a, b] in &g {
            assert!((a.y - b.y).abs() <= MAX_SLOPE * 0.25 + 1e-4, "{a:?} {b:?}");
        }
        let lift = LIFT * 1.0;
        let mut on_box = 0;
        for [a, _] in &g {
            let inside = a.x.abs() < 2.0 && a.z.abs() < 2.0;
            // On the box top (1 m) or the plane (0 m), to the ray's 1e-5 of scale.
            let want = if inside { 1.0 } else { 0.0 } + lift;
            // On the box's edges the normal leans out, and the lift with it.
            let edge = (a.x.abs() - 2.0).abs() <= lift || (a.z.abs() - 2.0).abs() <= lift;
            assert!(edge || (a.y - want).abs() < 1e-3, "{a:?}");
            on_box += inside as usize;
        }
        assert!(on_box > 0);
    }
}
