//! Enum values cross into Python as plain strings spelled exactly as dbcore's serde names them
//! (`"no_effect"`, `"rough"`, `"Kn"`), so Python, JSON and the C layer share one vocabulary and
//! this crate keeps no table of its own.

use pyo3::prelude::*;
use serde::de::DeserializeOwned;
use serde::Serialize;

use crate::errors;

/// The serde name of a unit enum value.
pub fn name_of<T: Serialize>(v: &T) -> String {
    match serde_json::to_value(v) {
        Ok(serde_json::Value::String(s)) => s,
        // dbcore's unit enums always serialise as strings; anything else would be a dbcore bug,
        // shown rather than hidden.
        Ok(other) => other.to_string(),
        Err(e) => format!("<{e}>"),
    }
}

/// Read a unit enum value from its serde name; `what` names the argument in the error.
pub fn parse<T: DeserializeOwned>(what: &str, s: &str) -> PyResult<T> {
    serde_json::from_value(serde_json::Value::String(s.to_owned()))
        .map_err(|e| errors::invalid_argument(format!("{what}: {e}")))
}

/// Serialise any dbcore value to JSON.
pub fn to_json<T: Serialize>(v: &T) -> PyResult<String> {
    serde_json::to_string(v).map_err(|e| errors::internal(format!("cannot write JSON: {e}")))
}

/// Read any dbcore value from JSON; `what` names the expected type in the error.
pub fn from_json<T: DeserializeOwned>(what: &str, s: &str) -> PyResult<T> {
    serde_json::from_str(s).map_err(|e| errors::invalid_json(what, &e))
}

/// A count given from Python as a small non-negative integer.
pub fn small_count(what: &str, n: i64) -> PyResult<u8> {
    u8::try_from(n).map_err(|_| {
        errors::invalid_argument(format!("{what} must be a count from 0 to 255, not {n}"))
    })
}
