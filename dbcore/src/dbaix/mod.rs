//! DBAix, the three-sided Asterix variant (DBAIX.md §0–§11), played on the same conventions as
//! the DBA battle: typed actions with dice as inputs, [`Battle::check`] pure, [`Battle::apply`]
//! committing exactly what `check` returned, typed refusals naming their rule, serde records that
//! replay identically.
//!
//! Distances are stored in **inches** (DBAIX.md §0): a figure's [`Pose`] is the midpoint of its
//! front edge in inches from the table's south-west corner and the bearing it faces.
//!
//! Where the seed is silent the module follows the readings of DBAIX.md §11; the ones that change
//! play are switches of [`DbaixConfig`]. Further readings of our own (each documented where it
//! is used):
//! - the table is 36 × 36 in, bases 1 in square ([`DbaixConfig`]);
//! - the Romans' base edge is the south, the Gauls' the north, the Pirates' the west (the sea);
//! - a move is a straight translation of the mover (figure or group) of at most 4 in, followed by
//!   an optional turn of each figure on the spot about its centre; only the final positions are
//!   checked for overlap and for being on the table;
//! - a figure whose front edge touches an enemy's front edge is locked in combat and may not move;
//! - close combats are fought in the bound of a side one of whose figures is in them;
//! - the game ends when at most one side can still fight or after [`DbaixConfig::max_rounds`];
//!   the side with most figures free on the table wins (DBAix §10 gives no victory condition).

mod bound;
pub mod driver;
mod legal;
mod rules;
pub mod svg;

pub use bound::{
    Action, Battle, BattleRecord, DbaixError, DiceRequest, Event, FighterScore, Music, Phase,
    ReplayError,
};
pub use rules::{
    combat_factor, odds, results, DbaixOdds, FigureResult, OddsEntry, PipAddOn, PipCost,
    TacticalFactor,
};

use serde::{Deserialize, Serialize};

use crate::geometry::{ElementRect, Point, Pose};

/// The three sides (DBAIX.md §1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "DbaixSide"))]
#[serde(rename_all = "snake_case")]
pub enum Side {
    /// The Romans, whose base edge is the south.
    Romans,
    /// The Gauls, whose base edge is the north.
    Gauls,
    /// The Pirates, who come from the sea on the west.
    Pirates,
}

impl Side {
    /// The three sides, in the default bound order.
    pub const ALL: [Side; 3] = [Side::Romans, Side::Gauls, Side::Pirates];
    /// Its number, as the three-army picture and the C and Python layers count sides.
    pub fn index(self) -> usize {
        match self {
            Side::Romans => 0,
            Side::Gauls => 1,
            Side::Pirates => 2,
        }
    }
}

/// What a figure is: its name, or its class for the unnamed ones (DBAIX.md §1, DBAIX.md §6.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum FigureClass {
    /// Dubius Status, the Roman commander and an officer.
    DubiusStatus,
    /// Caligula Minus, the Roman spy.
    CaligulaMinus,
    /// A Roman officer marked by the scenario (DBAIX.md §11.12); fights as "most Romans".
    Officer,
    /// A legionary: "most Romans".
    Legionary,
    /// Vitalstatistix, the Gauls' chief.
    Vitalstatistix,
    /// Asterix.
    Asterix,
    /// Obelix: an enemy he beats counts as beaten by half or less (DBAIX.md §7).
    Obelix,
    /// Getafix, the druid who brews the potion (DBAIX.md §5).
    Getafix,
    /// Cacofonix, the bard whose music binds (DBAIX.md §4).
    Cacofonix,
    /// Geriatrix.
    Geriatrix,
    /// A Gallic woman, who may have a husband among the Gauls.
    GallicWoman,
    /// "Most Gauls".
    Gaul,
    /// The Pirates' captain.
    Captain,
    /// Pegleg, the old pirate with the wooden leg.
    Pegleg,
    /// "Most Pirates".
    Pirate,
}

impl FigureClass {
    /// The side the class belongs to.
    pub fn side(self) -> Side {
        use FigureClass::*;
        match self {
            DubiusStatus | CaligulaMinus | Officer | Legionary => Side::Romans,
            Vitalstatistix | Asterix | Obelix | Getafix | Cacofonix | Geriatrix | GallicWoman
            | Gaul => Side::Gauls,
            Captain | Pegleg | Pirate => Side::Pirates,
        }
    }
    /// Roman officers: Dubius Status and the figures the scenario marks (DBAIX.md §11.12).
    pub fn is_officer(self) -> bool {
        matches!(self, FigureClass::DubiusStatus | FigureClass::Officer)
    }
}

/// A figure's number in a set-up.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(transparent)]
pub struct FigureId(pub u32);

impl std::fmt::Display for FigureId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "#{}", self.0)
    }
}

/// One figure as the scenario places it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct FigureSetup {
    /// Its number, unique in the set-up.
    pub id: FigureId,
    /// The name shown on the table ("Asterix", "Legionary 3").
    pub name: String,
    /// Who it is, which decides its side and its factors.
    pub class: FigureClass,
    /// Front-edge midpoint in inches and facing.
    pub pose: Pose,
    /// A Gallic woman's husband (DBAix §10 leaves the marriages to the scenario).
    #[serde(default)]
    pub husband: Option<FigureId>,
}

/// The numbers and switches of DBAix (DBAIX.md §9, DBAIX.md §11). Defaults are the readings of §11.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(default)]
#[serde(deny_unknown_fields)]
pub struct DbaixConfig {
    /// Table width (west–east) in inches; a reading, DBAix §10.
    pub table_width: f64,
    /// Table depth (south–north) in inches.
    pub table_depth: f64,
    /// Base frontage and depth in inches (DBAix §10: not given; 1 in, a 25 mm base).
    pub base_width: f64,
    /// Base depth, inches.
    pub base_depth: f64,
    /// The longest move (DBAIX.md §3).
    pub move_distance: f64,
    /// Moves a figure may take part in per bound (DBAIX.md §3).
    pub moves_per_bound: u8,
    /// DBAIX.md §11.3: the cost of a Gaul group moving straight ahead (1 by our reading, 2 as
    /// the seed literally says).
    pub gaul_straight_group_cost: u8,
    /// DBAIX.md §11.5: the music plays again on every third six (true) or only once a game.
    pub music_repeats: bool,
    /// DBAIX.md §11.2: the bound order.
    pub bound_order: Vec<Side>,
    /// The game ends after this many rounds of three bounds (a reading: DBAix §10 has no end).
    pub max_rounds: u32,
}

impl Default for DbaixConfig {
    fn default() -> Self {
        DbaixConfig {
            table_width: 36.0,
            table_depth: 36.0,
            base_width: 1.0,
            base_depth: 1.0,
            move_distance: 4.0,
            moves_per_bound: 2,
            gaul_straight_group_cost: 1,
            music_repeats: true,
            bound_order: vec![Side::Romans, Side::Gauls, Side::Pirates],
            max_rounds: 12,
        }
    }
}

/// The set-up tag of a DBAix game, so one JSON entry point tells it from a DBA battle.
pub const FORMAT: &str = "dbcore-dbaix";

/// A DBAix scenario: figures, the paved road and the rules configuration.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct DbaixSetup {
    /// Always [`FORMAT`].
    pub format: String,
    /// Always `"dbaix"`, the project's variant tag ([`crate::battlefield::Variant::Dbaix`]).
    pub variant: crate::battlefield::Variant,
    /// The rules switches of DBAix (the readings of DBAIX.md §11) and the table's size.
    #[serde(default)]
    pub config: DbaixConfig,
    /// The paved road's centre line, in inches (DBAix §10: there is one for the Romans).
    #[serde(default)]
    pub road: Vec<Point>,
    /// The road's width in inches.
    #[serde(default = "default_road_width")]
    pub road_width: f64,
    /// Every figure, as the scenario places it.
    pub figures: Vec<FigureSetup>,
}

fn default_road_width() -> f64 {
    2.0
}

impl DbaixSetup {
    /// A set-up with these figures and the default configuration and road.
    pub fn new(figures: Vec<FigureSetup>) -> Self {
        DbaixSetup {
            format: FORMAT.into(),
            variant: crate::battlefield::Variant::Dbaix,
            config: DbaixConfig::default(),
            road: Vec::new(),
            road_width: default_road_width(),
            figures,
        }
    }
}

/// Where a figure is.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "DbaixStatus"))]
#[serde(rename_all = "snake_case", tag = "status")]
#[serde(deny_unknown_fields)]
pub enum Status {
    /// On the table and free.
    OnTable,
    /// Under guard of an enemy figure (DBAIX.md §8.1); it neither moves nor fights.
    Captured {
        /// The enemy figure guarding it.
        guard: FigureId,
    },
    /// A Gaul removed (DBAIX.md §7).
    Removed,
    /// A Roman sent back to camp (DBAIX.md §8.2).
    InCamp,
    /// A Pirate fled off the table, for good (DBAIX.md §7, DBAIX.md §11.16).
    FledOff,
}

/// A figure in play.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct FigureState {
    /// Its number, as in the set-up.
    pub id: FigureId,
    /// The name shown on the table.
    pub name: String,
    /// Who it is.
    pub class: FigureClass,
    /// Its side.
    pub side: Side,
    /// Where it stands: the midpoint of its front edge in inches from the south-west corner, and
    /// the bearing it faces.
    pub pose: Pose,
    /// On the table, captured, or out of the game.
    pub status: Status,
    /// A Gallic woman's husband, if she has one (DBAIX.md §3.1).
    #[serde(default)]
    pub husband: Option<FigureId>,
    /// Moves taken part in this bound (DBAIX.md §3).
    pub moves: u8,
}

impl FigureState {
    /// Free on the table: neither captured nor out of the game.
    pub fn on_table(&self) -> bool {
        self.status == Status::OnTable
    }
    /// Its base as a rectangle, inches.
    pub fn rect(&self, cfg: &DbaixConfig) -> ElementRect {
        ElementRect::new(self.pose, cfg.base_width, cfg.base_depth)
    }
}
