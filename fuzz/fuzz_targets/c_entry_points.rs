//! `cargo +nightly fuzz run c_entry_points`: see `dbcore_fuzz::c_entry_points` for what it checks.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| dbcore_fuzz::c_entry_points(data));
