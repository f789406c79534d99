//! `cargo +nightly fuzz run action_stream`: see `dbcore_fuzz::action_stream` for what it checks.
#![no_main]

dbcore_fuzz::target!(action_stream);
