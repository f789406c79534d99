//! The DBAix golden trace (`tests/golden/dbaix/`, written by `cargo run -p xtask -- golden`): a
//! whole three-sided game replays to exactly its saved events, directly and through the one
//! entry point for every variant (`dbcore::game::AnyBattle`), which also still plays DBA traces.

use std::path::PathBuf;

use dbcore::dbaix::{Battle, BattleRecord, Event};
use dbcore::game::{AnyAction, AnyBattle, AnyRecord, GameError};
use serde_json::Value;

fn golden_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/golden")
}

fn dbaix_goldens() -> Vec<Value> {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(golden_dir().join("dbaix"))
        .expect("tests/golden/dbaix exists")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    paths.sort();
    assert!(!paths.is_empty());
    paths
        .iter()
        .map(|p| serde_json::from_str(&std::fs::read_to_string(p).unwrap()).unwrap())
        .collect()
}

// DBAIX.md §2: the saved three-sided game replays to its saved events and record.
#[test]
fn dbaix_golden_trace_replays_to_its_events() {
    for g in dbaix_goldens() {
        let record: BattleRecord = serde_json::from_value(g["record"].clone()).unwrap();
        let events: Vec<Event> = serde_json::from_value(g["events"].clone()).unwrap();
        let (b, replayed) = Battle::replay(&record).unwrap();
        assert_eq!(replayed, events);
        assert_eq!(b.record(), record);
        assert!(matches!(b.phase(), dbcore::dbaix::Phase::Finished { .. }));
        let sides: std::collections::BTreeSet<_> = replayed
            .iter()
            .filter_map(|e| match e {
                Event::BoundStarted { side, .. } => Some(*side),
                _ => None,
            })
            .collect();
        assert_eq!(sides.len(), 3, "all three sides take bounds");
    }
}

// DBAIX.md §2: the variant tag routes a record to its game; events come out as the same JSON.
#[test]
fn any_battle_dispatches_by_variant_tag() {
    for g in dbaix_goldens() {
        let rec = AnyRecord::from_json(&g["record"].to_string()).unwrap();
        assert!(matches!(rec, AnyRecord::Dbaix(_)));
        let (b, events) = AnyBattle::replay(&rec).unwrap();
        assert_eq!(serde_json::to_value(&events).unwrap(), g["events"]);
        assert!(b.finished());
        assert_eq!(b.variant(), dbcore::battlefield::Variant::Dbaix);
    }
    let dba: Value = serde_json::from_str(
        &std::fs::read_to_string(golden_dir().join("whole_battle_seed_1.json")).unwrap(),
    )
    .unwrap();
    let rec = AnyRecord::from_json(&dba["record"].to_string()).unwrap();
    let (b, events) = AnyBattle::replay(&rec).unwrap();
    assert_eq!(serde_json::to_value(&events).unwrap(), dba["events"]);
    // A DBAix action handed to a DBA battle is refused by type, not guessed.
    let mut b2 = b.clone();
    let e = b2
        .apply(AnyAction::Dbaix(dbcore::dbaix::Action::EndMovement))
        .unwrap_err();
    assert!(matches!(e, GameError::WrongGame { .. }));
    assert_eq!(b2, b);
}

// DBAIX.md §0, §1: the picture of a DBAix table, in inches, three sides in three colours,
// figures labelled by name.
#[test]
fn dbaix_table_svg_has_three_colours_and_names() {
    let p = dbcore::dbaix::driver::play(dbcore::dbaix::driver::demo_setup(), 1, 30).unwrap();
    let (b, _) = Battle::replay(&p.record).unwrap();
    let svg = dbcore::dbaix::svg::table_svg(&b);
    assert!(svg.starts_with("<svg"));
    // 36 in at 20 px an inch, the table's own rectangle (the key widens the picture).
    assert!(
        svg.contains(r#"<rect class="board" x="0" y="0" width="720.000" height="720.000""#),
        "{svg}"
    );
    for colour in ["#b22222", "#2e7d32", "#1f4e9c"] {
        assert!(svg.contains(colour), "{colour}");
    }
    for name in [
        "Dubius Status",
        "Obelix",
        "Cacofonix",
        "The Captain",
        "Pegleg",
    ] {
        assert!(svg.contains(&format!(">{name}</text>")), "{name}");
    }
}
