//! The set-up of an encounter (BUGS §15; readings R5, R19, R24, R42–R44): the scenario, the
//! table, the figures, the readings' switches and the user's tables file, and the checks a set-up
//! must pass before play.

use serde::{Deserialize, Serialize};

use super::field::{Area, BoardType, Edge, Field};
use super::reaction::MeleeReaction;
use super::sheets::Sheet;
use super::tables::{Problem, TablesFile};
use super::FigureId;
use crate::geometry::Point;

/// The `format` of a set-up.
pub const SETUP_FORMAT: &str = "dbcore-bugs";

/// The three encounters of the booklet (BUGS §15) with the objective tests of reading R44.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case", tag = "kind")]
#[serde(deny_unknown_fields)]
pub enum EncounterKind {
    /// Soldiers escort citizens from one end of the board to the other: success when every
    /// citizen leaves by the goal edge.
    Escort {
        /// The edge the citizens must leave by.
        goal: Edge,
    },
    /// Soldiers defend a settlement: success when no citizen is killed or runs off.
    Defend,
    /// Soldiers raid a bug nest: success when at the end no bug is on the table and no hole
    /// owes bugs.
    Raid,
}

impl EncounterKind {
    /// Its name as the booklet puts it.
    pub fn name(self) -> &'static str {
        match self {
            EncounterKind::Escort { .. } => "the escort",
            EncounterKind::Defend => "the defence of the settlement",
            EncounterKind::Raid => "the raid on the nest",
        }
    }
}

/// The table's size in inches (reading R43: at least 36 × 36).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct TableSize {
    /// West–east, inches.
    pub width: f64,
    /// South–north, inches.
    pub depth: f64,
}

/// One figure as the set-up places it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct FigureSetup {
    /// Its number, unique in the encounter.
    pub id: FigureId,
    /// A name; the sheet's name and the id when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Its character sheet (BUGS §3).
    pub sheet: Sheet,
    /// Its base centre, inches.
    pub at: Point,
    /// The bearing it faces.
    #[serde(default)]
    pub facing: f64,
    /// Named a leader before the battle (BUGS §5, reading R11).
    #[serde(default)]
    pub leader: bool,
}

/// A bug hole open when the encounter begins: a nest (the raid).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct HoleSetup {
    /// Where it is.
    pub at: Point,
    /// Bugs still to come out of it, 1D6 each encounter step (BUGS §13.6).
    pub owes: u32,
}

/// The rules switches of the readings (BUGS §19).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(default)]
#[serde(deny_unknown_fields)]
pub struct BugsConfig {
    /// The grenade's Power: 11 as the Weapons Table says, or 9 as the sheets (reading R5).
    pub grenade_pwr: u8,
    /// How the check after a melee attack is read (reading R24).
    pub melee_reaction: MeleeReaction,
    /// To Hit row 6: the attacker's Weapon Skill at or below which it misses (reading R19).
    pub row6_ws_at_most: u8,
}

impl Default for BugsConfig {
    fn default() -> Self {
        BugsConfig {
            grenade_pwr: 11,
            melee_reaction: MeleeReaction::MoveBack,
            row6_ws_at_most: 6,
        }
    }
}

/// A BUGS! encounter as it starts: the scenario, the table, the figures, the rules switches and
/// the user's tables file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct BugsSetup {
    /// Always `dbcore-bugs`.
    pub format: String,
    /// Always 1.
    pub version: u32,
    /// Which encounter (BUGS §15).
    pub encounter: EncounterKind,
    /// The encounter ends after this many turns (reading R44: required for the defence and the
    /// raid).
    #[serde(default)]
    pub turn_limit: Option<u32>,
    /// The table.
    pub table: TableSize,
    /// The board's terrain type; `None` to roll it on 2D6 when the encounter begins (BUGS §14).
    #[serde(default)]
    pub board: Option<BoardType>,
    /// The terrain areas (reading R42); an area may be marked for one rolled board type.
    #[serde(default)]
    pub areas: Vec<Area>,
    /// The bearing of the party's front, for bug holes (reading R39).
    pub front: f64,
    /// Every figure.
    pub figures: Vec<FigureSetup>,
    /// Holes already open (a nest).
    #[serde(default)]
    pub holes: Vec<HoleSetup>,
    /// The readings' switches.
    #[serde(default)]
    pub config: BugsConfig,
    /// The lost values, from the user's tables file (BUGS §17).
    pub tables: TablesFile,
}

/// Every problem with a set-up apart from its tables (reading R43).
pub(super) fn setup_problems(s: &BugsSetup) -> Vec<Problem> {
    let mut p = Vec::new();
    let mut add = |at: String, problem: String| p.push(Problem { at, problem });
    if s.format != SETUP_FORMAT {
        add("format".into(), format!("must be \"{SETUP_FORMAT}\""));
    }
    if s.version != 1 {
        add("version".into(), "must be 1".into());
    }
    let t = s.table;
    let ok = |v: f64| v.is_finite() && (36.0..=240.0).contains(&v);
    if !ok(t.width) || !ok(t.depth) {
        add(
            "table".into(),
            "each side must be 36 to 240 in (reading R43: at least 3 × 3 ft)".into(),
        );
    }
    if !s.front.is_finite() {
        add("front".into(), "must be a bearing".into());
    }
    match (s.encounter, s.turn_limit) {
        (EncounterKind::Defend | EncounterKind::Raid, None) => add(
            "turn_limit".into(),
            "the defence and the raid need a turn limit (reading R44)".into(),
        ),
        (_, Some(0)) => add("turn_limit".into(), "must be at least 1".into()),
        (_, Some(n)) if n > 1000 => add("turn_limit".into(), "at most 1000".into()),
        _ => {}
    }
    if ![9, 11].contains(&s.config.grenade_pwr) {
        add(
            "config.grenade_pwr".into(),
            "must be 11 (the Weapons Table) or 9 (the sheets), reading R5".into(),
        );
    }
    if s.config.row6_ws_at_most > 12 {
        add("config.row6_ws_at_most".into(), "at most 12".into());
    }
    for (i, a) in s.areas.iter().enumerate() {
        if a.outline.len() < 3
            || a.outline
                .iter()
                .any(|q| !q.x.is_finite() || !q.y.is_finite())
            || !a.height.is_finite()
        {
            add(
                format!("areas.{i}"),
                "an area needs at least 3 finite points and a finite height".into(),
            );
        }
    }
    if s.figures.len() > 200 {
        add("figures".into(), "at most 200 figures".into());
    }
    let field = Field::new(t.width, t.depth, &s.areas, s.board);
    for (i, f) in s.figures.iter().enumerate() {
        let at = format!("figures.{i}");
        if s.figures[..i].iter().any(|g| g.id == f.id) {
            add(at.clone(), format!("figure {} is listed twice", f.id));
        }
        if f.id.0 >= 1_000_000 {
            add(at.clone(), "ids are below 1000000".into());
        }
        if !f.at.x.is_finite() || !f.at.y.is_finite() || !f.facing.is_finite() {
            add(at, "a position and facing must be finite".into());
            continue;
        }
        if !field.on_table(f.at) {
            add(at.clone(), "its base is not wholly on the table".into());
        }
        if !field.passable(f.at) {
            add(at.clone(), "it stands in impassable terrain".into());
        }
        if s.figures[..i]
            .iter()
            .any(|g| g.at.distance(f.at) < super::field::OVERLAP)
        {
            add(at, "its base overlaps another".into());
        }
    }
    for (i, h) in s.holes.iter().enumerate() {
        if !h.at.x.is_finite() || !h.at.y.is_finite() || !field.inside(h.at) || h.owes > 1000 {
            add(
                format!("holes.{i}"),
                "a hole must be on the table and owe at most 1000 bugs".into(),
            );
        }
    }
    p
}
