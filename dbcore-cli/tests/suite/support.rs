//! Validating test messages against the committed JSON Schema files (`schema/`).
#![allow(dead_code)]

use std::collections::BTreeMap;
use std::sync::{Mutex, OnceLock};

use serde_json::{json, Value};

fn load(file: &str) -> Value {
    let path = format!("{}/../schema/{file}", env!("CARGO_MANIFEST_DIR"));
    serde_json::from_str(&std::fs::read_to_string(path).expect("the schema files are committed"))
        .unwrap()
}

type Cache = Mutex<BTreeMap<(String, String), jsonschema::Validator>>;

fn cache() -> &'static Cache {
    static C: OnceLock<Cache> = OnceLock::new();
    C.get_or_init(|| Mutex::new(BTreeMap::new()))
}

/// Panics unless `v` is valid against `$defs/<def>` of `file`.
pub fn assert_valid(file: &str, def: &str, v: &Value) {
    let key = (file.to_string(), def.to_string());
    let mut c = cache().lock().unwrap_or_else(|p| p.into_inner());
    let validator = c.entry(key).or_insert_with(|| {
        let s = load(file);
        let root = json!({
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "$defs": s["$defs"],
            "$ref": format!("#/$defs/{def}"),
        });
        jsonschema::validator_for(&root).expect("the schema compiles")
    });
    let errors: Vec<String> = validator
        .iter_errors(v)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .take(5)
        .collect();
    assert!(
        errors.is_empty(),
        "not a valid {def} ({file}): {errors:?}\n{}",
        serde_json::to_string(v)
            .unwrap()
            .chars()
            .take(600)
            .collect::<String>()
    );
}

/// The `$defs` names of `method`'s params and result.
pub fn method_defs(method: &str) -> (&'static str, &'static str) {
    let (_, p, r) = dbcore_cli::schema::METHOD_SCHEMAS
        .iter()
        .find(|(m, _, _)| *m == method)
        .unwrap_or_else(|| panic!("no schema for {method}"));
    (p, r)
}

/// Validate a request and its response (bw frame): the envelope, the method's params and result.
/// A request the server refuses may be a deliberate fault: only its response is checked then.
pub fn assert_exchange(request: &Value, response: &Value) {
    assert_valid("protocol.schema.json", "Response", response);
    if let Some(result) = response.get("result") {
        assert_valid("protocol.schema.json", "Request", request);
        let method = request["method"].as_str().unwrap_or("");
        let (p, r) = method_defs(method);
        let params = request.get("params").cloned().unwrap_or(json!({}));
        assert_valid("protocol.schema.json", p, &params);
        assert_valid("protocol.schema.json", r, result);
    }
}

/// The battle record (set-up and actions) of a game record `battle.export` wrote (format
/// `dbcore-game`), its battle replayed: what the old `battle.export` gave as `record`.
pub fn battle_of(game: &Value) -> Value {
    assert_eq!(game["format"], dbcore::record::FORMAT, "{game}");
    let file = dbcore::record::GameFile::from_value(game.clone()).expect("a game record");
    match file.replay().expect("the record replays") {
        dbcore::record::Replayed::Battle { battle, .. } => {
            serde_json::to_value(battle.record()).unwrap()
        }
        dbcore::record::Replayed::Prebattle { .. } => panic!("the record stops in its pre-battle"),
        dbcore::record::Replayed::Bugs { .. } => panic!("a BUGS! record has no battle"),
    }
}
