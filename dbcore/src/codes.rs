//! Error codes shared by every layer: the ground half of [`crate::error`], which every module
//! may use (the crate's [`Error`](crate::error::Error) gathers the errors of the modules above).
//!
//! Each error type of the crate implements [`ErrorInfo`]: a stable numeric [`ErrorCode`] grouped by
//! family, and the rules section that refuses the request where there is one. The C ABI returns
//! these numbers as its status codes and Python maps each family to an exception class, so the
//! numbers never change once published.

use serde::{Deserialize, Serialize};

/// Stable error numbers, grouped by family:
/// 100–199 bad arguments, 200–299 rule refusals, 300–399 dice, 400–499 set-up, 900–999 internal.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[repr(u32)]
#[serde(rename_all = "snake_case")]
pub enum ErrorCode {
    /// A required pointer was NULL (C ABI only).
    NullArgument = 100,
    /// Text was not valid UTF-8.
    InvalidUtf8 = 101,
    /// JSON could not be read as the expected type.
    InvalidJson = 102,
    /// A value is out of its allowed range.
    InvalidArgument = 103,
    /// An element id the battle or table does not have.
    UnknownElement = 104,
    /// A C handle was used by two calls at once where one must have it alone (C ABI only).
    HandleBusy = 105,
    /// An element code could not be parsed (§2.1).
    ElementCode = 110,
    /// A described combat situation breaks the rules (who may fight, shoot or defend).
    IllegalSituation = 200,
    /// The action is not possible in the battle's present phase (§6.1).
    WrongPhase = 201,
    /// Not enough PIPs left for the move (§6.3).
    NotEnoughPips = 202,
    /// A tactical move the rules forbid (§7, §8).
    IllegalMove = 203,
    /// The battle is over (§13.2).
    BattleOver = 204,
    /// A die score outside 1..=6.
    InvalidDie = 300,
    /// Set-up data breaks the rules.
    InvalidSetup = 400,
    /// A panic was caught at a language boundary; the handle involved is poisoned.
    Panic = 900,
    /// A handle was used after a panic poisoned it.
    Poisoned = 901,
    /// A failure inside dbcore that is not the caller's doing.
    Internal = 902,
}

/// The family of an error code.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum ErrorFamily {
    /// Codes 100 to 199: the call itself is wrong (bad JSON, an unknown id, a null pointer).
    Argument,
    /// Codes 200 to 299: the rules refuse the request.
    Rule,
    /// Codes 300 to 399: a die score is out of range.
    Dice,
    /// Codes 400 to 499: the set-up breaks the rules.
    Setup,
    /// Codes 900 to 999: a failure inside dbcore or at a language boundary.
    Internal,
}

impl ErrorCode {
    /// Every code, for bindings that mirror them.
    pub const ALL: [ErrorCode; 17] = [
        ErrorCode::NullArgument,
        ErrorCode::InvalidUtf8,
        ErrorCode::InvalidJson,
        ErrorCode::InvalidArgument,
        ErrorCode::UnknownElement,
        ErrorCode::HandleBusy,
        ErrorCode::ElementCode,
        ErrorCode::IllegalSituation,
        ErrorCode::WrongPhase,
        ErrorCode::NotEnoughPips,
        ErrorCode::IllegalMove,
        ErrorCode::BattleOver,
        ErrorCode::InvalidDie,
        ErrorCode::InvalidSetup,
        ErrorCode::Panic,
        ErrorCode::Poisoned,
        ErrorCode::Internal,
    ];

    /// The stable number.
    pub const fn number(self) -> u32 {
        self as u32
    }

    /// The family the code belongs to, by its hundreds.
    pub const fn family(self) -> ErrorFamily {
        match self as u32 {
            100..=199 => ErrorFamily::Argument,
            200..=299 => ErrorFamily::Rule,
            300..=399 => ErrorFamily::Dice,
            400..=499 => ErrorFamily::Setup,
            _ => ErrorFamily::Internal,
        }
    }

    /// The code with this number, if any.
    pub fn from_number(n: u32) -> Option<ErrorCode> {
        ErrorCode::ALL.iter().copied().find(|c| c.number() == n)
    }
}

/// What every dbcore error can say about itself.
pub trait ErrorInfo: std::error::Error {
    /// The stable code.
    fn code(&self) -> ErrorCode;
    /// The rules section (a heading of the rules reference, `docs/rules/`) that refuses the
    /// request, when one does.
    fn rule(&self) -> Option<&'static str>;
}
