//! User fields as colliders, and how they come back from a snapshot.
//!
//! Any `Arc<dyn Sdf<D>>` becomes a collider shape through [`fathom_sdf::Shape::user`], which
//! checks its declared bounds and Lipschitz constant by sampling (a clearly false claim is
//! [`fathom_sdf::SdfError::LipschitzClaim`], naming the field). As a [`Shape`] it takes every
//! path a built-in shape takes: contacts (searched as a general field), casts, scene queries
//! and mass (integrated from the field).
//!
//! **Saving.** Code cannot be written to a file, so a snapshot (or scene) keeps a user field
//! by its name only. Restoring a world that holds one needs the field again:
//! [`World::restore_with_fields`] / [`World::from_snapshot_with_fields`] take a
//! [`UserFields`] registry, name to field; a name missing from it is
//! [`SnapshotError::MissingUserField`], and the target world is left unchanged. The plain
//! [`World::restore`] is the same call with an empty registry.

use crate::snapshot::SnapshotError;
use crate::world::World;
use fathom_math::{Dim, Space};
use fathom_sdf::{Sdf, Shape};
use std::collections::BTreeMap;
use std::sync::Arc;

/// User fields by name, to attach again when a snapshot is restored.
#[derive(Clone, Default)]
pub struct UserFields<const D: usize> {
    fields: BTreeMap<String, Arc<dyn Sdf<D>>>,
}

impl<const D: usize> std::fmt::Debug for UserFields<D> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_set().entries(self.fields.keys()).finish()
    }
}

impl<const D: usize> UserFields<D> {
    /// An empty registry.
    pub fn new() -> Self {
        Self {
            fields: BTreeMap::new(),
        }
    }
    /// Registers `field` under `name` (replacing any field of that name).
    pub fn insert(&mut self, name: impl Into<String>, field: Arc<dyn Sdf<D>>) -> &mut Self {
        self.fields.insert(name.into(), field);
        self
    }
    /// The field registered under `name`.
    pub fn get(&self, name: &str) -> Option<&Arc<dyn Sdf<D>>> {
        self.fields.get(name)
    }
}

/// Attaches every detached user field in `shape` from `fields`.
pub(crate) fn attach_fields<const D: usize>(
    shape: &mut Shape<D>,
    fields: &UserFields<D>,
) -> Result<(), SnapshotError>
where
    Space<D>: Dim<D>,
{
    let mut missing = None;
    let result = shape.for_each_user_field_mut(&mut |u| {
        if u.is_attached() {
            return Ok(());
        }
        match fields.get(u.name()) {
            Some(f) => u.attach(Arc::clone(f)),
            None => {
                missing = Some(u.name().to_string());
                Ok(())
            }
        }
    });
    if let Some(name) = missing {
        return Err(SnapshotError::MissingUserField { name });
    }
    result.map_err(|e| SnapshotError::Inconsistent(e.to_string()))
}

impl<const D: usize> World<D>
where
    Space<D>: Dim<D>,
{
    /// [`World::from_snapshot`], attaching the user fields it names from `fields`.
    pub fn from_snapshot_with_fields(
        bytes: &[u8],
        fields: &UserFields<D>,
    ) -> Result<Self, SnapshotError> {
        Self::from_snapshot_using(bytes, fields)
    }

    /// [`World::restore`], attaching the user fields the snapshot names from `fields`; a name
    /// missing there is [`SnapshotError::MissingUserField`] and nothing changes.
    pub fn restore_with_fields(
        &mut self,
        bytes: &[u8],
        fields: &UserFields<D>,
    ) -> Result<(), SnapshotError> {
        let w = Self::from_snapshot_using(bytes, fields)?;
        self.replace_keeping_hook(w);
        Ok(())
    }

    /// [`World::restore_ron`] with user fields, as [`World::restore_with_fields`].
    pub fn restore_ron_with_fields(
        &mut self,
        text: &str,
        fields: &UserFields<D>,
    ) -> Result<(), SnapshotError> {
        let w = Self::from_snapshot_ron_using(text, fields)?;
        self.replace_keeping_hook(w);
        Ok(())
    }
}
