//! One entry point for every variant the project plays: a set-up's variant tag chooses the
//! battle, and the closed [`AnyBattle`] enum dispatches check, apply, record, replay and
//! `awaiting` by `match`. DBA 3.0 battles are [`crate::battle::Battle`]; the three-sided Asterix
//! variant is [`crate::dbaix::Battle`] (DBAIX.md §0).
//!
//! Actions and events of the two games have the same JSON shape (`{"action": "roll_pips", ...}`),
//! so JSON is read by the battle it is meant for ([`AnyBattle::action_from_json`]), never guessed
//! from the text.

use serde::Serialize;

use crate::battle::{self, Battle};
use crate::battlefield::Variant;
use crate::dbaix;
use crate::error::{ErrorCode, ErrorInfo};
use crate::json;

/// A set-up of any variant.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum AnySetup {
    /// A DBA 3.0, Big Battle or Giant set-up.
    Dba(Box<battle::BattleSetup>),
    /// A DBAix set-up.
    Dbaix(dbaix::DbaixSetup),
}

/// An action for a battle of either game.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum AnyAction {
    /// An action of a DBA 3.0 battle.
    Dba(battle::Action),
    /// An action of a DBAix game.
    Dbaix(dbaix::Action),
}

/// An event of either game.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum AnyEvent {
    /// An event of a DBA 3.0 battle.
    Dba(battle::Event),
    /// An event of a DBAix game.
    Dbaix(dbaix::Event),
}

/// The dice a battle of either game waits for.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum AnyDiceRequest {
    /// The dice a DBA 3.0 battle waits for.
    Dba(battle::DiceRequest),
    /// The dice a DBAix game waits for.
    Dbaix(dbaix::DiceRequest),
}

/// A saved battle of either game.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum AnyRecord {
    /// A saved DBA 3.0 battle.
    Dba(battle::BattleRecord),
    /// A saved DBAix game.
    Dbaix(dbaix::BattleRecord),
}

/// A refusal or a bad input, for a battle of either game ([`AnyBattle`]).
///
/// Not [`crate::driver::DriveError`], which says why the demonstration driver could not play a
/// whole game from army lists (its pre-battle, set-up or lists); this one is per action or input
/// and wraps each game's own errors. Neither is serialised; both give their stable codes through
/// [`ErrorInfo`].
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum GameError {
    /// JSON that could not be read as the expected type; the message gives the path of the field at
    /// fault.
    #[error("{0}")]
    Json(String),
    /// A die score outside 1 to 6 in the JSON (§0.3): the dice family, as everywhere else.
    #[error("{0}")]
    Dice(crate::DiceError),
    /// An action of one game was given to a battle of the other.
    #[error("a {action} action was given to a {battle} battle")]
    WrongGame {
        /// The game the action is for ("DBA", "DBAix").
        action: &'static str,
        /// The game of the battle.
        battle: &'static str,
    },
    /// A DBA 3.0 battle refused the action.
    #[error("{0}")]
    Dba(battle::BattleError),
    /// A DBA 3.0 set-up is not valid.
    #[error("{0}")]
    DbaSetup(battle::SetupError),
    /// A saved DBA 3.0 battle did not replay.
    #[error("{0}")]
    DbaReplay(battle::ReplayError),
    /// A DBAix game refused the action.
    #[error("{0}")]
    Dbaix(dbaix::DbaixError),
    /// A saved DBAix game did not replay.
    #[error("{0}")]
    DbaixReplay(dbaix::ReplayError),
    /// A saved battle state could not be read back (see [`crate::battle::saved`]).
    #[error("{0}")]
    State(battle::StateError),
}

impl ErrorInfo for GameError {
    fn code(&self) -> ErrorCode {
        match self {
            GameError::Json(_) => ErrorCode::InvalidJson,
            GameError::Dice(e) => e.code(),
            GameError::WrongGame { .. } => ErrorCode::InvalidArgument,
            GameError::Dba(e) => e.code(),
            GameError::DbaSetup(e) => e.code(),
            GameError::DbaReplay(e) => e.code(),
            GameError::Dbaix(e) => e.code(),
            GameError::DbaixReplay(dbaix::ReplayError::Setup(e))
            | GameError::DbaixReplay(dbaix::ReplayError::Action { error: e, .. }) => e.code(),
            GameError::State(e) => e.code(),
        }
    }
    fn rule(&self) -> Option<&'static str> {
        match self {
            GameError::Json(_) | GameError::WrongGame { .. } => None,
            GameError::Dice(e) => e.rule(),
            GameError::Dba(e) => e.rule(),
            GameError::DbaSetup(e) => e.rule(),
            GameError::DbaReplay(e) => e.rule(),
            GameError::Dbaix(e) => e.rule(),
            GameError::DbaixReplay(dbaix::ReplayError::Setup(e))
            | GameError::DbaixReplay(dbaix::ReplayError::Action { error: e, .. }) => e.rule(),
            GameError::State(e) => e.rule(),
        }
    }
}

fn json_err(e: crate::Error) -> GameError {
    match e {
        crate::Error::Dice(d) => GameError::Dice(d),
        other => GameError::Json(other.to_string()),
    }
}

/// A state that could not be read: a die out of range in it stays a dice fault.
fn state_err(e: battle::StateError) -> GameError {
    match e {
        battle::StateError::Json(m) => GameError::Json(m),
        battle::StateError::Dice(d) => GameError::Dice(d),
        other => GameError::State(other),
    }
}

impl AnySetup {
    /// Read a set-up, choosing the game by its `variant` tag (`"dbaix"` for DBAix, any other
    /// for DBA 3.0).
    pub fn from_json(text: &str) -> Result<AnySetup, GameError> {
        let v: serde_json::Value = json::from_str(text).map_err(json_err)?;
        let dbaix = v.get("variant").and_then(|t| t.as_str()) == Some("dbaix");
        Ok(if dbaix {
            AnySetup::Dbaix(json::from_value(v).map_err(json_err)?)
        } else {
            AnySetup::Dba(Box::new(json::from_value(v).map_err(json_err)?))
        })
    }
    /// Which game the set-up is for.
    pub fn variant(&self) -> Variant {
        match self {
            AnySetup::Dba(s) => s.variant,
            AnySetup::Dbaix(_) => Variant::Dbaix,
        }
    }
}

impl AnyRecord {
    /// Read a record, choosing the game by its set-up's `variant` tag.
    pub fn from_json(text: &str) -> Result<AnyRecord, GameError> {
        let v: serde_json::Value = json::from_str(text).map_err(json_err)?;
        let dbaix = v
            .get("setup")
            .and_then(|s| s.get("variant"))
            .and_then(|t| t.as_str())
            == Some("dbaix");
        Ok(if dbaix {
            AnyRecord::Dbaix(json::from_value(v).map_err(json_err)?)
        } else {
            AnyRecord::Dba(json::from_value(v).map_err(json_err)?)
        })
    }
}

/// A battle of either game.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum AnyBattle {
    /// A DBA 3.0, Big Battle or Giant battle.
    Dba(Box<Battle>),
    /// A DBAix game.
    Dbaix(Box<dbaix::Battle>),
}

impl AnyBattle {
    /// Start a battle of the set-up's game.
    pub fn new(setup: AnySetup) -> Result<AnyBattle, GameError> {
        match setup {
            AnySetup::Dba(s) => Battle::new(*s)
                .map(|b| AnyBattle::Dba(Box::new(b)))
                .map_err(GameError::DbaSetup),
            AnySetup::Dbaix(s) => dbaix::Battle::new(s)
                .map(|b| AnyBattle::Dbaix(Box::new(b)))
                .map_err(GameError::Dbaix),
        }
    }

    /// Replay a record of either game, with every event in order.
    pub fn replay(record: &AnyRecord) -> Result<(AnyBattle, Vec<AnyEvent>), GameError> {
        match record {
            AnyRecord::Dba(r) => {
                let (b, e) = Battle::replay(r).map_err(GameError::DbaReplay)?;
                Ok((
                    AnyBattle::Dba(Box::new(b)),
                    e.into_iter().map(AnyEvent::Dba).collect(),
                ))
            }
            AnyRecord::Dbaix(r) => {
                let (b, e) = dbaix::Battle::replay(r).map_err(GameError::DbaixReplay)?;
                Ok((
                    AnyBattle::Dbaix(Box::new(b)),
                    e.into_iter().map(AnyEvent::Dbaix).collect(),
                ))
            }
        }
    }

    /// The battle's state as JSON: a DBA battle's compact state with its digest
    /// ([`Battle::state_json`]); a DBAix game's full state (set-up, figures, actions), which has
    /// no compact spelling yet.
    pub fn state_json(&self) -> String {
        match self {
            AnyBattle::Dba(b) => b.state_json(),
            AnyBattle::Dbaix(b) => {
                serde_json::to_string(b).expect("a DBAix game state always serialises")
            }
        }
    }

    /// A battle from its state JSON, of either game by its set-up's variant (see
    /// [`AnyBattle::from_state_value`]).
    pub fn from_state_json(text: &str) -> Result<AnyBattle, GameError> {
        // The compact DBA state is read straight from the text, without building a value.
        if text
            .trim_start()
            .starts_with("{\"format\":\"dbcore-state\"")
        {
            return Battle::from_state_json(text)
                .map(|b| AnyBattle::Dba(Box::new(b)))
                .map_err(state_err);
        }
        AnyBattle::from_state_value(json::from_str(text).map_err(json_err)?)
    }

    /// A battle from its state as parsed JSON: a DBA state in either spelling
    /// ([`Battle::from_state_value`]: a compact state checked by its digest, a full one by
    /// replay), or a DBAix game's state (its set-up's `"format"` is `"dbcore-dbaix"`), accepted
    /// only when replaying its own record gives exactly that state.
    pub fn from_state_value(value: serde_json::Value) -> Result<AnyBattle, GameError> {
        let dbaix = value.pointer("/setup/format").and_then(|f| f.as_str()) == Some(dbaix::FORMAT);
        if !dbaix {
            return Battle::from_state_value(value)
                .map(|b| AnyBattle::Dba(Box::new(b)))
                .map_err(state_err);
        }
        let claimed: dbaix::Battle = json::from_value(value.clone()).map_err(json_err)?;
        let (replayed, _) =
            dbaix::Battle::replay(&claimed.record()).map_err(GameError::DbaixReplay)?;
        let again = serde_json::to_value(&replayed).map_err(|e| GameError::Json(e.to_string()))?;
        if again != value {
            return Err(GameError::State(battle::StateError::NotItsRecord));
        }
        Ok(AnyBattle::Dbaix(Box::new(replayed)))
    }

    /// Which game the battle is.
    pub fn variant(&self) -> Variant {
        match self {
            AnyBattle::Dba(b) => b.setup().variant,
            AnyBattle::Dbaix(_) => Variant::Dbaix,
        }
    }

    /// Read an action meant for this battle's game.
    pub fn action_from_json(&self, text: &str) -> Result<AnyAction, GameError> {
        match self {
            AnyBattle::Dba(_) => json::from_str(text).map(AnyAction::Dba).map_err(json_err),
            AnyBattle::Dbaix(_) => json::from_str(text).map(AnyAction::Dbaix).map_err(json_err),
        }
    }

    /// The events the action would cause, changing nothing.
    pub fn check(&self, action: &AnyAction) -> Result<Vec<AnyEvent>, GameError> {
        match (self, action) {
            (AnyBattle::Dba(b), AnyAction::Dba(a)) => b
                .check(a)
                .map(|e| e.into_iter().map(AnyEvent::Dba).collect())
                .map_err(GameError::Dba),
            (AnyBattle::Dbaix(b), AnyAction::Dbaix(a)) => b
                .check(a)
                .map(|e| e.into_iter().map(AnyEvent::Dbaix).collect())
                .map_err(GameError::Dbaix),
            (b, a) => Err(mismatch(b, a)),
        }
    }

    /// Apply the action: its events, or a refusal leaving the battle as it was.
    pub fn apply(&mut self, action: AnyAction) -> Result<Vec<AnyEvent>, GameError> {
        match (&mut *self, action) {
            (AnyBattle::Dba(b), AnyAction::Dba(a)) => b
                .apply(a)
                .map(|e| e.into_iter().map(AnyEvent::Dba).collect())
                .map_err(GameError::Dba),
            (AnyBattle::Dbaix(b), AnyAction::Dbaix(a)) => b
                .apply(a)
                .map(|e| e.into_iter().map(AnyEvent::Dbaix).collect())
                .map_err(GameError::Dbaix),
            (b, a) => Err(mismatch(b, &a)),
        }
    }

    /// The set-up and every action so far: replays to this battle.
    pub fn record(&self) -> AnyRecord {
        match self {
            AnyBattle::Dba(b) => AnyRecord::Dba(b.record()),
            AnyBattle::Dbaix(b) => AnyRecord::Dbaix(b.record()),
        }
    }

    /// The dice the battle waits for, if any.
    pub fn awaiting(&self) -> Option<AnyDiceRequest> {
        match self {
            AnyBattle::Dba(b) => b.awaiting().map(AnyDiceRequest::Dba),
            AnyBattle::Dbaix(b) => b.awaiting().map(AnyDiceRequest::Dbaix),
        }
    }

    /// Whether the battle is over.
    pub fn finished(&self) -> bool {
        match self {
            AnyBattle::Dba(b) => matches!(b.phase(), battle::Phase::Finished { .. }),
            AnyBattle::Dbaix(b) => matches!(b.phase(), dbaix::Phase::Finished { .. }),
        }
    }
}

fn mismatch(b: &AnyBattle, a: &AnyAction) -> GameError {
    let name = |dbaix: bool| if dbaix { "DBAix" } else { "DBA" };
    GameError::WrongGame {
        action: name(matches!(a, AnyAction::Dbaix(_))),
        battle: name(matches!(b, AnyBattle::Dbaix(_))),
    }
}
