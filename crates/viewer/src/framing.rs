//! Where to put the camera so the whole scene is in view at the start, and
//! how big to draw shapes that have no end (a half-space ground).
//!
//! The scene's extent is the union of the world boxes of every *bounded*
//! collider; unbounded ones (half-spaces, anything reaching past
//! [`UNBOUNDED_LIMIT`]) would make the frame useless, so they are left out
//! and drawn clipped to a box around the rest ([`clip_box`]).

use fathom_math::{Aabb, Dim, Real, Space, Vector, Vector2, Vector3};
use fathom_sdf::Sdf;
use fathom_world::{BodyKind, World};

/// A half-extent or centre coordinate beyond this (metres) marks a box as unbounded.
/// fathom-sdf cuts unbounded shapes' boxes to [`fathom_sdf::UNBOUNDED_EXTENT`], and a
/// half-space's box is tight along its normal, so it may be only half that on one axis:
/// a quarter of it separates them from any real scene.
pub const UNBOUNDED_LIMIT: Real = 0.25 * fathom_sdf::UNBOUNDED_EXTENT;

/// Vertical field of view of the 3D camera, radians (kiss3d's orbit camera default).
pub const FOV_Y: Real = std::f32::consts::FRAC_PI_4;

/// True for an empty box or one reaching past [`UNBOUNDED_LIMIT`].
pub fn is_unbounded<const D: usize>(b: &Aabb<D>) -> bool {
    !b.is_valid()
        || b.half_extents().amax() > UNBOUNDED_LIMIT
        || b.center().amax() > UNBOUNDED_LIMIT
}

/// The box to frame: the union of the world boxes of the bounded colliders of moving
/// (dynamic and kinematic) bodies, plus those static colliders no bigger than twice it (a
/// container, pegs, a ramp; not a ground slab many times the scene's size). Scenes with
/// nothing moving frame all bounded colliders; a 2 m box about the origin when none.
pub fn scene_bounds<const D: usize>(world: &World<D>) -> Aabb<D>
where
    Space<D>: Dim<D>,
{
    let boxes = |moving: bool| {
        world.colliders().filter_map(move |(_, c)| {
            let is_static = world
                .body(c.body())
                .is_none_or(|b| b.kind() == BodyKind::Fixed);
            let local = c.shape().bounds();
            (is_static != moving && !is_unbounded(&local))
                .then(|| local.transformed(c.world_pose()))
        })
    };
    let moving = boxes(true).fold(Aabb::EMPTY, |a, b| a.merge(&b));
    let out = if moving.is_valid() {
        let limit = 2.0 * moving.radius();
        boxes(false)
            .filter(|b| b.radius() <= limit)
            .fold(moving, |a, b| a.merge(&b))
    } else {
        boxes(false).fold(Aabb::EMPTY, |a, b| a.merge(&b))
    };
    if out.is_valid() {
        out
    } else {
        Aabb::from_center_half_extents(Vector::zeros(), Vector::repeat(1.0))
    }
}

/// A box around the scene in which unbounded shapes are drawn: the scene's bounds grown
/// by twice their radius (at least 5 m), so the ground reaches well past the bodies.
pub fn clip_box<const D: usize>(bounds: &Aabb<D>) -> Aabb<D> {
    bounds.loosened((2.0 * bounds.radius()).max(5.0))
}

/// Direction from the target to the 3D camera's eye: from the front (+z), a little to the
/// right and about 27 degrees above (high enough to see into a bowl or over a pile).
pub fn view_direction() -> Vector3 {
    Vector3::new(0.45, 0.55, 1.0).normalize()
}

/// The 3D camera's eye and target framing `bounds` for a viewport of `aspect` = width /
/// height: looking at the box's centre along [`view_direction`], just far enough that
/// every corner of the box is inside both fields of view, with a 10% margin.
pub fn frame_3d(bounds: &Aabb<3>, aspect: Real) -> (Vector3, Vector3) {
    let at = bounds.center();
    let (dir, right, up) = camera_basis();
    let tan_v = (FOV_Y * 0.5).tan();
    let tan_h = tan_v * aspect.max(0.1);
    let half = bounds.half_extents().map(|h| h.max(0.05));
    let centred = Aabb::from_center_half_extents(Vector3::zeros(), half);
    let mut dist: Real = 0.0;
    for mask in 0..8 {
        let p = centred.corner(mask);
        let need = p.dot(&dir) + 1.1 * (p.dot(&right).abs() / tan_h).max(p.dot(&up).abs() / tan_v);
        dist = dist.max(need);
    }
    (at + dir * dist, at)
}

/// Distance of the chase camera from the followed body's centre, in body radii.
pub const CHASE_DISTANCE: Real = 4.0;
/// Elevation of the chase camera above the followed body's heading, radians (20 degrees):
/// high enough to see the ground ahead over the body.
pub const CHASE_ELEVATION: Real = 0.35;
/// How far the chase camera swings round from straight behind the followed body, radians
/// (20 degrees, towards the body's right when it is upright): a three-quarter view
/// shows its side (a car's wheels) as well as the way ahead.
pub const CHASE_AZIMUTH: Real = 0.35;
/// How far above the followed body's centre the chase camera looks, in body radii.
pub const CHASE_LOOK_ABOVE: Real = 0.3;
/// Half-width of the 2D view around a followed body, in body radii.
pub const CHASE_VIEW_2D: Real = 6.0;

/// The 3D chase camera's eye and target for a body centred at `center` of radius
/// `radius` heading along `forward` (world frame): behind it along its heading in the
/// horizontal plane (so the camera neither rolls nor pitches with the body), swung round
/// by [`CHASE_AZIMUTH`], raised by [`CHASE_ELEVATION`], [`CHASE_DISTANCE`] radii away.
/// A body heading straight up or down is watched as if it headed along +x.
pub fn chase_3d(center: &Vector3, forward: &Vector3, radius: Real) -> (Vector3, Vector3) {
    let flat = Vector3::new(forward.x, 0.0, forward.z);
    let flat = if flat.norm() > 1e-3 {
        flat.normalize()
    } else {
        Vector3::x()
    };
    // The heading turned by the azimuth about y (right-handed: +x turns towards -z),
    // so that the eye, behind it, moves to the body's right.
    let (sa, ca) = CHASE_AZIMUTH.sin_cos();
    let heading = Vector3::new(flat.x * ca + flat.z * sa, 0.0, flat.z * ca - flat.x * sa);
    let at = center + Vector3::y() * (CHASE_LOOK_ABOVE * radius);
    let d = CHASE_DISTANCE * radius;
    let (sin, cos) = CHASE_ELEVATION.sin_cos();
    let eye = at - heading * (d * cos) + Vector3::y() * (d * sin);
    (eye, at)
}

/// The 2D camera's centre and zoom following a body centred at `center` of radius
/// `radius`: a view [`CHASE_VIEW_2D`] radii wide each way (see [`frame_2d`]).
pub fn chase_2d(center: &Vector2, radius: Real, width: u32, height: u32) -> (Vector2, Real) {
    let half = Vector2::repeat(CHASE_VIEW_2D * radius.max(0.05));
    frame_2d(
        &Aabb::from_center_half_extents(*center, half),
        width,
        height,
    )
}

/// Where the world point `p` lands in a `width` x `height` image (pixels, origin top
/// left, y down) seen by a perspective camera at `eye` looking at `at`, y up, vertical
/// field of view [`FOV_Y`]: the projection kiss3d's orbit camera draws with. `None` for a
/// point not in front of the camera.
pub fn project_3d(
    eye: &Vector3,
    at: &Vector3,
    p: &Vector3,
    width: u32,
    height: u32,
) -> Option<Vector2> {
    let forward = (at - eye).normalize();
    let right = forward.cross(&Vector3::y()).normalize();
    let up = right.cross(&forward);
    let d = p - eye;
    let depth = d.dot(&forward);
    if depth.is_nan() || depth <= 0.0 {
        return None;
    }
    let (w, h) = (width.max(1) as Real, height.max(1) as Real);
    let tan_v = (FOV_Y * 0.5).tan();
    let ndc_x = d.dot(&right) / (depth * tan_v * (w / h));
    let ndc_y = d.dot(&up) / (depth * tan_v);
    Some(Vector2::new(
        0.5 * w * (1.0 + ndc_x),
        0.5 * h * (1.0 - ndc_y),
    ))
}

/// Pixel box (min and max corners, origin top left) of the world box `b` seen by the
/// camera of [`project_3d`]: the box of its projected corners (corners behind the camera
/// are left out).
pub fn project_box_3d(
    eye: &Vector3,
    at: &Vector3,
    b: &Aabb<3>,
    width: u32,
    height: u32,
) -> ([f32; 2], [f32; 2]) {
    let mut lo = [Real::INFINITY; 2];
    let mut hi = [Real::NEG_INFINITY; 2];
    for mask in 0..8 {
        if let Some(q) = project_3d(eye, at, &b.corner(mask), width, height) {
            for i in 0..2 {
                lo[i] = lo[i].min(q[i]);
                hi[i] = hi[i].max(q[i]);
            }
        }
    }
    (lo, hi)
}

/// Pixel box (min and max corners, origin top left) of the world box `b` under the 2D
/// camera of [`frame_2d`] (`center`, `zoom`).
pub fn project_box_2d(
    center: &Vector2,
    zoom: Real,
    b: &Aabb<2>,
    width: u32,
    height: u32,
) -> ([f32; 2], [f32; 2]) {
    let p = project_2d(&b.min, center, zoom, width, height);
    let q = project_2d(&b.max, center, zoom, width, height);
    ([p.x.min(q.x), p.y.min(q.y)], [p.x.max(q.x), p.y.max(q.y)])
}

/// The camera's backward, right and up unit vectors for [`view_direction`].
fn camera_basis() -> (Vector3, Vector3, Vector3) {
    let dir = view_direction();
    let right = Vector3::y().cross(&dir).normalize();
    let up = dir.cross(&right);
    (dir, right, up)
}

/// Height of the band at the top of the window kept for the status text, pixels: at
/// most a fifth of the window.
pub fn text_band(height: u32) -> u32 {
    (height / 5).min(TEXT_BAND_PX)
}

/// Most pixels kept for the status text at the top of the window.
pub const TEXT_BAND_PX: u32 = 120;

/// The 2D camera's centre and zoom (pixels per metre) showing `bounds` in a
/// `width` x `height` pixel viewport, below the text band ([`text_band`]), with a 5%
/// border.
pub fn frame_2d(bounds: &Aabb<2>, width: u32, height: u32) -> (Vector2, Real) {
    let band = text_band(height);
    let free = (height - band).max(1) as Real;
    let ext = bounds.extents().map(|e| e.max(0.5));
    let zoom = 0.9 * (width.max(1) as Real / ext.x).min(free / ext.y);
    // Centre the scene in the free part: the camera looks half a band above it.
    let center = bounds.center() + Vector2::new(0.0, 0.5 * band as Real / zoom);
    (center, zoom)
}

/// Where the world point `p` lands in a `width` x `height` image (pixels, origin top
/// left, y down) under the 2D camera of [`frame_2d`].
pub fn project_2d(p: &Vector2, center: &Vector2, zoom: Real, width: u32, height: u32) -> Vector2 {
    let d = (p - center) * zoom;
    Vector2::new(width as Real * 0.5 + d.x, height as Real * 0.5 - d.y)
}

/// The ray from `eye` through pixel `px` (origin top left, y down) of a `width` x `height`
/// image under the camera of [`project_3d`], as (origin, unit direction): its inverse, so
/// a point on the ray projects back to `px`.
pub fn unproject_3d(
    eye: &Vector3,
    at: &Vector3,
    px: &Vector2,
    width: u32,
    height: u32,
) -> (Vector3, Vector3) {
    let forward = (at - eye).normalize();
    let right = forward.cross(&Vector3::y()).normalize();
    let up = right.cross(&forward);
    let (w, h) = (width.max(1) as Real, height.max(1) as Real);
    let tan_v = (FOV_Y * 0.5).tan();
    let ndc_x = 2.0 * px.x / w - 1.0;
    let ndc_y = 1.0 - 2.0 * px.y / h;
    let dir = forward + right * (ndc_x * tan_v * (w / h)) + up * (ndc_y * tan_v);
    (*eye, dir.normalize())
}

/// The world point under pixel `px` (origin top left, y down) of a `width` x `height`
/// image under the 2D camera of [`frame_2d`]: the inverse of [`project_2d`].
pub fn unproject_2d(
    px: &Vector2,
    center: &Vector2,
    zoom: Real,
    width: u32,
    height: u32,
) -> Vector2 {
    let d = Vector2::new(px.x - width as Real * 0.5, height as Real * 0.5 - px.y) / zoom;
    center + d
}

#[cfg(test)]
mod tests {
    use super::*;
    use fathom_world::{BodyDesc, ColliderDesc, Shape, World3};

    /// Adds a body of one collider of `shape` at `p` (`desc` says static or dynamic).
    fn place(w: &mut World3, desc: BodyDesc<3>, p: Vector3, shape: Shape<3>) {
        w.add_body(&desc.position(p).collider(ColliderDesc::new(shape)))
            .unwrap();
    }

    /// Unprojecting a pixel and projecting a point of its ray gives the pixel back.
    #[test]
    fn unprojection_inverts_projection() {
        let (eye, at) = (Vector3::new(3.0, 4.0, 9.0), Vector3::new(0.5, 1.0, 0.0));
        for px in [
            Vector2::new(10.0, 20.0),
            Vector2::new(320.0, 240.0),
            Vector2::new(600.0, 470.0),
        ] {
            let (o, d) = unproject_3d(&eye, &at, &px, 640, 480);
            let back = project_3d(&eye, &at, &(o + d * 7.0), 640, 480).unwrap();
            assert!((back - px).norm() < 1e-2, "{px:?} -> {back:?}");
            let c = Vector2::new(-2.0, 5.0);
            let p = unproject_2d(&px, &c, 37.0, 640, 480);
            assert!((project_2d(&p, &c, 37.0, 640, 480) - px).norm() < 1e-3);
        }
    }

    #[test]
    fn chase_camera_sits_behind_and_above_and_sees_the_body_centred() {
        let center = Vector3::new(5.0, 1.0, -2.0);
        // Heading +z, pitched nose-up: the camera ignores the pitch.
        let forward = Vector3::new(0.0, 0.3, 1.0).normalize();
        let (eye, at) = chase_3d(&center, &forward, 2.0);
        let back = eye - at;
        // Behind (-z), swung by the azimuth towards the body's right (-x when heading +z
        // with y up), at the chase distance, raised by the chase elevation (float
        // rounding only).
        let swing = (-back.x).atan2(-back.z);
        assert!((swing - CHASE_AZIMUTH).abs() < 1e-5, "{swing}");
        assert!((back.norm() - CHASE_DISTANCE * 2.0).abs() < 1e-4);
        assert!((back.y / back.norm() - CHASE_ELEVATION.sin()).abs() < 1e-5);
        // The body's centre lands on the image's vertical centre line, a little below
        // the middle (the camera looks just above it).
        let p = project_3d(&eye, &at, &center, 1280, 720).unwrap();
        assert!(
            (p.x - 640.0).abs() < 1e-2 && p.y > 360.0 && p.y < 540.0,
            "{p:?}"
        );
        // Heading straight up: watched as if heading +x (from -x), not NaN.
        let (eye, at) = chase_3d(&center, &Vector3::y(), 1.0);
        assert!(eye.x < at.x && eye.iter().all(|c| c.is_finite()));
    }

    #[test]
    fn bounds_skip_unbounded_ground() {
        let mut w = World3::default();
        let ground = Shape::half_space(Vector3::y(), 0.0).unwrap();
        place(&mut w, BodyDesc::fixed(), Vector3::zeros(), ground);
        let ball = Shape::ball(0.5).unwrap();
        place(
            &mut w,
            BodyDesc::dynamic(),
            Vector3::new(1.0, 2.0, 0.0),
            ball,
        );
        let b = scene_bounds(&w);
        // The ball's exact box: centre (1, 2, 0), half-extent 0.5 (float rounding only).
        assert!((b.center() - Vector3::new(1.0, 2.0, 0.0)).norm() < 1e-5);
        assert!((b.half_extents() - Vector3::repeat(0.5)).norm() < 1e-5);
    }

    #[test]
    fn frame_3d_keeps_every_corner_in_view() {
        let boxes = [
            Aabb::new(Vector3::new(-3.0, 0.0, -1.0), Vector3::new(3.0, 4.0, 1.0)),
            Aabb::new(Vector3::new(10.0, -2.0, 5.0), Vector3::new(10.5, 8.0, 5.5)),
            Aabb::new(
                Vector3::new(-20.0, 0.0, -20.0),
                Vector3::new(20.0, 1.0, 20.0),
            ),
        ];
        for b in &boxes {
            for aspect in [0.5, 1.0, 16.0 / 9.0] {
                let (eye, at) = frame_3d(b, aspect);
                let (dir, right, up) = camera_basis();
                assert!((eye - at).normalize().dot(&dir) > 1.0 - 1e-5);
                let (tan_v, tan_h) = ((FOV_Y * 0.5).tan(), (FOV_Y * 0.5).tan() * aspect);
                let mut widest: Real = 0.0;
                for mask in 0..8 {
                    let v = b.corner(mask) - eye;
                    let depth = -v.dot(&dir);
                    assert!(depth > 0.0, "corner behind the camera");
                    let (x, y) = (
                        v.dot(&right).abs() / (depth * tan_h),
                        v.dot(&up).abs() / (depth * tan_v),
                    );
                    // Inside the view, with the 10% margin (float rounding aside).
                    assert!(
                        x <= 1.0 / 1.1 + 1e-4 && y <= 1.0 / 1.1 + 1e-4,
                        "{x} {y} aspect {aspect}"
                    );
                    widest = widest.max(x.max(y));
                }
                // And not needlessly far: some corner touches the margin.
                assert!(widest > 1.0 / 1.1 - 1e-3, "{widest}");
            }
        }
    }

    #[test]
    fn a_big_static_ground_is_not_framed_but_a_container_is() {
        let mut w = World3::default();
        let slab = Shape::cuboid(Vector3::new(50.0, 0.5, 50.0)).unwrap();
        place(
            &mut w,
            BodyDesc::fixed(),
            Vector3::new(0.0, -0.5, 0.0),
            slab,
        );
        let wall = Shape::cuboid(Vector3::new(0.1, 0.5, 0.8)).unwrap();
        place(&mut w, BodyDesc::fixed(), Vector3::new(2.0, 1.0, 0.0), wall);
        let ball = Shape::ball(0.5).unwrap();
        place(
            &mut w,
            BodyDesc::dynamic(),
            Vector3::new(0.0, 1.0, 0.0),
            ball,
        );
        let b = scene_bounds(&w);
        // The ball (x in [-0.5, 0.5]) and the wall (radius 0.95, within twice the ball's box
        // radius 0.87; x up to 2.1, y from 0.5, z from -0.8) are framed; the slab (radius 70)
        // is not.
        assert!(
            (b.min.x + 0.5).abs() < 1e-5 && (b.max.x - 2.1).abs() < 1e-5,
            "{b:?}"
        );
        assert!(
            (b.min.z + 0.8).abs() < 1e-5 && (b.min.y - 0.5).abs() < 1e-5,
            "{b:?}"
        );
    }

    #[test]
    fn frame_2d_maps_the_box_inside_the_image_below_the_text() {
        let b = Aabb::new(Vector2::new(-5.0, 0.0), Vector2::new(5.0, 2.0));
        let (c, zoom) = frame_2d(&b, 800, 600);
        let band = text_band(600) as Real;
        for p in [b.min, b.max] {
            let q = project_2d(&p, &c, zoom, 800, 600);
            assert!(
                (0.0..=800.0).contains(&q.x) && (band..=600.0).contains(&q.y),
                "{q:?}"
            );
        }
        // The limiting axis (x: 10 m over 800 px) fills 90% of the width.
        assert!((zoom - 72.0).abs() < 1e-3);
        // World up is image up.
        assert!(
            project_2d(&b.max, &c, zoom, 800, 600).y < project_2d(&b.min, &c, zoom, 800, 600).y
        );
        // A tall scene is limited by the height below the band, centred in it.
        let tall = Aabb::new(Vector2::new(-1.0, 0.0), Vector2::new(1.0, 10.0));
        let (c, zoom) = frame_2d(&tall, 800, 600);
        let top = project_2d(&tall.max, &c, zoom, 800, 600).y;
        let bottom = project_2d(&tall.min, &c, zoom, 800, 600).y;
        // Equal margins above (below the band) and below, to float rounding.
        assert!(
            ((top - band) - (600.0 - bottom)).abs() < 1e-2,
            "{top} {bottom}"
        );
        assert!((bottom - top - 0.9 * (600.0 - band)).abs() < 1e-2);
    }

    #[test]
    fn project_3d_matches_kiss3ds_orbit_camera() {
        use kiss3d::camera::Camera3d;
        let (eye, at) = (Vector3::new(3.0, 4.0, 9.0), Vector3::new(0.5, 1.0, -1.0));
        let camera = kiss3d::camera::OrbitCamera3d::new(
            glamx::Vec3::new(eye.x, eye.y, eye.z),
            glamx::Vec3::new(at.x, at.y, at.z),
        );
        // A camera that has seen no window assumes an 800 x 600 framebuffer.
        let size = glamx::Vec2::new(800.0, 600.0);
        for p in [
            at,
            Vector3::new(2.0, 0.0, 1.0),
            Vector3::new(-3.0, 5.0, -4.0),
        ] {
            let ours = project_3d(&eye, &at, &p, 800, 600).unwrap();
            let theirs = camera.project(glamx::Vec3::new(p.x, p.y, p.z), size);
            // kiss3d's y runs up from the bottom; ours down from the top. The tolerance is
            // float rounding through two different matrix paths (a thousandth of a pixel
            // would do; a hundredth is still far below what a test of pixels can see).
            assert!((ours.x - theirs.x).abs() < 1e-2, "{ours:?} {theirs:?}");
            assert!(
                (ours.y - (600.0 - theirs.y)).abs() < 1e-2,
                "{ours:?} {theirs:?}"
            );
        }
        assert!(project_3d(&eye, &at, &(eye * 2.0 - at), 800, 600).is_none());
    }

    #[test]
    fn unbounded_detection() {
        let h = fathom_sdf::HalfSpace::<3>::new(Vector3::y(), 0.0).unwrap();
        assert!(is_unbounded(&h.bounds()));
        assert!(is_unbounded(&Aabb::<3>::EMPTY));
        let b = fathom_sdf::Ball::new(1.0).unwrap();
        assert!(!is_unbounded(&Sdf::<3>::bounds(&b)));
    }
}
