//! `Battle`: a battle in progress (`dbcore::battle::Battle`). Set-ups, actions, events,
//! records and states cross as plain Python data read from dbcore's serde JSON (dicts, lists,
//! numbers, strings), so an action or event the rules add later passes through untouched. Every
//! rule is dbcore's; this file only translates.

use dbcore::battle::{Action, BattleRecord, BattleSetup};
use dbcore::ErrorCode;
use pyo3::prelude::*;
use pyo3::types::{PyString, PyType};
use serde::de::DeserializeOwned;

use crate::dice::Dice;
use crate::errors;
use crate::kinds::RulesConfig;
use crate::names::{to_json, to_py, AnyInt};
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

/// A battle in progress (DBA3.md §6–§8): `Battle(setup)` starts one from a set-up (a dict, or
/// JSON text, in dbcore's `BattleSetup` form) at the first army's first bound, awaiting its PIP
/// die. Actions and events are dicts tagged by `"action"` and `"event"` (build actions with
/// `dbcore.actions`). A refused action raises the `DbcoreError` of its family with `.code`,
/// `.rule` and `.detail`, and leaves the battle unchanged. Pickles and copies go through the
/// state JSON; in a notebook the battle draws itself.
#[pyclass(module = "dbcore", name = "Battle", eq)]
#[derive(Clone, PartialEq)]
pub struct Battle(pub dbcore::battle::Battle);

#[pymethods]
impl Battle {
    #[new]
    fn new(py: Python<'_>, setup: &Bound<'_, PyAny>) -> PyResult<Self> {
        let setup: BattleSetup = from_py(setup, "a battle set-up")?;
        errors::guard(|| {
            dbcore::battle::Battle::new(setup)
                .map(Battle)
                .map_err(|e| setup_err(py, &e))
        })
    }

    /// A battle from its state (`state()` or `to_json()`), accepted only when replaying the
    /// set-up and actions inside it gives exactly that state: a hand-edited position is refused
    /// (ArgumentError, code 103).
    #[classmethod]
    fn from_json(
        _cls: &Bound<'_, PyType>,
        py: Python<'_>,
        state: &Bound<'_, PyAny>,
    ) -> PyResult<Self> {
        let given: serde_json::Value = from_py(state, "a battle state")?;
        let claimed: dbcore::battle::Battle = dbcore::json::from_value(given.clone())
            .map_err(|e| errors::invalid_json("a battle state", &e))?;
        errors::guard(|| {
            let (replayed, _) = dbcore::battle::Battle::replay(&claimed.record())
                .map_err(|e| replay_err(py, &e))?;
            let again = serde_json::to_value(&replayed)
                .map_err(|e| errors::internal(format!("cannot write JSON: {e}")))?;
            // Compared as JSON values, so that reading floating-point text back cannot matter.
            if again != given {
                return Err(errors::invalid_argument(
                    "the battle state is not the one its own record (set-up and actions) \
                     replays to",
                ));
            }
            Ok(Battle(replayed))
        })
    }

    /// Replay a record (`record()`: a dict or JSON text `{"setup": ..., "actions": [...]}`):
    /// `(battle, events)`, the battle after its last action and every event in order.
    #[classmethod]
    fn replay<'py>(
        _cls: &Bound<'py, PyType>,
        py: Python<'py>,
        record: &Bound<'py, PyAny>,
    ) -> PyResult<(Battle, Bound<'py, PyAny>)> {
        let record: BattleRecord = from_py(record, "a battle record")?;
        let (battle, events) = errors::guard(|| {
            dbcore::battle::Battle::replay(&record).map_err(|e| replay_err(py, &e))
        })?;
        Ok((Battle(battle), to_py(py, &events)?))
    }

    /// The events `action` (a dict or JSON text) would cause, as dicts; changes nothing.
    fn check<'py>(
        &self,
        py: Python<'py>,
        action: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let action: Action = from_py(action, "an action")?;
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
        let action: Action = from_py(action, "an action")?;
        let events = errors::guard(|| self.0.apply(action).map_err(|e| errors::from_info(&e)))?;
        to_py(py, &events)
    }

    /// Roll the PIP die with `dice` and apply `{"action": "roll_pips", "die": ...}` (§6.2); in
    /// Big Battle and Giant, one die for each command the battle asks for (§14.4). A refused
    /// roll draws nothing from the dice.
    fn roll_pips<'py>(
        &mut self,
        py: Python<'py>,
        dice: &Bound<'py, Dice>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let mut dice = dice.try_borrow_mut()?;
        let n = match self.0.awaiting() {
            Some(dbcore::battle::DiceRequest::CommandPips { commands, .. }) => commands.len(),
            _ => 1,
        };
        let scores = dice.next_scores(n);
        let action = if self.0.has_commands() {
            Action::RollCommandPips { dice: scores }
        } else {
            Action::RollPips { die: scores[0] }
        };
        let events = errors::guard(|| self.0.apply(action).map_err(|e| errors::from_info(&e)))?;
        for _ in 0..n {
            dice.draw();
        }
        to_py(py, &events)
    }

    /// The dice the battle waits for (`{'for': 'pips', 'army': 0}`), or None.
    fn awaiting<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_py(py, &self.0.awaiting())
    }

    /// What the side to move may do now (`dbcore::battle::Legal` as a dict): the dice awaited,
    /// the movers with their PIP cost and reach, the shots with their targets, the combats.
    fn legal<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_py(py, &self.0.legal())
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

    /// The whole state as JSON text (the form `Battle.from_json` reads).
    fn to_json(&self) -> PyResult<String> {
        to_json(&self.0)
    }

    /// The phase's name as dbcore's JSON spells it: 'awaiting_pips', 'movement', 'finished',
    /// or any the rules add later. Its detail (a finished battle's winner) is in `state()`.
    #[getter]
    fn phase(&self) -> PyResult<String> {
        let v = serde_json::to_value(self.0.phase())
            .map_err(|e| errors::internal(format!("cannot write JSON: {e}")))?;
        v.get("phase")
            .and_then(|p| p.as_str())
            .map(str::to_owned)
            .ok_or_else(|| errors::internal(format!("a phase without a name: {v}")))
    }
    /// The moving army (0 for the set-up's first army).
    #[getter]
    fn active_army(&self) -> usize {
        self.0.active_army()
    }
    /// Bounds begun so far, both armies' counted (1 during the first).
    #[getter]
    fn bound(&self) -> u32 {
        self.0.bound()
    }
    /// PIPs the moving army has left this bound.
    #[getter]
    fn pips(&self) -> u8 {
        self.0.pips()
    }

    /// Every element as a dict (`id`, `army`, `kind`, `pose`, `general`, `status`, ...).
    fn elements<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_py(py, &self.0.elements())
    }

    /// The element with this id, as a dict (ArgumentError, code 104, if there is none).
    fn element<'py>(&self, py: Python<'py>, id: AnyInt) -> PyResult<Bound<'py, PyAny>> {
        let found = u32::try_from(id.0)
            .ok()
            .and_then(|i| self.0.element(dbcore::battle::ElementId(i)));
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
    /// (side = army), for the table questions. A copy: later actions do not move it.
    fn table(&self) -> Table {
        Table(self.0.table())
    }

    /// Where element `id` would stand if dropped at `pose` (a dict `{'x', 'y', 'facing'}` in BW,
    /// or JSON): the legal pose by §8.2 contact with the slide allowed, lined up with an element
    /// within `within` BW, as a dict (`id`, `pose`, `order` to send as a move, `events`,
    /// `with`). When no legal pose exists, raises the refusal's DbcoreError naming its rule.
    #[pyo3(signature = (id, pose, within=0.5))]
    fn snap<'py>(
        &self,
        py: Python<'py>,
        id: AnyInt,
        pose: &Bound<'py, PyAny>,
        within: f64,
    ) -> PyResult<Bound<'py, PyAny>> {
        let pose: dbcore::geometry::Pose = from_py(pose, "the dropped pose")?;
        if !(within.is_finite() && (0.0..=4.0).contains(&within)) {
            return Err(errors::raise(
                ErrorCode::InvalidArgument,
                None,
                "`within` is 0 to 4 BW".to_string(),
            ));
        }
        let id = element_arg(id)?;
        let snap = errors::guard(|| {
            self.0
                .snap(id, pose, within)
                .map_err(|e| errors::from_info(&e))
        })?;
        to_py(py, &snap)
    }

    /// The outlines to draw for element `id` (dbcore's `ElementOutlines` as a dict, polygons as
    /// lists of points in BW): `element`, `threat_zone` (§8.1), `shooting_zone` and `range`
    /// (§9), `command` (a general's command distance, §6.4) and `reach` (where a move could end
    /// this bound in each going, §7.3).
    fn outlines<'py>(&self, py: Python<'py>, id: AnyInt) -> PyResult<Bound<'py, PyAny>> {
        let id = element_arg(id)?;
        let o = errors::guard(|| self.0.outlines(id).map_err(|e| errors::from_info(&e)))?;
        to_py(py, &o)
    }

    /// What an outcome move of element `id` from where it stands would do (§12), changing
    /// nothing: `outcome` is `{'outcome': 'recoil'}`, `{'outcome': 'flee'}` or
    /// `{'outcome': 'pursue', 'distance': 0.5}`; the answer is the list of effects in order.
    fn outcome<'py>(
        &self,
        py: Python<'py>,
        id: AnyInt,
        outcome: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let outcome: dbcore::snap::OutcomeMove = from_py(outcome, "the outcome move")?;
        let id = element_arg(id)?;
        let effects = errors::guard(|| {
            self.0
                .outcome_preview(id, outcome)
                .map_err(|e| errors::from_info(&e))
        })?;
        to_py(py, &effects)
    }

    /// Every contact of element `id` now, as `Table.contacts` gives them (edges and corners
    /// named as in dbcore's JSON and the C layer), with this battle's rules configuration.
    fn contacts<'py>(
        &self,
        py: Python<'py>,
        id: AnyInt,
    ) -> PyResult<Bound<'py, pyo3::types::PyList>> {
        let id = element_arg(id)?;
        crate::table::contact_dicts(py, &self.0.table(), id.0, &self.0.setup().config)
    }

    /// The picture of the battle now as an SVG document (the table's picture, with this
    /// battle's rules configuration); with `threat_zones`, threat zones are shaded.
    #[pyo3(signature = (threat_zones=false))]
    fn svg(&self, threat_zones: bool) -> PyResult<String> {
        errors::guard(|| Ok(self.0.svg(threat_zones)))
    }

    /// The picture a notebook shows.
    fn _repr_svg_(&self) -> PyResult<String> {
        self.svg(false)
    }

    /// This battle's rules configuration.
    #[getter]
    fn config(&self) -> RulesConfig {
        RulesConfig(self.0.setup().config.clone())
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, (String,))> {
        Ok((
            slf.get_type().getattr("from_json")?,
            (to_json(&slf.borrow().0)?,),
        ))
    }

    fn __repr__(&self) -> PyResult<String> {
        let b = &self.0;
        let army = b
            .setup()
            .armies
            .get(b.active_army())
            .map(|a| a.name.clone())
            .unwrap_or_default();
        let in_play = b.elements().iter().filter(|e| e.in_play()).count();
        Ok(format!(
            "<Battle bound {}, army {} ({}) to move, {}, {} PIP{} left, {} of {} elements in play, \
             {} action{}>",
            b.bound(),
            b.active_army(),
            army,
            self.phase()?,
            b.pips(),
            if b.pips() == 1 { "" } else { "s" },
            in_play,
            b.elements().len(),
            b.actions().len(),
            if b.actions().len() == 1 { "" } else { "s" },
        ))
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
