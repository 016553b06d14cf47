//! The compared pairs, each built so that the signed gap at every placement is known exactly.
//!
//! A sits at the identity; B is moved along a known normal by the gap. The references are
//! exact for the fields (not for the meshes, which is part of what is measured):
//!
//! - `tori_crossing`: two tori (major 1, minor 0.25) in parallel horizontal planes, centres 1
//!   apart in x, so their rings cross in two places seen from above. Two circles in planes `h`
//!   apart whose shadows cross are `h` apart at the crossings, so the tubes' gap is `h - 2r`,
//!   along +y, in two regions.
//! - `tori_interlocked`: a chain link. B stands in the xy plane, centred at `(c, 0, 0)` with
//!   `0 < c < 1`, through A's hole; the nearest points of the centre circles are A's
//!   `(±1, 0, 0)`, both `c` from B's circle, so the gap is `c - 2r`, along +x, in two regions.
//! - `gears`: two CSG gears (cylinder hub and ten box teeth) stacked flat, B turned by half a
//!   tooth: the gap is the height between the faces, along +y, over a whole disc.
//! - `blob_ball`: a smooth blend of two balls under a ball centred above the larger ball's
//!   top, far from the blend: the gap is ball to ball, along +y.
//! - `cuboid_cuboid`: a box resting on a wider box, turned 0.3 rad about y: face on face.
//! - `obj_rounded_box`: a rounded box meshed, written as OBJ, loaded back with `load_obj`; the
//!   SDF side is a grid baked from that mesh, the mesh side is the OBJ mesh. Two stacked, the top
//!   one turned 0.5 rad; the reference is the gap of the rounded boxes the OBJ approximates.
//! - `disc_box_2d`: a disc above a 2D box, against parry2d polylines of the contours.

use super::backend::{fathom_mesh, parry_trimesh, Parry2, Parry3};
use super::case::{Case, PairCase, PairDef};
use super::CompareError;
use crate::demo_scenes::gear;
use fathom_math::{Pose2, Pose3, Real, Vector2, Vector3};
use fathom_sdf::{load_obj, BakedGrid, GridSource, Shape2, Shape3, TriMesh};
use std::fmt::Write as _;
use std::path::Path;
use std::sync::Arc;

/// Names of the 3D pairs, in run order.
pub const PAIRS_3D: &[&str] = &[
    "tori_crossing",
    "tori_interlocked",
    "gears",
    "blob_ball",
    "cuboid_cuboid",
    "obj_rounded_box",
];

/// Names of the 2D pairs, in run order.
pub const PAIRS_2D: &[&str] = &["disc_box_2d"];

/// Torus radii of the torus pairs, metres.
const MAJOR: Real = 1.0;
const MINOR: Real = 0.25;

/// Cells along the longest axis of the grid baked from the OBJ mesh.
const OBJ_GRID_RESOLUTION: usize = 64;

/// Every pair of `dimension` (2 or 3) meshed at about `target` triangles per shape. The OBJ
/// pair writes its file into `scratch`.
pub fn build_cases(
    dimension: usize,
    target: usize,
    scratch: &Path,
) -> Result<Vec<Box<dyn PairCase>>, CompareError> {
    let mut cases: Vec<Box<dyn PairCase>> = Vec::new();
    if dimension == 2 {
        cases.push(Box::new(Case::<2, Parry2>::meshed(disc_box_2d()?, target)?));
        return Ok(cases);
    }
    for def in [
        tori_crossing()?,
        tori_interlocked()?,
        gears(),
        blob_ball()?,
        cuboid_cuboid()?,
    ] {
        cases.push(Box::new(Case::<3, Parry3>::meshed(def, target)?));
    }
    cases.push(obj_case(target, scratch)?);
    Ok(cases)
}

fn up_by(x: Real, y: Real, z: Real, turn_about_y: Real) -> Pose3 {
    Pose3::new(Vector3::new(x, y, z), Vector3::y() * turn_about_y)
}

pub(crate) fn tori_crossing() -> Result<PairDef<3>, CompareError> {
    let torus = Shape3::torus(MAJOR, MINOR)?;
    Ok(PairDef {
        name: "tori_crossing",
        a: torus.clone(),
        b: torus,
        pose_b: Box::new(|gap| up_by(MAJOR, 2.0 * MINOR + gap, 0.0, 0.0)),
        normal: Vector3::y(),
    })
}

pub(crate) fn tori_interlocked() -> Result<PairDef<3>, CompareError> {
    let torus = Shape3::torus(MAJOR, MINOR)?;
    Ok(PairDef {
        name: "tori_interlocked",
        a: torus.clone(),
        b: torus,
        pose_b: Box::new(|gap| {
            Pose3::new(
                Vector3::new(2.0 * MINOR + gap, 0.0, 0.0),
                Vector3::x() * std::f32::consts::FRAC_PI_2,
            )
        }),
        normal: Vector3::x(),
    })
}

pub(crate) fn gears() -> PairDef<3> {
    let (radius, half_thickness, teeth) = (0.6, 0.15, 10);
    let g = gear(radius, half_thickness, teeth);
    let half_tooth = std::f32::consts::PI / teeth as Real;
    PairDef {
        name: "gears",
        a: g.clone(),
        b: g,
        pose_b: Box::new(move |gap| up_by(0.0, 2.0 * half_thickness + gap, 0.0, half_tooth)),
        normal: Vector3::y(),
    }
}

pub(crate) fn blob_ball() -> Result<PairDef<3>, CompareError> {
    let (r_big, r_small, r_ball) = (0.5, 0.35, 0.4);
    let small = Shape3::ball(r_small)?.transformed(Pose3::translation(0.6, -0.1, 0.0))?;
    let blob = Shape3::ball(r_big)?.smooth_union(small, 0.2)?;
    Ok(PairDef {
        name: "blob_ball",
        a: blob,
        b: Shape3::ball(r_ball)?,
        pose_b: Box::new(move |gap| up_by(0.0, r_big + r_ball + gap, 0.0, 0.0)),
        normal: Vector3::y(),
    })
}

pub(crate) fn cuboid_cuboid() -> Result<PairDef<3>, CompareError> {
    Ok(PairDef {
        name: "cuboid_cuboid",
        a: Shape3::cuboid(Vector3::new(1.0, 0.25, 1.0))?,
        b: Shape3::cuboid(Vector3::new(0.5, 0.25, 0.5))?,
        pose_b: Box::new(|gap| up_by(0.0, 0.5 + gap, 0.0, 0.3)),
        normal: Vector3::y(),
    })
}

/// The rounded box of the OBJ pair and its half height, metres.
fn obj_source() -> Result<(Shape3, Real), CompareError> {
    let (half, round) = (Vector3::new(0.4, 0.2, 0.4), 0.1);
    Ok((Shape3::rounded_cuboid(half, round)?, half.y + round))
}

/// The OBJ pair: the rounded box meshed at `target`, written to `scratch` and loaded back.
fn obj_case(target: usize, scratch: &Path) -> Result<Box<dyn PairCase>, CompareError> {
    let (source, half_height) = obj_source()?;
    let path = scratch.join(format!("rounded_box_{target}.obj"));
    write_obj(&fathom_mesh(&source, target)?, &path)?;
    let mesh = load_obj(&path)?;
    let grid = BakedGrid::from_mesh_resolution(&mesh, OBJ_GRID_RESOLUTION)?;
    let baked = Shape3::Grid(GridSource::Inline(Arc::new(grid)));
    let def = PairDef {
        name: "obj_rounded_box",
        a: baked.clone(),
        b: baked,
        pose_b: Box::new(move |gap| up_by(0.0, 2.0 * half_height + gap, 0.0, 0.5)),
        normal: Vector3::y(),
    };
    let n = mesh.indices.len();
    let side = || parry_trimesh(&mesh).map(|m| (m, n));
    Ok(Box::new(Case::<3, Parry3>::with_meshes(
        def,
        target,
        side()?,
        side()?,
    )))
}

/// Writes `mesh` as a Wavefront OBJ file (vertices and triangles, 1-based indices).
pub(crate) fn write_obj(mesh: &TriMesh, path: &Path) -> Result<(), CompareError> {
    let mut text = String::with_capacity(40 * (mesh.vertices.len() + mesh.indices.len()));
    for v in &mesh.vertices {
        // Writing to a String cannot fail.
        let _ = writeln!(text, "v {} {} {}", v.x, v.y, v.z);
    }
    for t in &mesh.indices {
        let _ = writeln!(text, "f {} {} {}", t[0] + 1, t[1] + 1, t[2] + 1);
    }
    std::fs::write(path, text).map_err(|e| CompareError::Io {
        path: path.display().to_string(),
        message: e.to_string(),
    })
}

pub(crate) fn disc_box_2d() -> Result<PairDef<2>, CompareError> {
    let (half, radius) = (Vector2::new(1.0, 0.25), 0.5);
    Ok(PairDef {
        name: "disc_box_2d",
        a: Shape2::cuboid(half)?,
        b: Shape2::ball(radius)?,
        pose_b: Box::new(move |gap| Pose2::new(Vector2::new(0.1, half.y + radius + gap), 0.0)),
        normal: Vector2::y(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compare::Placement;
    use fathom_math::{Dim, Pose, Space};
    use fathom_sdf::{Sdf, Shape};

    /// The smallest distance from A's field to points sampled on B's surface (B's fine mesh
    /// vertices at its pose). For an exact field, this is the gap up to the mesh's error.
    fn sampled_gap<const D: usize>(def: &PairDef<D>, samples: &[Vector3], gap: Real) -> Real
    where
        Space<D>: Dim<D>,
    {
        let pose: Pose<D> = (def.pose_b)(gap);
        samples
            .iter()
            .map(|s| {
                let local = fathom_math::Vector::<D>::from_iterator(s.iter().copied().take(D));
                def.a
                    .distance(&(pose * nalgebra::Point::from(local)).coords)
            })
            .fold(Real::INFINITY, Real::min)
    }

    fn check_3d(def: PairDef<3>) {
        let b: &Shape<3> = &def.b;
        // Surface-net vertices of B, moved onto B's surface by one Newton step along the
        // gradient (exact for exact fields, to float error).
        let samples: Vec<Vector3> = fathom_mesh(b, 40_000)
            .unwrap()
            .vertices
            .iter()
            .map(|v| v - b.gradient(v) * b.distance(v))
            .collect();
        for p in Placement::ALL {
            let sampled = sampled_gap(&def, &samples, p.gap());
            // Separated and touching, A's field is exact outside A, so the sampled gap matches up
            // to the spacing of the samples near the contact: at 40k triangles about 0.02 m
            // apart, over surfaces curving away at radius >= 0.25 m, a miss of at most
            // 0.02² / (8 * 0.25) = 2e-4 m; 2e-3 leaves room. Overlapping, a field's value is not
            // the depth along the normal, so only its sign is checked there.
            if p.gap() >= 0.0 {
                assert!(
                    (sampled - p.gap()).abs() < 2e-3,
                    "{} {:?}: sampled {sampled}, exact {}",
                    def.name,
                    p,
                    p.gap()
                );
            } else {
                assert!(sampled < 0.0, "{} {:?}: sampled {sampled}", def.name, p);
            }
        }
    }

    #[test]
    fn three_d_pairs_have_the_gaps_they_claim() {
        check_3d(tori_crossing().unwrap());
        check_3d(tori_interlocked().unwrap());
        check_3d(gears());
        check_3d(blob_ball().unwrap());
        check_3d(cuboid_cuboid().unwrap());
    }

    #[test]
    fn the_2d_pair_has_the_gaps_it_claims() {
        let def = disc_box_2d().unwrap();
        let samples: Vec<Vector3> = (0..720)
            .map(|i| {
                let a = i as Real * std::f32::consts::TAU / 720.0;
                Vector3::new(0.5 * a.cos(), 0.5 * a.sin(), 0.0)
            })
            .collect();
        for p in [Placement::Separated, Placement::Touching] {
            // Exact disc samples every half degree: the lowest is within 1e-4 m of the bottom.
            let sampled = sampled_gap(&def, &samples, p.gap());
            assert!((sampled - p.gap()).abs() < 1e-4, "{p:?}: {sampled}");
        }
    }

    #[test]
    fn obj_round_trip_keeps_the_mesh() {
        let (source, _) = obj_source().unwrap();
        let mesh = fathom_mesh(&source, 2_000).unwrap();
        let dir = std::env::temp_dir().join(format!("fathom-compare-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("box.obj");
        write_obj(&mesh, &path).unwrap();
        let back = load_obj(&path).unwrap();
        std::fs::remove_dir_all(&dir).unwrap();
        // tobj may renumber vertices, so compare the triangles as corner coordinates (bits:
        // Rust prints floats so that they read back exactly).
        let corners = |m: &TriMesh| {
            let mut t: Vec<[u32; 9]> = m
                .indices
                .iter()
                .map(|t| {
                    let [a, b, c] = t.map(|i| m.vertices[i as usize]);
                    [a.x, a.y, a.z, b.x, b.y, b.z, c.x, c.y, c.z].map(Real::to_bits)
                })
                .collect();
            t.sort_unstable();
            t
        };
        assert_eq!(corners(&back), corners(&mesh));
    }
}
