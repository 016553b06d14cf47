//! Fathom's vehicle controller: a chassis rigid body on sphere-cast wheels.
#![warn(missing_docs)]
