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

mod actions;
mod errors;
mod fighting;
mod figures;
mod moves;
mod music;
mod step;

pub use actions::*;
pub use errors::*;

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
}
