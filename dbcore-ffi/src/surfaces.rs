//! The table questions of a battle (`dbcore::snap`, `dbcore::outline`), answered in JSON for a
//! table tool: where a dropped base would snap to, the outlines to draw for an element, what an
//! outcome move from here would do, and the element's contacts with their edges and corners
//! named. A DBA battle answers them; a DBAix game refuses (`DBCORE_STATUS_INVALID_ARGUMENT`).

use std::ffi::c_char;

use dbcore::battle::ElementId;
use dbcore::geometry::Pose;
use dbcore::snap::OutcomeMove;

use crate::battle::{ask, DbcoreBattle};
use crate::boundary::{arg_str, boundary, parse, FfiError, Out};
use crate::json::to_c_string;
use crate::DbcoreStatus;

/// The legal pose element `id` would take if dropped at `pose_json` (`{"x":6.5,"y":9.9,
/// "facing":0}`, BW): contact by §8.2 with the slide allowed, lined up with an element within
/// `within` BW (0 to 4; half a BW is a good hand's width), as a `dbcore::snap::Snap` (`{"id",
/// "pose", "order", "events", "with"}`): the order to send as a move and the events it would
/// cause. Free `*out_json` with `dbcore_string_free`.
///
/// # Safety
/// `battle` must be a live battle handle, `pose_json` a NUL-terminated string and `out_json`
/// valid for writes; any may be NULL (then `DBCORE_STATUS_NULL_ARGUMENT`).
///
/// # Errors
/// `DBCORE_STATUS_INVALID_UTF8`, `DBCORE_STATUS_INVALID_JSON`, `DBCORE_STATUS_INVALID_ARGUMENT`
/// (`within` outside 0 to 4, or a DBAix game); why no legal pose exists as the rule's status
/// (`DBCORE_STATUS_UNKNOWN_ELEMENT`, `DBCORE_STATUS_ILLEGAL_MOVE`, ...), with the rule in the
/// last error; `DBCORE_STATUS_POISONED`.
///
/// # Example
/// ```c
/// char *snap = NULL;
/// if (dbcore_battle_snap_json(battle, 2, "{\"x\":6.5,\"y\":9.9,\"facing\":0}", 0.5, &snap)
///     == DBCORE_STATUS_OK) puts(snap);
/// dbcore_string_free(snap);
/// ```
#[no_mangle]
pub unsafe extern "C" fn dbcore_battle_snap_json(
    battle: *const DbcoreBattle,
    id: u32,
    pose_json: *const c_char,
    within: f64,
    out_json: *mut *mut c_char,
) -> DbcoreStatus {
    boundary(|| {
        let out = Out::new(out_json, "out_json")?;
        // SAFETY: the caller's contract on `pose_json`.
        let text = unsafe { arg_str(pose_json, "pose_json") }?;
        let pose: Pose = parse(text)?;
        if !(within.is_finite() && (0.0..=4.0).contains(&within)) {
            return Err(FfiError::invalid("`within` is 0 to 4 BW"));
        }
        // SAFETY: the caller's contract on `battle`.
        let json = unsafe {
            ask(battle, |b| {
                to_c_string(&b.snap(ElementId(id), pose, within)?)
            })
        }?;
        // SAFETY: the caller's contract on `out_json`.
        unsafe { out.write(json) };
        Ok(())
    })
}

/// The outlines of element `id` to draw, as a `dbcore::outline::ElementOutlines` (`{"id",
/// "element", "threat_zone", "shooting_zone", "range", "command", "reach"}`; polygons as lists
/// of points in BW): its base, threat zone (§8.1), shooting zone and range (§9), a general's
/// command distance (§6.4) and where a move could end this bound in each going (§7.3). Free
/// `*out_json` with `dbcore_string_free`.
///
/// # Safety
/// `battle` must be a live battle handle and `out_json` valid for writes; either may be NULL
/// (then `DBCORE_STATUS_NULL_ARGUMENT`).
///
/// # Errors
/// `DBCORE_STATUS_UNKNOWN_ELEMENT`, `DBCORE_STATUS_INVALID_ARGUMENT` (a DBAix game),
/// `DBCORE_STATUS_POISONED`.
///
/// # Example
/// ```c
/// char *outlines = NULL;
/// dbcore_battle_outlines_json(battle, 2, &outlines);
/// dbcore_string_free(outlines);
/// ```
#[no_mangle]
pub unsafe extern "C" fn dbcore_battle_outlines_json(
    battle: *const DbcoreBattle,
    id: u32,
    out_json: *mut *mut c_char,
) -> DbcoreStatus {
    boundary(|| {
        let out = Out::new(out_json, "out_json")?;
        // SAFETY: the caller's contract on `battle`.
        let json = unsafe { ask(battle, |b| to_c_string(&b.outlines(ElementId(id))?)) }?;
        // SAFETY: the caller's contract on `out_json`.
        unsafe { out.write(json) };
        Ok(())
    })
}

/// What an outcome move of element `id` from where it stands would do (§12), changing
/// nothing: `outcome_json` is a `dbcore::snap::OutcomeMove` (`{"outcome":"recoil"}`,
/// `{"outcome":"flee"}`, `{"outcome":"pursue","distance":0.5}`); the answer is the list of
/// `dbcore::battle::Effect`s in order (moves, push-backs, losses). Free `*out_json` with
/// `dbcore_string_free`.
///
/// # Safety
/// `battle` must be a live battle handle, `outcome_json` a NUL-terminated string and
/// `out_json` valid for writes; any may be NULL (then `DBCORE_STATUS_NULL_ARGUMENT`).
///
/// # Errors
/// `DBCORE_STATUS_INVALID_UTF8`, `DBCORE_STATUS_INVALID_JSON`, `DBCORE_STATUS_UNKNOWN_ELEMENT`,
/// `DBCORE_STATUS_INVALID_ARGUMENT` (a DBAix game), `DBCORE_STATUS_POISONED`.
///
/// # Example
/// ```c
/// char *effects = NULL;
/// dbcore_battle_outcome_json(battle, 2, "{\"outcome\":\"recoil\"}", &effects);
/// dbcore_string_free(effects);
/// ```
#[no_mangle]
pub unsafe extern "C" fn dbcore_battle_outcome_json(
    battle: *const DbcoreBattle,
    id: u32,
    outcome_json: *const c_char,
    out_json: *mut *mut c_char,
) -> DbcoreStatus {
    boundary(|| {
        let out = Out::new(out_json, "out_json")?;
        // SAFETY: the caller's contract on `outcome_json`.
        let text = unsafe { arg_str(outcome_json, "outcome_json") }?;
        let outcome: OutcomeMove = parse(text)?;
        // SAFETY: the caller's contract on `battle`.
        let json = unsafe {
            ask(battle, |b| {
                to_c_string(&b.outcome_preview(ElementId(id), outcome)?)
            })
        }?;
        // SAFETY: the caller's contract on `out_json`.
        unsafe { out.write(json) };
        Ok(())
    })
}

/// Every contact of element `id` in the battle now, as `dbcore::table::ElementContact`s
/// (`{"other", "friend", "contact": {"kind", "a", "b", "lined_up", "shared_length"}}`, `a` the
/// asking element's part): each part an edge (`{"Edge":"Front"}`) or a corner
/// (`{"Corner":"FrontLeft"}`), spelled as in the Rust JSON and Python's `contacts`. Free
/// `*out_json` with `dbcore_string_free`.
///
/// # Safety
/// `battle` must be a live battle handle and `out_json` valid for writes; either may be NULL
/// (then `DBCORE_STATUS_NULL_ARGUMENT`).
///
/// # Errors
/// `DBCORE_STATUS_UNKNOWN_ELEMENT`, `DBCORE_STATUS_INVALID_ARGUMENT` (a DBAix game),
/// `DBCORE_STATUS_POISONED`.
///
/// # Example
/// ```c
/// char *contacts = NULL;
/// dbcore_battle_contacts_json(battle, 2, &contacts);
/// dbcore_string_free(contacts);
/// ```
#[no_mangle]
pub unsafe extern "C" fn dbcore_battle_contacts_json(
    battle: *const DbcoreBattle,
    id: u32,
    out_json: *mut *mut c_char,
) -> DbcoreStatus {
    boundary(|| {
        let out = Out::new(out_json, "out_json")?;
        // SAFETY: the caller's contract on `battle`.
        let json = unsafe {
            ask(battle, |b| {
                to_c_string(&b.table().contacts_of(id, &b.setup().config)?)
            })
        }?;
        // SAFETY: the caller's contract on `out_json`.
        unsafe { out.write(json) };
        Ok(())
    })
}

/// The question of a DBAix combat's exact odds, as `dbcore_dbaix_odds_json` reads it.
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct DbaixSituation {
    a: dbcore::dbaix::FigureClass,
    #[serde(default)]
    a_mod: i32,
    b: dbcore::dbaix::FigureClass,
    #[serde(default)]
    b_mod: i32,
}

/// Exact odds of a DBAix close combat (DBAIX.md §6, §7) from the same enumeration of the 36
/// throws as Rust and Python: `situation_json` names the two figures' classes and each one's
/// tactical total (`{"a":"legionary","a_mod":1,"b":"gaul","b_mod":2}`, totals -20 to 20, 0 when
/// left out); the answer is a `dbcore::dbaix::DbaixOdds` (`{"outcomes":[{"a":"recoil",
/// "b":"follow_up","count":6},...]}`, counts out of 36). Free `*out_json` with
/// `dbcore_string_free`.
///
/// # Safety
/// `situation_json` must be a NUL-terminated string and `out_json` valid for writes; either may
/// be NULL (then `DBCORE_STATUS_NULL_ARGUMENT`).
///
/// # Errors
/// `DBCORE_STATUS_INVALID_UTF8`, `DBCORE_STATUS_INVALID_JSON` (an unknown class or field),
/// `DBCORE_STATUS_INVALID_ARGUMENT` (a total outside -20 to 20).
///
/// # Example
/// ```c
/// char *odds = NULL;
/// dbcore_dbaix_odds_json("{\"a\":\"obelix\",\"b\":\"legionary\"}", &odds);
/// dbcore_string_free(odds);
/// ```
#[no_mangle]
pub unsafe extern "C" fn dbcore_dbaix_odds_json(
    situation_json: *const c_char,
    out_json: *mut *mut c_char,
) -> DbcoreStatus {
    boundary(|| {
        let out = Out::new(out_json, "out_json")?;
        // SAFETY: the caller's contract on `situation_json`.
        let text = unsafe { arg_str(situation_json, "situation_json") }?;
        let s: DbaixSituation = parse(text)?;
        if !(-20..=20).contains(&s.a_mod) || !(-20..=20).contains(&s.b_mod) {
            return Err(FfiError::invalid("tactical totals are -20 to 20"));
        }
        let json = to_c_string(&dbcore::dbaix::odds(s.a, s.a_mod, s.b, s.b_mod))?;
        // SAFETY: the caller's contract on `out_json`.
        unsafe { out.write(json) };
        Ok(())
    })
}
