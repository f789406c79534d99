//! `cargo +nightly fuzz run protocol_framing`: see `dbcore_cli::fuzzing::protocol_framing` for
//! what it checks (the referee server's stdio door and dispatcher on any bytes).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| dbcore_cli::fuzzing::protocol_framing(data));
