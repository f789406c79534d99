//! Every committed input of the `protocol_framing` and `http_clients` fuzz targets
//! (`fuzz/corpus/TARGET/` and any crash found, `fuzz/regressions/TARGET/`) run through its check
//! on stable.

use std::path::Path;

/// Every committed input of fuzz target `target`, run through `check` on stable.
fn replay(target: &str, check: fn(&[u8])) {
    let fuzz = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fuzz");
    let mut files = Vec::new();
    for dir in ["corpus", "regressions"] {
        if let Ok(entries) = std::fs::read_dir(fuzz.join(dir).join(target)) {
            files.extend(entries.map(|e| e.expect("a readable directory").path()));
        }
    }
    files.sort();
    assert!(!files.is_empty(), "{target} has no committed corpus");
    for f in &files {
        let data = std::fs::read(f).expect("a readable corpus file");
        let outcome = std::panic::catch_unwind(|| check(&data));
        assert!(outcome.is_ok(), "{} fails its check", f.display());
    }
}

#[test]
fn every_committed_protocol_input_passes_its_check() {
    replay("protocol_framing", dbcore_cli::fuzzing::protocol_framing);
}

#[test]
fn every_committed_http_input_passes_its_check() {
    replay("http_clients", dbcore_cli::fuzzing::http_clients);
}

#[test]
fn the_check_accepts_the_golden_transcript_and_garbage() {
    let transcript = std::fs::read(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/protocol/session.requests.jsonl"),
    )
    .unwrap();
    for cap in [0u8, 3, 63] {
        let mut data = vec![cap];
        data.extend_from_slice(&transcript);
        dbcore_cli::fuzzing::protocol_framing(&data);
    }
    dbcore_cli::fuzzing::protocol_framing(
        b"\x05{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\n\xff\xfe\n[]\n{}\n",
    );
    let mut long = vec![1u8];
    long.extend(std::iter::repeat_n(b'x', 10_000));
    long.extend_from_slice(
        b"\n{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"hello\",\"params\":{}}\n",
    );
    dbcore_cli::fuzzing::protocol_framing(&long);
}
