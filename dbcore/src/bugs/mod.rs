//! BUGS! (Two Hour Wargames, 2002): a skirmish game of soldiers and citizens against giant bugs,
//! figure by figure with the Reaction System, refereed on the same conventions as DBA. It is a
//! second game, not a DBA variant: its sections are cited as `BUGS §N` (the project's digest
//! `BUGS.md`, explained in `docs/rules/bugs/`), its readings as `reading R13`, and ours as
//! `dbcore reading B1`.
//!
//! # The lost tables are the user's
//!
//! The transcription of the booklet lost every number of the Impact and Wound Tables, the
//! weapons' ranges and target counts, the citizen's and little un's Weapon Skill and Willpower,
//! and one cell of the Being Charged check (BUGS §17). The booklet is free, so its players have
//! them: the user supplies them in a tables file ([`TablesFile`], documented in [`tables`] and
//! `docs/bugs.md`). [`Encounter::new`] refuses to start without them, naming every missing value
//! at once ([`validate_tables`]); dbcore never makes one up.
//!
//! # The surface
//!
//! - [`Encounter::new`]`(`[`BugsSetup`]`)`: a checked set-up in, an encounter out, played on to
//!   the first dice or choice awaited; its opening events are [`Encounter::opening`].
//! - [`Encounter::awaiting`] names the dice wanted ([`DiceRequest`]: how many D6, how they are
//!   read, what for); [`Encounter::decision`] names a choice ([`Decision`]). The game holds no
//!   dice of its own: every random event is a roll the caller supplies as [`Action::Roll`].
//! - [`Encounter::check`] is pure and returns the events an [`Action`] would cause;
//!   [`Encounter::apply`] commits exactly those. A refusal ([`BugsError`], with its stable
//!   [`crate::ErrorCode`] and its `BUGS §N`) changes nothing.
//! - [`Encounter::legal_actions`]: a finite list of choices, each accepted as it stands (a basis
//!   of the continuous moves, described in `choices.rs`: dbcore reading B8).
//! - [`Encounter::record`] and [`Encounter::replay`]: the set-up and every action, as the JSON
//!   record `{"format": "dbcore-bugs-record", "version": 1, "setup": …, "actions": […]}`.
//! - [`Encounter::verdict`]: the tally and, at the end, the objective's result (reading R44).
//! - [`play`]`(setup, seed)`: the demonstration player makes every choice for both sides and
//!   draws the dice from [`crate::SeededDice`]; [`narrate`] tells the events in a player's words
//!   and [`svg`] draws the table.
//!
//! ```
//! use dbcore::bugs::{self, Action, Encounter};
//!
//! // A synthetic tables file: NOT the booklet's numbers, only values to run the example.
//! let mut tables = bugs::tables_template();
//! tables.note = Some("synthetic values for tests, not the booklet's".into());
//! for col in tables.impact.values_mut() {
//!     for (row, cell) in col.iter_mut() {
//!         *cell = Some(if *row >= 11 {
//!             bugs::ImpactCell::Letter(bugs::ImpactLetter::W)
//!         } else {
//!             bugs::ImpactCell::Loss(u32::from(*row))
//!         });
//!     }
//! }
//! for w in [7u32, 9, 10] {
//!     tables.wound.insert(w, (2..=12).map(|r| (r, Some(bugs::WoundCell::Loss(1)))).collect());
//! }
//! let ranges = |e: f64| bugs::WeaponFile {
//!     effective_in: Some(e),
//!     max_in: Some(bugs::MaxRangeCell::Word(bugs::RangeWord::Unlimited)),
//!     targets: None,
//! };
//! tables.weapons.pistol = ranges(6.0);
//! tables.weapons.pistol.targets = Some(bugs::TargetsCell::Count(1));
//! tables.weapons.assault_rifle = ranges(12.0);
//! tables.weapons.assault_rifle.targets = Some(bugs::TargetsCell::Count(2));
//! tables.weapons.heavy_weapon = ranges(12.0);
//! tables.weapons.grenade = ranges(4.0);
//! tables.sheets.citizen = bugs::LostValues { ws: Some(5), will: Some(7) };
//! tables.sheets.little_un = bugs::LostValues { ws: Some(8), will: Some(7) };
//! tables.being_charged_passed_none = Some(bugs::BeingChargedNone::Runaway);
//!
//! // The escort, with the terrain rolled when it begins (BUGS §14).
//! let setup = bugs::demo_setup(1, tables).unwrap();
//! let mut e = Encounter::new(setup.clone()).unwrap();
//! let want = e.awaiting().unwrap();
//! assert_eq!(want.notation(), "2D6");
//! let six = dbcore::DieScore::new(6).unwrap();
//! let events = e.apply(Action::Roll { dice: vec![six, six] }).unwrap();
//! assert!(matches!(events[0], bugs::Event::TerrainRolled { board: bugs::BoardType::Mountainous, .. }));
//!
//! // A whole encounter from a seed: the record replays to the same events.
//! let played = bugs::play(setup, 7).unwrap();
//! let (_, again) = Encounter::replay(&played.record).unwrap();
//! assert_eq!(again, played.events);
//! assert!(played.verdict.over);
//! ```
//!
//! # Where the digest is silent
//!
//! The readings R1–R50 of the digest are taken throughout; those that change play and that the
//! digest calls switchable are [`BugsConfig`]'s (`grenade_pwr`, `melee_reaction`,
//! `row6_ws_at_most`). dbcore's own readings, each said again where it is used:
//!
//! - **B1** bases are 1 in squares, but overlap and contact are measured on the 1 in circle inside
//!   them (field.rs);
//! - **B2** the moves the engine makes for a figure are straight lines that stop short of
//!   anything in their way (motion.rs);
//! - **B3** only voluntary moves and charges set off What Now checks, not forced moves
//!   (motion.rs);
//! - **B4** duck down looks for cover on 16 bearings every half inch (motion.rs);
//! - **B5** a runaway runs straight for the nearest edge, else the next nearest it can reach,
//!   else as far as it can go (motion.rs);
//! - **B6** a charger whose target moved goes straight for it with what is left of its charge
//!   speed, or stops (motion.rs);
//! - **B7** a freeze taken in the encounter step lasts through the next turn (react.rs);
//! - **B8** the legal-action list is a basis of the continuous moves (choices.rs);
//! - **B9** a bug comes out on the hole itself, else as near it as there is room (rings of 1, 2
//!   and 3 in, from north clockwise), never touching a human (holes.rs);
//! - **B10** the counter-attack after a Carry on is always taken: it costs the defender nothing
//!   the rules name (fight.rs);
//! - **B11** a leader's join candidates exclude figures that are frozen, knocked down, running
//!   or pursuing, which could not act freely anyway (tasks.rs);
//! - **B12** a pursuer whose pursuit ends at its activation (passed check, a move of 1 in or
//!   less, or no quarry) acts freely in that activation (motion.rs);
//! - **B13** while dice are awaited the legal-action list is empty: the one input is a roll of
//!   the dice asked for (choices.rs);
//! - **B14** a figure may leave the table by any edge with a voluntary move; only citizens leaving
//!   by the escort's goal edge count as safe (choices.rs);
//! - **B15** with the Being Charged cell supplied by the user, the results it may take are those
//!   that can answer a charge: stand, carry on, duck down, runaway (tables.rs);
//! - **B16** a burst's secondary targets at the same distance from its centre go by figure
//!   number (choices.rs);
//! - **B17** an encounter with no turn limit still ends after 1000 turns (tasks.rs).

mod choices;
mod encounter;
mod events;
pub mod field;
mod fight;
pub mod hits;
pub mod holes;
mod motion;
mod narrate;
mod player;
mod react;
pub mod reaction;
mod scenarios;
mod setup;
pub mod sheets;
mod svg;
pub mod tables;
mod tasks;

use serde::{Deserialize, Serialize};

pub use encounter::{
    Action, BugHole, BugsError, BugsRecord, Decision, DiceReading, DiceRequest, Encounter, Figure,
    FigureStatus, FireReason, HoleState, Need, Pursuit, ReplayError, Roll, RECORD_FORMAT,
};
pub use events::{AttackKind, Count, DeathCause, Event, MoveKind, Outcome, Verdict};
pub use field::{Area, AreaKind, BoardType, Edge, Field};
pub use hits::{hit_table, to_hit, wound_damage, HitCondition, HitContext, HitResult, HitRow};
pub use holes::{bug_type, hole_chance, ChanceTerm, Direction};
pub use narrate::narrate;
pub use player::{play, play_with, PlayedEncounter};
pub use reaction::{
    passed, reaction_result, CheckKind, MeleeReaction, Modified, Modifier, Passed, ReactionResult,
};
pub use scenarios::demo_setup;
pub use setup::{
    BugsConfig, BugsSetup, EncounterKind, FigureSetup, HoleSetup, TableSize, SETUP_FORMAT,
};
pub use sheets::{Armour, Characteristics, Sheet, Weapon};
pub use svg::svg;
pub use tables::{
    tables_template, validate_tables, BeingChargedNone, BurstWord, Impact, ImpactCell,
    ImpactLetter, LostValues, MaxRangeCell, Problem, RangeWord, SheetValues, SheetsFile, Tables,
    TablesError, TablesFile, Targets, TargetsCell, WeaponFile, WeaponRanges, WeaponsFile, Wound,
    WoundCell, WoundLetter, TABLES_FORMAT,
};

/// The two sides (BUGS §1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "BugsSide"))]
#[serde(rename_all = "snake_case")]
pub enum Side {
    /// Soldiers and citizens.
    Humans,
    /// Big uns and little uns.
    Bugs,
}

/// A figure's number.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "BugsFigureId"))]
#[serde(transparent)]
pub struct FigureId(pub u32);

impl std::fmt::Display for FigureId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "#{}", self.0)
    }
}
