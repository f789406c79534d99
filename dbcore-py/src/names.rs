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

/// `#[pymethods]` for a class wrapping a dbcore value, plus `to_json`, `from_json` and a
/// `__reduce__` through that JSON, so pickles and deep copies use dbcore's serde form.
macro_rules! json_pymethods {
    ($ty:ident, $what:literal; $($body:tt)*) => {
        #[pymethods]
        impl $ty {
            $($body)*

            /// The JSON form (dbcore's serde form, shared with the C layer).
            fn to_json(&self) -> PyResult<String> {
                $crate::names::to_json(&self.0)
            }
            /// Read the JSON form (ArgumentError, code 102, if it cannot be read).
            #[classmethod]
            fn from_json(_cls: &Bound<'_, pyo3::types::PyType>, s: &str) -> PyResult<Self> {
                $crate::names::from_json($what, s).map($ty)
            }
            fn __reduce__<'py>(
                slf: &Bound<'py, Self>,
            ) -> PyResult<(Bound<'py, PyAny>, (String,))> {
                Ok((
                    slf.get_type().getattr("from_json")?,
                    ($crate::names::to_json(&slf.get().0)?,),
                ))
            }
        }
    };
}
pub(crate) use json_pymethods;

/// Any dbcore value as plain Python data (dicts, lists, numbers, strings, None), read by
/// `json.loads` from its serde JSON, so dict keys keep the order of dbcore's fields.
pub fn to_py<'py, T: Serialize>(py: Python<'py>, v: &T) -> PyResult<Bound<'py, PyAny>> {
    let text = to_json(v)?;
    py.import("json")?.call_method1("loads", (text,))
}
