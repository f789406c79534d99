//! The stdio door: JSON-RPC 2.0 as JSON Lines. One compact message a line each way, answers in
//! request order, stdout carries nothing but protocol, the server stops at end of input.
//!
//! The stream is one client: the frame its `hello` declares is the frame of the battles it
//! creates from then on. Every request runs inside the referee's panic boundary, so a request
//! that panics is answered an internal error and the door goes on reading.
//!
//! A line longer than the limit is not read into memory: the door skips to the next newline and
//! answers [`crate::rpc::MESSAGE_TOO_LARGE`], then goes on with the next line. Blank lines are
//! ignored; bytes that are not UTF-8 are a parse error.

use std::io::{self, BufRead, Write};

use serde_json::json;

use crate::rpc::{transport_error, Client, Referee, MESSAGE_TOO_LARGE, PARSE_ERROR};

/// One line read by [`read_line`].
#[derive(Debug, PartialEq, Eq)]
pub enum Line {
    /// A whole line, without its newline.
    Text(Vec<u8>),
    /// A line longer than the limit was skipped; how many bytes it had.
    TooLong(usize),
    /// End of input.
    End,
}

/// Read the next line of at most `max` bytes (not counting the newline), skipping over a longer
/// one without keeping it.
pub fn read_line(r: &mut impl BufRead, max: usize) -> io::Result<Line> {
    let mut line = Vec::new();
    let mut skipped: Option<usize> = None;
    loop {
        let buf = match r.fill_buf() {
            Ok(b) => b,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if buf.is_empty() {
            return Ok(match (skipped, line.is_empty()) {
                (Some(n), _) => Line::TooLong(n),
                (None, true) => Line::End,
                (None, false) => Line::Text(line),
            });
        }
        let (chunk, done) = match buf.iter().position(|&b| b == b'\n') {
            Some(i) => (&buf[..i], Some(i + 1)),
            None => (buf, None),
        };
        match &mut skipped {
            Some(n) => *n += chunk.len(),
            None if line.len() + chunk.len() > max => skipped = Some(line.len() + chunk.len()),
            None => line.extend_from_slice(chunk),
        }
        if skipped.is_some() {
            line = Vec::new();
        }
        let used = done.unwrap_or(buf.len());
        r.consume(used);
        if done.is_some() {
            return Ok(match skipped {
                Some(n) => Line::TooLong(n),
                None => Line::Text(line),
            });
        }
    }
}

/// Serve `input` to `output` until end of input.
pub fn serve(
    referee: &Referee,
    input: &mut impl BufRead,
    output: &mut impl Write,
) -> io::Result<()> {
    let max = referee.limits().max_message_bytes;
    let mut client = Client::default();
    loop {
        let reply = match read_line(input, max)? {
            Line::End => return Ok(()),
            Line::TooLong(n) => Some(transport_error(
                MESSAGE_TOO_LARGE,
                &format!("a line of {n} bytes is longer than the limit of {max}"),
                json!({ "limit": max, "length": n }),
            )),
            Line::Text(bytes) => {
                let bytes = bytes.strip_suffix(b"\r").unwrap_or(&bytes);
                if bytes.iter().all(u8::is_ascii_whitespace) {
                    continue;
                }
                match std::str::from_utf8(bytes) {
                    Ok(text) => referee.handle_text_as(text, &mut client),
                    Err(e) => Some(transport_error(
                        PARSE_ERROR,
                        &format!("parse error: the line is not UTF-8 ({e})"),
                        serde_json::Value::Null,
                    )),
                }
            }
        };
        if let Some(r) = reply {
            output.write_all(r.as_bytes())?;
            output.write_all(b"\n")?;
            output.flush()?;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_line_is_skipped_and_the_next_one_read() {
        let mut r = io::BufReader::with_capacity(4, &b"abcdefgh\nxy\nz"[..]);
        assert_eq!(read_line(&mut r, 5).unwrap(), Line::TooLong(8));
        assert_eq!(read_line(&mut r, 5).unwrap(), Line::Text(b"xy".to_vec()));
        assert_eq!(read_line(&mut r, 5).unwrap(), Line::Text(b"z".to_vec()));
        assert_eq!(read_line(&mut r, 5).unwrap(), Line::End);
    }

    #[test]
    fn answers_come_in_request_order_and_a_notification_gets_none() {
        let input = concat!(
            "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"battles.list\"}\n",
            "{\"jsonrpc\":\"2.0\",\"method\":\"battles.list\"}\n",
            "\n",
            "not json\n",
            "{\"jsonrpc\":\"2.0\",\"id\":\"two\",\"method\":\"nope\"}\n",
        );
        let mut out = Vec::new();
        serve(&Referee::default(), &mut input.as_bytes(), &mut out).unwrap();
        let lines: Vec<serde_json::Value> = String::from_utf8(out)
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(lines.len(), 3);
        assert_eq!(lines[0]["id"], 1);
        assert_eq!(lines[1]["error"]["code"], PARSE_ERROR);
        assert_eq!(lines[2]["id"], "two");
        assert_eq!(lines[2]["error"]["code"], crate::rpc::METHOD_NOT_FOUND);
    }
}
