//! User fields as colliders (`Shape::user`), in 2D and 3D: a false Lipschitz claim is refused
//! by the sampled check, a correct wavy terrain is accepted and holds a ball at its analytic
//! height, and snapshots keep the collider by name, restored only with the field re-attached.

mod physics_support;
use fathom_math::{Aabb, Dim, Real, Space, Vector};
use fathom_sdf::{Sdf, SdfError};
use fathom_world::{BodyDesc, ColliderDesc, Shape, SnapshotError, UserFields, World};
use physics_support::*;
use std::sync::Arc;

/// Rolling ground `y = A sin(k x)` (and `cos(k z)` in 3D), cut to a box: its distance bound
/// `(y - h) / sqrt(1 + |∇h|max²)` is 1-Lipschitz, and the box's exact field keeps it so.
struct Waves<const D: usize> {
    amplitude: Real,
    wavenumber: Real,
    half_width: Real,
}

impl<const D: usize> Waves<D> {
    fn height(&self, p: &Vector<D>) -> Real {
        let mut h = self.amplitude * (self.wavenumber * p[0]).sin();
        if D == 3 {
            h *= (self.wavenumber * p[2]).cos();
        }
        h
    }
    /// The steepest slope of the height, `A k` per axis.
    fn max_slope(&self) -> Real {
        self.amplitude * self.wavenumber * (D as Real - 1.0).sqrt()
    }
}

impl<const D: usize> Sdf<D> for Waves<D>
where
    Space<D>: Dim<D>,
{
    fn distance(&self, p: &Vector<D>) -> Real {
        let surface = (p[1] - self.height(p)) / (1.0 + self.max_slope().powi(2)).sqrt();
        let b = self.bounds();
        let q = (p - b.center()).map(|x| x.abs()) - b.half_extents();
        let boxed = q.map(|x| x.max(0.0)).norm() + q.max().min(0.0);
        surface.max(boxed)
    }
    fn bounds(&self) -> Aabb<D> {
        let mut h = Vector::<D>::repeat(self.half_width);
        h[1] = 1.0 + self.amplitude;
        let mut c = Vector::<D>::zeros();
        c[1] = -1.0;
        Aabb::from_center_half_extents(c, h)
    }
}

/// An exact plane `y <= 0` in a box that claims to change at half the rate it does.
struct Liar;
impl<const D: usize> Sdf<D> for Liar
where
    Space<D>: Dim<D>,
{
    fn distance(&self, p: &Vector<D>) -> Real {
        p[1]
    }
    fn bounds(&self) -> Aabb<D> {
        Aabb::from_center_half_extents(Vector::<D>::zeros(), Vector::<D>::repeat(5.0))
    }
    fn lipschitz(&self) -> Real {
        0.5
    }
}

fn waves<const D: usize>() -> Arc<dyn Sdf<D>>
where
    Space<D>: Dim<D>,
{
    Arc::new(Waves::<D> {
        amplitude: 0.3,
        wavenumber: 0.5,
        half_width: 20.0,
    })
}

fn false_claims_are_refused<const D: usize>()
where
    Space<D>: Dim<D>,
{
    let err = Shape::<D>::user("liar", Arc::new(Liar)).unwrap_err();
    match err {
        SdfError::LipschitzClaim {
            name,
            declared,
            observed,
        } => {
            assert_eq!(name, "liar");
            assert_eq!(declared, 0.5);
            // The plane's slope is exactly 1 along y (1e-3: f32 differences over 0.1 m steps).
            assert!((observed - 1.0).abs() < 1e-3, "D={D}: {observed}");
        }
        other => panic!("D={D}: {other}"),
    }
    assert!(Shape::<D>::user("waves", waves::<D>()).is_ok());
}

#[test]
fn a_false_lipschitz_claim_is_refused_and_a_true_one_accepted_2d() {
    false_claims_are_refused::<2>();
}
#[test]
fn a_false_lipschitz_claim_is_refused_and_a_true_one_accepted_3d() {
    false_claims_are_refused::<3>();
}

/// A world of a ball resting on the wavy terrain at a crest.
fn ball_on_waves<const D: usize>(field: Arc<dyn Sdf<D>>) -> (World<D>, fathom_world::BodyHandle)
where
    Space<D>: Dim<D>,
{
    let mut w = awake_world::<D>(-up::<D>() * G);
    w.add_body(
        &BodyDesc::fixed().collider(ColliderDesc::new(Shape::user("waves", field).unwrap())),
    )
    .unwrap();
    // A crest of sin(kx) at x = π / 2k = π m (and cos(kz) = 1 at z = 0): height 0.3.
    let mut p = Vector::<D>::zeros();
    p[0] = std::f32::consts::PI;
    p[1] = 1.0;
    let ball = add_ball(&mut w, p, 0.25, 0.0);
    (w, ball)
}

fn a_ball_rests_on_a_user_field<const D: usize>()
where
    Space<D>: Dim<D>,
{
    let (mut w, ball) = ball_on_waves::<D>(waves::<D>());
    run(&mut w, 2.0);
    let y = w.body(ball).unwrap().position()[1];
    // At the crest the ground is flat, and the field there is the exact height over it, so
    // the ball rests at crest + radius, within the solver's resting sink (TOUCH_SLOP, 5 mm).
    assert!((y - 0.55).abs() < 0.005, "D={D}: y = {y}");
}

#[test]
fn a_ball_rests_on_a_user_field_2d() {
    a_ball_rests_on_a_user_field::<2>();
}
#[test]
fn a_ball_rests_on_a_user_field_3d() {
    a_ball_rests_on_a_user_field::<3>();
}

fn snapshots_need_the_field_again<const D: usize>()
where
    Space<D>: Dim<D>,
{
    let field = waves::<D>();
    let (mut w, _) = ball_on_waves::<D>(field.clone());
    run(&mut w, 0.5);
    let bytes = w.snapshot();
    let mut other = World::<D>::default();
    let err = other.restore(&bytes).unwrap_err();
    assert_eq!(
        err,
        SnapshotError::MissingUserField {
            name: "waves".into()
        }
    );
    assert_eq!(
        other.body_count(),
        0,
        "D={D}: a failed restore changed nothing"
    );
    let mut fields = UserFields::new();
    fields.insert("waves", field);
    other.restore_with_fields(&bytes, &fields).unwrap();
    run(&mut w, 0.5);
    run(&mut other, 0.5);
    assert_eq!(w.state_hash(), other.state_hash(), "D={D}");
}

#[test]
fn a_snapshot_keeps_a_user_field_by_name_and_needs_it_again_2d() {
    snapshots_need_the_field_again::<2>();
}
#[test]
fn a_snapshot_keeps_a_user_field_by_name_and_needs_it_again_3d() {
    snapshots_need_the_field_again::<3>();
}
