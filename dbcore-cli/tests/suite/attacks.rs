//! The server survives its requests (issue #44), each attack bounded to a few seconds: a request
//! that panics (the referee's test method `test.panic`) answers an internal error, closes only
//! its battle and gives its HTTP slot back; a busy battle holds up nobody else; slow clients lose
//! their slots to new ones; duplicate and signed headers are refused, the server's own origin
//! accepted; size limits come before naming.
//!
//! The HTTP servers here run in this process (`HttpServer`), with the test methods turned on and
//! small limits, so that their slots can be counted.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::Arc;
use std::time::{Duration, Instant};

use dbcore_cli::http::{HttpConfig, HttpServer};
use dbcore_cli::rpc::*;
use serde_json::{json, Value};

/// A server in this process, accepting on a thread of its own.
fn serve(referee: Referee, cfg: HttpConfig) -> Arc<HttpServer> {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let server = HttpServer::new(listener, Arc::new(referee), cfg).unwrap();
    let accepting = Arc::clone(&server);
    std::thread::spawn(move || accepting.run());
    server
}

fn port(server: &HttpServer) -> u16 {
    server.local_addr().port()
}

fn connect(port: u16) -> TcpStream {
    let s = TcpStream::connect(("127.0.0.1", port)).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    s
}

/// One HTTP response: its status and body.
fn response(s: &mut TcpStream) -> (u16, String) {
    let mut r = BufReader::new(s);
    let mut line = String::new();
    r.read_line(&mut line).unwrap();
    let status = line
        .split(' ')
        .nth(1)
        .unwrap_or_else(|| panic!("no status line: {line:?}"))
        .parse()
        .unwrap();
    let mut len = 0;
    loop {
        let mut h = String::new();
        r.read_line(&mut h).unwrap();
        if h.trim().is_empty() {
            break;
        }
        if let Some(v) = h.to_ascii_lowercase().strip_prefix("content-length:") {
            len = v.trim().parse().unwrap();
        }
    }
    let mut body = vec![0; len];
    r.read_exact(&mut body).unwrap();
    (status, String::from_utf8(body).unwrap())
}

/// Send `bytes` on a new connection and read the answer.
fn raw(port: u16, bytes: &[u8]) -> (u16, String) {
    let mut s = connect(port);
    s.write_all(bytes).unwrap();
    response(&mut s)
}

fn post_request(port: u16, body: &str, close: bool) -> Vec<u8> {
    format!(
        "POST /rpc HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n{}\r\n{body}",
        body.len(),
        if close { "Connection: close\r\n" } else { "" }
    )
    .into_bytes()
}

/// One JSON-RPC call on a new connection: the JSON answer.
fn rpc(port: u16, method: &str, params: Value) -> Value {
    let body = json!({ "jsonrpc": "2.0", "id": 1, "method": method, "params": params }).to_string();
    let (status, text) = raw(port, &post_request(port, &body, true));
    assert_eq!(status, 200, "{text}");
    serde_json::from_str(&text).unwrap()
}

/// Wait (at most `within`) until `f` holds.
fn eventually(within: Duration, f: impl Fn() -> bool) -> bool {
    let end = Instant::now() + within;
    while Instant::now() < end {
        if f() {
            return true;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    f()
}

fn quick() -> HttpConfig {
    HttpConfig {
        max_connections: 4,
        max_per_address: 4,
        read_timeout: Duration::from_millis(1000),
        ..HttpConfig::default()
    }
}

fn call(r: &Referee, method: &str, params: Value) -> Value {
    let req = json!({ "jsonrpc": "2.0", "id": 1, "method": method, "params": params });
    serde_json::from_str(&r.handle_text(&req.to_string()).unwrap()).unwrap()
}

#[test]
fn a_request_that_panics_closes_its_battle_and_every_other_goes_on() {
    let r = Referee::default().with_test_methods();
    let a = call(&r, "battle.create", json!({ "demo": "battle" }))["result"]["battle"].clone();
    let b = call(&r, "battle.create", json!({ "demo": "battle" }))["result"]["battle"].clone();
    call(
        &r,
        "battle.play",
        json!({ "battle": b, "revision": 0, "text": "pips 3" }),
    );
    let v = call(&r, "test.panic", json!({ "battle": a }));
    assert_eq!(v["error"]["code"], INTERNAL_ERROR, "{v}");
    assert_eq!(v["error"]["data"]["closed"], a);
    assert!(v["error"]["data"]["panic"]
        .as_str()
        .unwrap()
        .contains("test.panic"));
    assert_eq!(v["id"], 1);
    // Its battle is gone; the other one is where it was and plays on.
    let gone = call(&r, "battle.state", json!({ "battle": a }));
    assert_eq!(gone["error"]["code"], UNKNOWN_BATTLE);
    assert_eq!(r.battles(), 1);
    let on = call(&r, "battle.info", json!({ "battle": b }));
    assert_eq!(on["result"]["revision"], 1);
    // A panic outside any battle closes none.
    let v = call(&r, "test.panic", json!({}));
    assert_eq!(v["error"]["code"], INTERNAL_ERROR);
    assert_eq!(v["error"]["data"]["closed"], Value::Null);
    // The program never turns the test methods on.
    let plain = Referee::default();
    assert_eq!(
        call(&plain, "test.panic", json!({}))["error"]["code"],
        METHOD_NOT_FOUND
    );
}

#[test]
fn the_stdio_door_keeps_serving_after_a_panic() {
    let r = Referee::default().with_test_methods();
    let input = concat!(
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"battle.create\",\"params\":{\"demo\":\"battle\"}}\n",
        "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"test.panic\",\"params\":{\"battle\":\"b1\"}}\n",
        "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"battle.state\",\"params\":{\"battle\":\"b1\"}}\n",
        "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"hello\"}\n",
    );
    let mut out = Vec::new();
    dbcore_cli::stdio::serve(&r, &mut input.as_bytes(), &mut out).unwrap();
    let lines: Vec<Value> = String::from_utf8(out)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 4);
    assert_eq!(lines[1]["error"]["code"], INTERNAL_ERROR);
    assert_eq!(lines[2]["error"]["code"], UNKNOWN_BATTLE);
    assert_eq!(lines[3]["result"]["protocol"], 1);
}

#[test]
fn panics_over_http_are_answered_and_every_slot_is_given_back() {
    let server = serve(Referee::default().with_test_methods(), quick());
    let p = port(&server);
    // More panics than there are slots, kept-alive and closed connections alike.
    for i in 0..10 {
        let body = json!({ "jsonrpc": "2.0", "id": i, "method": "test.panic" }).to_string();
        let (status, text) = raw(p, &post_request(p, &body, i % 2 == 0));
        assert_eq!(status, 200);
        let v: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(v["error"]["code"], INTERNAL_ERROR, "{v}");
    }
    let created = rpc(p, "battle.create", json!({ "demo": "battle" }));
    let id = created["result"]["battle"].clone();
    let v = rpc(p, "test.panic", json!({ "battle": id }));
    assert_eq!(v["error"]["data"]["closed"], id);
    assert!(
        eventually(Duration::from_secs(3), || server.connections() == 0),
        "{} connections still held",
        server.connections()
    );
    assert_eq!(rpc(p, "hello", json!({}))["result"]["protocol"], 1);
}

#[test]
fn requests_on_other_battles_go_on_while_one_battle_is_busy() {
    let limits = Limits {
        busy_wait: Duration::from_millis(300),
        ..Limits::default()
    };
    let cfg = HttpConfig {
        max_connections: 16,
        max_per_address: 16,
        ..quick()
    };
    let server = serve(Referee::new(limits).with_test_methods(), cfg);
    let p = port(&server);
    let battles: Vec<Value> = (0..5)
        .map(|_| rpc(p, "battle.create", json!({ "demo": "battle" }))["result"]["battle"].clone())
        .collect();
    // Battle 0 is held by a slow request for 2.5 s.
    let busy = battles[0].clone();
    let sleeper = std::thread::spawn(move || {
        let t = Instant::now();
        let v = rpc(p, "test.sleep", json!({ "battle": busy, "ms": 2500 }));
        assert_eq!(v["result"]["slept_ms"], 2500);
        t.elapsed()
    });
    std::thread::sleep(Duration::from_millis(200));
    let start = Instant::now();
    // Four clients play on the other battles meanwhile, each on its own kept-alive connection.
    let clients: Vec<_> = battles[1..]
        .iter()
        .cloned()
        .map(|id| {
            std::thread::spawn(move || {
                let mut s = connect(p);
                for _ in 0..20 {
                    let body = json!({ "jsonrpc": "2.0", "id": 1, "method": "battle.check",
                        "params": { "battle": id, "action": { "action": "roll_pips", "die": 4 } } })
                    .to_string();
                    s.write_all(&post_request(p, &body, false)).unwrap();
                    let (status, text) = response(&mut s);
                    assert_eq!(status, 200);
                    assert!(text.contains("\"legal\":true"), "{text}");
                }
                Instant::now()
            })
        })
        .collect();
    // A request on the busy battle waits its turn for at most the busy wait, then is told.
    let waited = Instant::now();
    let v = rpc(p, "battle.state", json!({ "battle": battles[0] }));
    assert_eq!(v["error"]["code"], BATTLE_BUSY, "{v}");
    assert!(waited.elapsed() >= Duration::from_millis(300));
    let done: Vec<Instant> = clients.into_iter().map(|c| c.join().unwrap()).collect();
    let slept = sleeper.join().unwrap();
    for d in done {
        assert!(
            d.duration_since(start) < slept,
            "the other battles waited for the busy one"
        );
    }
    // Given back, the busy battle answers again.
    let v = rpc(p, "battle.state", json!({ "battle": battles[0] }));
    assert_eq!(v["result"]["revision"], 0);
}

#[test]
fn slow_clients_lose_their_slots_to_new_ones() {
    // The attack: as many clients as there are slots, each sending one header byte at a time.
    let server = serve(Referee::default(), quick());
    let p = port(&server);
    let stop = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let slow: Vec<_> = (0..4)
        .map(|_| {
            let stop = Arc::clone(&stop);
            std::thread::spawn(move || {
                let mut s = connect(p);
                s.set_read_timeout(Some(Duration::from_millis(50))).unwrap();
                let head = format!("GET /health HTTP/1.1\r\nHost: 127.0.0.1:{p}\r\n");
                for b in head.bytes().cycle() {
                    if stop.load(std::sync::atomic::Ordering::Relaxed) || s.write_all(&[b]).is_err()
                    {
                        break;
                    }
                    std::thread::sleep(Duration::from_millis(100));
                }
            })
        })
        .collect();
    std::thread::sleep(Duration::from_millis(300));
    // Every probe is served at once, each taking the slot of the slow client waiting longest.
    for _ in 0..8 {
        let t = Instant::now();
        let (status, _) = raw(
            p,
            format!("GET /health HTTP/1.1\r\nHost: 127.0.0.1:{p}\r\nConnection: close\r\n\r\n")
                .as_bytes(),
        );
        assert_eq!(status, 200);
        assert!(
            t.elapsed() < Duration::from_millis(900),
            "{:?}",
            t.elapsed()
        );
    }
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    for s in slow {
        s.join().unwrap();
    }
    // A slow client alone is answered 408 at the read timeout, and its slot is given back.
    let mut s = connect(p);
    s.write_all(b"POST /rpc HTTP/1.1\r\n").unwrap();
    let t = Instant::now();
    let (status, _) = response(&mut s);
    assert_eq!(status, 408);
    assert!(t.elapsed() < Duration::from_secs(3));
    drop(s);
    assert!(eventually(Duration::from_secs(3), || server.connections() == 0));
}

#[test]
fn connections_beyond_the_cap_of_an_address_are_refused_only_when_all_are_busy() {
    let limits = Limits {
        busy_wait: Duration::from_millis(100),
        ..Limits::default()
    };
    let cfg = HttpConfig {
        max_connections: 8,
        max_per_address: 2,
        ..quick()
    };
    let server = serve(Referee::new(limits).with_test_methods(), cfg);
    let p = port(&server);
    // Two requests busy for a while hold this address's two slots: a third client is refused.
    let sleepers: Vec<_> = (0..2)
        .map(|_| std::thread::spawn(move || rpc(p, "test.sleep", json!({ "ms": 1200 }))))
        .collect();
    std::thread::sleep(Duration::from_millis(300));
    let (status, text) = raw(
        p,
        format!("GET /health HTTP/1.1\r\nHost: 127.0.0.1:{p}\r\n\r\n").as_bytes(),
    );
    assert_eq!(status, 503, "{text}");
    assert!(text.contains("max_per_address"), "{text}");
    for s in sleepers {
        assert_eq!(s.join().unwrap()["result"]["slept_ms"], 1200);
    }
    let (status, _) = raw(
        p,
        format!("GET /health HTTP/1.1\r\nHost: 127.0.0.1:{p}\r\n\r\n").as_bytes(),
    );
    assert_eq!(status, 200);
}

#[test]
fn duplicate_and_signed_headers_are_refused_and_the_servers_own_origin_accepted() {
    let server = serve(Referee::default(), quick());
    let p = port(&server);
    let hello = r#"{"jsonrpc":"2.0","id":1,"method":"hello"}"#;
    let n = hello.len();
    let request = |headers: String| {
        format!("POST /rpc HTTP/1.1\r\n{headers}\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n{hello}")
            .into_bytes()
    };
    let host = format!("Host: 127.0.0.1:{p}");
    let cases: Vec<(&str, String, u16)> = vec![
        ("two Hosts", format!("{host}\r\nHost: 127.0.0.1:{p}\r\nContent-Length: {n}"), 400),
        ("two Hosts, one foreign", format!("{host}\r\nHost: evil.example:{p}\r\nContent-Length: {n}"), 400),
        ("two lengths", format!("{host}\r\nContent-Length: {n}\r\nContent-Length: {n}"), 400),
        ("two lengths that differ", format!("{host}\r\nContent-Length: {n}\r\nContent-Length: 5"), 400),
        ("a signed length", format!("{host}\r\nContent-Length: +{n}"), 400),
        ("a negative length", format!("{host}\r\nContent-Length: -1"), 400),
        ("a hex length", format!("{host}\r\nContent-Length: 0x{n:x}"), 400),
        ("a list of lengths", format!("{host}\r\nContent-Length: {n}, {n}"), 400),
        ("a foreign origin", format!("{host}\r\nOrigin: http://evil.example\r\nContent-Length: {n}"), 403),
        ("another port's origin", format!("{host}\r\nOrigin: http://127.0.0.1:1\r\nContent-Length: {n}"), 403),
        ("a null origin", format!("{host}\r\nOrigin: null\r\nContent-Length: {n}"), 403),
        ("two origins", format!("{host}\r\nOrigin: http://127.0.0.1:{p}\r\nOrigin: http://evil.example\r\nContent-Length: {n}"), 400),
        ("its own origin", format!("{host}\r\nOrigin: http://127.0.0.1:{p}\r\nContent-Length: {n}"), 200),
        ("its own origin by name", format!("{host}\r\nOrigin: http://localhost:{p}\r\nContent-Length: {n}"), 200),
        ("a length with spaces around", format!("{host}\r\nContent-Length:  {n} "), 200),
    ];
    for (what, headers, want) in cases {
        let (status, body) = raw(p, &request(headers));
        assert_eq!(status, want, "{what}: {body}");
        if want == 200 {
            let v: Value = serde_json::from_str(&body).unwrap();
            assert_eq!(v["result"]["protocol"], 1, "{what}");
        }
    }
    assert!(eventually(Duration::from_secs(3), || server.connections() == 0));
}

#[test]
fn size_limits_come_before_naming_and_names_are_bounded() {
    let r = Referee::default();
    // 60,000 named elements (about 1 MiB): refused by their count before any is named.
    let element = |i: usize| json!({ "id": format!("e{i}"), "kind": "4Bd" });
    let setup = json!({
        "format": "dbcore-battle", "version": 1, "variant": "standard",
        "battlefield": { "board": { "width": 15.0, "depth": 15.0 }, "features": [] },
        "armies": [
            { "name": "a", "base_edge": "south", "elements": (0..30_000).map(element).collect::<Vec<_>>() },
            { "name": "b", "base_edge": "north", "elements": (30_000..60_000).map(element).collect::<Vec<_>>() },
        ],
    });
    let text = json!({ "jsonrpc": "2.0", "id": 1, "method": "battle.create", "params": { "setup": setup } })
        .to_string();
    assert!(text.len() < 2 << 20, "{}", text.len());
    let t = Instant::now();
    let v: Value = serde_json::from_str(&r.handle_text(&text).unwrap()).unwrap();
    assert_eq!(v["error"]["code"], RULE_REFUSAL, "{v}");
    assert_eq!(v["error"]["data"]["code"], 400);
    assert!(
        v["error"]["message"]
            .as_str()
            .unwrap()
            .contains("at most 2000"),
        "{v}"
    );
    assert!(t.elapsed() < Duration::from_secs(5), "{:?}", t.elapsed());
    // A name longer than MAX_NAME_BYTES is refused with its pointer.
    let mut setup = serde_json::from_str::<Value>(
        &std::fs::read_to_string(format!(
            "{}/../tests/golden/into_contact.json",
            env!("CARGO_MANIFEST_DIR")
        ))
        .unwrap(),
    )
    .unwrap()["record"]["setup"]
        .clone();
    setup["armies"][0]["elements"][0]["id"] = "x".repeat(dbcore::limits::MAX_NAME_BYTES + 1).into();
    let v = call(&r, "battle.create", json!({ "setup": setup }));
    assert_eq!(v["error"]["code"], INVALID_PARAMS, "{v}");
    assert_eq!(
        v["error"]["data"]["pointer"],
        "/params/setup/armies/0/elements/0/id"
    );
    assert!(v["error"]["message"].as_str().unwrap().len() < 200);
    setup["armies"][0]["elements"][0]["id"] = "x".repeat(dbcore::limits::MAX_NAME_BYTES).into();
    let v = call(&r, "battle.create", json!({ "setup": setup }));
    assert!(v.get("result").is_some(), "{v}");
    // Caller text quoted back is cut short: a long battle id, method name or element name.
    let long = "b".repeat(100_000);
    for (method, params) in [
        ("battle.state", json!({ "battle": long })),
        (long.as_str(), json!({})),
        (
            "battle.reach",
            json!({ "battle": v["result"]["battle"], "element": long }),
        ),
    ] {
        let e = call(&r, method, params);
        let text = e["error"].to_string();
        assert!(text.len() < 4096, "{method:.20}: {} bytes", text.len());
    }
}
