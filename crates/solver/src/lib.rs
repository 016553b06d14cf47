//! fathom-solver (see DESIGN.md); built by its issue.
