//! Joints as soft constraints of the substepped solver: fixed, revolute
//! (hinge, with limits, motor and spring), prismatic (slider, with limits and
//! motor), spherical (ball, with a cone limit) and distance (rod or spring).
//!
//! One [`JointConstraint`] type covers every kind and implements
//! [`Constraint`], so the solver runs joints at the same stages as contacts
//! and before them. Each kind is a list of row blocks from [`rows`]: the point
//! constraint (`D` linear rows), an angular lock, a hinge's alignment rows
//! (none in 2D), a slider's perpendicular rows, and one axial row for limits,
//! motors and springs. The position error is re-measured from the bodies'
//! current poses every substep and fed back softly (Box2D v3's soft step):
//! equality rows with the world's joint softness, limits as speculative
//! one-sided rows, springs with their own frequency and damping. Accumulated
//! impulses are kept in the world frame and carried to the next step (warm
//! starting).
// Rows and blocks are small fixed arrays indexed in step with each other: index loops
// read clearer than zipped iterators here.
#![allow(clippy::needless_range_loop)]

mod params;
pub(crate) mod rows;

pub use params::{
    DistanceJoint, JointKind, Motor, PrismaticJoint, RevoluteJoint, SphericalJoint, Spring,
};

use crate::body::SolverBody;
use crate::constraint::Constraint;
use crate::contact::StepContext;
use crate::softness::Softness;
use fathom_math::{AngVector, Dim, Real, Rotation, Space, Vector};
use nalgebra::AbstractRotation;
use rows::{angular_basis, perpendicular_axes, unit, Block, Row, MAX_ROWS};
use serde::{Deserialize, Serialize};

/// Accumulated impulses of one substep, world frame: the warm start going in,
/// the result coming out.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(bound = "")]
pub struct JointImpulses<const D: usize>
where
    Space<D>: Dim<D>,
{
    /// Point constraint (or a slider's perpendicular rows), N s, on B.
    pub linear: Vector<D>,
    /// Angular lock (or a hinge's alignment rows), N m s, on B.
    pub angular: AngVector<D>,
    /// Spring (hinge, distance) or rigid rod, along the axial row.
    pub axial: Real,
    /// Motor, along the axial row.
    pub motor: Real,
    /// Lower limit (or the cone limit), along the axial row (>= 0).
    pub lower: Real,
    /// Upper limit, against the axial row (>= 0).
    pub upper: Real,
}

impl<const D: usize> Default for JointImpulses<D>
where
    Space<D>: Dim<D>,
{
    fn default() -> Self {
        Self {
            linear: Vector::zeros(),
            angular: Space::<D>::ang_zero(),
            axial: 0.0,
            motor: 0.0,
            lower: 0.0,
            upper: 0.0,
        }
    }
}

/// A joint between solver bodies `body_a` and `body_b` (indices into the body slice).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(bound = "")]
pub struct JointConstraint<const D: usize>
where
    Space<D>: Dim<D>,
{
    /// Index of body A.
    pub body_a: usize,
    /// Index of body B.
    pub body_b: usize,
    /// A's anchor, A's frame, relative to A's centre of mass, metres.
    pub local_anchor_a: Vector<D>,
    /// B's anchor, B's frame, relative to B's centre of mass, metres.
    pub local_anchor_b: Vector<D>,
    /// B's rotation relative to A at rest (zero hinge angle): `q_b = q_a * reference`.
    pub reference: Rotation<D>,
    /// What the joint constrains (axes normalised, distance length resolved).
    pub kind: JointKind<D>,
    /// Accumulated impulses (warm start).
    pub impulses: JointImpulses<D>,
}

/// The joint's geometry as the bodies stand now (world frame).
struct Frame<const D: usize>
where
    Space<D>: Dim<D>,
{
    r_a: Vector<D>,
    r_b: Vector<D>,
    /// Anchor B minus anchor A.
    d: Vector<D>,
    /// Rotation from the rest orientation of B to its actual one: `q_b (q_a ref)⁻¹`, as a scaled axis.
    twist: AngVector<D>,
    q_a: Rotation<D>,
    q_b: Rotation<D>,
}

/// Bias, mass scale and impulse scale of one row for this pass.
#[derive(Clone, Copy)]
struct Soft {
    bias: Real,
    mass_scale: Real,
    impulse_scale: Real,
}

/// An equality row with position error `c`: soft when biased, rigid when relaxing.
fn equality(c: Real, ctx: &StepContext, use_bias: bool) -> Soft {
    if use_bias {
        let s = ctx.joint_softness;
        Soft {
            bias: s.bias_rate * c,
            mass_scale: s.mass_scale,
            impulse_scale: s.impulse_scale,
        }
    } else {
        rigid()
    }
}

fn rigid() -> Soft {
    Soft {
        bias: 0.0,
        mass_scale: 1.0,
        impulse_scale: 0.0,
    }
}

/// A one-sided row `c >= 0`: a positive gap may close within the substep
/// (speculative), a violation is pushed back softly and no faster than the cap.
fn inequality(c: Real, ctx: &StepContext, use_bias: bool) -> Soft {
    if c > 0.0 {
        Soft {
            bias: c * ctx.inv_h,
            ..rigid()
        }
    } else if use_bias {
        let s = ctx.joint_softness;
        Soft {
            bias: (s.bias_rate * c).max(-ctx.max_push_out_speed),
            mass_scale: s.mass_scale,
            impulse_scale: s.impulse_scale,
        }
    } else {
        rigid()
    }
}

/// A spring row with error `c`: always soft, with the spring's own coefficients.
fn spring_soft(spring: &Spring, c: Real, h: Real) -> Soft {
    let s = Softness::new(spring.hertz, spring.damping_ratio, h);
    if spring.hertz <= 0.0 {
        // A pure damper: drive the speed to zero at a rate set by the damping ratio.
        let keep = 1.0 / (1.0 + spring.damping_ratio);
        return Soft {
            bias: 0.0,
            mass_scale: 1.0 - keep,
            impulse_scale: keep,
        };
    }
    Soft {
        bias: s.bias_rate * c,
        mass_scale: s.mass_scale,
        impulse_scale: s.impulse_scale,
    }
}

/// One pass of a single row: returns the new accumulated impulse, clamped to `[lo, hi]`.
#[allow(clippy::too_many_arguments)]
fn solve_row<const D: usize>(
    bodies: &mut [SolverBody<D>],
    ia: usize,
    ib: usize,
    row: &Row<D>,
    soft: Soft,
    target_speed: Real,
    acc: Real,
    (lo, hi): (Real, Real),
) -> Real
where
    Space<D>: Dim<D>,
{
    let (a, b) = (&bodies[ia], &bodies[ib]);
    let m = row.effective_mass(a, b);
    let cdot = row.velocity(a, b) - target_speed;
    let delta = -m * soft.mass_scale * (cdot + soft.bias) - soft.impulse_scale * acc;
    let new = (acc + delta).clamp(lo, hi);
    row.apply(bodies, ia, ib, new - acc);
    new
}

#[allow(clippy::too_many_arguments)]
/// One pass of a block of equality rows with position errors `c`; `acc` are the
/// accumulated impulses along the rows (updated).
fn solve_block<const D: usize>(
    bodies: &mut [SolverBody<D>],
    ia: usize,
    ib: usize,
    block: &Block<D>,
    c: &[Real; MAX_ROWS],
    acc: &mut [Real; MAX_ROWS],
    ctx: &StepContext,
    use_bias: bool,
) where
    Space<D>: Dim<D>,
{
    let (a, b) = (&bodies[ia], &bodies[ib]);
    let v = block.velocities(a, b);
    let soft = equality(1.0, ctx, use_bias);
    let mut rhs = [0.0; MAX_ROWS];
    for i in 0..block.n {
        rhs[i] = -(v[i] + soft.bias * c[i]);
    }
    let x = block.solve_mass(a, b, rhs);
    let mut delta = [0.0; MAX_ROWS];
    for i in 0..block.n {
        delta[i] = soft.mass_scale * x[i] - soft.impulse_scale * acc[i];
        acc[i] += delta[i];
    }
    block.apply(bodies, ia, ib, &delta);
}

impl<const D: usize> JointConstraint<D>
where
    Space<D>: Dim<D>,
{
    /// A joint of `kind` between bodies `body_a` and `body_b` with anchors relative to
    /// their centres of mass (body frames) and B's rest rotation relative to A.
    /// Axes are normalised here; the caller validates them (non-zero, finite).
    pub fn new(
        body_a: usize,
        body_b: usize,
        local_anchor_a: Vector<D>,
        local_anchor_b: Vector<D>,
        reference: Rotation<D>,
        mut kind: JointKind<D>,
    ) -> Self {
        match &mut kind {
            JointKind::Revolute(r) => {
                let n = Space::<D>::ang_norm(&r.axis);
                if n > 0.0 {
                    r.axis = r.axis * (1.0 / n);
                }
            }
            JointKind::Prismatic(p) => p.axis = p.axis.try_normalize(0.0).unwrap_or(p.axis),
            JointKind::Spherical(s) => {
                s.cone_axis = s.cone_axis.try_normalize(0.0).unwrap_or(s.cone_axis)
            }
            JointKind::Fixed | JointKind::Distance(_) => {}
        }
        Self {
            body_a,
            body_b,
            local_anchor_a,
            local_anchor_b,
            reference,
            kind,
            impulses: JointImpulses::default(),
        }
    }

    fn frame(&self, bodies: &[SolverBody<D>]) -> Frame<D> {
        let (a, b) = (&bodies[self.body_a], &bodies[self.body_b]);
        let r_a = a.rotation.transform_vector(&self.local_anchor_a);
        let r_b = b.rotation.transform_vector(&self.local_anchor_b);
        let rest = a.rotation * self.reference;
        let error = b.rotation * rest.inverse();
        Frame {
            d: (b.center + r_b) - (a.center + r_a),
            r_a,
            r_b,
            twist: Space::<D>::scaled_axis(&error),
            q_a: a.rotation,
            q_b: b.rotation,
        }
    }

    /// The row along which limits, motors and springs act, with the current
    /// position along it (hinge angle, slider translation, rod length).
    fn axial(&self, f: &Frame<D>) -> Option<(Row<D>, Real)> {
        match &self.kind {
            JointKind::Revolute(r) => {
                let axis = Space::<D>::rotate_ang(&f.q_a, &r.axis);
                Some((Row::angular(axis), Space::<D>::ang_dot(&f.twist, &axis)))
            }
            JointKind::Prismatic(p) => {
                let axis = f.q_a.transform_vector(&p.axis);
                let row = Row::linear(axis, &(f.r_a + f.d), &f.r_b);
                Some((row, axis.dot(&f.d)))
            }
            JointKind::Distance(_) => {
                let len = f.d.norm();
                (len > 1e-6).then(|| (Row::linear(f.d / len, &f.r_a, &f.r_b), len))
            }
            JointKind::Spherical(s) => {
                let (row, angle) = self.cone_row(s, f)?;
                Some((row, angle))
            }
            JointKind::Fixed => None,
        }
    }

    /// The cone's row (along which the swing angle grows) and the swing angle, when defined.
    fn cone_row(&self, s: &SphericalJoint<D>, f: &Frame<D>) -> Option<(Row<D>, Real)> {
        s.cone_angle?;
        let u_a = f.q_a.transform_vector(&s.cone_axis);
        let u_b = f
            .q_b
            .transform_vector(&self.reference.inverse_transform_vector(&s.cone_axis));
        let n = Space::<D>::cross(&u_a, &u_b);
        let sin = Space::<D>::ang_norm(&n);
        if sin < 1e-6 {
            return None;
        }
        let angle = sin.atan2(u_a.dot(&u_b));
        Some((Row::angular(n * (1.0 / sin)), angle))
    }

    /// The anchors' point constraint as `D` rows along the world axes.
    fn point_block(f: &Frame<D>) -> (Block<D>, [Real; MAX_ROWS]) {
        let mut rows = [Row::angular(Space::<D>::ang_zero()); MAX_ROWS];
        let mut c = [0.0; MAX_ROWS];
        for i in 0..D {
            rows[i] = Row::linear(unit::<D>(i), &f.r_a, &f.r_b);
            c[i] = f.d[i];
        }
        (Block::new(rows, D), c)
    }

    /// Angular rows: all world axes (angular lock) or, for a hinge, those
    /// perpendicular to its axis; with their position errors.
    fn angular_block(&self, f: &Frame<D>) -> Option<(Block<D>, [Real; MAX_ROWS])> {
        let (axes, n) = match &self.kind {
            JointKind::Fixed | JointKind::Prismatic(_) => angular_basis::<D>(),
            JointKind::Revolute(r) => {
                perpendicular_axes::<D>(&Space::<D>::rotate_ang(&f.q_a, &r.axis))
            }
            _ => return None,
        };
        if n == 0 {
            return None;
        }
        let mut rows = [Row::angular(axes[0]); MAX_ROWS];
        let mut c = [0.0; MAX_ROWS];
        for k in 0..n {
            rows[k] = Row::angular(axes[k]);
            c[k] = Space::<D>::ang_dot(&axes[k], &f.twist);
        }
        Some((Block::new(rows, n), c))
    }

    /// A slider's rows perpendicular to its axis, with their position errors.
    fn slider_block(&self, f: &Frame<D>) -> Option<(Block<D>, [Real; MAX_ROWS])> {
        let JointKind::Prismatic(p) = &self.kind else {
            return None;
        };
        let axis = f.q_a.transform_vector(&p.axis);
        let tangents = Space::<D>::tangents(&axis);
        let mut rows = [Row::angular(Space::<D>::ang_zero()); MAX_ROWS];
        let mut c = [0.0; MAX_ROWS];
        for k in 0..D - 1 {
            rows[k] = Row::linear(tangents[k], &(f.r_a + f.d), &f.r_b);
            c[k] = tangents[k].dot(&f.d);
        }
        Some((Block::new(rows, D - 1), c))
    }

    fn has_point(&self) -> bool {
        !matches!(self.kind, JointKind::Prismatic(_) | JointKind::Distance(_))
    }

    /// Accumulated linear impulse along the rows of `block` (world vector projected).
    fn linear_acc(&self, block: &Block<D>) -> [Real; MAX_ROWS] {
        let mut acc = [0.0; MAX_ROWS];
        for k in 0..block.n {
            acc[k] = self.impulses.linear.dot(&block.rows[k].lin);
        }
        acc
    }

    fn angular_acc(&self, block: &Block<D>) -> [Real; MAX_ROWS] {
        let mut acc = [0.0; MAX_ROWS];
        for k in 0..block.n {
            acc[k] = Space::<D>::ang_dot(&self.impulses.angular, &block.rows[k].ang_b);
        }
        acc
    }

    /// The sum of axial impulses, signed along the axial row.
    fn axial_total(&self) -> Real {
        let i = &self.impulses;
        i.axial + i.motor + i.lower - i.upper
    }

    /// Limits, motor and spring along the axial row.
    fn solve_axial(&mut self, bodies: &mut [SolverBody<D>], ctx: &StepContext, use_bias: bool) {
        let f = self.frame(bodies);
        let Some((row, pos)) = self.axial(&f) else {
            return;
        };
        let (ia, ib) = (self.body_a, self.body_b);
        let free = (Real::MIN, Real::MAX);
        let (spring, target, motor, limits) = match &self.kind {
            JointKind::Revolute(r) => (r.spring, r.spring_target, r.motor, r.limits),
            JointKind::Prismatic(p) => (None, 0.0, p.motor, p.limits),
            JointKind::Distance(d) => {
                let length = d.length.unwrap_or(0.0);
                if d.spring.is_none() {
                    let soft = equality(pos - length, ctx, use_bias);
                    self.impulses.axial =
                        solve_row(bodies, ia, ib, &row, soft, 0.0, self.impulses.axial, free);
                    return;
                }
                (d.spring, length, None, Some([d.min_length, d.max_length]))
            }
            JointKind::Spherical(s) => {
                // The swing angle may grow up to the cone angle: the upper side of a limit.
                (None, 0.0, None, s.cone_angle.map(|c| [Real::MIN, c]))
            }
            JointKind::Fixed => return,
        };
        if let Some(s) = spring {
            let soft = spring_soft(&s, pos - target, ctx.h);
            self.impulses.axial =
                solve_row(bodies, ia, ib, &row, soft, 0.0, self.impulses.axial, free);
        }
        if let Some(m) = motor {
            let max = m.max_force * ctx.h;
            self.impulses.motor = solve_row(
                bodies,
                ia,
                ib,
                &row,
                rigid(),
                m.speed,
                self.impulses.motor,
                (-max, max),
            );
        }
        if let Some([lo, hi]) = limits {
            let pos_inf = (0.0, Real::MAX);
            if lo > Real::MIN {
                let soft = inequality(pos - lo, ctx, use_bias);
                self.impulses.lower = solve_row(
                    bodies,
                    ia,
                    ib,
                    &row,
                    soft,
                    0.0,
                    self.impulses.lower,
                    pos_inf,
                );
            }
            let soft = inequality(hi - pos, ctx, use_bias);
            self.impulses.upper = solve_row(
                bodies,
                ia,
                ib,
                &row.negated(),
                soft,
                0.0,
                self.impulses.upper,
                pos_inf,
            );
        }
    }

    /// The angular lock (fixed, slider) or a hinge's alignment rows.
    fn solve_angular(&mut self, bodies: &mut [SolverBody<D>], ctx: &StepContext, use_bias: bool) {
        let f = self.frame(bodies);
        let Some((block, c)) = self.angular_block(&f) else {
            return;
        };
        let mut acc = self.angular_acc(&block);
        solve_block(
            bodies,
            self.body_a,
            self.body_b,
            &block,
            &c,
            &mut acc,
            ctx,
            use_bias,
        );
        self.impulses.angular = (0..block.n).fold(Space::<D>::ang_zero(), |s, k| {
            s + block.rows[k].ang_b * acc[k]
        });
    }

    /// The point constraint, or a slider's perpendicular rows.
    fn solve_linear(&mut self, bodies: &mut [SolverBody<D>], ctx: &StepContext, use_bias: bool) {
        let f = self.frame(bodies);
        let (block, c) = if self.has_point() {
            Self::point_block(&f)
        } else if let Some(b) = self.slider_block(&f) {
            b
        } else {
            return;
        };
        let mut acc = self.linear_acc(&block);
        solve_block(
            bodies,
            self.body_a,
            self.body_b,
            &block,
            &c,
            &mut acc,
            ctx,
            use_bias,
        );
        self.impulses.linear =
            (0..block.n).fold(Vector::zeros(), |s, k| s + block.rows[k].lin * acc[k]);
    }

    /// The force (N, on B, world) and torque (N m, on B, world) the joint applied
    /// in the last substep, given the substep's `inv_h`. Torque counts the angular
    /// rows only (not the moment of the linear force about the centre of mass).
    pub fn reaction(&self, bodies: &[SolverBody<D>], inv_h: Real) -> (Vector<D>, AngVector<D>) {
        let f = self.frame(bodies);
        let mut force = self.impulses.linear;
        let mut torque = self.impulses.angular;
        if let Some((row, _)) = self.axial(&f) {
            force += row.lin * self.axial_total();
            if row.lin == Vector::<D>::zeros() {
                torque += row.ang_b * self.axial_total();
            }
        }
        (force * inv_h, torque * inv_h)
    }
}

impl<const D: usize> Constraint<D> for JointConstraint<D>
where
    Space<D>: Dim<D>,
{
    fn prepare(&mut self, bodies: &[SolverBody<D>], _ctx: &StepContext) {
        // Limits that are not reachable this step would still carry an old push:
        // drop one-sided impulses whose side is far away (more than a tenth of the
        // range), as they cannot be the current load.
        let f = self.frame(bodies);
        if let (Some((_, pos)), Some([lo, hi])) = (self.axial(&f), self.limits()) {
            let slack = 0.1 * (hi - lo).abs().min(1.0);
            if pos - lo > slack {
                self.impulses.lower = 0.0;
            }
            if hi - pos > slack {
                self.impulses.upper = 0.0;
            }
        }
    }

    fn warm_start(&mut self, bodies: &mut [SolverBody<D>], _ctx: &StepContext) {
        let f = self.frame(bodies);
        let (ia, ib) = (self.body_a, self.body_b);
        let i = &self.impulses;
        // Linear impulse at the anchors (a slider's acts at B's anchor for A too).
        let r_a = if self.has_point() { f.r_a } else { f.r_a + f.d };
        for k in 0..D {
            let e = unit::<D>(k);
            Row::linear(e, &r_a, &f.r_b).apply(bodies, ia, ib, i.linear[k]);
        }
        let (basis, n) = angular_basis::<D>();
        for axis in &basis[..n] {
            let l = Space::<D>::ang_dot(axis, &i.angular);
            Row::angular(*axis).apply(bodies, ia, ib, l);
        }
        if let Some((row, _)) = self.axial(&f) {
            row.apply(bodies, ia, ib, self.axial_total());
        }
    }

    fn solve(&mut self, bodies: &mut [SolverBody<D>], ctx: &StepContext, use_bias: bool) {
        self.solve_axial(bodies, ctx, use_bias);
        self.solve_angular(bodies, ctx, use_bias);
        self.solve_linear(bodies, ctx, use_bias);
    }
}

impl<const D: usize> JointConstraint<D>
where
    Space<D>: Dim<D>,
{
    /// The `[lower, upper]` bounds of the axial position, if the kind has any.
    fn limits(&self) -> Option<[Real; 2]> {
        match &self.kind {
            JointKind::Revolute(r) => r.limits,
            JointKind::Prismatic(p) => p.limits,
            JointKind::Distance(d) if d.spring.is_some() => Some([d.min_length, d.max_length]),
            _ => None,
        }
    }
}
