//! `cargo +nightly fuzz run round_trips`: see `dbcore_fuzz::round_trips` for what it checks.
#![no_main]

dbcore_fuzz::target!(round_trips);
