//! Shapes that exist in one dimension only, inside a tree written for any dimension.
//!
//! [`crate::Shape`] is one generic enum for 2D and 3D, so that the world and the
//! narrowphase need only the usual `Space<D>: Dim<D>` bound. Its 3D-only kinds
//! (torus, cone, ...) and 2D-only kinds (polygons, segment) sit in variants for
//! every `D`, wrapped in [`DimOnly<D, N, T>`]: a value of that type can only be
//! *made* when `D == N` (the constructor exists only for `DimOnly<N, N, T>`, and
//! deserialising one for another dimension is an error), so a torus in a 2D
//! shape tree is unrepresentable rather than a runtime surprise.

use crate::{Sdf, ShapeKind};
use fathom_math::{Aabb, Real, Vector};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// A shape `T` that exists only in `N` dimensions, held in a `D`-dimensional tree.
/// Constructible only when `D == N` (see the module docs).
#[derive(Clone, Debug, PartialEq)]
pub struct DimOnly<const D: usize, const N: usize, T> {
    inner: T,
}

/// A 2D-only shape in a `D`-dimensional tree.
pub type Only2<const D: usize, T> = DimOnly<D, 2, T>;
/// A 3D-only shape in a `D`-dimensional tree.
pub type Only3<const D: usize, T> = DimOnly<D, 3, T>;

impl<const N: usize, T> DimOnly<N, N, T> {
    /// Wraps a shape of its own dimension.
    pub fn new(inner: T) -> Self {
        Self { inner }
    }
}

impl<const D: usize, const N: usize, T> DimOnly<D, N, T> {
    /// The wrapped shape.
    pub fn get(&self) -> &T {
        &self.inner
    }
}

/// `v` with its first `min(A, B)` components copied, the rest zero. Only ever
/// called with `A == B` here (a `DimOnly<D, N, _>` exists only for `D == N`).
fn reshape<const A: usize, const B: usize>(v: &Vector<A>) -> Vector<B> {
    Vector::<B>::from_fn(|i, _| if i < A { v[i] } else { 0.0 })
}

impl<const D: usize, const N: usize, T: Sdf<N>> Sdf<D> for DimOnly<D, N, T> {
    fn distance(&self, p: &Vector<D>) -> Real {
        self.inner.distance(&reshape::<D, N>(p))
    }
    fn bounds(&self) -> Aabb<D> {
        let b = self.inner.bounds();
        Aabb::new(reshape(&b.min), reshape(&b.max))
    }
    fn level_bounds(&self, level: Real) -> Aabb<D> {
        let b = self.inner.level_bounds(level);
        Aabb::new(reshape(&b.min), reshape(&b.max))
    }
    fn gradient(&self, p: &Vector<D>) -> Vector<D> {
        reshape(&self.inner.gradient(&reshape::<D, N>(p)))
    }
    fn lipschitz(&self) -> Real {
        self.inner.lipschitz()
    }
    fn kind(&self) -> ShapeKind<D> {
        ShapeKind::General
    }
}

impl<const D: usize, const N: usize, T: Serialize> Serialize for DimOnly<D, N, T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.inner.serialize(serializer)
    }
}

impl<'de, const D: usize, const N: usize, T: Deserialize<'de>> Deserialize<'de>
    for DimOnly<D, N, T>
{
    fn deserialize<De: Deserializer<'de>>(deserializer: De) -> Result<Self, De::Error> {
        let inner = T::deserialize(deserializer)?;
        if D != N {
            let name = std::any::type_name::<T>()
                .rsplit("::")
                .next()
                .unwrap_or("shape");
            return Err(serde::de::Error::custom(format!(
                "{name} exists only in {N}D, but this shape tree is {D}D"
            )));
        }
        Ok(Self { inner })
    }
}
