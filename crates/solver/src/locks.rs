//! Locked axes: a dynamic body that may not translate along, or rotate about, some world axes
//! (a character kept upright, a 3D body kept in a plane).
//!
//! A locked rotation axis is exact: the body's world inverse inertia is `P I⁻¹ P` with `P`
//! the free axes' projection, so no impulse or torque turns it about a locked axis and every
//! constraint sees the body as infinitely stiff there. A locked translation is a constraint
//! that comes last, as Box2D v3's motion locks are: the body stages zero the velocity along
//! the locked axis before the body moves, so its coordinate never changes.

use fathom_math::{AngVector, Dim, Real, Space, Vector};
use serde::{Deserialize, Serialize};

/// Which world axes of a dynamic body are locked. The default locks nothing. A 2D body has
/// no z translation and no x or y rotation, so locking those changes nothing (and
/// [`LockedAxes::ROTATION`] fixes its one rotation).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct LockedAxes {
    /// No motion along the world x axis.
    pub translation_x: bool,
    /// No motion along the world y axis.
    pub translation_y: bool,
    /// No motion along the world z axis (3D only).
    pub translation_z: bool,
    /// No rotation about the world x axis (3D only).
    pub rotation_x: bool,
    /// No rotation about the world y axis (3D only).
    pub rotation_y: bool,
    /// No rotation about the world z axis (in 2D, the body's only rotation).
    pub rotation_z: bool,
}

impl LockedAxes {
    /// Nothing locked.
    pub const NONE: Self = Self {
        translation_x: false,
        translation_y: false,
        translation_z: false,
        rotation_x: false,
        rotation_y: false,
        rotation_z: false,
    };
    /// Every rotation locked (Box2D's fixed rotation): the body only translates.
    pub const ROTATION: Self = Self {
        rotation_x: true,
        rotation_y: true,
        rotation_z: true,
        ..Self::NONE
    };
    /// Every translation locked: the body only turns about its centre of mass.
    pub const TRANSLATION: Self = Self {
        translation_x: true,
        translation_y: true,
        translation_z: true,
        ..Self::NONE
    };

    /// True when nothing is locked.
    #[inline(always)]
    pub fn is_none(&self) -> bool {
        !(self.translation_x
            | self.translation_y
            | self.translation_z
            | self.rotation_x
            | self.rotation_y
            | self.rotation_z)
    }

    /// 1 on each free translation axis, 0 on each locked one.
    pub fn translation_mask<const D: usize>(&self) -> Vector<D>
    where
        Space<D>: Dim<D>,
    {
        let free = [
            !self.translation_x,
            !self.translation_y,
            !self.translation_z,
        ];
        Vector::<D>::from_fn(|i, _| Real::from(u8::from(free[i])))
    }

    /// 1 on each free rotation axis, 0 on each locked one.
    pub fn rotation_mask<const D: usize>(&self) -> AngVector<D>
    where
        Space<D>: Dim<D>,
    {
        Space::<D>::ang_mask([!self.rotation_x, !self.rotation_y, !self.rotation_z])
    }

    /// Velocities `(v, w)` without their components along and about the locked axes.
    pub fn constrain<const D: usize>(
        &self,
        v: &Vector<D>,
        w: &AngVector<D>,
    ) -> (Vector<D>, AngVector<D>)
    where
        Space<D>: Dim<D>,
    {
        (
            v.component_mul(&self.translation_mask::<D>()),
            Space::<D>::ang_masked(w, &self.rotation_mask::<D>()),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn masks_follow_the_locks_in_both_dimensions() {
        let locks = LockedAxes {
            translation_y: true,
            rotation_z: true,
            ..LockedAxes::NONE
        };
        assert_eq!(
            locks.translation_mask::<3>(),
            Vector::<3>::new(1.0, 0.0, 1.0)
        );
        assert_eq!(locks.rotation_mask::<3>(), Vector::<3>::new(1.0, 1.0, 0.0));
        assert_eq!(locks.translation_mask::<2>(), Vector::<2>::new(1.0, 0.0));
        assert_eq!(locks.rotation_mask::<2>(), 0.0);
        assert_eq!(LockedAxes::ROTATION.rotation_mask::<2>(), 0.0);
    }
}
