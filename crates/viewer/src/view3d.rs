//! The 3D view: one kiss3d node per collider, posed from the world each
//! frame, drawn from its field's mesh in its body's colour under a sun, a
//! fill light and ambient light, with an orbit camera framing the scene.
//!
//! Half-spaces (the usual ground) are drawn as a wide flat slab; if the scene
//! has no static collider at all, a floor slab is put under it so the eye has
//! a reference.
//!
//! A controller's parts (wheels) are drawn the same way, batched by distinct
//! shape; when it names a body to follow, a chase camera follows it.

use crate::batches::{part_frame, Batches, Instance, Make};
use crate::chunks::Chunked;
use crate::controller::Part;
use crate::framing::{chase_3d, clip_box, frame_3d, project_box_3d, scene_bounds, unproject_3d};
use crate::grid::ground_grid;
use crate::input::Overlays;
use crate::meshing::{
    chunked_3d, join_3d, local_clip, mesh_3d_fine, update_chunked_3d, Mesh3, ShapeCache,
};
use crate::overlay::OverlayGeometry;
use crate::palette;
use crate::sim::Followed;
use fathom_math::{Aabb, Pose3, Real, Vector3};
use fathom_sdf::{Sdf, Shape, Shape3, ShapeKind};
use fathom_world::{BodyHandle, BodyKind, World3};
use glamx::{Mat3, Quat, Vec2, Vec3};
use kiss3d::camera::{Camera3d, OrbitCamera3d};
use kiss3d::light::Light;
use kiss3d::resource::GpuMesh3d;
use kiss3d::scene::{InstanceData3d, SceneNode3d};
use kiss3d::window::Window;
use nalgebra::{Translation3, UnitQuaternion};
use std::cell::RefCell;
use std::collections::BTreeMap;
use std::rc::Rc;

/// Thickness of the slab drawn for a half-space, relative to the clip box's size.
const SLAB_THICKNESS: Real = 0.02;

/// Converts a fathom vector to glam.
pub fn v3(v: &Vector3) -> Vec3 {
    Vec3::new(v.x, v.y, v.z)
}

/// One distinct shape: its kiss3d object, and where its mesh sits in the collider's frame.
struct Batch {
    node: SceneNode3d,
    local: Pose3,
}

/// The kiss3d side of a 3D world.
pub struct View3 {
    /// The scene graph root.
    pub root: SceneNode3d,
    /// The camera, framing the scene at creation.
    pub camera: OrbitCamera3d,
    batches: Batches<3>,
    nodes: Vec<Batch>,
    /// The controller's parts: per part, its batch in `part_nodes` (`None`: nothing to
    /// draw); one batch per distinct shape.
    part_slots: Vec<Option<usize>>,
    part_nodes: Vec<Batch>,
    /// The yaw the chase camera was last given, to tell the mouse's turns from its own.
    chase_yaw: Option<Real>,
    /// How far the mouse has turned the chase camera round the followed body, radians.
    chase_offset: Real,
    clip: Aabb<3>,
    bounds: Aabb<3>,
    /// The ground grid (see [`crate::grid`]), laid once: the ground does not move.
    grid: Vec<[Vector3; 2]>,
    /// Meshing fineness (see [`crate::meshing::mesh_3d_fine`]).
    fineness: Real,
    /// Edited colliders' chunks, by batch index.
    chunked: BTreeMap<usize, Chunked<3, Mesh3>>,
}

impl View3 {
    /// Builds the view of `world` for a `width` x `height` viewport.
    pub fn new(world: &World3, width: u32, height: u32) -> Self {
        Self::with_fineness(world, width, height, 1.0)
    }

    /// [`View3::new`] meshing at `fineness` times the usual resolution.
    pub fn with_fineness(world: &World3, width: u32, height: u32, fineness: Real) -> Self {
        let bounds = scene_bounds(world);
        let clip = clip_box(&bounds);
        let (eye, at) = frame_3d(&bounds, width as Real / height.max(1) as Real);
        let mut camera = OrbitCamera3d::new(v3(&eye), v3(&at));
        camera.set_max_dist(clip.radius() * 4.0);
        let mut root = SceneNode3d::empty();
        add_lights(&mut root, &bounds);
        if !world.bodies().any(|(_, b)| b.kind() == BodyKind::Fixed) {
            add_floor(&mut root, &bounds, &clip);
        }
        let mut view = Self {
            root,
            camera,
            batches: Batches::default(),
            nodes: Vec::new(),
            part_slots: Vec::new(),
            part_nodes: Vec::new(),
            chase_yaw: None,
            chase_offset: 0.0,
            clip,
            bounds,
            grid: ground_grid(world, &clip),
            fineness,
            chunked: BTreeMap::new(),
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

    /// Points the camera at a followed body (see [`chase_3d`]). `blend` in `(0, 1]` is
    /// how far to move from the present view: 1 puts the camera exactly at the chase
    /// view; less (a window, each frame) eases the target and the heading towards it,
    /// keeping the turn round the body, the height and the distance the mouse gave.
    pub fn follow(&mut self, f: &Followed<3>, blend: Real) {
        let (eye, at) = chase_3d(&f.center, &f.forward, f.radius);
        if blend >= 1.0 {
            self.camera.look_at(v3(&eye), v3(&at));
            self.chase_yaw = Some(self.camera.yaw());
            self.chase_offset = 0.0;
            return;
        }
        let blend = blend.clamp(0.0, 1.0);
        let now = self.camera.at();
        self.camera.set_at(now + (v3(&at) - now) * blend);
        let yaw = self.camera.yaw();
        // What the mouse turned since the last frame stays as an offset.
        self.chase_offset += self.chase_yaw.map_or(0.0, |set| wrap_angle(yaw - set));
        // The orbit camera's yaw of the chase eye (as `look_at` measures it).
        let target = (eye.z - at.z).atan2(eye.x - at.x) + self.chase_offset;
        self.camera.set_yaw(yaw + wrap_angle(target - yaw) * blend);
        self.chase_yaw = Some(self.camera.yaw());
    }

    /// The framed bounds (bounded colliders only; see [`scene_bounds`]).
    pub fn bounds(&self) -> &Aabb<3> {
        &self.bounds
    }

    /// The ground grid's segments, world frame.
    pub fn grid(&self) -> &[[Vector3; 2]] {
        &self.grid
    }

    /// Distinct shapes meshed so far.
    pub fn meshed_shapes(&self) -> usize {
        self.batches.len()
    }

    /// Brings the scene graph up to date with `world`: a mesh for each new distinct shape,
    /// and every collider drawn as an instance of its shape's mesh at its pose, in its
    /// body's colour. `fired` bodies get the projectile colour. An edited collider is
    /// drawn in chunks, and an edit re-meshes the chunks it reaches ([`crate::chunks`]).
    pub fn sync(&mut self, world: &World3, fired: &[BodyHandle], overlays: &Overlays) {
        let (root, nodes, clip) = (&mut self.root, &mut self.nodes, &self.clip);
        let chunked = &mut self.chunked;
        let (radius, fine) = (self.bounds.radius(), self.fineness);
        let frame = self.batches.sync(world, fired, overlays, |c, make| {
            let local = local_clip(clip, c.world_pose());
            match (make, c.shape()) {
                (Make::New, Shape::Edited(e)) => {
                    let Some(chunks) = chunked_3d(c.shape(), e, &local, radius, fine) else {
                        return false;
                    };
                    let Some(mesh) = join_3d(chunks.pieces()) else {
                        return false;
                    };
                    chunked.insert(nodes.len(), chunks);
                    nodes.push(mesh_batch(root, &mesh));
                    true
                }
                (Make::New, shape) => make_batch(root, clip, radius, fine, shape, c.world_pose())
                    .map(|b| nodes.push(b))
                    .is_some(),
                (Make::Again(b), Shape::Edited(e)) => {
                    let Some(chunks) = chunked.get_mut(&b) else {
                        return true;
                    };
                    update_chunked_3d(chunks, c.shape(), e, &local);
                    // All carved away: the last mesh stays (kiss3d takes no empty mesh).
                    if let Some(mesh) = join_3d(chunks.pieces()) {
                        nodes[b].node.detach();
                        nodes[b] = mesh_batch(root, &mesh);
                    }
                    true
                }
                (Make::Again(_), _) => true,
            }
        });
        set_instances(&mut self.nodes, &frame);
    }

    /// Draws a controller's `parts` at `poses` ((part index, world pose) pairs) this
    /// frame. The parts are meshed on the first call, once per distinct shape, in
    /// detail (they are meshed for their own size, not the scene's).
    pub fn sync_parts(&mut self, parts: &[Part<3>], poses: &[(usize, Pose3)]) {
        if self.part_slots.len() != parts.len() {
            let (root, clip, nodes) = (&mut self.root, &self.clip, &mut self.part_nodes);
            let mut cache = ShapeCache::<3, Option<usize>>::new();
            self.part_slots = parts
                .iter()
                .map(|p| {
                    cache.get_or_insert_with(&p.shape, || {
                        let size = p.shape.bounds().radius();
                        let b = make_batch(root, clip, size, 1.0, &p.shape, &Pose3::identity())?;
                        nodes.push(b);
                        Some(nodes.len() - 1)
                    })
                })
                .collect();
        }
        let frame = part_frame(&self.part_slots, self.part_nodes.len(), parts, poses);
        set_instances(&mut self.part_nodes, &frame);
    }

    /// Queues the overlay geometry `g` (world frame) for this frame.
    pub fn draw_overlays(&self, window: &mut Window, g: &OverlayGeometry<3>) {
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

    /// The picking ray under pixel `cursor` of a `size` viewport, as (origin, unit
    /// direction, length): from the eye through the cursor (see [`unproject_3d`]), as far
    /// as the camera may be from what it looks at, twice.
    pub fn pick_ray(&self, cursor: Vec2, size: Vec2) -> (Vector3, Vector3, Real) {
        let (eye, at) = self.eye_at();
        let px = fathom_math::Vector2::new(cursor.x, cursor.y);
        let (o, d) = unproject_3d(&eye, &at, &px, size.x as u32, size.y as u32);
        (o, d, 2.0 * self.camera.max_dist() + (at - eye).norm())
    }

    /// Where the cursor at pixel `cursor` holds a dragged body that it holds at `held`:
    /// where the cursor's ray meets the plane through `held` that faces the camera, so the
    /// body moves across the view at the depth it was picked at.
    pub fn drag_target(&self, cursor: Vec2, size: Vec2, held: &Vector3) -> Vector3 {
        let (eye, at) = self.eye_at();
        let (o, d, _) = self.pick_ray(cursor, size);
        let forward = (at - eye).normalize();
        // The ray goes into the view (its direction is within the field of view of
        // `forward`), so the denominator is at least cos(FOV) > 0.
        let t = (held - o).dot(&forward) / d.dot(&forward);
        o + d * t
    }

    /// Lets the left mouse button orbit the camera, or not (while it drags a body).
    pub fn set_mouse_orbit(&mut self, on: bool) {
        let button = on.then_some(kiss3d::event::MouseButton::Button1);
        self.camera.rebind_rotate_button(button);
    }

    fn eye_at(&self) -> (Vector3, Vector3) {
        let (eye, at) = (self.camera.eye(), self.camera.at());
        (
            Vector3::new(eye.x, eye.y, eye.z),
            Vector3::new(at.x, at.y, at.z),
        )
    }

    /// Pixel box (origin top left) of a world box seen by the camera in a `width` x
    /// `height` image: the box of its projected corners (see [`project_box_3d`]).
    pub fn project_box(&self, b: &Aabb<3>, width: u32, height: u32) -> ([f32; 2], [f32; 2]) {
        let (eye, at) = (self.camera.eye(), self.camera.at());
        let eye = Vector3::new(eye.x, eye.y, eye.z);
        let at = Vector3::new(at.x, at.y, at.z);
        project_box_3d(&eye, &at, b, width, height)
    }
}

/// `a` wrapped into `[-pi, pi)`.
fn wrap_angle(a: Real) -> Real {
    use std::f32::consts::{PI, TAU};
    (a + PI).rem_euclid(TAU) - PI
}

/// Gives each batch its instances of this frame (hidden when it has none).
fn set_instances(nodes: &mut [Batch], frame: &[Vec<Instance<3>>]) {
    for (batch, instances) in nodes.iter_mut().zip(frame) {
        let data: Vec<InstanceData3d> = instances
            .iter()
            .map(|i| instance(i, &batch.local))
            .collect();
        batch.node.set_visible(!data.is_empty());
        batch.node.set_instances(&data);
    }
}

/// The kiss3d object drawing `shape` (in the colour of each instance) of a collider at
/// `world_pose`, meshed for a scene of radius `scene_radius`, or `None` when the shape
/// has no inside. A half-space is drawn as a wide flat slab whose top face is its plane.
fn make_batch(
    root: &mut SceneNode3d,
    clip: &Aabb<3>,
    scene_radius: Real,
    fineness: Real,
    shape: &Shape3,
    world_pose: &Pose3,
) -> Option<Batch> {
    let (mut node, local) = if let ShapeKind::HalfSpace { normal, offset } = shape.kind() {
        let size = clip.extents().max();
        let t = size * SLAB_THICKNESS;
        let n = normal.normalize();
        let turn = UnitQuaternion::rotation_between(&Vector3::y(), &n).unwrap_or_else(|| {
            UnitQuaternion::from_axis_angle(&Vector3::x_axis(), std::f32::consts::PI)
        });
        let local = Pose3::from_parts(Translation3::from(n * (offset - 0.5 * t)), turn);
        (root.add_cube(size, t, size), local)
    } else {
        let m = mesh_3d_fine(shape, &local_clip(clip, world_pose), scene_radius, fineness)?;
        return Some(mesh_batch(root, &m));
    };
    // Instance colours multiply the object's colour: white leaves them as they are.
    node.set_color(kiss3d::color::WHITE);
    Some(Batch { node, local })
}

/// The kiss3d object drawing `m` (in the colour of each instance), in the collider's frame.
fn mesh_batch(root: &mut SceneNode3d, m: &Mesh3) -> Batch {
    let vertices = m.vertices.iter().map(v3).collect();
    let mesh = GpuMesh3d::new(vertices, m.triangles.clone(), None, None, false);
    let mut node = root.add_mesh(Rc::new(RefCell::new(mesh)), Vec3::ONE);
    node.set_color(kiss3d::color::WHITE);
    Batch {
        node,
        local: Pose3::identity(),
    }
}

/// A collider's instance of its batch: the mesh placed by the collider's pose after its
/// place in the collider's frame.
fn instance(i: &Instance<3>, local: &Pose3) -> InstanceData3d {
    let pose = i.pose * local;
    let q = pose.rotation;
    let rotation = Quat::from_xyzw(q.i, q.j, q.k, q.w);
    InstanceData3d {
        position: v3(&pose.translation.vector),
        deformation: Mat3::from_quat(rotation),
        color: i.color.to_kiss(),
        ..Default::default()
    }
}

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
        .set_color(palette::FIXED.to_kiss());
}
