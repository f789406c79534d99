//! The dispatcher without sockets: methods, sessions, revisions, the retry cache, frames and the
//! error codes (DBA3.md rules are dbcore's; these tests check the protocol around them).

use crate::support;

use dbcore_cli::rpc::*;
use serde_json::{json, Value};

fn golden(name: &str) -> Value {
    let path = format!("{}/../tests/golden/{name}.json", env!("CARGO_MANIFEST_DIR"));
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// One call in the bw frame: the request and its answer are validated against the schema.
fn call(r: &mut Referee, method: &str, params: Value) -> Value {
    let (req, v) = exchange(r, method, params);
    support::assert_exchange(&req, &v);
    v
}

/// One call, unvalidated (positions in another frame than the schema's).
fn exchange(r: &mut Referee, method: &str, params: Value) -> (Value, Value) {
    let req = json!({ "jsonrpc": "2.0", "id": 7, "method": method, "params": params });
    let text = r
        .handle_text(&req.to_string())
        .expect("a request with an id is answered");
    let v: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(v["jsonrpc"], "2.0");
    assert_eq!(v["id"], 7);
    (req, v)
}

fn ok_in_frame(r: &mut Referee, method: &str, params: Value) -> Value {
    let (_, v) = exchange(r, method, params);
    assert!(v.get("error").is_none(), "{method}: {v}");
    v["result"].clone()
}

fn ok(r: &mut Referee, method: &str, params: Value) -> Value {
    let v = call(r, method, params);
    assert!(v.get("error").is_none(), "{method}: {v}");
    v["result"].clone()
}

fn err(r: &mut Referee, method: &str, params: Value) -> Value {
    let v = call(r, method, params);
    assert!(v.get("result").is_none(), "{method}: {v}");
    v["error"].clone()
}

fn created(r: &mut Referee) -> String {
    let setup = golden("into_contact")["record"]["setup"].clone();
    let c = ok(r, "battle.create", json!({ "setup": setup }));
    assert_eq!(c["revision"], 0);
    c["battle"].as_str().unwrap().to_string()
}

#[test]
fn hello_names_the_protocol_frames_and_limits() {
    let mut r = Referee::default();
    let h = ok(&mut r, "hello", json!({ "protocol": [1] }));
    assert_eq!(h["protocol"], 1);
    assert_eq!(h["frames"], json!(["bw", "tts", "vassal"]));
    assert_eq!(h["limits"]["max_battles"], 64);
    assert_eq!(h["methods"].as_array().unwrap().len(), all_methods().len());
    assert_eq!(h["methods"][0], "hello");
    // Every method of the surface is listed: a battle's as `battle.<method>`.
    for m in [
        "battle.legal_actions",
        "battle.undo",
        "battle.play",
        "armies.lookup",
        "record.read",
    ] {
        assert!(h["methods"].as_array().unwrap().contains(&json!(m)), "{m}");
    }
    assert!(h["client"].as_str().unwrap().starts_with('c'));
    let e = err(&mut r, "hello", json!({ "protocol": [2, 3] }));
    assert_eq!(e["code"], INVALID_PARAMS);
    assert_eq!(e["data"]["supported"], json!([1]));
}

#[test]
fn a_whole_record_applies_revision_by_revision_and_exports_identically() {
    let mut r = Referee::default();
    let id = created(&mut r);
    let record = golden("into_contact")["record"].clone();
    let mut all_events = Vec::new();
    for (i, a) in record["actions"].as_array().unwrap().iter().enumerate() {
        let legal = ok(&mut r, "battle.legal", json!({ "battle": id }));
        assert_eq!(legal["revision"], i);
        let check = ok(&mut r, "battle.check", json!({ "battle": id, "action": a }));
        assert_eq!(check["legal"], true);
        let applied = ok(
            &mut r,
            "battle.apply",
            json!({ "battle": id, "revision": i, "action": a }),
        );
        assert_eq!(applied["revision"], i + 1);
        assert_eq!(
            applied["events"], check["events"],
            "check agrees with apply"
        );
        all_events.extend(applied["events"].as_array().unwrap().clone());
    }
    assert_eq!(Value::Array(all_events), golden("into_contact")["events"]);
    let exported = ok(&mut r, "battle.export", json!({ "battle": id }));
    // The game record (format `dbcore-game`) holds the golden record's set-up and actions.
    assert_eq!(exported["record"]["setup"], record["setup"]);
    assert_eq!(exported["record"]["actions"], record["actions"]);
    assert_eq!(support::battle_of(&exported["record"]), record);
    // Import gives a second battle at the same revision and state, from the old record or from
    // the exported one.
    let imported = ok(&mut r, "battle.import", json!({ "record": record }));
    assert_eq!(imported["revision"], 7);
    let reimported = ok(
        &mut r,
        "battle.import",
        json!({ "record": exported["record"] }),
    );
    assert_eq!(reimported["revision"], 7);
    let a = ok(&mut r, "battle.state", json!({ "battle": id }));
    let b = ok(
        &mut r,
        "battle.state",
        json!({ "battle": imported["battle"] }),
    );
    assert_eq!(a, b);
    assert_eq!(a["armies"][0]["name"], "South");
}

#[test]
fn a_saved_state_exports_and_imports_and_a_changed_one_is_refused() {
    let mut r = Referee::default();
    let record = golden("into_contact")["record"].clone();
    let id = ok(&mut r, "battle.import", json!({ "record": record }))["battle"].clone();
    let exported = ok(
        &mut r,
        "battle.export",
        json!({ "battle": id, "state": true }),
    );
    let state = exported["state"].clone();
    assert_eq!(state["format"], "dbcore-state");
    // The compact state imports (by its digest) to the same battle at the same revision.
    let imported = ok(&mut r, "battle.import", json!({ "state": state }));
    assert_eq!(imported["revision"], 7);
    let a = ok(&mut r, "battle.state", json!({ "battle": id }));
    let b = ok(
        &mut r,
        "battle.state",
        json!({ "battle": imported["battle"] }),
    );
    assert_eq!(a, b);
    // The old full state imports too, checked by replaying its record.
    let (full, _) =
        dbcore::battle::Battle::replay(&serde_json::from_value(record).unwrap()).unwrap();
    let full = serde_json::to_value(&full).unwrap();
    let again = ok(&mut r, "battle.import", json!({ "state": full }));
    let c = ok(&mut r, "battle.state", json!({ "battle": again["battle"] }));
    assert_eq!(a, c);
    // A compact state changed by hand: refused, code 103.
    let mut forged = exported["state"].clone();
    forged["pips"] = json!(6);
    let e = err(&mut r, "battle.import", json!({ "state": forged }));
    assert_eq!(e["code"], RULE_REFUSAL);
    assert_eq!(e["data"]["code"], 103);
    assert!(e["message"].as_str().unwrap().contains("digest"), "{e}");
    // Without `state`, export gives the record alone.
    let plain = ok(&mut r, "battle.export", json!({ "battle": id }));
    assert!(plain.get("state").is_none());
}

#[test]
fn a_refusal_is_a_result_of_check_and_an_error_of_apply_with_dbcores_code_and_rule() {
    let mut r = Referee::default();
    let id = created(&mut r);
    let fight = json!({ "action": "fight", "a": 2, "b": 102, "dice": [5, 1] });
    let check = ok(
        &mut r,
        "battle.check",
        json!({ "battle": id, "action": fight }),
    );
    assert_eq!(check["legal"], false);
    assert_eq!(check["refusal"]["code"], 201);
    assert_eq!(check["refusal"]["rule"], "§6.1");
    let e = err(
        &mut r,
        "battle.apply",
        json!({ "battle": id, "revision": 0, "action": fight }),
    );
    assert_eq!(e["code"], RULE_REFUSAL);
    assert_eq!(e["data"]["code"], 201);
    assert_eq!(e["data"]["detail"]["error"], "wrong_phase");
    // The refusal changed nothing.
    assert_eq!(
        ok(&mut r, "battle.state", json!({ "battle": id }))["revision"],
        0
    );
}

#[test]
fn a_stale_revision_is_refused_and_an_identical_retry_is_answered_from_the_cache() {
    let mut r = Referee::default();
    let id = created(&mut r);
    let roll = json!({ "action": "roll_pips", "die": 6 });
    let first = ok(
        &mut r,
        "battle.apply",
        json!({ "battle": id, "revision": 0, "action": roll }),
    );
    let retry = ok(
        &mut r,
        "battle.apply",
        json!({ "battle": id, "revision": 0, "action": roll }),
    );
    assert_eq!(first, retry);
    assert_eq!(
        ok(&mut r, "battle.state", json!({ "battle": id }))["revision"],
        1
    );
    // Another client, still at revision 0, tries something else: a conflict.
    let end = json!({ "action": "end_movement" });
    let e = err(
        &mut r,
        "battle.apply",
        json!({ "battle": id, "revision": 0, "action": end }),
    );
    assert_eq!(e["code"], STALE_REVISION);
    assert_eq!(e["data"]["revision"], 1);
    let e = err(
        &mut r,
        "battle.apply",
        json!({ "battle": id, "revision": 5, "action": end }),
    );
    assert_eq!(e["code"], STALE_REVISION);
    // A mutating call must name its revision.
    let e = err(
        &mut r,
        "battle.apply",
        json!({ "battle": id, "action": end }),
    );
    assert_eq!(e["code"], INVALID_PARAMS);
    assert_eq!(e["data"]["pointer"], "/params/revision");
}

#[test]
fn bad_params_point_at_the_field() {
    let mut r = Referee::default();
    let id = created(&mut r);
    // DBA3.md §0.3: a die of 9 is dbcore's dice refusal (code 300), as in every entry point.
    let e = err(
        &mut r,
        "battle.check",
        json!({ "battle": id, "action": { "action": "roll_pips", "die": 9 } }),
    );
    assert_eq!(e["code"], RULE_REFUSAL);
    assert_eq!(e["data"]["code"], 300);
    assert_eq!(e["data"]["rule"], "§0.3");
    let e = err(
        &mut r,
        "battle.check",
        json!({ "battle": id, "action": { "action": "roll_pips", "die": "six" } }),
    );
    assert_eq!(e["code"], INVALID_PARAMS);
    // An action's tag is read first and then its fields, so the pointer names the bad field.
    assert_eq!(e["data"]["pointer"], "/params/action/die");
    // One spelling: an old PascalCase value is refused with the snake_case one named.
    let mut old = golden("into_contact")["record"]["setup"].clone();
    old["variant"] = json!("Standard");
    let e = err(&mut r, "battle.create", json!({ "setup": old }));
    assert_eq!(e["code"], INVALID_PARAMS);
    assert_eq!(e["data"]["pointer"], "/params/setup/variant");
    assert!(
        e["message"]
            .as_str()
            .unwrap()
            .contains("dbcore spells it `standard`"),
        "{e}"
    );
    let mut setup = golden("into_contact")["record"]["setup"].clone();
    setup["armies"][1]["elements"][0]["kind"] = json!("9Zz");
    let e = err(&mut r, "battle.create", json!({ "setup": setup }));
    assert_eq!(
        e["data"]["pointer"],
        "/params/setup/armies/1/elements/0/kind"
    );
    let e = err(&mut r, "battle.state", json!({}));
    assert_eq!(e["data"]["pointer"], "/params/battle");
    let e = err(&mut r, "battle.state", json!({ "battle": "b99" }));
    assert_eq!(e["code"], UNKNOWN_BATTLE);
}

#[test]
fn an_invalid_setup_is_a_rule_refusal_with_every_problem() {
    let mut r = Referee::default();
    let mut setup = golden("into_contact")["record"]["setup"].clone();
    setup["armies"][0]["elements"][0]["general"] = json!(false);
    setup["armies"][1]["elements"][0]["general"] = json!(false);
    let e = err(&mut r, "battle.create", json!({ "setup": setup }));
    assert_eq!(e["code"], RULE_REFUSAL);
    assert_eq!(e["data"]["code"], 400);
    assert!(
        e["data"]["detail"]["problems"].as_array().unwrap().len() >= 2,
        "{e}"
    );
}

#[test]
fn protocol_faults_get_the_standard_codes() {
    let mut r = Referee::default();
    let code = |r: &mut Referee, text: &str| -> Value {
        let v: Value = serde_json::from_str(&r.handle_text(text).unwrap()).unwrap();
        v["error"]["code"].clone()
    };
    assert_eq!(code(&mut r, "{"), PARSE_ERROR);
    assert_eq!(code(&mut r, "[]"), INVALID_REQUEST);
    assert_eq!(code(&mut r, "3"), INVALID_REQUEST);
    assert_eq!(
        code(&mut r, r#"{"id":1,"method":"hello"}"#),
        INVALID_REQUEST
    );
    assert_eq!(
        code(&mut r, r#"{"jsonrpc":"2.0","id":{},"method":"hello"}"#),
        INVALID_REQUEST
    );
    assert_eq!(
        code(&mut r, r#"{"jsonrpc":"2.0","id":1,"method":5}"#),
        INVALID_REQUEST
    );
    assert_eq!(
        code(&mut r, r#"{"jsonrpc":"2.0","id":1,"method":"nope"}"#),
        METHOD_NOT_FOUND
    );
    assert_eq!(
        code(
            &mut r,
            r#"{"jsonrpc":"2.0","id":1,"method":"hello","params":[1]}"#
        ),
        INVALID_PARAMS
    );
    // Notifications are not answered, even when they fail.
    assert_eq!(r.handle_text(r#"{"jsonrpc":"2.0","method":"nope"}"#), None);
}

#[test]
fn live_battles_are_capped_and_closing_frees_a_place() {
    let mut r = Referee::new(Limits {
        max_battles: 2,
        ..Limits::default()
    });
    let a = created(&mut r);
    let _b = created(&mut r);
    let setup = golden("into_contact")["record"]["setup"].clone();
    let e = err(&mut r, "battle.create", json!({ "setup": setup.clone() }));
    assert_eq!(e["code"], LIMIT_REACHED);
    assert_eq!(
        ok(&mut r, "battle.close", json!({ "battle": a }))["closed"],
        a
    );
    assert_eq!(
        err(&mut r, "battle.close", json!({ "battle": a }))["code"],
        UNKNOWN_BATTLE
    );
    assert_eq!(
        ok(&mut r, "battle.create", json!({ "setup": setup }))["battle"],
        "b3"
    );
    assert_eq!(
        ok(&mut r, "battles.list", json!({}))["battles"]
            .as_array()
            .unwrap()
            .len(),
        2
    );
}

#[test]
fn combat_resolve_and_odds_answer_for_a_situation() {
    // DBA3.md §11.2: 4Bd against 4Wb, the digest's example; dbcore decides, the protocol carries.
    let mut r = Referee::default();
    let sit = serde_json::to_value(dbcore::Situation::close_combat(
        dbcore::Combatant::new("4Bd".parse().unwrap()),
        dbcore::Combatant::new("4Wb".parse().unwrap()),
    ))
    .unwrap();
    let o = ok(&mut r, "combat.odds", json!({ "situation": sit }));
    let total: u64 = o["outcomes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["count"].as_u64().unwrap())
        .sum();
    assert_eq!(total, 36);
    let res = ok(
        &mut r,
        "combat.resolve",
        json!({ "situation": sit, "dice": [6, 1] }),
    );
    assert!(res["a"]["total"].is_number(), "{res}");
    let e = err(
        &mut r,
        "combat.resolve",
        json!({ "situation": sit, "dice": [6, 0] }),
    );
    // DBA3.md §0.3: a die of 0 is the dice refusal (code 300), pointing at the die.
    assert_eq!(e["code"], RULE_REFUSAL);
    assert_eq!(e["data"]["code"], 300);
    assert_eq!(e["data"]["pointer"], "/params/dice/1");
}

#[test]
fn render_svg_draws_a_battle_or_a_setup() {
    let mut r = Referee::default();
    let id = created(&mut r);
    let svg = ok(&mut r, "render.svg", json!({ "battle": id }));
    assert!(svg["svg"].as_str().unwrap().starts_with("<svg"));
    let setup = golden("into_contact")["record"]["setup"].clone();
    let svg2 = ok(&mut r, "render.svg", json!({ "setup": setup }));
    // The same table; the battle's title also says the bound and the side to move.
    let table = |v: &serde_json::Value| {
        let s = v["svg"].as_str().unwrap().to_string();
        let at = s.find("<g class=\"table\"").expect("the table group");
        let end = s[at..].find("</g>").expect("closed") + at;
        s[at..end].to_string()
    };
    assert_eq!(table(&svg), table(&svg2));
    assert!(svg["svg"].as_str().unwrap().contains(">Bound 1 · "));
    assert!(!svg2["svg"].as_str().unwrap().contains("class=\"status\""));
}

#[test]
fn a_tts_battle_speaks_inches_on_the_xz_plane_both_ways() {
    let mut r = Referee::default();
    let frame = dbcore_cli::frame::Frame {
        preset: dbcore_cli::frame::Preset::Tts,
        units_per_bw: Some(2.0),
    };
    let mut setup = golden("into_contact")["record"]["setup"].clone();
    frame.outbound(&mut setup, 15.0);
    let c = ok_in_frame(
        &mut r,
        "battle.create",
        json!({ "setup": setup, "frame": { "preset": "tts", "units_per_bw": 2.0 } }),
    );
    let id = c["battle"].clone();
    let st = ok_in_frame(&mut r, "battle.state", json!({ "battle": id }));
    let e2 = st["elements"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["id"] == 2)
        .unwrap()
        .clone();
    // Element 2 stands at (6.5, 10.5) BW facing 0.
    assert_eq!(e2["pose"], json!({ "x": 13.0, "z": 21.0, "heading": 0.0 }));
    ok_in_frame(
        &mut r,
        "battle.apply",
        json!({ "battle": id, "revision": 0, "action": { "action": "roll_pips", "die": 6 } }),
    );
    // Half a BW forward, in inches, its heading given as a unit vector along +z.
    let mv = json!({ "action": "move", "order": { "type": "element", "id": 2,
        "path": [{ "x": 13.0, "z": 22.0, "heading": [0.0, 1.0] }] } });
    let res = ok_in_frame(
        &mut r,
        "battle.apply",
        json!({ "battle": id, "revision": 1, "action": mv }),
    );
    let moved = &res["events"][0];
    assert_eq!(moved["event"], "moved");
    assert_eq!(
        moved["moves"][0]["to"],
        json!({ "x": 13.0, "z": 22.0, "heading": 0.0 })
    );
    assert_eq!(moved["distance"], 1.0, "0.5 BW is 1 inch at 2 inches a BW");
}

#[test]
fn the_table_questions_answer_for_an_open_battle() {
    // DBA3.md §8.2: dropped just short of the Spears, the Blades snap into front contact; the
    // answer names the order, and nothing is applied.
    let mut r = Referee::default();
    let id = created(&mut r);
    ok(
        &mut r,
        "battle.apply",
        json!({ "battle": id, "revision": 0, "action": { "action": "roll_pips", "die": 6 } }),
    );
    let s = ok(
        &mut r,
        "table.snap",
        json!({ "battle": id, "id": 2, "pose": { "x": 6.6, "y": 11.8, "facing": 3.0 } }),
    );
    assert_eq!(s["snapped"], true, "{s}");
    assert_eq!(s["snap"]["with"]["contact"], "front");
    assert_eq!(
        s["snap"]["pose"],
        json!({ "x": 6.5, "y": 12.0, "facing": 0.0 })
    );
    let far = ok(
        &mut r,
        "table.snap",
        json!({ "battle": id, "id": 2, "pose": { "x": 6.5, "y": 2.0, "facing": 0.0 } }),
    );
    assert_eq!(far["snapped"], false);
    assert_eq!(far["refusal"]["code"], 203);
    let o = ok(&mut r, "table.outlines", json!({ "battle": id, "id": 1 }));
    assert_eq!(o["outlines"]["threat_zone"].as_array().unwrap().len(), 1);
    let fx = ok(
        &mut r,
        "table.outcome",
        json!({ "battle": id, "id": 102, "outcome": { "outcome": "recoil" } }),
    );
    assert!(!fx["effects"].as_array().unwrap().is_empty());
    ok(
        &mut r,
        "battle.apply",
        json!({ "battle": id, "revision": 1,
        "action": { "action": "move", "order": { "type": "into_contact", "ids": [2], "target": 102, "contact": "front" } } }),
    );
    // DBA3.md §8.2 (a): the contact names both front edges.
    let c = ok(&mut r, "table.contacts", json!({ "battle": id, "id": 2 }));
    let c0 = c["contacts"]
        .as_array()
        .unwrap()
        .iter()
        .find(|x| x["other"] == 102)
        .unwrap()
        .clone();
    assert_eq!(c0["contact"]["a"], json!({ "edge": "front" }));
    assert_eq!(c0["contact"]["b"], json!({ "edge": "front" }));
    assert_eq!(
        ok(&mut r, "battle.state", json!({ "battle": id }))["revision"],
        2
    );
}
