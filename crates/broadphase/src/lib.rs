//! fathom-broadphase (see DESIGN.md); built by its issue.
