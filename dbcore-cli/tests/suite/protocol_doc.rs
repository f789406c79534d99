//! Every example of `docs/protocol.md` runs: each `### \`method\`` section's fenced JSON blocks
//! are requests and their answers, in turn, sent to a fresh referee (one per section, as one
//! stdio stream); each answer must match the one documented. Every method `hello` lists has its
//! section, in which it is called.
//!
//! An answer may leave parts out: `"..."` stands for any value; an array ending with `"..."` for
//! an array beginning with the items shown; an object with the key `"..."` for an object with at
//! least the other keys shown. `DBCORE_BLESS=1` rewrites the answers from the referee, shortened
//! that way (review the diff).

use std::path::PathBuf;

use dbcore_cli::rpc::{all_methods, Client, Referee};
use serde_json::{Map, Value};

const ELIDED: &str = "...";

fn doc_path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../docs/protocol.md")
}

/// One fenced JSON block: its text and where it is in the file (line indices, fences included).
struct Block {
    text: String,
    first: usize,
    last: usize,
}

/// One method's section: its name and its blocks.
struct Section {
    method: String,
    blocks: Vec<Block>,
}

fn sections(doc: &str) -> Vec<Section> {
    let lines: Vec<&str> = doc.lines().collect();
    let mut out: Vec<Section> = Vec::new();
    let mut current: Option<Section> = None;
    let mut i = 0;
    while i < lines.len() {
        let l = lines[i];
        if l.starts_with("## ") || l.starts_with("### ") {
            out.extend(current.take());
            if let Some(rest) = l.strip_prefix("### `") {
                current = Some(Section {
                    method: rest.split('`').next().unwrap_or("").to_string(),
                    blocks: Vec::new(),
                });
            }
        } else if l.trim() == "```json" {
            let first = i;
            let mut text = String::new();
            i += 1;
            while i < lines.len() && lines[i].trim() != "```" {
                text += lines[i];
                text += "\n";
                i += 1;
            }
            if let Some(s) = current.as_mut() {
                s.blocks.push(Block {
                    text,
                    first,
                    last: i,
                });
            }
        }
        i += 1;
    }
    out.extend(current);
    out
}

/// Whether `got` is what `want` shows (with its elisions).
fn matches(want: &Value, got: &Value) -> bool {
    match (want, got) {
        (Value::String(s), _) if s == ELIDED => true,
        (Value::Number(a), Value::Number(b)) => a.as_f64() == b.as_f64(),
        (Value::Array(w), Value::Array(g)) => {
            if w.last().is_some_and(|l| l == ELIDED) {
                let shown = &w[..w.len() - 1];
                g.len() >= shown.len() && shown.iter().zip(g).all(|(a, b)| matches(a, b))
            } else {
                w.len() == g.len() && w.iter().zip(g).all(|(a, b)| matches(a, b))
            }
        }
        (Value::Object(w), Value::Object(g)) => {
            let open = w.contains_key(ELIDED);
            let shown = w.iter().filter(|(k, _)| *k != ELIDED);
            (open || w.len() == g.len())
                && shown
                    .into_iter()
                    .all(|(k, v)| g.get(k).is_some_and(|x| matches(v, x)))
        }
        (a, b) => a == b,
    }
}

/// `v` shortened for the documentation: long strings, long arrays and deep or wide objects are
/// elided.
fn shorten(v: &Value, depth: usize) -> Value {
    match v {
        Value::String(s) if s.chars().count() > 160 => Value::String(ELIDED.into()),
        Value::Array(a) if depth >= 5 && !a.is_empty() => Value::String(ELIDED.into()),
        Value::Array(a) => {
            let keep = if depth == 0 { 6 } else { 3 };
            let mut out: Vec<Value> = a.iter().take(keep).map(|x| shorten(x, depth + 1)).collect();
            if a.len() > keep {
                out.push(Value::String(ELIDED.into()));
            }
            Value::Array(out)
        }
        Value::Object(m) if depth >= 5 && !m.is_empty() => Value::String(ELIDED.into()),
        Value::Object(m) => {
            let keep = if depth <= 2 { 14 } else { 8 };
            let mut out = Map::new();
            for (k, x) in m.iter().take(keep) {
                out.insert(k.clone(), shorten(x, depth + 1));
            }
            if m.len() > keep {
                out.insert(ELIDED.into(), Value::String(ELIDED.into()));
            }
            Value::Object(out)
        }
        other => other.clone(),
    }
}

/// Compact when it fits on a line, else one item a line, each written the same way.
fn written(v: &Value) -> String {
    let mut out = String::new();
    write_at(v, 0, &mut out);
    out
}

fn write_at(v: &Value, indent: usize, out: &mut String) {
    let compact = serde_json::to_string(v).unwrap();
    let pad = |n: usize| " ".repeat(n);
    let (open, close, items): (char, char, Vec<(Option<&String>, &Value)>) = match v {
        Value::Object(m) if indent + compact.len() > 96 => {
            ('{', '}', m.iter().map(|(k, x)| (Some(k), x)).collect())
        }
        Value::Array(a) if indent + compact.len() > 96 => {
            ('[', ']', a.iter().map(|x| (None, x)).collect())
        }
        _ => {
            out.push_str(&compact);
            return;
        }
    };
    out.push(open);
    for (i, (key, x)) in items.iter().enumerate() {
        out.push('\n');
        out.push_str(&pad(indent + 2));
        if let Some(k) = key {
            out.push_str(&serde_json::to_string(k).unwrap());
            out.push_str(": ");
        }
        write_at(x, indent + 2, out);
        if i + 1 < items.len() {
            out.push(',');
        }
    }
    out.push('\n');
    out.push_str(&pad(indent));
    out.push(close);
}

#[test]
fn every_example_of_the_protocol_page_runs_as_shown() {
    let doc = std::fs::read_to_string(doc_path()).unwrap();
    let bless = std::env::var_os("DBCORE_BLESS").is_some();
    let mut replaced: Vec<(usize, usize, String)> = Vec::new();
    let all = sections(&doc);
    for s in &all {
        assert!(
            s.blocks.len() >= 2 && s.blocks.len() % 2 == 0,
            "`{}`: a request and its answer, in pairs",
            s.method
        );
        let referee = Referee::default();
        let mut client = Client::default();
        let mut calls_it = false;
        for pair in s.blocks.chunks(2) {
            let request: Value = serde_json::from_str(&pair[0].text)
                .unwrap_or_else(|e| panic!("`{}`: a request is JSON: {e}", s.method));
            calls_it |= request["method"] == s.method.as_str();
            let got = referee
                .handle_text_as(&request.to_string(), &mut client)
                .expect("every example has an id");
            let got: Value = serde_json::from_str(&got).unwrap();
            if bless {
                let text = written(&shorten(&got, 0));
                replaced.push((pair[1].first, pair[1].last, text));
                continue;
            }
            let want: Value = serde_json::from_str(&pair[1].text)
                .unwrap_or_else(|e| panic!("`{}`: an answer is JSON: {e}", s.method));
            assert!(
                matches(&want, &got),
                "`{}`: {request}\nanswered {got}\nnot as documented {want}",
                s.method
            );
        }
        assert!(calls_it, "the section of `{}` never calls it", s.method);
    }
    for m in all_methods() {
        assert!(
            all.iter().any(|s| s.method == m),
            "docs/protocol.md has no example of `{m}`"
        );
    }
    if bless {
        let mut lines: Vec<String> = doc.lines().map(str::to_string).collect();
        for (first, last, text) in replaced.into_iter().rev() {
            let mut block = vec!["```json".to_string()];
            block.extend(text.lines().map(str::to_string));
            block.push("```".to_string());
            lines.splice(first..=last, block);
        }
        std::fs::write(doc_path(), lines.join("\n") + "\n").unwrap();
    }
}

#[test]
fn elisions_match_what_they_say() {
    let v: Value = serde_json::json!({ "a": [1, 2, 3], "b": { "c": "x", "d": 2.0 } });
    let yes = [
        r#"{"a": [1, 2, 3], "b": {"c": "x", "d": 2}}"#,
        r#"{"a": [1, "..."], "b": "..."}"#,
        r#"{"a": "...", "...": "..."}"#,
        r#"{"a": [1, 2, 3, "..."], "b": {"c": "x", "...": "..."}}"#,
    ];
    let no = [
        r#"{"a": [1, 2], "b": "..."}"#,
        r#"{"a": [2, "..."], "b": "..."}"#,
        r#"{"a": "..."}"#,
        r#"{"a": "...", "b": {"c": "y", "...": "..."}}"#,
        r#"{"a": "...", "b": "...", "e": "..."}"#,
    ];
    for w in yes {
        assert!(matches(&serde_json::from_str(w).unwrap(), &v), "{w}");
    }
    for w in no {
        assert!(!matches(&serde_json::from_str(w).unwrap(), &v), "{w}");
    }
}
