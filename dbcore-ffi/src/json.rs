//! The same combat functions with JSON in and JSON out, using dbcore's serde types: a binding
//! that speaks JSON needs no struct layouts at all.

use std::borrow::Cow;
use std::ffi::{c_char, CString};

use dbcore::combat::{OddsRequest, Prepared, ResolveRequest};
use dbcore::{ErrorCode, RulesConfig};
use serde::Serialize;

use crate::boundary::{arg_str, boundary, json_error, FfiError, Out};
use crate::DbcoreStatus;

/// Serialise `v` into a string C owns until it calls `dbcore_string_free`.
pub(crate) fn to_c_string<T: Serialize>(v: &T) -> Result<*mut c_char, FfiError> {
    // dbcore's values are plain data, so writing them cannot fail: a failure is dbcore's fault.
    let text = serde_json::to_string(v)
        .map_err(|e| FfiError::new(ErrorCode::Internal, format!("cannot write JSON: {e}")))?;
    // serde_json escapes U+0000 as \u0000, so the text has no interior NUL.
    let c = CString::new(text).map_err(|e| {
        FfiError::new(
            ErrorCode::Internal,
            format!("JSON with an interior NUL: {e}"),
        )
    })?;
    Ok(c.into_raw())
}

/// The rules configuration a request names, checked, or the default.
fn config(c: Option<RulesConfig>) -> Result<Cow<'static, RulesConfig>, FfiError> {
    match c {
        None => Ok(Cow::Borrowed(crate::default_rules())),
        Some(c) => {
            c.validate()?;
            Ok(Cow::Owned(c))
        }
    }
}

/// Resolve one combat from a JSON `dbcore::combat::ResolveRequest`
/// (`{"situation":{"a":{"kind":"3Kn"},"b":{"kind":"4Bd"}},"dice":[4,4]}`, with an optional
/// `"config"`) into a JSON `dbcore::combat::CombatResult`. Free `*out_json` with
/// `dbcore_string_free`.
///
/// # Safety
/// `request` must be a NUL-terminated string and `out_json` valid for writes; either may be NULL
/// (then `DBCORE_STATUS_NULL_ARGUMENT`). `*out_json` is written only on success.
///
/// # Errors
/// `DBCORE_STATUS_INVALID_UTF8`, `DBCORE_STATUS_INVALID_JSON` (including a die outside 1..=6 or an
/// unknown code inside the JSON), `DBCORE_STATUS_INVALID_ARGUMENT` for a bad `config`,
/// `DBCORE_STATUS_ILLEGAL_SITUATION`.
///
/// # Example
/// ```c
/// char *json = NULL;
/// if (dbcore_resolve_json("{\"situation\":{\"a\":{\"kind\":\"3Kn\"},\"b\":{\"kind\":\"4Bd\"}},"
///                         "\"dice\":[4,4]}", &json) == DBCORE_STATUS_OK)
///     puts(json);
/// dbcore_string_free(json);
/// ```
#[no_mangle]
pub unsafe extern "C" fn dbcore_resolve_json(
    request: *const c_char,
    out_json: *mut *mut c_char,
) -> DbcoreStatus {
    boundary(|| {
        let out = Out::new(out_json, "out_json")?;
        // SAFETY: the caller's contract on `request`.
        let text = unsafe { arg_str(request, "request") }?;
        let req: ResolveRequest = serde_json::from_str(text).map_err(json_error)?;
        let cfg = config(req.config)?;
        let result = dbcore::resolve(&req.situation, req.dice, &cfg)?;
        let json = to_c_string(&result)?;
        // SAFETY: the caller's contract on `out_json`.
        unsafe { out.write(json) };
        Ok(())
    })
}

/// Count the odds of a JSON `dbcore::combat::OddsRequest` (`{"situation":{...}}`, with an
/// optional `"config"`) into a JSON `dbcore::combat::Odds`. Free `*out_json` with
/// `dbcore_string_free`.
///
/// # Safety
/// `request` must be a NUL-terminated string and `out_json` valid for writes; either may be NULL
/// (then `DBCORE_STATUS_NULL_ARGUMENT`). `*out_json` is written only on success.
///
/// # Errors
/// As `dbcore_resolve_json`.
///
/// # Example
/// ```c
/// char *json = NULL;
/// dbcore_odds_json("{\"situation\":{\"a\":{\"kind\":\"Sp\"},\"b\":{\"kind\":\"Ps\"}}}", &json);
/// dbcore_string_free(json);
/// ```
#[no_mangle]
pub unsafe extern "C" fn dbcore_odds_json(
    request: *const c_char,
    out_json: *mut *mut c_char,
) -> DbcoreStatus {
    boundary(|| {
        let out = Out::new(out_json, "out_json")?;
        // SAFETY: the caller's contract on `request`.
        let text = unsafe { arg_str(request, "request") }?;
        let req: OddsRequest = serde_json::from_str(text).map_err(json_error)?;
        let cfg = config(req.config)?;
        let odds = Prepared::new(&req.situation, &cfg)?.odds();
        let json = to_c_string(&odds)?;
        // SAFETY: the caller's contract on `out_json`.
        unsafe { out.write(json) };
        Ok(())
    })
}
