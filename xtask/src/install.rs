//! `cargo run -p xtask -- install --prefix DIR [--debug]`: build the C library and lay it out
//! under `DIR` as a C user expects it:
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
//! The build is a release build; `--debug` lays out the dev-profile build instead, which the C
//! tests use for their sanitizer runs (built with the features of this program's own build, so
//! that it is the library that build made, not a second compile). Cargo names the built files after the crate
//! (`libdbcore_ffi.*`); the shared one already carries the installed SONAME (`dbcore-ffi/build.rs`).
//! Files are overwritten, so installing again over an older install updates it.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The SONAME of a version `MAJOR.MINOR.PATCH`: the same rule as `dbcore-ffi/build.rs`.
pub fn soname(major: u32, minor: u32) -> String {
    if major == 0 {
        format!("libdbcore.so.0.{minor}")
    } else {
        format!("libdbcore.so.{major}")
    }
}

/// The numbers of a version `MAJOR.MINOR.PATCH[-pre][+build]`.
fn numbers(version: &str) -> Result<[u32; 3], String> {
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

/// The built `.a` and `.so` of dbcore-ffi, from cargo's own report of what it built.
fn build(root: &Path, debug: bool) -> Result<(PathBuf, PathBuf), String> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_string());
    let mut cmd = Command::new(cargo);
    cmd.current_dir(root).args([
        "build",
        "-p",
        "dbcore-ffi",
        "--lib",
        "--message-format=json-render-diagnostics",
    ]);
    if debug {
        // Resolve features as for this program (which links dbcore-ffi and so has built its
        // dev-profile library already): cargo then reuses that build instead of compiling
        // dbcore again for dbcore-ffi's own, smaller feature set. The library's code is the
        // same; the extra features (dbcore's `schema`) only add JSON Schema derivations.
        cmd.args(["-p", "xtask"]);
    } else {
        cmd.arg("--release");
    }
    let out = cmd
        .stderr(Stdio::inherit())
        .output()
        .map_err(|e| format!("cargo build: {e}"))?;
    if !out.status.success() {
        return Err("cargo build -p dbcore-ffi failed".to_string());
    }
    let (mut a, mut so) = (None, None);
    for line in String::from_utf8_lossy(&out.stdout).lines() {
        let Ok(msg) = serde_json::from_str::<serde_json::Value>(line) else {
            continue;
        };
        if msg["reason"] != "compiler-artifact" || msg["target"]["name"] != "dbcore_ffi" {
            continue;
        }
        for f in msg["filenames"].as_array().into_iter().flatten() {
            let Some(f) = f.as_str() else { continue };
            if f.ends_with(".a") {
                a = Some(PathBuf::from(f));
            } else if f.ends_with(".so") {
                so = Some(PathBuf::from(f));
            }
        }
    }
    match (a, so) {
        (Some(a), Some(so)) => Ok((a, so)),
        _ => Err("cargo built no libdbcore_ffi.a and .so (is this Linux?)".to_string()),
    }
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
        Item::Link(target) => {
            std::os::unix::fs::symlink(target, to).map_err(|e| format!("{}: {e}", to.display()))
        }
        Item::Write(text) => fs::write(to, text).map_err(|e| format!("{}: {e}", to.display())),
    }
}

/// `dbcore.pc`: the shared library, with an RPATH so a program built with it runs without
/// `LD_LIBRARY_PATH` wherever the prefix is.
fn pc_shared(prefix: &str, version: &str) -> String {
    format!(
        "# pkg-config file of dbcore's C library (the shared one), written by\n\
         # `cargo run -p xtask -- install`. The -rpath lets programs find the library at run\n\
         # time without LD_LIBRARY_PATH; for the static library use dbcore-static.\n\
         prefix={prefix}\n\
         includedir=${{prefix}}/include\n\
         libdir=${{prefix}}/lib\n\
         \n\
         Name: dbcore\n\
         Description: C ABI of dbcore, a referee for the wargame DBA 3.0\n\
         Version: {version}\n\
         Cflags: -I${{includedir}}\n\
         Libs: -L${{libdir}} -Wl,-rpath,${{libdir}} -ldbcore\n"
    )
}

/// `dbcore-static.pc`: the static library by its path (so the shared one beside it is not
/// chosen) and the system libraries a Rust static library needs on Linux.
fn pc_static(prefix: &str, version: &str) -> String {
    format!(
        "# pkg-config file of dbcore's C library (the static one), written by\n\
         # `cargo run -p xtask -- install`.\n\
         prefix={prefix}\n\
         includedir=${{prefix}}/include\n\
         libdir=${{prefix}}/lib\n\
         \n\
         Name: dbcore-static\n\
         Description: C ABI of dbcore, a referee for the wargame DBA 3.0 (static library)\n\
         Version: {version}\n\
         Cflags: -I${{includedir}}\n\
         Libs: ${{libdir}}/libdbcore.a -lpthread -ldl -lm\n"
    )
}

/// `dbcoreConfig.cmake`: the imported targets, found relative to the file itself so that the
/// prefix may be moved.
fn cmake_config(real: &str, soname: &str) -> String {
    format!(
        r#"# CMake package of dbcore's C library, written by `cargo run -p xtask -- install`.
#
#   find_package(dbcore 0.1 REQUIRED)
#   target_link_libraries(app PRIVATE dbcore::dbcore)         # libdbcore.so
#   target_link_libraries(app PRIVATE dbcore::dbcore_static)  # libdbcore.a and its system libraries
#
# Both targets carry the include directory of dbcore.h. CMake gives programs linked with the
# shared library an RPATH to it in the build tree; set CMAKE_INSTALL_RPATH_USE_LINK_PATH to keep
# it when installing them.

# This file is PREFIX/lib/cmake/dbcore/dbcoreConfig.cmake.
get_filename_component(_dbcore_prefix "${{CMAKE_CURRENT_LIST_DIR}}/../../.." ABSOLUTE)

if(NOT TARGET dbcore::dbcore)
  add_library(dbcore::dbcore SHARED IMPORTED)
  set_target_properties(dbcore::dbcore PROPERTIES
    IMPORTED_LOCATION "${{_dbcore_prefix}}/lib/{real}"
    IMPORTED_SONAME "{soname}"
    INTERFACE_INCLUDE_DIRECTORIES "${{_dbcore_prefix}}/include")
endif()

if(NOT TARGET dbcore::dbcore_static)
  add_library(dbcore::dbcore_static STATIC IMPORTED)
  set_target_properties(dbcore::dbcore_static PROPERTIES
    IMPORTED_LOCATION "${{_dbcore_prefix}}/lib/libdbcore.a"
    INTERFACE_INCLUDE_DIRECTORIES "${{_dbcore_prefix}}/include"
    INTERFACE_LINK_LIBRARIES "pthread;dl;m")
endif()

set(dbcore_INCLUDE_DIRS "${{_dbcore_prefix}}/include")
set(dbcore_LIBRARIES dbcore::dbcore)
unset(_dbcore_prefix)
"#
    )
}

/// `dbcoreConfigVersion.cmake`: a request is met by the same major version no newer than this
/// one, and while the major version is 0 by the same minor one too (the SONAME's rule).
fn cmake_version(version: &str, [major, minor, _]: [u32; 3], pointer_bytes: usize) -> String {
    format!(
        r#"# Version check of dbcore's CMake package, written by `cargo run -p xtask -- install`.
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

/// Lay the library out under `prefix` from the built files.
fn lay_out(prefix: &Path, a: &Path, so: &Path, version: &str) -> Result<(), String> {
    let n = numbers(version)?;
    let soname = soname(n[0], n[1]);
    let real = format!("libdbcore.so.{}.{}.{}", n[0], n[1], n[2]);
    let include = prefix.join("include");
    let lib = prefix.join("lib");
    let pkgconfig = lib.join("pkgconfig");
    let cmake = lib.join("cmake").join("dbcore");
    for d in [&include, &lib, &pkgconfig, &cmake] {
        fs::create_dir_all(d).map_err(|e| format!("{}: {e}", d.display()))?;
    }
    let prefix_text = prefix
        .to_str()
        .ok_or_else(|| format!("{}: the prefix is not UTF-8", prefix.display()))?;
    if prefix_text.contains(char::is_whitespace) {
        return Err(format!(
            "{prefix_text:?}: pkg-config cannot name a prefix with spaces"
        ));
    }
    let header = crate::header_path();
    let items = [
        (include.join("dbcore.h"), Item::Copy(&header)),
        (lib.join("libdbcore.a"), Item::Copy(a)),
        (lib.join(&real), Item::Copy(so)),
        (lib.join(&soname), Item::Link(real.clone())),
        (lib.join("libdbcore.so"), Item::Link(soname.clone())),
        (
            pkgconfig.join("dbcore.pc"),
            Item::Write(pc_shared(prefix_text, version)),
        ),
        (
            pkgconfig.join("dbcore-static.pc"),
            Item::Write(pc_static(prefix_text, version)),
        ),
        (
            cmake.join("dbcoreConfig.cmake"),
            Item::Write(cmake_config(&real, &soname)),
        ),
        (
            cmake.join("dbcoreConfigVersion.cmake"),
            Item::Write(cmake_version(version, n, std::mem::size_of::<usize>())),
        ),
    ];
    for (path, item) in &items {
        put(path, item)?;
        println!("installed {}", path.display());
    }
    Ok(())
}

/// The `install` chore.
pub fn run(args: &[&str]) -> Result<(), String> {
    let mut prefix = None;
    let mut debug = false;
    let mut it = args.iter();
    while let Some(&a) = it.next() {
        match a {
            "--prefix" => prefix = Some(*it.next().ok_or("--prefix takes a directory")?),
            "--debug" => debug = true,
            _ => return Err(format!("install: unknown argument {a:?}")),
        }
    }
    let prefix = prefix.ok_or("usage: cargo run -p xtask -- install --prefix DIR [--debug]")?;
    fs::create_dir_all(prefix).map_err(|e| format!("{prefix}: {e}"))?;
    let prefix = fs::canonicalize(prefix).map_err(|e| format!("{prefix}: {e}"))?;
    let root = crate::root();
    let version = crate::ffi_version(&root)?;
    let (a, so) = build(&root, debug)?;
    lay_out(&prefix, &a, &so, &version)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn soname_follows_cargo_compatibility() {
        assert_eq!(soname(0, 1), "libdbcore.so.0.1");
        assert_eq!(soname(0, 12), "libdbcore.so.0.12");
        assert_eq!(soname(2, 3), "libdbcore.so.2");
        assert_eq!(numbers("1.2.3-rc.1+x").unwrap(), [1, 2, 3]);
        assert!(numbers("1.2").is_err());
    }

    #[test]
    fn lays_out_every_file_with_the_prefix_named() {
        let dir = std::env::temp_dir().join(format!("dbcore-install-test-{}", std::process::id()));
        let built = dir.join("built");
        fs::create_dir_all(&built).unwrap();
        let (a, so) = (
            built.join("libdbcore_ffi.a"),
            built.join("libdbcore_ffi.so"),
        );
        fs::write(&a, "a").unwrap();
        fs::write(&so, "so").unwrap();
        let prefix = dir.join("prefix");
        // Twice: installing over an install replaces it.
        lay_out(&prefix, &a, &so, "0.3.4").unwrap();
        lay_out(&prefix, &a, &so, "0.3.4").unwrap();
        let lib = prefix.join("lib");
        assert_eq!(fs::read_to_string(lib.join("libdbcore.so")).unwrap(), "so");
        assert_eq!(
            fs::read_link(lib.join("libdbcore.so")).unwrap(),
            Path::new("libdbcore.so.0.3")
        );
        assert_eq!(
            fs::read_link(lib.join("libdbcore.so.0.3")).unwrap(),
            Path::new("libdbcore.so.0.3.4")
        );
        assert_eq!(fs::read_to_string(lib.join("libdbcore.a")).unwrap(), "a");
        let pc = fs::read_to_string(lib.join("pkgconfig").join("dbcore.pc")).unwrap();
        assert!(pc.contains(&format!("prefix={}\n", prefix.display())));
        assert!(pc.contains("Version: 0.3.4\n"));
        assert!(pc.contains("-Wl,-rpath,${libdir} -ldbcore\n"));
        let cmake = fs::read_to_string(lib.join("cmake/dbcore/dbcoreConfig.cmake")).unwrap();
        assert!(cmake.contains("/lib/libdbcore.so.0.3.4\""));
        assert!(cmake.contains("IMPORTED_SONAME \"libdbcore.so.0.3\""));
        let header = fs::read_to_string(prefix.join("include").join("dbcore.h")).unwrap();
        assert_eq!(header, fs::read_to_string(crate::header_path()).unwrap());
        fs::remove_dir_all(&dir).unwrap();
    }
}
