//! `cargo run -p xtask -- web [--dev]`: build the referee as WebAssembly and write the package
//! the web table loads, `web/pkg/`:
//!
//! ```text
//! web/pkg/dbcore_wasm_bg.wasm   the referee (dbcore-wasm), size-optimised (`[profile.wasm]`)
//! web/pkg/dbcore_wasm.js        wasm-bindgen's glue (ES module, `--target web`)
//! web/pkg/dbcore_wasm.d.ts      its TypeScript declarations
//! web/pkg/dbcore.js, .d.ts      the layer a page imports (dbcore-wasm/js/): load, Game, call
//! ```
//!
//! It installs what it needs when missing: the `wasm32-unknown-unknown` target (rustup) and
//! `wasm-bindgen-cli` at exactly the version of the `wasm-bindgen` crate in `Cargo.lock` (cargo
//! install from crates.io). `--dev` builds the dev profile instead: quicker to compile, larger,
//! for tests. The release module then goes through binaryen's `wasm-opt -Oz` when it is
//! installed. The sizes are printed (raw and gzip), with a warning over the budget of 3 MiB.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

const TARGET: &str = "wasm32-unknown-unknown";

/// The most a release package's `.wasm` may weigh (issue #43).
const MAX_WASM_BYTES: u64 = 3 * 1024 * 1024;

fn run_cmd(cmd: &mut Command, what: &str) -> Result<(), String> {
    let status = cmd.status().map_err(|e| format!("{what}: {e}"))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("{what} failed ({status})"))
    }
}

/// The version of a package in `Cargo.lock`, read from its `[[package]]` blocks (`name = ".."`
/// then `version = ".."`), the lock file's own fixed layout.
pub fn locked_version(root: &Path, package: &str) -> Result<String, String> {
    let text =
        fs::read_to_string(root.join("Cargo.lock")).map_err(|e| format!("Cargo.lock: {e}"))?;
    locked_version_in(&text, package).ok_or_else(|| format!("{package} is not in Cargo.lock"))
}

fn locked_version_in(lock: &str, package: &str) -> Option<String> {
    let quoted = |line: &str, key: &str| -> Option<String> {
        let rest = line
            .strip_prefix(key)?
            .trim_start()
            .strip_prefix('=')?
            .trim();
        Some(rest.strip_prefix('"')?.strip_suffix('"')?.to_string())
    };
    let mut lines = lock.lines().map(str::trim);
    while let Some(line) = lines.next() {
        if quoted(line, "name").as_deref() == Some(package) {
            return lines.next().and_then(|l| quoted(l, "version"));
        }
    }
    None
}

fn ensure_target() -> Result<(), String> {
    let out = Command::new("rustup")
        .args(["target", "list", "--installed"])
        .output()
        .map_err(|e| format!("rustup: {e}"))?;
    if String::from_utf8_lossy(&out.stdout)
        .lines()
        .any(|l| l.trim() == TARGET)
    {
        return Ok(());
    }
    eprintln!("xtask web: installing the {TARGET} target");
    run_cmd(
        Command::new("rustup").args(["target", "add", TARGET]),
        "rustup target add",
    )
}

/// The installed wasm-bindgen's version, if there is one.
fn bindgen_version() -> Option<String> {
    let out = Command::new("wasm-bindgen")
        .arg("--version")
        .stderr(Stdio::null())
        .output()
        .ok()?;
    let text = String::from_utf8_lossy(&out.stdout);
    text.split_whitespace().nth(1).map(str::to_string)
}

fn ensure_bindgen(version: &str) -> Result<(), String> {
    if bindgen_version().as_deref() == Some(version) {
        return Ok(());
    }
    eprintln!(
        "xtask web: installing wasm-bindgen-cli {version} (the wasm-bindgen crate's version)"
    );
    let install = |locked: bool| {
        let mut cmd = crate::cargo();
        // The `wasm-bindgen` program alone, without the TLS stack its test runner's downloads
        // need (rustls and ring): a minute less to compile on a fresh machine.
        cmd.args([
            "install",
            "--version",
            &format!("={version}"),
            "wasm-bindgen-cli",
            "--bin",
            "wasm-bindgen",
            "--no-default-features",
        ]);
        if locked {
            cmd.arg("--locked");
        }
        // Installed programs are built in a folder of their own, not the workspace's target.
        cmd.env_remove("CARGO_TARGET_DIR");
        run_cmd(&mut cmd, "cargo install wasm-bindgen-cli")
    };
    // The CLI's own lock file is tried first; a registry that no longer serves one of the
    // versions it pins (a yanked or withdrawn release) gets the newest compatible ones instead.
    install(true).or_else(|e| {
        eprintln!("xtask web: {e}; installing again without --locked");
        install(false)
    })?;
    match bindgen_version() {
        Some(v) if v == version => Ok(()),
        other => Err(format!(
            "wasm-bindgen {version} was installed but `wasm-bindgen --version` says {other:?}: is ~/.cargo/bin on PATH?"
        )),
    }
}

/// Build dbcore-wasm for the browser; the path of the built `.wasm`, from cargo's own report.
fn build(root: &Path, dev: bool) -> Result<PathBuf, String> {
    let mut cmd = crate::cargo();
    cmd.current_dir(root).args([
        "build",
        "-p",
        "dbcore-wasm",
        "--lib",
        "--target",
        TARGET,
        "--message-format=json-render-diagnostics",
    ]);
    if dev {
        // Without debug info, which wasm-bindgen drops anyway (a panic's message reaches the
        // page through the panic hook): less for the browser test's build to write.
        cmd.env("CARGO_PROFILE_DEV_DEBUG", "false");
    } else {
        cmd.args(["--profile", "wasm"]);
    }
    let out = cmd
        .stderr(Stdio::inherit())
        .output()
        .map_err(|e| format!("cargo build: {e}"))?;
    if !out.status.success() {
        return Err("cargo build -p dbcore-wasm failed".to_string());
    }
    let mut wasm = None;
    for line in String::from_utf8_lossy(&out.stdout).lines() {
        let Ok(v) = serde_json::from_str::<serde_json::Value>(line) else {
            continue;
        };
        if v["reason"] != "compiler-artifact" || v["target"]["name"] != "dbcore_wasm" {
            continue;
        }
        for f in v["filenames"].as_array().into_iter().flatten() {
            if let Some(f) = f.as_str().filter(|f| f.ends_with(".wasm")) {
                wasm = Some(PathBuf::from(f));
            }
        }
    }
    wasm.ok_or_else(|| "cargo built no dbcore_wasm.wasm".to_string())
}

/// The gzip size of `path` (`gzip -9`), when gzip is there.
fn gzip_size(path: &Path) -> Option<u64> {
    let data = fs::read(path).ok()?;
    let mut child = Command::new("gzip")
        .args(["-9", "-c"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .ok()?;
    let mut stdin = child.stdin.take()?;
    let writer = std::thread::spawn(move || stdin.write_all(&data));
    let out = child.wait_with_output().ok()?;
    writer.join().ok()?.ok()?;
    Some(out.stdout.len() as u64)
}

pub fn run(args: &[&str]) -> Result<(), String> {
    let dev = match args {
        [] => false,
        ["--dev"] => true,
        _ => return Err("usage: cargo run -p xtask -- web [--dev]".to_string()),
    };
    let root = crate::root();
    ensure_target()?;
    let version = locked_version(&root, "wasm-bindgen")?;
    ensure_bindgen(&version)?;
    let built = build(&root, dev)?;
    let out = root.join("web").join("pkg");
    fs::create_dir_all(&out).map_err(|e| format!("{}: {e}", out.display()))?;
    // binaryen's optimiser, when it is installed (Debian's `binaryen`), goes over rustc's module
    // before wasm-bindgen adds its externref table: binaryen 108 (Debian 12's) numbers a
    // module's two tables wrongly, and the page then fails to start.
    let wasm = if dev {
        built.clone()
    } else {
        optimise(&built, &out.join("dbcore_wasm.opt.wasm"))?
    };
    let optimised = wasm != built;
    let mut cmd = Command::new("wasm-bindgen");
    cmd.arg(&wasm)
        .args(["--target", "web", "--out-name", "dbcore_wasm", "--out-dir"])
        .arg(&out);
    if dev {
        cmd.arg("--debug");
    } else {
        // Function names are for debuggers (a panic's message reaches the page through the
        // panic hook, not a stack trace): a fifth of the module.
        cmd.args(["--remove-name-section", "--remove-producers-section"]);
    }
    run_cmd(&mut cmd, "wasm-bindgen")?;
    for name in ["dbcore.js", "dbcore.d.ts"] {
        let from = root.join("dbcore-wasm").join("js").join(name);
        fs::copy(&from, out.join(name)).map_err(|e| format!("{}: {e}", from.display()))?;
    }
    if optimised {
        let _ = fs::remove_file(&wasm);
    }
    let bg = out.join("dbcore_wasm_bg.wasm");
    let raw = fs::metadata(&bg)
        .map_err(|e| format!("{}: {e}", bg.display()))?
        .len();
    let gz = gzip_size(&bg);
    println!(
        "wrote {} ({} profile): dbcore_wasm_bg.wasm {raw} bytes ({:.3} MiB), gzip {}",
        out.display(),
        if dev { "dev" } else { "wasm" },
        raw as f64 / 1_048_576.0,
        gz.map_or("unknown (no gzip)".to_string(), |g| format!(
            "{g} bytes ({:.3} MiB)",
            g as f64 / 1_048_576.0
        )),
    );
    // The budget is a number to reach and report (#43), not a reason to withhold a working
    // package: over it, the build says so loudly and still succeeds.
    if !dev && raw > MAX_WASM_BYTES {
        eprintln!(
            "xtask web: WARNING: the wasm module is {raw} bytes, over its budget of {MAX_WASM_BYTES}{}",
            if optimised {
                ""
            } else {
                " (install binaryen for wasm-opt, about a tenth smaller)"
            }
        );
    }
    Ok(())
}

/// `wasm-opt -Oz` of `wasm` written to `to` when binaryen is installed (`to`), else `wasm` as
/// it is. About a tenth smaller.
fn optimise(wasm: &Path, to: &Path) -> Result<PathBuf, String> {
    let found = Command::new("wasm-opt")
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if !found {
        eprintln!(
            "xtask web: wasm-opt (binaryen) is not installed: the module is left as rustc wrote it"
        );
        return Ok(wasm.to_path_buf());
    }
    eprintln!("xtask web: wasm-opt -Oz (a minute or two)");
    run_cmd(
        Command::new("wasm-opt")
            .arg("-Oz")
            .arg(wasm)
            .arg("-o")
            .arg(to),
        "wasm-opt -Oz",
    )?;
    Ok(to.to_path_buf())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_locked_version_is_read_from_its_package_block() {
        let lock = "version = 4\n\n[[package]]\nname = \"wasm-bindgen-macro\"\nversion = \"0.2.1\"\n\n[[package]]\nname = \"wasm-bindgen\"\nversion = \"0.2.130\"\nsource = \"registry\"\n";
        assert_eq!(
            locked_version_in(lock, "wasm-bindgen").as_deref(),
            Some("0.2.130")
        );
        assert_eq!(
            locked_version_in(lock, "wasm-bindgen-macro").as_deref(),
            Some("0.2.1")
        );
        assert_eq!(locked_version_in(lock, "js-sys"), None);
    }
}
