//! Snapshots: the whole world (bodies, colliders, contact cache with its
//! warm-start impulses, touching pairs, pending events, step count) saved to
//! bytes or RON text and restored bit for bit.
//!
//! **Binary** is postcard 1 (serde; integers as varints, floats as fixed-width
//! little-endian bytes) behind a 32-byte header: magic `FTHMSNAP`, format
//! version, dimension, payload length and an FNV-1a checksum of the payload.
//! The header makes the failure modes precise: a short file is
//! [`SnapshotError::Truncated`], a flipped bit is [`SnapshotError::Checksum`],
//! a 2D snapshot loaded into a 3D world is [`SnapshotError::Dimension`].
//!
//! **RON** is the same data as text, `(version, dim, checksum, world, grids)`.
//! The checksum is FNV-1a of the binary payload, so a corrupted value is
//! caught after parsing; it is optional, so a hand-edited snapshot may drop it.
//! Floats survive the text round trip exactly (shortest round-trip printing).
//!
//! **Grids travel inside.** The payload is the world and then its grid table
//! (`snapshot/grids.rs`): the samples of every grid given by file, each distinct
//! grid once, so a snapshot restores without the grid files and bit for bit.
//!
//! **Decoding is depth-bounded.** Shape trees are read through
//! [`fathom_sdf::decode_shapes`]: a tree deeper than [`fathom_sdf::MAX_SHAPE_DEPTH`]
//! stops the decoder at that depth, [`SnapshotError::ShapeTooDeep`], in either format.
//!
//! **Restoring is all or nothing.** The snapshot is decoded into a fresh world
//! and checked (arenas' bookkeeping, handles that point at live objects, finite
//! values, valid settings and shapes) before it replaces the target, so on any
//! error the target world is untouched. Code does not serialise: the target's
//! pair filter hook stays installed. The broadphase is rebuilt from the saved
//! boxes; it only proposes candidates, so the restored world steps to the same
//! bits as the original.

use crate::arena::ColliderHandle;
use crate::contacts::{pair_key, CachedManifold};
use crate::error::{check_finite, check_finite_all, check_non_negative, WorldError};
use crate::metrics::Fnv1a;
use crate::world::World;
use fathom_math::{is_finite_vec, Dim, Space};
use fathom_sdf::{decode_shapes, ShapeDecodeError, MAX_SHAPE_DEPTH};
use fields::WorldFields;
use grids::GridTable;
use serde::{Deserialize, Serialize};
use thiserror::Error;

mod fields;
mod grids;

const MAGIC: &[u8; 8] = b"FTHMSNAP";
/// The snapshot format version this build writes and reads (2: bodies carry the guard's
/// frozen flag and solver settings the angular speed cap; 3: the grids of file sources
/// travel in the snapshot; 4: the payload is postcard, no longer bincode 2; 5: contact pairs
/// carry their reuse basis and settings the reuse distance; 6: bodies carry their locked axes
/// and kinematic target; 7: colliders carry their density, shapes may be edited or user fields).
pub const SNAPSHOT_VERSION: u16 = 7;
const HEADER_LEN: usize = 32;

/// Why a snapshot could not be restored. The target world is unchanged.
#[derive(Debug, Error, Clone, PartialEq)]
pub enum SnapshotError {
    /// Fewer bytes than the header or its payload length says.
    #[error("snapshot truncated: {expected} bytes expected, {found} present")]
    Truncated {
        /// Bytes the snapshot should have.
        expected: usize,
        /// Bytes given.
        found: usize,
    },
    /// More bytes than the header's payload length.
    #[error("snapshot has {extra} unexpected trailing bytes")]
    TrailingBytes {
        /// How many.
        extra: usize,
    },
    /// The data does not start with the snapshot magic.
    #[error("not a Fathom snapshot (bad magic bytes)")]
    BadMagic,
    /// Written by an incompatible format version.
    #[error("snapshot format version {found} is not supported (this build reads {supported})")]
    Version {
        /// Version in the snapshot.
        found: u16,
        /// Version this build reads.
        supported: u16,
    },
    /// The snapshot is of a world of another dimension.
    #[error("snapshot is of a {found}D world, this world is {expected}D")]
    Dimension {
        /// Dimension in the snapshot.
        found: u8,
        /// This world's dimension.
        expected: u8,
    },
    /// The payload does not match its checksum: corrupted data.
    #[error("snapshot corrupted: checksum {found:#018x}, expected {expected:#018x}")]
    Checksum {
        /// Checksum stored in the snapshot.
        expected: u64,
        /// Checksum of the data as read.
        found: u64,
    },
    /// The payload (binary) or text (RON) does not decode as a world.
    #[error("snapshot does not decode: {0}")]
    Decode(String),
    /// A shape tree in the snapshot is deeper than [`fathom_sdf::MAX_SHAPE_DEPTH`]; decoding
    /// stopped at that depth.
    #[error("snapshot holds a shape tree deeper than the limit of {max} nodes (MAX_SHAPE_DEPTH)")]
    ShapeTooDeep {
        /// The limit, [`fathom_sdf::MAX_SHAPE_DEPTH`].
        max: usize,
    },
    /// The snapshot names a user field that the restore was not given (see
    /// `World::restore_with_fields`): snapshots keep user fields by name only.
    #[error("snapshot holds user field `{name}`, which was not given to the restore (World::restore_with_fields)")]
    MissingUserField {
        /// The user field's name.
        name: String,
    },
    /// The snapshot decodes, but to a world that breaks an invariant.
    #[error("snapshot is inconsistent: {0}")]
    Inconsistent(String),
}

fn fnv(bytes: &[u8]) -> u64 {
    let mut h = Fnv1a::default();
    h.write(bytes);
    h.finish()
}

/// A decode failure as a snapshot error.
fn decode_error<E: std::fmt::Display>(e: ShapeDecodeError<E>) -> SnapshotError {
    match e {
        ShapeDecodeError::TooDeep => SnapshotError::ShapeTooDeep {
            max: MAX_SHAPE_DEPTH,
        },
        ShapeDecodeError::Format(e) => SnapshotError::Decode(e.to_string()),
    }
}

/// The binary payload as written: the world, then its grids.
#[derive(Serialize)]
#[serde(bound = "")]
struct PayloadRef<'a, const D: usize>
where
    Space<D>: Dim<D>,
{
    world: &'a World<D>,
    grids: &'a GridTable<D>,
}

/// The binary payload as read.
#[derive(Deserialize)]
#[serde(bound = "")]
struct Payload<const D: usize>
where
    Space<D>: Dim<D>,
{
    world: WorldFields<D>,
    grids: GridTable<D>,
}

/// The RON form as written.
#[derive(Serialize)]
#[serde(bound = "")]
struct RonSnapshotRef<'a, const D: usize>
where
    Space<D>: Dim<D>,
{
    version: u16,
    dim: u8,
    checksum: Option<u64>,
    world: &'a World<D>,
    grids: &'a GridTable<D>,
}

/// The RON form as read (a hand-written snapshot may leave out the checksum, and the grids
/// when the world names no grid file).
#[derive(Deserialize)]
#[serde(bound = "")]
struct RonSnapshot<const D: usize>
where
    Space<D>: Dim<D>,
{
    version: u16,
    dim: u8,
    #[serde(default)]
    checksum: Option<u64>,
    world: WorldFields<D>,
    #[serde(default)]
    grids: GridTable<D>,
}

impl<const D: usize> World<D>
where
    Space<D>: Dim<D>,
{
    fn payload(&self, grids: &GridTable<D>) -> Vec<u8> {
        // Plain data (numbers, vectors, enums) always encodes.
        postcard::to_stdvec(&PayloadRef { world: self, grids }).expect("a world always encodes")
    }

    /// The world as a binary snapshot (header + postcard payload of the world and its grids).
    pub fn snapshot(&self) -> Vec<u8> {
        let payload = self.payload(&GridTable::of(self));
        let mut out = Vec::with_capacity(HEADER_LEN + payload.len());
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&SNAPSHOT_VERSION.to_le_bytes());
        out.push(D as u8);
        out.extend_from_slice(&[0; 5]);
        out.extend_from_slice(&(payload.len() as u64).to_le_bytes());
        out.extend_from_slice(&fnv(&payload).to_le_bytes());
        out.extend_from_slice(&payload);
        out
    }

    /// The world as a RON snapshot.
    pub fn snapshot_ron(&self) -> String {
        let grids = GridTable::of(self);
        let snap = RonSnapshotRef {
            version: SNAPSHOT_VERSION,
            dim: D as u8,
            checksum: Some(fnv(&self.payload(&grids))),
            world: self,
            grids: &grids,
        };
        // Plain data always serialises to RON.
        ron::ser::to_string_pretty(&snap, ron::ser::PrettyConfig::default())
            .expect("a world always serialises")
    }

    /// A world restored from a binary snapshot. A world holding user fields needs
    /// [`World::from_snapshot_with_fields`].
    pub fn from_snapshot(bytes: &[u8]) -> Result<Self, SnapshotError> {
        Self::from_snapshot_using(bytes, &crate::UserFields::new())
    }

    pub(crate) fn from_snapshot_using(
        bytes: &[u8],
        fields: &crate::UserFields<D>,
    ) -> Result<Self, SnapshotError> {
        let payload = check_header::<D>(bytes)?;
        let (Payload { world, grids }, rest): (Payload<D>, &[u8]) =
            decode_shapes(|| postcard::take_from_bytes(payload)).map_err(decode_error)?;
        // A payload that decodes before its end is refused, not silently cut.
        if !rest.is_empty() {
            return Err(SnapshotError::TrailingBytes { extra: rest.len() });
        }
        Self::restored(world.into_unchecked_world(), &grids, fields)
    }

    /// A decoded world with its grids and user fields given back, checked and ready to step.
    fn restored(
        mut w: Self,
        grids: &GridTable<D>,
        fields: &crate::UserFields<D>,
    ) -> Result<Self, SnapshotError> {
        grids
            .attach(&mut w)
            .map_err(|e| SnapshotError::Inconsistent(e.to_string()))?;
        for (_, c) in w.colliders.iter_mut() {
            crate::user_field::attach_fields(&mut c.shape, fields)?;
        }
        w.check_restored()?;
        w.ensure_broadphase();
        Ok(w)
    }

    /// A world restored from a RON snapshot.
    pub fn from_snapshot_ron(text: &str) -> Result<Self, SnapshotError> {
        Self::from_snapshot_ron_using(text, &crate::UserFields::new())
    }

    pub(crate) fn from_snapshot_ron_using(
        text: &str,
        fields: &crate::UserFields<D>,
    ) -> Result<Self, SnapshotError> {
        let snap: RonSnapshot<D> =
            decode_shapes(|| fathom_sdf::ron_options().from_str(text)).map_err(decode_error)?;
        if snap.version != SNAPSHOT_VERSION {
            return Err(SnapshotError::Version {
                found: snap.version,
                supported: SNAPSHOT_VERSION,
            });
        }
        if snap.dim as usize != D {
            return Err(SnapshotError::Dimension {
                found: snap.dim,
                expected: D as u8,
            });
        }
        let world = snap.world.into_unchecked_world();
        if let Some(expected) = snap.checksum {
            let found = fnv(&world.payload(&snap.grids));
            if found != expected {
                return Err(SnapshotError::Checksum { expected, found });
            }
        }
        Self::restored(world, &snap.grids, fields)
    }

    /// Replaces this world by a binary snapshot; on error nothing changes. The pair
    /// filter hook stays.
    pub fn restore(&mut self, bytes: &[u8]) -> Result<(), SnapshotError> {
        let w = Self::from_snapshot(bytes)?;
        self.replace_keeping_hook(w);
        Ok(())
    }

    /// Replaces this world by a RON snapshot; on error nothing changes.
    pub fn restore_ron(&mut self, text: &str) -> Result<(), SnapshotError> {
        let w = Self::from_snapshot_ron(text)?;
        self.replace_keeping_hook(w);
        Ok(())
    }

    pub(crate) fn replace_keeping_hook(&mut self, mut w: Self) {
        w.hooks = std::mem::take(&mut self.hooks);
        *self = w;
    }

    /// The invariants a decoded world must satisfy before it may replace a live one.
    /// A restored per-pair list (`what` names its entries): live colliders, `a` below `b`,
    /// sorted by pair key without repeats.
    fn check_pair_list(
        &self,
        what: &str,
        pairs: impl Iterator<Item = (ColliderHandle, ColliderHandle)>,
    ) -> Result<(), String> {
        let mut last = None;
        for (a, b) in pairs {
            if !(self.colliders.contains(a) && self.colliders.contains(b) && a < b) {
                return Err(format!("{what} {a:?}-{b:?} is stale"));
            }
            let key = pair_key(a, b);
            if last.is_some_and(|l| l >= key) {
                return Err(format!("{what}s are not sorted"));
            }
            last = Some(key);
        }
        Ok(())
    }

    fn check_restored(&self) -> Result<(), SnapshotError> {
        let bad = SnapshotError::Inconsistent;
        self.settings.validate().map_err(|e| bad(e.to_string()))?;
        self.bodies
            .check_consistent()
            .map_err(|e| bad(format!("bodies: {e}")))?;
        self.colliders
            .check_consistent()
            .map_err(|e| bad(format!("colliders: {e}")))?;
        for (h, b) in self.bodies.iter() {
            let m = Space::<D>::rotation_matrix(&b.pose.rotation);
            let finite = is_finite_vec(&b.pose.translation.vector)
                && m.iter().all(|x| x.is_finite())
                && is_finite_vec(&b.linear_velocity)
                && Space::<D>::ang_is_finite(&b.angular_velocity)
                && b.inv_mass.is_finite()
                && b.mass.mass.is_finite();
            if !finite {
                return Err(bad(format!("body {h:?} has a non-finite value")));
            }
            check_body_values(b).map_err(|e| bad(format!("body {h:?}: {e}")))?;
            for c in &b.colliders {
                if self.colliders.get(*c).map(|c| c.body) != Some(h) {
                    return Err(bad(format!(
                        "body {h:?} lists collider {c:?} that is not its own"
                    )));
                }
            }
        }
        for (h, c) in self.colliders.iter() {
            let listed = self
                .bodies
                .get(c.body)
                .is_some_and(|b| b.colliders.contains(&h));
            if !listed {
                return Err(bad(format!(
                    "collider {h:?} is not attached to a live body"
                )));
            }
            c.shape
                .validate()
                .map_err(|e| bad(format!("collider {h:?}: {e}")))?;
            let rotation = Space::<D>::rotation_matrix(&c.world_pose.rotation);
            if c.aabb.is_empty()
                || !is_finite_vec(&c.aabb.min)
                || !is_finite_vec(&c.aabb.max)
                || !is_finite_vec(&c.world_pose.translation.vector)
                || !rotation.iter().all(|x| x.is_finite())
            {
                return Err(bad(format!("collider {h:?} has an invalid box or pose")));
            }
            check_collider_values(c).map_err(|e| bad(format!("collider {h:?}: {e}")))?;
        }
        self.joints
            .arena
            .check_consistent()
            .map_err(|e| bad(format!("joints: {e}")))?;
        for (h, j) in self.joints.arena.iter() {
            if !(self.bodies.contains(j.body_a) && self.bodies.contains(j.body_b)) {
                return Err(bad(format!("joint {h:?} joins a body that is not live")));
            }
        }
        let contacts = self.contacts.iter().map(|p| (p.a, p.b));
        self.check_pair_list("contact pair", contacts)
            .map_err(bad)?;
        for p in &self.contacts {
            for m in &p.manifolds {
                check_manifold_values(m)
                    .map_err(|e| bad(format!("contact pair {:?}-{:?}: {e}", p.a, p.b)))?;
            }
            if let Some(basis) = &p.basis {
                check_basis_values(basis)
                    .map_err(|e| bad(format!("contact pair {:?}-{:?}: {e}", p.a, p.b)))?;
            }
        }
        let separated = self.separated.iter().map(|p| (p.a, p.b));
        self.check_pair_list("separated pair", separated)
            .map_err(bad)?;
        for p in &self.separated {
            check_basis_values(&p.basis)
                .map_err(|e| bad(format!("separated pair {:?}-{:?}: {e}", p.a, p.b)))?;
        }
        if !self
            .touching
            .windows(2)
            .all(|w| (w[0].a, w[0].b) < (w[1].a, w[1].b))
        {
            return Err(bad("touching pairs are not sorted".into()));
        }
        Ok(())
    }
}

/// A restored body's values, checked as strictly as a [`crate::BodyDesc`]'s.
fn check_body_values<const D: usize>(b: &crate::body::Body<D>) -> Result<(), WorldError>
where
    Space<D>: Dim<D>,
{
    crate::desc::check_motion(b.linear_damping, b.angular_damping, b.gravity_scale)?;
    check_finite_all("force", b.force.iter())?;
    crate::desc::check_ang::<D>("torque", &b.torque)
}

/// A restored collider's values, checked as strictly as a [`crate::ColliderDesc`]'s.
fn check_collider_values<const D: usize>(c: &crate::body::Collider<D>) -> Result<(), WorldError>
where
    Space<D>: Dim<D>,
{
    crate::desc::check_material(c.friction, c.restitution, c.margin, c.force_event_threshold)?;
    fathom_sdf::check_non_negative("density", c.density)
        .map_err(|e| WorldError::invalid("density", e.to_string()))?;
    Ok(())
}

/// A restored contact's values: finite, with non-negative normal impulses (they warm-start
/// the solver, where one NaN froze every body it touched).
fn check_manifold_values<const D: usize>(m: &CachedManifold<D>) -> Result<(), WorldError>
where
    Space<D>: Dim<D>,
{
    check_finite_all("normal", m.normal.iter())?;
    for p in &m.points {
        check_finite_all("point_a", p.point_a.iter())?;
        check_finite_all("point_b", p.point_b.iter())?;
        check_finite("separation", p.separation)?;
        check_non_negative("normal_impulse", p.normal_impulse)?;
        check_non_negative("total_normal_impulse", p.total_normal_impulse)?;
        check_finite_all("friction_impulse", p.friction_impulse.iter())?;
    }
    Ok(())
}

/// A restored reuse basis: finite poses, non-negative finite reach and radii (a NaN reach
/// would keep stale manifolds forever).
fn check_basis_values<const D: usize>(b: &crate::reuse::PairBasis<D>) -> Result<(), WorldError>
where
    Space<D>: Dim<D>,
{
    for (field, pose) in [
        ("basis.pose_a", &b.pose_a),
        ("basis.pose_b", &b.pose_b),
        ("basis.reference", &b.reference),
    ] {
        let rotation = Space::<D>::rotation_matrix(&pose.rotation);
        let coords = pose.translation.vector.iter().chain(rotation.iter());
        check_finite_all(field, coords)?;
    }
    check_non_negative("basis.reach", b.reach)?;
    check_non_negative("basis.radius", b.radius[0])?;
    check_non_negative("basis.radius", b.radius[1])
}

/// The payload of a binary snapshot, after checking its header and checksum.
fn check_header<const D: usize>(bytes: &[u8]) -> Result<&[u8], SnapshotError> {
    if bytes.len() < HEADER_LEN {
        if bytes.len() >= MAGIC.len() && &bytes[..MAGIC.len()] != MAGIC {
            return Err(SnapshotError::BadMagic);
        }
        return Err(SnapshotError::Truncated {
            expected: HEADER_LEN,
            found: bytes.len(),
        });
    }
    if &bytes[..8] != MAGIC {
        return Err(SnapshotError::BadMagic);
    }
    let version = u16::from_le_bytes([bytes[8], bytes[9]]);
    if version != SNAPSHOT_VERSION {
        return Err(SnapshotError::Version {
            found: version,
            supported: SNAPSHOT_VERSION,
        });
    }
    if bytes[10] as usize != D {
        return Err(SnapshotError::Dimension {
            found: bytes[10],
            expected: D as u8,
        });
    }
    let word = |at: usize| u64::from_le_bytes(bytes[at..at + 8].try_into().expect("8 bytes"));
    let (len, expected) = (word(16), word(24));
    let body = &bytes[HEADER_LEN..];
    let want = usize::try_from(len).unwrap_or(usize::MAX);
    if body.len() < want {
        return Err(SnapshotError::Truncated {
            expected: HEADER_LEN.saturating_add(want),
            found: bytes.len(),
        });
    }
    if body.len() > want {
        return Err(SnapshotError::TrailingBytes {
            extra: body.len() - want,
        });
    }
    let found = fnv(body);
    if found != expected {
        return Err(SnapshotError::Checksum { expected, found });
    }
    Ok(body)
}
