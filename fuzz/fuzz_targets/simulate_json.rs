//! `cargo +nightly fuzz run simulate_json`: see `dbcore_fuzz::simulate_json` for what it checks.
#![no_main]

dbcore_fuzz::target!(simulate_json);
