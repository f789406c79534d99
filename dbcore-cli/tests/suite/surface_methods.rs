//! The surface's methods over the protocol: `battle.<method>` for a battle's, the static ones
//! under their own names, with the frame and the client's names applied both ways; undo and the
//! revision; the client token of `hello`; and a whole game played by choosing from
//! `battle.legal_actions`.

use crate::support;

use dbcore_cli::rpc::*;
use serde_json::{json, Value};

fn golden(name: &str) -> Value {
    let path = format!("{}/../tests/golden/{name}.json", env!("CARGO_MANIFEST_DIR"));
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// One request's answer, unvalidated.
fn answer(r: &Referee, method: &str, params: Value) -> Value {
    let req = json!({ "jsonrpc": "2.0", "id": 1, "method": method, "params": params });
    serde_json::from_str(&r.handle_text(&req.to_string()).unwrap()).unwrap()
}

/// One call in the bw frame, its request and answer validated against the schema.
fn call(r: &Referee, method: &str, params: Value) -> Value {
    let req = json!({ "jsonrpc": "2.0", "id": 1, "method": method, "params": params });
    let v = answer(r, method, params);
    support::assert_exchange(&req, &v);
    v
}

fn ok(r: &Referee, method: &str, params: Value) -> Value {
    let v = call(r, method, params);
    assert!(v.get("error").is_none(), "{method}: {v}");
    v["result"].clone()
}

fn err(r: &Referee, method: &str, params: Value) -> Value {
    let v = call(r, method, params);
    assert!(v.get("result").is_none(), "{method}: {v}");
    v["error"].clone()
}

fn demo(r: &Referee) -> String {
    let c = ok(r, "battle.create", json!({ "demo": "battle", "seed": 7 }));
    c["battle"].as_str().unwrap().to_string()
}

#[test]
fn every_method_hello_lists_has_a_schema_and_is_answered() {
    let r = Referee::default();
    let listed = ok(&r, "hello", json!({}))["methods"].clone();
    let listed: Vec<String> = serde_json::from_value(listed).unwrap();
    assert_eq!(listed, all_methods());
    let schemas: Vec<&str> = dbcore_cli::schema::METHOD_SCHEMAS
        .iter()
        .map(|(m, _, _)| *m)
        .collect();
    for m in &listed {
        assert!(schemas.contains(&m.as_str()), "{m} has no schema");
        // Reachable: an unknown battle or a missing parameter, never an unknown method.
        let v = answer(&r, m, json!({ "battle": "b999" }));
        assert_ne!(v["error"]["code"], METHOD_NOT_FOUND, "{m}: {v}");
    }
    assert_eq!(schemas.len(), listed.len());
    // A surface method under a name the surface does not have is still unknown.
    let e = err(&r, "battle.no_such_thing", json!({ "battle": "b1" }));
    assert_eq!(e["code"], METHOD_NOT_FOUND);
}

#[test]
fn legal_actions_play_parse_describe_and_undo_over_the_protocol() {
    let r = Referee::default();
    let id = demo(&r);
    let info = ok(&r, "battle.info", json!({ "battle": id }));
    assert_eq!(info["revision"], 0);
    assert_eq!(info["stage"], "battle");
    let legal = ok(&r, "battle.legal_actions", json!({ "battle": id }));
    let first = legal["actions"][0].clone();
    assert_eq!(first["action"], "roll_pips");
    let applied = ok(
        &r,
        "battle.apply",
        json!({ "battle": id, "revision": 0, "action": first }),
    );
    assert_eq!(applied["revision"], 1);
    // The notation: read, printed, played.
    let parsed = ok(
        &r,
        "battle.parse",
        json!({ "battle": id, "text": "5 move 1" }),
    );
    assert_eq!(parsed["text"], "5 to 7.5 5 @ 0");
    let described = ok(
        &r,
        "battle.describe",
        json!({ "battle": id, "action": parsed["action"] }),
    );
    assert_eq!(described["text"], parsed["text"]);
    // A change names its revision: without it, or stale, it is refused.
    let e = err(
        &r,
        "battle.play",
        json!({ "battle": id, "text": "5 move 1" }),
    );
    assert_eq!(e["code"], INVALID_PARAMS);
    let e = err(
        &r,
        "battle.play",
        json!({ "battle": id, "revision": 0, "text": "5 move 1" }),
    );
    assert_eq!(e["code"], STALE_REVISION);
    let played = ok(
        &r,
        "battle.play",
        json!({ "battle": id, "revision": 1, "text": "5 move 1" }),
    );
    assert_eq!(played["revision"], 2);
    // A retried play is answered from the cache, not played twice.
    let again = ok(
        &r,
        "battle.play",
        json!({ "battle": id, "revision": 1, "text": "5 move 1" }),
    );
    assert_eq!(again, played);
    // Undo takes the move back and moves the revision on: a revision is never reused.
    let undone = ok(&r, "battle.undo", json!({ "battle": id, "revision": 2 }));
    assert_eq!(undone["revision"], 3);
    assert_eq!(undone["action"], played["action"]);
    let info = ok(&r, "battle.info", json!({ "battle": id }));
    assert_eq!(info["revision"], 3);
    assert_eq!(info["events"], applied["events"].as_array().unwrap().len());
    // The retried undo is the cached one; the old play at revision 1 is stale now.
    assert_eq!(
        ok(&r, "battle.undo", json!({ "battle": id, "revision": 2 })),
        undone
    );
    let e = err(
        &r,
        "battle.play",
        json!({ "battle": id, "revision": 1, "text": "5 move 1" }),
    );
    assert_eq!(e["code"], STALE_REVISION);
    assert_eq!(e["data"]["revision"], 3);
    // battles.list and battle.state agree with the revision.
    assert_eq!(
        ok(&r, "battle.state", json!({ "battle": id }))["revision"],
        3
    );
    assert_eq!(
        ok(&r, "battles.list", json!({}))["battles"][0]["revision"],
        3
    );
    // Nothing left to undo after the PIP roll: a refusal, and the revision stays.
    ok(&r, "battle.undo", json!({ "battle": id, "revision": 3 }));
    let e = err(&r, "battle.undo", json!({ "battle": id, "revision": 4 }));
    assert_eq!(e["code"], RULE_REFUSAL);
    assert_eq!(e["data"]["code"], 201);
    // An unknown parameter is named by the surface.
    let e = err(
        &r,
        "battle.legal_actions",
        json!({ "battle": id, "colour": "red" }),
    );
    assert_eq!(e["code"], INVALID_PARAMS);
    assert!(e["message"].as_str().unwrap().contains("colour"), "{e}");
}

#[test]
fn the_other_battle_methods_answer_in_their_shapes() {
    let r = Referee::default();
    let id = demo(&r);
    ok(
        &r,
        "battle.play",
        json!({ "battle": id, "revision": 0, "text": "pips 4" }),
    );
    for (m, extra) in [
        ("battle.awaiting", json!({})),
        ("battle.record", json!({})),
        ("battle.events", json!({ "since": 0 })),
        ("battle.narrate", json!({ "from_action": 0 })),
        ("battle.svg", json!({})),
        ("battle.elements", json!({})),
        ("battle.ai", json!({ "nodes": 0 })),
        ("battle.driver", json!({})),
        ("battle.combat_odds", json!({ "a": 1, "b": 101 })),
        ("battle.reach", json!({ "element": 5, "bearings": 4 })),
        ("battle.verdict", json!({})),
    ] {
        let mut p = extra;
        p["battle"] = id.clone().into();
        let v = call(&r, m, p);
        assert!(
            v.get("result").is_some() || v["error"]["code"] == RULE_REFUSAL,
            "{m}: {v}"
        );
    }
    let verdict = ok(&r, "battle.verdict", json!({ "battle": id }));
    assert_eq!(verdict, json!({ "finished": false, "winners": null }));
    // The static methods need no battle and speak dbcore's own JSON.
    let v = ok(&r, "version", json!({}));
    assert_eq!(v["record_format"], "dbcore-game");
    let found = ok(&r, "armies.lookup", json!({ "text": "ancient british" }));
    assert_eq!(found["id"], "II/53");
    let e = err(&r, "armies.lookup", json!({ "text": "Ancient Britsh" }));
    assert!(
        e["message"]
            .as_str()
            .unwrap()
            .contains("did you mean II/53"),
        "{e}"
    );
    let record = golden("into_contact")["record"].clone();
    let read = ok(&r, "record.read", json!({ "game": record }));
    assert_eq!(read["format"], "dbcore-game");
    let replayed = ok(&r, "record.replay", json!({ "game": read }));
    assert_eq!(replayed["events"], golden("into_contact")["events"]);
    let valid = ok(&r, "validate", json!({ "document": record["setup"] }));
    assert_eq!(valid["kind"], "setup");
}

#[test]
fn forwarded_methods_speak_the_battles_frame_and_names() {
    let r = Referee::default();
    let mut setup = golden("into_contact")["record"]["setup"].clone();
    setup["armies"][0]["elements"][1]["id"] = "blade".into();
    setup["armies"][1]["elements"][1]["id"] = "spear".into();
    // `"frame": "tts"` is the tts preset at its default scale.
    let c = ok(
        &r,
        "battle.import",
        json!({ "record": { "setup": golden("into_contact")["record"]["setup"], "actions": [] }, "frame": "tts" }),
    );
    let tts = c["battle"].clone();
    let state = answer(&r, "battle.elements", json!({ "battle": tts }))["result"].clone();
    assert!(state[0]["pose"]["z"].is_number(), "{state}");
    // Every action listed in the tts frame applies as listed.
    let id = answer(&r, "battle.create", json!({ "setup": setup }))["result"]["battle"].clone();
    for b in [&tts, &id] {
        answer(
            &r,
            "battle.play",
            json!({ "battle": b, "revision": 0, "text": "pips 6" }),
        );
        let listed = answer(&r, "battle.legal_actions", json!({ "battle": b }))["result"].clone();
        let actions = listed["actions"].as_array().unwrap();
        assert!(actions.len() > 3, "{listed}");
        for a in actions {
            let v = answer(&r, "battle.check", json!({ "battle": b, "action": a }));
            assert_eq!(v["result"]["legal"], true, "{a}: {v}");
        }
    }
    // Names go in and come out of forwarded methods.
    let listed = answer(
        &r,
        "battle.legal_actions",
        json!({ "battle": id, "element": "blade" }),
    )["result"]
        .clone();
    let text = listed.to_string();
    assert!(text.contains("\"blade\""), "{text}");
    let reach = ok(
        &r,
        "battle.reach",
        json!({ "battle": id, "element": "blade", "bearings": 4 }),
    );
    assert!(reach.to_string().contains("\"blade\""), "{reach}");
    let e = err(
        &r,
        "battle.combat_odds",
        json!({ "battle": id, "a": "blade", "b": "spear" }),
    );
    assert!(
        e["message"].as_str().unwrap().contains("#2 and #102"),
        "{e}"
    );
    let e = err(
        &r,
        "battle.reach",
        json!({ "battle": id, "element": "nobody" }),
    );
    assert_eq!(e["data"]["pointer"], "/params/element");
}

#[test]
fn a_frame_declared_at_hello_is_that_clients_only() {
    let r = Referee::default();
    let setup = golden("into_contact")["record"]["setup"].clone();
    // Over HTTP each request stands alone: a hello with a frame changes nobody's default.
    let h = ok(
        &r,
        "hello",
        json!({ "frame": { "preset": "vassal", "units_per_bw": 10.0 } }),
    );
    assert_eq!(h["frame"]["preset"], "vassal");
    let token = h["client"].clone();
    let plain = ok(&r, "battle.create", json!({ "demo": "battle" }));
    let bw = answer(&r, "battle.elements", json!({ "battle": plain["battle"] }))["result"][0]
        ["pose"]
        .clone();
    let other = ok(
        &r,
        "battle.import",
        json!({ "record": { "setup": setup, "actions": [] } }),
    );
    let v = answer(&r, "battle.elements", json!({ "battle": other["battle"] }));
    assert_eq!(
        v["result"][0]["pose"]["x"], 7.5,
        "bw without the token: {v}"
    );
    // With the token, the battle is in the vassal frame that hello declared: 10 px a BW, y down
    // from the top edge (the board's size stays in BW).
    let mine = ok(
        &r,
        "battle.create",
        json!({ "demo": "battle", "client": token }),
    );
    let depth = answer(&r, "battle.export", json!({ "battle": mine["battle"] }))["result"]
        ["record"]["setup"]["battlefield"]["board"]["depth"]
        .as_f64()
        .unwrap();
    let px = answer(&r, "battle.elements", json!({ "battle": mine["battle"] }))["result"][0]
        ["pose"]
        .clone();
    assert_eq!(
        px["x"].as_f64().unwrap(),
        bw["x"].as_f64().unwrap() * 10.0,
        "{px}"
    );
    assert_eq!(
        px["y"].as_f64().unwrap(),
        (depth - bw["y"].as_f64().unwrap()) * 10.0,
        "{px}"
    );
    let e = err(
        &r,
        "battle.create",
        json!({ "demo": "battle", "client": "c999999" }),
    );
    assert_eq!(e["data"]["pointer"], "/params/client");
    // Over stdio the stream is the client: its hello frame holds for the stream.
    let mut stream = Client::default();
    let said = r.handle_text_as(
        r#"{"jsonrpc":"2.0","id":1,"method":"hello","params":{"frame":"tts"}}"#,
        &mut stream,
    );
    assert!(said.unwrap().contains("\"tts\""));
    let created = r
        .handle_text_as(
            r#"{"jsonrpc":"2.0","id":2,"method":"battle.create","params":{"demo":"battle"}}"#,
            &mut stream,
        )
        .unwrap();
    let b = serde_json::from_str::<Value>(&created).unwrap()["result"]["battle"].clone();
    let v = answer(&r, "battle.elements", json!({ "battle": b }));
    assert!(v["result"][0]["pose"]["z"].is_number(), "{v}");
}

#[test]
fn export_writes_the_game_record_and_import_reads_it_back() {
    let r = Referee::default();
    let c = ok(
        &r,
        "battle.create",
        json!({ "lists": ["II/56", "II/53"], "seed": 1 }),
    );
    let id = c["battle"].clone();
    let exported = ok(&r, "battle.export", json!({ "battle": id, "state": true }));
    assert_eq!(exported["record"]["format"], "dbcore-game");
    assert!(exported["record"]["prebattle"].is_object());
    // As a value and as JSON text the record imports at the same revision; a state holds the
    // battle alone, so it counts the battle's actions (none yet).
    for params in [
        json!({ "record": exported["record"] }),
        json!({ "record": exported["record"].to_string() }),
    ] {
        let imported = ok(&r, "battle.import", params);
        assert_eq!(imported["revision"], c["revision"]);
    }
    let imported = ok(&r, "battle.import", json!({ "state": exported["state"] }));
    assert_eq!(imported["revision"], 0);
    let e = err(
        &r,
        "battle.import",
        json!({ "record": { "format": "dbcore-game", "version": 9 } }),
    );
    assert_eq!(e["code"], RULE_REFUSAL);
}

/// A small deterministic generator for the uniform choices (xorshift64*).
struct Choices(u64);

impl Choices {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 33) as usize % n
    }
}

/// Play battle `id` over the protocol from revision `revision`, each action chosen uniformly
/// from `battle.legal_actions` (dice from the session's tray) and applied at its revision,
/// until `until` holds of `battle.info` or `cap` actions are played. Every action must be
/// accepted. Returns the number played.
fn play_uniformly(
    r: &Referee,
    id: &Value,
    mut revision: u64,
    cap: usize,
    choose: &mut Choices,
    until: impl Fn(&Value) -> bool,
) -> usize {
    let mut played = 0;
    while played < cap {
        let info = answer(r, "battle.info", json!({ "battle": id }))["result"].clone();
        assert_eq!(info["revision"], revision);
        if until(&info) {
            break;
        }
        let listed = answer(r, "battle.legal_actions", json!({ "battle": id }));
        let actions = listed["result"]["actions"].as_array().expect("a list");
        assert!(
            !actions.is_empty(),
            "nothing to do at revision {revision}: {listed}"
        );
        let a = &actions[choose.below(actions.len())];
        let applied = answer(
            r,
            "battle.apply",
            json!({ "battle": id, "revision": revision, "action": a }),
        );
        assert!(applied.get("result").is_some(), "refused: {a}\n{applied}");
        revision += 1;
        assert_eq!(applied["result"]["revision"], revision);
        played += 1;
    }
    played
}

#[test]
fn a_whole_battle_played_from_legal_actions_over_the_protocol_refuses_nothing() {
    // The demonstration battle to its verdict, every action chosen uniformly from
    // battle.legal_actions.
    let r = Referee::default();
    let id = ok(&r, "battle.create", json!({ "demo": "battle", "seed": 3 }))["battle"].clone();
    let mut choose = Choices(0x9E37_79B9_7F4A_7C15);
    let played = play_uniformly(&r, &id, 0, 1000, &mut choose, |info| {
        info["stage"] == "finished"
    });
    let verdict = ok(&r, "battle.verdict", json!({ "battle": id }));
    assert_eq!(verdict["finished"], true, "{played} actions: {verdict}");
    // The game record replays to the same verdict.
    let record = ok(&r, "battle.record", json!({ "battle": id }));
    let replayed = ok(&r, "record.replay", json!({ "game": record }));
    assert_eq!(replayed["result"]["winners"], verdict["winners"]);
    // And a pre-battle from two army lists, played the same way until the battle begins.
    let c = ok(&r, "battle.create", json!({ "lists": ["II/56", "II/53"] }));
    let pre = c["battle"].clone();
    play_uniformly(&r, &pre, 0, 500, &mut choose, |info| {
        info["stage"] != "prebattle"
    });
    let info = ok(&r, "battle.info", json!({ "battle": pre }));
    assert_eq!(info["stage"], "battle", "{info}");
}

#[test]
fn a_bugs_encounter_plays_whole_over_the_protocol() {
    // BUGS.md §5, §15: `battle.create` with `bugs` (a demonstration encounter on the project's
    // synthetic tables, made-up values as their note says), then every action chosen from
    // battle.legal_actions to the verdict, with no refusal.
    let tables: Value = serde_json::from_str(
        &std::fs::read_to_string(format!(
            "{}/../tests/bugs/synthetic-tables.json",
            env!("CARGO_MANIFEST_DIR")
        ))
        .unwrap(),
    )
    .unwrap();
    let r = Referee::default();
    let c = ok(
        &r,
        "battle.create",
        json!({ "bugs": { "encounter": 1, "tables": tables }, "seed": 5 }),
    );
    let id = c["battle"].clone();
    let mut choose = Choices(0x51_7CC1_B727_220A);
    play_uniformly(&r, &id, 0, 100_000, &mut choose, |info| {
        info["stage"] == "finished"
    });
    let info = ok(&r, "battle.info", json!({ "battle": id }));
    assert_eq!(info["game"], "bugs");
    assert_eq!(info["verdict"]["over"], true);
    let record = ok(&r, "battle.record", json!({ "battle": id }));
    assert_eq!(record["game"], "bugs");
    let replayed = ok(&r, "record.replay", json!({ "game": record }));
    assert_eq!(replayed["result"]["winners"], info["winners"]);
    // The booklet's values are the user's: the empty template is refused, naming BUGS §17.
    let template: Value = serde_json::from_str(
        &std::fs::read_to_string(format!(
            "{}/../examples/bugs/tables-template.json",
            env!("CARGO_MANIFEST_DIR")
        ))
        .unwrap(),
    )
    .unwrap();
    let e = err(
        &r,
        "battle.create",
        json!({ "bugs": { "encounter": 1, "tables": template } }),
    );
    assert_eq!(e["data"]["rule"], "BUGS §17", "{e}");
}
