//! Every size and range dbcore accepts from outside, in one place (the table is
//! `docs/limits.md`).
//!
//! A referee behind a table tool or a server reads data it did not write. Each number that
//! reaches the geometry must be finite and within a range where the 2⁻¹² BW storage grid is still
//! exact and every loop over the board ends; each list that a check walks must be short enough
//! that the walk stays cheap. The checks here run at the edges (a [`Table`] built with
//! [`Table::new`], a set-up given to `Battle::new`, an action given to `Battle::check`, a rules
//! configuration given to [`RulesConfig::validate`]) and refuse with a [`LimitError`] (code
//! [`ErrorCode::InvalidArgument`]) naming the value, what it was and what it may be.
//!
//! The limits are generous for the game: a DBA army has 12 elements, a Giant battle a few
//! dozen per command, the largest board (Giant) is 60 × 30 BW.

use serde::{Deserialize, Serialize};

use crate::battle::{Action, BattleSetup, GroupStep, MoveOrder};
use crate::battlefield::{Battlefield, Board};
use crate::config::RulesConfig;
use crate::error::{ErrorCode, ErrorInfo};
use crate::geometry::{Point, Polygon, Pose};
use crate::table::Table;
use crate::terrain::TerrainFeature;

/// Smallest board side, BW. A sandbox may use a small board; nothing smaller than an element.
pub const MIN_BOARD_SIDE: f64 = 1.0;
/// Largest board side, BW (Giant DBA is 60 BW wide; the grid drawing walks the sides 1 BW at a
/// time).
pub const MAX_BOARD_SIDE: f64 = 200.0;
/// Largest distance of any point (an element's pose, a terrain vertex) from the origin along
/// either axis, BW. Within this, coordinates on the 2⁻¹² BW grid are exact in an `f64`.
pub const MAX_COORDINATE: f64 = 1000.0;
/// Largest magnitude of a facing or a wheel, degrees: a bearing is given in `-360..=360` (it is
/// normalised into `[0, 360)` when stored).
pub const MAX_FACING: f64 = 360.0;
/// Most elements in a set-up (all armies together) or on a table.
pub const MAX_ELEMENTS: usize = 2000;
/// Most armies in a set-up (DBAix has three).
pub const MAX_ARMIES: usize = 3;
/// Commands of one army (Big Battle has 3; Giant one per general, §14.6).
pub const MAX_COMMANDS: usize = 16;
/// Most terrain features on a battlefield.
pub const MAX_FEATURES: usize = 64;
/// Most vertices of one outline, crest, gate list, course, road or list of shore depths.
pub const MAX_VERTICES: usize = 1024;
/// Most vertices over all the battlefield's features together.
pub const MAX_TOTAL_VERTICES: usize = 8192;
/// Widest river, road or beach and deepest waterway, BW.
pub const MAX_FEATURE_WIDTH: f64 = 100.0;
/// Most poses in one element's or column's path, most ids in one order and most steps of a
/// group move.
pub const MAX_ORDER_LENGTH: usize = 64;
/// Most bounds the demonstration driver plays in one call (`driver::play`).
pub const MAX_DRIVEN_BOUNDS: usize = 1000;
/// Bound number of a saved battle state, and bounds begun by one army: far beyond any game, and
/// far enough from `u32::MAX` that counting on never wraps.
pub const MAX_STATE_BOUND: u32 = 1_000_000;
/// Battles in one simulated batch ([`crate::simulate`]).
pub const MAX_SIMULATED_BATTLES: u64 = 100_000_000;
/// One past the last battle index a batch may reach (`first + battles`): 2^53, so every index is
/// exact as a JSON number in any language.
pub const MAX_BATTLE_INDEX: u64 = 1 << 53;
/// Worker threads of one simulated batch.
pub const MAX_SIMULATION_THREADS: usize = 256;
/// Longest army name, bytes.
pub const MAX_NAME_BYTES: usize = 256;
/// Most problems a set-up error lists one by one; the rest are counted ("and N more").
pub const MAX_PROBLEMS: usize = 50;
/// Longest piece of caller text (an unreadable element code) quoted back in a message, in
/// characters; longer text is cut and marked with `…`.
pub const MAX_QUOTED_CHARS: usize = 40;
/// Rules configuration: a base depth, move or shooting range, BW, must be in `(0, MAX]`.
pub const MAX_CONFIG_DISTANCE: f64 = 20.0;
/// Rules configuration: a combat factor or penalty must be within `±MAX_CONFIG_FACTOR`.
pub const MAX_CONFIG_FACTOR: i32 = 20;
/// Rules configuration: at most this many support shooters or extra assaulters.
pub const MAX_CONFIG_COUNT: u8 = 10;

/// A value outside its documented limit.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, thiserror::Error)]
#[error("{what} is {found}, but must be {allowed} (dbcore limits)")]
#[serde(deny_unknown_fields)]
pub struct LimitError {
    /// Which value (`armies[0].elements[3].pose.x`).
    pub what: String,
    /// What it was.
    pub found: String,
    /// What it may be.
    pub allowed: String,
}

impl LimitError {
    fn new(what: impl Into<String>, found: impl ToString, allowed: impl Into<String>) -> Self {
        LimitError {
            what: what.into(),
            found: found.to_string(),
            allowed: allowed.into(),
        }
    }
}

impl ErrorInfo for LimitError {
    fn code(&self) -> ErrorCode {
        ErrorCode::InvalidArgument
    }
    fn rule(&self) -> Option<&'static str> {
        None
    }
}

/// `text` cut to [`MAX_QUOTED_CHARS`] characters (never inside a character) for quoting in a
/// message.
pub fn quote(text: &str) -> String {
    match text.char_indices().nth(MAX_QUOTED_CHARS) {
        None => text.to_string(),
        Some((end, _)) => format!("{}…", &text[..end]),
    }
}

/// A finite number within `lo..=hi`.
pub fn check_range(what: &dyn Fn() -> String, v: f64, lo: f64, hi: f64) -> Result<(), LimitError> {
    if v.is_finite() && (lo..=hi).contains(&v) {
        Ok(())
    } else {
        Err(LimitError::new(
            what(),
            v,
            format!("a finite number from {lo} to {hi}"),
        ))
    }
}

/// A list no longer than `max`.
pub fn check_len(what: &dyn Fn() -> String, len: usize, max: usize) -> Result<(), LimitError> {
    if len <= max {
        Ok(())
    } else {
        Err(LimitError::new(
            what(),
            format!("{len} long"),
            format!("at most {max} long"),
        ))
    }
}

/// A coordinate: finite, at most [`MAX_COORDINATE`] from 0.
pub fn check_coordinate(what: &dyn Fn() -> String, v: f64) -> Result<(), LimitError> {
    check_range(what, v, -MAX_COORDINATE, MAX_COORDINATE)
}

/// A point of the table.
pub fn check_point(what: &dyn Fn() -> String, p: Point) -> Result<(), LimitError> {
    check_coordinate(&|| format!("{}.x", what()), p.x)?;
    check_coordinate(&|| format!("{}.y", what()), p.y)
}

/// A pose: coordinates as [`check_point`], facing within ±[`MAX_FACING`].
pub fn check_pose(what: &dyn Fn() -> String, p: &Pose) -> Result<(), LimitError> {
    check_coordinate(&|| format!("{}.x", what()), p.x)?;
    check_coordinate(&|| format!("{}.y", what()), p.y)?;
    check_range(
        &|| format!("{}.facing", what()),
        p.facing,
        -MAX_FACING,
        MAX_FACING,
    )
}

/// A board: both sides finite, from [`MIN_BOARD_SIDE`] to [`MAX_BOARD_SIDE`].
pub fn check_board(b: &Board) -> Result<(), LimitError> {
    check_range(
        &|| "board.width".into(),
        b.width,
        MIN_BOARD_SIDE,
        MAX_BOARD_SIDE,
    )?;
    check_range(
        &|| "board.depth".into(),
        b.depth,
        MIN_BOARD_SIDE,
        MAX_BOARD_SIDE,
    )
}

fn check_points(
    what: &dyn Fn() -> String,
    pts: &[Point],
    total: &mut usize,
) -> Result<(), LimitError> {
    check_len(what, pts.len(), MAX_VERTICES)?;
    *total += pts.len();
    check_len(
        &|| "the battlefield's vertices".into(),
        *total,
        MAX_TOTAL_VERTICES,
    )?;
    for (i, p) in pts.iter().enumerate() {
        check_point(&|| format!("{}[{i}]", what()), *p)?;
    }
    Ok(())
}

fn check_polygon(
    what: &dyn Fn() -> String,
    poly: &Polygon,
    total: &mut usize,
) -> Result<(), LimitError> {
    check_points(&|| format!("{}.points", what()), &poly.points, total)
}

/// A battlefield: the board, at most [`MAX_FEATURES`] features, each list of vertices at most
/// [`MAX_VERTICES`] long and all of them together at most [`MAX_TOTAL_VERTICES`], every point and
/// width in range.
pub fn check_battlefield(bf: &Battlefield) -> Result<(), LimitError> {
    check_board(&bf.board)?;
    check_len(
        &|| "battlefield.features".into(),
        bf.features.len(),
        MAX_FEATURES,
    )?;
    let mut total = 0;
    for (i, f) in bf.features.iter().enumerate() {
        let at = |field: &str| format!("battlefield.features[{i}].{field}");
        match f {
            TerrainFeature::Area(a) => {
                check_polygon(&|| at("outline"), &a.outline, &mut total)?;
                check_points(&|| at("crest"), &a.crest, &mut total)?;
                check_points(&|| at("gates"), &a.gates, &mut total)?;
            }
            TerrainFeature::River(r) => {
                check_points(&|| at("course"), &r.course, &mut total)?;
                check_range(&|| at("width"), r.width, 0.0, MAX_FEATURE_WIDTH)?;
            }
            TerrainFeature::Road(r) => {
                check_points(&|| at("path"), &r.path, &mut total)?;
                check_range(&|| at("width"), r.width, 0.0, MAX_FEATURE_WIDTH)?;
            }
            TerrainFeature::Waterway(w) => {
                check_len(&|| at("depths"), w.depths.len(), MAX_VERTICES)?;
                total += w.depths.len();
                check_len(
                    &|| "the battlefield's vertices".into(),
                    total,
                    MAX_TOTAL_VERTICES,
                )?;
                for (j, d) in w.depths.iter().enumerate() {
                    check_range(&|| at(&format!("depths[{j}]")), *d, 0.0, MAX_FEATURE_WIDTH)?;
                }
                check_range(&|| at("beach"), w.beach, 0.0, MAX_FEATURE_WIDTH)?;
            }
        }
    }
    Ok(())
}

/// A table: its battlefield, at most [`MAX_ELEMENTS`] elements, every pose in range.
pub fn check_table(t: &Table) -> Result<(), LimitError> {
    check_battlefield(&t.battlefield)?;
    check_len(&|| "elements".into(), t.elements.len(), MAX_ELEMENTS)?;
    for (i, e) in t.elements.iter().enumerate() {
        check_pose(&|| format!("elements[{i}].pose"), &e.pose)?;
    }
    Ok(())
}

/// A set-up's sizes and numbers: at most [`MAX_ARMIES`] armies and [`MAX_ELEMENTS`] elements in
/// all, names at most [`MAX_NAME_BYTES`], the battlefield, every pose and camp outline in range.
/// The rules of the set-up (overlaps, generals, terrain) are `battle::setup::validate`'s.
pub fn check_setup(s: &BattleSetup) -> Result<(), LimitError> {
    check_len(&|| "armies".into(), s.armies.len(), MAX_ARMIES)?;
    check_len(&|| "format".into(), s.format.len(), MAX_NAME_BYTES)?;
    check_battlefield(&s.battlefield)?;
    let total: usize = s.armies.iter().map(|a| a.elements.len()).sum();
    check_len(&|| "the elements of all armies".into(), total, MAX_ELEMENTS)?;
    for (i, a) in s.armies.iter().enumerate() {
        check_len(
            &|| format!("armies[{i}].name (bytes)"),
            a.name.len(),
            MAX_NAME_BYTES,
        )?;
        if let Some(camp) = &a.camp {
            let mut vertices = 0;
            check_polygon(&|| format!("armies[{i}].camp"), camp, &mut vertices)?;
        }
        for (j, e) in a.elements.iter().enumerate() {
            check_pose(&|| format!("armies[{i}].elements[{j}].pose"), &e.pose)?;
        }
        check_len(
            &|| format!("armies[{i}].commands"),
            a.commands.len(),
            MAX_COMMANDS,
        )?;
        let listed: usize = a.commands.iter().map(|c| c.elements.len()).sum();
        check_len(
            &|| format!("the elements of armies[{i}].commands"),
            listed,
            MAX_ELEMENTS,
        )?;
        if let Some(crate::battle::PipAllocation::Ranked { order }) = &a.pip_allocation {
            check_len(
                &|| format!("armies[{i}].pip_allocation.order"),
                order.len(),
                MAX_COMMANDS,
            )?;
        }
    }
    Ok(())
}

/// An action's sizes and numbers: paths, id lists and group steps at most
/// [`MAX_ORDER_LENGTH`] long, every pose in range, every advance within ±[`MAX_COORDINATE`] and
/// every wheel within ±[`MAX_FACING`].
pub fn check_action(a: &Action) -> Result<(), LimitError> {
    let Action::Move { order } = a else {
        match a {
            Action::Shoot { support, .. } => {
                check_len(&|| "support".into(), support.len(), MAX_ORDER_LENGTH)?
            }
            Action::RollCommandPips { dice } => {
                check_len(&|| "dice".into(), dice.len(), MAX_COMMANDS)?
            }
            Action::Hold { ids } => check_len(&|| "ids".into(), ids.len(), MAX_ORDER_LENGTH)?,
            Action::Fight { c_in_c_bonus, .. } => {
                check_len(&|| "c_in_c_bonus".into(), c_in_c_bonus.len(), 2)?
            }
            _ => {}
        }
        if let Action::Sally { pose, .. } = a {
            check_pose(&|| "pose".into(), pose)?;
        }
        if let Action::Land { ids, poses } = a {
            check_len(&|| "ids".into(), ids.len(), MAX_ORDER_LENGTH)?;
            check_len(&|| "poses".into(), poses.len(), MAX_ORDER_LENGTH)?;
            for (i, pose) in poses.iter().enumerate() {
                check_pose(&|| format!("poses[{i}]"), pose)?;
            }
        }
        return Ok(());
    };
    let path = |p: &[Pose]| -> Result<(), LimitError> {
        check_len(&|| "order.path".into(), p.len(), MAX_ORDER_LENGTH)?;
        for (i, pose) in p.iter().enumerate() {
            check_pose(&|| format!("order.path[{i}]"), pose)?;
        }
        Ok(())
    };
    let ids = |n: usize| check_len(&|| "order.ids".into(), n, MAX_ORDER_LENGTH);
    match order {
        MoveOrder::Element { path: p, .. } => path(p),
        MoveOrder::Column { ids: i, path: p } => {
            ids(i.len())?;
            path(p)
        }
        MoveOrder::Group { ids: i, steps } => {
            ids(i.len())?;
            check_len(&|| "order.steps".into(), steps.len(), MAX_ORDER_LENGTH)?;
            for (k, s) in steps.iter().enumerate() {
                match s {
                    GroupStep::Advance { distance } => {
                        check_coordinate(&|| format!("order.steps[{k}].distance"), *distance)?
                    }
                    GroupStep::Wheel { degrees, .. } => check_range(
                        &|| format!("order.steps[{k}].degrees"),
                        *degrees,
                        -MAX_FACING,
                        MAX_FACING,
                    )?,
                }
            }
            Ok(())
        }
        MoveOrder::IntoContact { ids: i, .. } => ids(i.len()),
        MoveOrder::Dismount { .. } => Ok(()),
        MoveOrder::ThroughCity { ids: i, .. } => ids(i.len()),
    }
}

/// The numeric ranges of a rules configuration (called by [`RulesConfig::validate`]): distances
/// positive and at most [`MAX_CONFIG_DISTANCE`], factors within ±[`MAX_CONFIG_FACTOR`], counts at
/// most [`MAX_CONFIG_COUNT`]. Within these no combat total can overflow.
pub fn check_config(cfg: &RulesConfig) -> Result<(), LimitError> {
    let distance = |what: &dyn Fn() -> String, v: f64| -> Result<(), LimitError> {
        if v.is_finite() && v > 0.0 && v <= MAX_CONFIG_DISTANCE {
            Ok(())
        } else {
            Err(LimitError::new(
                what(),
                v,
                format!("a positive number of BW up to {MAX_CONFIG_DISTANCE}"),
            ))
        }
    };
    let factor = |what: &dyn Fn() -> String, v: i32| -> Result<(), LimitError> {
        if (-MAX_CONFIG_FACTOR..=MAX_CONFIG_FACTOR).contains(&v) {
            Ok(())
        } else {
            Err(LimitError::new(
                what(),
                v,
                format!("a whole number from -{MAX_CONFIG_FACTOR} to {MAX_CONFIG_FACTOR}"),
            ))
        }
    };
    let count = |what: &dyn Fn() -> String, v: u8| -> Result<(), LimitError> {
        if v <= MAX_CONFIG_COUNT {
            Ok(())
        } else {
            Err(LimitError::new(
                what(),
                v,
                format!("at most {MAX_CONFIG_COUNT}"),
            ))
        }
    };
    for (b, r) in &cfg.kinds {
        let at = |field: &str| format!("kinds.{b}.{field}");
        distance(&|| at("depth"), r.depth)?;
        distance(&|| at("move_good"), r.move_good)?;
        distance(&|| at("move_rough"), r.move_rough)?;
        if let Some(range) = r.shooting_range {
            distance(&|| at("shooting_range"), range)?;
        }
        factor(&|| at("factor_vs_foot"), r.factor_vs_foot)?;
        factor(&|| at("factor_vs_mounted"), r.factor_vs_mounted)?;
        if let Some(f) = r.factor_shot_at {
            factor(&|| at("factor_shot_at"), f)?;
        }
    }
    let m = &cfg.mounted_infantry;
    distance(&|| "mounted_infantry.depth".into(), m.depth)?;
    distance(&|| "mounted_infantry.move_good".into(), m.move_good)?;
    distance(
        &|| "mounted_infantry.move_rough_solid".into(),
        m.move_rough_solid,
    )?;
    distance(
        &|| "mounted_infantry.move_rough_fast".into(),
        m.move_rough_fast,
    )?;
    let c = &cfg.combat;
    factor(
        &|| "combat.artillery_in_city_or_fort".into(),
        c.artillery_in_city_or_fort,
    )?;
    factor(
        &|| "combat.support_shooter_penalty".into(),
        c.support_shooter_penalty,
    )?;
    count(
        &|| "combat.max_support_shooters".into(),
        c.max_support_shooters,
    )?;
    count(
        &|| "combat.max_extra_assaulters".into(),
        c.max_extra_assaulters,
    )?;
    Ok(())
}
