//! # dbcore: a referee for DBA 3.0
//!
//! `dbcore` holds the rules of *De Bellis Antiquitatis* 3.0 as plain data and pure functions:
//! no I/O, no global state, no random number generator of its own. Dice are inputs.
//!
//! Section numbers in the documentation and in error messages (`§11.2`) are the headings of the
//! project's rules reference, `docs/rules/README.md` in the repository: one page per rules area,
//! saying what the referee does and which reading it took. DBAix sections are cited as `DBAix §6`.
//!
//! ```
//! use dbcore::{odds, Combatant, Outcome, RulesConfig, Situation};
//!
//! // Blades (+5 vs foot) against Warband (+3 vs foot): how often is each destroyed?
//! let sit = Situation::close_combat(
//!     Combatant::new("4Bd".parse().unwrap()),
//!     Combatant::new("4Wb".parse().unwrap()),
//! );
//! let o = odds(&sit, &RulesConfig::default()).unwrap();
//! assert_eq!(o.outcomes.iter().map(|e| u32::from(e.count)).sum::<u32>(), 36);
//! // Blades beaten by Warband are destroyed (§11.2): b must beat a by 1 or 2.
//! assert_eq!(o.a_count(Outcome::Destroyed), 6);
//! ```

#![forbid(unsafe_code)]
#![deny(missing_docs)]
#![warn(missing_debug_implementations)]

pub mod ai;
pub mod armies;
pub mod battle;
pub mod battlefield;
pub mod bugs;
mod codes;
pub mod combat;
pub mod config;
pub mod contact;
pub mod dbaix;
pub mod dice;
pub mod driver;
pub mod error;
mod few;
pub mod game;
pub mod geometry;
pub mod json;
pub mod limits;
pub mod outline;
pub mod paths;
pub mod record;
#[cfg(feature = "schema")]
mod schema;
pub mod simulate;
mod sizes;
pub mod snap;
pub mod surface;
pub mod svg;
pub mod table;
mod tagged;
pub mod terrain;
pub mod troops;
pub mod zones;

pub use combat::{
    odds, resolve, Band, CombatError, CombatResult, Combatant, Engagement, Factor, FactorName,
    Factors, Going, Holding, Odds, Outcome, Prepared, Pursuit, Shot, Side, Situation, Stronghold,
};
pub use config::RulesConfig;
pub use dice::{roll, DiceError, DieScore, SeededDice};
pub use error::{Error, ErrorCode, ErrorFamily, ErrorInfo};
pub use troops::{
    BaseKind, Class, ElementKind, FootClass, KindInfo, ParseKindError, PursuitRule, TroopType,
};

/// The crate version, as the C and Python layers report it.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// The Rust snippets of the repository's README, compiled and run as doctests so that they keep
/// working as the API changes.
#[cfg(doctest)]
#[doc = include_str!("../../README.md")]
pub struct ReadmeDoctests;
