//! `cargo +nightly fuzz run action_bytes`: see `dbcore_fuzz::action_bytes` for what it checks.
#![no_main]

dbcore_fuzz::target!(action_bytes);
