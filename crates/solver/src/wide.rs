//! The contact passes four contacts at a time, one SIMD lane each.
//!
//! The contacts of one colour (`colour.rs`) share no dynamic body, so four of them can be
//! solved together: each [`Bundle`] holds four prepared contacts field by field, one register
//! per field with a lane per contact, and its points ([`WidePoint`]) the same way. A pass loads
//! the eight bodies' velocities into lanes, runs the arithmetic of `prepared.rs` on all four
//! lanes, and stores them back. Each lane does exactly the scalar pass's operations in the
//! same order, so a lane's bits are the ones the scalar pass gives its contact.
//! The passes and the fill run in the build for the processor (`kernel.rs`): the same bits.
//!
//! Bundles are packed after the prepare stage, colour by colour in colour order. A colour's
//! last bundle may have fewer than four real lanes; the others hold zero rows and masses, so
//! they change nothing and are never stored. Contacts that need several passes (a mass ratio),
//! conveyors (a tangent velocity) and the serial overflow colours stay scalar ("singles").
//! After the substeps the impulses of contacts that bounce go back to their scalar points,
//! where restitution reads them; the others go from their lanes to the caller's contacts.

use crate::body::SolverBody;
use crate::contact::{ContactConstraint, ContactPoint, StepContext};
use crate::kernel::{self, Kernel};
use crate::prepared::{Prepared, PreparedPoint, Row};
use crate::view::BodyView;
use fathom_math::lanes::{self, Columns, Lanes, Vector4x, F4};
use fathom_math::{Dim, Real, Space, Vector, MAX_MANIFOLD_POINTS};
use std::ops::Range;

/// Contacts per bundle.
pub(crate) const LANES: usize = 4;

type L<const D: usize> = <Space<D> as Dim<D>>::Lanes;
type WideAng<const D: usize> = <L<D> as Lanes<D>>::WideAng;
type WideRot<const D: usize> = <L<D> as Lanes<D>>::WideRot;

/// [`Row`] in four lanes.
#[derive(Clone, Copy, Debug)]
struct WideRow<const D: usize>
where
    Space<D>: Dim<D>,
{
    rows: [WideAng<D>; 2],
    response: [WideAng<D>; 2],
}

/// A point slot of a bundle: point `j` of each lane's contact ([`PreparedPoint`] in lanes).
#[derive(Clone, Copy, Debug)]
pub(crate) struct WidePoint<const D: usize>
where
    Space<D>: Dim<D>,
{
    normal_impulse: F4,
    tangent_impulse: [F4; 2],
    total_normal_impulse: F4,
    max_normal_impulse: F4,
    local_r_a: Vector4x<D>,
    local_r_b: Vector4x<D>,
    base_separation: F4,
    normal_mass: F4,
    normal_row: WideRow<D>,
    tangent_rows: [WideRow<D>; 2],
    tangent_k: [F4; 3],
    tangent_mass: F4,
}

/// Four prepared contacts of one colour, a lane each ([`Prepared`] in lanes).
#[derive(Clone, Debug)]
pub(crate) struct Bundle<const D: usize>
where
    Space<D>: Dim<D>,
{
    /// The lanes' contacts (indices of the prepared contacts); the first `lanes` are real.
    contacts: [u32; LANES],
    lanes: u8,
    /// The lanes' bodies; an unused lane repeats the first lane's and is never stored.
    body_a: [u32; LANES],
    body_b: [u32; LANES],
    /// The largest of the body indices: one bounds check for all eight.
    max_body: u32,
    normal: Vector4x<D>,
    tangents: [Vector4x<D>; 2],
    friction: F4,
    bias_rate: F4,
    mass_scale: F4,
    impulse_scale: F4,
    inv_mass: [F4; 2],
    null: [F4; 4],
    /// All bits set in the lanes whose contact has four points and a null vector.
    spreads: F4,
    /// The bundle's first point slot and how many (the most points of any lane).
    first: u32,
    count: u8,
}

/// The bundles of a step and the contacts solved one at a time, colour by colour.
#[derive(Default)]
pub(crate) struct WideWork<const D: usize>
where
    Space<D>: Dim<D>,
{
    pub(crate) bundles: Vec<Bundle<D>>,
    pub(crate) points: Vec<WidePoint<D>>,
    /// Per colour of the schedule: its bundles, and its singles as a range of `singles`.
    pub(crate) colours: Vec<(Range<usize>, Range<usize>)>,
    /// Prepared contacts solved by the scalar passes.
    pub(crate) singles: Vec<u32>,
    /// Per prepared contact, its bundle times [`LANES`] plus its lane ([`SINGLE`]: none).
    lane_of: Vec<u32>,
}

/// [`WideWork::lane_of`] of a contact left out of the bundles.
const SINGLE: u32 = u32::MAX;

/// What preparing contacts' points reads: the caller's contacts, the colour order (position
/// to caller index) and the bodies at step start.
pub(crate) struct Sources<'a, const D: usize>
where
    Space<D>: Dim<D>,
{
    pub(crate) order: &'a [u32],
    pub(crate) constraints: &'a [ContactConstraint<D>],
    pub(crate) bodies: &'a [SolverBody<D>],
}

impl<const D: usize> WideRow<D>
where
    Space<D>: Dim<D>,
{
    fn zero() -> Self {
        let zero = L::<D>::ang_zero();
        Self {
            rows: [zero; 2],
            response: [zero; 2],
        }
    }

    fn set_lane(&mut self, k: usize, row: &Row<D>) {
        for s in 0..2 {
            L::<D>::ang_set_lane(&mut self.rows[s], k, &row.rows[s]);
            L::<D>::ang_set_lane(&mut self.response[s], k, &row.response[s]);
        }
    }

    /// [`Row`]'s `new` in lanes: the rows `r × d` and responses `I⁻¹ (r × d)` of both bodies.
    #[inline]
    fn new(
        r: [&Vector4x<D>; 2],
        d: &Vector4x<D>,
        inv_inertia: [&<L<D> as Lanes<D>>::WideInertia; 2],
    ) -> Self {
        let rows = [L::<D>::cross(r[0], d), L::<D>::cross(r[1], d)];
        Self {
            rows,
            response: [
                L::<D>::inertia_apply(inv_inertia[0], &rows[0]),
                L::<D>::inertia_apply(inv_inertia[1], &rows[1]),
            ],
        }
    }

    /// [`Row`]'s `inverse_mass` in lanes.
    #[inline]
    fn inverse_mass(&self, other: &Self, d_dot_e: F4, inv_mass: &[F4; 2]) -> F4 {
        d_dot_e * (inv_mass[0] + inv_mass[1])
            + L::<D>::ang_dot(&self.rows[0], &other.response[0])
            + L::<D>::ang_dot(&self.rows[1], &other.response[1])
    }

    /// [`Row::speed`] in lanes.
    #[inline]
    fn speed(&self, pair: &WidePair<D>, d: &Vector4x<D>) -> F4 {
        let dv = lanes::vector_sub(&pair.v_b, &pair.v_a);
        lanes::vector_dot(d, &dv) + L::<D>::ang_dot(&self.rows[1], &pair.w_b)
            - L::<D>::ang_dot(&self.rows[0], &pair.w_a)
    }

    /// [`Row::apply`] in lanes.
    #[inline]
    fn apply(&self, pair: &mut WidePair<D>, d: &Vector4x<D>, lambda: F4, inv_mass: &[F4; 2]) {
        lanes::vector_sub_scaled(&mut pair.v_a, d, lambda * inv_mass[0]);
        L::<D>::ang_sub_scaled(&mut pair.w_a, &self.response[0], lambda);
        lanes::vector_add_scaled(&mut pair.v_b, d, lambda * inv_mass[1]);
        L::<D>::ang_add_scaled(&mut pair.w_b, &self.response[1], lambda);
    }
}

impl<const D: usize> WidePoint<D>
where
    Space<D>: Dim<D>,
{
    /// A slot with every lane zero: a lane without a point here changes nothing.
    fn zero() -> Self {
        let (row, v) = (WideRow::zero(), [F4::ZERO; D]);
        Self {
            normal_impulse: F4::ZERO,
            tangent_impulse: [F4::ZERO; 2],
            total_normal_impulse: F4::ZERO,
            max_normal_impulse: F4::ZERO,
            local_r_a: v,
            local_r_b: v,
            base_separation: F4::ZERO,
            normal_mass: F4::ZERO,
            normal_row: row,
            tangent_rows: [row; 2],
            tangent_k: [F4::ZERO; 3],
            tangent_mass: F4::ZERO,
        }
    }

    /// Lane `k` set to the scalar point `p`.
    fn set_lane(&mut self, k: usize, p: &PreparedPoint<D>) {
        let set = |x: &mut F4, v: Real| x.as_mut_array()[k] = v;
        set(&mut self.normal_impulse, p.normal_impulse);
        set(&mut self.tangent_impulse[0], p.tangent_impulse[0]);
        set(&mut self.tangent_impulse[1], p.tangent_impulse[1]);
        set(&mut self.total_normal_impulse, p.total_normal_impulse);
        set(&mut self.max_normal_impulse, p.max_normal_impulse);
        lanes::vector_set_lane(&mut self.local_r_a, k, &p.local_r_a);
        lanes::vector_set_lane(&mut self.local_r_b, k, &p.local_r_b);
        set(&mut self.base_separation, p.base_separation);
        set(&mut self.normal_mass, p.normal_mass);
        self.normal_row.set_lane(k, &p.normal_row);
        self.tangent_rows[0].set_lane(k, &p.tangent_rows[0]);
        self.tangent_rows[1].set_lane(k, &p.tangent_rows[1]);
        for (x, &v) in self.tangent_k.iter_mut().zip(&p.tangent_k) {
            set(x, v);
        }
        set(&mut self.tangent_mass, p.tangent_mass);
    }

    /// Lane `k`'s impulses back into its scalar point.
    fn scatter(&self, k: usize, p: &mut PreparedPoint<D>) {
        p.normal_impulse = self.normal_impulse.as_array()[k];
        p.tangent_impulse = self.tangent_impulse.map(|t| t.as_array()[k]);
        p.total_normal_impulse = self.total_normal_impulse.as_array()[k];
        p.max_normal_impulse = self.max_normal_impulse.as_array()[k];
    }

    /// Lane `k`'s impulses into the caller's point (what [`Prepared::store`] writes).
    fn store(&self, k: usize, p: &mut ContactPoint<D>) {
        p.normal_impulse = self.normal_impulse.as_array()[k];
        p.tangent_impulse = self.tangent_impulse.map(|t| t.as_array()[k]);
        p.total_normal_impulse = self.total_normal_impulse.as_array()[k];
        p.max_normal_impulse = self.max_normal_impulse.as_array()[k];
    }
}

/// The lanes' velocities of both bodies ([`crate::prepared`]'s `Pair` in lanes).
struct WidePair<const D: usize>
where
    Space<D>: Dim<D>,
{
    v_a: Vector4x<D>,
    w_a: WideAng<D>,
    v_b: Vector4x<D>,
    w_b: WideAng<D>,
}

impl<const D: usize> WidePair<D>
where
    Space<D>: Dim<D>,
{
    /// The velocities in the bodies' leading columns (see [`velocity_floats`]).
    #[inline]
    fn from_columns(c: &[Columns; 2]) -> Self {
        Self {
            v_a: std::array::from_fn(|i| c[0][i]),
            w_a: L::<D>::ang_from_columns(&c[0][D..]),
            v_b: std::array::from_fn(|i| c[1][i]),
            w_b: L::<D>::ang_from_columns(&c[1][D..]),
        }
    }

    /// The velocities back into the bodies' leading columns.
    #[inline]
    fn to_columns(&self, c: &mut [Columns; 2]) {
        c[0][..D].copy_from_slice(&self.v_a);
        L::<D>::ang_to_columns(&self.w_a, &mut c[0][D..]);
        c[1][..D].copy_from_slice(&self.v_b);
        L::<D>::ang_to_columns(&self.w_b, &mut c[1][D..]);
    }
}

/// Floats of a solver body's velocities, linear then angular, rounded up to whole loads of
/// four: what a contact pass loads and stores (`SolverBody` leads with them, then the
/// translation since step start and the rotation; the floats past the velocities are
/// stored back as they were loaded).
fn velocity_floats<const D: usize>() -> usize
where
    Space<D>: Dim<D>,
{
    (D + L::<D>::ANG_FLOATS).next_multiple_of(4)
}

/// Floats of a solver body's motion state: velocities, translation since step start,
/// rotation (the layout `body.rs` asserts).
fn motion_floats<const D: usize>() -> usize
where
    Space<D>: Dim<D>,
{
    2 * D + L::<D>::ANG_FLOATS + L::<D>::ROT_FLOATS
}

/// [`crate::prepared`]'s `Gap` in lanes: the normal in each body frame and the offset.
struct WideGap<const D: usize> {
    normal_a: Vector4x<D>,
    normal_b: Vector4x<D>,
    offset: F4,
}

impl<const D: usize> WideGap<D> {
    #[inline]
    fn separation(&self, p: &WidePoint<D>) -> F4
    where
        Space<D>: Dim<D>,
    {
        self.offset + lanes::vector_dot(&self.normal_b, &p.local_r_b)
            - lanes::vector_dot(&self.normal_a, &p.local_r_a)
            + p.base_separation
    }
}

impl<const D: usize> Bundle<D>
where
    Space<D>: Dim<D>,
{
    const TANGENTS: usize = D - 1;

    /// The lanes' bodies' leading floats, A's and B's, and which of them a pass writes (bit
    /// `k` for A's lane `k`, bit `4 + k` for B's): the real lanes' dynamic bodies (static
    /// and kinematic ones are shared between the contacts of a colour, and a body the
    /// guards froze is static).
    #[inline(always)]
    fn body_floats(&self, view: &BodyView<'_, D>) -> ([[*mut Real; LANES]; 2], u8) {
        assert!(
            (self.max_body as usize) < view.len(),
            "bundle body out of range"
        );
        let mut write = 0u8;
        for k in 0..LANES {
            // SAFETY: every index is at most `max_body`, checked above.
            let (a, b) = unsafe {
                (
                    view.is_dynamic(self.body_a[k] as usize),
                    view.is_dynamic(self.body_b[k] as usize),
                )
            };
            write |= u8::from(a) << k | u8::from(b) << (LANES + k);
        }
        let real = (1u8 << self.lanes) - 1;
        // SAFETY: as above.
        let floats = |ids: &[u32; LANES]| ids.map(|i| unsafe { view.floats(i as usize) });
        (
            [floats(&self.body_a), floats(&self.body_b)],
            write & (real | real << LANES),
        )
    }

    /// The first `n` floats of the lanes' bodies, as columns (A's, B's).
    #[inline(always)]
    fn load(p: &[[*mut Real; LANES]; 2], n: usize) -> [Columns; 2] {
        debug_assert!(n <= motion_floats::<D>());
        // SAFETY: `body_floats` gives pointers to live bodies, which lead with
        // `motion_floats` initialised floats (`SolverBody`'s layout, asserted in `body.rs`).
        p.map(|side| unsafe { lanes::gather_columns(side.map(|x| x.cast_const()), n) })
    }

    /// The velocity columns back into the bodies `write` names.
    #[inline(always)]
    fn store(p: &[[*mut Real; LANES]; 2], write: u8, c: &[Columns; 2]) {
        let n = velocity_floats::<D>();
        for s in 0..2 {
            // SAFETY: live bodies with at least `n` leading floats (`Self::load`); a written
            // body is dynamic and in one contact of the running colour, so no other thread
            // touches it (`view.rs`). Its floats past the velocities get back the values
            // loaded, which no contact pass changes.
            let lanes = u32::from(write >> (LANES * s)) & 0b1111;
            unsafe { lanes::scatter_columns(p[s], lanes, &c[s], n) };
        }
    }

    #[inline(always)]
    fn gap(&self, c: &[Columns; 2]) -> WideGap<D> {
        let (ang, lin) = (L::<D>::ANG_FLOATS, D);
        let dp = |c: &Columns| -> Vector4x<D> { std::array::from_fn(|i| c[lin + ang + i]) };
        let rotate = |c: &Columns| {
            L::<D>::inverse_rotate(&L::<D>::rot_from_columns(&c[2 * lin + ang..]), &self.normal)
        };
        WideGap {
            normal_a: rotate(&c[0]),
            normal_b: rotate(&c[1]),
            offset: lanes::vector_dot(&self.normal, &lanes::vector_sub(&dp(&c[1]), &dp(&c[0]))),
        }
    }

    /// [`Prepared::warm_start`] in lanes.
    #[inline(always)]
    pub(crate) fn warm_start(&self, points: &[WidePoint<D>], view: &BodyView<'_, D>) {
        let (ptrs, write) = self.body_floats(view);
        let mut columns = Self::load(&ptrs, velocity_floats::<D>());
        let mut pair = WidePair::from_columns(&columns);
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
        pair.to_columns(&mut columns);
        Self::store(&ptrs, write, &columns);
    }

    /// One pass of the normal constraints and then of friction: [`Prepared::solve_normal`]
    /// and [`Prepared::solve_friction`] in lanes, on one load of the bodies.
    #[inline(always)]
    pub(crate) fn solve(
        &self,
        points: &mut [WidePoint<D>],
        view: &BodyView<'_, D>,
        ctx: &StepContext,
        use_bias: bool,
    ) {
        let (ptrs, write) = self.body_floats(view);
        let mut columns = Self::load(&ptrs, motion_floats::<D>());
        let mut pair = WidePair::from_columns(&columns);
        let gap = self.gap(&columns);
        self.solve_normal(points, &mut pair, &gap, ctx, use_bias);
        if Self::TANGENTS == 1 {
            self.solve_friction_line(points, &mut pair);
        } else {
            self.solve_friction_plane(points, &mut pair);
        }
        pair.to_columns(&mut columns);
        Self::store(&ptrs, write, &columns);
    }

    #[inline(always)]
    fn solve_normal(
        &self,
        points: &mut [WidePoint<D>],
        pair: &mut WidePair<D>,
        gap: &WideGap<D>,
        ctx: &StepContext,
        use_bias: bool,
    ) {
        let n = &self.normal;
        let (zero, one) = (F4::ZERO, F4::ONE);
        let inv_h = F4::splat(ctx.inv_h);
        let max_push = F4::splat(-ctx.max_push_out_speed);
        let mut touching = F4::splat(0.0).simd_eq(zero);
        for p in points.iter_mut() {
            let s = gap.separation(p);
            touching &= s.simd_le(zero);
            let ahead = s.simd_gt(zero);
            let speculative = s * inv_h;
            let (bias, mass_scale, impulse_scale) = if use_bias {
                let soft = (self.bias_rate * s).max(max_push);
                (
                    ahead.select(speculative, soft),
                    ahead.select(one, self.mass_scale),
                    ahead.select(zero, self.impulse_scale),
                )
            } else {
                (ahead.select(speculative, zero), one, zero)
            };
            let vn = p.normal_row.speed(pair, n);
            let delta =
                -p.normal_mass * mass_scale * (vn + bias) - impulse_scale * p.normal_impulse;
            let new_impulse = (p.normal_impulse + delta).fast_max(zero);
            let applied = new_impulse - p.normal_impulse;
            p.normal_impulse = new_impulse;
            p.max_normal_impulse = p.max_normal_impulse.max(applied);
            p.normal_row.apply(pair, n, applied, &self.inv_mass);
        }
        let spreads = touching & self.spreads;
        if points.len() == MAX_MANIFOLD_POINTS && spreads.any() {
            spread(points, &self.null, spreads);
        }
    }

    /// [`Prepared::solve_friction`] along the one tangent of 2D.
    #[inline(always)]
    fn solve_friction_line(&self, points: &mut [WidePoint<D>], pair: &mut WidePair<D>) {
        let t = &self.tangents[0];
        for p in points.iter_mut() {
            let max_friction = self.friction * p.normal_impulse;
            let slip = p.tangent_rows[0].speed(pair, t);
            let old = p.tangent_impulse[0];
            let new = (old - p.tangent_mass * slip)
                .max(-max_friction)
                .min(max_friction);
            p.tangent_rows[0].apply(pair, t, new - old, &self.inv_mass);
            p.tangent_impulse[0] = new;
        }
    }

    /// [`Prepared::solve_friction`] in the tangent plane of 3D, along the slip.
    #[inline(always)]
    fn solve_friction_plane(&self, points: &mut [WidePoint<D>], pair: &mut WidePair<D>) {
        let [t0, t1] = &self.tangents;
        let zero = F4::ZERO;
        for p in points.iter_mut() {
            let max_friction = self.friction * p.normal_impulse;
            let slip = [
                p.tangent_rows[0].speed(pair, t0),
                p.tangent_rows[1].speed(pair, t1),
            ];
            let step = slip_step(&p.tangent_k, &slip);
            let old = p.tangent_impulse;
            let mut new = [old[0] - step * slip[0], old[1] - step * slip[1]];
            let len = (new[0] * new[0] + new[1] * new[1]).sqrt();
            let over = len.simd_gt(max_friction);
            if over.any() {
                let scale = len.simd_gt(zero).select(max_friction / len, zero);
                new = new.map(|x| over.select(x * scale, x));
            }
            p.tangent_rows[0].apply(pair, t0, new[0] - old[0], &self.inv_mass);
            p.tangent_rows[1].apply(pair, t1, new[1] - old[1], &self.inv_mass);
            p.tangent_impulse = new;
        }
    }

    /// [`Prepared::record_substep`] in lanes.
    #[inline(always)]
    pub(crate) fn record_substep(points: &mut [WidePoint<D>]) {
        for p in points.iter_mut() {
            p.total_normal_impulse += p.normal_impulse;
        }
    }
}

/// A contact pass over bundles, as a value rather than a closure so that it inlines into
/// the processor-specific loops of `colour.rs`.
pub(crate) enum WidePass<'a, 'v, const D: usize>
where
    Space<D>: Dim<D>,
{
    /// [`Bundle::warm_start`].
    WarmStart(&'a BodyView<'v, D>),
    /// [`Bundle::solve`], biased or not; the unbiased (relax) pass records the substep.
    Solve(&'a BodyView<'v, D>, &'a StepContext, bool),
}

impl<const D: usize> WidePass<'_, '_, D>
where
    Space<D>: Dim<D>,
{
    /// The pass on bundle `b` with its point slots.
    #[inline(always)]
    pub(crate) fn run(&self, b: &Bundle<D>, points: &mut [WidePoint<D>]) {
        match *self {
            Self::WarmStart(view) => b.warm_start(points, view),
            Self::Solve(view, ctx, use_bias) => {
                b.solve(points, view, ctx, use_bias);
                if !use_bias {
                    Bundle::record_substep(points);
                }
            }
        }
    }
}

/// `1 / x` where `x > 0`, else 0 (as `prepared.rs` takes effective masses).
#[inline]
fn reciprocal_or_zero(x: F4) -> F4 {
    x.simd_gt(F4::ZERO).select(F4::ONE / x, F4::ZERO)
}

/// What preparing a bundle's points reads of its bodies at step start, A's and B's.
struct BodyLanes<const D: usize>
where
    Space<D>: Dim<D>,
{
    center: [Vector4x<D>; 2],
    rotation: [WideRot<D>; 2],
    inv_inertia: [<L<D> as Lanes<D>>::WideInertia; 2],
}

impl<const D: usize> BodyLanes<D>
where
    Space<D>: Dim<D>,
{
    fn gather(a: &[u32; LANES], b: &[u32; LANES], bodies: &[SolverBody<D>]) -> Self {
        let side = [a, b].map(|ids| ids.map(|i| &bodies[i as usize]));
        Self {
            center: side.map(|s| lanes::vector_gather(s.map(|b| &b.center))),
            rotation: side.map(|s| L::<D>::rot_gather(s.map(|b| &b.rotation))),
            inv_inertia: side.map(|s| L::<D>::inertia_gather(s.map(|b| &b.inv_inertia))),
        }
    }
}

/// The `prepared.rs` slip step in lanes: `|s|² / (sᵀ K s)`, 0 where `sᵀ K s <= 0`.
#[inline]
fn slip_step(k: &[F4; 3], s: &[F4; 2]) -> F4 {
    let ss = s[0] * s[0] + s[1] * s[1];
    let two = F4::splat(2.0);
    let sks = k[0] * s[0] * s[0] + k[1] * s[1] * s[1] + two * k[2] * s[0] * s[1];
    sks.simd_gt(F4::ZERO).select(ss / sks, F4::ZERO)
}

/// The `prepared.rs` spread in lanes, applied to the lanes of `mask` (all bits set) only.
fn spread<const D: usize>(points: &mut [WidePoint<D>], z: &[F4; 4], mask: F4)
where
    Space<D>: Dim<D>,
{
    let zero = F4::ZERO;
    let mut along = zero;
    let (mut lo, mut hi) = (F4::splat(Real::NEG_INFINITY), F4::splat(Real::INFINITY));
    for (p, &zi) in points.iter().zip(z) {
        let l = p.normal_impulse;
        along += zi * l;
        let ratio = l / zi;
        hi = zi.simd_gt(zero).select(hi.min(ratio), hi);
        lo = zi.simd_lt(zero).select(lo.max(ratio), lo);
    }
    let alpha = along.max(lo).min(hi);
    for (p, &zi) in points.iter_mut().zip(z) {
        let spread = (p.normal_impulse - alpha * zi).max(zero);
        p.normal_impulse = mask.select(spread, p.normal_impulse);
    }
}

impl<const D: usize> WideWork<D>
where
    Space<D>: Dim<D>,
{
    /// Stage: the prepared contacts of each colour (`colours`: its range of `contacts` and
    /// whether it is serial) packed four to a bundle, over the last step's memory, and the
    /// bundles' points prepared in lanes from `sources`.
    pub(crate) fn pack(
        &mut self,
        colours: impl Iterator<Item = (Range<usize>, bool)>,
        contacts: &[Prepared<D>],
        sources: &Sources<'_, D>,
    ) {
        self.bundles.clear();
        self.colours.clear();
        self.singles.clear();
        self.lane_of.clear();
        self.lane_of.resize(contacts.len(), SINGLE);
        let mut slots = 0;
        for (range, serial) in colours {
            let (bundles, singles) = (self.bundles.len(), self.singles.len());
            let mut lane = [0u32; LANES];
            let mut used = 0;
            for i in range {
                if serial || contacts[i].passes != 1 || contacts[i].tangent_velocity != [0.0; 2] {
                    self.singles.push(i as u32);
                    continue;
                }
                lane[used] = i as u32;
                used += 1;
                if used == LANES {
                    slots = self.lay_out(&lane[..used], contacts, slots);
                    used = 0;
                }
            }
            if used > 0 {
                slots = self.lay_out(&lane[..used], contacts, slots);
            }
            let done = (bundles..self.bundles.len(), singles..self.singles.len());
            self.colours.push(done);
        }
        // Every lane of every slot is written by the fill, so last step's slots are kept.
        self.points.truncate(slots);
        self.points.resize(slots, WidePoint::zero());
        fill(&mut self.bundles, &mut self.points, 0, contacts, sources);
    }

    /// True when prepared contact `index`, `p`, needs its scalar points: it is solved by the
    /// scalar passes, or it bounces (restitution reads its points).
    pub(crate) fn needs_scalar_points(&self, index: usize, p: &Prepared<D>) -> bool {
        self.lane_of[index] == SINGLE || unpacked(p)
    }

    /// A bundle for the contacts `lane`, its point slots from `slot`; returns the next slot.
    fn lay_out(&mut self, lane: &[u32], contacts: &[Prepared<D>], slot: usize) -> usize {
        let count = lane
            .iter()
            .map(|&i| contacts[i as usize].count)
            .max()
            .unwrap_or(0);
        let mut bundle = Bundle::empty(&contacts[lane[0] as usize], slot as u32, count);
        bundle.contacts[..lane.len()].copy_from_slice(lane);
        let first_lane = (self.bundles.len() * LANES) as u32;
        for (k, &i) in lane.iter().enumerate() {
            self.lane_of[i as usize] = first_lane + k as u32;
        }
        bundle.lanes = lane.len() as u8;
        self.bundles.push(bundle);
        slot + count as usize
    }

    /// Writes the impulses of prepared contact `index` into the caller's contact `c` from its
    /// lane, and returns true; false when the contact is not in a lane or was unpacked to its
    /// scalar points (see [`Self::unpack`]), which then hold them.
    pub(crate) fn store(
        &self,
        index: usize,
        p: &Prepared<D>,
        c: &mut ContactConstraint<D>,
    ) -> bool {
        if self.needs_scalar_points(index, p) {
            return false;
        }
        let lane = self.lane_of[index];
        let (bundle, k) = (lane as usize / LANES, lane as usize % LANES);
        let slots = &self.points[self.bundles[bundle].points()];
        for (slot, q) in slots.iter().zip(c.points.iter_mut()) {
            slot.store(k, q);
        }
        true
    }

    /// Stage: the impulses of the bundled contacts that restitution works on back into their
    /// scalar points (`points`, in the contacts' order), contact by contact, halving over
    /// rayon's threads down to `task` contacts. The others go from their lanes straight to
    /// the caller ([`Self::store`]).
    pub(crate) fn unpack(
        &self,
        contacts: &[Prepared<D>],
        points: &mut [PreparedPoint<D>],
        task: usize,
    ) {
        self.unpack_range(contacts, &self.lane_of, points, task);
    }

    /// [`Self::unpack`] of `contacts` with their `lane_of` entries; `points` starts at the
    /// first one's first point.
    fn unpack_range(
        &self,
        contacts: &[Prepared<D>],
        lane_of: &[u32],
        points: &mut [PreparedPoint<D>],
        task: usize,
    ) {
        let Some(first) = contacts.first() else {
            return;
        };
        let base = first.first as usize;
        if contacts.len() <= task {
            for (c, &lane) in contacts.iter().zip(lane_of) {
                if lane == SINGLE || !unpacked(c) {
                    continue;
                }
                let (bundle, k) = (lane as usize / LANES, lane as usize % LANES);
                let slots = &self.points[self.bundles[bundle].points()];
                let start = c.first as usize - base;
                let mine = &mut points[start..start + c.count as usize];
                for (slot, p) in slots.iter().zip(mine) {
                    slot.scatter(k, p);
                }
            }
            return;
        }
        let half = contacts.len() / 2;
        let (lo, hi) = contacts.split_at(half);
        let (lo_lanes, hi_lanes) = lane_of.split_at(half);
        let (lo_points, hi_points) = points.split_at_mut(hi[0].first as usize - base);
        rayon::join(
            || self.unpack_range(lo, lo_lanes, lo_points, task),
            || self.unpack_range(hi, hi_lanes, hi_points, task),
        );
    }
}

/// True for a bundled contact whose impulses go back to its scalar points after the
/// substeps: the restitution stage reads and changes those.
fn unpacked<const D: usize>(c: &Prepared<D>) -> bool
where
    Space<D>: Dim<D>,
{
    c.restitution != 0.0
}

/// Bundles per parallel task of the fill.
const FILL_TASK: usize = 64;

/// Fills `bundles` and their point slots (`slots`, from slot `base`) from the prepared
/// contacts, halving the range over rayon's threads down to [`FILL_TASK`] bundles.
fn fill<const D: usize>(
    bundles: &mut [Bundle<D>],
    slots: &mut [WidePoint<D>],
    base: usize,
    contacts: &[Prepared<D>],
    sources: &Sources<'_, D>,
) where
    Space<D>: Dim<D>,
{
    if bundles.len() <= FILL_TASK {
        kernel::run(FillLoop {
            bundles,
            slots,
            base,
            contacts,
            sources,
        });
        return;
    }
    let (lo, hi) = bundles.split_at_mut(bundles.len() / 2);
    let mid = hi[0].points().start;
    let (lo_slots, hi_slots) = slots.split_at_mut(mid - base);
    rayon::join(
        || fill(lo, lo_slots, base, contacts, sources),
        || fill(hi, hi_slots, mid, contacts, sources),
    );
}

/// [`fill`]'s serial part: each bundle in turn, in the build for this processor
/// (`kernel.rs`).
struct FillLoop<'a, 's, const D: usize>
where
    Space<D>: Dim<D>,
{
    bundles: &'a mut [Bundle<D>],
    slots: &'a mut [WidePoint<D>],
    base: usize,
    contacts: &'a [Prepared<D>],
    sources: &'a Sources<'s, D>,
}

impl<const D: usize> Kernel for FillLoop<'_, '_, D>
where
    Space<D>: Dim<D>,
{
    #[inline(always)]
    fn run(self) {
        for b in self.bundles {
            let range = b.points();
            let slots = &mut self.slots[range.start - self.base..range.end - self.base];
            b.fill(slots, self.contacts, self.sources);
        }
    }
}

impl<const D: usize> Bundle<D>
where
    Space<D>: Dim<D>,
{
    /// Every lane of the bundle from its contacts, and its `slots` prepared in lanes (what
    /// [`Prepared::prepare_points`] does, lane by lane with the same bits); a lane without a
    /// contact, or without a point in a slot, gets zeros.
    #[inline(always)]
    fn fill(
        &mut self,
        slots: &mut [WidePoint<D>],
        contacts: &[Prepared<D>],
        sources: &Sources<'_, D>,
    ) {
        let mut points: [&[ContactPoint<D>]; LANES] = [&[]; LANES];
        for (k, mine) in points.iter_mut().enumerate().take(self.lanes as usize) {
            let index = self.contacts[k];
            self.set_lane(k, index, &contacts[index as usize]);
            *mine = &sources.constraints[sources.order[index as usize] as usize].points;
        }
        let bodies = BodyLanes::gather(&self.body_a, &self.body_b, sources.bodies);
        let zero = PreparedPoint::zero();
        for (j, slot) in slots.iter_mut().enumerate() {
            *slot = self.prepare_slot(j, &points, &bodies);
            for (k, mine) in points.iter().enumerate() {
                if mine.len() <= j {
                    slot.set_lane(k, &zero);
                }
            }
        }
    }

    /// Point slot `j` of every lane (`points`: each lane's contact points, an unused lane's
    /// come out as garbage for the caller to zero).
    #[inline(always)]
    fn prepare_slot(
        &self,
        j: usize,
        points: &[&[ContactPoint<D>]; LANES],
        bodies: &BodyLanes<D>,
    ) -> WidePoint<D> {
        let none = ContactPoint::new(Vector::zeros(), 0.0, 0);
        let p: [&ContactPoint<D>; LANES] =
            std::array::from_fn(|k| points[k].get(j).unwrap_or(&none));
        let anchor = lanes::vector_gather(p.map(|p| &p.anchor));
        let r_a = lanes::vector_sub(&anchor, &bodies.center[0]);
        let r_b = lanes::vector_sub(&anchor, &bodies.center[1]);
        let inertia = [&bodies.inv_inertia[0], &bodies.inv_inertia[1]];
        let row = |d: &Vector4x<D>| WideRow::new([&r_a, &r_b], d, inertia);
        let normal_row = row(&self.normal);
        let one = F4::ONE;
        let k = normal_row.inverse_mass(&normal_row, one, &self.inv_mass);
        let [t0, t1] = &self.tangents;
        let rows = if D == 2 {
            [row(t0); 2]
        } else {
            [row(t0), row(t1)]
        };
        let k00 = rows[0].inverse_mass(&rows[0], one, &self.inv_mass);
        let tangent_k = if D == 2 {
            [k00; 3]
        } else {
            [
                k00,
                rows[1].inverse_mass(&rows[1], one, &self.inv_mass),
                rows[0].inverse_mass(&rows[1], lanes::vector_dot(t0, t1), &self.inv_mass),
            ]
        };
        let separation = F4::new(p.map(|p| p.separation));
        let offset = lanes::vector_dot(&self.normal, &lanes::vector_sub(&r_b, &r_a));
        WidePoint {
            normal_impulse: F4::new(p.map(|p| p.normal_impulse)),
            tangent_impulse: [0, 1].map(|t| F4::new(p.map(|p| p.tangent_impulse[t]))),
            total_normal_impulse: F4::ZERO,
            max_normal_impulse: F4::ZERO,
            local_r_a: L::<D>::inverse_rotate(&bodies.rotation[0], &r_a),
            local_r_b: L::<D>::inverse_rotate(&bodies.rotation[1], &r_b),
            base_separation: separation - offset,
            normal_mass: reciprocal_or_zero(k),
            normal_row,
            tangent_rows: rows,
            tangent_k,
            tangent_mass: reciprocal_or_zero(k00),
        }
    }

    /// A bundle with no real lane, whose unused lanes use `first`'s bodies, and `count`
    /// point slots from slot `slot`.
    fn empty(first: &Prepared<D>, slot: u32, count: u8) -> Self {
        let v = [F4::ZERO; D];
        Self {
            contacts: [0; LANES],
            lanes: 0,
            body_a: [first.body_a as u32; LANES],
            body_b: [first.body_b as u32; LANES],
            max_body: first.body_a.max(first.body_b) as u32,
            normal: v,
            tangents: [v; 2],
            friction: F4::ZERO,
            bias_rate: F4::ZERO,
            mass_scale: F4::ZERO,
            impulse_scale: F4::ZERO,
            inv_mass: [F4::ZERO; 2],
            null: [F4::ZERO; 4],
            spreads: F4::ZERO,
            first: slot,
            count,
        }
    }

    /// Lane `k` set to prepared contact `index`, `c`.
    fn set_lane(&mut self, k: usize, index: u32, c: &Prepared<D>) {
        let set = |x: &mut F4, v: Real| x.as_mut_array()[k] = v;
        self.contacts[k] = index;
        self.body_a[k] = c.body_a as u32;
        self.body_b[k] = c.body_b as u32;
        self.max_body = self.max_body.max(c.body_a.max(c.body_b) as u32);
        lanes::vector_set_lane(&mut self.normal, k, &c.normal);
        lanes::vector_set_lane(&mut self.tangents[0], k, &c.tangents[0]);
        lanes::vector_set_lane(&mut self.tangents[1], k, &c.tangents[1]);
        set(&mut self.friction, c.friction);
        set(&mut self.bias_rate, c.softness.bias_rate);
        set(&mut self.mass_scale, c.softness.mass_scale);
        set(&mut self.impulse_scale, c.softness.impulse_scale);
        set(&mut self.inv_mass[0], c.inv_mass[0]);
        set(&mut self.inv_mass[1], c.inv_mass[1]);
        for (x, &v) in self.null.iter_mut().zip(&c.null) {
            set(x, v);
        }
        // All bits set: a mask lane.
        let spreads = c.count as usize == MAX_MANIFOLD_POINTS && c.null != [0.0; 4];
        set(
            &mut self.spreads,
            f32::from_bits(if spreads { u32::MAX } else { 0 }),
        );
    }

    /// The bundle's point slots, as a range of the step's wide points.
    pub(crate) fn points(&self) -> Range<usize> {
        self.first as usize..self.first as usize + self.count as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::body::Motion;
    use crate::colour::run_bundles;
    use crate::contact::{ContactConstraint, ContactPoint};
    use crate::solver::SolverSettings;
    use fathom_math::Vector;
    use nalgebra::SMatrix;

    /// A small linear congruential generator: the test needs varied numbers, not good ones.
    struct Numbers(u64);

    impl Numbers {
        /// Uniform in `[lo, hi)`.
        fn next(&mut self, lo: Real, hi: Real) -> Real {
            self.0 = self
                .0
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            lo + (hi - lo) * ((self.0 >> 40) as Real / (1u64 << 24) as Real)
        }

        fn vector<const D: usize>(&mut self, size: Real) -> Vector<D> {
            Vector::from_fn(|_, _| self.next(-size, size))
        }
    }

    /// `lanes` contacts between distinct dynamic bodies (one lane against a static body),
    /// with 1 to the dimension's most points, random poses, velocities, gaps and warm starts.
    fn scene<const D: usize>(
        lanes: usize,
        seed: u64,
    ) -> (
        Vec<SolverBody<D>>,
        Vec<ContactConstraint<D>>,
        Vec<Prepared<D>>,
        Vec<PreparedPoint<D>>,
    )
    where
        Space<D>: Dim<D>,
    {
        let mut n = Numbers(seed);
        let unit = Space::<D>::inertia_from_second_moment(&SMatrix::identity());
        let mut bodies: Vec<SolverBody<D>> = (0..2 * lanes + 1)
            .map(|i| {
                let motion = if i == 2 * lanes {
                    Motion::Static
                } else {
                    Motion::Dynamic
                };
                let spin = Space::<D>::cross(&n.vector(1.0), &n.vector(1.0));
                let rotation = Space::<D>::rotation_from_scaled_axis(&spin);
                let inertia = Space::<D>::inertia_scale(&unit, n.next(0.5, 3.0));
                let mut b =
                    SolverBody::new(motion, n.vector(2.0), rotation, n.next(0.2, 2.0), inertia);
                if motion == Motion::Dynamic {
                    b.linear_velocity = n.vector(3.0);
                    b.angular_velocity = Space::<D>::cross(&n.vector(1.5), &n.vector(1.5));
                    b.delta_position = n.vector(0.01);
                }
                b
            })
            .collect();
        bodies.iter_mut().for_each(|b| {
            b.inv_inertia = Space::<D>::inertia_rotated(&b.inv_inertia_local, &b.rotation);
        });
        let most = if D == 2 { 2 } else { MAX_MANIFOLD_POINTS };
        let ctx = SolverSettings::default().context(1.0 / 60.0);
        let (mut constraints, mut contacts, mut points) = (Vec::new(), Vec::new(), Vec::new());
        for k in 0..lanes {
            let (a, b) = if k == 1 {
                (2 * lanes, 2 * k + 1)
            } else {
                (2 * k, 2 * k + 1)
            };
            let count = if k == 0 {
                most
            } else {
                1 + (k * 3 + seed as usize) % most
            };
            let normal = n.vector::<D>(1.0).normalize();
            // B closes on A along the normal, so that most points take load.
            bodies[b].linear_velocity -= normal * 4.0;
            let middle = (bodies[a].center + bodies[b].center) * 0.5;
            let c = ContactConstraint::new(
                a,
                b,
                normal,
                n.next(0.1, 1.0),
                // Odd lanes bounce: their impulses go back through the scalar points.
                if k % 2 == 1 { 0.4 } else { 0.0 },
                (0..count).map(|j| {
                    let mut p =
                        ContactPoint::new(middle + n.vector(0.5), n.next(-0.03, 0.01), j as u32);
                    p.normal_impulse = n.next(0.0, 0.2);
                    p.tangent_impulse = [n.next(-0.05, 0.05), n.next(-0.05, 0.05)];
                    p
                }),
            );
            let first = points.len();
            points.resize(first + count, PreparedPoint::zero());
            let mut prepared =
                Prepared::new(&c, &bodies, &ctx, &Vector::zeros(), &mut points[first..]);
            prepared.first = first as u32;
            contacts.push(prepared);
            constraints.push(c);
        }
        (bodies, constraints, contacts, points)
    }

    /// The wide warm start, solve and relax passes give every body and impulse the bits the
    /// scalar passes give, with full and partly filled bundles, in 2D and 3D.
    fn wide_matches_scalar<const D: usize>()
    where
        Space<D>: Dim<D>,
    {
        let ctx = SolverSettings::default().context(1.0 / 60.0);
        let (mut loaded, mut total) = (0, 0);
        for (lanes, seed) in [(4, 1), (4, 7), (3, 2), (1, 5), (4, 11)] {
            let (mut scalar_bodies, mut constraints, contacts, mut scalar_points) =
                scene::<D>(lanes, seed);
            let (mut wide_bodies, mut wide_points) = (scalar_bodies.clone(), scalar_points.clone());
            {
                let view = BodyView::new(&mut scalar_bodies);
                for c in &contacts {
                    let range = c.first as usize..c.first as usize + c.count as usize;
                    c.warm_start(&scalar_points[range.clone()], &view);
                    for use_bias in [true, false] {
                        c.solve_normal(&mut scalar_points[range.clone()], &view, &ctx, use_bias);
                        c.solve_friction(&mut scalar_points[range.clone()], &view);
                    }
                }
            }
            // The bundle prepares its points in lanes: the passes below also check that
            // it gives the scalar prepare's bits.
            let mut work = WideWork::default();
            let order: Vec<u32> = (0..lanes as u32).collect();
            let sources = Sources {
                order: &order,
                constraints: &constraints,
                bodies: &wide_bodies,
            };
            work.pack(std::iter::once((0..lanes, false)), &contacts, &sources);
            assert_eq!(work.bundles.len(), 1);
            {
                // Through the solver's own loop, so the processor-specific build (AVX2 where
                // there is one) is the one checked.
                let view = BodyView::new(&mut wide_bodies);
                let (bundles, slots) = (&work.bundles, &mut work.points);
                run_bundles(bundles, slots, 0, &WidePass::WarmStart(&view));
                for use_bias in [true, false] {
                    run_bundles(bundles, slots, 0, &WidePass::Solve(&view, &ctx, use_bias));
                }
            }
            // The bouncing lanes go back to their scalar points, the others straight to
            // the caller's contacts.
            work.unpack(&contacts, &mut wide_points, 1);
            for (i, (p, c)) in contacts.iter().zip(&mut constraints).enumerate() {
                let range = p.first as usize..p.first as usize + p.count as usize;
                if !work.store(i, p, c) {
                    p.store(&wide_points[range], c);
                }
            }
            let stored = constraints.iter().flat_map(|c| c.points.iter());
            for (s, w) in scalar_bodies.iter().zip(&wide_bodies) {
                assert_eq!(
                    s.linear_velocity, w.linear_velocity,
                    "{D}D {lanes} lanes, seed {seed}"
                );
                assert_eq!(
                    s.angular_velocity, w.angular_velocity,
                    "{D}D {lanes} lanes, seed {seed}"
                );
            }
            for (s, w) in scalar_points.iter().zip(stored) {
                assert_eq!(s.normal_impulse, w.normal_impulse);
                assert_eq!(s.tangent_impulse, w.tangent_impulse);
                assert_eq!(s.max_normal_impulse, w.max_normal_impulse);
            }
            loaded += scalar_points
                .iter()
                .filter(|p| p.normal_impulse > 0.0)
                .count();
            total += scalar_points.len();
        }
        // Most points must take load, or the comparison says little about the passes.
        assert!(
            2 * loaded > total,
            "{D}D: {loaded} of {total} points loaded"
        );
    }

    #[test]
    fn wide_passes_match_the_scalar_passes_2d() {
        wide_matches_scalar::<2>();
    }

    #[test]
    fn wide_passes_match_the_scalar_passes_3d() {
        wide_matches_scalar::<3>();
    }
}
