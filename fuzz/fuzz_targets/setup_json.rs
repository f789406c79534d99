//! `cargo +nightly fuzz run setup_json`: see `dbcore_fuzz::setup_json` for what it checks.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| dbcore_fuzz::setup_json(data));
