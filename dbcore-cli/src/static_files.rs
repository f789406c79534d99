//! The web table served by the HTTP door at `/` (`web/`, embedded by `build.rs` when its
//! WebAssembly package was built): the page runs the referee itself, so these are plain files.
//! Without the package, `/` is a short page saying how to build it.

use std::io::{self, Write};
use std::net::TcpStream;

include!(concat!(env!("OUT_DIR"), "/web_files.rs"));

/// What `/` answers when the program was built without the web table's package.
const NOT_BUILT: &str = "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>dbcore · the web table is not built</title></head>\n<body><h1>The web table is not in this build of dbcore</h1>\n<p>Build its WebAssembly package, then the program again:</p>\n<pre>cargo run -p xtask -- web\ncargo build --release -p dbcore-cli</pre>\n<p>The referee itself answers at <code>POST /rpc</code> (JSON-RPC 2.0) and <code>GET /health</code>.</p>\n</body></html>\n";

/// The policy the page is served with: its own scripts and WebAssembly, nothing from elsewhere.
const CSP: &str = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; img-src 'self' data: blob:; connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'none'";

/// The media type of a served path, by its extension.
pub fn content_type(path: &str) -> &'static str {
    match path.rsplit('.').next() {
        Some("html") => "text/html; charset=utf-8",
        Some("css") => "text/css; charset=utf-8",
        Some("js") => "text/javascript; charset=utf-8",
        Some("wasm") => "application/wasm",
        Some("ts") => "text/plain; charset=utf-8",
        _ => "application/octet-stream",
    }
}

/// The file served at `path` (its query left off; `/` is the page), if there is one.
pub fn find(path: &str) -> Option<(&'static str, &'static [u8])> {
    let path = path.split(['?', '#']).next().unwrap_or("");
    let path = if path == "/" { "/index.html" } else { path };
    if !EMBEDDED {
        return (path == "/index.html").then_some(("/index.html", NOT_BUILT.as_bytes()));
    }
    FILES
        .iter()
        .find(|(p, _)| *p == path)
        .map(|(p, b)| (*p, *b))
}

/// Send the file found at `path` with its media type; `head` sends the headers alone.
pub fn respond(
    s: &mut TcpStream,
    (path, body): (&str, &[u8]),
    head: bool,
    close: bool,
) -> io::Result<()> {
    let mut out = format!(
        "HTTP/1.1 200 OK\r\nContent-Type: {}\r\nContent-Length: {}\r\nCache-Control: no-cache\r\nX-Content-Type-Options: nosniff\r\nContent-Security-Policy: {CSP}\r\nReferrer-Policy: no-referrer\r\n",
        content_type(path),
        body.len()
    );
    if close {
        out += "Connection: close\r\n";
    }
    out += "\r\n";
    let mut bytes = out.into_bytes();
    if !head {
        bytes.extend_from_slice(body);
    }
    s.write_all(&bytes)?;
    s.flush()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_page_is_served_at_the_root_and_nothing_outside_the_table() {
        let (path, body) = find("/").expect("/ always answers");
        assert_eq!(path, "/index.html");
        assert!(std::str::from_utf8(body).unwrap().contains("<html"));
        assert_eq!(find("/?x=1").unwrap().0, "/index.html");
        for outside in [
            "/../Cargo.toml",
            "/etc/passwd",
            "/rpc",
            "/pkg/",
            "/js/../index.html",
        ] {
            assert!(find(outside).is_none(), "{outside}");
        }
        if EMBEDDED {
            let (_, wasm) = find("/pkg/dbcore.wasm").expect("the package is embedded");
            assert_eq!(&wasm[..4], b"\0asm");
            assert!(find("/js/app.js").is_some());
            assert_eq!(content_type("/pkg/dbcore.wasm"), "application/wasm");
        } else {
            assert!(std::str::from_utf8(body)
                .unwrap()
                .contains("cargo run -p xtask -- web"));
        }
    }
}
