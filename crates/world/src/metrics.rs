//! What a headless run reports about a world: a hash of its exact state (to
//! compare runs bit for bit), its kinetic energy, its deepest contact and its
//! number of contact points.

use crate::world::World;
use fathom_math::{Dim, Real, Space};
use serde::Serialize;

/// FNV-1a, 64-bit: a fixed, platform-independent hash (no random keys).
#[derive(Clone, Copy)]
pub struct Fnv1a(u64);

impl Default for Fnv1a {
    fn default() -> Self {
        Self(0xcbf2_9ce4_8422_2325)
    }
}

impl Fnv1a {
    /// Feeds bytes.
    pub fn write(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.0 ^= u64::from(*b);
            self.0 = self.0.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
    /// The hash so far.
    pub fn finish(&self) -> u64 {
        self.0
    }
}

/// The exact bytes of a serialisable value (postcard: every float bit as fixed-width
/// little-endian bytes; integers as varints, which are self-delimiting, so distinct values
/// give distinct bytes).
fn bytes_of<T: Serialize>(v: &T) -> Vec<u8> {
    postcard::to_stdvec(v).expect("plain data always encodes")
}

impl<const D: usize> World<D>
where
    Space<D>: Dim<D>,
{
    /// A 64-bit FNV-1a hash of every body's handle, pose and velocities, bit for bit,
    /// in handle order. Equal hashes mean (barring collisions) identical states.
    ///
    /// A snapshot restores a world bit for bit, so it steps on to the same hash:
    ///
    /// ```
    /// use fathom_math::Vector3;
    /// use fathom_world::{BodyDesc, ColliderDesc, Shape, World3};
    ///
    /// let mut world = World3::default();
    /// world.add_body(&BodyDesc::fixed()
    ///     .collider(ColliderDesc::new(Shape::half_space(Vector3::y(), 0.0)?)))?;
    /// world.add_body(&BodyDesc::dynamic()
    ///     .position(Vector3::new(0.0, 0.6, 0.0))
    ///     .angular_velocity(Vector3::new(0.0, 0.0, 3.0))
    ///     .collider(ColliderDesc::new(Shape::cuboid(Vector3::new(0.5, 0.5, 0.5))?)))?;
    /// for _ in 0..10 {
    ///     world.step();
    /// }
    /// let saved = world.snapshot(); // bytes; `snapshot_ron` gives text
    /// let mut copy = World3::from_snapshot(&saved)?;
    /// assert_eq!(copy.state_hash(), world.state_hash());
    ///
    /// for _ in 0..30 {
    ///     world.step();
    ///     copy.step();
    /// }
    /// assert_eq!(copy.state_hash(), world.state_hash()); // warm starts travel too
    /// world.restore(&saved)?; // rewind
    /// assert_ne!(copy.state_hash(), world.state_hash());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn state_hash(&self) -> u64 {
        let mut h = Fnv1a::default();
        for (handle, b) in self.bodies.iter() {
            h.write(&bytes_of(&handle));
            h.write(&bytes_of(&b.pose));
            h.write(&bytes_of(&b.linear_velocity));
            h.write(&bytes_of(&b.angular_velocity));
        }
        h.finish()
    }

    /// Total kinetic energy of the non-static bodies, J.
    pub fn kinetic_energy(&self) -> Real {
        self.bodies.iter().map(|(_, b)| b.kinetic_energy()).sum()
    }

    /// The deepest penetration among the current contacts, metres (0 when none penetrate).
    pub fn max_penetration(&self) -> Real {
        self.contacts
            .iter()
            .flat_map(|p| p.manifolds.iter())
            .flat_map(|m| m.points.iter())
            .map(|p| -p.separation)
            .fold(0.0, Real::max)
    }

    /// Number of candidate pairs the broadphase holds after the last step: colliders whose
    /// boxes (grown by their margins) overlap, of different bodies, at least one not static.
    pub fn candidate_pair_count(&self) -> usize {
        self.pairs.len()
    }

    /// Number of contact points in the current manifolds (speculative points included).
    pub fn contact_count(&self) -> usize {
        self.contacts
            .iter()
            .flat_map(|p| p.manifolds.iter())
            .map(|m| m.points.len())
            .sum()
    }
}
