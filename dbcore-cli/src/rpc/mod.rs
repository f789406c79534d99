//! The JSON-RPC 2.0 dispatcher: one [`Referee::handle`] from a request to its response, which
//! the stdio and HTTP doors only frame. No rule is decided here: every question goes to dbcore,
//! through its one surface for every binding ([`dbcore::surface`]).
//!
//! Battles: `battle.create` and `battle.import` hand out battle ids (`b1`, `b2`, ...). Each
//! battle is a [`dbcore::surface::Session`] (a DBA, Big Battle or Giant battle, its pre-battle,
//! or a DBAix game, with its events, undo history and dice tray) seen through the client's frame
//! and element names ([`crate::frame`], [`crate::rpc_names`]). Every battle has a revision that
//! counts its changes: each action applied and each action undone adds one (so that a revision,
//! once seen, always names the same position); a battle that never undid anything is at the
//! number of actions applied. A request that changes a battle (`battle.apply`, `battle.play`,
//! `battle.undo`) names the revision it applies to, and a retried identical one (same method,
//! revision and parameters as the last change) is answered from the cache instead of being done
//! twice.
//!
//! Methods: the protocol's own ([`METHODS`]), then every method of a surface session as
//! `battle.<method>` and every method of the surface that needs no game under its own name,
//! forwarded by name ([`all_methods`] lists them, as `hello` does). A question a game does not
//! offer (`battle.legal` of a DBAix game, `table.*` before the battle) is [`NOT_FOR_THIS_GAME`].
//!
//! Errors: the JSON-RPC codes for protocol faults (`-32700` parse error, `-32600` invalid
//! request, `-32601` unknown method, `-32602` invalid params with `data.pointer`, a JSON pointer
//! to the bad parameter, `-32603` internal error); application codes [`UNKNOWN_BATTLE`],
//! [`STALE_REVISION`], [`RULE_REFUSAL`] (with dbcore's `code`, `rule` and `detail`),
//! [`LIMIT_REACHED`], [`MESSAGE_TOO_LARGE`], [`NOT_FOR_THIS_GAME`] and [`BATTLE_BUSY`].
//! `battle.check` answers a refusal as a normal result. Batches are not accepted: one request a
//! message.
//!
//! The referee is shared by every connection of the HTTP door: the battles are locked one by one
//! ([`battles`]), so requests on different battles run at once. Every request runs inside a panic
//! boundary: a panic (a bug) answers `-32603` with `data.panic`, closes the battle it was using
//! (`data.closed`), and leaves every other battle and the door serving.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::time::Duration;

use dbcore::armies::{self, ArmyChoice, ArmyError, ArmyProblem, ListId, ListQuery};
use dbcore::battle::BattleSetup;
use dbcore::combat::Situation;
use dbcore::table::{PlacedElement, Table};
use dbcore::{DieScore, ErrorInfo, RulesConfig};
use serde::de::DeserializeOwned;
use serde_json::{json, Map, Value};

use crate::frame::Preset;
use crate::rpc_names::NameError;

mod battles;
mod clients;
mod create;
mod session;

pub use clients::{Client, MAX_CLIENTS};
pub use session::CHANGES_GAME;

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
/// Another request has held the battle longer than [`Limits::busy_wait`]: try again.
pub const BATTLE_BUSY: i64 = -32007;

/// The protocol's own methods, with the shapes `docs/protocol.md` documents. `hello` lists them
/// first, then the surface's methods ([`all_methods`]).
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

/// Surface session methods whose `battle.<method>` is one of [`METHODS`], in the protocol's shape
/// (the surface's compact `state` is `battle.export` with `"state": true`).
const OWN_SESSION_FORMS: [&str; 4] = ["legal", "check", "apply", "state"];

/// Surface session methods the protocol does not offer yet: what the web table draws and asks
/// while a player handles the models (`scene`, `destinations`, `snap`, `outlines`; the page
/// reaches them through WebAssembly). The protocol has its own `table.snap` and
/// `table.outlines`; these join it once they have schema types and documented examples.
const NOT_OFFERED_SESSION_METHODS: [&str; 4] = ["scene", "destinations", "snap", "outlines"];

/// Static surface methods whose name is one of [`METHODS`], in the protocol's shape.
const OWN_STATIC_FORMS: [&str; 2] = ["armies.find", "armies.get"];

/// Every method the server answers: [`METHODS`], then `battle.<method>` for each surface session
/// method, then each surface method that needs no game.
pub fn all_methods() -> Vec<String> {
    let mut all: Vec<String> = METHODS.iter().map(|m| m.to_string()).collect();
    all.extend(
        dbcore::surface::SESSION_METHODS
            .iter()
            .filter(|m| {
                !OWN_SESSION_FORMS.contains(&m.name)
                    && !NOT_OFFERED_SESSION_METHODS.contains(&m.name)
            })
            .map(|m| format!("battle.{}", m.name)),
    );
    all.extend(
        dbcore::surface::METHODS
            .iter()
            .filter(|m| !OWN_STATIC_FORMS.contains(&m.name))
            .map(|m| m.name.to_string()),
    );
    all
}

/// What the server accepts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Battles alive at once.
    pub max_battles: usize,
    /// Bytes in one message (a stdio line or an HTTP body).
    pub max_message_bytes: usize,
    /// How long a request waits for another request on the same battle before it is answered
    /// [`BATTLE_BUSY`].
    pub busy_wait: Duration,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_battles: 64,
            max_message_bytes: 1 << 20,
            busy_wait: Duration::from_secs(10),
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

fn name_error(e: NameError) -> RpcError {
    RpcError::params(&e.pointer, e.message)
}

/// The referee: live battles and the clients' frames. One per server; both doors share it, and
/// the HTTP door's connections call it at once from their threads.
#[derive(Debug, Default)]
pub struct Referee {
    battles: battles::Battles,
    clients: clients::Clients,
    limits: Limits,
    test_methods: bool,
}

/// The params object, or an empty one.
fn params_of(req: &mut Map<String, Value>) -> Result<Map<String, Value>, RpcError> {
    match req.remove("params") {
        None => Ok(Map::new()),
        Some(Value::Object(m)) => Ok(m),
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

fn to_json<T: serde::Serialize>(t: &T) -> Result<Value, RpcError> {
    serde_json::to_value(t).map_err(|e| RpcError::new(INTERNAL_ERROR, e.to_string()))
}

/// What a panic carried, as text.
fn panic_text(payload: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "a panic without a message".to_string()
    }
}

impl Referee {
    pub fn new(limits: Limits) -> Self {
        Referee {
            limits,
            ..Referee::default()
        }
    }

    /// A referee that also answers the test methods: `test.panic` (panics, inside `battle` when
    /// one is named) and `test.sleep` (`ms` milliseconds, holding `battle` when one is named).
    /// For the server's own tests and fuzzing: the program never turns them on.
    #[doc(hidden)]
    pub fn with_test_methods(mut self) -> Self {
        self.test_methods = true;
        self
    }

    pub fn limits(&self) -> Limits {
        self.limits
    }

    /// Live battles.
    pub fn battles(&self) -> usize {
        self.battles.len()
    }

    /// One message's text to its response's text (compact JSON, no newline); `None` for a
    /// notification (a request without an id). The request stands alone: its client is in the
    /// `bw` frame unless it names a frame or a `hello` token (the HTTP door's way).
    pub fn handle_text(&self, text: &str) -> Option<String> {
        self.handle_text_as(text, &mut Client::default())
    }

    /// [`Referee::handle_text`] for a request of `client`, whose frame `hello` may change (the
    /// stdio door's way: the stream is one client).
    pub fn handle_text_as(&self, text: &str, client: &mut Client) -> Option<String> {
        let response = match serde_json::from_str::<Value>(text) {
            Ok(v) => self.handle_as(v, client),
            Err(e) => Some(error_response(
                Value::Null,
                &RpcError::new(PARSE_ERROR, format!("parse error: {e}")),
            )),
        };
        response.map(|v| v.to_string())
    }

    /// One request to its response; `None` for a notification.
    pub fn handle(&self, request: Value) -> Option<Value> {
        self.handle_as(request, &mut Client::default())
    }

    /// [`Referee::handle`] for a request of `client`.
    pub fn handle_as(&self, request: Value, client: &mut Client) -> Option<Value> {
        let Value::Object(mut req) = request else {
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
        let Some(method) = req
            .get("method")
            .and_then(Value::as_str)
            .map(str::to_string)
        else {
            return Some(error_response(
                reply_id,
                &RpcError::new(INVALID_REQUEST, "`method` must be a string"),
            ));
        };
        let outcome = params_of(&mut req).and_then(|p| self.guarded(&method, &p, client));
        // A notification gets no answer, not even an error (JSON-RPC 2.0 §4.1).
        id.as_ref()?;
        Some(match outcome {
            Ok(result) => object([
                ("jsonrpc", "2.0".into()),
                ("id", reply_id),
                ("result", result),
            ]),
            Err(e) => error_response(reply_id, &e),
        })
    }

    /// The panic boundary: a panic anywhere in the request answers an internal error, the battle
    /// it held closed (the lease drops it as the panic unwinds).
    fn guarded(
        &self,
        method: &str,
        p: &Map<String, Value>,
        client: &mut Client,
    ) -> Result<Value, RpcError> {
        battles::take_closed_by_panic();
        match catch_unwind(AssertUnwindSafe(|| self.call(method, p, client))) {
            Ok(outcome) => outcome,
            Err(payload) => {
                let closed = battles::take_closed_by_panic();
                let text = panic_text(payload.as_ref());
                let message = match &closed {
                    Some(id) => format!(
                        "internal error: the referee failed on `{method}` ({text}); battle `{id}` is closed"
                    ),
                    None => format!("internal error: the referee failed on `{method}` ({text})"),
                };
                Err(RpcError::new(INTERNAL_ERROR, message)
                    .with(json!({ "method": method, "panic": text, "closed": closed })))
            }
        }
    }

    /// Battle `p.battle` held for `f`, waiting for another request on it at most the busy wait.
    fn with_battle<T>(
        &self,
        p: &Map<String, Value>,
        f: impl FnOnce(&mut session::Session) -> Result<T, RpcError>,
    ) -> Result<T, RpcError> {
        let id: String = take(p, "battle")?;
        let mut lease = self.battles.lease(&id, self.limits.busy_wait)?;
        f(&mut lease)
    }

    fn call(
        &self,
        method: &str,
        p: &Map<String, Value>,
        client: &mut Client,
    ) -> Result<Value, RpcError> {
        match method {
            "hello" => self.hello(p, client),
            "battle.create" => self.create(p, client),
            "battle.import" => self.import(p, client),
            "battle.check" => self.with_battle(p, |s| s.check(p)),
            "battle.apply" => self.with_battle(p, |s| s.apply(p)),
            "battle.legal" => self.with_battle(p, |s| s.legal()),
            "battle.state" => self.with_battle(p, |s| s.state()),
            "battle.export" => self.with_battle(p, |s| s.export(p)),
            "battle.close" => {
                let id: String = take(p, "battle")?;
                self.battles.close(&id)?;
                Ok(json!({ "closed": id }))
            }
            "battles.list" => Ok(json!({
                "battles": self
                    .battles
                    .list()
                    .into_iter()
                    .map(|(id, revision)| json!({ "battle": id, "revision": revision }))
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
            "render.svg" => self.render(p, client),
            "table.snap" | "table.outlines" | "table.outcome" | "table.contacts" => {
                self.with_battle(p, |s| s.table(method, p))
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
            m if self.test_methods && m.starts_with("test.") => self.test_method(m, p),
            m => self.forward(m, p),
        }
    }

    /// A method of the surface by name: `battle.<method>` of a session, or a method that needs
    /// no game (answered in dbcore's own JSON: BW and element numbers).
    fn forward(&self, method: &str, p: &Map<String, Value>) -> Result<Value, RpcError> {
        let session_method = method.strip_prefix("battle.").filter(|name| {
            !OWN_SESSION_FORMS.contains(name)
                && !NOT_OFFERED_SESSION_METHODS.contains(name)
                && dbcore::surface::SESSION_METHODS
                    .iter()
                    .any(|m| m.name == *name)
        });
        if let Some(name) = session_method {
            return self.with_battle(p, |s| s.forward(name, p));
        }
        let static_method = !OWN_STATIC_FORMS.contains(&method)
            && dbcore::surface::METHODS.iter().any(|m| m.name == method);
        if static_method {
            return dbcore::surface::call(method, Value::Object(p.clone()))
                .map_err(|e| session::surface_error(&e, "/params"));
        }
        Err(RpcError::new(
            METHOD_NOT_FOUND,
            format!("there is no method `{}`", dbcore::limits::quote(method)),
        )
        .with(json!({ "methods": all_methods() })))
    }

    fn test_method(&self, method: &str, p: &Map<String, Value>) -> Result<Value, RpcError> {
        let ms: u64 = take_opt(p, "ms")?.unwrap_or(0).min(60_000);
        let work = || match method {
            "test.panic" => panic!("test.panic was asked for"),
            "test.sleep" => {
                std::thread::sleep(Duration::from_millis(ms));
                Ok(json!({ "slept_ms": ms }))
            }
            _ => Err(RpcError::new(METHOD_NOT_FOUND, "test.panic or test.sleep")),
        };
        if p.contains_key("battle") {
            self.with_battle(p, |_| work())
        } else {
            work()
        }
    }

    fn hello(&self, p: &Map<String, Value>, client: &mut Client) -> Result<Value, RpcError> {
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
        if let Some(frame) = take_opt::<crate::frame::Frame>(p, "frame")? {
            frame
                .check()
                .map_err(|m| RpcError::params("/params/frame/units_per_bw", m))?;
            client.frame = frame;
        }
        let token = self.clients.register(client.frame);
        Ok(json!({
            "protocol": PROTOCOL_VERSION,
            "server": "dbcore-cli",
            "version": env!("CARGO_PKG_VERSION"),
            "dbcore": dbcore::VERSION,
            "variants": ["standard", "big_battle", "giant", "dbaix"],
            "frames": [Preset::Bw, Preset::Tts, Preset::Vassal],
            "frame": { "preset": client.frame.preset, "units_per_bw": client.frame.scale() },
            "client": token,
            "methods": all_methods(),
            "limits": {
                "max_battles": self.limits.max_battles,
                "max_message_bytes": self.limits.max_message_bytes,
                "max_name_bytes": dbcore::limits::MAX_NAME_BYTES,
                "max_elements": dbcore::limits::MAX_ELEMENTS,
                "busy_wait_ms": self.limits.busy_wait.as_millis() as u64,
            },
        }))
    }

    fn render(&self, p: &Map<String, Value>, client: &Client) -> Result<Value, RpcError> {
        let zones: bool = take_opt(p, "threat_zones")?.unwrap_or(false);
        if p.contains_key("battle") {
            return self.with_battle(p, |s| s.svg(zones));
        }
        let frame = self.frame_of(p, client)?;
        let mut setup = p.get("setup").cloned().ok_or_else(|| {
            RpcError::params("/params", "give `battle` (an open battle) or `setup`")
        })?;
        let depth = create::setup_depth(&setup);
        frame
            .inbound(&mut setup, depth)
            .map_err(|m| RpcError::params("/params/setup", m))?;
        let setup: BattleSetup = read(setup, "/params/setup")?;
        let table = setup_table(&setup).map_err(|e| rule_error(refusal_plain(&e)))?;
        let key = Some(setup.svg_key());
        Ok(json!({ "svg": table.svg_with_key(&setup.config, zones, &|_| None, key) }))
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
    RpcError::new(
        UNKNOWN_BATTLE,
        format!("there is no battle `{}`", dbcore::limits::quote(id)),
    )
    .with(json!({ "battle": dbcore::limits::quote(id) }))
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
    object([
        ("jsonrpc", "2.0".into()),
        ("id", id),
        ("error", e.to_value()),
    ])
}

/// A JSON object of `entries` in their order, each value moved in: what `json!` writes, without
/// the copy `json!` makes of every value it is given (it serializes each into a new tree, which
/// for a list of events or a game record copies all of it: with the answer wrapped for the
/// client, a seventh of a `battle.check` over HTTP, #47).
pub(crate) fn object<const N: usize>(entries: [(&str, Value); N]) -> Value {
    let mut map = Map::with_capacity(N);
    for (key, value) in entries {
        map.insert(key.to_string(), value);
    }
    Value::Object(map)
}

/// A transport-level error response (too large, unreadable), as compact text.
pub fn transport_error(code: i64, message: &str, data: Value) -> String {
    error_response(Value::Null, &RpcError::new(code, message).with(data)).to_string()
}
