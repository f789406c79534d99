//! A battle (`dbcore::battle::Battle`) as an opaque handle, spoken to in JSON: set-up, actions,
//! events, records and the whole state cross as dbcore's serde JSON, so an action or event the
//! rules add later passes through this file untouched. Every rule is dbcore's; this file only
//! translates.
//!
//! The handle holds a battle of either game the project plays (`dbcore::game::AnyBattle`): a
//! set-up or record whose `variant` is `"dbaix"` starts the three-sided Asterix variant
//! (`dbcore::dbaix`, DBAIX.md §2), any other a DBA 3.0 battle. Set-up, actions, events, records,
//! the dice awaited, the state, the phase, PIPs and bound then cross the same functions; the
//! questions only a DBA battle can answer (its table; a battle rebuilt from a saved state) refuse
//! or do not make a DBAix battle.

use std::ffi::c_char;

use dbcore::battle::{Action, Battle, BattleRecord, BattleSetup, Event};
use dbcore::dbaix;
use dbcore::game::{AnyBattle, AnyRecord, GameError};
use dbcore::ErrorCode;

use crate::boundary::{arg, arg_str, boundary, free_handle, FfiError, Guarded, Out};
use crate::dice::DbcoreDice;
use crate::json::{text_to_c_string, to_c_string};
use crate::table::DbcoreTable;
use crate::DbcoreStatus;

/// A battle in progress (an opaque handle over `dbcore::battle::Battle`). Actions change it
/// through `DbcoreBattle *`, used by one thread at a time; questions read it through
/// `const DbcoreBattle *`, and may be asked from many threads at once while no action runs. A
/// call that breaks this gets `DBCORE_STATUS_HANDLE_BUSY` rather than a race.
#[derive(Debug)]
pub struct DbcoreBattle {
    guard: Guarded<AnyBattle>,
}

impl DbcoreBattle {
    fn boxed_any(battle: AnyBattle) -> *mut DbcoreBattle {
        Box::into_raw(Box::new(DbcoreBattle {
            guard: Guarded::new(battle),
        }))
    }
}

/// The refusal of a DBA-only question put to a DBAix battle.
fn dba_only() -> FfiError {
    FfiError::invalid("this function answers for a DBA battle; the handle holds a DBAix game")
}

/// Whether a JSON set-up (or, with `in_setup`, a record) is of the DBAix variant.
fn is_dbaix(text: &str, in_setup: bool) -> bool {
    let Ok(v) = serde_json::from_str::<serde_json::Value>(text) else {
        return false;
    };
    let s = if in_setup { v.get("setup") } else { Some(&v) };
    s.and_then(|s| s.get("variant")).and_then(|t| t.as_str()) == Some("dbaix")
}

/// Ask a question of a live battle handle, of either game.
///
/// # Safety
/// If non-NULL, `battle` must be a live battle handle.
pub(crate) unsafe fn ask_any<T>(
    battle: *const DbcoreBattle,
    f: impl FnOnce(&AnyBattle) -> Result<T, FfiError>,
) -> Result<T, FfiError> {
    // SAFETY: the caller's contract on `battle`.
    let handle = unsafe { arg(battle, "battle") }?;
    handle.guard.read(f)
}

/// Ask a question only a DBA battle answers.
///
/// # Safety
/// If non-NULL, `battle` must be a live battle handle.
pub(crate) unsafe fn ask<T>(
    battle: *const DbcoreBattle,
    f: impl FnOnce(&Battle) -> Result<T, FfiError>,
) -> Result<T, FfiError> {
    // SAFETY: the caller's contract on `battle`.
    unsafe {
        ask_any(battle, |g| match g {
            AnyBattle::Dba(b) => f(b),
            AnyBattle::Dbaix(_) => Err(dba_only()),
        })
    }
}

/// Change a live battle handle, of either game.
///
/// # Safety
/// If non-NULL, `battle` must be a live battle handle (another call using it meanwhile gives
/// `DBCORE_STATUS_HANDLE_BUSY`).
unsafe fn change_any<T>(
    battle: *mut DbcoreBattle,
    f: impl FnOnce(&mut AnyBattle) -> Result<T, FfiError>,
) -> Result<T, FfiError> {
    // SAFETY: the caller's contract on `battle`.
    let handle = unsafe { arg(battle.cast_const(), "battle") }?;
    handle.guard.write(f)
}

/// Change a DBA battle.
///
/// # Safety
/// If non-NULL, `battle` must be a live battle handle used by no one else meanwhile.
#[cfg(test)]
unsafe fn change<T>(
    battle: *mut DbcoreBattle,
    f: impl FnOnce(&mut Battle) -> Result<T, FfiError>,
) -> Result<T, FfiError> {
    // SAFETY: the caller's contract on `battle`.
    unsafe {
        change_any(battle, |g| match g {
            AnyBattle::Dba(b) => f(b),
            AnyBattle::Dbaix(_) => Err(dba_only()),
        })
    }
}

/// A battle from its saved state in either spelling (`dbcore::game::AnyBattle::from_state_json`):
/// a compact DBA state is checked by its digest, a full state (DBA or DBAix) by replaying the
/// record inside it, so a state edited by hand is refused either way.
pub(crate) fn any_battle_from_state(text: &str) -> Result<AnyBattle, FfiError> {
    AnyBattle::from_state_json(text).map_err(FfiError::from)
}

/// A DBA battle from its saved state (see [`any_battle_from_state`]).
#[cfg(test)]
pub(crate) fn battle_from_state(text: &str) -> Result<Battle, FfiError> {
    match any_battle_from_state(text)? {
        AnyBattle::Dba(b) => Ok(*b),
        AnyBattle::Dbaix(_) => Err(dba_only()),
    }
}

/// Start a battle from a JSON `dbcore::battle::BattleSetup` (`{"format":"dbcore-battle",
/// "version":1,"variant":"standard","battlefield":{...},"armies":[...],"first":0}`): the first
/// army's first bound, awaiting its PIP die. A `dbcore::dbaix::DbaixSetup`
/// (`{"format":"dbcore-dbaix","variant":"dbaix","figures":[...]}`) starts a DBAix game instead
/// (DBAIX.md §2). Free it with `dbcore_battle_free`.
///
/// # Safety
/// `setup_json` must be a NUL-terminated string and `out` valid for writes; either may be NULL
/// (then `DBCORE_STATUS_NULL_ARGUMENT`). `*out` is written only on success.
///
/// # Errors
/// `DBCORE_STATUS_INVALID_UTF8`, `DBCORE_STATUS_INVALID_JSON`; `DBCORE_STATUS_INVALID_SETUP`
/// when the set-up breaks the rules, with every problem listed in the last error's message
/// (`the battle set-up has 2 problem(s): ...; ...`).
///
/// # Example
/// ```c
/// DbcoreBattle *battle = NULL;
/// if (dbcore_battle_new_json(setup, &battle) != DBCORE_STATUS_OK) {
///     char msg[1024];
///     dbcore_last_error_message(msg, sizeof msg);
///     fprintf(stderr, "%s\n", msg);
/// }
/// ```
#[no_mangle]
pub unsafe extern "C" fn dbcore_battle_new_json(
    setup_json: *const c_char,
    out: *mut *mut DbcoreBattle,
) -> DbcoreStatus {
    boundary(|| {
        let out = Out::new(out, "out")?;
        // SAFETY: the caller's contract on `setup_json`.
        let text = unsafe { arg_str(setup_json, "setup_json") }?;
        let battle = if is_dbaix(text, false) {
            let setup: dbaix::DbaixSetup = crate::boundary::parse(text)?;
            AnyBattle::Dbaix(Box::new(dbaix::Battle::new(setup)?))
        } else {
            let setup: BattleSetup = crate::boundary::parse(text)?;
            AnyBattle::Dba(Box::new(Battle::new(setup)?))
        };
        // SAFETY: the caller's contract on `out`.
        unsafe { out.write(DbcoreBattle::boxed_any(battle)) };
        Ok(())
    })
}

/// Free a battle. NULL is ignored.
///
/// # Safety
/// `battle` must be NULL or a battle handle not freed before, and no other thread may be using
/// it.
///
/// # Example
/// ```c
/// dbcore_battle_free(battle);
/// battle = NULL;
/// ```
#[no_mangle]
pub unsafe extern "C" fn dbcore_battle_free(battle: *mut DbcoreBattle) {
    boundary(|| {
        // SAFETY: `battle` is NULL or came from `Box::into_raw` in this file (the caller's
        // contract).
        unsafe { free_handle(battle, |h| &h.guard) }
    })
}

/// A new handle holding a copy of the battle, which then goes its own way; free each with
/// `dbcore_battle_free`.
///
/// # Safety
/// `battle` must be a live battle handle and `out` valid for writes; either may be NULL (then
/// `DBCORE_STATUS_NULL_ARGUMENT`).
///
/// # Errors
/// `DBCORE_STATUS_POISONED` after a panic inside this handle.
///
/// # Example
/// ```c
/// DbcoreBattle *what_if = NULL;
/// dbcore_battle_clone(battle, &what_if);
/// ```
#[no_mangle]
pub unsafe extern "C" fn dbcore_battle_clone(
    battle: *const DbcoreBattle,
    out: *mut *mut DbcoreBattle,
) -> DbcoreStatus {
    boundary(|| {
        let out = Out::new(out, "out")?;
        // SAFETY: the caller's contract on `battle`.
        let copy = unsafe { ask_any(battle, |b| Ok(b.clone())) }?;
        // SAFETY: the caller's contract on `out`.
        unsafe { out.write(DbcoreBattle::boxed_any(copy)) };
        Ok(())
    })
}

/// The events a JSON `dbcore::battle::Action` would cause, as a JSON array of
/// `dbcore::battle::Event`, without changing the battle. Actions are tagged objects:
/// `{"action":"roll_pips","die":4}`, `{"action":"move","order":{"type":"element","id":2,
/// "path":[{"x":6.5,"y":5,"facing":0}]}}`, `{"action":"end_movement"}`. Free
/// `*out_events_json` with `dbcore_string_free`.
///
/// # Safety
/// `battle` must be a live battle handle, `action_json` a NUL-terminated string and
/// `out_events_json` valid for writes; any may be NULL (then `DBCORE_STATUS_NULL_ARGUMENT`).
///
/// # Errors
/// `DBCORE_STATUS_INVALID_UTF8`, `DBCORE_STATUS_INVALID_JSON` (including a die outside 1..=6),
/// and the refusal's own status with its rule and message in the last error:
/// `DBCORE_STATUS_WRONG_PHASE`, `DBCORE_STATUS_NOT_ENOUGH_PIPS`, `DBCORE_STATUS_ILLEGAL_MOVE`,
/// `DBCORE_STATUS_BATTLE_OVER`, `DBCORE_STATUS_UNKNOWN_ELEMENT`; `DBCORE_STATUS_POISONED`.
///
/// # Example
/// ```c
/// char *events = NULL;
/// if (dbcore_battle_check_json(battle, "{\"action\":\"end_movement\"}", &events)
///         == DBCORE_STATUS_OK)
///     puts(events);
/// dbcore_string_free(events);
/// ```
#[no_mangle]
pub unsafe extern "C" fn dbcore_battle_check_json(
    battle: *const DbcoreBattle,
    action_json: *const c_char,
    out_events_json: *mut *mut c_char,
) -> DbcoreStatus {
    boundary(|| {
        let out = Out::new(out_events_json, "out_events_json")?;
        // SAFETY: the caller's contract on `action_json`.
        let text = unsafe { arg_str(action_json, "action_json") }?;
        // SAFETY: the caller's contract on `battle`.
        let json = unsafe {
            ask_any(battle, |g| match g {
                AnyBattle::Dba(b) => {
                    let action: Action = crate::boundary::parse(text)?;
                    to_c_string(&b.check(&action)?)
                }
                AnyBattle::Dbaix(b) => {
                    let action: dbaix::Action = crate::boundary::parse(text)?;
                    to_c_string(&b.check(&action)?)
                }
            })
        }?;
        // SAFETY: the caller's contract on `out_events_json`.
        unsafe { out.write(json) };
        Ok(())
    })
}

/// Do a JSON `dbcore::battle::Action` (as `dbcore_battle_check_json` reads it): the events it
/// causes are committed and written as a JSON array. A refused action changes nothing: the
/// battle's state JSON is the same after the call as before. Free `*out_events_json` with
/// `dbcore_string_free`.
///
/// # Safety
/// `battle` must be a live battle handle used by no other thread meanwhile, `action_json` a
/// NUL-terminated string and `out_events_json` valid for writes; any may be NULL (then
/// `DBCORE_STATUS_NULL_ARGUMENT`).
///
/// # Errors
/// As `dbcore_battle_check_json`.
///
/// # Example
/// ```c
/// char *events = NULL;
/// DbcoreStatus s = dbcore_battle_apply_json(battle, move_json, &events);
/// if (s == DBCORE_STATUS_NOT_ENOUGH_PIPS) {
///     char rule[32];
///     dbcore_last_error_rule(rule, sizeof rule); // "§6.3"
/// }
/// dbcore_string_free(events);
/// ```
#[no_mangle]
pub unsafe extern "C" fn dbcore_battle_apply_json(
    battle: *mut DbcoreBattle,
    action_json: *const c_char,
    out_events_json: *mut *mut c_char,
) -> DbcoreStatus {
    boundary(|| {
        let out = Out::new(out_events_json, "out_events_json")?;
        // SAFETY: the caller's contract on `action_json`.
        let text = unsafe { arg_str(action_json, "action_json") }?;
        // SAFETY: the caller's contract on `battle`.
        let json = unsafe {
            change_any(battle, |g| match g {
                AnyBattle::Dba(b) => {
                    let action: Action = crate::boundary::parse(text)?;
                    apply(b, action)
                }
                AnyBattle::Dbaix(b) => {
                    let action: dbaix::Action = crate::boundary::parse(text)?;
                    to_c_string(&b.apply(action)?)
                }
            })
        }?;
        // SAFETY: the caller's contract on `out_events_json`.
        unsafe { out.write(json) };
        Ok(())
    })
}

/// Apply `action` and write its events for C. dbcore's events are plain data, so writing them
/// as JSON cannot fail once the battle has changed.
fn apply(b: &mut Battle, action: Action) -> Result<*mut c_char, FfiError> {
    let events: Vec<Event> = b.apply(action)?;
    to_c_string(&events)
}

/// Draw the PIP die from a seeded dice handle and apply `{"action":"roll_pips","die":N}` with
/// it, writing the events (`[{"event":"pips_rolled","army":0,"die":4,"pips":4}]`); in Big
/// Battle and Giant, one die for each command still rolling, as `roll_command_pips` (§14.4). When the
/// battle refuses the roll (it is not waiting for PIPs), neither the battle nor the dice change:
/// the die is drawn from a copy of the dice first. Free `*out_events_json` with
/// `dbcore_string_free`.
///
/// # Safety
/// `battle` and `dice` must be live handles used by no other thread meanwhile and
/// `out_events_json` valid for writes; any may be NULL (then `DBCORE_STATUS_NULL_ARGUMENT`).
///
/// # Errors
/// `DBCORE_STATUS_WRONG_PHASE`, `DBCORE_STATUS_BATTLE_OVER`; `DBCORE_STATUS_POISONED`.
///
/// # Example
/// ```c
/// DbcoreDice *dice = NULL;
/// char *events = NULL;
/// dbcore_dice_new(42, &dice);
/// dbcore_battle_roll_pips(battle, dice, &events);
/// dbcore_string_free(events);
/// ```
#[no_mangle]
pub unsafe extern "C" fn dbcore_battle_roll_pips(
    battle: *mut DbcoreBattle,
    dice: *mut DbcoreDice,
    out_events_json: *mut *mut c_char,
) -> DbcoreStatus {
    boundary(|| {
        let out = Out::new(out_events_json, "out_events_json")?;
        // SAFETY: the caller's contract on `dice`.
        let dice = unsafe { arg(dice.cast_const(), "dice") }?;
        // SAFETY: the caller's contract on `battle`.
        let json = unsafe {
            change_any(battle, |g| {
                dice.guard().write(|d| {
                    let mut next = d.clone();
                    let json = match g {
                        // Big Battle and Giant: one die per command still rolling (§14.4).
                        AnyBattle::Dba(b) if b.has_commands() => {
                            let n = b.rolling_commands().len();
                            let dice = (0..n).map(|_| next.roll()).collect();
                            apply(b, Action::RollCommandPips { dice })?
                        }
                        AnyBattle::Dba(b) => apply(b, Action::RollPips { die: next.roll() })?,
                        AnyBattle::Dbaix(b) => {
                            let die = next.roll();
                            to_c_string(&b.apply(dbaix::Action::RollPips { die })?)?
                        }
                    };
                    *d = next;
                    Ok(json)
                })
            })
        }?;
        // SAFETY: the caller's contract on `out_events_json`.
        unsafe { out.write(json) };
        Ok(())
    })
}

/// The dice the battle waits for, as a JSON `dbcore::battle::DiceRequest`
/// (`{"for":"pips","army":0}`), or the JSON text `null` when it waits for none. Free
/// `*out_json` with `dbcore_string_free`.
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
/// char *awaiting = NULL;
/// dbcore_battle_awaiting_json(battle, &awaiting);
/// if (strcmp(awaiting, "null") != 0) printf("roll for %s\n", awaiting);
/// dbcore_string_free(awaiting);
/// ```
#[no_mangle]
pub unsafe extern "C" fn dbcore_battle_awaiting_json(
    battle: *const DbcoreBattle,
    out_json: *mut *mut c_char,
) -> DbcoreStatus {
    boundary(|| {
        let out = Out::new(out_json, "out_json")?;
        // SAFETY: the caller's contract on `battle`.
        let json = unsafe { ask_any(battle, |b| to_c_string(&b.awaiting())) }?;
        // SAFETY: the caller's contract on `out_json`.
        unsafe { out.write(json) };
        Ok(())
    })
}

/// What the side to move may do now, as JSON (a `dbcore::battle::Legal`: the dice awaited, the
/// elements that may move with their PIP cost and reach, the shots with their targets, the
/// combats to fight in order). Free `*out_json` with `dbcore_string_free`.
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
/// char *legal = NULL;
/// dbcore_battle_legal_json(battle, &legal);
/// puts(legal);
/// dbcore_string_free(legal);
/// ```
#[no_mangle]
pub unsafe extern "C" fn dbcore_battle_legal_json(
    battle: *const DbcoreBattle,
    out_json: *mut *mut c_char,
) -> DbcoreStatus {
    boundary(|| {
        let out = Out::new(out_json, "out_json")?;
        // SAFETY: the caller's contract on `battle`.
        let json = unsafe { ask(battle, |b| to_c_string(&b.legal())) }?;
        // SAFETY: the caller's contract on `out_json`.
        unsafe { out.write(json) };
        Ok(())
    })
}

/// The battle's whole state as JSON, the form `dbcore_battle_from_state_json` reads: for a DBA
/// battle the compact state (`{"format":"dbcore-state",...,"digest":"..."}`: the set-up, the
/// actions so far and what changed since the set-up, with a digest of it all; docs/json.md), for
/// a DBAix game its full state (a `dbcore::dbaix::Battle`). Free `*out_json` with
/// `dbcore_string_free`.
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
/// char *state = NULL;
/// dbcore_battle_state_json(battle, &state);
/// fputs(state, save_file);
/// dbcore_string_free(state);
/// ```
#[no_mangle]
pub unsafe extern "C" fn dbcore_battle_state_json(
    battle: *const DbcoreBattle,
    out_json: *mut *mut c_char,
) -> DbcoreStatus {
    boundary(|| {
        let out = Out::new(out_json, "out_json")?;
        // SAFETY: the caller's contract on `battle`.
        let json = unsafe { ask_any(battle, |b| text_to_c_string(b.state_json())) }?;
        // SAFETY: the caller's contract on `out_json`.
        unsafe { out.write(json) };
        Ok(())
    })
}

/// A battle from its state JSON (as `dbcore_battle_state_json` writes it), of either game: a
/// state whose set-up is a DBAix scenario (`"format":"dbcore-dbaix"`) gives a DBAix game. A
/// compact state is accepted when its digest matches what it holds (no replay); a full state
/// (without digest, as earlier versions wrote it) only when replaying the set-up and actions
/// inside it gives exactly that state. A hand-edited position is refused either way. Free the
/// handle with `dbcore_battle_free`.
///
/// # Safety
/// `state_json` must be a NUL-terminated string and `out` valid for writes; either may be NULL
/// (then `DBCORE_STATUS_NULL_ARGUMENT`). `*out` is written only on success.
///
/// # Errors
/// `DBCORE_STATUS_INVALID_UTF8`, `DBCORE_STATUS_INVALID_JSON`; `DBCORE_STATUS_INVALID_SETUP` or
/// an action's refusal status when the record inside does not replay;
/// `DBCORE_STATUS_INVALID_ARGUMENT` when it replays to a different state, or when a compact
/// state's digest does not match.
///
/// # Example
/// ```c
/// DbcoreBattle *restored = NULL;
/// if (dbcore_battle_from_state_json(saved_text, &restored) != DBCORE_STATUS_OK) return 1;
/// ```
#[no_mangle]
pub unsafe extern "C" fn dbcore_battle_from_state_json(
    state_json: *const c_char,
    out: *mut *mut DbcoreBattle,
) -> DbcoreStatus {
    boundary(|| {
        let out = Out::new(out, "out")?;
        // SAFETY: the caller's contract on `state_json`.
        let text = unsafe { arg_str(state_json, "state_json") }?;
        let battle = any_battle_from_state(text)?;
        // SAFETY: the caller's contract on `out`.
        unsafe { out.write(DbcoreBattle::boxed_any(battle)) };
        Ok(())
    })
}

/// The battle's record as JSON (a `dbcore::battle::BattleRecord`: `{"setup":{...},
/// "actions":[...]}`), every die included, so `dbcore_battle_replay_json` gives the same battle
/// and events. Free `*out_json` with `dbcore_string_free`.
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
/// char *record = NULL;
/// dbcore_battle_record_json(battle, &record);
/// dbcore_string_free(record);
/// ```
#[no_mangle]
pub unsafe extern "C" fn dbcore_battle_record_json(
    battle: *const DbcoreBattle,
    out_json: *mut *mut c_char,
) -> DbcoreStatus {
    boundary(|| {
        let out = Out::new(out_json, "out_json")?;
        // SAFETY: the caller's contract on `battle`.
        let json = unsafe { ask_any(battle, |b| to_c_string(&b.record())) }?;
        // SAFETY: the caller's contract on `out_json`.
        unsafe { out.write(json) };
        Ok(())
    })
}

/// Replay a JSON `dbcore::battle::BattleRecord`: `*out` becomes the battle after its last
/// action and `*out_events_json` the JSON array of every event, in order. Both are written only
/// on success; free them with `dbcore_battle_free` and `dbcore_string_free`.
///
/// # Safety
/// `record_json` must be a NUL-terminated string and `out` and `out_events_json` valid for
/// writes; any may be NULL (then `DBCORE_STATUS_NULL_ARGUMENT`).
///
/// # Errors
/// `DBCORE_STATUS_INVALID_UTF8`, `DBCORE_STATUS_INVALID_JSON`, `DBCORE_STATUS_INVALID_SETUP`;
/// a refused action gives its own status, and the message names the action's index.
///
/// # Example
/// ```c
/// DbcoreBattle *battle = NULL;
/// char *events = NULL;
/// if (dbcore_battle_replay_json(record, &battle, &events) == DBCORE_STATUS_OK) puts(events);
/// dbcore_string_free(events);
/// dbcore_battle_free(battle);
/// ```
#[no_mangle]
pub unsafe extern "C" fn dbcore_battle_replay_json(
    record_json: *const c_char,
    out: *mut *mut DbcoreBattle,
    out_events_json: *mut *mut c_char,
) -> DbcoreStatus {
    boundary(|| {
        let out = Out::new(out, "out")?;
        let out_events = Out::new(out_events_json, "out_events_json")?;
        // SAFETY: the caller's contract on `record_json`.
        let text = unsafe { arg_str(record_json, "record_json") }?;
        let (battle, json) = if is_dbaix(text, true) {
            let record: dbaix::BattleRecord = crate::boundary::parse(text)?;
            let (b, events) = AnyBattle::replay(&AnyRecord::Dbaix(record))
                .map_err(|e: GameError| FfiError::from(e))?;
            (b, to_c_string(&events)?)
        } else {
            let record: BattleRecord = crate::boundary::parse(text)?;
            let (b, events) = Battle::replay(&record)?;
            (AnyBattle::Dba(Box::new(b)), to_c_string(&events)?)
        };
        // SAFETY: the caller's contract on `out` and `out_events_json`.
        unsafe {
            out.write(DbcoreBattle::boxed_any(battle));
            out_events.write(json);
        }
        Ok(())
    })
}

/// The name of the battle's phase, as its JSON spells it (`"awaiting_pips"`, `"movement"`,
/// `"finished"`, and any phase the rules add later); the detail of a phase (a finished
/// battle's winner) is in `dbcore_battle_state_json`. Free `*out_name` with
/// `dbcore_string_free`.
///
/// # Safety
/// `battle` must be a live battle handle and `out_name` valid for writes; either may be NULL
/// (then `DBCORE_STATUS_NULL_ARGUMENT`).
///
/// # Errors
/// `DBCORE_STATUS_POISONED`.
///
/// # Example
/// ```c
/// char *phase = NULL;
/// dbcore_battle_phase(battle, &phase);
/// if (strcmp(phase, "awaiting_pips") == 0) dbcore_battle_roll_pips(battle, dice, &events);
/// dbcore_string_free(phase);
/// ```
#[no_mangle]
pub unsafe extern "C" fn dbcore_battle_phase(
    battle: *const DbcoreBattle,
    out_name: *mut *mut c_char,
) -> DbcoreStatus {
    boundary(|| {
        let out = Out::new(out_name, "out_name")?;
        // SAFETY: the caller's contract on `battle`.
        let name = unsafe {
            ask_any(battle, |g| match g {
                AnyBattle::Dba(b) => phase_name(&b.phase()),
                AnyBattle::Dbaix(b) => phase_name(&b.phase()),
            })
        }?;
        let text = crate::table::c_text(name)?;
        // SAFETY: the caller's contract on `out_name`.
        unsafe { out.write(text) };
        Ok(())
    })
}

/// The tag of a phase's JSON (`{"phase":"movement"}` gives `movement`).
pub(crate) fn phase_name<T: serde::Serialize>(phase: &T) -> Result<String, FfiError> {
    let v = serde_json::to_value(phase)
        .map_err(|e| FfiError::new(ErrorCode::Internal, format!("cannot write JSON: {e}")))?;
    match v.get("phase").and_then(|p| p.as_str()) {
        Some(s) => Ok(s.to_string()),
        None => Err(FfiError::new(
            ErrorCode::Internal,
            format!("a phase without a name: {v}"),
        )),
    }
}

/// A count as C's `uint32_t`.
fn count(n: usize, what: &str) -> Result<u32, FfiError> {
    u32::try_from(n).map_err(|_| FfiError::new(ErrorCode::Internal, format!("{what} is {n}")))
}

/// The index of the moving army (0 for the first army of the set-up).
///
/// # Safety
/// `battle` must be a live battle handle and `out` valid for writes; either may be NULL (then
/// `DBCORE_STATUS_NULL_ARGUMENT`).
///
/// # Errors
/// `DBCORE_STATUS_POISONED`.
///
/// # Example
/// ```c
/// uint32_t army = 0;
/// dbcore_battle_active_army(battle, &army);
/// ```
#[no_mangle]
pub unsafe extern "C" fn dbcore_battle_active_army(
    battle: *const DbcoreBattle,
    out: *mut u32,
) -> DbcoreStatus {
    boundary(|| {
        let out = Out::new(out, "out")?;
        // SAFETY: the caller's contract on `battle`.
        let army = unsafe {
            ask_any(battle, |g| match g {
                AnyBattle::Dba(b) => count(b.active_army(), "the moving army"),
                AnyBattle::Dbaix(b) => count(b.active_side().index(), "the moving side"),
            })
        }?;
        // SAFETY: the caller's contract on `out`.
        unsafe { out.write(army) };
        Ok(())
    })
}

/// The PIPs the moving army has left this bound (0 before its die is rolled).
///
/// # Safety
/// `battle` must be a live battle handle and `out` valid for writes; either may be NULL (then
/// `DBCORE_STATUS_NULL_ARGUMENT`).
///
/// # Errors
/// `DBCORE_STATUS_POISONED`.
///
/// # Example
/// ```c
/// uint32_t pips = 0;
/// dbcore_battle_pips(battle, &pips);
/// ```
#[no_mangle]
pub unsafe extern "C" fn dbcore_battle_pips(
    battle: *const DbcoreBattle,
    out: *mut u32,
) -> DbcoreStatus {
    boundary(|| {
        let out = Out::new(out, "out")?;
        // SAFETY: the caller's contract on `battle`.
        let pips = unsafe {
            ask_any(battle, |g| match g {
                AnyBattle::Dba(b) => Ok(u32::from(b.pips())),
                AnyBattle::Dbaix(b) => Ok(u32::from(b.pips())),
            })
        }?;
        // SAFETY: the caller's contract on `out`.
        unsafe { out.write(pips) };
        Ok(())
    })
}

/// The number of bounds begun so far, both armies' counted (1 during the first).
///
/// # Safety
/// `battle` must be a live battle handle and `out` valid for writes; either may be NULL (then
/// `DBCORE_STATUS_NULL_ARGUMENT`).
///
/// # Errors
/// `DBCORE_STATUS_POISONED`.
///
/// # Example
/// ```c
/// uint32_t bound = 0;
/// dbcore_battle_bound(battle, &bound);
/// ```
#[no_mangle]
pub unsafe extern "C" fn dbcore_battle_bound(
    battle: *const DbcoreBattle,
    out: *mut u32,
) -> DbcoreStatus {
    boundary(|| {
        let out = Out::new(out, "out")?;
        // SAFETY: the caller's contract on `battle`.
        let bound = unsafe {
            ask_any(battle, |g| match g {
                AnyBattle::Dba(b) => Ok(b.bound()),
                AnyBattle::Dbaix(b) => Ok(b.bound()),
            })
        }?;
        // SAFETY: the caller's contract on `out`.
        unsafe { out.write(bound) };
        Ok(())
    })
}

/// A new table handle showing the battle now: its battlefield with the elements in play at
/// their present poses (side = army index), ready for the `dbcore_table_*` questions and
/// `dbcore_table_svg`. The table is a copy: later actions do not move it. Free it with
/// `dbcore_table_free`.
///
/// # Safety
/// `battle` must be a live battle handle and `out` valid for writes; either may be NULL (then
/// `DBCORE_STATUS_NULL_ARGUMENT`).
///
/// # Errors
/// `DBCORE_STATUS_POISONED`.
///
/// # Example
/// ```c
/// DbcoreTable *table = NULL;
/// uint32_t fighting = 0;
/// dbcore_battle_table(battle, &table);
/// dbcore_table_in_close_combat(table, 2, &fighting);
/// dbcore_table_free(table);
/// ```
#[no_mangle]
pub unsafe extern "C" fn dbcore_battle_table(
    battle: *const DbcoreBattle,
    out: *mut *mut DbcoreTable,
) -> DbcoreStatus {
    boundary(|| {
        let out = Out::new(out, "out")?;
        // SAFETY: the caller's contract on `battle`.
        let table = unsafe { ask(battle, |b| Ok(b.table())) }?;
        // SAFETY: the caller's contract on `out`.
        unsafe { out.write(DbcoreTable::boxed(table)) };
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::ffi::{CStr, CString};

    fn golden(name: &str) -> serde_json::Value {
        let path = format!("{}/../tests/golden/{name}.json", env!("CARGO_MANIFEST_DIR"));
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
    }

    fn take(p: *mut c_char) -> String {
        let s = unsafe { CStr::from_ptr(p) }.to_str().unwrap().to_owned();
        unsafe { crate::dbcore_string_free(p) };
        s
    }

    fn replayed(name: &str) -> (*mut DbcoreBattle, serde_json::Value) {
        let g = golden(name);
        let record = CString::new(g["record"].to_string()).unwrap();
        let (mut h, mut events) = (std::ptr::null_mut(), std::ptr::null_mut());
        assert_eq!(
            unsafe { dbcore_battle_replay_json(record.as_ptr(), &mut h, &mut events) },
            DbcoreStatus::Ok
        );
        let events: serde_json::Value = serde_json::from_str(&take(events)).unwrap();
        assert_eq!(events, g["events"]);
        (h, g)
    }

    #[test]
    fn the_handle_holds_what_dbcore_replays() {
        let (h, g) = replayed("opening_bounds");
        let record: BattleRecord = serde_json::from_value(g["record"].clone()).unwrap();
        let (rust, _) = Battle::replay(&record).unwrap();
        let mut state = std::ptr::null_mut();
        assert_eq!(
            unsafe { dbcore_battle_state_json(h, &mut state) },
            DbcoreStatus::Ok
        );
        assert_eq!(take(state), rust.state_json());
        let (mut army, mut bound, mut pips) = (9, 9, 9);
        unsafe {
            assert_eq!(dbcore_battle_active_army(h, &mut army), DbcoreStatus::Ok);
            assert_eq!(dbcore_battle_bound(h, &mut bound), DbcoreStatus::Ok);
            assert_eq!(dbcore_battle_pips(h, &mut pips), DbcoreStatus::Ok);
        }
        assert_eq!(army as usize, rust.active_army());
        assert_eq!(bound, rust.bound());
        assert_eq!(pips, u32::from(rust.pips()));
        unsafe { dbcore_battle_free(h) };
    }

    // DBAIX.md §2: the DBAix golden trace replays through the same handle and JSON as DBA.
    #[test]
    fn the_dbaix_golden_trace_replays_through_the_battle_handle() {
        let (h, g) = replayed("dbaix/dbaix_whole_game_seed_1");
        let mut rec = std::ptr::null_mut();
        assert_eq!(
            unsafe { dbcore_battle_record_json(h, &mut rec) },
            DbcoreStatus::Ok
        );
        let rec: serde_json::Value = serde_json::from_str(&take(rec)).unwrap();
        assert_eq!(rec, g["record"]);
        let mut phase = std::ptr::null_mut();
        assert_eq!(
            unsafe { dbcore_battle_phase(h, &mut phase) },
            DbcoreStatus::Ok
        );
        assert_eq!(take(phase), "finished");
        // A game started from the set-up takes the first action of the record, as JSON.
        let setup = CString::new(g["record"]["setup"].to_string()).unwrap();
        let mut h2 = std::ptr::null_mut();
        assert_eq!(
            unsafe { dbcore_battle_new_json(setup.as_ptr(), &mut h2) },
            DbcoreStatus::Ok
        );
        let first = CString::new(g["record"]["actions"][0].to_string()).unwrap();
        let mut ev = std::ptr::null_mut();
        assert_eq!(
            unsafe { dbcore_battle_apply_json(h2, first.as_ptr(), &mut ev) },
            DbcoreStatus::Ok
        );
        let ev: serde_json::Value = serde_json::from_str(&take(ev)).unwrap();
        assert_eq!(ev[0], g["events"][0]);
        // Its state is the DBAix game's own JSON; a DBA-only question (its table) is refused.
        let mut state = std::ptr::null_mut();
        assert_eq!(
            unsafe { dbcore_battle_state_json(h2, &mut state) },
            DbcoreStatus::Ok
        );
        let state: serde_json::Value = serde_json::from_str(&take(state)).unwrap();
        assert_eq!(state["setup"], g["record"]["setup"]);
        let mut table = std::ptr::null_mut();
        assert_eq!(
            unsafe { dbcore_battle_table(h2, &mut table) },
            DbcoreStatus::InvalidArgument
        );
        unsafe {
            dbcore_battle_free(h);
            dbcore_battle_free(h2);
        }
    }

    #[test]
    fn every_phase_has_a_name() {
        use dbcore::battle::Phase;
        for (p, name) in [
            (Phase::AwaitingPips, "awaiting_pips"),
            (Phase::Movement, "movement"),
            (Phase::Finished { winner: Some(1) }, "finished"),
        ] {
            assert_eq!(phase_name(&p).unwrap(), name);
        }
    }

    #[test]
    fn a_state_round_trips_and_a_forged_one_is_refused() {
        let (h, _) = replayed("into_contact");
        let mut state = std::ptr::null_mut();
        assert_eq!(
            unsafe { dbcore_battle_state_json(h, &mut state) },
            DbcoreStatus::Ok
        );
        let text = take(state);
        // The compact state, read back by its digest.
        assert!(text.starts_with("{\"format\":\"dbcore-state\""));
        let back = battle_from_state(&text).unwrap();
        assert_eq!(back.state_json(), text);
        // An element moved by hand: the digest no longer matches.
        let mut v: serde_json::Value = serde_json::from_str(&text).unwrap();
        v["elements"][0]["pose"]["x"] = serde_json::json!(1.25);
        let e = battle_from_state(&v.to_string()).unwrap_err();
        assert_eq!(e.code, ErrorCode::InvalidArgument);
        assert!(e.message.contains("digest"), "{}", e.message);
        // The full state is still read, checked by replaying its record.
        let full = serde_json::to_value(&back).unwrap();
        assert_eq!(battle_from_state(&full.to_string()).unwrap(), back);
        let mut v = full.clone();
        v["elements"][0]["pose"]["x"] = serde_json::json!(1.25);
        let e = battle_from_state(&v.to_string()).unwrap_err();
        assert_eq!(e.code, ErrorCode::InvalidArgument);
        // A record whose action is refused names the action.
        let mut v = full;
        v["actions"][0] = serde_json::json!({"action": "end_movement"});
        let e = battle_from_state(&v.to_string()).unwrap_err();
        assert_eq!(e.code, ErrorCode::WrongPhase);
        assert!(e.message.contains("action 0"), "{}", e.message);
        unsafe { dbcore_battle_free(h) };
    }

    #[test]
    fn a_panic_inside_a_battle_poisons_it() {
        let (h, _) = replayed("road_and_river");
        let status = boundary(|| unsafe {
            change(h, |_| -> Result<(), FfiError> {
                panic!("inside the battle")
            })
        });
        assert_eq!(status, DbcoreStatus::Panic);
        let mut out = std::ptr::null_mut();
        let end = CString::new(r#"{"action":"end_movement"}"#).unwrap();
        assert_eq!(
            unsafe { dbcore_battle_state_json(h, &mut out) },
            DbcoreStatus::Poisoned
        );
        assert_eq!(
            unsafe { dbcore_battle_apply_json(h, end.as_ptr(), &mut out) },
            DbcoreStatus::Poisoned
        );
        assert!(out.is_null());
        unsafe { dbcore_battle_free(h) };
    }
}
