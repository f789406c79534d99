//! Shooting and melee, and what a hit does (BUGS §7–11; readings R13–R16, R20–R23, R25, R33,
//! R35, R45, R49): the fire and its targets, To Hit, wound damage, Impact, the Wound Table,
//! Stamina's thresholds, the runaway's free hacks and the pursuit that follows.

use serde::{Deserialize, Serialize};

use super::hits::{to_hit, wound_damage, HitContext, HitResult};
use super::reaction::CheckKind;
use super::sheets::Weapon;
use super::tables::{Impact, Wound};
use super::tasks::{Input, Task};
use super::FigureId;
use super::{
    AttackKind, DeathCause, DiceReading, Encounter, Event, FigureStatus, FireReason, Roll,
};
use crate::dice::DieScore;
use crate::geometry::Point;

/// A fire, checked and ready: every target in order with its range band (readings R14–R16).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(super) struct FirePlan {
    pub firer: FigureId,
    pub weapon: Weapon,
    pub targets: Vec<FigureId>,
    pub long: Vec<bool>,
    pub burst_at: Option<Point>,
}

/// One attack on one target.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(super) struct Strike {
    pub attacker: FigureId,
    pub target: FigureId,
    pub kind: AttackKind,
    pub weapon: Weapon,
    /// The target's place in the fire's order, from 1.
    pub order: u8,
    pub long_range: bool,
    /// Where cover is judged from: the firer, or a burst's centre (reading R16).
    pub cover_from: Point,
}

fn total(d: &[DieScore]) -> u32 {
    d.iter().map(|s| u32::from(s.get())).sum()
}

impl Encounter {
    /// Whether the figure may fire at all now: on the table, not running, down, frozen or in
    /// contact with an enemy (readings R23, R27, R30).
    pub(super) fn may_fire(&self, id: FigureId, reason: FireReason) -> bool {
        let Some(f) = self.figure(id) else {
            return false;
        };
        let own_activation = matches!(reason, FireReason::AfterMove | FireReason::ChargeHalted);
        let cut_short = own_activation && f.halted;
        let unable = !f.on_table() || f.running || f.knocked_down || f.frozen(self.turn);
        !unable
            && !cut_short
            && (f.weapon.is_ranged() || f.grenades > 0)
            && self.enemies_in_contact(id).is_empty()
    }

    pub(super) fn fire_choice(
        &mut self,
        task: &Task,
        id: FigureId,
        reason: FireReason,
        at: Option<FigureId>,
        ev: &mut Vec<Event>,
    ) {
        if !self.may_fire(id, reason) || self.fire_options(id, at).is_empty() {
            return;
        }
        let d = super::Decision::Fire {
            figure: id,
            reason,
            at,
        };
        match self.decide(task, d) {
            Some(Input::Fire(Some(plan))) => {
                if plan.weapon == Weapon::Grenade {
                    let f = self.fig_mut(id);
                    f.grenades = f.grenades.saturating_sub(1);
                }
                ev.push(Event::Fired {
                    figure: id,
                    weapon: plan.weapon,
                    targets: plan.targets.clone(),
                    burst_at: plan.burst_at,
                });
                self.stack.push(Task::Shoot { plan, next: 0 });
            }
            Some(_) => ev.push(Event::HeldFire { figure: id }),
            None => {}
        }
    }

    /// The next target of a fire: To Hit, damage, then its Shot At check, before the next one
    /// (readings R15, R36).
    pub(super) fn shoot(&mut self, plan: FirePlan, next: usize, _: &mut Vec<Event>) {
        let Some(&target) = plan.targets.get(next) else {
            return;
        };
        let firer_at = self.fig(plan.firer).at;
        let strike = Strike {
            attacker: plan.firer,
            target,
            kind: AttackKind::Shot,
            weapon: plan.weapon,
            order: (next + 1).min(255) as u8,
            long_range: plan.long[next],
            cover_from: match plan.burst_at {
                Some(c) if next > 0 => c,
                _ => firer_at,
            },
        };
        let firer = plan.firer;
        self.stack.push(Task::Shoot {
            plan,
            next: next + 1,
        });
        if !self.present(target) {
            return;
        }
        self.stack.push(Task::Check {
            figure: target,
            kind: CheckKind::ShotAt,
            threat: firer,
            to: None,
            may_counter: false,
            first: None,
        });
        self.push_hit(strike, false);
    }

    /// An attack and what follows it: To Hit (and its damage), then Stamina's thresholds.
    fn push_hit(&mut self, strike: Strike, melee: bool) {
        self.stack.push(Task::Thresholds {
            figure: strike.target,
            by: Some(strike.attacker),
            melee,
        });
        self.stack.push(Task::Hit { strike });
    }

    /// The Active figure's melee attack on an enemy in contact (BUGS §11, reading R25); the
    /// defender then checks, and on Carry on may strike back.
    pub(super) fn melee_attack(&mut self, attacker: FigureId, defender: FigureId) {
        if !self.can_strike(attacker, defender) {
            return;
        }
        self.stack.push(Task::Check {
            figure: defender,
            kind: CheckKind::AttackedInMelee,
            threat: attacker,
            to: None,
            may_counter: true,
            first: None,
        });
        let s = self.melee_strike(attacker, defender, AttackKind::Melee);
        self.push_hit(s, true);
    }

    /// The counter-attack after a Carry on (BUGS §11); the Active figure then checks too, and its
    /// Carry on brings no further attack (reading R25).
    pub(super) fn counter_attack(&mut self, figure: FigureId, target: FigureId) {
        if !self.can_strike(figure, target) {
            return;
        }
        self.stack.push(Task::Check {
            figure: target,
            kind: CheckKind::AttackedInMelee,
            threat: figure,
            to: None,
            may_counter: false,
            first: None,
        });
        let s = self.melee_strike(figure, target, AttackKind::CounterAttack);
        self.push_hit(s, true);
    }

    /// A free hack at a runaway's back: a melee attack with no check and no counter (reading R35).
    pub(super) fn free_hack(&mut self, attacker: FigureId, target: FigureId) {
        if !self.can_strike(attacker, target) {
            return;
        }
        let s = self.melee_strike(attacker, target, AttackKind::FreeHack);
        self.push_hit(s, true);
    }

    fn can_strike(&self, a: FigureId, t: FigureId) -> bool {
        self.present(a)
            && self.present(t)
            && !self.fig(a).running
            && !self.fig(a).knocked_down
            && self.fig(a).side != self.fig(t).side
            && self.fig(a).at.distance(self.fig(t).at) <= super::field::CONTACT
    }

    fn melee_strike(&self, a: FigureId, t: FigureId, kind: AttackKind) -> Strike {
        Strike {
            attacker: a,
            target: t,
            kind,
            weapon: self.fig(a).weapon,
            order: 1,
            long_range: false,
            cover_from: self.fig(a).at,
        }
    }

    /// To Hit (BUGS §9): 2D6 read on the row, conditions from the state now.
    pub(super) fn hit(&mut self, task: &Task, s: Strike, ev: &mut Vec<Event>) {
        if !self.present(s.target) || !self.present(s.attacker) {
            return;
        }
        let roll = Roll::ToHit {
            attacker: s.attacker,
            target: s.target,
        };
        let Some(d) = self.dice(task, 2, DiceReading::Total, roll) else {
            return;
        };
        let (a, t) = (self.fig(s.attacker), self.fig(s.target));
        let ctx = HitContext {
            melee: s.kind != AttackKind::Shot,
            long_range: s.long_range,
            firer_moved_fast: a.moved_fast(),
            target_order: s.order,
            target_in_cover: self.field.in_cover(t.at, s.cover_from),
            target_moved_fast: t.moved_fast(),
            attacker_ws: a.ws,
        };
        let (result, row, held) =
            to_hit((total(&d)) as u8, &ctx, self.setup.config.row6_ws_at_most);
        ev.push(Event::HitRolled {
            attacker: s.attacker,
            target: s.target,
            attack: s.kind,
            dice: d,
            row,
            condition_held: held,
            result,
        });
        if result != HitResult::Miss {
            self.stack.push(Task::Damage {
                strike: s,
                critical: result == HitResult::CriticalWound,
            });
        }
    }

    /// Wound damage (BUGS §10.1): WS + the weapon's dice − DAV, off Stamina at once.
    pub(super) fn damage(&mut self, task: &Task, s: Strike, critical: bool, ev: &mut Vec<Event>) {
        let n = if s.kind == AttackKind::Shot {
            s.weapon.damage_dice().unwrap_or(1)
        } else {
            // Reading R49: in melee the sheet weapon's dice.
            self.fig(s.attacker).damage_dice
        };
        let roll = Roll::Damage {
            attacker: s.attacker,
            target: s.target,
        };
        let Some(d) = self.dice(task, n, DiceReading::Total, roll) else {
            return;
        };
        let ws = self.fig(s.attacker).ws;
        let t = self.fig_mut(s.target);
        let dav = t.dav;
        let damage = wound_damage(ws, total(&d), dav);
        t.stam -= damage as i32;
        let stamina = t.stam;
        ev.push(Event::Damaged {
            figure: s.target,
            by: s.attacker,
            dice: d,
            ws,
            dav,
            damage,
            stamina,
        });
        if critical {
            self.stack.push(Task::Impact { strike: s });
        }
    }

    /// The Impact Table (BUGS §10.2): the attacker's POW column in melee, the weapon's Pwr when
    /// firing.
    pub(super) fn impact(&mut self, task: &Task, s: Strike, ev: &mut Vec<Event>) {
        let power = u32::from(if s.kind == AttackKind::Shot {
            s.weapon
                .power(self.setup.config.grenade_pwr)
                .unwrap_or(self.fig(s.attacker).pow)
        } else {
            self.fig(s.attacker).pow
        });
        let roll = Roll::Impact {
            attacker: s.attacker,
            target: s.target,
            power,
        };
        let Some(d) = self.dice(task, 2, DiceReading::Total, roll) else {
            return;
        };
        let cell = self
            .tables
            .impact(power, total(&d) as u8)
            .unwrap_or(Impact::Loss(0));
        let t = self.fig_mut(s.target);
        match cell {
            Impact::Loss(n) => t.stam -= n as i32,
            Impact::W => {
                t.stam -= 10;
                t.knocked_down = true;
                t.halted = true;
            }
        }
        let stamina = t.stam;
        ev.push(Event::ImpactRolled {
            figure: s.target,
            by: s.attacker,
            power,
            dice: d,
            cell,
            stamina,
        });
        if cell == Impact::W {
            ev.push(Event::KnockedDown { figure: s.target });
            self.stack.push(Task::Wound { strike: s });
        }
    }

    /// The Wound Table (BUGS §10.3): the target rolls on its Willpower's column.
    pub(super) fn wound(&mut self, task: &Task, s: Strike, ev: &mut Vec<Event>) {
        let will = u32::from(self.fig(s.target).will);
        let column = self.tables.wound_column(will);
        let roll = Roll::Wound {
            figure: s.target,
            willpower: column,
        };
        let Some(d) = self.dice(task, 2, DiceReading::Total, roll) else {
            return;
        };
        let cell = self
            .tables
            .wound(will, total(&d) as u8)
            .map(|(_, c)| c)
            .unwrap_or(Wound::Loss(0));
        let t = self.fig_mut(s.target);
        if let Wound::Loss(n) = cell {
            t.will = t.will.saturating_sub(n);
        }
        let will = t.will;
        ev.push(Event::WoundRolled {
            figure: s.target,
            willpower: column,
            dice: d,
            cell,
            will,
        });
        if cell == Wound::K {
            self.kill(s.target, DeathCause::Wound, ev);
        }
    }

    /// Take a figure off the table, dead.
    pub(super) fn kill(&mut self, id: FigureId, cause: DeathCause, ev: &mut Vec<Event>) {
        let f = self.fig_mut(id);
        if f.status != FigureStatus::OnTable {
            return;
        }
        f.status = FigureStatus::Dead;
        f.halted = true;
        ev.push(Event::Killed { figure: id, cause });
    }

    /// Stamina's thresholds once a hit is done (BUGS §10.4, reading R22): dead at minus its
    /// starting Stamina, running away at 0.
    pub(super) fn thresholds(
        &mut self,
        id: FigureId,
        by: Option<FigureId>,
        melee: bool,
        ev: &mut Vec<Event>,
    ) {
        if !self.present(id) {
            return;
        }
        let f = self.fig(id);
        if f.stam <= -f.stam_start {
            self.kill(id, DeathCause::Stamina, ev);
        } else if f.stam <= 0 && !f.running {
            let causes = if melee {
                by.into_iter().collect()
            } else {
                Vec::new()
            };
            self.stack.push(Task::Runaway { figure: id, causes });
        }
    }

    /// A figure runs away (BUGS §7 #5, readings R33, R35): Willpower and Stamina to 0, a free
    /// hack from every enemy in melee with it, the run, then pursuit by those who caused it.
    pub(super) fn runaway(&mut self, id: FigureId, causes: Vec<FigureId>, ev: &mut Vec<Event>) {
        if !self.present(id) || self.fig(id).running {
            return;
        }
        let f = self.fig_mut(id);
        f.will = 0;
        f.stam = f.stam.min(0);
        f.running = true;
        f.pursuing = None;
        f.halted = true;
        let stamina = f.stam;
        ev.push(Event::RanAway {
            figure: id,
            stamina,
        });
        let hackers: Vec<FigureId> = self
            .enemies_in_contact(id)
            .into_iter()
            .filter(|e| !self.fig(*e).running && !self.fig(*e).knocked_down)
            .collect();
        for c in causes.iter().rev() {
            self.stack.push(Task::Pursue {
                pursuer: *c,
                quarry: id,
            });
        }
        self.stack.push(Task::RunawayMove { figure: id });
        for h in hackers.into_iter().rev() {
            self.free_hack(h, id);
        }
    }
}
