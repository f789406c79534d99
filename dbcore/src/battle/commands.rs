//! Commands: the parts of a Big Battle or Giant army, each under its own general (DBA3.md §14).
//!
//! A standard army is one command and its set-up lists none: the battle keeps no command state
//! for it, so standard set-ups, states and saved battles read and write exactly as before. A Big
//! Battle or Giant set-up lists each army's commands ([`CommandSetup`]): an id, the general's
//! element, every element of the command (the general included), whether it is an allied
//! command, and which one is the C-in-C's. The battle then keeps a [`CommandState`] per command:
//! its PIPs this bound, whether it is demoralised or removed, its losses.
//!
//! Readings where the rules are silent (listed in `docs/rules/14-big-battle-and-giant.md` too):
//! - A command's *original troop elements* are all its elements except camp followers and
//!   denizens (they are not troop elements, §2.6); Scythed Chariots and Hordes are troops, so
//!   they count in the original number but their loss does not (§14.5).
//! - The declared PIP ranking of §14.4 is part of the set-up ([`PipAllocation::Ranked`]), made
//!   after terrain and base edges as the rules ask; the referee reveals it with the first roll
//!   (it is in the set-up any player can read: hiding it is the table's business).
//! - A Giant army's C-in-C chooses between [`PipAllocation::EachRolls`] and
//!   [`PipAllocation::Ranked`] (§14.6); a Giant set-up that says nothing has every general roll.
//! - "Could ride an elephant" (§14.1) is read as: the C-in-C's own element is an Elephant.
//! - Army-list limits of §14.1 (list × 3, × 2 with one ally, two allies from different lists)
//!   need the lists, which a deployed set-up does not name: they are checked where an army is
//!   chosen from the lists, by [`crate::armies::choose_big`].

use crate::dice::DieScore;
use crate::geometry::{ElementRect, TOLERANCE};
use crate::troops::TroopType;
use crate::zones::nearest_distance;

use super::bound::{order_id_slice, Battle, BattleError, Event};
use super::movement::{in_close_combat, MoveOrder, MovePlan};
use super::outcome::flee_to_base_edge;
pub(crate) use super::setup::command_setup::is_civilian;
pub use super::setup::command_setup::{
    may_be_sub_general, ARMY_ELEMENTS, BIG_BATTLE_COMMANDS, BIG_BATTLE_ELEMENTS,
    DEPLOY_FROM_GENERAL, MIN_COMMAND_ELEMENTS,
};
use super::setup::ElementId;
pub use super::setup::{CommandId, CommandSetup, PipAllocation};
use super::state::{LossCause, Status};
use super::victory::Verdict;

pub use super::state::{
    command_losses, counts_for_command, demoralising, removing, CommandLosses, CommandRoll,
    CommandState,
};

impl Battle {
    /// Whether the armies are divided into commands (Big Battle, Giant).
    pub fn has_commands(&self) -> bool {
        !self.commands.is_empty()
    }

    /// Every command of every army, in set-up order; empty in a standard battle (§14).
    pub fn commands(&self) -> &[CommandState] {
        &self.commands
    }

    /// The command element `id` belongs to (Big Battle, Giant).
    pub fn command_of(&self, id: ElementId) -> Option<&CommandState> {
        self.commands.iter().find(|c| c.elements.contains(&id))
    }

    /// The command whose PIPs pay for moving element `id` (Big Battle, Giant): its own, or, for
    /// an army's sallied denizens, who belong to no command, its C-in-C's. A reading: §14.4 gives
    /// every command its own die and is silent on denizens; the City is the army's, so the
    /// army's commander pays, and command distance is to his general (§6.4).
    pub fn paying_command_of(&self, id: ElementId) -> Option<&CommandState> {
        self.command_of(id).or_else(|| {
            let e = self.element(id)?;
            (e.kind.troop_type() == TroopType::Denizens)
                .then(|| self.c_in_c_command(e.army))
                .flatten()
        })
    }

    /// The C-in-C's command of `army` (Big Battle, Giant).
    pub(super) fn c_in_c_command(&self, army: usize) -> Option<&CommandState> {
        self.commands.iter().find(|c| c.army == army && c.c_in_c)
    }

    /// The moving army's commands still rolling a PIP die (§14.4), in set-up order.
    pub fn rolling_commands(&self) -> Vec<&CommandState> {
        self.commands
            .iter()
            .filter(|c| c.army == self.active && c.rolls(&self.elements))
            .collect()
    }

    /// PIPs left to all of `army`'s commands.
    pub(super) fn army_pips(&self, army: usize) -> u8 {
        self.commands
            .iter()
            .filter(|c| c.army == army)
            .map(|c| c.pips)
            .fold(0u8, |a, b| a.saturating_add(b))
    }

    pub(super) fn set_command_pips(&mut self, id: CommandId, left: u8) {
        let army = self.active;
        if let Some(c) = self
            .commands
            .iter_mut()
            .find(|c| c.army == army && c.id == id)
        {
            c.pips = left;
        }
        self.pips = self.army_pips(army);
    }

    /// §14.4, §14.6: the dice of the commands still rolling, given out by the army's allocation;
    /// the first bound's total decides Plough (§17.7b); a 5 or 6 of a sacker's command ends its
    /// sacking (§17.32).
    pub(super) fn check_command_pips(&self, dice: &[DieScore]) -> Result<Vec<Event>, BattleError> {
        if !self.has_commands() {
            return Err(BattleError::CommandDice {
                needed: 1,
                given: dice.len(),
            });
        }
        let rolling = self.rolling_commands();
        if dice.len() != rolling.len() {
            return Err(BattleError::CommandDice {
                needed: rolling.len(),
                given: dice.len(),
            });
        }
        let allocation = self.setup.armies[self.active].pip_allocation.clone();
        let mut rolls: Vec<CommandRoll> = Vec::with_capacity(dice.len());
        match allocation {
            Some(PipAllocation::Ranked { order }) => {
                // Allied commands keep their own die; the others' dice go by score to the
                // ranking (highest first), skipping commands that no longer roll.
                let mut pooled: Vec<DieScore> = Vec::new();
                for (c, d) in rolling.iter().zip(dice) {
                    if c.allied {
                        rolls.push(CommandRoll {
                            command: c.id,
                            die: *d,
                            pips: d.get(),
                        });
                    } else {
                        pooled.push(*d);
                    }
                }
                pooled.sort_by_key(|d| std::cmp::Reverse(d.get()));
                let ranked = order
                    .iter()
                    .filter(|id| rolling.iter().any(|c| c.id == **id && !c.allied));
                for (id, d) in ranked.zip(pooled) {
                    rolls.push(CommandRoll {
                        command: *id,
                        die: d,
                        pips: d.get(),
                    });
                }
                // In set-up order, as the request listed them.
                rolls.sort_by_key(|r| rolling.iter().position(|c| c.id == r.command));
            }
            Some(PipAllocation::EachRolls) | None => {
                for (c, d) in rolling.iter().zip(dice) {
                    rolls.push(CommandRoll {
                        command: c.id,
                        die: *d,
                        pips: d.get(),
                    });
                }
            }
        }
        let total: u32 = rolls.iter().map(|r| u32::from(r.pips)).sum();
        let mut v = vec![Event::CommandPipsRolled {
            army: self.active,
            rolls: rolls.clone(),
        }];
        // §14.4, §17.7b: the first bound's PIP total below the threshold makes Plough rough.
        if self.bound == 1 && total < u32::from(self.setup.config.pips.big_battle_plough_below) {
            v.push(Event::PloughTurnedRough);
        }
        // §4.2, §17.32: in Big Battle, the die of the sacker's own command ends its sacking.
        for c in &self.cities {
            let Some(id) = c.sacker else { continue };
            let Some(e) = self.element(id) else { continue };
            if e.army != self.active {
                continue;
            }
            let die = self
                .command_of(id)
                .and_then(|cmd| rolls.iter().find(|r| r.command == cmd.id));
            if die.is_some_and(|r| r.die.get() >= 5) {
                v.push(Event::SackingEnded {
                    city: c.feature,
                    id,
                });
            }
        }
        Ok(v)
    }

    /// The command that pays for a move: the one all its movers belong to (§14.4; a group is of
    /// one command only, §7.4). `None` in a standard battle.
    pub(super) fn paying_command(
        &self,
        order: &MoveOrder,
    ) -> Result<Option<&CommandState>, BattleError> {
        if !self.has_commands() {
            return Ok(None);
        }
        let ids = order_id_slice(order);
        let Some(first) = ids.first() else {
            return Ok(None);
        };
        let c = self.paying_command_of(*first);
        for id in &ids[1..] {
            let other = self.paying_command_of(*id);
            if other.map(|o| o.id) != c.map(|c| c.id) {
                return Err(BattleError::MixedCommands { a: *first, b: *id });
            }
        }
        Ok(c)
    }

    /// A demoralised command's only tactical move is a single element turning where it stands
    /// (§14.5).
    pub(super) fn check_demoralised_move(
        &self,
        c: &CommandState,
        plan: &MovePlan,
    ) -> Result<(), BattleError> {
        let turn_in_place = plan.moves.len() == 1
            && plan.moves.iter().all(|m| {
                self.element(m.id).is_some_and(|e| {
                    e.pose.front_mid().distance(m.to.front_mid()) <= 2.0 * TOLERANCE
                }) && m.becomes.is_none()
            });
        if turn_in_place {
            return Ok(());
        }
        let id = plan.movers.first().copied().unwrap_or(c.general);
        Err(BattleError::Demoralised { id })
    }

    /// §14.5: holding an element, or a group, of a demoralised command costs 1 PIP of that
    /// command; held elements do not flee this bound.
    pub(super) fn check_hold(&self, ids: &[ElementId]) -> Result<Vec<Event>, BattleError> {
        let Some(first) = ids.first() else {
            return Err(BattleError::NotHeld { id: ElementId(0) });
        };
        for id in ids {
            let e = self
                .element(*id)
                .ok_or(BattleError::UnknownElement { id: *id })?;
            if e.army != self.active {
                return Err(BattleError::NotYourElement {
                    id: *id,
                    army: e.army,
                });
            }
            if !e.in_play() {
                return Err(BattleError::ElementLost { id: *id });
            }
        }
        let order = MoveOrder::Group {
            ids: ids.to_vec(),
            steps: Vec::new(),
        };
        let Some(c) = self.paying_command(&order)? else {
            return Err(BattleError::NotHeld { id: *first });
        };
        // §14.5: a hold keeps an element from the flight of this bound, so it is bought before
        // that flight (a command flees at once the bound it is demoralised: nothing to hold).
        if !c.demoralised || !c.flight_due {
            return Err(BattleError::NotHeld { id: *first });
        }
        if let Some(id) = ids.iter().find(|id| c.held.contains(id)) {
            return Err(BattleError::NotHeld { id: *id });
        }
        if ids.len() > 1 {
            // A group held together must be one group (§7.4): each touching another of it.
            let cfg = &self.setup.config;
            let rects: Vec<ElementRect> = ids
                .iter()
                .filter_map(|id| self.element(*id))
                .map(|e| e.rect(cfg))
                .collect();
            let joined = rects.iter().enumerate().all(|(i, r)| {
                rects
                    .iter()
                    .enumerate()
                    .any(|(j, o)| i != j && nearest_distance(r, o) <= TOLERANCE)
            });
            if !joined {
                return Err(BattleError::NotHeld { id: *first });
            }
        }
        if c.pips < 1 {
            return Err(BattleError::NotEnoughPips { cost: 1, left: 0 });
        }
        Ok(vec![Event::Held {
            army: self.active,
            command: c.id,
            ids: ids.to_vec(),
            left: c.pips - 1,
        }])
    }

    /// Whether the moving army has a demoralised command still to flee this bound (§14.5).
    pub fn flight_due(&self) -> bool {
        self.commands
            .iter()
            .any(|c| c.army == self.active && c.flight_due)
    }

    /// §14.5: the moving army's demoralised commands still to flee this bound flee again: each
    /// of their elements not held this bound and not in close combat flees towards the army's
    /// base edge. Our reading of "at the start of every later friendly bound": once the PIPs are
    /// rolled and the holds bought with them, before any tactical move.
    pub(super) fn demoralised_flight(&mut self, events: &mut Vec<Event>) {
        let army = self.active;
        let due: Vec<&CommandState> = self
            .commands
            .iter()
            .filter(|c| c.army == army && c.flight_due)
            .collect();
        let commands: Vec<CommandId> = due.iter().map(|c| c.id).collect();
        let fleeing: Vec<ElementId> = due
            .iter()
            .flat_map(|c| c.elements.iter().filter(|id| !c.held.contains(id)).copied())
            .collect();
        let e = Event::DemoralisedFlight { army, commands };
        self.commit(&e);
        events.push(e);
        self.flee_all(&fleeing, events);
    }

    /// Each of `ids` still in play and not in close combat flees towards its army's base edge
    /// (§14.5, §12.4). Our reading of their order, which the rules leave open: the element
    /// nearest the base edge first (then in the order given), so that a rear rank fleeing clears
    /// the way for the rank in front of it.
    fn flee_all(&mut self, ids: &[ElementId], events: &mut Vec<Event>) {
        let cfg = &self.setup.config;
        let board = &self.setup.battlefield.board;
        let mut order: Vec<(f64, usize, ElementId)> = ids
            .iter()
            .enumerate()
            .filter_map(|(k, id)| {
                let e = self.element(*id).filter(|e| e.in_play())?;
                let base = self.setup.armies[e.army].base_edge;
                let gap = e
                    .rect(cfg)
                    .corners()
                    .iter()
                    .map(|p| board.distance_to_edge(*p, base))
                    .fold(f64::INFINITY, f64::min);
                Some((gap, k, *id))
            })
            .collect();
        order.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        for (_, _, id) in order {
            let Some(i) = self.elements.iter().position(|e| e.id == id) else {
                continue;
            };
            if !self.elements[i].in_play() {
                continue;
            }
            let army = self.elements[i].army;
            let base = self.setup.armies[army].base_edge;
            let strongholds = self.held_strongholds_kept();
            let ctx = self.move_context(&strongholds);
            if in_close_combat(&ctx, i) {
                continue;
            }
            let effects = flee_to_base_edge(&ctx, id, base);
            for effect in effects {
                let e = Event::Outcome { effect };
                self.commit(&e);
                events.push(e);
            }
        }
    }

    /// What lost camps and Cities add to a command's losses (§14.5): an allied command counts
    /// only its own camp sacked; every non-allied command counts its army's camp sacked and a
    /// City of its army held by the enemy.
    fn stronghold_losses(&self, c: &CommandState) -> u32 {
        if c.allied {
            return u32::from(c.camp_sacked);
        }
        let sacked = self.camp_sacked.get(c.army).copied().unwrap_or(false);
        u32::from(sacked) + u32::from(self.city_held(c.army) > 0)
    }

    /// One command's losses now (§14.5).
    pub fn losses_of_command(&self, c: &CommandState) -> CommandLosses {
        command_losses(c, &self.elements, self.stronghold_losses(c))
    }

    /// §14.5: at the start of a bound, the moving army's commands that have lost a third of
    /// their original troop elements become demoralised, and their elements not in close combat
    /// flee at once.
    pub(super) fn start_of_bound_commands(&mut self, events: &mut Vec<Event>) {
        let army = self.active;
        let newly: Vec<(CommandId, u32, u32)> = self
            .commands
            .iter()
            .filter(|c| c.army == army && !c.demoralised && !c.removed)
            .map(|c| (c.id, self.losses_of_command(c).total(), c.original))
            .filter(|(_, l, o)| demoralising(*l, *o))
            .collect();
        for (command, losses, original) in newly {
            let e = Event::CommandDemoralised {
                army,
                command,
                losses,
                original,
            };
            self.commit(&e);
            events.push(e);
            let ids: Vec<ElementId> = self
                .commands
                .iter()
                .find(|c| c.army == army && c.id == command)
                .map(|c| c.elements.clone())
                .unwrap_or_default();
            self.flee_all(&ids, events);
        }
    }

    /// §14.5: at the end of a bound, every command that has lost half its original troop
    /// elements is removed: its elements still on the table go with it.
    pub(super) fn remove_broken_commands(&mut self, events: &mut Vec<Event>) {
        let broken: Vec<(usize, CommandId, u32, u32, Vec<ElementId>)> = self
            .commands
            .iter()
            .filter(|c| !c.removed)
            .map(|c| (c, self.losses_of_command(c).total()))
            .filter(|(c, l)| removing(*l, c.original))
            .map(|(c, l)| {
                let ids = c
                    .elements
                    .iter()
                    .filter(|id| self.element(**id).is_some_and(|e| e.in_play()))
                    .copied()
                    .collect();
                (c.army, c.id, l, c.original, ids)
            })
            .collect();
        for (army, command, losses, original, ids) in broken {
            let e = Event::CommandRemoved {
                army,
                command,
                losses,
                original,
                ids,
            };
            self.commit(&e);
            events.push(e);
        }
    }

    /// The army defeat of §14.5 as §17.8 reads it, at the end of a bound: an army whose losses
    /// are at least half its original troop elements, or which has two commands removed or
    /// demoralised, and which has lost more than the enemy, loses. Each army's total is the sum
    /// of its commands' losses.
    pub(super) fn command_verdict(&self) -> Verdict {
        let n = self.setup.armies.len();
        let hordes = self.setup.config.pips.big_battle_defeat_counts_hordes;
        let totals: Vec<u32> = (0..n)
            .map(|a| {
                let commands: u32 = self
                    .commands
                    .iter()
                    .filter(|c| c.army == a)
                    .map(|c| self.losses_of_command(c).total())
                    .sum();
                // §17.9, configurable: lost Hordes added back for the defeat count only.
                let lost_hordes = self
                    .elements
                    .iter()
                    .filter(|e| {
                        hordes
                            && e.army == a
                            && e.kind.troop_type() == TroopType::Hd
                            && matches!(
                                e.status,
                                Status::Lost {
                                    cause: LossCause::Destroyed | LossCause::OffTable
                                }
                            )
                    })
                    .count() as u32;
                commands + lost_hordes
            })
            .collect();
        let broken = |a: usize| {
            let original: u32 = self
                .commands
                .iter()
                .filter(|c| c.army == a)
                .map(|c| c.original)
                .sum();
            let down = self
                .commands
                .iter()
                .filter(|c| c.army == a && (c.demoralised || c.removed))
                .count();
            2 * totals[a] >= original.max(1) || down >= 2
        };
        let loser = (0..n).find(|&a| {
            broken(a)
                && totals
                    .iter()
                    .enumerate()
                    .all(|(j, &t)| j == a || totals[a] > t)
        });
        let winner = match (loser, n) {
            (Some(l), 2) => Some(1 - l),
            _ => None,
        };
        Verdict {
            totals,
            loser,
            winner,
        }
    }

    /// §14.4: the C-in-C's element named to use its once-a-game +1 must be `a` or `b`, its
    /// army's C-in-C, with the bonus unused.
    pub(super) fn check_c_in_c_bonus(
        &self,
        a: ElementId,
        b: ElementId,
        ids: &[ElementId],
    ) -> Result<Vec<(ElementId, usize)>, BattleError> {
        let mut v = Vec::new();
        for id in ids {
            let ok = (*id == a || *id == b)
                && !v.iter().any(|(x, _)| x == id)
                && self
                    .command_of(*id)
                    .is_some_and(|c| c.c_in_c && c.general == *id && !c.bonus_used);
            if !ok {
                return Err(BattleError::CInCBonus { id: *id });
            }
            let army = self.element(*id).map_or(0, |e| e.army);
            v.push((*id, army));
        }
        Ok(v)
    }

    /// Whether element `id` is of a demoralised command (§14.5).
    pub fn demoralised(&self, id: ElementId) -> bool {
        self.command_of(id).is_some_and(|c| c.demoralised)
    }
}
