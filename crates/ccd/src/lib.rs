//! fathom-ccd (see DESIGN.md); built by its issue.
