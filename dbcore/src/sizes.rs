//! The ground half of [`crate::limits`]: the sizes and ranges themselves, [`LimitError`] and the
//! checks of plain values (numbers, poses, boards, battlefields), which modules at every level
//! use. The checks of the types above (a table, a set-up, an action, a rules configuration) live
//! beside those types, and `limits` gathers all of them under one name.

use serde::{Deserialize, Serialize};

use crate::battlefield::{Battlefield, Board};
use crate::codes::{ErrorCode, ErrorInfo};
use crate::geometry::{Point, Polygon, Pose};
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
    pub(crate) fn new(
        what: impl Into<String>,
        found: impl ToString,
        allowed: impl Into<String>,
    ) -> Self {
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

pub(crate) fn check_polygon(
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
