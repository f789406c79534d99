//! Requests per second for `battle.check` and `battle.legal`: the direct call, the dispatcher
//! alone, the stdio door and the HTTP door (one keep-alive connection), each timed over the same
//! request in the same position. `cargo bench -p dbcore-cli --bench protocol`.
//!
//! Plain wall-clock timing (no statistics): the figures are for the closing note, not for
//! regression tracking.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use dbcore::battle::{Action, Battle, BattleRecord};
use dbcore_cli::rpc::Referee;
use serde_json::{json, Value};

fn record() -> BattleRecord {
    let path = format!(
        "{}/../tests/golden/into_contact.json",
        env!("CARGO_MANIFEST_DIR")
    );
    let v: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    serde_json::from_value(v["record"].clone()).unwrap()
}

fn per_second(n: usize, d: Duration) -> String {
    let us = d.as_secs_f64() * 1e6 / n as f64;
    format!("{:>10.0} /s  {us:>8.2} µs each", n as f64 / d.as_secs_f64())
}

fn main() {
    let rec = record();
    // The position after the first PIP roll: element 2 may move into contact with 102.
    let mut battle = Battle::new(rec.setup.clone()).unwrap();
    battle.apply(rec.actions[0].clone()).unwrap();
    let action: Action = rec.actions[1].clone();
    let n = 20_000;

    let t = Instant::now();
    for _ in 0..n {
        std::hint::black_box(battle.check(std::hint::black_box(&action)).unwrap());
    }
    let direct = t.elapsed();
    println!("battle.check direct        {}", per_second(n, direct));

    let t = Instant::now();
    for _ in 0..n {
        std::hint::black_box(battle.legal());
    }
    println!("battle.legal direct        {}", per_second(n, t.elapsed()));

    let referee = Referee::default();
    let created = referee
        .handle_text(&json!({"jsonrpc":"2.0","id":0,"method":"battle.import","params":{"record":{"setup":rec.setup,"actions":[rec.actions[0]]}}}).to_string())
        .unwrap();
    let id = serde_json::from_str::<Value>(&created).unwrap()["result"]["battle"].clone();
    let check = json!({"jsonrpc":"2.0","id":1,"method":"battle.check","params":{"battle":id,"action":action}}).to_string();
    let legal =
        json!({"jsonrpc":"2.0","id":1,"method":"battle.legal","params":{"battle":id}}).to_string();
    let t = Instant::now();
    for _ in 0..n {
        std::hint::black_box(referee.handle_text(&check));
    }
    let dispatch = t.elapsed();
    println!("battle.check dispatcher    {}", per_second(n, dispatch));
    let t = Instant::now();
    for _ in 0..n {
        std::hint::black_box(referee.handle_text(&legal));
    }
    println!("battle.legal dispatcher    {}", per_second(n, t.elapsed()));

    // stdio: the whole batch written by one thread, answers read by this one.
    let setup_line = json!({"jsonrpc":"2.0","id":0,"method":"battle.import","params":{"record":{"setup":rec.setup,"actions":[rec.actions[0]]}}}).to_string();
    let mut child = Command::new(env!("CARGO_BIN_EXE_dbcore"))
        .args(["serve", "--stdio"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut out = BufReader::new(child.stdout.take().unwrap());
    writeln!(stdin, "{setup_line}").unwrap();
    let mut line = String::new();
    out.read_line(&mut line).unwrap();
    let check_b1 = check.replace(&id.to_string(), "\"b1\"");
    let t = Instant::now();
    let writer = {
        let check_b1 = check_b1.clone();
        std::thread::spawn(move || {
            for _ in 0..n {
                writeln!(stdin, "{check_b1}").unwrap();
            }
        })
    };
    for _ in 0..n {
        line.clear();
        out.read_line(&mut line).unwrap();
    }
    let stdio = t.elapsed();
    writer.join().unwrap();
    assert!(line.contains("\"legal\":true"), "{line}");
    let _ = child.wait();
    println!("battle.check stdio         {}", per_second(n, stdio));

    // HTTP: one keep-alive connection, one request at a time.
    let mut child = Command::new(env!("CARGO_BIN_EXE_dbcore"))
        .args(["serve", "--http", "--port", "0"])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
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
    let mut s = TcpStream::connect(&hostport).unwrap();
    s.set_nodelay(true).unwrap();
    let mut r = BufReader::new(s.try_clone().unwrap());
    let post = |s: &mut TcpStream, r: &mut BufReader<TcpStream>, body: &str| -> String {
        let req = format!("POST /rpc HTTP/1.1\r\nHost: {hostport}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}", body.len());
        s.write_all(req.as_bytes()).unwrap();
        let mut len = 0;
        loop {
            let mut l = String::new();
            r.read_line(&mut l).unwrap();
            if l == "\r\n" {
                break;
            }
            if let Some(v) = l.to_ascii_lowercase().strip_prefix("content-length:") {
                len = v.trim().parse().unwrap();
            }
        }
        let mut b = vec![0; len];
        r.read_exact(&mut b).unwrap();
        String::from_utf8(b).unwrap()
    };
    post(&mut s, &mut r, &setup_line);
    let m = n / 4;
    let t = Instant::now();
    let mut last = String::new();
    for _ in 0..m {
        last = post(&mut s, &mut r, &check_b1);
    }
    let http = t.elapsed();
    assert!(last.contains("\"legal\":true"), "{last}");
    let _ = child.kill();
    let _ = child.wait();
    println!("battle.check http          {}", per_second(m, http));
    let d = direct.as_secs_f64() / n as f64 * 1e6;
    println!(
        "overhead against the direct call: dispatcher +{:.1} µs, stdio +{:.1} µs, http +{:.1} µs",
        dispatch.as_secs_f64() / n as f64 * 1e6 - d,
        stdio.as_secs_f64() / n as f64 * 1e6 - d,
        http.as_secs_f64() / m as f64 * 1e6 - d
    );
}
