//! Bad JSON is refused with the path of the field at fault, for set-ups, actions, states and
//! records (issue #11), through `dbcore::json` and the game-choosing readers of `dbcore::game`.

use dbcore::battle::{Action, Battle, BattleRecord, BattleSetup};
use dbcore::game::{AnyBattle, AnyRecord, AnySetup};
use dbcore::{ErrorCode, ErrorInfo};
use serde_json::{json, Value};

fn golden() -> Value {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../tests/golden/whole_battle_seed_1.json"
    );
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn setup_with_bad_facing() -> String {
    let mut setup = golden()["record"]["setup"].clone();
    setup["armies"][0]["elements"][1]["pose"]["facing"] = json!("north");
    setup.to_string()
}

#[test]
fn a_setup_fault_names_its_field() {
    let text = setup_with_bad_facing();
    let want = "armies[0].elements[1].pose.facing: invalid type: string \"north\", expected f64";
    let e = dbcore::json::from_str::<BattleSetup>(&text).unwrap_err();
    assert_eq!(e.code(), ErrorCode::InvalidJson);
    assert!(e.to_string().contains(want), "{e}");
    // The reader that chooses the game by its variant says the same.
    let e = AnySetup::from_json(&text).unwrap_err();
    assert_eq!(e.code(), ErrorCode::InvalidJson);
    assert!(e.to_string().contains(want), "{e}");
}

#[test]
fn an_action_fault_names_its_field() {
    let battle =
        Battle::new(serde_json::from_value(golden()["record"]["setup"].clone()).unwrap()).unwrap();
    let any = AnyBattle::Dba(Box::new(battle));
    // A die given as text: the path is the action's field.
    let e = any
        .action_from_json(r#"{"action":"roll_pips","die":"six"}"#)
        .unwrap_err();
    assert_eq!(e.code(), ErrorCode::InvalidJson);
    assert!(
        e.to_string().contains("invalid type: string \"six\""),
        "{e}"
    );
    let e = dbcore::json::from_str::<Action>(r#"{"action":"roll_pip","die":4}"#).unwrap_err();
    assert!(e.to_string().contains("unknown variant `roll_pip`"), "{e}");
}

#[test]
fn a_record_fault_names_its_field() {
    let mut record = golden()["record"].clone();
    record["actions"][2]["order"]["path"][0]["x"] = json!(null);
    let text = record.to_string();
    let e = dbcore::json::from_str::<BattleRecord>(&text).unwrap_err();
    assert!(e.to_string().contains("actions[2]"), "{e}");
    let e = AnyRecord::from_json(&text).unwrap_err();
    assert_eq!(e.code(), ErrorCode::InvalidJson);
    assert!(e.to_string().contains("actions[2]"), "{e}");
}

#[test]
fn a_state_fault_names_its_field() {
    let battle =
        Battle::new(serde_json::from_value(golden()["record"]["setup"].clone()).unwrap()).unwrap();
    let mut state = serde_json::to_value(&battle).unwrap();
    state["setup"]["armies"][1]["base_edge"] = json!("up");
    let e = dbcore::json::from_str::<Battle>(&state.to_string()).unwrap_err();
    assert!(
        e.to_string()
            .contains("setup.armies[1].base_edge: unknown variant `up`"),
        "{e}"
    );
}

#[test]
fn an_old_pascal_case_spelling_is_refused_with_the_new_one_named() {
    // One spelling, no aliases: the old `"Standard"` is an error that names `standard`.
    let mut setup = golden()["record"]["setup"].clone();
    setup["variant"] = json!("Standard");
    let e = AnySetup::from_json(&setup.to_string()).unwrap_err();
    assert_eq!(e.code(), ErrorCode::InvalidJson);
    let m = e.to_string();
    assert!(m.contains("variant: unknown variant `Standard`"), "{m}");
    assert!(m.contains("dbcore spells it `standard`"), "{m}");
}
