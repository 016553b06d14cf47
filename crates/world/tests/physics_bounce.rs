//! A ball dropped from h with restitution e rebounds to e² h.

mod physics_support;
use fathom_math::{Dim, Real, Space};
use physics_support::*;

/// Drops a ball of radius 0.25 from `h` (its lowest point) onto a plane, both with
/// restitution `e`, and returns the height (of its lowest point) of the first rebound's apex.
fn rebound<const D: usize>(h: Real, e: Real) -> Real
where
    Space<D>: Dim<D>,
{
    let r = 0.25;
    let mut w = world_with_gravity::<D>(-up::<D>() * G);
    add_ground_plane(&mut w, 0.6, e);
    let ball = add_ball(&mut w, up::<D>() * (h + r), r, e);
    let (mut rising, mut apex) = (false, 0.0 as Real);
    for _ in 0..600 {
        w.step();
        let b = w.body(ball).unwrap();
        let vy = b.linear_velocity()[1];
        rising |= vy > 0.0;
        if rising {
            apex = apex.max(b.position()[1] - r);
            if vy < 0.0 {
                break;
            }
        }
    }
    apex
}

fn check<const D: usize>()
where
    Space<D>: Dim<D>,
{
    for e in [0.5, 0.8] {
        let h = 2.0;
        let want = e * e * h;
        let got = rebound::<D>(h, e);
        // 3%: the impact falls inside a 1/240 s substep, so the approach speed the restitution
        // pass reflects is short by up to g h (0.04 of 6.3 m/s: 1.3% of the height), and the
        // rebound starts from a contact a few millimetres deep.
        assert!(
            (got - want).abs() < 0.03 * want,
            "D={D} e={e}: rebound {got} m, want {want} m"
        );
    }
}

#[test]
fn rebound_2d() {
    check::<2>();
}

#[test]
fn rebound_3d() {
    check::<3>();
}
