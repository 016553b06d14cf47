//! Tests across the crate, written once as generic functions and run for D = 2 and D = 3.

mod bad_input;
mod catalogue;
mod edits;
mod files;
mod grid_checks;
mod grids;
mod meshing;
mod oracle;
mod polygons;
mod properties;
mod reading_depth;
mod roundtrip;
mod sparse;
mod support;
mod terrain_hulls;
