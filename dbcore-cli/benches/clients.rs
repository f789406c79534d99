//! `battle.check` from 1, 4 and 16 concurrent clients over loopback HTTP, each client on its own
//! battle and its own kept-alive connection: requests per second (all clients together) and the
//! latency percentiles of one request. `cargo bench -p dbcore-cli --bench clients`.
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
        let req = format!(
            "POST /rpc HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
            self.hostport,
            body.len()
        );
        self.w.write_all(req.as_bytes()).unwrap();
        let mut len = 0;
        loop {
            let mut l = String::new();
            self.r.read_line(&mut l).unwrap();
            if l == "\r\n" {
                break;
            }
            if let Some(v) = l.to_ascii_lowercase().strip_prefix("content-length:") {
                len = v.trim().parse().unwrap();
            }
        }
        let mut b = vec![0; len];
        self.r.read_exact(&mut b).unwrap();
        String::from_utf8(b).unwrap()
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
    println!("clients   requests/s   p50 µs   p99 µs   max µs");
    for clients in [1usize, 4, 16] {
        let server = start();
        let barrier = Arc::new(Barrier::new(clients));
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
        let mut all: Vec<Duration> = handles
            .into_iter()
            .flat_map(|h| h.join().unwrap())
            .collect();
        all.sort();
        let us = |d: Duration| d.as_secs_f64() * 1e6;
        println!(
            "{clients:>7}   {:>10.0}   {:>6.0}   {:>6.0}   {:>6.0}",
            all.len() as f64 / seconds,
            us(percentile(&all, 0.50)),
            us(percentile(&all, 0.99)),
            us(*all.last().unwrap()),
        );
        drop(server);
    }
}
