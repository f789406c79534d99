//! A refused DBAix action ([`DbaixError`], naming the DBAIX.md section that forbids it) and a
//! record that failed to replay.

use super::*;

/// A refused action.
#[derive(Debug, Clone, PartialEq, Serialize, thiserror::Error)]
#[serde(rename_all = "snake_case", tag = "error")]
pub enum DbaixError {
    /// The action is not one of the current phase (DBAIX.md §2).
    #[error("DBAIX.md §2: {action} is not possible in {phase}")]
    WrongPhase {
        /// The action refused.
        action: String,
        /// The phase the game is in.
        phase: Phase,
    },
    /// The game is over (DBAIX.md §10).
    #[error("DBAIX.md §10: the game is over")]
    Finished,
    /// The action names a figure that is not in the game (DBAIX.md §1).
    #[error("DBAIX.md §1: there is no figure {id}")]
    UnknownFigure {
        /// The id.
        id: FigureId,
    },
    /// The figure is not of the moving side (DBAIX.md §2).
    #[error("DBAIX.md §2: figure {id} is not of the moving side")]
    NotYourFigure {
        /// The figure.
        id: FigureId,
    },
    /// The figure is captured or out of the game (DBAIX.md §3).
    #[error("DBAIX.md §3: figure {id} is not free on the table")]
    NotOnTable {
        /// The figure.
        id: FigureId,
    },
    /// A move names no figure, or one figure twice (DBAIX.md §3).
    #[error("DBAIX.md §3: a move needs at least one figure, each named once")]
    BadFigureList,
    /// The figure has made all its moves this bound (DBAIX.md §3).
    #[error("DBAIX.md §3: figure {id} has already taken part in its moves this bound")]
    TooManyMoves {
        /// The figure.
        id: FigureId,
    },
    /// The figures moving together are not one group in edge and corner contact (DBAIX.md §3).
    #[error("DBAIX.md §3: the figures are not one group in edge and corner contact")]
    NotAGroup,
    /// The move is longer than allowed (DBAIX.md §3).
    #[error("DBAIX.md §3: a move is at most {limit} in, not {distance}")]
    TooFar {
        /// The distance asked for, inches.
        distance: f64,
        /// The most allowed, inches.
        limit: f64,
    },
    /// The figure would end off the table or on another figure (DBAIX.md §3).
    #[error("DBAIX.md §3: figure {id} would end off the table or on another figure")]
    Blocked {
        /// The figure.
        id: FigureId,
    },
    /// The figure is locked in close combat (DBAIX.md §6.1).
    #[error("DBAIX.md §6.1: figure {id} is in close combat and cannot move")]
    InCombat {
        /// The figure.
        id: FigureId,
    },
    /// While the music plays only its binders may move (DBAIX.md §4).
    #[error("DBAIX.md §4: the music plays: only the binders {binders:?} may move")]
    HandsOverEars {
        /// The figures the music binds.
        binders: Vec<FigureId>,
    },
    /// The binders' moves are compulsory: the movement cannot end while one of them can still
    /// go nearer to Cacofonix.
    #[error("DBAIX.md §4: the binders {binders:?} must go to Cacofonix before the movement ends")]
    BindersMustMove {
        /// The binders still to move.
        binders: Vec<FigureId>,
    },
    /// A binder's move must take it nearer to Cacofonix (or into contact) while it can.
    #[error("DBAIX.md §4: binder {id} must go nearer to Cacofonix")]
    BinderMustCloseIn {
        /// The binder.
        id: FigureId,
    },
    /// The move costs more PIPs than are left (DBAIX.md §3.1).
    #[error("DBAIX.md §3.1: the move costs {cost} PIPs but only {left} are left")]
    NotEnoughPips {
        /// What it costs.
        cost: u8,
        /// PIPs left.
        left: u8,
    },
    /// No Romans may come back from camp now (DBAIX.md §8.2).
    #[error("DBAIX.md §8.2: reinforcements are Romans in camp led by an officer in camp")]
    NoReinforcements,
    /// The two figures are not a close combat still to be fought (DBAIX.md §6.1).
    #[error("DBAIX.md §6.1: {a} and {b} are not in a close combat still to be fought this bound")]
    NotInCombat {
        /// The first figure named.
        a: FigureId,
        /// The second.
        b: FigureId,
    },
    /// The set-up cannot be played.
    #[error("DBAIX.md §10: the set-up is invalid: {problem}")]
    Setup {
        /// What is wrong.
        problem: String,
    },
    /// A die score out of range (1 to 6).
    #[error(transparent)]
    Dice(#[from] DiceError),
}

impl ErrorInfo for DbaixError {
    fn code(&self) -> ErrorCode {
        match self {
            DbaixError::WrongPhase { .. } => ErrorCode::WrongPhase,
            DbaixError::Finished => ErrorCode::BattleOver,
            DbaixError::UnknownFigure { .. } => ErrorCode::UnknownElement,
            DbaixError::NotEnoughPips { .. } => ErrorCode::NotEnoughPips,
            DbaixError::NotInCombat { .. } => ErrorCode::IllegalSituation,
            DbaixError::Setup { .. } => ErrorCode::InvalidSetup,
            DbaixError::Dice(_) => ErrorCode::InvalidDie,
            _ => ErrorCode::IllegalMove,
        }
    }
    fn rule(&self) -> Option<&'static str> {
        Some(match self {
            DbaixError::WrongPhase { .. } | DbaixError::NotYourFigure { .. } => "DBAIX.md §2",
            DbaixError::Finished | DbaixError::Setup { .. } => "DBAIX.md §10",
            DbaixError::UnknownFigure { .. } => "DBAIX.md §1",
            DbaixError::InCombat { .. } | DbaixError::NotInCombat { .. } => "DBAIX.md §6.1",
            DbaixError::HandsOverEars { .. }
            | DbaixError::BindersMustMove { .. }
            | DbaixError::BinderMustCloseIn { .. } => "DBAIX.md §4",
            DbaixError::NotEnoughPips { .. } => "DBAIX.md §3.1",
            DbaixError::NoReinforcements => "DBAIX.md §8.2",
            DbaixError::Dice(_) => "§0.3",
            _ => "DBAIX.md §3",
        })
    }
}

/// Replaying a record failed.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ReplayError {
    /// The record's set-up cannot be played.
    #[error("{0}")]
    Setup(DbaixError),
    /// An action of the record was refused when replayed.
    #[error("action {index} of the record was refused: {error}")]
    Action {
        /// Its position among the record's actions, from 0.
        index: usize,
        /// Why it was refused.
        error: DbaixError,
    },
}
