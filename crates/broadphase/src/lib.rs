//! fathom-broadphase: candidate pairs from bounding boxes, for 2D and 3D from one source.
//!
//! # Where it fits
//!
//! - Depends only on `fathom-math`: it knows boxes and keys, not shapes.
//! - `fathom-world` keeps one proxy per collider (the key is the collider handle's bits),
//!   hands the pairs it finds to `fathom-narrowphase`, and uses its casts as the first cut of
//!   every scene query.
//!
//! # API
//!
//! ```
//! use fathom_broadphase::{Broadphase, ProxyKind, QueryControl};
//! use fathom_math::{Aabb, Vector3};
//!
//! let mut bp = Broadphase::<3>::new();
//! let unit = |x: f32| Aabb::new(Vector3::new(x, 0.0, 0.0), Vector3::new(x + 1.0, 1.0, 1.0));
//! bp.insert(1, unit(0.0), ProxyKind::Static)?;
//! bp.insert(2, unit(0.5), ProxyKind::Dynamic)?;
//! assert_eq!(bp.update_pairs().began, vec![(1, 2)]);
//! bp.update(2, unit(5.0))?; // moved away, past its fat box
//! assert_eq!(bp.update_pairs().ended, vec![(1, 2)]);
//! let hits = bp.ray_hits(&Vector3::new(-1.0, 0.5, 0.5), &Vector3::x(), 100.0)?;
//! assert_eq!(hits.iter().map(|h| h.key).collect::<Vec<_>>(), vec![1, 2]);
//! # Ok::<(), fathom_broadphase::BroadphaseError>(())
//! ```
//!
//! - [`Broadphase::insert`]`(key: u64, aabb, ProxyKind)`, [`Broadphase::insert_many`],
//!   [`Broadphase::update`]`(key, aabb) -> bool`, [`Broadphase::remove`]`(key)`: edits, all
//!   `Result<_, BroadphaseError>` (bad box, unknown or duplicate key). Boxes are world-frame.
//! - [`Broadphase::update_pairs`]` -> PairChanges { began, ended }`: the pairs `(min key, max
//!   key)` that began and ended overlapping since the last call, each list sorted; identical for
//!   any thread count. [`Broadphase::pairs`] lists the current set.
//! - Queries on tight boxes: [`Broadphase::overlapping`] / [`Broadphase::for_each_overlapping`],
//!   [`Broadphase::containing`] / [`Broadphase::for_each_containing`], and front-to-back casts
//!   [`Broadphase::cast_ray`] / [`Broadphase::cast_sphere`] (callback returns
//!   [`QueryControl`]: continue, stop, or clip the max distance) with collecting variants
//!   [`Broadphase::ray_hits`] / [`Broadphase::sphere_hits`].
//!
//! # Which boxes
//!
//! **Pairs are found on fat boxes.** A dynamic proxy's fat box is its tight box grown by
//! [`BroadphaseConfig::margin`] (default 0.1 m); it is only recomputed (from the current tight
//! box) when the tight box leaves it; updated with its displacement a step
//! ([`Broadphase::update_moving`]), it also reaches [`BroadphaseConfig::prediction`] (4)
//! displacements ahead, so a falling body is re-inserted every few steps rather than every
//! one or two. Static proxies have no margin. Two proxies are paired
//! when their fat boxes ([`Broadphase::fat_aabb`]) overlap, touching included, and at least one
//! is dynamic; begin/end events are exactly the difference of that set between two calls (the
//! tests check it against [`Broadphase::brute_force_pairs`]). This gives the world hysteresis:
//! a pair that separates by less than the margin stays a candidate, so contacts do not flicker.
//! **Queries use tight boxes**, so their answers do not depend on the margin.
//!
//! # Structure and why
//!
//! Two dynamic AABB trees (see `tree.rs`): one for static proxies, one for dynamic ones.
//! Static proxies are never tested against each other, and a proxy that does not move
//! (asleep, or static) costs nothing per step: only proxies whose fat box changed are
//! re-inserted and re-queried (`pairs.rs`). When a quarter or more of the proxies moved (e.g.
//! the first update after loading a level), pairs come instead from one tree-against-tree
//! traversal (`traverse.rs`), which shares the upper levels' box tests.
//!
//! Sweep-and-prune was not built, so the tree is the default by construction, not by
//! measurement. Measured against parry3d 0.31's BVH on the same fat boxes
//! (`benches/broadphase.rs`, 3D, 2 busy cores): a step with 10% of the proxies moving is
//! faster than parry's update + refit + change-detection traversal at 1k and 10k proxies
//! (0.6-0.8x on most rows) but 1.5-1.7x slower at 100k; a from-scratch bulk build is
//! 1.1-1.75x slower and finding every pair from scratch 3.5-8x slower (parry's wide nodes
//! keep both children's boxes in one cache line, and this crate also builds per-proxy
//! partner lists and key-sorted events, which parry's raw pair callback does not).
#![warn(missing_docs)]

mod broadphase;
mod error;
mod pairs;
mod proxy;
mod queries;
mod traverse;
mod tree;

pub use broadphase::{Broadphase, BroadphaseConfig, BroadphaseStats};
pub use error::BroadphaseError;
pub use pairs::PairChanges;
pub use proxy::ProxyKind;
pub use queries::{CastHit, QueryControl};

/// 2D broadphase.
pub type Broadphase2 = Broadphase<2>;
/// 3D broadphase.
pub type Broadphase3 = Broadphase<3>;
