//! The engine's work list and the turn (BUGS §5, BUGS §13, BUGS §15; readings R9–R11, R38–R44).
//!
//! Every rule that happens later is a [`Task`] on a stack, so a reaction nested in a reaction is
//! resolved at once and completely, depth first (reading R36). A task that needs dice or a
//! choice puts itself back and says so ([`Need`]); the answer is the next action, which the same
//! task then takes. The encounter holds no dice of its own.

use serde::{Deserialize, Serialize};

use super::field::{BoardType, Field};
use super::fight::{FirePlan, Strike};
use super::holes::Direction;
use super::reaction::CheckKind;
use super::tables::Tables;
use super::{
    BugHole, BugsSetup, Count, Decision, DiceReading, DiceRequest, Encounter, EncounterKind, Event,
    Figure, FigureStatus, HoleState, Need, Outcome, Roll, Verdict,
};
use super::{FigureId, Side};
use crate::dice::DieScore;
use crate::geometry::Point;

/// The most turns any encounter lasts (dbcore reading B17): an escort with no turn limit whose
/// last human cannot leave the table would otherwise go on for ever.
pub const MAX_TURNS: u32 = 1000;

/// What a roll-off orders.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "then")]
pub(super) enum AfterRollOff {
    /// The figures activate in this order (BUGS §5).
    Activation { willpower: u8 },
    /// The checkers take their What Now checks in this order (reading R36).
    WhatNow { mover: FigureId },
}

/// A piece of work still to do.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "task")]
pub(super) enum Task {
    Begin,
    TerrainRoll,
    StartTurn,
    Call,
    RollOff {
        groups: Vec<Vec<FigureId>>,
        then: AfterRollOff,
    },
    Activate {
        figure: FigureId,
        leader: Option<FigureId>,
    },
    Joiners {
        leader: FigureId,
        candidates: Vec<FigureId>,
    },
    Voluntary {
        figure: FigureId,
    },
    EndActivation {
        figure: FigureId,
    },
    Travel {
        figure: FigureId,
        path: Vec<Point>,
        facing: Option<f64>,
        charge: bool,
    },
    AfterMove {
        figure: FigureId,
    },
    FireChoice {
        figure: FigureId,
        reason: super::FireReason,
        at: Option<FigureId>,
    },
    Shoot {
        plan: FirePlan,
        next: usize,
    },
    Hit {
        strike: Strike,
    },
    Damage {
        strike: Strike,
        critical: bool,
    },
    Impact {
        strike: Strike,
    },
    Wound {
        strike: Strike,
    },
    Thresholds {
        figure: FigureId,
        by: Option<FigureId>,
        melee: bool,
    },
    Check {
        figure: FigureId,
        kind: CheckKind,
        threat: FigureId,
        /// The charge's end point, for Charging and Being Charged.
        to: Option<Point>,
        /// The defender may counter-attack on Carry on (BUGS §11).
        may_counter: bool,
        first: Option<Vec<DieScore>>,
    },
    Opposed {
        checker: FigureId,
        mover: FigureId,
    },
    ChargeFinish {
        figure: FigureId,
        target: FigureId,
        to: Point,
        target_at: Point,
        budget: f64,
    },
    MeleeAttack {
        attacker: FigureId,
        defender: FigureId,
    },
    CounterAttack {
        figure: FigureId,
        target: FigureId,
    },
    DuckDown {
        figure: FigureId,
        threat: Point,
    },
    Runaway {
        figure: FigureId,
        causes: Vec<FigureId>,
    },
    RunawayMove {
        figure: FigureId,
    },
    Pursue {
        pursuer: FigureId,
        quarry: FigureId,
    },
    PursuitCheck {
        figure: FigureId,
    },
    MoveBack {
        figure: FigureId,
        attacker: FigureId,
    },
    EncounterStep,
    OpenDelayed,
    LocateHole {
        hole: u32,
        after_tremors: bool,
    },
    HoleDistance {
        hole: u32,
        direction: Direction,
    },
    HoleOwes {
        hole: u32,
    },
    Releases,
    Release {
        hole: u32,
    },
    Emerge {
        hole: u32,
        left: u32,
    },
    NewHole,
    HoleChance,
    EndTurn,
}

/// An answer taken by the task that asked for it.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Input {
    Dice(Vec<DieScore>),
    Voluntary(super::Action),
    Join(Vec<FigureId>),
    Fire(Option<FirePlan>),
}

impl Encounter {
    /// The encounter before its first step.
    pub(super) fn start(setup: BugsSetup, tables: Tables) -> Encounter {
        let figures = setup
            .figures
            .iter()
            .map(|f| {
                let name = f
                    .name
                    .clone()
                    .unwrap_or_else(|| format!("{} {}", f.sheet.name(), f.id.0));
                let facing = crate::geometry::snap_bearing(f.facing);
                Figure::fresh(
                    f.id,
                    name,
                    f.sheet,
                    f.leader,
                    f.at.snapped(),
                    facing,
                    &tables,
                )
            })
            .collect();
        let holes = setup
            .holes
            .iter()
            .enumerate()
            .map(|(i, h)| BugHole {
                id: i as u32 + 1,
                at: Some(h.at),
                state: HoleState::Open { turn: 0 },
                owes: h.owes,
            })
            .collect();
        let field = Field::new(
            setup.table.width,
            setup.table.depth,
            &setup.areas,
            setup.board,
        );
        let mut stack = vec![Task::StartTurn];
        if setup.board.is_none() {
            stack.push(Task::TerrainRoll);
        }
        stack.push(Task::Begin);
        Encounter {
            board: setup.board,
            tables,
            field,
            turn: 0,
            figures,
            holes,
            called: None,
            queue: Vec::new(),
            active: None,
            watchers: Vec::new(),
            deferred: Vec::new(),
            stack,
            need: None,
            input: None,
            holes_opened: 0,
            over: None,
            opening: Vec::new(),
            actions: Vec::new(),
            setup,
        }
    }

    /// Take an action as the answer to what is awaited, then play on to the next need.
    pub(super) fn step(&mut self, action: &super::Action) -> Result<Vec<Event>, super::BugsError> {
        if self.over.is_some() {
            return Err(super::BugsError::Over);
        }
        let need = self.need.clone().ok_or(super::BugsError::Over)?;
        let input = self.accept(&need, action)?;
        self.need = None;
        self.input = Some(input);
        let mut events = Vec::new();
        self.run(&mut events)?;
        Ok(events)
    }

    /// Work through the stack until dice or a choice are needed or the encounter is over.
    pub(super) fn run(&mut self, ev: &mut Vec<Event>) -> Result<(), super::BugsError> {
        let mut guard = 0u32;
        while self.need.is_none() && self.over.is_none() {
            guard += 1;
            if guard > 200_000 {
                return Err(super::BugsError::Internal(
                    "the encounter went round without waiting for anything".into(),
                ));
            }
            let Some(task) = self.stack.pop() else {
                return Err(super::BugsError::Internal("nothing left to do".into()));
            };
            self.exec(task, ev);
        }
        if self.input.take().is_some() {
            return Err(super::BugsError::Internal("an answer was not taken".into()));
        }
        Ok(())
    }

    /// The dice for `task`, if they have been given; otherwise ask for them and put it back.
    pub(super) fn dice(
        &mut self,
        task: &Task,
        count: u8,
        reading: DiceReading,
        roll: Roll,
    ) -> Option<Vec<DieScore>> {
        match self.input.take() {
            Some(Input::Dice(d)) => Some(d),
            other => {
                self.input = other;
                self.stack.push(task.clone());
                self.need = Some(Need::Dice(DiceRequest {
                    count,
                    reading,
                    roll,
                }));
                None
            }
        }
    }

    /// The choice for `task`, if it has been made; otherwise ask for it and put it back.
    pub(super) fn decide(&mut self, task: &Task, decision: Decision) -> Option<Input> {
        match self.input.take() {
            Some(Input::Dice(d)) => {
                self.input = Some(Input::Dice(d));
                None
            }
            Some(i) => Some(i),
            None => {
                self.stack.push(task.clone());
                self.need = Some(Need::Decision(decision));
                None
            }
        }
    }

    pub(super) fn idx(&self, id: FigureId) -> usize {
        self.figures
            .iter()
            .position(|f| f.id == id)
            .unwrap_or(usize::MAX)
    }
    /// The figure (which the engine knows exists).
    pub(super) fn fig(&self, id: FigureId) -> &Figure {
        &self.figures[self.idx(id)]
    }
    pub(super) fn fig_mut(&mut self, id: FigureId) -> &mut Figure {
        let i = self.idx(id);
        &mut self.figures[i]
    }
    /// On the table.
    pub(super) fn present(&self, id: FigureId) -> bool {
        self.figure(id).is_some_and(|f| f.on_table())
    }

    fn exec(&mut self, task: Task, ev: &mut Vec<Event>) {
        match task.clone() {
            Task::Begin => ev.push(Event::EncounterBegan {
                encounter: self.setup.encounter,
                board: self.board,
                turn_limit: self.setup.turn_limit,
            }),
            Task::TerrainRoll => {
                if let Some(d) = self.dice(&task, 2, DiceReading::Total, Roll::Terrain) {
                    let board = BoardType::from_roll(d[0].get() + d[1].get());
                    self.board = Some(board);
                    self.field = Field::new(
                        self.setup.table.width,
                        self.setup.table.depth,
                        &self.setup.areas,
                        Some(board),
                    );
                    ev.push(Event::TerrainRolled { dice: d, board });
                }
            }
            Task::StartTurn => self.start_turn(ev),
            Task::Call => self.call(ev),
            Task::RollOff { groups, then } => self.roll_off(&task, groups, then, ev),
            Task::Activate { figure, leader } => self.activate(figure, leader, ev),
            Task::Joiners { leader, candidates } => {
                let d = Decision::Join { leader, candidates };
                if let Some(Input::Join(joiners)) = self.decide(&task, d) {
                    for j in &joiners {
                        self.fig_mut(*j).activated = true;
                    }
                    if !joiners.is_empty() {
                        ev.push(Event::Joined {
                            leader,
                            joiners: joiners.clone(),
                        });
                    }
                    for j in joiners.iter().rev() {
                        self.stack.push(Task::Activate {
                            figure: *j,
                            leader: Some(leader),
                        });
                    }
                    self.stack.push(Task::EndActivation { figure: leader });
                    self.stack.push(Task::Voluntary { figure: leader });
                }
            }
            Task::Voluntary { figure } => self.voluntary(&task, figure, ev),
            Task::EndActivation { figure } => {
                if self.active == Some(figure) {
                    self.active = None;
                }
                self.watchers.clear();
                let (now, keep): (Vec<_>, Vec<_>) =
                    self.deferred.drain(..).partition(|(_, m)| *m == figure);
                self.deferred = keep;
                for (checker, mover) in now.into_iter().rev() {
                    self.stack.push(Task::FireChoice {
                        figure: checker,
                        reason: super::FireReason::WhatNow,
                        at: Some(mover),
                    });
                }
            }
            Task::Travel {
                figure,
                path,
                facing,
                charge,
            } => self.travel_task(figure, path, facing, charge, ev),
            Task::AfterMove { figure } => {
                if self.can_go_on(figure) {
                    self.stack.push(Task::FireChoice {
                        figure,
                        reason: super::FireReason::AfterMove,
                        at: None,
                    });
                }
            }
            Task::FireChoice { figure, reason, at } => {
                self.fire_choice(&task, figure, reason, at, ev)
            }
            Task::Shoot { plan, next } => self.shoot(plan, next, ev),
            Task::Hit { strike } => self.hit(&task, strike, ev),
            Task::Damage { strike, critical } => self.damage(&task, strike, critical, ev),
            Task::Impact { strike } => self.impact(&task, strike, ev),
            Task::Wound { strike } => self.wound(&task, strike, ev),
            Task::Thresholds { figure, by, melee } => self.thresholds(figure, by, melee, ev),
            Task::Check { .. } => self.check_task(&task, ev),
            Task::Opposed { checker, mover } => self.opposed(&task, checker, mover, ev),
            Task::ChargeFinish {
                figure,
                target,
                to,
                target_at,
                budget,
            } => self.charge_finish(figure, target, to, target_at, budget),
            Task::MeleeAttack { attacker, defender } => self.melee_attack(attacker, defender),
            Task::CounterAttack { figure, target } => self.counter_attack(figure, target),
            Task::DuckDown { figure, threat } => self.duck_down(figure, threat, ev),
            Task::Runaway { figure, causes } => self.runaway(figure, causes, ev),
            Task::RunawayMove { figure } => self.runaway_move(figure, ev),
            Task::Pursue { pursuer, quarry } => self.pursue(&task, pursuer, quarry, ev),
            Task::PursuitCheck { figure } => self.pursuit_check(&task, figure, ev),
            Task::MoveBack { figure, attacker } => self.move_back(figure, attacker, ev),
            Task::EncounterStep => {
                self.active = None;
                self.called = None;
                self.queue.clear();
                self.stack.push(Task::EndTurn);
                self.stack.push(Task::NewHole);
                self.stack.push(Task::Releases);
                self.stack.push(Task::OpenDelayed);
            }
            Task::OpenDelayed => {
                for h in self.holes.iter().rev() {
                    if h.state == HoleState::Tremors {
                        self.stack.push(Task::LocateHole {
                            hole: h.id,
                            after_tremors: true,
                        });
                    }
                }
            }
            Task::LocateHole {
                hole,
                after_tremors,
            } => self.locate_hole(&task, hole, after_tremors, ev),
            Task::HoleDistance { hole, direction } => {
                self.hole_distance(&task, hole, direction, ev)
            }
            Task::HoleOwes { hole } => {
                if let Some(d) = self.dice(&task, 1, DiceReading::Total, Roll::BugsOwed { hole }) {
                    let humans = self.count_on_table(Side::Humans);
                    let owes = humans + u32::from(d[0].get());
                    self.hole_mut(hole).owes = owes;
                    ev.push(Event::BugsOwed {
                        hole,
                        humans,
                        die: d[0],
                        owes,
                    });
                }
            }
            Task::Releases => {
                let turn = self.turn;
                for h in self.holes.iter().rev() {
                    if matches!(h.state, HoleState::Open { turn: t } if t < turn) && h.owes > 0 {
                        self.stack.push(Task::Release { hole: h.id });
                    }
                }
            }
            Task::Release { hole } => {
                if let Some(d) = self.dice(&task, 1, DiceReading::Total, Roll::Release { hole }) {
                    let count = u32::from(d[0].get()).min(self.hole(hole).owes);
                    ev.push(Event::BugsReleased {
                        hole,
                        die: d[0],
                        count,
                    });
                    self.stack.push(Task::Emerge { hole, left: count });
                }
            }
            Task::Emerge { hole, left } => self.emerge(&task, hole, left, ev),
            Task::NewHole => {
                let waiting = self
                    .holes
                    .iter()
                    .any(|h| h.owes > 0 || h.state == HoleState::Tremors);
                if !waiting
                    && self.count_on_table(Side::Bugs) == 0
                    && self.count_on_table(Side::Humans) > 0
                {
                    self.stack.push(Task::HoleChance);
                }
            }
            Task::HoleChance => {
                let (chance, terms) = self.chance();
                if let Some(d) =
                    self.dice(&task, 2, DiceReading::Total, Roll::HoleChance { chance })
                {
                    let opens = i32::from(d[0].get() + d[1].get()) <= chance;
                    ev.push(Event::HoleChance {
                        terms,
                        chance,
                        dice: d,
                        opens,
                    });
                    if opens {
                        let id = self.holes.len() as u32 + 1;
                        self.holes.push(BugHole {
                            id,
                            at: None,
                            state: HoleState::Tremors,
                            owes: 0,
                        });
                        self.stack.push(Task::LocateHole {
                            hole: id,
                            after_tremors: false,
                        });
                    }
                }
            }
            Task::EndTurn => self.end_turn(ev),
        }
    }

    fn start_turn(&mut self, ev: &mut Vec<Event>) {
        self.turn += 1;
        let turn = self.turn;
        for f in &mut self.figures {
            f.activated = false;
            f.halted = false;
            if f.frozen_until.is_some_and(|t| t < turn) {
                f.frozen_until = None;
            }
        }
        self.called = None;
        self.queue.clear();
        ev.push(Event::TurnBegan { turn });
        self.stack.push(Task::Call);
    }

    /// The activation count (BUGS §5, reading R10): the next figure at the value called, or the
    /// next value down.
    fn call(&mut self, ev: &mut Vec<Event>) {
        if !self.queue.is_empty() {
            let f = self.queue.remove(0);
            self.stack.push(Task::Call);
            self.stack.push(Task::Activate {
                figure: f,
                leader: None,
            });
            return;
        }
        let value = self
            .figures
            .iter()
            .filter(|f| f.on_table() && !f.activated)
            .map(|f| f.will)
            .max();
        let Some(value) = value else {
            self.stack.push(Task::EncounterStep);
            return;
        };
        self.called = Some(value);
        let at: Vec<FigureId> = self
            .figures
            .iter()
            .filter(|f| f.on_table() && !f.activated && f.will == value)
            .map(|f| f.id)
            .collect();
        ev.push(Event::WillpowerCalled {
            willpower: value,
            figures: at.clone(),
        });
        self.stack.push(Task::Call);
        if at.len() == 1 {
            self.queue = at;
        } else {
            self.stack.push(Task::RollOff {
                groups: vec![at],
                then: AfterRollOff::Activation { willpower: value },
            });
        }
    }

    /// Roll 1D6 each among tied figures, highest first, ties again among themselves (BUGS §5,
    /// reading R48).
    fn roll_off(
        &mut self,
        task: &Task,
        mut groups: Vec<Vec<FigureId>>,
        then: AfterRollOff,
        ev: &mut Vec<Event>,
    ) {
        if let Some(gi) = groups.iter().position(|g| g.len() > 1) {
            let figures = groups[gi].clone();
            let roll = match &then {
                AfterRollOff::Activation { willpower } => Roll::ActivationOrder {
                    willpower: *willpower,
                    figures: figures.clone(),
                },
                AfterRollOff::WhatNow { .. } => Roll::CheckOrder {
                    figures: figures.clone(),
                },
            };
            let Some(d) = self.dice(task, figures.len() as u8, DiceReading::Each, roll) else {
                return;
            };
            ev.push(Event::RolledOff {
                figures: figures.clone(),
                dice: d.clone(),
            });
            let mut scored: Vec<(u8, FigureId)> = d.iter().map(|s| s.get()).zip(figures).collect();
            scored.sort_by_key(|s| std::cmp::Reverse(s.0));
            let mut split: Vec<Vec<FigureId>> = Vec::new();
            let mut last = None;
            for (s, f) in scored {
                if last == Some(s) {
                    if let Some(g) = split.last_mut() {
                        g.push(f);
                    }
                } else {
                    split.push(vec![f]);
                }
                last = Some(s);
            }
            groups.splice(gi..=gi, split);
            self.stack.push(Task::RollOff { groups, then });
            return;
        }
        let order: Vec<FigureId> = groups.into_iter().flatten().collect();
        match then {
            AfterRollOff::Activation { .. } => self.queue = order,
            AfterRollOff::WhatNow { mover } => {
                for c in order.into_iter().rev() {
                    self.stack.push(Task::Check {
                        figure: c,
                        kind: CheckKind::WhatNow,
                        threat: mover,
                        to: None,
                        may_counter: false,
                        first: None,
                    });
                }
            }
        }
    }

    /// Several What Now checkers at one point: highest Willpower first, ties by 1D6 (reading R36).
    pub(super) fn what_now_checks(&mut self, mut checkers: Vec<FigureId>, mover: FigureId) {
        if checkers.is_empty() {
            return;
        }
        checkers.sort_by_key(|c| (std::cmp::Reverse(self.fig(*c).will), *c));
        let mut groups: Vec<Vec<FigureId>> = Vec::new();
        let mut last = None;
        for c in checkers {
            let w = self.fig(c).will;
            if last == Some(w) {
                if let Some(g) = groups.last_mut() {
                    g.push(c);
                }
            } else {
                groups.push(vec![c]);
            }
            last = Some(w);
        }
        self.stack.push(Task::RollOff {
            groups,
            then: AfterRollOff::WhatNow { mover },
        });
    }

    fn activate(&mut self, id: FigureId, leader: Option<FigureId>, ev: &mut Vec<Event>) {
        let turn = self.turn;
        let called = self.called;
        let Some(f) = self.figure(id) else { return };
        if !f.on_table() || (leader.is_none() && (f.activated || Some(f.will) != called)) {
            return;
        }
        let f = self.fig_mut(id);
        f.activated = true;
        f.moved_in = 0.0;
        f.halted = false;
        let (frozen, down, running, pursuing, is_leader) = (
            f.frozen(turn),
            f.knocked_down,
            f.running,
            f.pursuing.is_some(),
            f.leader,
        );
        self.active = Some(id);
        self.watchers.clear();
        ev.push(Event::Activated {
            figure: id,
            with_leader: leader,
        });
        if frozen {
            ev.push(Event::StayedFrozen { figure: id });
            self.stack.push(Task::EndActivation { figure: id });
        } else if down {
            self.fig_mut(id).knocked_down = false;
            ev.push(Event::StoodUp { figure: id });
            self.stack.push(Task::EndActivation { figure: id });
        } else if running {
            self.stack.push(Task::EndActivation { figure: id });
            self.stack.push(Task::RunawayMove { figure: id });
        } else if pursuing {
            self.stack.push(Task::EndActivation { figure: id });
            self.stack.push(Task::PursuitCheck { figure: id });
        } else {
            let candidates = if is_leader && leader.is_none() {
                self.join_candidates(id)
            } else {
                Vec::new()
            };
            if candidates.is_empty() {
                self.stack.push(Task::EndActivation { figure: id });
                self.stack.push(Task::Voluntary { figure: id });
            } else {
                self.stack.push(Task::Joiners {
                    leader: id,
                    candidates,
                });
            }
        }
    }

    /// Friends within 3 in of a leader who have not activated and can act (BUGS §5, reading R11).
    pub(super) fn join_candidates(&self, leader: FigureId) -> Vec<FigureId> {
        let l = self.fig(leader);
        self.figures
            .iter()
            .filter(|f| {
                f.id != leader
                    && f.side == l.side
                    && f.on_table()
                    && !f.activated
                    && !f.running
                    && !f.knocked_down
                    && f.pursuing.is_none()
                    && !f.frozen(self.turn)
                    && f.at.distance(l.at) <= 3.0 + 1e-9
            })
            .map(|f| f.id)
            .collect()
    }

    pub(super) fn count_on_table(&self, side: Side) -> u32 {
        self.figures
            .iter()
            .filter(|f| f.side == side && f.on_table())
            .count() as u32
    }

    fn end_turn(&mut self, ev: &mut Vec<Event>) {
        ev.push(Event::TurnEnded { turn: self.turn });
        let humans = self.count_on_table(Side::Humans);
        let citizens = self
            .figures
            .iter()
            .filter(|f| f.on_table() && f.sheet.is_citizen())
            .count();
        // dbcore reading B17: an encounter with no turn limit still ends after MAX_TURNS.
        let at_limit = self.turn >= self.setup.turn_limit.unwrap_or(MAX_TURNS).min(MAX_TURNS);
        let why = match self.setup.encounter {
            EncounterKind::Escort { .. } | EncounterKind::Raid if humans == 0 => {
                Some("no human is left on the table".to_string())
            }
            EncounterKind::Defend if citizens == 0 => {
                Some("no citizen is left on the table".to_string())
            }
            _ if at_limit => Some(format!("the turn limit ({}) is reached", self.turn)),
            _ => None,
        };
        match why {
            Some(why) => {
                let v = self.tally(true, why);
                ev.push(Event::EncounterEnded { verdict: v.clone() });
                self.over = Some(v);
                self.stack.clear();
                self.need = None;
            }
            None => self.stack.push(Task::StartTurn),
        }
    }

    /// The tally (reading R44); with `over`, the objective's result too.
    pub(super) fn tally(&self, over: bool, why: String) -> Verdict {
        let count = |pick: &dyn Fn(&Figure) -> bool| {
            let mut c = Count::default();
            for f in self.figures.iter().filter(|f| pick(f)) {
                match f.status {
                    FigureStatus::OnTable => c.on_table += 1,
                    FigureStatus::Dead => c.killed += 1,
                    FigureStatus::RanOff => c.run_off += 1,
                    FigureStatus::Exited { .. } => c.exited += 1,
                }
            }
            c
        };
        let humans = count(&|f| f.side == Side::Humans);
        let citizens = count(&|f| f.sheet.is_citizen());
        let bugs = count(&|f| f.side == Side::Bugs);
        let citizens_safe = match self.setup.encounter {
            EncounterKind::Escort { goal } => self
                .figures
                .iter()
                .filter(|f| f.sheet.is_citizen() && f.status == FigureStatus::Exited { edge: goal })
                .count() as u32,
            _ => 0,
        };
        let bugs_owed: u32 = self.holes.iter().map(|h| h.owes).sum();
        let tremors = self.holes.iter().any(|h| h.state == HoleState::Tremors);
        let outcome = over.then(|| {
            let ok = match self.setup.encounter {
                EncounterKind::Escort { .. } => {
                    citizens_safe
                        == self.figures.iter().filter(|f| f.sheet.is_citizen()).count() as u32
                }
                EncounterKind::Defend => citizens.killed + citizens.run_off == 0,
                EncounterKind::Raid => bugs.on_table == 0 && bugs_owed == 0 && !tremors,
            };
            if ok {
                Outcome::Success
            } else {
                Outcome::Failure
            }
        });
        Verdict {
            over,
            turn: self.turn,
            outcome,
            why,
            humans,
            citizens,
            citizens_safe,
            bugs,
            holes_opened: self.holes_opened,
            bugs_owed,
        }
    }
}
