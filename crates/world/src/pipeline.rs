//! The step, in stages:
//!
//! 1. collider poses and boxes (margin + motion over the step),
//! 2. broadphase pairs (sorted by collider key, filtered to pairs that can touch),
//! 3. narrowphase manifolds, computed in parallel with rayon and collected in
//!    pair order (so the result is the same for any thread count),
//! 4. contact constraints, warm-started from last step's impulses by point id,
//! 5. the soft-step solver (substeps, friction, restitution),
//! 6. poses and velocities written back; the contact cache keeps the impulses.
//!
//! Collision groups, sensors and the pair hook filter pairs before stage 3
//! (`filter.rs`); the solver freezes bodies whose state stops being finite and
//! 6a leaves them out (`guards.rs`); continuous collision runs after 6a (`ccd_stage.rs`) and
//! events last (`events.rs`). Sleeping bodies skip stages 1, 3 and 5; islands
//! touched in stage 3 wake before the solver, joints are solved with the
//! contacts in stage 5, and islands are rebuilt (and calm ones put to sleep)
//! at the very end (`islands.rs`, `joints.rs`).

use crate::arena::{ColliderHandle, RawHandle};
use crate::body::Collider;
use crate::contacts::{CachedManifold, CachedPoint, PairContacts};
use crate::desc::BodyKind;
use crate::islands::{ColliderMotion, Found};
use crate::profile::{Laps, StepProfile};
use crate::reuse::{reusable_shape, PairBasis, SeparatedPair};
use crate::scratch::{PairJob, StepScratch};
use crate::world::World;
use fathom_broadphase::ProxyKind;
use fathom_math::{Aabb, Dim, Pose, Real, Space, Vector};
use fathom_narrowphase::{ContactOptions, Manifold};
use fathom_sdf::{Sdf, Shape};
use fathom_solver::{ContactConstraint, ContactPoint, SolverBody, SolverInput};
use rayon::prelude::*;

/// The world box of `shape` at `pose`, grown by `margin`.
pub(crate) fn collider_aabb<const D: usize>(
    shape: &Shape<D>,
    pose: &Pose<D>,
    margin: Real,
) -> Aabb<D>
where
    Space<D>: Dim<D>,
{
    shape.bounds().transformed(pose).loosened(margin)
}

/// Adds collider `h` to the broadphase in its body's group: the colliders of one body never
/// pair.
pub(crate) fn insert_proxy<const D: usize>(
    broadphase: &mut fathom_broadphase::Broadphase<D>,
    h: ColliderHandle,
    c: &Collider<D>,
    kind: ProxyKind,
) where
    Space<D>: Dim<D>,
{
    let key = h.0.to_bits();
    broadphase
        .insert(key, c.aabb, kind)
        .expect("a new key with a valid box is accepted");
    broadphase
        .set_group(key, Some(c.body.0.to_bits()))
        .expect("just inserted");
}

impl<const D: usize> World<D>
where
    Space<D>: Dim<D>,
{
    /// Advances the world by one step of `settings().dt` seconds.
    ///
    /// Every stage fills a buffer of the world's step scratch (`scratch.rs`): a settled
    /// scene's step reuses the last step's memory.
    ///
    /// A world large enough for its stages to share work out steps on one of rayon's threads:
    /// each stage's hand-off from a thread outside the pool (a game's main loop) would be a
    /// sleep and a wake; from inside, the stages split their work without either.
    pub fn step(&mut self) {
        let large = self.pairs.len() > PAIR_TASK || self.bodies.len() > PAIR_TASK;
        if large && rayon::current_thread_index().is_none() {
            rayon::scope(|_| self.step_here());
        } else {
            self.step_here();
        }
    }

    fn step_here(&mut self) {
        let mut laps = Laps::start();
        let mut p = StepProfile::default();
        let mut scratch = std::mem::take(&mut self.scratch);
        self.drive_kinematic_targets();
        self.ensure_broadphase();
        self.ensure_sweep_sizes();
        self.start_poses(&mut scratch.start_poses);
        self.update_collider_boxes();
        self.update_pairs(&mut scratch.pairs);
        laps.lap(&mut p.broadphase);
        (p.reused_pairs, p.separated_pairs) = self.find_manifolds(&mut scratch);
        std::mem::swap(&mut self.separated, &mut scratch.separated);
        laps.lap(&mut p.narrowphase);
        let mut manifolds = std::mem::take(&mut scratch.found);
        self.wake_touched(&mut manifolds, &scratch.motion);
        self.solver_bodies(&mut scratch.bodies, &mut scratch.index);
        self.contact_constraints(&manifolds, &mut scratch);
        self.modify_contacts(&manifolds, &mut scratch.constraints);
        let (solver_bodies, index) = (&mut scratch.bodies, &scratch.index);
        let mut joints = self.joint_constraints(index, solver_bodies);
        let mut joint_refs = crate::joints::as_constraints(&mut joints);
        (p.candidate_pairs, p.touching_pairs) = (self.pairs.len(), manifolds.len());
        (p.contact_constraints, p.joints) = (scratch.constraints.len(), joint_refs.len());
        p.awake_bodies = solver_bodies
            .iter()
            .filter(|b| b.motion == fathom_solver::Motion::Dynamic)
            .count();
        let settings = self.settings.solver;
        let input = SolverInput {
            gravity: self.settings.gravity,
            bodies: solver_bodies,
            contacts: &mut scratch.constraints,
            constraints: &mut joint_refs,
        };
        laps.lap(&mut p.solver_setup);
        fathom_solver::step_with(&settings, self.settings.dt, input, &mut scratch.solver);
        p.colours = scratch.solver.colour_count();
        laps.lap(&mut p.solver);
        self.write_back_bodies(solver_bodies, index);
        self.finish_joints(&joints, solver_bodies);
        self.record_solved(solver_bodies);
        laps.lap(&mut p.write_back);
        self.continuous_collision(&scratch.start_poses, &mut scratch.sweeps);
        laps.lap(&mut p.continuous);
        let cache_changed = self.cache_contacts(&mut manifolds, &mut scratch);
        self.update_events(cache_changed, &mut scratch.touching);
        laps.lap(&mut p.contacts_events);
        self.update_islands(&manifolds);
        scratch.recycle(manifolds);
        self.scratch = scratch;
        // A restored count may be near u64::MAX: it wraps, as a frame counter does.
        self.step_count = self.step_count.wrapping_add(1);
        laps.lap(&mut p.islands);
        p.total = laps.total();
        self.profile = p;
    }

    /// Stage 0: after deserialisation the broadphase is rebuilt from the colliders.
    pub(crate) fn ensure_broadphase(&mut self) {
        if self.broadphase_ready {
            return;
        }
        self.broadphase = fathom_broadphase::Broadphase::new();
        self.pairs.clear();
        for (h, c) in self.colliders.iter() {
            let kind = self.proxy_kind(c);
            insert_proxy(&mut self.broadphase, h, c, kind);
        }
        self.broadphase_ready = true;
    }

    fn proxy_kind(&self, c: &Collider<D>) -> ProxyKind {
        match self.bodies.get(c.body).map(|b| b.kind) {
            Some(BodyKind::Fixed) => ProxyKind::Static,
            _ => ProxyKind::Dynamic,
        }
    }

    /// Stage 1: world poses and boxes of the colliders of moving bodies. The box
    /// covers the shape (plus margin) now and where it will be after a step at
    /// the current velocity, so fast bodies get their pairs in time.
    fn update_collider_boxes(&mut self) {
        let dt = self.settings.dt;
        let sleep = &self.sleep;
        for (_, b) in self
            .bodies
            .iter()
            .filter(|(h, b)| b.kind != BodyKind::Fixed && !sleep.sleeping(*h))
        {
            let motion = b.linear_velocity * dt;
            for &ch in &b.colliders {
                let Some(c) = self.colliders.get_mut(ch) else {
                    continue;
                };
                c.world_pose = b.pose * c.local_pose;
                let now = collider_aabb(&c.shape, &c.world_pose, c.margin);
                // Rotation sweeps points at most |w| dt times their distance from the centre.
                let spin = Space::<D>::ang_norm(&b.angular_velocity) * dt * now.radius();
                let swept = now
                    .merge(&now.translated(&motion))
                    .loosened(spin.min(now.radius()));
                c.aabb = swept;
                // The key was inserted with the collider and the box is finite.
                let _ = self
                    .broadphase
                    .update_moving(ch.0.to_bits(), swept, &motion);
            }
        }
    }

    /// Stage 2: broadphase pair changes merged into the sorted candidate list (through
    /// `spare`, the list before last, emptied).
    fn update_pairs(&mut self, spare: &mut Vec<(u64, u64)>) {
        let changes = self.broadphase.update_pairs();
        if changes.is_empty() {
            return;
        }
        spare.clear();
        merge_pair_changes(&self.pairs, &changes.ended, &changes.began, spare);
        std::mem::swap(&mut self.pairs, spare);
    }

    /// The candidate pairs that can produce contacts: different bodies, at least one
    /// dynamic, tight boxes overlapping. In key (handle) order, in runs of [`PAIR_TASK`]
    /// pairs found in parallel, each into its buffer of `parts`; returns how many runs.
    fn pair_jobs(&self, parts: &mut Vec<Vec<PairJob<D>>>, motion: &mut ColliderMotion) -> usize {
        self.collider_motion(motion);
        let motion = &*motion;
        let runs = self.pairs.len().div_ceil(PAIR_TASK).max(1);
        if parts.len() < runs {
            parts.resize_with(runs, Vec::new);
        }
        if runs == 1 {
            parts[0].clear();
            self.jobs_of(&self.pairs, motion, &mut parts[0]);
            return 1;
        }
        self.pairs
            .par_chunks(PAIR_TASK)
            .zip(parts.par_iter_mut())
            .for_each(|(pairs, out)| {
                out.clear();
                self.jobs_of(pairs, motion, out);
            });
        runs
    }

    /// [`Self::pair_jobs`] of a sorted run of candidate pairs, into `out`.
    fn jobs_of(&self, pairs: &[(u64, u64)], motion: &ColliderMotion, out: &mut Vec<PairJob<D>>) {
        let dt = self.settings.dt;
        let Some(&first) = pairs.first() else {
            return;
        };
        // The pairs, the cache and the separated pairs are in key order: one walk from the
        // run's first pair finds each.
        let mut cached = self.contacts.partition_point(|p| p.key() < first);
        let mut apart = self.separated.partition_point(|p| p.key() < first);
        for &(ka, kb) in pairs {
            let a = ColliderHandle(RawHandle::from_bits(ka));
            let b = ColliderHandle(RawHandle::from_bits(kb));
            // Most pairs of a resting scene: checked before anything is looked up.
            if !(motion.moves(a) || motion.moves(b)) {
                continue;
            }
            let (Some(ca), Some(cb)) = (self.colliders.get(a), self.colliders.get(b)) else {
                continue;
            };
            let (Some(ba), Some(bb)) = (self.bodies.get(ca.body), self.bodies.get(cb.body)) else {
                continue;
            };
            if !(ba.is_dynamic() || bb.is_dynamic())
                || self.joint_blocks_contact(ca.body, cb.body)
                || !ca.aabb.intersects(&cb.aabb)
                || !self.contact_allowed(a, ca, b, cb)
            {
                continue;
            }
            // Speculative reach: the margin plus how far the two can close in one step.
            let closing = (ba.linear_velocity - bb.linear_velocity).norm() * dt;
            let margin = ca.margin.max(cb.margin) + closing;
            // A closing speed whose square overflows (a restored 1e30 m/s): no finite reach,
            // so no contact query; the step's non-finite guard deals with the body.
            if !margin.is_finite() {
                continue;
            }
            out.push(PairJob {
                a,
                b,
                pose_a: ca.world_pose,
                pose_b: cb.world_pose,
                margin,
                cached: seek(&self.contacts, &mut cached, (ka, kb), PairContacts::key),
                separated: seek(&self.separated, &mut apart, (ka, kb), SeparatedPair::key),
            });
        }
    }

    /// Stage 3: narrowphase manifolds of every candidate pair, in parallel, each into its
    /// own reused buffer, gathered into `scratch.found` in pair order; the pairs found apart
    /// into `scratch.separated`. Returns how many pairs reused last step's manifolds, and how
    /// many were known apart without a query.
    fn find_manifolds(&self, scratch: &mut StepScratch<D>) -> (usize, usize) {
        let runs = self.pair_jobs(&mut scratch.job_parts, &mut scratch.motion);
        scratch.found.clear();
        scratch.separated.clear();
        let total = scratch.job_parts[..runs].iter().map(Vec::len).sum();
        if total == 0 {
            // Not even rayon's hand-off: a resting scene's step does no collision.
            return (0, 0);
        }
        scratch.buffers_for(total);
        let parts = &scratch.job_parts[..runs];
        self.manifolds_of_runs(
            parts,
            &mut scratch.buffers[..total],
            &mut scratch.raw[..total],
            &mut scratch.bases[..total],
        );
        let outs = scratch.buffers.iter_mut().zip(scratch.bases.iter_mut());
        let (mut reused, mut apart) = (0, 0);
        for (k, (j, (out, basis))) in parts.iter().flatten().zip(outs).enumerate() {
            let (basis, carried) = std::mem::take(basis);
            if !out.is_empty() {
                reused += usize::from(carried);
                let pair = PairContacts {
                    a: j.a,
                    b: j.b,
                    manifolds: std::mem::take(out),
                    basis,
                };
                scratch.found.push(pair, j.cached, Some(k));
            } else if let Some(basis) = basis {
                apart += usize::from(carried);
                scratch.separated.push(SeparatedPair {
                    a: j.a,
                    b: j.b,
                    basis,
                });
            }
        }
        (reused, apart)
    }

    /// Every job's manifolds ([`Self::pair_manifolds`]) into its buffers, the runs split
    /// over rayon's threads; `buffers`, `raw` and `bases` are the jobs', in order.
    fn manifolds_of_runs(
        &self,
        runs: &[Vec<PairJob<D>>],
        buffers: &mut [Vec<CachedManifold<D>>],
        raw: &mut [Vec<Manifold<D>>],
        bases: &mut [(Option<PairBasis<D>>, bool)],
    ) {
        if let [jobs] = runs {
            let outs = buffers.iter_mut().zip(raw.iter_mut()).zip(bases.iter_mut());
            for (j, ((out, raw), basis)) in jobs.iter().zip(outs) {
                out.clear();
                *basis = self.pair_manifolds(j, out, raw);
            }
            return;
        }
        let mid = runs.len() / 2;
        let n = runs[..mid].iter().map(Vec::len).sum();
        let (b0, b1) = buffers.split_at_mut(n);
        let (r0, r1) = raw.split_at_mut(n);
        let (s0, s1) = bases.split_at_mut(n);
        rayon::join(
            || self.manifolds_of_runs(&runs[..mid], b0, r0, s0),
            || self.manifolds_of_runs(&runs[mid..], b1, r1, s1),
        );
    }

    /// One job's manifolds into `out`, each point with its warm start: last step's, moved with
    /// the bodies, while they still hold (`reuse.rs`); none while the pair is still known
    /// apart; otherwise the narrowphase's (through `raw`), found with a reach of
    /// `contact_reuse` more than the job's so that later steps can reuse them. Returns their
    /// basis (`None`: not reusable), and true when they were an earlier step's.
    fn pair_manifolds(
        &self,
        j: &PairJob<D>,
        out: &mut Vec<CachedManifold<D>>,
        raw: &mut Vec<Manifold<D>>,
    ) -> (Option<PairBasis<D>>, bool) {
        let reuse = self.settings.contact_reuse;
        let cached = j.cached.map(|i| &self.contacts[i]);
        if reuse > 0.0 {
            if let Some((p, basis)) = cached.and_then(|p| Some((p, p.basis.as_ref()?))) {
                if basis.holds(&j.pose_a, &j.pose_b, j.margin) {
                    let moved = basis.carry(&p.manifolds, &j.pose_a, &j.pose_b, out);
                    return (Some(moved), true);
                }
            }
            if let Some(apart) = j.separated.map(|i| &self.separated[i].basis) {
                if apart.holds(&j.pose_a, &j.pose_b, j.margin) {
                    return (Some(apart.clone()), true);
                }
            }
        }
        let collider = |h| self.colliders.get(h).expect("a job's colliders live");
        let (ca, cb) = (collider(j.a), collider(j.b));
        let (sa, sb) = (&ca.shape, &cb.shape);
        let sizes = [
            self.collider_sizes_at(j.a, ca),
            self.collider_sizes_at(j.b, cb),
        ];
        let reach = j.margin + reuse;
        let radius = sizes.map(|s| s.radius);
        // Bounding balls apart: the query would find nothing, so the pair is separated as is.
        if !(sizes.iter().all(|s| s.bounded) && balls_apart(j, radius, reach)) {
            let opts = ContactOptions {
                margin: Some(reach),
                ..ContactOptions::default()
            };
            let (da, db) = (sa as &dyn Sdf<D>, sb as &dyn Sdf<D>);
            // Shapes, poses and margins are validated on the way in; an error means a pair of
            // kinds with no contact query, so no contact.
            raw.clear();
            let query_sizes = sizes.map(|s| s.query);
            let _ = fathom_narrowphase::contacts_trusted(
                da,
                &j.pose_a,
                db,
                &j.pose_b,
                query_sizes,
                &opts,
                raw,
            );
            out.extend(raw.iter().map(|m| warm_started(m, cached)));
        }
        let reusable = out.is_empty() || (reusable_shape(sa) && reusable_shape(sb));
        let basis = (reuse > 0.0 && reusable)
            .then(|| PairBasis::fresh(&j.pose_a, &j.pose_b, reach, radius));
        (basis, false)
    }

    /// Solver bodies for every body in handle order, and the arena index -> solver index map,
    /// into `out` and `index`.
    pub(crate) fn solver_bodies(&self, out: &mut Vec<SolverBody<D>>, index: &mut Vec<usize>) {
        index.clear();
        index.resize(self.bodies.capacity_index(), usize::MAX);
        out.clear();
        for (h, b) in self.bodies.iter() {
            if self.skips_solver(h) {
                continue;
            }
            index[h.0.index as usize] = out.len();
            let motion = if b.frozen {
                fathom_solver::Motion::Static
            } else {
                b.kind.motion()
            };
            let mut sb = SolverBody::new(
                motion,
                b.center_of_mass(),
                b.pose.rotation,
                b.inv_mass,
                b.inv_inertia_local,
            )
            .with_velocity(b.linear_velocity, b.angular_velocity)
            .with_locks(b.locked_axes);
            sb.linear_damping = b.linear_damping;
            sb.angular_damping = b.angular_damping;
            sb.gravity_scale = b.gravity_scale;
            sb.force = b.force;
            sb.torque = b.torque;
            out.push(sb);
        }
    }

    /// Stage 4: one contact constraint per manifold, warm-started by point id, into
    /// `scratch.constraints`, pair by pair in parallel; `scratch.firsts` says which
    /// constraints are each pair's.
    fn contact_constraints(&self, found: &Found<D>, scratch: &mut StepScratch<D>) {
        let StepScratch {
            index,
            constraints,
            firsts,
            ..
        } = scratch;
        firsts.clear();
        let mut total = 0;
        for f in &found.pairs {
            firsts.push(total);
            total += f.manifolds.len();
        }
        firsts.push(total);
        let placeholder = ContactConstraint::new(0, 0, Vector::<D>::zeros(), 0.0, 0.0, []);
        constraints.resize(total, placeholder);
        let index = &index[..];
        for_each_pair_range(&found.pairs, firsts, constraints, &|f, out| {
            self.pair_constraints(f, index, out)
        });
    }

    /// One found pair's constraints into `out`, one per manifold.
    fn pair_constraints(
        &self,
        f: &PairContacts<D>,
        index: &[usize],
        out: &mut [ContactConstraint<D>],
    ) {
        let (ca, cb) = (
            &self.colliders.get(f.a).expect("live"),
            &self.colliders.get(f.b).expect("live"),
        );
        let friction = (ca.friction * cb.friction).sqrt();
        let restitution = ca.restitution.max(cb.restitution);
        let (ia, ib) = (
            index[ca.body.0.index as usize],
            index[cb.body.0.index as usize],
        );
        for (m, slot) in f.manifolds.iter().zip(out) {
            fill_constraint(slot, [ia, ib], m, friction, restitution);
        }
    }

    /// Stage 6a: poses and velocities back into the bodies; forces are spent.
    /// Sleeping bodies (left out of the solver, `index` = `usize::MAX`) stay as they are.
    /// A body the solver froze (its state stopped being finite) keeps its pose from before
    /// the step and is reported (`guards.rs`); nothing of it is written back.
    pub(crate) fn write_back_bodies(&mut self, solved: &[SolverBody<D>], index: &[usize]) {
        let mut frozen = Vec::new();
        for (h, b) in self.bodies.iter_mut() {
            let Some(sb) = solved.get(index[h.0.index as usize]) else {
                continue;
            };
            // A static body never moves, so the guard has nothing to freeze: an overflowing
            // impulse times its zero inverse mass is a NaN velocity it never uses.
            if sb.frozen && !b.frozen && b.kind != BodyKind::Fixed {
                crate::guards::freeze(b);
                frozen.push(h);
            } else if b.kind != BodyKind::Fixed && !b.frozen {
                let rotation = sb.rotation;
                let origin = sb.center - rotation * b.mass.center;
                // A driven kinematic body ends exactly on its target (`motion_control.rs`).
                b.pose = b
                    .kinematic_target
                    .unwrap_or_else(|| Pose::<D>::from_parts(origin.into(), rotation));
                b.linear_velocity = sb.linear_velocity;
                b.angular_velocity = sb.angular_velocity;
            }
            b.force = Vector::zeros();
            b.torque = Space::<D>::ang_zero();
        }
        self.frozen_now = frozen;
    }

    /// Stage 6b: the solved impulses go into the found pairs' manifolds, which become the
    /// cache (moved, not copied); the buffer each pair had in the old cache goes back to the
    /// job buffer its manifolds came from. Both lists are in pair order, so one merge walk carries the
    /// sleeping pairs over. Returns false when the cache is left as it was: no pair found,
    /// and every cached pair asleep already.
    fn cache_contacts(&mut self, found: &mut Found<D>, scratch: &mut StepScratch<D>) -> bool {
        let settled = found.is_empty();
        if settled && self.cache_settled {
            return false;
        }
        self.cache_settled = settled;
        let solved = &scratch.constraints[..];
        found
            .pairs
            .par_iter_mut()
            .zip(scratch.firsts.par_windows(2))
            .with_min_len(PAIR_TASK)
            .for_each(|(f, range)| {
                store_impulses(&mut f.manifolds, &solved[range[0]..range[1]]);
            });
        let mut old_cache = std::mem::take(&mut self.contacts);
        for f in &found.from {
            scratch.give_back(f, &mut old_cache);
        }
        let motion = &mut scratch.motion;
        self.collider_motion(motion);
        // A found pair has a mover, so it is never asleep: with no sleeping pair to carry
        // over, the cache is the found pairs, already in pair order, moved whole.
        let sleeping = |o: &PairContacts<D>| motion.pair_asleep(o.a, o.b);
        if motion.any_asleep() && old_cache.iter().any(sleeping) {
            let mut cache = std::mem::take(&mut scratch.cache);
            cache.clear();
            merge_sleeping(
                &mut cache,
                found.pairs.drain(..),
                old_cache.drain(..),
                motion,
            );
            self.contacts = cache;
            scratch.cache = old_cache;
        } else {
            // The old cache's list, emptied, is the next step's found list.
            old_cache.clear();
            self.contacts = std::mem::replace(&mut found.pairs, old_cache);
        }
        true
    }
}

/// True when the balls of `radius` about the job's two origins are farther apart than `reach`
/// (metres), with room for the round-off of the test: the shapes inside them are too, so a
/// contact query would find nothing. Most pairs a falling pile's broadphase reports are.
fn balls_apart<const D: usize>(j: &PairJob<D>, radius: [Real; 2], reach: Real) -> bool
where
    Space<D>: Dim<D>,
{
    let apart = (j.pose_b.translation.vector - j.pose_a.translation.vector).norm();
    apart - (radius[0] + radius[1]) > reach + 1e-5 * (1.0 + apart)
}

/// `old` without `ended` and with `began` into `out`, all sorted (`ended` in `old`; `began`
/// not, and any that is anyway kept once).
fn merge_pair_changes(
    old: &[(u64, u64)],
    ended: &[(u64, u64)],
    began: &[(u64, u64)],
    out: &mut Vec<(u64, u64)>,
) {
    let (mut e, mut b) = (0, 0);
    for &p in old {
        while ended.get(e).is_some_and(|&x| x < p) {
            e += 1;
        }
        if ended.get(e) == Some(&p) {
            e += 1;
            continue;
        }
        while let Some(&x) = began.get(b).filter(|&&x| x <= p) {
            if x != p {
                out.push(x);
            }
            b += 1;
        }
        out.push(p);
    }
    out.extend_from_slice(&began[b..]);
}

/// This step's pairs `fresh` and the sleeping pairs of the old cache `old` into `cache`,
/// in pair order (both come in pair order); old pairs neither found nor asleep end.
fn merge_sleeping<const D: usize>(
    cache: &mut Vec<PairContacts<D>>,
    fresh: impl Iterator<Item = PairContacts<D>>,
    old: impl Iterator<Item = PairContacts<D>>,
    motion: &ColliderMotion,
) where
    Space<D>: Dim<D>,
{
    let mut old = old.peekable();
    for pair in fresh {
        let key = pair.key();
        while let Some(o) = old.next_if(|o| o.key() <= key) {
            if o.key() != key && motion.pair_asleep(o.a, o.b) {
                cache.push(o);
            }
        }
        cache.push(pair);
    }
    cache.extend(old.filter(|o| motion.pair_asleep(o.a, o.b)));
}

/// Found pairs per parallel task of the per-pair stages.
const PAIR_TASK: usize = 256;

/// `f(item, its part of out)` for every item, in parallel: item `k`'s part is
/// `firsts[k]..firsts[k + 1]` (minus `base`, where `out` starts). Halves the items over
/// rayon's threads down to [`PAIR_TASK`]; each part is written by one call, so the result
/// is the same on any number of threads.
fn for_each_pair_range<T: Sync, O: Send>(
    items: &[T],
    firsts: &[usize],
    out: &mut [O],
    f: &(impl Fn(&T, &mut [O]) + Sync),
) {
    let base = firsts[0];
    if items.len() <= PAIR_TASK {
        for (k, item) in items.iter().enumerate() {
            f(item, &mut out[firsts[k] - base..firsts[k + 1] - base]);
        }
        return;
    }
    let mid = items.len() / 2;
    let (lo, hi) = items.split_at(mid);
    let (lo_out, hi_out) = out.split_at_mut(firsts[mid] - base);
    rayon::join(
        || for_each_pair_range(lo, &firsts[..=mid], lo_out, f),
        || for_each_pair_range(hi, &firsts[mid..], hi_out, f),
    );
}

/// In a walk over `sorted` (by key) whose cursor is `at`, the index of the entry with `key`,
/// after moving the cursor past those below it (the walk's keys come in increasing order, so
/// one cursor serves every key in turn).
fn seek<T>(
    sorted: &[T],
    at: &mut usize,
    key: (u64, u64),
    key_of: impl Fn(&T) -> (u64, u64),
) -> Option<usize> {
    while sorted.get(*at).is_some_and(|x| key_of(x) < key) {
        *at += 1;
    }
    sorted.get(*at).filter(|x| key_of(x) == key).map(|_| *at)
}

/// A narrowphase manifold in the cache's form, each point warm-started with the impulses its
/// id had in the pair's `old` cache entry (none: zero).
fn warm_started<const D: usize>(m: &Manifold<D>, old: Option<&PairContacts<D>>) -> CachedManifold<D>
where
    Space<D>: Dim<D>,
{
    let points = m.points.iter().map(|p| {
        let warm = old.and_then(|o| o.warm_start(p.id));
        let (normal_impulse, friction_impulse) = warm.unwrap_or((0.0, Vector::zeros()));
        CachedPoint {
            point_a: p.point_a,
            point_b: p.point_b,
            separation: p.depth,
            id: p.id,
            normal_impulse,
            friction_impulse,
            total_normal_impulse: 0.0,
        }
    });
    CachedManifold {
        normal: m.normal,
        points: points.collect(),
    }
}

/// `slot` (last step's constraint, or a placeholder) made the constraint of manifold `m`
/// between solver bodies `bodies`, as [`ContactConstraint::new`] makes it, written in place:
/// building one and moving it in copies every point slot twice. The pattern names every
/// field, so a field the solver adds is not left stale.
fn fill_constraint<const D: usize>(
    slot: &mut ContactConstraint<D>,
    bodies: [usize; 2],
    m: &CachedManifold<D>,
    friction: Real,
    restitution: Real,
) where
    Space<D>: Dim<D>,
{
    let ContactConstraint {
        body_a,
        body_b,
        normal,
        friction: slot_friction,
        restitution: slot_restitution,
        points,
        tangents,
        tangent_velocity,
    } = slot;
    [*body_a, *body_b] = bodies;
    *normal = m.normal;
    *slot_friction = friction;
    *slot_restitution = restitution;
    *tangents = Space::<D>::tangents(&m.normal);
    *tangent_velocity = Vector::zeros();
    points.clear();
    // The friction impulse is carried over as a vector, in this step's tangents.
    let tangents = *tangents;
    points.extend(m.points.iter().map(|p| {
        let point = ContactPoint::new((p.point_a + p.point_b) * 0.5, p.separation, p.id);
        let f = &p.friction_impulse;
        point.with_warm_start(p.normal_impulse, [f.dot(&tangents[0]), f.dot(&tangents[1])])
    }));
}

/// A pair's solved impulses into its manifolds' points; friction as a world vector, which the
/// next step projects onto its own tangents.
fn store_impulses<const D: usize>(
    manifolds: &mut [CachedManifold<D>],
    solved: &[ContactConstraint<D>],
) where
    Space<D>: Dim<D>,
{
    for (m, c) in manifolds.iter_mut().zip(solved) {
        let every_point = m.points.len() == c.points.len();
        for (k, p) in m.points.iter_mut().enumerate() {
            // A contact modifier may have left points out of the solve: those take none.
            let solved = if every_point {
                c.points.get(k)
            } else {
                c.points.iter().find(|s| s.id == p.id)
            };
            let Some(s) = solved else {
                p.normal_impulse = 0.0;
                p.friction_impulse = Vector::zeros();
                p.total_normal_impulse = 0.0;
                continue;
            };
            p.normal_impulse = s.normal_impulse;
            p.friction_impulse = c.tangents[0] * s.tangent_impulse[0]
                + if D == 3 {
                    c.tangents[1] * s.tangent_impulse[1]
                } else {
                    Vector::zeros()
                };
            p.total_normal_impulse = s.total_normal_impulse;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::merge_pair_changes;
    use std::collections::BTreeSet;

    #[test]
    fn merged_pairs_are_the_set_after_the_changes() {
        // Random sorted lists against a set: removing `ended` (a subset of the old list) and
        // adding `began` (mostly new pairs, a few already there) gives the set's sorted keys.
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = |n: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % n
        };
        for _ in 0..200 {
            let old: BTreeSet<(u64, u64)> = (0..next(60)).map(|_| (next(20), next(20))).collect();
            let ended: BTreeSet<_> = old.iter().filter(|_| next(3) == 0).copied().collect();
            let mut began = BTreeSet::new();
            for _ in 0..next(30) {
                let p = (next(20), next(20));
                let repeat = next(5) == 0;
                if (!old.contains(&p) || repeat) && !ended.contains(&p) {
                    began.insert(p);
                }
            }
            let want: Vec<_> = old
                .difference(&ended)
                .copied()
                .collect::<BTreeSet<_>>()
                .union(&began)
                .copied()
                .collect();
            let (old, ended, began): (Vec<_>, Vec<_>, Vec<_>) = (
                old.into_iter().collect(),
                ended.into_iter().collect(),
                began.into_iter().collect(),
            );
            let mut out = Vec::new();
            merge_pair_changes(&old, &ended, &began, &mut out);
            assert_eq!(out, want);
        }
    }
}
