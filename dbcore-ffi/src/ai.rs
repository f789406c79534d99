//! The opponent (`dbcore::ai`) for C programs: its next action for the moving army of a battle.
//! Translation only: the search and every rule are dbcore's.

use std::ffi::c_char;

use dbcore::ai::AiConfig;
use dbcore::DieScore;

use crate::battle::{ask, DbcoreBattle};
use crate::boundary::{boundary, FfiError, Out};
use crate::json::to_c_string;
use crate::DbcoreStatus;

/// The opponent's next action for the moving army of `battle` (a DBA battle), as a JSON
/// `dbcore::battle::Action` that `dbcore_battle_apply_json` accepts: the PIP roll when it is
/// awaited, else a move, `EndMovement`, a shot or a close combat. It tries at most `nodes`
/// positions (clones of the battle) and is the same for the same battle, `nodes` and `seed`.
/// `die_a` and `die_b` are the scores of the shot or combat it is to make (1 to 6), or both 0 to
/// let it draw them from `seed`; they are ignored in the movement phase. Free `*out_json` with
/// `dbcore_string_free`. The battle is not changed.
///
/// # Safety
/// `battle` must be a live battle handle and `out_json` valid for writes; either may be NULL
/// (then `DBCORE_STATUS_NULL_ARGUMENT`).
///
/// # Errors
/// `DBCORE_STATUS_INVALID_DIE` (one die 0 and not the other, or a score above 6),
/// `DBCORE_STATUS_BATTLE_OVER`, `DBCORE_STATUS_INVALID_ARGUMENT` (a DBAix battle),
/// `DBCORE_STATUS_POISONED`.
///
/// # Example
/// ```c
/// char *action = NULL;
/// if (dbcore_ai_choose_json(battle, 400, 7, 0, 0, &action) == DBCORE_STATUS_OK)
///     dbcore_battle_apply_json(battle, action, &events);
/// dbcore_string_free(action);
/// ```
#[no_mangle]
pub unsafe extern "C" fn dbcore_ai_choose_json(
    battle: *const DbcoreBattle,
    nodes: u32,
    seed: u64,
    die_a: u8,
    die_b: u8,
    out_json: *mut *mut c_char,
) -> DbcoreStatus {
    boundary(|| {
        let out = Out::new(out_json, "out_json")?;
        let dice = if die_a == 0 && die_b == 0 {
            None
        } else {
            Some([
                DieScore::new(die_a).map_err(FfiError::from)?,
                DieScore::new(die_b).map_err(FfiError::from)?,
            ])
        };
        let config = AiConfig { nodes, seed };
        // SAFETY: the caller's contract on `battle`.
        let json = unsafe {
            ask(battle, |b| {
                let action = dbcore::ai::choose(b, dice, &config).map_err(FfiError::from)?;
                to_c_string(&action)
            })
        }?;
        // SAFETY: the caller's contract on `out_json`.
        unsafe { out.write(json) };
        Ok(())
    })
}
