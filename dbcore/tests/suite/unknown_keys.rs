//! Unknown keys are refused, with their path, in every document dbcore reads from outside
//! (issue #44, "strict input"): a misspelt optional field (`"generl": true`, `"shoot_back"`)
//! would otherwise be dropped without a word and the battle played without it.

use dbcore::battle::{Action, BattleSetup, MoveOrder, PrebattleAction, PrebattleSetup};
use dbcore::game::AnySetup;
use dbcore::record::GameFile;
use dbcore::{ErrorCode, ErrorInfo};
use serde::de::DeserializeOwned;
use serde_json::{json, Value};

fn golden() -> Value {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../tests/golden/whole_battle_seed_1.json"
    );
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// `doc` read as a `T` is refused as unreadable JSON naming the key `key` and the path `path`.
fn refused<T: DeserializeOwned + std::fmt::Debug>(doc: &Value, path: &str, key: &str) {
    let e = dbcore::json::from_value::<T>(doc.clone()).unwrap_err();
    assert_eq!(e.code(), ErrorCode::InvalidJson, "{e}");
    let text = e.to_string();
    assert!(text.contains(&format!("unknown field `{key}`")), "{text}");
    assert!(text.contains(path), "{text} should name {path}");
    // The same from text.
    let e = dbcore::json::from_str::<T>(&doc.to_string()).unwrap_err();
    assert!(
        e.to_string().contains(&format!("unknown field `{key}`")),
        "{e}"
    );
}

#[test]
fn a_setup_refuses_an_unknown_key_at_every_level() {
    // DBA3.md §2.5: `general` marks the general's element; misspelt, it must not be lost.
    let setup = golden()["record"]["setup"].clone();
    dbcore::json::from_value::<BattleSetup>(setup.clone()).expect("the golden set-up reads");
    let cases: [(&[&str], &str); 5] = [
        (&[], "sandboxx"),
        (&["armies", "0"], "camp_follower"),
        (&["armies", "0", "elements", "1"], "generl"),
        (&["armies", "0", "elements", "1", "pose"], "z"),
        (&["battlefield"], "size"),
    ];
    for (at, key) in cases {
        let mut doc = setup.clone();
        let mut node = &mut doc;
        for step in at {
            node = match step.parse::<usize>() {
                Ok(i) => &mut node[i],
                Err(_) => &mut node[*step],
            };
        }
        node[key] = json!(true);
        let path = at
            .iter()
            .map(|s| match s.parse::<usize>() {
                Ok(i) => format!("[{i}]"),
                Err(_) => format!(".{s}"),
            })
            .collect::<String>();
        let path = path.trim_start_matches('.').to_string();
        refused::<BattleSetup>(&doc, &path, key);
        // The reader that chooses the game by its variant refuses it too.
        assert!(AnySetup::from_json(&doc.to_string()).is_err());
    }
}

#[test]
fn an_action_refuses_an_unknown_key() {
    // §17.24: `shoots_back`, misspelt, would have been a shot without the return shot.
    let shot = json!({"action": "shoot", "shooter": 1, "target": 101, "dice": [3, 4],
                      "shoot_back": true});
    refused::<Action>(&shot, "", "shoot_back");
    // A unit variant has no fields at all.
    refused::<Action>(&json!({"action": "end_movement", "army": 0}), "", "army");
    // The key may come before the tag.
    refused::<Action>(
        &json!({"die": 3, "extra": 1, "action": "roll_pips"}),
        "",
        "extra",
    );
    // Inside a move order, the path names the order.
    let mv = json!({"action": "move", "order": {"type": "element", "id": 1,
                    "path": [{"x": 0.0, "y": 1.0, "facing": 0.0}], "speed": 2}});
    refused::<Action>(&mv, "order", "speed");
    refused::<MoveOrder>(&mv["order"], "", "speed");
    // The actions as dbcore writes them are read back.
    for action in golden()["record"]["actions"].as_array().unwrap() {
        dbcore::json::from_value::<Action>(action.clone()).expect("a golden action reads");
    }
}

#[test]
fn the_prebattle_refuses_an_unknown_key() {
    let setup = serde_json::to_value(dbcore::driver::demo_armies()).unwrap();
    dbcore::json::from_value::<PrebattleSetup>(setup.clone()).unwrap();
    let mut doc = setup.clone();
    doc["armies"][1]["agression"] = json!(3);
    refused::<PrebattleSetup>(&doc, "armies[1]", "agression");
    let roll = json!({"action": "roll_aggression", "dice": [3, 4], "reroll": true});
    refused::<PrebattleAction>(&roll, "", "reroll");
}

#[test]
fn a_dbaix_setup_refuses_an_unknown_key() {
    let setup = serde_json::to_value(dbcore::dbaix::driver::demo_setup()).unwrap();
    dbcore::json::from_value::<dbcore::dbaix::DbaixSetup>(setup.clone()).unwrap();
    let mut doc = setup;
    doc["figures"][0]["hero"] = json!(true);
    refused::<dbcore::dbaix::DbaixSetup>(&doc, "figures[0]", "hero");
}

#[test]
fn a_game_record_refuses_an_unknown_key_but_keeps_its_free_tags() {
    let game = golden()["game"].clone();
    let read = dbcore::json::from_value::<GameFile>(game.clone()).expect("the golden game reads");
    // `tags` are free text for people: any key there is kept, never refused.
    let mut tagged = game.clone();
    tagged["tags"]["anything at all"] = json!("kept");
    let with_tags = dbcore::json::from_value::<GameFile>(tagged).unwrap();
    assert_eq!(with_tags.tags.len(), read.tags.len() + 1);
    // Inside the moves, an action's unknown key is refused.
    let mut doc = game;
    let actions = doc["actions"].as_array_mut().expect("the game's actions");
    actions[0]["note"] = json!("first roll");
    let e = dbcore::json::from_value::<GameFile>(doc).unwrap_err();
    assert!(e.to_string().contains("unknown field `note`"), "{e}");
}
