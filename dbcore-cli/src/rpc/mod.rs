//! The JSON-RPC 2.0 dispatcher: one pure [`Referee::handle`] from a request to its response, which
//! the stdio and HTTP doors only frame. No rule is decided here: every question goes to dbcore.
//!
//! Sessions: `battle.create` and `battle.import` hand out battle ids (`b1`, `b2`, ...). Every
//! battle has a revision, the number of actions applied; `battle.apply` must name the revision it
//! applies to, and a retried identical `battle.apply` (same battle, revision and action as the
//! last one applied) is answered from the cache instead of being applied twice.
//!
//! A session holds a DBA battle, a DBAix game (a set-up whose `format` is
//! [`dbcore::dbaix::FORMAT`]) or a pre-battle being played by actions (`battle.create` from army
//! lists without a `seed`), which becomes its battle when the last deployment ends; the revision
//! counts the pre-battle's actions too. A question a game does not offer (`battle.legal` of a
//! DBAix game, `table.*` before the battle) is [`NOT_FOR_THIS_GAME`]. Element ids may be the
//! client's own strings ([`crate::rpc_names`]).
//!
//! Errors: the JSON-RPC codes for protocol faults (`-32700` parse error, `-32600` invalid
//! request, `-32601` unknown method, `-32602` invalid params with `data.pointer`, a JSON pointer
//! to the bad parameter); application codes [`UNKNOWN_BATTLE`], [`STALE_REVISION`],
//! [`RULE_REFUSAL`] (with dbcore's `code`, `rule` and `detail`), [`LIMIT_REACHED`],
//! [`MESSAGE_TOO_LARGE`] and [`NOT_FOR_THIS_GAME`]. `battle.check` answers a refusal as a normal result. Batches are not
//! accepted: one request a message.

use std::collections::BTreeMap;

use dbcore::armies::{self, ArmyChoice, ArmyError, ArmyProblem, ListId, ListQuery};
use dbcore::battle::prebattle::element_id;
use dbcore::battle::{
    Action, ArmyEntry, Battle, BattleRecord, BattleSetup, ElementId, Prebattle, PrebattleAction,
    PrebattleRecord, PrebattleSetup,
};
use dbcore::combat::Situation;
use dbcore::dbaix;
use dbcore::game::AnyBattle;
use dbcore::geometry::Pose;
use dbcore::snap::OutcomeMove;
use dbcore::table::{PlacedElement, Table};
use dbcore::{DieScore, ErrorInfo, RulesConfig};
use serde::de::DeserializeOwned;
use serde_json::{json, Map, Value};

use crate::frame::{Frame, Preset};
use crate::rpc_names::{number_items, NameError, Names};

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
/// The battle's game or stage does not offer the method (`battle.legal` of a DBAix game, the
/// table questions during the pre-battle): `data` names the `game` and `stage`.
pub const NOT_FOR_THIS_GAME: i64 = -32006;

/// The methods, as `hello` lists them.
pub const METHODS: [&str; 20] = [
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
    "armies.find",
    "armies.get",
    "armies.validate",
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

/// What a session plays: a pre-battle being played by actions, or a battle of either game.
#[derive(Debug, Clone)]
enum Game {
    Prebattle(Box<Prebattle>),
    Battle(AnyBattle),
}

#[derive(Debug, Clone)]
struct Session {
    game: Game,
    /// The pre-battle the battle came from, when it was created from army lists.
    prebattle: Option<PrebattleRecord>,
    frame: Frame,
    names: Names,
    last: Option<Applied>,
}

impl Session {
    fn revision(&self) -> u64 {
        let before = self.prebattle.as_ref().map_or(0, |r| r.actions.len());
        (match &self.game {
            Game::Prebattle(p) => p.actions().len(),
            Game::Battle(AnyBattle::Dba(b)) => before + b.actions().len(),
            Game::Battle(AnyBattle::Dbaix(b)) => before + b.actions().len(),
        }) as u64
    }
    /// The table's depth in the battle's own unit, for frames with a downward y.
    fn depth(&self) -> f64 {
        match &self.game {
            Game::Prebattle(p) => p.battlefield().board.depth,
            Game::Battle(AnyBattle::Dba(b)) => b.setup().battlefield.board.depth,
            Game::Battle(AnyBattle::Dbaix(b)) => b.setup().config.table_depth,
        }
    }
    /// `v` (native units, dbcore's numbers) in the battle's frame and the client's names.
    fn out(&self, mut v: Value) -> Value {
        self.frame.outbound(&mut v, self.depth());
        self.names.outbound(&mut v);
        v
    }
    /// A refusal with the client's names (its lengths stay native, as dbcore wrote them).
    fn named(&self, mut v: Value) -> Value {
        self.names.outbound(&mut v);
        v
    }
    /// Parameter `key` in native units and dbcore's numbers.
    fn incoming(&self, p: &Map<String, Value>, key: &str) -> Result<Value, RpcError> {
        let pointer = format!("/params/{key}");
        let mut v = p
            .get(key)
            .cloned()
            .ok_or_else(|| RpcError::params(&pointer, format!("missing `{key}`")))?;
        self.frame
            .inbound(&mut v, self.depth())
            .map_err(|m| RpcError::params(&pointer, m))?;
        self.names.inbound(&mut v, &pointer).map_err(name_error)?;
        Ok(v)
    }
    /// The DBA battle, or [`NOT_FOR_THIS_GAME`].
    fn dba(&self, method: &str) -> Result<&Battle, RpcError> {
        match &self.game {
            Game::Battle(AnyBattle::Dba(b)) => Ok(b),
            _ => Err(self.not_for(method)),
        }
    }
    fn not_for(&self, method: &str) -> RpcError {
        let (game, stage) = match &self.game {
            Game::Prebattle(_) => ("dba", "prebattle"),
            Game::Battle(AnyBattle::Dba(_)) => ("dba", "battle"),
            Game::Battle(AnyBattle::Dbaix(_)) => ("dbaix", "battle"),
        };
        RpcError::new(
            NOT_FOR_THIS_GAME,
            format!("`{method}` is not offered for a {game} game in its {stage}"),
        )
        .with(json!({ "method": method, "game": game, "stage": stage }))
    }
}

fn name_error(e: NameError) -> RpcError {
    RpcError::params(&e.pointer, e.message)
}

/// A set-up is a DBAix scenario when its `format` says so (DBAIX.md §0).
fn is_dbaix(setup: &Value) -> bool {
    setup.get("format").and_then(Value::as_str) == Some(dbaix::FORMAT)
}

/// The frame of a DBAix game: the preset's axes, with inches as the unit it scales
/// (`units_per_bw` read as frame units an inch). Without an explicit scale, `bw` and `tts` are
/// 1 (TTS measures in inches) and `vassal` is 50 pixels an inch. The default frame declared at
/// `hello` gives only its preset here: its scale is a base width's.
fn dbaix_frame(frame: Frame, explicit: Option<f64>) -> Frame {
    Frame {
        preset: frame.preset,
        units_per_bw: Some(explicit.unwrap_or(match frame.preset {
            Preset::Bw | Preset::Tts => 1.0,
            Preset::Vassal => crate::frame::VASSAL_PIXELS_PER_BW,
        })),
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
///
/// A die score outside 1 to 6 is not a malformed parameter but dbcore's dice refusal (code 300,
/// §0.3), answered as [`RULE_REFUSAL`] like a die of 7 anywhere else, its `data` also naming
/// the `pointer`.
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
        if let Some(die) = dbcore::json::die_fault(&e.inner().to_string()) {
            let mut data = refusal(&die);
            data["pointer"] = json!(pointer);
            return rule_error(data);
        }
        let inner = dbcore::json::with_spelling_hint(&e.inner().to_string());
        RpcError::params(&pointer, format!("{pointer}: {inner}"))
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
            "battle.legal" => self.legal(p),
            "battle.state" => self.state(p),
            "battle.export" => self.export(p),
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
            "armies.find" => {
                let query: ListQuery = read(Value::Object(p.clone()), "/params")?;
                Ok(json!({
                    "lists": armies::find(&query).iter().map(|l| json!({
                        "id": l.id,
                        "name": l.name,
                        "dates": l.dates,
                        "home": l.home,
                        "aggression": l.aggression,
                    })).collect::<Vec<_>>()
                }))
            }
            "armies.get" => {
                let id: ListId = take(p, "id")?;
                let l = armies::list(&id).ok_or_else(|| {
                    let mut data = refusal_plain(&ArmyError::UnknownList(id));
                    data["pointer"] = "/params/id".into();
                    rule_error(data)
                })?;
                Ok(
                    json!({ "list": to_json(l)?, "default_choice": to_json(&armies::choose::default_choice(l))? }),
                )
            }
            "armies.validate" => {
                let choice: ArmyChoice = take(p, "choice")?;
                Ok(match armies::choose(&choice) {
                    Ok(army) => json!({ "valid": true, "army": to_json(&army)? }),
                    Err(ArmyError::UnknownList(list)) => json!({
                        "valid": false,
                        "problems": armies::choose::problems_json(&[ArmyProblem::UnknownList { list }]),
                    }),
                    Err(ArmyError::Invalid(problems)) => json!({
                        "valid": false,
                        "problems": armies::choose::problems_json(&problems),
                    }),
                })
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
            "variants": ["standard", "dbaix"],
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

    /// The frame of a new session of `game`: the battle's own, or for DBAix its inch frame.
    fn session_frame(&self, p: &Map<String, Value>, dbaix: bool) -> Result<Frame, RpcError> {
        let frame = self.frame_param(p)?;
        if !dbaix {
            return Ok(frame);
        }
        let explicit = take_opt::<Frame>(p, "frame")?.and_then(|f| f.units_per_bw);
        Ok(dbaix_frame(frame, explicit))
    }

    fn insert(&mut self, s: Session) -> Result<Value, RpcError> {
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
        let v = json!({ "battle": id, "revision": s.revision() });
        self.sessions.insert(id, s);
        Ok(v)
    }

    fn session_of(game: Game, frame: Frame, names: Names) -> Session {
        Session {
            game,
            prebattle: None,
            frame,
            names,
            last: None,
        }
    }

    fn create(&mut self, p: &Map<String, Value>) -> Result<Value, RpcError> {
        if p.contains_key("lists") || p.contains_key("prebattle") {
            return self.create_from_lists(p);
        }
        let mut setup = p.get("setup").cloned().ok_or_else(|| {
            RpcError::params(
                "/params/setup",
                "give `setup` (a set-up), or `lists` or `prebattle` (armies for a pre-battle)",
            )
        })?;
        let dbaix = is_dbaix(&setup);
        let frame = self.session_frame(p, dbaix)?;
        let depth = if dbaix {
            setup
                .pointer("/config/table_depth")
                .and_then(Value::as_f64)
                .unwrap_or(dbaix::DbaixConfig::default().table_depth)
        } else {
            setup_depth(&setup)
        };
        frame
            .inbound(&mut setup, depth)
            .map_err(|m| RpcError::params("/params/setup", m))?;
        let mut names = Names::default();
        name_setup(&mut setup, dbaix, &mut names)?;
        names
            .inbound(&mut setup, "/params/setup")
            .map_err(name_error)?;
        let game = if dbaix {
            let setup: dbaix::DbaixSetup = read(setup, "/params/setup")?;
            let b = dbaix::Battle::new(setup).map_err(|e| rule_error(refusal(&e)))?;
            AnyBattle::Dbaix(Box::new(b))
        } else {
            let setup: BattleSetup = read(setup, "/params/setup")?;
            let b = Battle::new(setup).map_err(|e| rule_error(refusal(&e)))?;
            AnyBattle::Dba(Box::new(b))
        };
        self.insert(Self::session_of(Game::Battle(game), frame, names))
    }

    /// `battle.create` from two army lists (ids or choices) or a pre-battle set-up: with a
    /// `seed`, dbcore's driver plays the pre-battle and the battle awaits its first action;
    /// without, the session starts in the pre-battle and its actions are played over the protocol.
    fn create_from_lists(&mut self, p: &Map<String, Value>) -> Result<Value, RpcError> {
        if p.contains_key("setup") {
            return Err(RpcError::params(
                "/params/setup",
                "give a `setup`, or army `lists` / a `prebattle`, not both",
            ));
        }
        let frame = self.frame_param(p)?;
        // Big Battle and Giant from two list ids: each army three commands (§14.1).
        let variant = take_opt::<dbcore::battlefield::Variant>(p, "variant")?
            .filter(|v| *v != dbcore::battlefield::Variant::Standard);
        let setup = match (p.get("lists"), take_opt::<PrebattleSetup>(p, "prebattle")?) {
            (Some(_), Some(_)) => {
                return Err(RpcError::params(
                    "/params/prebattle",
                    "give `lists` or `prebattle`, not both",
                ))
            }
            (None, Some(s)) => s,
            (Some(lists), None) if variant.is_some() => {
                let ids: Vec<String> = read(lists.clone(), "/params/lists")?;
                let (Some(v), [first, second]) = (variant, ids.as_slice()) else {
                    return Err(RpcError::params(
                        "/params/lists",
                        "a Big Battle or Giant game names two list ids",
                    ));
                };
                let mut s = PrebattleSetup::from_big_lists(v, first, second).map_err(|e| {
                    let mut data = refusal_plain(&e);
                    data["pointer"] = "/params/lists".into();
                    rule_error(data)
                })?;
                if let Some(side) = take_opt::<f64>(p, "board_side")? {
                    s.board_side = side;
                }
                s
            }
            (Some(lists), None) => {
                let lists: Vec<Value> = read(lists.clone(), "/params/lists")?;
                if lists.len() != 2 {
                    return Err(RpcError::params(
                        "/params/lists",
                        "`lists` names two armies (a list id or an army choice each)",
                    ));
                }
                let mut entries = Vec::new();
                for (i, l) in lists.into_iter().enumerate() {
                    let pointer = format!("/params/lists/{i}");
                    let army = if l.is_string() {
                        let id: ListId = read(l, &pointer)?;
                        armies::default_army(&id)
                    } else {
                        let choice: ArmyChoice = read(l, &pointer)?;
                        armies::choose(&choice)
                    };
                    let army = army.map_err(|e| {
                        let mut data = refusal_plain(&e);
                        if let ArmyError::Invalid(problems) = &e {
                            data["detail"] =
                                json!({ "problems": armies::choose::problems_json(problems) });
                        }
                        data["pointer"] = pointer.into();
                        rule_error(data)
                    })?;
                    entries.push(ArmyEntry::from_army(&army));
                }
                let mut s = PrebattleSetup::new(entries);
                if let Some(side) = take_opt::<f64>(p, "board_side")? {
                    s.board_side = side;
                }
                s
            }
            (None, None) => unreachable_params()?,
        };
        let mut names = Names::default();
        if let Some(given) = take_opt::<Vec<Vec<String>>>(p, "names")? {
            for (army, list) in given.iter().enumerate() {
                let count = setup.armies.get(army).map_or(0, |a| a.elements.len());
                if list.len() > count {
                    return Err(RpcError::params(
                        &format!("/params/names/{army}"),
                        format!("army {army} has {count} elements, not {}", list.len()),
                    ));
                }
                for (index, name) in list.iter().enumerate() {
                    names.insert(element_id(army, index).0, name).map_err(|m| {
                        RpcError::params(&format!("/params/names/{army}/{index}"), m)
                    })?;
                }
            }
        }
        let seed: Option<u64> = take_opt(p, "seed")?;
        let mut pre = Prebattle::new(setup).map_err(|e| rule_error(refusal(&e)))?;
        if let Some(seed) = seed {
            let mut dice = dbcore::SeededDice::new(seed);
            dbcore::driver::play_prebattle(&mut pre, &mut dice)
                .map_err(|e| rule_error(refusal(&e)))?;
        }
        let mut s = Self::session_of(Game::Prebattle(Box::new(pre)), frame, names);
        s.begin_battle()?;
        self.insert(s)
    }

    fn import(&mut self, p: &Map<String, Value>) -> Result<Value, RpcError> {
        if let Some(state) = p.get("state") {
            return self.import_state(p, state.clone());
        }
        let mut record = p
            .get("record")
            .cloned()
            .ok_or_else(|| RpcError::params("/params/record", "missing `record`"))?;
        let dbaix = record.get("setup").is_some_and(is_dbaix);
        let frame = self.session_frame(p, dbaix)?;
        let depth = if dbaix {
            record
                .pointer("/setup/config/table_depth")
                .and_then(Value::as_f64)
                .unwrap_or(dbaix::DbaixConfig::default().table_depth)
        } else {
            record.get("setup").map_or(15.0, setup_depth)
        };
        frame
            .inbound(&mut record, depth)
            .map_err(|m| RpcError::params("/params/record", m))?;
        let game = if dbaix {
            let record: dbaix::BattleRecord = read(record, "/params/record")?;
            let (b, _) =
                dbaix::Battle::replay(&record).map_err(|e| rule_error(dbaix_replay_refusal(&e)))?;
            AnyBattle::Dbaix(Box::new(b))
        } else {
            let record: BattleRecord = read(record, "/params/record")?;
            let (b, _) = Battle::replay(&record).map_err(|e| rule_error(refusal_plain(&e)))?;
            AnyBattle::Dba(Box::new(b))
        };
        self.insert(Self::session_of(
            Game::Battle(game),
            frame,
            Names::default(),
        ))
    }

    /// `battle.import` of a saved state (`battle.export` with `"state": true`), in either
    /// spelling: a compact state checked by its digest, a full one by replaying its record. A
    /// state is dbcore's own save, in BW whatever the frame, so it is read as it is.
    fn import_state(&mut self, p: &Map<String, Value>, state: Value) -> Result<Value, RpcError> {
        let dbaix = state.get("setup").is_some_and(is_dbaix);
        let frame = self.session_frame(p, dbaix)?;
        let game = AnyBattle::from_state_value(state).map_err(|e| match e {
            dbcore::game::GameError::Json(m) => RpcError::params("/params/state", m),
            other => rule_error(refusal_plain(&other)),
        })?;
        self.insert(Self::session_of(
            Game::Battle(game),
            frame,
            Names::default(),
        ))
    }

    fn session(&self, p: &Map<String, Value>) -> Result<&Session, RpcError> {
        let id: String = take(p, "battle")?;
        self.sessions.get(&id).ok_or_else(|| unknown_battle(&id))
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
        let v = s.incoming(p, "action")?;
        let verdict = match &s.game {
            Game::Prebattle(pre) => {
                let a: PrebattleAction = read(v, "/params/action")?;
                pre.check(&a).map(|e| to_json(&e)).map_err(|e| refusal(&e))
            }
            Game::Battle(AnyBattle::Dba(b)) => {
                let a: Action = read(v, "/params/action")?;
                b.check(&a).map(|e| to_json(&e)).map_err(|e| refusal(&e))
            }
            Game::Battle(AnyBattle::Dbaix(b)) => {
                let a: dbaix::Action = read(v, "/params/action")?;
                b.check(&a).map(|e| to_json(&e)).map_err(|e| refusal(&e))
            }
        };
        Ok(match verdict {
            Ok(events) => {
                s.out(json!({ "legal": true, "revision": s.revision(), "events": events? }))
            }
            Err(r) => json!({ "legal": false, "revision": s.revision(), "refusal": s.named(r) }),
        })
    }

    fn apply(&mut self, p: &Map<String, Value>) -> Result<Value, RpcError> {
        let id: String = take(p, "battle")?;
        let s = self
            .sessions
            .get_mut(&id)
            .ok_or_else(|| unknown_battle(&id))?;
        let sent: u64 = take(p, "revision")?;
        let raw = s.incoming(p, "action")?;
        if sent != s.revision() {
            if let Some(last) = &s.last {
                if last.revision == sent && last.action == raw {
                    return Ok(last.result.clone());
                }
            }
            return Err(stale(sent, s.revision()));
        }
        let names = &s.names;
        let refused = |r: Value| {
            let mut r = r;
            names.outbound(&mut r);
            rule_error(r)
        };
        let events = match &mut s.game {
            Game::Prebattle(pre) => {
                let a: PrebattleAction = read(raw.clone(), "/params/action")?;
                to_json(&pre.apply(a).map_err(|e| refused(refusal(&e)))?)?
            }
            Game::Battle(AnyBattle::Dba(b)) => {
                let a: Action = read(raw.clone(), "/params/action")?;
                to_json(&b.apply(a).map_err(|e| refused(refusal(&e)))?)?
            }
            Game::Battle(AnyBattle::Dbaix(b)) => {
                let a: dbaix::Action = read(raw.clone(), "/params/action")?;
                to_json(&b.apply(a).map_err(|e| refused(refusal(&e)))?)?
            }
        };
        s.begin_battle()?;
        let result = s.out(json!({ "revision": s.revision(), "events": events }));
        s.last = Some(Applied {
            revision: sent,
            action: raw,
            result: result.clone(),
        });
        Ok(result)
    }

    fn legal(&self, p: &Map<String, Value>) -> Result<Value, RpcError> {
        let s = self.session(p)?;
        if let Game::Prebattle(pre) = &s.game {
            return Ok(s.out(json!({
                "revision": s.revision(),
                "prebattle": to_json(&pre.awaiting())?,
            })));
        }
        let b = s.dba("battle.legal")?;
        Ok(s.out(json!({ "revision": s.revision(), "legal": to_json(&b.legal())? })))
    }

    fn export(&self, p: &Map<String, Value>) -> Result<Value, RpcError> {
        let s = self.session(p)?;
        let mut v = json!({ "revision": s.revision() });
        match &s.game {
            Game::Prebattle(pre) => v["prebattle"] = to_json(&pre.record())?,
            Game::Battle(AnyBattle::Dba(b)) => v["record"] = to_json(&b.record())?,
            Game::Battle(AnyBattle::Dbaix(b)) => v["record"] = to_json(&b.record())?,
        }
        if let Some(r) = &s.prebattle {
            v["prebattle"] = to_json(r)?;
        }
        let mut v = s.out(v);
        // The saved state is dbcore's own, in BW and dbcore's numbers whatever the frame and
        // names, so that its digest still matches when `battle.import` reads it back.
        if take_opt::<bool>(p, "state")?.unwrap_or(false) {
            if let Game::Battle(b) = &s.game {
                v["state"] = serde_json::from_str(&b.state_json()).map_err(|e| {
                    RpcError::new(INTERNAL_ERROR, format!("cannot write JSON: {e}"))
                })?;
            }
        }
        Ok(v)
    }

    fn state(&self, p: &Map<String, Value>) -> Result<Value, RpcError> {
        let s = self.session(p)?;
        let v = match &s.game {
            Game::Prebattle(pre) => json!({
                "revision": s.revision(),
                "stage": "prebattle",
                "step": to_json(&pre.step())?,
                "awaiting": to_json(&pre.awaiting())?,
                "defender": pre.defender(),
                "features": to_json(&pre.features())?,
                "battlefield": to_json(pre.battlefield())?,
                "base_edges": (0..pre.setup().armies.len()).map(|a| to_json(&pre.base_edge(a))).collect::<Result<Vec<_>, _>>()?,
                "armies": pre.setup().armies.iter().map(|a| a.name.clone()).collect::<Vec<_>>(),
            }),
            Game::Battle(AnyBattle::Dbaix(b)) => json!({
                "revision": s.revision(),
                "game": "dbaix",
                "phase": to_json(&b.phase())?,
                "side": to_json(&b.active_side())?,
                "bound": b.bound(),
                "pips": b.pips(),
                "awaiting": to_json(&b.awaiting())?,
                "music": to_json(&b.music())?,
                "potion_active": b.potion_active(),
                "figures": to_json(&b.figures())?,
            }),
            Game::Battle(AnyBattle::Dba(b)) => json!({
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
            }),
        };
        Ok(s.out(v))
    }

    /// The table questions of an open battle (positions in its frame).
    fn table(&self, method: &str, p: &Map<String, Value>) -> Result<Value, RpcError> {
        let s = self.session(p)?;
        let b = s.dba(method)?;
        let mut id = p
            .get("id")
            .cloned()
            .ok_or_else(|| RpcError::params("/params/id", "missing `id`"))?;
        s.names.ids_in(&mut id, "/params/id").map_err(name_error)?;
        let id: ElementId = read(id, "/params/id")?;
        let refused = |e: dbcore::battle::BattleError| rule_error(s.named(refusal(&e)));
        let v = match method {
            "table.snap" => {
                let pose: Pose = read(s.incoming(p, "pose")?, "/params/pose")?;
                let within: f64 = take_opt(p, "within")?.unwrap_or(0.5 * s.frame.scale());
                let within = within / s.frame.scale();
                if !(within.is_finite() && (0.0..=4.0).contains(&within)) {
                    return Err(RpcError::params("/params/within", "`within` is 0 to 4 BW"));
                }
                match b.snap(id, pose, within) {
                    Ok(snap) => json!({ "snapped": true, "snap": to_json(&snap)? }),
                    Err(e) => {
                        return Ok(json!({ "snapped": false, "refusal": s.named(refusal(&e)) }))
                    }
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
                    .map_err(|e| rule_error(s.named(refusal_plain(&e))))?;
                json!({ "contacts": to_json(&contacts)? })
            }
        };
        Ok(s.out(v))
    }

    fn render(&self, p: &Map<String, Value>) -> Result<Value, RpcError> {
        let zones: bool = take_opt(p, "threat_zones")?.unwrap_or(false);
        if p.contains_key("battle") {
            let s = self.session(p)?;
            return match &s.game {
                Game::Battle(AnyBattle::Dba(b)) => Ok(json!({ "svg": b.svg(zones) })),
                Game::Battle(AnyBattle::Dbaix(b)) => Ok(json!({ "svg": dbaix::svg::table_svg(b) })),
                Game::Prebattle(_) => Err(s.not_for("render.svg")),
            };
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
        let key = Some(setup.svg_key());
        Ok(json!({ "svg": table.svg_with_key(&setup.config, zones, &|_| None, key) }))
    }
}

impl Session {
    /// A finished pre-battle becomes its battle (DBA3.md §5.3: the battle begins once both
    /// armies are deployed); the pre-battle's record is kept for `battle.export`.
    fn begin_battle(&mut self) -> Result<(), RpcError> {
        let Game::Prebattle(pre) = &self.game else {
            return Ok(());
        };
        let Some(setup) = pre.battle_setup() else {
            return Ok(());
        };
        let record = pre.record();
        let b = Battle::new(setup).map_err(|e| {
            RpcError::new(
                INTERNAL_ERROR,
                format!("the pre-battle's set-up was refused: {e}"),
            )
        })?;
        self.prebattle = Some(record);
        self.game = Game::Battle(AnyBattle::Dba(Box::new(b)));
        Ok(())
    }
}

fn unreachable_params() -> Result<PrebattleSetup, RpcError> {
    Err(RpcError::params(
        "/params",
        "give `lists` (two army list ids or choices) or `prebattle` (a pre-battle set-up)",
    ))
}

/// Number the set-up's elements (DBA) or figures (DBAix) whose `id` is the client's string.
/// DBA elements take the pre-battle's numbering (army × 100 + position) when it is free, DBAix
/// figures their position from 1.
fn name_setup(setup: &mut Value, dbaix: bool, names: &mut Names) -> Result<(), RpcError> {
    if dbaix {
        let Some(figures) = setup.get_mut("figures").and_then(Value::as_array_mut) else {
            return Ok(());
        };
        let mut items: Vec<(&mut Value, String)> = figures
            .iter_mut()
            .enumerate()
            .map(|(i, f)| (f, format!("/params/setup/figures/{i}")))
            .collect();
        return number_items(&mut items, |i| i as u32 + 1, names).map_err(name_error);
    }
    let Some(armies) = setup.get_mut("armies").and_then(Value::as_array_mut) else {
        return Ok(());
    };
    let mut items: Vec<(&mut Value, String)> = Vec::new();
    let mut preferred: Vec<u32> = Vec::new();
    for (a, army) in armies.iter_mut().enumerate() {
        if let Some(elements) = army.get_mut("elements").and_then(Value::as_array_mut) {
            for (i, e) in elements.iter_mut().enumerate() {
                preferred.push(element_id(a, i).0);
                items.push((e, format!("/params/setup/armies/{a}/elements/{i}")));
            }
        }
    }
    number_items(&mut items, |i| preferred[i], names).map_err(name_error)
}

/// A DBAix replay failure as a refusal.
fn dbaix_replay_refusal(e: &dbaix::ReplayError) -> Value {
    match e {
        dbaix::ReplayError::Setup(d) | dbaix::ReplayError::Action { error: d, .. } => {
            let mut v = refusal(d);
            v["message"] = e.to_string().into();
            v
        }
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
