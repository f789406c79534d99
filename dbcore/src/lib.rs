//! # dbcore: a referee for DBA 3.0
//!
//! `dbcore` holds the rules of *De Bellis Antiquitatis* 3.0 as plain data and pure functions:
//! no I/O, no global state, no random number generator of its own. Dice are inputs.
//!
//! Section numbers in the documentation (`§11.2`) refer to the project's rules digest,
//! `shared/rules/DBA3.md`.

#![forbid(unsafe_code)]
#![warn(missing_debug_implementations)]

pub mod battlefield;
pub mod geometry;
pub mod svg;
pub mod terrain;
