//! Project chores, `cargo run -p xtask -- CHORE`. This program is lean on purpose: it depends on
//! serde_json alone, so that the chores it does itself compile nothing of the referee before
//! they build it:
//!
//! - `install --prefix DIR [--debug]` builds the C library and lays it out under `DIR` with its
//!   header, pkg-config files and CMake package (`install.rs`);
//! - `dist [--profile P] [--out DIR]` writes the release packages to `dist/`: the Python wheel
//!   and sdist, the C archive, the `dbcore` program's archive and `SHA256SUMS` (`dist.rs`);
//! - `sums DIR` writes `DIR/SHA256SUMS` for every other file in `DIR`;
//! - `web [--dev]` builds the referee as WebAssembly into `web/pkg/` for the web table, installing
//!   the wasm32 target when missing (`web.rs`).
//!
//! Every other chore (`header`, `golden`, `armies`, `schema`, `perf`, `ai-strength`,
//! `simulate-bench`) needs the referee itself or cbindgen: it is handed to the `xtask-chores`
//! program (`xtask/chores/`), built and run with this program's profile.

mod dist;
mod install;
mod sha256;
mod version;
mod web;

use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

/// The workspace root (xtask lives one level below it).
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("xtask is inside the workspace")
        .to_path_buf()
}

/// Where the committed header lives.
fn header_path() -> PathBuf {
    root().join("include").join("dbcore.h")
}

/// The cargo that runs this program (cargo sets `CARGO`), or the one on the PATH.
fn cargo() -> Command {
    Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()))
}

/// Run `args` as a chore of xtask-chores, in this program's profile, and return its exit code.
fn chores(args: &[String]) -> ExitCode {
    let mut cmd = cargo();
    cmd.current_dir(root()).args(["run", "-p", "xtask-chores"]);
    if !cfg!(debug_assertions) {
        cmd.arg("--release");
    }
    match cmd.arg("--").args(args).status() {
        Ok(s) if s.success() => ExitCode::SUCCESS,
        Ok(s) => ExitCode::from(s.code().and_then(|c| u8::try_from(c).ok()).unwrap_or(1)),
        Err(e) => {
            eprintln!("xtask: cargo run -p xtask-chores: {e}");
            ExitCode::FAILURE
        }
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let words: Vec<&str> = args.iter().map(String::as_str).collect();
    let result = match words[..] {
        ["install", ref rest @ ..] => install::run(rest),
        ["dist", ref rest @ ..] => dist::run(rest),
        ["sums", dir] => dist::write_sums(Path::new(dir)).map(|_| ()),
        ["web", ref rest @ ..] => web::run(rest),
        _ => return chores(&args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("xtask: {e}");
            ExitCode::FAILURE
        }
    }
}
