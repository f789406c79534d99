//! `cargo +nightly fuzz run c_entry_points`: see `dbcore_fuzz::c_entry_points` for what it checks.
#![no_main]

dbcore_fuzz::target!(c_entry_points);
