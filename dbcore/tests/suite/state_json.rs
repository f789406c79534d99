//! The battle state as JSON (`dbcore::battle::saved`): the compact state with its digest reads
//! back without a replay, the old full state is still read and checked by replaying it, and a
//! state changed after dbcore wrote it is refused.

use dbcore::battle::{Battle, BattleRecord, StateError};
use dbcore::{ErrorCode, ErrorInfo};
use serde::Deserialize;
use std::path::PathBuf;

#[derive(Deserialize)]
struct Golden {
    name: String,
    record: BattleRecord,
}

/// Every golden battle, replayed to its last action, with the states half-way through too.
fn golden_states() -> Vec<(String, Battle)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/golden");
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("tests/golden exists")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    paths.sort();
    let mut v = Vec::new();
    for p in paths {
        let g: Golden = serde_json::from_str(&std::fs::read_to_string(&p).unwrap()).unwrap();
        let mut b = Battle::new(g.record.setup.clone()).unwrap();
        let half = g.record.actions.len() / 2;
        for (i, a) in g.record.actions.iter().enumerate() {
            if i == half {
                v.push((format!("{} (half-way)", g.name), b.clone()));
            }
            b.apply(a.clone()).unwrap();
        }
        v.push((g.name, b));
    }
    assert!(v.len() >= 6);
    v
}

#[test]
fn a_compact_state_reads_back_as_the_same_battle() {
    for (name, battle) in golden_states() {
        let text = battle.state_json();
        assert!(text.starts_with("{\"format\":\"dbcore-state\",\"version\":1,"));
        let back = Battle::from_state_json(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(back, battle, "{name}");
        assert_eq!(back.record(), battle.record(), "{name}");
        assert_eq!(back.state_json(), text, "{name}");
        // Read from a parsed value (a Python dict, a protocol request) too.
        let value: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(Battle::from_state_value(value).unwrap(), battle, "{name}");
        // Spaces and another field order do not matter: the digest is of what it holds.
        let pretty = serde_json::to_string_pretty(&battle.state_value()).unwrap();
        assert_eq!(Battle::from_state_json(&pretty).unwrap(), battle, "{name}");
    }
}

#[test]
fn the_digest_is_the_hash_of_the_text_before_it() {
    // docs/json.md: the hash of the bytes before `,"digest"` followed by `}`. A reader checks the
    // text it is given by that hash, and otherwise writes the battle again and compares.
    for (name, battle) in golden_states() {
        let text = battle.state_json();
        let (body, digest) = text.rsplit_once(",\"digest\":\"").unwrap();
        let mut h = dbcore::battle::saved::StateHasher::default();
        h.update(body.as_bytes());
        h.update(b"}");
        let hex = h.finish_hex();
        assert_eq!(format!("{hex}\"}}"), digest, "{name}");
        assert_eq!(battle.state_digest(), hex, "{name}");
        // A line end after it changes nothing; a space inside is not the text dbcore wrote, so
        // the battle is written again and its digest compared: the same battle still.
        let ended = format!("{text}\n");
        assert_eq!(Battle::from_state_json(&ended).unwrap(), battle, "{name}");
        let spaced = text.replacen("\"bound\":", "\"bound\": ", 1);
        assert_ne!(spaced, text);
        assert_eq!(Battle::from_state_json(&spaced).unwrap(), battle, "{name}");
    }
}

#[test]
fn the_compact_state_is_smaller_than_the_full_one() {
    for (name, battle) in golden_states() {
        let compact = battle.state_json().len();
        let full = serde_json::to_string(&battle).unwrap().len();
        // The history is the same in both; what the set-up says is not repeated.
        assert!(compact * 4 < full * 3, "{name}: {compact} against {full}");
    }
}

#[test]
fn the_full_state_is_still_read_and_checked_by_replay() {
    for (name, battle) in golden_states() {
        let full = serde_json::to_string(&battle).unwrap();
        assert_eq!(Battle::from_state_json(&full).unwrap(), battle, "{name}");
    }
    let (_, battle) = golden_states().pop().unwrap();
    let mut v = serde_json::to_value(&battle).unwrap();
    v["elements"][0]["pose"]["x"] = serde_json::json!(0.25);
    let e = Battle::from_state_value(v).unwrap_err();
    assert_eq!(e, StateError::NotItsRecord);
    assert_eq!(e.code(), ErrorCode::InvalidArgument);
}

#[test]
fn a_changed_compact_state_is_refused_by_its_digest() {
    for (name, battle) in golden_states() {
        let mut v = battle.state_value();
        // An element moved by hand.
        v["elements"][0]["pose"]["x"] = serde_json::json!(0.25);
        let e = Battle::from_state_value(v).unwrap_err();
        assert!(matches!(e, StateError::Digest { .. }), "{name}: {e}");
        assert_eq!(e.code(), ErrorCode::InvalidArgument);
        // More PIPs, in the text.
        let mut v = battle.state_value();
        v["pips"] = serde_json::json!(battle.pips() + 1);
        let e = Battle::from_state_json(&v.to_string()).unwrap_err();
        assert!(matches!(e, StateError::Digest { .. }), "{name}: {e}");
        // An action dropped from the history.
        let mut v = battle.state_value();
        v["actions"].as_array_mut().unwrap().pop();
        assert!(matches!(
            Battle::from_state_value(v),
            Err(StateError::Digest { .. })
        ));
        // A digest that is not one.
        let mut v = battle.state_value();
        v["digest"] = serde_json::json!("0000000000000000");
        assert!(matches!(
            Battle::from_state_value(v),
            Err(StateError::Digest { .. })
        ));
    }
}

#[test]
fn a_compact_state_of_another_version_or_shape_is_refused() {
    let (_, battle) = golden_states().remove(0);
    let mut v = battle.state_value();
    v["version"] = serde_json::json!(2);
    let e = Battle::from_state_value(v).unwrap_err();
    assert_eq!(e, StateError::Version { found: 2 });
    let mut v = battle.state_value();
    v["elements"].as_array_mut().unwrap().pop();
    let e = Battle::from_state_value(v).unwrap_err();
    assert_eq!(e.code(), ErrorCode::InvalidJson, "{e}");
    // Numbers out of range and armies that are not there are refused before the digest.
    let mut v = battle.state_value();
    v["elements"][0]["pose"]["x"] = serde_json::json!(1.0e300);
    let e = Battle::from_state_value(v).unwrap_err();
    assert!(matches!(e, StateError::Limit(_)), "{e}");
    let mut v = battle.state_value();
    v["active"] = serde_json::json!(7);
    let e = Battle::from_state_value(v).unwrap_err();
    assert_eq!(e.code(), ErrorCode::InvalidJson, "{e}");
    let mut v = battle.state_value();
    v.as_object_mut().unwrap().remove("digest");
    let e = Battle::from_state_value(v).unwrap_err();
    assert_eq!(e.code(), ErrorCode::InvalidJson, "{e}");
    assert!(e.to_string().contains("digest"), "{e}");
}

// DBA3.md §13.1: lost elements keep their status and cause in the compact state.
#[test]
fn lost_elements_survive_the_compact_state() {
    let mut seen = 0;
    for (name, battle) in golden_states() {
        let back = Battle::from_state_json(&battle.state_json()).unwrap();
        for (a, b) in back.elements().iter().zip(battle.elements()) {
            assert_eq!(a.status, b.status, "{name}");
            seen += usize::from(!b.in_play());
        }
    }
    assert!(seen > 0, "some golden battle loses an element");
}
