//! `cargo +nightly fuzz run setup_json`: see `dbcore_fuzz::setup_json` for what it checks.
#![no_main]

dbcore_fuzz::target!(setup_json);
