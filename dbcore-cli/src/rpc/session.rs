//! One battle of the referee: dbcore's [`surface::Session`] (the game of any kind, its events,
//! its undo history and its dice tray) with what the protocol adds around it: the client's
//! coordinate frame and element names, the protocol's revision and the retry cache.
//!
//! The protocol's own methods (`battle.check`, `battle.apply`, `battle.legal`, `battle.state`,
//! `battle.export`, the `table.*` questions) keep their shapes; every other method of the surface
//! is forwarded by name ([`Session::forward`]), so that a method dbcore adds later is reachable
//! with no code here.

use dbcore::battle::{Action, Battle, PrebattleAction};
use dbcore::dbaix;
use dbcore::game::AnyBattle;
use dbcore::geometry::Pose;
use dbcore::snap::OutcomeMove;
use dbcore::surface::{self, SurfaceError};
use serde_json::{json, Map, Value};

use super::{
    name_error, object, read, refusal, refusal_plain, rule_error, stale, take, take_opt, to_json,
    RpcError, INTERNAL_ERROR, INVALID_PARAMS, NOT_FOR_THIS_GAME, RULE_REFUSAL,
};
use crate::frame::Frame;
use crate::rpc_names::Names;

/// The surface's methods that change the game: forwarded, they must name the revision they
/// apply to (as `battle.apply` does), and a retry of the last one is answered from the cache.
pub const CHANGES_GAME: [&str; 3] = ["apply", "play", "undo"];

/// The last change made to a battle, for answering its retry.
#[derive(Debug, Clone)]
struct Applied {
    method: String,
    revision: u64,
    params: Value,
    result: Value,
}

/// One battle: the game and the protocol's view of it.
#[derive(Debug)]
pub struct Session {
    game: surface::Session,
    pub(super) frame: Frame,
    pub(super) names: Names,
    /// The protocol's revision: one more for every change (an action applied, an action undone).
    revision: u64,
    last: Option<Applied>,
}

impl Session {
    /// A battle of `game`, at the revision that counts the actions it already has.
    pub fn new(game: surface::Session, frame: Frame, names: Names) -> Session {
        let revision = game.revision() as u64;
        Session {
            game,
            frame,
            names,
            revision,
            last: None,
        }
    }

    pub fn revision(&self) -> u64 {
        self.revision
    }

    /// The table's depth in the battle's own unit, for frames with a downward y.
    fn depth(&self) -> f64 {
        if let Some(p) = self.game.prebattle() {
            return p.battlefield().board.depth;
        }
        match self.game.battle() {
            Some(AnyBattle::Dba(b)) => b.setup().battlefield.board.depth,
            Some(AnyBattle::Dbaix(b)) => b.setup().config.table_depth,
            None => 15.0,
        }
    }

    /// `v` (native units, dbcore's numbers) in the battle's frame and the client's names.
    pub(super) fn out(&self, mut v: Value) -> Value {
        self.frame.outbound(&mut v, self.depth());
        self.names.outbound(&mut v);
        v
    }

    /// A refusal with the client's names (its lengths stay native, as dbcore wrote them).
    pub(super) fn named(&self, mut v: Value) -> Value {
        self.names.outbound(&mut v);
        v
    }

    /// `v`, found at `pointer`, in native units and dbcore's numbers.
    fn inward(&self, mut v: Value, pointer: &str) -> Result<Value, RpcError> {
        self.frame
            .inbound(&mut v, self.depth())
            .map_err(|m| RpcError::params(pointer, m))?;
        self.names.inbound(&mut v, pointer).map_err(name_error)?;
        Ok(v)
    }

    /// Parameter `key` in native units and dbcore's numbers.
    fn incoming(&self, p: &Map<String, Value>, key: &str) -> Result<Value, RpcError> {
        let pointer = format!("/params/{key}");
        let v = p
            .get(key)
            .cloned()
            .ok_or_else(|| RpcError::params(&pointer, format!("missing `{key}`")))?;
        self.inward(v, &pointer)
    }

    /// The DBA battle, or [`NOT_FOR_THIS_GAME`].
    pub(super) fn dba(&self, method: &str) -> Result<&Battle, RpcError> {
        match self.game.battle() {
            Some(AnyBattle::Dba(b)) => Ok(b),
            _ => Err(self.not_for(method)),
        }
    }

    pub(super) fn not_for(&self, method: &str) -> RpcError {
        let (game, stage) = match self.game.battle() {
            None if self.game.encounter().is_some() => ("bugs", "battle"),
            None => ("dba", "prebattle"),
            Some(AnyBattle::Dba(_)) => ("dba", "battle"),
            Some(AnyBattle::Dbaix(_)) => ("dbaix", "battle"),
        };
        RpcError::new(
            NOT_FOR_THIS_GAME,
            format!("`{method}` is not offered for a {game} game in its {stage}"),
        )
        .with(json!({ "method": method, "game": game, "stage": stage }))
    }

    /// The revision a request names: required for a change, optional for a question. A stale
    /// one is an error, unless the request is a retry of the last change, whose answer is
    /// returned as `Ok(Some(..))`.
    fn revision_of(
        &self,
        method: &str,
        p: &Map<String, Value>,
        params: &Value,
        required: bool,
    ) -> Result<Option<Value>, RpcError> {
        let sent: Option<u64> = if required {
            Some(take(p, "revision")?)
        } else {
            take_opt(p, "revision")?
        };
        match sent {
            Some(r) if r != self.revision => match &self.last {
                Some(last)
                    if required
                        && last.revision == r
                        && last.method == method
                        && last.params == *params =>
                {
                    Ok(Some(last.result.clone()))
                }
                _ => Err(stale(r, self.revision)),
            },
            _ => Ok(None),
        }
    }

    /// The game changed: one revision more, and `result` kept for a retry.
    fn changed(&mut self, method: &str, sent: u64, params: Value, result: &mut Value) {
        self.revision += 1;
        if let Some(r) = result.get_mut("revision") {
            *r = self.revision.into();
        }
        self.last = Some(Applied {
            method: method.to_string(),
            revision: sent,
            params,
            result: result.clone(),
        });
    }

    /// `battle.check`: the events, or the refusal with dbcore's typed detail, as a result.
    pub fn check(&self, p: &Map<String, Value>) -> Result<Value, RpcError> {
        self.revision_of("check", p, &Value::Null, false)?;
        let v = self.incoming(p, "action")?;
        let verdict = self.checked(v)?;
        Ok(match verdict {
            Ok(events) => self.out(object([
                ("legal", true.into()),
                ("revision", self.revision.into()),
                ("events", events),
            ])),
            Err(r) => object([
                ("legal", false.into()),
                ("revision", self.revision.into()),
                ("refusal", self.named(r)),
            ]),
        })
    }

    /// `v` read as an action of the game as it stands, for its pointer when it is malformed.
    fn typed(&self, v: Value) -> Result<(), RpcError> {
        if self.game.prebattle().is_some() {
            read::<PrebattleAction>(v, "/params/action")?;
        } else if self.game.encounter().is_some() {
            read::<dbcore::bugs::Action>(v, "/params/action")?;
        } else if let Some(AnyBattle::Dbaix(_)) = self.game.battle() {
            read::<dbaix::Action>(v, "/params/action")?;
        } else {
            read::<Action>(v, "/params/action")?;
        }
        Ok(())
    }

    /// The events of `action` (native) as the game stands, or its refusal as a value: read with
    /// the protocol's pointers, asked of the game directly so that the refusal keeps its detail.
    fn checked(&self, v: Value) -> Result<Result<Value, Value>, RpcError> {
        if let Some(pre) = self.game.prebattle() {
            let a: PrebattleAction = read(v, "/params/action")?;
            return Ok(match pre.check(&a) {
                Ok(e) => Ok(to_json(&e)?),
                Err(e) => Err(refusal(&e)),
            });
        }
        if let Some(e) = self.game.encounter() {
            let a: dbcore::bugs::Action = read(v, "/params/action")?;
            return Ok(match e.check(&a) {
                Ok(e) => Ok(to_json(&e)?),
                Err(e) => Err(refusal(&e)),
            });
        }
        Ok(match self.game.battle() {
            Some(AnyBattle::Dba(b)) => {
                let a: Action = read(v, "/params/action")?;
                match b.check(&a) {
                    Ok(e) => Ok(to_json(&e)?),
                    Err(e) => Err(refusal(&e)),
                }
            }
            Some(AnyBattle::Dbaix(b)) => {
                let a: dbaix::Action = read(v, "/params/action")?;
                match b.check(&a) {
                    Ok(e) => Ok(to_json(&e)?),
                    Err(e) => Err(refusal(&e)),
                }
            }
            None => return Err(RpcError::new(INTERNAL_ERROR, "a session with no game")),
        })
    }

    /// `battle.apply`: the action applied through the surface (so that it is logged, undoable
    /// and its dice drawn from the tray), or refused with the same detail as `battle.check`.
    pub fn apply(&mut self, p: &Map<String, Value>) -> Result<Value, RpcError> {
        let raw = self.incoming(p, "action")?;
        if let Some(cached) = self.revision_of("apply", p, &raw, true)? {
            return Ok(cached);
        }
        let sent = self.revision;
        // Read as the protocol reads it first: a malformed action names its field.
        self.typed(raw.clone())?;
        let mut answer = match self.game.call("apply", object([("action", raw.clone())])) {
            Ok(a) => a,
            Err(e) => {
                // Asked again of the game itself (a refusal changed nothing), the refusal comes
                // with its typed detail, as `battle.check` gives it.
                if let Err(refused) = self.checked(raw)? {
                    return Err(rule_error(self.named(refused)));
                }
                return Err(surface_error(&e, "/params/action"));
            }
        };
        let events = answer.get_mut("events").map_or(Value::Null, Value::take);
        let mut result = self.out(object([("revision", 0.into()), ("events", events)]));
        self.changed("apply", sent, raw, &mut result);
        Ok(result)
    }

    /// `battle.legal`: the summary of a DBA battle, or what the pre-battle awaits.
    pub fn legal(&self) -> Result<Value, RpcError> {
        if let Some(pre) = self.game.prebattle() {
            return Ok(self.out(json!({
                "revision": self.revision,
                "prebattle": to_json(&pre.awaiting())?,
            })));
        }
        let b = self.dba("battle.legal")?;
        Ok(self.out(object([
            ("revision", self.revision.into()),
            ("legal", to_json(&b.legal())?),
        ])))
    }

    /// `battle.export`: the game record (format `dbcore-game`, what `dbcore play --json`
    /// writes) in the battle's frame and names, and when asked the compact state.
    pub fn export(&self, p: &Map<String, Value>) -> Result<Value, RpcError> {
        let record = to_json(&self.game.record())?;
        let mut v = self.out(object([
            ("revision", self.revision.into()),
            ("record", record),
        ]));
        // The saved state is dbcore's own, in BW and dbcore's numbers whatever the frame and
        // names, so that its digest still matches when `battle.import` reads it back.
        if take_opt::<bool>(p, "state")?.unwrap_or(false) {
            if let Some(b) = self.game.battle() {
                v["state"] = serde_json::from_str(&b.state_json()).map_err(|e| {
                    RpcError::new(INTERNAL_ERROR, format!("cannot write JSON: {e}"))
                })?;
            }
        }
        Ok(v)
    }

    /// `battle.state`: where the game stands, in the protocol's shape for each game and stage.
    pub fn state(&self) -> Result<Value, RpcError> {
        let revision = self.revision;
        if let Some(pre) = self.game.prebattle() {
            let base_edges = (0..pre.setup().armies.len())
                .map(|a| to_json(&pre.base_edge(a)))
                .collect::<Result<Vec<_>, _>>()?;
            return Ok(self.out(json!({
                "revision": revision,
                "stage": "prebattle",
                "step": to_json(&pre.step())?,
                "awaiting": to_json(&pre.awaiting())?,
                "defender": pre.defender(),
                "features": to_json(&pre.features())?,
                "battlefield": to_json(pre.battlefield())?,
                "base_edges": base_edges,
                "armies": pre.setup().armies.iter().map(|a| a.name.clone()).collect::<Vec<_>>(),
            })));
        }
        let v = match self.game.battle() {
            Some(AnyBattle::Dbaix(b)) => json!({
                "revision": revision,
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
            Some(AnyBattle::Dba(b)) => json!({
                "revision": revision,
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
            None => match self.game.encounter() {
                Some(e) => json!({
                    "revision": revision,
                    "game": "bugs",
                    "turn": e.turn(),
                    "need": to_json(&e.need())?,
                    "active": to_json(&e.active())?,
                    "figures": to_json(&e.figures())?,
                    "holes": to_json(&e.holes())?,
                    "verdict": to_json(&e.verdict())?,
                }),
                None => return Err(RpcError::new(INTERNAL_ERROR, "a session with no game")),
            },
        };
        Ok(self.out(v))
    }

    /// `render.svg` of this battle.
    pub fn svg(&self, threat_zones: bool) -> Result<Value, RpcError> {
        match self.game.battle() {
            Some(AnyBattle::Dba(b)) => Ok(json!({ "svg": b.svg(threat_zones) })),
            Some(AnyBattle::Dbaix(b)) => Ok(json!({ "svg": dbaix::svg::table_svg(b) })),
            None => match self.game.encounter() {
                Some(e) => Ok(json!({ "svg": dbcore::bugs::svg(e) })),
                None => Err(self.not_for("render.svg")),
            },
        }
    }

    /// The table questions of an open battle (positions in its frame).
    pub fn table(&self, method: &str, p: &Map<String, Value>) -> Result<Value, RpcError> {
        let b = self.dba(method)?;
        let mut id = p
            .get("id")
            .cloned()
            .ok_or_else(|| RpcError::params("/params/id", "missing `id`"))?;
        self.names
            .ids_in(&mut id, "/params/id")
            .map_err(name_error)?;
        let id: dbcore::battle::ElementId = read(id, "/params/id")?;
        let refused = |e: dbcore::battle::BattleError| rule_error(self.named(refusal(&e)));
        let v = match method {
            "table.snap" => {
                let pose: Pose = read(self.incoming(p, "pose")?, "/params/pose")?;
                let within: f64 = take_opt(p, "within")?.unwrap_or(0.5 * self.frame.scale());
                let within = within / self.frame.scale();
                if !(within.is_finite() && (0.0..=4.0).contains(&within)) {
                    return Err(RpcError::params("/params/within", "`within` is 0 to 4 BW"));
                }
                match b.snap(id, pose, within) {
                    Ok(snap) => json!({ "snapped": true, "snap": to_json(&snap)? }),
                    Err(e) => {
                        return Ok(json!({ "snapped": false, "refusal": self.named(refusal(&e)) }))
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
                    .map_err(|e| rule_error(self.named(refusal_plain(&e))))?;
                json!({ "contacts": to_json(&contacts)? })
            }
        };
        Ok(self.out(v))
    }

    /// `battle.<method>` for any method of the surface's session: the parameters but `battle`
    /// and `revision` go to the surface in native units and dbcore's numbers, and the answer
    /// comes back in the battle's frame and names, with the protocol's revision.
    pub fn forward(&mut self, method: &str, p: &Map<String, Value>) -> Result<Value, RpcError> {
        let mut params = p.clone();
        params.remove("battle");
        params.remove("revision");
        let params = self.inward(Value::Object(params), "/params")?;
        let changes = CHANGES_GAME.contains(&method);
        if let Some(cached) = self.revision_of(method, p, &params, changes)? {
            return Ok(cached);
        }
        let sent = self.revision;
        let before = self.game.revision();
        let answer = self
            .game
            .call(method, params.clone())
            .map_err(|e| surface_error(&e, "/params"))?;
        let mut result = self.out(answer);
        if changes || self.game.revision() != before {
            self.changed(method, sent, params, &mut result);
        } else if let Some(r) = result.get_mut("revision") {
            *r = self.revision.into();
        }
        Ok(result)
    }
}

/// A failure of the surface as a JSON-RPC error: parameters that do not read (codes 100 to 102:
/// missing, not UTF-8, not the JSON expected) are invalid params, pointing at `pointer` (the
/// message names the field); any other refusal of dbcore (a value it refuses, a rule, dice, a
/// set-up, a record that does not replay) is [`RULE_REFUSAL`], as the protocol's own methods
/// answer them; an internal fault is internal. `data` carries dbcore's code, rule and message as
/// a refusal does.
pub fn surface_error(e: &SurfaceError, pointer: &str) -> RpcError {
    let n = e.code.number();
    let data = json!({ "code": n, "rule": e.rule, "message": e.message, "detail": null });
    let code = match n {
        100..=102 => INVALID_PARAMS,
        900.. => INTERNAL_ERROR,
        _ => RULE_REFUSAL,
    };
    let mut err = RpcError::new(code, e.message.clone()).with(data);
    if code == INVALID_PARAMS {
        if let Some(d) = err.data.as_mut() {
            d["pointer"] = pointer.into();
        }
    }
    err
}
