//! The methods of the surface by name: a session's ([`SESSION_METHODS`]) and those that need no
//! game ([`METHODS`]). Each row names the method, its parameters and its result, as the
//! bindings' documentation and the protocol's `hello` show them.

use serde::Deserialize;
use serde_json::{json, Value};

use crate::armies::{self, ListId, ListQuery};
use crate::battle::BattleSetup;
use crate::combat::Situation;
use crate::dice::DieScore;
use crate::game::{AnyBattle, AnySetup};
use crate::record::{GameFile, Replayed};
use crate::RulesConfig;

use super::session::answers as a;
use super::session::Session;
use super::{params, to_value, Answer, SurfaceError};

/// One method: its name, its parameters and what it answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Method {
    /// The name.
    pub name: &'static str,
    /// Its parameters, as `name: type` (`?` after an optional one).
    pub params: &'static str,
    /// What it answers.
    pub result: &'static str,
    /// What it does, in a line.
    pub doc: &'static str,
}

const fn m(
    name: &'static str,
    params: &'static str,
    result: &'static str,
    doc: &'static str,
) -> Method {
    Method {
        name,
        params,
        result,
        doc,
    }
}

/// The methods of a [`Session`].
pub const SESSION_METHODS: [Method; 26] = [
    m("info", "", "{game, variant, stage, phase, army, bound, pips, revision, events, armies, winners, awaiting, seed}", "where the game stands"),
    m("awaiting", "", "the dice or choice awaited, or null", "what the game waits for"),
    m("legal", "", "the summary of what the side to move may do (DBA)", "moves with their costs and reach, shots, combats"),
    m("legal_actions", "dice?: [int], element?: int, notation?: bool", "{actions, dice, texts?}", "the concrete legal actions, each accepted as it stands"),
    m("check", "action", "{events}", "what an action would do, changing nothing"),
    m("apply", "action", "{events, revision}", "apply an action, or refuse it and change nothing"),
    m("play", "text: str, dice?: [int]", "{action, text, events, revision}", "apply an action written in the notation (DBA)"),
    m("parse", "text: str, dice?: [int]", "{action, text}", "read the notation as an action (DBA)"),
    m("describe", "action, decimals?: int", "{text}", "an action in the notation (DBA)"),
    m("undo", "", "{action, revision}", "take back the last action, dice included"),
    m("record", "", "the game record (format dbcore-game)", "the game so far, to save"),
    m("state", "", "the compact battle state", "the battle as it stands, to save and read back fast"),
    m("events", "since?: int, from_action?: int", "[event]", "every event so far, from event `since` or from action `from_action`"),
    m("narrate", "since?: int, from_action?: int", "[str]", "the events in a player's words, one line an event (empty for an untold one)"),
    m("svg", "threat_zones?: bool", "{svg}", "a picture of the table"),
    m("elements", "", "[element]", "every element (or DBAix figure) as it stands"),
    m("ai", "nodes?: int, seed?: int", "{action}", "the computer opponent's choice now"),
    m("driver", "", "{action}", "the demonstration driver's choice now"),
    m("combat_odds", "a: int, b: int", "{situation, odds}", "the exact odds of a close combat before it is fought"),
    m("shot_odds", "shooter: int, target: int, support?: [int], shoots_back?: bool", "{situation, odds}", "the exact odds of a shot"),
    m("reach", "element: int, bearings?: int", "{steps}", "the farthest legal step on each of N bearings"),
    m("verdict", "", "{finished, winners}", "whether the battle is over and who won"),
    m("scene", "", "{game, board, frame, terrain_svg, armies, camps, elements, quarters}", "everything a table draws now, the pre-battle included: terrain, camps, every element with its corners"),
    m("destinations", "element?: int, ids?: [int], bearings?: int", "{destinations: [{action, text, order, into_contact, target, pips, movers}]}", "where an element (or a group) may go now: each legal move with the poses its movers end in"),
    m("snap", "element: int, pose, within?: float", "{pose, corners, action, text, with, events}", "where a base dropped at a pose would legally go, and the move that takes it there"),
    m("outlines", "element: int", "{element, threat_zone, shooting_zone, range, command, reach}", "the zones round an element, as polygons"),
];

/// The methods that need no game ([`call`]).
pub const METHODS: [Method; 13] = [
    m(
        "version",
        "",
        "{version, record_format, record_version}",
        "this build's version",
    ),
    m(
        "methods",
        "",
        "{session, static}",
        "every method, with its parameters",
    ),
    m(
        "armies.lookup",
        "text: str",
        "{id, name}",
        "a list by id or name, with suggestions when none matches",
    ),
    m(
        "armies.find",
        "query",
        "[{id, name, dates}]",
        "lists by name, year, topography, enemy, ally",
    ),
    m("armies.get", "id: str", "the army list", "one list whole"),
    m(
        "armies.default",
        "id: str",
        "the army",
        "the list's default army of 12",
    ),
    m(
        "record.read",
        "game",
        "the game record in the current format",
        "read a game record of any spelling",
    ),
    m(
        "record.replay",
        "game",
        "{result, events, lines}",
        "replay a game record",
    ),
    m(
        "render",
        "document, threat_zones?: bool",
        "{svg}",
        "a picture of a set-up, state or record",
    ),
    m(
        "validate",
        "document",
        "{kind, problems}",
        "every problem of a set-up, state or record",
    ),
    m(
        "odds",
        "situation",
        "odds",
        "the exact odds of a combat situation",
    ),
    m(
        "resolve",
        "situation, dice: [int, int]",
        "result",
        "one combat resolved with the given dice",
    ),
    m(
        "setup.demo",
        "",
        "set-up",
        "the demonstration battle's set-up",
    ),
];

/// Answer a method that needs no game.
///
/// ```
/// use serde_json::json;
///
/// let found = dbcore::surface::call("armies.lookup", json!({"text": "ancient british"})).unwrap();
/// assert_eq!(found["id"], "II/53");
/// let err = dbcore::surface::call("armies.lookup", json!({"text": "Ancient Britsh"})).unwrap_err();
/// assert!(err.message.contains("did you mean II/53"));
/// ```
pub fn call(method: &str, p: Value) -> Answer {
    match method {
        "version" => {
            params::<a::None_>(p)?;
            Ok(json!({
                "version": crate::VERSION,
                "record_format": crate::record::FORMAT,
                "record_version": crate::record::VERSION,
            }))
        }
        "methods" => {
            params::<a::None_>(p)?;
            let list = |ms: &[Method]| -> Vec<Value> {
                ms.iter()
                    .map(|m| json!({"name": m.name, "params": m.params, "result": m.result, "doc": m.doc}))
                    .collect()
            };
            Ok(json!({ "session": list(&SESSION_METHODS), "static": list(&METHODS) }))
        }
        "armies.lookup" => {
            let p: Text = params(p)?;
            let id = armies::lookup(&p.text).map_err(|e| SurfaceError::of(&e))?;
            let name = armies::list(&id).map(|l| l.name.clone());
            Ok(json!({ "id": id.to_string(), "name": name }))
        }
        "armies.find" => {
            let p: Find = params(p)?;
            let found: Vec<Value> = armies::find(&p.query)
                .into_iter()
                .map(|l| json!({"id": l.id.to_string(), "name": l.name, "dates": to_value(&l.dates).unwrap_or(Value::Null)}))
                .collect();
            Ok(Value::Array(found))
        }
        "armies.get" | "armies.default" => {
            let p: Id = params(p)?;
            let id: ListId = armies::lookup(&p.id).map_err(|e| SurfaceError::of(&e))?;
            if method == "armies.get" {
                to_value(&armies::list(&id))
            } else {
                to_value(&armies::default_army(&id).map_err(|e| SurfaceError::of(&e))?)
            }
        }
        "record.read" => {
            let p: Game = params(p)?;
            to_value(&read_record(p.game)?)
        }
        "record.replay" => {
            let p: Game = params(p)?;
            let file = read_record(p.game)?;
            let replayed = file.replay().map_err(|e| SurfaceError::of(&e))?;
            let result = replayed.result();
            let (events, lines) = match &replayed {
                Replayed::Prebattle {
                    prebattle_events, ..
                } => (to_value(prebattle_events)?, Vec::new()),
                Replayed::Battle { battle, events, .. } => {
                    (to_value(events)?, a::narrate_battle(battle, events))
                }
                Replayed::Bugs { encounter, events } => (
                    to_value(events)?,
                    crate::bugs::narrate(encounter.setup(), events),
                ),
            };
            Ok(json!({ "result": to_value(&result)?, "events": events, "lines": lines }))
        }
        "render" => {
            let p: Render = params(p)?;
            let svg = match read_document(p.document)? {
                Document::Setup(AnySetup::Dba(s)) => {
                    s.svg(p.threat_zones).map_err(|e| SurfaceError::of(&e))?
                }
                Document::Setup(AnySetup::Dbaix(s)) => {
                    let b = crate::dbaix::Battle::new(s).map_err(|e| SurfaceError::of(&e))?;
                    crate::dbaix::svg::table_svg(&b)
                }
                Document::Battle(b) | Document::Record(_, Some(b)) => match &b {
                    AnyBattle::Dba(b) => b.svg(p.threat_zones),
                    AnyBattle::Dbaix(b) => crate::dbaix::svg::table_svg(b),
                },
                Document::Encounter(_, e) => crate::bugs::svg(&e),
                Document::Record(_, None) => {
                    return Err(SurfaceError::argument(
                        "the record stops in its pre-battle: there is no table to draw yet",
                    ))
                }
            };
            Ok(json!({ "svg": svg }))
        }
        "validate" => {
            let p: Doc = params(p)?;
            validate(p.document)
        }
        "odds" => {
            let p: Odds = params(p)?;
            let cfg = p.config.unwrap_or_default();
            to_value(&crate::combat::odds(&p.situation, &cfg).map_err(|e| SurfaceError::of(&e))?)
        }
        "resolve" => {
            let p: Resolve = params(p)?;
            let cfg = p.config.unwrap_or_default();
            let d = |n: u8| DieScore::new(n).map_err(|e| SurfaceError::of(&e));
            let dice = [d(p.dice[0])?, d(p.dice[1])?];
            to_value(
                &crate::combat::resolve(&p.situation, dice, &cfg)
                    .map_err(|e| SurfaceError::of(&e))?,
            )
        }
        "setup.demo" => {
            params::<a::None_>(p)?;
            to_value(&crate::driver::demo_setup())
        }
        other => Err(unknown(other, &METHODS)),
    }
}

fn unknown(name: &str, ms: &[Method]) -> SurfaceError {
    let names: Vec<&str> = ms.iter().map(|m| m.name).collect();
    SurfaceError::argument(format!(
        "there is no method `{}`; the methods are {}",
        crate::limits::quote(name),
        names.join(", ")
    ))
}

/// Answer a session's method.
pub(super) fn session_call(s: &mut Session, method: &str, p: Value) -> Answer {
    match method {
        "info" => {
            params::<a::None_>(p)?;
            a::info(s)
        }
        "awaiting" => {
            params::<a::None_>(p)?;
            a::awaiting(s)
        }
        "legal" => {
            params::<a::None_>(p)?;
            a::legal(s)
        }
        "legal_actions" => a::legal_actions(s, params(p)?),
        "check" => a::check(s, params(p)?),
        "apply" => a::apply(s, params(p)?),
        "play" => a::play(s, params(p)?),
        "parse" => a::parse(s, params(p)?),
        "describe" => a::describe(s, params(p)?),
        "undo" => {
            params::<a::None_>(p)?;
            a::undo(s)
        }
        "record" => {
            params::<a::None_>(p)?;
            a::record(s)
        }
        "state" => {
            params::<a::None_>(p)?;
            a::state(s)
        }
        "events" => a::events(s, params(p)?),
        "narrate" => a::narrate(s, params(p)?),
        "svg" => a::svg(s, params(p)?),
        "elements" => {
            params::<a::None_>(p)?;
            a::elements(s)
        }
        "ai" => a::ai(s, params(p)?),
        "driver" => {
            params::<a::None_>(p)?;
            a::driver(s)
        }
        "combat_odds" => a::combat_odds(s, params(p)?),
        "shot_odds" => a::shot_odds(s, params(p)?),
        "reach" => a::reach(s, params(p)?),
        "verdict" => {
            params::<a::None_>(p)?;
            let result = s.record().result;
            Ok(json!({
                "finished": s.stage() == super::Stage::Finished,
                "winners": result.and_then(|r| r.winners),
            }))
        }
        "scene" => {
            params::<a::None_>(p)?;
            super::scene::scene(s)
        }
        "destinations" => super::scene::destinations(s, params(p)?),
        "snap" => super::scene::snap(s, params(p)?),
        "outlines" => super::scene::outlines(s, params(p)?),
        other => Err(unknown(other, &SESSION_METHODS)),
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Text {
    text: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Id {
    id: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Find {
    #[serde(default)]
    query: ListQuery,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Game {
    game: Value,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Doc {
    document: Value,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Render {
    document: Value,
    #[serde(default)]
    threat_zones: bool,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Odds {
    situation: Situation,
    #[serde(default)]
    config: Option<RulesConfig>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Resolve {
    situation: Situation,
    dice: [u8; 2],
    #[serde(default)]
    config: Option<RulesConfig>,
}

/// A game record given as a value or as JSON text.
fn read_record(v: Value) -> Result<GameFile, SurfaceError> {
    match v {
        Value::String(text) => GameFile::from_json(&text),
        v => GameFile::from_value(v),
    }
    .map_err(|e| SurfaceError::of(&e))
}

/// What a file given to `render` or `validate` holds.
#[derive(Debug)]
pub enum Document {
    /// A set-up of either game.
    Setup(AnySetup),
    /// A saved battle state.
    Battle(AnyBattle),
    /// A game record, with its battle when the record reaches the battle.
    Record(Box<GameFile>, Option<AnyBattle>),
    /// A BUGS! game record and its encounter as the record leaves it.
    Encounter(Box<GameFile>, Box<crate::bugs::Encounter>),
}

/// Tell a set-up, a state and a record apart by their keys, and read (and for a record,
/// replay) it. A value given as a string is read as JSON text.
pub fn read_document(v: Value) -> Result<Document, SurfaceError> {
    let v = match v {
        Value::String(text) => crate::json::from_str(&text).map_err(|e| SurfaceError::of(&e))?,
        v => v,
    };
    let has = |k: &str| v.get(k).is_some();
    let format = v.get("format").and_then(Value::as_str).unwrap_or("");
    if format == "dbcore-state" || (has("setup") && has("elements")) {
        let b = AnyBattle::from_state_value(v).map_err(|e| SurfaceError::of(&e))?;
        return Ok(Document::Battle(b));
    }
    if format == crate::record::FORMAT
        || format == crate::bugs::RECORD_FORMAT
        || has("actions")
        || has("record")
        || (has("prebattle") && has("battle"))
    {
        let file = GameFile::from_value(v).map_err(|e| SurfaceError::of(&e))?;
        let battle = match file.replay().map_err(|e| SurfaceError::of(&e))? {
            Replayed::Battle { battle, .. } => Some(battle),
            Replayed::Prebattle { .. } => None,
            Replayed::Bugs { encounter, .. } => {
                return Ok(Document::Encounter(Box::new(file), encounter))
            }
        };
        return Ok(Document::Record(Box::new(file), battle));
    }
    let text = v.to_string();
    Ok(Document::Setup(
        AnySetup::from_json(&text).map_err(|e| SurfaceError::of(&e))?,
    ))
}

/// Every problem of a document: a set-up's are listed one by one, a state or record that does
/// not read or replay gives its one refusal.
fn validate(v: Value) -> Answer {
    let v = match v {
        Value::String(text) => crate::json::from_str(&text).map_err(|e| SurfaceError::of(&e))?,
        v => v,
    };
    let looks_like_setup = v.get("armies").is_some() && v.get("elements").is_none();
    if looks_like_setup && v.get("variant").and_then(Value::as_str) != Some("dbaix") {
        let setup: BattleSetup = crate::json::from_value(v).map_err(|e| SurfaceError::of(&e))?;
        let problems = crate::battle::validate(&setup);
        return Ok(json!({
            "kind": "setup",
            "problems": problems.iter().map(|p| json!({"problem": to_value(p).unwrap_or(Value::Null), "message": p.to_string()})).collect::<Vec<_>>(),
        }));
    }
    let (kind, outcome) = match read_document(v) {
        Ok(Document::Setup(_)) => ("setup", Ok(())),
        Ok(Document::Battle(_)) => ("state", Ok(())),
        Ok(Document::Record(..) | Document::Encounter(..)) => ("record", Ok(())),
        Err(e) => ("unreadable", Err(e)),
    };
    let problems: Vec<Value> = match outcome {
        Ok(()) => Vec::new(),
        Err(e) => vec![json!({"message": e.message, "code": e.code.number(), "rule": e.rule})],
    };
    Ok(json!({ "kind": kind, "problems": problems }))
}
