//! `cargo +nightly fuzz run table_queries`: see `dbcore_fuzz::table_queries` for what it checks.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| dbcore_fuzz::table_queries(data));
