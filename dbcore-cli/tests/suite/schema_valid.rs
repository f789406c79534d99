//! Every golden trace and every message of the golden transcript is valid against the committed
//! JSON Schema, and the committed files are what the generator writes.

use crate::support;

use serde_json::Value;
use support::{assert_exchange, assert_valid};

fn root() -> std::path::PathBuf {
    std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

#[test]
fn the_committed_schema_files_are_what_the_generator_writes() {
    for (path, text) in dbcore_cli::schema::files() {
        let old = std::fs::read_to_string(root().join(path)).unwrap_or_default();
        assert!(
            old == text,
            "{path} is out of date: run `cargo run -p xtask -- schema`"
        );
    }
}

#[test]
fn every_golden_trace_is_valid_against_the_schema() {
    let mut events = 0;
    for entry in std::fs::read_dir(root().join("tests/golden")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|x| x != "json") {
            continue;
        }
        let v: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        assert_valid("dbcore.schema.json", "BattleRecord", &v["record"]);
        assert_valid("dbcore.schema.json", "BattleSetup", &v["record"]["setup"]);
        for a in v["record"]["actions"].as_array().unwrap() {
            assert_valid("dbcore.schema.json", "Action", a);
        }
        for e in v["events"].as_array().unwrap() {
            assert_valid("dbcore.schema.json", "Event", e);
            events += 1;
        }
    }
    assert!(events > 100);
}

#[test]
fn every_message_of_the_transcript_is_valid_against_the_protocol_schema() {
    let dir = root().join("tests/protocol");
    let requests: Vec<Value> = std::fs::read_to_string(dir.join("session.requests.jsonl"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let responses: Vec<Value> = std::fs::read_to_string(dir.join("session.responses.jsonl"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let mut answered = responses.iter();
    for req in &requests {
        if req.get("id").is_none() {
            assert_valid("protocol.schema.json", "Request", req);
            continue;
        }
        let resp = answered.next().expect("one answer a request");
        assert_eq!(resp["id"], req["id"]);
        assert_exchange(req, resp);
    }
    assert!(answered.next().is_none());
}

#[test]
fn a_wrong_message_is_invalid() {
    // The schema is not vacuous: a die of 7, an unknown action, a result with a stray field.
    let s: Value = serde_json::from_str(
        &std::fs::read_to_string(root().join("schema/protocol.schema.json")).unwrap(),
    )
    .unwrap();
    let check = |def: &str, v: Value| {
        let root = serde_json::json!({ "$defs": s["$defs"], "$ref": format!("#/$defs/{def}") });
        jsonschema::validator_for(&root).unwrap().is_valid(&v)
    };
    assert!(check(
        "Action",
        serde_json::json!({ "action": "roll_pips", "die": 6 })
    ));
    assert!(!check(
        "Action",
        serde_json::json!({ "action": "roll_pips", "die": 7 })
    ));
    assert!(!check("Action", serde_json::json!({ "action": "fly" })));
    assert!(!check(
        "ApplyResult",
        serde_json::json!({ "revision": 1, "events": [], "x": 1 })
    ));
}

// BUGS.md §17 and §15: the BUGS! tables template and synthetic tables are valid tables files,
// and the golden encounter's record, events and verdict are valid against the BUGS! schema.
#[test]
fn the_bugs_files_are_valid_against_their_schemas() {
    let read = |p: &str| -> Value {
        serde_json::from_str(&std::fs::read_to_string(root().join(p)).unwrap()).unwrap()
    };
    for f in [
        "examples/bugs/tables-template.json",
        "tests/bugs/synthetic-tables.json",
    ] {
        assert_valid("bugs-tables.schema.json", "TablesFile", &read(f));
    }
    let g = read("tests/golden/bugs/bugs-encounter-1.json");
    assert_valid("bugs.schema.json", "BugsRecord", &g["record"]);
    assert_valid("bugs.schema.json", "BugsSetup", &g["record"]["setup"]);
    for a in g["record"]["actions"].as_array().unwrap() {
        assert_valid("bugs.schema.json", "BugsAction", a);
    }
    for e in g["events"].as_array().unwrap() {
        assert_valid("bugs.schema.json", "BugsEvent", e);
    }
    assert_valid("bugs.schema.json", "Verdict", &g["verdict"]);
}
