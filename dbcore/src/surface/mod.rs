//! One surface for every binding: each capability of the referee as one named method over
//! JSON-able values, so that C, Python, the JSON-RPC protocol and WebAssembly reach it the same
//! way and a new capability costs each of them nothing but its documentation.
//!
//! * A [`Session`] is one game in progress of any kind the project plays (a DBA 3.0, Big Battle
//!   or Giant battle, its pre-battle, or a DBAix game), with its history (for `undo`), a dice
//!   tray (for dice nobody typed) and every event so far. [`Session::new`] starts one;
//!   [`Session::call`] answers a method by name ([`SESSION_METHODS`]).
//! * [`call`] answers the methods that need no game ([`METHODS`]): army lists, game records,
//!   pictures, odds.
//!
//! Parameters and results are [`serde_json::Value`]s spelled as the rest of dbcore's JSON
//! (`docs/json.md`); unknown parameters are refused with their name. Every failure is a
//! [`SurfaceError`]: the stable code of its family, the rules section that refuses when there is
//! one, and a message. No method decides a rule: each asks the battle, the pre-battle or the army
//! lists, so a binding that only translates values cannot disagree with the referee.
//!
//! ```
//! use dbcore::surface::Session;
//! use serde_json::json;
//!
//! let mut game = Session::new(json!({"demo": "battle", "seed": 7})).unwrap();
//! // The engine lists what may be done; the dice come from the session's seeded tray.
//! let legal = game.call("legal_actions", json!({})).unwrap();
//! let first = legal["actions"][0].clone();
//! assert_eq!(first["action"], "roll_pips");
//! let done = game.call("apply", json!({"action": first})).unwrap();
//! assert!(done["events"].as_array().unwrap().len() > 0);
//! // The notation reads and prints every action; undo takes the last one back.
//! let played = game.call("play", json!({"text": "5 move 1"})).unwrap();
//! assert_eq!(played["text"], "5 to 7.5 5 @ 0");
//! game.call("undo", json!({})).unwrap();
//! assert_eq!(game.call("info", json!({})).unwrap()["revision"], 1);
//! ```

use serde::Serialize;
use serde_json::Value;

use crate::error::{ErrorCode, ErrorInfo};

mod methods;
mod scene;
mod session;

pub use methods::{call, read_document, Document, Method, METHODS, SESSION_METHODS};
pub use session::{Session, Stage};

/// A method that failed: what every binding raises or returns.
#[derive(Debug, Clone, PartialEq, Serialize, thiserror::Error)]
#[error("{message}")]
pub struct SurfaceError {
    /// The stable code (its family by hundreds: 100s arguments, 200s rule refusals, 300s dice,
    /// 400s set-up, 900s internal).
    pub code: ErrorCode,
    /// The rules section that refuses, when one does (a heading of `docs/rules/`).
    pub rule: Option<&'static str>,
    /// What is wrong, in a sentence.
    pub message: String,
}

impl SurfaceError {
    /// An error of `code` with no rule.
    pub fn new(code: ErrorCode, message: impl Into<String>) -> Self {
        SurfaceError {
            code,
            rule: None,
            message: message.into(),
        }
    }

    /// A bad argument (code 103).
    pub fn argument(message: impl Into<String>) -> Self {
        SurfaceError::new(ErrorCode::InvalidArgument, message)
    }

    /// Any dbcore error, with its code and rule.
    pub fn of<E: ErrorInfo + ?Sized>(e: &E) -> Self {
        SurfaceError {
            code: e.code(),
            rule: e.rule(),
            message: e.to_string(),
        }
    }

    /// The error as JSON: `{"code": 203, "name": "illegal_move", "rule": "§8.1", "message": ...}`.
    pub fn to_value(&self) -> Value {
        serde_json::json!({
            "code": self.code.number(),
            "name": self.code,
            "rule": self.rule,
            "message": self.message,
        })
    }
}

impl ErrorInfo for SurfaceError {
    fn code(&self) -> ErrorCode {
        self.code
    }
    fn rule(&self) -> Option<&'static str> {
        self.rule
    }
}

/// The result type of the surface.
pub type Answer = Result<Value, SurfaceError>;

/// Read `params` as `T`, refusing unknown fields and naming the field at fault.
pub(crate) fn params<T: serde::de::DeserializeOwned>(params: Value) -> Result<T, SurfaceError> {
    let params = if params.is_null() {
        Value::Object(Default::default())
    } else {
        params
    };
    crate::json::from_value(params).map_err(|e| SurfaceError::of(&e))
}

/// Any serialisable value as JSON.
pub(crate) fn to_value<T: Serialize>(v: &T) -> Answer {
    serde_json::to_value(v)
        .map_err(|e| SurfaceError::new(ErrorCode::Internal, format!("cannot write JSON: {e}")))
}
