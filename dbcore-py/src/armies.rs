//! The bundled army lists (`dbcore::armies`) for Python: the native half of `dbcore.armies`.
//! Lists, queries, choices and armies cross as plain data read from dbcore's serde JSON. Every
//! rule (and every look-up) is dbcore's; this file only translates.

use dbcore::armies::{self, ArmyChoice, ArmyError, ListId, ListQuery};
use pyo3::prelude::*;

use crate::battle::from_py;
use crate::errors;
use crate::names::to_py;

fn list_id(id: &str) -> PyResult<ListId> {
    id.parse::<ListId>().map_err(|e| errors::from_info(&e))
}

/// A refused army: `SetupError` (code 400) naming every problem, the problems also as dicts in
/// `.problems`; an unknown list is `ArgumentError`.
fn army_err(py: Python<'_>, e: &ArmyError) -> PyErr {
    let err = errors::from_info(e);
    if let ArmyError::Invalid(p) = e {
        match to_py(py, &armies::choose::problems_json(p)) {
            Ok(problems) => {
                if let Err(other) = err.value(py).setattr("problems", problems) {
                    return other;
                }
            }
            Err(other) => return other,
        }
    }
    err
}

/// The bundled lists that meet a query dict (see `dbcore.armies.find`).
#[pyfunction]
#[pyo3(signature = (query=None))]
pub fn _army_find<'py>(
    py: Python<'py>,
    query: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    errors::guard(|| {
        let q: ListQuery = match query {
            Some(q) => from_py(q, "query")?,
            None => ListQuery::default(),
        };
        to_py(py, &armies::find(&q))
    })
}

/// One bundled list by its exact id.
#[pyfunction]
pub fn _army_list<'py>(py: Python<'py>, id: &str) -> PyResult<Bound<'py, PyAny>> {
    errors::guard(|| {
        let id = list_id(id)?;
        let l = armies::list(&id).ok_or_else(|| army_err(py, &ArmyError::UnknownList(id)))?;
        to_py(py, l)
    })
}

/// Check a chosen army and make it.
#[pyfunction]
pub fn _army_choose<'py>(
    py: Python<'py>,
    choice: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    errors::guard(|| {
        let c: ArmyChoice = from_py(choice, "choice")?;
        let army = armies::choose(&c).map_err(|e| army_err(py, &e))?;
        to_py(py, &army)
    })
}

/// Every problem of a chosen army (empty when it is legal).
#[pyfunction]
pub fn _army_problems<'py>(
    py: Python<'py>,
    choice: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    errors::guard(|| {
        let c: ArmyChoice = from_py(choice, "choice")?;
        let problems = match armies::choose(&c) {
            Ok(_) => Vec::new(),
            Err(ArmyError::Invalid(p)) => p,
            Err(e) => return Err(army_err(py, &e)),
        };
        to_py(py, &armies::choose::problems_json(&problems))
    })
}

/// The default choice of a list (the first choice of every entry, no allies).
#[pyfunction]
pub fn _army_default_choice<'py>(py: Python<'py>, id: &str) -> PyResult<Bound<'py, PyAny>> {
    errors::guard(|| {
        let id = list_id(id)?;
        let l = armies::list(&id).ok_or_else(|| army_err(py, &ArmyError::UnknownList(id)))?;
        to_py(py, &armies::choose::default_choice(l))
    })
}

/// The default army of a list.
#[pyfunction]
pub fn _army_default<'py>(py: Python<'py>, id: &str) -> PyResult<Bound<'py, PyAny>> {
    errors::guard(|| {
        let id = list_id(id)?;
        let army = armies::default_army(&id).map_err(|e| army_err(py, &e))?;
        to_py(py, &army)
    })
}

/// Read a troop entry as the lists write it and print it back in dbcore's spelling.
#[pyfunction]
pub fn _army_entry(text: &str) -> PyResult<String> {
    errors::guard(|| {
        text.parse::<armies::TroopEntry>()
            .map(|e| e.to_string())
            .map_err(|e| errors::from_info(&e))
    })
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(_army_find, m)?)?;
    m.add_function(wrap_pyfunction!(_army_list, m)?)?;
    m.add_function(wrap_pyfunction!(_army_choose, m)?)?;
    m.add_function(wrap_pyfunction!(_army_problems, m)?)?;
    m.add_function(wrap_pyfunction!(_army_default_choice, m)?)?;
    m.add_function(wrap_pyfunction!(_army_default, m)?)?;
    m.add_function(wrap_pyfunction!(_army_entry, m)?)?;
    Ok(())
}
