//! What happens in an encounter, as events (BUGS §5–15), and the verdict at the end (reading R44).

use serde::{Deserialize, Serialize};

use super::field::{BoardType, Edge};
use super::hits::{HitResult, HitRow};
use super::holes::{ChanceTerm, Direction};
use super::reaction::{CheckKind, Modified, Passed, ReactionResult};
use super::setup::EncounterKind;
use super::sheets::{Sheet, Weapon};
use super::tables::{Impact, Wound};
use super::FigureId;
use crate::dice::DieScore;
use crate::geometry::Point;

/// How a figure moved.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum MoveKind {
    /// A voluntary move (BUGS §6 #1).
    Move,
    /// A charge (BUGS §6 #3).
    Charge,
    /// Duck down (BUGS §7 #3).
    DuckDown,
    /// Runaway (BUGS §7 #5).
    Runaway,
    /// Move back (BUGS §7 #6).
    MoveBack,
    /// Follow up (BUGS §7 #7).
    FollowUp,
    /// Pursuit (BUGS §7 #8).
    Pursuit,
}

/// The kind of an attack.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum AttackKind {
    /// Fire (BUGS §8).
    Shot,
    /// The Active figure's melee attack (BUGS §11).
    Melee,
    /// A counter-attack after Carry on (BUGS §11).
    CounterAttack,
    /// A free hack at a runaway's back (BUGS §7 #5, #8).
    FreeHack,
}

/// Why a figure died.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum DeathCause {
    /// A K on the Wound Table (BUGS §10.3).
    Wound,
    /// Stamina damage reached double its Stamina (BUGS §10.4).
    Stamina,
    /// A bug hole opened under it (BUGS §13.5).
    BugHole,
}

/// Who counts what (reading R44).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct Count {
    /// On the table.
    pub on_table: u32,
    /// Killed.
    pub killed: u32,
    /// Ran off.
    pub run_off: u32,
    /// Left the table by choice.
    pub exited: u32,
}

/// Success or failure of the objective (reading R44).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    /// The humans met the objective.
    Success,
    /// They did not.
    Failure,
}

/// The tally and, at the end, the result (reading R44).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct Verdict {
    /// The encounter has ended.
    pub over: bool,
    /// Turns begun.
    pub turn: u32,
    /// The objective's result, once over.
    pub outcome: Option<Outcome>,
    /// Why it ended, or where it stands.
    pub why: String,
    /// Every human figure.
    pub humans: Count,
    /// The citizens (colonists included, reading R41).
    pub citizens: Count,
    /// Citizens who left by the goal edge (the escort).
    pub citizens_safe: u32,
    /// Every bug.
    pub bugs: Count,
    /// Holes opened.
    pub holes_opened: u32,
    /// Bugs the holes still owe.
    pub bugs_owed: u32,
}

/// What happened.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "BugsEvent"))]
#[serde(rename_all = "snake_case", tag = "event")]
#[serde(deny_unknown_fields)]
pub enum Event {
    /// The encounter begins.
    EncounterBegan {
        /// Which encounter.
        encounter: EncounterKind,
        /// The board, if set.
        board: Option<BoardType>,
        /// The turn limit.
        turn_limit: Option<u32>,
    },
    /// The board's terrain was rolled (BUGS §14).
    TerrainRolled {
        /// The two dice.
        dice: Vec<DieScore>,
        /// The board.
        board: BoardType,
    },
    /// A turn begins (reading R9).
    TurnBegan {
        /// Its number.
        turn: u32,
    },
    /// A Willpower value is called (BUGS §5).
    WillpowerCalled {
        /// The value.
        willpower: u8,
        /// The figures at it.
        figures: Vec<FigureId>,
    },
    /// A roll-off set an order (BUGS §5, reading R36).
    RolledOff {
        /// The figures, one die each.
        figures: Vec<FigureId>,
        /// Their dice.
        dice: Vec<DieScore>,
    },
    /// A figure is Active (BUGS §5).
    Activated {
        /// The figure.
        figure: FigureId,
        /// The leader it activates with.
        with_leader: Option<FigureId>,
    },
    /// Friends activate with a leader (BUGS §5).
    Joined {
        /// The leader.
        leader: FigureId,
        /// The friends.
        joiners: Vec<FigureId>,
    },
    /// A knocked-down figure spent its activation getting up (reading R23).
    StoodUp {
        /// The figure.
        figure: FigureId,
    },
    /// A frozen figure gave up its activation (reading R30).
    StayedFrozen {
        /// The figure.
        figure: FigureId,
    },
    /// A figure stayed in place (BUGS §6 #2).
    Stayed {
        /// The figure.
        figure: FigureId,
        /// The bearing it faces.
        facing: f64,
    },
    /// A figure moved.
    Moved {
        /// The figure.
        figure: FigureId,
        /// How.
        kind: MoveKind,
        /// From.
        from: Point,
        /// To.
        to: Point,
        /// Inches moved.
        inches: f64,
        /// The bearing it faces.
        facing: f64,
    },
    /// A figure left the table by choice (reading R43).
    Exited {
        /// The figure.
        figure: FigureId,
        /// The edge.
        edge: Edge,
    },
    /// A runaway left the table (reading R33).
    RanOff {
        /// The figure.
        figure: FigureId,
        /// The edge.
        edge: Edge,
    },
    /// A figure declares a charge (BUGS §6 #3).
    ChargeDeclared {
        /// The charger.
        figure: FigureId,
        /// The enemy.
        target: FigureId,
    },
    /// A figure fires (BUGS §8).
    Fired {
        /// The firer.
        figure: FigureId,
        /// The weapon.
        weapon: Weapon,
        /// Every target, in order (a burst's included).
        targets: Vec<FigureId>,
        /// A burst's centre.
        burst_at: Option<Point>,
    },
    /// A figure held its fire.
    HeldFire {
        /// The figure.
        figure: FigureId,
    },
    /// A To Hit roll (BUGS §9).
    HitRolled {
        /// The attacker.
        attacker: FigureId,
        /// The target.
        target: FigureId,
        /// The attack.
        attack: AttackKind,
        /// The dice.
        dice: Vec<DieScore>,
        /// The row read.
        row: HitRow,
        /// Whether its condition held.
        condition_held: bool,
        /// The result.
        result: HitResult,
    },
    /// Wound damage off Stamina (BUGS §10.1).
    Damaged {
        /// The figure hit.
        figure: FigureId,
        /// The attacker.
        by: FigureId,
        /// The weapon's dice.
        dice: Vec<DieScore>,
        /// The attacker's Weapon Skill.
        ws: u8,
        /// The target's armour.
        dav: u8,
        /// Points off Stamina.
        damage: u32,
        /// Stamina now.
        stamina: i32,
    },
    /// An Impact roll (BUGS §10.2).
    ImpactRolled {
        /// The figure hit.
        figure: FigureId,
        /// The attacker.
        by: FigureId,
        /// The column.
        power: u32,
        /// The dice.
        dice: Vec<DieScore>,
        /// The cell.
        cell: Impact,
        /// Stamina now.
        stamina: i32,
    },
    /// Knocked down (BUGS §10.2).
    KnockedDown {
        /// The figure.
        figure: FigureId,
    },
    /// A Wound roll (BUGS §10.3).
    WoundRolled {
        /// The figure.
        figure: FigureId,
        /// The column read.
        willpower: u32,
        /// The dice.
        dice: Vec<DieScore>,
        /// The cell.
        cell: Wound,
        /// Willpower now.
        will: u8,
    },
    /// A figure died.
    Killed {
        /// The figure.
        figure: FigureId,
        /// Why.
        cause: DeathCause,
    },
    /// A figure runs away: Stamina and Willpower drop to 0 (BUGS §7 #5).
    RanAway {
        /// The figure.
        figure: FigureId,
        /// Stamina now.
        stamina: i32,
    },
    /// A reaction check (BUGS §12).
    Checked {
        /// The checker.
        figure: FigureId,
        /// The check.
        check: CheckKind,
        /// Its current Willpower.
        will: u8,
        /// The modifiers.
        modifiers: Vec<Modified>,
        /// The modified Willpower the rolls must not exceed.
        needed: i32,
        /// Each roll's two dice.
        rolls: Vec<Vec<DieScore>>,
        /// What it passed.
        passed: Passed,
        /// The table's result.
        result: ReactionResult,
    },
    /// What Now, passed 2nd: the opposed roll (BUGS §12.3).
    Opposed {
        /// The checker.
        checker: FigureId,
        /// The figure it saw.
        mover: FigureId,
        /// Checker's die, mover's die.
        dice: Vec<DieScore>,
        /// Who won (ties are rolled again).
        winner: Option<FigureId>,
    },
    /// A figure froze (BUGS §12.3).
    Froze {
        /// The figure.
        figure: FigureId,
        /// It stays frozen to the end of this turn.
        until_turn: u32,
    },
    /// Willpower lost by moving back (BUGS §7 #6).
    WillpowerLost {
        /// The figure.
        figure: FigureId,
        /// Willpower now.
        will: u8,
    },
    /// A pursuer's check (BUGS §7 #8).
    PursuitChecked {
        /// The pursuer.
        figure: FigureId,
        /// The dice.
        dice: Vec<DieScore>,
        /// Its Willpower.
        will: u8,
        /// It pursues on.
        pursues: bool,
    },
    /// A pursuit ended.
    PursuitEnded {
        /// The pursuer.
        figure: FigureId,
    },
    /// The bug-hole roll (BUGS §13.1, BUGS §13.2).
    HoleChance {
        /// The terms of the chance.
        terms: Vec<ChanceTerm>,
        /// The chance.
        chance: i32,
        /// The dice.
        dice: Vec<DieScore>,
        /// A hole opens.
        opens: bool,
    },
    /// The hole's direction (BUGS §13.3); `None` for tremors.
    HoleDirection {
        /// The hole.
        hole: u32,
        /// The die.
        die: DieScore,
        /// The direction, or tremors.
        direction: Option<Direction>,
    },
    /// A hole opened (BUGS §13.4, BUGS §13.5).
    HoleOpened {
        /// The hole.
        hole: u32,
        /// Where.
        at: Point,
        /// The dice multiplied.
        dice: Vec<DieScore>,
        /// The distance rolled, inches.
        distance: f64,
    },
    /// The bugs a hole will release (BUGS §13.7).
    BugsOwed {
        /// The hole.
        hole: u32,
        /// Humans on the table.
        humans: u32,
        /// The die.
        die: DieScore,
        /// Bugs in all.
        owes: u32,
    },
    /// How many come out this turn (BUGS §13.6).
    BugsReleased {
        /// The hole.
        hole: u32,
        /// The die.
        die: DieScore,
        /// How many.
        count: u32,
    },
    /// A bug came out (BUGS §13.6, BUGS §13.8).
    BugEmerged {
        /// The hole.
        hole: u32,
        /// The new figure.
        figure: FigureId,
        /// Its name.
        name: String,
        /// Its sheet.
        sheet: Sheet,
        /// The type dice.
        dice: Vec<DieScore>,
        /// Where.
        at: Point,
    },
    /// A bug could not be placed and waits (reading R40).
    BugWaits {
        /// The hole.
        hole: u32,
    },
    /// A turn ends.
    TurnEnded {
        /// Its number.
        turn: u32,
    },
    /// The encounter ends (reading R44).
    EncounterEnded {
        /// The verdict.
        verdict: Verdict,
    },
}
