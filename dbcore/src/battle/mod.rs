//! The battle: set-up, state and the typed transitions of a bound (DBA3.md §5–§13).

pub mod bound;
pub mod cache;
mod checked;
pub mod commands;
pub mod engagement;
mod fighting;
pub mod landing;
pub mod legal;
pub mod movement;
pub mod narrate;
pub mod outcome;
pub mod prebattle;
pub mod sally;
pub mod setup;
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
    MoveOrder, MovePlan,
};
pub use outcome::{
    apply_effects, conform, enter_stronghold, flee, may_pass_in_flight, may_pass_in_recoil, pursue,
    recoil, recoil_distance, turn_to_face, Effect,
};
pub use prebattle::{
    ArmyEntry, EntryElement, GameRecord, Prebattle, PrebattleAction, PrebattleError,
    PrebattleEvent, PrebattleRecord, PrebattleRequest, PrebattleSetup,
};
pub use setup::{
    edifice_camp, validate, ArmySetup, BattleSetup, ElementId, ElementSetup, SetupError,
    SetupProblem, FORMAT, FORMAT_VERSION,
};
pub use state::{ElementState, LossCause, Status};
pub use victory::{counts_as_loss, losses, verdict, LossCount, Verdict, DEFEAT_THRESHOLD};
