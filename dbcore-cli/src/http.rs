//! The HTTP door: `POST /rpc` with one JSON-RPC request a body, `GET /health`, and `GET /` the
//! web table (`static_files`: the page runs the referee in WebAssembly itself), on a loopback
//! address only (unless the operator says otherwise), over `std::net` with `httparse`: one local
//! client calling microsecond functions needs no async runtime.
//!
//! What it refuses, and why (DNS rebinding: a web page in the user's browser must not be able to
//! drive the referee):
//! * a `Host` that does not name the loopback address (or the bound address) and the port: 403;
//! * a request whose `Origin` is not the door's own (`http://` and its `Host`): 403, so the page
//!   served at `/` may call `/rpc` and a page from anywhere else may not;
//! * a `/rpc` body that is not `Content-Type: application/json`: 415;
//! * a body without `Content-Length` (or with `Transfer-Encoding`): 411;
//! * a body or header block over its limit: 413 / 431; a request slower than the read timeout: 408.
//!
//! It never sends CORS headers. Connections are kept alive (HTTP/1.1) unless the client asks to
//! close; at most [`HttpConfig::max_connections`] are served at once, further ones are answered
//! 503 and closed.

use std::io::{self, Read, Write};
use std::net::{IpAddr, SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::json;

use crate::rpc::{transport_error, Referee, MESSAGE_TOO_LARGE, PARSE_ERROR};

/// The HTTP door's limits.
#[derive(Debug, Clone)]
pub struct HttpConfig {
    /// Connections served at once.
    pub max_connections: usize,
    /// Bytes of the request line and headers.
    pub max_header_bytes: usize,
    /// Headers in one request.
    pub max_headers: usize,
    /// How long one request may take to arrive, and how long an idle kept-alive connection stays.
    pub read_timeout: Duration,
    /// Log every request to stderr.
    pub verbose: bool,
}

impl Default for HttpConfig {
    fn default() -> Self {
        HttpConfig {
            max_connections: 16,
            max_header_bytes: 8 * 1024,
            max_headers: 32,
            read_timeout: Duration::from_secs(5),
            verbose: false,
        }
    }
}

/// Whether an address may be bound without the explicit flag.
pub fn is_loopback(ip: IpAddr) -> bool {
    ip.is_loopback()
}

/// Serve connections from `listener` forever, one thread a connection.
pub fn serve(
    listener: TcpListener,
    referee: Arc<Mutex<Referee>>,
    cfg: HttpConfig,
) -> io::Result<()> {
    let local = listener.local_addr()?;
    let live = Arc::new(AtomicUsize::new(0));
    let cfg = Arc::new(cfg);
    for stream in listener.incoming() {
        let mut stream = match stream {
            Ok(s) => s,
            Err(e) => {
                eprintln!("dbcore serve: accept failed: {e}");
                continue;
            }
        };
        if live.fetch_add(1, Ordering::SeqCst) >= cfg.max_connections {
            live.fetch_sub(1, Ordering::SeqCst);
            eprintln!("dbcore serve: too many connections, refusing one");
            let body =
                json!({ "error": "too many connections", "max_connections": cfg.max_connections });
            let _ = stream.set_write_timeout(Some(Duration::from_secs(1)));
            let _ = respond(&mut stream, 503, &body.to_string(), true);
            continue;
        }
        let (referee, live, cfg) = (referee.clone(), live.clone(), cfg.clone());
        std::thread::spawn(move || {
            if let Err(e) = connection(stream, local, &referee, &cfg) {
                if cfg.verbose {
                    eprintln!("dbcore serve: connection ended: {e}");
                }
            }
            live.fetch_sub(1, Ordering::SeqCst);
        });
    }
    Ok(())
}

fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        204 => "No Content",
        400 => "Bad Request",
        403 => "Forbidden",
        404 => "Not Found",
        405 => "Method Not Allowed",
        408 => "Request Timeout",
        411 => "Length Required",
        413 => "Content Too Large",
        415 => "Unsupported Media Type",
        431 => "Request Header Fields Too Large",
        503 => "Service Unavailable",
        _ => "Error",
    }
}

fn respond(s: &mut TcpStream, status: u16, body: &str, close: bool) -> io::Result<()> {
    let mut head = format!("HTTP/1.1 {status} {}\r\n", reason(status));
    if status != 204 {
        head += &format!(
            "Content-Type: application/json\r\nContent-Length: {}\r\n",
            body.len()
        );
    }
    head += "Cache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\n";
    if close {
        head += "Connection: close\r\n";
    }
    head += "\r\n";
    let mut out = head.into_bytes();
    out.extend_from_slice(body.as_bytes());
    s.write_all(&out)?;
    s.flush()
}

/// A plain JSON error body for a fault outside JSON-RPC (wrong Host, Origin, path, media type).
fn plain(message: &str) -> String {
    json!({ "error": message }).to_string()
}

/// Whether `host` (the Host header) names the server: the loopback address or the bound address,
/// with the bound port.
fn host_ok(host: &str, local: SocketAddr) -> bool {
    let port = local.port().to_string();
    let Some((name, p)) = host.rsplit_once(':') else {
        return false;
    };
    if p != port {
        return false;
    }
    let name = name.trim_start_matches('[').trim_end_matches(']');
    if name.eq_ignore_ascii_case("localhost") {
        return true;
    }
    match name.parse::<IpAddr>() {
        Ok(ip) => ip.is_loopback() || ip == local.ip(),
        Err(_) => false,
    }
}

/// Whether `origin` is this door's own (`http://` and the Host already accepted by
/// [`host_ok`]): the web table served at `/` calling back. Anything else, `null` included
/// (sandboxed frames, files), is another page.
fn same_origin(origin: &str, host: &str) -> bool {
    origin
        .strip_prefix("http://")
        .is_some_and(|o| !host.is_empty() && o.eq_ignore_ascii_case(host))
}

/// One parsed request head.
struct Head {
    method: String,
    path: String,
    headers: Vec<(String, String)>,
    version: u8,
    len: usize,
}

impl Head {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
    fn wants_close(&self) -> bool {
        let has = |token: &str| {
            self.header("connection")
                .is_some_and(|c| c.split(',').any(|t| t.trim().eq_ignore_ascii_case(token)))
        };
        if has("close") {
            true
        } else if has("keep-alive") {
            false
        } else {
            self.version == 0
        }
    }
}

enum Parsed {
    Head(Head),
    Partial,
    Bad(String),
}

fn parse(buf: &[u8], max_headers: usize) -> Parsed {
    let mut storage = vec![httparse::EMPTY_HEADER; max_headers];
    let mut req = httparse::Request::new(&mut storage);
    match req.parse(buf) {
        Ok(httparse::Status::Complete(len)) => Parsed::Head(Head {
            method: req.method.unwrap_or("").to_string(),
            path: req.path.unwrap_or("").to_string(),
            version: req.version.unwrap_or(1),
            headers: req
                .headers
                .iter()
                .map(|h| {
                    (
                        h.name.to_string(),
                        String::from_utf8_lossy(h.value).into_owned(),
                    )
                })
                .collect(),
            len,
        }),
        Ok(httparse::Status::Partial) => Parsed::Partial,
        Err(httparse::Error::TooManyHeaders) => {
            Parsed::Bad(format!("more than {max_headers} headers"))
        }
        Err(e) => Parsed::Bad(format!("malformed request: {e}")),
    }
}

/// Read more bytes into `buf` before `deadline`; `Ok(false)` at end of stream.
fn fill(s: &mut TcpStream, buf: &mut Vec<u8>, deadline: Instant) -> io::Result<bool> {
    let left = deadline.saturating_duration_since(Instant::now());
    if left.is_zero() {
        return Err(io::Error::new(io::ErrorKind::TimedOut, "request too slow"));
    }
    s.set_read_timeout(Some(left))?;
    let mut chunk = [0u8; 16 * 1024];
    let n = s.read(&mut chunk)?;
    buf.extend_from_slice(&chunk[..n]);
    Ok(n > 0)
}

fn timed_out(e: &io::Error) -> bool {
    matches!(
        e.kind(),
        io::ErrorKind::TimedOut | io::ErrorKind::WouldBlock
    )
}

fn connection(
    mut s: TcpStream,
    local: SocketAddr,
    referee: &Mutex<Referee>,
    cfg: &HttpConfig,
) -> io::Result<()> {
    s.set_nodelay(true)?;
    s.set_write_timeout(Some(cfg.read_timeout))?;
    let max_body = referee
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .limits()
        .max_message_bytes;
    let mut buf: Vec<u8> = Vec::new();
    loop {
        // The head.
        let deadline = Instant::now() + cfg.read_timeout;
        let head = loop {
            match parse(&buf, cfg.max_headers) {
                Parsed::Head(h) => break h,
                Parsed::Bad(m) => {
                    let status = if m.starts_with("more than") { 431 } else { 400 };
                    return respond(&mut s, status, &plain(&m), true);
                }
                Parsed::Partial => {}
            }
            if buf.len() > cfg.max_header_bytes {
                let m = format!(
                    "the request head is longer than {} bytes",
                    cfg.max_header_bytes
                );
                return respond(&mut s, 431, &plain(&m), true);
            }
            match fill(&mut s, &mut buf, deadline) {
                Ok(true) => {}
                Ok(false) => return Ok(()),
                Err(e) if timed_out(&e) => {
                    if buf.is_empty() {
                        return Ok(()); // an idle kept-alive connection
                    }
                    return respond(&mut s, 408, &plain("the request took too long"), true);
                }
                Err(e) => return Err(e),
            }
        };
        if head.len > cfg.max_header_bytes {
            let m = format!(
                "the request head is longer than {} bytes",
                cfg.max_header_bytes
            );
            return respond(&mut s, 431, &plain(&m), true);
        }
        let close = head.wants_close();
        let log = |status: u16| {
            if cfg.verbose || status >= 400 {
                eprintln!("dbcore serve: {} {} -> {status}", head.method, head.path);
            }
        };
        // Who may ask.
        match head.header("host") {
            Some(h) if host_ok(h.trim(), local) => {}
            _ => {
                log(403);
                let m = format!(
                    "the Host header must name {local} or the loopback address with port {}",
                    local.port()
                );
                return respond(&mut s, 403, &plain(&m), true);
            }
        }
        // The page served at `/` may call its own door; any other page may not.
        if let Some(origin) = head.header("origin") {
            if !same_origin(origin.trim(), head.header("host").unwrap_or("").trim()) {
                log(403);
                return respond(
                    &mut s,
                    403,
                    &plain("requests from another origin are refused"),
                    true,
                );
            }
        }
        if head.header("transfer-encoding").is_some() {
            log(411);
            return respond(
                &mut s,
                411,
                &plain("send the body with Content-Length, not Transfer-Encoding"),
                true,
            );
        }
        let length = match head
            .header("content-length")
            .map(|v| v.trim().parse::<usize>())
        {
            None => None,
            Some(Ok(n)) => Some(n),
            Some(Err(_)) => {
                log(400);
                return respond(&mut s, 400, &plain("Content-Length is not a number"), true);
            }
        };
        let path = head.path.split('?').next().unwrap_or("");
        match (head.method.as_str(), path) {
            ("GET", "/health") => {
                if length.is_some_and(|n| n > 0) {
                    return respond(&mut s, 400, &plain("GET /health has no body"), true);
                }
                buf.drain(..head.len);
                let body = json!({ "status": "ok", "server": "dbcore-cli", "version": env!("CARGO_PKG_VERSION") });
                log(200);
                respond(&mut s, 200, &body.to_string(), close)?;
            }
            ("POST", "/rpc") => {
                let json_type = head.header("content-type").is_some_and(|t| {
                    t.split(';')
                        .next()
                        .is_some_and(|m| m.trim().eq_ignore_ascii_case("application/json"))
                });
                if !json_type {
                    log(415);
                    return respond(
                        &mut s,
                        415,
                        &plain("POST /rpc takes Content-Type: application/json"),
                        true,
                    );
                }
                let Some(n) = length else {
                    log(411);
                    return respond(
                        &mut s,
                        411,
                        &plain("POST /rpc needs a Content-Length"),
                        true,
                    );
                };
                if n > max_body {
                    log(413);
                    let body = transport_error(
                        MESSAGE_TOO_LARGE,
                        &format!("a body of {n} bytes is longer than the limit of {max_body}"),
                        json!({ "limit": max_body, "length": n }),
                    );
                    return respond(&mut s, 413, &body, true);
                }
                while buf.len() < head.len + n {
                    match fill(&mut s, &mut buf, deadline) {
                        Ok(true) => {}
                        Ok(false) => return Ok(()),
                        Err(e) if timed_out(&e) => {
                            log(408);
                            return respond(&mut s, 408, &plain("the body took too long"), true);
                        }
                        Err(e) => return Err(e),
                    }
                }
                let body: Vec<u8> = buf.drain(..head.len + n).skip(head.len).collect();
                let answer = match std::str::from_utf8(&body) {
                    Ok(text) => referee
                        .lock()
                        .unwrap_or_else(|p| p.into_inner())
                        .handle_text(text),
                    Err(e) => Some(transport_error(
                        PARSE_ERROR,
                        &format!("parse error: the body is not UTF-8 ({e})"),
                        serde_json::Value::Null,
                    )),
                };
                match answer {
                    Some(a) => {
                        log(200);
                        respond(&mut s, 200, &a, close)?
                    }
                    None => {
                        log(204);
                        respond(&mut s, 204, "", close)?
                    }
                }
            }
            // The web table (`static_files`): the page and its WebAssembly referee.
            ("GET" | "HEAD", p) if crate::static_files::find(p).is_some() => {
                if length.is_some_and(|n| n > 0) {
                    return respond(&mut s, 400, &plain("a GET has no body"), true);
                }
                buf.drain(..head.len);
                log(200);
                let file = crate::static_files::find(p).unwrap_or(("", b""));
                crate::static_files::respond(&mut s, file, head.method == "HEAD", close)?;
            }
            (_, "/rpc") | (_, "/health") => {
                log(405);
                return respond(&mut s, 405, &plain("POST /rpc or GET /health"), true);
            }
            _ => {
                log(404);
                return respond(&mut s, 404, &plain("POST /rpc or GET /health"), true);
            }
        }
        if close {
            return Ok(());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_loopback_hosts_with_the_port_are_accepted() {
        let local: SocketAddr = "127.0.0.1:8080".parse().unwrap();
        for ok in [
            "127.0.0.1:8080",
            "localhost:8080",
            "[::1]:8080",
            "LOCALHOST:8080",
            "127.0.0.2:8080",
        ] {
            assert!(host_ok(ok, local), "{ok}");
        }
        for bad in [
            "127.0.0.1",
            "127.0.0.1:8081",
            "evil.example:8080",
            "10.0.0.1:8080",
            "",
            "localhost.evil:8080",
        ] {
            assert!(!host_ok(bad, local), "{bad}");
        }
    }

    #[test]
    fn only_the_doors_own_origin_is_accepted() {
        assert!(same_origin("http://127.0.0.1:8080", "127.0.0.1:8080"));
        assert!(same_origin("http://LOCALHOST:8080", "localhost:8080"));
        for (origin, host) in [
            ("http://evil.example", "127.0.0.1:8080"),
            ("http://127.0.0.1:8081", "127.0.0.1:8080"),
            ("https://127.0.0.1:8080", "127.0.0.1:8080"),
            ("null", "127.0.0.1:8080"),
            ("http://", ""),
            ("http://127.0.0.1:8080.evil", "127.0.0.1:8080"),
        ] {
            assert!(!same_origin(origin, host), "{origin} at {host}");
        }
    }
}
