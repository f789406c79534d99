//! The BUGS! golden encounter (`tests/golden/bugs/`, written by `cargo run -p xtask -- golden`):
//! its record, set-up and synthetic tables included, replays to exactly its saved events.

use std::path::PathBuf;

use dbcore::bugs::{BugsRecord, Encounter, Event, Verdict};

// BUGS.md §15: the saved encounter replays to its events and verdict.
#[test]
fn the_golden_encounter_replays_to_its_events() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/golden/bugs/bugs-encounter-1.json");
    let g: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let record: BugsRecord = serde_json::from_value(g["record"].clone()).unwrap();
    assert!(record
        .setup
        .tables
        .note
        .as_deref()
        .unwrap()
        .contains("synthetic"));
    let events: Vec<Event> = serde_json::from_value(g["events"].clone()).unwrap();
    let verdict: Verdict = serde_json::from_value(g["verdict"].clone()).unwrap();
    let (e, replayed) = Encounter::replay(&record).unwrap();
    assert_eq!(replayed, events);
    assert_eq!(e.record(), record);
    assert_eq!(e.verdict(), verdict);
    assert!(verdict.over);
    // The events read back as the same JSON.
    assert_eq!(serde_json::to_value(&replayed).unwrap(), g["events"]);
}
