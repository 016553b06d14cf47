//! Proxies: the user's key, tight box and kind, and which tree leaf holds its fat box.
//!
//! Keys are the user's `u64`s; internally a proxy lives in a slot of a `Vec`
//! (reused after removal) and the trees and partner lists speak in slots. A
//! hash map finds the slot of a key; it is only ever used for lookups, never
//! iterated, so no result depends on hash order.

use fathom_math::Aabb;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// Whether a proxy can move on its own.
///
/// Static proxies live in their own tree and are never tested against each
/// other, so a level of static shapes costs nothing while nothing moves near it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ProxyKind {
    /// Level geometry: never paired with another static proxy, no fat margin.
    Static,
    /// Anything that moves (dynamic or kinematic bodies, sensors on them).
    Dynamic,
}

impl ProxyKind {
    /// Index of this kind's tree.
    #[inline]
    pub(crate) fn tree(self) -> usize {
        match self {
            ProxyKind::Static => 0,
            ProxyKind::Dynamic => 1,
        }
    }
}

/// One proxy's state.
#[derive(Clone, Debug)]
pub(crate) struct Proxy<const D: usize> {
    /// The user's key.
    pub key: u64,
    /// The box the user last gave (world frame).
    pub tight: Aabb<D>,
    /// Static or dynamic.
    pub kind: ProxyKind,
    /// The leaf holding the fat box in the kind's tree.
    pub leaf: u32,
    /// Slots of the proxies whose fat boxes overlapped this one at the last
    /// pair update, sorted ascending (kept symmetric across proxies).
    pub partners: Vec<u32>,
    /// True when the fat box changed (or the proxy is new) since the last pair update.
    pub moved: bool,
    /// Proxies of one group never pair (the colliders of one body); `None`: no group.
    pub group: Option<u64>,
}

/// A cheap multiplicative hasher for `u64` keys (lookups only, never iterated).
#[derive(Default, Clone, Copy)]
pub(crate) struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(b as u64);
        }
    }

    fn write_u64(&mut self, x: u64) {
        // Fibonacci hashing; the rotate moves the well-mixed high bits low,
        // where hashbrown takes its bucket index.
        self.0 = (self.0 ^ x)
            .wrapping_mul(0x9E37_79B9_7F4A_7C15)
            .rotate_left(26);
    }
}

/// Key -> slot map.
pub(crate) type KeyMap = HashMap<u64, u32, BuildHasherDefault<KeyHasher>>;
