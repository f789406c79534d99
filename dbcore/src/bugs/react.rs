//! Taking a reaction check and carrying out its result at once (BUGS §12; readings R24, R28–R32,
//! R36, R37).

use super::field::CONTACT;
use super::motion::bearing_of;
use super::reaction::{passed, reaction_result, CheckKind, Modified, Modifier, ReactionResult};
use super::tasks::Task;
use super::FigureId;
use super::{DiceReading, Encounter, Event, FireReason, Roll};
use crate::dice::DieScore;
use crate::geometry::Point;

/// Whether `p` lies in the rear half of a figure at `at` facing `facing` (reading R26: a centre on
/// the dividing line counts as front).
pub(super) fn behind(at: Point, facing: f64, p: Point) -> bool {
    (p - at).dot(Point::from_bearing(facing)) < -1e-9
}

impl Encounter {
    /// The modifiers of a check (BUGS §12.2, reading R37). `threat` is the figure that caused it;
    /// `to` a charger's end point.
    pub(super) fn modifiers(
        &self,
        id: FigureId,
        kind: CheckKind,
        threat: FigureId,
        to: Option<Point>,
        attacking: bool,
    ) -> Vec<Modified> {
        let f = self.fig(id);
        let mut m = Vec::new();
        let mut add = |modifier, value| m.push(Modified { modifier, value });
        if f.leader {
            add(Modifier::Leader, 2);
        }
        let near: Vec<FigureId> = self
            .figures
            .iter()
            .filter(|g| {
                g.id != id
                    && g.on_table()
                    && g.side == f.side
                    && !g.running
                    && !g.knocked_down
                    && g.at.distance(f.at) <= 3.0 + 1e-9
                    && self.sees(id, g.id)
            })
            .map(|g| g.id)
            .collect();
        let leader = near.iter().copied().find(|g| self.fig(*g).leader);
        if leader.is_some() {
            add(Modifier::LeaderNear, 1);
        }
        let friends = near.iter().filter(|g| Some(**g) != leader).count().min(3) as i32;
        if friends > 0 {
            add(Modifier::Friends, friends);
        }
        let h = self.field.height(f.at);
        let enemies: Vec<FigureId> = self
            .figures
            .iter()
            .filter(|g| g.on_table() && g.side != f.side && self.sees(id, g.id))
            .map(|g| g.id)
            .collect();
        if !enemies.is_empty()
            && enemies
                .iter()
                .all(|e| self.field.height(self.fig(*e).at) < h - 1e-9)
        {
            add(Modifier::Uphill, 1);
        }
        let t = self.figure(threat).filter(|t| t.on_table());
        if let Some(t) = t {
            if self.field.in_cover(f.at, t.at) {
                add(Modifier::InCover, 1);
            }
        }
        let (ahead, attacked) = match (kind, t) {
            // The charger attacks from behind if its end point is behind the target.
            (CheckKind::Charging, Some(t)) => {
                (to.is_some_and(|p| behind(t.at, t.facing, p)), false)
            }
            (CheckKind::BeingCharged, Some(_)) => {
                (false, to.is_some_and(|p| behind(f.at, f.facing, p)))
            }
            (CheckKind::AttackedInMelee, Some(t)) => (
                attacking && behind(t.at, t.facing, f.at),
                behind(f.at, f.facing, t.at),
            ),
            _ => (false, false),
        };
        if ahead {
            add(Modifier::AttackingFromBehind, 2);
        }
        if attacked {
            add(Modifier::AttackedFromBehind, -2);
        }
        m
    }

    /// A reaction check: up to two rolls of 2D6 against the modified Willpower (BUGS §12.1), then
    /// its result, carried out at once.
    pub(super) fn check_task(&mut self, task: &Task, ev: &mut Vec<Event>) {
        let Task::Check {
            figure,
            kind,
            threat,
            to,
            may_counter,
            first,
        } = task.clone()
        else {
            return;
        };
        // Runaways take no checks (reading R37); the dead and gone take none either.
        if !self.present(figure) || self.fig(figure).running {
            return;
        }
        match kind {
            CheckKind::BeingCharged if !self.can_go_on(threat) => return,
            CheckKind::WhatNow | CheckKind::AttackedInMelee if !self.present(threat) => return,
            _ => {}
        }
        let attacking = kind == CheckKind::AttackedInMelee && !may_counter;
        let modifiers = self.modifiers(figure, kind, threat, to, attacking);
        let will = self.fig(figure).will;
        let needed = i32::from(will) + modifiers.iter().map(|m| m.value).sum::<i32>();
        let attempt = if first.is_some() { 2 } else { 1 };
        let roll = Roll::Reaction {
            figure,
            check: kind,
            attempt,
        };
        let Some(d) = self.dice(task, 2, DiceReading::Total, roll) else {
            return;
        };
        let sum = |d: &[DieScore]| d.iter().map(|s| s.get()).sum::<u8>();
        let (rolls, result) = match first {
            None => {
                let p = passed(needed, sum(&d), None);
                if p.is_none() {
                    self.stack.push(Task::Check {
                        figure,
                        kind,
                        threat,
                        to,
                        may_counter,
                        first: Some(d),
                    });
                    return;
                }
                (vec![d], p)
            }
            Some(f1) => {
                let p = passed(needed, sum(&f1), Some(sum(&d)));
                (vec![f1, d], p)
            }
        };
        let Some(passed) = result else { return };
        let result = reaction_result(
            kind,
            passed,
            self.setup.config.melee_reaction,
            self.tables.being_charged_passed_none,
        );
        ev.push(Event::Checked {
            figure,
            check: kind,
            will,
            modifiers,
            needed,
            rolls,
            passed,
            result,
        });
        self.carry_out(figure, kind, threat, to, may_counter, result, ev);
    }

    #[allow(clippy::too_many_arguments)]
    fn carry_out(
        &mut self,
        id: FigureId,
        kind: CheckKind,
        threat: FigureId,
        to: Option<Point>,
        may_counter: bool,
        result: ReactionResult,
        ev: &mut Vec<Event>,
    ) {
        let threat_at = self.fig(threat).at;
        match result {
            ReactionResult::FireOrCarryOn => self.stack.push(Task::FireChoice {
                figure: id,
                reason: FireReason::WhatNow,
                at: Some(threat),
            }),
            ReactionResult::OpposedRoll => self.stack.push(Task::Opposed {
                checker: id,
                mover: threat,
            }),
            ReactionResult::Freeze => {
                // dbcore reading B7: a freeze in the encounter step, when the turn's activations
                // are done, lasts through the next turn.
                let until = if self.called.is_none() && self.active.is_none() {
                    self.turn + 1
                } else {
                    self.turn
                };
                self.fig_mut(id).frozen_until = Some(until);
                ev.push(Event::Froze {
                    figure: id,
                    until_turn: until,
                });
            }
            ReactionResult::FinishMovement | ReactionResult::Stand => {}
            ReactionResult::CarryOn => {
                if kind == CheckKind::AttackedInMelee && may_counter {
                    self.stack.push(Task::CounterAttack {
                        figure: id,
                        target: threat,
                    });
                }
            }
            ReactionResult::DuckDown => self.stack.push(Task::DuckDown {
                figure: id,
                threat: threat_at,
            }),
            ReactionResult::Runaway => {
                let causes = if kind == CheckKind::AttackedInMelee {
                    vec![threat]
                } else {
                    Vec::new()
                };
                self.stack.push(Task::Runaway { figure: id, causes });
            }
            ReactionResult::MoveBack => self.stack.push(Task::MoveBack {
                figure: id,
                attacker: threat,
            }),
            ReactionResult::ChargeIn => {
                // Reading R28: half the path, the target's Being Charged check, then the rest.
                let Some(to) = to else { return };
                let start = self.fig(id).at;
                let mid = (start + (to - start) * 0.5).snapped();
                let budget = self.fig(id).charge_speed() - self.field.cost(start, mid);
                self.stack.push(Task::ChargeFinish {
                    figure: id,
                    target: threat,
                    to,
                    target_at: threat_at,
                    budget,
                });
                self.stack.push(Task::Check {
                    figure: threat,
                    kind: CheckKind::BeingCharged,
                    threat: id,
                    to: Some(to),
                    may_counter: false,
                    first: None,
                });
                self.stack.push(Task::Travel {
                    figure: id,
                    path: vec![mid],
                    facing: Some(bearing_of(threat_at - start)),
                    charge: true,
                });
            }
            ReactionResult::HaltAndFire => self.stack.push(Task::FireChoice {
                figure: id,
                reason: FireReason::ChargeHalted,
                at: None,
            }),
            ReactionResult::StandAndFire => self.stack.push(Task::FireChoice {
                figure: id,
                reason: FireReason::BeingCharged,
                at: Some(threat),
            }),
        }
    }

    /// What Now, passed 2nd: 1D6 + Willpower each, ties again (BUGS §12.3, reading R30).
    pub(super) fn opposed(
        &mut self,
        task: &Task,
        checker: FigureId,
        mover: FigureId,
        ev: &mut Vec<Event>,
    ) {
        if !self.present(checker) || !self.present(mover) {
            return;
        }
        let roll = Roll::Opposed { checker, mover };
        let Some(d) = self.dice(task, 2, DiceReading::Each, roll) else {
            return;
        };
        let c = u32::from(d[0].get()) + u32::from(self.fig(checker).will);
        let m = u32::from(d[1].get()) + u32::from(self.fig(mover).will);
        let winner = match c.cmp(&m) {
            std::cmp::Ordering::Greater => Some(checker),
            std::cmp::Ordering::Less => Some(mover),
            std::cmp::Ordering::Equal => None,
        };
        ev.push(Event::Opposed {
            checker,
            mover,
            dice: d,
            winner,
        });
        match winner {
            None => self.stack.push(task.clone()),
            Some(w) if w == checker => self.stack.push(Task::FireChoice {
                figure: checker,
                reason: FireReason::WhatNow,
                at: Some(mover),
            }),
            Some(_) => {
                if self.active == Some(mover) {
                    self.deferred.push((checker, mover));
                } else {
                    self.stack.push(Task::FireChoice {
                        figure: checker,
                        reason: FireReason::WhatNow,
                        at: Some(mover),
                    });
                }
            }
        }
    }

    /// Enemies touching the figure whose centres lie in its front half and rear half (reading
    /// R26).
    pub(super) fn contacts_front_rear(&self, id: FigureId, except: FigureId) -> (usize, usize) {
        let f = self.fig(id);
        let mut front = 0;
        let mut rear = 0;
        for g in self.figures.iter().filter(|g| {
            g.on_table() && g.side != f.side && g.id != except && g.at.distance(f.at) <= CONTACT
        }) {
            if behind(f.at, f.facing, g.at) {
                rear += 1;
            } else {
                front += 1;
            }
        }
        (front, rear)
    }
}
