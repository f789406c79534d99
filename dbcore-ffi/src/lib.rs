//! # dbcore-ffi: the C ABI over dbcore
//!
//! The header is `include/dbcore.h`, generated from this crate by `cargo run -p xtask -- header`
//! (cbindgen pinned in `xtask/chores/Cargo.toml`); its first comment states the conventions, which are:
//!
//! - Opaque handles come from `dbcore_<thing>_new` and go back to `dbcore_<thing>_free`, which
//!   ignores NULL. `const T*` arguments are only read and may be shared between threads; `T*`
//!   handle arguments are used exclusively for the length of the call.
//! - Every fallible function returns a [`DbcoreStatus`] (`DBCORE_STATUS_OK` = 0, otherwise the
//!   stable number of a `dbcore::ErrorCode`) and writes its outputs through out-parameters only
//!   on success. The detail of the last failure on the calling thread is readable right after the
//!   call with `dbcore_last_error_code`, `dbcore_last_error_message` and
//!   `dbcore_last_error_rule`; a successful fallible call clears it.
//! - Only fixed-width integers, `double`, `char` text and `uint32_t` enums cross the boundary: no
//!   C `bool`, unions, varargs or callbacks. Flags are `uint32_t` 0 or 1.
//! - No panic crosses the boundary: every exported body is one call to the crate's panic
//!   boundary helper, and a panic inside a handle poisons it.
//!
//! A table (a battlefield with elements on it) is the `DbcoreTable` handle: read from JSON,
//! asked questions through `const DbcoreTable *` (contacts, close combat, threat zones, shooting
//! targets, going, distance, an SVG picture), and written back as JSON.
//!
//! A battle is the `DbcoreBattle` handle: started from a JSON set-up (or a record, or a saved
//! state), changed by JSON actions through `DbcoreBattle *`, and asked through
//! `const DbcoreBattle *`; its events come back as JSON, so actions and events the rules add
//! later need no change here. A few generic JSON utilities (`dbcore_json_equal`,
//! `dbcore_json_get`, `dbcore_json_array_*`) let a C program take that JSON apart.
//!
//! This crate holds no rules: it translates C values into dbcore's types and back.

#![deny(unsafe_op_in_unsafe_fn)]
#![warn(missing_debug_implementations)]

pub mod ai;
pub mod armies;
pub mod battle;
pub mod boundary;
pub mod combat;
pub mod dice;
pub mod driver;
pub mod error;
pub mod game;
pub mod json;
pub mod kind;
pub mod narrate;
pub mod prebattle;
pub mod simulate;
pub mod surfaces;
pub mod table;

use std::ffi::c_char;

pub use ai::dbcore_ai_choose_json;
pub use armies::{
    dbcore_army_choose_json, dbcore_army_default_json, dbcore_army_list_json,
    dbcore_army_lists_find_json, dbcore_army_problems_json,
};
pub use battle::{
    dbcore_battle_active_army, dbcore_battle_apply_json, dbcore_battle_awaiting_json,
    dbcore_battle_bound, dbcore_battle_check_json, dbcore_battle_clone, dbcore_battle_free,
    dbcore_battle_from_state_json, dbcore_battle_new_json, dbcore_battle_phase, dbcore_battle_pips,
    dbcore_battle_record_json, dbcore_battle_replay_json, dbcore_battle_roll_pips,
    dbcore_battle_state_json, dbcore_battle_table, DbcoreBattle,
};
pub use boundary::DbcoreStatus;
pub use combat::{
    dbcore_factor_label, dbcore_odds, dbcore_resolve, dbcore_resolve_compact, DbcoreBand,
    DbcoreCombatResult, DbcoreCombatant, DbcoreCompactResult, DbcoreCompactSide, DbcoreEngagement,
    DbcoreFactor, DbcoreFactorName, DbcoreGoing, DbcoreHolding, DbcoreMargins, DbcoreOdds,
    DbcoreOutcome, DbcorePursuit, DbcoreSide, DbcoreSideResult, DbcoreSituation, DbcoreStronghold,
    DbcoreSupporter, DBCORE_MAX_FACTORS, DBCORE_RULE_TEXT_SIZE,
};
pub use dice::{dbcore_dice_free, dbcore_dice_new, dbcore_dice_roll, DbcoreDice};
pub use driver::{dbcore_demo_setup_json, dbcore_play_json};
pub use error::{
    dbcore_last_error_code, dbcore_last_error_message, dbcore_last_error_rule, dbcore_status_name,
};
pub use game::{
    dbcore_call_json, dbcore_game_call_json, dbcore_game_free, dbcore_game_new_json, DbcoreGame,
};
pub use json::{
    dbcore_json_array_at, dbcore_json_array_len, dbcore_json_equal, dbcore_json_get,
    dbcore_odds_json, dbcore_resolve_json,
};
pub use kind::{
    dbcore_element_kind_at, dbcore_element_kind_count, dbcore_element_kind_info,
    dbcore_element_kind_json, dbcore_element_kind_parse, dbcore_element_kind_print,
    dbcore_string_free, DbcoreElementKind, DbcoreElementKindInfo, DbcoreFootClass,
    DbcorePursuitRule,
};
pub use narrate::{dbcore_battle_narrate_events_json, dbcore_battle_narrate_json};
pub use prebattle::{
    dbcore_demo_armies_json, dbcore_game_replay_json, dbcore_play_game_json,
    dbcore_play_lists_json, dbcore_prebattle_step_json,
};
pub use simulate::{
    dbcore_simulate_json, dbcore_simulation_cancel, dbcore_simulation_free, dbcore_simulation_next,
    dbcore_simulation_progress, dbcore_simulation_start, dbcore_simulation_stream,
    dbcore_simulation_wait, DbcoreSimulation,
};
pub use surfaces::{
    dbcore_battle_contacts_json, dbcore_battle_outcome_json, dbcore_battle_outlines_json,
    dbcore_battle_snap_json, dbcore_dbaix_odds_json,
};
pub use table::{
    dbcore_table_clone, dbcore_table_contacts_json, dbcore_table_distance, dbcore_table_element_at,
    dbcore_table_element_count, dbcore_table_free, dbcore_table_going_at, dbcore_table_going_under,
    dbcore_table_in_close_combat, dbcore_table_in_enemy_threat_zone, dbcore_table_new_json,
    dbcore_table_shooting_targets_json, dbcore_table_svg, dbcore_table_threat_zones_on_json,
    dbcore_table_to_json, DbcorePlacedElement, DbcoreTable, DbcoreTerrainGoing,
};

/// DBA 3.0's rules configuration, built once: the C functions without a config argument use it.
/// It is immutable, so sharing it between threads changes nothing a caller can see.
pub(crate) fn default_rules() -> &'static dbcore::RulesConfig {
    static DEFAULT: std::sync::OnceLock<dbcore::RulesConfig> = std::sync::OnceLock::new();
    DEFAULT.get_or_init(dbcore::RulesConfig::default)
}

/// The version of this library, as the `DBCORE_VERSION_*` macros of the header give it.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// The library's version, e.g. `"0.1.0"`: compare it with `DBCORE_VERSION_STRING` to catch a
/// header and a library that do not match. The string is static: never free it.
///
/// # Safety
/// Always safe to call.
///
/// # Example
/// ```c
/// if (strcmp(dbcore_version(), DBCORE_VERSION_STRING) != 0) abort();
/// ```
#[no_mangle]
pub extern "C" fn dbcore_version() -> *const c_char {
    // Allowlisted: returns a pointer to a static string; cannot panic.
    concat!(env!("CARGO_PKG_VERSION"), "\0").as_ptr().cast()
}
