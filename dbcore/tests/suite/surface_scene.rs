//! The surface's questions for a table (dbcore::surface, `scene`, `destinations`, `snap`,
//! `outlines`): each answer is the battle's own, so a page that draws it and hands back the
//! action it carries is never refused. Rules sections: §5.3 (deployment), §7.2–§7.4 (moves),
//! §8.1–§8.3 (threat zones and contact).

use dbcore::surface::Session;
use serde_json::{json, Value};

fn battle_in_movement() -> Session {
    let mut s = Session::new(json!({"demo": "battle", "seed": 3})).unwrap();
    let roll = s.call("legal_actions", json!({})).unwrap()["actions"][0].clone();
    assert_eq!(roll["action"], "roll_pips");
    s.call("apply", json!({ "action": roll })).unwrap();
    s
}

fn corners_of(v: &Value) -> Vec<(f64, f64)> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|p| (p["x"].as_f64().unwrap(), p["y"].as_f64().unwrap()))
        .collect()
}

#[test]
fn the_scene_of_a_prebattle_shows_the_board_quarters_and_undeployed_elements() {
    let s = Session::new(json!({"lists": ["II/56", "II/53"], "seed": 5})).unwrap();
    let scene = s.clone().call("scene", json!({})).unwrap();
    assert_eq!(scene["board"]["width"], 15.0);
    assert!(scene["terrain_svg"].as_str().unwrap().starts_with("<svg"));
    assert_eq!(scene["quarters"].as_array().unwrap().len(), 4);
    assert_eq!(scene["armies"][0]["base_edge"], Value::Null);
    let elements = scene["elements"].as_array().unwrap();
    assert_eq!(elements.len(), 24);
    assert!(elements
        .iter()
        .all(|e| e["status"]["status"] == "undeployed" && e["corners"].is_null()));
}

#[test]
fn the_scene_of_a_battle_matches_the_elements_the_battle_has() {
    let mut s =
        Session::new(json!({"lists": ["II/56", "II/53"], "prebattle": "driver", "seed": 5}))
            .unwrap();
    let scene = s.call("scene", json!({})).unwrap();
    let elements = s.call("elements", json!({})).unwrap();
    let drawn = scene["elements"].as_array().unwrap();
    assert_eq!(drawn.len(), elements.as_array().unwrap().len());
    for (d, e) in drawn.iter().zip(elements.as_array().unwrap()) {
        assert_eq!(d["id"], e["id"]);
        assert_eq!(d["pose"], e["pose"]);
        let c = corners_of(&d["corners"]);
        assert_eq!(c.len(), 4);
        // The front edge is 1 BW wide and its midpoint is the pose (§1.3).
        let (fl, fr) = (c[0], c[1]);
        assert!(((fl.0 - fr.0).hypot(fl.1 - fr.1) - 1.0).abs() < 1e-9);
        let mid = ((fl.0 + fr.0) / 2.0, (fl.1 + fr.1) / 2.0);
        assert!((mid.0 - e["pose"]["x"].as_f64().unwrap()).abs() < 1e-9);
        assert!((mid.1 - e["pose"]["y"].as_f64().unwrap()).abs() < 1e-9);
    }
    assert!(
        !scene["camps"].as_array().unwrap().is_empty(),
        "§4.6: camps are drawn"
    );
    for a in scene["armies"].as_array().unwrap() {
        assert!(a["base_edge"].is_string() && a["facing"].is_number());
    }
}

#[test]
fn every_destination_is_accepted_and_ends_where_it_says() {
    let mut s = battle_in_movement();
    let info = s.call("info", json!({})).unwrap();
    let army = info["army"].as_u64().unwrap();
    let scene = s.call("scene", json!({})).unwrap();
    let mine = scene["elements"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["army"].as_u64() == Some(army))
        .unwrap()["id"]
        .as_u64()
        .unwrap();
    let d = s.call("destinations", json!({ "element": mine })).unwrap();
    let list = d["destinations"].as_array().unwrap();
    assert!(
        list.len() >= 3,
        "§7.2: an element out of contact has steps to make"
    );
    for dest in list {
        let checked = s
            .call("check", json!({ "action": dest["action"] }))
            .unwrap();
        let moved = checked["events"]
            .as_array()
            .unwrap()
            .iter()
            .find(|e| e["event"] == "moved")
            .expect("a move moves");
        for m in dest["movers"].as_array().unwrap() {
            let event = moved["moves"]
                .as_array()
                .unwrap()
                .iter()
                .find(|x| x["id"] == m["id"])
                .unwrap();
            assert_eq!(event["to"], m["to"]);
        }
        assert!(dest["text"]
            .as_str()
            .unwrap()
            .starts_with(&mine.to_string()));
    }
    let first = list[0].clone();
    s.call("apply", json!({ "action": first["action"] }))
        .unwrap();
    let after = s.call("scene", json!({})).unwrap();
    let e = after["elements"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["id"].as_u64() == Some(mine))
        .unwrap();
    assert_eq!(e["pose"], first["movers"][0]["to"]);
}

#[test]
fn a_group_has_destinations_and_bad_requests_are_refused() {
    let mut s = battle_in_movement();
    let err = s.call("destinations", json!({})).unwrap_err();
    assert_eq!(err.code.number(), 103);
    let err = s
        .call("destinations", json!({"element": 1, "ids": [1, 2]}))
        .unwrap_err();
    assert_eq!(err.code.number(), 103);
    let err = s
        .call("destinations", json!({"element": 9999}))
        .unwrap_err();
    assert_eq!(err.code.number(), 104);
    let group = s
        .call("destinations", json!({"ids": [1, 2], "bearings": 4}))
        .unwrap();
    for d in group["destinations"].as_array().unwrap() {
        assert!(s.call("check", json!({"action": d["action"]})).is_ok());
    }
}

#[test]
fn a_drop_snaps_to_a_move_the_referee_accepts_or_says_why_not() {
    let mut s = battle_in_movement();
    let scene = s.call("scene", json!({})).unwrap();
    let army = s.call("info", json!({})).unwrap()["army"].as_u64().unwrap();
    let e = scene["elements"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["army"].as_u64() == Some(army))
        .unwrap()
        .clone();
    let pose = &e["pose"];
    let facing = pose["facing"].as_f64().unwrap().to_radians();
    // Half a BW straight ahead (§7.2).
    let ahead = json!({
        "x": pose["x"].as_f64().unwrap() + 0.5 * facing.sin(),
        "y": pose["y"].as_f64().unwrap() + 0.5 * facing.cos(),
        "facing": pose["facing"],
    });
    let snap = s
        .call(
            "snap",
            json!({"element": e["id"], "pose": ahead, "within": 0.5}),
        )
        .unwrap();
    assert_eq!(corners_of(&snap["corners"]).len(), 4);
    s.call("check", json!({"action": snap["action"]})).unwrap();
    // Far off the table: refused, with the rule.
    let off = json!({"x": -40.0, "y": 3.0, "facing": 0.0});
    let err = s
        .call("snap", json!({"element": e["id"], "pose": off}))
        .unwrap_err();
    assert!(
        err.code.number() >= 200 && err.code.number() < 300,
        "{err:?}"
    );
    let err = s
        .call(
            "snap",
            json!({"element": e["id"], "pose": ahead, "within": 9.0}),
        )
        .unwrap_err();
    assert_eq!(err.code.number(), 103);
    let zones = s.call("outlines", json!({"element": e["id"]})).unwrap();
    assert!(!zones["threat_zone"].as_array().unwrap().is_empty(), "§8.1");
}

#[test]
fn the_driver_ends_a_movement_it_has_nothing_to_move_in() {
    // The driver's game loop ends the movement when the driver finds nothing more to move
    // (`Policy::next_action` answering None); the surface's `driver` does the same, so a game is
    // played by asking it alone, bound after bound, and never stops on "no choice".
    let mut s =
        Session::new(json!({"lists": ["II/56", "II/53"], "prebattle": "driver", "seed": 1}))
            .unwrap();
    let mut ended_with_pips_left = 0;
    for _ in 0..400 {
        let info = s.call("info", json!({})).unwrap();
        if info["stage"] == "finished" {
            break;
        }
        let a = s.call("driver", json!({})).unwrap()["action"].clone();
        if a["action"] == "end_movement" && info["pips"].as_u64().unwrap_or(0) > 0 {
            ended_with_pips_left += 1;
        }
        s.call("apply", json!({ "action": a })).unwrap();
    }
    let info = s.call("info", json!({})).unwrap();
    assert!(
        info["stage"] == "finished" || info["bound"].as_u64().unwrap() > 10,
        "{info}"
    );
    assert!(
        ended_with_pips_left > 0,
        "the driver never left PIPs unspent"
    );
}
