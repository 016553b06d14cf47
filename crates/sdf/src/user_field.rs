//! A field the user implements, as a shape: any `Arc<dyn Sdf<D>>` with a name.
//!
//! The field's own Lipschitz constant and bounds are used as declared, after a sampled check
//! ([`UserField::new`]): a clearly false Lipschitz claim would let the narrowphase's
//! bound-split search prune cells that hold contacts, so it is refused with
//! [`SdfError::LipschitzClaim`], naming the field.
//!
//! Code cannot be written to a file: a user field serialises as its name alone and reads back
//! *detached*. A detached field is an error wherever a shape is validated (scene loading,
//! snapshot restore) until the application attaches the field again by name
//! ([`UserField::attach`]; `fathom-world` does it in `World::restore_with_fields`).

use crate::{Sdf, SdfError, ShapeKind};
use fathom_math::{Aabb, Real, Vector};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::sync::Arc;

/// Sample points of the Lipschitz check (deterministic: a Halton sequence in the bounds).
pub const LIPSCHITZ_SAMPLES: usize = 512;
/// Slack on the declared constant: a claim is refused when a sampled slope exceeds it by
/// more than this factor (central-difference round-off on `f32` stays far below 5%).
pub const LIPSCHITZ_SLACK: Real = 1.05;

/// A named user field (see the module docs).
#[derive(Clone)]
pub struct UserField<const D: usize> {
    name: String,
    field: Option<Arc<dyn Sdf<D>>>,
}

impl<const D: usize> std::fmt::Debug for UserField<D> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("UserField")
            .field("name", &self.name)
            .field("attached", &self.field.is_some())
            .finish()
    }
}

/// Two user fields are equal when their names are and they hold the same field (or both none).
impl<const D: usize> PartialEq for UserField<D> {
    fn eq(&self, other: &Self) -> bool {
        self.name == other.name
            && match (&self.field, &other.field) {
                (Some(a), Some(b)) => Arc::ptr_eq(a, b),
                (None, None) => true,
                _ => false,
            }
    }
}

/// The 2, 3, 5 Halton radical inverse of `i`: a point of the unit cube, evenly spread.
fn halton(mut i: usize, base: usize) -> Real {
    let (mut f, mut r) = (1.0 as Real, 0.0 as Real);
    while i > 0 {
        f /= base as Real;
        r += f * (i % base) as Real;
        i /= base;
    }
    r
}

impl<const D: usize> UserField<D> {
    /// Wraps `field` under `name`, checking its declared bounds and Lipschitz constant: bounds
    /// finite and not empty, the constant finite and positive, the distance finite at every
    /// sample, and no sampled slope steeper than the claim (see [`LIPSCHITZ_SLACK`]).
    pub fn new(name: impl Into<String>, field: Arc<dyn Sdf<D>>) -> crate::Result<Self> {
        let name = name.into();
        check(&name, &*field)?;
        Ok(Self {
            name,
            field: Some(field),
        })
    }

    /// The name it is saved and re-attached by.
    pub fn name(&self) -> &str {
        &self.name
    }
    /// The field, `None` while detached (read from a file).
    pub fn field(&self) -> Option<&Arc<dyn Sdf<D>>> {
        self.field.as_ref()
    }
    /// True while a field is attached.
    pub fn is_attached(&self) -> bool {
        self.field.is_some()
    }

    /// Attaches `field` (checked as by [`UserField::new`]) to this detached entry.
    pub fn attach(&mut self, field: Arc<dyn Sdf<D>>) -> crate::Result<()> {
        check(&self.name, &*field)?;
        self.field = Some(field);
        Ok(())
    }

    /// Ok when attached; a detached field is [`SdfError::Detached`].
    pub fn validate(&self) -> crate::Result<()> {
        match self.field {
            Some(_) => Ok(()),
            None => Err(SdfError::Detached {
                name: self.name.clone(),
            }),
        }
    }
}

/// The sampled check of [`UserField::new`].
fn check<const D: usize>(name: &str, field: &dyn Sdf<D>) -> crate::Result<()> {
    let invalid = |reason: String| SdfError::UserField {
        name: name.to_string(),
        reason,
    };
    let b = field.bounds();
    let finite = b.min.iter().chain(b.max.iter()).all(|x| x.is_finite());
    if !finite || b.is_empty() {
        return Err(invalid(format!(
            "its bounds must be finite and not empty, got {b:?}"
        )));
    }
    let declared = field.lipschitz();
    if !(declared.is_finite() && declared > 0.0) {
        return Err(invalid(format!(
            "its Lipschitz constant must be finite and positive, got {declared}"
        )));
    }
    // Pairs a short step apart (a hundredth of the box) along each axis and a diagonal, from
    // points spread through the bounds loosened a little (the field is used outside them too).
    let region = b.loosened(0.05 * b.radius().max(1e-3));
    let step = (region.extents().max() * 0.01).max(1e-4);
    let bases = [2, 3, 5];
    let mut steepest: Real = 0.0;
    for i in 1..=LIPSCHITZ_SAMPLES {
        let p = Vector::<D>::from_fn(|k, _| {
            region.min[k] + halton(i, bases[k.min(2)]) * region.extents()[k]
        });
        let dp = field.distance(&p);
        if !dp.is_finite() {
            return Err(invalid(format!("its distance at {p:?} is {dp}")));
        }
        for axis in 0..=D {
            let mut e = Vector::<D>::zeros();
            if axis < D {
                e[axis] = step;
            } else {
                e.fill(step / (D as Real).sqrt());
            }
            let dq = field.distance(&(p + e));
            let slope = (dq - dp).abs() / step;
            if slope.is_finite() {
                steepest = steepest.max(slope);
            }
        }
    }
    if steepest > declared * LIPSCHITZ_SLACK {
        return Err(SdfError::LipschitzClaim {
            name: name.to_string(),
            declared,
            observed: steepest,
        });
    }
    Ok(())
}

impl<const D: usize> Sdf<D> for UserField<D> {
    fn distance(&self, p: &Vector<D>) -> Real {
        // Detached fields never reach a world (validation refuses them); far away if asked.
        self.field.as_ref().map_or(Real::MAX, |f| f.distance(p))
    }
    fn bounds(&self) -> Aabb<D> {
        self.field.as_ref().map_or(Aabb::EMPTY, |f| f.bounds())
    }
    fn level_bounds(&self, level: Real) -> Aabb<D> {
        self.field
            .as_ref()
            .map_or(Aabb::EMPTY, |f| f.level_bounds(level))
    }
    fn gradient(&self, p: &Vector<D>) -> Vector<D> {
        match &self.field {
            Some(f) => crate::normalize_or_axis(f.gradient(p)),
            None => crate::normalize_or_axis(Vector::<D>::zeros()),
        }
    }
    fn lipschitz(&self) -> Real {
        self.field.as_ref().map_or(1.0, |f| f.lipschitz())
    }
    /// Always general: a user's closed-form claim is not checked, so it is not trusted.
    fn kind(&self) -> ShapeKind<D> {
        ShapeKind::General
    }
}

/// Written as its name alone.
#[derive(Serialize, Deserialize)]
#[serde(rename = "UserField", deny_unknown_fields)]
struct UserFieldName {
    name: String,
}

impl<const D: usize> Serialize for UserField<D> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        UserFieldName {
            name: self.name.clone(),
        }
        .serialize(serializer)
    }
}

impl<'de, const D: usize> Deserialize<'de> for UserField<D> {
    fn deserialize<De: Deserializer<'de>>(deserializer: De) -> Result<Self, De::Error> {
        let n = UserFieldName::deserialize(deserializer)?;
        Ok(Self {
            name: n.name,
            field: None,
        })
    }
}
