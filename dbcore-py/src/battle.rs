//! `Battle`: a battle in progress of either game (`dbcore::game::AnyBattle`: DBA 3.0 or DBAix). Set-ups, actions, events,
//! records and states cross as plain Python data read from dbcore's serde JSON (dicts, lists,
//! numbers, strings), so an action or event the rules add later passes through untouched. Every
//! rule is dbcore's; this file only translates.

use dbcore::battle::{Action, BattleSetup};
use dbcore::dbaix;
use dbcore::game::{AnyBattle, AnyEvent, AnyRecord};
use dbcore::surface::Session;
use dbcore::ErrorCode;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString, PyType};
use serde::de::DeserializeOwned;

use crate::dice::Dice;
use crate::errors;
use crate::kinds::RulesConfig;
use crate::names::{name_of, to_py, AnyInt, Text};
use crate::table::Table;

/// Read a dbcore value given as JSON text or as plain Python data (read straight from the
/// objects, [`crate::names::to_value`]); `what` names it in the error.
pub(crate) fn from_py<T: DeserializeOwned>(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<T> {
    let v = crate::names::to_value(obj, what)?;
    dbcore::json::from_value(v).map_err(|e| errors::invalid_json(what, &e))
}

/// An element id argument (ArgumentError, code 104, when it is out of range).
fn element_arg(id: AnyInt) -> PyResult<dbcore::battle::ElementId> {
    id.to("an element id", "0 to 2**32-1")
        .map(dbcore::battle::ElementId)
}

/// A set-up refusal: `SetupError` (code 400) listing every problem in its message, with the
/// problems also as dicts in `.problems`.
fn setup_err(py: Python<'_>, e: &dbcore::battle::SetupError) -> PyErr {
    let err = errors::from_info(e);
    match to_py(py, &e.problems) {
        Ok(problems) => match err.value(py).setattr("problems", problems) {
            Ok(()) => err,
            Err(other) => other,
        },
        Err(other) => other,
    }
}

/// A replay refusal: a set-up error as `setup_err`, a refused action as its own family.
fn replay_err(py: Python<'_>, e: &dbcore::battle::ReplayError) -> PyErr {
    match e {
        dbcore::battle::ReplayError::Setup(s) => setup_err(py, s),
        other => errors::from_info(other),
    }
}

/// A state that could not be read back: a set-up error as `setup_err`, a refused action of a
/// DBAix record as `dbaix_replay_err`, any other as its family.
fn state_err(py: Python<'_>, e: &dbcore::game::GameError) -> PyErr {
    use dbcore::battle::{ReplayError, StateError};
    use dbcore::game::GameError;
    match e {
        GameError::State(StateError::Replay(ReplayError::Setup(s)))
        | GameError::State(StateError::Setup(s)) => setup_err(py, s),
        GameError::DbaixReplay(d) => dbaix_replay_err(d),
        other => errors::from_info(other),
    }
}

/// Whether a set-up, record or state (as JSON) belongs to the DBAix game: its set-up says
/// `"variant": "dbaix"` (or carries the DBAix format tag). Any other is DBA 3.0, as
/// `dbcore::game::AnySetup` reads it.
fn is_dbaix(setup: Option<&serde_json::Value>) -> bool {
    setup.is_some_and(|s| {
        s.get("variant").and_then(|v| v.as_str()) == Some("dbaix")
            || s.get("format").and_then(|f| f.as_str()) == Some(dbaix::FORMAT)
    })
}

/// A DBAix replay refusal as its family's exception, naming the refused action.
fn dbaix_replay_err(e: &dbaix::ReplayError) -> PyErr {
    match e {
        dbaix::ReplayError::Setup(s) => errors::from_info(s),
        dbaix::ReplayError::Action { index, error } => errors::raise(
            dbcore::error::ErrorInfo::code(error),
            dbcore::error::ErrorInfo::rule(error),
            format!("action {index} of the record was refused: {error}"),
        ),
    }
}

/// Read a record (plain data or JSON) of either game, by its set-up's variant.
pub(crate) fn any_record(obj: &Bound<'_, PyAny>) -> PyResult<AnyRecord> {
    let v: serde_json::Value = from_py(obj, "a battle record")?;
    Ok(if is_dbaix(v.get("setup")) {
        AnyRecord::Dbaix(
            dbcore::json::from_value(v).map_err(|e| errors::invalid_json("a DBAix record", &e))?,
        )
    } else {
        AnyRecord::Dba(
            dbcore::json::from_value(v).map_err(|e| errors::invalid_json("a battle record", &e))?,
        )
    })
}

/// Replay a record of either game: the battle and every event, or the refusal's exception.
pub(crate) fn replay_any(
    py: Python<'_>,
    record: &AnyRecord,
) -> PyResult<(AnyBattle, Vec<AnyEvent>)> {
    errors::guard(|| match record {
        AnyRecord::Dba(r) => {
            let (b, e) = dbcore::battle::Battle::replay(r).map_err(|e| replay_err(py, &e))?;
            Ok((
                AnyBattle::Dba(Box::new(b)),
                e.into_iter().map(AnyEvent::Dba).collect(),
            ))
        }
        AnyRecord::Dbaix(r) => {
            let (b, e) = dbaix::Battle::replay(r).map_err(|e| dbaix_replay_err(&e))?;
            Ok((
                AnyBattle::Dbaix(Box::new(b)),
                e.into_iter().map(AnyEvent::Dbaix).collect(),
            ))
        }
    })
}

/// The story of a game record (a dict or JSON text of either game, in any spelling dbcore
/// reads: `Battle.record()`, what `dbcore play --json` writes): one line of plain English per
/// thing that happened, as a player tells it ("the Romans roll 1 PIP", "recoils 0.50 BW"),
/// aligned with the events (empty for an event a player leaves untold); a whole game's
/// pre-battle first.
#[pyfunction]
pub fn narrate(record: &Bound<'_, PyAny>) -> PyResult<Vec<String>> {
    let v = crate::names::to_value(record, "a game record")?;
    let mut s = errors::guard(|| {
        Session::new(serde_json::json!({ "game": v })).map_err(|e| surface_err(&e))
    })?;
    let lines = call_value(&mut s, "narrate", serde_json::Value::Null)?;
    serde_json::from_value(lines).map_err(|e| errors::internal(e.to_string()))
}

/// A game in progress of any kind the project plays: a DBA 3.0 battle (Big Battle and Giant
/// included), its pre-battle when it starts from two army lists, or the three-sided Asterix
/// variant DBAix, held as a `dbcore::surface::Session`: the game, every event so far, its
/// history (for `pop`) and a seeded dice tray for the dice nobody typed. `Battle(setup)` starts
/// one from a set-up (a dict, or JSON text); `Battle.from_lists(a, b)` from two army lists with
/// the pre-battle left to the caller; `Battle.load(record)` from a game record. Actions and
/// events are dicts tagged by `"action"` and `"event"`. A refused action raises the
/// `DbcoreError` of its family with `.code`, `.rule` and `.detail`, and leaves the game
/// unchanged. Questions only a DBA battle answers (`legal`, `table`, `snap`, ...) raise
/// ArgumentError (code 103) on a DBAix game or during the pre-battle. Pickles and copies go
/// through the compact state JSON (a game in its pre-battle through its record); in a notebook
/// the battle draws itself.
#[pyclass(module = "dbcore", name = "Battle")]
#[derive(Clone)]
pub struct Battle(pub Session);

/// Answer a method of the session, its parameters given as a JSON value.
fn call_value(
    s: &mut Session,
    method: &str,
    params: serde_json::Value,
) -> PyResult<serde_json::Value> {
    errors::guard(|| s.call(method, params).map_err(|e| surface_err(&e)))
}

/// A surface error as the exception of its family.
pub(crate) fn surface_err(e: &dbcore::surface::SurfaceError) -> PyErr {
    errors::raise(e.code, e.rule, e.message.clone())
}

/// Keyword arguments (with None values left out) as a JSON object.
fn kwargs_value(kwargs: Option<&Bound<'_, PyDict>>) -> PyResult<serde_json::Value> {
    let mut m = serde_json::Map::new();
    if let Some(k) = kwargs {
        for (key, value) in k.iter() {
            if value.is_none() {
                continue;
            }
            let key: String = key.extract()?;
            // A keyword's text is a string parameter (`text="3 move 1"`), never JSON to read.
            let v = match value.cast::<pyo3::types::PyString>() {
                Ok(s) => serde_json::Value::String(crate::names::utf8(s)?.0),
                Err(_) => crate::names::to_value(&value, &key)?,
            };
            m.insert(key, v);
        }
    }
    Ok(serde_json::Value::Object(m))
}

impl Battle {
    /// The DBA battle, or ArgumentError naming the question a DBAix game or a pre-battle
    /// cannot answer.
    pub(crate) fn dba(&self, what: &str) -> PyResult<&dbcore::battle::Battle> {
        match self.0.battle() {
            Some(AnyBattle::Dba(b)) => Ok(b),
            Some(AnyBattle::Dbaix(_)) => Err(errors::invalid_argument(format!(
                "{what} is a DBA 3.0 question; this is a DBAix game"
            ))),
            None => Err(errors::invalid_argument(format!(
                "{what} is a question for the battle; this game is in its pre-battle"
            ))),
        }
    }

    /// The battle of either game, or ArgumentError during the pre-battle.
    fn any(&self, what: &str) -> PyResult<&AnyBattle> {
        self.0.battle().ok_or_else(|| {
            errors::invalid_argument(format!(
                "{what} is a question for the battle; this game is in its pre-battle"
            ))
        })
    }

    fn start(how: serde_json::Value) -> PyResult<Battle> {
        errors::guard(|| Session::new(how).map(Battle).map_err(|e| surface_err(&e)))
    }

    fn call<'py>(
        &mut self,
        py: Python<'py>,
        method: &str,
        params: serde_json::Value,
    ) -> PyResult<Bound<'py, PyAny>> {
        let v = call_value(&mut self.0, method, params)?;
        to_py(py, &v)
    }

    fn info(&self) -> PyResult<serde_json::Value> {
        let mut s = self.0.clone();
        call_value(&mut s, "info", serde_json::Value::Null)
    }
}

impl PartialEq for Battle {
    fn eq(&self, other: &Self) -> bool {
        match (self.0.battle(), other.0.battle()) {
            (Some(a), Some(b)) => a == b,
            (None, None) => self.0.record() == other.0.record(),
            _ => false,
        }
    }
}

#[pymethods]
impl Battle {
    #[new]
    fn new(py: Python<'_>, setup: &Bound<'_, PyAny>) -> PyResult<Self> {
        let v: serde_json::Value = crate::names::to_value(setup, "a battle set-up")?;
        // A DBA set-up's problems are listed in `.problems`, as `Battle.new` always has.
        if !is_dbaix(Some(&v)) {
            let setup: BattleSetup = dbcore::json::from_value(v.clone())
                .map_err(|e| errors::invalid_json("a battle set-up", &e))?;
            let problems = dbcore::battle::validate(&setup);
            if !problems.is_empty() {
                return Err(setup_err(py, &dbcore::battle::SetupError { problems }));
            }
        }
        Battle::start(serde_json::json!({ "setup": v }))
    }

    /// A game between two army lists, named by id (`"II/56"`) or name (`"Ancient British"`):
    /// `variant` 'standard', 'big_battle' or 'giant'; the pre-battle is the caller's to play
    /// (`prebattle='caller'`), or played whole by the demonstration driver ('driver') or the
    /// opponent ('ai'); `seed` seeds the dice tray.
    #[classmethod]
    #[pyo3(signature = (first, second, variant="standard", seed=AnyInt(1), prebattle="caller"))]
    fn from_lists(
        _cls: &Bound<'_, PyType>,
        first: Text,
        second: Text,
        variant: &str,
        seed: AnyInt,
        prebattle: &str,
    ) -> PyResult<Self> {
        let seed: u64 = seed.to("seed", "0 to 2**64-1")?;
        Battle::start(serde_json::json!({
            "lists": [first.0, second.0],
            "variant": variant,
            "seed": seed,
            "prebattle": prebattle,
        }))
    }

    /// A game from its record (`record()`, what `dbcore play --json` writes, or any earlier
    /// spelling: a dict or JSON text), played again action by action so that every action can
    /// be taken back with `pop`.
    #[classmethod]
    #[pyo3(signature = (record, seed=AnyInt(1)))]
    fn load(_cls: &Bound<'_, PyType>, record: &Bound<'_, PyAny>, seed: AnyInt) -> PyResult<Self> {
        let seed: u64 = seed.to("seed", "0 to 2**64-1")?;
        let record = crate::names::to_value(record, "a game record")?;
        Battle::start(serde_json::json!({ "game": record, "seed": seed }))
    }

    /// The demonstration: 'battle' (its set-up), 'armies' (its two armies, from their
    /// pre-battle) or 'dbaix'.
    #[classmethod]
    #[pyo3(signature = (which="battle", seed=AnyInt(1)))]
    fn demo(_cls: &Bound<'_, PyType>, which: &str, seed: AnyInt) -> PyResult<Self> {
        let seed: u64 = seed.to("seed", "0 to 2**64-1")?;
        Battle::start(serde_json::json!({ "demo": which, "seed": seed }))
    }

    /// A BUGS! encounter (the second game): one of the three demonstration encounters (1 the
    /// escort, 2 the defence of a settlement, 3 the raid on a nest) on your tables file (the
    /// values the transcription lost, BUGS §17: a dict or JSON text), or a whole `setup` of your
    /// own. Actions, dice, `legal_actions`, `pop`, `ai` and `record` work as for a battle.
    #[classmethod]
    #[pyo3(signature = (tables=None, encounter=AnyInt(1), setup=None, seed=AnyInt(1)))]
    fn bugs(
        _cls: &Bound<'_, PyType>,
        tables: Option<&Bound<'_, PyAny>>,
        encounter: AnyInt,
        setup: Option<&Bound<'_, PyAny>>,
        seed: AnyInt,
    ) -> PyResult<Self> {
        let seed: u64 = seed.to("seed", "0 to 2**64-1")?;
        let start = match (tables, setup) {
            (Some(t), None) => {
                let encounter: u8 = encounter.to("encounter", "1, 2 or 3")?;
                serde_json::json!({
                    "encounter": encounter,
                    "tables": crate::names::to_value(t, "a BUGS! tables file")?,
                })
            }
            (None, Some(s)) => crate::names::to_value(s, "a BUGS! set-up")?,
            _ => {
                return Err(errors::raise(
                    dbcore::ErrorCode::InvalidArgument,
                    Some("BUGS §17"),
                    "Battle.bugs takes your tables file (with an encounter number) or a whole \
                     set-up, one of them"
                        .into(),
                ))
            }
        };
        Battle::start(serde_json::json!({ "bugs": start, "seed": seed }))
    }

    /// A battle from its state: `to_json()` (the compact state, accepted when its digest matches
    /// what it holds, with no replay) or `state()` (the full state, accepted only when replaying
    /// the set-up and actions inside it gives exactly that state), as a dict or JSON text. A
    /// hand-edited position is refused (ArgumentError, code 103). A game record (a game in its
    /// pre-battle pickles as one) is loaded as `Battle.load` loads it.
    #[classmethod]
    fn from_json(
        _cls: &Bound<'_, PyType>,
        py: Python<'_>,
        state: &Bound<'_, PyAny>,
    ) -> PyResult<Self> {
        let read = if let Ok(text) = state.cast::<PyString>() {
            let text = crate::names::utf8(text)?.0;
            if text.trim_start().starts_with("{\"format\":\"dbcore-game\"") {
                return Battle::start(serde_json::json!({ "game": text }));
            }
            errors::guard(|| Ok(AnyBattle::from_state_json(&text)))?
        } else {
            let given: serde_json::Value = from_py(state, "a battle state")?;
            if given.get("format").and_then(|f| f.as_str()) == Some(dbcore::record::FORMAT) {
                return Battle::start(serde_json::json!({ "game": given }));
            }
            errors::guard(|| Ok(AnyBattle::from_state_value(given)))?
        };
        let battle = read.map_err(|e| state_err(py, &e))?;
        let state = battle.state_json();
        Battle::start(serde_json::json!({ "state": state }))
    }

    /// Replay a record (`record()`, a dict or JSON text, of either game, in any spelling):
    /// `(battle, events)`, the battle after its last action and every event in order.
    #[classmethod]
    fn replay<'py>(
        _cls: &Bound<'py, PyType>,
        py: Python<'py>,
        record: &Bound<'py, PyAny>,
    ) -> PyResult<(Battle, Bound<'py, PyAny>)> {
        let v = crate::names::to_value(record, "a battle record")?;
        if v.get("format").and_then(|f| f.as_str()) != Some(dbcore::record::FORMAT)
            && v.get("setup").is_some()
        {
            // An earlier spelling: its own replay, so a refused action names its index.
            let record = any_record(record)?;
            replay_any(py, &record)?;
        }
        let mut b = Battle::start(serde_json::json!({ "game": v }))?;
        let events = b.call(py, "events", serde_json::Value::Null)?;
        Ok((b, events))
    }

    /// The events `action` (a dict or JSON text) would cause, as dicts; changes nothing.
    fn check<'py>(
        &mut self,
        py: Python<'py>,
        action: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let action = crate::names::to_value(action, "an action")?;
        let v = call_value(
            &mut self.0,
            "check",
            serde_json::json!({ "action": action }),
        )?;
        to_py(py, &v["events"])
    }

    /// Do `action` (a dict or JSON text): its events, as dicts. A refusal raises and changes
    /// nothing.
    fn apply<'py>(
        &mut self,
        py: Python<'py>,
        action: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let action = crate::names::to_value(action, "an action")?;
        let v = call_value(
            &mut self.0,
            "apply",
            serde_json::json!({ "action": action }),
        )?;
        to_py(py, &v["events"])
    }

    /// The concrete legal actions now, as dicts, each accepted as it stands (a basis: moves go
    /// to the farthest legal step on documented bearings; see `dbcore::battle::legal_actions`).
    /// Dice come from `dice` (the scores thrown) or the battle's seeded tray; `element` lists one
    /// element's moves only.
    #[pyo3(signature = (dice=None, element=None))]
    fn legal_actions<'py>(
        &mut self,
        py: Python<'py>,
        dice: Option<Vec<AnyInt>>,
        element: Option<AnyInt>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let mut p = serde_json::Map::new();
        if let Some(d) = dice {
            let d: Vec<u8> = d
                .into_iter()
                .map(|x| x.to::<u8>("a die", "1 to 6"))
                .collect::<PyResult<_>>()?;
            p.insert("dice".into(), serde_json::json!(d));
        }
        if let Some(e) = element {
            p.insert("element".into(), serde_json::json!(element_arg(e)?.0));
        }
        let v = call_value(&mut self.0, "legal_actions", serde_json::Value::Object(p))?;
        to_py(py, &v["actions"])
    }

    /// Play an action written in the notation (`"3 move 1.5 @ 90"`, `"fight 3 104"`): dice
    /// the text leaves out come from `dice` or the tray. Returns
    /// `{'action', 'text', 'events', 'revision'}`. DBA only.
    #[pyo3(signature = (text, dice=None))]
    fn play<'py>(
        &mut self,
        py: Python<'py>,
        text: Text,
        dice: Option<Vec<AnyInt>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let p = notation_params(text, dice)?;
        self.call(py, "play", p)
    }

    /// Read the notation as an action dict, changing nothing. DBA only.
    #[pyo3(signature = (text, dice=None))]
    fn parse<'py>(
        &mut self,
        py: Python<'py>,
        text: Text,
        dice: Option<Vec<AnyInt>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let p = notation_params(text, dice)?;
        let v = call_value(&mut self.0, "parse", p)?;
        to_py(py, &v["action"])
    }

    /// An action in the notation: exact (`parse` reads it back as the same action), or with its
    /// numbers rounded to `decimals` places for people. DBA only.
    #[pyo3(signature = (action, decimals=None))]
    fn describe(
        &mut self,
        action: &Bound<'_, PyAny>,
        decimals: Option<AnyInt>,
    ) -> PyResult<String> {
        let action = crate::names::to_value(action, "an action")?;
        let mut p = serde_json::json!({ "action": action });
        if let Some(d) = decimals {
            p["decimals"] = serde_json::json!(d.to::<u8>("decimals", "0 to 12")?);
        }
        let v = call_value(&mut self.0, "describe", p)?;
        Ok(v["text"].as_str().unwrap_or_default().to_string())
    }

    /// Take back the last action (dice and events too) and return it, as python-chess's
    /// `Board.pop`. Raises RuleError (201) when there is none.
    fn pop<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let v = call_value(&mut self.0, "undo", serde_json::Value::Null)?;
        to_py(py, &v["action"])
    }

    /// The computer opponent's choice now (a dict the game accepts), at `nodes` positions a
    /// decision; in the pre-battle, its choice or the demonstration's.
    #[pyo3(signature = (nodes=None, seed=None))]
    fn ai<'py>(
        &mut self,
        py: Python<'py>,
        nodes: Option<AnyInt>,
        seed: Option<AnyInt>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let mut p = serde_json::Map::new();
        if let Some(n) = nodes {
            p.insert(
                "nodes".into(),
                serde_json::json!(n.to::<u32>("nodes", "0 to 2**32-1")?),
            );
        }
        if let Some(n) = seed {
            p.insert(
                "seed".into(),
                serde_json::json!(n.to::<u64>("seed", "0 to 2**64-1")?),
            );
        }
        let mut s = self.0.clone();
        let v = py
            .detach(|| s.call("ai", serde_json::Value::Object(p)))
            .map_err(|e| surface_err(&e))?;
        to_py(py, &v["action"])
    }

    /// Any method of the game by name (`dbcore.methods()` lists them), with keyword
    /// parameters: `battle.call("reach", element=5)`.
    #[pyo3(name = "call", signature = (method, **params))]
    fn call_method<'py>(
        &mut self,
        py: Python<'py>,
        method: Text,
        params: Option<&Bound<'py, PyDict>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let p = kwargs_value(params)?;
        self.call(py, &method.0, p)
    }

    /// Roll the PIP die with `dice` and apply `{"action": "roll_pips", "die": ...}` (§6.2); in
    /// Big Battle and Giant, one die for each command the battle asks for (§14.4); in DBAix the
    /// moving side's die. A refused roll draws nothing from the dice.
    fn roll_pips<'py>(
        &mut self,
        py: Python<'py>,
        dice: &Bound<'py, Dice>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let mut dice = dice.try_borrow_mut()?;
        let (action, drawn) = match self.any("roll_pips()")? {
            AnyBattle::Dba(b) => {
                let n = match b.awaiting() {
                    Some(dbcore::battle::DiceRequest::CommandPips { commands, .. }) => {
                        commands.len()
                    }
                    _ => 1,
                };
                let (scores, drawn) = dice.next_scores(n)?;
                let action = if b.has_commands() {
                    Action::RollCommandPips { dice: scores }
                } else {
                    Action::RollPips { die: scores[0] }
                };
                (serde_json::to_value(&action), drawn)
            }
            AnyBattle::Dbaix(_) => {
                let (die, drawn) = dice.next_score()?;
                (serde_json::to_value(dbaix::Action::RollPips { die }), drawn)
            }
        };
        let action = action.map_err(|e| errors::internal(e.to_string()))?;
        let v = call_value(
            &mut self.0,
            "apply",
            serde_json::json!({ "action": action }),
        )?;
        dice.commit(drawn);
        to_py(py, &v["events"])
    }

    /// What the game waits for: the dice of the battle (`{'for': 'pips', 'army': 0}`) or the
    /// pre-battle's request, or None.
    fn awaiting<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.call(py, "awaiting", serde_json::Value::Null)
    }

    /// What the side to move may do now (`dbcore::battle::Legal` as a dict): the dice awaited,
    /// the movers with their PIP cost and reach, the shots with their targets, the combats.
    /// DBA 3.0 only.
    fn legal<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_py(py, &self.dba("legal()")?.legal())
    }

    /// The game record (format 'dbcore-game'): its start (set-up or pre-battle), every action
    /// with its dice, its tags and how it stands. `Battle.load` and `Battle.replay` read it back,
    /// as do `dbcore replay`, `render` and `validate`.
    fn record<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.call(py, "record", serde_json::Value::Null)
    }

    /// The whole state of the battle as plain data (dbcore's serde form, shared with the C
    /// layer).
    fn state<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_py(py, self.any("state()")?)
    }

    /// The state as JSON text, the form `Battle.from_json` reads fastest: for a DBA battle the
    /// compact state with its digest (docs/json.md), for a DBAix game its full state; a game in
    /// its pre-battle, its record.
    fn to_json(&self) -> PyResult<String> {
        errors::guard(|| {
            Ok(match self.0.battle() {
                Some(b) => b.state_json(),
                None => self.0.record().to_json(),
            })
        })
    }

    /// The story of this game as a player tells it, one line a happening, from the action
    /// numbered `since` (0: the whole game; the number of actions so far: nothing yet), so a
    /// caller can tell each new action as it is played.
    #[pyo3(signature = (since=AnyInt(0)), text_signature = "($self, since=0)")]
    fn narrate(&mut self, since: AnyInt) -> PyResult<Vec<String>> {
        let since: usize = since.to("since", "0 or more")?;
        let v = call_value(
            &mut self.0,
            "narrate",
            serde_json::json!({ "from_action": since }),
        )?;
        serde_json::from_value(v).map_err(|e| errors::internal(e.to_string()))
    }

    /// The verdict once the battle is over: `{'winners': [army, ...]}` (empty for no winner),
    /// or None while it goes on.
    #[getter]
    fn verdict<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let v = call_value(&mut self.0, "verdict", serde_json::Value::Null)?;
        if v["finished"].as_bool() == Some(true) {
            to_py(py, &serde_json::json!({ "winners": v["winners"] }))
        } else {
            Ok(py.None().into_bound(py))
        }
    }

    /// The winning army's number once the battle is over with a winner, else None.
    #[getter]
    fn winner(&mut self) -> PyResult<Option<usize>> {
        let v = call_value(&mut self.0, "verdict", serde_json::Value::Null)?;
        Ok(v["winners"]
            .as_array()
            .and_then(|w| w.first())
            .and_then(|w| w.as_u64())
            .map(|w| w as usize))
    }

    /// Where the game stands: 'prebattle', 'battle' or 'finished'.
    #[getter]
    fn stage(&self) -> String {
        name_of(&self.0.stage())
    }

    /// The number of actions applied so far, the pre-battle's included.
    #[getter]
    fn revision(&self) -> usize {
        self.0.revision()
    }

    /// The game played: 'standard', 'big_battle', 'giant' or 'dbaix'.
    #[getter]
    fn variant(&self) -> PyResult<String> {
        let info = self.info()?;
        Ok(info["variant"].as_str().unwrap_or_default().to_string())
    }

    /// The phase's name as dbcore's JSON spells it: 'awaiting_pips', 'movement',
    /// 'close_combat', 'finished', 'prebattle', or any the rules add later. Its detail (a
    /// finished battle's winner) is in `state()`.
    #[getter]
    fn phase(&self) -> PyResult<String> {
        let v = match self.0.battle() {
            None => return Ok("prebattle".to_string()),
            Some(AnyBattle::Dba(b)) => serde_json::to_value(b.phase()),
            Some(AnyBattle::Dbaix(b)) => serde_json::to_value(b.phase()),
        }
        .map_err(|e| errors::internal(format!("cannot write JSON: {e}")))?;
        v.get("phase")
            .and_then(|p| p.as_str())
            .map(str::to_owned)
            .ok_or_else(|| errors::internal(format!("a phase without a name: {v}")))
    }
    /// The moving army or side by number (0 for the set-up's first army; in DBAix 0 Romans,
    /// 1 Gauls, 2 Pirates); 0 in the pre-battle.
    #[getter]
    fn active_army(&self) -> usize {
        match self.0.battle() {
            Some(AnyBattle::Dba(b)) => b.active_army(),
            Some(AnyBattle::Dbaix(b)) => b.active_side().index(),
            None => 0,
        }
    }
    /// The moving side by name: the army's name as set up, or in DBAix 'romans', 'gauls' or
    /// 'pirates'.
    #[getter]
    fn active_side(&self) -> String {
        match self.0.battle() {
            Some(AnyBattle::Dba(b)) => b
                .setup()
                .armies
                .get(b.active_army())
                .map(|a| a.name.clone())
                .unwrap_or_default(),
            Some(AnyBattle::Dbaix(b)) => name_of(&b.active_side()),
            None => String::new(),
        }
    }
    /// Bounds begun so far, every side's counted (1 during the first; 0 in the pre-battle).
    #[getter]
    fn bound(&self) -> u32 {
        match self.0.battle() {
            Some(AnyBattle::Dba(b)) => b.bound(),
            Some(AnyBattle::Dbaix(b)) => b.bound(),
            None => 0,
        }
    }
    /// PIPs the moving side has left this bound.
    #[getter]
    fn pips(&self) -> u8 {
        match self.0.battle() {
            Some(AnyBattle::Dba(b)) => b.pips(),
            Some(AnyBattle::Dbaix(b)) => b.pips(),
            None => 0,
        }
    }

    /// Every element as a dict (`id`, `army`, `kind`, `pose`, `general`, `status`, ...); in
    /// DBAix every figure (`id`, `name`, `class`, `side`, `pose`, `status`, ...).
    fn elements<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        match self.any("elements()")? {
            AnyBattle::Dba(b) => to_py(py, b.elements()),
            AnyBattle::Dbaix(b) => to_py(py, b.figures()),
        }
    }

    /// DBAix's name for `elements()`: every figure as a dict (on a DBA battle, its elements).
    fn figures<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.elements(py)
    }

    /// The element with this id, as a dict (ArgumentError, code 104, if there is none). DBA
    /// 3.0 only.
    fn element<'py>(&self, py: Python<'py>, id: AnyInt) -> PyResult<Bound<'py, PyAny>> {
        let b = self.dba("element()")?;
        let found = u32::try_from(id.0)
            .ok()
            .and_then(|i| b.element(dbcore::battle::ElementId(i)));
        match found {
            Some(e) => to_py(py, e),
            None => Err(errors::raise(
                ErrorCode::UnknownElement,
                None,
                format!("there is no element {}", id.shown()),
            )),
        }
    }

    /// The battle now as a `Table`: its battlefield with the elements in play where they stand
    /// (side = army), for the table questions. A copy: later actions do not move it. DBA 3.0
    /// only.
    fn table(&self) -> PyResult<Table> {
        Ok(Table(self.dba("table()")?.table()))
    }

    /// Where element `id` would stand if dropped at `pose` (a dict `{'x', 'y', 'facing'}` in BW,
    /// or JSON): the legal pose by §8.2 contact with the slide allowed, lined up with an element
    /// within `within` BW, as a dict (`id`, `pose`, `order` to send as a move, `events`,
    /// `with`). When no legal pose exists, raises the refusal's DbcoreError naming its rule.
    /// DBA 3.0 only.
    #[pyo3(signature = (id, pose, within=0.5))]
    fn snap<'py>(
        &self,
        py: Python<'py>,
        id: AnyInt,
        pose: &Bound<'py, PyAny>,
        within: f64,
    ) -> PyResult<Bound<'py, PyAny>> {
        let b = self.dba("snap()")?;
        let pose: dbcore::geometry::Pose = from_py(pose, "the dropped pose")?;
        if !(within.is_finite() && (0.0..=4.0).contains(&within)) {
            return Err(errors::raise(
                ErrorCode::InvalidArgument,
                None,
                "`within` is 0 to 4 BW".to_string(),
            ));
        }
        let id = element_arg(id)?;
        let snap = errors::guard(|| b.snap(id, pose, within).map_err(|e| errors::from_info(&e)))?;
        to_py(py, &snap)
    }

    /// The outlines to draw for element `id` (dbcore's `ElementOutlines` as a dict, polygons as
    /// lists of points in BW): `element`, `threat_zone` (§8.1), `shooting_zone` and `range`
    /// (§9), `command` (a general's command distance, §6.4) and `reach` (where a move could end
    /// this bound in each going, §7.3). DBA 3.0 only.
    fn outlines<'py>(&self, py: Python<'py>, id: AnyInt) -> PyResult<Bound<'py, PyAny>> {
        let b = self.dba("outlines()")?;
        let id = element_arg(id)?;
        let o = errors::guard(|| b.outlines(id).map_err(|e| errors::from_info(&e)))?;
        to_py(py, &o)
    }

    /// What an outcome move of element `id` from where it stands would do (§12), changing
    /// nothing: `outcome` is `{'outcome': 'recoil'}`, `{'outcome': 'flee'}` or
    /// `{'outcome': 'pursue', 'distance': 0.5}`; the answer is the list of effects in order.
    /// DBA 3.0 only.
    fn outcome<'py>(
        &self,
        py: Python<'py>,
        id: AnyInt,
        outcome: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let b = self.dba("outcome()")?;
        let outcome: dbcore::snap::OutcomeMove = from_py(outcome, "the outcome move")?;
        let id = element_arg(id)?;
        let effects = errors::guard(|| {
            b.outcome_preview(id, outcome)
                .map_err(|e| errors::from_info(&e))
        })?;
        to_py(py, &effects)
    }

    /// Every contact of element `id` now, as `Table.contacts` gives them (edges and corners
    /// named as in dbcore's JSON and the C layer), with this battle's rules configuration.
    /// DBA 3.0 only.
    fn contacts<'py>(
        &self,
        py: Python<'py>,
        id: AnyInt,
    ) -> PyResult<Bound<'py, pyo3::types::PyList>> {
        let b = self.dba("contacts()")?;
        let id = element_arg(id)?;
        crate::table::contact_dicts(py, &b.table(), id.0, &b.setup().config)
    }

    /// The picture of the battle now as an SVG document (the table's picture, with this
    /// battle's rules configuration); with `threat_zones`, threat zones are shaded. A DBAix
    /// game is drawn in inches, the three sides in three colours, figures named (it has no
    /// threat zones to shade).
    #[pyo3(signature = (threat_zones=false))]
    fn svg(&mut self, threat_zones: bool) -> PyResult<String> {
        let v = call_value(
            &mut self.0,
            "svg",
            serde_json::json!({ "threat_zones": threat_zones }),
        )?;
        Ok(v["svg"].as_str().unwrap_or_default().to_string())
    }

    /// The picture a notebook shows.
    fn _repr_svg_(&mut self) -> PyResult<String> {
        self.svg(false)
    }

    /// This battle's rules configuration. DBA 3.0 only.
    #[getter]
    fn config(&self) -> PyResult<RulesConfig> {
        Ok(RulesConfig(self.dba("config")?.setup().config.clone()))
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other.cast::<Battle>().is_ok_and(|o| *self == *o.borrow())
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, (String,))> {
        Ok((
            slf.get_type().getattr("from_json")?,
            (slf.borrow().to_json()?,),
        ))
    }

    fn __repr__(&self) -> PyResult<String> {
        let plural = |n: usize| if n == 1 { "" } else { "s" };
        if let Some(e) = self.0.encounter() {
            let v = e.verdict();
            return Ok(format!(
                "<Battle: a BUGS! encounter, turn {}, {}, {} action{}>",
                v.turn,
                v.why,
                self.0.revision(),
                plural(self.0.revision())
            ));
        }
        match self.0.battle() {
            None => Ok(format!(
                "<Battle in its pre-battle, {} action{}>",
                self.0.revision(),
                plural(self.0.revision())
            )),
            Some(AnyBattle::Dba(b)) => {
                let in_play = b.elements().iter().filter(|e| e.in_play()).count();
                Ok(format!(
                    "<Battle bound {}, army {} ({}) to move, {}, {} PIP{} left, {} of {} \
                     elements in play, {} action{}>",
                    b.bound(),
                    b.active_army(),
                    self.active_side(),
                    self.phase()?,
                    b.pips(),
                    plural(usize::from(b.pips())),
                    in_play,
                    b.elements().len(),
                    b.actions().len(),
                    plural(b.actions().len()),
                ))
            }
            Some(AnyBattle::Dbaix(b)) => Ok(format!(
                "<Battle (DBAix) bound {}, the {} to move, {}, {} PIP{} left, {} action{}>",
                b.bound(),
                self.active_side(),
                self.phase()?,
                b.pips(),
                plural(usize::from(b.pips())),
                b.actions().len(),
                plural(b.actions().len()),
            )),
        }
    }
}

/// The parameters of `play` and `parse`.
fn notation_params(text: Text, dice: Option<Vec<AnyInt>>) -> PyResult<serde_json::Value> {
    let mut p = serde_json::json!({ "text": text.0 });
    if let Some(d) = dice {
        let d: Vec<u8> = d
            .into_iter()
            .map(|x| x.to::<u8>("a die", "1 to 6"))
            .collect::<PyResult<_>>()?;
        p["dice"] = serde_json::json!(d);
    }
    Ok(p)
}

/// Any method that needs no game, by name (`methods()` lists them), with keyword parameters:
/// `dbcore.call("armies.lookup", text="ancient british")`.
#[pyfunction]
#[pyo3(signature = (method, **params))]
pub fn call<'py>(
    py: Python<'py>,
    method: Text,
    params: Option<&Bound<'py, PyDict>>,
) -> PyResult<Bound<'py, PyAny>> {
    let p = kwargs_value(params)?;
    let v = errors::guard(|| dbcore::surface::call(&method.0, p).map_err(|e| surface_err(&e)))?;
    to_py(py, &v)
}

/// Play a whole battle with dbcore's demonstration driver (it advances on the nearest enemy,
/// makes contact when it can, spends PIPs greedily, shoots and fights) and return
/// `{"record": ..., "events": [...], "bounds": n, "verdict": ... or None}`. `setup` defaults to
/// `demo_setup()`; dice come from `seed`, so the same arguments give the same battle in Rust, C
/// and Python.
#[pyfunction]
#[pyo3(
    signature = (setup=None, seed=AnyInt(0), max_bounds=AnyInt(40)),
    text_signature = "(setup=None, seed=0, max_bounds=40)"
)]
pub fn play<'py>(
    py: Python<'py>,
    setup: Option<&Bound<'py, PyAny>>,
    seed: AnyInt,
    max_bounds: AnyInt,
) -> PyResult<Bound<'py, PyAny>> {
    let seed: u64 = seed.to("seed", "0 to 2**64-1")?;
    let max_bounds: u32 = max_bounds.to("max_bounds", "0 to 2**32-1")?;
    let setup: BattleSetup = match setup {
        Some(s) => from_py(s, "setup")?,
        None => dbcore::driver::demo_setup(),
    };
    let driven = dbcore::driver::play(setup, seed, max_bounds).map_err(|e| setup_err(py, &e))?;
    to_py(py, &driven)
}

/// The set-up of the demonstration battle (Romans against Ancient Britons) as a dict.
#[pyfunction]
pub fn demo_setup(py: Python<'_>) -> PyResult<Bound<'_, PyAny>> {
    to_py(py, &dbcore::driver::demo_setup())
}
