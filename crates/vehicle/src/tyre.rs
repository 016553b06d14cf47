//! The tyre model and the wheel's spin, for one wheel and one step.
//!
//! Forces grow linearly with slip (slip ratio `(ω r - v) / max(|v|, floor)`
//! longitudinally, slip angle `atan(v_lat / max(|v|, floor))` laterally) and
//! saturate at the friction limit `μ N`, shared by a friction circle: when the
//! two together ask for more than `μ N`, both are scaled down, so braking and
//! cornering share the grip.
//!
//! The forces are computed once per world step and held through it, so a
//! stiff tyre would overshoot (a slip of 1 mm/s can ask for kilonewtons). The
//! linear part is therefore solved implicitly: the force is the one that the
//! slip *after* the step calls for, with the wheel's spin inertia and the
//! chassis' effective mass at the contact both reacting. The slip can then
//! shrink to zero but never change sign within a step, at any stiffness and
//! step size. Brakes are torques against the spin that lock the wheel (spin 0)
//! when they would reverse it.

use fathom_math::Real;

/// What one wheel's tyre solve needs for one step.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TyreStep {
    /// Ground-relative speed of the contact point along the wheel's heading, m/s.
    pub v_long: Real,
    /// Ground-relative speed across it (left positive), m/s (0 in 2D).
    pub v_lat: Real,
    /// Normal load, N.
    pub load: Real,
    /// Combined friction coefficient.
    pub friction: Real,
    /// Longitudinal force per unit slip ratio, N.
    pub longitudinal_stiffness: Real,
    /// Lateral force per radian of slip angle, N/rad.
    pub cornering_stiffness: Real,
    /// Slip speed floor, m/s.
    pub slip_speed_floor: Real,
    /// Spin rate, rad/s (positive rolling forward).
    pub omega: Real,
    /// Wheel radius, m.
    pub radius: Real,
    /// Spin inertia, kg m².
    pub inertia: Real,
    /// Engine torque on this wheel, N m (signed).
    pub drive_torque: Real,
    /// Brake torque available against the spin, N m (not negative).
    pub brake_torque: Real,
    /// The chassis' effective mass at the contact along the heading, kg (this wheel's share).
    pub mass_long: Real,
    /// The same across the heading, kg.
    pub mass_lat: Real,
    /// Step, s.
    pub dt: Real,
}

/// The forces on the chassis at the contact and the wheel's new spin.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct TyreForce {
    /// Force along the heading, N.
    pub longitudinal: Real,
    /// Force across it (left positive), N.
    pub lateral: Real,
    /// Spin rate after the step, rad/s.
    pub omega: Real,
    /// Slip ratio after the step.
    pub slip_ratio: Real,
    /// Slip angle, radians (positive when the contact slides left).
    pub slip_angle: Real,
    /// The brake held the wheel still this step.
    pub locked: bool,
}

/// Solves one wheel's tyre for one step (see the module docs).
pub fn solve(s: &TyreStep) -> TyreForce {
    let den = s.v_long.abs().max(s.slip_speed_floor);
    let (mut fx, mut omega, locked) = longitudinal(s, den);
    let slip_angle = (s.v_lat / den).atan();
    let mut fy = lateral(s, den, slip_angle);
    let limit = s.friction * s.load.max(0.0);
    let total = (fx * fx + fy * fy).sqrt();
    if total > limit {
        let k = if total > 0.0 { limit / total } else { 0.0 };
        fx *= k;
        fy *= k;
        if !locked {
            // The wheel spins up (or down) against the reduced grip.
            omega = s.omega + s.dt * (net_torque(s, s.omega) - s.radius * fx) / s.inertia;
            if s.brake_torque > 0.0 && omega * s.omega < 0.0 {
                // A brake stops the spin; it never reverses it.
                omega = 0.0;
            }
        }
    }
    TyreForce {
        longitudinal: fx,
        lateral: fy,
        omega,
        slip_ratio: (omega * s.radius - s.v_long) / den,
        slip_angle,
        locked,
    }
}

/// Drive torque minus the brake's, the brake opposing the spin `omega`.
fn net_torque(s: &TyreStep, omega: Real) -> Real {
    s.drive_torque - omega.signum() * s.brake_torque * Real::from(omega != 0.0)
}

/// Longitudinal force, new spin and whether the brake locked the wheel: the
/// implicit solve of `F = a u'` with slip speed `u = ω r - v` relaxed through
/// both the wheel's inertia and the chassis' effective mass.
fn longitudinal(s: &TyreStep, den: Real) -> (Real, Real, bool) {
    let a = s.longitudinal_stiffness / den;
    // 1 / M_u: how fast a force changes the slip speed (wheel plus chassis).
    let inv_mu = s.radius * s.radius / s.inertia + 1.0 / s.mass_long;
    // Grip bounds the force whatever the slip, so it decides too whether a brake locks.
    let limit = s.friction * s.load.max(0.0);
    let free = |torque: Real| {
        let u0 = s.omega * s.radius - s.v_long + s.dt * s.radius * torque / s.inertia;
        let f = (a * u0 / (1.0 + s.dt * a * inv_mu)).clamp(-limit, limit);
        (f, s.omega + s.dt * (torque - s.radius * f) / s.inertia)
    };
    let (f_unbraked, w_unbraked) = free(s.drive_torque);
    if s.brake_torque <= 0.0 {
        return (f_unbraked, w_unbraked, false);
    }
    // The brake opposes the spin there would be without it.
    let dir = if s.omega != 0.0 {
        s.omega.signum()
    } else {
        w_unbraked.signum()
    };
    let (f, w) = free(s.drive_torque - dir * s.brake_torque);
    if w * dir > 0.0 {
        return (f, w, false);
    }
    // Locked: only the chassis slides; the force stops it at most.
    let f_locked = -a * s.v_long / (1.0 + s.dt * a / s.mass_long);
    (f_locked, 0.0, true)
}

/// Lateral force from the slip angle, implicit in the chassis' lateral speed
/// (never more than the linear law at this slip angle asks for).
fn lateral(s: &TyreStep, den: Real, slip_angle: Real) -> Real {
    let b = s.cornering_stiffness / den;
    let implicit = -b * s.v_lat / (1.0 + s.dt * b / s.mass_lat);
    let linear = -s.cornering_stiffness * slip_angle;
    if implicit.abs() <= linear.abs() {
        implicit
    } else {
        linear
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn base() -> TyreStep {
        TyreStep {
            v_long: 20.0,
            v_lat: 0.0,
            load: 3000.0,
            friction: 1.0,
            longitudinal_stiffness: 60_000.0,
            cornering_stiffness: 50_000.0,
            slip_speed_floor: 1.0,
            omega: 20.0 / 0.35,
            radius: 0.35,
            inertia: 1.0,
            drive_torque: 0.0,
            brake_torque: 0.0,
            mass_long: 300.0,
            mass_lat: 300.0,
            dt: 1.0 / 60.0,
        }
    }

    #[test]
    fn free_rolling_wheel_has_no_force() {
        let f = solve(&base());
        assert!(f.longitudinal.abs() < 1e-3 && f.lateral.abs() < 1e-3);
        assert!((f.omega - base().omega).abs() < 1e-4);
    }

    #[test]
    fn locked_wheel_slides_at_the_friction_limit() {
        let s = TyreStep {
            brake_torque: 5000.0,
            ..base()
        };
        let f = solve(&s);
        assert!(f.locked && f.omega == 0.0);
        // Sliding at 20 m/s: slip ratio -1, far past the linear part, so the force
        // is exactly the friction limit (f32 rounding only).
        assert!((f.longitudinal + 3000.0).abs() < 1e-2, "{f:?}");
    }

    #[test]
    fn small_slip_is_linear() {
        // 0.01 rad of slip angle at 20 m/s: the linear law asks 500 N, well below
        // the 3000 N limit; the implicit relaxation (dt b / m = 0.14) lowers it by
        // the chassis' reaction, which the law checks exactly.
        let s = TyreStep {
            v_lat: 20.0 * (0.01 as Real).tan(),
            ..base()
        };
        let f = solve(&s);
        let b = 50_000.0 / 20.0;
        let expect = -b * s.v_lat / (1.0 + s.dt * b / 300.0);
        assert!((f.lateral - expect).abs() < 1e-2, "{f:?} vs {expect}");
        assert!((f.slip_angle - 0.01).abs() < 1e-5);
    }

    #[test]
    fn braking_and_cornering_share_the_friction_circle() {
        let s = TyreStep {
            brake_torque: 5000.0,
            v_lat: 3.0,
            ..base()
        };
        let f = solve(&s);
        let total = (f.longitudinal.powi(2) + f.lateral.powi(2)).sqrt();
        // Both saturated: the resultant is the limit (f32 rounding only) and each
        // part is less than it.
        assert!((total - 3000.0).abs() < 1e-1, "{f:?}");
        assert!(f.longitudinal < 0.0 && f.lateral < 0.0);
        assert!(f.longitudinal.abs() < 3000.0 && f.lateral.abs() < 3000.0);
    }

    #[test]
    fn slip_never_reverses_within_a_step_even_when_stiff() {
        // A wheel spinning 0.1 m/s faster than the ground with an absurdly stiff
        // tyre: the force may only bring the slip speed to zero, never past it.
        let s = TyreStep {
            v_long: 0.0,
            omega: 0.1 / 0.35,
            longitudinal_stiffness: 1.0e9,
            load: 1.0e9,
            ..base()
        };
        let f = solve(&s);
        let v_after = s.dt * f.longitudinal / s.mass_long;
        let u_after = f.omega * s.radius - v_after;
        assert!(
            u_after >= -1e-6 && f.longitudinal > 0.0,
            "{f:?} u {u_after}"
        );
    }

    #[test]
    fn drive_torque_spins_a_wheel_in_the_air() {
        let s = TyreStep {
            load: 0.0,
            v_long: 0.0,
            omega: 0.0,
            drive_torque: 100.0,
            ..base()
        };
        let f = solve(&s);
        // No load, no grip: all torque spins the wheel, dω = T dt / I.
        assert_eq!(f.longitudinal, 0.0);
        assert!((f.omega - 100.0 * s.dt).abs() < 1e-5);
    }
}
