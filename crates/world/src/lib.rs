//! fathom-world (see DESIGN.md); built by its issue.
