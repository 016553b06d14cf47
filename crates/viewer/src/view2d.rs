//! The 2D view, in kiss3d's 2D mode: each collider's field filled (see
//! [`crate::fill2d`]) in its body's colour with a darker outline, posed from
//! the world each frame, under a pan-and-zoom camera framing the scene.

use crate::framing::{clip_box, frame_2d, project_2d, scene_bounds};
use crate::input::Overlays;
use crate::meshing::{fill_2d, local_clip, ShapeCache};
use crate::overlay::overlay_geometry;
use crate::palette::{Rgb, BACKGROUND};
use crate::view3d::body_color;
use fathom_math::{Aabb, Pose2, Real, Vector2};
use fathom_world::{BodyHandle, Collider, ColliderHandle, World2};
use glamx::Vec2;
use kiss3d::camera::{Camera2d, PanZoomCamera2d};
use kiss3d::resource::GpuMesh2d;
use kiss3d::scene::SceneNode2d;
use kiss3d::window::Window;
use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet};
use std::rc::Rc;

/// Converts a fathom vector to glam.
pub fn v2(v: &Vector2) -> Vec2 {
    Vec2::new(v.x, v.y)
}

/// How much darker the outline is than the fill.
const OUTLINE_SHADE: f32 = 0.45;

#[derive(Clone)]
struct Fill {
    mesh: Rc<RefCell<GpuMesh2d>>,
    outline: Rc<Vec<[Vector2; 2]>>,
}

struct Node {
    node: SceneNode2d,
    body: BodyHandle,
    outline: Rc<Vec<[Vector2; 2]>>,
    pose: Pose2,
    color: Option<Rgb>,
}

/// The kiss3d side of a 2D world.
pub struct View2 {
    /// The scene graph root.
    pub root: SceneNode2d,
    /// The camera, framing the scene at creation.
    pub camera: PanZoomCamera2d,
    nodes: BTreeMap<ColliderHandle, Option<Node>>,
    fills: ShapeCache<2, Option<Fill>>,
    clip: Aabb<2>,
    bounds: Aabb<2>,
    framing: (Vector2, Real),
    size: (u32, u32),
}

impl View2 {
    /// Builds the view of `world` for a `width` x `height` viewport.
    pub fn new(world: &World2, width: u32, height: u32) -> Self {
        let bounds = scene_bounds(world);
        let clip = clip_box(&bounds);
        let (center, zoom) = frame_2d(&bounds, width, height);
        let camera = PanZoomCamera2d::new(v2(&center), zoom);
        let mut view = Self {
            root: SceneNode2d::empty(),
            camera,
            nodes: BTreeMap::new(),
            fills: ShapeCache::new(),
            clip,
            bounds,
            framing: (center, zoom),
            size: (width, height),
        };
        view.sync(world, &[], &Overlays::default());
        view
    }

    /// Points the camera at the scene as it is now (see [`scene_bounds`]).
    pub fn reframe(&mut self, world: &World2, width: u32, height: u32) {
        self.bounds = scene_bounds(world);
        let (center, zoom) = frame_2d(&self.bounds, width, height);
        self.camera.look_at(v2(&center), zoom);
        self.framing = (center, zoom);
        self.size = (width, height);
    }

    /// The framed bounds (bounded colliders only; see [`scene_bounds`]).
    pub fn bounds(&self) -> &Aabb<2> {
        &self.bounds
    }

    /// Distinct shapes filled so far.
    pub fn filled_shapes(&self) -> usize {
        self.fills.len()
    }

    /// Brings the scene graph up to date with `world` (see `View3::sync`).
    pub fn sync(&mut self, world: &World2, fired: &[BodyHandle], overlays: &Overlays) {
        let live: BTreeSet<ColliderHandle> = world.colliders().map(|(h, _)| h).collect();
        self.nodes.retain(|h, n| {
            let keep = live.contains(h);
            if !keep {
                if let Some(n) = n {
                    n.node.detach();
                }
            }
            keep
        });
        for (h, c) in world.colliders() {
            if !self.nodes.contains_key(&h) {
                let node = self.make_node(c);
                self.nodes.insert(h, node);
            }
            let Some(Some(n)) = self.nodes.get_mut(&h) else {
                continue;
            };
            n.pose = *c.world_pose();
            n.node.set_pose(glamx::Pose2::from(n.pose));
            let color = body_color(world, n.body, fired, overlays);
            if n.color != Some(color) {
                n.node.set_color(color.to_kiss());
                n.color = Some(color);
            }
        }
    }

    fn make_node(&mut self, c: &Collider<2>) -> Option<Node> {
        let clip = local_clip(&self.clip, c.world_pose());
        let shape = c.shape();
        let fill = self.fills.get_or_insert_with(shape, || {
            fill_2d(shape, &clip).map(|f| Fill {
                mesh: Rc::new(RefCell::new(GpuMesh2d::new(
                    f.vertices.iter().map(v2).collect(),
                    f.triangles,
                    None,
                    false,
                ))),
                outline: Rc::new(f.outline),
            })
        })?;
        let node = self.root.add_mesh(fill.mesh, Vec2::ONE);
        Some(Node {
            node,
            body: c.body(),
            outline: fill.outline,
            pose: *c.world_pose(),
            color: None,
        })
    }

    /// Queues the outlines and overlays for this frame.
    pub fn draw_overlays(&self, window: &mut Window, world: &World2, overlays: &Overlays) {
        for n in self.nodes.values().flatten() {
            let color = n
                .color
                .unwrap_or(BACKGROUND)
                .mix(BACKGROUND, OUTLINE_SHADE)
                .to_kiss();
            for [a, b] in n.outline.iter() {
                let (a, b) = (
                    n.pose.rotation * a + n.pose.translation.vector,
                    n.pose.rotation * b + n.pose.translation.vector,
                );
                window.draw_line_2d(v2(&a), v2(&b), color, 1.5);
            }
        }
        let g = overlay_geometry(world, overlays, self.bounds.radius() * 0.08);
        for ([a, b], color) in &g.lines {
            window.draw_line_2d(v2(a), v2(b), color.to_kiss(), 2.0);
        }
        for (p, color) in &g.points {
            window.draw_point_2d(v2(p), color.to_kiss(), 6.0);
        }
    }

    /// Where a ball is fired from and towards: from the upper left of the view towards
    /// the cursor (or the view's centre when there is no cursor).
    pub fn fire_ray(&self, cursor: Option<(f64, f64)>, size: Vec2) -> (Vector2, Vector2) {
        let at = self.camera.at();
        let half = size / (2.0 * self.camera.zoom());
        let origin = Vec2::new(at.x - 0.9 * half.x, at.y + 0.5 * half.y);
        let target = match cursor {
            Some((x, y)) => self.camera.unproject(Vec2::new(x as f32, y as f32), size),
            None => at,
        };
        let dir = target - origin;
        (Vector2::new(origin.x, origin.y), Vector2::new(dir.x, dir.y))
    }

    /// Pixel box (origin top left) of a world box in the image, under the initial framing.
    pub fn project_box(&self, b: &Aabb<2>) -> ([f32; 2], [f32; 2]) {
        let (c, zoom) = self.framing;
        let (w, h) = self.size;
        let p = project_2d(&b.min, &c, zoom, w, h);
        let q = project_2d(&b.max, &c, zoom, w, h);
        ([p.x.min(q.x), p.y.min(q.y)], [p.x.max(q.x), p.y.max(q.y)])
    }
}
