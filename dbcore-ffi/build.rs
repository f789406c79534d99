//! Gives the shared library the SONAME it is installed under.
//!
//! Cargo names the files after the crate (`libdbcore_ffi.so`, `libdbcore_ffi.a`, since the Rust
//! library `dbcore` is the rules crate); `cargo run -p xtask -- install` lays them out as
//! `libdbcore.so.X.Y.Z` and `libdbcore.a`. A program linked against the installed library records
//! the SONAME, so it is set here to the installed name: `libdbcore.so.MAJOR` from 1.0 on, and
//! `libdbcore.so.0.MINOR` before, since Cargo's versions break compatibility at the minor number
//! while the major one is 0.

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    let os = std::env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    if os != "linux" {
        return;
    }
    let major = std::env::var("CARGO_PKG_VERSION_MAJOR").expect("cargo sets the version");
    let minor = std::env::var("CARGO_PKG_VERSION_MINOR").expect("cargo sets the version");
    let soname = if major == "0" {
        format!("libdbcore.so.0.{minor}")
    } else {
        format!("libdbcore.so.{major}")
    };
    println!("cargo:rustc-cdylib-link-arg=-Wl,-soname,{soname}");
}
