//! The Python module `dbcore` (native part `dbcore._dbcore`), built with pyo3 and maturin.
//!
//! This crate translates and holds no rules: every question about the game is answered by the
//! `dbcore` crate. Enum values cross as dbcore's serde names (`"no_effect"`, `"rough"`), errors
//! as one exception per family of `dbcore::ErrorCode`, and every class pickles and copies through
//! dbcore's serde JSON. The Python-facing documentation is in the docstrings and in
//! `python/dbcore/_dbcore.pyi`.

use pyo3::prelude::*;

mod ai;
mod armies;
mod battle;
mod combat;
mod dbaix;
mod dice;
mod errors;
mod kinds;
mod logs;
mod names;
mod packed;
mod prebattle;
mod simulate;
mod table;
mod topy;

/// The crate version, as `dbcore.__version__` reports it.
#[pyfunction]
fn version() -> &'static str {
    dbcore::VERSION
}

/// dbcore: a referee for DBA 3.0. Import it as `dbcore`; this native part is `dbcore._dbcore`.
#[pymodule]
fn _dbcore(m: &Bound<'_, PyModule>) -> PyResult<()> {
    errors::register(m)?;
    armies::register(m)?;
    ai::register(m)?;
    m.add_class::<kinds::ElementKind>()?;
    m.add_class::<kinds::RulesConfig>()?;
    m.add_class::<combat::Combatant>()?;
    m.add_class::<combat::Situation>()?;
    m.add_class::<combat::Factor>()?;
    m.add_class::<combat::SideResult>()?;
    m.add_class::<combat::Pursuit>()?;
    m.add_class::<combat::CombatResult>()?;
    m.add_class::<combat::Margins>()?;
    m.add_class::<combat::Odds>()?;
    m.add_class::<dice::Dice>()?;
    m.add_class::<table::PlacedElement>()?;
    m.add_class::<table::Table>()?;
    m.add_class::<battle::Battle>()?;
    m.add_function(wrap_pyfunction!(dbaix::dbaix_play, m)?)?;
    m.add_function(wrap_pyfunction!(dbaix::dbaix_demo_setup, m)?)?;
    m.add_function(wrap_pyfunction!(dbaix::dbaix_odds, m)?)?;
    m.add_function(wrap_pyfunction!(combat::resolve, m)?)?;
    m.add_function(wrap_pyfunction!(combat::odds, m)?)?;
    m.add_function(wrap_pyfunction!(combat::resolve_many, m)?)?;
    m.add_function(wrap_pyfunction!(combat::odds_many, m)?)?;
    packed::register(m)?;
    m.add_function(wrap_pyfunction!(battle::play, m)?)?;
    m.add_function(wrap_pyfunction!(battle::demo_setup, m)?)?;
    m.add_function(wrap_pyfunction!(battle::narrate, m)?)?;
    m.add_function(wrap_pyfunction!(battle::call, m)?)?;
    m.add_function(wrap_pyfunction!(prebattle::play_game, m)?)?;
    m.add_function(wrap_pyfunction!(prebattle::play_lists, m)?)?;
    m.add_function(wrap_pyfunction!(prebattle::replay_game, m)?)?;
    m.add_function(wrap_pyfunction!(prebattle::prebattle_step, m)?)?;
    m.add_function(wrap_pyfunction!(prebattle::demo_armies, m)?)?;
    m.add_function(wrap_pyfunction!(simulate::_simulate, m)?)?;
    m.add_function(wrap_pyfunction!(simulate::_simulation_summary, m)?)?;
    m.add_function(wrap_pyfunction!(simulate::_simulation_tally, m)?)?;
    m.add_function(wrap_pyfunction!(simulate::battle_seed, m)?)?;
    m.add_function(wrap_pyfunction!(logs::enable_logging, m)?)?;
    m.add_function(wrap_pyfunction!(logs::disable_logging, m)?)?;
    m.add_function(wrap_pyfunction!(version, m)?)?;
    m.add_function(wrap_pyfunction!(_factor_names, m)?)?;
    m.add("__version__", dbcore::VERSION)?;
    m.add("OUTCOMES", outcome_names())?;
    Ok(())
}

/// Every factor name dbcore counts, in its order (`FactorName::ALL`), so the tests can check the
/// `FactorName` literal alias against it.
#[pyfunction]
fn _factor_names() -> Vec<String> {
    dbcore::FactorName::ALL.iter().map(names::name_of).collect()
}

/// The outcome names from least to most severe.
fn outcome_names() -> Vec<String> {
    dbcore::Outcome::ALL.iter().map(names::name_of).collect()
}
