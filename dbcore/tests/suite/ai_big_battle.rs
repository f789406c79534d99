//! The computer opponent on both sides of a Big Battle and of a Giant game (issue #44): it
//! answers the command PIP roll the battle awaits with one die a command (DBA3.md §14.4),
//! moves, shoots and fights, and no action it chooses is refused, for twelve bounds (as the
//! standard game's test in `ai.rs`; two opponents at a small search do not always close to a
//! verdict in that time).

use dbcore::surface::{Session, Stage};
use serde_json::{json, Value};

/// The opponent's search: enough to advance and fight, small enough for a quick test.
const NODES: u32 = 8;
/// Bounds played.
const BOUNDS: u64 = 12;

fn play_bounds(variant: &str, lists: [&str; 2], seed: u64) {
    let mut s = Session::new(json!({
        "lists": lists, "variant": variant, "prebattle": "ai", "seed": seed,
    }))
    .unwrap_or_else(|e| panic!("{variant} from {lists:?}: {e}"));
    assert_eq!(
        s.stage(),
        Stage::Battle,
        "the opponent played the pre-battle"
    );
    let (mut command_rolls, mut moves, mut actions) = (0, 0, 0);
    while s.stage() != Stage::Finished {
        let info = s.call("info", Value::Null).unwrap();
        if info["bound"].as_u64().unwrap() > BOUNDS {
            break;
        }
        assert!(
            actions < 5_000,
            "{variant}: {actions} actions in {BOUNDS} bounds"
        );
        let choice = s
            .call("ai", json!({ "nodes": NODES }))
            .unwrap_or_else(|e| panic!("{variant}: the opponent has no answer: {e}"));
        let action = choice.get("action").cloned().unwrap_or(choice);
        match action["action"].as_str() {
            Some("roll_command_pips") => command_rolls += 1,
            Some("move") => moves += 1,
            // §14.4: one die a command, never the standard game's one die.
            Some("roll_pips") => panic!("{variant}: a one-die PIP roll"),
            _ => {}
        }
        s.call("apply", json!({ "action": action.clone() }))
            .unwrap_or_else(|e| panic!("{variant}: the opponent's {action} is refused: {e}"));
        actions += 1;
    }
    assert!(
        command_rolls >= BOUNDS.min(4),
        "{variant}: {command_rolls} PIP rolls"
    );
    assert!(moves > 0, "{variant}: the opponent never moved");
}

// DBA3.md §14.4: in Big Battle each command rolls its own PIP die.
#[test]
fn s14_4_the_opponent_plays_big_battle_bounds_on_both_sides() {
    play_bounds("big_battle", ["II/56", "II/5a"], 3);
}

// DBA3.md §14.6: Giant, each general's command with its own die.
#[test]
fn s14_6_the_opponent_plays_giant_bounds_on_both_sides() {
    play_bounds("giant", ["II/56", "II/5a"], 5);
}
