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
//!
//! # The modules, by layer
//!
//! The groups run from the ground up: vocabulary and geometry, the rules areas over them, the
//! battle over those, the players over the battle; the plumbing serves every layer. No module
//! imports one that imports it back: a test of the project's own
//! (`dbcore/tests/suite/module_graph.rs`) fails on an import circle, except the one its
//! allow-list names and explains (inside the battle, the movement and engagement rules with the
//! per-state memo they share). `docs/crate-map.md` in the repository says where each rule lives
//! and how an action becomes events.
//!
//! **Vocabulary and geometry**
//! - [`geometry`]: points, poses and element rectangles, in base widths.
//! - [`troops`]: element codes and what each kind is (§2).
//! - [`dice`]: dice as inputs, and seeded dice.
//! - [`config`]: every number a house rule may change.
//! - [`battlefield`], [`terrain`]: the board, its features and the going (§1, §3, §4).
//! - [`paths`], [`zones`], [`contact`]: moves and what they meet, threat zones and shooting
//!   (§7–§9), how elements touch (§8).
//! - [`svg`]: the table drawn.
//!
//! **Rules areas**
//! - [`combat`]: one close combat or shot, its factors, outcomes and exact odds (§9.6–§12).
//! - [`armies`]: the army lists (§16).
//! - [`table`]: the questions of a table tool over loose elements on a battlefield.
//! - [`dbaix`], [`bugs`]: the DBAix variant and BUGS!, a second game.
//!
//! **The battle**
//! - [`battle`]: set-up, state, and the typed transitions of a bound and of the pre-battle
//!   (§5–§13).
//! - [`outline`]: what a table tool draws around an element of a battle.
//!
//! **Players**
//! - [`driver`]: a scripted player and the demonstration game.
//! - [`ai`]: the computer opponent.
//! - [`simulate`]: batches of battles.
//!
//! **Plumbing**
//! - [`error`]: the stable error codes and [`Error`].
//! - [`limits`]: every size and range accepted from outside.
//! - [`json`]: reading JSON with the path of a fault.
//! - [`record`], [`game`]: the game record, and either game behind one type.
//! - [`surface`]: the one surface every binding translates.
//! - [`snap`]: table questions while a model is handled.

#![forbid(unsafe_code)]
#![deny(missing_docs)]
#![warn(missing_debug_implementations)]

pub mod ai;
pub mod armies;
pub mod battle;
pub mod battlefield;
mod board;
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
