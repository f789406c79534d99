//! Every example of the JSON contract page (`docs/json.md`) is read back through the Rust types:
//! a set-up starts a battle, and an action or an event is written back exactly as shown, so the
//! page cannot drift from what dbcore reads and writes (issue #11).

use dbcore::battle::{Action, Battle, BattleSetup, Event};
use serde_json::Value;

fn examples() -> Vec<(String, String)> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/json.md");
    let text = std::fs::read_to_string(path).unwrap();
    let mut out = Vec::new();
    let mut lines = text.lines();
    while let Some(line) = lines.next() {
        if let Some(tag) = line.strip_prefix("```json ") {
            let body: Vec<&str> = lines.by_ref().take_while(|l| *l != "```").collect();
            out.push((tag.trim().to_string(), body.join("\n")));
        }
    }
    out
}

#[test]
fn every_example_of_the_contract_page_is_what_dbcore_reads_and_writes() {
    let all = examples();
    let count = |tag: &str| all.iter().filter(|(t, _)| t == tag).count();
    assert_eq!(count("setup"), 1);
    // Each of the eight actions shown has its example.
    assert_eq!(count("action"), 8);
    assert!(count("event") >= 10);
    assert_eq!(count("game"), 1);
    for (tag, body) in &all {
        let given: Value = serde_json::from_str(body).unwrap_or_else(|e| panic!("{body}: {e}"));
        match tag.as_str() {
            "setup" => {
                let setup: BattleSetup = dbcore::json::from_str(body).unwrap();
                Battle::new(setup).unwrap();
            }
            "action" => {
                let a: Action = dbcore::json::from_str(body).unwrap();
                assert_eq!(serde_json::to_value(&a).unwrap(), given, "{body}");
            }
            "event" => {
                let e: Event = dbcore::json::from_str(body).unwrap();
                assert_eq!(serde_json::to_value(&e).unwrap(), given, "{body}");
            }
            "army_entry" => {
                // Read as shown; written back with its defaults spelled out, it reads the same.
                let a: dbcore::battle::ArmyEntry = dbcore::json::from_str(body).unwrap();
                let again = serde_json::to_string(&a).unwrap();
                let b: dbcore::battle::ArmyEntry = dbcore::json::from_str(&again).unwrap();
                assert_eq!(a, b, "{body}");
                assert_eq!(a.commands.len(), 2);
            }
            "prebattle_action" => {
                let a: dbcore::battle::prebattle::PrebattleAction =
                    dbcore::json::from_str(body).unwrap();
                assert_eq!(serde_json::to_value(&a).unwrap(), given, "{body}");
            }
            "prebattle_event" => {
                let e: dbcore::battle::prebattle::PrebattleEvent =
                    dbcore::json::from_str(body).unwrap();
                assert_eq!(serde_json::to_value(&e).unwrap(), given, "{body}");
            }
            "game" => {
                // The game record reads, replays to its result, and what it writes (its
                // defaults spelled out) reads back as the same record.
                let g = dbcore::record::GameFile::from_json(body).unwrap();
                g.replay().unwrap();
                let again =
                    dbcore::record::GameFile::from_json(&serde_json::to_string(&g).unwrap())
                        .unwrap();
                assert_eq!(again, g, "{body}");
                assert_eq!(given["format"], "dbcore-game");
            }
            other => panic!("unknown example tag {other}"),
        }
    }
}
