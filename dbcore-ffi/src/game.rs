//! Any game through one surface (`dbcore::surface`): a `DbcoreGame` handle holds a game in
//! progress of any kind the project plays (a DBA battle, its pre-battle, Big Battle, Giant, or a
//! DBAix game), and `dbcore_game_call_json` answers each of its methods by name, parameters and
//! result in JSON; `dbcore_call_json` answers the methods that need no game. A capability added
//! to the surface reaches C through these functions without a line here: `{"method": "methods"}`
//! lists them all. No rule is decided in this file.

use std::ffi::c_char;

use dbcore::surface::Session;

use crate::boundary::{arg, arg_str, boundary, free_handle, FfiError, Guarded, Out};
use crate::json::text_to_c_string;
use crate::DbcoreStatus;

/// A game in progress of any kind (an opaque handle over `dbcore::surface::Session`): the game,
/// every event so far, its history for `undo`, and a seeded dice tray for dice nobody typed.
/// Every method goes through `DbcoreGame *`, used by one thread at a time (a second call meanwhile
/// gets `DBCORE_STATUS_HANDLE_BUSY` rather than a race).
#[derive(Debug)]
pub struct DbcoreGame {
    guard: Guarded<Session>,
}

fn surface_err(e: dbcore::surface::SurfaceError) -> FfiError {
    FfiError {
        code: e.code,
        rule: e.rule,
        message: e.message,
    }
}

/// The JSON parameters, `{}` when NULL.
///
/// # Safety
/// `p` must be NULL or a NUL-terminated string.
unsafe fn params(p: *const c_char) -> Result<serde_json::Value, FfiError> {
    if p.is_null() {
        return Ok(serde_json::Value::Object(Default::default()));
    }
    // SAFETY: the caller's contract on `p`.
    let text = unsafe { arg_str(p, "params_json") }?;
    crate::boundary::parse(text)
}

/// Start a game: `how_json` is one of `{"setup": <a set-up>}`, `{"lists": ["II/56", "II/53"],
/// "variant": "standard", "prebattle": "caller"}` (army lists by id or name; the pre-battle
/// played step by step by the caller, or whole by `"driver"` or `"ai"`), `{"game": <a game
/// record>}` (replayed), `{"state": <a saved state>}` or `{"demo": "battle"}`, with an optional
/// `"seed"` for the dice tray. Free it with `dbcore_game_free`.
///
/// # Safety
/// `how_json` must be a NUL-terminated string and `out` valid for writes; either may be NULL
/// (then `DBCORE_STATUS_NULL_ARGUMENT`). `*out` is written only on success.
///
/// # Errors
/// `DBCORE_STATUS_INVALID_UTF8`, `DBCORE_STATUS_INVALID_JSON`, `DBCORE_STATUS_INVALID_ARGUMENT`
/// (none or several of the ways to start, an unknown field, an army list that names no list,
/// with suggestions in the message), `DBCORE_STATUS_INVALID_SETUP`, or the refusal of an action
/// of a record that does not replay.
///
/// # Example
/// ```c
/// DbcoreGame *game = NULL;
/// if (dbcore_game_new_json("{\"lists\":[\"II/56\",\"Ancient British\"]}", &game)
///         != DBCORE_STATUS_OK) { return 1; } // dbcore_last_error_message says why
/// ```
#[no_mangle]
pub unsafe extern "C" fn dbcore_game_new_json(
    how_json: *const c_char,
    out: *mut *mut DbcoreGame,
) -> DbcoreStatus {
    boundary(|| {
        let out = Out::new(out, "out")?;
        // SAFETY: the caller's contract on `how_json`.
        let text = unsafe { arg_str(how_json, "how_json") }?;
        let how: serde_json::Value = crate::boundary::parse(text)?;
        let session = Session::new(how).map_err(surface_err)?;
        let handle = Box::into_raw(Box::new(DbcoreGame {
            guard: Guarded::new(session),
        }));
        // SAFETY: the caller's contract on `out`.
        unsafe { out.write(handle) };
        Ok(())
    })
}

/// Free a game. NULL is ignored.
///
/// # Safety
/// `game` must be NULL or a game handle not freed before, and no other thread may be using it.
///
/// # Example
/// ```c
/// dbcore_game_free(game);
/// game = NULL;
/// ```
#[no_mangle]
pub unsafe extern "C" fn dbcore_game_free(game: *mut DbcoreGame) {
    boundary(|| {
        // SAFETY: `game` is NULL or came from `Box::into_raw` in this file (the caller's
        // contract).
        unsafe { free_handle(game, |h| &h.guard) }
    })
}

/// Answer `method` of the game with its JSON parameters (NULL for none): `"legal_actions"`,
/// `"apply"` (`{"action": ...}`), `"play"` (`{"text": "3 move 1.5"}`), `"undo"`, `"record"`,
/// `"info"`, `"svg"`, `"ai"`, ... (`dbcore_call_json("methods", NULL, ...)` lists every one with
/// its parameters). `*out_json` is the result as JSON; free it with `dbcore_string_free`.
///
/// # Safety
/// `game` must be a live game handle, `method` a NUL-terminated string, `params_json` NULL or a
/// NUL-terminated string, and `out_json` valid for writes; NULL where not allowed gives
/// `DBCORE_STATUS_NULL_ARGUMENT`.
///
/// # Errors
/// `DBCORE_STATUS_INVALID_ARGUMENT` for an unknown method or parameter, `DBCORE_STATUS_INVALID_JSON`,
/// and a refusal's own status (`DBCORE_STATUS_ILLEGAL_MOVE`, `DBCORE_STATUS_WRONG_PHASE`, ...)
/// with its rule and message in the last error; the game is then as it was.
/// `DBCORE_STATUS_HANDLE_BUSY` when another thread is using it; `DBCORE_STATUS_POISONED` after a
/// panic inside it.
///
/// # Example
/// ```c
/// char *legal = NULL;
/// if (dbcore_game_call_json(game, "legal_actions", NULL, &legal) == DBCORE_STATUS_OK)
///     puts(legal); // {"actions":[{"action":"roll_pips","die":4}],"dice":[4,...]}
/// dbcore_string_free(legal);
/// ```
#[no_mangle]
pub unsafe extern "C" fn dbcore_game_call_json(
    game: *mut DbcoreGame,
    method: *const c_char,
    params_json: *const c_char,
    out_json: *mut *mut c_char,
) -> DbcoreStatus {
    boundary(|| {
        let out = Out::new(out_json, "out_json")?;
        // SAFETY: the caller's contract on `method` and `params_json`.
        let (method, p) = unsafe { (arg_str(method, "method")?, params(params_json)?) };
        // SAFETY: the caller's contract on `game`.
        let handle = unsafe { arg(game.cast_const(), "game") }?;
        let v = handle
            .guard
            .write(|s| s.call(method, p).map_err(surface_err))?;
        let text = serde_json::to_string(&v)
            .map_err(|e| FfiError::new(dbcore::ErrorCode::Internal, e.to_string()))?;
        // SAFETY: the caller's contract on `out_json`.
        unsafe { out.write(text_to_c_string(text)?) };
        Ok(())
    })
}

/// Answer a `method` that needs no game, with its JSON parameters (NULL for none):
/// `"version"`, `"methods"`, `"armies.lookup"` (`{"text": "ancient british"}`),
/// `"record.read"`, `"record.replay"`, `"render"`, `"validate"`, `"odds"`, `"resolve"`, ...
/// Free `*out_json` with `dbcore_string_free`.
///
/// # Safety
/// `method` must be a NUL-terminated string, `params_json` NULL or a NUL-terminated string, and
/// `out_json` valid for writes.
///
/// # Errors
/// As `dbcore_game_call_json`.
///
/// # Example
/// ```c
/// char *found = NULL;
/// dbcore_call_json("armies.lookup", "{\"text\":\"Early Imperial Roman\"}", &found);
/// dbcore_string_free(found);
/// ```
#[no_mangle]
pub unsafe extern "C" fn dbcore_call_json(
    method: *const c_char,
    params_json: *const c_char,
    out_json: *mut *mut c_char,
) -> DbcoreStatus {
    boundary(|| {
        let out = Out::new(out_json, "out_json")?;
        // SAFETY: the caller's contract on `method` and `params_json`.
        let (method, p) = unsafe { (arg_str(method, "method")?, params(params_json)?) };
        let v = dbcore::surface::call(method, p).map_err(surface_err)?;
        let text = serde_json::to_string(&v)
            .map_err(|e| FfiError::new(dbcore::ErrorCode::Internal, e.to_string()))?;
        // SAFETY: the caller's contract on `out_json`.
        unsafe { out.write(text_to_c_string(text)?) };
        Ok(())
    })
}
