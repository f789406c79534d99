//! `battle.check` from 1, 4 and 16 concurrent clients over loopback HTTP, each client on its own
//! battle and its own kept-alive connection: requests per second (all clients together) and the
//! latency percentiles of one request, then the same beside 40 slow clients (issue #44's attack).
//! `cargo bench -p dbcore-cli --bench clients`.
//!
//! `DBCORE_BIN=/path/to/dbcore` measures another build of the program (an older one, for a
//! before/after figure); `DBCORE_BENCH_SECONDS` sets each round's length (3 by default). Plain
//! wall-clock timing: the figures are for the closing note, taken with `uptime` beside them.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Barrier};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

struct Server {
    child: Child,
    hostport: String,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn start() -> Server {
    let bin = std::env::var("DBCORE_BIN").unwrap_or_else(|_| env!("CARGO_BIN_EXE_dbcore").into());
    let mut child = Command::new(bin)
        .args(["serve", "--http", "--port", "0"])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("the program starts");
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    let url = serde_json::from_str::<Value>(&first).unwrap()["listening"]
        .as_str()
        .unwrap()
        .to_string();
    let hostport = url
        .trim_start_matches("http://")
        .trim_end_matches("/rpc")
        .to_string();
    Server { child, hostport }
}

/// One kept-alive connection.
struct Conn {
    w: TcpStream,
    r: BufReader<TcpStream>,
    hostport: String,
}

impl Conn {
    fn new(hostport: &str) -> Conn {
        let w = TcpStream::connect(hostport).unwrap();
        w.set_nodelay(true).unwrap();
        Conn {
            r: BufReader::new(w.try_clone().unwrap()),
            w,
            hostport: hostport.to_string(),
        }
    }
    fn post(&mut self, body: &str) -> String {
        self.try_post(body).expect("the server answers")
    }
    /// The answer's body, or the error that closed the connection.
    fn try_post(&mut self, body: &str) -> std::io::Result<String> {
        let req = format!(
            "POST /rpc HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
            self.hostport,
            body.len()
        );
        self.w.write_all(req.as_bytes())?;
        let mut len = 0;
        loop {
            let mut l = String::new();
            if self.r.read_line(&mut l)? == 0 {
                return Err(std::io::ErrorKind::UnexpectedEof.into());
            }
            if l == "\r\n" {
                break;
            }
            if let Some(v) = l.to_ascii_lowercase().strip_prefix("content-length:") {
                len = v.trim().parse().unwrap();
            }
        }
        let mut b = vec![0; len];
        self.r.read_exact(&mut b)?;
        Ok(String::from_utf8(b).unwrap())
    }
}

/// The server's peak resident memory so far, as Linux reports it (`VmHWM`); "?" elsewhere.
fn peak_rss(server: &Server) -> String {
    std::fs::read_to_string(format!("/proc/{}/status", server.child.id()))
        .ok()
        .and_then(|s| {
            s.lines()
                .find_map(|l| l.strip_prefix("VmHWM:"))
                .map(|v| v.trim().to_string())
        })
        .unwrap_or_else(|| "?".into())
}

/// The server's CPU time so far (user and system, in clock ticks of 10 ms), as Linux reports it
/// in `/proc/PID/stat`; `None` elsewhere.
fn server_cpu(server: &Server) -> Option<Duration> {
    let stat = std::fs::read_to_string(format!("/proc/{}/stat", server.child.id())).ok()?;
    // The fields after the command name, which is in parentheses and may hold spaces.
    let rest = &stat[stat.rfind(')')? + 2..];
    let fields: Vec<&str> = rest.split(' ').collect();
    // utime and stime are fields 14 and 15 of the whole line: 12 and 13 of what follows the name.
    let ticks: u64 = fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?;
    Some(Duration::from_millis(ticks * 10))
}

/// The server's CPU time a request, in microseconds, over a round of `requests`: "?" when it
/// cannot be read.
fn cpu_per_request(before: Option<Duration>, after: Option<Duration>, requests: usize) -> String {
    match (before, after) {
        (Some(b), Some(a)) if requests > 0 => {
            format!("{:.0}", (a - b).as_secs_f64() * 1e6 / requests as f64)
        }
        _ => "?".into(),
    }
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i.min(sorted.len() - 1)]
}

fn main() {
    let path = format!(
        "{}/../tests/golden/into_contact.json",
        env!("CARGO_MANIFEST_DIR")
    );
    let golden: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let record = &golden["record"];
    // The position after the first PIP roll: element 2 may move into contact with 102.
    let start_record = json!({ "setup": record["setup"], "actions": [record["actions"][0]] });
    let action = record["actions"][1].clone();
    let seconds: f64 = std::env::var("DBCORE_BENCH_SECONDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(3.0);
    println!(
        "battle.check over loopback HTTP, each client on its own battle ({seconds} s a round)"
    );
    println!(
        "clients   requests/s   p50 µs   p99 µs   max µs   server CPU µs a request   server peak RSS"
    );
    for clients in [1usize, 4, 16] {
        let server = start();
        // The server's CPU from when every client has made its battle (the barrier below) to
        // the end of the round.
        let barrier = Arc::new(Barrier::new(clients + 1));
        let handles: Vec<_> = (0..clients)
            .map(|_| {
                let hostport = server.hostport.clone();
                let start_record = start_record.clone();
                let action = action.clone();
                let barrier = Arc::clone(&barrier);
                std::thread::spawn(move || {
                    let mut c = Conn::new(&hostport);
                    let created = c.post(
                        &json!({"jsonrpc":"2.0","id":0,"method":"battle.import","params":{"record": start_record}})
                            .to_string(),
                    );
                    let id = serde_json::from_str::<Value>(&created).unwrap()["result"]["battle"].clone();
                    let check = json!({"jsonrpc":"2.0","id":1,"method":"battle.check","params":{"battle": id, "action": action}})
                        .to_string();
                    barrier.wait();
                    let end = Instant::now() + Duration::from_secs_f64(seconds);
                    let mut times = Vec::new();
                    while Instant::now() < end {
                        let t = Instant::now();
                        let answer = c.post(&check);
                        times.push(t.elapsed());
                        assert!(answer.contains("\"legal\":true"), "{answer}");
                    }
                    times
                })
            })
            .collect();
        barrier.wait();
        let cpu_before = server_cpu(&server);
        let mut all: Vec<Duration> = handles
            .into_iter()
            .flat_map(|h| h.join().unwrap())
            .collect();
        let cpu = cpu_per_request(cpu_before, server_cpu(&server), all.len());
        all.sort();
        let us = |d: Duration| d.as_secs_f64() * 1e6;
        println!(
            "{clients:>7}   {:>10.0}   {:>6.0}   {:>6.0}   {:>6.0}   {cpu:>23}   {}",
            all.len() as f64 / seconds,
            us(percentile(&all, 0.50)),
            us(percentile(&all, 0.99)),
            us(*all.last().unwrap()),
            peak_rss(&server),
        );
        drop(server);
    }
    slow_clients_beside(&start_record, &action, seconds);
}

/// Issue #44's attack as a load figure: 40 slow clients, each sending one header byte every
/// half second from its own connection, while 4 clients check as above. A checking client
/// whose connection the server closed (to make room, as docs/limits.md says) connects again
/// and the time lost counts in its request's latency.
fn slow_clients_beside(start_record: &Value, action: &Value, seconds: f64) {
    const SLOW: usize = 40;
    const CLIENTS: usize = 4;
    let server = start();
    let end = Instant::now() + Duration::from_secs_f64(seconds.max(3.0));
    let slow: Vec<_> = (0..SLOW)
        .map(|_| {
            let hostport = server.hostport.clone();
            std::thread::spawn(move || {
                let mut bytes = 0u64;
                let mut closed = 0u64;
                let line = b"POST /rpc HTTP/1.1\r\nHost: x\r\n";
                while Instant::now() < end {
                    let Ok(mut w) = TcpStream::connect(&hostport) else {
                        closed += 1;
                        std::thread::sleep(Duration::from_millis(500));
                        continue;
                    };
                    for b in line.iter().cycle() {
                        if Instant::now() >= end || w.write_all(&[*b]).is_err() {
                            break;
                        }
                        bytes += 1;
                        std::thread::sleep(Duration::from_millis(500));
                    }
                    closed += 1;
                }
                (bytes, closed)
            })
        })
        .collect();
    // Let the slow clients take their slots first.
    std::thread::sleep(Duration::from_millis(200));
    let checking: Vec<_> = (0..CLIENTS)
        .map(|_| {
            let hostport = server.hostport.clone();
            let start_record = start_record.clone();
            let action = action.clone();
            std::thread::spawn(move || {
                let import = json!({"jsonrpc":"2.0","id":0,"method":"battle.import","params":{"record": start_record}}).to_string();
                let mut times = Vec::new();
                let mut reconnects = 0u64;
                let mut c = Conn::new(&hostport);
                let id = serde_json::from_str::<Value>(&c.post(&import)).unwrap()["result"]["battle"].clone();
                let check = json!({"jsonrpc":"2.0","id":1,"method":"battle.check","params":{"battle": id, "action": action}}).to_string();
                while Instant::now() < end {
                    let t = Instant::now();
                    let answer = loop {
                        match c.try_post(&check) {
                            Ok(a) => break a,
                            Err(_) => {
                                reconnects += 1;
                                c = Conn::new(&hostport);
                            }
                        }
                    };
                    times.push(t.elapsed());
                    assert!(answer.contains("\"legal\":true"), "{answer}");
                }
                (times, reconnects)
            })
        })
        .collect();
    let mut all = Vec::new();
    let mut reconnects = 0;
    for h in checking {
        let (t, r) = h.join().unwrap();
        all.extend(t);
        reconnects += r;
    }
    let (mut bytes, mut closed) = (0, 0);
    for h in slow {
        let (b, c) = h.join().unwrap();
        bytes += b;
        closed += c;
    }
    all.sort();
    let us = |d: Duration| d.as_secs_f64() * 1e6;
    println!(
        "{CLIENTS} clients beside {SLOW} slow ones: {:.0} requests/s, p50 {:.0} µs, p99 {:.0} µs, \
         max {:.0} µs, {reconnects} reconnections; the slow clients sent {bytes} bytes and lost \
         {closed} connections; server peak RSS {}",
        all.len() as f64 / seconds.max(3.0),
        us(percentile(&all, 0.50)),
        us(percentile(&all, 0.99)),
        us(*all.last().unwrap()),
        peak_rss(&server),
    );
}
