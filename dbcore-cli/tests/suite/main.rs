//! The `dbcore` program's integration tests, one module per subject, built as one test binary
//! (one link of the program's code instead of eight). A module runs alone with its path as the
//! filter: `cargo test -p dbcore-cli --test suite protocol::`.

// Validating messages against the committed JSON Schema files, shared by several modules.
mod support;

mod attacks;
mod bugs;
mod dispatcher;
mod dispatcher_games;
mod fuzz_corpus;
mod human;
mod play;
mod protocol;
mod protocol_doc;
mod schema_valid;
mod simulate;
mod surface_methods;
