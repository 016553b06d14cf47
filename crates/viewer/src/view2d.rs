//! The 2D view, in kiss3d's 2D mode: each collider's field filled (see
//! [`crate::fill2d`]) in its body's colour with a darker outline, posed from
//! the world each frame, under a pan-and-zoom camera framing the scene (or
//! following the body a controller names). A controller's parts are filled
//! the same way.

use crate::batches::{part_frame, Batches, Instance, Make};
use crate::controller::Part;
use crate::framing::{chase_2d, clip_box, frame_2d, project_box_2d, scene_bounds};
use crate::input::Overlays;
use crate::meshing::{fill_2d_fine, local_clip, ShapeCache};
use crate::overlay::OverlayGeometry;
use crate::palette::BACKGROUND;
use crate::sim::Followed;
use fathom_math::{Aabb, Pose2, Real, Vector2};
use fathom_sdf::Shape2;
use fathom_world::{BodyHandle, World2};
use glamx::{Mat2, Vec2};
use kiss3d::camera::{Camera2d, PanZoomCamera2d};
use kiss3d::resource::GpuMesh2d;
use kiss3d::scene::{InstanceData2d, SceneNode2d};
use kiss3d::window::Window;
use std::cell::RefCell;
use std::rc::Rc;

/// Converts a fathom vector to glam.
pub fn v2(v: &Vector2) -> Vec2 {
    Vec2::new(v.x, v.y)
}

/// How much darker the outline is than the fill.
const OUTLINE_SHADE: f32 = 0.45;
/// Shapes drawn smaller than this (pixels across) get no outline: on a peg or a pebble
/// the outline's many short segments look like a star, not an edge.
const MIN_OUTLINE_PX: Real = 24.0;

/// How far below the cursor's tip a 2D body is still picked, pixels.
pub const PICK_PX: Real = 4.0;

/// One distinct shape: its filled kiss3d object and its outline (local frame).
struct Batch {
    node: SceneNode2d,
    outline: Vec<[Vector2; 2]>,
    /// Largest extent of the fill, metres.
    size: Real,
}

/// The kiss3d side of a 2D world.
pub struct View2 {
    /// The scene graph root.
    pub root: SceneNode2d,
    /// The camera, framing the scene at creation.
    pub camera: PanZoomCamera2d,
    batches: Batches<2>,
    nodes: Vec<Batch>,
    /// The instances of each batch at the last sync (for the outlines).
    frame: Vec<Vec<Instance<2>>>,
    /// The controller's parts: per part, its batch in `part_nodes` (see `View3`).
    part_slots: Vec<Option<usize>>,
    part_nodes: Vec<Batch>,
    clip: Aabb<2>,
    bounds: Aabb<2>,
    framing: (Vector2, Real),
    size: (u32, u32),
    /// Filling fineness (see [`crate::meshing::fill_2d_fine`]).
    fineness: Real,
}

impl View2 {
    /// Builds the view of `world` for a `width` x `height` viewport.
    pub fn new(world: &World2, width: u32, height: u32) -> Self {
        Self::with_fineness(world, width, height, 1.0)
    }

    /// [`View2::new`] filling at `fineness` times the usual resolution.
    pub fn with_fineness(world: &World2, width: u32, height: u32, fineness: Real) -> Self {
        let bounds = scene_bounds(world);
        let clip = clip_box(&bounds);
        let (center, zoom) = frame_2d(&bounds, width, height);
        let camera = PanZoomCamera2d::new(v2(&center), zoom);
        let mut view = Self {
            root: SceneNode2d::empty(),
            camera,
            batches: Batches::default(),
            nodes: Vec::new(),
            frame: Vec::new(),
            part_slots: Vec::new(),
            part_nodes: Vec::new(),
            clip,
            bounds,
            framing: (center, zoom),
            size: (width, height),
            fineness,
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

    /// Centres the camera on a followed body (see [`chase_2d`]) in a `width` x `height`
    /// viewport. `blend` in `(0, 1]` is how far to move from the present view: 1 frames
    /// the body exactly; less (a window, each frame) eases the centre towards it and
    /// leaves the zoom to the mouse.
    pub fn follow(&mut self, f: &Followed<2>, blend: Real, width: u32, height: u32) {
        let (center, zoom) = chase_2d(&f.center, f.radius, width, height);
        let (center, zoom) = if blend >= 1.0 {
            (center, zoom)
        } else {
            let now = self.camera.at();
            let now = Vector2::new(now.x, now.y);
            (
                now + (center - now) * blend.clamp(0.0, 1.0),
                self.camera.zoom(),
            )
        };
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
        self.batches.len()
    }

    /// Brings the scene graph up to date with `world` (see `View3::sync`).
    pub fn sync(&mut self, world: &World2, fired: &[BodyHandle], overlays: &Overlays) {
        let (root, nodes, clip) = (&mut self.root, &mut self.nodes, &self.clip);
        let fine = self.fineness;
        // An edited collider is filled again whole after each edit: a 2D fill is cheap.
        self.frame = self.batches.sync(world, fired, overlays, |c, make| {
            let made = make_batch(root, clip, fine, c.shape(), c.world_pose());
            match (make, made) {
                (Make::New, made) => made.map(|b| nodes.push(b)).is_some(),
                (Make::Again(b), Some(fresh)) => {
                    nodes[b].node.detach();
                    nodes[b] = fresh;
                    true
                }
                // All carved away: the last fill stays (kiss3d takes no empty mesh).
                (Make::Again(_), None) => true,
            }
        });
        set_instances(&mut self.nodes, &self.frame);
    }

    /// Draws a controller's `parts` at `poses` ((part index, world pose) pairs) this
    /// frame; each distinct shape is filled on the first call.
    pub fn sync_parts(&mut self, parts: &[Part<2>], poses: &[(usize, Pose2)]) {
        if self.part_slots.len() != parts.len() {
            let (root, clip, nodes) = (&mut self.root, &self.clip, &mut self.part_nodes);
            let mut cache = ShapeCache::<2, Option<usize>>::new();
            self.part_slots = parts
                .iter()
                .map(|p| {
                    cache.get_or_insert_with(&p.shape, || {
                        nodes.push(make_batch(root, clip, 1.0, &p.shape, &Pose2::identity())?);
                        Some(nodes.len() - 1)
                    })
                })
                .collect();
        }
        let frame = part_frame(&self.part_slots, self.part_nodes.len(), parts, poses);
        set_instances(&mut self.part_nodes, &frame);
    }

    /// Queues the outlines and the overlay geometry `g` (world frame) for this frame.
    pub fn draw_overlays(&self, window: &mut Window, g: &OverlayGeometry<2>) {
        let zoom = self.camera.zoom();
        for (batch, instances) in self.nodes.iter().zip(&self.frame) {
            if batch.size * zoom < MIN_OUTLINE_PX {
                continue;
            }
            for i in instances {
                let color = i.color.mix(BACKGROUND, OUTLINE_SHADE).to_kiss();
                for [a, b] in &batch.outline {
                    let (a, b) = (
                        i.pose.transform_point(&(*a).into()),
                        i.pose.transform_point(&(*b).into()),
                    );
                    window.draw_line_2d(v2(&a.coords), v2(&b.coords), color, 1.5);
                }
            }
        }
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

    /// The picking ray under pixel `cursor` of a `size` viewport, as (origin, direction,
    /// length): from the cursor's world point straight down for [`PICK_PX`] pixels, so a
    /// body under the cursor is met at once (the ray starts inside it) and one just below
    /// the cursor's tip is met too.
    pub fn pick_ray(&self, cursor: Vec2, size: Vec2) -> (Vector2, Vector2, Real) {
        let p = self.pixel_to_world(cursor, size);
        (
            Vector2::new(p.x, p.y),
            -Vector2::y(),
            PICK_PX / self.camera.zoom(),
        )
    }

    /// Where the cursor at pixel `cursor` holds a dragged body: its world point.
    pub fn drag_target(&self, cursor: Vec2, size: Vec2, _held: &Vector2) -> Vector2 {
        let p = self.pixel_to_world(cursor, size);
        Vector2::new(p.x, p.y)
    }

    /// The world point under pixel `p` (origin top left) of a `size` viewport, from the
    /// camera's centre and zoom (its projection matrix is only updated by a rendered frame).
    pub fn pixel_to_world(&self, p: Vec2, size: Vec2) -> Vec2 {
        self.camera.at() + Vec2::new(p.x - 0.5 * size.x, 0.5 * size.y - p.y) / self.camera.zoom()
    }

    /// Pixel box (origin top left) of a world box in the image, under the framing of the
    /// last (re)framing (see [`project_box_2d`]).
    pub fn project_box(&self, b: &Aabb<2>) -> ([f32; 2], [f32; 2]) {
        let (c, zoom) = self.framing;
        let (w, h) = self.size;
        project_box_2d(&c, zoom, b, w, h)
    }
}

/// Gives each batch its instances of this frame (hidden when it has none).
fn set_instances(nodes: &mut [Batch], frame: &[Vec<Instance<2>>]) {
    for (batch, instances) in nodes.iter_mut().zip(frame) {
        let data: Vec<InstanceData2d> = instances.iter().map(instance).collect();
        batch.node.set_visible(!data.is_empty());
        batch.node.set_instances(&data);
    }
}

/// The filled kiss3d object drawing `shape` of a collider at `world_pose`, or `None`
/// when it has no inside.
fn make_batch(
    root: &mut SceneNode2d,
    clip: &Aabb<2>,
    fineness: Real,
    shape: &Shape2,
    world_pose: &Pose2,
) -> Option<Batch> {
    let f = fill_2d_fine(shape, &local_clip(clip, world_pose), fineness)?;
    let vertices = f.vertices.iter().map(v2).collect();
    let mesh = GpuMesh2d::new(vertices, f.triangles, None, false);
    let mut node = root.add_mesh(Rc::new(RefCell::new(mesh)), Vec2::ONE);
    // Instance colours multiply the object's colour: white leaves them as they are.
    node.set_color(kiss3d::color::WHITE);
    let size = f
        .vertices
        .iter()
        .fold(Aabb::EMPTY, |b, v| b.merge(&Aabb::new(*v, *v)))
        .extents()
        .max();
    Some(Batch {
        node,
        outline: f.outline,
        size,
    })
}

/// A collider's instance of its batch: the fill placed by the collider's pose.
fn instance(i: &Instance<2>) -> InstanceData2d {
    let c = i.color.to_kiss();
    InstanceData2d {
        position: v2(&i.pose.translation.vector),
        deformation: Mat2::from_angle(i.pose.rotation.angle()),
        color: [c.r, c.g, c.b, c.a],
        ..Default::default()
    }
}
