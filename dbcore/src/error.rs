//! Error codes shared by every layer, and [`Error`], any error dbcore returns.
//!
//! Each error type of the crate implements [`ErrorInfo`]: a stable numeric [`ErrorCode`] grouped by
//! family, and the rules section that refuses the request where there is one. The C ABI returns
//! these numbers as its status codes and Python maps each family to an exception class, so the
//! numbers never change once published.
//!
//! The codes live in a module of their own below every other (`codes.rs`), since [`Error`] gathers
//! the errors of modules (troops, dice, combat, configuration) that must themselves name a code.

pub use crate::codes::{ErrorCode, ErrorFamily, ErrorInfo};

/// Any error dbcore returns, for callers (and bindings) that handle them all alike.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum Error {
    /// An element code that is not one (`"4Bx"`).
    #[error(transparent)]
    ElementCode(#[from] crate::troops::ParseKindError),
    /// A die score outside 1 to 6.
    #[error(transparent)]
    Dice(#[from] crate::dice::DiceError),
    /// A combat or shot the rules do not allow.
    #[error(transparent)]
    Combat(#[from] crate::combat::CombatError),
    /// A rules configuration that cannot be used.
    #[error(transparent)]
    Config(#[from] crate::config::ConfigError),
    /// JSON that could not be read as the expected type.
    #[error("invalid JSON: {0}")]
    Json(String),
}

impl ErrorInfo for Error {
    fn code(&self) -> ErrorCode {
        match self {
            Error::ElementCode(e) => e.code(),
            Error::Dice(e) => e.code(),
            Error::Combat(e) => e.code(),
            Error::Config(e) => e.code(),
            Error::Json(_) => ErrorCode::InvalidJson,
        }
    }
    fn rule(&self) -> Option<&'static str> {
        match self {
            Error::ElementCode(e) => e.rule(),
            Error::Dice(e) => e.rule(),
            Error::Combat(e) => e.rule(),
            Error::Config(e) => e.rule(),
            Error::Json(_) => None,
        }
    }
}

impl From<serde_json::Error> for Error {
    fn from(e: serde_json::Error) -> Self {
        Error::Json(e.to_string())
    }
}
