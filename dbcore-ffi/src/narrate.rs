//! The story of a battle in English, for a C program's log or screen: the lines of
//! `dbcore::battle::narrate` (a DBA battle) and `dbcore::dbaix::driver::narrate` (a DBAix game),
//! one a line of event, as a JSON array of strings. The rules' words are dbcore's; this module
//! only finds the events and writes the array.

use std::ffi::c_char;

use dbcore::battle::{self, Battle};
use dbcore::dbaix;
use dbcore::game::AnyBattle;
use dbcore::ErrorCode;

use crate::battle::{ask_any, DbcoreBattle};
use crate::boundary::{arg_str, boundary, parse, FfiError, Out};
use crate::json::to_c_string;
use crate::DbcoreStatus;

/// The lines of `events`, told with the names of the battle's set-up.
fn tell(game: &AnyBattle, events: &str) -> Result<Vec<String>, FfiError> {
    Ok(match game {
        AnyBattle::Dba(b) => {
            battle::narrate::narrate(b.setup(), &parse::<Vec<battle::Event>>(events)?)
        }
        AnyBattle::Dbaix(b) => {
            dbaix::driver::narrate(b.setup(), &parse::<Vec<dbaix::Event>>(events)?)
        }
    })
}

/// Every line of the battle's story: its record replayed gives every event in order (the
/// events the calls that made the battle returned), and each is told in the light of those
/// before it (an outcome move after a combat is a recoil, a flight or a pursuit).
fn story(game: &AnyBattle) -> Result<Vec<String>, FfiError> {
    // A battle's own record always replays; a failure here is dbcore's fault, not the caller's.
    let internal = |e: String| {
        FfiError::new(
            ErrorCode::Internal,
            format!("internal error: the battle's record did not replay ({e})"),
        )
    };
    Ok(match game {
        AnyBattle::Dba(b) => {
            let (_, events) = Battle::replay(&b.record()).map_err(|e| internal(e.to_string()))?;
            battle::narrate::narrate(b.setup(), &events)
        }
        AnyBattle::Dbaix(b) => {
            let (_, events) =
                dbaix::Battle::replay(&b.record()).map_err(|e| internal(e.to_string()))?;
            dbaix::driver::narrate(b.setup(), &events)
        }
    })
}

/// The battle's story told as a player would tell it, from event number `from` on (0 for the
/// whole battle), as a JSON array of strings: item `k` tells event `from + k` of the battle,
/// counting every event of its record in order (the events `dbcore_battle_replay_json` gives,
/// which are the events the calls that made the battle returned, one after another). An event
/// a player would not mention is told as `""`, so the count stays in step with the events; a
/// `from` at or past the last event gives `[]`. A program that shows the story as it goes keeps
/// the number of lines it has shown and asks from there. Free `*out_json` with
/// `dbcore_string_free`.
///
/// A DBA battle is told with its armies' names and the verbs agreeing ("the Romans roll 1
/// PIP", "Britons 3Wb #103 recoils 0.50 BW", "Romans 4Bd #3 pursues 0.50 BW"); a DBAix game
/// with its figures' names. The first bound has no "-- bound 1" line: the battle starts in it.
///
/// # Safety
/// `battle` must be a live battle handle and `out_json` valid for writes; either may be NULL
/// (then `DBCORE_STATUS_NULL_ARGUMENT`).
///
/// # Errors
/// `DBCORE_STATUS_POISONED`.
///
/// # Example
/// ```c
/// char *lines = NULL;
/// uint32_t n = 0;
/// if (dbcore_battle_narrate_json(battle, 0, &lines) == DBCORE_STATUS_OK &&
///     dbcore_json_array_len(lines, &n) == DBCORE_STATUS_OK)
///     printf("%u events so far\n", n);
/// dbcore_string_free(lines);
/// ```
#[no_mangle]
pub unsafe extern "C" fn dbcore_battle_narrate_json(
    battle: *const DbcoreBattle,
    from: u64,
    out_json: *mut *mut c_char,
) -> DbcoreStatus {
    boundary(|| {
        let out = Out::new(out_json, "out_json")?;
        // SAFETY: the caller's contract on `battle`.
        let json = unsafe {
            ask_any(battle, |g| {
                let lines = story(g)?;
                let from = usize::try_from(from).unwrap_or(usize::MAX).min(lines.len());
                to_c_string(&lines[from..].to_vec())
            })
        }?;
        // SAFETY: the caller's contract on `out_json`.
        unsafe { out.write(json) };
        Ok(())
    })
}

/// A JSON array of events of this battle (as `dbcore_battle_apply_json` or
/// `dbcore_battle_check_json` returned them) told as a player would tell them, with the names
/// of the battle's set-up: a JSON array of strings, one for each event, `""` for an event a
/// player would not mention. Events are told in the light of those before them in the array,
/// so pass the events of one call together. Free `*out_json` with `dbcore_string_free`.
///
/// # Safety
/// `battle` must be a live battle handle, `events_json` a NUL-terminated string and `out_json`
/// valid for writes; any may be NULL (then `DBCORE_STATUS_NULL_ARGUMENT`).
///
/// # Errors
/// `DBCORE_STATUS_INVALID_UTF8`, `DBCORE_STATUS_INVALID_JSON` (not an array of this game's
/// events; the message names the field); `DBCORE_STATUS_POISONED`.
///
/// # Example
/// ```c
/// char *events = NULL, *lines = NULL;
/// if (dbcore_battle_apply_json(battle, "{\"action\":\"end_movement\"}", &events)
///         == DBCORE_STATUS_OK &&
///     dbcore_battle_narrate_events_json(battle, events, &lines) == DBCORE_STATUS_OK)
///     puts(lines);
/// dbcore_string_free(lines);
/// dbcore_string_free(events);
/// ```
#[no_mangle]
pub unsafe extern "C" fn dbcore_battle_narrate_events_json(
    battle: *const DbcoreBattle,
    events_json: *const c_char,
    out_json: *mut *mut c_char,
) -> DbcoreStatus {
    boundary(|| {
        let out = Out::new(out_json, "out_json")?;
        // SAFETY: the caller's contract on `events_json`.
        let text = unsafe { arg_str(events_json, "events_json") }?;
        // SAFETY: the caller's contract on `battle`.
        let json = unsafe { ask_any(battle, |g| to_c_string(&tell(g, text)?)) }?;
        // SAFETY: the caller's contract on `out_json`.
        unsafe { out.write(json) };
        Ok(())
    })
}
