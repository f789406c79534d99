//! The demonstration driver (`dbcore::driver`) for C programs: play a whole battle from a seed.
//! Translation only: the driver and every rule are dbcore's.

use std::ffi::c_char;

use dbcore::battle::BattleSetup;

use crate::boundary::{arg_str, boundary, FfiError, Out};
use crate::json::to_c_string;
use crate::DbcoreStatus;

/// Play a whole battle with dbcore's demonstration driver (both armies advance on the nearest
/// enemy, make contact when they can, spend PIPs greedily, shoot and fight), dice drawn from
/// `seed`, until an army loses or `max_bounds` bounds have begun. `setup_json` is a JSON
/// `dbcore::battle::BattleSetup`, or NULL for the demonstration battle. `*out_json` becomes
/// `{"record": ..., "events": [...], "bounds": n, "verdict": ... or null}`; replaying the record
/// gives the same events. Free it with `dbcore_string_free`.
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
/// char *played = NULL;
/// if (dbcore_play_json(NULL, 42, 40, &played) == DBCORE_STATUS_OK) puts(played);
/// dbcore_string_free(played);
/// ```
#[no_mangle]
pub unsafe extern "C" fn dbcore_play_json(
    setup_json: *const c_char,
    seed: u64,
    max_bounds: u32,
    out_json: *mut *mut c_char,
) -> DbcoreStatus {
    boundary(|| {
        let out = Out::new(out_json, "out_json")?;
        let setup: BattleSetup = if setup_json.is_null() {
            dbcore::driver::demo_setup()
        } else {
            // SAFETY: the caller's contract on `setup_json`.
            let text = unsafe { arg_str(setup_json, "setup_json") }?;
            crate::boundary::parse(text)?
        };
        let driven = dbcore::driver::play(setup, seed, max_bounds).map_err(FfiError::from)?;
        let json = to_c_string(&driven)?;
        // SAFETY: the caller's contract on `out_json`.
        unsafe { out.write(json) };
        Ok(())
    })
}

/// The set-up of the demonstration battle (Romans against Ancient Britons) as JSON. Free
/// `*out_json` with `dbcore_string_free`.
///
/// # Safety
/// `out_json` must be valid for writes (NULL gives `DBCORE_STATUS_NULL_ARGUMENT`).
///
/// # Errors
/// `DBCORE_STATUS_NULL_ARGUMENT`.
///
/// # Example
/// ```c
/// char *setup = NULL;
/// dbcore_demo_setup_json(&setup);
/// DbcoreBattle *battle = NULL;
/// dbcore_battle_new_json(setup, &battle);
/// dbcore_string_free(setup);
/// ```
#[no_mangle]
pub unsafe extern "C" fn dbcore_demo_setup_json(out_json: *mut *mut c_char) -> DbcoreStatus {
    boundary(|| {
        let out = Out::new(out_json, "out_json")?;
        let json = to_c_string(&dbcore::driver::demo_setup())?;
        // SAFETY: the caller's contract on `out_json`.
        unsafe { out.write(json) };
        Ok(())
    })
}
