//! Gives the shared library the name it is installed under.
//!
//! Cargo names the files after the crate (`libdbcore_ffi.so`, `libdbcore_ffi.a`, since the Rust
//! library `dbcore` is the rules crate); `cargo run -p xtask -- install` (and `dist`) lay them
//! out as `libdbcore.so.X.Y.Z` and `libdbcore.a`. A program linked against the installed library
//! records the library's own name, so it is set here to the installed one: on Linux the SONAME
//! `libdbcore.so.MAJOR` from 1.0 on, and `libdbcore.so.0.MINOR` before, since Cargo's versions
//! break compatibility at the minor number while the major one is 0; on macOS the install name
//! `@rpath/libdbcore.MAJOR.dylib` (`@rpath/libdbcore.0.MINOR.dylib` before 1.0). On Windows a
//! DLL's name is its file name, which its import library records: it stays `dbcore_ffi.dll`.

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    let os = std::env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    let major = std::env::var("CARGO_PKG_VERSION_MAJOR").expect("cargo sets the version");
    let minor = std::env::var("CARGO_PKG_VERSION_MINOR").expect("cargo sets the version");
    let compat = if major == "0" {
        format!("0.{minor}")
    } else {
        major
    };
    match os.as_str() {
        "linux" => println!("cargo:rustc-cdylib-link-arg=-Wl,-soname,libdbcore.so.{compat}"),
        "macos" => println!(
            "cargo:rustc-cdylib-link-arg=-Wl,-install_name,@rpath/libdbcore.{compat}.dylib"
        ),
        _ => {}
    }
}
