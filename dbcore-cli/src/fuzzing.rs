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
