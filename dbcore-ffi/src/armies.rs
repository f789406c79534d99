//! The bundled army lists (`dbcore::armies`) for C programs, in JSON: look-ups, one list, the
//! check of a chosen army and the default army of a list. Translation only: the lists, the
//! look-ups and every rule of choosing are dbcore's.

use std::ffi::c_char;

use dbcore::armies::{self, ArmyChoice, ArmyError, ListId, ListQuery};

use crate::boundary::{arg_str, boundary, FfiError, Out};
use crate::json::to_c_string;
use crate::DbcoreStatus;

/// Read a list id argument (`"II/56"`).
///
/// # Safety
/// `p` must be NULL or a NUL-terminated string.
unsafe fn list_id(p: *const c_char, what: &str) -> Result<ListId, FfiError> {
    // SAFETY: the caller's contract on `p`.
    let text = unsafe { arg_str(p, what) }?;
    text.parse::<ListId>().map_err(FfiError::from)
}

/// Read an army choice argument.
///
/// # Safety
/// `p` must be NULL or a NUL-terminated string.
unsafe fn army_choice(p: *const c_char) -> Result<ArmyChoice, FfiError> {
    // SAFETY: the caller's contract on `p`.
    let text = unsafe { arg_str(p, "choice_json") }?;
    crate::boundary::parse(text)
}

/// The bundled army lists that meet a query, as a JSON array of lists in id order. The query
/// is a JSON object whose members are all optional and must all hold: `"id"` (`"II/56"`, or
/// `"I/4"` for every variant), `"name"` (a fragment, any case), `"year"` (BC negative),
/// `"topography"` (`"arable"` …), `"enemy_of"` and `"ally_of"` (a list id). NULL or `{}` finds
/// every list. Free `*out_json` with `dbcore_string_free`.
///
/// # Safety
/// `query_json` must be NULL or a NUL-terminated string; `out_json` must be valid for writes
/// (NULL gives `DBCORE_STATUS_NULL_ARGUMENT`).
///
/// # Errors
/// `DBCORE_STATUS_INVALID_UTF8`, `DBCORE_STATUS_INVALID_JSON` (also for an unknown member).
///
/// # Example
/// ```c
/// char *found = NULL;
/// uint32_t n = 0;
/// if (dbcore_army_lists_find_json("{\"name\": \"roman\", \"year\": 100}", &found) == DBCORE_STATUS_OK
///     && dbcore_json_array_len(found, &n) == DBCORE_STATUS_OK)
///     printf("%u lists\n", (unsigned)n);
/// dbcore_string_free(found);
/// ```
#[no_mangle]
pub unsafe extern "C" fn dbcore_army_lists_find_json(
    query_json: *const c_char,
    out_json: *mut *mut c_char,
) -> DbcoreStatus {
    boundary(|| {
        let out = Out::new(out_json, "out_json")?;
        let query: ListQuery = if query_json.is_null() {
            ListQuery::default()
        } else {
            // SAFETY: the caller's contract on `query_json`.
            let text = unsafe { arg_str(query_json, "query_json") }?;
            crate::boundary::parse(text)?
        };
        let json = to_c_string(&armies::find(&query))?;
        // SAFETY: the caller's contract on `out_json`.
        unsafe { out.write(json) };
        Ok(())
    })
}

/// One bundled army list by its exact id (`"II/56"`, `"I/1a"`), as JSON: id, name, dates,
/// home topography, aggression, troop entries as the lists write them, enemies and allies.
/// Free `*out_json` with `dbcore_string_free`.
///
/// # Safety
/// `id` must be a NUL-terminated string and `out_json` valid for writes (either NULL gives
/// `DBCORE_STATUS_NULL_ARGUMENT`).
///
/// # Errors
/// `DBCORE_STATUS_INVALID_UTF8`; `DBCORE_STATUS_INVALID_ARGUMENT` for text that is not a list id
/// or an id no bundled list has (rule `§16`).
///
/// # Example
/// ```c
/// char *list = NULL;
/// if (dbcore_army_list_json("II/56", &list) == DBCORE_STATUS_OK) puts(list);
/// dbcore_string_free(list);
/// ```
#[no_mangle]
pub unsafe extern "C" fn dbcore_army_list_json(
    id: *const c_char,
    out_json: *mut *mut c_char,
) -> DbcoreStatus {
    boundary(|| {
        let out = Out::new(out_json, "out_json")?;
        // SAFETY: the caller's contract on `id`.
        let id = unsafe { list_id(id, "id") }?;
        let list = armies::list(&id).ok_or_else(|| FfiError::from(ArmyError::UnknownList(id)))?;
        let json = to_c_string(list)?;
        // SAFETY: the caller's contract on `out_json`.
        unsafe { out.write(json) };
        Ok(())
    })
}

/// Check a chosen army against its list and make it: `choice_json` is a JSON
/// `dbcore::armies::ArmyChoice` (`{"list": "I/1a", "entries": [{"package": 0, "elements":
/// ["3Bd"]}, ...], "allies": [...]}`); `*out_army_json` becomes the army (list, name,
/// aggression, home topography and its 12 elements with kind, general, contingent and
/// dismounts_as). Free it with `dbcore_string_free`.
///
/// # Safety
/// `choice_json` must be a NUL-terminated string and `out_army_json` valid for writes (either
/// NULL gives `DBCORE_STATUS_NULL_ARGUMENT`).
///
/// # Errors
/// `DBCORE_STATUS_INVALID_UTF8`, `DBCORE_STATUS_INVALID_JSON`; `DBCORE_STATUS_INVALID_ARGUMENT`
/// for an unknown list; `DBCORE_STATUS_INVALID_SETUP` when the army breaks its list: the last
/// error's message lists every problem and its rule is the first one's
/// (`dbcore_army_problems_json` gives them as JSON).
///
/// # Example
/// ```c
/// char *army = NULL;
/// if (dbcore_army_choose_json(choice, &army) != DBCORE_STATUS_OK) {
///     char msg[1024];
///     dbcore_last_error_message(msg, sizeof msg);
///     fprintf(stderr, "%s\n", msg);
/// }
/// dbcore_string_free(army);
/// ```
#[no_mangle]
pub unsafe extern "C" fn dbcore_army_choose_json(
    choice_json: *const c_char,
    out_army_json: *mut *mut c_char,
) -> DbcoreStatus {
    boundary(|| {
        let out = Out::new(out_army_json, "out_army_json")?;
        // SAFETY: the caller's contract on `choice_json`.
        let choice = unsafe { army_choice(choice_json) }?;
        let army = armies::choose(&choice).map_err(FfiError::from)?;
        let json = to_c_string(&army)?;
        // SAFETY: the caller's contract on `out_army_json`.
        unsafe { out.write(json) };
        Ok(())
    })
}

/// Every problem of a chosen army, as a JSON array (empty when the army is legal). Each
/// problem is an object with `"problem"` (its kind, e.g. `"too_many_elements"`), `"rule"`,
/// `"message"` and the kind's own members (`"entry"` names the list, contingent, index and
/// text of the entry). Free `*out_json` with `dbcore_string_free`.
///
/// # Safety
/// `choice_json` must be a NUL-terminated string and `out_json` valid for writes (either NULL
/// gives `DBCORE_STATUS_NULL_ARGUMENT`).
///
/// # Errors
/// `DBCORE_STATUS_INVALID_UTF8`, `DBCORE_STATUS_INVALID_JSON`; `DBCORE_STATUS_INVALID_ARGUMENT`
/// for an unknown list.
///
/// # Example
/// ```c
/// char *problems = NULL;
/// uint32_t n = 0;
/// if (dbcore_army_problems_json(choice, &problems) == DBCORE_STATUS_OK
///     && dbcore_json_array_len(problems, &n) == DBCORE_STATUS_OK && n == 0)
///     puts("a legal army");
/// dbcore_string_free(problems);
/// ```
#[no_mangle]
pub unsafe extern "C" fn dbcore_army_problems_json(
    choice_json: *const c_char,
    out_json: *mut *mut c_char,
) -> DbcoreStatus {
    boundary(|| {
        let out = Out::new(out_json, "out_json")?;
        // SAFETY: the caller's contract on `choice_json`.
        let choice = unsafe { army_choice(choice_json) }?;
        let problems = match armies::choose(&choice) {
            Ok(_) => Vec::new(),
            Err(ArmyError::Invalid(p)) => p,
            Err(e) => return Err(FfiError::from(e)),
        };
        let json = to_c_string(&armies::choose::problems_json(&problems))?;
        // SAFETY: the caller's contract on `out_json`.
        unsafe { out.write(json) };
        Ok(())
    })
}

/// The default army of a list: the first choice of every entry, no allies (what
/// demonstrations use), as the JSON army `dbcore_army_choose_json` gives. Free `*out_json`
/// with `dbcore_string_free`.
///
/// # Safety
/// `id` must be a NUL-terminated string and `out_json` valid for writes (either NULL gives
/// `DBCORE_STATUS_NULL_ARGUMENT`).
///
/// # Errors
/// `DBCORE_STATUS_INVALID_UTF8`; `DBCORE_STATUS_INVALID_ARGUMENT` for text that is not a list id
/// or an id no bundled list has.
///
/// # Example
/// ```c
/// char *army = NULL;
/// if (dbcore_army_default_json("II/56", &army) == DBCORE_STATUS_OK) puts(army);
/// dbcore_string_free(army);
/// ```
#[no_mangle]
pub unsafe extern "C" fn dbcore_army_default_json(
    id: *const c_char,
    out_json: *mut *mut c_char,
) -> DbcoreStatus {
    boundary(|| {
        let out = Out::new(out_json, "out_json")?;
        // SAFETY: the caller's contract on `id`.
        let id = unsafe { list_id(id, "id") }?;
        let army = armies::default_army(&id).map_err(FfiError::from)?;
        let json = to_c_string(&army)?;
        // SAFETY: the caller's contract on `out_json`.
        unsafe { out.write(json) };
        Ok(())
    })
}
