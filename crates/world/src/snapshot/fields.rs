//! Decoding a world only ever yields a checked one.
//!
//! `World`'s `Serialize` is derived; its `Deserialize` is not: a derived one would hand a
//! caller of `serde_json::from_str::<World3>` (or any serde format) a world nobody checked,
//! with NaN masses, stale handles or unloaded grids. Every decode reads [`WorldFields`] (the
//! saved fields, in the order `Serialize` writes them) and turns it into a world through
//! [`World::restored`], the check a snapshot restore runs.

use super::grids::GridTable;
use crate::arena::{Arena, BodyHandle, ColliderHandle};
use crate::body::{Body, Collider};
use crate::contacts::PairContacts;
use crate::events::{Touch, WorldEvent};
use crate::islands::SleepState;
use crate::joints::JointSet;
use crate::reuse::SeparatedPair;
use crate::world::{World, WorldSettings};
use fathom_math::{Dim, Space};
use serde::{Deserialize, Deserializer};

/// The serialised fields of a [`World`], as read and not yet checked.
#[derive(Deserialize)]
#[serde(bound = "")]
pub(super) struct WorldFields<const D: usize>
where
    Space<D>: Dim<D>,
{
    settings: WorldSettings<D>,
    bodies: Arena<Body<D>, BodyHandle>,
    colliders: Arena<Collider<D>, ColliderHandle>,
    contacts: Vec<PairContacts<D>>,
    step_count: u64,
    #[serde(default)]
    joints: JointSet<D>,
    #[serde(default)]
    sleep: SleepState,
    #[serde(default)]
    events: Vec<WorldEvent<D>>,
    #[serde(default)]
    touching: Vec<Touch>,
    #[serde(default)]
    separated: Vec<SeparatedPair<D>>,
}

impl<const D: usize> WorldFields<D>
where
    Space<D>: Dim<D>,
{
    /// The fields as a world, unchecked: only [`World::restored`] may take it further.
    pub(super) fn into_unchecked_world(self) -> World<D> {
        let mut w = World::with_valid_settings(self.settings);
        w.bodies = self.bodies;
        w.colliders = self.colliders;
        w.contacts = self.contacts;
        w.step_count = self.step_count;
        w.joints = self.joints;
        w.sleep = self.sleep;
        w.events = self.events;
        w.touching = self.touching;
        w.separated = self.separated;
        w.broadphase_ready = false;
        w
    }
}

/// A world read by any serde format, checked as a snapshot restore checks it. A world whose
/// colliders name grid files has no grids here and is refused: it travels as a snapshot
/// ([`World::snapshot`]), which carries them.
impl<'de, const D: usize> Deserialize<'de> for World<D>
where
    Space<D>: Dim<D>,
{
    fn deserialize<De: Deserializer<'de>>(deserializer: De) -> Result<Self, De::Error> {
        let w = WorldFields::<D>::deserialize(deserializer)?.into_unchecked_world();
        World::restored(w, &GridTable::default(), &crate::UserFields::new())
            .map_err(serde::de::Error::custom)
    }
}
