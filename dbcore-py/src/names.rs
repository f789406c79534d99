//! Enum values cross into Python as plain strings spelled exactly as dbcore's serde names them
//! (`"no_effect"`, `"rough"`, `"Kn"`), so Python, JSON and the C layer share one vocabulary and
//! this crate keeps no table of its own.

use pyo3::exceptions::PyOverflowError;
use pyo3::prelude::*;
use pyo3::types::PyString;
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
    dbcore::json::from_str(s).map_err(|e| errors::invalid_json(what, &e))
}

/// A Python `int` of any size, saturated into an `i128`: a value too big for a Rust integer
/// then fails the range check that follows like any other value out of range, raising the
/// `dbcore` error that check raises instead of `OverflowError`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AnyInt(pub i128);

impl<'a, 'py> FromPyObject<'a, 'py> for AnyInt {
    type Error = PyErr;
    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        match obj.extract::<i128>() {
            Ok(v) => Ok(AnyInt(v)),
            Err(e) if e.is_instance_of::<PyOverflowError>(obj.py()) => {
                Ok(AnyInt(if obj.lt(0)? { i128::MIN } else { i128::MAX }))
            }
            Err(e) => Err(e),
        }
    }
}

impl AnyInt {
    /// The value as `T`, or `ArgumentError` (code 103) saying what range `what` has.
    pub fn to<T: TryFrom<i128>>(self, what: &str, range: &str) -> PyResult<T> {
        T::try_from(self.0).map_err(|_| {
            errors::invalid_argument(format!("{what} must be {range}, not {}", self.shown()))
        })
    }
    /// The value as a message shows it (a saturated value is shown as out of range).
    pub fn shown(self) -> String {
        match self.0 {
            i128::MAX => "a larger integer".to_owned(),
            i128::MIN => "a more negative integer".to_owned(),
            v => v.to_string(),
        }
    }
}

/// A Python `str` as UTF-8. A string holding a lone surrogate (`"\ud800"`) cannot be UTF-8:
/// it raises `ArgumentError` with code 101, as text that is not UTF-8 does in C, instead of
/// `UnicodeEncodeError`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Text(pub String);

impl<'a, 'py> FromPyObject<'a, 'py> for Text {
    type Error = PyErr;
    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        let s = obj.cast::<PyString>()?;
        utf8(&s)
    }
}

/// The text of a Python `str`, as [`Text`] reads it.
pub fn utf8(s: &Bound<'_, PyString>) -> PyResult<Text> {
    match s.to_str() {
        Ok(t) => Ok(Text(t.to_owned())),
        Err(_) => Err(errors::raise(
            dbcore::ErrorCode::InvalidUtf8,
            None,
            "text is not valid UTF-8 (it holds a lone surrogate)".to_owned(),
        )),
    }
}

/// A count given from Python as a small non-negative integer.
pub fn small_count(what: &str, n: AnyInt) -> PyResult<u8> {
    n.to(what, "a count from 0 to 255")
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
            fn from_json(
                _cls: &Bound<'_, pyo3::types::PyType>,
                s: $crate::names::Text,
            ) -> PyResult<Self> {
                $crate::names::from_json($what, &s.0).map($ty)
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

/// Any dbcore value as plain Python data (dicts, lists, numbers, strings, None), built straight
/// from its serde form (no JSON text in between), so dict keys keep the order of dbcore's fields.
pub fn to_py<'py, T: Serialize + ?Sized>(py: Python<'py>, v: &T) -> PyResult<Bound<'py, PyAny>> {
    crate::topy::to_python(py, v)
        .map_err(|e| errors::internal(format!("cannot make a Python value: {e}")))
}

/// Plain Python data (or JSON text) as a JSON value, read straight from the objects. `what`
/// names it in the error.
pub fn to_value(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<serde_json::Value> {
    if let Ok(s) = obj.cast::<PyString>() {
        let text = utf8(s)?.0;
        return dbcore::json::from_str(&text).map_err(|e| errors::invalid_json(what, &e));
    }
    pythonize::depythonize::<serde_json::Value>(obj).map_err(|e| {
        errors::raise(
            dbcore::ErrorCode::InvalidJson,
            None,
            format!(
                "{what} is neither JSON text nor plain data (dicts, lists, numbers, strings): {e}"
            ),
        )
    })
}
