//! `cargo +nightly fuzz run round_trips`: see `dbcore_fuzz::round_trips` for what it checks.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| dbcore_fuzz::round_trips(data));
