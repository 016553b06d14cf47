//! The contact normal of two general fields at a deep point, and the depth along it.
//!
//! At the deepest point `p` of an overlap (the minimiser of `d0 + d1`) the two fields'
//! gradients are opposite wherever both are smooth, and either gives the normal. Where one
//! shape has an edge or a corner at `p` (a box's corner poking into a face) its gradient is
//! ambiguous, and only the other shape's is right. The central-difference gradient with a
//! step of a leaf cell tells the two apart: its length is one on a smooth part of an exact
//! field and drops below one when the stencil straddles a ridge. So the normal blends the two
//! unit gradients with weights that fall off sharply with that length, relative to the better
//! one. When both are on ridges (two crossing edges) the deep point is first slid onto both
//! ridges by a compass search on `d0 + d1`, after which the symmetric stencils are unbiased.
//!
//! The depth is then measured along the normal through `p` by sphere tracing to each surface,
//! which is exact for flat faces, edges and corners alike (the value `d0 + d1` itself
//! under-estimates an edge-edge overlap by up to a factor of sqrt 2).

use fathom_math::{Real, Vector};

use crate::field::{central_gradient, march, Field};

/// Below this length (relative to the Lipschitz constant) a central-difference gradient is
/// taken to straddle a ridge.
const RIDGE: Real = 0.95;
/// How sharply a less reliable gradient's weight falls off with its relative length.
const SHARPNESS: Real = 40.0;

/// The unit normal from A towards B at `p` (search frame), and `p` possibly slid onto the
/// ridges of both fields. `h` is the stencil step (a leaf cell radius).
pub(crate) fn normal_at<const D: usize>(
    a: &dyn Field<D>,
    b: &dyn Field<D>,
    p: Vector<D>,
    h: Real,
) -> (Vector<D>, Vector<D>) {
    let (n, ra, rb) = blended(a, b, &p, h);
    if ra < RIDGE && rb < RIDGE {
        let q = refine_onto_ridges(a, b, p, h);
        let (n2, _, _) = blended(a, b, &q, h);
        return (n2, q);
    }
    (n, p)
}

fn blended<const D: usize>(
    a: &dyn Field<D>,
    b: &dyn Field<D>,
    p: &Vector<D>,
    h: Real,
) -> (Vector<D>, Real, Real) {
    let ga = central_gradient(a, p, h) / a.lipschitz().max(1e-6);
    let gb = central_gradient(b, p, h) / b.lipschitz().max(1e-6);
    let (ra, rb) = (ga.norm(), gb.norm());
    let rmax = ra.max(rb);
    if rmax <= 1e-6 || rmax.is_nan() {
        let g = a.gradient(p) - b.gradient(p);
        return (unit_or(g, a.gradient(p)), 0.0, 0.0);
    }
    let wa = (-SHARPNESS * (1.0 - ra / rmax)).exp();
    let wb = (-SHARPNESS * (1.0 - rb / rmax)).exp();
    let mut v = Vector::<D>::zeros();
    if ra > 1e-6 {
        v += ga * (wa / ra);
    }
    if rb > 1e-6 {
        v -= gb * (wb / rb);
    }
    let fallback = if ra >= rb { ga / ra } else { -gb / rb };
    (unit_or(v, fallback), ra, rb)
}

/// The common normal at `p` when both shapes' gradients there face each other (within
/// [`FACING`]): two faces, or two smooth patches, pressed together. Then no axis can be better
/// and the separating-axis search is skipped; `None` otherwise.
pub(crate) fn facing_normal<const D: usize>(
    a: &dyn Field<D>,
    b: &dyn Field<D>,
    p: &Vector<D>,
) -> Option<Vector<D>> {
    let (ga, gb) = (a.gradient(p), b.gradient(p));
    (ga.dot(&-gb) >= FACING.cos()).then(|| unit_or(ga - gb, ga))
}

/// Largest angle (radians) between two gradients that face each other.
const FACING: Real = 0.02;

/// `v` normalised, or `fallback` normalised, or the first axis.
pub(crate) fn unit_or<const D: usize>(v: Vector<D>, fallback: Vector<D>) -> Vector<D> {
    for w in [v, fallback] {
        let l = w.norm();
        if l > 1e-9 && l.is_finite() {
            return w / l;
        }
    }
    let mut e = Vector::<D>::zeros();
    e[0] = 1.0;
    e
}

/// Compass search on `d0 + d1` from `p`, with steps from `h` down to `h / 256` along the axes
/// and the diagonals (the diagonals keep it from stalling in a valley oblique to the axes).
fn refine_onto_ridges<const D: usize>(
    a: &dyn Field<D>,
    b: &dyn Field<D>,
    mut p: Vector<D>,
    h: Real,
) -> Vector<D> {
    const MAX_MOVES: usize = 64;
    let dirs = compass_directions::<D>();
    let sum = |q: &Vector<D>| a.value(q) + b.value(q);
    let mut f = sum(&p);
    let mut step = h;
    let mut moves = 0;
    while step > h / 256.0 && moves < MAX_MOVES {
        let mut improved = false;
        for d in &dirs {
            let q = p + d * step;
            let fq = sum(&q);
            if fq < f - 1e-7 * h {
                p = q;
                f = fq;
                improved = true;
                moves += 1;
                break;
            }
        }
        if !improved {
            step *= 0.5;
        }
    }
    p
}

fn compass_directions<const D: usize>() -> Vec<Vector<D>> {
    let mut dirs = Vec::new();
    for i in 0..D {
        for s in [1.0, -1.0] {
            let mut e = Vector::<D>::zeros();
            e[i] = s;
            dirs.push(e);
        }
    }
    for mask in 0..(1usize << D) {
        let v = Vector::<D>::from_fn(|i, _| if mask >> i & 1 == 1 { 1.0 } else { -1.0 });
        dirs.push(v.normalize());
    }
    dirs
}

/// Where the line through `p` along `n` leaves A (upwards, `point_a`) and B (downwards,
/// `point_b`), and the signed separation `(point_b - point_a) · n` (negative when overlapping).
/// `None` when a march misses its surface within `reach`.
pub(crate) fn along_normal<const D: usize>(
    a: &dyn Field<D>,
    b: &dyn Field<D>,
    p: &Vector<D>,
    n: &Vector<D>,
    reach: Real,
    eps: Real,
) -> Option<(Vector<D>, Vector<D>, Real)> {
    let sa = march(a, p, n, reach, eps)?;
    let sb = march(b, p, &-n, reach, eps)?;
    let pa = p + n * sa;
    let pb = p - n * sb;
    Some((pa, pb, -(sa + sb)))
}

/// The separating-axis refinement of a penetration: among the candidate axes at the deep point
/// `p` (the face normals each shape shows around `p`, sampled from its gradient at points inside
/// it, and in 3D the cross products of an edge of each), the one along which the shapes overlap
/// least, with that overlap as the depth. The overlap along an axis `n` is
/// `support_A(n) - (-support_B(-n))`, each support found by [`support`] near `p`: for convex
/// polytopes this is the separating-axis theorem's minimum translation (an edge-edge contact's
/// axis is the cross product of the edges); smooth shapes give one candidate, their common
/// normal. Returns the unit normal from A to B, the depth, A's support point and B's.
pub(crate) fn separating_axis<const D: usize>(
    a: &dyn Field<D>,
    b: &dyn Field<D>,
    p: &Vector<D>,
    n0: &Vector<D>,
    h: Real,
    reach: Real,
) -> (Vector<D>, Real, Vector<D>, Vector<D>) {
    // Features at two scales: right at the deep point (faces and edges), and across the overlap
    // (faces only: normals sampled far apart on a curved surface are not an edge).
    let (mut fa, mut fb) = (Features::default(), Features::default());
    fa.learn(a, p, h, true);
    fb.learn(b, p, h, true);
    fa.learn(a, p, 0.5 * reach, false);
    fb.learn(b, p, 0.5 * reach, false);
    let mut tried: Vec<Vector<D>> = Vec::new();
    let mut best = (*n0, Real::INFINITY, *p, *p);
    // Each round tries the axes the known features give, then learns the features at the
    // supports it found (the corner or edge an axis leans on may be away from the deep point).
    for _ in 0..SAT_ROUNDS {
        let mut supports: Vec<(Vector<D>, Vector<D>, Vector<D>)> = Vec::new();
        for n in candidate_axes(&fa, &fb, n0) {
            if tried.iter().any(|m| m.dot(&n).abs() >= SAME_AXIS.cos()) {
                continue;
            }
            tried.push(n);
            let top = support(a, p, &n, reach);
            let bottom = support(b, p, &-n, reach);
            let depth = n.dot(&(top - bottom));
            if depth < best.1 {
                best = (n, depth, top, bottom);
            }
            supports.push((n, top, bottom));
        }
        if supports.is_empty() {
            break;
        }
        for (n, top, bottom) in supports {
            fa.learn(a, &(top - n * h), h, true);
            fb.learn(b, &(bottom + n * h), h, true);
        }
    }
    best
}

/// The face normals and edge directions a shape shows near the points looked at.
struct Features<const D: usize> {
    normals: Vec<Vector<D>>,
    edges: Vec<Vector<D>>,
}

impl<const D: usize> Default for Features<D> {
    fn default() -> Self {
        Self {
            normals: Vec::new(),
            edges: Vec::new(),
        }
    }
}

impl<const D: usize> Features<D> {
    /// Samples the normals around `centre` at step `h`; with `sharp`, two normals of one stencil
    /// at more than [`EDGE_ANGLE`] from each other are also an edge (their cross product).
    fn learn(&mut self, f: &dyn Field<D>, centre: &Vector<D>, h: Real, sharp: bool) {
        let ns = face_normals(f, centre, h);
        for n in &ns {
            push_normal(&mut self.normals, *n);
        }
        if sharp && D == 3 {
            for i in 0..ns.len() {
                for j in (i + 1)..ns.len() {
                    if ns[i].dot(&ns[j]) < EDGE_ANGLE.cos() {
                        let e = cross3(&ns[i], &ns[j]).normalize();
                        if self.edges.len() < MAX_NORMALS
                            && self.edges.iter().all(|m| m.dot(&e).abs() < SAME_AXIS.cos())
                        {
                            self.edges.push(e);
                        }
                    }
                }
            }
        }
    }
}

/// The separating-axis candidates: A's face normals, B's face normals reversed, `n0`, and in 3D
/// the cross products of an edge of A and an edge of B (oriented along `n0`).
fn candidate_axes<const D: usize>(
    fa: &Features<D>,
    fb: &Features<D>,
    n0: &Vector<D>,
) -> Vec<Vector<D>> {
    // Face normals first: they are exact, and `n0` (an estimate) is only tried when no face
    // normal is within a hair of it.
    let mut axes: Vec<Vector<D>> = Vec::new();
    for n in fa
        .normals
        .iter()
        .copied()
        .chain(fb.normals.iter().map(|n| -n))
    {
        push_axis(&mut axes, n);
    }
    push_axis(&mut axes, *n0);
    for ea in &fa.edges {
        for eb in &fb.edges {
            let c = cross3(ea, eb);
            if c.norm() > 1e-3 {
                let c = c.normalize();
                push_axis(&mut axes, if c.dot(n0) < 0.0 { -c } else { c });
            }
        }
    }
    axes
}

fn push_normal<const D: usize>(normals: &mut Vec<Vector<D>>, n: Vector<D>) {
    if normals.len() < MAX_NORMALS && normals.iter().all(|m| m.dot(&n) < SAME_AXIS.cos()) {
        normals.push(n);
    }
}

/// The point of `f`'s shape farthest along `dir` near `start`, by iterated far projection: the
/// point of the shape nearest to a point far along `dir` lies on the supporting feature (a face
/// facing `dir` is reached in one step, an edge or corner in a few as each step slides along the
/// surface towards it). `reach` (how far out the far point is) keeps the search local, so a
/// non-convex shape's other parts are not visited. Exact fields land on the surface in one
/// projection; bounds are re-projected a few times.
pub(crate) fn support<const D: usize>(
    f: &dyn Field<D>,
    start: &Vector<D>,
    dir: &Vector<D>,
    reach: Real,
) -> Vector<D> {
    const STEPS: usize = 8;
    // Every support point lies in the solid's box, so each walk onto the surface starts inside
    // it (see `Field::solid_bounds`: from far outside a baked grid a walk fell short, and the
    // depth along the axis read 0.8 m for a 0.02 m overlap).
    let mut x = onto_surface(f, &(start + dir * reach));
    for _ in 0..STEPS {
        let y = onto_surface(f, &(x + dir * reach));
        if dir.dot(&(y - x)) <= 1e-6 * reach {
            break;
        }
        x = y;
    }
    x
}

/// `q` moved onto `f`'s surface: from `q` brought into the solid's box first (see
/// [`Field::solid_bounds`]), which changes nothing for a point inside it.
pub(crate) fn onto_surface<const D: usize>(f: &dyn Field<D>, q: &Vector<D>) -> Vector<D> {
    let start = match f.solid_bounds() {
        Some(b) => q.zip_zip_map(&b.min, &b.max, |x, lo, hi| x.clamp(lo, hi)),
        None => *q,
    };
    project(f, &start)
}

/// [`onto_surface`], but landing on the point of the surface nearest `q` wherever the field
/// allows: what the distance's witness polish needs.
pub(crate) fn nearest_on_surface<const D: usize>(f: &dyn Field<D>, q: &Vector<D>) -> Vector<D> {
    let start = match f.solid_bounds() {
        Some(b) => q.zip_zip_map(&b.min, &b.max, |x, lo, hi| x.clamp(lo, hi)),
        None => *q,
    };
    if start != *q {
        // An exact field lands on its surface from `q` itself, at the point nearest `q`, which
        // the walk from the box does not (a convex hull's witnesses stalled 6% apart, polished
        // from the clamped points); a field that only bounds the distance out here falls short
        // of its surface and takes the walk from the box.
        let direct = project(f, q);
        if f.value(&direct).abs() <= 1e-6 * (1.0 + q.norm()) {
            return direct;
        }
    }
    project(f, &start)
}

/// `q` moved onto `f`'s surface along the gradient (repeated while the field is not exact).
fn project<const D: usize>(f: &dyn Field<D>, q: &Vector<D>) -> Vector<D> {
    let mut x = *q;
    for _ in 0..4 {
        let d = f.value(&x);
        if !d.is_finite() {
            break;
        }
        x -= f.gradient(&x) * (d / f.lipschitz().max(1e-6));
        if d.abs() <= 1e-6 * (1.0 + q.norm()) {
            break;
        }
    }
    x
}

/// Angle below which two candidate axes are the same (radians).
const SAME_AXIS: Real = 0.02;
/// Rounds of learning features at the supports (see [`separating_axis`]).
const SAT_ROUNDS: usize = 3;
/// Most face normals kept per shape (a box corner shows 3; a curved surface shows a new one at
/// every sample, and those add nothing a few do not).
const MAX_NORMALS: usize = 8;
/// Most axes tried in one round.
const MAX_AXES: usize = 32;
/// Two face normals seen by one small stencil at more than this angle (radians) meet at an edge.
const EDGE_ANGLE: Real = 0.35;

/// Adds `n` to `axes` unless it (or its opposite) is already there.
fn push_axis<const D: usize>(axes: &mut Vec<Vector<D>>, n: Vector<D>) {
    if axes.len() < MAX_AXES && axes.iter().all(|m| m.dot(&n).abs() < (SAME_AXIS).cos()) {
        axes.push(n);
    }
}

/// The distinct outward normals field `f` shows around `p`: its gradient at `p` and at the
/// points a step `h` along each axis that are inside it (outside a corner the gradient is
/// radial, not a face's normal, so those samples are skipped).
fn face_normals<const D: usize>(f: &dyn Field<D>, p: &Vector<D>, h: Real) -> Vec<Vector<D>> {
    let mut out: Vec<Vector<D>> = Vec::new();
    let mut samples = vec![*p];
    for i in 0..D {
        for s in [h, -h] {
            let mut q = *p;
            q[i] += s;
            samples.push(q);
        }
    }
    for q in samples {
        if f.value(&q) < 0.0 {
            push_normal(&mut out, f.gradient(&q));
        }
    }
    out
}

/// The 3D cross product written on `Vector<D>` (zero unless `D == 3`).
fn cross3<const D: usize>(a: &Vector<D>, b: &Vector<D>) -> Vector<D> {
    let mut c = Vector::<D>::zeros();
    if D == 3 {
        c[0] = a[1] * b[2] - a[2] * b[1];
        c[1] = a[2] * b[0] - a[0] * b[2];
        c[2] = a[0] * b[1] - a[1] * b[0];
    }
    c
}
