//! SDF collision against triangle-mesh collision on the same shapes, measured side by side.
//!
//! The usual claim is that two dense meshes stay cheaper to collide as meshes. This module
//! measures it: every shape exists twice, as its signed distance field (queried by
//! `fathom-narrowphase`) and as a parry triangle mesh (a polyline in 2D) made from the same field
//! by Fathom's meshing (`mesh_sdf`, surface nets; `contour_sdf` in 2D) at a cell size calibrated
//! to a target triangle count. One pair is the other way round: a shape meshed, written to an OBJ
//! file, loaded back with `load_obj` and baked into a distance grid, against the OBJ mesh itself.
//!
//! Each pair is placed at four poses built so that the true signed gap is known exactly
//! ([`Placement`]: separated, touching, shallow and deep overlap), and asked four queries
//! ([`Query`]) by both sides. A row ([`Row`]) records both times, both answers, and each side's
//! error against that exact reference, because a fast answer that is wrong is worth nothing:
//! parry's mesh queries treat a mesh as a surface, not a solid, so a deep overlap can read as a
//! shallow one. Times are medians of repeated calls in this process, on the same inputs, by the
//! calling thread's CPU time ([`CLOCK`]), in batches; parry's contact manifolds keep their
//! workspace and manifolds from call to call (one per pair and placement), as a simulation
//! stepping a resting pair would.
//!
//! `fathom compare` prints [`markdown_table`] or the rows as JSON and draws [`draw_plot`];
//! `benches/sdf_vs_mesh.rs` times the same [`PairCase`]s with criterion.

mod backend;
mod case;
mod clock;
mod pairs;
mod report;

pub use case::{Answer, PairCase};
pub use clock::CLOCK;
pub use pairs::{build_cases, PAIRS_2D, PAIRS_3D};
pub use report::{draw_plot, markdown_table};

use fathom_math::Real;
use serde::Serialize;
use std::path::{Path, PathBuf};
use std::time::Duration;
use thiserror::Error;

/// Why a comparison could not run.
#[derive(Debug, Error)]
pub enum CompareError {
    /// Building or meshing a shape failed.
    #[error("shape: {0}")]
    Sdf(#[from] fathom_sdf::SdfError),
    /// A Fathom query rejected its input.
    #[error("narrowphase: {0}")]
    Narrowphase(#[from] fathom_narrowphase::NarrowphaseError),
    /// parry rejected a mesh or a query.
    #[error("parry: {0}")]
    Parry(String),
    /// A scratch file (the OBJ of the OBJ pair) could not be written.
    #[error("{path}: {message}")]
    Io {
        /// The file.
        path: String,
        /// What went wrong.
        message: String,
    },
    /// The plot could not be drawn or written.
    #[error("plot: {0}")]
    Plot(String),
}

/// The queries asked of both sides.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Query {
    /// Do the shapes overlap? (parry `intersection_test`; Fathom `intersects`)
    Intersection,
    /// Contact manifolds with a margin (parry `contact_manifolds`; Fathom `contacts`).
    Contacts,
    /// The deepest overlap (parry `contact` with no prediction; Fathom `penetration`).
    Penetration,
    /// The distance between separated shapes (parry `distance`; Fathom `distance`).
    Distance,
}

impl Query {
    /// Every query, in table order.
    pub const ALL: [Query; 4] = [
        Query::Intersection,
        Query::Contacts,
        Query::Penetration,
        Query::Distance,
    ];

    /// The name used in tables and JSON.
    pub fn name(self) -> &'static str {
        match self {
            Query::Intersection => "intersection",
            Query::Contacts => "contacts",
            Query::Penetration => "penetration",
            Query::Distance => "distance",
        }
    }
}

/// Where shape B sits relative to shape A. Every pair is built so that the true signed gap
/// along a known normal is exactly [`Placement::gap`] metres.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Placement {
    /// 0.1 m apart.
    Separated,
    /// Touching (gap 0).
    Touching,
    /// Overlapping by 0.02 m.
    Shallow,
    /// Overlapping by 0.1 m.
    Deep,
}

impl Placement {
    /// Every placement, in table order.
    pub const ALL: [Placement; 4] = [
        Placement::Separated,
        Placement::Touching,
        Placement::Shallow,
        Placement::Deep,
    ];

    /// The name used in tables and JSON.
    pub fn name(self) -> &'static str {
        match self {
            Placement::Separated => "separated",
            Placement::Touching => "touching",
            Placement::Shallow => "shallow",
            Placement::Deep => "deep",
        }
    }

    /// The exact signed gap of the pair at this placement, metres (negative: overlap).
    pub fn gap(self) -> Real {
        match self {
            Placement::Separated => 0.1,
            Placement::Touching => 0.0,
            Placement::Shallow => -0.02,
            Placement::Deep => -0.1,
        }
    }

    /// The queries asked at this placement: distance only when separated, contacts and
    /// penetration only when in contact, the intersection test everywhere.
    pub fn queries(self) -> &'static [Query] {
        match self {
            Placement::Separated => &[Query::Intersection, Query::Distance],
            _ => &[Query::Intersection, Query::Contacts, Query::Penetration],
        }
    }

    /// What a correct answer of `query` is here: contacts report the deepest penetration
    /// (`-gap`), penetration the overlap (`max(0, -gap)`), distance the gap. `None` for the
    /// intersection test, whose reference is [`Placement::expected_intersects`].
    pub fn reference(self, query: Query) -> Option<Real> {
        let g = self.gap();
        match query {
            Query::Intersection => None,
            Query::Contacts => Some(-g),
            Query::Penetration => Some((-g).max(0.0)),
            Query::Distance => Some(g.max(0.0)),
        }
    }

    /// The right answer of the intersection test; `None` when touching (either is right).
    pub fn expected_intersects(self) -> Option<bool> {
        match self {
            Placement::Separated => Some(false),
            Placement::Touching => None,
            Placement::Shallow | Placement::Deep => Some(true),
        }
    }
}

/// One measured query: both sides' time and answer, and each side's error.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Row {
    /// Pair name (see [`PAIRS_3D`], [`PAIRS_2D`]).
    pub pair: String,
    /// 2 or 3.
    pub dimension: usize,
    /// Placement name (see [`Placement`]).
    pub pose: &'static str,
    /// The triangle (2D: segment) count the meshing aimed at, per shape.
    pub target: usize,
    /// Triangles (2D: segments) per shape actually made: the mean over the pair's two meshes.
    pub triangles: usize,
    /// Query name (see [`Query`]).
    pub query: &'static str,
    /// Fathom's median time per query, nanoseconds.
    pub sdf_ns: f64,
    /// parry's median time per query on the meshes, nanoseconds.
    pub mesh_ns: f64,
    /// `mesh_ns / sdf_ns`: above 1, the SDF side is faster.
    pub ratio: f64,
    /// The exact answer (metres), see [`Placement::reference`]; `None` for the intersection test.
    pub reference: Option<Real>,
    /// The smaller shape's bounding radius, metres: errors are fractions of it.
    pub size: Real,
    /// Fathom's depth (contacts: deepest penetration, penetration: overlap) or distance, metres.
    pub sdf_depth: Option<Real>,
    /// parry's depth or distance, metres, same meaning.
    pub mesh_depth: Option<Real>,
    /// `|sdf_depth - reference| / size`.
    pub sdf_error: Option<Real>,
    /// `|mesh_depth - reference| / size`.
    pub mesh_error: Option<Real>,
    /// Fathom's normal (A towards B, world frame) of the deepest contact.
    pub sdf_normal: Option<Vec<Real>>,
    /// parry's normal, same meaning.
    pub mesh_normal: Option<Vec<Real>>,
    /// Angle between Fathom's normal and the exact one, degrees.
    pub sdf_normal_error_deg: Option<Real>,
    /// Angle between parry's normal and the exact one, degrees.
    pub mesh_normal_error_deg: Option<Real>,
    /// Contact points Fathom hands the solver (contacts query only).
    pub sdf_points: Option<usize>,
    /// Contact points parry hands the solver (contacts query only).
    pub mesh_points: Option<usize>,
    /// Manifolds Fathom made (contacts query only).
    pub sdf_manifolds: Option<usize>,
    /// Manifolds parry made, non-empty ones (contacts query only).
    pub mesh_manifolds: Option<usize>,
    /// Field evaluations of Fathom's query.
    pub sdf_evals: usize,
    /// True when Fathom's query ran out of its cell budget (its answer is then its best so far).
    pub sdf_hit_budget: bool,
    /// Fathom's intersection answer (intersection query only).
    pub sdf_intersects: Option<bool>,
    /// parry's intersection answer (intersection query only).
    pub mesh_intersects: Option<bool>,
    /// The right intersection answer, `None` when touching.
    pub expected_intersects: Option<bool>,
}

/// How long to measure.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct CompareOptions {
    /// Fewer resolutions and a short time per query (the whole run in well under a minute).
    pub quick: bool,
}

impl CompareOptions {
    /// Triangle counts per shape to aim at for pairs of `dimension` (2D: segments). 2D stops at
    /// 10k segments: a contour of 100k segments needs a grid of billions of samples.
    pub fn targets(&self, dimension: usize) -> &'static [usize] {
        match (self.quick, dimension) {
            (true, 2) => &[1_000],
            (true, _) => &[1_000, 10_000],
            (false, 2) => &[1_000, 10_000],
            (false, _) => &[1_000, 10_000, 20_000, 100_000],
        }
    }

    /// Time budget per query and side, and the fewest timed calls.
    fn timing(&self) -> (Duration, usize) {
        if self.quick {
            (Duration::from_millis(2), 1)
        } else {
            (Duration::from_millis(200), 3)
        }
    }
}

/// Runs every pair at every placement, target and query, calling `progress` with a line per
/// case built. Scratch files go to a fresh folder under the system temp folder, removed after.
pub fn run(
    opts: &CompareOptions,
    progress: &mut dyn FnMut(&str),
) -> Result<Vec<Row>, CompareError> {
    let scratch = scratch_dir()?;
    let result = run_in(opts, &scratch, progress);
    // The folder holds only the OBJ files written here; failing to remove it loses nothing.
    let _ = std::fs::remove_dir_all(&scratch);
    result
}

fn run_in(
    opts: &CompareOptions,
    scratch: &Path,
    progress: &mut dyn FnMut(&str),
) -> Result<Vec<Row>, CompareError> {
    let mut rows = Vec::new();
    for dimension in [3, 2] {
        for &target in opts.targets(dimension) {
            for case in build_cases(dimension, target, scratch)? {
                progress(&format!(
                    "{} ({}D) at {} triangles",
                    case.pair(),
                    dimension,
                    case.triangles()
                ));
                rows.extend(measure_case(case.as_ref(), opts)?);
            }
        }
    }
    Ok(rows)
}

/// A fresh scratch folder for this process.
fn scratch_dir() -> Result<PathBuf, CompareError> {
    let dir = std::env::temp_dir().join(format!("fathom-compare-{}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(|e| CompareError::Io {
        path: dir.display().to_string(),
        message: e.to_string(),
    })?;
    Ok(dir)
}

/// Every row of one case.
pub fn measure_case(case: &dyn PairCase, opts: &CompareOptions) -> Result<Vec<Row>, CompareError> {
    let mut rows = Vec::new();
    for placement in Placement::ALL {
        for &query in placement.queries() {
            rows.push(measure(case, placement, query, opts)?);
        }
    }
    Ok(rows)
}

fn measure(
    case: &dyn PairCase,
    placement: Placement,
    query: Query,
    opts: &CompareOptions,
) -> Result<Row, CompareError> {
    let (budget, min_samples) = opts.timing();
    let (sdf, sdf_ns) = time_median(budget, min_samples, || case.sdf(query, placement))?;
    let (mesh, mesh_ns) = time_median(budget, min_samples, || case.mesh(query, placement))?;
    let reference = placement.reference(query);
    let size = case.size();
    let error = |d: Option<Real>| Some((d? - reference?).abs() / size);
    let normal_error = |n: &Option<Vec<Real>>| angle_deg(n.as_deref()?, &case.reference_normal());
    let contacts = query == Query::Contacts;
    Ok(Row {
        pair: case.pair().to_string(),
        dimension: case.dimension(),
        pose: placement.name(),
        target: case.target(),
        triangles: case.triangles(),
        query: query.name(),
        sdf_ns,
        mesh_ns,
        ratio: mesh_ns / sdf_ns.max(1.0),
        reference,
        size,
        sdf_depth: sdf.depth,
        mesh_depth: mesh.depth,
        sdf_error: error(sdf.depth),
        mesh_error: error(mesh.depth),
        sdf_normal_error_deg: normal_error(&sdf.normal),
        mesh_normal_error_deg: normal_error(&mesh.normal),
        sdf_normal: sdf.normal,
        mesh_normal: mesh.normal,
        sdf_points: contacts.then_some(sdf.points),
        mesh_points: contacts.then_some(mesh.points),
        sdf_manifolds: contacts.then_some(sdf.manifolds),
        mesh_manifolds: contacts.then_some(mesh.manifolds),
        sdf_evals: sdf.evals,
        sdf_hit_budget: sdf.hit_budget,
        sdf_intersects: sdf.intersects,
        mesh_intersects: mesh.intersects,
        expected_intersects: if query == Query::Intersection {
            placement.expected_intersects()
        } else {
            None
        },
    })
}

/// Calls `f` once (the answer kept, the call not timed: caches warm up), then in timed batches
/// until `budget` of CPU time is spent and at least `min_samples` batches were timed (a call
/// slower than the budget is timed `min_samples` times only while the total stays under four
/// budgets). A batch is doubled until it runs at least [`MIN_BATCH`], so reading the clock
/// (a system call) costs under 1% of it; those calibration runs are not samples. Returns the
/// answer and the median time per call in nanoseconds (CPU time of this thread, [`CLOCK`]).
fn time_median<T>(
    budget: Duration,
    min_samples: usize,
    mut f: impl FnMut() -> Result<T, CompareError>,
) -> Result<(T, f64), CompareError> {
    /// Enough batches for a stable median.
    const MAX_SAMPLES: usize = 1000;
    /// The most calls in one batch.
    const MAX_BATCH: usize = 1 << 16;
    let start = clock::now();
    let answer = f()?;
    let first = clock::now() - start;
    let mut samples = Vec::new();
    let mut batch = 1usize;
    while samples.len() < MAX_SAMPLES {
        let spent = clock::now() - start;
        let need_more = samples.len() < min_samples && spent < 4 * budget;
        if !need_more && spent >= budget {
            break;
        }
        let t = clock::now();
        for _ in 0..batch {
            std::hint::black_box(f()?);
        }
        let took = clock::now() - t;
        if took < MIN_BATCH && batch < MAX_BATCH {
            batch *= 2;
            continue;
        }
        samples.push(took.as_nanos() as f64 / batch as f64);
    }
    if samples.is_empty() {
        samples.push(first.as_nanos() as f64);
    }
    samples.sort_by(f64::total_cmp);
    Ok((answer, samples[samples.len() / 2]))
}

/// The shortest timed batch: a hundred times a clock read of half a microsecond.
const MIN_BATCH: Duration = Duration::from_micros(50);

/// Angle between `n` and `reference` in degrees (both unit, any dimension).
fn angle_deg(n: &[Real], reference: &[Real]) -> Option<Real> {
    let dot: Real = n.iter().zip(reference).map(|(a, b)| a * b).sum();
    let norm: Real = n.iter().map(|a| a * a).sum::<Real>().sqrt();
    (norm > 0.0).then(|| (dot / norm).clamp(-1.0, 1.0).acos().to_degrees())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn references_follow_the_gap() {
        // Exact by construction: the placements' gaps are the references.
        assert_eq!(Placement::Deep.reference(Query::Contacts), Some(0.1));
        assert_eq!(Placement::Deep.reference(Query::Penetration), Some(0.1));
        assert_eq!(Placement::Separated.reference(Query::Distance), Some(0.1));
        assert_eq!(
            Placement::Separated.reference(Query::Penetration),
            Some(0.0)
        );
        assert_eq!(Placement::Touching.expected_intersects(), None);
    }

    #[test]
    fn timing_stops_at_the_budget_or_the_sample_cap() {
        let mut n = 0;
        let (first, _) = time_median(Duration::ZERO, 3, || {
            n += 1;
            Ok(n)
        })
        .unwrap();
        assert_eq!((first, n), (1, 1), "no budget: only the answering call");
        // A long budget: the answer, batches doubled to the batch cap (a call of a few
        // nanoseconds never fills 50 µs below it), then 1000 batches of that size.
        let mut n = 0usize;
        let (first, ns) = time_median(Duration::from_secs(3600), 3, || {
            n += 1;
            Ok(n)
        })
        .unwrap();
        assert_eq!(first, 1, "the answer is the untimed first call's");
        assert!(n > 1000 * 64, "{n} calls: batches of at least 64");
        assert!(ns >= 0.0);
    }

    /// Every pair's SDF answers against the exact references: depths and distances within 1%
    /// of the smaller shape's size (the bar of the comparison), or within the sampling error
    /// of a baked grid's field (a cell) where that is larger; the intersection test right
    /// wherever it has a right answer. At 1k triangles (the SDF side does not depend on it).
    #[test]
    fn sdf_answers_match_the_exact_references() {
        let dir = std::env::temp_dir().join(format!("fathom-compare-refs-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let mut failures = Vec::new();
        for dimension in [3, 2] {
            for case in build_cases(dimension, 1_000, &dir).unwrap() {
                let tol = (0.01 * case.size()).max(case.sampling_error());
                for placement in Placement::ALL {
                    for &query in placement.queries() {
                        let a = case.sdf(query, placement).unwrap();
                        let row = format!("{} {} {}", case.pair(), placement.name(), query.name());
                        if let (Some(want), Some(got)) = (placement.reference(query), a.depth) {
                            if (got - want).abs() > tol {
                                failures.push(format!("{row}: {got} against {want} (tol {tol})"));
                            }
                        } else if placement.reference(query).is_some() {
                            failures.push(format!("{row}: no answer"));
                        }
                        let want = placement.expected_intersects();
                        if query == Query::Intersection && want.is_some() && a.intersects != want {
                            failures.push(format!("{row}: intersects {:?}", a.intersects));
                        }
                    }
                }
            }
        }
        let _ = std::fs::remove_dir_all(&dir);
        assert!(failures.is_empty(), "{}", failures.join("\n"));
    }

    #[test]
    fn angle_between_normals() {
        assert_eq!(angle_deg(&[0.0, 1.0, 0.0], &[0.0, 1.0, 0.0]), Some(0.0));
        let a = angle_deg(&[1.0, 0.0], &[0.0, 1.0]).unwrap();
        assert!((a - 90.0).abs() < 1e-4, "{a}");
        assert_eq!(angle_deg(&[0.0, 0.0], &[0.0, 1.0]), None);
    }
}
