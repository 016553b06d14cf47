//! Properties of the tyre solve over random wheels, loads and speeds: the force
//! never leaves the friction circle, never reverses the slip within a step,
//! brakes never reverse the spin, and nothing is ever NaN.

use fathom_math::Real;
use fathom_vehicle::tyre::{solve, TyreStep};
use proptest::prelude::*;

fn step() -> impl Strategy<Value = TyreStep> {
    (
        (
            -40.0..40.0 as Real,
            -10.0..10.0 as Real,
            0.0..20_000.0 as Real,
            0.0..1.5 as Real,
        ),
        (1.0e3..2.0e5 as Real, 1.0e3..2.0e5 as Real, 0.2..2.0 as Real),
        (-150.0..150.0 as Real, 0.2..0.5 as Real, 0.3..3.0 as Real),
        (
            -2000.0..2000.0 as Real,
            0.0..5000.0 as Real,
            50.0..1000.0 as Real,
        ),
    )
        .prop_map(
            |(
                (v_long, v_lat, load, friction),
                (kx, ky, floor),
                (omega, radius, inertia),
                (drive, brake, mass),
            )| TyreStep {
                v_long,
                v_lat,
                load,
                friction,
                longitudinal_stiffness: kx,
                cornering_stiffness: ky,
                slip_speed_floor: floor,
                omega,
                radius,
                inertia,
                drive_torque: drive,
                brake_torque: brake,
                mass_long: mass,
                mass_lat: mass,
                dt: 1.0 / 60.0,
            },
        )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn tyre_force_stays_in_the_friction_circle(s in step()) {
        let f = solve(&s);
        for x in [f.longitudinal, f.lateral, f.omega, f.slip_ratio, f.slip_angle] {
            prop_assert!(x.is_finite(), "{f:?}");
        }
        let total = (f.longitudinal.powi(2) + f.lateral.powi(2)).sqrt();
        // f32 rounding of the scaling: 1e-4 relative.
        prop_assert!(total <= s.friction * s.load * (1.0 + 1e-4) + 1e-3, "{total} > mu N for {s:?}");
    }

    #[test]
    fn lateral_force_never_reverses_the_side_slip(s in step()) {
        let f = solve(&s);
        // The chassis' side speed after the step (this wheel's share of the mass)
        // keeps its sign or stops: the force opposes the slip and is implicit in it.
        let after = s.v_lat + s.dt * f.lateral / s.mass_lat;
        prop_assert!(f.lateral * s.v_lat <= 0.0, "{f:?}");
        prop_assert!(after * s.v_lat >= -1e-4, "{after} from {} ({f:?})", s.v_lat);
    }

    #[test]
    fn brakes_stop_the_spin_but_never_reverse_it(s in step()) {
        let s = TyreStep { drive_torque: 0.0, ..s };
        let f = solve(&s);
        if s.brake_torque > 0.0 {
            prop_assert!(f.omega * s.omega >= 0.0, "{} -> {}", s.omega, f.omega);
        }
    }
}
