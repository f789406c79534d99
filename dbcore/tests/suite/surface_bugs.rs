//! BUGS! through the one surface every binding shares (`dbcore::surface::Session`): an encounter
//! starts from a set-up or a demonstration on the user's tables, plays whole from its legal
//! actions, undoes, and saves as the same `dbcore-game` record every tool reads.

use std::path::PathBuf;

use dbcore::record::{GameFile, GameMoves};
use dbcore::surface::{Session, Stage};
use serde_json::{json, Value};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The project's synthetic tables (made-up values, as their `note` says; BUGS.md R6-R8).
fn synthetic_tables() -> Value {
    serde_json::from_str(
        &std::fs::read_to_string(root().join("tests/bugs/synthetic-tables.json")).unwrap(),
    )
    .unwrap()
}

fn start(encounter: u8, seed: u64) -> Session {
    Session::new(json!({
        "bugs": {"encounter": encounter, "tables": synthetic_tables()},
        "seed": seed,
    }))
    .unwrap()
}

// BUGS.md §5, §15: every listed action is accepted, and choosing only from the list plays a
// whole encounter to its verdict: no refused try.
#[test]
fn an_encounter_plays_whole_from_its_legal_actions() {
    for encounter in 1..=3u8 {
        let mut s = start(encounter, u64::from(encounter) + 4);
        let mut pick = 0x9e37_79b9_u64;
        for _ in 0..100_000 {
            if s.stage() == Stage::Finished {
                break;
            }
            let listed = s.call("legal_actions", Value::Null).unwrap();
            let actions = listed["actions"].as_array().unwrap().clone();
            assert!(
                !actions.is_empty(),
                "nothing listed: {}",
                s.call("awaiting", Value::Null).unwrap()
            );
            pick = pick.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            let a = actions[(pick >> 33) as usize % actions.len()].clone();
            s.call("apply", json!({ "action": a })).unwrap();
        }
        assert_eq!(
            s.stage(),
            Stage::Finished,
            "encounter {encounter} did not end"
        );
        let info = s.call("info", Value::Null).unwrap();
        assert_eq!(info["game"], "bugs");
        assert!(info["verdict"]["over"].as_bool().unwrap());
        // The humans (0) or the bugs (1) win, as the verdict's outcome says.
        let winners = info["winners"].as_array().unwrap();
        let success = info["verdict"]["outcome"] == "success";
        assert_eq!(winners, &vec![json!(if success { 0 } else { 1 })]);
        // The record is a dbcore-game record that replays to the same place.
        let record = s.call("record", Value::Null).unwrap();
        assert_eq!(record["format"], "dbcore-game");
        assert_eq!(record["game"], "bugs");
        let again = Session::new(json!({ "game": record.clone() })).unwrap();
        assert_eq!(again.revision(), s.revision());
        assert_eq!(
            again.clone().call("events", Value::Null).unwrap(),
            s.call("events", Value::Null).unwrap()
        );
    }
}

// BUGS.md §5: a refusal changes nothing; undo takes the last action back, dice tray included.
#[test]
fn refusals_change_nothing_and_undo_takes_back() {
    let mut s = start(1, 7);
    let before = s.call("record", Value::Null).unwrap();
    let e = s
        .call(
            "apply",
            json!({"action": {"action": "attack", "figure": 99, "target": 98}}),
        )
        .unwrap_err();
    assert!(e.rule.is_some_and(|r| r.starts_with("BUGS §")), "{e:?}");
    assert_eq!(s.call("record", Value::Null).unwrap(), before);
    let chosen = s.call("ai", Value::Null).unwrap()["action"].clone();
    s.call("apply", json!({ "action": chosen.clone() }))
        .unwrap();
    let next = s.call("ai", Value::Null).unwrap()["action"].clone();
    let undone = s.call("undo", Value::Null).unwrap();
    assert_eq!(undone["action"], chosen);
    assert_eq!(s.call("record", Value::Null).unwrap(), before);
    // The tray gives the same dice again after the undo.
    assert_eq!(s.call("ai", Value::Null).unwrap()["action"], chosen);
    s.call("apply", json!({ "action": chosen })).unwrap();
    assert_eq!(s.call("ai", Value::Null).unwrap()["action"], next);
}

// BUGS.md §15: the golden encounter, read as a game record through the surface, gives its events.
#[test]
fn the_golden_encounter_reads_through_the_surface() {
    let golden: Value = serde_json::from_str(
        &std::fs::read_to_string(root().join("tests/golden/bugs/bugs-encounter-1.json")).unwrap(),
    )
    .unwrap();
    let mut s = Session::new(json!({ "game": golden.clone() })).unwrap();
    assert_eq!(s.call("events", Value::Null).unwrap(), golden["events"]);
    let lines = s.call("narrate", Value::Null).unwrap();
    assert_eq!(
        lines.as_array().unwrap().len(),
        golden["events"].as_array().unwrap().len()
    );
    let svg = s.call("svg", Value::Null).unwrap();
    assert!(svg["svg"].as_str().unwrap().starts_with("<svg"));
    let file = GameFile::from_value(s.call("record", Value::Null).unwrap()).unwrap();
    assert!(matches!(file.game, GameMoves::Bugs { .. }));
    assert_eq!(
        serde_json::to_value(&file.game).unwrap()["actions"],
        golden["record"]["actions"]
    );
    // DBA's own questions are not offered, and say so.
    let e = s.call("combat_odds", json!({"a": 1, "b": 2})).unwrap_err();
    assert!(e.message.contains("BUGS!"), "{}", e.message);
}

// BUGS.md §17: without the lost tables nothing starts, and every missing value is named.
#[test]
fn the_template_tables_are_refused_with_their_problems() {
    let template: Value = serde_json::from_str(
        &std::fs::read_to_string(root().join("examples/bugs/tables-template.json")).unwrap(),
    )
    .unwrap();
    let e = Session::new(json!({"bugs": {"encounter": 1, "tables": template}})).unwrap_err();
    assert_eq!(e.rule, Some("BUGS §17"));
    assert!(e.message.contains("impact"), "{}", e.message);
}
