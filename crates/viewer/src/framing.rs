//! Where to put the camera so the whole scene is in view at the start, and
//! how big to draw shapes that have no end (a half-space ground).
//!
//! The scene's extent is the union of the world boxes of every *bounded*
//! collider; unbounded ones (half-spaces, anything reaching past
//! [`UNBOUNDED_LIMIT`]) would make the frame useless, so they are left out
//! and drawn clipped to a box around the rest ([`clip_box`]).

use fathom_math::{Aabb, Dim, Real, Space, Vector, Vector2, Vector3};
use fathom_sdf::Sdf;
use fathom_world::World;

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

/// The union of the world boxes of the bounded colliders; a 2 m box about the origin
/// when there are none.
pub fn scene_bounds<const D: usize>(world: &World<D>) -> Aabb<D>
where
    Space<D>: Dim<D>,
{
    let mut out = Aabb::EMPTY;
    for (_, c) in world.colliders() {
        let local = c.shape().bounds();
        if is_unbounded(&local) {
            continue;
        }
        out = out.merge(&local.transformed(c.world_pose()));
    }
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

/// The 3D camera's eye and target framing `bounds` for a viewport of `aspect` = width /
/// height: the bounding sphere fits both fields of view, seen from the front (+z), a
/// little to the right and above.
pub fn frame_3d(bounds: &Aabb<3>, aspect: Real) -> (Vector3, Vector3) {
    let at = bounds.center();
    let radius = bounds.radius().max(0.25);
    let half_v = FOV_Y * 0.5;
    let half_h = (half_v.tan() * aspect.max(0.1)).atan();
    let dist = radius / half_v.min(half_h).sin() * 1.05;
    let dir = Vector3::new(0.45, 0.35, 1.0).normalize();
    (at + dir * dist, at)
}

/// The 2D camera's centre and zoom (pixels per metre) showing `bounds` in a
/// `width` x `height` pixel viewport with a 10% border (room for the status text).
pub fn frame_2d(bounds: &Aabb<2>, width: u32, height: u32) -> (Vector2, Real) {
    let ext = bounds.extents().map(|e| e.max(0.5));
    let zoom = 0.8 * (width.max(1) as Real / ext.x).min(height.max(1) as Real / ext.y);
    (bounds.center(), zoom)
}

/// Where the world point `p` lands in a `width` x `height` image (pixels, origin top
/// left, y down) under the 2D camera of [`frame_2d`].
pub fn project_2d(p: &Vector2, center: &Vector2, zoom: Real, width: u32, height: u32) -> Vector2 {
    let d = (p - center) * zoom;
    Vector2::new(width as Real * 0.5 + d.x, height as Real * 0.5 - d.y)
}

#[cfg(test)]
mod tests {
    use super::*;
    use fathom_world::{BodyDesc, ColliderDesc, Shape, World3};

    #[test]
    fn bounds_skip_unbounded_ground() {
        let mut w = World3::default();
        let ground = Shape::half_space(Vector3::y(), 0.0).unwrap();
        w.add_body(&BodyDesc::fixed().collider(ColliderDesc::new(ground)))
            .unwrap();
        let ball = Shape::ball(0.5).unwrap();
        w.add_body(
            &BodyDesc::dynamic()
                .position(Vector3::new(1.0, 2.0, 0.0))
                .collider(ColliderDesc::new(ball)),
        )
        .unwrap();
        let b = scene_bounds(&w);
        // The ball's exact box: centre (1, 2, 0), half-extent 0.5 (float rounding only).
        assert!((b.center() - Vector3::new(1.0, 2.0, 0.0)).norm() < 1e-5);
        assert!((b.half_extents() - Vector3::repeat(0.5)).norm() < 1e-5);
    }

    #[test]
    fn frame_3d_keeps_the_bounding_sphere_in_view() {
        let b = Aabb::new(Vector3::new(-3.0, 0.0, -1.0), Vector3::new(3.0, 4.0, 1.0));
        for aspect in [0.5, 1.0, 16.0 / 9.0] {
            let (eye, at) = frame_3d(&b, aspect);
            let dist = (eye - at).norm();
            // The sphere's angular radius must fit within both half fields of view.
            let ang = (b.radius() / dist).asin();
            let half_h = ((FOV_Y * 0.5).tan() * aspect).atan();
            assert!(
                ang <= FOV_Y * 0.5 + 1e-6 && ang <= half_h + 1e-6,
                "aspect {aspect}"
            );
            assert!(eye.z > at.z && eye.y > at.y);
        }
    }

    #[test]
    fn frame_2d_maps_the_box_inside_the_image() {
        let b = Aabb::new(Vector2::new(-5.0, 0.0), Vector2::new(5.0, 2.0));
        let (c, zoom) = frame_2d(&b, 800, 600);
        for p in [b.min, b.max] {
            let q = project_2d(&p, &c, zoom, 800, 600);
            assert!(
                (0.0..=800.0).contains(&q.x) && (0.0..=600.0).contains(&q.y),
                "{q:?}"
            );
        }
        // The limiting axis (x: 10 m over 800 px) fills 80% of the width.
        assert!((zoom - 64.0).abs() < 1e-3);
        // World up is image up.
        assert!(
            project_2d(&b.max, &c, zoom, 800, 600).y < project_2d(&b.min, &c, zoom, 800, 600).y
        );
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
