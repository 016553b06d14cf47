//! 3D-only primitives: solids of revolution about the local y axis.
//!
//! Each is the revolution of a 2D profile in the `(ρ, y)` half-plane, where
//! `ρ = sqrt(x² + z²)` is the distance from the axis. The 3D distance to a
//! solid of revolution is the 2D distance from `(ρ, y)` to its profile (the
//! profile's edge on the axis is not a surface, and for `ρ >= 0` it is never
//! the nearest edge), so each field is exact and its gradient is the 2D one
//! turned back into 3D along the radial direction. The capped torus, a swept
//! ball along an arc, is exact outside and a 1-Lipschitz bound inside.

use super::basic::box_distance_gradient;
use crate::error::{check_positive, Result, SdfError};
use crate::Sdf;
use fathom_math::{Aabb, Real, Vector2, Vector3};
use serde::{Deserialize, Serialize};
use std::f32::consts::{FRAC_PI_2, PI};

/// `(ρ, y)` of `p` and the unit radial direction in the xz plane (+x on the axis).
fn revolve(p: &Vector3) -> (Vector2, Vector3) {
    let rho = (p.x * p.x + p.z * p.z).sqrt();
    let dir = if rho > 1e-12 {
        Vector3::new(p.x / rho, 0.0, p.z / rho)
    } else {
        Vector3::x()
    };
    (Vector2::new(rho, p.y), dir)
}

/// The 3D vector of a `(ρ, y)` profile vector at radial direction `dir`.
fn unrevolve(g: &Vector2, dir: &Vector3) -> Vector3 {
    dir * g.x + Vector3::y() * g.y
}

/// The closest point to `p` on the segment `a b`.
pub(crate) fn closest_on_segment(p: &Vector2, a: &Vector2, b: &Vector2) -> Vector2 {
    let ab = b - a;
    let len2 = ab.norm_squared();
    let t = if len2 > 0.0 {
        ((p - a).dot(&ab) / len2).clamp(0.0, 1.0)
    } else {
        0.0
    };
    a + ab * t
}

/// A cylinder along the local y axis, from `-half_height` to `+half_height`. Exact.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Cylinder {
    /// Half the height, metres.
    pub half_height: Real,
    /// Radius, metres.
    pub radius: Real,
}

impl Cylinder {
    /// A cylinder (both sizes finite and positive).
    pub fn new(half_height: Real, radius: Real) -> Result<Self> {
        Ok(Self {
            half_height: check_positive("half_height", half_height)?,
            radius: check_positive("radius", radius)?,
        })
    }

    /// Checks the fields as [`Cylinder::new`] does.
    pub fn validate(&self) -> Result<()> {
        Self::new(self.half_height, self.radius).map(drop)
    }

    fn eval(&self, p: &Vector3) -> (Real, Vector3) {
        let (q, dir) = revolve(p);
        // The profile is the rectangle [0, r] x [-h, h]; for ρ >= 0 its distance is that of the
        // symmetric box [-r, r] x [-h, h].
        let (d, g) = box_distance_gradient(&Vector2::new(self.radius, self.half_height), &q);
        (d, unrevolve(&g, &dir))
    }
}

impl Sdf<3> for Cylinder {
    fn distance(&self, p: &Vector3) -> Real {
        self.eval(p).0
    }
    fn bounds(&self) -> Aabb<3> {
        let h = Vector3::new(self.radius, self.half_height, self.radius);
        Aabb::from_center_half_extents(Vector3::zeros(), h)
    }
    fn gradient(&self, p: &Vector3) -> Vector3 {
        self.eval(p).1
    }
}

/// A cone along the local y axis: a base disc of `radius` at `y = -half_height`, the apex at
/// `y = +half_height`. Exact.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Cone {
    /// Half the height, metres.
    pub half_height: Real,
    /// Radius of the base, metres.
    pub radius: Real,
}

impl Cone {
    /// A cone (both sizes finite and positive).
    pub fn new(half_height: Real, radius: Real) -> Result<Self> {
        Ok(Self {
            half_height: check_positive("half_height", half_height)?,
            radius: check_positive("radius", radius)?,
        })
    }

    /// Checks the fields as [`Cone::new`] does.
    pub fn validate(&self) -> Result<()> {
        Self::new(self.half_height, self.radius).map(drop)
    }

    fn eval(&self, p: &Vector3) -> (Real, Vector3) {
        let (h, r) = (self.half_height, self.radius);
        let (q, dir) = revolve(p);
        // Profile: the triangle apex (0, h), rim (r, -h), base centre (0, -h); its real surface is
        // the slant edge and the base edge.
        let (apex, rim, base) = (
            Vector2::new(0.0, h),
            Vector2::new(r, -h),
            Vector2::new(0.0, -h),
        );
        let on_slant = closest_on_segment(&q, &apex, &rim);
        let on_base = closest_on_segment(&q, &rim, &base);
        let (c, normal) = if (q - on_slant).norm_squared() <= (q - on_base).norm_squared() {
            (on_slant, Vector2::new(2.0 * h, r).normalize())
        } else {
            (on_base, Vector2::new(0.0, -1.0))
        };
        let inside = q.y >= -h && q.y <= h && q.x <= r * (h - q.y) / (2.0 * h);
        let sign = if inside { -1.0 } else { 1.0 };
        let v = q - c;
        let len = v.norm();
        let g = if len > 1e-12 {
            v * (sign / len)
        } else {
            normal
        };
        (sign * len, unrevolve(&g, &dir))
    }
}

impl Sdf<3> for Cone {
    fn distance(&self, p: &Vector3) -> Real {
        self.eval(p).0
    }
    fn bounds(&self) -> Aabb<3> {
        let h = Vector3::new(self.radius, self.half_height, self.radius);
        Aabb::from_center_half_extents(Vector3::zeros(), h)
    }
    fn gradient(&self, p: &Vector3) -> Vector3 {
        self.eval(p).1
    }
}

/// A ring torus about the local y axis: the points within `minor_radius` of the circle of
/// `major_radius` in the xz plane. Exact.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Torus {
    /// Radius of the core circle, metres.
    pub major_radius: Real,
    /// Radius of the tube, metres (less than `major_radius`).
    pub minor_radius: Real,
}

/// Checks `0 < minor < major` (a ring torus, with a hole).
fn check_torus_radii(major: Real, minor: Real) -> Result<()> {
    check_positive("major_radius", major)?;
    check_positive("minor_radius", minor)?;
    if minor >= major {
        return Err(SdfError::Invalid {
            field: "minor_radius",
            reason: format!("must be less than major_radius ({major}), got {minor}"),
        });
    }
    Ok(())
}

impl Torus {
    /// A torus with `0 < minor_radius < major_radius`.
    pub fn new(major_radius: Real, minor_radius: Real) -> Result<Self> {
        check_torus_radii(major_radius, minor_radius)?;
        Ok(Self {
            major_radius,
            minor_radius,
        })
    }

    /// Checks the fields as [`Torus::new`] does.
    pub fn validate(&self) -> Result<()> {
        check_torus_radii(self.major_radius, self.minor_radius)
    }

    fn core_offset(&self, p: &Vector3) -> (Vector2, Vector3) {
        let (q, dir) = revolve(p);
        (Vector2::new(q.x - self.major_radius, q.y), dir)
    }
}

impl Sdf<3> for Torus {
    fn distance(&self, p: &Vector3) -> Real {
        self.core_offset(p).0.norm() - self.minor_radius
    }
    fn bounds(&self) -> Aabb<3> {
        let e = self.major_radius + self.minor_radius;
        Aabb::from_center_half_extents(Vector3::zeros(), Vector3::new(e, self.minor_radius, e))
    }
    fn gradient(&self, p: &Vector3) -> Vector3 {
        let (q, dir) = self.core_offset(p);
        let len = q.norm();
        // On the core circle every direction across the tube is a normal; take the radial one.
        if len > 1e-12 {
            unrevolve(&(q / len), &dir)
        } else {
            dir
        }
    }
}

/// A capped torus: the points within `minor_radius` of an arc of the circle of
/// `major_radius` in the xz plane, centred on the +x axis and spanning
/// `±half_angle` (radians, towards +z and -z). Non-convex for `half_angle > π/2`.
/// Exact outside; inside, `minor_radius - dist(arc)` is a 1-Lipschitz lower bound.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CappedTorus {
    /// Radius of the arc, metres.
    pub major_radius: Real,
    /// Radius of the tube, metres (less than `major_radius`).
    pub minor_radius: Real,
    /// Half the angle the arc spans, radians, in `(0, π]` (π is a full torus).
    pub half_angle: Real,
}

impl CappedTorus {
    /// A capped torus with `0 < minor_radius < major_radius` and `half_angle` in `(0, π]`.
    pub fn new(major_radius: Real, minor_radius: Real, half_angle: Real) -> Result<Self> {
        let s = Self {
            major_radius,
            minor_radius,
            half_angle,
        };
        s.validate()?;
        Ok(s)
    }

    /// Checks the fields as [`CappedTorus::new`] does.
    pub fn validate(&self) -> Result<()> {
        check_torus_radii(self.major_radius, self.minor_radius)?;
        check_positive("half_angle", self.half_angle)?;
        if self.half_angle > PI {
            return Err(SdfError::Invalid {
                field: "half_angle",
                reason: format!("must be at most π, got {}", self.half_angle),
            });
        }
        Ok(())
    }

    fn arc_point(&self, angle: Real) -> Vector3 {
        Vector3::new(angle.cos(), 0.0, angle.sin()) * self.major_radius
    }

    /// The closest point of the arc to `p`: the radial projection when its angle is on the arc,
    /// else the end on the same side (the angular distance to it is the smaller one).
    fn closest_on_arc(&self, p: &Vector3) -> Vector3 {
        if p.x * p.x + p.z * p.z < 1e-24 {
            // On the axis every point of the arc is equally far.
            return self.arc_point(0.0);
        }
        let phi = p.z.atan2(p.x);
        self.arc_point(phi.clamp(-self.half_angle, self.half_angle))
    }
}

impl Sdf<3> for CappedTorus {
    fn distance(&self, p: &Vector3) -> Real {
        (p - self.closest_on_arc(p)).norm() - self.minor_radius
    }
    fn bounds(&self) -> Aabb<3> {
        // The arc's box: its ends and every axis extreme (angle 0, ±π/2, π) it passes.
        let a = self.half_angle;
        let mut b =
            Aabb::from_points(&[self.arc_point(-a), self.arc_point(a), self.arc_point(0.0)]);
        for (angle, reached) in [
            (FRAC_PI_2, a >= FRAC_PI_2),
            (-FRAC_PI_2, a >= FRAC_PI_2),
            (PI, a >= PI),
        ] {
            if reached {
                b = b.including(&self.arc_point(angle));
            }
        }
        b.loosened(self.minor_radius)
    }
    fn gradient(&self, p: &Vector3) -> Vector3 {
        let c = self.closest_on_arc(p);
        let v = p - c;
        let len = v.norm();
        if len > 1e-12 {
            v / len
        } else {
            // On the arc itself: the radial direction is across the tube.
            c / self.major_radius
        }
    }
}
