//! The project chores that need the referee or cbindgen, run as `cargo run -p xtask -- CHORE`
//! (the lean xtask hands them here; `cargo run -p xtask-chores -- CHORE` is the same).
//! `cargo run -p xtask -- header` regenerates `include/dbcore.h` from dbcore-ffi
//! with the cbindgen pinned in `xtask/Cargo.toml`; `-- header --check` fails if the committed
//! header differs from what would be generated. `-- golden [--check]` does the same for the golden
//! traces in `tests/golden/`, `-- armies [--check]` for the bundled army lists
//! (`dbcore/src/armies/lists.json` and its `corrections.csv`, from `../shared/data`), and
//! `-- schema [--check]` for the JSON Schema files in `schema/`. (`-- install --prefix DIR` and
//! `-- dist` are the lean xtask's own: `xtask/src/`.)
//! `--release -- perf [--callgrind]` prints the speed table of issue #15 (see `perf.rs`).

mod armies;
mod golden;
mod perf;
mod simbench;
mod strength;

use std::fs;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// The workspace root (this package is `xtask/chores/`, two levels below it).
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .nth(2)
        .expect("xtask/chores is inside the workspace")
        .to_path_buf()
}

/// Where the committed header lives.
fn header_path() -> PathBuf {
    root().join("include").join("dbcore.h")
}

/// The version of dbcore-ffi, read from its manifest (or the workspace's when inherited).
fn ffi_version(root: &Path) -> Result<String, String> {
    let read = |p: PathBuf| -> Result<toml::Table, String> {
        let text = fs::read_to_string(&p).map_err(|e| format!("{}: {e}", p.display()))?;
        text.parse::<toml::Table>()
            .map_err(|e| format!("{}: {e}", p.display()))
    };
    let ffi = read(root.join("dbcore-ffi").join("Cargo.toml"))?;
    let version = ffi
        .get("package")
        .and_then(|p| p.get("version"))
        .ok_or("dbcore-ffi/Cargo.toml has no package.version")?;
    if let Some(v) = version.as_str() {
        return Ok(v.to_string());
    }
    let ws = read(root.join("Cargo.toml"))?;
    ws.get("workspace")
        .and_then(|w| w.get("package"))
        .and_then(|p| p.get("version"))
        .and_then(|v| v.as_str())
        .map(str::to_string)
        .ok_or_else(|| "no workspace.package.version in Cargo.toml".to_string())
}

/// The `DBCORE_VERSION_*` macros for a version `MAJOR.MINOR.PATCH[-pre][+build]`.
fn version_macros(version: &str) -> Result<String, String> {
    let core = version.split(['-', '+']).next().unwrap_or(version);
    let parts: Vec<u32> = core
        .split('.')
        .map(|p| p.parse::<u32>())
        .collect::<Result<_, _>>()
        .map_err(|e| format!("version {version:?}: {e}"))?;
    let [major, minor, patch] = parts[..] else {
        return Err(format!("version {version:?} is not MAJOR.MINOR.PATCH"));
    };
    Ok(format!(
        "\n/* The version of dbcore this header describes; compare with dbcore_version(). */\n\
         #define DBCORE_VERSION_MAJOR {major}\n\
         #define DBCORE_VERSION_MINOR {minor}\n\
         #define DBCORE_VERSION_PATCH {patch}\n\
         #define DBCORE_VERSION_STRING \"{version}\"\n"
    ))
}

/// Generate the header text in memory.
pub fn generate() -> Result<String, String> {
    let root = root();
    let crate_dir = root.join("dbcore-ffi");
    let mut config = cbindgen::Config::from_file(crate_dir.join("cbindgen.toml"))
        .map_err(|e| format!("dbcore-ffi/cbindgen.toml: {e}"))?;
    config.after_includes = Some(version_macros(&ffi_version(&root)?)?);
    let bindings = cbindgen::Builder::new()
        .with_config(config)
        .with_src(crate_dir.join("src").join("lib.rs"))
        .generate()
        .map_err(|e| format!("cbindgen: {e}"))?;
    let mut out = Vec::new();
    bindings.write(&mut out);
    String::from_utf8(out).map_err(|e| format!("header is not UTF-8: {e}"))
}

fn header(check: bool) -> Result<(), String> {
    let text = generate()?;
    let path = header_path();
    if check {
        let old = fs::read_to_string(&path).unwrap_or_default();
        if old != text {
            return Err(format!(
                "{} is out of date: run `cargo run -p xtask -- header`",
                path.display()
            ));
        }
        println!("{} is up to date", path.display());
    } else {
        fs::create_dir_all(path.parent().expect("include/"))
            .map_err(|e| format!("{}: {e}", path.display()))?;
        fs::write(&path, text).map_err(|e| format!("{}: {e}", path.display()))?;
        println!("wrote {}", path.display());
    }
    Ok(())
}

/// Write the JSON Schema files under `schema/` (or, with `check`, fail if a committed one differs).
fn schema(check: bool) -> Result<(), String> {
    let root = root();
    for (path, text) in dbcore_cli::schema::files() {
        let full = root.join(path);
        if check {
            let old = fs::read_to_string(&full).unwrap_or_default();
            if old != text {
                return Err(format!(
                    "{path} is out of date: run `cargo run -p xtask -- schema`"
                ));
            }
        } else {
            if let Some(dir) = full.parent() {
                fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
            }
            fs::write(&full, text).map_err(|e| format!("{path}: {e}"))?;
            println!("wrote {path}");
        }
    }
    Ok(())
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let result = match args[..] {
        ["header"] => header(false),
        ["header", "--check"] => header(true),
        ["golden"] => golden::write(&root().join("tests").join("golden"), false),
        ["golden", "--check"] => golden::write(&root().join("tests").join("golden"), true),
        ["armies"] => armies::write(&root(), false),
        ["armies", "--check"] => armies::write(&root(), true),
        ["schema"] => schema(false),
        ["schema", "--check"] => schema(true),
        ["perf", ref rest @ ..] => perf::run(rest),
        ["ai-strength", ref rest @ ..] => strength::run(rest),
        ["simulate-bench", ref rest @ ..] => simbench::run(rest),
        _ => Err(
            "usage: cargo run -p xtask -- install --prefix DIR [--debug] | dist [--profile P] [--out DIR] | header [--check] | golden [--check] | armies [--check] | schema [--check] | perf [--callgrind] [--rounds N] | ai-strength [--battles N] [--nodes N] [--max-bounds N] [--lists A B] | simulate-bench [--battles N] [--threads N] [--rounds N]"
                .to_string(),
        ),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("xtask: {e}");
            ExitCode::FAILURE
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn committed_header_matches_the_generator() {
        let text = generate().expect("the header generates");
        let old = fs::read_to_string(header_path()).expect("include/dbcore.h is committed");
        assert!(
            old == text,
            "include/dbcore.h is out of date: run `cargo run -p xtask -- header`"
        );
    }

    #[test]
    fn committed_schema_files_match_the_generator() {
        schema(true).unwrap();
    }

    #[test]
    fn committed_golden_traces_match_the_generator() {
        golden::write(&root().join("tests").join("golden"), true).unwrap();
    }

    #[test]
    fn committed_army_lists_match_the_generator() {
        armies::write(&root(), true).unwrap();
    }

    #[test]
    fn version_macros_follow_the_crate_version() {
        let m = version_macros("1.22.333-rc.1").unwrap();
        assert!(m.contains("#define DBCORE_VERSION_MAJOR 1\n"));
        assert!(m.contains("#define DBCORE_VERSION_MINOR 22\n"));
        assert!(m.contains("#define DBCORE_VERSION_PATCH 333\n"));
        assert!(m.contains("#define DBCORE_VERSION_STRING \"1.22.333-rc.1\"\n"));
        assert!(version_macros("1.2").is_err());
        assert!(version_macros(&ffi_version(&root()).unwrap()).is_ok());
    }
}
