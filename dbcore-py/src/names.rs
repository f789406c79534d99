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

/// A JSON value as the plain Python value `json.loads` would give (dicts keep key order).
pub fn json_to_py<'py>(py: Python<'py>, v: &serde_json::Value) -> PyResult<Bound<'py, PyAny>> {
    use pyo3::types::{PyDict, PyList};
    use serde_json::Value;
    Ok(match v {
        Value::Null => py.None().into_bound(py),
        Value::Bool(b) => b.into_pyobject(py)?.to_owned().into_any(),
        Value::Number(n) => {
            if let Some(i) = n.as_i64() {
                i.into_pyobject(py)?.into_any()
            } else if let Some(u) = n.as_u64() {
                u.into_pyobject(py)?.into_any()
            } else {
                n.as_f64().unwrap_or(f64::NAN).into_pyobject(py)?.into_any()
            }
        }
        Value::String(s) => s.into_pyobject(py)?.into_any(),
        Value::Array(items) => {
            let list = PyList::empty(py);
            for item in items {
                list.append(json_to_py(py, item)?)?;
            }
            list.into_any()
        }
        Value::Object(map) => {
            let d = PyDict::new(py);
            for (k, item) in map {
                d.set_item(k, json_to_py(py, item)?)?;
            }
            d.into_any()
        }
    })
}

/// Any dbcore value as plain Python data, through its serde form.
pub fn to_py<'py, T: Serialize>(py: Python<'py>, v: &T) -> PyResult<Bound<'py, PyAny>> {
    let value =
        serde_json::to_value(v).map_err(|e| errors::internal(format!("cannot write JSON: {e}")))?;
    json_to_py(py, &value)
}
