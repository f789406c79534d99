//! The opponent (`dbcore::ai`) for Python: `dbcore.ai.choose` and `dbcore.ai.plan_bound` call
//! these. Translation only: the search and every rule are dbcore's.

use dbcore::ai::AiConfig;
use dbcore::DieScore;
use pyo3::prelude::*;

use crate::battle::Battle;
use crate::errors;
use crate::names::{to_py, AnyInt};

fn config(nodes: AnyInt, seed: AnyInt) -> PyResult<AiConfig> {
    Ok(AiConfig {
        nodes: nodes.to("nodes", "0 to 2**32-1")?,
        seed: seed.to("seed", "0 to 2**64-1")?,
    })
}

/// The opponent's next action for the moving army, as a dict the battle accepts.
#[pyfunction]
#[pyo3(signature = (battle, nodes, seed, dice=None))]
pub fn _ai_choose<'py>(
    py: Python<'py>,
    battle: &Battle,
    nodes: AnyInt,
    seed: AnyInt,
    dice: Option<(AnyInt, AnyInt)>,
) -> PyResult<Bound<'py, PyAny>> {
    let config = config(nodes, seed)?;
    let dice = match dice {
        Some((a, b)) => {
            let die = |d: AnyInt| -> PyResult<DieScore> {
                let v: i64 = d.to("a die", "1 to 6")?;
                DieScore::from_i64(v).map_err(|e| errors::from_info(&e))
            };
            Some([die(a)?, die(b)?])
        }
        None => None,
    };
    let b = battle.dba("the opponent")?.clone();
    let action = errors::guard(|| {
        py.detach(|| dbcore::ai::choose(&b, dice, &config))
            .map_err(|e| errors::from_info(&e))
    })?;
    to_py(py, &action)
}

/// The rest of the moving army's bound as the opponent would play it, as a list of dicts.
#[pyfunction]
pub fn _ai_plan_bound<'py>(
    py: Python<'py>,
    battle: &Battle,
    nodes: AnyInt,
    seed: AnyInt,
) -> PyResult<Bound<'py, PyAny>> {
    let config = config(nodes, seed)?;
    let b = battle.dba("the opponent")?.clone();
    let plan = errors::guard(|| {
        py.detach(|| dbcore::ai::plan_bound(&b, &config))
            .map_err(|e| errors::from_info(&e))
    })?;
    to_py(py, &plan)
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(_ai_choose, m)?)?;
    m.add_function(wrap_pyfunction!(_ai_plan_bound, m)?)?;
    Ok(())
}
