//! The three-sided Asterix variant's own entry points: its demonstration driver, its scenario
//! and the exact odds of one of its combats. A DBAix game itself is a `dbcore.Battle` (one
//! class for every variant, `crate::battle`). Every rule is dbcore's; this file only
//! translates.

use dbcore::dbaix::{self, DbaixSetup};
use pyo3::prelude::*;

use crate::battle::from_py;
use crate::errors;
use crate::names::{to_py, AnyInt};

/// Play a whole DBAix game with the demonstration driver: `{"record", "events", "bounds",
/// "winner"}`. `setup` defaults to `dbaix_demo_setup()`; dice come from `seed`.
#[pyfunction]
#[pyo3(
    signature = (setup=None, seed=AnyInt(0), max_actions=AnyInt(5000)),
    text_signature = "(setup=None, seed=0, max_actions=5000)"
)]
pub fn dbaix_play<'py>(
    py: Python<'py>,
    setup: Option<&Bound<'py, PyAny>>,
    seed: AnyInt,
    max_actions: AnyInt,
) -> PyResult<Bound<'py, PyAny>> {
    let seed: u64 = seed.to("seed", "0 to 2**64-1")?;
    let max_actions: usize = max_actions.to("max_actions", "0 to 2**64-1")?;
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
    a_mod: AnyInt,
    b: &str,
    b_mod: AnyInt,
) -> PyResult<Bound<'py, PyAny>> {
    let a_mod: i32 = a_mod.to("a_mod", "-20 to 20")?;
    let b_mod: i32 = b_mod.to("b_mod", "-20 to 20")?;
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
