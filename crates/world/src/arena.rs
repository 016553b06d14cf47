//! Generational arenas and the typed handles that address them.
//!
//! A handle is an index plus the generation of the slot it was issued for;
//! removing a value bumps the slot's generation, so a stale handle finds
//! nothing instead of a stranger. Freed slots are reused last-in first-out,
//! which is deterministic: the same sequence of calls gives the same handles.
//! Iteration is in index order ("handle order"), which the world uses for
//! everything whose order can change results.

use serde::{Deserialize, Serialize};
use std::marker::PhantomData;

/// An index and a generation, untyped.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct RawHandle {
    /// Slot index in the arena.
    pub index: u32,
    /// Generation of the slot when the handle was issued.
    pub generation: u32,
}

impl RawHandle {
    /// The handle as one `u64` (index in the high half, so keys sort in handle order):
    /// the broadphase key.
    pub fn to_bits(self) -> u64 {
        (u64::from(self.index) << 32) | u64::from(self.generation)
    }

    /// The inverse of [`RawHandle::to_bits`].
    pub fn from_bits(bits: u64) -> Self {
        Self {
            index: (bits >> 32) as u32,
            generation: bits as u32,
        }
    }
}

/// Handle types wrap a [`RawHandle`].
pub trait Handle: Copy {
    /// Wraps a raw handle.
    fn from_raw(raw: RawHandle) -> Self;
    /// The raw handle.
    fn raw(self) -> RawHandle;
}

impl std::fmt::Display for RawHandle {
    /// `3v0`: slot 3, generation 0.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}v{}", self.index, self.generation)
    }
}

/// Writes a handle for people: `body 3v0` (Display) and `BodyHandle(3v0)` (Debug).
macro_rules! readable_handle {
    ($name:ident, $noun:literal) => {
        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                write!(f, concat!($noun, " {}"), self.0)
            }
        }

        impl std::fmt::Debug for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                write!(f, concat!(stringify!($name), "({})"), self.0)
            }
        }
    };
}
pub(crate) use readable_handle;

macro_rules! handle_type {
    ($(#[$doc:meta])* $name:ident, $noun:literal) => {
        $(#[$doc])*
        #[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
        pub struct $name(pub RawHandle);

        readable_handle!($name, $noun);

        impl Handle for $name {
            fn from_raw(raw: RawHandle) -> Self {
                Self(raw)
            }
            fn raw(self) -> RawHandle {
                self.0
            }
        }
    };
}

handle_type!(
    /// Addresses a body in a [`crate::World`]. Prints as `body 3v0` (slot 3, generation 0).
    BodyHandle,
    "body"
);
handle_type!(
    /// Addresses a collider in a [`crate::World`]. Prints as `collider 3v0`.
    ColliderHandle,
    "collider"
);

#[derive(Clone, Debug, Serialize, Deserialize)]
struct Slot<T> {
    generation: u32,
    value: Option<T>,
}

/// A generational arena of `T` addressed by handles of type `H`.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(bound(serialize = "T: Serialize", deserialize = "T: Deserialize<'de>"))]
pub struct Arena<T, H> {
    slots: Vec<Slot<T>>,
    free: Vec<u32>,
    len: usize,
    #[serde(skip)]
    marker: PhantomData<fn() -> H>,
}

impl<T, H> Default for Arena<T, H> {
    fn default() -> Self {
        Self {
            slots: Vec::new(),
            free: Vec::new(),
            len: 0,
            marker: PhantomData,
        }
    }
}

impl<T, H: Handle> Arena<T, H> {
    /// An empty arena.
    pub fn new() -> Self {
        Self::default()
    }

    /// Number of live values.
    pub fn len(&self) -> usize {
        self.len
    }

    /// True when no value is live.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// One more than the largest index ever used (the size dense side tables need).
    pub fn capacity_index(&self) -> usize {
        self.slots.len()
    }

    /// The handle `insert` would return next.
    pub fn next_handle(&self) -> H {
        match self.free.last() {
            Some(&i) => H::from_raw(RawHandle {
                index: i,
                generation: self.slots[i as usize].generation,
            }),
            None => H::from_raw(RawHandle {
                index: self.slots.len() as u32,
                generation: 0,
            }),
        }
    }

    /// Stores `value` and returns its handle.
    pub fn insert(&mut self, value: T) -> H {
        let h = self.next_handle();
        let raw = h.raw();
        match self.free.pop() {
            Some(i) => self.slots[i as usize].value = Some(value),
            None => self.slots.push(Slot {
                generation: raw.generation,
                value: Some(value),
            }),
        }
        self.len += 1;
        h
    }

    /// Removes and returns the value of `h`, or `None` when `h` is stale.
    pub fn remove(&mut self, h: H) -> Option<T> {
        let raw = h.raw();
        let slot = self.slots.get_mut(raw.index as usize)?;
        if slot.generation != raw.generation || slot.value.is_none() {
            return None;
        }
        let value = slot.value.take();
        slot.generation = slot.generation.wrapping_add(1);
        self.free.push(raw.index);
        self.len -= 1;
        value
    }

    /// The value of `h`, or `None` when `h` is stale.
    pub fn get(&self, h: H) -> Option<&T> {
        let raw = h.raw();
        let slot = self.slots.get(raw.index as usize)?;
        (slot.generation == raw.generation)
            .then_some(slot.value.as_ref())
            .flatten()
    }

    /// The value of `h` mutably, or `None` when `h` is stale.
    pub fn get_mut(&mut self, h: H) -> Option<&mut T> {
        let raw = h.raw();
        let slot = self.slots.get_mut(raw.index as usize)?;
        (slot.generation == raw.generation)
            .then_some(slot.value.as_mut())
            .flatten()
    }

    /// True when `h` addresses a live value.
    pub fn contains(&self, h: H) -> bool {
        self.get(h).is_some()
    }

    /// The live value at slot `index`, with its handle.
    pub fn get_by_index(&self, index: usize) -> Option<(H, &T)> {
        let slot = self.slots.get(index)?;
        let raw = RawHandle {
            index: index as u32,
            generation: slot.generation,
        };
        slot.value.as_ref().map(|v| (H::from_raw(raw), v))
    }

    /// Checks the bookkeeping a deserialised arena must satisfy (a snapshot could
    /// be corrupted): the live count matches, and every free slot index is in range,
    /// listed once and empty.
    pub fn check_consistent(&self) -> Result<(), String> {
        let live = self.slots.iter().filter(|s| s.value.is_some()).count();
        if live != self.len {
            return Err(format!("{live} live values but a count of {}", self.len));
        }
        let mut seen = vec![false; self.slots.len()];
        for &i in &self.free {
            match self.slots.get(i as usize) {
                Some(s) if s.value.is_none() && !seen[i as usize] => seen[i as usize] = true,
                _ => {
                    return Err(format!(
                        "free slot {i} is out of range, live or listed twice"
                    ))
                }
            }
        }
        Ok(())
    }

    /// Live values with their handles, in handle (index) order.
    pub fn iter(&self) -> impl Iterator<Item = (H, &T)> + '_ {
        self.slots.iter().enumerate().filter_map(|(i, s)| {
            let raw = RawHandle {
                index: i as u32,
                generation: s.generation,
            };
            s.value.as_ref().map(|v| (H::from_raw(raw), v))
        })
    }

    /// Live values mutably with their handles, in handle order.
    pub fn iter_mut(&mut self) -> impl Iterator<Item = (H, &mut T)> + '_ {
        self.slots.iter_mut().enumerate().filter_map(|(i, s)| {
            let raw = RawHandle {
                index: i as u32,
                generation: s.generation,
            };
            s.value.as_mut().map(|v| (H::from_raw(raw), v))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stale_handles_find_nothing_and_slots_are_reused() {
        let mut a: Arena<&str, BodyHandle> = Arena::new();
        let x = a.insert("x");
        let y = a.insert("y");
        assert_eq!(a.remove(x), Some("x"));
        assert_eq!(a.get(x), None);
        assert_eq!(a.remove(x), None);
        let z = a.insert("z");
        assert_eq!(z.0.index, x.0.index);
        assert_ne!(z, x);
        assert_eq!(a.get(z), Some(&"z"));
        assert_eq!(
            a.iter().map(|(_, v)| *v).collect::<Vec<_>>(),
            vec!["z", "y"]
        );
        assert_eq!(a.len(), 2);
        assert_eq!(RawHandle::from_bits(y.0.to_bits()), y.0);
    }
}
