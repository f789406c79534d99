//! The battle: set-up, state and the typed transitions of a bound (DBA3.md §5–§13).
//!
//! A [`Battle`] starts from a [`BattleSetup`] (or, through [`prebattle`], from two armies) and
//! moves on only by [`Action`]s: [`Battle::check`] says what an action would do as [`Event`]s
//! and changes nothing, [`Battle::apply`] commits exactly those events, and a refusal is a
//! [`BattleError`] naming its rule. [`Battle::awaiting`] says which dice are wanted,
//! [`Battle::legal`] what the side to move may do, and [`Battle::record`] saves the set-up and
//! every action for [`Battle::replay`]. [`narrate`] tells events in a player's words.
//!
//! ```
//! use dbcore::battle::{narrate::narrate, Action, Battle, Event, Phase};
//! use dbcore::DieScore;
//!
//! // A whole bound of the demonstration battle: the Romans roll, then end their moves at once.
//! let mut battle = Battle::new(dbcore::driver::demo_setup()).unwrap();
//! let mut events = battle.apply(Action::RollPips { die: DieScore::new(3).unwrap() }).unwrap();
//! assert_eq!(battle.phase(), Phase::Movement);
//! events.extend(battle.apply(Action::EndMovement).unwrap());
//! assert!(events.iter().any(|e| matches!(e, Event::BoundEnded { unused_pips: 3, .. })));
//! // The Britons' bound has begun, awaiting their PIP die.
//! assert_eq!((battle.active_army(), battle.phase()), (1, Phase::AwaitingPips));
//! for line in narrate(battle.setup(), &events) {
//!     println!("{line}");
//! }
//! ```
//!
//! # Import circle
//!
//! The battle's files stand in layers:
//! - Its vocabulary and set-up ([`setup`], with the validated set-up; [`state`], with the
//!   commands' state, the outcome effects and the state's identity; [`victory`]; the grid of
//!   where elements stand), which import nothing above them.
//! - The rules that read a state through a context: [`movement`], [`engagement`] and the
//!   per-state memo [`cache`] import each other, the one import circle left in the battle
//!   ([`cache`]'s module doc says why); [`outcome`] stands on movement.
//! - The bound ([`bound`]): the [`Battle`] type, its actions, events and errors, and
//!   [`Battle::check`] and the commit. It imports the rules below it and nothing above.
//! - The files that add [`Battle`] its methods phase by phase (commands, the sally, the
//!   landing, [`Battle::legal`], checked actions, saved states, the action sizes) and the
//!   narration stand above the bound: the bound calls their methods but does not import them.
//!
//! The module graph test (`dbcore/tests/suite/module_graph.rs`) allows only that circle inside
//! `battle`; the pre-battle, the queries and [`crate::armies`] stand above it, and this file
//! only re-exports (issue #48). It is the only import circle in the crate.

pub mod bound;
pub mod cache;
pub mod camps;
mod checked;
pub mod commands;
pub mod engagement;
mod fighting;
mod grid;
pub mod landing;
pub mod legal;
pub mod legal_actions;
pub(crate) mod limits;
pub mod movement;
pub mod narrate;
pub mod notation;
pub mod outcome;
pub mod prebattle;
pub mod queries;
pub mod sally;
pub mod saved;
pub mod setup;
mod situation;
pub mod state;
pub mod victory;
mod view;

pub use bound::{
    order_ids, Action, Battle, BattleError, BattleRecord, DiceRequest, Event, Phase, PipCost,
    PipExtra, ReplayError,
};
pub use cache::CloseCombatFlags;
pub use checked::{CheckedAction, ValidatedSetup};
pub use commands::{CommandId, CommandLosses, CommandSetup, CommandState, PipAllocation};
pub use engagement::{
    close_combat_situation, close_combats, shooters, shooting_targets, shot_situation,
    CloseCombatPair, CombatContact, EngagementError, Obstruction, ShotTarget, TargetPriority,
};
pub use legal::{Legal, LegalMove, LegalShot};
pub use movement::{in_close_combat, must_conform, plan_move};
pub use movement::{
    ContactWanted, ElementMove, Flank, GroupStep, HeldStronghold, MoveContext, MoveError,
    MoveOrder, MovePlan, Refusals,
};
pub use outcome::{
    apply_effects, conform, enter_stronghold, flee, flee_to_base_edge, may_pass_in_flight,
    may_pass_in_recoil, pursue, recoil, recoil_distance, turn_to_face, Effect,
};
pub use prebattle::{
    ArmyEntry, EntryElement, GameRecord, Prebattle, PrebattleAction, PrebattleError,
    PrebattleEvent, PrebattleRecord, PrebattleRequest, PrebattleSetup,
};
pub use queries::{FarthestStep, LegalContact};
pub use saved::StateError;
pub use setup::{
    edifice_camp, validate, ArmySetup, BattleSetup, ElementId, ElementSetup, SetupError,
    SetupProblem, FORMAT, FORMAT_VERSION,
};
pub use state::{ElementState, LossCause, Status};
pub use victory::{counts_as_loss, losses, verdict, LossCount, Verdict, DEFEAT_THRESHOLD};
