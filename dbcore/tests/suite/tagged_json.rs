//! The readers of the internally tagged enums of a battle state (actions, move orders, group
//! steps, phases, statuses) read the tag first and the fields straight after it instead of
//! buffering the object (issue #15). These tests hold them to serde's own derived reader (the
//! "old" reader, derived here with `tag = ...` as the types once were): the same values from
//! every golden trace and state, in dbcore's key order and in any other, and the same refusals,
//! with a field path that starts with the old one (the new reader can name the field inside the
//! variant, where the old one stopped at the enum).

use dbcore::battle::{
    Action, Battle, BattleRecord, ContactWanted, ElementId, Flank, GroupStep, LossCause, MoveOrder,
    Phase, Status,
};
use dbcore::geometry::Pose;
use dbcore::DieScore;
use serde::Deserialize;
use serde_json::{json, Value};

#[derive(Deserialize)]
#[serde(
    remote = "Action",
    rename_all = "snake_case",
    tag = "action",
    deny_unknown_fields
)]
enum OldAction {
    RollPips {
        die: DieScore,
    },
    RollCommandPips {
        dice: Vec<DieScore>,
    },
    DiceRiver {
        die: DieScore,
    },
    Move {
        #[serde(with = "OldMoveOrder")]
        order: MoveOrder,
    },
    EndMovement,
    Shoot {
        shooter: ElementId,
        target: ElementId,
        #[serde(default)]
        support: Vec<ElementId>,
        dice: [DieScore; 2],
        #[serde(default)]
        recoil_own_depth: Vec<ElementId>,
        #[serde(default)]
        shoots_back: bool,
    },
    Sally {
        city: usize,
        pose: Pose,
    },
    Land {
        ids: Vec<ElementId>,
        poses: Vec<Pose>,
    },
    Fight {
        a: ElementId,
        b: ElementId,
        dice: [DieScore; 2],
        #[serde(default)]
        recoil_own_depth: Vec<ElementId>,
        #[serde(default)]
        c_in_c_bonus: Vec<ElementId>,
    },
    Hold {
        ids: Vec<ElementId>,
    },
    Flee,
}

#[derive(Deserialize)]
#[serde(
    remote = "MoveOrder",
    rename_all = "snake_case",
    tag = "type",
    deny_unknown_fields
)]
enum OldMoveOrder {
    Element {
        id: ElementId,
        path: Vec<Pose>,
    },
    Group {
        ids: Vec<ElementId>,
        #[serde(deserialize_with = "old_steps")]
        steps: Vec<GroupStep>,
    },
    Column {
        ids: Vec<ElementId>,
        path: Vec<Pose>,
    },
    IntoContact {
        ids: Vec<ElementId>,
        target: ElementId,
        contact: ContactWanted,
    },
    Dismount {
        id: ElementId,
    },
    ThroughCity {
        ids: Vec<ElementId>,
        city: usize,
    },
}

#[derive(Deserialize)]
#[serde(
    remote = "GroupStep",
    rename_all = "snake_case",
    tag = "step",
    deny_unknown_fields
)]
enum OldGroupStep {
    Advance { distance: f64 },
    Wheel { pivot: Flank, degrees: f64 },
}

#[derive(Deserialize)]
struct OldStep(#[serde(with = "OldGroupStep")] GroupStep);

fn old_steps<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Vec<GroupStep>, D::Error> {
    Ok(Vec::<OldStep>::deserialize(d)?
        .into_iter()
        .map(|s| s.0)
        .collect())
}

#[derive(Deserialize)]
#[serde(
    remote = "Phase",
    rename_all = "snake_case",
    tag = "phase",
    deny_unknown_fields
)]
enum OldPhase {
    AwaitingPips,
    Movement,
    Shooting,
    CloseCombat,
    Finished { winner: Option<usize> },
}

#[derive(Deserialize)]
#[serde(
    remote = "Status",
    rename_all = "snake_case",
    tag = "status",
    deny_unknown_fields
)]
enum OldStatus {
    InPlay,
    Lost { cause: LossCause },
    Afloat,
}

/// What a reader made of a text: the value, or the path and message of its refusal.
type Read<T> = Result<T, (String, String)>;

fn read_new<T: serde::de::DeserializeOwned>(text: &str) -> Read<T> {
    let mut de = serde_json::Deserializer::from_str(text);
    serde_path_to_error::deserialize(&mut de)
        .map_err(|e| (e.path().to_string(), e.inner().to_string()))
}

/// The old reader of `T`, its derived remote reader being `old`.
fn read_old<T>(
    text: &str,
    old: impl FnOnce(
        serde_path_to_error::Deserializer<
            &mut serde_json::Deserializer<serde_json::de::StrRead<'_>>,
        >,
    ) -> Result<T, serde_json::Error>,
) -> Read<T> {
    let mut de = serde_json::Deserializer::from_str(text);
    let mut track = serde_path_to_error::Track::new();
    let r = old(serde_path_to_error::Deserializer::new(&mut de, &mut track));
    r.map_err(|e| (track.path().to_string(), e.to_string()))
}

/// serde_json's message without its " at line L column C", which says where in the text the
/// reader was when it refused: after the object for the old reader, at the field for the new.
fn without_position(message: &str) -> &str {
    message
        .rsplit_once(" at line ")
        .map_or(message, |(head, _)| head)
}

/// Both readers of `text` agree: the same value, or both refuse with the same message and the
/// new path extending the old one.
fn agree<T: PartialEq + std::fmt::Debug + serde::de::DeserializeOwned>(text: &str, old: Read<T>) {
    let new: Read<T> = read_new(text);
    match (&new, &old) {
        (Ok(n), Ok(o)) => assert_eq!(n, o, "{text}"),
        (Err((np, nm)), Err((op, om))) => {
            assert_eq!(without_position(nm), without_position(om), "{text}");
            assert!(
                np.starts_with(op.as_str()) || op == ".",
                "{text}: new path {np}, old path {op}"
            );
        }
        _ => panic!("{text}: the new reader gives {new:?}, the old one {old:?}"),
    }
}

fn old_action(text: &str) -> Read<Action> {
    read_old(text, |d| OldAction::deserialize(d))
}

fn old_order(text: &str) -> Read<MoveOrder> {
    read_old(text, |d| OldMoveOrder::deserialize(d))
}

fn goldens() -> Vec<BattleRecord> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/golden");
    let mut paths: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    paths.sort();
    let records: Vec<BattleRecord> = paths
        .iter()
        .filter_map(|p| {
            let v: Value = serde_json::from_str(&std::fs::read_to_string(p).unwrap()).unwrap();
            serde_json::from_value(v.get("record")?.clone()).ok()
        })
        .collect();
    assert!(
        records.len() >= 5,
        "golden records found: {}",
        records.len()
    );
    records
}

/// The same object with its keys in reverse order: the tag last.
fn reversed(v: &Value) -> String {
    match v {
        Value::Object(m) => {
            let fields: Vec<String> = m
                .iter()
                .rev()
                .map(|(k, v)| format!("{}:{}", Value::from(k.as_str()), reversed(v)))
                .collect();
            format!("{{{}}}", fields.join(","))
        }
        Value::Array(a) => {
            let items: Vec<String> = a.iter().map(reversed).collect();
            format!("[{}]", items.join(","))
        }
        other => other.to_string(),
    }
}

#[test]
fn every_golden_action_reads_as_before_in_any_key_order() {
    let mut n = 0;
    for record in goldens() {
        for action in &record.actions {
            let text = serde_json::to_string(action).unwrap();
            agree(&text, old_action(&text));
            let back = reversed(&serde_json::from_str(&text).unwrap());
            agree(&back, old_action(&back));
            assert_eq!(read_new::<Action>(&back).unwrap(), *action);
            if let Action::Move { order } = action {
                let text = serde_json::to_string(order).unwrap();
                agree(&text, old_order(&text));
            }
            n += 1;
        }
    }
    assert!(n > 100, "{n} actions");
}

#[test]
fn every_golden_state_reads_as_before() {
    for record in goldens() {
        let (battle, _) = Battle::replay(&record).unwrap();
        let text = serde_json::to_string(&battle).unwrap();
        let back: Battle = serde_json::from_str(&text).unwrap();
        assert_eq!(back, battle);
        // The same through the path-tracking reader, and from a parsed value (sorted keys).
        assert_eq!(dbcore::json::from_str::<Battle>(&text).unwrap(), battle);
        let value: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(
            dbcore::json::from_value::<Battle>(value.clone()).unwrap(),
            battle
        );
        for e in value["elements"].as_array().unwrap() {
            let s = e["status"].to_string();
            agree(&s, read_old(&s, |d| OldStatus::deserialize(d)));
        }
        let p = value["phase"].to_string();
        agree(&p, read_old(&p, |d| OldPhase::deserialize(d)));
        // The compact state, written and read back.
        let compact = battle.state_json();
        assert_eq!(Battle::from_state_json(&compact).unwrap(), battle);
    }
}

#[test]
fn malformed_actions_are_refused_as_before() {
    let bad = [
        json!({"action": "roll_pip", "die": 4}),
        json!({"action": "roll_pips", "die": "six"}),
        json!({"action": "roll_pips", "die": 7}),
        json!({"action": "roll_pips"}),
        json!({"die": 4}),
        json!({"die": 4, "action": 3}),
        json!({"action": 3, "die": 4}),
        json!({"action": "move", "order": {"type": "element", "id": 1, "path": [{"x": null, "y": 0.0, "facing": 0.0}]}}),
        json!({"action": "move", "order": {"id": 1, "type": "element", "path": "north"}}),
        json!({"action": "move", "order": {"type": "wheel", "id": 1}}),
        json!({"action": "move", "order": {"type": "group", "ids": [1], "steps": [{"step": "advance"}]}}),
        json!({"action": "move", "order": {"type": "group", "ids": [1], "steps": [{"distance": "far", "step": "advance"}]}}),
        json!({"action": "fight", "a": 1, "b": 2, "dice": [1]}),
        json!({"action": "shoot", "shooter": 1, "target": 2, "dice": [1, 2], "support": 3}),
        json!("roll_pips"),
        json!(["roll_pips", 4]),
        json!(null),
    ];
    for v in bad {
        let text = v.to_string();
        agree(&text, old_action(&text));
        let back = reversed(&v);
        agree(&back, old_action(&back));
    }
    // The tag twice, as JSON may spell it (duplicate keys).
    for text in [
        r#"{"action":"roll_pips","die":4,"action":"end_movement"}"#,
        r#"{"die":4,"action":"roll_pips","action":"roll_pips"}"#,
        r#"{"action":"end_movement","action":"end_movement"}"#,
    ] {
        agree(text, old_action(text));
        assert!(read_new::<Action>(text).is_err(), "{text}");
    }
    // Missing the tag, and a value of the wrong shape for a phase and a status.
    for text in ["{}", "{\"phase\":\"later\"}", "{\"winner\":1}", "[]"] {
        agree(text, read_old(text, |d| OldPhase::deserialize(d)));
    }
    for text in [
        "{\"status\":\"lost\"}",
        "{\"cause\":\"eaten\",\"status\":\"lost\"}",
        "{\"status\":\"lost\",\"cause\":\"eaten\"}",
    ] {
        agree(text, read_old(text, |d| OldStatus::deserialize(d)));
    }
    // Stricter than serde's reader, which passes over any field of a unit variant even with
    // `deny_unknown_fields`: a unit variant has no fields, and one given is refused (issue #44).
    for text in [
        "{\"status\":\"in_play\",\"cause\":\"destroyed\"}",
        "{\"cause\":\"destroyed\",\"status\":\"in_play\"}",
    ] {
        assert_eq!(
            read_old(text, |d| OldStatus::deserialize(d)),
            Ok(Status::InPlay)
        );
        let (_, message) = read_new::<Status>(text).expect_err("a field of a unit variant");
        assert!(message.contains("unknown field `cause`"), "{message}");
    }
}
