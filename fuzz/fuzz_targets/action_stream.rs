//! `cargo +nightly fuzz run action_stream`: see `dbcore_fuzz::action_stream` for what it checks.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| dbcore_fuzz::action_stream(data));
