//! The baked grids a snapshot carries.
//!
//! A grid given by file (`Grid(File(path: ...))`) serialises as its path only, so a scene file
//! stays small; a snapshot must restore without the file, so it carries the samples beside the
//! world. Each distinct grid is stored once, however many colliders name it (`mesh_3d` names
//! two files from eight colliders), and every file source gets its grid's index in a fixed
//! order: colliders in handle order, each shape tree parents first. Restoring shares one
//! grid among all the sources that name it, as loading the scene did. Inline grids are part
//! of the shape already.

use crate::body::Collider;
use crate::world::World;
use fathom_math::{Dim, Space};
use fathom_sdf::{BakedGrid, GridSource, SdfError};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::sync::Arc;

/// The grids of a world's file sources, each once, and which one each source holds.
#[derive(Debug, Default, Serialize, Deserialize)]
#[serde(bound = "")]
pub(super) struct GridTable<const D: usize> {
    /// The distinct grids.
    grids: Vec<Arc<BakedGrid<D>>>,
    /// For each file source in order, its grid's index (`None` for one not loaded).
    uses: Vec<Option<u32>>,
}

/// Why a snapshot's grids do not fit its world.
fn misfit(message: String) -> SdfError {
    SdfError::Invalid {
        field: "grids",
        reason: message,
    }
}

impl<const D: usize> GridTable<D> {
    /// The grids of `world`'s file sources. A grid shared by sources (one file loaded once) is
    /// stored once; so is a grid loaded twice from one path with equal samples.
    pub(super) fn of(world: &World<D>) -> Self
    where
        Space<D>: Dim<D>,
    {
        let mut table = Self::default();
        let mut by_pointer: HashMap<*const BakedGrid<D>, u32> = HashMap::new();
        let mut by_path: HashMap<String, Vec<u32>> = HashMap::new();
        for (_, c) in world.colliders.iter() {
            c.shape.visit(&mut |s| {
                let fathom_sdf::Shape::Grid(GridSource::File { path, grid }) = s else {
                    return;
                };
                let index = grid
                    .as_ref()
                    .map(|g| table.index_of(g, path, &mut by_pointer, &mut by_path));
                table.uses.push(index);
            });
        }
        table
    }

    /// The index of `grid` named `path`, adding it if no equal grid is stored yet.
    fn index_of(
        &mut self,
        grid: &Arc<BakedGrid<D>>,
        path: &str,
        by_pointer: &mut HashMap<*const BakedGrid<D>, u32>,
        by_path: &mut HashMap<String, Vec<u32>>,
    ) -> u32 {
        if let Some(&i) = by_pointer.get(&Arc::as_ptr(grid)) {
            return i;
        }
        let same_path = by_path.entry(path.to_owned()).or_default();
        let equal = same_path
            .iter()
            .copied()
            .find(|&i| *self.grids[i as usize] == **grid);
        let index = equal.unwrap_or_else(|| {
            self.grids.push(Arc::clone(grid));
            let i = (self.grids.len() - 1) as u32;
            same_path.push(i);
            i
        });
        by_pointer.insert(Arc::as_ptr(grid), index);
        index
    }

    /// Gives each file source of `world` its grid back, in the order [`GridTable::of`] wrote.
    pub(super) fn attach(&self, world: &mut World<D>) -> Result<(), SdfError>
    where
        Space<D>: Dim<D>,
    {
        let mut uses = self.uses.iter();
        for (_, c) in world.colliders.iter_mut() {
            attach_collider(c, &mut || uses.next().copied(), &self.grids)?;
        }
        let extra = uses.count();
        if extra > 0 {
            return Err(misfit(format!(
                "{extra} more grid uses than the world has grid files"
            )));
        }
        Ok(())
    }
}

/// Gives the file sources of one collider their grids, taking each one's index from `next`.
fn attach_collider<const D: usize>(
    c: &mut Collider<D>,
    next: &mut impl FnMut() -> Option<Option<u32>>,
    grids: &[Arc<BakedGrid<D>>],
) -> Result<(), SdfError>
where
    Space<D>: Dim<D>,
{
    c.shape.for_each_grid_mut(&mut |source| {
        let GridSource::File { grid, .. } = source else {
            return Ok(());
        };
        let index = next().ok_or_else(|| {
            misfit("the world has more grid files than the snapshot has grid uses".into())
        })?;
        *grid = match index {
            None => None,
            Some(i) => Some(Arc::clone(grids.get(i as usize).ok_or_else(|| {
                misfit(format!(
                    "grid index {i} is out of range ({} grids stored)",
                    grids.len()
                ))
            })?)),
        };
        Ok(())
    })
}
