//! The exception hierarchy: one root, `dbcore.DbcoreError`, and one subclass per family of
//! [`dbcore::ErrorCode`]. Every raised instance carries `.code` (the stable number), `.rule`
//! (the section of the rules digest that refuses, or `None`) and `.detail` (the message).
//!
//! The attributes live in the instance `__dict__`, so `BaseException.__reduce__` pickles them
//! with the instance.

use dbcore::{ErrorCode, ErrorFamily, ErrorInfo};
use pyo3::create_exception;
use pyo3::exceptions::PyException;
use pyo3::prelude::*;

create_exception!(
    dbcore,
    DbcoreError,
    PyException,
    "Root of every error dbcore raises. Attributes: `code` (int, the stable dbcore error number), \
     `rule` (str or None, the rules section that refuses, e.g. '§9.1') and `detail` (the message)."
);
create_exception!(
    dbcore,
    ArgumentError,
    DbcoreError,
    "A bad argument: a value out of range, an unknown name or unreadable JSON (codes 100-199)."
);
create_exception!(
    dbcore,
    ElementCodeError,
    ArgumentError,
    "Text that is not an element code such as '4Bd' or 'Mtd-4Bw' (code 110, §2.1)."
);
create_exception!(
    dbcore,
    RuleError,
    DbcoreError,
    "A situation the rules forbid, such as a Spear shooting (codes 200-299)."
);
create_exception!(
    dbcore,
    DiceError,
    DbcoreError,
    "A die score outside 1..6 (codes 300-399)."
);
create_exception!(
    dbcore,
    SetupError,
    DbcoreError,
    "Set-up data that breaks the rules (codes 400-499)."
);
create_exception!(
    dbcore,
    InternalError,
    DbcoreError,
    "A fault inside dbcore (codes 900-999); please report it."
);

/// The exception for `code`, with its attributes set.
pub fn raise(code: ErrorCode, rule: Option<&str>, detail: String) -> PyErr {
    let err = match (code, code.family()) {
        (ErrorCode::ElementCode, _) => ElementCodeError::new_err(detail.clone()),
        (_, ErrorFamily::Argument) => ArgumentError::new_err(detail.clone()),
        (_, ErrorFamily::Rule) => RuleError::new_err(detail.clone()),
        (_, ErrorFamily::Dice) => DiceError::new_err(detail.clone()),
        (_, ErrorFamily::Setup) => SetupError::new_err(detail.clone()),
        (_, ErrorFamily::Internal) => InternalError::new_err(detail.clone()),
    };
    Python::attach(|py| {
        let value = err.value(py);
        // Setting attributes on a fresh exception instance cannot fail short of memory
        // exhaustion; if it does, that error is the more useful one to raise.
        let set = value
            .setattr("code", code.number())
            .and_then(|()| value.setattr("rule", rule))
            .and_then(|()| value.setattr("detail", detail));
        match set {
            Ok(()) => err,
            Err(e) => e,
        }
    })
}

/// Any dbcore error as its Python exception.
pub fn from_info<E: ErrorInfo + ?Sized>(e: &E) -> PyErr {
    raise(e.code(), e.rule(), e.to_string())
}

/// A bad argument value (code 103).
pub fn invalid_argument(detail: impl Into<String>) -> PyErr {
    raise(ErrorCode::InvalidArgument, None, detail.into())
}

/// Unreadable JSON (code 102), or a die outside 1 to 6 in it (`DiceError`, code 300, as
/// everywhere else).
pub fn invalid_json(what: &str, e: &dbcore::Error) -> PyErr {
    // dbcore::json's message names the path of the field at fault.
    let detail = match e {
        dbcore::Error::Json(m) => m.clone(),
        dbcore::Error::Dice(d) => {
            use dbcore::ErrorInfo;
            return raise(d.code(), d.rule(), d.to_string());
        }
        other => other.to_string(),
    };
    raise(
        ErrorCode::InvalidJson,
        None,
        format!("invalid JSON for {what}: {detail}"),
    )
}

/// A value that could not be written as JSON (never expected for dbcore's plain data): a fault
/// inside dbcore, code 902.
pub fn internal(detail: impl Into<String>) -> PyErr {
    raise(ErrorCode::Internal, None, detail.into())
}

/// Run a call into the rules, turning a panic into `InternalError` (code 900) rather than
/// pyo3's `PanicException`, which derives from `BaseException` and so escapes
/// `except DbcoreError`.
pub fn guard<T>(f: impl FnOnce() -> PyResult<T>) -> PyResult<T> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)).unwrap_or_else(|payload| {
        let msg = payload
            .downcast_ref::<&str>()
            .map(|s| (*s).to_owned())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "unknown panic".to_owned());
        Err(raise(
            ErrorCode::Panic,
            None,
            format!("dbcore panicked (please report it): {msg}"),
        ))
    })
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("DbcoreError", py.get_type::<DbcoreError>())?;
    m.add("ArgumentError", py.get_type::<ArgumentError>())?;
    m.add("ElementCodeError", py.get_type::<ElementCodeError>())?;
    m.add("RuleError", py.get_type::<RuleError>())?;
    m.add("DiceError", py.get_type::<DiceError>())?;
    m.add("SetupError", py.get_type::<SetupError>())?;
    m.add("InternalError", py.get_type::<InternalError>())?;
    Ok(())
}
