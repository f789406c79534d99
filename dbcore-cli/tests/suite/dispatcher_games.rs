//! The dispatcher's games beyond a DBA set-up: army lists (`armies.*`), battles created from two
//! list ids with the pre-battle played by the driver or by actions, DBAix games, and element ids
//! that are the client's own strings. Every exchange in the bw frame is validated against the
//! committed protocol schema.

use crate::support;

use dbcore_cli::rpc::*;
use dbcore_cli::rpc_names::{ELEMENT_KEYS, NOT_CONVERTED};
use serde_json::{json, Value};

fn golden(name: &str) -> Value {
    let path = format!("{}/../tests/golden/{name}.json", env!("CARGO_MANIFEST_DIR"));
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn call(r: &mut Referee, method: &str, params: Value) -> Value {
    let req = json!({ "jsonrpc": "2.0", "id": 1, "method": method, "params": params });
    let v: Value = serde_json::from_str(&r.handle_text(&req.to_string()).unwrap()).unwrap();
    support::assert_exchange(&req, &v);
    v
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

#[test]
fn armies_find_by_name_date_and_topography() {
    let mut r = Referee::default();
    let all = ok(&mut r, "armies.find", json!({}));
    let n = all["lists"].as_array().unwrap().len();
    assert!(n > 100, "{n} lists");
    let polybian = ok(&mut r, "armies.find", json!({ "name": "polybian" }));
    let found = polybian["lists"].as_array().unwrap();
    assert!(!found.is_empty());
    assert!(found.iter().all(|l| l["name"]
        .as_str()
        .unwrap()
        .to_lowercase()
        .contains("polybian")));
    // DBA3.md §16.2: a list's dates bound the year; BC years are negative.
    let in_year = ok(&mut r, "armies.find", json!({ "year": -200 }));
    for l in in_year["lists"].as_array().unwrap() {
        assert!(l["dates"]["from"].as_i64().unwrap() <= -200);
        assert!(l["dates"]["to"].as_i64().unwrap() >= -200);
    }
    let terrain = all["lists"][0]["home"]["terrain"].clone();
    let by_home = ok(&mut r, "armies.find", json!({ "topography": terrain }));
    assert!(!by_home["lists"].as_array().unwrap().is_empty());
    // Every condition must hold: a name and a year no list shares find nothing.
    let none = ok(
        &mut r,
        "armies.find",
        json!({ "name": "polybian", "year": 1400 }),
    );
    assert_eq!(none["lists"], json!([]));
    let e = err(&mut r, "armies.find", json!({ "colour": "red" }));
    assert_eq!(e["code"], INVALID_PARAMS);
}

#[test]
fn armies_get_and_validate_a_choice() {
    let mut r = Referee::default();
    let got = ok(&mut r, "armies.get", json!({ "id": "II/56" }));
    assert_eq!(got["list"]["id"], "II/56");
    let choice = got["default_choice"].clone();
    let valid = ok(&mut r, "armies.validate", json!({ "choice": choice }));
    assert_eq!(valid["valid"], true);
    assert_eq!(valid["army"]["elements"].as_array().unwrap().len(), 12);
    // DBA3.md §2.5: an army is 12 elements; dropping the last entry's elements breaks it, and
    // the problem names its rule.
    let mut short = choice.clone();
    let entries = short["entries"].as_array_mut().unwrap();
    let last = entries
        .iter_mut()
        .rev()
        .find(|e| e["elements"].as_array().is_some_and(|a| !a.is_empty()));
    last.unwrap()["elements"] = json!([]);
    let invalid = ok(&mut r, "armies.validate", json!({ "choice": short }));
    assert_eq!(invalid["valid"], false);
    let problems = invalid["problems"].as_array().unwrap();
    assert!(!problems.is_empty());
    assert!(problems
        .iter()
        .all(|p| p["rule"].is_string() && p["message"].is_string()));
    let e = err(&mut r, "armies.get", json!({ "id": "IV/99" }));
    assert_eq!(e["code"], RULE_REFUSAL);
    assert_eq!(e["data"]["rule"], "§16");
}

#[test]
fn a_battle_from_two_list_ids_and_a_seed_is_the_drivers_game() {
    let g = golden("whole_game_II_56_v_II_53");
    let mut r = Referee::default();
    let c = ok(
        &mut r,
        "battle.create",
        json!({ "lists": ["II/56", "II/53"], "seed": 1 }),
    );
    let id = c["battle"].as_str().unwrap().to_string();
    let pre_actions = g["game"]["prebattle"]["actions"].as_array().unwrap().len();
    assert_eq!(c["revision"], pre_actions);
    let exported = ok(&mut r, "battle.export", json!({ "battle": id }));
    // DBA3.md §5: the pre-battle (aggression, terrain, edges, camps, deployment) is the driver's.
    assert_eq!(exported["record"]["prebattle"], g["game"]["prebattle"]);
    assert_eq!(
        support::battle_of(&exported["record"])["setup"],
        g["record"]["setup"]
    );
    let legal = ok(&mut r, "battle.legal", json!({ "battle": id }));
    assert!(legal["legal"]["dice"].is_object(), "{legal}");
}

#[test]
fn a_pre_battle_played_by_actions_becomes_the_battle_and_replays_the_golden_game() {
    let g = golden("whole_game_II_56_v_II_53");
    let mut r = Referee::default();
    let c = ok(
        &mut r,
        "battle.create",
        json!({ "lists": ["II/56", "II/53"] }),
    );
    let id = c["battle"].as_str().unwrap().to_string();
    assert_eq!(c["revision"], 0);
    let st = ok(&mut r, "battle.state", json!({ "battle": id }));
    assert_eq!(st["stage"], "prebattle");
    // Table questions wait for the battle.
    let e = err(&mut r, "table.contacts", json!({ "battle": id, "id": 1 }));
    assert_eq!(e["code"], NOT_FOR_THIS_GAME);
    assert_eq!(e["data"]["stage"], "prebattle");
    let mut revision = 0u64;
    let pre = g["game"]["prebattle"]["actions"].as_array().unwrap();
    let mut pre_events = Vec::new();
    for a in pre {
        let legal = ok(&mut r, "battle.legal", json!({ "battle": id }));
        assert!(legal["prebattle"].is_object(), "{legal}");
        let checked = ok(&mut r, "battle.check", json!({ "battle": id, "action": a }));
        assert_eq!(checked["legal"], true, "{checked}");
        let applied = ok(
            &mut r,
            "battle.apply",
            json!({ "battle": id, "revision": revision, "action": a }),
        );
        assert_eq!(checked["events"], applied["events"]);
        pre_events.extend(applied["events"].as_array().unwrap().iter().cloned());
        revision += 1;
        assert_eq!(applied["revision"], revision);
    }
    assert_eq!(Value::Array(pre_events), g["prebattle_events"]);
    // The last deployment began the battle.
    let st = ok(&mut r, "battle.state", json!({ "battle": id }));
    assert!(st.get("stage").is_none(), "{st}");
    let mut events = Vec::new();
    for a in g["record"]["actions"].as_array().unwrap() {
        let applied = ok(
            &mut r,
            "battle.apply",
            json!({ "battle": id, "revision": revision, "action": a }),
        );
        events.extend(applied["events"].as_array().unwrap().iter().cloned());
        revision += 1;
    }
    assert_eq!(Value::Array(events), g["events"]);
    let exported = ok(&mut r, "battle.export", json!({ "battle": id }));
    assert_eq!(support::battle_of(&exported["record"]), g["record"]);
    assert_eq!(exported["record"]["prebattle"], g["game"]["prebattle"]);
    // A pre-battle action refused names its rule and changes nothing.
    let c2 = ok(
        &mut r,
        "battle.create",
        json!({ "lists": ["II/56", "II/53"] }),
    );
    let id2 = c2["battle"].as_str().unwrap();
    let wrong = json!({ "action": "roll_aggression", "dice": [3] });
    let checked = ok(
        &mut r,
        "battle.check",
        json!({ "battle": id2, "action": wrong }),
    );
    assert_eq!(checked["legal"], false);
    assert_eq!(checked["refusal"]["rule"], "§5.1");
    let e = err(
        &mut r,
        "battle.apply",
        json!({ "battle": id2, "revision": 0, "action": wrong }),
    );
    assert_eq!(e["code"], RULE_REFUSAL);
    assert_eq!(
        ok(&mut r, "battle.state", json!({ "battle": id2 }))["revision"],
        0
    );
}

#[test]
fn bad_lists_are_refused_with_a_pointer() {
    let mut r = Referee::default();
    let e = err(&mut r, "battle.create", json!({ "lists": ["II/56"] }));
    assert_eq!(e["code"], INVALID_PARAMS);
    assert_eq!(e["data"]["pointer"], "/params/lists");
    let e = err(
        &mut r,
        "battle.create",
        json!({ "lists": ["II/56", "IV/99"] }),
    );
    assert_eq!(e["code"], RULE_REFUSAL);
    assert_eq!(e["data"]["pointer"], "/params/lists/1");
    let e = err(
        &mut r,
        "battle.create",
        json!({ "lists": ["II/56", "nonsense"] }),
    );
    assert_eq!(e["code"], INVALID_PARAMS);
    assert_eq!(e["data"]["pointer"], "/params/lists/1");
}

fn dbaix_golden() -> Value {
    golden("dbaix/dbaix_whole_game_seed_1")
}

#[test]
fn a_dbaix_game_plays_through_the_server_and_exports_its_golden_record() {
    let g = dbaix_golden();
    let mut r = Referee::default();
    let c = ok(
        &mut r,
        "battle.create",
        json!({ "setup": g["record"]["setup"] }),
    );
    let id = c["battle"].as_str().unwrap().to_string();
    let st = ok(&mut r, "battle.state", json!({ "battle": id }));
    assert_eq!(st["game"], "dbaix");
    assert_eq!(
        st["figures"].as_array().unwrap().len(),
        g["record"]["setup"]["figures"].as_array().unwrap().len()
    );
    // DBAIX.md §2: a DBA action is not a DBAix action.
    let e = err(
        &mut r,
        "battle.check",
        json!({ "battle": id, "action": { "action": "move", "order": { "type": "element", "id": 1, "path": [] } } }),
    );
    assert_eq!(e["code"], INVALID_PARAMS);
    let mut events = Vec::new();
    for (i, a) in g["record"]["actions"]
        .as_array()
        .unwrap()
        .iter()
        .enumerate()
    {
        let checked = ok(&mut r, "battle.check", json!({ "battle": id, "action": a }));
        assert_eq!(checked["legal"], true);
        let applied = ok(
            &mut r,
            "battle.apply",
            json!({ "battle": id, "revision": i, "action": a }),
        );
        assert_eq!(applied["events"], checked["events"]);
        events.extend(applied["events"].as_array().unwrap().iter().cloned());
    }
    assert_eq!(Value::Array(events), g["events"]);
    let exported = ok(&mut r, "battle.export", json!({ "battle": id }));
    assert_eq!(support::battle_of(&exported["record"]), g["record"]);
    let svg = ok(&mut r, "render.svg", json!({ "battle": id }));
    assert!(svg["svg"].as_str().unwrap().starts_with("<svg"));
    // The DBA-only questions are typed refusals, not faults.
    for m in ["battle.legal", "table.outlines"] {
        let e = err(&mut r, m, json!({ "battle": id, "id": 1 }));
        assert_eq!(e["code"], NOT_FOR_THIS_GAME, "{m}");
        assert_eq!(e["data"]["game"], "dbaix");
    }
    let imported = ok(&mut r, "battle.import", json!({ "record": g["record"] }));
    let n = g["record"]["actions"].as_array().unwrap().len();
    assert_eq!(imported["revision"], n);
    let again = ok(
        &mut r,
        "battle.export",
        json!({ "battle": imported["battle"] }),
    );
    assert_eq!(support::battle_of(&again["record"]), g["record"]);
}

#[test]
fn a_dbaix_refusal_names_its_rule_and_changes_nothing() {
    let g = dbaix_golden();
    let mut r = Referee::default();
    let c = ok(
        &mut r,
        "battle.create",
        json!({ "setup": g["record"]["setup"] }),
    );
    let id = c["battle"].as_str().unwrap();
    let end = json!({ "action": "end_movement" });
    let checked = ok(
        &mut r,
        "battle.check",
        json!({ "battle": id, "action": end }),
    );
    assert_eq!(checked["legal"], false);
    assert_eq!(checked["refusal"]["rule"], "DBAIX.md §2");
    let e = err(
        &mut r,
        "battle.apply",
        json!({ "battle": id, "revision": 0, "action": end }),
    );
    assert_eq!(e["code"], RULE_REFUSAL);
    assert_eq!(
        ok(&mut r, "battle.state", json!({ "battle": id }))["revision"],
        0
    );
}

/// `v` with every string in `names` (client name -> number) at an id field turned back into its
/// number, to compare a named session's answers with a numbered one's.
fn unname(v: &mut Value, names: &std::collections::BTreeMap<String, u64>, at_id: bool) {
    match v {
        Value::String(s) if at_id => {
            if let Some(n) = names.get(s.as_str()) {
                *v = Value::from(*n);
            }
        }
        Value::Array(a) => a.iter_mut().for_each(|x| unname(x, names, at_id)),
        Value::Object(m) => {
            for (k, x) in m.iter_mut() {
                unname(x, names, ELEMENT_KEYS.contains(&k.as_str()));
            }
        }
        _ => {}
    }
}

/// `v` with every number at an id field that `numbers` names turned into its name.
fn name(v: &mut Value, numbers: &std::collections::BTreeMap<u64, String>, at_id: bool) {
    match v {
        Value::Number(n) if at_id => {
            if let Some(s) = n.as_u64().and_then(|n| numbers.get(&n)) {
                *v = Value::String(s.clone());
            }
        }
        Value::Array(a) => a.iter_mut().for_each(|x| name(x, numbers, at_id)),
        Value::Object(m) => {
            for (k, x) in m.iter_mut() {
                name(x, numbers, ELEMENT_KEYS.contains(&k.as_str()));
            }
        }
        _ => {}
    }
}

#[test]
fn client_element_ids_are_mapped_both_ways_in_every_request_and_answer() {
    let g = golden("into_contact");
    let setup = g["record"]["setup"].clone();
    let mut numbers = std::collections::BTreeMap::new();
    let mut named_setup = setup.clone();
    for (a, army) in named_setup["armies"]
        .as_array_mut()
        .unwrap()
        .iter_mut()
        .enumerate()
    {
        for (i, e) in army["elements"]
            .as_array_mut()
            .unwrap()
            .iter_mut()
            .enumerate()
        {
            let label = format!(
                "{}-{}-{i}",
                ["south", "north"][a],
                e["kind"].as_str().unwrap()
            );
            numbers.insert(e["id"].as_u64().unwrap(), label.clone());
            e["id"] = label.into();
        }
    }
    let names: std::collections::BTreeMap<String, u64> =
        numbers.iter().map(|(n, s)| (s.clone(), *n)).collect();
    let mut r = Referee::default();
    let plain = ok(&mut r, "battle.create", json!({ "setup": setup }))["battle"].clone();
    let named = ok(&mut r, "battle.create", json!({ "setup": named_setup }))["battle"].clone();
    // Numbers the pre-battle would give (army × 100 + position) are kept when free, so the two
    // battles number their elements alike.
    let answers =
        |r: &mut Referee, battle: &Value, method: &str, mut params: Value, named: bool| {
            params["battle"] = battle.clone();
            if named {
                name(&mut params, &numbers, false);
            }
            let mut v = ok(r, method, params);
            if named {
                unname(&mut v, &names, false);
            }
            v
        };
    let mut named_answers = 0;
    for (i, a) in g["record"]["actions"]
        .as_array()
        .unwrap()
        .iter()
        .enumerate()
    {
        for (method, params) in [
            ("battle.legal", json!({})),
            ("battle.state", json!({})),
            ("battle.check", json!({ "action": a })),
            ("battle.apply", json!({ "action": a, "revision": i })),
        ] {
            let want = answers(&mut r, &plain, method, params.clone(), false);
            let mut raw = params.clone();
            raw["battle"] = named.clone();
            name(&mut raw, &numbers, false);
            let got_named = ok(&mut r, method, raw);
            // The named answer spells no named element as a number at an id field.
            let mut renamed = want.clone();
            name(&mut renamed, &numbers, false);
            assert_eq!(got_named, renamed, "{method} at revision {i}");
            let mut back = got_named.clone();
            unname(&mut back, &names, false);
            assert_eq!(back, want, "{method} at revision {i}");
            if got_named != want {
                named_answers += 1;
            }
        }
    }
    assert!(
        named_answers > 10,
        "names appeared in {named_answers} answers"
    );
    for (method, params) in [
        ("table.outlines", json!({ "id": 2 })),
        ("table.contacts", json!({ "id": 2 })),
        (
            "table.outcome",
            json!({ "id": 2, "outcome": { "outcome": "recoil" } }),
        ),
    ] {
        let want = answers(&mut r, &plain, method, params.clone(), false);
        let got = answers(&mut r, &named, method, params, true);
        assert_eq!(got, want, "{method}");
    }
    let exported = answers(&mut r, &named, "battle.export", json!({}), true);
    assert_eq!(support::battle_of(&exported["record"]), g["record"]);
    // An unknown name is a fault with its pointer; a bare number is still accepted.
    let e = err(
        &mut r,
        "battle.check",
        json!({ "battle": named, "action": { "action": "fight", "a": "nobody", "b": 102, "dice": [1, 1] } }),
    );
    assert_eq!(e["code"], INVALID_PARAMS);
    assert_eq!(e["data"]["pointer"], "/params/action/a");
    // Two elements cannot share a name.
    let mut twice = setup.clone();
    twice["armies"][0]["elements"][0]["id"] = "same".into();
    twice["armies"][0]["elements"][1]["id"] = "same".into();
    let e = err(&mut r, "battle.create", json!({ "setup": twice }));
    assert_eq!(e["data"]["pointer"], "/params/setup/armies/0/elements/1/id");
}

#[test]
fn names_of_a_battle_from_lists_follow_the_list_order() {
    let mut r = Referee::default();
    let names: Vec<Vec<String>> = (0..2)
        .map(|a| (0..12).map(|i| format!("a{a}e{i}")).collect())
        .collect();
    let c = ok(
        &mut r,
        "battle.create",
        json!({ "lists": ["II/56", "II/53"], "seed": 1, "names": names }),
    );
    let st = ok(&mut r, "battle.state", json!({ "battle": c["battle"] }));
    let ids: Vec<&str> = st["elements"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|e| e["id"].as_str())
        .collect();
    assert_eq!(ids.len(), 24, "{ids:?}");
    assert!(ids.contains(&"a0e0") && ids.contains(&"a1e11"));
}

/// Every field the schema types as an element or figure id is converted.
#[test]
fn every_id_field_of_the_schema_is_an_element_key() {
    let s: Value = serde_json::from_str(
        &std::fs::read_to_string(format!(
            "{}/../schema/protocol.schema.json",
            env!("CARGO_MANIFEST_DIR")
        ))
        .unwrap(),
    )
    .unwrap();
    fn only_ids(v: &Value) -> bool {
        let t = v.to_string();
        let refs: Vec<&str> = t.split("#/$defs/").skip(1).collect();
        !refs.is_empty()
            && refs
                .iter()
                .all(|r| r.starts_with("ElementId\"") || r.starts_with("FigureId\""))
    }
    fn walk(v: &Value, found: &mut Vec<String>) {
        match v {
            Value::Object(m) => {
                if let Some(Value::Object(props)) = m.get("properties") {
                    for (k, p) in props {
                        if only_ids(p) {
                            found.push(k.clone());
                        }
                    }
                }
                m.values().for_each(|x| walk(x, found));
            }
            Value::Array(a) => a.iter().for_each(|x| walk(x, found)),
            _ => {}
        }
    }
    let mut found = Vec::new();
    walk(&s["$defs"], &mut found);
    found.sort();
    found.dedup();
    assert!(found.len() > 10, "{found:?}");
    for k in &found {
        assert!(
            ELEMENT_KEYS.contains(&k.as_str()) || NOT_CONVERTED.contains(&k.as_str()),
            "`{k}` is an id field"
        );
    }
}

#[test]
fn a_big_battle_from_two_list_ids_and_a_seed_is_the_drivers_game() {
    // DBA3.md §14.3, §14.4: `variant` with two list ids gives a Big Battle pre-battle, played
    // by the driver with a seed as the golden game was.
    let g = golden("big_battle_game_II_56_v_II_53");
    let mut r = Referee::default();
    let c = ok(
        &mut r,
        "battle.create",
        json!({ "lists": ["II/56", "II/53"], "variant": "big_battle", "seed": 1 }),
    );
    let id = c["battle"].as_str().unwrap().to_string();
    let exported = ok(&mut r, "battle.export", json!({ "battle": id }));
    assert_eq!(exported["record"]["prebattle"], g["game"]["prebattle"]);
    assert_eq!(
        support::battle_of(&exported["record"])["setup"],
        g["record"]["setup"]
    );
    // Without a seed the pre-battle waits for its aggression dice, as the standard one does.
    let c = ok(
        &mut r,
        "battle.create",
        json!({ "lists": ["II/56", "II/53"], "variant": "giant" }),
    );
    let legal = ok(&mut r, "battle.legal", json!({ "battle": c["battle"] }));
    assert!(legal.to_string().contains("aggression"), "{legal}");
}
