//! `dbcore simulate`: many seeded battles, the same records on any thread count, logs on stderr.

use std::process::Command;

fn dbcore(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_dbcore"))
        .args(args)
        .output()
        .expect("the dbcore program runs")
}

fn stdout(out: std::process::Output) -> String {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

const BATCH: [&str; 8] = [
    "simulate",
    "II/56",
    "II/5a",
    "-n",
    "4",
    "--seed",
    "1",
    "--max-bounds",
];

#[test]
fn records_are_the_same_on_one_and_two_threads() {
    let run = |threads: &str| {
        let mut args = BATCH.to_vec();
        args.extend(["12", "--json", "--threads", threads]);
        stdout(dbcore(&args))
    };
    let one = run("1");
    assert_eq!(one, run("2"));
    assert_eq!(one.lines().count(), 4);
    for line in one.lines() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        assert!(v["seed"].is_u64() && v["losses"].is_array(), "{line}");
    }
}

#[test]
fn the_table_has_intervals_and_verbose_logs_go_to_stderr_only() {
    let mut args = vec!["-v"];
    args.extend(BATCH);
    args.push("12");
    let out = dbcore(&args);
    let err = String::from_utf8_lossy(&out.stderr).to_string();
    let text = stdout(out);
    assert!(text.contains("95% Wilson interval"), "{text}");
    assert!(!text.contains("DEBUG"), "{text}");
    assert!(err.contains("simulated battle ends"), "{err}");
    // CSV: a header and one line a battle.
    let mut args = BATCH.to_vec();
    args.extend(["12", "--csv"]);
    assert_eq!(stdout(dbcore(&args)).lines().count(), 5);
}

#[test]
fn ctrl_c_prints_what_finished_and_exits_130() {
    use std::io::{BufRead, BufReader, Read};
    use std::process::Stdio;
    let mut child = Command::new(env!("CARGO_BIN_EXE_dbcore"))
        .args([
            "simulate",
            "II/56",
            "II/5a",
            "-n",
            "100000",
            "--seed",
            "1",
            "--max-bounds",
            "8",
            "--threads",
            "1",
            "--progress",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the dbcore program runs");
    let mut err = BufReader::new(child.stderr.take().unwrap());
    // Deterministic: interrupt only once a battle has finished (a progress line says so).
    let mut line = String::new();
    loop {
        line.clear();
        assert!(err.read_line(&mut line).unwrap() > 0, "stderr ended early");
        let n: u64 = line.split(' ').next().unwrap().parse().unwrap_or(0);
        if n >= 1 {
            break;
        }
    }
    let pid = child.id().to_string();
    let killed = Command::new("kill").args(["-INT", &pid]).status().unwrap();
    assert!(killed.success());
    let mut rest = String::new();
    err.read_to_string(&mut rest).unwrap();
    let mut out = String::new();
    child
        .stdout
        .take()
        .unwrap()
        .read_to_string(&mut out)
        .unwrap();
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(130), "{rest}");
    assert!(out.contains("95% Wilson interval"), "{out}");
    assert!(out.contains("cancelled after"), "{out}");
    assert!(rest.contains("interrupted:"), "{rest}");
    assert!(rest.contains("of 100000 battles finished"), "{rest}");
}

/// `--json` and `--csv` write each battle as it finishes: the first lines of a batch far too
/// long to finish here are read while the program still runs, then it is stopped.
#[test]
fn json_and_csv_lines_arrive_while_the_batch_still_runs() {
    use std::io::{BufRead, BufReader};
    use std::process::Stdio;
    for (format, first) in [("--json", "{\"index\":0,"), ("--csv", "index,seed,")] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_dbcore"))
            .args([
                "simulate",
                "II/56",
                "II/5a",
                "-n",
                "100000000",
                "--threads",
                "1",
                format,
            ])
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("the dbcore program runs");
        let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
        let line = lines.next().unwrap().unwrap();
        assert!(line.starts_with(first), "{format}: {line}");
        let line = lines.next().unwrap().unwrap();
        assert!(line.starts_with(['{', '0']), "{format}: {line}");
        assert!(
            child.try_wait().unwrap().is_none(),
            "{format}: the batch of 10^8 battles had ended"
        );
        child.kill().unwrap();
        child.wait().unwrap();
    }
}
