//! Test-only fields that only bound distance, each with an analytic truth to check against.
//! (fathom-sdf's own operators and grids are exercised separately once they are committed.)

use fathom_math::{Aabb, Real, Vector};
use fathom_sdf::{central_difference_gradient, Sdf};

/// `factor * inner`: the same surface, distance scaled. `factor > 1` over-reports
/// distance (Lipschitz `factor`); `factor < 1` under-reports it and is still 1-Lipschitz.
pub struct Scaled<S> {
    pub inner: S,
    pub factor: Real,
    pub lipschitz: Real,
}

impl<const D: usize, S: Sdf<D>> Sdf<D> for Scaled<S> {
    fn distance(&self, p: &Vector<D>) -> Real {
        self.factor * self.inner.distance(p)
    }
    fn bounds(&self) -> Aabb<D> {
        self.inner.bounds()
    }
    fn gradient(&self, p: &Vector<D>) -> Vector<D> {
        self.inner.gradient(p)
    }
    fn lipschitz(&self) -> Real {
        self.lipschitz
    }
}

/// `inner` moved by `offset`.
pub struct Translated<S, const D: usize> {
    pub inner: S,
    pub offset: Vector<D>,
}

impl<const D: usize, S: Sdf<D>> Sdf<D> for Translated<S, D> {
    fn distance(&self, p: &Vector<D>) -> Real {
        self.inner.distance(&(p - self.offset))
    }
    fn bounds(&self) -> Aabb<D> {
        self.inner.bounds().translated(&self.offset)
    }
    fn gradient(&self, p: &Vector<D>) -> Vector<D> {
        self.inner.gradient(&(p - self.offset))
    }
}

/// Polynomial smooth union (smin with blend width `k`): below `min(a, b)` near the seam,
/// so it under-reports distance there; 1-Lipschitz (its gradient is a convex combination).
pub struct SmoothUnion<A, B> {
    pub a: A,
    pub b: B,
    pub k: Real,
}

impl<A, B> SmoothUnion<A, B> {
    pub fn smin(&self, a: Real, b: Real) -> Real {
        let h = (self.k - (a - b).abs()).max(0.0) / self.k;
        a.min(b) - h * h * self.k * 0.25
    }
}

impl<const D: usize, A: Sdf<D>, B: Sdf<D>> Sdf<D> for SmoothUnion<A, B> {
    fn distance(&self, p: &Vector<D>) -> Real {
        self.smin(self.a.distance(p), self.b.distance(p))
    }
    fn bounds(&self) -> Aabb<D> {
        // The blend bulges out by at most k/4 beyond the union.
        self.a
            .bounds()
            .merge(&self.b.bounds())
            .loosened(0.25 * self.k)
    }
    fn gradient(&self, p: &Vector<D>) -> Vector<D> {
        central_difference_gradient(self, p)
    }
}

/// An ellipse / ellipsoid with these semi-axes, as a stretched unit ball: `|p / s| - 1`.
/// Exact surface, not a distance: it changes at up to `1 / min(s)` per metre.
pub struct Stretched<const D: usize> {
    pub semi_axes: Vector<D>,
}

impl<const D: usize> Stretched<D> {
    pub fn level(&self, p: &Vector<D>) -> Real {
        p.component_div(&self.semi_axes).norm()
    }
}

impl<const D: usize> Sdf<D> for Stretched<D> {
    fn distance(&self, p: &Vector<D>) -> Real {
        self.level(p) - 1.0
    }
    fn bounds(&self) -> Aabb<D> {
        Aabb::from_center_half_extents(Vector::zeros(), self.semi_axes)
    }
    fn gradient(&self, p: &Vector<D>) -> Vector<D> {
        central_difference_gradient(self, p)
    }
    fn lipschitz(&self) -> Real {
        1.0 / self.semi_axes.min()
    }
}

/// A field baked onto a regular grid with multilinear interpolation, made conservative:
/// interpolating a 1-Lipschitz field errs by at most `h sqrt(D) / 2`, which is subtracted,
/// so the grid never exceeds the true distance. Its gradient components are interpolated
/// finite differences (each at most 1), so it reports Lipschitz `sqrt(D)`.
pub struct Grid<const D: usize> {
    min: Vector<D>,
    cell: Real,
    counts: [usize; D],
    values: Vec<Real>,
    source_bounds: Aabb<D>,
}

impl<const D: usize> Grid<D> {
    pub fn bake(source: &dyn Sdf<D>, cell: Real, margin: Real) -> Self {
        let source_bounds = source.bounds();
        let b = source_bounds.loosened(margin);
        let counts: [usize; D] =
            std::array::from_fn(|i| ((b.max[i] - b.min[i]) / cell).ceil() as usize + 2);
        let total: usize = counts.iter().product();
        let offset = cell * (D as Real).sqrt() * 0.5;
        let values = (0..total)
            .map(|flat| {
                let mut rest = flat;
                let p = Vector::<D>::from_fn(|i, _| {
                    let k = rest % counts[i];
                    rest /= counts[i];
                    b.min[i] + cell * k as Real
                });
                source.distance(&p) - offset
            })
            .collect();
        Self {
            min: b.min,
            cell,
            counts,
            values,
            source_bounds,
        }
    }

    fn at(&self, index: &[usize; D]) -> Real {
        let mut flat = 0;
        let mut stride = 1;
        for (k, n) in index.iter().zip(self.counts.iter()) {
            flat += k * stride;
            stride *= n;
        }
        self.values[flat]
    }

    fn domain(&self) -> Aabb<D> {
        let size = Vector::<D>::from_fn(|i, _| self.cell * (self.counts[i] - 1) as Real);
        Aabb::new(self.min, self.min + size)
    }
}

impl<const D: usize> Sdf<D> for Grid<D> {
    fn distance(&self, p: &Vector<D>) -> Real {
        // Outside the grid, the clamped point is closer to every point of the solid.
        let dom = self.domain();
        let q = p.sup(&dom.min).inf(&dom.max);
        let mut base = [0usize; D];
        let mut frac = [0.0; D];
        for i in 0..D {
            let x = (q[i] - self.min[i]) / self.cell;
            let k = (x.floor() as usize).min(self.counts[i] - 2);
            base[i] = k;
            frac[i] = (x - k as Real).clamp(0.0, 1.0);
        }
        let mut sum = 0.0;
        for mask in 0..(1usize << D) {
            let mut w = 1.0;
            let idx: [usize; D] = std::array::from_fn(|i| {
                let up = mask & (1 << i) != 0;
                w *= if up { frac[i] } else { 1.0 - frac[i] };
                base[i] + up as usize
            });
            sum += w * self.at(&idx);
        }
        sum
    }
    fn bounds(&self) -> Aabb<D> {
        // The grid's zero set lies within h sqrt(D) of the source solid.
        self.source_bounds.loosened(self.cell * (D as Real).sqrt())
    }
    fn gradient(&self, p: &Vector<D>) -> Vector<D> {
        central_difference_gradient(self, p)
    }
    fn lipschitz(&self) -> Real {
        (D as Real).sqrt()
    }
}
