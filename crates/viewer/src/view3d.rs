//! The 3D view: one kiss3d node per collider, posed from the world each
//! frame, drawn from its field's mesh in its body's colour under a sun, a
//! fill light and ambient light, with an orbit camera framing the scene.
//!
//! Half-spaces (the usual ground) are drawn as a wide flat slab; if the scene
//! has no static collider at all, a floor slab is put under it so the eye has
//! a reference.

use crate::framing::{clip_box, frame_3d, scene_bounds};
use crate::input::Overlays;
use crate::meshing::{local_clip, mesh_3d, ShapeCache};
use crate::overlay::overlay_geometry;
use crate::palette::{self, Rgb};
use fathom_math::{Aabb, Real, Vector3};
use fathom_sdf::{Sdf, ShapeKind};
use fathom_world::{BodyHandle, BodyKind, Collider, ColliderHandle, World3};
use glamx::{Pose3, Quat, Vec2, Vec3};
use kiss3d::camera::{Camera3d, OrbitCamera3d};
use kiss3d::light::Light;
use kiss3d::resource::GpuMesh3d;
use kiss3d::scene::SceneNode3d;
use kiss3d::window::Window;
use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet};
use std::rc::Rc;

/// Thickness of the slab drawn for a half-space, relative to the clip box's size.
const SLAB_THICKNESS: Real = 0.02;

/// Converts a fathom vector to glam.
pub fn v3(v: &Vector3) -> Vec3 {
    Vec3::new(v.x, v.y, v.z)
}

struct Node {
    node: SceneNode3d,
    body: BodyHandle,
    color: Option<Rgb>,
}

/// The kiss3d side of a 3D world.
pub struct View3 {
    /// The scene graph root.
    pub root: SceneNode3d,
    /// The camera, framing the scene at creation.
    pub camera: OrbitCamera3d,
    nodes: BTreeMap<ColliderHandle, Option<Node>>,
    meshes: ShapeCache<3, Option<Rc<RefCell<GpuMesh3d>>>>,
    clip: Aabb<3>,
    bounds: Aabb<3>,
}

impl View3 {
    /// Builds the view of `world` for a `width` x `height` viewport.
    pub fn new(world: &World3, width: u32, height: u32) -> Self {
        let bounds = scene_bounds(world);
        let clip = clip_box(&bounds);
        let (eye, at) = frame_3d(&bounds, width as Real / height.max(1) as Real);
        let mut camera = OrbitCamera3d::new(v3(&eye), v3(&at));
        camera.set_max_dist(clip.radius() * 4.0);
        let mut root = SceneNode3d::empty();
        add_lights(&mut root, &bounds);
        if !world.bodies().any(|(_, b)| b.kind() == BodyKind::Static) {
            add_floor(&mut root, &bounds, &clip);
        }
        let mut view = Self {
            root,
            camera,
            nodes: BTreeMap::new(),
            meshes: ShapeCache::new(),
            clip,
            bounds,
        };
        view.sync(world, &[], &Overlays::default());
        view
    }

    /// Points the camera at the scene as it is now (see [`scene_bounds`]).
    pub fn reframe(&mut self, world: &World3, width: u32, height: u32) {
        self.bounds = scene_bounds(world);
        let (eye, at) = frame_3d(&self.bounds, width as Real / height.max(1) as Real);
        self.camera.look_at(v3(&eye), v3(&at));
    }

    /// The framed bounds (bounded colliders only; see [`scene_bounds`]).
    pub fn bounds(&self) -> &Aabb<3> {
        &self.bounds
    }

    /// Distinct shapes meshed so far.
    pub fn meshed_shapes(&self) -> usize {
        self.meshes.len()
    }

    /// Brings the scene graph up to date with `world`: nodes for new colliders, none for
    /// removed ones, every pose and colour. `fired` bodies get the projectile colour.
    pub fn sync(&mut self, world: &World3, fired: &[BodyHandle], overlays: &Overlays) {
        let live: BTreeSet<ColliderHandle> = world.colliders().map(|(h, _)| h).collect();
        self.nodes.retain(|h, n| {
            let keep = live.contains(h);
            if !keep {
                if let Some(n) = n {
                    n.node.remove();
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
            n.node.set_pose(Pose3::from(*c.world_pose()));
            let color = body_color(world, n.body, fired, overlays);
            if n.color != Some(color) {
                n.node.set_color_recursive(color.to_kiss());
                n.color = Some(color);
            }
        }
    }

    fn make_node(&mut self, c: &Collider<3>) -> Option<Node> {
        let shape = c.shape();
        let node = if let ShapeKind::HalfSpace { normal, offset } = shape.kind() {
            self.half_space_node(&normal, offset)
        } else {
            let clip = local_clip(&self.clip, c.world_pose());
            let mesh = self.meshes.get_or_insert_with(shape, || {
                mesh_3d(shape, &clip).map(|m| {
                    let vertices = m.vertices.iter().map(v3).collect();
                    Rc::new(RefCell::new(GpuMesh3d::new(
                        vertices,
                        m.triangles,
                        None,
                        None,
                        false,
                    )))
                })
            })?;
            self.root.add_mesh(mesh, Vec3::ONE)
        };
        Some(Node {
            node,
            body: c.body(),
            color: None,
        })
    }

    /// A wide flat slab whose top face is the plane `normal . p = offset` (local frame).
    fn half_space_node(&mut self, normal: &Vector3, offset: Real) -> SceneNode3d {
        let size = self.clip.extents().max();
        let t = size * SLAB_THICKNESS;
        let mut group = self.root.add_group();
        let n = v3(normal).normalize();
        group
            .add_cube(size, t, size)
            .set_rotation(Quat::from_rotation_arc(Vec3::Y, n))
            .set_position(n * (offset - 0.5 * t));
        group
    }

    /// Queues the overlay lines and points for this frame.
    pub fn draw_overlays(&self, window: &mut Window, world: &World3, overlays: &Overlays) {
        let g = overlay_geometry(world, overlays, self.bounds.radius() * 0.08);
        for ([a, b], color) in &g.lines {
            window.draw_line(v3(a), v3(b), color.to_kiss(), 2.0, false);
        }
        for (p, color) in &g.points {
            window.draw_point(v3(p), color.to_kiss(), 6.0);
        }
    }

    /// Where a ball is fired from and towards: from the eye through the cursor (or the
    /// view's centre when there is no cursor). `size` is the viewport in pixels.
    pub fn fire_ray(&self, cursor: Option<(f64, f64)>, size: Vec2) -> (Vector3, Vector3) {
        let eye = self.camera.eye();
        let (origin, dir) = match cursor {
            Some((x, y)) => self.camera.unproject(Vec2::new(x as f32, y as f32), size),
            None => (eye, (self.camera.at() - eye).normalize()),
        };
        (
            Vector3::new(origin.x, origin.y, origin.z),
            Vector3::new(dir.x, dir.y, dir.z),
        )
    }

    /// Pixel box (origin top left) of a world box seen by the camera in a `width` x
    /// `height` image: the box of its projected corners.
    pub fn project_box(&self, b: &Aabb<3>, width: u32, height: u32) -> ([f32; 2], [f32; 2]) {
        let size = Vec2::new(width as f32, height as f32);
        let mut lo = [f32::INFINITY; 2];
        let mut hi = [f32::NEG_INFINITY; 2];
        for mask in 0..8 {
            let c = Vec3::new(
                if mask & 1 == 0 { b.min.x } else { b.max.x },
                if mask & 2 == 0 { b.min.y } else { b.max.y },
                if mask & 4 == 0 { b.min.z } else { b.max.z },
            );
            let p = self.camera.project(c, size);
            let q = [p.x, height as f32 - p.y];
            for i in 0..2 {
                lo[i] = lo[i].min(q[i]);
                hi[i] = hi[i].max(q[i]);
            }
        }
        (lo, hi)
    }
}

/// The colour a body is drawn in: the projectile colour for fired balls, else its
/// palette colour, tinted when it sleeps and the sleep overlay is on.
pub(crate) fn body_color<const D: usize>(
    world: &fathom_world::World<D>,
    body: BodyHandle,
    fired: &[BodyHandle],
    overlays: &Overlays,
) -> Rgb
where
    fathom_math::Space<D>: fathom_math::Dim<D>,
{
    if fired.contains(&body) {
        return palette::PROJECTILE;
    }
    let kind = world
        .body(body)
        .map(|b| b.kind())
        .unwrap_or(BodyKind::Static);
    let base = palette::body_color(body.0.index as usize, kind);
    if overlays.sleep && world.is_sleeping(body) {
        base.mix(palette::SLEEP_TINT, SLEEP_TINT_AMOUNT)
    } else {
        base
    }
}

/// How far a sleeping body's colour moves towards [`palette::SLEEP_TINT`].
const SLEEP_TINT_AMOUNT: f32 = 0.65;

fn add_lights(root: &mut SceneNode3d, bounds: &Aabb<3>) {
    let r = bounds.radius().max(1.0);
    root.add_light(
        Light::directional(Vec3::new(-0.5, -1.0, -0.35))
            .with_color(kiss3d::color::Color::new(1.0, 0.97, 0.9, 1.0))
            .with_intensity(2.5),
    )
    .set_position(v3(&bounds.center()) + Vec3::new(0.0, 2.0 * r, 0.0));
    root.add_light(
        Light::point(20.0 * r)
            .with_color(kiss3d::color::Color::new(0.6, 0.65, 0.8, 1.0))
            .with_intensity(1.0)
            .with_casts_shadows(false),
    )
    .set_position(v3(&bounds.center()) + Vec3::new(-2.0 * r, 1.5 * r, 2.0 * r));
}

/// A floor slab just under the scene, for scenes with no static collider.
fn add_floor(root: &mut SceneNode3d, bounds: &Aabb<3>, clip: &Aabb<3>) {
    let size = clip.extents().max();
    let t = size * SLAB_THICKNESS;
    let c = bounds.center();
    root.add_cube(size, t, size)
        .set_position(Vec3::new(
            c.x,
            bounds.min.y - 0.5 * t - 0.01 * bounds.radius(),
            c.z,
        ))
        .set_color(palette::STATIC.to_kiss());
}
