//! `cargo +nightly fuzz run ai_choose`: see `dbcore_fuzz::ai_choose` for what it checks.
#![no_main]

dbcore_fuzz::target!(ai_choose);
