//! `cargo run --release -p xtask -- dist [--profile P] [--out DIR]`: the release packages of this
//! machine's platform, in `dist/` unless `--out` says otherwise:
//!
//! ```text
//! dbcore-V-cp310-abi3-PLATFORM.whl          the Python wheel (maturin; any CPython >= 3.10)
//! dbcore-V.tar.gz                           its sdist (builds the wheel from source: needs Rust)
//! libdbcore-V-TARGET.tar.gz                 the C library laid out as an install prefix:
//!     libdbcore-V-TARGET/include/dbcore.h, lib/libdbcore.a, lib/libdbcore.so.V (+ links),
//!     lib/pkgconfig/dbcore.pc, dbcore-static.pc, lib/cmake/dbcore/*.cmake, README.md
//! dbcore-V-TARGET.tar.gz                    the program: dbcore-V-TARGET/bin/dbcore, README.md
//! SHA256SUMS                                `sha256sum -c SHA256SUMS` checks them
//! ```
//!
//! V is the workspace version, TARGET the Rust target triple of this machine. The profile is
//! `release` unless `--profile` names another: the test run (`tests/dist/run.sh`) builds the
//! same packages in the `dev` profile, whose compile it shares with the other tests, and
//! installs them as a user would. The C archive's pkg-config files find their prefix from
//! their own place (`${pcfiledir}`) and the CMake package from its own, so it may be unpacked
//! anywhere. The wheel and sdist are maturin's (`maturin` from the PATH, or `$MATURIN`).

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::install::{self, Layout, Os, PcPrefix};

/// The file of checksums `dist` and `sums` write.
pub const SUMS: &str = "SHA256SUMS";

/// Write `dir/SHA256SUMS` for every other file in `dir` (not folders, not hidden files), in
/// name order, as `sha256sum` writes them; returns the files summed.
pub fn write_sums(dir: &Path) -> Result<Vec<String>, String> {
    let mut names = Vec::new();
    for entry in fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))? {
        let entry = entry.map_err(|e| format!("{}: {e}", dir.display()))?;
        let name = entry.file_name().to_string_lossy().into_owned();
        let is_file = entry.file_type().map(|t| t.is_file()).unwrap_or(false);
        if is_file && name != SUMS && !name.starts_with('.') {
            names.push(name);
        }
    }
    names.sort();
    let mut text = String::new();
    for name in &names {
        let path = dir.join(name);
        let file = fs::File::open(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        let hex = crate::sha256::hex_digest(std::io::BufReader::new(file))
            .map_err(|e| format!("{}: {e}", path.display()))?;
        text += &format!("{hex}  {name}\n");
    }
    let out = dir.join(SUMS);
    fs::write(&out, text).map_err(|e| format!("{}: {e}", out.display()))?;
    Ok(names)
}

/// Make `out` an empty folder to write the packages to. An existing folder is emptied only if
/// it is empty already or holds a `SHA256SUMS` (an earlier `dist`): anything else is refused
/// rather than deleted.
fn prepare(out: &Path) -> Result<(), String> {
    if out.exists() {
        let entries: Vec<_> = fs::read_dir(out)
            .map_err(|e| format!("{}: {e}", out.display()))?
            .filter_map(Result::ok)
            .collect();
        if !entries.is_empty() && !out.join(SUMS).is_file() {
            return Err(format!(
                "{} is not empty and has no {SUMS}: not a folder `dist` wrote; remove it or \
                 choose another --out",
                out.display()
            ));
        }
        for e in entries {
            let p = e.path();
            let r = if p.is_dir() {
                fs::remove_dir_all(&p)
            } else {
                fs::remove_file(&p)
            };
            r.map_err(|err| format!("{}: {err}", p.display()))?;
        }
    }
    fs::create_dir_all(out).map_err(|e| format!("{}: {e}", out.display()))
}

/// The Rust target triple of this machine, as rustc reports it.
fn host_triple() -> Result<String, String> {
    let rustc = std::env::var_os("RUSTC").unwrap_or_else(|| "rustc".into());
    let out = Command::new(rustc)
        .arg("-vV")
        .output()
        .map_err(|e| format!("rustc -vV: {e}"))?;
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .find_map(|l| l.strip_prefix("host: "))
        .map(str::to_string)
        .ok_or_else(|| "rustc -vV named no host".to_string())
}

/// Run `cmd`, failing with its name if it fails.
pub(crate) fn run_cmd(cmd: &mut Command, what: &str) -> Result<(), String> {
    let status = cmd.status().map_err(|e| format!("{what}: {e}"))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("{what} failed ({status})"))
    }
}

/// `tar -czf NAME.tar.gz` of `staging/NAME`, written to `out`. Run from `out` with relative
/// names, which every tar (GNU, BSD, Windows' own) reads the same way.
fn tarball(out: &Path, staging: &str, name: &str) -> Result<String, String> {
    let file = format!("{name}.tar.gz");
    run_cmd(
        Command::new("tar")
            .current_dir(out)
            .args(["-czf", &file, "-C", staging, name]),
        &format!("tar -czf {file}"),
    )?;
    Ok(file)
}

/// The maturin to build the wheel with.
fn maturin() -> Command {
    Command::new(std::env::var_os("MATURIN").unwrap_or_else(|| "maturin".into()))
}

/// The arguments of `maturin build` for a profile (the release workflow's maturin action passes
/// the same for `release`: `.github/workflows/release.yml`).
pub fn maturin_build_args(profile: &str, out: &str) -> Vec<String> {
    let mut a = vec!["build".to_string()];
    if profile == "release" {
        a.push("--release".into());
    } else {
        a.extend(["--profile".into(), profile.into()]);
    }
    a.extend(["--out", out, "--manifest-path", "dbcore-py/Cargo.toml"].map(String::from));
    a
}

/// The `dist` chore.
pub fn run(args: &[&str]) -> Result<(), String> {
    let root = crate::root();
    let mut profile = "release".to_string();
    let mut out = root.join("dist");
    let mut it = args.iter();
    while let Some(&a) = it.next() {
        match a {
            "--profile" => {
                profile = it
                    .next()
                    .ok_or("--profile takes a cargo profile")?
                    .to_string()
            }
            "--out" => out = PathBuf::from(it.next().ok_or("--out takes a directory")?),
            _ => {
                return Err(format!(
                    "dist: unknown argument {a:?} (usage: dist [--profile P] [--out DIR])"
                ))
            }
        }
    }
    prepare(&out)?;
    let out = fs::canonicalize(&out).map_err(|e| format!("{}: {e}", out.display()))?;
    let os = Os::host()?;
    let target = host_triple()?;
    let version = crate::version::VERSION;
    let staging = ".staging";
    let stage = out.join(staging);
    fs::create_dir_all(&stage).map_err(|e| format!("{}: {e}", stage.display()))?;

    // The C library and the program, one cargo build.
    println!("== dist: the C library and the dbcore program ({profile} profile)");
    let (files, exe) = install::build(&root, &profile, true)?;
    let built = install::built_from(&files, os)?;
    let exe = exe.ok_or("cargo built no dbcore program")?;

    let c_name = format!("libdbcore-{version}-{target}");
    let c_dir = stage.join(&c_name);
    let system = install::native_static_libs(&stage.join("rustc"))?;
    let layout = Layout {
        os,
        built: &built,
        header: &crate::header_path(),
        version,
        system: &system,
        pc_prefix: PcPrefix::Relocatable,
    };
    install::lay_out(&c_dir, &layout)?;
    copy(
        &root.join("dbcore-ffi").join("README.md"),
        &c_dir.join("README.md"),
    )?;

    let p_name = format!("dbcore-{version}-{target}");
    let p_bin = stage.join(&p_name).join("bin");
    fs::create_dir_all(&p_bin).map_err(|e| format!("{}: {e}", p_bin.display()))?;
    let exe_name = if os == Os::Windows {
        "dbcore.exe"
    } else {
        "dbcore"
    };
    copy(&exe, &p_bin.join(exe_name))?;
    copy(
        &root.join("dbcore-cli").join("README.md"),
        &stage.join(&p_name).join("README.md"),
    )?;

    tarball(&out, staging, &c_name)?;
    tarball(&out, staging, &p_name)?;
    fs::remove_dir_all(&stage).map_err(|e| format!("{}: {e}", stage.display()))?;

    // The wheel and the sdist.
    let out_text = out
        .to_str()
        .ok_or_else(|| format!("{}: not UTF-8", out.display()))?;
    println!("== dist: the Python wheel ({profile} profile) and sdist (maturin)");
    run_cmd(
        maturin()
            .current_dir(&root)
            .args(maturin_build_args(&profile, out_text)),
        "maturin build",
    )?;
    run_cmd(
        maturin().current_dir(&root).args([
            "sdist",
            "--out",
            out_text,
            "--manifest-path",
            "dbcore-py/Cargo.toml",
        ]),
        "maturin sdist",
    )?;

    let names = write_sums(&out)?;
    println!("== dist: {} ({profile} profile)", out.display());
    for n in names {
        println!("{n}");
    }
    println!("{SUMS}");
    Ok(())
}

/// Copy one file, naming both ends on failure.
fn copy(from: &Path, to: &Path) -> Result<(), String> {
    fs::copy(from, to)
        .map(|_| ())
        .map_err(|e| format!("{} -> {}: {e}", from.display(), to.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sums_are_written_as_sha256sum_writes_them() {
        let dir = std::env::temp_dir().join(format!("dbcore-sums-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(dir.join("sub")).unwrap();
        fs::write(dir.join("b.txt"), "abc").unwrap();
        fs::write(dir.join("a.txt"), "").unwrap();
        fs::write(dir.join(".hidden"), "x").unwrap();
        fs::write(dir.join(SUMS), "stale").unwrap();
        assert_eq!(write_sums(&dir).unwrap(), ["a.txt", "b.txt"]);
        assert_eq!(
            fs::read_to_string(dir.join(SUMS)).unwrap(),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855  a.txt\n\
             ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad  b.txt\n"
        );
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn only_an_empty_folder_or_an_earlier_dist_is_emptied() {
        let dir = std::env::temp_dir().join(format!("dbcore-prepare-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        fs::write(dir.join("precious.txt"), "keep").unwrap();
        assert!(prepare(&dir).is_err());
        assert!(dir.join("precious.txt").is_file());
        fs::write(dir.join(SUMS), "").unwrap();
        fs::create_dir_all(dir.join(".staging").join("x")).unwrap();
        prepare(&dir).unwrap();
        assert_eq!(fs::read_dir(&dir).unwrap().count(), 0);
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn the_release_wheel_is_built_as_the_workflow_builds_it() {
        let release = maturin_build_args("release", "dist");
        assert_eq!(
            release.join(" "),
            "build --release --out dist --manifest-path dbcore-py/Cargo.toml"
        );
        assert_eq!(
            maturin_build_args("dev", "d").join(" "),
            "build --profile dev --out d --manifest-path dbcore-py/Cargo.toml"
        );
        let workflow = fs::read_to_string(
            crate::root()
                .join(".github")
                .join("workflows")
                .join("release.yml"),
        )
        .unwrap();
        let args = format!("args: {}", release[1..].join(" "));
        assert!(
            workflow.contains(&args),
            "release.yml's maturin action should build the wheel as `dist` does ({args})"
        );
    }
}
