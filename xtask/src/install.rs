//! `cargo run --release -p xtask -- install --prefix DIR [--debug]`: build the C library and lay
//! it out under `DIR` as a C user expects it. On Linux:
//!
//! ```text
//! DIR/include/dbcore.h
//! DIR/lib/libdbcore.a
//! DIR/lib/libdbcore.so.X.Y.Z            the shared library, SONAME libdbcore.so.0.Y (1.0 on: .so.X)
//! DIR/lib/libdbcore.so.0.Y -> libdbcore.so.X.Y.Z
//! DIR/lib/libdbcore.so -> libdbcore.so.0.Y
//! DIR/lib/pkgconfig/dbcore.pc           pkg-config: the shared library, with an RPATH to DIR/lib
//! DIR/lib/pkgconfig/dbcore-static.pc    pkg-config: the static library and the system libraries
//! DIR/lib/cmake/dbcore/dbcoreConfig.cmake         find_package(dbcore): dbcore::dbcore and
//! DIR/lib/cmake/dbcore/dbcoreConfigVersion.cmake  dbcore::dbcore_static
//! ```
//!
//! On macOS the shared library is `libdbcore.0.Y.dylib` (install name
//! `@rpath/libdbcore.0.Y.dylib`, set by `dbcore-ffi/build.rs`) with the link `libdbcore.dylib`;
//! on Windows (MSVC) it is `bin/dbcore_ffi.dll` with the import library `lib/dbcore.lib`, and the
//! static library is `lib/dbcore_static.lib` (the DLL keeps cargo's name, which its import
//! library records). Those two layouts are built by the release workflow only, not by the tests
//! (which run on Linux).
//!
//! The build is a release build; `--debug` lays out the dev-profile build instead, which the C
//! tests use for their sanitizer runs (built with the features of xtask-chores's build, so that
//! it is the library that build made, not a second compile). Cargo names the built files after
//! the crate (`libdbcore_ffi.*`); the shared one already carries the installed SONAME. Files are
//! overwritten, so installing again over an older install updates it. The pkg-config files name
//! the prefix; the archive `dist` writes uses the same layout with pkg-config files that find
//! the prefix from their own place (`${pcfiledir}`), so it may be unpacked anywhere.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Stdio;

/// The numbers of a version `MAJOR.MINOR.PATCH[-pre][+build]`.
pub fn numbers(version: &str) -> Result<[u32; 3], String> {
    let core = version.split(['-', '+']).next().unwrap_or(version);
    let parts: Vec<u32> = core
        .split('.')
        .map(str::parse)
        .collect::<Result<_, _>>()
        .map_err(|e| format!("version {version:?}: {e}"))?;
    parts
        .try_into()
        .map_err(|_| format!("version {version:?} is not MAJOR.MINOR.PATCH"))
}

/// The part of the version that names a compatible library: `0.MINOR` while the major version
/// is 0 (Cargo's rule: 0.1 and 0.2 are as different as 1 and 2), `MAJOR` from 1.0 on.
fn compat([major, minor, _]: [u32; 3]) -> String {
    if major == 0 {
        format!("0.{minor}")
    } else {
        major.to_string()
    }
}

/// The operating systems whose library files the layout knows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Os {
    Linux,
    Mac,
    Windows,
}

impl Os {
    /// The system this program was built for (the libraries are built for the same).
    pub fn host() -> Result<Os, String> {
        if cfg!(target_os = "linux") {
            Ok(Os::Linux)
        } else if cfg!(target_os = "macos") {
            Ok(Os::Mac)
        } else if cfg!(all(target_os = "windows", target_env = "msvc")) {
            Ok(Os::Windows)
        } else {
            Err("xtask install knows the library files of Linux, macOS and Windows (MSVC)".into())
        }
    }
}

/// What cargo built for dbcore-ffi.
#[derive(Debug)]
pub struct Built {
    pub staticlib: PathBuf,
    pub shared: PathBuf,
    /// The import library of the DLL (Windows).
    pub implib: Option<PathBuf>,
}

/// Sort the files of one cargo `compiler-artifact` of dbcore_ffi into a [`Built`].
pub fn built_from(files: &[PathBuf], os: Os) -> Result<Built, String> {
    let name = |f: &PathBuf| {
        f.file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default()
    };
    let find = |test: &dyn Fn(&str) -> bool| files.iter().find(|f| test(&name(f))).cloned();
    let (staticlib, shared, implib) = match os {
        Os::Linux => (
            find(&|n| n.ends_with(".a")),
            find(&|n| n.ends_with(".so")),
            None,
        ),
        Os::Mac => (
            find(&|n| n.ends_with(".a")),
            find(&|n| n.ends_with(".dylib")),
            None,
        ),
        Os::Windows => (
            find(&|n| n.ends_with(".lib") && !n.ends_with(".dll.lib")),
            find(&|n| n.ends_with(".dll")),
            Some(find(&|n| n.ends_with(".dll.lib")).ok_or("cargo built no dbcore_ffi.dll.lib")?),
        ),
    };
    match (staticlib, shared) {
        (Some(staticlib), Some(shared)) => Ok(Built {
            staticlib,
            shared,
            implib,
        }),
        _ => Err(format!(
            "cargo built no static and shared dbcore_ffi library among {files:?}"
        )),
    }
}

/// The cargo profile of a build, as `--profile` names it.
pub fn profile_args(profile: &str) -> Vec<String> {
    vec!["--profile".to_string(), profile.to_string()]
}

/// Build dbcore-ffi's libraries (and, with `program`, the `dbcore` program) in `profile` and
/// return cargo's report: the library files and the program's path.
///
/// In the dev profile the features are resolved as for xtask-chores, which links dbcore-ffi and
/// dbcore-cli: the C tests' `install --debug` builds them so, and the later steps of the test
/// run (`dist --profile dev`) reuse those libraries instead of compiling dbcore
/// again for a smaller feature set. The code is the same; the extra feature (dbcore's `schema`)
/// only adds JSON Schema derivations.
/// Any other profile builds the packages with their own features, as a user's build would.
pub fn build(
    root: &Path,
    profile: &str,
    program: bool,
) -> Result<(Vec<PathBuf>, Option<PathBuf>), String> {
    let mut cmd = crate::cargo();
    cmd.current_dir(root)
        .args(["build", "-p", "dbcore-ffi", "--lib"])
        .args(profile_args(profile))
        .arg("--message-format=json-render-diagnostics");
    if program {
        cmd.args(["-p", "dbcore-cli", "--bin", "dbcore"]);
    }
    if profile == "dev" {
        cmd.args(["-p", "xtask-chores"]);
    }
    let out = cmd
        .stderr(Stdio::inherit())
        .output()
        .map_err(|e| format!("cargo build: {e}"))?;
    if !out.status.success() {
        return Err("cargo build -p dbcore-ffi failed".to_string());
    }
    let (mut lib, mut exe) = (Vec::new(), None);
    for line in String::from_utf8_lossy(&out.stdout).lines() {
        let Ok(msg) = serde_json::from_str::<serde_json::Value>(line) else {
            continue;
        };
        if msg["reason"] != "compiler-artifact" {
            continue;
        }
        if msg["target"]["name"] == "dbcore_ffi" {
            lib = msg["filenames"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|f| f.as_str().map(PathBuf::from))
                .collect();
        } else if msg["target"]["name"] == "dbcore" && msg["executable"].is_string() {
            exe = msg["executable"].as_str().map(PathBuf::from);
        }
    }
    if program && exe.is_none() {
        return Err("cargo built no dbcore program".to_string());
    }
    Ok((lib, exe))
}

/// The system libraries a Rust static library needs on this machine, as rustc reports them for
/// an empty one (`--print native-static-libs`): what `dbcore-static.pc` and the static CMake
/// target add. dbcore links nothing of the system beyond the standard library's.
pub fn native_static_libs(scratch: &Path) -> Result<Vec<String>, String> {
    fs::create_dir_all(scratch).map_err(|e| format!("{}: {e}", scratch.display()))?;
    let src = scratch.join("empty.rs");
    fs::write(&src, "").map_err(|e| format!("{}: {e}", src.display()))?;
    let rustc = std::env::var_os("RUSTC").unwrap_or_else(|| "rustc".into());
    let out = std::process::Command::new(rustc)
        .args(["--crate-type", "staticlib", "--crate-name", "empty"])
        .args(["--print", "native-static-libs", "-o"])
        .arg(scratch.join("empty.lib"))
        .arg(&src)
        .output()
        .map_err(|e| format!("rustc: {e}"))?;
    let text = String::from_utf8_lossy(&out.stderr);
    let libs = text
        .lines()
        .find_map(|l| l.split("native-static-libs:").nth(1))
        .ok_or_else(|| format!("rustc printed no native-static-libs: {text}"))?;
    Ok(libs.split_whitespace().map(str::to_string).collect())
}

/// How the pkg-config files name the prefix.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PcPrefix {
    /// The absolute path of the install.
    Absolute,
    /// Found from the file's own place, `${pcfiledir}/../..`: the archive, unpacked anywhere.
    Relocatable,
}

/// One installed file: what it is made from.
enum Item<'a> {
    /// A copy of a built file.
    Copy(&'a Path),
    /// A symbolic link to this name beside it.
    Link(String),
    /// This text.
    Write(String),
}

/// Put `item` at `to`, replacing what is there. Whatever was there is removed first: copying
/// over a library a running program maps would change it under it.
fn put(to: &Path, item: &Item) -> Result<(), String> {
    if to.symlink_metadata().is_ok() {
        fs::remove_file(to).map_err(|e| format!("{}: {e}", to.display()))?;
    }
    match item {
        Item::Copy(from) => fs::copy(from, to)
            .map(|_| ())
            .map_err(|e| format!("{} -> {}: {e}", from.display(), to.display())),
        Item::Link(target) => link(target, to),
        Item::Write(text) => fs::write(to, text).map_err(|e| format!("{}: {e}", to.display())),
    }
}

#[cfg(unix)]
fn link(target: &str, to: &Path) -> Result<(), String> {
    std::os::unix::fs::symlink(target, to).map_err(|e| format!("{}: {e}", to.display()))
}

#[cfg(not(unix))]
fn link(_target: &str, to: &Path) -> Result<(), String> {
    Err(format!(
        "{}: no symbolic links on this system",
        to.display()
    ))
}

/// The file names of one version's libraries on `os`.
struct Names {
    /// The shared library's file, under `shared_dir`.
    shared: String,
    shared_dir: &'static str,
    /// Links beside it: (name, target).
    links: Vec<(String, String)>,
    /// What the shared library records as its name (SONAME, install name); none on Windows.
    soname: Option<String>,
    staticlib: String,
    implib: Option<String>,
    /// How a pkg-config user links the shared library.
    pc_shared_libs: &'static str,
}

fn names(os: Os, n: [u32; 3]) -> Names {
    let c = compat(n);
    let full = format!("{}.{}.{}", n[0], n[1], n[2]);
    match os {
        Os::Linux => Names {
            shared: format!("libdbcore.so.{full}"),
            shared_dir: "lib",
            links: vec![
                (format!("libdbcore.so.{c}"), format!("libdbcore.so.{full}")),
                ("libdbcore.so".into(), format!("libdbcore.so.{c}")),
            ],
            soname: Some(format!("libdbcore.so.{c}")),
            staticlib: "libdbcore.a".into(),
            implib: None,
            pc_shared_libs: "-L${libdir} -Wl,-rpath,${libdir} -ldbcore",
        },
        Os::Mac => Names {
            shared: format!("libdbcore.{c}.dylib"),
            shared_dir: "lib",
            links: vec![("libdbcore.dylib".into(), format!("libdbcore.{c}.dylib"))],
            soname: Some(format!("@rpath/libdbcore.{c}.dylib")),
            staticlib: "libdbcore.a".into(),
            implib: None,
            pc_shared_libs: "-L${libdir} -Wl,-rpath,${libdir} -ldbcore",
        },
        Os::Windows => Names {
            shared: "dbcore_ffi.dll".into(),
            shared_dir: "bin",
            links: Vec::new(),
            soname: None,
            staticlib: "dbcore_static.lib".into(),
            implib: Some("dbcore.lib".into()),
            pc_shared_libs: "-L${libdir} -ldbcore",
        },
    }
}

/// The `prefix=` line's value.
fn pc_prefix(prefix: &Path, how: PcPrefix) -> Result<String, String> {
    match how {
        PcPrefix::Relocatable => Ok("${pcfiledir}/../..".to_string()),
        PcPrefix::Absolute => {
            let text = prefix
                .to_str()
                .ok_or_else(|| format!("{}: the prefix is not UTF-8", prefix.display()))?;
            if text.contains(char::is_whitespace) {
                return Err(format!(
                    "{text:?}: pkg-config cannot name a prefix with spaces"
                ));
            }
            Ok(text.replace('\\', "/"))
        }
    }
}

/// `dbcore.pc`: the shared library, with an RPATH (on Linux and macOS) so a program built with
/// it runs without `LD_LIBRARY_PATH` wherever the prefix is.
fn pc_shared(prefix: &str, version: &str, libs: &str) -> String {
    format!(
        "# pkg-config file of dbcore's C library (the shared one), written by\n\
         # `cargo run -p xtask -- install` (or `dist`). On Linux and macOS the -rpath lets\n\
         # programs find the library at run time without LD_LIBRARY_PATH; for the static\n\
         # library use dbcore-static.\n\
         prefix={prefix}\n\
         includedir=${{prefix}}/include\n\
         libdir=${{prefix}}/lib\n\
         \n\
         Name: dbcore\n\
         Description: C ABI of dbcore, a referee for the wargame DBA 3.0\n\
         Version: {version}\n\
         Cflags: -I${{includedir}}\n\
         Libs: {libs}\n"
    )
}

/// `dbcore-static.pc`: the static library by its path (so the shared one beside it is not
/// chosen) and the system libraries a Rust static library needs.
fn pc_static(prefix: &str, version: &str, staticlib: &str, system: &[String]) -> String {
    format!(
        "# pkg-config file of dbcore's C library (the static one), written by\n\
         # `cargo run -p xtask -- install` (or `dist`).\n\
         prefix={prefix}\n\
         includedir=${{prefix}}/include\n\
         libdir=${{prefix}}/lib\n\
         \n\
         Name: dbcore-static\n\
         Description: C ABI of dbcore, a referee for the wargame DBA 3.0 (static library)\n\
         Version: {version}\n\
         Cflags: -I${{includedir}}\n\
         Libs: ${{libdir}}/{staticlib} {}\n",
        system.join(" ")
    )
}

/// The system libraries as CMake's `INTERFACE_LINK_LIBRARIES` takes them: `-lm` becomes `m`,
/// `-framework X` stays one item, MSVC's `/defaultlib:` (the C runtime, which CMake chooses
/// itself) is left out.
fn cmake_libs(system: &[String]) -> String {
    let mut out: Vec<String> = Vec::new();
    let mut it = system.iter();
    while let Some(l) = it.next() {
        if l == "-framework" {
            if let Some(f) = it.next() {
                out.push(format!("-framework {f}"));
            }
        } else if let Some(name) = l.strip_prefix("-l") {
            out.push(name.to_string());
        } else if !l.starts_with('/') && !out.contains(l) {
            out.push(l.clone());
        }
    }
    out.join(";")
}

/// `dbcoreConfig.cmake`: the imported targets, found relative to the file itself so that the
/// prefix may be moved.
fn cmake_config(names: &Names, system: &[String]) -> String {
    let mut shared_props = format!(
        "IMPORTED_LOCATION \"${{_dbcore_prefix}}/{}/{}\"",
        names.shared_dir, names.shared
    );
    if let Some(so) = &names.soname {
        shared_props += &format!("\n    IMPORTED_SONAME \"{so}\"");
    }
    if let Some(imp) = &names.implib {
        shared_props += &format!("\n    IMPORTED_IMPLIB \"${{_dbcore_prefix}}/lib/{imp}\"");
    }
    format!(
        r#"# CMake package of dbcore's C library, written by `cargo run -p xtask -- install` (or `dist`).
#
#   find_package(dbcore 0.1 REQUIRED)
#   target_link_libraries(app PRIVATE dbcore::dbcore)         # the shared library
#   target_link_libraries(app PRIVATE dbcore::dbcore_static)  # the static one and its system libraries
#
# Both targets carry the include directory of dbcore.h. CMake gives programs linked with the
# shared library an RPATH to it in the build tree; set CMAKE_INSTALL_RPATH_USE_LINK_PATH to keep
# it when installing them.

# This file is PREFIX/lib/cmake/dbcore/dbcoreConfig.cmake.
get_filename_component(_dbcore_prefix "${{CMAKE_CURRENT_LIST_DIR}}/../../.." ABSOLUTE)

if(NOT TARGET dbcore::dbcore)
  add_library(dbcore::dbcore SHARED IMPORTED)
  set_target_properties(dbcore::dbcore PROPERTIES
    {shared_props}
    INTERFACE_INCLUDE_DIRECTORIES "${{_dbcore_prefix}}/include")
endif()

if(NOT TARGET dbcore::dbcore_static)
  add_library(dbcore::dbcore_static STATIC IMPORTED)
  set_target_properties(dbcore::dbcore_static PROPERTIES
    IMPORTED_LOCATION "${{_dbcore_prefix}}/lib/{staticlib}"
    INTERFACE_INCLUDE_DIRECTORIES "${{_dbcore_prefix}}/include"
    INTERFACE_LINK_LIBRARIES "{libs}")
endif()

set(dbcore_INCLUDE_DIRS "${{_dbcore_prefix}}/include")
set(dbcore_LIBRARIES dbcore::dbcore)
unset(_dbcore_prefix)
"#,
        staticlib = names.staticlib,
        libs = cmake_libs(system),
    )
}

/// `dbcoreConfigVersion.cmake`: a request is met by the same major version no newer than this
/// one, and while the major version is 0 by the same minor one too (the SONAME's rule).
fn cmake_version(version: &str, [major, minor, _]: [u32; 3], pointer_bytes: usize) -> String {
    format!(
        r#"# Version check of dbcore's CMake package, written by `cargo run -p xtask -- install` (or `dist`).
set(PACKAGE_VERSION "{version}")
set(PACKAGE_VERSION_COMPATIBLE FALSE)
if("${{PACKAGE_FIND_VERSION}}" STREQUAL "")
  set(PACKAGE_VERSION_COMPATIBLE TRUE)
elseif(PACKAGE_FIND_VERSION VERSION_LESS_EQUAL PACKAGE_VERSION
       AND PACKAGE_FIND_VERSION_MAJOR EQUAL {major}
       AND ({major} GREATER 0 OR PACKAGE_FIND_VERSION_MINOR EQUAL {minor}))
  set(PACKAGE_VERSION_COMPATIBLE TRUE)
endif()
if("${{PACKAGE_FIND_VERSION}}" STREQUAL PACKAGE_VERSION)
  set(PACKAGE_VERSION_EXACT TRUE)
endif()
# The library was built for {pointer_bytes}-byte pointers.
if(NOT "${{CMAKE_SIZEOF_VOID_P}}" STREQUAL "" AND NOT CMAKE_SIZEOF_VOID_P EQUAL {pointer_bytes})
  set(PACKAGE_VERSION "${{PACKAGE_VERSION}} ({bits}-bit)")
  set(PACKAGE_VERSION_UNSUITABLE TRUE)
endif()
"#,
        bits = pointer_bytes * 8
    )
}

/// What a layout is made of besides the prefix.
pub struct Layout<'a> {
    pub os: Os,
    pub built: &'a Built,
    pub header: &'a Path,
    pub version: &'a str,
    /// The system libraries of the static library ([`native_static_libs`]).
    pub system: &'a [String],
    pub pc_prefix: PcPrefix,
}

/// Lay the library out under `prefix` from the built files; returns the files written.
pub fn lay_out(prefix: &Path, l: &Layout) -> Result<Vec<PathBuf>, String> {
    let n = numbers(l.version)?;
    let names = names(l.os, n);
    let include = prefix.join("include");
    let lib = prefix.join("lib");
    let shared_dir = prefix.join(names.shared_dir);
    let pkgconfig = lib.join("pkgconfig");
    let cmake = lib.join("cmake").join("dbcore");
    for d in [&include, &lib, &shared_dir, &pkgconfig, &cmake] {
        fs::create_dir_all(d).map_err(|e| format!("{}: {e}", d.display()))?;
    }
    let pc = pc_prefix(prefix, l.pc_prefix)?;
    let mut items = vec![
        (include.join("dbcore.h"), Item::Copy(l.header)),
        (lib.join(&names.staticlib), Item::Copy(&l.built.staticlib)),
        (shared_dir.join(&names.shared), Item::Copy(&l.built.shared)),
    ];
    if let (Some(name), Some(from)) = (&names.implib, &l.built.implib) {
        items.push((lib.join(name), Item::Copy(from)));
    }
    for (name, target) in &names.links {
        items.push((shared_dir.join(name), Item::Link(target.clone())));
    }
    items.extend([
        (
            pkgconfig.join("dbcore.pc"),
            Item::Write(pc_shared(&pc, l.version, names.pc_shared_libs)),
        ),
        (
            pkgconfig.join("dbcore-static.pc"),
            Item::Write(pc_static(&pc, l.version, &names.staticlib, l.system)),
        ),
        (
            cmake.join("dbcoreConfig.cmake"),
            Item::Write(cmake_config(&names, l.system)),
        ),
        (
            cmake.join("dbcoreConfigVersion.cmake"),
            Item::Write(cmake_version(l.version, n, std::mem::size_of::<usize>())),
        ),
    ]);
    let mut written = Vec::new();
    for (path, item) in &items {
        put(path, item)?;
        written.push(path.clone());
    }
    Ok(written)
}

/// The `install` chore.
pub fn run(args: &[&str]) -> Result<(), String> {
    let mut prefix = None;
    let mut profile = "release";
    let mut it = args.iter();
    while let Some(&a) = it.next() {
        match a {
            "--prefix" => prefix = Some(*it.next().ok_or("--prefix takes a directory")?),
            "--debug" => profile = "dev",
            _ => return Err(format!("install: unknown argument {a:?}")),
        }
    }
    let prefix =
        prefix.ok_or("usage: cargo run --release -p xtask -- install --prefix DIR [--debug]")?;
    fs::create_dir_all(prefix).map_err(|e| format!("{prefix}: {e}"))?;
    let prefix = fs::canonicalize(prefix).map_err(|e| format!("{prefix}: {e}"))?;
    let root = crate::root();
    let os = Os::host()?;
    let (files, _) = build(&root, profile, false)?;
    let built = built_from(&files, os)?;
    let scratch = std::env::temp_dir().join(format!("dbcore-xtask-{}", std::process::id()));
    let system = native_static_libs(&scratch);
    let _ = fs::remove_dir_all(&scratch);
    let layout = Layout {
        os,
        built: &built,
        header: &crate::header_path(),
        version: crate::version::VERSION,
        system: &system?,
        pc_prefix: PcPrefix::Absolute,
    };
    for path in lay_out(&prefix, &layout)? {
        println!("installed {}", path.display());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn soname_follows_cargo_compatibility() {
        // The same rule as dbcore-ffi/build.rs.
        let soname = |v| names(Os::Linux, v).soname.unwrap();
        assert_eq!(soname([0, 1, 0]), "libdbcore.so.0.1");
        assert_eq!(soname([0, 12, 3]), "libdbcore.so.0.12");
        assert_eq!(soname([2, 3, 0]), "libdbcore.so.2");
        assert_eq!(numbers("1.2.3-rc.1+x").unwrap(), [1, 2, 3]);
        assert!(numbers("1.2").is_err());
    }

    fn scratch(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("dbcore-install-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(dir.join("built")).unwrap();
        dir
    }

    fn fake_built(dir: &Path, os: Os) -> Built {
        let built = dir.join("built");
        let names: &[&str] = match os {
            Os::Linux => &["libdbcore_ffi.a", "libdbcore_ffi.so", "libdbcore_ffi.rlib"],
            Os::Mac => &["libdbcore_ffi.a", "libdbcore_ffi.dylib"],
            Os::Windows => &["dbcore_ffi.lib", "dbcore_ffi.dll", "dbcore_ffi.dll.lib"],
        };
        let files: Vec<PathBuf> = names
            .iter()
            .map(|n| {
                fs::write(built.join(n), n).unwrap();
                built.join(n)
            })
            .collect();
        built_from(&files, os).unwrap()
    }

    fn system() -> Vec<String> {
        ["-lgcc_s", "-lpthread", "-lm"].map(String::from).to_vec()
    }

    #[cfg(unix)]
    #[test]
    fn lays_out_every_file_with_the_prefix_named() {
        let dir = scratch("linux");
        let built = fake_built(&dir, Os::Linux);
        assert!(built.shared.ends_with("libdbcore_ffi.so"));
        let prefix = dir.join("prefix");
        let header = crate::header_path();
        let system = system();
        let layout = Layout {
            os: Os::Linux,
            built: &built,
            header: &header,
            version: "0.3.4",
            system: &system,
            pc_prefix: PcPrefix::Absolute,
        };
        // Twice: installing over an install replaces it.
        lay_out(&prefix, &layout).unwrap();
        let written = lay_out(&prefix, &layout).unwrap();
        assert_eq!(written.len(), 9);
        let lib = prefix.join("lib");
        assert_eq!(
            fs::read_to_string(lib.join("libdbcore.so")).unwrap(),
            "libdbcore_ffi.so"
        );
        assert_eq!(
            fs::read_link(lib.join("libdbcore.so")).unwrap(),
            Path::new("libdbcore.so.0.3")
        );
        assert_eq!(
            fs::read_link(lib.join("libdbcore.so.0.3")).unwrap(),
            Path::new("libdbcore.so.0.3.4")
        );
        assert_eq!(
            fs::read_to_string(lib.join("libdbcore.a")).unwrap(),
            "libdbcore_ffi.a"
        );
        let pc = fs::read_to_string(lib.join("pkgconfig").join("dbcore.pc")).unwrap();
        assert!(pc.contains(&format!("prefix={}\n", prefix.display())));
        assert!(pc.contains("Version: 0.3.4\n"));
        assert!(pc.contains("-Wl,-rpath,${libdir} -ldbcore\n"));
        let pcs = fs::read_to_string(lib.join("pkgconfig").join("dbcore-static.pc")).unwrap();
        assert!(pcs.contains("Libs: ${libdir}/libdbcore.a -lgcc_s -lpthread -lm\n"));
        let cmake = fs::read_to_string(lib.join("cmake/dbcore/dbcoreConfig.cmake")).unwrap();
        assert!(cmake.contains("/lib/libdbcore.so.0.3.4\""));
        assert!(cmake.contains("IMPORTED_SONAME \"libdbcore.so.0.3\""));
        assert!(cmake.contains("INTERFACE_LINK_LIBRARIES \"gcc_s;pthread;m\""));
        let header = fs::read_to_string(prefix.join("include").join("dbcore.h")).unwrap();
        assert_eq!(header, fs::read_to_string(crate::header_path()).unwrap());
        fs::remove_dir_all(&dir).unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn the_archive_layout_finds_its_prefix_from_the_pc_file() {
        let dir = scratch("reloc");
        let built = fake_built(&dir, Os::Mac);
        let header = crate::header_path();
        let layout = Layout {
            os: Os::Mac,
            built: &built,
            header: &header,
            version: "1.2.0",
            system: &["-lSystem".to_string(), "-lc".to_string()],
            pc_prefix: PcPrefix::Relocatable,
        };
        let prefix = dir.join("prefix with space is fine here");
        lay_out(&prefix, &layout).unwrap();
        let lib = prefix.join("lib");
        let pc = fs::read_to_string(lib.join("pkgconfig").join("dbcore.pc")).unwrap();
        assert!(pc.contains("prefix=${pcfiledir}/../..\n"));
        assert_eq!(
            fs::read_link(lib.join("libdbcore.dylib")).unwrap(),
            Path::new("libdbcore.1.dylib")
        );
        let cmake = fs::read_to_string(lib.join("cmake/dbcore/dbcoreConfig.cmake")).unwrap();
        assert!(cmake.contains("IMPORTED_SONAME \"@rpath/libdbcore.1.dylib\""));
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn windows_keeps_the_dll_name_its_import_library_records() {
        let dir = scratch("windows");
        let built = fake_built(&dir, Os::Windows);
        assert!(built.staticlib.ends_with("dbcore_ffi.lib"));
        assert!(built
            .implib
            .as_ref()
            .unwrap()
            .ends_with("dbcore_ffi.dll.lib"));
        let names = names(Os::Windows, [0, 1, 0]);
        let system: Vec<String> = ["kernel32.lib", "ntdll.lib", "/defaultlib:msvcrt"]
            .map(String::from)
            .to_vec();
        let cmake = cmake_config(&names, &system);
        assert!(cmake.contains("IMPORTED_LOCATION \"${_dbcore_prefix}/bin/dbcore_ffi.dll\""));
        assert!(cmake.contains("IMPORTED_IMPLIB \"${_dbcore_prefix}/lib/dbcore.lib\""));
        assert!(cmake.contains("INTERFACE_LINK_LIBRARIES \"kernel32.lib;ntdll.lib\""));
        assert!(!cmake.contains("IMPORTED_SONAME"));
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn rustc_names_the_system_libraries_of_a_static_library() {
        let dir = scratch("native");
        let libs = native_static_libs(&dir).unwrap();
        assert!(!libs.is_empty());
        if cfg!(target_os = "linux") {
            assert!(libs.iter().any(|l| l == "-lc"), "{libs:?}");
        }
        fs::remove_dir_all(&dir).unwrap();
    }
}
