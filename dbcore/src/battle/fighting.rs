//! The second half of a bound: distant shooting, close combat, outcome moves and the victory
//! check (DBA3.md §6.1 steps 3–5, §9, §10, §12, §13).
//!
//! Each shot or combat is simulated on a copy of the battle, committing its events one by one, so
//! that every outcome move is computed from the table as the previous one left it; the events
//! are then returned and [`Battle::apply`] commits the same events to the real battle.

use crate::combat::{resolve, Outcome, Side, Stronghold};
use crate::dice::DieScore;
use crate::geometry::Pose;
use crate::troops::TroopType;

use super::bound::{Battle, BattleError, Event, Phase};
use super::engagement::{
    close_combat_situation, close_combat_situation_of_known_pair, close_combats, shooters,
    shooting_targets, shot_situation, with_close_combats, with_enemy_contacts, CloseCombatPair,
    CombatContact,
};
use super::movement::geom::angle_diff;
use super::movement::HeldStronghold;
use super::outcome::{conform, enter_stronghold, flee, pursue, recoil, turn_to_face, Effect};
use super::setup::ElementId;
use super::state::{Denizens, LossCause, Status};
use super::victory::{losses, verdict};
use crate::terrain::TerrainFeature;

impl Battle {
    /// Eligible shooters of both armies that have not shot this bound and have a target (§9.1).
    pub fn pending_shooters(&self) -> Vec<ElementId> {
        self.each_pending_shooter().collect()
    }

    /// [`Battle::pending_shooters`] one at a time, in the same order, each shooter's targets
    /// worked out only when it is reached (#15: whether anyone is still to shoot, and the first
    /// shooter a driver picks, need only the first few).
    pub(crate) fn each_pending_shooter(&self) -> impl Iterator<Item = ElementId> + '_ {
        self.eligible_shooters()
            .into_iter()
            .filter(|id| !self.shot.contains(id))
            .filter(|id| !self.allowed_targets(*id).is_empty())
    }

    /// Shooters of both armies eligible this bound, whether or not they have shot or have a
    /// target (§9.1).
    fn eligible_shooters(&self) -> Vec<ElementId> {
        let strongholds = self.held_strongholds_kept();
        let ctx = self.move_context(&strongholds);
        let moved = |id: ElementId| self.element(id).map_or(0.0, |e| e.moved_this_bound);
        let answering = |id: ElementId| !self.artillery_that_shot_at(id).is_empty();
        shooters(&ctx, &moved, self.active, &answering)
    }

    /// Why eligible `shooter` may not shoot at `target` now, naming the one reason with its
    /// section: out of range (§9.1), outside the target zone (§9.2), out of sight (§9.5), sacking
    /// (§4.2), Artillery answering only Artillery (§9.1), else a target of higher priority (§9.3).
    fn why_not_a_target(&self, shooter: ElementId, target: ElementId) -> BattleError {
        let strongholds = self.held_strongholds_kept();
        let ctx = self.move_context(&strongholds);
        if let Err(e) = shot_situation(&ctx, shooter, target, &[], false) {
            return BattleError::Engagement(e);
        }
        let answering_only = self
            .element(shooter)
            .is_some_and(|e| e.army != self.active && e.kind.troop_type() == TroopType::Art);
        if answering_only && !self.artillery_that_shot_at(shooter).contains(&target) {
            return BattleError::ArtilleryAnswersOnly { shooter, target };
        }
        BattleError::NotATarget { shooter, target }
    }

    /// Enemies that shot at `id` earlier this bound (§9.3's second priority, "an enemy shooting
    /// at it"; our reading: shots already made, since shots are resolved one at a time).
    fn shooting_at(&self, id: ElementId) -> Vec<ElementId> {
        self.shots
            .iter()
            .filter(|(_, t)| *t == id)
            .map(|(s, _)| *s)
            .collect()
    }

    /// Enemy Artillery that shot at `id` this bound (§9.1: Artillery shoots in its own bound,
    /// and in the enemy's bound answers enemy Artillery that shot at it).
    fn artillery_that_shot_at(&self, id: ElementId) -> Vec<ElementId> {
        self.shots
            .iter()
            .filter(|(s, t)| {
                *t == id
                    && self
                        .element(*s)
                        .is_some_and(|e| e.kind.troop_type() == TroopType::Art)
            })
            .map(|(s, _)| *s)
            .collect()
    }

    /// The targets `shooter` may choose now: those of the first priority present (§9.3), and for
    /// Artillery answering in the enemy's bound only the Artillery that shot at it (§9.1). A
    /// City's denizens appear under their reserved id ([`super::state::denizens_id`], §4.2).
    pub fn shot_targets(&self, shooter: ElementId) -> Vec<ElementId> {
        self.allowed_targets(shooter)
    }

    fn allowed_targets(&self, shooter: ElementId) -> Vec<ElementId> {
        self.allowed_targets_given(shooter, None)
    }

    /// As [`Battle::shot_targets`], counting `also_shooting_at_it` among the enemies shooting at
    /// `shooter` (the other side of a mutual exchange, §17.24).
    fn allowed_targets_given(
        &self,
        shooter: ElementId,
        also_shooting_at_it: Option<ElementId>,
    ) -> Vec<ElementId> {
        let strongholds = self.held_strongholds_kept();
        let ctx = self.move_context(&strongholds);
        let mut at_it = self.shooting_at(shooter);
        at_it.extend(also_shooting_at_it);
        let Ok(targets) = shooting_targets(&ctx, shooter, &at_it) else {
            return Vec::new();
        };
        let answering_only = self
            .element(shooter)
            .is_some_and(|e| e.army != self.active && e.kind.troop_type() == TroopType::Art);
        let answer = self.artillery_that_shot_at(shooter);
        let targets: Vec<_> = targets
            .into_iter()
            .filter(|t| !answering_only || answer.contains(&t.target))
            .collect();
        let first = targets.first().map(|t| t.priority);
        targets
            .iter()
            .filter(|t| Some(t.priority) == first)
            .map(|t| t.target)
            .collect()
    }

    /// Close combats still to fight this bound (§10.2): not involving an element that has fought
    /// already, nor a contact made by pursuit this bound (§12.5: fought next bound). The defender
    /// of a city, fort or camp fights each of its assaulters in turn (§4.7), so only the
    /// assaulter's own combats count for an assault.
    pub fn pending_combats(&self) -> Vec<CloseCombatPair> {
        let strongholds = self.held_strongholds_kept();
        let ctx = self.move_context(&strongholds);
        close_combats(&ctx)
            .into_iter()
            .filter(|p| self.still_to_fight(p))
            .collect()
    }

    /// The first of [`Battle::pending_combats`] between `a` and `b` (either way round), read
    /// from the state's kept list of close combats rather than from copies of it (#15).
    fn pending_pair(&self, a: ElementId, b: ElementId) -> Option<CloseCombatPair> {
        let strongholds = self.held_strongholds_kept();
        with_close_combats(&self.move_context(&strongholds), |pairs| {
            pairs
                .iter()
                .filter(|p| self.still_to_fight(p))
                .find(|p| (p.a == a && p.b == b) || (p.a == b && p.b == a))
                .cloned()
        })
    }

    /// Whether the close combat `p` is still to be fought this bound: none of its elements has
    /// fought or pursued already (§10.2, §12.5); for an assault only the assaulter counts, since
    /// the defender fights each assaulter in turn (§4.7).
    pub(super) fn still_to_fight(&self, p: &CloseCombatPair) -> bool {
        let ids: &[ElementId] = match p.contact {
            CombatContact::Assault { .. } => &[p.a],
            _ => &[p.a, p.b],
        };
        !ids.iter()
            .any(|id| self.fought.contains(id) || self.pursued.contains(id))
    }

    /// Move on from `from` to the next step of the bound that has something to do, emitting and
    /// committing the events: shooting, close combat, then the end of the bound with its victory
    /// check (§6.1, §13.2).
    pub(super) fn continue_bound(&mut self, from: Phase, events: &mut Vec<Event>) {
        let emit = |b: &mut Battle, e: Event, events: &mut Vec<Event>| {
            b.commit(&e);
            events.push(e);
        };
        if from == Phase::Shooting && self.each_pending_shooter().next().is_some() {
            if self.phase != Phase::Shooting {
                emit(
                    self,
                    Event::PhaseStarted {
                        phase: Phase::Shooting,
                    },
                    events,
                );
            }
            return;
        }
        // §8.3, §12.6: contacted elements, and elements still in front-edge contact when a
        // combat ends, conform before the next combat.
        self.conform_after_combat(events);
        if matches!(from, Phase::Shooting | Phase::CloseCombat)
            && !self.pending_combats().is_empty()
        {
            if self.phase != Phase::CloseCombat {
                emit(
                    self,
                    Event::PhaseStarted {
                        phase: Phase::CloseCombat,
                    },
                    events,
                );
            }
            return;
        }
        // End of the bound: does an army lose (§13.2; with commands, §14.5 and §17.8 after
        // removing the commands that have lost half)?
        let v = if self.has_commands() {
            self.remove_broken_commands(events);
            self.command_verdict()
        } else {
            let totals: Vec<u32> = (0..self.setup.armies.len())
                .map(|a| {
                    let sacked = self.camp_sacked.get(a).copied().unwrap_or(false);
                    losses(&self.elements, a, sacked, self.city_held(a)).total()
                })
                .collect();
            verdict(totals)
        };
        emit(
            self,
            Event::BoundEnded {
                army: self.active,
                bound: self.bound,
                unused_pips: self.pips,
            },
            events,
        );
        if v.loser.is_some() {
            emit(self, Event::BattleWon { verdict: v }, events);
            return;
        }
        let next = (self.active + 1) % self.setup.armies.len();
        emit(
            self,
            Event::BoundStarted {
                army: next,
                bound: self.bound + 1,
            },
            events,
        );
        // §14.5: demoralisation is decided as a command's bound begins.
        if self.has_commands() {
            self.start_of_bound_commands(events);
        }
    }

    /// Check a shot: its events and the state they leave, simulated on a clone (which
    /// [`Battle::apply`] then adopts instead of committing the events again).
    pub(super) fn check_shot(
        &self,
        shooter: ElementId,
        target: ElementId,
        support: &[ElementId],
        dice: [DieScore; 2],
        own_depth: &[ElementId],
        shoots_back: bool,
    ) -> Result<(Vec<Event>, Battle), BattleError> {
        let civilians = self
            .held_strongholds()
            .into_iter()
            .find(|h| h.civilians == Some(target));
        for id in std::iter::once(&shooter)
            .chain(support)
            .chain(Some(&target).filter(|_| civilians.is_none()))
        {
            let e = self
                .element(*id)
                .ok_or(BattleError::UnknownElement { id: *id })?;
            if !e.in_play() {
                return Err(BattleError::ElementLost { id: *id });
            }
        }
        if self.shot.contains(&shooter) || !self.eligible_shooters().contains(&shooter) {
            return Err(BattleError::CannotShoot { id: shooter });
        }
        if let Some(&s) = support.iter().find(|s| self.shot.contains(s)) {
            return Err(BattleError::CannotShoot { id: s });
        }
        let strongholds = self.held_strongholds_kept();
        let ctx = self.move_context(&strongholds);
        // §9.2–§9.5: the target must be one it can shoot at, of the first priority present.
        if !self.allowed_targets(shooter).contains(&target) {
            return Err(self.why_not_a_target(shooter, target));
        }
        // §17.24: a target shooting back must be a shooter still to shoot this bound that may
        // choose the shooter, counting the shooter as shooting at it (§9.3).
        if shoots_back {
            if civilians.is_some()
                || self.shot.contains(&target)
                || !self.eligible_shooters().contains(&target)
            {
                return Err(BattleError::CannotShoot { id: target });
            }
            if !self
                .allowed_targets_given(target, Some(shooter))
                .contains(&shooter)
            {
                return Err(self.why_not_a_target(target, shooter));
            }
        }
        let situation = shot_situation(&ctx, shooter, target, support, shoots_back)
            .map_err(BattleError::Engagement)?;
        let result = resolve(&situation, dice, &self.setup.config).map_err(BattleError::Combat)?;
        let mut sim = self.clone();
        let mut events = Vec::new();
        let target_outcome = result.b.outcome;
        let shooter_outcome = result.a.outcome;
        let from_behind = matches!(
            situation.engagement,
            crate::combat::Engagement::Shooting(s) if s.from_behind
        );
        sim.emit(
            Event::Shot {
                shooter,
                target,
                support: support.to_vec(),
                result: Box::new(result),
                shot_back: shoots_back,
            },
            &mut events,
        );
        sim.outcome_of(
            target,
            Some(shooter),
            target_outcome,
            from_behind,
            own_depth,
            &mut events,
        );
        // §17.24: shot back at, the shooter suffers its own outcome (turning first only when
        // the target shot from behind it is not read here: it recoils straight back).
        if shoots_back {
            sim.outcome_of(
                shooter,
                Some(target),
                shooter_outcome,
                false,
                own_depth,
                &mut events,
            );
        }
        // §4.2: denizens destroyed by Artillery shooting: the City surrenders and is not sacked.
        if let (Some(h), Outcome::Destroyed) = (&civilians, target_outcome) {
            let to = self.element(shooter).map_or(0, |e| e.army);
            let e = match sim.city_at(&h.perimeter) {
                Some(city) => Event::CitySurrendered { city, to },
                None => sim.civilians_destroyed(h),
            };
            sim.emit(e, &mut events);
        }
        sim.continue_bound(Phase::Shooting, &mut events);
        Ok((events, sim))
    }

    /// Check a close combat: its events and the state they leave, as [`Self::check_shot`].
    pub(super) fn check_fight(
        &self,
        a: ElementId,
        b: ElementId,
        dice: [DieScore; 2],
        own_depth: &[ElementId],
        c_in_c_bonus: &[ElementId],
    ) -> Result<(Vec<Event>, Battle), BattleError> {
        let bonus = self.check_c_in_c_bonus(a, b, c_in_c_bonus)?;
        let pair = self
            .pending_pair(a, b)
            .ok_or(BattleError::NotInCombat { a, b })?;
        let mut sim = self.clone();
        let mut events = Vec::new();
        let mut turned = false;
        // §8.5: an element contacted on its side or rear turns to face first.
        if let Some(turner) = pair.turn_to_face {
            let contactor = if turner == a { b } else { a };
            let effect = {
                let strongholds = sim.held_strongholds_kept();
                turn_to_face(&sim.move_context(&strongholds), turner, contactor)
            };
            if let Some(effect) = effect {
                sim.emit(Event::Outcome { effect }, &mut events);
                turned = true;
            }
        }
        let strongholds = sim.held_strongholds();
        // A clone starts with an empty per-state memo (cache.rs), so asking the clone would scan
        // every contact again; until something turns it is the very state `self` is, whose memo
        // already holds the close combats `pending_pair` just searched, among which it found
        // this pair: ask `self` then, without searching again.
        let mut situation = if turned {
            close_combat_situation(&sim.move_context(&strongholds), a, b)
        } else {
            // The pair was found among this state's close combats, just above.
            close_combat_situation_of_known_pair(&self.move_context(&strongholds), a, b)
        }
        .map_err(BattleError::Engagement)?;
        // §14.4, §14.5: the C-in-C's +1 and a demoralised command's −2 (outside a stronghold,
        // which the combat rules decide).
        let side_of = |id: ElementId| if id == a { 0 } else { 1 };
        for (id, army) in &bonus {
            match side_of(*id) {
                0 => situation.a.cinc_bonus = true,
                _ => situation.b.cinc_bonus = true,
            }
            sim.emit(
                Event::CInCBonusUsed {
                    army: *army,
                    id: *id,
                },
                &mut events,
            );
        }
        if sim.element(a).is_some() && sim.demoralised(a) {
            situation.a.demoralised = true;
        }
        if sim.element(b).is_some() && sim.demoralised(b) {
            situation.b.demoralised = true;
        }
        let result = resolve(&situation, dice, &self.setup.config).map_err(BattleError::Combat)?;
        let (oa, ob, pursuit) = (result.a.outcome, result.b.outcome, result.pursuit);
        // The stronghold a defender holds, for a winner moving in (§4.7).
        let held_by = |id: ElementId| {
            if let Some(h) = strongholds.iter().find(|h| h.civilians == Some(id)) {
                return Some(h.clone());
            }
            let r = sim.element(id)?.rect(&sim.setup.config);
            strongholds
                .iter()
                .find(|h| r.corners().iter().all(|c| h.perimeter.contains(*c)))
                .cloned()
        };
        let perimeters = [held_by(a), held_by(b)];
        let fought_at = events.len();
        sim.emit(
            Event::Fought {
                a,
                b,
                result: Box::new(result),
            },
            &mut events,
        );
        sim.outcome_of(a, Some(b), oa, false, own_depth, &mut events);
        sim.outcome_of(b, Some(a), ob, false, own_depth, &mut events);
        for (id, o, held) in [(a, oa, &perimeters[0]), (b, ob, &perimeters[1])] {
            if o == Outcome::Destroyed {
                if let Some(h) = held.as_ref().filter(|h| h.civilians == Some(id)) {
                    let e = sim.civilians_destroyed(h);
                    sim.emit(e, &mut events);
                }
            }
        }
        if let Some(p) = pursuit {
            let (pursuer, beaten) = match p.side {
                Side::A => (a, b),
                Side::B => (b, a),
            };
            if sim.element(pursuer).is_some_and(|e| e.in_play()) {
                let beaten_place = perimeters[usize::from(beaten == b)].clone();
                if p.into == Some(Stronghold::Camp) {
                    let owner = beaten_place.as_ref().map(|h| (h.army, h.command));
                    if let Some((army, command)) = owner {
                        sim.emit(Event::CampSacked { army, command }, &mut events);
                    }
                }
                let column = sim.column_behind(pursuer);
                let strongholds = sim.held_strongholds_kept();
                let ctx = sim.move_context(&strongholds);
                let effects = match (p.into, &beaten_place) {
                    (Some(_), Some(h)) => enter_stronghold(&ctx, pursuer, p.distance, &h.perimeter),
                    _ => pursue(&ctx, pursuer, p.distance),
                };
                if !effects.is_empty() {
                    sim.pursued.push(pursuer);
                } else if let Some(Event::Fought { result, .. }) = events.get_mut(fought_at) {
                    // §12.5: the follow-up was not made (an edge or bad going ahead, already in
                    // a stronghold, Elephants not entering one...): the event must not report it.
                    result.pursuit = None;
                }
                for effect in effects {
                    sim.emit(Event::Outcome { effect }, &mut events);
                }
                // §12.5: every element in column behind a pursuer follows it up, as far as the
                // element in front of it moved (not into a stronghold: only the winner enters).
                if p.into.is_none() {
                    let mut ahead = pursuer;
                    let mut ahead_from = column.first().map(|(_, pose)| *pose);
                    for (follower, _) in &column {
                        let moved = match (ahead_from, sim.element(ahead)) {
                            (Some(from), Some(e)) => from.front_mid().distance(e.pose.front_mid()),
                            _ => 0.0,
                        };
                        if moved <= crate::geometry::TOLERANCE {
                            break;
                        }
                        ahead_from = sim.element(*follower).map(|e| e.pose);
                        let strongholds = sim.held_strongholds_kept();
                        let effects = pursue(&sim.move_context(&strongholds), *follower, moved);
                        if !effects.is_empty() {
                            sim.pursued.push(*follower);
                        }
                        for effect in effects {
                            sim.emit(Event::Outcome { effect }, &mut events);
                        }
                        ahead = *follower;
                    }
                }
                // §4.2, §12.5: the assaulter that moved into a City takes it and sacks it.
                if let (Some(Stronghold::City), Some(h)) = (p.into, &beaten_place) {
                    let by = sim.element(pursuer).map_or(0, |e| e.army);
                    if let Some(city) = sim.city_at(&h.perimeter) {
                        sim.emit(
                            Event::CityCaptured {
                                city,
                                by,
                                sacker: Some(pursuer),
                            },
                            &mut events,
                        );
                    }
                }
            }
        }
        sim.continue_bound(Phase::CloseCombat, &mut events);
        Ok((events, sim))
    }

    /// §12.6, §8.3: elements in front-edge contact without lining up when the close combats begin,
    /// or still so when a combat ends, conform: the one not of the moving army first (it is the contacted one, §8.3), else the
    /// other. A pair where neither can fights as if in full front contact (see
    /// [`super::engagement::CombatContact::NotLinedUp`]).
    fn conform_after_combat(&mut self, events: &mut Vec<Event>) {
        for _ in 0..self.elements.len() {
            let strongholds = self.held_strongholds_kept();
            let ctx = self.move_context(&strongholds);
            // The state's contacts between enemies: the close combats asked next read the same.
            let mut pairs: Vec<(ElementId, ElementId)> = with_enemy_contacts(&ctx, |contacts| {
                contacts
                    .iter()
                    .filter(|r| !r.same_side && super::movement::must_conform(&r.contact))
                    .map(|r| {
                        let (a, b) = (&self.elements[r.a as usize], &self.elements[r.b as usize]);
                        if a.army == self.active {
                            (b.id, a.id)
                        } else {
                            (a.id, b.id)
                        }
                    })
                    .collect()
            });
            pairs.sort();
            let effect = pairs
                .iter()
                .find_map(|&(x, y)| conform(&ctx, x, y).or_else(|| conform(&ctx, y, x)));
            match effect {
                Some(effect) => self.emit(Event::Outcome { effect }, events),
                None => break,
            }
        }
    }

    /// The elements in column behind `id`, nearest first, each with the pose of the element in
    /// front of it (the first: `id`'s own pose): friends facing the same way whose front edge
    /// lies along the rear edge of the one in front (§7.4, §12.5).
    fn column_behind(&self, id: ElementId) -> Vec<(ElementId, Pose)> {
        let cfg = &self.setup.config;
        let mut out = Vec::new();
        let mut current = id;
        while let Some(front) = self.element(current) {
            let rear = front.rect(cfg).edge(crate::geometry::Edge::Rear).midpoint();
            let next = self.elements.iter().find(|e| {
                e.in_play()
                    && e.army == front.army
                    && e.id != current
                    && !out.iter().any(|(o, _)| *o == e.id)
                    && e.id != id
                    && angle_diff(e.pose.facing, front.pose.facing).abs() <= 0.5
                    && e.pose.front_mid().near(rear)
            });
            match next {
                Some(e) => {
                    out.push((e.id, front.pose));
                    current = e.id;
                }
                None => break,
            }
        }
        out
    }

    /// The event for the civilians defending `h` destroyed (§4.2, §4.6).
    fn civilians_destroyed(&self, h: &HeldStronghold) -> Event {
        match self.city_at(&h.perimeter) {
            Some(city) => Event::DenizensDestroyed { city },
            None => Event::CampFollowersDestroyed {
                army: h.army,
                command: h.command,
            },
        }
    }

    /// The feature index of the City with this outline.
    pub(super) fn city_at(&self, outline: &crate::geometry::Polygon) -> Option<usize> {
        self.cities.iter().map(|c| c.feature).find(|&f| {
            matches!(
                self.setup.battlefield.features.get(f),
                Some(TerrainFeature::Area(a)) if a.outline == *outline
            )
        })
    }

    /// What `army`'s Cities held by the enemy add to its losses (§13.2, §17.31): for each City it
    /// owned that an enemy controls and occupies (sacking it, or with an element wholly inside)
    /// at the end of a bound, 2 if the army has no camp (it used the City instead), else 1.
    pub fn city_held(&self, army: usize) -> u32 {
        let cfg = &self.setup.config;
        let per_city = if self.setup.armies[army].camp.is_none() {
            2
        } else {
            1
        };
        self.cities
            .iter()
            .filter(|c| c.owner == Some(army))
            .filter(|c| {
                let Some(holder) = c.controller.filter(|&h| h != army) else {
                    return false;
                };
                let sacker = c
                    .sacker
                    .and_then(|id| self.element(id))
                    .is_some_and(|e| e.in_play() && e.army == holder);
                let outline = match self.setup.battlefield.features.get(c.feature) {
                    Some(TerrainFeature::Area(a)) => &a.outline,
                    _ => return false,
                };
                sacker
                    || self.elements.iter().any(|e| {
                        e.in_play()
                            && e.army == holder
                            && e.rect(cfg).corners().iter().all(|p| outline.contains(*p))
                    })
            })
            .count() as u32
            * per_city
    }

    /// Commit and record one event on this (simulated) battle. A garrison destroyed inside a
    /// City its army controls leaves the City without denizens (§4.2: if the garrison is
    /// destroyed, they do not defend it), which a [`Event::DenizensDestroyed`] records.
    pub(super) fn emit(&mut self, e: Event, events: &mut Vec<Event>) {
        let garrison_city = match &e {
            Event::Outcome {
                effect: Effect::Destroyed { id, .. },
            } => self.garrisoned_city(*id),
            _ => None,
        };
        self.commit(&e);
        events.push(e);
        if let Some(city) = garrison_city {
            let e = Event::DenizensDestroyed { city };
            self.commit(&e);
            events.push(e);
        }
    }

    /// The City whose denizens still stand and whose controlling army element `id` garrisons.
    fn garrisoned_city(&self, id: ElementId) -> Option<usize> {
        let e = self.element(id)?;
        let r = e.rect(&self.setup.config);
        self.cities
            .iter()
            .find(|c| {
                c.controller == Some(e.army)
                    && c.denizens != Denizens::Destroyed
                    && matches!(
                        self.setup.battlefield.features.get(c.feature),
                        Some(TerrainFeature::Area(a)) if r.corners().iter().all(|p| a.outline.contains(*p))
                    )
            })
            .map(|c| c.feature)
    }

    /// The outcome moves of one element (§12).
    fn outcome_of(
        &mut self,
        id: ElementId,
        opponent: Option<ElementId>,
        outcome: Outcome,
        shot_from_behind: bool,
        own_depth: &[ElementId],
        events: &mut Vec<Event>,
    ) {
        if !self.element(id).is_some_and(|e| e.in_play()) {
            return;
        }
        let strongholds = self.held_strongholds_kept();
        let ctx = self.move_context(&strongholds);
        let effects = match outcome {
            Outcome::NoEffect => Vec::new(),
            Outcome::Destroyed => vec![Effect::Destroyed {
                id,
                reason: "§12.3: destroyed in combat".into(),
            }],
            // §12.1: mounted recoil their full 1 BW unless the owner chose their depth on the
            // action that resolved the shot or combat.
            Outcome::Recoil => recoil(
                &ctx,
                id,
                opponent,
                shot_from_behind,
                !own_depth.contains(&id),
            ),
            Outcome::Flee => {
                let army = self.element(id).map_or(0, |e| e.army);
                flee(&ctx, id, self.setup.armies[army].base_edge)
            }
        };
        for effect in effects {
            self.emit(Event::Outcome { effect }, events);
        }
    }

    /// Apply an outcome effect to the state.
    pub(super) fn commit_effect(&mut self, effect: &Effect) {
        let set_pose = |b: &mut Battle, id: ElementId, to: Pose| {
            if let Some(e) = b.elements.iter_mut().find(|e| e.id == id) {
                e.pose = to.snapped();
            }
        };
        let set_lost = |b: &mut Battle, id: ElementId, cause: LossCause| {
            if let Some(e) = b.elements.iter_mut().find(|e| e.id == id) {
                e.status = Status::Lost { cause };
            }
        };
        match effect {
            Effect::Moved { id, to, .. } | Effect::TurnedToFace { id, to, .. } => {
                set_pose(self, *id, *to)
            }
            Effect::Destroyed { id, .. } => {
                self.stop_sacking(*id);
                set_lost(self, *id, LossCause::Destroyed)
            }
            Effect::LostOffTable { id, .. } => {
                self.stop_sacking(*id);
                set_lost(self, *id, LossCause::OffTable)
            }
        }
    }

    /// A lost element sacks no more (§4.2); the City stays under its army's control until another
    /// army enters it.
    fn stop_sacking(&mut self, id: ElementId) {
        for c in &mut self.cities {
            if c.sacker == Some(id) {
                c.sacker = None;
            }
        }
    }
}
