//! The pre-battle and whole games (`dbcore::battle::prebattle`, `dbcore::driver::play_game`) for
//! C programs, in JSON: entering armies, pre-battle actions, events and records cross as
//! dbcore's serde JSON. Translation only: every rule is dbcore's.

use std::ffi::c_char;

use dbcore::battle::prebattle::{Prebattle, PrebattleAction, PrebattleRecord, PrebattleSetup};
use serde::Serialize;

use crate::boundary::{arg_str, boundary, FfiError, Out};
use crate::json::to_c_string;
use crate::DbcoreStatus;

/// # Safety
/// `p` must be NULL or a NUL-terminated string.
unsafe fn json_arg<T: serde::de::DeserializeOwned>(
    p: *const c_char,
    what: &str,
) -> Result<T, FfiError> {
    // SAFETY: the caller's contract on `p`.
    let text = unsafe { arg_str(p, what) }?;
    crate::boundary::parse(text)
}

/// Write `value` as JSON to `out`.
fn give<T: Serialize>(out: Out<*mut c_char>, value: &T) -> Result<(), FfiError> {
    let json = to_c_string(value)?;
    // SAFETY: `out` was checked by `Out::new` against the caller's contract.
    unsafe { out.write(json) };
    Ok(())
}

/// Play a whole game with dbcore's demonstration driver: the pre-battle (aggression, terrain,
/// base edges, camps, deployment) and then the battle, dice and choices drawn from `seed`, until
/// an army loses or `max_bounds` bounds have begun. `setup_json` is a JSON
/// `dbcore::battle::prebattle::PrebattleSetup` (`{"variant":"standard","armies":[{"name":...,
/// "aggression":3,"home_terrain":"arable","elements":[{"kind":"4Bd"},...]},...]}`), or NULL
/// for the demonstration armies. `*out_json` becomes `{"record": <the game record, format
/// "dbcore-game": {"prebattle": ..., "actions": [...], ...}>, "prebattle_events": [...], "setup":
/// ..., "events": [...], "bounds": n, "verdict": ... or null}`. Free it with
/// `dbcore_string_free`.
///
/// # Safety
/// `setup_json` must be NULL or a NUL-terminated string; `out_json` must be valid for writes
/// (NULL gives `DBCORE_STATUS_NULL_ARGUMENT`).
///
/// # Errors
/// `DBCORE_STATUS_INVALID_UTF8`, `DBCORE_STATUS_INVALID_JSON`, `DBCORE_STATUS_INVALID_SETUP`.
///
/// # Example
/// ```c
/// char *game = NULL;
/// if (dbcore_play_game_json(NULL, 42, 40, &game) == DBCORE_STATUS_OK) puts(game);
/// dbcore_string_free(game);
/// ```
#[no_mangle]
pub unsafe extern "C" fn dbcore_play_game_json(
    setup_json: *const c_char,
    seed: u64,
    max_bounds: u32,
    out_json: *mut *mut c_char,
) -> DbcoreStatus {
    boundary(|| {
        let out = Out::new(out_json, "out_json")?;
        let setup: PrebattleSetup = if setup_json.is_null() {
            dbcore::driver::demo_armies()
        } else {
            // SAFETY: the caller's contract on `setup_json`.
            unsafe { json_arg(setup_json, "setup_json") }?
        };
        let game = dbcore::driver::play_game(setup, seed, max_bounds)?;
        give(out, &game)
    })
}

/// As `dbcore_play_game_json`, between the default armies of two bundled army lists named by
/// id (`"II/56"`, `"II/53"`).
///
/// # Safety
/// `first` and `second` must be NUL-terminated strings; `out_json` must be valid for writes.
/// NULL gives `DBCORE_STATUS_NULL_ARGUMENT`.
///
/// # Errors
/// `DBCORE_STATUS_INVALID_UTF8`; `DBCORE_STATUS_INVALID_ARGUMENT` for an id that is malformed
/// or names no bundled list.
///
/// # Example
/// ```c
/// char *game = NULL;
/// dbcore_play_lists_json("II/56", "II/53", 1, 60, &game);
/// dbcore_string_free(game);
/// ```
#[no_mangle]
pub unsafe extern "C" fn dbcore_play_lists_json(
    first: *const c_char,
    second: *const c_char,
    seed: u64,
    max_bounds: u32,
    out_json: *mut *mut c_char,
) -> DbcoreStatus {
    boundary(|| {
        let out = Out::new(out_json, "out_json")?;
        // SAFETY: the caller's contract on `first` and `second`.
        let (a, b) = unsafe { (arg_str(first, "first")?, arg_str(second, "second")?) };
        let game = dbcore::driver::play_lists(a, b, seed, max_bounds)?;
        give(out, &game)
    })
}

/// Replay a whole game's record (`{"prebattle": {"setup": ..., "actions": [...]}, "battle":
/// [...]}`): `*out_json` becomes `{"prebattle_events": [...], "setup": ..., "events": [...]}`,
/// the events of the pre-battle, the set-up it produced and the battle's events. Free it with
/// `dbcore_string_free`.
///
/// # Safety
/// `record_json` must be a NUL-terminated string and `out_json` valid for writes; NULL gives
/// `DBCORE_STATUS_NULL_ARGUMENT`.
///
/// # Errors
/// `DBCORE_STATUS_INVALID_UTF8`, `DBCORE_STATUS_INVALID_JSON`; the refusal of the first action
/// that does not replay (its rule in the last error).
///
/// # Example
/// ```c
/// char *replayed = NULL;
/// dbcore_game_replay_json(record, &replayed);
/// dbcore_string_free(replayed);
/// ```
#[no_mangle]
pub unsafe extern "C" fn dbcore_game_replay_json(
    record_json: *const c_char,
    out_json: *mut *mut c_char,
) -> DbcoreStatus {
    boundary(|| {
        let out = Out::new(out_json, "out_json")?;
        // SAFETY: the caller's contract on `record_json`.
        let v: serde_json::Value = unsafe { json_arg(record_json, "record_json") }?;
        let file = dbcore::record::GameFile::from_value(v)?;
        match file.replay()? {
            dbcore::record::Replayed::Battle {
                prebattle_events,
                battle: dbcore::game::AnyBattle::Dba(b),
                events,
                ..
            } => give(
                out,
                &serde_json::json!({
                    "prebattle_events": prebattle_events,
                    "setup": b.setup(),
                    "events": events,
                }),
            ),
            _ => Err(FfiError::invalid(
                "a DBA game that reaches its battle is replayed here",
            )),
        }
    })
}

/// One pre-battle step: replay `record_json` (a `PrebattleRecord`, `{"setup": ..., "actions":
/// [...]}`; an empty action list starts a new pre-battle), then check `action_json` (a
/// `PrebattleAction` such as `{"action":"roll_aggression","dice":[3,5]}`) and, when `apply` is
/// non-zero, apply it. `*out_json` becomes `{"record": ..., "events": [...], "awaiting": ... or
/// null, "setup": BattleSetup or null}`: the record with the action (when applied), the events
/// it causes, what is wanted next, and the battle set-up once the pre-battle is done. A NULL
/// `action_json` only reports where the record stands. A refusal names its rule in the last
/// error and changes nothing.
///
/// # Safety
/// `record_json` must be a NUL-terminated string, `action_json` NULL or one, `out_json` valid
/// for writes.
///
/// # Errors
/// `DBCORE_STATUS_INVALID_UTF8`, `DBCORE_STATUS_INVALID_JSON`, `DBCORE_STATUS_INVALID_SETUP`
/// for entering armies that break the rules, and the refusal's status for an illegal action.
///
/// # Example
/// ```c
/// char *step = NULL;
/// dbcore_prebattle_step_json(record, "{\"action\":\"roll_aggression\",\"dice\":[2,5]}", 1, &step);
/// dbcore_string_free(step);
/// ```
#[no_mangle]
pub unsafe extern "C" fn dbcore_prebattle_step_json(
    record_json: *const c_char,
    action_json: *const c_char,
    apply: u32,
    out_json: *mut *mut c_char,
) -> DbcoreStatus {
    boundary(|| {
        let out = Out::new(out_json, "out_json")?;
        // SAFETY: the caller's contract on `record_json`.
        let record: PrebattleRecord = unsafe { json_arg(record_json, "record_json") }?;
        let action: Option<PrebattleAction> = if action_json.is_null() {
            None
        } else {
            // SAFETY: the caller's contract on `action_json`.
            Some(unsafe { json_arg(action_json, "action_json") }?)
        };
        let (mut pre, _) = Prebattle::replay(&record)?;
        let events = match action {
            None => Vec::new(),
            Some(a) if apply != 0 => pre.apply(a)?,
            Some(a) => pre.check(&a)?,
        };
        give(
            out,
            &serde_json::json!({
                "record": pre.record(),
                "events": events,
                "awaiting": pre.awaiting(),
                "setup": pre.battle_setup(),
            }),
        )
    })
}

/// The demonstration armies before the battle (a `PrebattleSetup`: Romans and Ancient Britons,
/// no positions) as JSON. Free `*out_json` with `dbcore_string_free`.
///
/// # Safety
/// `out_json` must be valid for writes (NULL gives `DBCORE_STATUS_NULL_ARGUMENT`).
///
/// # Errors
/// `DBCORE_STATUS_NULL_ARGUMENT`.
///
/// # Example
/// ```c
/// char *armies = NULL;
/// dbcore_demo_armies_json(&armies);
/// dbcore_string_free(armies);
/// ```
#[no_mangle]
pub unsafe extern "C" fn dbcore_demo_armies_json(out_json: *mut *mut c_char) -> DbcoreStatus {
    boundary(|| {
        let out = Out::new(out_json, "out_json")?;
        give(out, &dbcore::driver::demo_armies())
    })
}
