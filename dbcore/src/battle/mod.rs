//! The battle: set-up, state and the typed transitions of a bound (DBA3.md §5–§8).

pub mod bound;
pub mod movement;
pub mod setup;
pub mod state;
pub mod victory;
mod view;

pub use bound::{
    order_ids, Action, Battle, BattleError, BattleRecord, DiceRequest, Event, Phase, PipCost,
    PipExtra, ReplayError,
};
pub use movement::{
    ContactWanted, ElementMove, Flank, GroupStep, HeldStronghold, MoveContext, MoveError,
    MoveOrder, MovePlan,
};
pub use setup::{
    validate, ArmySetup, BattleSetup, ElementId, ElementSetup, SetupError, SetupProblem, FORMAT,
    FORMAT_VERSION,
};
pub use state::{ElementState, LossCause, Status};
pub use victory::{counts_as_loss, losses, verdict, LossCount, Verdict, DEFEAT_THRESHOLD};
