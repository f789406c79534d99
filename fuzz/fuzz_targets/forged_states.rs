//! `cargo +nightly fuzz run forged_states`: see `dbcore_fuzz::forged_states` for what it checks
//! (compact states edited and resealed with the public digest, read and played on).
#![no_main]
dbcore_fuzz::target!(forged_states);
