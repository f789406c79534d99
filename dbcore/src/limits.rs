//! Every size and range dbcore accepts from outside, in one place (the table is
//! `docs/limits.md`).
//!
//! A referee behind a table tool or a server reads data it did not write. Each number that
//! reaches the geometry must be finite and within a range where the 2⁻¹² BW storage grid is still
//! exact and every loop over the board ends; each list that a check walks must be short enough
//! that the walk stays cheap. The checks here run at the edges (a [`Table`](crate::table::Table) built with
//! [`Table::new`](crate::table::Table::new), a set-up given to `Battle::new`, an action given to `Battle::check`, a rules
//! configuration given to [`RulesConfig::validate`](crate::config::RulesConfig::validate)) and refuse with a [`LimitError`] (code
//! [`ErrorCode::InvalidArgument`](crate::error::ErrorCode::InvalidArgument)) naming the value, what it was and what it may be.
//!
//! The limits are generous for the game: a DBA army has 12 elements, a Giant battle a few
//! dozen per command, the largest board (Giant) is 60 × 30 BW.
//!
//! This module only gathers them: the sizes and the checks of plain values are in a module below
//! every other (`sizes.rs`), and the check of each type above it lives beside that type, so that
//! the modules a check reads need not import this one.

pub use crate::battle::limits::{check_action, check_setup};
pub use crate::config::check_config;
pub use crate::sizes::{
    check_battlefield, check_board, check_coordinate, check_len, check_point, check_pose,
    check_range, quote, LimitError, MAX_ARMIES, MAX_BATTLE_INDEX, MAX_BOARD_SIDE, MAX_COMMANDS,
    MAX_CONFIG_COUNT, MAX_CONFIG_DISTANCE, MAX_CONFIG_FACTOR, MAX_COORDINATE, MAX_DRIVEN_BOUNDS,
    MAX_ELEMENTS, MAX_FACING, MAX_FEATURES, MAX_FEATURE_WIDTH, MAX_NAME_BYTES, MAX_ORDER_LENGTH,
    MAX_PROBLEMS, MAX_QUOTED_CHARS, MAX_SIMULATED_BATTLES, MAX_SIMULATION_THREADS, MAX_STATE_BOUND,
    MAX_TOTAL_VERTICES, MAX_VERTICES, MIN_BOARD_SIDE,
};
pub use crate::table::check_table;
