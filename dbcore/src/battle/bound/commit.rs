//! Committing an action: [`Battle::apply`], and each [`Event`] turned into a change of the
//! state; a checked action's events are committed whole, or its simulated state adopted.

use super::*;
use crate::few::Few;

impl Battle {
    /// Do `action`: the events of [`Battle::check`], committed. On a refusal nothing changes.
    ///
    /// ```
    /// use dbcore::battle::{Action, Battle, ElementId, MoveOrder, Phase};
    /// use dbcore::geometry::Pose;
    /// use dbcore::DieScore;
    ///
    /// let mut battle = Battle::new(dbcore::driver::demo_setup()).unwrap();
    /// battle.apply(Action::RollPips { die: DieScore::new(2).unwrap() }).unwrap();
    /// assert_eq!((battle.phase(), battle.pips()), (Phase::Movement, 2));
    ///
    /// // Blades (element 5) move 1 BW north for 1 PIP.
    /// let order = MoveOrder::Element { id: ElementId(5), path: vec![Pose::new(7.5, 5.0, 0.0)] };
    /// battle.apply(Action::Move { order }).unwrap();
    /// assert_eq!(battle.pips(), 1);
    /// assert_eq!(battle.element(ElementId(5)).unwrap().pose.y, 5.0);
    ///
    /// // Blades move at most 2 BW (§7.3): 4 BW more is refused and nothing changes.
    /// let before = battle.clone();
    /// let order = MoveOrder::Element { id: ElementId(5), path: vec![Pose::new(7.5, 9.0, 0.0)] };
    /// assert!(battle.apply(Action::Move { order }).is_err());
    /// assert_eq!(battle, before);
    /// ```
    pub fn apply(&mut self, action: Action) -> Result<Vec<Event>, BattleError> {
        let (events, sim) = self.check_simulated(&action, Refusals::Named)?;
        self.commit_checked(action, &events, sim);
        Ok(events)
    }

    /// Commit `action`, which [`Battle::check_simulated`] accepted with `events` (and `sim`, the
    /// state it simulated, if it did): the simulated state is adopted as it is, else the events
    /// are committed one by one. Either way the state is the one committing the events gives.
    pub(in crate::battle) fn commit_checked(
        &mut self,
        action: Action,
        events: &[Event],
        sim: Option<Box<Battle>>,
    ) {
        match sim {
            Some(sim) => self.adopt(*sim, events),
            None => {
                // Each commit keeps the memo for the state it leaves (see `commit`).
                for e in events {
                    self.commit(e);
                }
            }
        }
        Arc::make_mut(&mut self.actions).push(action);
        self.stamp = super::super::state::Stamp::fresh();
    }

    /// Become `sim`, the state a check simulated from this one by committing `events`.
    ///
    /// The one thing the simulation knows that no event carries is kept from it: the pursuers of
    /// this bound (§12.5), whose new contacts are fought next bound, not in this one. (Before the
    /// simulated state was adopted, committing the events lost that list, so a pursuer could be
    /// made to fight its new contact in the same bound.) The per-state memo (cache.rs) the simulation filled is kept when
    /// every answer in it is for the adopted state, so the next check (the next Fight of the
    /// same phase) does not work out the close combats again.
    pub(super) fn adopt(&mut self, mut sim: Battle, events: &[Event]) {
        #[cfg(not(debug_assertions))]
        let _ = events;
        #[cfg(debug_assertions)]
        let committed = {
            let mut b = self.clone();
            for e in events {
                b.commit(e);
            }
            b
        };
        let strongholds = sim.held_strongholds_kept();
        if !sim.cache.all_for(&sim.move_context(&strongholds)) {
            sim.cache = sim.cache.emptied();
        }
        // The old state goes first, so that the history both share has one owner again and the
        // next push does not copy it.
        *self = sim;
        #[cfg(debug_assertions)]
        {
            let mut committed = committed;
            committed.pursued.clone_from(&self.pursued);
            debug_assert_eq!(
                *self, committed,
                "an adopted simulation differs from its events"
            );
        }
    }

    pub(in crate::battle) fn commit(&mut self, e: &Event) {
        // The per-state memo (cache.rs) describes the elements as they are: an event that
        // changes one empties it, and the new state fills its own when first asked, but for
        // the close-combat flags of elements standing well clear of every element the event
        // moved, which no contact can have changed.
        if !e.changes_elements() {
            self.commit_event(e);
            return;
        }
        let cfg = &self.setup.config;
        // One or two elements for most events, kept in place (#15).
        let moved = match e {
            Event::Moved { moves, .. } => Some(moves.iter().map(|m| m.id).collect()),
            Event::Outcome { effect } => Some(Few::one(effect.id())),
            _ => None,
        };
        let carry = std::mem::take(&mut self.cache).carry(moved, &self.elements, cfg);
        self.commit_event(e);
        self.cache = carry.after(&self.elements, &self.setup.config);
    }

    pub(super) fn commit_event(&mut self, e: &Event) {
        match e {
            Event::BoundStarted { army, bound } => {
                self.active = *army;
                self.bound = *bound;
                self.bounds_begun[*army] += 1;
                self.phase = Phase::AwaitingPips;
                self.pips = 0;
                for c in &mut self.commands {
                    c.pips = 0;
                    c.die = None;
                    c.held.clear();
                    // §14.5: a command already demoralised flees again as its bound begins.
                    c.flight_due = c.army == *army && c.demoralised && !c.removed;
                }
                for el in &mut self.elements {
                    el.moves_this_bound = 0;
                    el.moved_this_bound = 0.0;
                }
            }
            Event::PipsRolled { pips, .. } => {
                self.pips = *pips;
                self.phase = Phase::Movement;
            }
            Event::PloughTurnedRough => self.plough_rough = true,
            Event::RiverDiced { state, .. } => self.river = Some(*state),
            Event::Moved {
                movers,
                moves,
                distance,
                ..
            } => {
                for m in moves {
                    if let Some(el) = self.elements.iter_mut().find(|x| x.id == m.id) {
                        el.pose = m.to.snapped();
                        if let Some(k) = m.becomes {
                            el.kind = k;
                            el.dismounts_as = None;
                        }
                    }
                }
                for id in movers {
                    if let Some(el) = self.elements.iter_mut().find(|x| x.id == *id) {
                        el.moves_this_bound += 1;
                        el.moved_this_bound += distance;
                    }
                }
            }
            Event::PipsSpent {
                left,
                command: None,
                ..
            } => self.pips = *left,
            Event::PipsSpent {
                left,
                command: Some(id),
                ..
            } => self.set_command_pips(*id, *left),
            Event::CommandPipsRolled { army, rolls } => {
                for r in rolls {
                    if let Some(c) = self
                        .commands
                        .iter_mut()
                        .find(|c| c.army == *army && c.id == r.command)
                    {
                        c.die = Some(r.die);
                        c.pips = r.pips;
                    }
                }
                self.pips = self.army_pips(*army);
                self.phase = Phase::Movement;
            }
            Event::CInCBonusUsed { army, .. } => {
                for c in self
                    .commands
                    .iter_mut()
                    .filter(|c| c.army == *army && c.c_in_c)
                {
                    c.bonus_used = true;
                }
            }
            Event::Held {
                army,
                command,
                ids,
                left,
            } => {
                if let Some(c) = self
                    .commands
                    .iter_mut()
                    .find(|c| c.army == *army && c.id == *command)
                {
                    c.held.extend(ids.iter().copied());
                }
                self.set_command_pips(*command, *left);
            }
            Event::DemoralisedFlight { army, commands } => {
                for c in self
                    .commands
                    .iter_mut()
                    .filter(|c| c.army == *army && commands.contains(&c.id))
                {
                    c.flight_due = false;
                }
            }
            Event::CommandDemoralised { army, command, .. } => {
                if let Some(c) = self
                    .commands
                    .iter_mut()
                    .find(|c| c.army == *army && c.id == *command)
                {
                    c.demoralised = true;
                }
            }
            Event::CommandRemoved {
                army, command, ids, ..
            } => {
                if let Some(c) = self
                    .commands
                    .iter_mut()
                    .find(|c| c.army == *army && c.id == *command)
                {
                    c.removed = true;
                }
                for id in ids {
                    for c in &mut self.cities {
                        if c.sacker == Some(*id) {
                            c.sacker = None;
                        }
                    }
                    if let Some(e) = self.elements.iter_mut().find(|e| e.id == *id) {
                        e.status = Status::Lost {
                            cause: super::super::state::LossCause::Removed,
                        };
                    }
                }
            }
            Event::PhaseStarted { phase } => self.phase = *phase,
            Event::Shot {
                shooter,
                target,
                support,
                shot_back,
                ..
            } => {
                self.shot.push(*shooter);
                self.shot.extend(support.iter().copied());
                self.shots.push((*shooter, *target));
                self.shots.extend(support.iter().map(|s| (*s, *target)));
                if *shot_back {
                    self.shot.push(*target);
                    self.shots.push((*target, *shooter));
                }
            }
            Event::Fought { a, b, .. } => {
                self.fought.push(*a);
                self.fought.push(*b);
            }
            Event::Outcome { effect } => self.commit_effect(effect),
            Event::CampSacked { army, command } => self.commit_camp_sacked(*army, *command),
            Event::CampFollowersDestroyed { army, command } => {
                self.commit_camp_followers_destroyed(*army, *command)
            }
            Event::CityCaptured { city, by, sacker } => {
                if let Some(c) = self.city_mut(*city) {
                    c.controller = Some(*by);
                    c.sacker = *sacker;
                    if sacker.is_some() {
                        c.denizens = Denizens::Destroyed;
                    }
                }
            }
            Event::DenizensDestroyed { city } => {
                if let Some(c) = self.city_mut(*city) {
                    c.denizens = Denizens::Destroyed;
                }
            }
            Event::CitySurrendered { city, to } => {
                if let Some(c) = self.city_mut(*city) {
                    c.denizens = Denizens::Surrendered;
                    c.controller = Some(*to);
                }
            }
            Event::Landed { moves, .. } => {
                for m in moves {
                    if let Some(el) = self.elements.iter_mut().find(|x| x.id == m.id) {
                        el.pose = m.to.snapped();
                        el.status = Status::InPlay;
                        el.moves_this_bound = 1;
                    }
                }
            }
            Event::NotLanded { ids, .. } => {
                for el in self.elements.iter_mut().filter(|x| ids.contains(&x.id)) {
                    el.status = Status::Lost {
                        cause: super::super::state::LossCause::OffTable,
                    };
                }
            }
            Event::DenizensSallied { city, element } => {
                if !self.elements.iter().any(|e| e.id == element.id) {
                    self.elements.push(element.clone());
                }
                if let Some(c) = self.city_mut(*city) {
                    c.denizens = Denizens::Sallied;
                }
            }
            Event::SackingEnded { city, .. } => {
                if let Some(c) = self.city_mut(*city) {
                    c.sacker = None;
                }
            }
            Event::BoundEnded { .. } => {
                self.pips = 0;
                for c in &mut self.commands {
                    c.pips = 0;
                }
                self.shot.clear();
                self.shots.clear();
                self.fought.clear();
                self.pursued.clear();
            }
            Event::BattleWon { verdict } => {
                self.verdict = Some(verdict.clone());
                self.phase = Phase::Finished {
                    winner: verdict.winner,
                };
            }
        }
    }
}
