//! The DBAix state machine: bounds in a rotation of three sides, PIPs, moves, music, potion, close
//! combat and its results (DBAIX.md §2–§8).
//!
//! [`Battle::check`] computes the events an action would cause on a copy of the state and returns
//! them; [`Battle::apply`] runs the same computation and commits it, so a refused action changes
//! nothing and `check` and `apply` always agree.

use serde::{Deserialize, Serialize};

use crate::dice::{DiceError, DieScore};
use crate::error::{ErrorCode, ErrorInfo};
use crate::geometry::{snap, snap_bearing, ElementRect, Point, Pose, Segment};

use super::rules::{
    base_distance, combat_factor, front_on_flank_or_rear, front_to_front, grouped, overlapping,
    overlaps, results, side_by_side, FigureResult, PipAddOn, PipCost, TacticalFactor, EPS,
};
use super::{DbaixSetup, FigureClass, FigureId, FigureState, Side, Status, FORMAT};

/// Where the game stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "DbaixPhase"))]
#[serde(rename_all = "snake_case", tag = "phase")]
#[serde(deny_unknown_fields)]
pub enum Phase {
    /// The moving side must roll its PIP die (DBAIX.md §2).
    AwaitingPips,
    /// The moving side moves (DBAIX.md §3).
    Movement,
    /// Close combats involving the moving side, one at a time (DBAIX.md §6).
    CloseCombat,
    /// The game is over; `winner` is `None` for a draw (our reading: DBAix §10 has no victory).
    Finished {
        /// The side with most figures free on the table, or `None` for a draw.
        winner: Option<Side>,
    },
}

/// The phase by its game name, for messages: "the PIP roll", "the movement phase", ...
impl std::fmt::Display for Phase {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Phase::AwaitingPips => "the PIP roll (the moving side rolls its PIP die first)",
            Phase::Movement => "the movement phase",
            Phase::CloseCombat => "the close combat phase",
            Phase::Finished { .. } => "a finished game",
        })
    }
}

/// What a player does.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "DbaixAction"))]
#[serde(rename_all = "snake_case", tag = "action")]
#[serde(deny_unknown_fields)]
pub enum Action {
    /// The moving side's PIP die (the Romans' "dVI" is an ordinary d6, DBAIX.md §11.1).
    RollPips {
        /// The score of the die, 1 to 6.
        die: DieScore,
    },
    /// A move (DBAIX.md §3): every figure in `figures` (one, or a group in edge and corner
    /// contact) is carried `distance` inches (at most 4) along compass `bearing`, then each turns
    /// on the spot about its centre to face `face` if given.
    Move {
        /// The figure, or the group in edge and corner contact, that moves.
        figures: Vec<FigureId>,
        /// The compass bearing of the move, degrees clockwise from north (+y).
        bearing: f64,
        /// How far, inches (at most 4).
        distance: f64,
        /// The bearing each figure faces afterwards, degrees clockwise from north; `None` keeps its
        /// facing.
        #[serde(default)]
        face: Option<f64>,
    },
    /// Romans in camp come back as reinforcements led by an officer (DBAIX.md §8.2, DBAIX.md §11.12):
    /// they enter side by side facing north, the first figure's left edge at `x`, their front
    /// edges `distance` inches in from the Roman (south) edge.
    Reinforce {
        /// The Romans in camp who come back.
        figures: Vec<FigureId>,
        /// Where the first figure's left edge enters, inches from the west edge.
        x: f64,
        /// How far in from the south edge their front edges end, inches.
        distance: f64,
    },
    /// The moving side has finished moving; close combats follow if any, else the bound ends.
    EndMovement,
    /// One close combat: `dice[0]` is `a`'s die, `dice[1]` is `b`'s.
    Fight {
        /// The first figure of the combat.
        a: FigureId,
        /// The figure it fights.
        b: FigureId,
        /// `a`'s die and `b`'s die, in that order.
        dice: [DieScore; 2],
    },
}

/// One figure's side of a fought combat.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct FighterScore {
    /// The figure.
    pub id: FigureId,
    /// Its die.
    pub die: DieScore,
    /// Its combat factor by class (DBAIX.md §6).
    pub combat_factor: i32,
    /// Its tactical factors, each with its count.
    pub tactical: Vec<TacticalFactor>,
    /// Die plus combat factor plus tactical factors.
    pub total: i32,
    /// What the combat does to it (DBAIX.md §7).
    pub result: FigureResult,
}

/// What happened.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "DbaixEvent"))]
#[serde(rename_all = "snake_case", tag = "event")]
#[serde(deny_unknown_fields)]
pub enum Event {
    /// A bound begins (DBAIX.md §2).
    BoundStarted {
        /// The moving side.
        side: Side,
        /// Bounds begun so far, all sides counted (1 for the first).
        bound: u32,
    },
    /// The moving side's PIP die (DBAIX.md §3.1).
    PipsRolled {
        /// The side that rolled.
        side: Side,
        /// The score of the die.
        die: DieScore,
    },
    /// Every Gaul has drunk the potion; it works until `until_gaul_bounds` Gaul bounds are over
    /// (DBAIX.md §5, DBAIX.md §11.7).
    PotionDrunk {
        /// The last Gaul bound in which the potion works.
        until_gaul_bounds: u32,
    },
    /// The potion has worn off (DBAIX.md §5).
    PotionWornOff,
    /// Cacofonix sings (DBAIX.md §4): `binders` must go to him; `again` when it goes on from an
    /// earlier bound (DBAIX.md §11.6).
    MusicPlayed {
        /// The figures that must go to Cacofonix.
        binders: Vec<FigureId>,
        /// The music goes on from an earlier bound.
        again: bool,
    },
    /// Cacofonix is bound and gagged (DBAIX.md §11.6).
    Silenced,
    /// A figure turned about and fled from the music (DBAIX.md §4).
    FledFromMusic {
        /// The figure that fled.
        figure: FigureId,
        /// Where it ends.
        pose: Pose,
        /// It fled off the table and is out of the game.
        off_table: bool,
    },
    /// A move was made (DBAIX.md §3).
    Moved {
        /// The figures that moved.
        figures: Vec<FigureId>,
        /// Where each ends, in the order of `figures`.
        poses: Vec<Pose>,
        /// What the move cost.
        cost: PipCost,
        /// PIPs left afterwards.
        pips_left: u8,
    },
    /// Romans came back from camp (DBAIX.md §8.2).
    Reinforced {
        /// The figures that came back.
        figures: Vec<FigureId>,
        /// Where each stands, in the order of `figures`.
        poses: Vec<Pose>,
        /// What it cost.
        cost: PipCost,
        /// PIPs left afterwards.
        pips_left: u8,
    },
    /// A figure touched on a side or the rear swung round to face its enemy (DBAIX.md §6.1).
    TurnedToFace {
        /// The figure that turned.
        figure: FigureId,
        /// The enemy it now faces.
        towards: FigureId,
        /// How it stands now.
        pose: Pose,
    },
    /// A close combat, with both scores (DBAIX.md §6).
    Fought {
        /// The first figure's score.
        a: FighterScore,
        /// The second figure's score.
        b: FighterScore,
    },
    /// A figure's result moved it (follow-up, recoil, flight) (DBAIX.md §7).
    ResultMoved {
        /// The figure.
        figure: FigureId,
        /// The result that moved it.
        result: FigureResult,
        /// Where it ends.
        pose: Pose,
    },
    /// A figure's result took it out of play (DBAIX.md §7).
    Lost {
        /// The figure.
        figure: FigureId,
        /// The result: captured, removed, sent to camp or fled off.
        result: FigureResult,
    },
    /// Captured and placed under guard (DBAIX.md §8.1).
    Captured {
        /// The captured figure.
        figure: FigureId,
        /// The enemy figure guarding it.
        guard: FigureId,
    },
    /// Freed from its guard (DBAIX.md §8.1, DBAIX.md §11.11).
    Freed {
        /// The figure freed.
        figure: FigureId,
        /// Where it stands.
        pose: Pose,
    },
    /// A new brew: the potion works again until `until_gaul_bounds` (DBAIX.md §11.7).
    PotionBrewed {
        /// The last Gaul bound in which the new brew works.
        until_gaul_bounds: u32,
    },
    /// The bound is over; unused PIPs are lost.
    BoundEnded {
        /// The side whose bound it was.
        side: Side,
        /// Bounds begun so far, all sides counted.
        bound: u32,
        /// PIPs not spent, now lost.
        unused_pips: u8,
    },
    /// The game is over (our reading of DBAix §10).
    GameOver {
        /// The side with most figures free on the table, or `None` for a draw.
        winner: Option<Side>,
        /// Figures free on the table, by side (Romans, Gauls, Pirates).
        on_table: [u32; 3],
    },
}

/// A refused action.
#[derive(Debug, Clone, PartialEq, Serialize, thiserror::Error)]
#[serde(rename_all = "snake_case", tag = "error")]
pub enum DbaixError {
    /// The action is not one of the current phase (DBAIX.md §2).
    #[error("DBAIX.md §2: {action} is not possible in {phase}")]
    WrongPhase {
        /// The action refused.
        action: String,
        /// The phase the game is in.
        phase: Phase,
    },
    /// The game is over (DBAIX.md §10).
    #[error("DBAIX.md §10: the game is over")]
    Finished,
    /// The action names a figure that is not in the game (DBAIX.md §1).
    #[error("DBAIX.md §1: there is no figure {id}")]
    UnknownFigure {
        /// The id.
        id: FigureId,
    },
    /// The figure is not of the moving side (DBAIX.md §2).
    #[error("DBAIX.md §2: figure {id} is not of the moving side")]
    NotYourFigure {
        /// The figure.
        id: FigureId,
    },
    /// The figure is captured or out of the game (DBAIX.md §3).
    #[error("DBAIX.md §3: figure {id} is not free on the table")]
    NotOnTable {
        /// The figure.
        id: FigureId,
    },
    /// A move names no figure, or one figure twice (DBAIX.md §3).
    #[error("DBAIX.md §3: a move needs at least one figure, each named once")]
    BadFigureList,
    /// The figure has made all its moves this bound (DBAIX.md §3).
    #[error("DBAIX.md §3: figure {id} has already taken part in its moves this bound")]
    TooManyMoves {
        /// The figure.
        id: FigureId,
    },
    /// The figures moving together are not one group in edge and corner contact (DBAIX.md §3).
    #[error("DBAIX.md §3: the figures are not one group in edge and corner contact")]
    NotAGroup,
    /// The move is longer than allowed (DBAIX.md §3).
    #[error("DBAIX.md §3: a move is at most {limit} in, not {distance}")]
    TooFar {
        /// The distance asked for, inches.
        distance: f64,
        /// The most allowed, inches.
        limit: f64,
    },
    /// The figure would end off the table or on another figure (DBAIX.md §3).
    #[error("DBAIX.md §3: figure {id} would end off the table or on another figure")]
    Blocked {
        /// The figure.
        id: FigureId,
    },
    /// The figure is locked in close combat (DBAIX.md §6.1).
    #[error("DBAIX.md §6.1: figure {id} is in close combat and cannot move")]
    InCombat {
        /// The figure.
        id: FigureId,
    },
    /// While the music plays only its binders may move (DBAIX.md §4).
    #[error("DBAIX.md §4: the music plays: only the binders {binders:?} may move")]
    HandsOverEars {
        /// The figures the music binds.
        binders: Vec<FigureId>,
    },
    /// The binders' moves are compulsory: the movement cannot end while one of them can still
    /// go nearer to Cacofonix.
    #[error("DBAIX.md §4: the binders {binders:?} must go to Cacofonix before the movement ends")]
    BindersMustMove {
        /// The binders still to move.
        binders: Vec<FigureId>,
    },
    /// A binder's move must take it nearer to Cacofonix (or into contact) while it can.
    #[error("DBAIX.md §4: binder {id} must go nearer to Cacofonix")]
    BinderMustCloseIn {
        /// The binder.
        id: FigureId,
    },
    /// The move costs more PIPs than are left (DBAIX.md §3.1).
    #[error("DBAIX.md §3.1: the move costs {cost} PIPs but only {left} are left")]
    NotEnoughPips {
        /// What it costs.
        cost: u8,
        /// PIPs left.
        left: u8,
    },
    /// No Romans may come back from camp now (DBAIX.md §8.2).
    #[error("DBAIX.md §8.2: reinforcements are Romans in camp led by an officer in camp")]
    NoReinforcements,
    /// The two figures are not a close combat still to be fought (DBAIX.md §6.1).
    #[error("DBAIX.md §6.1: {a} and {b} are not in a close combat still to be fought this bound")]
    NotInCombat {
        /// The first figure named.
        a: FigureId,
        /// The second.
        b: FigureId,
    },
    /// The set-up cannot be played.
    #[error("DBAIX.md §10: the set-up is invalid: {problem}")]
    Setup {
        /// What is wrong.
        problem: String,
    },
    /// A die score out of range (1 to 6).
    #[error(transparent)]
    Dice(#[from] DiceError),
}

impl ErrorInfo for DbaixError {
    fn code(&self) -> ErrorCode {
        match self {
            DbaixError::WrongPhase { .. } => ErrorCode::WrongPhase,
            DbaixError::Finished => ErrorCode::BattleOver,
            DbaixError::UnknownFigure { .. } => ErrorCode::UnknownElement,
            DbaixError::NotEnoughPips { .. } => ErrorCode::NotEnoughPips,
            DbaixError::NotInCombat { .. } => ErrorCode::IllegalSituation,
            DbaixError::Setup { .. } => ErrorCode::InvalidSetup,
            DbaixError::Dice(_) => ErrorCode::InvalidDie,
            _ => ErrorCode::IllegalMove,
        }
    }
    fn rule(&self) -> Option<&'static str> {
        Some(match self {
            DbaixError::WrongPhase { .. } | DbaixError::NotYourFigure { .. } => "DBAIX.md §2",
            DbaixError::Finished | DbaixError::Setup { .. } => "DBAIX.md §10",
            DbaixError::UnknownFigure { .. } => "DBAIX.md §1",
            DbaixError::InCombat { .. } | DbaixError::NotInCombat { .. } => "DBAIX.md §6.1",
            DbaixError::HandsOverEars { .. }
            | DbaixError::BindersMustMove { .. }
            | DbaixError::BinderMustCloseIn { .. } => "DBAIX.md §4",
            DbaixError::NotEnoughPips { .. } => "DBAIX.md §3.1",
            DbaixError::NoReinforcements => "DBAIX.md §8.2",
            DbaixError::Dice(_) => "§0.3",
            _ => "DBAIX.md §3",
        })
    }
}

/// A saved game: set-up and every action, dice included.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "DbaixBattleRecord"))]
#[serde(deny_unknown_fields)]
pub struct BattleRecord {
    /// The set-up the game started from.
    pub setup: DbaixSetup,
    /// Every action applied, in order, dice included.
    pub actions: Vec<Action>,
}

/// Replaying a record failed.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ReplayError {
    /// The record's set-up cannot be played.
    #[error("{0}")]
    Setup(DbaixError),
    /// An action of the record was refused when replayed.
    #[error("action {index} of the record was refused: {error}")]
    Action {
        /// Its position among the record's actions, from 0.
        index: usize,
        /// Why it was refused.
        error: DbaixError,
    },
}

/// The dice the game waits for.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "DbaixDiceRequest"))]
#[serde(rename_all = "snake_case", tag = "for")]
#[serde(deny_unknown_fields)]
pub enum DiceRequest {
    /// The moving side's PIP die ([`Action::RollPips`]).
    Pips {
        /// The moving side.
        side: Side,
    },
    /// Two dice for one of these close combats ([`Action::Fight`]).
    Combat {
        /// The close combats still to fight, each as its two figures.
        pairs: Vec<(FigureId, FigureId)>,
    },
}

/// Cacofonix singing (DBAIX.md §4, DBAIX.md §11.6).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct Music {
    /// The figures the music binds: they must go to Cacofonix.
    pub binders: Vec<FigureId>,
}

/// A DBAix game in progress.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Battle {
    setup: DbaixSetup,
    figures: Vec<FigureState>,
    /// Bounds begun, all sides counted (1 for the first).
    bound: u32,
    /// Index into the bound order of the moving side.
    turn: usize,
    phase: Phase,
    pips: u8,
    /// Sixes on the Gauls' PIP die since the music last played (DBAIX.md §11.5).
    gaul_sixes: u8,
    music_played: u32,
    music: Option<Music>,
    gaul_bounds_begun: u32,
    gaul_bounds_done: u32,
    /// The potion works while fewer Gaul bounds than this are over (DBAIX.md §11.7).
    potion_until: Option<u32>,
    /// Figures that have fought this bound.
    fought: Vec<FigureId>,
    actions: Vec<Action>,
}

fn bearing_of(v: Point) -> f64 {
    snap_bearing(v.x.atan2(v.y).to_degrees())
}

fn angle_diff(a: f64, b: f64) -> f64 {
    let d = (a - b).rem_euclid(360.0);
    d.min(360.0 - d)
}

fn pose_snapped(p: Pose) -> Pose {
    Pose::new(snap(p.x), snap(p.y), snap_bearing(p.facing))
}

/// The pose of a base turned on the spot about its centre to face `facing`.
fn pivot(rect: &ElementRect, facing: f64) -> Pose {
    let c = rect.centre();
    let f = Point::from_bearing(facing);
    let m = c + f * (rect.depth * 0.5);
    pose_snapped(Pose::new(m.x, m.y, facing))
}

impl Battle {
    /// Start a game: the first side of the rotation rolls its PIP die.
    pub fn new(setup: DbaixSetup) -> Result<Battle, DbaixError> {
        let bad = |problem: String| Err(DbaixError::Setup { problem });
        if setup.format != FORMAT || setup.variant != crate::battlefield::Variant::Dbaix {
            return bad(format!("format must be {FORMAT} and variant dbaix"));
        }
        let cfg = &setup.config;
        let mut order = cfg.bound_order.clone();
        order.sort();
        order.dedup();
        if order.len() != 3 || cfg.bound_order.len() != 3 {
            return bad("the bound order must name each side once".into());
        }
        let sane = |v: f64, lo: f64, hi: f64| v.is_finite() && v >= lo && v <= hi;
        if !sane(cfg.table_width, 6.0, 240.0)
            || !sane(cfg.table_depth, 6.0, 240.0)
            || !sane(cfg.base_width, 0.25, 4.0)
            || !sane(cfg.base_depth, 0.25, 4.0)
            || !sane(cfg.move_distance, 0.5, 24.0)
            || !sane(setup.road_width, 0.0, 24.0)
            || !(1..=2).contains(&cfg.gaul_straight_group_cost)
            || cfg.moves_per_bound == 0
            || cfg.max_rounds == 0
            || cfg.max_rounds > 1000
            || setup.figures.len() > 200
        {
            return bad("a configuration value is out of range".into());
        }
        if setup
            .road
            .iter()
            .any(|p| !p.x.is_finite() || !p.y.is_finite())
        {
            return bad("the road's points must be finite".into());
        }
        let figures: Vec<FigureState> = setup
            .figures
            .iter()
            .map(|f| FigureState {
                id: f.id,
                name: f.name.clone(),
                class: f.class,
                side: f.class.side(),
                pose: pose_snapped(f.pose),
                status: Status::OnTable,
                husband: f.husband,
                moves: 0,
            })
            .collect();
        let b = Battle {
            turn: 0,
            bound: 1,
            phase: Phase::AwaitingPips,
            pips: 0,
            gaul_sixes: 0,
            music_played: 0,
            music: None,
            gaul_bounds_begun: 0,
            gaul_bounds_done: 0,
            potion_until: None,
            fought: Vec::new(),
            actions: Vec::new(),
            figures,
            setup: setup.clone(),
        };
        for (i, f) in b.figures.iter().enumerate() {
            if !f.pose.x.is_finite() || !f.pose.y.is_finite() || !f.pose.facing.is_finite() {
                return bad(format!("figure {} has a non-finite pose", f.id));
            }
            if b.figures[..i].iter().any(|g| g.id == f.id) {
                return bad(format!("figure {} is listed twice", f.id));
            }
            if !b.free_at(f.id, f.pose, &[]) {
                return bad(format!(
                    "figure {} is off the table or on another figure",
                    f.id
                ));
            }
            if let Some(h) = f.husband {
                let ok = f.class == FigureClass::GallicWoman
                    && b.figures
                        .iter()
                        .any(|g| g.id == h && g.side == Side::Gauls && g.id != f.id);
                if !ok {
                    return bad(format!(
                        "figure {}: only a Gallic woman has a Gaul husband",
                        f.id
                    ));
                }
            }
        }
        Ok(b)
    }

    /// Replay a record, returning the game and every event in order.
    pub fn replay(record: &BattleRecord) -> Result<(Battle, Vec<Event>), ReplayError> {
        let mut b = Battle::new(record.setup.clone()).map_err(ReplayError::Setup)?;
        let mut events = Vec::new();
        for (index, a) in record.actions.iter().enumerate() {
            events.extend(
                b.apply(a.clone())
                    .map_err(|error| ReplayError::Action { index, error })?,
            );
        }
        Ok((b, events))
    }

    /// The set-up and every action so far: replays to this game.
    pub fn record(&self) -> BattleRecord {
        BattleRecord {
            setup: self.setup.clone(),
            actions: self.actions.clone(),
        }
    }
    /// The set-up the game started from.
    pub fn setup(&self) -> &DbaixSetup {
        &self.setup
    }
    /// Every figure, captured and lost ones included, in set-up order.
    pub fn figures(&self) -> &[FigureState] {
        &self.figures
    }
    /// The figure with this id, if there is one.
    pub fn figure(&self, id: FigureId) -> Option<&FigureState> {
        self.figures.iter().find(|f| f.id == id)
    }
    /// Where the game stands.
    pub fn phase(&self) -> Phase {
        self.phase
    }
    /// Bounds begun so far, all sides counted (1 for the first).
    pub fn bound(&self) -> u32 {
        self.bound
    }
    /// The moving side.
    pub fn active_side(&self) -> Side {
        self.setup.config.bound_order[self.turn]
    }
    /// PIPs left this bound.
    pub fn pips(&self) -> u8 {
        self.pips
    }
    /// Every action applied so far.
    pub fn actions(&self) -> &[Action] {
        &self.actions
    }
    /// Cacofonix's music, while he is not silenced.
    pub fn music(&self) -> Option<&Music> {
        self.music.as_ref()
    }
    /// Whether the Gauls' magic potion works now (DBAIX.md §5, DBAIX.md §11.7).
    pub fn potion_active(&self) -> bool {
        self.potion_until.is_some_and(|u| self.gaul_bounds_done < u)
    }

    /// The dice the game waits for.
    pub fn awaiting(&self) -> Option<DiceRequest> {
        match self.phase {
            Phase::AwaitingPips => Some(DiceRequest::Pips {
                side: self.active_side(),
            }),
            Phase::CloseCombat => Some(DiceRequest::Combat {
                pairs: self.pending_combats(),
            }),
            _ => None,
        }
    }

    /// The events `action` would cause, without changing anything.
    pub fn check(&self, action: &Action) -> Result<Vec<Event>, DbaixError> {
        self.step(action).map(|(_, e)| e)
    }

    /// Apply `action`: its events, or a refusal leaving the game as it was.
    pub fn apply(&mut self, action: Action) -> Result<Vec<Event>, DbaixError> {
        let (mut next, events) = self.step(&action)?;
        next.actions.push(action);
        *self = next;
        Ok(events)
    }

    /// The close combats still to fight this bound: front edges together, lined up, at least one
    /// figure of the moving side, neither figure having fought (DBAIX.md §6.1).
    pub fn pending_combats(&self) -> Vec<(FigureId, FigureId)> {
        let cfg = &self.setup.config;
        let side = self.active_side();
        let mut v = Vec::new();
        for (i, a) in self.figures.iter().enumerate() {
            for b in &self.figures[i + 1..] {
                if a.on_table()
                    && b.on_table()
                    && a.side != b.side
                    && (a.side == side || b.side == side)
                    && !self.fought.contains(&a.id)
                    && !self.fought.contains(&b.id)
                    && front_to_front(&a.rect(cfg), &b.rect(cfg))
                {
                    v.push((a.id, b.id));
                }
            }
        }
        v
    }

    /// Pairs of figures on the table whose bases overlap, and figures off its edges: empty after
    /// every legal transition (a test invariant, DBAIX.md §3).
    pub fn misplaced(&self) -> Vec<(FigureId, Option<FigureId>)> {
        let cfg = &self.setup.config;
        let on: Vec<&FigureState> = self.figures.iter().filter(|f| f.on_table()).collect();
        let mut v = Vec::new();
        for (i, a) in on.iter().enumerate() {
            if !self.on_board(&a.rect(cfg)) {
                v.push((a.id, None));
            }
            for b in &on[i + 1..] {
                if overlaps(&a.rect(cfg), &b.rect(cfg)) {
                    v.push((a.id, Some(b.id)));
                }
            }
        }
        v
    }

    // ---- helpers -----------------------------------------------------------------------

    fn index(&self, id: FigureId) -> Result<usize, DbaixError> {
        self.figures
            .iter()
            .position(|f| f.id == id)
            .ok_or(DbaixError::UnknownFigure { id })
    }

    fn rect_at(&self, pose: Pose) -> ElementRect {
        ElementRect::new(
            pose,
            self.setup.config.base_width,
            self.setup.config.base_depth,
        )
    }

    fn on_board(&self, r: &ElementRect) -> bool {
        let cfg = &self.setup.config;
        r.corners().iter().all(|c| {
            c.x >= -EPS
                && c.y >= -EPS
                && c.x <= cfg.table_width + EPS
                && c.y <= cfg.table_depth + EPS
        })
    }

    /// Whether figure `id` could stand at `pose`: on the table and on no other figure on the
    /// table (those in `ignore` aside).
    fn free_at(&self, id: FigureId, pose: Pose, ignore: &[FigureId]) -> bool {
        let r = self.rect_at(pose);
        self.on_board(&r)
            && self.figures.iter().all(|g| {
                g.id == id
                    || !g.on_table()
                    || ignore.contains(&g.id)
                    || !overlaps(&r, &g.rect(&self.setup.config))
            })
    }

    /// Slide figure `i` from `start` along its facing (or backwards) up to `dist` inches,
    /// stopping short where blocked (DBAIX.md §11.15). Returns the pose reached and whether
    /// the full distance would have left the table.
    fn slide(&self, i: usize, start: Pose, backwards: bool, dist: f64) -> (Option<Pose>, bool) {
        let f = &self.figures[i];
        let dir = if backwards {
            -start.forward()
        } else {
            start.forward()
        };
        let at = |t: f64| {
            let p = start.front_mid() + dir * t;
            pose_snapped(Pose::new(p.x, p.y, start.facing))
        };
        let leaves = !self.on_board(&self.rect_at(at(dist)));
        let steps = (dist * 64.0).ceil() as i64;
        for k in (0..=steps).rev() {
            let t = (k as f64 / 64.0).min(dist);
            let p = at(t);
            if self.free_at(f.id, p, &[]) {
                return (Some(p), leaves);
            }
        }
        (None, leaves)
    }

    fn centre_of(&self, id: FigureId) -> Option<Point> {
        let f = self.figure(id)?;
        let cfg = &self.setup.config;
        match f.status {
            Status::Captured { guard } => self.figure(guard).map(|g| g.rect(cfg).centre()),
            _ => Some(f.rect(cfg).centre()),
        }
    }

    fn find_class(&self, class: FigureClass) -> Option<&FigureState> {
        self.figures.iter().find(|f| f.class == class)
    }

    /// Whether figure `f` is beyond its command distance (DBAIX.md §3.1, DBAIX.md §11.13).
    fn far_add_on(&self, f: &FigureState) -> Option<PipAddOn> {
        use FigureClass::*;
        let cfg = &self.setup.config;
        let c = f.rect(cfg).centre();
        let far = |commander: Option<&FigureState>, limit: f64, absent_far: bool| match commander {
            Some(k) if k.id == f.id => false,
            Some(k) => match (k.status, self.centre_of(k.id)) {
                (Status::InCamp | Status::FledOff, _) => absent_far,
                (_, Some(p)) => p.distance(c) > limit + EPS,
                (_, None) => absent_far,
            },
            None => absent_far,
        };
        match f.class {
            CaligulaMinus | Asterix | Obelix | Getafix | Cacofonix => None,
            DubiusStatus | Vitalstatistix | Captain => None,
            Officer | Legionary => far(self.find_class(DubiusStatus), 12.0, true)
                .then_some(PipAddOn::FarFromDubiusStatus),
            Pegleg | Pirate => {
                far(self.find_class(Captain), 4.0, true).then_some(PipAddOn::FarFromCaptain)
            }
            Geriatrix | Gaul | GallicWoman => far(self.find_class(Vitalstatistix), 8.0, false)
                .then_some(PipAddOn::FarFromVitalstatistix),
        }
    }

    fn on_road(&self, c: Point) -> bool {
        let r = &self.setup.road;
        r.windows(2).any(|w| {
            Segment::new(w[0], w[1]).distance_to_point(c) <= self.setup.road_width * 0.5 + EPS
        })
    }

    /// Whether every figure in `ids` is in one group of edge-and-corner contacts.
    fn connected(&self, ids: &[FigureId], rects: &[ElementRect]) -> bool {
        let mut reached = vec![false; ids.len()];
        reached[0] = true;
        let mut stack = vec![0];
        while let Some(i) = stack.pop() {
            for j in 0..ids.len() {
                if !reached[j] && grouped(&rects[i], &rects[j]) {
                    reached[j] = true;
                    stack.push(j);
                }
            }
        }
        reached.iter().all(|r| *r)
    }

    /// Whether any figure in `idx` (at `rects`) has its front edge on an enemy's side or rear.
    fn flank_contacts(&self, idx: &[usize], rects: &[ElementRect]) -> Vec<usize> {
        let cfg = &self.setup.config;
        idx.iter()
            .zip(rects)
            .filter(|(i, r)| {
                let me = &self.figures[**i];
                self.figures.iter().any(|e| {
                    e.on_table()
                        && e.side != me.side
                        && front_on_flank_or_rear(r, &e.rect(cfg)).is_some()
                })
            })
            .map(|(i, _)| *i)
            .collect()
    }

    fn binders(&self) -> Vec<FigureId> {
        let cfg = &self.setup.config;
        let Some(caco) = self
            .find_class(FigureClass::Cacofonix)
            .filter(|c| c.on_table())
        else {
            return Vec::new();
        };
        let cr = caco.rect(cfg);
        let mut gauls: Vec<(f64, FigureId)> = self
            .figures
            .iter()
            .filter(|f| f.side == Side::Gauls && f.on_table() && f.id != caco.id)
            .map(|f| (base_distance(&cr, &f.rect(cfg)), f.id))
            .collect();
        gauls.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        gauls.into_iter().take(3).map(|(_, id)| id).collect()
    }

    /// The gap in inches between a base at `r` and Cacofonix on the table.
    fn cacofonix_gap(&self, r: &ElementRect) -> Option<f64> {
        let caco = self
            .find_class(FigureClass::Cacofonix)
            .filter(|c| c.on_table())?;
        Some(base_distance(&caco.rect(&self.setup.config), r))
    }

    /// The longest straight move (in half-inch steps, facing kept) that takes binder `id`
    /// nearer to Cacofonix, or `None` when it need not or cannot move: the music is not
    /// playing in the Gauls' movement, it is not a binder, it touches him already, has used its
    /// moves, is locked in combat, or every such move is blocked (DBAIX.md §4: the three nearest
    /// Gauls must go to bind and gag him). Our reading of "must go": a binder moves towards him
    /// as long as it can get nearer, and the Gauls' movement cannot end before; a binder that is
    /// blocked is released, so the game never waits on a move that does not exist.
    pub fn binder_step(&self, id: FigureId) -> Option<Action> {
        let cfg = &self.setup.config;
        let m = self.music.as_ref()?;
        if self.phase != Phase::Movement || self.active_side() != Side::Gauls {
            return None;
        }
        if !m.binders.contains(&id) {
            return None;
        }
        let f = self.figure(id).filter(|f| f.on_table())?;
        if f.moves >= cfg.moves_per_bound {
            return None;
        }
        let r = f.rect(cfg);
        let gap = self.cacofonix_gap(&r)?;
        if gap <= EPS {
            return None;
        }
        let locked = self
            .figures
            .iter()
            .any(|e| e.on_table() && e.side != f.side && front_to_front(&r, &e.rect(cfg)));
        if locked {
            return None;
        }
        let caco = self.find_class(FigureClass::Cacofonix)?;
        let bearing = bearing_of(caco.rect(cfg).centre() - r.centre());
        let dir = Point::from_bearing(bearing);
        let longest = cfg
            .move_distance
            .min(gap + cfg.base_width.max(cfg.base_depth));
        let steps = (longest * 2.0).floor() as i64;
        (1..=steps).rev().find_map(|k| {
            let d = k as f64 / 2.0;
            let p = r.pose.front_mid() + dir * d;
            let pose = pose_snapped(Pose::new(p.x, p.y, r.pose.facing));
            let nearer = self
                .cacofonix_gap(&self.rect_at(pose))
                .is_some_and(|g| g < gap - EPS);
            (nearer && self.free_at(id, pose, &[])).then_some(Action::Move {
                figures: vec![id],
                bearing,
                distance: d,
                face: None,
            })
        })
    }

    /// Binders who must still move before the Gauls' movement ends (DBAIX.md §4).
    pub fn obliged_binders(&self) -> Vec<FigureId> {
        self.music.as_ref().map_or_else(Vec::new, |m| {
            m.binders
                .iter()
                .copied()
                .filter(|id| self.binder_step(*id).is_some())
                .collect()
        })
    }

    /// Every enemy within 8 in of Cacofonix turns about and flees a full move (DBAIX.md §4).
    fn music_flight(&mut self, events: &mut Vec<Event>) {
        let cfg = self.setup.config.clone();
        let Some(caco) = self
            .find_class(FigureClass::Cacofonix)
            .filter(|c| c.on_table())
            .cloned()
        else {
            return;
        };
        let cr = caco.rect(&cfg);
        for i in 0..self.figures.len() {
            let f = self.figures[i].clone();
            if f.side == Side::Gauls
                || !f.on_table()
                || base_distance(&cr, &f.rect(&cfg)) > 8.0 + EPS
            {
                continue;
            }
            let away = bearing_of(f.rect(&cfg).centre() - cr.centre());
            let turned = pivot(&f.rect(&cfg), away);
            let (pose, leaves) = self.slide(i, turned, false, cfg.move_distance);
            if leaves && f.side == Side::Pirates {
                self.lose(i, FigureResult::FledOff, events);
                events.push(Event::FledFromMusic {
                    figure: f.id,
                    pose: f.pose,
                    off_table: true,
                });
                continue;
            }
            if let Some(p) = pose {
                self.figures[i].pose = p;
                events.push(Event::FledFromMusic {
                    figure: f.id,
                    pose: p,
                    off_table: false,
                });
            }
        }
    }

    /// Take figure `i` out of play with `result`, freeing anyone it guards (DBAIX.md §11.11).
    fn lose(&mut self, i: usize, result: FigureResult, events: &mut Vec<Event>) {
        let status = match result {
            FigureResult::SentToCamp => Status::InCamp,
            FigureResult::FledOff => Status::FledOff,
            _ => Status::Removed,
        };
        let id = self.figures[i].id;
        self.figures[i].status = status;
        events.push(Event::Lost { figure: id, result });
        self.free_captives_of(id, events);
    }

    /// Free the captives of `guard` where they stand behind it, or where they were taken
    /// (DBAIX.md §8.1). A captive with no free room at either stays under guard.
    fn free_captives_of(&mut self, guard: FigureId, events: &mut Vec<Event>) {
        let cfg = self.setup.config.clone();
        let Some(g) = self.figure(guard).cloned() else {
            return;
        };
        for i in 0..self.figures.len() {
            if self.figures[i].status != (Status::Captured { guard }) {
                continue;
            }
            let id = self.figures[i].id;
            let gr = g.rect(&cfg);
            let back = gr.pose.front_mid() - gr.pose.forward() * cfg.base_depth;
            let behind = pose_snapped(Pose::new(back.x, back.y, g.pose.facing));
            let own = self.figures[i].pose;
            let spot = [behind, own]
                .into_iter()
                .find(|p| self.free_at(id, *p, &[]));
            if let Some(p) = spot {
                self.figures[i].pose = p;
                self.figures[i].status = Status::OnTable;
                self.figures[i].moves = cfg.moves_per_bound;
                events.push(Event::Freed {
                    figure: id,
                    pose: p,
                });
            }
        }
    }

    /// Tactical factors of figure `i` fighting `opp` (DBAIX.md §6.3).
    fn tactical(&self, i: usize, opp: usize) -> Vec<TacticalFactor> {
        let cfg = &self.setup.config;
        let me = &self.figures[i];
        let r = me.rect(cfg);
        let mut flank = 0u8;
        let mut overlap = 0u8;
        let mut support = 0u8;
        for (j, e) in self.figures.iter().enumerate() {
            if j == i || !e.on_table() {
                continue;
            }
            let er = e.rect(cfg);
            if e.side != me.side {
                if front_on_flank_or_rear(&er, &r).is_some() {
                    flank += 1;
                } else if j != opp && overlapping(&r, &er) {
                    overlap += 1;
                }
            } else if me.side == Side::Romans && side_by_side(&r, &er) {
                support += 1;
            }
        }
        let mut v = Vec::new();
        if flank > 0 {
            v.push(TacticalFactor::FlankOrRear { count: flank });
        }
        if overlap > 0 {
            v.push(TacticalFactor::Overlapped { count: overlap });
        }
        if support > 0 {
            v.push(TacticalFactor::RomanSideSupport {
                count: support.min(2),
            });
        }
        if me.side == Side::Gauls && me.class != FigureClass::Obelix && self.potion_active() {
            v.push(TacticalFactor::MagicPotion);
        }
        v
    }

    /// Whether a side can still fight: figures on the table, or Romans in camp with an officer.
    fn can_fight(&self, side: Side) -> bool {
        self.figures.iter().any(|f| f.side == side && f.on_table())
            || (side == Side::Romans
                && self
                    .figures
                    .iter()
                    .any(|f| f.status == Status::InCamp && f.class.is_officer()))
    }

    fn on_table_counts(&self) -> [u32; 3] {
        let mut c = [0u32; 3];
        for f in self.figures.iter().filter(|f| f.on_table()) {
            c[f.side.index()] += 1;
        }
        c
    }

    // ---- transitions -------------------------------------------------------------------

    fn step(&self, action: &Action) -> Result<(Battle, Vec<Event>), DbaixError> {
        if let Phase::Finished { .. } = self.phase {
            return Err(DbaixError::Finished);
        }
        let wrong = |name: &str| DbaixError::WrongPhase {
            action: name.into(),
            phase: self.phase,
        };
        let mut n = self.clone();
        let mut events = Vec::new();
        match action {
            Action::RollPips { die } => {
                if self.phase != Phase::AwaitingPips {
                    return Err(wrong("rolling PIPs"));
                }
                n.roll(*die, &mut events);
            }
            Action::Move {
                figures,
                bearing,
                distance,
                face,
            } => {
                if self.phase != Phase::Movement {
                    return Err(wrong("a move"));
                }
                n.do_move(figures, *bearing, *distance, *face, &mut events)?;
            }
            Action::Reinforce {
                figures,
                x,
                distance,
            } => {
                if self.phase != Phase::Movement {
                    return Err(wrong("bringing back reinforcements"));
                }
                n.reinforce(figures, *x, *distance, &mut events)?;
            }
            Action::EndMovement => {
                if self.phase != Phase::Movement {
                    return Err(wrong("ending the movement"));
                }
                let obliged = self.obliged_binders();
                if !obliged.is_empty() {
                    return Err(DbaixError::BindersMustMove { binders: obliged });
                }
                n.turn_to_face(&mut events);
                if n.pending_combats().is_empty() {
                    n.end_bound(&mut events);
                } else {
                    n.phase = Phase::CloseCombat;
                }
            }
            Action::Fight { a, b, dice } => {
                if self.phase != Phase::CloseCombat {
                    return Err(wrong("a close combat"));
                }
                let pending = self.pending_combats();
                if !pending.contains(&(*a, *b)) && !pending.contains(&(*b, *a)) {
                    return Err(DbaixError::NotInCombat { a: *a, b: *b });
                }
                n.fight(*a, *b, *dice, &mut events)?;
                if n.pending_combats().is_empty() {
                    n.end_bound(&mut events);
                }
            }
        }
        Ok((n, events))
    }

    fn roll(&mut self, die: DieScore, events: &mut Vec<Event>) {
        let side = self.active_side();
        self.pips = die.get();
        self.phase = Phase::Movement;
        events.push(Event::PipsRolled { side, die });
        if side != Side::Gauls {
            return;
        }
        self.gaul_bounds_begun += 1;
        // DBAIX.md §11.7: every Gaul drinks at the start of the Gauls' first bound.
        if self.gaul_bounds_begun == 1 {
            let until = self.gaul_bounds_done + 5;
            self.potion_until = Some(until);
            events.push(Event::PotionDrunk {
                until_gaul_bounds: until,
            });
        }
        let continuing = self.music.is_some();
        if die.get() == 6 {
            self.gaul_sixes += 1;
        }
        let fires = self.gaul_sixes >= 3
            && (self.setup.config.music_repeats || self.music_played == 0)
            && self
                .find_class(FigureClass::Cacofonix)
                .is_some_and(|c| c.on_table());
        if fires {
            self.gaul_sixes = 0;
            self.music_played += 1;
        }
        if fires || continuing {
            let binders = self.binders();
            events.push(Event::MusicPlayed {
                binders: binders.clone(),
                again: continuing && !fires,
            });
            self.music = Some(Music { binders });
            self.music_flight(events);
        }
    }

    fn do_move(
        &mut self,
        ids: &[FigureId],
        bearing: f64,
        distance: f64,
        face: Option<f64>,
        events: &mut Vec<Event>,
    ) -> Result<(), DbaixError> {
        let cfg = self.setup.config.clone();
        let side = self.active_side();
        if ids.is_empty() || (1..ids.len()).any(|k| ids[..k].contains(&ids[k])) {
            return Err(DbaixError::BadFigureList);
        }
        if !bearing.is_finite() || !distance.is_finite() || face.is_some_and(|f| !f.is_finite()) {
            return Err(DbaixError::TooFar {
                distance,
                limit: cfg.move_distance,
            });
        }
        if !(0.0..=cfg.move_distance + EPS).contains(&distance) {
            return Err(DbaixError::TooFar {
                distance,
                limit: cfg.move_distance,
            });
        }
        let mut idx = Vec::new();
        for id in ids {
            let i = self.index(*id)?;
            let f = &self.figures[i];
            if f.side != side {
                return Err(DbaixError::NotYourFigure { id: *id });
            }
            if !f.on_table() {
                return Err(DbaixError::NotOnTable { id: *id });
            }
            if f.moves >= cfg.moves_per_bound {
                return Err(DbaixError::TooManyMoves { id: *id });
            }
            let r = f.rect(&cfg);
            if self
                .figures
                .iter()
                .any(|e| e.on_table() && e.side != f.side && front_to_front(&r, &e.rect(&cfg)))
            {
                return Err(DbaixError::InCombat { id: *id });
            }
            idx.push(i);
        }
        // DBAIX.md §4: while the music plays only the binders move, and for nothing.
        let binding = match (&self.music, side) {
            (Some(m), Side::Gauls) => {
                if ids.iter().any(|id| !m.binders.contains(id)) {
                    return Err(DbaixError::HandsOverEars {
                        binders: m.binders.clone(),
                    });
                }
                true
            }
            _ => false,
        };
        let before: Vec<ElementRect> = idx.iter().map(|i| self.figures[*i].rect(&cfg)).collect();
        if ids.len() > 1 && !self.connected(ids, &before) {
            return Err(DbaixError::NotAGroup);
        }
        let shift = Point::from_bearing(bearing) * distance;
        let poses: Vec<Pose> = before
            .iter()
            .map(|r| {
                let p = r.pose.front_mid() + shift;
                let moved = ElementRect::new(Pose::new(p.x, p.y, r.pose.facing), r.width, r.depth);
                match face {
                    Some(f) => pivot(&moved, snap_bearing(f)),
                    None => pose_snapped(moved.pose),
                }
            })
            .collect();
        let after: Vec<ElementRect> = poses.iter().map(|p| self.rect_at(*p)).collect();
        for (k, i) in idx.iter().enumerate() {
            let id = self.figures[*i].id;
            if !self.free_at(id, poses[k], ids)
                || after
                    .iter()
                    .enumerate()
                    .any(|(m, r)| m != k && overlaps(r, &after[k]))
            {
                return Err(DbaixError::Blocked { id });
            }
        }
        // DBAIX.md §4: a binder that can go nearer to Cacofonix must.
        if binding {
            for (k, i) in idx.iter().enumerate() {
                let id = self.figures[*i].id;
                if self.binder_step(id).is_some() {
                    let nearer = self
                        .cacofonix_gap(&after[k])
                        .zip(self.cacofonix_gap(&before[k]))
                        .is_some_and(|(now, was)| now < was - EPS || now <= EPS);
                    if !nearer {
                        return Err(DbaixError::BinderMustCloseIn { id });
                    }
                }
            }
        }
        // DBAIX.md §3.1: the cost.
        let group = ids.len() > 1;
        let movers: Vec<&FigureState> = idx.iter().map(|i| &self.figures[*i]).collect();
        let straight = movers.iter().all(|f| {
            angle_diff(f.pose.facing, bearing) < 0.01
                && face.is_none_or(|x| angle_diff(x, f.pose.facing) < 0.01)
        });
        let base = match (side, group) {
            (Side::Romans, true) => 1,
            (Side::Gauls, true) if straight => cfg.gaul_straight_group_cost,
            _ => 2,
        };
        let mut add_ons = Vec::new();
        if side == Side::Romans && group && !movers.iter().any(|f| f.class.is_officer()) {
            add_ons.push(PipAddOn::GroupWithoutOfficer);
        }
        for a in [
            PipAddOn::FarFromDubiusStatus,
            PipAddOn::FarFromVitalstatistix,
            PipAddOn::FarFromCaptain,
        ] {
            if movers.iter().any(|f| self.far_add_on(f) == Some(a)) {
                add_ons.push(a);
            }
        }
        let far_from_husband = movers.iter().any(|f| {
            f.husband.is_some_and(|h| {
                self.centre_of(h)
                    .is_some_and(|p| p.distance(f.rect(&cfg).centre()) > 4.0 + EPS)
            })
        });
        if far_from_husband {
            add_ons.push(PipAddOn::FarFromHusband);
        }
        let second = movers.iter().any(|f| f.moves >= 1);
        let road = side == Side::Romans
            && before
                .iter()
                .zip(&after)
                .all(|(b, a)| self.on_road(b.centre()) && self.on_road(a.centre()));
        if second && !road {
            add_ons.push(PipAddOn::SecondMove);
        }
        let was = self.flank_contacts(&idx, &before);
        let now = self.flank_contacts(&idx, &after);
        let new_flank: Vec<usize> = now.into_iter().filter(|i| !was.contains(i)).collect();
        if new_flank
            .iter()
            .any(|i| self.figures[*i].class != FigureClass::GallicWoman)
        {
            add_ons.push(PipAddOn::FlankContact);
        }
        let total = if binding {
            0
        } else {
            base + add_ons.iter().map(|a| a.value()).sum::<u8>()
        };
        let cost = PipCost {
            base: if binding { 0 } else { base },
            add_ons: if binding { Vec::new() } else { add_ons },
            total,
        };
        if total > self.pips {
            return Err(DbaixError::NotEnoughPips {
                cost: total,
                left: self.pips,
            });
        }
        self.pips -= total;
        for (k, i) in idx.iter().enumerate() {
            self.figures[*i].pose = poses[k];
            self.figures[*i].moves += 1;
        }
        events.push(Event::Moved {
            figures: ids.to_vec(),
            poses,
            cost,
            pips_left: self.pips,
        });
        Ok(())
    }

    fn reinforce(
        &mut self,
        ids: &[FigureId],
        x: f64,
        distance: f64,
        events: &mut Vec<Event>,
    ) -> Result<(), DbaixError> {
        let cfg = self.setup.config.clone();
        if self.active_side() != Side::Romans {
            return Err(DbaixError::NoReinforcements);
        }
        if ids.is_empty() || (1..ids.len()).any(|k| ids[..k].contains(&ids[k])) {
            return Err(DbaixError::BadFigureList);
        }
        let mut idx = Vec::new();
        for id in ids {
            let i = self.index(*id)?;
            if self.figures[i].status != Status::InCamp {
                return Err(DbaixError::NoReinforcements);
            }
            idx.push(i);
        }
        if !idx.iter().any(|i| self.figures[*i].class.is_officer()) {
            return Err(DbaixError::NoReinforcements);
        }
        if !x.is_finite()
            || !distance.is_finite()
            || distance < cfg.base_depth - EPS
            || distance > cfg.move_distance + EPS
        {
            return Err(DbaixError::TooFar {
                distance,
                limit: cfg.move_distance,
            });
        }
        let poses: Vec<Pose> = (0..ids.len())
            .map(|k| {
                pose_snapped(Pose::new(
                    x + (k as f64 + 0.5) * cfg.base_width,
                    distance,
                    0.0,
                ))
            })
            .collect();
        for (k, id) in ids.iter().enumerate() {
            if !self.free_at(*id, poses[k], &[]) {
                return Err(DbaixError::Blocked { id: *id });
            }
        }
        let after: Vec<ElementRect> = poses.iter().map(|p| self.rect_at(*p)).collect();
        let mut add_ons = Vec::new();
        // DBAIX.md §11.13: measured from where they enter; a Dubius Status in camp is far.
        let dubius_far = |c: Point| match self.find_class(FigureClass::DubiusStatus) {
            Some(d) if ids.contains(&d.id) => false,
            Some(d) if d.on_table() => d.rect(&cfg).centre().distance(c) > 12.0 + EPS,
            _ => true,
        };
        if idx.iter().zip(&after).any(|(i, r)| {
            self.figures[*i].class != FigureClass::CaligulaMinus
                && self.figures[*i].class != FigureClass::DubiusStatus
                && dubius_far(r.centre())
        }) {
            add_ons.push(PipAddOn::FarFromDubiusStatus);
        }
        if !self.flank_contacts(&idx, &after).is_empty() {
            add_ons.push(PipAddOn::FlankContact);
        }
        add_ons.push(PipAddOn::Reinforcements);
        let base = if ids.len() > 1 { 1 } else { 2 };
        let total = base + add_ons.iter().map(|a| a.value()).sum::<u8>();
        if total > self.pips {
            return Err(DbaixError::NotEnoughPips {
                cost: total,
                left: self.pips,
            });
        }
        self.pips -= total;
        for (k, i) in idx.iter().enumerate() {
            self.figures[*i].pose = poses[k];
            self.figures[*i].status = Status::OnTable;
            self.figures[*i].moves = 1;
        }
        events.push(Event::Reinforced {
            figures: ids.to_vec(),
            poses,
            cost: PipCost {
                base,
                add_ons,
                total,
            },
            pips_left: self.pips,
        });
        Ok(())
    }

    /// DBAIX.md §6.1: a figure touched on a side or the rear by an enemy's front edge, with no
    /// enemy on its front edge, turns to face that enemy: it swings to stand front to front with
    /// it. Only figures in contacts involving the moving side turn; one with no room to turn
    /// stays as it is (our reading).
    fn turn_to_face(&mut self, events: &mut Vec<Event>) {
        let cfg = self.setup.config.clone();
        let side = self.active_side();
        for i in 0..self.figures.len() {
            let me = self.figures[i].clone();
            if !me.on_table() {
                continue;
            }
            let r = me.rect(&cfg);
            let enemies: Vec<&FigureState> = self
                .figures
                .iter()
                .filter(|e| e.on_table() && e.side != me.side)
                .collect();
            if enemies.iter().any(|e| front_to_front(&r, &e.rect(&cfg))) {
                continue;
            }
            let Some(att) = enemies
                .iter()
                .find(|e| {
                    (e.side == side || me.side == side)
                        && front_on_flank_or_rear(&e.rect(&cfg), &r).is_some()
                })
                .map(|e| (*e).clone())
            else {
                continue;
            };
            let ar = att.rect(&cfg);
            let m = ar.pose.front_mid();
            let pose = pose_snapped(Pose::new(m.x, m.y, att.pose.facing + 180.0));
            if self.free_at(me.id, pose, &[]) {
                self.figures[i].pose = pose;
                events.push(Event::TurnedToFace {
                    figure: me.id,
                    towards: att.id,
                    pose,
                });
            }
        }
    }

    fn fight(
        &mut self,
        a: FigureId,
        b: FigureId,
        dice: [DieScore; 2],
        events: &mut Vec<Event>,
    ) -> Result<(), DbaixError> {
        let cfg = self.setup.config.clone();
        let ia = self.index(a)?;
        let ib = self.index(b)?;
        let score = |me: usize, opp: usize, die: DieScore| {
            let tactical = self.tactical(me, opp);
            let cf = combat_factor(self.figures[me].class);
            let total = i32::from(die.get()) + cf + tactical.iter().map(|t| t.value()).sum::<i32>();
            (cf, tactical, total)
        };
        let (cfa, ta, tota) = score(ia, ib, dice[0]);
        let (cfb, tb, totb) = score(ib, ia, dice[1]);
        let (ra, rb) = results(self.figures[ia].class, tota, self.figures[ib].class, totb);
        events.push(Event::Fought {
            a: FighterScore {
                id: a,
                die: dice[0],
                combat_factor: cfa,
                tactical: ta,
                total: tota,
                result: ra,
            },
            b: FighterScore {
                id: b,
                die: dice[1],
                combat_factor: cfb,
                tactical: tb,
                total: totb,
                result: rb,
            },
        });
        self.fought.push(a);
        self.fought.push(b);
        // DBAIX.md §11.11: a guard scoring lower than a Gaul frees its captives.
        for (me, mine, opp, theirs) in [(ia, tota, ib, totb), (ib, totb, ia, tota)] {
            if mine < theirs && self.figures[opp].side == Side::Gauls {
                let id = self.figures[me].id;
                self.free_captives_of(id, events);
            }
        }
        // The beaten figure's result first, then the winner's follow-up.
        let mut order = [(ia, ra, ib), (ib, rb, ia)];
        order.sort_by_key(|(_, r, _)| *r == FigureResult::FollowUp);
        for (i, r, opp) in order {
            let f = self.figures[i].clone();
            match r {
                FigureResult::Stays => {}
                FigureResult::Captured => {
                    let guard = self.figures[opp].id;
                    self.figures[i].status = Status::Captured { guard };
                    events.push(Event::Captured {
                        figure: f.id,
                        guard,
                    });
                    // Its own captives (a Gaul guards nobody, but keep the rule whole).
                    self.free_captives_of(f.id, events);
                }
                FigureResult::Removed | FigureResult::SentToCamp | FigureResult::FledOff => {
                    self.lose(i, r, events);
                }
                FigureResult::FollowUp | FigureResult::Recoils => {
                    let (pose, _) =
                        self.slide(i, f.pose, r == FigureResult::Recoils, cfg.base_depth);
                    if let Some(p) = pose {
                        if p != f.pose {
                            self.figures[i].pose = p;
                            events.push(Event::ResultMoved {
                                figure: f.id,
                                result: r,
                                pose: p,
                            });
                        }
                    }
                }
                FigureResult::Flees => {
                    // DBAIX.md §11.16: turn about, a full move straight away; off at an edge.
                    let turned = pivot(&f.rect(&cfg), f.pose.facing + 180.0);
                    let (pose, leaves) = self.slide(i, turned, false, cfg.move_distance);
                    if leaves {
                        self.lose(i, FigureResult::FledOff, events);
                    } else if let Some(p) = pose {
                        self.figures[i].pose = p;
                        events.push(Event::ResultMoved {
                            figure: f.id,
                            result: r,
                            pose: p,
                        });
                    }
                }
            }
        }
        Ok(())
    }

    fn end_bound(&mut self, events: &mut Vec<Event>) {
        let cfg = self.setup.config.clone();
        let side = self.active_side();
        if side == Side::Gauls {
            self.gaul_bounds_done += 1;
            // DBAIX.md §11.6: silenced when all binders (or all Gauls left) touch him.
            if let Some(m) = &self.music {
                let caco = self
                    .find_class(FigureClass::Cacofonix)
                    .filter(|c| c.on_table());
                let silenced = match caco {
                    None => true,
                    Some(c) => {
                        let cr = c.rect(&cfg);
                        let binders: Vec<&FigureState> =
                            m.binders.iter().filter_map(|id| self.figure(*id)).collect();
                        !binders.is_empty()
                            && binders
                                .iter()
                                .all(|b| b.on_table() && base_distance(&cr, &b.rect(&cfg)) < EPS)
                    }
                };
                if silenced {
                    self.music = None;
                    events.push(Event::Silenced);
                }
            }
            if self.potion_until == Some(self.gaul_bounds_done) {
                events.push(Event::PotionWornOff);
            }
            // DBAIX.md §11.7: a new brew when the village stands in one group with Getafix.
            if let Some(g) = self
                .find_class(FigureClass::Getafix)
                .filter(|g| g.on_table())
            {
                let mut ids = vec![g.id];
                let mut rects = vec![g.rect(&cfg)];
                for f in &self.figures {
                    if f.side == Side::Gauls
                        && f.on_table()
                        && f.id != g.id
                        && !matches!(f.class, FigureClass::Obelix | FigureClass::Asterix)
                    {
                        ids.push(f.id);
                        rects.push(f.rect(&cfg));
                    }
                }
                if ids.len() > 1 && self.connected(&ids, &rects) {
                    let until = self.gaul_bounds_done + 5;
                    self.potion_until = Some(until);
                    events.push(Event::PotionBrewed {
                        until_gaul_bounds: until,
                    });
                }
            }
        }
        events.push(Event::BoundEnded {
            side,
            bound: self.bound,
            unused_pips: self.pips,
        });
        self.pips = 0;
        self.fought.clear();
        for f in &mut self.figures {
            f.moves = 0;
        }
        let able: Vec<Side> = Side::ALL
            .into_iter()
            .filter(|s| self.can_fight(*s))
            .collect();
        let counts = self.on_table_counts();
        if able.len() <= 1 || self.bound >= cfg.max_rounds * 3 {
            let best = *counts.iter().max().unwrap_or(&0);
            let leaders: Vec<Side> = Side::ALL
                .into_iter()
                .filter(|s| counts[s.index()] == best)
                .collect();
            let winner = if able.len() == 1 {
                Some(able[0])
            } else if leaders.len() == 1 && best > 0 {
                Some(leaders[0])
            } else {
                None
            };
            self.phase = Phase::Finished { winner };
            events.push(Event::GameOver {
                winner,
                on_table: counts,
            });
            return;
        }
        // Next side in the rotation that can still fight.
        loop {
            self.turn = (self.turn + 1) % 3;
            if self.can_fight(self.active_side()) {
                break;
            }
        }
        self.bound += 1;
        self.phase = Phase::AwaitingPips;
        events.push(Event::BoundStarted {
            side: self.active_side(),
            bound: self.bound,
        });
    }
}
