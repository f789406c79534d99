//! `cargo +nightly fuzz run action_bytes`: see `dbcore_fuzz::action_bytes` for what it checks.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| dbcore_fuzz::action_bytes(data));
