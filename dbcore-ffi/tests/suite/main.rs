//! The C ABI's integration tests, called from Rust, one module per subject, built as one test
//! binary (one link instead of four). A module runs alone with its path as the filter:
//! `cargo test -p dbcore-ffi --test suite table::`.

mod api;
mod boundary;
mod fuzz_corpus;
mod table;
