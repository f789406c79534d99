//! The encounter: its state, the actions, the dice and decisions awaited, refusals, and the record
//! that replays (BUGS §5–15). The set-up is in `setup.rs` and the events in `events.rs`; the rules
//! that move the encounter on are in the sibling files (`tasks.rs` the turn, `holes.rs` the bug
//! holes, `fight.rs` shooting and melee, `react.rs` the checks, `motion.rs` the moves,
//! `choices.rs` what a player may choose).
//!
//! [`Encounter::check`] runs an action on a copy and returns its events; [`Encounter::apply`]
//! runs the same and commits it, so a refusal changes nothing and the two always agree.

use serde::{Deserialize, Serialize};

use super::field::{BoardType, Edge, Field};
use super::reaction::CheckKind;
use super::sheets::{Sheet, Weapon};
use super::tables::{Problem, Tables, TablesError};
use super::tasks::{Input, Task};
use super::{BugsSetup, Event, Verdict};
use super::{FigureId, Side};
use crate::dice::{DiceError, DieScore};
use crate::error::{ErrorCode, ErrorInfo};
use crate::geometry::Point;

/// The `format` of a record.
pub const RECORD_FORMAT: &str = "dbcore-bugs-record";

/// Where a figure is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case", tag = "status")]
#[serde(deny_unknown_fields)]
pub enum FigureStatus {
    /// On the table.
    OnTable,
    /// Dead, and removed (BUGS §10.3, BUGS §10.4).
    Dead,
    /// Ran off the table (reading R33).
    RanOff,
    /// Left the table by choice (reading R43).
    Exited {
        /// The edge it left by.
        edge: Edge,
    },
}

/// A figure pursuing a runaway (BUGS §7 #8, reading R35).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct Pursuit {
    /// The runaway it chases.
    pub quarry: FigureId,
    /// Its movement rate is divided by this the next time it pursues (2, then 4, …).
    pub divisor: u32,
}

/// A figure in play: its sheet's characteristics, where it stands, and its state.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "BugsFigure"))]
#[serde(deny_unknown_fields)]
pub struct Figure {
    /// Its number.
    pub id: FigureId,
    /// Its name.
    pub name: String,
    /// Its sheet.
    pub sheet: Sheet,
    /// Humans or bugs.
    pub side: Side,
    /// A leader (BUGS §5).
    pub leader: bool,
    /// Its base centre, inches.
    pub at: Point,
    /// The bearing it faces.
    pub facing: f64,
    /// Weapon Skill.
    pub ws: u8,
    /// Power.
    pub pow: u8,
    /// Willpower now (it falls, never rises: reading R46).
    pub will: u8,
    /// Willpower at the start.
    pub will_start: u8,
    /// Stamina now, negative below 0 (BUGS §10.4).
    pub stam: i32,
    /// Stamina at the start.
    pub stam_start: i32,
    /// Defensive Armor Value.
    pub dav: u8,
    /// Its sheet weapon.
    pub weapon: Weapon,
    /// The sheet weapon's dice.
    pub damage_dice: u8,
    /// Movement rate, inches.
    pub movement: f64,
    /// Grenades left.
    pub grenades: u8,
    /// On the table or out of play.
    pub status: FigureStatus,
    /// Has activated this turn.
    pub activated: bool,
    /// Knocked down: its next activation is spent getting up (reading R23).
    pub knocked_down: bool,
    /// Frozen by a What Now check until the end of this turn (reading R30).
    pub frozen_until: Option<u32>,
    /// Running away (reading R33).
    pub running: bool,
    /// Pursuing a runaway.
    pub pursuing: Option<Pursuit>,
    /// Inches moved since its activation began (reading R13).
    pub moved_in: f64,
    /// Its activation was cut short (ducked down, ran, knocked down).
    pub halted: bool,
    /// The hole it came out of, for a bug.
    pub hole: Option<u32>,
    /// The turn in whose encounter step it came out, for a bug.
    pub emerged: Option<u32>,
}

impl Figure {
    /// A figure coming onto the table fresh from its sheet (at the start of an encounter, or a
    /// bug out of a hole): full Stamina and Willpower, no activation, no condition. `side` is
    /// its sheet's side; `hole` and `emerged` are a bug's hole and turn.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn fresh(
        id: FigureId,
        name: String,
        sheet: Sheet,
        leader: bool,
        at: Point,
        facing: f64,
        tables: &crate::bugs::Tables,
    ) -> Figure {
        let c = sheet.characteristics(tables);
        Figure {
            id,
            name,
            sheet,
            side: sheet.side(),
            leader,
            at,
            facing,
            ws: c.ws,
            pow: c.pow,
            will: c.will,
            will_start: c.will,
            stam: c.stam,
            stam_start: c.stam,
            dav: c.dav,
            weapon: c.weapon,
            damage_dice: c.damage_dice,
            movement: c.movement,
            grenades: c.grenades,
            status: FigureStatus::OnTable,
            activated: false,
            knocked_down: false,
            frozen_until: None,
            running: false,
            pursuing: None,
            moved_in: 0.0,
            halted: false,
            hole: None,
            emerged: None,
        }
    }

    /// On the table.
    pub fn on_table(&self) -> bool {
        self.status == FigureStatus::OnTable
    }
    /// Frozen in turn `turn`.
    pub fn frozen(&self, turn: u32) -> bool {
        self.frozen_until.is_some_and(|t| t >= turn)
    }
    /// Charge speed: 1½ × its movement rate (BUGS §6, reading R3).
    pub fn charge_speed(&self) -> f64 {
        self.movement * 1.5
    }
    /// It has moved fast (12 in or more) since its activation began (reading R13).
    pub fn moved_fast(&self) -> bool {
        self.moved_in >= 12.0 - 1e-9
    }
}

/// A bug hole's state.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case", tag = "state")]
#[serde(deny_unknown_fields)]
pub enum HoleState {
    /// Tremors: it opens in the next encounter step (BUGS §13.3).
    Tremors,
    /// Open since this turn (0 for a nest of the set-up).
    Open {
        /// The turn it opened.
        turn: u32,
    },
}

/// A bug hole.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct BugHole {
    /// Its number, from 1.
    pub id: u32,
    /// Where it is, once located.
    pub at: Option<Point>,
    /// Open, or tremors.
    pub state: HoleState,
    /// Bugs still to come out (BUGS §13.7, reading R40).
    pub owes: u32,
}

/// What a player does: a roll of the dice asked for, or a choice.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "BugsAction"))]
#[serde(rename_all = "snake_case", tag = "action")]
#[serde(deny_unknown_fields)]
pub enum Action {
    /// The dice [`Encounter::awaiting`] asks for, as many as it says, in its order.
    Roll {
        /// The scores, 1 to 6 each.
        dice: Vec<DieScore>,
    },
    /// Move along `path` (waypoints after the start; empty to fire without moving), then turn to
    /// `facing`, then choose whether to fire (BUGS §6 #1).
    Move {
        /// The Active figure.
        figure: FigureId,
        /// Where its centre goes, in order; a last point beyond an edge leaves the table there.
        path: Vec<Point>,
        /// The bearing it faces at the end; `None` keeps its facing.
        #[serde(default)]
        facing: Option<f64>,
    },
    /// Stay in place, turning if it wishes (BUGS §6 #2).
    Stay {
        /// The Active figure.
        figure: FigureId,
        /// The bearing it faces; `None` keeps its facing.
        #[serde(default)]
        facing: Option<f64>,
    },
    /// Charge `target`, ending with the centre at `to`, in contact (BUGS §6 #3, reading R28).
    Charge {
        /// The Active figure.
        figure: FigureId,
        /// The enemy charged.
        target: FigureId,
        /// Where the charger's centre ends: 1 in from the target's.
        to: Point,
    },
    /// Attack an enemy already in contact (readings R25, R27).
    Attack {
        /// The Active figure.
        figure: FigureId,
        /// The enemy in contact.
        target: FigureId,
    },
    /// The friends who activate with a leader, in the order they act (BUGS §5, reading R11).
    Join {
        /// The leader.
        leader: FigureId,
        /// The friends who join.
        joiners: Vec<FigureId>,
    },
    /// Fire at `targets` in order (BUGS §8): one target for a burst, which hits everything in its
    /// circle; `grenade` throws one of the figure's grenades.
    Fire {
        /// The figure firing.
        figure: FigureId,
        /// Throw a grenade instead of firing the sheet weapon.
        #[serde(default)]
        grenade: bool,
        /// The targets, in the order they are resolved.
        targets: Vec<FigureId>,
    },
    /// Do not fire.
    HoldFire {
        /// The figure that could have fired.
        figure: FigureId,
    },
}

/// How the dice asked for are read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum DiceReading {
    /// Added up (1D6, 2D6, 3D6).
    Total,
    /// Each die on its own (roll-offs, the opposed roll).
    Each,
    /// One die halved, rounded up (½D6, reading R48).
    Half,
    /// Two dice multiplied (the hole's distance, BUGS §13.4).
    Product,
}

/// What a roll is for.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case", tag = "roll")]
#[serde(deny_unknown_fields)]
pub enum Roll {
    /// The board's terrain (BUGS §14).
    Terrain,
    /// One die each for the order of figures with the same Willpower (BUGS §5).
    ActivationOrder {
        /// The Willpower called.
        willpower: u8,
        /// The figures rolling, one die each in this order.
        figures: Vec<FigureId>,
    },
    /// One die each for the order of several checkers at one point (reading R36).
    CheckOrder {
        /// The figures rolling, one die each in this order.
        figures: Vec<FigureId>,
    },
    /// To Hit (BUGS §9).
    ToHit {
        /// The attacker.
        attacker: FigureId,
        /// The target.
        target: FigureId,
    },
    /// The weapon's Damage dice (BUGS §10.1).
    Damage {
        /// The attacker.
        attacker: FigureId,
        /// The target.
        target: FigureId,
    },
    /// The Impact Table (BUGS §10.2).
    Impact {
        /// The attacker.
        attacker: FigureId,
        /// The target.
        target: FigureId,
        /// The Power Rating's column.
        power: u32,
    },
    /// The Wound Table (BUGS §10.3).
    Wound {
        /// The figure wounded.
        figure: FigureId,
        /// The Willpower column read.
        willpower: u32,
    },
    /// A reaction check's 1st or 2nd roll (BUGS §12.1).
    Reaction {
        /// The checker.
        figure: FigureId,
        /// The check.
        check: CheckKind,
        /// 1 or 2.
        attempt: u8,
    },
    /// What Now, passed 2nd: one die for the checker, one for the mover (BUGS §12.3).
    Opposed {
        /// The checker (first die).
        checker: FigureId,
        /// The figure it saw (second die).
        mover: FigureId,
    },
    /// ½D6 added to a pursuer's first move (BUGS §7 #8).
    PursuitDistance {
        /// The pursuer.
        figure: FigureId,
    },
    /// The pursuer's 2D6 against its Willpower (BUGS §7 #8).
    PursuitCheck {
        /// The pursuer.
        figure: FigureId,
    },
    /// Whether a bug hole opens (BUGS §13.2).
    HoleChance {
        /// The modified chance.
        chance: i32,
    },
    /// The hole's direction (BUGS §13.3).
    HoleDirection {
        /// The hole.
        hole: u32,
        /// After tremors: a 5 or 6 is rolled again.
        after_tremors: bool,
    },
    /// The hole's distance, two dice multiplied (BUGS §13.4).
    HoleDistance {
        /// The hole.
        hole: u32,
    },
    /// The number of bugs: 1D6 added to the humans (BUGS §13.7).
    BugsOwed {
        /// The hole.
        hole: u32,
    },
    /// How many bugs come out this turn (BUGS §13.6).
    Release {
        /// The hole.
        hole: u32,
    },
    /// The kind of the bug coming out (BUGS §13.8).
    BugType {
        /// The hole.
        hole: u32,
    },
}

/// The dice the encounter waits for.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "BugsDiceRequest"))]
#[serde(deny_unknown_fields)]
pub struct DiceRequest {
    /// How many D6.
    pub count: u8,
    /// How they are read.
    pub reading: DiceReading,
    /// What for.
    pub roll: Roll,
}

impl DiceRequest {
    /// The dice as a player says them: "2D6", "3D6", "½D6", "2D6 multiplied", "1D6 each".
    pub fn notation(&self) -> String {
        match self.reading {
            DiceReading::Total => format!("{}D6", self.count),
            DiceReading::Each => format!("1D6 each ({} dice)", self.count),
            DiceReading::Half => "½D6".into(),
            DiceReading::Product => "2D6 multiplied".into(),
        }
    }
}

/// Why a figure may fire now.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum FireReason {
    /// At the end of its move (BUGS §6 #1).
    AfterMove,
    /// A What Now check let it (BUGS §12.3).
    WhatNow,
    /// It stands to be charged and may fire (BUGS §12.6).
    BeingCharged,
    /// Its Charging check halted it: it may fire instead (BUGS §12.5).
    ChargeHalted,
}

/// A choice the encounter waits for.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case", tag = "decide")]
#[serde(deny_unknown_fields)]
pub enum Decision {
    /// The Active figure's voluntary action (BUGS §6): [`Action::Move`], [`Action::Stay`] or
    /// [`Action::Charge`]; in contact, [`Action::Attack`] or [`Action::Stay`] (reading R27).
    Activation {
        /// The Active figure.
        figure: FigureId,
        /// It is in contact with an enemy.
        in_contact: bool,
    },
    /// Which friends activate with the leader ([`Action::Join`]).
    Join {
        /// The leader.
        leader: FigureId,
        /// The friends who may.
        candidates: Vec<FigureId>,
    },
    /// Whether (and at whom) to fire ([`Action::Fire`] or [`Action::HoldFire`]).
    Fire {
        /// The figure that may fire.
        figure: FigureId,
        /// Why.
        reason: FireReason,
        /// The first target must be this one.
        at: Option<FigureId>,
    },
}

impl Decision {
    /// The figure whose controller chooses.
    pub fn figure(&self) -> FigureId {
        match self {
            Decision::Activation { figure, .. } | Decision::Fire { figure, .. } => *figure,
            Decision::Join { leader, .. } => *leader,
        }
    }
}

/// What the encounter waits for.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case", tag = "need")]
pub enum Need {
    /// Dice.
    Dice(DiceRequest),
    /// A choice.
    Decision(Decision),
}

/// A refusal, or a set-up that cannot be played. Each names its section of BUGS.md.
#[derive(Debug, Clone, PartialEq, Serialize, thiserror::Error)]
#[serde(rename_all = "snake_case", tag = "error")]
pub enum BugsError {
    /// The set-up cannot be played; every problem is named.
    #[error("BUGS §15: the set-up cannot be played: {}", list(problems))]
    Setup {
        /// Every problem.
        problems: Vec<Problem>,
    },
    /// The tables file lacks values or has wrong ones; every problem is named.
    #[error("{0}")]
    Tables(TablesError),
    /// The encounter is over (reading R44).
    #[error("BUGS §15: the encounter is over")]
    Over,
    /// The action is not what the encounter waits for.
    #[error("BUGS §5: the encounter waits for {expected}, not {got}")]
    WrongInput {
        /// What it waits for.
        expected: String,
        /// What was given.
        got: String,
    },
    /// Not the number of dice asked for.
    #[error("BUGS §0: {roll} needs {wanted} dice, not {got}")]
    DiceCount {
        /// What the roll is for.
        roll: String,
        /// Dice wanted.
        wanted: u8,
        /// Dice given.
        got: usize,
    },
    /// A die out of range.
    #[error(transparent)]
    Dice(#[from] DiceError),
    /// No such figure.
    #[error("BUGS §3: there is no figure {figure}")]
    UnknownFigure {
        /// The id.
        figure: FigureId,
    },
    /// A move the rules do not allow.
    #[error("{rule}: {reason}")]
    IllegalMove {
        /// The section.
        rule: &'static str,
        /// Why.
        reason: String,
    },
    /// A fire the rules do not allow.
    #[error("{rule}: {reason}")]
    IllegalFire {
        /// The section.
        rule: &'static str,
        /// Why.
        reason: String,
    },
    /// A charge, an attack or a leader's call the rules do not allow.
    #[error("{rule}: {reason}")]
    IllegalAction {
        /// The section.
        rule: &'static str,
        /// Why.
        reason: String,
    },
    /// The encounter went round more steps than any turn can take: a fault in dbcore.
    #[error("internal error: {0}")]
    Internal(String),
}

fn list(p: &[Problem]) -> String {
    p.iter()
        .map(|p| p.to_string())
        .collect::<Vec<_>>()
        .join("; ")
}

impl ErrorInfo for BugsError {
    fn code(&self) -> ErrorCode {
        match self {
            BugsError::Setup { .. } | BugsError::Tables(_) => ErrorCode::InvalidSetup,
            BugsError::Over => ErrorCode::BattleOver,
            BugsError::WrongInput { .. } => ErrorCode::WrongPhase,
            BugsError::DiceCount { .. } => ErrorCode::InvalidArgument,
            BugsError::Dice(_) => ErrorCode::InvalidDie,
            BugsError::UnknownFigure { .. } => ErrorCode::UnknownElement,
            BugsError::IllegalMove { .. } => ErrorCode::IllegalMove,
            BugsError::IllegalFire { .. } | BugsError::IllegalAction { .. } => {
                ErrorCode::IllegalSituation
            }
            BugsError::Internal(_) => ErrorCode::Internal,
        }
    }
    fn rule(&self) -> Option<&'static str> {
        Some(match self {
            BugsError::Setup { .. } | BugsError::Over => "BUGS §15",
            BugsError::Tables(_) => "BUGS §17",
            BugsError::WrongInput { .. } => "BUGS §5",
            BugsError::DiceCount { .. } => "BUGS §0",
            BugsError::Dice(_) => "§0.3",
            BugsError::UnknownFigure { .. } => "BUGS §3",
            BugsError::IllegalMove { rule, .. }
            | BugsError::IllegalFire { rule, .. }
            | BugsError::IllegalAction { rule, .. } => rule,
            BugsError::Internal(_) => return None,
        })
    }
}

/// A saved encounter: the set-up and every action, dice included.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct BugsRecord {
    /// Always `dbcore-bugs-record`.
    pub format: String,
    /// Always 1.
    pub version: u32,
    /// The set-up.
    pub setup: BugsSetup,
    /// Every action, in order.
    pub actions: Vec<Action>,
}

/// Replaying a record failed.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ReplayError {
    /// The record is not a BUGS! record of a version this dbcore reads.
    #[error("not a {RECORD_FORMAT} record of version 1")]
    Format,
    /// The record's set-up cannot be played.
    #[error("{0}")]
    Setup(BugsError),
    /// An action was refused.
    #[error("action {index} of the record was refused: {error}")]
    Action {
        /// Its place, from 0.
        index: usize,
        /// Why.
        error: BugsError,
    },
}

impl ErrorInfo for ReplayError {
    fn code(&self) -> ErrorCode {
        match self {
            ReplayError::Format => ErrorCode::InvalidArgument,
            ReplayError::Setup(e) | ReplayError::Action { error: e, .. } => e.code(),
        }
    }
    fn rule(&self) -> Option<&'static str> {
        match self {
            ReplayError::Format => None,
            ReplayError::Setup(e) | ReplayError::Action { error: e, .. } => e.rule(),
        }
    }
}

/// A BUGS! encounter in progress.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Encounter {
    pub(super) setup: BugsSetup,
    pub(super) tables: Tables,
    pub(super) field: Field,
    pub(super) board: Option<BoardType>,
    pub(super) turn: u32,
    pub(super) figures: Vec<Figure>,
    pub(super) holes: Vec<BugHole>,
    /// The Willpower being called, and the figures at it still to activate, in order.
    pub(super) called: Option<u8>,
    pub(super) queue: Vec<FigureId>,
    pub(super) active: Option<FigureId>,
    /// Non-active figures that have seen the current mover this move (reading R30).
    pub(super) watchers: Vec<FigureId>,
    /// What Now checkers who lost the opposed roll: they may fire once the mover is done.
    pub(super) deferred: Vec<(FigureId, FigureId)>,
    pub(super) stack: Vec<Task>,
    pub(super) need: Option<Need>,
    #[serde(skip)]
    pub(super) input: Option<Input>,
    pub(super) holes_opened: u32,
    pub(super) over: Option<Verdict>,
    pub(super) opening: Vec<Event>,
    pub(super) actions: Vec<Action>,
}

impl Encounter {
    /// Start an encounter: the set-up and the tables file are checked (every problem at once),
    /// then play runs to the first dice or choice awaited. The events of that start are
    /// [`Encounter::opening`].
    pub fn new(setup: BugsSetup) -> Result<Encounter, BugsError> {
        let mut problems = super::setup::setup_problems(&setup);
        let tables = match setup.tables.validate() {
            Ok(t) => Some(t),
            Err(e) => {
                if problems.is_empty() {
                    return Err(BugsError::Tables(e));
                }
                problems.extend(e.problems.into_iter().map(|p| Problem {
                    at: format!("tables.{}", p.at),
                    problem: p.problem,
                }));
                None
            }
        };
        let (Some(tables), true) = (tables, problems.is_empty()) else {
            return Err(BugsError::Setup { problems });
        };
        let mut e = Encounter::start(setup, tables);
        let mut events = Vec::new();
        e.run(&mut events)?;
        e.opening = events;
        Ok(e)
    }

    /// The events of the start, before the first action.
    pub fn opening(&self) -> &[Event] {
        &self.opening
    }

    /// Replay a record: the encounter and every event, the opening's included.
    pub fn replay(record: &BugsRecord) -> Result<(Encounter, Vec<Event>), ReplayError> {
        if record.format != RECORD_FORMAT || record.version != 1 {
            return Err(ReplayError::Format);
        }
        let mut e = Encounter::new(record.setup.clone()).map_err(ReplayError::Setup)?;
        let mut events = e.opening.clone();
        for (index, a) in record.actions.iter().enumerate() {
            events.extend(
                e.apply(a.clone())
                    .map_err(|error| ReplayError::Action { index, error })?,
            );
        }
        Ok((e, events))
    }

    /// The set-up and every action so far: it replays to this encounter.
    pub fn record(&self) -> BugsRecord {
        BugsRecord {
            format: RECORD_FORMAT.into(),
            version: 1,
            setup: self.setup.clone(),
            actions: self.actions.clone(),
        }
    }

    /// The events `action` would cause, changing nothing.
    pub fn check(&self, action: &Action) -> Result<Vec<Event>, BugsError> {
        let mut next = self.clone();
        next.step(action)
    }

    /// Apply `action`: its events, or a refusal that leaves the encounter as it was.
    pub fn apply(&mut self, action: Action) -> Result<Vec<Event>, BugsError> {
        let mut next = self.clone();
        let events = next.step(&action)?;
        next.actions.push(action);
        *self = next;
        Ok(events)
    }

    /// The dice awaited, if dice are what the encounter waits for.
    pub fn awaiting(&self) -> Option<DiceRequest> {
        match &self.need {
            Some(Need::Dice(d)) => Some(d.clone()),
            _ => None,
        }
    }

    /// The choice awaited, if a choice is what the encounter waits for.
    pub fn decision(&self) -> Option<Decision> {
        match &self.need {
            Some(Need::Decision(d)) => Some(d.clone()),
            _ => None,
        }
    }

    /// What the encounter waits for; `None` once it is over.
    pub fn need(&self) -> Option<&Need> {
        self.need.as_ref()
    }

    /// The set-up.
    pub fn setup(&self) -> &BugsSetup {
        &self.setup
    }
    /// The validated tables.
    pub fn tables(&self) -> &Tables {
        &self.tables
    }
    /// The table and its terrain in play.
    pub fn field(&self) -> &Field {
        &self.field
    }
    /// The board's terrain type, once known.
    pub fn board(&self) -> Option<BoardType> {
        self.board
    }
    /// Turns begun.
    pub fn turn(&self) -> u32 {
        self.turn
    }
    /// Every figure, those out of play included, in the order they came on.
    pub fn figures(&self) -> &[Figure] {
        &self.figures
    }
    /// The figure with this id.
    pub fn figure(&self, id: FigureId) -> Option<&Figure> {
        self.figures.iter().find(|f| f.id == id)
    }
    /// The bug holes.
    pub fn holes(&self) -> &[BugHole] {
        &self.holes
    }
    /// The Active figure.
    pub fn active(&self) -> Option<FigureId> {
        self.active
    }
    /// Every action so far.
    pub fn actions(&self) -> &[Action] {
        &self.actions
    }
    /// Whether the encounter is over.
    pub fn is_over(&self) -> bool {
        self.over.is_some()
    }

    /// The tally, and the result once over (reading R44).
    pub fn verdict(&self) -> Verdict {
        if let Some(v) = &self.over {
            return v.clone();
        }
        self.tally(false, "the encounter goes on".into())
    }
}
