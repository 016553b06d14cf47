//! Picking a body with the mouse and dragging it by a soft spring, the same
//! code in 2D and 3D.
//!
//! Picking casts a ray through the world's query API ([`World::cast_ray`]):
//! the first collider the ray meets is picked when its body is dynamic (a ray
//! that meets the ground first picks nothing, so nothing hidden is grabbed).
//! The grab point is where the ray met the surface, kept in the body's frame.
//!
//! Dragging is a mouse joint, as in Box2D's samples: before every step the
//! grab point gets the impulse of a soft point constraint pulling it to the
//! cursor ([`spring_impulse`]), a spring of [`DRAG_HERTZ`] damped by
//! [`DRAG_DAMPING`] in the soft-step form (stable at any mass and step, as
//! it is implicit in the constraint), with the effective mass at the grab
//! point (so a box held by its corner swings instead of jittering) and a
//! force cap. As Box2D's mouse joint does, it also damps the body's spin
//! (else a body hangs from the cursor as an undamped pendulum and swings on
//! for ever). It goes through the world's public impulse API, so the world's
//! own solver and state are untouched.

use fathom_math::{AngVector, Dim, Real, Space, Vector};
use fathom_solver::Softness;
use fathom_world::{Body, BodyHandle, QueryFilter, World};

/// The drag spring's frequency, Hz: the cursor is followed within a fifth of a second.
pub const DRAG_HERTZ: Real = 5.0;
/// The drag spring's damping ratio (under 1: a little overshoot, which reads as springy).
pub const DRAG_DAMPING: Real = 0.7;
/// The strongest pull, in multiples of the body's weight (at least 1 g when the scene has
/// no gravity): strong enough to lift anything, bounded so a drag cannot fling a body
/// through a wall in one step.
pub const DRAG_MAX_WEIGHTS: Real = 1000.0;

/// How strongly the body's spin is damped while held: the soft step's mass scale at twice
/// [`DRAG_HERTZ`], critically damped (about half the spin goes each step at 60 Hz).
const SPIN_HERTZ_FACTOR: Real = 2.0;

/// What the drag spring does to the held body this step.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Pull<const D: usize>
where
    Space<D>: Dim<D>,
{
    /// Impulse at the grab point, N s, world.
    pub impulse: Vector<D>,
    /// The grab point, world.
    pub point: Vector<D>,
    /// Angular impulse damping the spin, N m s, world.
    pub angular: AngVector<D>,
}

/// A body held by the mouse.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Grab<const D: usize> {
    /// The body.
    pub body: BodyHandle,
    /// The grab point in the body's frame (relative to its origin), metres.
    pub local: Vector<D>,
    /// Where the cursor holds it, world frame, metres.
    pub target: Vector<D>,
}

impl<const D: usize> Grab<D> {
    /// The grab point in the world as the body is now; `None` once the body is gone.
    pub fn point(&self, world: &World<D>) -> Option<Vector<D>>
    where
        Space<D>: Dim<D>,
    {
        let b = world.body(self.body)?;
        Some(b.pose().transform_point(&self.local.into()).coords)
    }
}

/// The dynamic body the ray `origin + t dir`, `t` in `[0, max_dist]`, meets first, held at
/// the point it meets (the cursor starts on it). `None` when the ray meets nothing, or a
/// fixed or kinematic body first, or its arguments are not finite.
pub fn pick<const D: usize>(
    world: &World<D>,
    origin: &Vector<D>,
    dir: &Vector<D>,
    max_dist: Real,
) -> Option<Grab<D>>
where
    Space<D>: Dim<D>,
{
    let hit = world
        .cast_ray(origin, dir, max_dist, &QueryFilter::default())
        .ok()??;
    let b = world.body(hit.body).filter(|b| b.is_dynamic())?;
    // A ray that starts inside (the 2D cursor on a body) holds the body where it starts.
    let at = if hit.started_inside {
        *origin
    } else {
        hit.point
    };
    let local = b.pose().inverse_transform_point(&at.into()).coords;
    Some(Grab {
        body: hit.body,
        local,
        target: at,
    })
}

/// What the drag spring applies this step of `dt` seconds: an impulse at the grab point
/// and a spin-damping angular impulse; `None` when the body is gone or not dynamic.
///
/// Soft step (Catto, "Solver2D"): with `w = 2 pi f` and `a = dt w (2 zeta + dt w)`, the
/// impulse is `-a / (1 + a) K^-1 (v + w / (2 zeta + dt w) C)`, where `C` is how far the grab
/// point is from the cursor, `v` its velocity and `K` the effective inverse mass there.
pub fn spring_impulse<const D: usize>(world: &World<D>, grab: &Grab<D>, dt: Real) -> Option<Pull<D>>
where
    Space<D>: Dim<D>,
{
    let body = world.body(grab.body).filter(|b| b.is_dynamic())?;
    let p = grab.point(world)?;
    let spring = Softness::new(DRAG_HERTZ, DRAG_DAMPING, dt);
    let rhs = body.velocity_at(&p) + (p - grab.target) * spring.bias_rate;
    let r = p - body.center_of_mass();
    let mut impulse = -solve_point_mass(body, &r, &rhs) * spring.mass_scale;
    let g = world.settings().gravity.norm().max(9.81);
    let max = DRAG_MAX_WEIGHTS * body.mass() * g * dt;
    let n = impulse.norm();
    if !n.is_finite() {
        return None;
    }
    if n > max {
        impulse *= max / n;
    }
    let spin_scale = Softness::new(SPIN_HERTZ_FACTOR * DRAG_HERTZ, 1.0, dt).mass_scale;
    let spin = Space::<D>::inertia_apply(&body.world_inertia(), &body.angular_velocity());
    Some(Pull {
        impulse,
        point: p,
        angular: spin * -spin_scale,
    })
}

/// `K^-1 b` where `K x = x / m + (I^-1 (r x x)) x r` is how the velocity of the point at `r`
/// from the centre of mass answers an impulse `x` there. K is symmetric positive definite,
/// so conjugate gradients solve it exactly in `D` iterations (no D-by-D inverse needed).
fn solve_point_mass<const D: usize>(body: &Body<D>, r: &Vector<D>, b: &Vector<D>) -> Vector<D>
where
    Space<D>: Dim<D>,
{
    let inv_i = Space::<D>::inertia_inverse(&body.world_inertia());
    let k = |x: &Vector<D>| {
        let w = Space::<D>::inertia_apply(&inv_i, &Space::<D>::cross(r, x));
        x * body.inv_mass() + Space::<D>::ang_cross(&w, r)
    };
    let mut x = Vector::<D>::zeros();
    let mut res = *b;
    let mut dir = res;
    let mut rr = res.norm_squared();
    for _ in 0..D {
        if rr <= Real::EPSILON * b.norm_squared() {
            break;
        }
        let kd = k(&dir);
        let alpha = rr / dir.dot(&kd);
        x += dir * alpha;
        res -= kd * alpha;
        let next = res.norm_squared();
        dir = res + dir * (next / rr);
        rr = next;
    }
    x
}

#[cfg(test)]
mod tests {
    use super::*;
    use fathom_world::{BodyDesc, ColliderDesc, Shape};

    fn axis<const D: usize>(i: usize) -> Vector<D> {
        let mut v = Vector::<D>::zeros();
        v[i] = 1.0;
        v
    }

    /// A half-space ground and a 0.5 m ball resting on it at the origin; a box to its right.
    fn ball_on_ground<const D: usize>() -> (World<D>, BodyHandle, BodyHandle)
    where
        Space<D>: Dim<D>,
    {
        let up = axis::<D>(1);
        let mut w = World::<D>::default();
        let ground =
            BodyDesc::fixed().collider(ColliderDesc::new(Shape::half_space(up, 0.0).unwrap()));
        w.add_body(&ground).unwrap();
        let ball = BodyDesc::dynamic()
            .position(up * 0.5)
            .collider(ColliderDesc::new(Shape::ball(0.5).unwrap()));
        let ball = w.add_body(&ball).unwrap();
        let cube = BodyDesc::dynamic()
            .position(up * 0.5 + axis::<D>(0) * 3.0)
            .collider(ColliderDesc::new(
                Shape::cuboid(Vector::<D>::repeat(0.5)).unwrap(),
            ));
        let cube = w.add_body(&cube).unwrap();
        (w, ball, cube)
    }

    fn picks_what_the_ray_meets_first<const D: usize>()
    where
        Space<D>: Dim<D>,
    {
        let (w, ball, cube) = ball_on_ground::<D>();
        let (up, down) = (axis::<D>(1), -axis::<D>(1));
        // Straight down onto the ball's top: the ball, held at its top point.
        let g = pick(&w, &(up * 5.0), &down, 100.0).expect("the ball is under the ray");
        assert_eq!(g.body, ball);
        // The ray meets the surface to the query's 1e-5 of scale: the top is 1 m up.
        assert!((g.target - up).norm() < 1e-3, "{:?}", g.target);
        assert!((g.point(&w).unwrap() - g.target).norm() < 1e-5);
        // Onto the box, off-centre: the box, at its top face.
        let at = axis::<D>(0) * 3.3 + up * 5.0;
        let g = pick(&w, &at, &down, 100.0).expect("the box is under the ray");
        assert_eq!(g.body, cube);
        assert!((g.target[1] - 1.0).abs() < 1e-3, "{:?}", g.target);
        // Down beside both: the fixed ground is met first, and it is not picked.
        let beside = axis::<D>(0) * -3.0 + up * 5.0;
        assert_eq!(pick(&w, &beside, &down, 100.0), None);
        // From inside the box: held where the ray starts.
        let inside = axis::<D>(0) * 3.2 + up * 0.6;
        let g = pick(&w, &inside, &down, 0.01).expect("the ray starts in the box");
        assert_eq!((g.body, g.target), (cube, inside));
        // Too short to reach, or bad arguments: nothing.
        assert_eq!(pick(&w, &(up * 5.0), &down, 1.0), None);
        assert_eq!(pick(&w, &(up * Real::NAN), &down, 100.0), None);
    }

    #[test]
    fn picking_2d_and_3d() {
        picks_what_the_ray_meets_first::<2>();
        picks_what_the_ray_meets_first::<3>();
    }

    /// Held 2 m up and 1 m aside, the ball's grab point settles at the cursor: the spring
    /// holds its weight with a sag of `g dt / (mass_scale bias_rate)`, 2 cm at 60 Hz.
    fn drag_reaches_the_cursor<const D: usize>()
    where
        Space<D>: Dim<D>,
    {
        let (mut w, ball, _) = ball_on_ground::<D>();
        let up = axis::<D>(1);
        let mut g = pick(&w, &(up * 5.0), &-up, 100.0).unwrap();
        g.target = up * 2.0 + axis::<D>(0) * 1.0;
        let dt = w.settings().dt;
        let start = (g.point(&w).unwrap() - g.target).norm();
        for _ in 0..180 {
            let pull = spring_impulse(&w, &g, dt).unwrap();
            w.apply_impulse_at_point(ball, pull.impulse, pull.point)
                .unwrap();
            w.apply_angular_impulse(ball, pull.angular).unwrap();
            w.step();
        }
        let spring = Softness::new(DRAG_HERTZ, DRAG_DAMPING, dt);
        let sag = 9.81 * dt / (spring.mass_scale * spring.bias_rate);
        let off = (g.point(&w).unwrap() - g.target).norm();
        // The sag, plus a millimetre for what the swing has left after 3 s (damped 0.7).
        assert!(
            off < sag + 1e-3,
            "{D}D: {off} m from the cursor (sag {sag} m), started {start} m"
        );
        assert!(sag < 0.03, "{sag}");
        // The ball hangs under the grab point: its centre half a metre below it.
        let c = w.body(ball).unwrap().center_of_mass();
        assert!(
            (c - (g.target - up * 0.5)).norm() < 0.05,
            "{D}D: centre {c:?}"
        );
        // At rest but for the step's own rhythm: the spring's impulse lifts it at the start
        // of each step and gravity takes that back over the substeps, so it ends a step
        // moving down at about g dt / 2 (0.08 m/s); never as much as g dt.
        let v = w.body(ball).unwrap().linear_velocity();
        assert!(v.norm() < 9.81 * dt, "{D}D: {v:?}, off {off}");
    }

    #[test]
    fn dragging_2d_and_3d() {
        drag_reaches_the_cursor::<2>();
        drag_reaches_the_cursor::<3>();
    }

    /// The effective-mass solve is exact: `K (K^-1 b) = b` for a box held by its corner.
    fn point_mass_solve_is_exact<const D: usize>()
    where
        Space<D>: Dim<D>,
    {
        let (w, _, cube) = ball_on_ground::<D>();
        let body = w.body(cube).unwrap();
        let r = Vector::<D>::repeat(0.5);
        let b = axis::<D>(0) * 3.0 - axis::<D>(1);
        let x = solve_point_mass(body, &r, &b);
        let inv_i = Space::<D>::inertia_inverse(&body.world_inertia());
        let w_ = Space::<D>::inertia_apply(&inv_i, &Space::<D>::cross(&r, &x));
        let kx = x * body.inv_mass() + Space::<D>::ang_cross(&w_, &r);
        assert!((kx - b).norm() < 1e-4 * b.norm(), "{D}D: {kx:?} vs {b:?}");
        // Held at a corner the point answers more than at the centre: a smaller impulse.
        assert!(x.norm() < b.norm() * body.mass());
    }

    #[test]
    fn point_mass_2d_and_3d() {
        point_mass_solve_is_exact::<2>();
        point_mass_solve_is_exact::<3>();
    }
}
