//! `DbaixBattle`: a game of the three-sided Asterix variant (`dbcore::dbaix::Battle`), beside
//! `Battle` and spoken to in the same plain data: set-ups, actions, events and records are
//! dbcore's serde JSON. Every rule is dbcore's; this file only translates.

use dbcore::dbaix::{self, Action, BattleRecord, DbaixSetup};
use pyo3::prelude::*;
use pyo3::types::PyType;

use crate::battle::from_py;
use crate::dice::Dice;
use crate::errors;
use crate::names::{name_of, to_json, to_py};

fn replay_err(e: &dbaix::ReplayError) -> PyErr {
    match e {
        dbaix::ReplayError::Setup(s) => errors::from_info(s),
        dbaix::ReplayError::Action { index, error } => errors::raise(
            dbcore::error::ErrorInfo::code(error),
            dbcore::error::ErrorInfo::rule(error),
            format!("action {index} of the record was refused: {error}"),
        ),
    }
}

/// A DBAix game in progress (DBAIX.md §2): `DbaixBattle(setup)` starts one from a set-up (a dict
/// or JSON text with `"variant": "dbaix"`), the first side of the rotation to roll. Actions and
/// events are dicts tagged by `"action"` and `"event"`, as for `Battle`; a refused action raises
/// the `DbcoreError` of its family naming its DBAix section and changes nothing.
#[pyclass(module = "dbcore", name = "DbaixBattle", eq)]
#[derive(Clone, PartialEq)]
pub struct DbaixBattle(pub dbaix::Battle);

#[pymethods]
impl DbaixBattle {
    #[new]
    fn new(setup: &Bound<'_, PyAny>) -> PyResult<Self> {
        let setup: DbaixSetup = from_py(setup, "a DBAix set-up")?;
        errors::guard(|| {
            dbaix::Battle::new(setup)
                .map(DbaixBattle)
                .map_err(|e| errors::from_info(&e))
        })
    }

    /// Replay a record: `(game, events)`.
    #[classmethod]
    fn replay<'py>(
        _cls: &Bound<'py, PyType>,
        py: Python<'py>,
        record: &Bound<'py, PyAny>,
    ) -> PyResult<(DbaixBattle, Bound<'py, PyAny>)> {
        let record: BattleRecord = from_py(record, "a DBAix record")?;
        let (b, events) =
            errors::guard(|| dbaix::Battle::replay(&record).map_err(|e| replay_err(&e)))?;
        Ok((DbaixBattle(b), to_py(py, &events)?))
    }

    /// The events `action` would cause; changes nothing.
    fn check<'py>(
        &self,
        py: Python<'py>,
        action: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let action: Action = from_py(action, "a DBAix action")?;
        let events = errors::guard(|| self.0.check(&action).map_err(|e| errors::from_info(&e)))?;
        to_py(py, &events)
    }

    /// Do `action`: its events. A refusal raises and changes nothing.
    fn apply<'py>(
        &mut self,
        py: Python<'py>,
        action: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let action: Action = from_py(action, "a DBAix action")?;
        let events = errors::guard(|| self.0.apply(action).map_err(|e| errors::from_info(&e)))?;
        to_py(py, &events)
    }

    /// Roll the moving side's PIP die with `dice`; a refused roll draws nothing.
    fn roll_pips<'py>(
        &mut self,
        py: Python<'py>,
        dice: &Bound<'py, Dice>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let mut dice = dice.try_borrow_mut()?;
        let die = dice.next_score();
        let events = errors::guard(|| {
            self.0
                .apply(Action::RollPips { die })
                .map_err(|e| errors::from_info(&e))
        })?;
        dice.draw();
        to_py(py, &events)
    }

    /// The dice the game waits for, or None.
    fn awaiting<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_py(py, &self.0.awaiting())
    }

    /// The set-up and every action so far.
    fn record<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_py(py, &self.0.record())
    }

    /// The whole state as plain data.
    fn state<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_py(py, &self.0)
    }

    /// The whole state as JSON text.
    fn to_json(&self) -> PyResult<String> {
        to_json(&self.0)
    }

    /// Every figure as a dict (`id`, `name`, `class`, `side`, `pose`, `status`, ...).
    fn figures<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_py(py, &self.0.figures())
    }

    /// The phase's name: 'awaiting_pips', 'movement', 'close_combat' or 'finished'.
    #[getter]
    fn phase(&self) -> PyResult<String> {
        let v = serde_json::to_value(self.0.phase())
            .map_err(|e| errors::internal(format!("cannot write JSON: {e}")))?;
        v.get("phase")
            .and_then(|p| p.as_str())
            .map(str::to_owned)
            .ok_or_else(|| errors::internal(format!("a phase without a name: {v}")))
    }
    /// The moving side: 'romans', 'gauls' or 'pirates'.
    #[getter]
    fn active_side(&self) -> String {
        name_of(&self.0.active_side())
    }
    /// Bounds begun so far, all three sides counted.
    #[getter]
    fn bound(&self) -> u32 {
        self.0.bound()
    }
    /// PIPs the moving side has left.
    #[getter]
    fn pips(&self) -> u8 {
        self.0.pips()
    }

    /// The table now as an SVG document, in inches, the three sides in three colours.
    fn svg(&self) -> PyResult<String> {
        errors::guard(|| Ok(dbaix::svg::table_svg(&self.0)))
    }

    fn _repr_svg_(&self) -> PyResult<String> {
        self.svg()
    }

    fn __repr__(&self) -> PyResult<String> {
        Ok(format!(
            "<DbaixBattle bound {}, the {} to move, {}, {} PIPs left, {} actions>",
            self.0.bound(),
            self.active_side(),
            self.phase()?,
            self.0.pips(),
            self.0.actions().len()
        ))
    }
}

/// Play a whole DBAix game with the demonstration driver: `{"record", "events", "bounds",
/// "winner"}`. `setup` defaults to `dbaix_demo_setup()`; dice come from `seed`.
#[pyfunction]
#[pyo3(signature = (setup=None, seed=0, max_actions=5000))]
pub fn dbaix_play<'py>(
    py: Python<'py>,
    setup: Option<&Bound<'py, PyAny>>,
    seed: u64,
    max_actions: usize,
) -> PyResult<Bound<'py, PyAny>> {
    let setup: DbaixSetup = match setup {
        Some(s) => from_py(s, "setup")?,
        None => dbaix::driver::demo_setup(),
    };
    let p = errors::guard(|| {
        dbaix::driver::play(setup, seed, max_actions).map_err(|e| errors::from_info(&e))
    })?;
    let v = serde_json::json!({
        "record": p.record,
        "events": p.events,
        "bounds": p.bounds,
        "winner": p.winner,
    });
    to_py(py, &v)
}

/// The DBAix demonstration scenario as a dict.
#[pyfunction]
pub fn dbaix_demo_setup(py: Python<'_>) -> PyResult<Bound<'_, PyAny>> {
    to_py(py, &dbaix::driver::demo_setup())
}

/// Exact odds of a DBAix combat (DBAIX.md §7): figure classes ('legionary', 'obelix', ...) and
/// each one's tactical total; `{"outcomes": [{"a", "b", "count"}]}` counted out of 36.
#[pyfunction]
pub fn dbaix_odds<'py>(
    py: Python<'py>,
    a: &str,
    a_mod: i32,
    b: &str,
    b_mod: i32,
) -> PyResult<Bound<'py, PyAny>> {
    let parse = |s: &str| -> PyResult<dbaix::FigureClass> {
        serde_json::from_value(serde_json::Value::String(s.to_owned()))
            .map_err(|e| errors::invalid_argument(format!("no figure class {s:?}: {e}")))
    };
    let (a, b) = (parse(a)?, parse(b)?);
    if !(-20..=20).contains(&a_mod) || !(-20..=20).contains(&b_mod) {
        return Err(errors::invalid_argument("tactical totals are -20 to 20"));
    }
    to_py(py, &dbaix::odds(a, a_mod, b, b_mod))
}
