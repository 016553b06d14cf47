//! The solver's working copy of the contacts: what the passes read and write, and nothing
//! else, in colour order (`colour.rs`).
//!
//! [`ContactConstraint`] is what the caller hands in and reads back. At the start of a step
//! each one is prepared into a [`Prepared`] contact and its points into one flat list of
//! [`PreparedPoint`]s: a pass then streams through contiguous memory (a 2D contact holds two
//! points, not the four slots of a manifold), and the impulses go back into the caller's
//! points at the end of the step ([`Prepared::store`]).
//!
//! During the substeps the separation of each point is *recomputed* from how far the bodies
//! have moved since the step began (`delta_position` and the current rotation), so the
//! position error the soft constraint corrects is current without a new collision query. A
//! point with positive separation is speculative: the bodies may close the gap within the
//! substep (the bias lets exactly that much approach through) but get no push otherwise. A
//! penetrating point is pushed out softly, never faster than the push-out cap.

use crate::body::SolverBody;
use crate::contact::{ContactConstraint, StepContext, HEAVY_RATIO};
use crate::softness::Softness;
use crate::view::BodyView;
use fathom_math::{AngVector, Dim, Real, Space, Vector, MAX_MANIFOLD_POINTS};
use nalgebra::AbstractRotation;

/// One contact as the passes see it; its points are `points` of the step's point list.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Prepared<const D: usize>
where
    Space<D>: Dim<D>,
{
    pub(crate) body_a: usize,
    pub(crate) body_b: usize,
    pub(crate) normal: Vector<D>,
    pub(crate) tangents: [Vector<D>; 2],
    pub(crate) friction: Real,
    pub(crate) restitution: Real,
    /// The slip friction drives to along each tangent, m/s (zero but for conveyors, which the
    /// scalar passes solve: `wide.rs` leaves them out of its lanes).
    pub(crate) tangent_velocity: [Real; 2],
    /// Softness used while biased (stiffer against static bodies and much heavier ones).
    pub(crate) softness: Softness,
    /// Relative acceleration of B from A along the normal from gravity and external forces
    /// alone (m/s², negative closing).
    pub(crate) closing_accel: Real,
    /// The bodies' inverse masses (1/kg), so the passes read no body for them.
    pub(crate) inv_mass: [Real; 2],
    /// Unit null vector of a 4-point manifold's normal rows; zero when none.
    pub(crate) null: [Real; 4],
    /// Passes per solve or relax stage (1, more under a mass ratio).
    pub(crate) passes: u8,
    /// First point in the step's point list and how many.
    pub(crate) first: u32,
    pub(crate) count: u8,
}

/// One point of a prepared contact.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct PreparedPoint<const D: usize>
where
    Space<D>: Dim<D>,
{
    /// Accumulated normal impulse of the current substep, N s.
    pub(crate) normal_impulse: Real,
    /// Accumulated friction impulses along the tangents, N s.
    pub(crate) tangent_impulse: [Real; 2],
    /// Normal impulse over the step so far, N s.
    pub(crate) total_normal_impulse: Real,
    /// Largest normal impulse applied in any substep, N s.
    pub(crate) max_normal_impulse: Real,
    /// The anchor's offset from A's centre of mass at step start, in A's body frame, to
    /// follow A's rotation during the step.
    pub(crate) local_r_a: Vector<D>,
    /// The same for B.
    pub(crate) local_r_b: Vector<D>,
    /// Separation minus the part explained by the anchors, so that
    /// `n · (Δp_b - Δp_a + r_b' - r_a') + base_separation` is the current separation.
    pub(crate) base_separation: Real,
    /// Effective mass along the normal, kg.
    pub(crate) normal_mass: Real,
    /// The normal's angular rows and responses.
    pub(crate) normal_row: Row<D>,
    /// The tangents' angular rows and responses (2D uses the first).
    pub(crate) tangent_rows: [Row<D>; 2],
    /// The tangent plane's inverse effective mass `K` (1/kg) in the constraint's tangent
    /// basis, as `[K00, K11, K01]` (2D uses `K00` only).
    pub(crate) tangent_k: [Real; 3],
    /// `1 / K00`, kg: in 2D the slip's effective mass (0 when nothing can move).
    pub(crate) tangent_mass: Real,
    /// Normal approach speed at impact (negative approaching), m/s, for restitution: the
    /// speed at step start, carried across the gap under the bodies' own accelerations.
    pub(crate) relative_velocity: Real,
}

impl<const D: usize> PreparedPoint<D>
where
    Space<D>: Dim<D>,
{
    /// A point with everything zero, to be overwritten by [`Prepared::new`].
    pub(crate) fn zero() -> Self {
        let row = Row {
            rows: [Space::<D>::ang_zero(); 2],
            response: [Space::<D>::ang_zero(); 2],
        };
        Self {
            normal_impulse: 0.0,
            tangent_impulse: [0.0; 2],
            total_normal_impulse: 0.0,
            max_normal_impulse: 0.0,
            local_r_a: Vector::zeros(),
            local_r_b: Vector::zeros(),
            base_separation: 0.0,
            normal_mass: 0.0,
            normal_row: row,
            tangent_rows: [row; 2],
            tangent_k: [0.0; 3],
            tangent_mass: 0.0,
            relative_velocity: 0.0,
        }
    }
}

/// A contact's separation terms that are the same for all its points. A point's current
/// separation is `n · (Δp_b - Δp_a + R_b r_b - R_a r_a) + base`, with its anchors `r` in the
/// body frames; written as `offset + (R_bᵀ n) · r_b - (R_aᵀ n) · r_a + base`, the rotations
/// are applied once per contact instead of twice per point.
struct Gap<const D: usize>
where
    Space<D>: Dim<D>,
{
    /// The normal in A's body frame.
    normal_a: Vector<D>,
    /// The normal in B's body frame.
    normal_b: Vector<D>,
    /// `n · (Δp_b - Δp_a)`, m.
    offset: Real,
}

impl<const D: usize> Gap<D>
where
    Space<D>: Dim<D>,
{
    /// The current separation of `p`, m, from the bodies' motion since step start.
    #[inline]
    fn separation(&self, p: &PreparedPoint<D>) -> Real {
        self.offset + self.normal_b.dot(&p.local_r_b) - self.normal_a.dot(&p.local_r_a)
            + p.base_separation
    }
}

/// The bodies' velocities copied out of the view, so two bodies can be updated together.
struct Pair<const D: usize>
where
    Space<D>: Dim<D>,
{
    v_a: Vector<D>,
    w_a: AngVector<D>,
    v_b: Vector<D>,
    w_b: AngVector<D>,
}

impl<const D: usize> Pair<D>
where
    Space<D>: Dim<D>,
{
    fn load(bodies: &BodyView<'_, D>, a: usize, b: usize) -> Self {
        let ((v_a, w_a), (v_b, w_b)) = (bodies.velocities(a), bodies.velocities(b));
        Self { v_a, w_a, v_b, w_b }
    }

    fn store(self, bodies: &BodyView<'_, D>, a: usize, b: usize) {
        bodies.store(a, self.v_a, self.w_a);
        bodies.store(b, self.v_b, self.w_b);
    }
}

/// One constraint direction `d` at a point, for both bodies: the angular rows of the
/// Jacobian (`r × d`) and the angular velocity a unit impulse along `d` gives each body
/// (`I⁻¹ (r × d)`, with the inertia at step start). With them a pass reads and writes only
/// velocities.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Row<const D: usize>
where
    Space<D>: Dim<D>,
{
    pub(crate) rows: [AngVector<D>; 2],
    pub(crate) response: [AngVector<D>; 2],
}

impl<const D: usize> Row<D>
where
    Space<D>: Dim<D>,
{
    fn new(
        a: &SolverBody<D>,
        b: &SolverBody<D>,
        r_a: &Vector<D>,
        r_b: &Vector<D>,
        d: &Vector<D>,
    ) -> Self {
        let rows = [Space::<D>::cross(r_a, d), Space::<D>::cross(r_b, d)];
        Self {
            rows,
            response: [
                Space::<D>::inertia_apply(&a.inv_inertia, &rows[0]),
                Space::<D>::inertia_apply(&b.inv_inertia, &rows[1]),
            ],
        }
    }

    /// The inverse effective mass coupling this direction `d` with `other`'s `e` (1/kg):
    /// `d·e (m_a⁻¹ + m_b⁻¹) + (r_a × d)·I_a⁻¹(r_a × e) + (r_b × d)·I_b⁻¹(r_b × e)`.
    fn inverse_mass(&self, other: &Self, d_dot_e: Real, inv_mass: &[Real; 2]) -> Real {
        d_dot_e * (inv_mass[0] + inv_mass[1])
            + Space::<D>::ang_dot(&self.rows[0], &other.response[0])
            + Space::<D>::ang_dot(&self.rows[1], &other.response[1])
    }

    /// The speed of B's point relative to A's along the unit direction `d` this row belongs to.
    #[inline]
    fn speed(&self, pair: &Pair<D>, d: &Vector<D>) -> Real {
        d.dot(&(pair.v_b - pair.v_a)) + Space::<D>::ang_dot(&self.rows[1], &pair.w_b)
            - Space::<D>::ang_dot(&self.rows[0], &pair.w_a)
    }

    /// Applies the impulse `lambda` (N s) along `d`: minus to A, plus to B.
    #[inline]
    fn apply(&self, pair: &mut Pair<D>, d: &Vector<D>, lambda: Real, inv_mass: &[Real; 2]) {
        pair.v_a -= d * (lambda * inv_mass[0]);
        pair.w_a -= self.response[0] * lambda;
        pair.v_b += d * (lambda * inv_mass[1]);
        pair.w_b += self.response[1] * lambda;
    }
}

/// The normal velocity at which a point now at `separation` (m) with normal velocity `vn`
/// (m/s, negative closing) meets its surface under the normal relative acceleration
/// `accel` (m/s²): `-sqrt(vn² - 2 accel s)`; `vn` itself when touching already or when the
/// acceleration alone would not close the gap. At step start a dropped ball is up to a step
/// above the ground, and its speed then is short of the impact speed by up to `g dt`.
fn impact_speed(vn: Real, separation: Real, accel: Real) -> Real {
    let squared = vn * vn - 2.0 * accel * separation;
    if separation <= 0.0 || squared <= 0.0 {
        return vn;
    }
    -squared.sqrt()
}

/// The separating normal speed a point at `separation` (m) must have after bouncing off its
/// surface at `impact` (m/s, negative) with restitution `e`, under the normal relative
/// acceleration `accel` (m/s²): `sqrt(e² impact² + 2 accel s)`. The bounce is applied at the
/// end of a step, where the point may still be up to a substep's travel above the surface
/// (its contact is speculative); leaving from there at `e |impact|` would add that gap to
/// the rebound (6.7 mm on a 1 m drop).
fn rebound_speed(impact: Real, separation: Real, accel: Real, e: Real) -> Real {
    let squared = e * e * impact * impact + 2.0 * accel * separation.max(0.0);
    squared.max(0.0).sqrt()
}

/// The unit vector `z` with `Σ z_i = 0` and `Σ z_i (r_i × n) = 0` for a manifold's four
/// anchors: impulses along it change no velocity of either body (for each body `r_i × n` is
/// a linear function of the point's position in the tangent plane, plus a constant that
/// `Σ z_i = 0` cancels). Zero for fewer points or points on a line.
pub(crate) fn null_vector<const D: usize>(anchors: &[Vector<D>], t: &[Vector<D>; 2]) -> [Real; 4]
where
    Space<D>: Dim<D>,
{
    if anchors.len() != 4 {
        return [0.0; 4];
    }
    let c = anchors.iter().sum::<Vector<D>>() / 4.0;
    let x: [Real; 4] = std::array::from_fn(|i| t[0].dot(&(anchors[i] - c)));
    let y: [Real; 4] = std::array::from_fn(|i| t[1].dot(&(anchors[i] - c)));
    // Twice the signed area of triangle (i, j, k): the 3×3 minors of the rows [1; x; y].
    let area = |i: usize, j: usize, k: usize| {
        (x[j] - x[i]) * (y[k] - y[i]) - (x[k] - x[i]) * (y[j] - y[i])
    };
    let z = [area(1, 2, 3), -area(0, 2, 3), area(0, 1, 3), -area(0, 1, 2)];
    let norm = z.iter().map(|v| v * v).sum::<Real>().sqrt();
    let size = x.iter().chain(&y).fold(0.0 as Real, |m, v| m.max(v.abs()));
    // Points on a line give z = 0 up to round-off of the areas (size² ε).
    if norm <= 1e-4 * size * size {
        return [0.0; 4];
    }
    z.map(|v| v / norm)
}

/// The impulse per unit slip that stops the slip `s` (in the tangent plane's basis) when
/// applied against it: `|s|² / (sᵀ K s)`, the effective mass along the slip, with `K` given as
/// `[K00, K11, K01]`. 0 when there is no slip or nothing can move.
#[inline]
fn slip_step(k: &[Real; 3], s: &[Real; 2]) -> Real {
    let ss = s[0] * s[0] + s[1] * s[1];
    let sks = k[0] * s[0] * s[0] + k[1] * s[1] * s[1] + 2.0 * k[2] * s[0] * s[1];
    if sks > 0.0 {
        ss / sks
    } else {
        0.0
    }
}

/// Moves the accumulated normal impulses of `points` along the null vector `z` (which changes
/// no velocity) as close to an even spread as they can go while staying non-negative.
/// Four points on a face have one more impulse than the face has degrees of freedom,
/// and sequential passes let that spare pattern (two diagonal corners loaded, the other
/// two not) wander; the lopsided loads then set friction limits that rock a light box
/// under a heavy one.
pub(crate) fn spread(impulses: &mut [Real], z: &[Real; 4]) {
    if impulses.len() != MAX_MANIFOLD_POINTS || *z == [0.0; 4] {
        return;
    }
    let mut along: Real = 0.0;
    // λ - α z ≥ 0 bounds α to [lo, hi], which holds 0 since λ ≥ 0.
    let (mut lo, mut hi) = (Real::NEG_INFINITY, Real::INFINITY);
    for (&l, &zi) in impulses.iter().zip(z) {
        along += zi * l;
        if zi > 0.0 {
            hi = hi.min(l / zi);
        } else if zi < 0.0 {
            lo = lo.max(l / zi);
        }
    }
    let alpha = along.clamp(lo, hi);
    for (l, &zi) in impulses.iter_mut().zip(z) {
        *l = (*l - alpha * zi).max(0.0);
    }
}

impl<const D: usize> Prepared<D>
where
    Space<D>: Dim<D>,
{
    const TANGENTS: usize = D - 1;

    /// Anchors, effective masses and approach speeds of `c` from the bodies at step start;
    /// its points go to `slots` (one per point; the caller sets `first`). `gravity`
    /// (m/s², world) carries the approach speed across a gap to the impact.
    #[cfg(test)]
    pub(crate) fn new(
        c: &ContactConstraint<D>,
        bodies: &[SolverBody<D>],
        ctx: &StepContext,
        gravity: &Vector<D>,
        slots: &mut [PreparedPoint<D>],
    ) -> Self {
        let prepared = Self::of_contact(c, bodies, ctx, gravity);
        prepared.prepare_points(c, bodies, slots);
        prepared
    }

    /// The terms of `c` shared by its points (no point is prepared; see
    /// [`Self::prepare_points`], and `wide.rs` for contacts solved in lanes).
    pub(crate) fn of_contact(
        c: &ContactConstraint<D>,
        bodies: &[SolverBody<D>],
        ctx: &StepContext,
        gravity: &Vector<D>,
    ) -> Self {
        let (a, b) = (&bodies[c.body_a], &bodies[c.body_b]);
        let n = c.normal;
        let tangents = c.tangents;
        // A soft contact's spring is its effective mass times ω², and between a heavy and a
        // light body that mass is the light one's: under the heavy body's weight it gives
        // like a spring tuned to the light body (a 1000 kg ball sank 28 cm into a 1 kg one
        // at 30 Hz). A body at least HEAVY_RATIO times heavier holds the light one almost
        // like a static one does, so the pair gets the static contacts' stiffer spring.
        let (light, heavy) = (a.inv_mass.max(b.inv_mass), a.inv_mass.min(b.inv_mass));
        let softness = if heavy == 0.0 || light >= HEAVY_RATIO * heavy {
            ctx.static_softness
        } else {
            ctx.contact_softness
        };
        let null = if c.points.len() == MAX_MANIFOLD_POINTS {
            let anchors: [Vector<D>; MAX_MANIFOLD_POINTS] =
                std::array::from_fn(|i| c.points[i].anchor);
            null_vector(&anchors, &tangents)
        } else {
            [0.0; 4]
        };
        Self {
            body_a: c.body_a,
            body_b: c.body_b,
            normal: n,
            tangents,
            friction: c.friction,
            restitution: c.restitution,
            tangent_velocity: [
                c.tangent_velocity.dot(&tangents[0]),
                c.tangent_velocity.dot(&tangents[1]),
            ],
            softness,
            closing_accel: n.dot(&(b.free_acceleration(gravity) - a.free_acceleration(gravity))),
            inv_mass: [a.inv_mass, b.inv_mass],
            null,
            passes: 1,
            first: 0,
            count: c.points.len() as u8,
        }
    }

    /// The points of `c` (this contact's constraint) into `slots`, one per point.
    pub(crate) fn prepare_points(
        &self,
        c: &ContactConstraint<D>,
        bodies: &[SolverBody<D>],
        slots: &mut [PreparedPoint<D>],
    ) {
        let (a, b) = (&bodies[c.body_a], &bodies[c.body_b]);
        let (n, inv_mass) = (self.normal, self.inv_mass);
        let [t0, t1] = &self.tangents;
        for (p, slot) in c.points.iter().zip(slots) {
            let (r_a, r_b) = (p.anchor - a.center, p.anchor - b.center);
            let normal_row = Row::new(a, b, &r_a, &r_b, &n);
            let k = normal_row.inverse_mass(&normal_row, 1.0, &inv_mass);
            let row = |t| Row::new(a, b, &r_a, &r_b, t);
            // 2D has one tangent (the second repeats it) and reads only K00 of the plane.
            let rows = if D == 2 {
                [row(t0); 2]
            } else {
                [row(t0), row(t1)]
            };
            let vn = n.dot(&(b.point_velocity(&r_b) - a.point_velocity(&r_a)));
            let k00 = rows[0].inverse_mass(&rows[0], 1.0, &inv_mass);
            let tangent_k = if D == 2 {
                [k00; 3]
            } else {
                [
                    k00,
                    rows[1].inverse_mass(&rows[1], 1.0, &inv_mass),
                    rows[0].inverse_mass(&rows[1], t0.dot(t1), &inv_mass),
                ]
            };
            *slot = PreparedPoint {
                normal_impulse: p.normal_impulse,
                tangent_impulse: p.tangent_impulse,
                total_normal_impulse: 0.0,
                max_normal_impulse: 0.0,
                local_r_a: a.rotation.inverse_transform_vector(&r_a),
                local_r_b: b.rotation.inverse_transform_vector(&r_b),
                base_separation: p.separation - n.dot(&(r_b - r_a)),
                normal_mass: if k > 0.0 { 1.0 / k } else { 0.0 },
                normal_row,
                tangent_mass: if k00 > 0.0 { 1.0 / k00 } else { 0.0 },
                tangent_k,
                tangent_rows: rows,
                relative_velocity: impact_speed(vn, p.separation, self.closing_accel),
            };
        }
    }

    /// Writes the step's impulses back into the caller's contact.
    pub(crate) fn store(&self, points: &[PreparedPoint<D>], c: &mut ContactConstraint<D>) {
        for (p, q) in c.points.iter_mut().zip(points) {
            p.normal_impulse = q.normal_impulse;
            p.tangent_impulse = q.tangent_impulse;
            p.total_normal_impulse = q.total_normal_impulse;
            p.max_normal_impulse = q.max_normal_impulse;
        }
    }

    /// The lighter body's index and how many times heavier the other one is (1 when either
    /// is static or kinematic).
    pub(crate) fn mass_ratio(&self) -> (usize, Real) {
        let [ia, ib] = self.inv_mass;
        let light = if ia >= ib { self.body_a } else { self.body_b };
        let heavy = ia.min(ib);
        let ratio = if heavy > 0.0 { ia.max(ib) / heavy } else { 1.0 };
        (light, ratio)
    }

    /// Applies last step's accumulated impulses (scaled by nothing: they are the best guess).
    pub(crate) fn warm_start(&self, points: &[PreparedPoint<D>], bodies: &BodyView<'_, D>) {
        let mut pair = Pair::load(bodies, self.body_a, self.body_b);
        for p in points {
            p.normal_row
                .apply(&mut pair, &self.normal, p.normal_impulse, &self.inv_mass);
            for k in 0..Self::TANGENTS {
                p.tangent_rows[k].apply(
                    &mut pair,
                    &self.tangents[k],
                    p.tangent_impulse[k],
                    &self.inv_mass,
                );
            }
        }
        pair.store(bodies, self.body_a, self.body_b);
    }

    /// What the current separation of every point of this contact needs from the bodies
    /// (see [`Gap`]), read once per pass.
    #[inline]
    fn gap(&self, bodies: &BodyView<'_, D>) -> Gap<D> {
        let (a, b) = (bodies.get(self.body_a), bodies.get(self.body_b));
        Gap {
            normal_a: a.rotation.inverse_transform_vector(&self.normal),
            normal_b: b.rotation.inverse_transform_vector(&self.normal),
            offset: self.normal.dot(&(b.delta_position - a.delta_position)),
        }
    }

    /// One pass of the normal constraints. With `use_bias` penetration is
    /// pushed out softly; without it (relaxation) only velocities are fixed.
    /// Speculative points always get their gap as bias.
    pub(crate) fn solve_normal(
        &self,
        points: &mut [PreparedPoint<D>],
        bodies: &BodyView<'_, D>,
        ctx: &StepContext,
        use_bias: bool,
    ) {
        let mut pair = Pair::load(bodies, self.body_a, self.body_b);
        let n = self.normal;
        let gap = self.gap(bodies);
        let mut touching = true;
        for p in points.iter_mut() {
            let s = gap.separation(p);
            touching &= s <= 0.0;
            let (bias, mass_scale, impulse_scale) = if s > 0.0 {
                (s * ctx.inv_h, 1.0, 0.0)
            } else if use_bias {
                let soft = self.softness;
                let bias = (soft.bias_rate * s).max(-ctx.max_push_out_speed);
                (bias, soft.mass_scale, soft.impulse_scale)
            } else {
                (0.0, 1.0, 0.0)
            };
            let vn = p.normal_row.speed(&pair, &n);
            let delta =
                -p.normal_mass * mass_scale * (vn + bias) - impulse_scale * p.normal_impulse;
            let new_impulse = (p.normal_impulse + delta).max(0.0);
            let applied = new_impulse - p.normal_impulse;
            p.normal_impulse = new_impulse;
            p.max_normal_impulse = p.max_normal_impulse.max(applied);
            p.normal_row.apply(&mut pair, &n, applied, &self.inv_mass);
        }
        if touching && points.len() == MAX_MANIFOLD_POINTS {
            let mut impulses = [0.0; MAX_MANIFOLD_POINTS];
            for (l, p) in impulses.iter_mut().zip(points.iter()) {
                *l = p.normal_impulse;
            }
            spread(&mut impulses, &self.null);
            for (l, p) in impulses.iter().zip(points.iter_mut()) {
                p.normal_impulse = *l;
            }
        }
        pair.store(bodies, self.body_a, self.body_b);
    }

    /// Adds each point's accumulated normal impulse to its step total: called once per
    /// substep, after the relax stage, when the warm start plus every change since add up to
    /// what the substep applied.
    pub(crate) fn record_substep(points: &mut [PreparedPoint<D>]) {
        for p in points.iter_mut() {
            p.total_normal_impulse += p.normal_impulse;
        }
    }

    /// One pass of friction: the tangential impulse of each point is kept
    /// inside the Coulomb cone `|λ_t| <= μ λ_n` (a disc in 3D, an interval in 2D).
    ///
    /// The update is along the slip itself, with the effective mass the bodies have in that
    /// direction ([`slip_step`]), so a sliding point's friction ends up exactly opposite its
    /// slip whichever way the tangent basis lies. Updating each tangent with its own mass
    /// (the diagonal of the tangent plane's `K`) bends the impulse towards the lighter axis:
    /// a box on a 3D slope slid up to 81% too fast, and spun.
    pub(crate) fn solve_friction(&self, points: &mut [PreparedPoint<D>], bodies: &BodyView<'_, D>) {
        let mut pair = Pair::load(bodies, self.body_a, self.body_b);
        if Self::TANGENTS == 1 {
            self.solve_friction_line(points, &mut pair);
        } else {
            self.solve_friction_plane(points, &mut pair);
        }
        pair.store(bodies, self.body_a, self.body_b);
    }

    /// Friction along the one tangent of 2D: the slip's effective mass is a constant and the
    /// cone an interval, so no division or root is left in the pass.
    fn solve_friction_line(&self, points: &mut [PreparedPoint<D>], pair: &mut Pair<D>) {
        let t = &self.tangents[0];
        for p in points.iter_mut() {
            let max_friction = self.friction * p.normal_impulse;
            let slip = p.tangent_rows[0].speed(pair, t) - self.tangent_velocity[0];
            let old = p.tangent_impulse[0];
            let new = (old - p.tangent_mass * slip)
                .max(-max_friction)
                .min(max_friction);
            p.tangent_rows[0].apply(pair, t, new - old, &self.inv_mass);
            p.tangent_impulse[0] = new;
        }
    }

    /// Friction in the tangent plane of 3D, along the slip (see [`Self::solve_friction`]).
    fn solve_friction_plane(&self, points: &mut [PreparedPoint<D>], pair: &mut Pair<D>) {
        let [t0, t1] = &self.tangents;
        for p in points.iter_mut() {
            let max_friction = self.friction * p.normal_impulse;
            let slip = [
                p.tangent_rows[0].speed(pair, t0) - self.tangent_velocity[0],
                p.tangent_rows[1].speed(pair, t1) - self.tangent_velocity[1],
            ];
            let step = slip_step(&p.tangent_k, &slip);
            let old = p.tangent_impulse;
            let mut new = [old[0] - step * slip[0], old[1] - step * slip[1]];
            let len = (new[0] * new[0] + new[1] * new[1]).sqrt();
            if len > max_friction {
                let scale = if len > 0.0 { max_friction / len } else { 0.0 };
                new = [new[0] * scale, new[1] * scale];
            }
            p.tangent_rows[0].apply(pair, t0, new[0] - old[0], &self.inv_mass);
            p.tangent_rows[1].apply(pair, t1, new[1] - old[1], &self.inv_mass);
            p.tangent_impulse = new;
        }
    }

    /// The restitution pass: points that were approaching faster than the
    /// threshold at step start and took load this step leave at `e` times
    /// their approach speed.
    pub(crate) fn apply_restitution(
        &self,
        points: &mut [PreparedPoint<D>],
        bodies: &BodyView<'_, D>,
        ctx: &StepContext,
    ) {
        if self.restitution == 0.0 {
            return;
        }
        let mut pair = Pair::load(bodies, self.body_a, self.body_b);
        let n = self.normal;
        let gap = self.gap(bodies);
        for p in points.iter_mut() {
            if p.relative_velocity > -ctx.restitution_threshold || p.max_normal_impulse == 0.0 {
                continue;
            }
            let vn = p.normal_row.speed(&pair, &n);
            let separation = gap.separation(p);
            let target = rebound_speed(
                p.relative_velocity,
                separation,
                self.closing_accel,
                self.restitution,
            );
            let delta = p.normal_mass * (target - vn);
            let new_impulse = (p.normal_impulse + delta).max(0.0);
            let applied = new_impulse - p.normal_impulse;
            p.normal_impulse = new_impulse;
            p.total_normal_impulse += applied;
            p.max_normal_impulse = p.max_normal_impulse.max(applied);
            p.normal_row.apply(&mut pair, &n, applied, &self.inv_mass);
        }
        pair.store(bodies, self.body_a, self.body_b);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::body::Motion;
    use crate::contact::ContactPoint;
    use crate::solver::SolverSettings;
    use fathom_math::Rotation;
    use nalgebra::Vector3;

    /// A unit box (1 kg) resting on static ground, with four corner points under it, prepared.
    fn box_on_ground(
        corners: [(Real, Real); 4],
    ) -> (Vec<SolverBody<3>>, Prepared<3>, Vec<PreparedPoint<3>>) {
        let ground = SolverBody::new(
            Motion::Static,
            Vector3::zeros(),
            Rotation::<3>::identity(),
            0.0,
            Space::<3>::inertia_zero(),
        );
        let i = 1.0 / 6.0;
        let cube = SolverBody::new(
            Motion::Dynamic,
            Vector3::new(0.0, 0.5, 0.0),
            Rotation::<3>::identity(),
            1.0,
            nalgebra::Matrix3::from_diagonal_element(1.0 / i),
        );
        let points = corners
            .iter()
            .enumerate()
            .map(|(k, &(x, z))| ContactPoint::new(Vector3::new(x, 0.0, z), 0.0, k as u32));
        let c = ContactConstraint::new(0, 1, Vector3::y(), 0.5, 0.0, points);
        let bodies = vec![ground, cube];
        let ctx = SolverSettings::default().context(1.0 / 60.0);
        let mut points = vec![PreparedPoint::zero(); 4];
        let p = Prepared::new(&c, &bodies, &ctx, &Vector3::zeros(), &mut points);
        (bodies, p, points)
    }

    #[test]
    fn null_vector_moves_no_body() {
        // An irregular quadrilateral: z has no velocity effect when Σ z = 0 and the
        // z-weighted sums of both tangent-plane coordinates vanish.
        let corners = [(-0.5, -0.4), (0.45, -0.5), (0.5, 0.3), (-0.3, 0.5)];
        let (_, c, _) = box_on_ground(corners);
        let z = c.null;
        assert!((z.iter().map(|v| v * v).sum::<Real>() - 1.0).abs() < 1e-5);
        assert!(z.iter().sum::<Real>().abs() < 1e-6);
        for axis in [0, 2] {
            let moment: Real = (0..4)
                .map(|k| z[k] * [corners[k].0, 0.0, corners[k].1][axis])
                .sum();
            assert!(moment.abs() < 1e-6, "axis {axis}: {moment}");
        }
    }

    #[test]
    fn lopsided_loads_spread_evenly_without_changing_velocities() {
        // Two diagonal corners carrying the whole load and the other two nothing is the
        // same push on the box as all four carrying half: the spread must end there.
        let corners = [(-0.5, -0.5), (0.5, -0.5), (0.5, 0.5), (-0.5, 0.5)];
        let (bodies, c, points) = box_on_ground(corners);
        let load = [1.0, 0.0, 1.0, 0.0];
        let mut spread_load = load;
        spread(&mut spread_load, &c.null);
        for l in spread_load {
            assert!((l - 0.5).abs() < 1e-6, "{l}");
        }
        // Applying the old impulses or the new ones gives the box the same velocities.
        let velocities = |impulses: [Real; 4]| {
            let mut copy = bodies.clone();
            let mut pair = Pair::load(&BodyView::new(&mut copy), 0, 1);
            for (p, l) in points.iter().zip(impulses) {
                p.normal_row.apply(&mut pair, &c.normal, l, &c.inv_mass);
            }
            (pair.v_b, pair.w_b)
        };
        let (v0, w0) = velocities(load);
        let (v1, w1) = velocities(spread_load);
        assert!((v0 - v1).norm() < 1e-6 && (w0 - w1).norm() < 1e-6);
    }

    #[test]
    fn spread_stops_where_a_corner_runs_out() {
        // Loads (1, 0, 0.2, 0): the even spread (0.3 each) would need the third corner to go
        // to -0.1, so the move stops when it reaches zero, at (0.8, 0.2, 0, 0.2).
        let corners = [(-0.5, -0.5), (0.5, -0.5), (0.5, 0.5), (-0.5, 0.5)];
        let (_, c, _) = box_on_ground(corners);
        let mut load = [1.0, 0.0, 0.2, 0.0];
        spread(&mut load, &c.null);
        for (l, want) in load.iter().zip([0.8, 0.2, 0.0, 0.2]) {
            assert!((l - want).abs() < 1e-6, "{l} != {want}");
        }
    }
}
