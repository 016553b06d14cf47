//! A box balanced on a ball is in stable equilibrium when the ball's radius exceeds the
//! height of the box's centre above its face (here 1 m against 0.5 m): it must come to rest
//! where it was put, contact under the face's centre, and gain no energy.

mod physics_support;
use fathom_math::{AngVector, Dim, Real, Space, Vector};
use fathom_world::{BodyDesc, BodyHandle, ColliderDesc, Shape, World};
use physics_support::*;

/// Seconds the box is watched.
const SECONDS: Real = 10.0;
/// Half extent of the box, m.
const HALF: Real = 0.5;

/// What a box resting on a support did.
struct Rest {
    /// Largest kinetic energy from 3 s on, J.
    energy_after_3s: Real,
    /// Largest distance of the contact point from the bottom face's centre from 3 s on, m.
    offset: Real,
    /// Largest rise of the mechanical energy (kinetic + potential) above its value at 1 s, J.
    gain: Real,
}

/// A unit box turned by `turn` (a rotation vector) placed on top of the static `support`,
/// whose highest point is at `top` (y).
fn rest_on<const D: usize>(support: Shape<D>, top: Real, turn: AngVector<D>) -> Rest
where
    Space<D>: Dim<D>,
{
    let mut w = awake_world::<D>(-up::<D>() * G);
    w.add_body(&BodyDesc::fixed().collider(ColliderDesc::new(support).friction(0.6)))
        .unwrap();
    let cube = Shape::<D>::cuboid(Vector::<D>::repeat(HALF)).unwrap();
    let b = w
        .add_body(
            &BodyDesc::dynamic()
                .position(up::<D>() * (top + HALF))
                .rotation(turn)
                .collider(ColliderDesc::new(cube).friction(0.6)),
        )
        .unwrap();
    let dt = w.settings().dt;
    let mut rest = Rest {
        energy_after_3s: 0.0,
        offset: 0.0,
        gain: Real::NEG_INFINITY,
    };
    let mut settled = None;
    for i in 1..=(SECONDS / dt).round() as usize {
        w.step();
        let t = i as Real * dt;
        let energy = mechanical_energy(w.body(b).unwrap());
        if t >= 1.0 {
            let base = *settled.get_or_insert(energy);
            rest.gain = rest.gain.max((energy - base) as Real);
        }
        if t >= 3.0 {
            rest.energy_after_3s = rest
                .energy_after_3s
                .max(w.body(b).unwrap().kinetic_energy());
            rest.offset = rest.offset.max(contact_offset(&w, b));
        }
    }
    rest
}

/// Distance of the centroid of `b`'s contact points from the centre of its bottom face, m;
/// infinite with no contact.
fn contact_offset<const D: usize>(w: &World<D>, b: BodyHandle) -> Real
where
    Space<D>: Dim<D>,
{
    let body = w.body(b).unwrap();
    let face = body.position() - body.pose().rotation * up::<D>() * HALF;
    let points: Vec<_> = w
        .contacts_of(b)
        .iter()
        .flat_map(|c| c.points.iter().map(|p| p.point))
        .collect();
    if points.is_empty() {
        return Real::INFINITY;
    }
    let centroid = points.iter().sum::<Vector<D>>() / points.len() as Real;
    (centroid - face).norm()
}

fn check<const D: usize>(name: &str, support: Shape<D>, top: Real)
where
    Space<D>: Dim<D>,
{
    check_turned(name, support, top, Space::<D>::ang_zero());
}

fn check_turned<const D: usize>(name: &str, support: Shape<D>, top: Real, turn: AngVector<D>)
where
    Space<D>: Dim<D>,
{
    let r = rest_on(support, top, turn);
    // At rest: 1e-6 J is a speed of 1.4 mm/s for the 1 kg box (sleeping is off, so nothing
    // zeroes it). The contact stays under the face's centre within 0.1 mm (where it was put:
    // the equilibrium is stable and nothing pushes the box sideways). The energy may fall as
    // the box settles into the soft contact, never rise (1e-5 J is f32 round-off of m g y).
    assert!(
        r.energy_after_3s < 1e-6 && r.offset < 1e-4 && r.gain < 1e-5,
        "D={D} on {name} (turned {turn:?}): kinetic energy up to {} J after 3 s, contact {} m off the face's \
         centre, energy gained {} J",
        r.energy_after_3s,
        r.offset,
        r.gain
    );
}

#[test]
fn box_on_a_ball_rests_2d() {
    check::<2>("a ball", Shape::<2>::ball(1.0).unwrap(), 1.0);
}

#[test]
fn box_on_a_ball_rests_3d() {
    check::<3>("a ball", Shape::<3>::ball(1.0).unwrap(), 1.0);
}

/// A cylinder of radius 1 m lying along x (its axis turned from y): a box across it rests
/// on a line, not a point, which the general field search gives as points at both ends of
/// the line (`settle` in crates/narrowphase/src/pairs/sdf_sdf.rs).
#[test]
fn box_on_a_cylinder_side_rests_3d() {
    let turn = nalgebra::UnitQuaternion::from_axis_angle(
        &nalgebra::Vector3::z_axis(),
        std::f32::consts::FRAC_PI_2,
    );
    let pose = fathom_math::Pose::<3>::from_parts(nalgebra::Translation3::identity(), turn);
    let cylinder = Shape::<3>::cylinder(1.0, 1.0)
        .unwrap()
        .transformed(pose)
        .unwrap();
    check::<3>("a cylinder's side", cylinder.clone(), 1.0);
    // Yawed about the vertical, the line runs across the face corner to corner, not edge to
    // edge: its ends are still symmetric about the face's centre.
    for yaw in [0.3, std::f32::consts::FRAC_PI_4] {
        check_turned::<3>("a cylinder's side", cylinder.clone(), 1.0, up::<3>() * yaw);
    }
}

/// A ball of radius 1 m blended (radius 0.3 m) into a slab whose top is at y = 0: a bump whose
/// crest, at y = 1 m, is the ball's (the blend only rounds the foot). A general field, so the
/// contact comes from the field search, not the ball's closed form.
fn bump<const D: usize>() -> Shape<D>
where
    Space<D>: Dim<D>,
{
    let mut half = Vector::<D>::repeat(3.0);
    half[1] = 0.5;
    let down = fathom_math::nalgebra::Translation::from(-up::<D>() * 0.5);
    let slab = Shape::<D>::cuboid(half)
        .unwrap()
        .transformed(fathom_math::Pose::<D>::identity() * down)
        .unwrap();
    slab.smooth_union(Shape::<D>::ball(1.0).unwrap(), 0.3)
        .unwrap()
}

#[test]
fn box_on_an_sdf_bump_rests_2d() {
    check::<2>("an SDF bump", bump::<2>(), 1.0);
}

#[test]
fn box_on_an_sdf_bump_rests_3d() {
    check::<3>("an SDF bump", bump::<3>(), 1.0);
    // The extremes are searched along directions fixed to the contact normal: a yawed box
    // meets them at other angles to its face.
    for yaw in [0.3, std::f32::consts::FRAC_PI_4] {
        check_turned::<3>("an SDF bump", bump::<3>(), 1.0, up::<3>() * yaw);
    }
}
