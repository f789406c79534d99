//! `Battle`: a battle in progress of either game (`dbcore::game::AnyBattle`: DBA 3.0 or DBAix). Set-ups, actions, events,
//! records and states cross as plain Python data read from dbcore's serde JSON (dicts, lists,
//! numbers, strings), so an action or event the rules add later passes through untouched. Every
//! rule is dbcore's; this file only translates.

use dbcore::battle::{Action, BattleSetup};
use dbcore::dbaix;
use dbcore::game::{AnyAction, AnyBattle, AnyEvent, AnyRecord};
use dbcore::ErrorCode;
use pyo3::prelude::*;
use pyo3::types::{PyString, PyType};
use serde::de::DeserializeOwned;

use crate::dice::Dice;
use crate::errors;
use crate::kinds::RulesConfig;
use crate::names::{name_of, to_py, AnyInt};
use crate::table::Table;

/// Read a dbcore value given as JSON text or as plain Python data (turned into JSON text by
/// `json.dumps`); `what` names it in the error.
pub(crate) fn from_py<T: DeserializeOwned>(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<T> {
    let text: String = if let Ok(s) = obj.cast::<PyString>() {
        crate::names::utf8(s)?.0
    } else {
        let json = obj.py().import("json")?;
        match json.call_method1("dumps", (obj,)) {
            Ok(t) => t.extract()?,
            Err(e) => {
                return Err(errors::raise(
                    ErrorCode::InvalidJson,
                    None,
                    format!("{what} is neither JSON text nor plain data json.dumps can write: {e}"),
                ))
            }
        }
    };
    dbcore::json::from_str(&text).map_err(|e| errors::invalid_json(what, &e))
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
        GameError::State(StateError::Replay(ReplayError::Setup(s))) => setup_err(py, s),
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

/// The lines telling `events` of `battle` (whose set-up names the armies and elements) as a
/// player would tell them: `dbcore::battle::narrate` for DBA 3.0, the DBAix driver's narration
/// for DBAix.
fn narrate_events(battle: &AnyBattle, events: &[AnyEvent]) -> Vec<String> {
    match battle {
        AnyBattle::Dba(b) => {
            let evs: Vec<dbcore::battle::Event> = events
                .iter()
                .filter_map(|e| match e {
                    AnyEvent::Dba(e) => Some(e.clone()),
                    AnyEvent::Dbaix(_) => None,
                })
                .collect();
            dbcore::battle::narrate::narrate(b.setup(), &evs)
        }
        AnyBattle::Dbaix(b) => {
            let evs: Vec<dbaix::Event> = events
                .iter()
                .filter_map(|e| match e {
                    AnyEvent::Dbaix(e) => Some(e.clone()),
                    AnyEvent::Dba(_) => None,
                })
                .collect();
            dbaix::driver::narrate(b.setup(), &evs)
        }
    }
}

/// The story of a record (a dict or JSON text of either game): one line of plain English per
/// thing that happened, as a player tells it ("the Romans roll 1 PIP", "recoils 0.50 BW").
#[pyfunction]
pub fn narrate(py: Python<'_>, record: &Bound<'_, PyAny>) -> PyResult<Vec<String>> {
    let record = any_record(record)?;
    let (battle, events) = replay_any(py, &record)?;
    errors::guard(|| Ok(narrate_events(&battle, &events)))
}

/// A battle in progress of either game the project plays: DBA 3.0 (DBA3.md §6–§8, Big Battle
/// and Giant included) or the three-sided Asterix variant DBAix (DBAIX.md §2), held as
/// `dbcore::game::AnyBattle`. `Battle(setup)` starts one from a set-up (a dict, or JSON text);
/// a set-up with `"variant": "dbaix"` gives a DBAix game, any other a DBA battle, awaiting the
/// first side's PIP die. Actions and events are dicts tagged by `"action"` and `"event"` (build
/// DBA actions with `dbcore.actions`). A refused action raises the `DbcoreError` of its family
/// with `.code`, `.rule` and `.detail`, and leaves the battle unchanged. Questions only DBA
/// answers (`legal`, `table`, `snap`, ...) raise ArgumentError (code 103) on a DBAix game.
/// Pickles and copies go through the compact state JSON; in a notebook the battle draws itself.
#[pyclass(module = "dbcore", name = "Battle", eq)]
#[derive(Clone, PartialEq)]
pub struct Battle(pub AnyBattle);

impl Battle {
    /// The DBA battle, or ArgumentError naming the question a DBAix game cannot answer.
    pub(crate) fn dba(&self, what: &str) -> PyResult<&dbcore::battle::Battle> {
        match &self.0 {
            AnyBattle::Dba(b) => Ok(b),
            AnyBattle::Dbaix(_) => Err(errors::invalid_argument(format!(
                "{what} is a DBA 3.0 question; this is a DBAix game"
            ))),
        }
    }

    /// Read an action meant for this battle's game.
    fn action(&self, obj: &Bound<'_, PyAny>) -> PyResult<AnyAction> {
        Ok(match &self.0 {
            AnyBattle::Dba(_) => AnyAction::Dba(from_py(obj, "an action")?),
            AnyBattle::Dbaix(_) => AnyAction::Dbaix(from_py(obj, "a DBAix action")?),
        })
    }
}

#[pymethods]
impl Battle {
    #[new]
    fn new(py: Python<'_>, setup: &Bound<'_, PyAny>) -> PyResult<Self> {
        let v: serde_json::Value = from_py(setup, "a battle set-up")?;
        if is_dbaix(Some(&v)) {
            let setup: dbaix::DbaixSetup = dbcore::json::from_value(v)
                .map_err(|e| errors::invalid_json("a DBAix set-up", &e))?;
            errors::guard(|| {
                dbaix::Battle::new(setup)
                    .map(|b| Battle(AnyBattle::Dbaix(Box::new(b))))
                    .map_err(|e| errors::from_info(&e))
            })
        } else {
            let setup: BattleSetup = dbcore::json::from_value(v)
                .map_err(|e| errors::invalid_json("a battle set-up", &e))?;
            errors::guard(|| {
                dbcore::battle::Battle::new(setup)
                    .map(|b| Battle(AnyBattle::Dba(Box::new(b))))
                    .map_err(|e| setup_err(py, &e))
            })
        }
    }

    /// A battle from its state: `to_json()` (the compact state, accepted when its digest matches
    /// what it holds, with no replay) or `state()` (the full state, accepted only when replaying
    /// the set-up and actions inside it gives exactly that state), as a dict or JSON text. A
    /// hand-edited position is refused (ArgumentError, code 103).
    #[classmethod]
    fn from_json(
        _cls: &Bound<'_, PyType>,
        py: Python<'_>,
        state: &Bound<'_, PyAny>,
    ) -> PyResult<Self> {
        let read = if let Ok(text) = state.cast::<PyString>() {
            let text = crate::names::utf8(text)?.0;
            errors::guard(|| Ok(AnyBattle::from_state_json(&text)))?
        } else {
            let given: serde_json::Value = from_py(state, "a battle state")?;
            errors::guard(|| Ok(AnyBattle::from_state_value(given)))?
        };
        read.map(Battle).map_err(|e| state_err(py, &e))
    }

    /// Replay a record (`record()`: a dict or JSON text `{"setup": ..., "actions": [...]}`) of
    /// either game: `(battle, events)`, the battle after its last action and every event in
    /// order.
    #[classmethod]
    fn replay<'py>(
        _cls: &Bound<'py, PyType>,
        py: Python<'py>,
        record: &Bound<'py, PyAny>,
    ) -> PyResult<(Battle, Bound<'py, PyAny>)> {
        let record = any_record(record)?;
        let (battle, events) = replay_any(py, &record)?;
        Ok((Battle(battle), to_py(py, &events)?))
    }

    /// The events `action` (a dict or JSON text) would cause, as dicts; changes nothing.
    fn check<'py>(
        &self,
        py: Python<'py>,
        action: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let action = self.action(action)?;
        let events = errors::guard(|| self.0.check(&action).map_err(|e| errors::from_info(&e)))?;
        to_py(py, &events)
    }

    /// Do `action` (a dict or JSON text): its events, as dicts. A refusal raises and changes
    /// nothing.
    fn apply<'py>(
        &mut self,
        py: Python<'py>,
        action: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let action = self.action(action)?;
        let events = errors::guard(|| self.0.apply(action).map_err(|e| errors::from_info(&e)))?;
        to_py(py, &events)
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
        let (action, drawn) = match &self.0 {
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
                (AnyAction::Dba(action), drawn)
            }
            AnyBattle::Dbaix(_) => {
                let (die, drawn) = dice.next_score()?;
                (AnyAction::Dbaix(dbaix::Action::RollPips { die }), drawn)
            }
        };
        let events = errors::guard(|| self.0.apply(action).map_err(|e| errors::from_info(&e)))?;
        dice.commit(drawn);
        to_py(py, &events)
    }

    /// The dice the battle waits for (`{'for': 'pips', 'army': 0}`), or None.
    fn awaiting<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_py(py, &self.0.awaiting())
    }

    /// What the side to move may do now (`dbcore::battle::Legal` as a dict): the dice awaited,
    /// the movers with their PIP cost and reach, the shots with their targets, the combats.
    /// DBA 3.0 only.
    fn legal<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_py(py, &self.dba("legal()")?.legal())
    }

    /// The set-up and every action so far, dice included: `Battle.replay` gives this battle
    /// back.
    fn record<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_py(py, &self.0.record())
    }

    /// The whole state as plain data (dbcore's serde form, shared with the C layer).
    fn state<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_py(py, &self.0)
    }

    /// The state as JSON text, the form `Battle.from_json` reads fastest: for a DBA battle the
    /// compact state with its digest (docs/json.md), for a DBAix game its full state.
    fn to_json(&self) -> PyResult<String> {
        errors::guard(|| Ok(self.0.state_json()))
    }

    /// The story of this battle as a player tells it, one line a happening, from the action
    /// numbered `since` (0: the whole battle; `len(record()['actions'])`: nothing yet), so a
    /// caller can tell each new action as it is played. The events are the record's, replayed.
    #[pyo3(signature = (since=AnyInt(0)), text_signature = "($self, since=0)")]
    fn narrate(&self, since: AnyInt) -> PyResult<Vec<String>> {
        let since: usize = since.to("since", "0 or more")?;
        errors::guard(|| {
            let events = match &self.0 {
                AnyBattle::Dba(b) => {
                    let mut again = dbcore::battle::Battle::new(b.setup().clone())
                        .map_err(|e| errors::from_info(&e))?;
                    let mut told = Vec::new();
                    for (i, a) in b.actions().iter().enumerate() {
                        let evs = again.apply(a.clone()).map_err(|e| errors::from_info(&e))?;
                        if i >= since {
                            told.extend(evs.into_iter().map(AnyEvent::Dba));
                        }
                    }
                    told
                }
                AnyBattle::Dbaix(b) => {
                    let mut again =
                        dbaix::Battle::new(b.setup().clone()).map_err(|e| errors::from_info(&e))?;
                    let mut told = Vec::new();
                    for (i, a) in b.actions().iter().enumerate() {
                        let evs = again.apply(a.clone()).map_err(|e| errors::from_info(&e))?;
                        if i >= since {
                            told.extend(evs.into_iter().map(AnyEvent::Dbaix));
                        }
                    }
                    told
                }
            };
            Ok(narrate_events(&self.0, &events))
        })
    }

    /// The game played: 'standard', 'big_battle', 'giant' or 'dbaix'.
    #[getter]
    fn variant(&self) -> String {
        name_of(&self.0.variant())
    }

    /// The phase's name as dbcore's JSON spells it: 'awaiting_pips', 'movement',
    /// 'close_combat', 'finished', or any the rules add later. Its detail (a finished battle's
    /// winner) is in `state()`.
    #[getter]
    fn phase(&self) -> PyResult<String> {
        let v = match &self.0 {
            AnyBattle::Dba(b) => serde_json::to_value(b.phase()),
            AnyBattle::Dbaix(b) => serde_json::to_value(b.phase()),
        }
        .map_err(|e| errors::internal(format!("cannot write JSON: {e}")))?;
        v.get("phase")
            .and_then(|p| p.as_str())
            .map(str::to_owned)
            .ok_or_else(|| errors::internal(format!("a phase without a name: {v}")))
    }
    /// The moving army or side by number (0 for the set-up's first army; in DBAix 0 Romans,
    /// 1 Gauls, 2 Pirates).
    #[getter]
    fn active_army(&self) -> usize {
        match &self.0 {
            AnyBattle::Dba(b) => b.active_army(),
            AnyBattle::Dbaix(b) => b.active_side().index(),
        }
    }
    /// The moving side by name: the army's name as set up, or in DBAix 'romans', 'gauls' or
    /// 'pirates'.
    #[getter]
    fn active_side(&self) -> String {
        match &self.0 {
            AnyBattle::Dba(b) => b
                .setup()
                .armies
                .get(b.active_army())
                .map(|a| a.name.clone())
                .unwrap_or_default(),
            AnyBattle::Dbaix(b) => name_of(&b.active_side()),
        }
    }
    /// Bounds begun so far, every side's counted (1 during the first).
    #[getter]
    fn bound(&self) -> u32 {
        match &self.0 {
            AnyBattle::Dba(b) => b.bound(),
            AnyBattle::Dbaix(b) => b.bound(),
        }
    }
    /// PIPs the moving side has left this bound.
    #[getter]
    fn pips(&self) -> u8 {
        match &self.0 {
            AnyBattle::Dba(b) => b.pips(),
            AnyBattle::Dbaix(b) => b.pips(),
        }
    }

    /// Every element as a dict (`id`, `army`, `kind`, `pose`, `general`, `status`, ...); in
    /// DBAix every figure (`id`, `name`, `class`, `side`, `pose`, `status`, ...).
    fn elements<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        match &self.0 {
            AnyBattle::Dba(b) => to_py(py, &b.elements()),
            AnyBattle::Dbaix(b) => to_py(py, &b.figures()),
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
    fn svg(&self, threat_zones: bool) -> PyResult<String> {
        errors::guard(|| {
            Ok(match &self.0 {
                AnyBattle::Dba(b) => b.svg(threat_zones),
                AnyBattle::Dbaix(b) => dbaix::svg::table_svg(b),
            })
        })
    }

    /// The picture a notebook shows.
    fn _repr_svg_(&self) -> PyResult<String> {
        self.svg(false)
    }

    /// This battle's rules configuration. DBA 3.0 only.
    #[getter]
    fn config(&self) -> PyResult<RulesConfig> {
        Ok(RulesConfig(self.dba("config")?.setup().config.clone()))
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, (String,))> {
        Ok((
            slf.get_type().getattr("from_json")?,
            (errors::guard(|| Ok(slf.borrow().0.state_json()))?,),
        ))
    }

    fn __repr__(&self) -> PyResult<String> {
        let plural = |n: usize| if n == 1 { "" } else { "s" };
        match &self.0 {
            AnyBattle::Dba(b) => {
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
            AnyBattle::Dbaix(b) => Ok(format!(
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
