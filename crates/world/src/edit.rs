//! Run-time CSG edits of a collider: carve a crater or a tunnel, add a wall, while the world
//! runs ([`World::edit_collider`]).
//!
//! The collider's shape becomes (on its first edit) a [`fathom_sdf::Edited`]: the old shape
//! as its base and a flat list of edits behind a cell index, each edit's influence clamped to
//! a band (see `crates/sdf/src/edited.rs` for why that keeps the field continuous and its
//! Lipschitz constant honest). An edit then updates, each in time proportional to the edited
//! region and not to the terrain or the earlier edits:
//!
//! - the shape: the edit is listed in the index cells its reach covers;
//! - the broadphase box: the shape's box is kept incrementally (a carve never grows it, an
//!   add merges the added shape's box), and the proxy is moved;
//! - the mass (dynamic and kinematic bodies): the integral of the *change* of the field over
//!   the edit's box only, at the collider's density (`Collider::density`);
//! - the contact cache: the edited collider's cached manifolds and "found apart" records are
//!   dropped, so the next step computes them fresh against the new shape;
//! - sleeping: every body with a collider whose box meets the edit's box (loosened by
//!   [`EDIT_WAKE_DISTANCE`]) wakes, found through the broadphase.
//!
//! Dropping the cache scans the world's contact list once (a linear pass over plain data,
//! not a field evaluation). The viewer's mesh of an edited collider is rebuilt by the viewer,
//! not by the world.

use crate::arena::{BodyHandle, ColliderHandle};
use crate::desc::BodyKind;
use crate::error::WorldError;
use crate::mass::MassProperties;
use crate::world::World;
use fathom_math::{Aabb, Dim, Pose, Real, Space, Vector};
use fathom_sdf::{Edit, EditOp, Edited, Sdf, Shape, MAX_SHAPE_DEPTH};
use nalgebra::{SMatrix, SVector};

/// Default band of an edited shape, metres: edits are evaluated only within this distance of
/// their surface, and depth inside the solid is clamped at it (see `crates/sdf/src/edited.rs`).
pub const DEFAULT_EDIT_BAND: Real = 1.0;
/// Bodies with a collider box within this distance of an edit's box wake, metres.
pub const EDIT_WAKE_DISTANCE: Real = 0.1;

/// One run-time edit of a collider (see [`World::edit_collider`]).
#[derive(Clone, Debug, PartialEq)]
pub struct ColliderEdit<const D: usize>
where
    Space<D>: Dim<D>,
{
    /// Carve the shape away or add it.
    pub op: EditOp,
    /// The shape carved or added, in its own frame; it must be bounded.
    pub shape: Shape<D>,
    /// Where the shape goes, world frame (converted to the collider's frame as it is now).
    pub pose: Pose<D>,
    /// The band of the edited shape, metres; used by a collider's first edit only (later
    /// edits keep the band the shape has).
    pub band: Real,
}

impl<const D: usize> Default for ColliderEdit<D>
where
    Space<D>: Dim<D>,
{
    /// A carve of a 1 m ball at the origin, band [`DEFAULT_EDIT_BAND`].
    fn default() -> Self {
        Self {
            op: EditOp::Carve,
            shape: Shape::ball(1.0).expect("1 m is a valid radius"),
            pose: Pose::identity(),
            band: DEFAULT_EDIT_BAND,
        }
    }
}

impl<const D: usize> ColliderEdit<D>
where
    Space<D>: Dim<D>,
{
    /// Carves `shape` placed at `pose` (world frame).
    pub fn carve(shape: Shape<D>, pose: Pose<D>) -> Self {
        Self {
            op: EditOp::Carve,
            shape,
            pose,
            ..Self::default()
        }
    }
    /// Adds `shape` placed at `pose` (world frame).
    pub fn add(shape: Shape<D>, pose: Pose<D>) -> Self {
        Self {
            op: EditOp::Add,
            shape,
            pose,
            ..Self::default()
        }
    }
}

/// What an edit did and cost.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct EditReport {
    /// Index cells the edit was listed in (its cost in the shape).
    pub cells: usize,
    /// Field evaluations spent on the mass change (0 for a fixed body).
    pub mass_samples: usize,
    /// Bodies woken, in handle order.
    pub woken: Vec<BodyHandle>,
}

/// Mass at unit density as raw moments about the frame's origin, in f64: `∫1`, `∫x`, `∫xxᵀ`.
/// Unlike [`MassProperties`] it can hold a negative change (a carve).
#[derive(Clone, Copy, Debug)]
struct Moments<const D: usize> {
    mass: f64,
    first: SVector<f64, D>,
    second: SMatrix<f64, D, D>,
}

impl<const D: usize> Moments<D>
where
    Space<D>: Dim<D>,
{
    fn zero() -> Self {
        Self {
            mass: 0.0,
            first: SVector::zeros(),
            second: SMatrix::zeros(),
        }
    }
    fn of(m: &MassProperties<D>) -> Self {
        let c = m.center.cast::<f64>();
        let mass = f64::from(m.mass);
        Self {
            mass,
            first: c * mass,
            second: m.second_moment.cast::<f64>() + c * c.transpose() * mass,
        }
    }
    fn scaled(&self, k: f64) -> Self {
        Self {
            mass: self.mass * k,
            first: self.first * k,
            second: self.second * k,
        }
    }
    /// The moments in the parent frame of `pose`.
    fn transformed(&self, pose: &Pose<D>) -> Self {
        let r = Space::<D>::rotation_matrix(&pose.rotation).cast::<f64>();
        let t = pose.translation.vector.cast::<f64>();
        let rf = r * self.first;
        Self {
            mass: self.mass,
            first: rf + t * self.mass,
            second: r * self.second * r.transpose()
                + rf * t.transpose()
                + t * rf.transpose()
                + t * t.transpose() * self.mass,
        }
    }
    fn plus(&self, o: &Self) -> Self {
        Self {
            mass: self.mass + o.mass,
            first: self.first + o.first,
            second: self.second + o.second,
        }
    }
    /// Back to mass, centre and second moment about it; nothing left is zero.
    fn to_props(self) -> MassProperties<D> {
        if self.mass <= 0.0 {
            return MassProperties::zero();
        }
        let c = self.first / self.mass;
        MassProperties {
            mass: self.mass as Real,
            center: c.cast::<Real>(),
            second_moment: (self.second - c * c.transpose() * self.mass).cast::<Real>(),
        }
    }
}

/// The value of an edited field after `edit` is applied last, from its value before: the step
/// of `crates/sdf/src/edited.rs` (clamping included), so no copy of the shape is needed.
fn step_field(before: Real, op: EditOp, edit_d: Real, band: Real, has_add: bool) -> Real {
    let hi = if has_add { band } else { Real::INFINITY };
    match op {
        EditOp::Carve => before.max(-edit_d),
        EditOp::Add => before.min(edit_d),
    }
    .clamp(-band, hi)
}

/// Cells per axis of the mass change's voxel sums: doubled from the first to the last until
/// the mass change settles (as `mass::integrate` does for whole shapes).
const MASS_CELLS: [usize; 2] = [8, 64];
/// The mass change has settled when it moves by under this fraction of the edit box's mass.
const MASS_CHANGE_TOLERANCE: f64 = 0.002;

/// The change of unit-density moments over `region` when `edit` is applied after the field
/// `old` (an edited shape, before the push), and the field evaluations it took.
fn mass_change<const D: usize>(
    old: &Edited<D>,
    edit: &Edit<D>,
    has_add_after: bool,
    region: &Aabb<D>,
) -> (Moments<D>, usize)
where
    Space<D>: Dim<D>,
{
    let lip = old.lipschitz().max(edit.shape.lipschitz()).max(1.0);
    let (mut n, mut samples) = (MASS_CELLS[0], 0);
    let mut last: Option<Moments<D>> = None;
    loop {
        let cell = region.extents() / n as Real;
        let cell_volume: f64 = cell.iter().map(|c| f64::from(*c)).product();
        let ramp = cell.max() * lip;
        // Fraction of a cell inside, from the distance at its centre (as `mass.rs` does).
        let inside = |d: Real| f64::from((0.5 - d / ramp).clamp(0.0, 1.0));
        let mut sum = Moments::<D>::zero();
        for flat in 0..n.pow(D as u32) {
            let mut rest = flat;
            let p = Vector::<D>::from_fn(|i, _| {
                let k = rest % n;
                rest /= n;
                region.min[i] + (k as Real + 0.5) * cell[i]
            });
            let before = old.distance(&p);
            let after = step_field(
                before,
                edit.op,
                edit.shape.distance(&p),
                old.band(),
                has_add_after,
            );
            samples += 1;
            let w = (inside(after) - inside(before)) * cell_volume;
            if w != 0.0 {
                let q = p.cast::<f64>();
                sum.mass += w;
                sum.first += q * w;
                sum.second += q * q.transpose() * w;
            }
        }
        // A cell's own spread (cell²/12 per axis) belongs to its second moment.
        let own = SMatrix::<f64, D, D>::from_diagonal(
            &cell.cast::<f64>().map(|c| sum.mass * c * c / 12.0),
        );
        sum.second += own;
        let box_mass = f64::from(region.volume()).max(f64::MIN_POSITIVE);
        let settled =
            last.is_some_and(|l| (l.mass - sum.mass).abs() <= MASS_CHANGE_TOLERANCE * box_mass);
        last = Some(sum);
        if settled || n >= MASS_CELLS[1] {
            return (sum, samples);
        }
        n *= 2;
    }
}

impl<const D: usize> World<D>
where
    Space<D>: Dim<D>,
{
    /// Carves (or adds) `edit.shape` at `edit.pose` into collider `h`'s shape, in place, and
    /// updates what depends on it incrementally (see the module docs): broadphase box, mass
    /// of a moving body, contact cache, sleeping bodies near the edit.
    ///
    /// Errors, with nothing changed: [`WorldError::NoSuchCollider`]; a pose or band that is
    /// not finite ([`WorldError::Invalid`] naming `pose` or `band`); a shape that is invalid,
    /// unbounded (a half-space), too large for the index or would nest the collider's tree
    /// deeper than [`MAX_SHAPE_DEPTH`] ([`WorldError::Shape`] naming `edit.shape`).
    ///
    /// ```
    /// use fathom_math::{Pose3, Vector3};
    /// use fathom_world::{BodyDesc, ColliderDesc, ColliderEdit, Shape, World3};
    ///
    /// let mut world = World3::default();
    /// let ground = world.add_body(&BodyDesc::fixed().collider(ColliderDesc::new(
    ///     Shape::cuboid(Vector3::new(10.0, 1.0, 10.0))?)))?;
    /// let c = world.body(ground).unwrap().colliders()[0];
    /// // A crater of radius 2 m centred on the top face (y = 1).
    /// let crater = ColliderEdit::carve(Shape::ball(2.0)?, Pose3::translation(0.0, 1.0, 0.0));
    /// world.edit_collider(c, &crater)?;
    /// let shape = world.collider(c).unwrap().shape();
    /// use fathom_sdf::Sdf;
    /// assert!(shape.distance(&Vector3::new(0.0, 0.0, 0.0)) > 0.0); // open air in the crater
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn edit_collider(
        &mut self,
        h: ColliderHandle,
        edit: &ColliderEdit<D>,
    ) -> Result<EditReport, WorldError> {
        let c = self.colliders.get(h).ok_or(WorldError::NoSuchCollider(h))?;
        let shape_err = |source| WorldError::Shape {
            field: "edit.shape".into(),
            source,
        };
        check_pose(&edit.pose)?;
        if !(edit.band.is_finite() && edit.band > 0.0) {
            return Err(WorldError::invalid(
                "band",
                format!("must be finite and positive, got {}", edit.band),
            ));
        }
        edit.shape.validate().map_err(shape_err)?;
        let local = c.world_pose.inverse() * edit.pose;
        let placed = Edit {
            op: edit.op,
            shape: edit.shape.clone().transformed(local).map_err(shape_err)?,
        };
        if !matches!(c.shape, Shape::Edited(_)) && c.shape.depth() + 1 > MAX_SHAPE_DEPTH {
            return Err(WorldError::Shape {
                field: "shape".into(),
                source: fathom_sdf::SdfError::TooDeep {
                    field: "shape",
                    max: MAX_SHAPE_DEPTH,
                },
            });
        }
        // Checked against the edited shape the collider has, or a fresh one around its shape
        // (the check reads the band and the edit list only, so an empty one stands in).
        match &c.shape {
            Shape::Edited(e) => e.check_edit(&placed),
            _ => Edited::new(Shape::ball(1.0).expect("valid"), edit.band)
                .and_then(|e| e.check_edit(&placed)),
        }
        .map_err(shape_err)?;
        let body = c.body;
        let moving = self
            .bodies
            .get(body)
            .is_some_and(|b| b.kind != BodyKind::Fixed);

        // From here nothing can fail.
        let c = self.colliders.get_mut(h).expect("checked above");
        if !matches!(c.shape, Shape::Edited(_)) {
            let base = std::mem::replace(&mut c.shape, Shape::ball(1.0).expect("valid"));
            let fresh = Edited::new(base, edit.band).expect("band checked above");
            c.shape = Shape::Edited(fresh);
        }
        let Shape::Edited(edited) = &mut c.shape else {
            unreachable!("made an edited shape above")
        };
        let mut report = EditReport::default();
        if moving && c.density > 0.0 {
            let has_add =
                edited.edits().iter().any(|e| e.op == EditOp::Add) || placed.op == EditOp::Add;
            let region = mass_region(edited, &placed);
            if let Some(region) = region {
                let (change, samples) = mass_change(edited, &placed, has_add, &region);
                report.mass_samples = samples;
                let change = change
                    .scaled(f64::from(c.density))
                    .transformed(&c.local_pose);
                c.mass = Moments::of(&c.mass).plus(&change).to_props();
            }
        }
        let edit_box = placed.shape.bounds().transformed(&c.world_pose);
        report.cells = edited
            .push(placed)
            .expect("checked by check_edit above")
            .cells;
        c.aabb = crate::pipeline::collider_aabb(&c.shape, &c.world_pose, c.margin);
        let aabb = c.aabb;
        if self.broadphase_ready {
            // The proxy was inserted with the collider; it is live.
            let _ = self.broadphase.update(h.0.to_bits(), aabb);
        }
        self.contacts.retain(|p| p.a != h && p.b != h);
        self.separated.retain(|p| p.a != h && p.b != h);
        self.cache_settled = false;
        if moving {
            self.update_mass(body);
        }
        self.sweep_sizes_ready = false;
        report.woken = self.wake_near(&edit_box.loosened(EDIT_WAKE_DISTANCE), body);
        Ok(report)
    }

    /// Wakes every body with a collider box meeting `region`, and the edited body `edited`;
    /// returns those that were asleep, in handle order.
    fn wake_near(&mut self, region: &Aabb<D>, edited: BodyHandle) -> Vec<BodyHandle> {
        self.ensure_broadphase();
        let keys = self.broadphase.overlapping(region).unwrap_or_default();
        let mut bodies: Vec<BodyHandle> = keys
            .into_iter()
            .filter_map(|k| {
                let h = ColliderHandle(crate::arena::RawHandle::from_bits(k));
                self.colliders.get(h).map(|c| c.body)
            })
            .chain(std::iter::once(edited))
            .collect();
        bodies.sort();
        bodies.dedup();
        let mut woken = Vec::new();
        for b in bodies {
            if self.is_sleeping(b) {
                woken.push(b);
            }
            self.wake(b);
        }
        woken
    }
}

/// Where the field can change: the edit's shape box (the solid's box, for a carve, since
/// nothing outside the solid changes), loosened by a coarse cell for the voxel ramp.
fn mass_region<const D: usize>(old: &Edited<D>, edit: &Edit<D>) -> Option<Aabb<D>>
where
    Space<D>: Dim<D>,
{
    let b = edit.shape.bounds();
    let b = match edit.op {
        EditOp::Carve => b.intersection(&old.bounds())?,
        EditOp::Add => b,
    };
    let pad = b.extents().max() / MASS_CELLS[0] as Real * old.lipschitz().max(1.0);
    Some(b.loosened(pad))
}

fn check_pose<const D: usize>(pose: &Pose<D>) -> Result<(), WorldError>
where
    Space<D>: Dim<D>,
{
    let r = Space::<D>::rotation_matrix(&pose.rotation);
    let finite =
        pose.translation.vector.iter().all(|x| x.is_finite()) && r.iter().all(|x| x.is_finite());
    if !finite || (r.transpose() * r - SMatrix::<Real, D, D>::identity()).amax() > 1e-4 {
        return Err(WorldError::invalid(
            "pose",
            "must be finite with a proper rotation",
        ));
    }
    Ok(())
}
