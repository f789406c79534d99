//! The HTTP door: `POST /rpc` with one JSON-RPC request a body, `GET /health`, and `GET /` the
//! web table (`static_files`: the page runs the referee in WebAssembly itself), on a loopback
//! address only (unless the operator says otherwise), over `std::net` with `httparse`: one local
//! client calling microsecond functions needs no async runtime.
//!
//! What it refuses, and why (DNS rebinding: a web page in the user's browser must not be able to
//! drive the referee; request smuggling: two readers of one request must not disagree on it):
//! * a `Host` that does not name the loopback address (or the bound address) and the port, or
//!   more than one `Host`: 403 / 400;
//! * an `Origin` that is not this server's own (`http://127.0.0.1:PORT`, `http://localhost:PORT`,
//!   as the `Host` rule says): 403. Browsers send an `Origin` with cross-site requests; a page
//!   served by this same server calls `/rpc` with its own origin, which is accepted;
//! * a `/rpc` body that is not `Content-Type: application/json`: 415;
//! * a body without `Content-Length` (or with `Transfer-Encoding`): 411; a `Content-Length` that
//!   is not plain digits (`+53`, `-1`, `0x10`, `1,2`) or that is given twice: 400;
//! * a body or header block over its limit: 413 / 431; a request whose head and body have not
//!   both arrived [`HttpConfig::read_timeout`] after its first byte: 408.
//!
//! It never sends CORS headers. Connections are kept alive (HTTP/1.1) unless the client asks to
//! close; an idle one is closed after [`HttpConfig::read_timeout`].
//!
//! Slots: at most [`HttpConfig::max_connections`] connections are served at once, and at most
//! [`HttpConfig::max_per_address`] from one client address. When a new connection would pass
//! either cap, the connection that has waited longest on its client (idle between requests, or
//! still sending a request) is closed to make room; only when every connection is busy being
//! answered is the new one refused (503). So slow or idle clients cannot hold the door: a client
//! sending one header byte every half second loses its slot to the next client that connects,
//! and in any case after the read timeout.
//!
//! Every connection runs inside a panic boundary, and its slot is given back however it ends.

use std::collections::BTreeMap;
use std::io::{self, Read, Write};
use std::net::{IpAddr, Ipv4Addr, Shutdown, SocketAddr, TcpListener, TcpStream};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::json;

use crate::rpc::{transport_error, Referee, MESSAGE_TOO_LARGE, PARSE_ERROR};

/// The HTTP door's limits.
#[derive(Debug, Clone)]
pub struct HttpConfig {
    /// Connections served at once.
    pub max_connections: usize,
    /// Connections served at once from one client address.
    pub max_per_address: usize,
    /// Bytes of the request line and headers.
    pub max_header_bytes: usize,
    /// Headers in one request.
    pub max_headers: usize,
    /// How long one request (head and body) may take to arrive from its first byte, and how
    /// long an idle kept-alive connection stays.
    pub read_timeout: Duration,
    /// Log every request to stderr.
    pub verbose: bool,
}

impl Default for HttpConfig {
    fn default() -> Self {
        HttpConfig {
            max_connections: 64,
            max_per_address: 32,
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

/// A connection waiting on its client: idle between requests or still receiving one.
const WAITING: u8 = 0;
/// A connection whose request is being answered: never closed to make room.
const BUSY: u8 = 1;
/// A connection closed to make room; its thread is ending.
const EVICTED: u8 = 2;

/// What a connection's thread and the door share about it.
#[derive(Debug)]
struct Slot {
    state: AtomicU8,
    /// When it began waiting, in milliseconds since the server started.
    since: AtomicU64,
}

#[derive(Debug)]
struct Conn {
    peer: IpAddr,
    stream: TcpStream,
    slot: Arc<Slot>,
}

#[derive(Debug, Default)]
struct Registry {
    conns: BTreeMap<u64, Conn>,
    next: u64,
}

/// The HTTP door: its listener, its referee and the connections it serves.
#[derive(Debug)]
pub struct HttpServer {
    listener: TcpListener,
    local: SocketAddr,
    referee: Arc<Referee>,
    cfg: HttpConfig,
    started: Instant,
    registry: Mutex<Registry>,
}

/// Serve connections from `listener` forever, one thread a connection.
pub fn serve(listener: TcpListener, referee: Arc<Referee>, cfg: HttpConfig) -> io::Result<()> {
    HttpServer::new(listener, referee, cfg)?.run()
}

impl HttpServer {
    pub fn new(
        listener: TcpListener,
        referee: Arc<Referee>,
        cfg: HttpConfig,
    ) -> io::Result<Arc<HttpServer>> {
        Ok(Arc::new(HttpServer {
            local: listener.local_addr()?,
            listener,
            referee,
            cfg,
            started: Instant::now(),
            registry: Mutex::new(Registry::default()),
        }))
    }

    /// The address served.
    pub fn local_addr(&self) -> SocketAddr {
        self.local
    }

    /// Connections whose thread has not ended yet (those closed to make room included until
    /// their thread ends).
    pub fn connections(&self) -> usize {
        self.registry().conns.len()
    }

    fn registry(&self) -> std::sync::MutexGuard<'_, Registry> {
        self.registry.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn now_ms(&self) -> u64 {
        self.started.elapsed().as_millis() as u64
    }

    /// Accept connections forever.
    pub fn run(self: &Arc<Self>) -> io::Result<()> {
        for stream in self.listener.incoming() {
            let mut stream = match stream {
                Ok(s) => s,
                Err(e) => {
                    eprintln!("dbcore serve: accept failed: {e}");
                    continue;
                }
            };
            let peer = stream
                .peer_addr()
                .map_or(IpAddr::V4(Ipv4Addr::UNSPECIFIED), |a| a.ip());
            let (id, slot) = match self.admit(&stream, peer) {
                Ok(admitted) => admitted,
                Err((all, from_peer)) => {
                    eprintln!("dbcore serve: every connection is busy, refusing one from {peer}");
                    let body = json!({
                        "error": "too many connections, every one busy being answered",
                        "connections": all,
                        "from_this_address": from_peer,
                        "max_connections": self.cfg.max_connections,
                        "max_per_address": self.cfg.max_per_address,
                    });
                    let _ = stream.set_write_timeout(Some(Duration::from_secs(1)));
                    let _ = respond(&mut stream, 503, &body.to_string(), true);
                    continue;
                }
            };
            let server = Arc::clone(self);
            std::thread::spawn(move || {
                let _slot = Release {
                    server: &server,
                    id,
                };
                let outcome = catch_unwind(AssertUnwindSafe(|| server.connection(stream, &slot)));
                match outcome {
                    Ok(Err(e)) if server.cfg.verbose => {
                        eprintln!("dbcore serve: connection ended: {e}")
                    }
                    Err(_) => eprintln!(
                        "dbcore serve: a connection failed (a bug); its slot is given back"
                    ),
                    _ => {}
                }
            });
        }
        Ok(())
    }

    /// A slot for a new connection from `peer`, made by closing the connection that has waited
    /// longest on its client when a cap is reached; when every connection is busy, the counts
    /// (connections served, from `peer`) for the refusal.
    fn admit(&self, stream: &TcpStream, peer: IpAddr) -> Result<(u64, Arc<Slot>), (usize, usize)> {
        let mut reg = self.registry();
        let live = |reg: &Registry, same_peer: bool| {
            reg.conns
                .values()
                .filter(|c| c.slot.state.load(Ordering::Acquire) != EVICTED)
                .filter(|c| !same_peer || c.peer == peer)
                .count()
        };
        let counts = (live(&reg, false), live(&reg, true));
        if counts.1 >= self.cfg.max_per_address && !evict_oldest(&reg, Some(peer)) {
            return Err(counts);
        }
        if live(&reg, false) >= self.cfg.max_connections && !evict_oldest(&reg, None) {
            return Err(counts);
        }
        let copy = stream.try_clone().map_err(|_| counts)?;
        let slot = Arc::new(Slot {
            state: AtomicU8::new(WAITING),
            since: AtomicU64::new(self.now_ms()),
        });
        reg.next += 1;
        let id = reg.next;
        reg.conns.insert(
            id,
            Conn {
                peer,
                stream: copy,
                slot: Arc::clone(&slot),
            },
        );
        Ok((id, slot))
    }

    fn connection(&self, mut s: TcpStream, slot: &Slot) -> io::Result<()> {
        let cfg = &self.cfg;
        s.set_nodelay(true)?;
        s.set_write_timeout(Some(cfg.read_timeout))?;
        let max_body = self.referee.limits().max_message_bytes;
        let mut buf: Vec<u8> = Vec::new();
        let mut chunk = vec![0u8; CHUNK];
        loop {
            // Waiting for the client (a new connection, or kept alive after an answer).
            slot.since.store(self.now_ms(), Ordering::Release);
            if slot
                .state
                .compare_exchange(BUSY, WAITING, Ordering::AcqRel, Ordering::Acquire)
                .is_err()
                && slot.state.load(Ordering::Acquire) == EVICTED
            {
                return Ok(());
            }
            let mut deadline = Instant::now() + cfg.read_timeout;
            let mut started = !buf.is_empty();
            // The head.
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
                match fill(&mut s, &mut buf, &mut chunk, deadline) {
                    Ok(true) => {
                        // The request's time runs from its first byte, not from the end of the
                        // idle wait before it.
                        if !started {
                            started = true;
                            deadline = Instant::now() + cfg.read_timeout;
                        }
                    }
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
            // One reading of the request for every reader: no header that decides it twice.
            for name in ["host", "content-length", "origin", "transfer-encoding"] {
                if head.count(name) > 1 {
                    log(400);
                    let m = format!("the request has more than one {name} header");
                    return respond(&mut s, 400, &plain(&m), true);
                }
            }
            // Who may ask.
            match head.header("host") {
                Some(h) if host_ok(h.trim(), self.local) => {}
                _ => {
                    log(403);
                    let m = format!(
                        "the Host header must name {} or the loopback address with port {}",
                        self.local,
                        self.local.port()
                    );
                    return respond(&mut s, 403, &plain(&m), true);
                }
            }
            if let Some(origin) = head.header("origin") {
                if !origin_ok(origin.trim(), self.local) {
                    log(403);
                    let m = format!(
                        "requests from another origin are refused (this server's origin is http://127.0.0.1:{} or http://localhost:{})",
                        self.local.port(),
                        self.local.port()
                    );
                    return respond(&mut s, 403, &plain(&m), true);
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
            let length = match head.header("content-length").map(content_length) {
                None => None,
                Some(Some(n)) => Some(n),
                Some(None) => {
                    log(400);
                    return respond(
                        &mut s,
                        400,
                        &plain("Content-Length is not a number of bytes (digits only)"),
                        true,
                    );
                }
            };
            let path = head.path.split('?').next().unwrap_or("");
            match (head.method.as_str(), path) {
                ("GET", "/health") => {
                    if length.is_some_and(|n| n > 0) {
                        return respond(&mut s, 400, &plain("GET /health has no body"), true);
                    }
                    buf.drain(..head.len);
                    if !claim(slot) {
                        return Ok(());
                    }
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
                    if n > max_body as u64 {
                        log(413);
                        let body = transport_error(
                            MESSAGE_TOO_LARGE,
                            &format!("a body of {n} bytes is longer than the limit of {max_body}"),
                            json!({ "limit": max_body, "length": n }),
                        );
                        return respond(&mut s, 413, &body, true);
                    }
                    let n = n as usize;
                    while buf.len() < head.len + n {
                        match fill(&mut s, &mut buf, &mut chunk, deadline) {
                            Ok(true) => {}
                            Ok(false) => return Ok(()),
                            Err(e) if timed_out(&e) => {
                                log(408);
                                return respond(
                                    &mut s,
                                    408,
                                    &plain("the body took too long"),
                                    true,
                                );
                            }
                            Err(e) => return Err(e),
                        }
                    }
                    let body: Vec<u8> = buf.drain(..head.len + n).skip(head.len).collect();
                    if !claim(slot) {
                        return Ok(());
                    }
                    let answer = match std::str::from_utf8(&body) {
                        Ok(text) => self.referee.handle_text(text),
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
                    if !claim(slot) {
                        return Ok(());
                    }
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
}

/// Close the connection that has waited longest on its client (from `peer` only, when given).
fn evict_oldest(reg: &Registry, peer: Option<IpAddr>) -> bool {
    let mut waiting: Vec<&Conn> = reg
        .conns
        .values()
        .filter(|c| peer.is_none_or(|p| c.peer == p))
        .filter(|c| c.slot.state.load(Ordering::Acquire) == WAITING)
        .collect();
    waiting.sort_by_key(|c| c.slot.since.load(Ordering::Acquire));
    for c in waiting {
        let taken = c
            .slot
            .state
            .compare_exchange(WAITING, EVICTED, Ordering::AcqRel, Ordering::Acquire)
            .is_ok();
        if taken {
            let _ = c.stream.shutdown(Shutdown::Both);
            return true;
        }
    }
    false
}

/// Mark the connection busy for the answer; `false` if it was closed to make room meanwhile.
fn claim(slot: &Slot) -> bool {
    slot.state
        .compare_exchange(WAITING, BUSY, Ordering::AcqRel, Ordering::Acquire)
        .is_ok()
}

/// Gives a connection's slot back when its thread ends, however it ends.
struct Release<'a> {
    server: &'a HttpServer,
    id: u64,
}

impl Drop for Release<'_> {
    fn drop(&mut self) {
        self.server.registry().conns.remove(&self.id);
    }
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

/// Whether `origin` (the Origin header) is this server's own: `http://` and a host the Host
/// rule accepts, nothing after it.
fn origin_ok(origin: &str, local: SocketAddr) -> bool {
    let Some(scheme) = origin.get(..7) else {
        return false;
    };
    if !scheme.eq_ignore_ascii_case("http://") {
        return false;
    }
    let authority = &origin[7..];
    !authority.contains(['/', '@', '?', '#']) && host_ok(authority, local)
}

/// A Content-Length: plain ASCII digits (RFC 9110, section 8.6), no sign, no spaces inside, no list.
fn content_length(v: &str) -> Option<u64> {
    let v = v.trim_matches([' ', '\t']);
    if v.is_empty() || v.len() > 18 || !v.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    v.parse().ok()
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
    fn count(&self, name: &str) -> usize {
        self.headers
            .iter()
            .filter(|(n, _)| n.eq_ignore_ascii_case(name))
            .count()
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

/// Bytes read from a connection at once.
const CHUNK: usize = 16 * 1024;

/// Read more bytes into `buf` before `deadline`, through `chunk` (the connection's own, made
/// once: a new one zeroed at every read was a tenth of a small request, #47); `Ok(false)` at
/// end of stream.
fn fill(
    s: &mut TcpStream,
    buf: &mut Vec<u8>,
    chunk: &mut [u8],
    deadline: Instant,
) -> io::Result<bool> {
    let left = deadline.saturating_duration_since(Instant::now());
    if left.is_zero() {
        return Err(io::Error::new(io::ErrorKind::TimedOut, "request too slow"));
    }
    s.set_read_timeout(Some(left))?;
    let n = s.read(chunk)?;
    buf.extend_from_slice(&chunk[..n]);
    Ok(n > 0)
}

fn timed_out(e: &io::Error) -> bool {
    matches!(
        e.kind(),
        io::ErrorKind::TimedOut | io::ErrorKind::WouldBlock
    )
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
    fn only_the_servers_own_origin_is_accepted() {
        let local: SocketAddr = "127.0.0.1:8080".parse().unwrap();
        for ok in [
            "http://127.0.0.1:8080",
            "http://localhost:8080",
            "HTTP://LOCALHOST:8080",
        ] {
            assert!(origin_ok(ok, local), "{ok}");
        }
        for bad in [
            "null",
            "https://127.0.0.1:8080",
            "http://127.0.0.1:8081",
            "http://evil.example:8080",
            "http://127.0.0.1:8080/",
            "http://user@127.0.0.1:8080",
            "http://127.0.0.1",
            "",
        ] {
            assert!(!origin_ok(bad, local), "{bad}");
        }
    }

    #[test]
    fn a_content_length_is_digits_only() {
        assert_eq!(content_length("53"), Some(53));
        assert_eq!(content_length(" 0 "), Some(0));
        for bad in [
            "+53",
            "-1",
            "5 3",
            "0x10",
            "1,1",
            "",
            "१२",
            "99999999999999999999",
        ] {
            assert_eq!(content_length(bad), None, "{bad}");
        }
    }
}
