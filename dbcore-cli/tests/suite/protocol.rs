//! The two doors of the referee, over real pipes and sockets: the golden transcript
//! (`tests/protocol/session.*.jsonl`) replays byte for byte over stdio and over HTTP; malformed,
//! truncated, oversized, wrong-Host and Origin requests get the right answer and the server goes
//! on serving; concurrent clients; a revision conflict; a killed client.
//!
//! `DBCORE_BLESS=1 cargo test -p dbcore-cli --test suite protocol::` rewrites the transcript's responses
//! from the stdio door (review the diff).

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use serde_json::{json, Value};

use crate::support;

fn bin() -> &'static str {
    env!("CARGO_BIN_EXE_dbcore")
}

fn protocol_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/protocol")
}

fn requests() -> Vec<String> {
    std::fs::read_to_string(protocol_dir().join("session.requests.jsonl"))
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect()
}

/// Run `dbcore serve --stdio` over `input`, returning stdout's lines.
fn stdio(args: &[&str], input: &[u8]) -> (Vec<String>, std::process::ExitStatus) {
    let mut child = Command::new(bin())
        .args(["serve", "--stdio"])
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let input = input.to_vec();
    let writer = std::thread::spawn(move || {
        stdin.write_all(&input).unwrap();
    });
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    let text = String::from_utf8(out.stdout).expect("stdout is UTF-8");
    (text.lines().map(str::to_string).collect(), out.status)
}

/// Every stdout line is one JSON-RPC 2.0 response.
fn assert_rpc_lines(lines: &[String]) {
    for l in lines {
        let v: Value = serde_json::from_str(l).unwrap_or_else(|e| panic!("{l}: {e}"));
        assert_eq!(v["jsonrpc"], "2.0", "{l}");
        assert!(v.get("id").is_some(), "{l}");
        assert!(v.get("result").is_some() != v.get("error").is_some(), "{l}");
    }
}

#[test]
fn the_transcript_replays_over_stdio() {
    let input = requests().join("\n") + "\n";
    let (lines, status) = stdio(&[], input.as_bytes());
    assert!(status.success());
    assert_rpc_lines(&lines);
    let path = protocol_dir().join("session.responses.jsonl");
    let got = lines.join("\n") + "\n";
    if std::env::var_os("DBCORE_BLESS").is_some() {
        std::fs::write(&path, &got).unwrap();
    }
    let want = std::fs::read_to_string(&path).unwrap();
    assert_eq!(got, want, "stdio answers differ from {}", path.display());
}

/// A running `dbcore serve --http`, killed when dropped.
struct Server {
    child: Child,
    port: u16,
}

impl Server {
    fn start(args: &[&str]) -> Server {
        let mut child = Command::new(bin())
            .args(["serve", "--http", "--port", "0"])
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let v: Value = serde_json::from_str(&line).unwrap();
        let url = v["listening"].as_str().unwrap();
        let port = url
            .trim_start_matches("http://127.0.0.1:")
            .trim_end_matches("/rpc")
            .parse()
            .unwrap();
        Server { child, port }
    }
    fn connect(&self) -> TcpStream {
        let s = TcpStream::connect(("127.0.0.1", self.port)).unwrap();
        s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
        s
    }
    fn host(&self) -> String {
        format!("127.0.0.1:{}", self.port)
    }
    /// POST one body on a fresh connection.
    fn post(&self, body: &str) -> Response {
        let mut s = self.connect();
        let req = format!(
            "POST /rpc HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
            self.host(),
            body.len()
        );
        s.write_all(req.as_bytes()).unwrap();
        read_response(&mut s)
    }
    fn raw(&self, bytes: &[u8]) -> Response {
        let mut s = self.connect();
        s.write_all(bytes).unwrap();
        read_response(&mut s)
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[derive(Debug)]
struct Response {
    status: u16,
    headers: Vec<(String, String)>,
    body: String,
}

fn read_response(s: &mut TcpStream) -> Response {
    let mut r = BufReader::new(s);
    let mut status_line = String::new();
    r.read_line(&mut status_line).unwrap();
    let status = status_line
        .split(' ')
        .nth(1)
        .unwrap_or_else(|| panic!("status line {status_line:?}"))
        .parse()
        .unwrap();
    let mut headers = Vec::new();
    loop {
        let mut l = String::new();
        r.read_line(&mut l).unwrap();
        let l = l.trim_end();
        if l.is_empty() {
            break;
        }
        let (n, v) = l.split_once(':').unwrap();
        headers.push((n.to_ascii_lowercase(), v.trim().to_string()));
    }
    let len: usize = headers
        .iter()
        .find(|(n, _)| n == "content-length")
        .map_or(0, |(_, v)| v.parse().unwrap());
    let mut body = vec![0; len];
    r.read_exact(&mut body).unwrap();
    Response {
        status,
        headers,
        body: String::from_utf8(body).unwrap(),
    }
}

#[test]
fn the_same_transcript_replays_over_http_byte_for_byte() {
    let server = Server::start(&[]);
    let want: Vec<String> = std::fs::read_to_string(protocol_dir().join("session.responses.jsonl"))
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect();
    let mut got = Vec::new();
    for req in requests() {
        let r = server.post(&req);
        if r.status == 204 {
            continue; // a notification
        }
        assert_eq!(r.status, 200, "{req}");
        assert!(
            !r.headers
                .iter()
                .any(|(n, _)| n.starts_with("access-control")),
            "no CORS headers"
        );
        got.push(r.body);
    }
    assert_eq!(got, want);
}

#[test]
fn one_keep_alive_connection_carries_many_requests() {
    let server = Server::start(&[]);
    let mut s = server.connect();
    for i in 0..5 {
        let body = format!(r#"{{"jsonrpc":"2.0","id":{i},"method":"hello"}}"#);
        let req = format!(
            "POST /rpc HTTP/1.1\r\nHost: localhost:{}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: {}\r\n\r\n{body}",
            server.port,
            body.len()
        );
        s.write_all(req.as_bytes()).unwrap();
        let r = read_response(&mut s);
        assert_eq!(r.status, 200);
        let v: Value = serde_json::from_str(&r.body).unwrap();
        assert_eq!(v["id"], i);
    }
}

#[test]
fn bad_http_requests_are_refused_and_the_server_keeps_serving() {
    let server = Server::start(&["--max-message-bytes", "4096"]);
    let host = server.host();
    let hello = r#"{"jsonrpc":"2.0","id":1,"method":"hello"}"#;
    let post = |headers: &str, body: &str| {
        format!("POST /rpc HTTP/1.1\r\n{headers}\r\n\r\n{body}").into_bytes()
    };
    let cases: Vec<(&str, Vec<u8>, u16)> = vec![
        ("malformed request line", b"HELLO\r\n\r\n".to_vec(), 400),
        (
            "wrong Host",
            post(
                &format!("Host: evil.example:{}\r\nContent-Type: application/json\r\nContent-Length: {}", server.port, hello.len()),
                hello,
            ),
            403,
        ),
        (
            "Host with another port",
            post(
                &format!("Host: 127.0.0.1:1\r\nContent-Type: application/json\r\nContent-Length: {}", hello.len()),
                hello,
            ),
            403,
        ),
        (
            "no Host",
            post(&format!("Content-Type: application/json\r\nContent-Length: {}", hello.len()), hello),
            403,
        ),
        (
            "an Origin",
            post(
                &format!("Host: {host}\r\nOrigin: http://evil.example\r\nContent-Type: application/json\r\nContent-Length: {}", hello.len()),
                hello,
            ),
            403,
        ),
        (
            "not JSON",
            post(&format!("Host: {host}\r\nContent-Type: text/plain\r\nContent-Length: {}", hello.len()), hello),
            415,
        ),
        ("no length", post(&format!("Host: {host}\r\nContent-Type: application/json"), hello), 411),
        (
            "chunked",
            post(&format!("Host: {host}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked"), "0\r\n\r\n"),
            411,
        ),
        (
            "too large",
            post(&format!("Host: {host}\r\nContent-Type: application/json\r\nContent-Length: 5000"), ""),
            413,
        ),
        (
            "huge head",
            format!("GET /health HTTP/1.1\r\nHost: {host}\r\nX-Pad: {}\r\n\r\n", "a".repeat(9000)).into_bytes(),
            431,
        ),
        ("wrong path", format!("GET /admin HTTP/1.1\r\nHost: {host}\r\n\r\n").into_bytes(), 404),
        ("wrong method", format!("GET /rpc HTTP/1.1\r\nHost: {host}\r\n\r\n").into_bytes(), 405),
    ];
    for (what, bytes, status) in cases {
        let r = server.raw(&bytes);
        assert_eq!(r.status, status, "{what}: {}", r.body);
        assert!(
            serde_json::from_str::<Value>(&r.body).is_ok(),
            "{what}: {}",
            r.body
        );
        // Still serving.
        assert_eq!(server.post(hello).status, 200, "after {what}");
    }
    // A JSON-RPC fault inside a good HTTP request is a 200 with the JSON-RPC error.
    let r = server.post("{not json");
    assert_eq!(r.status, 200);
    let v: Value = serde_json::from_str(&r.body).unwrap();
    assert_eq!(v["error"]["code"], -32700);
    // A truncated body: the client sends half and hangs up.
    let mut s = server.connect();
    s.write_all(
        format!("POST /rpc HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{{\"jsonrpc\"").as_bytes(),
    )
    .unwrap();
    drop(s);
    let r = server.raw(format!("GET /health HTTP/1.1\r\nHost: {host}\r\n\r\n").as_bytes());
    assert_eq!(r.status, 200);
    assert_eq!(
        serde_json::from_str::<Value>(&r.body).unwrap()["status"],
        "ok"
    );
}

#[test]
fn a_slow_request_times_out_and_idle_connections_make_room_for_a_new_client() {
    let server = Server::start(&["--read-timeout-ms", "1500", "--max-connections", "2"]);
    let host = server.host();
    let mut slow = server.connect();
    slow.write_all(b"POST /rpc HTTP/1.1\r\n").unwrap();
    let r = read_response(&mut slow);
    assert_eq!(r.status, 408);
    drop(slow);
    // Two idle connections hold both places; a third client is served at once, the connection
    // that has waited longest being closed to make room.
    let mut a = server.connect();
    std::thread::sleep(Duration::from_millis(50));
    let _b = server.connect();
    std::thread::sleep(Duration::from_millis(100));
    let r = server.raw(format!("GET /health HTTP/1.1\r\nHost: {host}\r\n\r\n").as_bytes());
    assert_eq!(r.status, 200);
    let mut rest = Vec::new();
    assert_eq!(
        a.read_to_end(&mut rest).unwrap_or(0),
        0,
        "the oldest was closed"
    );
}

fn golden_record() -> Value {
    let path = format!(
        "{}/../tests/golden/into_contact.json",
        env!("CARGO_MANIFEST_DIR")
    );
    let v: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    v["record"].clone()
}

fn rpc(server: &Server, method: &str, params: Value) -> Value {
    let body = json!({ "jsonrpc": "2.0", "id": 1, "method": method, "params": params }).to_string();
    let r = server.post(&body);
    assert_eq!(r.status, 200);
    let v: Value = serde_json::from_str(&r.body).unwrap();
    support::assert_exchange(&serde_json::from_str(&body).unwrap(), &v);
    v
}

#[test]
fn concurrent_clients_play_separate_battles_and_a_revision_conflict_is_caught() {
    let server = std::sync::Arc::new(Server::start(&[]));
    let record = golden_record();
    let handles: Vec<_> = (0..4)
        .map(|_| {
            let server = server.clone();
            let record = record.clone();
            std::thread::spawn(move || {
                let c = rpc(
                    &server,
                    "battle.create",
                    json!({ "setup": record["setup"] }),
                );
                let id = c["result"]["battle"].clone();
                for (i, a) in record["actions"].as_array().unwrap().iter().enumerate() {
                    let r = rpc(
                        &server,
                        "battle.apply",
                        json!({ "battle": id, "revision": i, "action": a }),
                    );
                    assert!(r.get("result").is_some(), "{r}");
                }
                rpc(&server, "battle.export", json!({ "battle": id }))["result"]["record"].clone()
            })
        })
        .collect();
    for h in handles {
        assert_eq!(support::battle_of(&h.join().unwrap()), record);
    }
    // Two clients at revision 0 of one battle: the second is told it is stale.
    let c = rpc(
        &server,
        "battle.create",
        json!({ "setup": record["setup"] }),
    );
    let id = c["result"]["battle"].clone();
    let first = rpc(
        &server,
        "battle.apply",
        json!({ "battle": id, "revision": 0, "action": { "action": "roll_pips", "die": 3 } }),
    );
    assert!(first.get("result").is_some());
    let second = rpc(
        &server,
        "battle.apply",
        json!({ "battle": id, "revision": 0, "action": { "action": "roll_pips", "die": 5 } }),
    );
    assert_eq!(second["error"]["code"], -32002);
    assert_eq!(second["error"]["data"]["revision"], 1);
}

#[test]
fn a_killed_client_leaves_the_http_server_serving_and_ends_the_stdio_server() {
    let server = Server::start(&[]);
    for _ in 0..3 {
        let mut s = server.connect();
        s.write_all(b"POST /rpc HTTP/1.1\r\nHost: 127.0.0.1:1")
            .unwrap();
        drop(s);
    }
    let r = rpc(&server, "hello", json!({}));
    assert_eq!(r["result"]["protocol"], 1);
    // The stdio door exits cleanly at end of input, even mid-line.
    let (lines, status) = stdio(
        &[],
        br#"{"jsonrpc":"2.0","id":1,"method":"hello"}
{"jsonrpc":"2.0","id":2,"met"#,
    );
    assert!(status.success());
    assert_eq!(lines.len(), 2);
    assert_rpc_lines(&lines);
}

#[test]
fn stdio_answers_every_bad_line_and_resynchronises_after_an_oversized_one() {
    let big = format!(
        r#"{{"jsonrpc":"2.0","id":9,"method":"hello","params":{{"pad":"{}"}}}}"#,
        "x".repeat(5000)
    );
    let mut input = Vec::new();
    input.extend_from_slice(b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"hello\"}\n");
    input.extend_from_slice(big.as_bytes());
    input.push(b'\n');
    input.extend_from_slice(b"\xff\xfe\n");
    input.extend_from_slice(b"{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"hello\"}\r\n");
    input.extend_from_slice(b"{\"truncated\":\n");
    input.extend_from_slice(b"{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"hello\"}\n");
    let (lines, status) = stdio(&["--max-message-bytes", "1000"], &input);
    assert!(status.success());
    assert_rpc_lines(&lines);
    let v: Vec<Value> = lines
        .iter()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(v.len(), 6);
    assert_eq!(v[0]["id"], 1);
    assert_eq!(v[1]["error"]["code"], -32005);
    assert_eq!(v[1]["error"]["data"]["limit"], 1000);
    assert_eq!(v[2]["error"]["code"], -32700);
    assert_eq!(v[3]["id"], 2);
    assert_eq!(v[4]["error"]["code"], -32700);
    assert_eq!(v[5]["id"], 3);
}

#[test]
fn the_http_door_refuses_to_bind_beyond_loopback_without_the_flag() {
    let out = Command::new(bin())
        .args(["serve", "--http", "--port", "0", "--bind", "0.0.0.0"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(out.stdout.is_empty());
    assert!(String::from_utf8_lossy(&out.stderr).contains("--allow-remote"));
}

#[test]
fn health_answers_while_the_referee_runs() {
    let server = Server::start(&[]);
    let r = server.raw(
        format!(
            "GET /health HTTP/1.1\r\nHost: localhost:{}\r\n\r\n",
            server.port
        )
        .as_bytes(),
    );
    assert_eq!(r.status, 200);
    assert_eq!(
        r.headers
            .iter()
            .find(|(n, _)| n == "content-type")
            .map(|(_, v)| v.as_str()),
        Some("application/json")
    );
}
