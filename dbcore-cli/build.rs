//! Embeds the web table (`../web`: the page, its modules and the WebAssembly package that
//! `cargo run -p xtask -- web` writes to `web/pkg/`) into the program, so that `dbcore serve
//! --http` serves it at `/`. Without a built package, `/` answers a page saying how to build it.

use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};

fn main() {
    let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets it"));
    let web = manifest.join("..").join("web");
    let out = PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets it")).join("web_files.rs");
    let wasm = web.join("pkg").join("dbcore.wasm");
    let mut files: Vec<(String, PathBuf)> = Vec::new();
    if wasm.is_file() {
        for name in ["index.html", "style.css"] {
            files.push((format!("/{name}"), web.join(name)));
        }
        for dir in ["js", "pkg"] {
            let mut names: Vec<PathBuf> = fs::read_dir(web.join(dir))
                .map(|d| d.filter_map(|e| e.ok().map(|e| e.path())).collect())
                .unwrap_or_default();
            names.sort();
            for p in names {
                let served = p
                    .extension()
                    .and_then(|e| e.to_str())
                    .is_some_and(|e| matches!(e, "js" | "wasm" | "ts"));
                if served && p.is_file() {
                    let name = p.file_name().and_then(|n| n.to_str()).unwrap_or_default();
                    files.push((format!("/{dir}/{name}"), p.clone()));
                }
            }
        }
        for watched in ["index.html", "style.css", "js", "pkg"] {
            println!("cargo:rerun-if-changed={}", web.join(watched).display());
        }
    } else {
        // The whole folder, so that the package appearing in it brings the page in.
        println!("cargo:rerun-if-changed={}", web.display());
    }
    let mut text = String::new();
    let _ = writeln!(
        text,
        "/// Whether the web table's package was built when this program was.\npub const EMBEDDED: bool = {};",
        !files.is_empty()
    );
    text.push_str("/// The embedded files by the path they are served at.\npub static FILES: &[(&str, &[u8])] = &[\n");
    for (path, file) in &files {
        let abs = fs::canonicalize(file).unwrap_or_else(|_| file.clone());
        let _ = writeln!(
            text,
            "    ({path:?}, include_bytes!({:?})),",
            path_text(&abs)
        );
    }
    text.push_str("];\n");
    fs::write(&out, text).expect("OUT_DIR is writable");
}

fn path_text(p: &Path) -> String {
    p.to_string_lossy().into_owned()
}
