//! Which code answers which pair of shapes: one table over shape kinds, filled in one place.
//!
//! Every pair module answers its natural order (the special shape first: ball, capsule,
//! half-space, mesh samples). The table says, for each ordered pair of kinds, which module
//! answers and whether the inputs must be swapped; a swapped pair is answered by
//! [`Flipped`], which swaps the points and negates the normals back. Pairs with no sensible
//! answer (two half-spaces, two meshes of samples) are `Unsupported`, a typed error.

use fathom_math::{Dim, Pose, Real, Space};
use fathom_sdf::{Sdf, ShapeKind};

use crate::mesh_points::MeshPoints;
use crate::pairs::ball_sdf::BallSdf;
use crate::pairs::capsule_capsule::CapsuleCapsule;
use crate::pairs::capsule_cuboid::CapsuleCuboid;
use crate::pairs::capsule_sdf::CapsuleSdf;
use crate::pairs::cuboid_cuboid::CuboidCuboid;
use crate::pairs::halfspace_cuboid::HalfSpaceCuboid;
use crate::pairs::halfspace_sdf::HalfSpaceSdf;
use crate::pairs::mesh_sdf::MeshSdf;
use crate::pairs::sdf_sdf::SdfSdf;
use crate::pairs::{Flipped, PairQuery};
use crate::NarrowphaseError;

/// A shape as the narrowphase takes it: any field, or a mesh's point samples.
#[derive(Clone, Copy)]
pub enum ShapeRef<'a, const D: usize> {
    /// A signed distance field (its `kind()` picks a closed form where one exists).
    Sdf(&'a dyn Sdf<D>),
    /// Point samples of a mesh.
    Points(&'a MeshPoints<D>),
}

impl<const D: usize> std::fmt::Debug for ShapeRef<'_, D> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ShapeRef::Sdf(s) => write!(f, "Sdf({:?})", KindTag::of_kind(&s.kind())),
            ShapeRef::Points(m) => write!(f, "Points({} samples)", m.len()),
        }
    }
}

/// The kinds the dispatch table distinguishes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum KindTag {
    /// [`ShapeKind::Ball`].
    Ball,
    /// [`ShapeKind::Capsule`].
    Capsule,
    /// [`ShapeKind::HalfSpace`].
    HalfSpace,
    /// [`ShapeKind::Cuboid`].
    Cuboid,
    /// Any other field.
    General,
    /// [`MeshPoints`].
    MeshPoints,
}

impl KindTag {
    /// All kinds, in table order.
    pub const ALL: [KindTag; 6] = [
        KindTag::Ball,
        KindTag::Capsule,
        KindTag::HalfSpace,
        KindTag::Cuboid,
        KindTag::General,
        KindTag::MeshPoints,
    ];

    fn of_kind<const D: usize>(k: &ShapeKind<D>) -> Self {
        match k {
            ShapeKind::Ball { .. } => KindTag::Ball,
            ShapeKind::Capsule { .. } => KindTag::Capsule,
            ShapeKind::HalfSpace { .. } => KindTag::HalfSpace,
            ShapeKind::Cuboid { .. } => KindTag::Cuboid,
            ShapeKind::General => KindTag::General,
        }
    }

    /// The kind of a shape.
    pub fn of<const D: usize>(s: &ShapeRef<'_, D>) -> Self {
        Self::of_ref(s, &kind_of(s))
    }

    /// The kind of `s`, whose field's kind is `kind`.
    fn of_ref<const D: usize>(s: &ShapeRef<'_, D>, kind: &ShapeKind<D>) -> Self {
        match s {
            ShapeRef::Sdf(_) => Self::of_kind(kind),
            ShapeRef::Points(_) => KindTag::MeshPoints,
        }
    }
}

/// The field's kind of a shape; mesh samples are not a field, and read as general.
fn kind_of<const D: usize>(s: &ShapeRef<'_, D>) -> ShapeKind<D> {
    match s {
        ShapeRef::Sdf(f) => f.kind(),
        ShapeRef::Points(_) => ShapeKind::General,
    }
}

/// The module answering a pair.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Route {
    BallSdf,
    CapsuleSdf,
    CapsuleCapsule,
    CapsuleCuboid,
    HalfSpaceSdf,
    HalfSpaceCuboid,
    CuboidCuboid,
    SdfSdf,
    MeshSdf,
    Unsupported,
}

use Route as R;

/// `TABLE[a][b]`: the module for A of kind `a` against B of kind `b`, and whether A and B are
/// swapped to reach its natural order. Balls win over everything (one evaluation), then
/// capsules (a 1D search, two segments' closest points, or a segment clipped by a box's face),
/// then half-spaces (one field, or a box's corners); two boxes have their closed form; mesh
/// samples go against any field. A box against a general field is a general search (its side
/// of the flip is chosen at run time, by volume).
#[rustfmt::skip]
const TABLE: [[(Route, bool); 6]; 6] = [
    // B: Ball               Capsule                HalfSpace                 Cuboid                     General                MeshPoints
    [(R::BallSdf, false), (R::BallSdf, false),    (R::BallSdf, false),      (R::BallSdf, false),       (R::BallSdf, false),      (R::MeshSdf, true)],
    [(R::BallSdf, true),  (R::CapsuleCapsule, false), (R::CapsuleSdf, false),   (R::CapsuleCuboid, false), (R::CapsuleSdf, false),   (R::MeshSdf, true)],
    [(R::BallSdf, true),  (R::CapsuleSdf, true),  (R::Unsupported, false),  (R::HalfSpaceCuboid, false), (R::HalfSpaceSdf, false), (R::MeshSdf, true)],
    [(R::BallSdf, true),  (R::CapsuleCuboid, true), (R::HalfSpaceCuboid, true), (R::CuboidCuboid, false),  (R::SdfSdf, false),       (R::MeshSdf, true)],
    [(R::BallSdf, true),  (R::CapsuleSdf, true),  (R::HalfSpaceSdf, true),  (R::SdfSdf, false),        (R::SdfSdf, false),       (R::MeshSdf, true)],
    [(R::MeshSdf, false), (R::MeshSdf, false),    (R::MeshSdf, false),      (R::MeshSdf, false),       (R::MeshSdf, false),      (R::Unsupported, false)],
];

fn index(k: KindTag) -> usize {
    KindTag::ALL.iter().position(|x| *x == k).unwrap_or(4)
}

/// The table's entry for a pair of kinds.
pub(crate) fn route(a: KindTag, b: KindTag) -> (Route, bool) {
    TABLE[index(a)][index(b)]
}

/// Volume of a shape's local bounds (to search two general fields in the smaller one's frame).
fn volume<const D: usize>(s: &dyn Sdf<D>) -> Real {
    s.bounds().volume()
}

/// `f` of the pair query for shapes `a` and `b` at their poses (built on the stack: a step
/// runs one per touching pair).
pub(crate) fn with_pair<'a, const D: usize, T>(
    a: ShapeRef<'a, D>,
    pose_a: &Pose<D>,
    b: ShapeRef<'a, D>,
    pose_b: &Pose<D>,
    f: impl FnOnce(&dyn PairQuery<D>) -> T,
) -> Result<T, NarrowphaseError>
where
    Space<D>: Dim<D>,
{
    // Each shape's kind once a pair: `Shape::kind` walks the shape's enum (about 2% of a
    // stepping pile when asked four times a pair).
    let (kind_a, kind_b) = (kind_of(&a), kind_of(&b));
    let (ka, kb) = (KindTag::of_ref(&a, &kind_a), KindTag::of_ref(&b, &kind_b));
    let (route, mut flip) = route(ka, kb);
    if route == Route::SdfSdf {
        if let (ShapeRef::Sdf(sa), ShapeRef::Sdf(sb)) = (&a, &b) {
            // Search in the smaller shape's frame: its own bounds are the tighter half of the root.
            flip = volume(*sb) < volume(*sa);
        }
    }
    let (first, pose_first, k1, second, pose_second, k2) = if flip {
        (b, *pose_b, kind_b, a, *pose_a, kind_a)
    } else {
        (a, *pose_a, kind_a, b, *pose_b, kind_b)
    };
    let unsupported = NarrowphaseError::Unsupported { a: ka, b: kb };
    let answer = match (route, first, second) {
        (Route::BallSdf, ShapeRef::Sdf(_), ShapeRef::Sdf(s2)) => match k1 {
            ShapeKind::Ball { radius } => call(
                BallSdf {
                    radius,
                    pose_ball: pose_first,
                    sdf: s2,
                    pose_sdf: pose_second,
                },
                flip,
                f,
            ),
            _ => return Err(unsupported),
        },
        (Route::CapsuleSdf, ShapeRef::Sdf(_), ShapeRef::Sdf(s2)) => match k1 {
            ShapeKind::Capsule {
                half_height,
                radius,
            } => call(
                CapsuleSdf {
                    half_height,
                    radius,
                    pose_capsule: pose_first,
                    sdf: s2,
                    pose_sdf: pose_second,
                },
                flip,
                f,
            ),
            _ => return Err(unsupported),
        },
        (Route::CapsuleCapsule, ShapeRef::Sdf(_), ShapeRef::Sdf(_)) => match (k1, k2) {
            (
                ShapeKind::Capsule {
                    half_height: half_a,
                    radius: radius_a,
                },
                ShapeKind::Capsule {
                    half_height: half_b,
                    radius: radius_b,
                },
            ) => call(
                CapsuleCapsule {
                    half_a,
                    radius_a,
                    pose_a: pose_first,
                    half_b,
                    radius_b,
                    pose_b: pose_second,
                },
                flip,
                f,
            ),
            _ => return Err(unsupported),
        },
        (Route::CapsuleCuboid, ShapeRef::Sdf(_), ShapeRef::Sdf(_)) => match (k1, k2) {
            (
                ShapeKind::Capsule {
                    half_height,
                    radius,
                },
                ShapeKind::Cuboid { half_extents },
            ) => call(
                CapsuleCuboid {
                    half_height,
                    radius,
                    pose_capsule: pose_first,
                    half: half_extents,
                    pose_box: pose_second,
                },
                flip,
                f,
            ),
            _ => return Err(unsupported),
        },
        (Route::HalfSpaceSdf, ShapeRef::Sdf(_), ShapeRef::Sdf(s2)) => match k1 {
            ShapeKind::HalfSpace { normal, offset } => call(
                HalfSpaceSdf {
                    normal,
                    offset,
                    pose_plane: pose_first,
                    sdf: s2,
                    pose_sdf: pose_second,
                },
                flip,
                f,
            ),
            _ => return Err(unsupported),
        },
        (Route::HalfSpaceCuboid, ShapeRef::Sdf(_), ShapeRef::Sdf(_)) => match (k1, k2) {
            (ShapeKind::HalfSpace { normal, offset }, ShapeKind::Cuboid { half_extents }) => call(
                HalfSpaceCuboid {
                    normal,
                    offset,
                    pose_plane: pose_first,
                    half: half_extents,
                    pose_box: pose_second,
                },
                flip,
                f,
            ),
            _ => return Err(unsupported),
        },
        (Route::CuboidCuboid, ShapeRef::Sdf(s1), ShapeRef::Sdf(s2)) => match (k1, k2) {
            (ShapeKind::Cuboid { half_extents: ha }, ShapeKind::Cuboid { half_extents: hb }) => {
                call(
                    CuboidCuboid {
                        half_a: ha,
                        pose_a: pose_first,
                        half_b: hb,
                        pose_b: pose_second,
                        a: s1,
                        b: s2,
                    },
                    flip,
                    f,
                )
            }
            _ => return Err(unsupported),
        },
        (Route::SdfSdf, ShapeRef::Sdf(s1), ShapeRef::Sdf(s2)) => call(
            SdfSdf {
                a: s1,
                pose_a: pose_first,
                b: s2,
                pose_b: pose_second,
            },
            flip,
            f,
        ),
        (Route::MeshSdf, ShapeRef::Points(m), ShapeRef::Sdf(s2)) => call(
            MeshSdf {
                mesh: m,
                pose_mesh: pose_first,
                sdf: s2,
                pose_sdf: pose_second,
            },
            flip,
            f,
        ),
        _ => return Err(unsupported),
    };
    Ok(answer)
}

fn call<const D: usize, P: PairQuery<D>, T>(
    p: P,
    flip: bool,
    f: impl FnOnce(&dyn PairQuery<D>) -> T,
) -> T
where
    Space<D>: Dim<D>,
{
    if flip {
        f(&Flipped(p))
    } else {
        f(&p)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{contacts_with, distance_with, intersects_with, penetration_with, ContactOptions};
    use fathom_math::{Pose3, Vector3};
    use fathom_sdf::Shape;

    /// Every ordered pair of kinds is either answered by all four queries or is a typed
    /// `Unsupported` error, and a pair and its mirror give mirrored contacts.
    #[test]
    fn every_pair_of_kinds_is_handled_or_unsupported() {
        let ball = Shape::<3>::ball(0.5).unwrap();
        let capsule = Shape::<3>::capsule(0.4, 0.3).unwrap();
        let plane = Shape::<3>::half_space(Vector3::y(), 0.0).unwrap();
        let cuboid = Shape::<3>::cuboid(Vector3::new(0.4, 0.3, 0.5)).unwrap();
        let general = Shape::<3>::rounded_cuboid(Vector3::new(0.3, 0.2, 0.4), 0.1).unwrap();
        let points = MeshPoints::new(
            vec![Vector3::new(0.0, -0.2, 0.0), Vector3::new(0.3, -0.1, 0.0)],
            0.5,
        )
        .unwrap();
        let shapes = [
            ShapeRef::Sdf(&ball),
            ShapeRef::Sdf(&capsule),
            ShapeRef::Sdf(&plane),
            ShapeRef::Sdf(&cuboid),
            ShapeRef::Sdf(&general),
            ShapeRef::Points(&points),
        ];
        for (i, a) in shapes.iter().enumerate() {
            assert_eq!(
                KindTag::of(a),
                KindTag::ALL[i],
                "the shapes are in table order"
            );
        }
        // B sits a little above A (overlapping), so every supported pair has a contact.
        let pa = Pose3::identity();
        let pb = Pose3::new(Vector3::new(0.05, 0.1, 0.02), Vector3::new(0.1, 0.2, 0.05));
        let opts = ContactOptions::default();
        for a in shapes {
            for b in shapes {
                let (ka, kb) = (KindTag::of(&a), KindTag::of(&b));
                let unsupported = route(ka, kb).0 == Route::Unsupported;
                let c = contacts_with(a, &pa, b, &pb, &opts);
                if unsupported {
                    assert_eq!(c, Err(NarrowphaseError::Unsupported { a: ka, b: kb }));
                    continue;
                }
                let c = c.unwrap();
                assert!(!c.manifolds.is_empty(), "{ka:?} vs {kb:?} touch");
                assert!(
                    intersects_with(a, &pa, b, &pb, &opts).unwrap().intersecting,
                    "{ka:?} {kb:?}"
                );
                let p = penetration_with(a, &pa, b, &pb, &opts).unwrap();
                let deep = p
                    .deepest
                    .unwrap_or_else(|| panic!("{ka:?} vs {kb:?} overlap"));
                assert!((deep.normal.norm() - 1.0).abs() < 1e-4);
                assert_eq!(distance_with(a, &pa, b, &pb, &opts).unwrap().distance, 0.0);
                // The mirrored pair: the normal reversed.
                let m = contacts_with(b, &pb, a, &pa, &opts).unwrap();
                let (n, nm) = (c.manifolds[0].normal, m.manifolds[0].normal);
                assert!(
                    (n + nm).norm() < 0.2,
                    "{ka:?} vs {kb:?}: {n:?} and mirrored {nm:?}"
                );
            }
        }
    }

    #[test]
    fn the_table_is_symmetric_up_to_the_flip() {
        for a in KindTag::ALL {
            for b in KindTag::ALL {
                let (r, flip) = route(a, b);
                let (rm, flip_m) = route(b, a);
                assert_eq!(r, rm, "{a:?} {b:?}");
                // Two general searches pick their order at run time (by volume).
                if a != b && r != Route::SdfSdf {
                    assert!(flip != flip_m || r == Route::Unsupported, "{a:?} {b:?}");
                }
            }
        }
    }
}
