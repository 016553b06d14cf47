//! An energy ledger for runs: a scene must never end up with more mechanical
//! energy than it started with plus what was put in.
//!
//! Gravity is conservative (its potential is counted), contacts and friction
//! only take energy out, so in a world without motors the only sources are
//! kinematic bodies: they have infinite mass and push with whatever impulse the
//! solver asks. Per step a kinematic body does at most `sum |J| |v(p)|` over its
//! contact points `p`, with `J` the impulse applied there (the normal impulse of
//! the whole step plus the friction impulse, which the contact cache keeps per
//! substep, times the substep count). The ledger sums that bound and records
//! by how much the energy ever exceeded `E0 + W`: a positive excess is energy
//! the solver invented. Joint motors and forces the game applies (a vehicle's
//! engine) are sources too; the ledger does not count them, and says so
//! (`uncounted`) instead of calling the rise an excess.

use fathom_math::{Dim, Real, Space};
use fathom_world::{Body, BodyKind, JointKind, World};
use serde::Serialize;

/// Kinetic plus gravitational potential energy of the dynamic bodies, joules
/// (potential zero at the origin). Summed in f64 in body order.
pub fn mechanical_energy<const D: usize>(w: &World<D>) -> f64
where
    Space<D>: Dim<D>,
{
    let g = w.settings().gravity;
    w.bodies()
        .filter(|(_, b)| b.kind() == BodyKind::Dynamic)
        .map(|(_, b)| {
            let potential = -b.mass() * g.dot(&b.center_of_mass());
            kinetic_energy(b) + f64::from(potential)
        })
        .sum()
}

/// A body's kinetic energy, its linear part squared in f64: in f32 a valid speed of 1e30 m/s
/// overflowed and the JSON printed `null`. (The solver caps spins, so only a body's first
/// angular velocity can be that large.)
fn kinetic_energy<const D: usize>(b: &Body<D>) -> f64
where
    Space<D>: Dim<D>,
{
    let v2: f64 = b
        .linear_velocity()
        .iter()
        .map(|&x| f64::from(x) * f64::from(x))
        .sum();
    let w = b.angular_velocity();
    let spin = Space::<D>::ang_dot(&w, &Space::<D>::inertia_apply(&b.world_inertia(), &w));
    0.5 * (f64::from(b.mass()) * v2 + f64::from(spin))
}

/// A bound on the work kinematic bodies did on the others in the last step, joules
/// (module docs).
pub fn kinematic_work_bound<const D: usize>(w: &World<D>) -> f64
where
    Space<D>: Dim<D>,
{
    let substeps = w.settings().solver.substeps as Real;
    let kinematic_body = |c| {
        w.collider(c)
            .and_then(|c| w.body(c.body()))
            .filter(|b| b.kind() == BodyKind::Kinematic)
    };
    let mut work = 0.0;
    for pair in w.contact_pairs() {
        for body in [kinematic_body(pair.a), kinematic_body(pair.b)]
            .into_iter()
            .flatten()
        {
            for p in pair.manifolds.iter().flat_map(|m| m.points.iter()) {
                let at = (p.point_a + p.point_b) * 0.5;
                let impulse = p.total_normal_impulse + p.friction_impulse.norm() * substeps;
                work += f64::from(impulse * body.velocity_at(&at).norm());
            }
        }
    }
    work
}

/// What the ledger saw over a run (part of `fathom run --json`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct EnergyReport {
    /// Mechanical energy before the first step, joules.
    pub start: f64,
    /// The most mechanical energy after any step, joules.
    pub max: f64,
    /// The bound on the work kinematic bodies put in over the run, joules.
    pub kinematic_work: f64,
    /// The most the energy ever rose above `start + kinematic_work` (so far), joules.
    pub max_rise: f64,
    /// `max_rise` when every source of work is counted: zero or negative when the run
    /// never invented energy. `None` (JSON `null`) when `uncounted` names a source, whose
    /// work may rightly raise the energy.
    pub max_excess: Option<f64>,
    /// Work the ledger cannot count: `"joint motors"`, `"vehicle engine and brakes"`.
    pub uncounted: Vec<&'static str>,
}

/// Tracks [`EnergyReport`] step by step.
#[derive(Clone, Debug)]
pub struct EnergyLedger {
    report: EnergyReport,
}

impl EnergyLedger {
    /// Starts the ledger on the world before its first step. Joint motors' work is not
    /// counted; a world with a motor says so in [`EnergyReport::uncounted`].
    pub fn new<const D: usize>(w: &World<D>) -> Self
    where
        Space<D>: Dim<D>,
    {
        let e = mechanical_energy(w);
        let mut uncounted = Vec::new();
        if w.joints().any(|(_, j)| has_motor(&j.desc().kind)) {
            uncounted.push("joint motors");
        }
        Self {
            report: EnergyReport {
                start: e,
                max: e,
                kinematic_work: 0.0,
                max_rise: Real::NEG_INFINITY.into(),
                max_excess: None,
                uncounted,
            },
        }
    }

    /// Names work the ledger cannot see (a vehicle's engine, applied through forces).
    pub fn uncounted(mut self, source: &'static str) -> Self {
        self.report.uncounted.push(source);
        self
    }

    /// Records the world after a step.
    pub fn record<const D: usize>(&mut self, w: &World<D>)
    where
        Space<D>: Dim<D>,
    {
        let r = &mut self.report;
        r.kinematic_work += kinematic_work_bound(w);
        let e = mechanical_energy(w);
        r.max = r.max.max(e);
        r.max_rise = r.max_rise.max(e - r.start - r.kinematic_work);
    }

    /// The figures so far.
    pub fn report(&self) -> EnergyReport {
        let mut r = self.report.clone();
        if r.max_rise == f64::NEG_INFINITY {
            r.max_rise = 0.0; // no step recorded
        }
        r.max_excess = r.uncounted.is_empty().then_some(r.max_rise);
        r
    }
}

fn has_motor<const D: usize>(kind: &JointKind<D>) -> bool
where
    Space<D>: Dim<D>,
{
    match kind {
        JointKind::Revolute(j) => j.motor.is_some() || j.servo.is_some(),
        JointKind::Prismatic(j) => j.motor.is_some() || j.servo.is_some(),
        JointKind::Wheel(j) => j.motor.is_some(),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fathom_math::Vector3;
    use fathom_world::{BodyDesc, ColliderDesc, Shape, World3};

    /// A speed the world accepts (1e30 m/s) gives a finite energy, so the JSON report holds
    /// numbers, not `null`.
    #[test]
    fn extreme_valid_speeds_give_finite_energies() {
        let mut w = World3::default();
        w.add_body(
            &BodyDesc::dynamic()
                .linear_velocity(Vector3::new(1e30, 0.0, 1e30))
                .collider(ColliderDesc::new(Shape::ball(0.5).unwrap())),
        )
        .unwrap();
        let ledger = EnergyLedger::new(&w);
        let start = ledger.report().start;
        assert!(start.is_finite() && start > 1e59, "{start}");
        let json = serde_json::to_string(&ledger.report()).unwrap();
        assert!(!json.contains("null"), "{json}");
    }
}
