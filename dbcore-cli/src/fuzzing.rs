//! The check behind the `protocol_framing` fuzz target (`fuzz/fuzz_targets/protocol_framing.rs`),
//! kept here so that the stable test `tests/suite/fuzz_corpus.rs` replays the committed corpus in the
//! normal `cargo test`.
//!
//! Any bytes fed to the stdio door, with a small message limit and a tiny read buffer so that
//! lines straddle reads, must give one JSON-RPC 2.0 message per answer line, never a panic, an
//! I/O error or unbounded output; a request that fails to parse is answered, and the door keeps
//! reading.

use std::io::BufReader;

use crate::rpc::{Limits, Referee};
use crate::stdio;

/// Bytes of one stdio message in the check: small, so that the "too large" path is reached.
const MAX_MESSAGE: usize = 4096;

/// Feed `data` to the stdio door and check what comes out.
pub fn protocol_framing(data: &[u8]) {
    let referee = Referee::new(Limits {
        max_battles: 4,
        max_message_bytes: MAX_MESSAGE,
        ..Limits::default()
    });
    // The first byte sets the reader's buffer (1 to 64 bytes), so framing meets every split.
    let (capacity, input) = match data.split_first() {
        Some((b, rest)) => (usize::from(b % 64) + 1, rest),
        None => (1, data),
    };
    let mut reader = BufReader::with_capacity(capacity, input);
    let mut out = Vec::new();
    stdio::serve(&referee, &mut reader, &mut out).expect("reading from memory cannot fail");
    let text = std::str::from_utf8(&out).expect("the door writes UTF-8");
    let lines = input.split(|&b| b == b'\n').count();
    let mut answers = 0;
    for line in text.lines() {
        let v: serde_json::Value = serde_json::from_str(line).expect("every answer is JSON");
        assert_eq!(v["jsonrpc"], "2.0", "not a JSON-RPC 2.0 message: {line}");
        assert!(
            v.get("result").is_some() != v.get("error").is_some(),
            "an answer has exactly one of result and error: {line}"
        );
        answers += 1;
    }
    assert!(answers <= lines, "{answers} answers to {lines} lines");
}

/// The HTTP door the `http_clients` check talks to: one per process, on a loopback port of its
/// own, with small limits (4 connections, 2 from one address, a 300 ms read timeout) so that
/// inputs reach the paths that close, evict and refuse connections.
fn http_door() -> &'static std::sync::Arc<crate::http::HttpServer> {
    use std::sync::{Arc, OnceLock};
    static DOOR: OnceLock<Arc<crate::http::HttpServer>> = OnceLock::new();
    DOOR.get_or_init(|| {
        let listener =
            std::net::TcpListener::bind("127.0.0.1:0").expect("a loopback port for the check");
        let referee = Arc::new(Referee::new(Limits {
            max_battles: 4,
            max_message_bytes: MAX_MESSAGE,
            ..Limits::default()
        }));
        let cfg = crate::http::HttpConfig {
            max_connections: 4,
            max_per_address: 2,
            max_header_bytes: 1024,
            max_headers: 8,
            read_timeout: std::time::Duration::from_millis(300),
            verbose: false,
        };
        let server = crate::http::HttpServer::new(listener, referee, cfg).expect("the door");
        let run = Arc::clone(&server);
        std::thread::spawn(move || run.run());
        server
    })
}

/// One well-formed request to the door and its answer's status line.
fn http_version_status(addr: std::net::SocketAddr) -> std::io::Result<String> {
    use std::io::{Read, Write};
    let body = r#"{"jsonrpc":"2.0","id":1,"method":"version"}"#;
    let mut s = std::net::TcpStream::connect(addr)?;
    s.set_read_timeout(Some(std::time::Duration::from_secs(5)))?;
    write!(
        s,
        "POST /rpc HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )?;
    let mut answer = Vec::new();
    s.read_to_end(&mut answer)?;
    let text = String::from_utf8_lossy(&answer);
    Ok(text.lines().next().unwrap_or("").to_string())
}

/// The HTTP door with clients at once: `data` split at `0xFF` bytes into up to four clients,
/// each sending its bytes in pieces (sizes from its first byte) on its own connection at the
/// same time, a well-formed request among them now and then. Every answer is an HTTP/1.1
/// response; afterwards every slot is given back and a plain request is answered 200: no input
/// of some clients denies the door to the next.
pub fn http_clients(data: &[u8]) {
    use std::io::{Read, Write};
    let door = http_door();
    let addr = door.local_addr();
    let clients: Vec<Vec<u8>> = data
        .split(|&b| b == 0xFF)
        .take(4)
        .map(|c| {
            // A well-formed request prefix now and then, so inputs reach the referee.
            if c.first().is_some_and(|b| b % 4 == 0) {
                let mut v = format!(
                    "POST /rpc HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\n"
                )
                .into_bytes();
                v.extend_from_slice(&c[1..]);
                v
            } else {
                c.to_vec()
            }
        })
        .collect();
    let threads: Vec<_> = clients
        .into_iter()
        .map(|bytes| {
            std::thread::spawn(move || {
                let Ok(mut s) = std::net::TcpStream::connect(addr) else {
                    return;
                };
                let _ = s.set_read_timeout(Some(std::time::Duration::from_secs(3)));
                let piece = usize::from(bytes.first().copied().unwrap_or(0) % 16) + 1;
                for chunk in bytes.chunks(piece) {
                    if s.write_all(chunk).is_err() {
                        break;
                    }
                }
                let _ = s.shutdown(std::net::Shutdown::Write);
                let mut answer = Vec::new();
                let _ = s.read_to_end(&mut answer);
                if !answer.is_empty() {
                    assert!(
                        answer.starts_with(b"HTTP/1.1 "),
                        "not an HTTP/1.1 answer: {:?}",
                        String::from_utf8_lossy(&answer[..answer.len().min(80)])
                    );
                }
            })
        })
        .collect();
    for t in threads {
        t.join().expect("a client thread's answer was not HTTP");
    }
    // Every slot is given back once the clients have gone (their threads end within the read
    // timeout), then a plain request is answered.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(5);
    while door.connections() > 0 {
        assert!(
            std::time::Instant::now() < deadline,
            "{} connections still held 5 s after their clients left",
            door.connections()
        );
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    let status = http_version_status(addr).expect("the door answers after the clients");
    assert_eq!(status, "HTTP/1.1 200 OK", "after the clients: {status}");
}
