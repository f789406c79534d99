//! The pre-battle and whole games (`dbcore::battle::prebattle`, `dbcore::driver::play_game`) for
//! Python, as plain data (dicts and lists) in dbcore's serde JSON. Translation only.

use pyo3::prelude::*;

use dbcore::battle::prebattle::{Prebattle, PrebattleAction, PrebattleRecord, PrebattleSetup};

use crate::battle::from_py;
use crate::errors;
use crate::names::{to_py, AnyInt};

/// Play a whole game with dbcore's demonstration driver: the pre-battle (aggression, terrain,
/// base edges, camps, deployment) and the battle, dice and choices from `seed`. `armies` is a
/// pre-battle set-up (`{"variant": "standard", "armies": [...]}`) and defaults to
/// `demo_armies()`. Returns `{"record": {"prebattle": ..., "battle": [...]}, "prebattle_events":
/// [...], "setup": ..., "events": [...], "bounds": n, "verdict": ... or None}`.
#[pyfunction]
#[pyo3(
    signature = (armies=None, seed=AnyInt(0), max_bounds=AnyInt(40)),
    text_signature = "(armies=None, seed=0, max_bounds=40)"
)]
pub fn play_game<'py>(
    py: Python<'py>,
    armies: Option<&Bound<'py, PyAny>>,
    seed: AnyInt,
    max_bounds: AnyInt,
) -> PyResult<Bound<'py, PyAny>> {
    let seed: u64 = seed.to("seed", "0 to 2**64-1")?;
    let max_bounds: u32 = max_bounds.to("max_bounds", "0 to 1000")?;
    let setup: PrebattleSetup = match armies {
        Some(s) => from_py(s, "armies")?,
        None => dbcore::driver::demo_armies(),
    };
    let game = errors::guard(|| {
        dbcore::driver::play_game(setup, seed, max_bounds).map_err(|e| errors::from_info(&e))
    })?;
    to_py(py, &game)
}

/// As `play_game`, between the default armies of two bundled lists named by id (`"II/56"`).
#[pyfunction]
#[pyo3(
    signature = (first, second, seed=AnyInt(0), max_bounds=AnyInt(40)),
    text_signature = "(first, second, seed=0, max_bounds=40)"
)]
pub fn play_lists<'py>(
    py: Python<'py>,
    first: &str,
    second: &str,
    seed: AnyInt,
    max_bounds: AnyInt,
) -> PyResult<Bound<'py, PyAny>> {
    let seed: u64 = seed.to("seed", "0 to 2**64-1")?;
    let max_bounds: u32 = max_bounds.to("max_bounds", "0 to 1000")?;
    let game = errors::guard(|| {
        dbcore::driver::play_lists(first, second, seed, max_bounds)
            .map_err(|e| errors::from_info(&e))
    })?;
    to_py(py, &game)
}

/// Replay a game record (`play_game(...)["record"]`, `Battle.record()`, what `dbcore play
/// --json` writes, or an earlier spelling): `{"prebattle_events": [...], "setup": ...,
/// "events": [...]}`.
#[pyfunction]
pub fn replay_game<'py>(
    py: Python<'py>,
    record: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    let v = crate::names::to_value(record, "a game record")?;
    let file = dbcore::record::GameFile::from_value(v).map_err(|e| errors::from_info(&e))?;
    let r = errors::guard(|| file.replay().map_err(|e| errors::from_info(&e)))?;
    match r {
        dbcore::record::Replayed::Battle {
            prebattle_events,
            battle: dbcore::game::AnyBattle::Dba(b),
            events,
            ..
        } => to_py(
            py,
            &serde_json::json!({
                "prebattle_events": prebattle_events,
                "setup": b.setup(),
                "events": events,
            }),
        ),
        _ => Err(errors::invalid_argument(
            "replay_game takes a DBA game that reaches its battle (Battle.load plays any record)",
        )),
    }
}

/// One pre-battle step: replay `record` (`{"setup": ..., "actions": [...]}`; no actions starts
/// a new pre-battle), then check `action` and, with `apply=True`, apply it. Returns
/// `{"record": ..., "events": [...], "awaiting": ... or None, "setup": ... or None}`. With
/// `action=None` it only reports where the record stands. A refusal raises the `DbcoreError`
/// naming its rule.
#[pyfunction]
#[pyo3(signature = (record, action=None, apply=true))]
pub fn prebattle_step<'py>(
    py: Python<'py>,
    record: &Bound<'py, PyAny>,
    action: Option<&Bound<'py, PyAny>>,
    apply: bool,
) -> PyResult<Bound<'py, PyAny>> {
    let record: PrebattleRecord = from_py(record, "a pre-battle record")?;
    let action: Option<PrebattleAction> = match action {
        Some(a) => Some(from_py(a, "a pre-battle action")?),
        None => None,
    };
    let (pre, events) = errors::guard(|| {
        let (mut pre, _) = Prebattle::replay(&record).map_err(|e| errors::from_info(&e))?;
        let events = match action {
            None => Vec::new(),
            Some(a) if apply => pre.apply(a).map_err(|e| errors::from_info(&e))?,
            Some(a) => pre.check(&a).map_err(|e| errors::from_info(&e))?,
        };
        Ok((pre, events))
    })?;
    to_py(
        py,
        &serde_json::json!({
            "record": pre.record(),
            "events": events,
            "awaiting": pre.awaiting(),
            "setup": pre.battle_setup(),
        }),
    )
}

/// The demonstration armies before the battle (Romans and Ancient Britons, no positions).
#[pyfunction]
pub fn demo_armies(py: Python<'_>) -> PyResult<Bound<'_, PyAny>> {
    to_py(py, &dbcore::driver::demo_armies())
}
