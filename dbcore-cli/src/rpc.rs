//! The JSON-RPC 2.0 dispatcher: one pure [`Referee::handle`] from a request to its response, which
//! the stdio and HTTP doors only frame. No rule is decided here: every question goes to dbcore.
//!
//! Sessions: `battle.create` and `battle.import` hand out battle ids (`b1`, `b2`, ...). Every
//! battle has a revision, the number of actions applied; `battle.apply` must name the revision it
//! applies to, and a retried identical `battle.apply` (same battle, revision and action as the
//! last one applied) is answered from the cache instead of being applied twice.
//!
//! Errors: the JSON-RPC codes for protocol faults (`-32700` parse error, `-32600` invalid
//! request, `-32601` unknown method, `-32602` invalid params with `data.pointer`, a JSON pointer
//! to the bad parameter); application codes [`UNKNOWN_BATTLE`], [`STALE_REVISION`],
//! [`RULE_REFUSAL`] (with dbcore's `code`, `rule` and `detail`), [`LIMIT_REACHED`] and
//! [`MESSAGE_TOO_LARGE`]. `battle.check` answers a refusal as a normal result. Batches are not
//! accepted: one request a message.

use std::collections::BTreeMap;

use dbcore::battle::{Action, Battle, BattleRecord, BattleSetup, ElementId};
use dbcore::combat::Situation;
use dbcore::geometry::Pose;
use dbcore::snap::OutcomeMove;
use dbcore::table::{PlacedElement, Table};
use dbcore::{DieScore, ErrorInfo, RulesConfig};
use serde::de::DeserializeOwned;
use serde_json::{json, Map, Value};

use crate::frame::{Frame, Preset};

/// The protocol version this server speaks.
pub const PROTOCOL_VERSION: u64 = 1;

pub const PARSE_ERROR: i64 = -32700;
pub const INVALID_REQUEST: i64 = -32600;
pub const METHOD_NOT_FOUND: i64 = -32601;
pub const INVALID_PARAMS: i64 = -32602;
pub const INTERNAL_ERROR: i64 = -32603;
/// No battle has the id given (never created, closed, or the server restarted).
pub const UNKNOWN_BATTLE: i64 = -32001;
/// `revision` is not the battle's revision: someone else moved first. `data.revision` is the
/// battle's revision now.
pub const STALE_REVISION: i64 = -32002;
/// dbcore refused: `data` has its `code`, `rule` (section) and `detail`.
pub const RULE_REFUSAL: i64 = -32003;
/// A server limit (live battles) is reached.
pub const LIMIT_REACHED: i64 = -32004;
/// The message is longer than the server accepts (stdio line, HTTP body or header).
pub const MESSAGE_TOO_LARGE: i64 = -32005;

/// The methods, as `hello` lists them.
pub const METHODS: [&str; 17] = [
    "hello",
    "battle.create",
    "battle.import",
    "battle.check",
    "battle.apply",
    "battle.legal",
    "battle.state",
    "battle.export",
    "battle.close",
    "combat.resolve",
    "combat.odds",
    "render.svg",
    "battles.list",
    "table.snap",
    "table.outlines",
    "table.outcome",
    "table.contacts",
];

/// What the server accepts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Battles alive at once.
    pub max_battles: usize,
    /// Bytes in one message (a stdio line or an HTTP body).
    pub max_message_bytes: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_battles: 64,
            max_message_bytes: 1 << 20,
        }
    }
}

/// A JSON-RPC error object.
#[derive(Debug, Clone, PartialEq)]
pub struct RpcError {
    pub code: i64,
    pub message: String,
    pub data: Option<Value>,
}

impl RpcError {
    pub fn new(code: i64, message: impl Into<String>) -> Self {
        RpcError {
            code,
            message: message.into(),
            data: None,
        }
    }
    pub fn with(mut self, data: Value) -> Self {
        self.data = Some(data);
        self
    }
    fn params(pointer: &str, message: impl Into<String>) -> Self {
        RpcError::new(INVALID_PARAMS, message).with(json!({ "pointer": pointer }))
    }
    fn to_value(&self) -> Value {
        let mut m = Map::new();
        m.insert("code".into(), self.code.into());
        m.insert("message".into(), self.message.clone().into());
        if let Some(d) = &self.data {
            m.insert("data".into(), d.clone());
        }
        Value::Object(m)
    }
}

/// A dbcore refusal as the `data` of [`RULE_REFUSAL`] or a `battle.check` result.
fn refusal<E: ErrorInfo + serde::Serialize>(e: &E) -> Value {
    json!({
        "code": e.code().number(),
        "rule": e.rule(),
        "message": e.to_string(),
        "detail": serde_json::to_value(e).unwrap_or(Value::Null),
    })
}

/// A refusal of an error type that has no serde form.
fn refusal_plain<E: ErrorInfo>(e: &E) -> Value {
    json!({ "code": e.code().number(), "rule": e.rule(), "message": e.to_string(), "detail": null })
}

fn rule_error(data: Value) -> RpcError {
    let message = data["message"].as_str().unwrap_or("refused").to_string();
    RpcError::new(RULE_REFUSAL, message).with(data)
}

/// The last `battle.apply` of a battle, for answering its retry.
#[derive(Debug, Clone)]
struct Applied {
    revision: u64,
    action: Value,
    result: Value,
}

#[derive(Debug, Clone)]
struct Session {
    battle: Battle,
    frame: Frame,
    last: Option<Applied>,
}

impl Session {
    fn revision(&self) -> u64 {
        self.battle.actions().len() as u64
    }
    fn depth(&self) -> f64 {
        self.battle.setup().battlefield.board.depth
    }
    /// `v` (BW) in the battle's frame.
    fn out(&self, mut v: Value) -> Value {
        self.frame.outbound(&mut v, self.depth());
        v
    }
}

/// The referee: live battles and the default frame. One per server; both doors share it.
#[derive(Debug, Clone, Default)]
pub struct Referee {
    sessions: BTreeMap<String, Session>,
    next_id: u64,
    frame: Frame,
    limits: Limits,
}

/// The params object, or an empty one.
fn params_of(req: &Map<String, Value>) -> Result<Map<String, Value>, RpcError> {
    match req.get("params") {
        None => Ok(Map::new()),
        Some(Value::Object(m)) => Ok(m.clone()),
        Some(_) => Err(RpcError::params(
            "/params",
            "params must be an object (by-name parameters)",
        )),
    }
}

/// A required parameter, read as `T`, with a JSON pointer to the fault.
fn take<T: DeserializeOwned>(p: &Map<String, Value>, key: &str) -> Result<T, RpcError> {
    let v = p
        .get(key)
        .ok_or_else(|| RpcError::params(&format!("/params/{key}"), format!("missing `{key}`")))?;
    read(v.clone(), &format!("/params/{key}"))
}

/// An optional parameter.
fn take_opt<T: DeserializeOwned>(p: &Map<String, Value>, key: &str) -> Result<Option<T>, RpcError> {
    match p.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(v) => read(v.clone(), &format!("/params/{key}")).map(Some),
    }
}

/// `v` read as `T`; a failure names the JSON pointer of the offending field under `base`.
pub fn read<T: DeserializeOwned>(v: Value, base: &str) -> Result<T, RpcError> {
    serde_path_to_error::deserialize(v).map_err(|e| {
        let mut pointer = base.to_string();
        for seg in e.path().iter() {
            use serde_path_to_error::Segment;
            match seg {
                Segment::Seq { index } => pointer += &format!("/{index}"),
                Segment::Map { key } => {
                    pointer += &format!("/{}", key.replace('~', "~0").replace('/', "~1"))
                }
                Segment::Enum { .. } | Segment::Unknown => {}
            }
        }
        RpcError::params(&pointer, format!("{pointer}: {}", e.inner()))
    })
}

/// The board depth (BW) a set-up declares, for frames with a downward y; 15 if it has none.
fn setup_depth(setup: &Value) -> f64 {
    setup
        .pointer("/battlefield/board/depth")
        .and_then(Value::as_f64)
        .unwrap_or(15.0)
}

fn to_json<T: serde::Serialize>(t: &T) -> Result<Value, RpcError> {
    serde_json::to_value(t).map_err(|e| RpcError::new(INTERNAL_ERROR, e.to_string()))
}

impl Referee {
    pub fn new(limits: Limits) -> Self {
        Referee {
            limits,
            ..Referee::default()
        }
    }

    pub fn limits(&self) -> Limits {
        self.limits
    }

    /// Live battles.
    pub fn battles(&self) -> usize {
        self.sessions.len()
    }

    /// One message's text to its response's text (compact JSON, no newline); `None` for a
    /// notification (a request without an id).
    pub fn handle_text(&mut self, text: &str) -> Option<String> {
        let response = match serde_json::from_str::<Value>(text) {
            Ok(v) => self.handle(v),
            Err(e) => Some(error_response(
                Value::Null,
                &RpcError::new(PARSE_ERROR, format!("parse error: {e}")),
            )),
        };
        response.map(|v| v.to_string())
    }

    /// One request to its response; `None` for a notification.
    pub fn handle(&mut self, request: Value) -> Option<Value> {
        let Value::Object(req) = request else {
            let e = if request.is_array() {
                RpcError::new(
                    INVALID_REQUEST,
                    "batches are not accepted: one request a message",
                )
            } else {
                RpcError::new(INVALID_REQUEST, "a request is a JSON object")
            };
            return Some(error_response(Value::Null, &e));
        };
        let id = req.get("id").cloned();
        let valid_id = matches!(
            id,
            None | Some(Value::Null) | Some(Value::String(_)) | Some(Value::Number(_))
        );
        let reply_id = if valid_id {
            id.clone().unwrap_or(Value::Null)
        } else {
            Value::Null
        };
        if req.get("jsonrpc") != Some(&Value::String("2.0".into())) {
            return Some(error_response(
                reply_id,
                &RpcError::new(INVALID_REQUEST, "`jsonrpc` must be \"2.0\""),
            ));
        }
        if !valid_id {
            return Some(error_response(
                reply_id,
                &RpcError::new(INVALID_REQUEST, "`id` must be a string, a number or null"),
            ));
        }
        let Some(method) = req.get("method").and_then(Value::as_str) else {
            return Some(error_response(
                reply_id,
                &RpcError::new(INVALID_REQUEST, "`method` must be a string"),
            ));
        };
        let outcome = params_of(&req).and_then(|p| self.call(method, &p));
        // A notification gets no answer, not even an error (JSON-RPC 2.0 §4.1).
        id.as_ref()?;
        Some(match outcome {
            Ok(result) => json!({ "jsonrpc": "2.0", "id": reply_id, "result": result }),
            Err(e) => error_response(reply_id, &e),
        })
    }

    fn call(&mut self, method: &str, p: &Map<String, Value>) -> Result<Value, RpcError> {
        match method {
            "hello" => self.hello(p),
            "battle.create" => self.create(p),
            "battle.import" => self.import(p),
            "battle.check" => self.check(p),
            "battle.apply" => self.apply(p),
            "battle.legal" => {
                let s = self.session(p)?;
                Ok(
                    s.out(
                        json!({ "revision": s.revision(), "legal": to_json(&s.battle.legal())? }),
                    ),
                )
            }
            "battle.state" => self.state(p),
            "battle.export" => {
                let s = self.session(p)?;
                Ok(s.out(
                    json!({ "revision": s.revision(), "record": to_json(&s.battle.record())? }),
                ))
            }
            "battle.close" => {
                let id: String = take(p, "battle")?;
                match self.sessions.remove(&id) {
                    Some(_) => Ok(json!({ "closed": id })),
                    None => Err(unknown_battle(&id)),
                }
            }
            "battles.list" => Ok(json!({
                "battles": self
                    .sessions
                    .iter()
                    .map(|(id, s)| json!({ "battle": id, "revision": s.revision() }))
                    .collect::<Vec<_>>()
            })),
            "combat.resolve" => {
                let situation: Situation = take(p, "situation")?;
                let dice: [DieScore; 2] = take(p, "dice")?;
                let cfg: RulesConfig = take_opt(p, "config")?.unwrap_or_default();
                match dbcore::resolve(&situation, dice, &cfg) {
                    Ok(r) => to_json(&r),
                    Err(e) => Err(rule_error(refusal(&e))),
                }
            }
            "combat.odds" => {
                let situation: Situation = take(p, "situation")?;
                let cfg: RulesConfig = take_opt(p, "config")?.unwrap_or_default();
                match dbcore::odds(&situation, &cfg) {
                    Ok(o) => to_json(&o),
                    Err(e) => Err(rule_error(refusal(&e))),
                }
            }
            "render.svg" => self.render(p),
            "table.snap" | "table.outlines" | "table.outcome" | "table.contacts" => {
                self.table(method, p)
            }
            _ => Err(
                RpcError::new(METHOD_NOT_FOUND, format!("there is no method `{method}`"))
                    .with(json!({ "methods": METHODS })),
            ),
        }
    }

    fn hello(&mut self, p: &Map<String, Value>) -> Result<Value, RpcError> {
        let offered: Option<Vec<u64>> = take_opt(p, "protocol")?;
        if let Some(v) = &offered {
            if !v.contains(&PROTOCOL_VERSION) {
                return Err(RpcError::params(
                    "/params/protocol",
                    "no protocol version in common with the server",
                )
                .with(json!({ "pointer": "/params/protocol", "supported": [PROTOCOL_VERSION] })));
            }
        }
        if let Some(frame) = take_opt::<Frame>(p, "frame")? {
            frame
                .check()
                .map_err(|m| RpcError::params("/params/frame/units_per_bw", m))?;
            self.frame = frame;
        }
        Ok(json!({
            "protocol": PROTOCOL_VERSION,
            "server": "dbcore-cli",
            "version": env!("CARGO_PKG_VERSION"),
            "dbcore": dbcore::VERSION,
            "variants": ["standard"],
            "frames": [Preset::Bw, Preset::Tts, Preset::Vassal],
            "frame": { "preset": self.frame.preset, "units_per_bw": self.frame.scale() },
            "methods": METHODS,
            "limits": {
                "max_battles": self.limits.max_battles,
                "max_message_bytes": self.limits.max_message_bytes,
            },
        }))
    }

    fn frame_param(&self, p: &Map<String, Value>) -> Result<Frame, RpcError> {
        let frame = take_opt::<Frame>(p, "frame")?.unwrap_or(self.frame);
        frame
            .check()
            .map_err(|m| RpcError::params("/params/frame/units_per_bw", m))?;
        Ok(frame)
    }

    fn insert(&mut self, battle: Battle, frame: Frame) -> Result<Value, RpcError> {
        if self.sessions.len() >= self.limits.max_battles {
            return Err(RpcError::new(
                LIMIT_REACHED,
                format!(
                    "at most {} battles may be open at once: close one",
                    self.limits.max_battles
                ),
            )
            .with(json!({ "max_battles": self.limits.max_battles })));
        }
        self.next_id += 1;
        let id = format!("b{}", self.next_id);
        let s = Session {
            battle,
            frame,
            last: None,
        };
        let v = json!({ "battle": id, "revision": s.revision() });
        self.sessions.insert(id, s);
        Ok(v)
    }

    fn create(&mut self, p: &Map<String, Value>) -> Result<Value, RpcError> {
        let frame = self.frame_param(p)?;
        let mut setup = p
            .get("setup")
            .cloned()
            .ok_or_else(|| RpcError::params("/params/setup", "missing `setup`"))?;
        let depth = setup_depth(&setup);
        frame
            .inbound(&mut setup, depth)
            .map_err(|m| RpcError::params("/params/setup", m))?;
        let setup: BattleSetup = read(setup, "/params/setup")?;
        let battle = Battle::new(setup).map_err(|e| rule_error(refusal(&e)))?;
        self.insert(battle, frame)
    }

    fn import(&mut self, p: &Map<String, Value>) -> Result<Value, RpcError> {
        let frame = self.frame_param(p)?;
        let mut record = p
            .get("record")
            .cloned()
            .ok_or_else(|| RpcError::params("/params/record", "missing `record`"))?;
        let depth = record.get("setup").map_or(15.0, setup_depth);
        frame
            .inbound(&mut record, depth)
            .map_err(|m| RpcError::params("/params/record", m))?;
        let record: BattleRecord = read(record, "/params/record")?;
        let (battle, _) = Battle::replay(&record).map_err(|e| rule_error(refusal_plain(&e)))?;
        self.insert(battle, frame)
    }

    fn session(&self, p: &Map<String, Value>) -> Result<&Session, RpcError> {
        let id: String = take(p, "battle")?;
        self.sessions.get(&id).ok_or_else(|| unknown_battle(&id))
    }

    /// The `action` parameter in BW, as JSON (for the retry cache) and as an action.
    fn action(s: &Session, p: &Map<String, Value>) -> Result<(Value, Action), RpcError> {
        let mut v = p
            .get("action")
            .cloned()
            .ok_or_else(|| RpcError::params("/params/action", "missing `action`"))?;
        s.frame
            .inbound(&mut v, s.depth())
            .map_err(|m| RpcError::params("/params/action", m))?;
        let a: Action = read(v.clone(), "/params/action")?;
        Ok((v, a))
    }

    fn check_revision(s: &Session, p: &Map<String, Value>, required: bool) -> Result<(), RpcError> {
        let sent: Option<u64> = if required {
            Some(take(p, "revision")?)
        } else {
            take_opt(p, "revision")?
        };
        match sent {
            Some(r) if r != s.revision() => Err(stale(r, s.revision())),
            _ => Ok(()),
        }
    }

    fn check(&self, p: &Map<String, Value>) -> Result<Value, RpcError> {
        let s = self.session(p)?;
        Self::check_revision(s, p, false)?;
        let (_, action) = Self::action(s, p)?;
        Ok(match s.battle.check(&action) {
            Ok(events) => s.out(
                json!({ "legal": true, "revision": s.revision(), "events": to_json(&events)? }),
            ),
            Err(e) => json!({ "legal": false, "revision": s.revision(), "refusal": refusal(&e) }),
        })
    }

    fn apply(&mut self, p: &Map<String, Value>) -> Result<Value, RpcError> {
        let id: String = take(p, "battle")?;
        let s = self
            .sessions
            .get_mut(&id)
            .ok_or_else(|| unknown_battle(&id))?;
        let sent: u64 = take(p, "revision")?;
        let (raw, action) = Self::action(s, p)?;
        if sent != s.revision() {
            if let Some(last) = &s.last {
                if last.revision == sent && last.action == raw {
                    return Ok(last.result.clone());
                }
            }
            return Err(stale(sent, s.revision()));
        }
        let events = s
            .battle
            .apply(action)
            .map_err(|e| rule_error(refusal(&e)))?;
        let result = s.out(json!({ "revision": s.revision(), "events": to_json(&events)? }));
        s.last = Some(Applied {
            revision: sent,
            action: raw,
            result: result.clone(),
        });
        Ok(result)
    }

    fn state(&self, p: &Map<String, Value>) -> Result<Value, RpcError> {
        let s = self.session(p)?;
        let b = &s.battle;
        Ok(s.out(json!({
            "revision": s.revision(),
            "phase": to_json(&b.phase())?,
            "army": b.active_army(),
            "bound": b.bound(),
            "pips": b.pips(),
            "river": to_json(&b.river())?,
            "plough_rough": b.plough_rough(),
            "awaiting": to_json(&b.awaiting())?,
            "elements": to_json(&b.elements())?,
            "cities": to_json(&b.cities())?,
            "armies": b.setup().armies.iter().zip(b.counts()).map(|(a, (in_play, lost))| {
                json!({ "name": a.name, "in_play": in_play, "lost": lost })
            }).collect::<Vec<_>>(),
        })))
    }

    /// The table questions of an open battle (positions in its frame).
    fn table(&self, method: &str, p: &Map<String, Value>) -> Result<Value, RpcError> {
        let s = self.session(p)?;
        let b = &s.battle;
        let id: ElementId = take(p, "id")?;
        let refused = |e: dbcore::battle::BattleError| rule_error(refusal(&e));
        let v = match method {
            "table.snap" => {
                let mut pose = p
                    .get("pose")
                    .cloned()
                    .ok_or_else(|| RpcError::params("/params/pose", "missing `pose`"))?;
                s.frame
                    .inbound(&mut pose, s.depth())
                    .map_err(|m| RpcError::params("/params/pose", m))?;
                let pose: Pose = read(pose, "/params/pose")?;
                let within: f64 = take_opt(p, "within")?.unwrap_or(0.5 * s.frame.scale());
                let within = within / s.frame.scale();
                if !(within.is_finite() && (0.0..=4.0).contains(&within)) {
                    return Err(RpcError::params("/params/within", "`within` is 0 to 4 BW"));
                }
                match b.snap(id, pose, within) {
                    Ok(snap) => json!({ "snapped": true, "snap": to_json(&snap)? }),
                    Err(e) => json!({ "snapped": false, "refusal": refusal(&e) }),
                }
            }
            "table.outlines" => json!({ "outlines": to_json(&b.outlines(id).map_err(refused)?)? }),
            "table.outcome" => {
                let outcome: OutcomeMove = take(p, "outcome")?;
                json!({ "effects": to_json(&b.outcome_preview(id, outcome).map_err(refused)?)? })
            }
            _ => {
                let contacts = b
                    .table()
                    .contacts_of(id.0, &b.setup().config)
                    .map_err(|e| rule_error(refusal_plain(&e)))?;
                json!({ "contacts": to_json(&contacts)? })
            }
        };
        Ok(s.out(v))
    }

    fn render(&self, p: &Map<String, Value>) -> Result<Value, RpcError> {
        let zones: bool = take_opt(p, "threat_zones")?.unwrap_or(false);
        if p.contains_key("battle") {
            let s = self.session(p)?;
            return Ok(json!({ "svg": s.battle.svg(zones) }));
        }
        let frame = self.frame_param(p)?;
        let mut setup = p.get("setup").cloned().ok_or_else(|| {
            RpcError::params("/params", "give `battle` (an open battle) or `setup`")
        })?;
        let depth = setup_depth(&setup);
        frame
            .inbound(&mut setup, depth)
            .map_err(|m| RpcError::params("/params/setup", m))?;
        let setup: BattleSetup = read(setup, "/params/setup")?;
        let table = setup_table(&setup).map_err(|e| rule_error(refusal_plain(&e)))?;
        Ok(json!({ "svg": table.svg(&setup.config, zones) }))
    }
}

/// A set-up's elements standing where it deploys them.
pub fn setup_table(setup: &BattleSetup) -> Result<Table, dbcore::table::TableError> {
    let elements = setup
        .armies
        .iter()
        .enumerate()
        .flat_map(|(i, a)| {
            a.elements.iter().map(move |e| PlacedElement {
                id: e.id.0,
                side: u8::try_from(i).unwrap_or(u8::MAX),
                kind: e.kind,
                pose: e.pose,
                general: e.general,
            })
        })
        .collect();
    Table::new(setup.battlefield.clone(), elements)
}

fn unknown_battle(id: &str) -> RpcError {
    RpcError::new(UNKNOWN_BATTLE, format!("there is no battle `{id}`"))
        .with(json!({ "battle": id }))
}

fn stale(sent: u64, now: u64) -> RpcError {
    RpcError::new(
        STALE_REVISION,
        format!("revision {sent} is stale: the battle is at revision {now}"),
    )
    .with(json!({ "revision": now, "sent": sent }))
}

/// An error response.
pub fn error_response(id: Value, e: &RpcError) -> Value {
    json!({ "jsonrpc": "2.0", "id": id, "error": e.to_value() })
}

/// A transport-level error response (too large, unreadable), as compact text.
pub fn transport_error(code: i64, message: &str, data: Value) -> String {
    error_response(Value::Null, &RpcError::new(code, message).with(data)).to_string()
}
