//! `cargo +nightly fuzz run element_code`: see `dbcore_fuzz::element_code` for what it checks.
#![no_main]

dbcore_fuzz::target!(element_code);
