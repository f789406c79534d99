//! The `dbcore` program as a library: its subcommands ([`commands`], [`bugs`]), the JSON-RPC dispatcher
//! ([`rpc::Referee::handle`]), the coordinate frames of table tools ([`frame`]) and the two doors
//! that only frame bytes for the dispatcher ([`stdio`], [`http`]). No rule is decided here.

pub mod bugs;
pub mod commands;
pub mod frame;
pub mod fuzzing;
pub mod http;
pub mod human;
pub mod odds;
pub mod rpc;
pub mod rpc_names;
#[cfg(feature = "schema")]
pub mod schema;
pub mod simulate;
pub mod static_files;
pub mod stdio;
