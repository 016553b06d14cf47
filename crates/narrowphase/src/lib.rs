//! fathom-narrowphase (see DESIGN.md); built by its issue.
