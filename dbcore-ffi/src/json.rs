//! The same combat functions with JSON in and JSON out, using dbcore's serde types: a binding
//! that speaks JSON needs no struct layouts at all.

use std::borrow::Cow;
use std::ffi::{c_char, CString};

use dbcore::combat::{OddsRequest, Prepared, ResolveRequest};
use dbcore::{ErrorCode, RulesConfig};
use serde::Serialize;

use crate::boundary::{arg_str, boundary, FfiError, Out};
use crate::DbcoreStatus;

/// Serialise `v` into a string C owns until it calls `dbcore_string_free`.
pub(crate) fn to_c_string<T: Serialize>(v: &T) -> Result<*mut c_char, FfiError> {
    // dbcore's values are plain data, so writing them cannot fail: a failure is dbcore's fault.
    let text = serde_json::to_string(v)
        .map_err(|e| FfiError::new(ErrorCode::Internal, format!("cannot write JSON: {e}")))?;
    text_to_c_string(text)
}

/// JSON text dbcore wrote, as a string C owns until it calls `dbcore_string_free`.
pub(crate) fn text_to_c_string(text: String) -> Result<*mut c_char, FfiError> {
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
        let req: ResolveRequest = crate::boundary::parse(text)?;
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
        let req: OddsRequest = crate::boundary::parse(text)?;
        let cfg = config(req.config)?;
        let odds = Prepared::new(&req.situation, &cfg)?.odds();
        let json = to_c_string(&odds)?;
        // SAFETY: the caller's contract on `out_json`.
        unsafe { out.write(json) };
        Ok(())
    })
}

// Generic JSON utilities: a C program that holds dbcore's JSON text (events, records, golden
// trace files) can compare and take it apart without a JSON library of its own. They know
// nothing of the game.

/// Read a JSON text argument as a value.
///
/// # Safety
/// If non-NULL, `p` must point to a NUL-terminated string.
unsafe fn json_value(p: *const c_char, what: &str) -> Result<serde_json::Value, FfiError> {
    // SAFETY: the caller's contract on `p`.
    let text = unsafe { arg_str(p, what) }?;
    crate::boundary::parse(text)
}

/// An array argument's items.
fn items<'v>(v: &'v serde_json::Value, what: &str) -> Result<&'v Vec<serde_json::Value>, FfiError> {
    v.as_array()
        .ok_or_else(|| FfiError::invalid(format!("{what} is not a JSON array")))
}

/// Whether two JSON texts hold the same value: objects compare member by member whatever their
/// order and spacing, arrays item by item, numbers by value (an integer and a fraction never
/// compare equal: `1` is not `1.0`). `*out` becomes 1 or 0. A generic JSON utility.
///
/// # Safety
/// `a` and `b` must be NUL-terminated strings and `out` valid for writes; any may be NULL (then
/// `DBCORE_STATUS_NULL_ARGUMENT`).
///
/// # Errors
/// `DBCORE_STATUS_INVALID_UTF8`, `DBCORE_STATUS_INVALID_JSON` when either is not JSON.
///
/// # Example
/// ```c
/// uint32_t same = 0;
/// dbcore_json_equal("{\"a\": 1, \"b\": [2]}", "{\"b\":[2],\"a\":1}", &same); // same == 1
/// ```
#[no_mangle]
pub unsafe extern "C" fn dbcore_json_equal(
    a: *const c_char,
    b: *const c_char,
    out: *mut u32,
) -> DbcoreStatus {
    boundary(|| {
        let out = Out::new(out, "out")?;
        // SAFETY: the caller's contract on `a` and `b`.
        let (a, b) = unsafe { (json_value(a, "a")?, json_value(b, "b")?) };
        // SAFETY: the caller's contract on `out`.
        unsafe { out.write(crate::boundary::to_flag(a == b)) };
        Ok(())
    })
}

/// The member `key` of a JSON object, as JSON text. A generic JSON utility: the text is written
/// afresh, compact, with the members of any object in it in the order they are written. Free `*out_json` with
/// `dbcore_string_free`.
///
/// # Safety
/// `json` and `key` must be NUL-terminated strings and `out_json` valid for writes; any may be
/// NULL (then `DBCORE_STATUS_NULL_ARGUMENT`).
///
/// # Errors
/// `DBCORE_STATUS_INVALID_UTF8`, `DBCORE_STATUS_INVALID_JSON`; `DBCORE_STATUS_INVALID_ARGUMENT`
/// when `json` is not an object or has no member `key`.
///
/// # Example
/// ```c
/// char *record = NULL;
/// if (dbcore_json_get(golden_text, "record", &record) == DBCORE_STATUS_OK) {
///     // ... dbcore_battle_replay_json(record, &battle, &events) ...
///     dbcore_string_free(record);
/// }
/// ```
#[no_mangle]
pub unsafe extern "C" fn dbcore_json_get(
    json: *const c_char,
    key: *const c_char,
    out_json: *mut *mut c_char,
) -> DbcoreStatus {
    boundary(|| {
        let out = Out::new(out_json, "out_json")?;
        // SAFETY: the caller's contract on `json` and `key`.
        let (v, key) = unsafe { (json_value(json, "json")?, arg_str(key, "key")?) };
        let obj = v
            .as_object()
            .ok_or_else(|| FfiError::invalid("json is not a JSON object"))?;
        let member = obj
            .get(key)
            .ok_or_else(|| FfiError::invalid(format!("the JSON object has no member `{key}`")))?;
        let text = to_c_string(member)?;
        // SAFETY: the caller's contract on `out_json`.
        unsafe { out.write(text) };
        Ok(())
    })
}

/// The number of items of a JSON array. A generic JSON utility.
///
/// # Safety
/// `json` must be a NUL-terminated string and `out` valid for writes; either may be NULL (then
/// `DBCORE_STATUS_NULL_ARGUMENT`).
///
/// # Errors
/// `DBCORE_STATUS_INVALID_UTF8`, `DBCORE_STATUS_INVALID_JSON`; `DBCORE_STATUS_INVALID_ARGUMENT`
/// when `json` is not an array.
///
/// # Example
/// ```c
/// uint32_t n = 0;
/// dbcore_json_array_len(events, &n);
/// ```
#[no_mangle]
pub unsafe extern "C" fn dbcore_json_array_len(json: *const c_char, out: *mut u32) -> DbcoreStatus {
    boundary(|| {
        let out = Out::new(out, "out")?;
        // SAFETY: the caller's contract on `json`.
        let v = unsafe { json_value(json, "json") }?;
        let n = items(&v, "json")?.len();
        let n = u32::try_from(n).map_err(|_| FfiError::invalid("more than 2^32 items"))?;
        // SAFETY: the caller's contract on `out`.
        unsafe { out.write(n) };
        Ok(())
    })
}

/// The item at `index` of a JSON array, as JSON text. A generic JSON utility: the text is written
/// afresh, compact, with the members of any object in it in the order they are written. Free `*out_json` with
/// `dbcore_string_free`.
///
/// # Safety
/// `json` must be a NUL-terminated string and `out_json` valid for writes; either may be NULL
/// (then `DBCORE_STATUS_NULL_ARGUMENT`).
///
/// # Errors
/// `DBCORE_STATUS_INVALID_UTF8`, `DBCORE_STATUS_INVALID_JSON`; `DBCORE_STATUS_INVALID_ARGUMENT`
/// when `json` is not an array or `index` is not below its length.
///
/// # Example
/// ```c
/// char *action = NULL;
/// for (uint32_t i = 0; dbcore_json_array_at(actions, i, &action) == DBCORE_STATUS_OK; i++) {
///     dbcore_battle_apply_json(battle, action, &events);
///     dbcore_string_free(action);
/// }
/// ```
#[no_mangle]
pub unsafe extern "C" fn dbcore_json_array_at(
    json: *const c_char,
    index: u32,
    out_json: *mut *mut c_char,
) -> DbcoreStatus {
    boundary(|| {
        let out = Out::new(out_json, "out_json")?;
        // SAFETY: the caller's contract on `json`.
        let v = unsafe { json_value(json, "json") }?;
        let all = items(&v, "json")?;
        let item = all.get(index as usize).ok_or_else(|| {
            FfiError::invalid(format!(
                "index must be below {} items, not {index}",
                all.len()
            ))
        })?;
        let text = to_c_string(item)?;
        // SAFETY: the caller's contract on `out_json`.
        unsafe { out.write(text) };
        Ok(())
    })
}
