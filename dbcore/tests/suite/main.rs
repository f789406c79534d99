//! dbcore's integration tests, one module per subject, built as one test binary.
//!
//! They were 65 binaries, one per file. Each linked the whole of dbcore and its dependencies
//! again (about 30 MB apiece) and compiled its own copies of the generic code it used, which
//! made the test build the longest step of the test run. As modules of one crate they share
//! one link and one copy of that code, and the test harness spreads all of them over the
//! machine's cores at once. A module runs alone with its path as the filter:
//! `cargo test -p dbcore --test suite battle_bound::`.
//!
//! `combat_alloc` stays a binary of its own: it installs a counting global allocator, which
//! would count every other test's allocations too.

// Shared fixtures, used by several modules.
mod battle_common;
mod battle_moves_support;
mod bugs_support;
mod common;
mod terrain_fixtures;

mod ai;
mod ai_big_battle;
mod ai_moves;
mod armies;
mod army_sizes;
mod battle_bound;
mod battle_camps;
mod battle_city_gates;
mod battle_commands;
mod battle_engagement;
mod battle_grid;
mod battle_grid_searches;
mod battle_landing;
mod battle_legal;
mod battle_memo;
mod battle_moves_contact;
mod battle_moves_groups;
mod battle_moves_props;
mod battle_moves_single;
mod battle_moves_strongholds;
mod battle_moves_zones;
mod battle_outcomes;
mod battle_phases;
mod battle_props;
mod battle_queries;
mod battle_sally;
mod battle_strongholds;
mod battlefield_board;
mod battlefield_props;
mod battlefield_queries;
mod big_battle_armies;
mod big_battle_camps;
mod big_battle_flight;
mod bugs_encounters;
mod bugs_golden;
mod bugs_holes;
mod bugs_melee;
mod bugs_props;
mod bugs_reactions;
mod bugs_shooting;
mod bugs_tables;
mod bugs_turn;
mod checked_action;
mod combat_factors;
mod combat_fast_path;
mod combat_odds;
mod combat_outcomes;
mod combat_pursuit_and_errors;
mod combat_situation;
mod dbaix_golden;
mod dbaix_props;
mod dbaix_rules;
mod forged_states;
mod geometry_contact;
mod geometry_paths;
mod geometry_props;
mod geometry_zones;
mod golden_traces;
mod json_contract;
mod json_paths;
mod legal_actions;
mod limits;
mod messages;
mod module_graph;
mod narration;
mod prebattle_big_battle;
mod prebattle_driven;
mod prebattle_rules;
mod rules_reference;
mod simulate;
mod state_json;
mod surface_bugs;
mod surface_scene;
mod svg_snapshot;
mod table_queries;
mod table_tools;
mod tagged_json;
mod terrain_home;
mod terrain_placement;
mod terrain_validation;
mod troops;
mod unknown_keys;
