//! Joints as soft constraints of the substepped solver: fixed, revolute
//! (hinge, with limits, motor, servo and spring), prismatic (slider, with limits,
//! motor and servo), spherical (ball, with a cone limit), distance (rod or spring)
//! rope (a maximum distance) and wheel (a sprung suspension axis, free spin, motor).
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
    DistanceJoint, JointKind, Motor, PrismaticJoint, RevoluteJoint, RopeJoint, Servo,
    SphericalJoint, Spring, WheelJoint,
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
    /// Servo, along the axial row.
    #[serde(default)]
    pub servo: Real,
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
            servo: 0.0,
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

/// The block impulses per unit impulse along `row` that leave the block's
/// velocities unchanged (`-K_pp⁻¹ k_pa`, returned as `y = K_pp⁻¹ k_pa`), and the
/// row's effective inverse mass through the block (`k_aa - k_pa · y`).
fn companion<const D: usize>(
    row: &Row<D>,
    block: &Block<D>,
    a: &SolverBody<D>,
    b: &SolverBody<D>,
) -> ([Real; MAX_ROWS], Real)
where
    Space<D>: Dim<D>,
{
    let k_aa = row.coupling(row, a, b);
    let k_pa = block.couplings(row, a, b);
    let y = block.solve_mass(a, b, k_pa);
    (y, k_aa - (0..block.n).map(|i| k_pa[i] * y[i]).sum::<Real>())
}

/// Applies `lambda` along `row` together with its companion block impulses.
fn apply_through<const D: usize>(
    bodies: &mut [SolverBody<D>],
    ia: usize,
    ib: usize,
    row: &Row<D>,
    block: &Block<D>,
    lambda: Real,
) where
    Space<D>: Dim<D>,
{
    let (y, _) = companion(row, block, &bodies[ia], &bodies[ib]);
    row.apply(bodies, ia, ib, lambda);
    let mut comp = [0.0; MAX_ROWS];
    for i in 0..block.n {
        comp[i] = -y[i] * lambda;
    }
    block.apply(bodies, ia, ib, &comp);
}

/// One pass of a single row (limit, motor, spring) solved *through* the joint's
/// equality block: the row's impulse comes with the block impulses that keep the
/// block's velocities unchanged, and its effective mass is the Schur complement
/// `k_aa - k_apᵀ K_pp⁻¹ k_pa`. A hinge limit on a bob far from the pivot then sees
/// the bob's inertia about the pivot, not about its own centre, and holds in one
/// pass. The companion impulses are part of the row's (generalised) direction and
/// are not added to the block's own accumulated impulse, which the soft block would
/// otherwise leak away. Returns the new accumulated impulse (clamped to `[lo, hi]`).
#[allow(clippy::too_many_arguments)]
fn solve_row<const D: usize>(
    bodies: &mut [SolverBody<D>],
    ia: usize,
    ib: usize,
    row: &Row<D>,
    block: &Block<D>,
    soft: Soft,
    target_speed: Real,
    acc: Real,
    (lo, hi): (Real, Real),
) -> Real
where
    Space<D>: Dim<D>,
{
    let (a, b) = (&bodies[ia], &bodies[ib]);
    let k_aa = row.coupling(row, a, b);
    let (y, k_eff) = companion(row, block, a, b);
    // A row the block already fixes (or nothing can move along) gets no impulse.
    let m = if k_eff > 1e-6 * k_aa && k_eff > 0.0 {
        1.0 / k_eff
    } else {
        0.0
    };
    let cdot = row.velocity(a, b) - target_speed;
    let delta = -m * soft.mass_scale * (cdot + soft.bias) - soft.impulse_scale * acc;
    let new = (acc + delta).clamp(lo, hi);
    let applied = new - acc;
    row.apply(bodies, ia, ib, applied);
    let mut comp = [0.0; MAX_ROWS];
    for i in 0..block.n {
        comp[i] = -y[i] * applied;
    }
    block.apply(bodies, ia, ib, &comp);
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
            JointKind::Wheel(w) => {
                w.axis = w.axis.try_normalize(0.0).unwrap_or(w.axis);
                let n = Space::<D>::ang_norm(&w.axle);
                if n > 0.0 {
                    w.axle = w.axle * (1.0 / n);
                }
            }
            JointKind::Spherical(s) => {
                s.cone_axis = s.cone_axis.try_normalize(0.0).unwrap_or(s.cone_axis)
            }
            JointKind::Fixed | JointKind::Distance(_) | JointKind::Rope(_) => {}
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
            JointKind::Prismatic(PrismaticJoint { axis, .. })
            | JointKind::Wheel(WheelJoint { axis, .. }) => {
                let axis = f.q_a.transform_vector(axis);
                let row = Row::linear(axis, &(f.r_a + f.d), &f.r_b);
                Some((row, axis.dot(&f.d)))
            }
            JointKind::Distance(_) | JointKind::Rope(_) => {
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

    /// The joint's equality rows with their position errors: angular rows first (a
    /// weld's or slider's lock, a hinge's alignment), then linear rows (the anchors'
    /// point constraint along the world axes, or a slider's perpendicular rows).
    fn equality_block(&self, f: &Frame<D>) -> (Block<D>, [Real; MAX_ROWS]) {
        let mut block = Block::empty();
        let mut c = [0.0; MAX_ROWS];
        let (axes, n) = match &self.kind {
            JointKind::Fixed | JointKind::Prismatic(_) => angular_basis::<D>(),
            JointKind::Revolute(RevoluteJoint { axis, .. })
            | JointKind::Wheel(WheelJoint { axle: axis, .. }) => {
                perpendicular_axes::<D>(&Space::<D>::rotate_ang(&f.q_a, axis))
            }
            JointKind::Spherical(_) | JointKind::Distance(_) | JointKind::Rope(_) => {
                (angular_basis::<D>().0, 0)
            }
        };
        for axis in &axes[..n] {
            c[block.n] = Space::<D>::ang_dot(axis, &f.twist);
            block.push(Row::angular(*axis), true);
        }
        match &self.kind {
            JointKind::Prismatic(PrismaticJoint { axis, .. })
            | JointKind::Wheel(WheelJoint { axis, .. }) => {
                let axis = f.q_a.transform_vector(axis);
                let tangents = Space::<D>::tangents(&axis);
                for t in &tangents[..D - 1] {
                    c[block.n] = t.dot(&f.d);
                    block.push(Row::linear(*t, &(f.r_a + f.d), &f.r_b), false);
                }
            }
            JointKind::Distance(_) | JointKind::Rope(_) => {}
            _ => {
                for i in 0..D {
                    c[block.n] = f.d[i];
                    block.push(Row::linear(unit::<D>(i), &f.r_a, &f.r_b), false);
                }
            }
        }
        (block, c)
    }

    fn has_point(&self) -> bool {
        !matches!(
            self.kind,
            JointKind::Prismatic(_)
                | JointKind::Distance(_)
                | JointKind::Rope(_)
                | JointKind::Wheel(_)
        )
    }

    /// The accumulated impulses projected on the block's rows.
    fn block_acc(&self, block: &Block<D>) -> [Real; MAX_ROWS] {
        let mut acc = [0.0; MAX_ROWS];
        for k in 0..block.n {
            let r = &block.rows[k];
            acc[k] = if block.angular[k] {
                Space::<D>::ang_dot(&self.impulses.angular, &r.ang_b)
            } else {
                self.impulses.linear.dot(&r.lin)
            };
        }
        acc
    }

    /// Adds impulses along the block's rows to the accumulated world impulses.
    fn add_acc(&mut self, block: &Block<D>, delta: &[Real; MAX_ROWS]) {
        for k in 0..block.n {
            let r = &block.rows[k];
            if block.angular[k] {
                self.impulses.angular += r.ang_b * delta[k];
            } else {
                self.impulses.linear += r.lin * delta[k];
            }
        }
    }

    /// The sum of axial impulses, signed along the axial row.
    fn axial_total(&self) -> Real {
        let i = &self.impulses;
        // A wheel's motor drives its spin, not its suspension (`spin_row`).
        let motor = if matches!(self.kind, JointKind::Wheel(_)) {
            0.0
        } else {
            i.motor
        };
        i.axial + motor + i.servo + i.lower - i.upper
    }

    /// A wheel's spin row (about its axle), which its motor drives.
    fn spin_row(&self, f: &Frame<D>) -> Option<Row<D>> {
        match &self.kind {
            JointKind::Wheel(w) => Some(Row::angular(Space::<D>::rotate_ang(&f.q_a, &w.axle))),
            _ => None,
        }
    }

    /// Limits, motor and spring along the axial row.
    fn solve_axial(&mut self, bodies: &mut [SolverBody<D>], ctx: &StepContext, use_bias: bool) {
        let f = self.frame(bodies);
        let Some((row, pos)) = self.axial(&f) else {
            return;
        };
        let (block, _) = self.equality_block(&f);
        let (ia, ib) = (self.body_a, self.body_b);
        let free = (Real::MIN, Real::MAX);
        let (spring, target, motor, servo, limits) = match &self.kind {
            JointKind::Revolute(r) => (r.spring, r.spring_target, r.motor, r.servo, r.limits),
            JointKind::Prismatic(p) => (None, 0.0, p.motor, p.servo, p.limits),
            JointKind::Rope(r) => (None, 0.0, None, None, rope_limits(r)),
            JointKind::Wheel(w) => (Some(w.spring), 0.0, w.motor, None, w.limits),
            JointKind::Distance(d) => {
                let length = d.length.unwrap_or(0.0);
                if d.spring.is_none() {
                    let soft = equality(pos - length, ctx, use_bias);
                    self.impulses.axial = solve_row(
                        bodies,
                        ia,
                        ib,
                        &row,
                        &block,
                        soft,
                        0.0,
                        self.impulses.axial,
                        free,
                    );
                    return;
                }
                (
                    d.spring,
                    length,
                    None,
                    None,
                    Some([d.min_length, d.max_length]),
                )
            }
            JointKind::Spherical(s) => {
                // The swing angle may grow up to the cone angle: the upper side of a limit.
                (None, 0.0, None, None, s.cone_angle.map(|c| [Real::MIN, c]))
            }
            JointKind::Fixed => return,
        };
        let mut one = |_: &mut Self, row: &Row<D>, soft, speed, acc, bounds| {
            solve_row(bodies, ia, ib, row, &block, soft, speed, acc, bounds)
        };
        if let Some(s) = spring {
            let soft = spring_soft(&s, pos - target, ctx.h);
            self.impulses.axial = one(self, &row, soft, 0.0, self.impulses.axial, free);
        }
        if let Some(s) = servo {
            let soft = spring_soft(&s.spring(), pos - s.target, ctx.h);
            let max = s.max_force * ctx.h;
            let acc = self.impulses.servo;
            self.impulses.servo = one(self, &row, soft, 0.0, acc, (-max, max));
        }
        if let Some(m) = motor {
            // A wheel's motor drives its spin; the others' drive the axial row.
            let driven = self.spin_row(&f).unwrap_or(row);
            let max = m.max_force * ctx.h;
            let acc = self.impulses.motor;
            self.impulses.motor = one(self, &driven, rigid(), m.speed, acc, (-max, max));
        }
        if let Some([lo, hi]) = limits {
            let pos_inf = (0.0, Real::MAX);
            if lo > Real::MIN {
                let soft = inequality(pos - lo, ctx, use_bias);
                self.impulses.lower = one(self, &row, soft, 0.0, self.impulses.lower, pos_inf);
            }
            let soft = inequality(hi - pos, ctx, use_bias);
            let acc = self.impulses.upper;
            self.impulses.upper = one(self, &row.negated(), soft, 0.0, acc, pos_inf);
        }
    }

    /// The equality rows as one block: weld, hinge alignment and point, slider.
    fn solve_equality(&mut self, bodies: &mut [SolverBody<D>], ctx: &StepContext, use_bias: bool) {
        let f = self.frame(bodies);
        let (block, c) = self.equality_block(&f);
        if block.n == 0 {
            return;
        }
        let before = self.block_acc(&block);
        let mut acc = before;
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
        let mut delta = [0.0; MAX_ROWS];
        for k in 0..block.n {
            delta[k] = acc[k] - before[k];
        }
        self.add_acc(&block, &delta);
    }

    /// The force (N, on B, world) and torque (N m, on B, world) the joint applied
    /// in the last substep, given the substep's `inv_h`. Torque counts the angular
    /// rows only (not the moment of the linear force about the centre of mass).
    pub fn reaction(&self, bodies: &[SolverBody<D>], inv_h: Real) -> (Vector<D>, AngVector<D>) {
        let f = self.frame(bodies);
        let mut force = self.impulses.linear;
        let mut torque = self.impulses.angular;
        if let Some((row, _)) = self.axial(&f) {
            let total = self.axial_total();
            force += row.lin * total;
            if row.lin == Vector::<D>::zeros() {
                torque += row.ang_b * total;
            }
            // The axial row's companion impulses on the equality rows.
            let (block, _) = self.equality_block(&f);
            let (y, _) = companion(&row, &block, &bodies[self.body_a], &bodies[self.body_b]);
            for k in 0..block.n {
                let r = &block.rows[k];
                if block.angular[k] {
                    torque -= r.ang_b * (y[k] * total);
                } else {
                    force -= r.lin * (y[k] * total);
                }
            }
        }
        if let Some(spin) = self.spin_row(&f) {
            torque += spin.ang_b * self.impulses.motor;
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
            let (block, _) = self.equality_block(&f);
            apply_through(bodies, ia, ib, &row, &block, self.axial_total());
            if let Some(spin) = self.spin_row(&f) {
                apply_through(bodies, ia, ib, &spin, &block, i.motor);
            }
        }
    }

    fn solve(&mut self, bodies: &mut [SolverBody<D>], ctx: &StepContext, use_bias: bool) {
        self.solve_axial(bodies, ctx, use_bias);
        self.solve_equality(bodies, ctx, use_bias);
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
            JointKind::Rope(r) => rope_limits(r),
            JointKind::Wheel(w) => w.limits,
            _ => None,
        }
    }
}

/// A rope's bounds: no lower one (the anchors may meet), its length as the upper.
fn rope_limits(r: &RopeJoint) -> Option<[Real; 2]> {
    Some([Real::MIN, r.max_length.unwrap_or(0.0)])
}
