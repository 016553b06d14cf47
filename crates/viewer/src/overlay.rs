//! What the overlays draw, as plain world-space geometry, once for both
//! dimensions: contact points with normals as long as their impulses, joints,
//! collider boxes, centres of mass, islands with their sleep state, and the
//! mouse's drag spring. The 2D and 3D views only turn these into kiss3d line
//! and point calls.

use crate::framing::is_unbounded;
use crate::input::Overlays;
use crate::palette::{Rgb, PALETTE, SLEEP_TINT};
use crate::pick::Grab;
use crate::sim::SimStats;
use fathom_math::{Aabb, Dim, Real, Space, Vector};
use fathom_world::World;

/// Colour of contact points.
pub const CONTACT_POINT: Rgb = Rgb::new(1.0, 0.2, 0.2);
/// Colour of contact normals.
pub const CONTACT_NORMAL: Rgb = Rgb::new(1.0, 0.85, 0.2);
/// Colour of bounding boxes.
pub const AABB: Rgb = Rgb::new(0.3, 0.9, 0.4);
/// Colour of joints.
pub const JOINT: Rgb = Rgb::new(0.95, 0.95, 0.95);
/// Colour of centres of mass.
pub const CENTER_OF_MASS: Rgb = Rgb::new(1.0, 1.0, 1.0);
/// Colour of the mouse's drag spring: magenta, a hue no palette colour is near.
pub const GRAB: Rgb = Rgb::new(1.0, 0.25, 1.0);
/// A contact normal's length at the smallest impulse, as a fraction of the longest (the
/// largest impulse of the frame): a resting point still shows its normal.
const MIN_NORMAL_FRACTION: Real = 0.2;

/// Overlay geometry in world coordinates (metres).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct OverlayGeometry<const D: usize> {
    /// Segments with their colour.
    pub lines: Vec<([Vector<D>; 2], Rgb)>,
    /// Points with their colour.
    pub points: Vec<(Vector<D>, Rgb)>,
}

/// The overlay geometry of `world` for the enabled `overlays`. Normals are drawn
/// `normal_length` metres long from the point on the first collider's surface.
pub fn overlay_geometry<const D: usize>(
    world: &World<D>,
    overlays: &Overlays,
    normal_length: Real,
) -> OverlayGeometry<D>
where
    Space<D>: Dim<D>,
{
    let mut out = OverlayGeometry {
        lines: Vec::new(),
        points: Vec::new(),
    };
    if overlays.contacts {
        contacts(world, normal_length, &mut out);
    }
    if overlays.joints {
        for (_, j) in world.joints() {
            let (Some(a), Some(b)) = (world.body(j.body_a()), world.body(j.body_b())) else {
                continue;
            };
            let pa = a.pose().rotation * j.desc().anchor_a + a.pose().translation.vector;
            let pb = b.pose().rotation * j.desc().anchor_b + b.pose().translation.vector;
            // Each body's centre of mass to its anchor, and anchor to anchor (a stretched
            // joint shows as a gap between the two anchor points).
            out.lines.push(([a.center_of_mass(), pa], JOINT));
            out.lines.push(([b.center_of_mass(), pb], JOINT));
            out.lines.push(([pa, pb], JOINT));
            out.points.push((pa, JOINT));
            out.points.push((pb, JOINT));
        }
    }
    if overlays.aabbs {
        for (_, c) in world.colliders() {
            if !is_unbounded(c.aabb()) {
                out.lines
                    .extend(box_edges(c.aabb()).into_iter().map(|e| (e, AABB)));
            }
        }
    }
    if overlays.centers {
        centers_of_mass(world, 0.3 * normal_length, &mut out);
    }
    if overlays.islands {
        for island in islands(world) {
            let colour = if island.sleeping {
                SLEEP_TINT
            } else {
                PALETTE[island.index % PALETTE.len()]
            };
            out.lines
                .extend(box_edges(&island.aabb).into_iter().map(|e| (e, colour)));
        }
    }
    out
}

/// Each contact point on both surfaces, and a normal from the first whose length grows with
/// the point's normal impulse of the last step: `normal_length` for the largest of the
/// frame, down to [`MIN_NORMAL_FRACTION`] of it for none (a speculative point).
fn contacts<const D: usize>(world: &World<D>, normal_length: Real, out: &mut OverlayGeometry<D>)
where
    Space<D>: Dim<D>,
{
    let points = || {
        world
            .contact_pairs()
            .iter()
            .flat_map(|pair| pair.manifolds.iter())
            .flat_map(|m| m.points.iter().map(move |p| (m.normal, p)))
    };
    let largest = points()
        .map(|(_, p)| p.total_normal_impulse)
        .fold(0.0, Real::max);
    for (normal, p) in points() {
        let share = if largest > 0.0 {
            (p.total_normal_impulse / largest).clamp(0.0, 1.0)
        } else {
            0.0
        };
        let length = normal_length * (MIN_NORMAL_FRACTION + (1.0 - MIN_NORMAL_FRACTION) * share);
        out.points.push((p.point_a, CONTACT_POINT));
        out.points.push((p.point_b, CONTACT_POINT));
        out.lines
            .push(([p.point_a, p.point_a + normal * length], CONTACT_NORMAL));
    }
}

/// A cross of arms `size` metres long along each axis at every moving body's centre of mass.
fn centers_of_mass<const D: usize>(world: &World<D>, size: Real, out: &mut OverlayGeometry<D>)
where
    Space<D>: Dim<D>,
{
    for (_, b) in world.bodies().filter(|(_, b)| b.is_dynamic()) {
        let c = b.center_of_mass();
        for axis in 0..D {
            let mut d = Vector::<D>::zeros();
            d[axis] = size;
            out.lines.push(([c - d, c + d], CENTER_OF_MASS));
        }
        out.points.push((c, CENTER_OF_MASS));
    }
}

/// The mouse's drag spring: a line from the grab point to the cursor, and both ends.
pub fn grab_geometry<const D: usize>(world: &World<D>, grab: &Grab<D>) -> OverlayGeometry<D>
where
    Space<D>: Dim<D>,
{
    let mut out = OverlayGeometry::default();
    if let Some(p) = grab.point(world) {
        out.lines.push(([p, grab.target], GRAB));
        out.points.push((p, GRAB));
        out.points.push((grab.target, GRAB));
    }
    out
}

impl<const D: usize> OverlayGeometry<D> {
    /// Adds `other`'s lines and points to these.
    pub fn extend(&mut self, other: OverlayGeometry<D>) {
        self.lines.extend(other.lines);
        self.points.extend(other.points);
    }
}

/// A group of dynamic bodies that touch or are jointed to each other (fixed and kinematic
/// bodies do not join groups, as in the world's own islands), as the overlay shows it.
#[derive(Clone, Debug, PartialEq)]
pub struct Island<const D: usize> {
    /// Its place in the list (islands are ordered by their first body's handle).
    pub index: usize,
    /// Its bodies, in handle order.
    pub bodies: Vec<fathom_world::BodyHandle>,
    /// The box of its bounded colliders.
    pub aabb: Aabb<D>,
    /// Whether all its bodies sleep.
    pub sleeping: bool,
}

/// The islands of the last step's contacts (pairs with a manifold) and the joints, among
/// dynamic bodies; bodies with no bounded collider are left out.
pub fn islands<const D: usize>(world: &World<D>) -> Vec<Island<D>>
where
    Space<D>: Dim<D>,
{
    let dynamic: Vec<_> = world
        .bodies()
        .filter(|(_, b)| b.is_dynamic())
        .map(|(h, _)| h)
        .collect();
    let mut dynamic = dynamic;
    dynamic.sort();
    let index = |h| dynamic.binary_search(&h).ok();
    let mut parent: Vec<usize> = (0..dynamic.len()).collect();
    let mut join = |a: Option<usize>, b: Option<usize>| {
        if let (Some(a), Some(b)) = (a, b) {
            let (ra, rb) = (root(&mut parent, a), root(&mut parent, b));
            parent[ra.max(rb)] = ra.min(rb);
        }
    };
    let body_of = |c| world.collider(c).map(|c| c.body());
    for pair in world
        .contact_pairs()
        .iter()
        .filter(|p| !p.manifolds.is_empty())
    {
        join(
            body_of(pair.a).and_then(index),
            body_of(pair.b).and_then(index),
        );
    }
    for (_, j) in world.joints() {
        join(index(j.body_a()), index(j.body_b()));
    }
    let mut out: Vec<Island<D>> = Vec::new();
    let mut slot = vec![usize::MAX; dynamic.len()];
    for (i, &h) in dynamic.iter().enumerate() {
        let r = root(&mut parent, i);
        if slot[r] == usize::MAX {
            slot[r] = out.len();
            out.push(Island {
                index: out.len(),
                bodies: Vec::new(),
                aabb: Aabb::EMPTY,
                sleeping: true,
            });
        }
        let island = &mut out[slot[r]];
        island.bodies.push(h);
        island.sleeping &= world.is_sleeping(h);
        let colliders = world.body(h).map(|b| b.colliders()).unwrap_or_default();
        for c in colliders.iter().filter_map(|c| world.collider(*c)) {
            if !is_unbounded(c.aabb()) {
                island.aabb = island.aabb.merge(c.aabb());
            }
        }
    }
    out.retain(|i| i.aabb.is_valid());
    for (k, i) in out.iter_mut().enumerate() {
        i.index = k;
    }
    out
}

/// The root of `i` in a union-find forest, halving the path on the way.
fn root(parent: &mut [usize], mut i: usize) -> usize {
    while parent[i] != i {
        parent[i] = parent[parent[i]];
        i = parent[i];
    }
    i
}

/// The edges of a box: `D * 2^(D-1)` segments (4 in 2D, 12 in 3D). Each joins a corner to
/// the corner that differs from it in one coordinate, from its min side to its max side.
pub fn box_edges<const D: usize>(b: &Aabb<D>) -> Vec<[Vector<D>; 2]> {
    let mut edges = Vec::with_capacity(D << (D - 1));
    for mask in 0..1usize << D {
        for axis in 0..D {
            if mask >> axis & 1 == 0 {
                edges.push([b.corner(mask), b.corner(mask | 1 << axis)]);
            }
        }
    }
    edges
}

/// The on-screen status lines: scene, counts, timing, state.
pub fn hud_lines(
    name: &str,
    dim: usize,
    stats: &SimStats,
    fps: Option<f64>,
    paused: bool,
    time_scale: Real,
) -> Vec<String> {
    let fps = match fps {
        Some(f) if f < 10.0 => format!("{f:.1} fps"),
        Some(f) => format!("{f:.0} fps"),
        None => "offscreen".to_string(),
    };
    let state = if paused { "  PAUSED" } else { "" };
    vec![
        format!(
            "{name} ({dim}D)   t = {:.2} s   x{time_scale}{state}",
            stats.time
        ),
        format!(
            "bodies {}   awake {}   contacts {}   {:.2} ms/step   {fps}",
            stats.bodies, stats.awake, stats.contacts, stats.ms_per_step
        ),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use fathom_world::{BodyDesc, ColliderDesc, Shape};

    fn edges_of_unit_box<const D: usize>() {
        let b = Aabb::<D>::new(Vector::zeros(), Vector::repeat(1.0));
        let e = box_edges(&b);
        assert_eq!(e.len(), D << (D - 1));
        // Every edge has unit length and runs along one axis.
        for [a, c] in &e {
            assert!(((c - a).norm() - 1.0).abs() < 1e-6);
        }
    }

    #[test]
    fn box_edges_2d_and_3d() {
        edges_of_unit_box::<2>();
        edges_of_unit_box::<3>();
    }

    fn resting_ball_has_contact_overlay<const D: usize>()
    where
        Space<D>: Dim<D>,
    {
        let mut up = Vector::<D>::zeros();
        up[1] = 1.0;
        let mut w = World::<D>::default();
        w.add_body(
            &BodyDesc::fixed().collider(ColliderDesc::new(Shape::half_space(up, 0.0).unwrap())),
        )
        .unwrap();
        w.add_body(
            &BodyDesc::dynamic()
                .position(up * 0.5)
                .collider(ColliderDesc::new(Shape::ball(0.5).unwrap())),
        )
        .unwrap();
        w.step();
        let all = Overlays {
            contacts: true,
            aabbs: true,
            ..Overlays::default()
        };
        let g = overlay_geometry(&w, &all, 0.25);
        assert!(w.contact_count() > 0);
        assert_eq!(g.points.len(), 2 * w.contact_count());
        // One normal per contact point plus the ball's box (the half-space box is skipped).
        assert_eq!(g.lines.len(), w.contact_count() + (D << (D - 1)));
        // The contact points are at the ball's bottom, near the ground plane (within the
        // 0.02 m default margin plus one step of fall).
        for (p, _) in &g.points {
            assert!(p[1].abs() < 0.05, "{p:?}");
        }
        assert_eq!(
            overlay_geometry(&w, &Overlays::default(), 0.25),
            OverlayGeometry::default()
        );
    }

    #[test]
    fn contact_overlay_2d_and_3d() {
        resting_ball_has_contact_overlay::<2>();
        resting_ball_has_contact_overlay::<3>();
    }

    fn pendulum_joint_overlay<const D: usize>()
    where
        Space<D>: Dim<D>,
    {
        let mut w = World::<D>::default();
        let mut x = Vector::<D>::zeros();
        x[0] = 1.0;
        let pivot = w.add_body(&BodyDesc::fixed()).unwrap();
        let ball = ColliderDesc::new(Shape::ball(0.2).unwrap());
        let bob = w
            .add_body(&BodyDesc::dynamic().position(x * 2.0).collider(ball))
            .unwrap();
        let joint = fathom_world::JointDesc::distance().anchor_b(-x * 0.5);
        w.add_joint(pivot, bob, &joint).unwrap();
        let g = overlay_geometry(
            &w,
            &Overlays {
                joints: true,
                ..Overlays::default()
            },
            0.1,
        );
        assert_eq!(g.lines.len(), 3);
        // The anchors: the pivot's origin and 0.5 m from the bob's centre towards it
        // (poses are exact here: nothing has stepped).
        let anchors: Vec<Vector<D>> = g.points.iter().map(|(p, _)| *p).collect();
        assert!(
            anchors[0].norm() < 1e-6 && (anchors[1] - x * 1.5).norm() < 1e-6,
            "{anchors:?}"
        );
    }

    #[test]
    fn joint_overlay_2d_and_3d() {
        pendulum_joint_overlay::<2>();
        pendulum_joint_overlay::<3>();
    }

    /// Two stacks of two balls apart on the ground, and a lone ball: three islands (the
    /// fixed ground joins none); once everything sleeps, every island says so. Centres of
    /// mass get one cross each; the contact normals scale with their impulses.
    fn islands_and_centres<const D: usize>()
    where
        Space<D>: Dim<D>,
    {
        let mut up = Vector::<D>::zeros();
        up[1] = 1.0;
        let mut x = Vector::<D>::zeros();
        x[0] = 1.0;
        let mut w = World::<D>::default();
        let ground = Shape::half_space(up, 0.0).unwrap();
        w.add_body(&BodyDesc::fixed().collider(ColliderDesc::new(ground)))
            .unwrap();
        let ball = |p: Vector<D>| {
            BodyDesc::dynamic()
                .position(p)
                .collider(ColliderDesc::new(Shape::ball(0.5).unwrap()))
        };
        for at in [x * -4.0, x * 4.0] {
            w.add_body(&ball(at + up * 0.5)).unwrap();
            w.add_body(&ball(at + up * 1.5)).unwrap();
        }
        w.add_body(&ball(up * 0.5)).unwrap();
        w.step();
        let found = islands(&w);
        assert_eq!(
            found.iter().map(|i| i.bodies.len()).collect::<Vec<_>>(),
            [2, 2, 1]
        );
        assert!(found.iter().all(|i| !i.sleeping));
        let o = Overlays {
            centers: true,
            islands: true,
            contacts: true,
            ..Overlays::default()
        };
        // A stack's bottom ball carries the top one: its ground contact's impulse is the
        // largest (full length, 0.25 m), twice the lone ball's, whose normal is then
        // 0.2 + 0.8 / 2 = 0.6 of full length (0.15 m; a tenth for the stacks' settling).
        for _ in 0..10 {
            w.step();
        }
        let g = overlay_geometry(&w, &o, 0.25);
        let normals: Vec<(Vector<D>, Real)> = g
            .lines
            .iter()
            .filter(|(_, c)| *c == CONTACT_NORMAL)
            .map(|([a, b], _)| (*a, (b - a).norm()))
            .collect();
        let longest = normals.iter().map(|n| n.1).fold(0.0, Real::max);
        assert!((longest - 0.25).abs() < 1e-4, "{normals:?}");
        let lone: Vec<Real> = normals
            .iter()
            .filter(|(a, _)| a[0].abs() < 1.0 && a[1].abs() < 0.1)
            .map(|n| n.1)
            .collect();
        assert!(
            !lone.is_empty() && lone.iter().all(|l| (l - 0.15).abs() < 0.025),
            "{lone:?}"
        );

        // Each stack's box holds both its balls: 2 m tall.
        assert!(
            (found[0].aabb.extents()[1] - 2.0).abs() < 0.1,
            "{:?}",
            found[0].aabb
        );
        for _ in 0..600 {
            w.step();
        }
        assert!(islands(&w).iter().all(|i| i.sleeping));
        let g = overlay_geometry(&w, &o, 0.25);
        let crosses = g.lines.iter().filter(|(_, c)| *c == CENTER_OF_MASS).count();
        assert_eq!(crosses, 5 * D);
        let boxes = g.lines.iter().filter(|(_, c)| *c == SLEEP_TINT).count();
        assert_eq!(boxes, 3 * (D << (D - 1)));
    }

    #[test]
    fn islands_and_centres_2d_and_3d() {
        islands_and_centres::<2>();
        islands_and_centres::<3>();
    }

    #[test]
    fn hud_shows_the_figures() {
        let s = SimStats {
            bodies: 12,
            awake: 10,
            contacts: 7,
            ms_per_step: 1.5,
            steps: 60,
            time: 1.0,
        };
        let l = hud_lines("pyramid", 3, &s, Some(59.6), true, 0.5);
        assert!(l[0].contains("pyramid (3D)") && l[0].contains("PAUSED") && l[0].contains("x0.5"));
        assert!(
            l[1].contains("bodies 12") && l[1].contains("awake 10") && l[1].contains("contacts 7")
        );
        assert!(l[1].contains("1.50 ms/step") && l[1].contains("60 fps"));
    }
}
