//! `cargo +nightly fuzz run http_clients`: see `dbcore_cli::fuzzing::http_clients` for what it
//! checks (the referee server's HTTP door with several clients at once).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| dbcore_cli::fuzzing::http_clients(data));
