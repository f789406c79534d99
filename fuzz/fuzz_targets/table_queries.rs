//! `cargo +nightly fuzz run table_queries`: see `dbcore_fuzz::table_queries` for what it checks.
#![no_main]

dbcore_fuzz::target!(table_queries);
