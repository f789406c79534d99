//! `cargo +nightly fuzz run element_code`: see `dbcore_fuzz::element_code` for what it checks.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| dbcore_fuzz::element_code(data));
