//! Checking an action: [`Battle::check`] plays it out on the state or a clone and returns the
//! events or the rule that forbids it (§6.1 phases, §4.2–§4.7 who may enter a stronghold, the
//! movement of §7 and §8), changing nothing.

use super::*;

impl Battle {
    /// Elephants, Scythed Chariots and War Wagons may not end a move inside a City, nor inside a
    /// Fort unless the rules configuration lifts §17.37's exclusion (§4.2, §4.3, §17.36).
    pub(super) fn check_occupiers(&self, moves: &[ElementMove]) -> Result<(), BattleError> {
        let cfg = &self.setup.config;
        for m in moves {
            let Some(e) = self.element(m.id) else {
                continue;
            };
            let kind = m.becomes.unwrap_or(e.kind);
            if !matches!(
                kind.troop_type(),
                TroopType::El | TroopType::SCh | TroopType::WWg
            ) {
                continue;
            }
            let r = ElementRect::new(m.to.snapped(), 1.0, cfg.depth(kind));
            let barred = self.setup.battlefield.areas().any(|(_, a)| {
                (a.kind == AreaKind::City
                    || (a.kind == AreaKind::Fort && cfg.combat.fort_occupier_exclusion))
                    && wholly_in(&r, &a.outline)
            });
            if barred {
                return Err(BattleError::MayNotOccupy { id: m.id, kind });
            }
        }
        Ok(())
    }

    /// A camp-follower element may leave its own camp but never come back (§4.6): a move of one
    /// that does not start wholly inside its army's camp may not end reaching into it. (Reading:
    /// "leaving" is any position not wholly inside, so camp followers deployed outside the camp
    /// never enter it either.)
    pub(super) fn check_camp_followers(&self, moves: &[ElementMove]) -> Result<(), BattleError> {
        let cfg = &self.setup.config;
        for m in moves {
            let Some(e) = self.element(m.id) else {
                continue;
            };
            if e.kind.troop_type() != TroopType::CampFollowers {
                continue;
            }
            let Some(camp) = self.own_camp(e) else {
                continue;
            };
            if wholly_in(&e.rect(cfg), camp) {
                continue;
            }
            let end = ElementRect::new(m.to.snapped(), 1.0, cfg.depth(e.kind));
            let deep = |p: crate::geometry::Point| {
                camp.contains_strictly(p)
                    && camp
                        .edges()
                        .all(|w| w.distance_to_point(p) > crate::geometry::TOLERANCE)
            };
            let reaches_in = end.corners().iter().any(|c| deep(*c)) || deep(end.centre());
            if reaches_in {
                return Err(BattleError::CampFollowersMayNotReturn { id: m.id });
            }
        }
        Ok(())
    }

    /// What a tactical move's end positions take (§4.2, §4.6, §17.44): an element ending wholly
    /// inside a City that its army does not control, and that no element and no denizens defend,
    /// occupies it; one ending wholly inside an enemy camp that nobody defends sacks it.
    pub(super) fn entries(&self, moves: &[ElementMove]) -> Vec<Event> {
        let cfg = &self.setup.config;
        let mut v = Vec::new();
        for m in moves {
            let Some(e) = self.element(m.id) else {
                continue;
            };
            let r = ElementRect::new(m.to.snapped(), 1.0, cfg.depth(m.becomes.unwrap_or(e.kind)));
            let wholly = |p: &Polygon| r.corners().iter().all(|c| p.contains(*c));
            let occupied = |p: &Polygon| {
                self.elements
                    .iter()
                    .any(|o| o.in_play() && o.id != e.id && wholly_in(&o.rect(cfg), p))
            };
            for c in &self.cities {
                let Some(TerrainFeature::Area(area)) =
                    self.setup.battlefield.features.get(c.feature)
                else {
                    continue;
                };
                let defended = c.controller.is_some()
                    && matches!(c.denizens, Denizens::Loyal | Denizens::Surrendered);
                if c.controller != Some(e.army)
                    && wholly(&area.outline)
                    && !occupied(&area.outline)
                    && !defended
                {
                    v.push(Event::CityCaptured {
                        city: c.feature,
                        by: e.army,
                        sacker: None,
                    });
                }
            }
            for camp in self.camp_refs() {
                let (army, command) = (camp.army, camp.command);
                let sacked = Event::CampSacked { army, command };
                if army != e.army
                    && wholly(camp.outline)
                    && !self.camp_is_sacked(army, command)
                    && !self.camp_followers_hold(army, command)
                    && !occupied(camp.outline)
                    && !v.contains(&sacked)
                {
                    v.push(sacked);
                }
            }
        }
        v
    }

    /// What moves may read, with the strongholds of [`Battle::held_strongholds`].
    pub fn move_context<'a>(&'a self, strongholds: &'a [HeldStronghold]) -> MoveContext<'a> {
        let mut ctx = MoveContext {
            strongholds,
            battlefield: &self.setup.battlefield,
            config: &self.setup.config,
            elements: &self.elements,
            army: self.active,
            river: self.river,
            plough_rough: self.plough_rough,
            first_bound_of_army: self.first_bound_of_active(),
            close_combat: None,
            refusals: Refusals::Named,
        };
        ctx.close_combat = self.cache.close_combat(&ctx);
        ctx
    }

    /// The events `action` would cause, or why it is refused. Changes nothing.
    ///
    /// ```
    /// use dbcore::battle::{Action, Battle, BattleError, Event};
    /// use dbcore::error::ErrorInfo;
    /// use dbcore::DieScore;
    ///
    /// let battle = Battle::new(dbcore::driver::demo_setup()).unwrap();
    /// let roll = Action::RollPips { die: DieScore::new(3).unwrap() };
    /// let events = battle.check(&roll).unwrap();
    /// assert!(events.iter().any(|e| matches!(e, Event::PipsRolled { pips: 3, .. })));
    /// assert!(battle.actions().is_empty()); // checking changed nothing
    ///
    /// // Ending the movement before the PIP die is rolled is refused, naming §6.1.
    /// let err = battle.check(&Action::EndMovement).unwrap_err();
    /// assert!(matches!(err, BattleError::WrongPhase { .. }));
    /// assert_eq!(err.rule(), Some("§6.1"));
    /// ```
    pub fn check(&self, action: &Action) -> Result<Vec<Event>, BattleError> {
        self.check_simulated(action, Refusals::Named)
            .map(|(events, _)| events)
    }

    /// [`Battle::check`], with the state the check simulated when it played the action out on a
    /// clone (the end of the tactical moves, a shot, a close combat): the state committing the
    /// events gives, which [`Battle::apply`] adopts instead of committing them a second time.
    /// `refusals` says whether a refused tactical move names the first rule it breaks or any
    /// (see [`Refusals`]); every action accepted gives the same events either way.
    pub(in crate::battle) fn check_simulated(
        &self,
        action: &Action,
        refusals: Refusals,
    ) -> Result<(Vec<Event>, Option<Box<Battle>>), BattleError> {
        action.check_sizes()?;
        if let Phase::Finished { .. } = self.phase {
            return Err(BattleError::Finished);
        }
        let wrong = |name: &str| BattleError::WrongPhase {
            action: name.to_string(),
            phase: self.phase,
        };
        let plain = match action {
            Action::RollPips { die } => {
                if self.phase != Phase::AwaitingPips {
                    return Err(wrong("rolling PIPs"));
                }
                if self.has_commands() {
                    return Err(BattleError::CommandDice {
                        needed: self.rolling_commands().len(),
                        given: 1,
                    });
                }
                let mut v = vec![Event::PipsRolled {
                    army: self.active,
                    die: *die,
                    pips: die.get(),
                }];
                // §3.1, §17.13: the game's very first PIP score decides Plough.
                if self.bound == 1 && die.get() == 1 {
                    v.push(Event::PloughTurnedRough);
                }
                // §4.2, §17.32: a score of 5 or 6 ends the moving side's sacking.
                if die.get() >= 5 {
                    for c in &self.cities {
                        let Some(id) = c.sacker else { continue };
                        if self.element(id).is_some_and(|e| e.army == self.active) {
                            v.push(Event::SackingEnded {
                                city: c.feature,
                                id,
                            });
                        }
                    }
                }
                Ok(v)
            }
            Action::RollCommandPips { dice } => {
                if self.phase != Phase::AwaitingPips {
                    return Err(wrong("rolling PIPs"));
                }
                self.check_command_pips(dice)
            }
            Action::Hold { ids } => {
                if self.phase != Phase::Movement {
                    return Err(wrong("holding elements"));
                }
                self.check_hold(ids)
            }
            Action::Flee => {
                if self.phase != Phase::Movement {
                    return Err(wrong("the flight of the demoralised commands"));
                }
                if !self.flight_due() {
                    return Err(BattleError::NoFlightDue { army: self.active });
                }
                let mut sim = self.clone();
                let mut events = Vec::new();
                sim.demoralised_flight(&mut events);
                return Ok((events, Some(Box::new(sim))));
            }
            Action::DiceRiver { die } => {
                if self.phase != Phase::Movement {
                    return Err(wrong("dicing for the river"));
                }
                let has_river = self
                    .setup
                    .battlefield
                    .features
                    .iter()
                    .any(|f| matches!(f, TerrainFeature::River(_)));
                if !has_river {
                    return Err(BattleError::NoRiver);
                }
                if self.river.is_some() {
                    return Err(BattleError::RiverKnown);
                }
                let state = RiverState::from_die(die.get())
                    .map_err(|_| BattleError::Dice(DiceError(die.get().into())))?;
                Ok(vec![Event::RiverDiced { die: *die, state }])
            }
            Action::Move { order } => {
                if self.phase != Phase::Movement {
                    return Err(wrong("a tactical move"));
                }
                if self.flight_due() {
                    return Err(BattleError::FlightDue { army: self.active });
                }
                for &id in order_id_slice(order) {
                    let e = self.element(id).ok_or(BattleError::UnknownElement { id })?;
                    if e.army != self.active {
                        return Err(BattleError::NotYourElement { id, army: e.army });
                    }
                    if e.status == Status::Afloat {
                        return Err(BattleError::Landing {
                            reason: format!(
                                "element {id} is afloat: it comes ashore only by the landing"
                            ),
                        });
                    }
                    if !e.in_play() {
                        return Err(BattleError::ElementLost { id });
                    }
                    if self.sacking(id).is_some() {
                        return Err(BattleError::Sacking { id });
                    }
                }
                let command = self.paying_command(order)?;
                let strongholds = self.held_strongholds_kept();
                let ctx = MoveContext {
                    refusals,
                    ..self.move_context(&strongholds)
                };
                let plan = plan_move(&ctx, order).map_err(BattleError::Move)?;
                if let Some(c) = command.filter(|c| c.demoralised) {
                    self.check_demoralised_move(c, &plan)?;
                }
                let cost =
                    self.pip_cost_boxed(order, &plan, ctx.close_combat.map(|m| m.area_boxes(&ctx)));
                let available = command.map_or(self.pips, |c| c.pips);
                if cost.total > available {
                    return Err(BattleError::NotEnoughPips {
                        cost: cost.total,
                        left: available,
                    });
                }
                self.check_occupiers(&plan.moves)?;
                self.check_camp_followers(&plan.moves)?;
                self.check_sallied(&plan.moves)?;
                let left = available - cost.total;
                let entered = self.entries(&plan.moves);
                let mut v = vec![
                    Event::Moved {
                        movers: plan.movers,
                        moves: plan.moves,
                        distance: plan.distance,
                        along_road: plan.along_road,
                        into_contact: plan.into_contact,
                    },
                    Event::PipsSpent {
                        cost,
                        left,
                        command: command.map(|c| c.id),
                    },
                ];
                v.extend(entered);
                Ok(v)
            }
            Action::Land { ids, poses } => {
                if self.phase != Phase::Movement {
                    return Err(wrong("a landing"));
                }
                if self.flight_due() {
                    return Err(BattleError::FlightDue { army: self.active });
                }
                self.check_land(ids, poses)
            }
            Action::Sally { city, pose } => {
                if self.phase != Phase::Movement {
                    return Err(wrong("a sally"));
                }
                if self.flight_due() {
                    return Err(BattleError::FlightDue { army: self.active });
                }
                self.check_sally(*city, *pose)
            }
            Action::EndMovement => {
                if self.phase != Phase::Movement {
                    return Err(wrong("ending the tactical moves"));
                }
                let mut sim = self.clone();
                let mut events = Vec::new();
                // §14.5: a flight still due is made first.
                if sim.flight_due() {
                    sim.demoralised_flight(&mut events);
                }
                if let Some(e) = self.not_landed() {
                    sim.commit(&e);
                    events.push(e);
                }
                sim.continue_bound(Phase::Shooting, &mut events);
                return Ok((events, Some(Box::new(sim))));
            }
            Action::Shoot {
                shooter,
                target,
                support,
                dice,
                recoil_own_depth,
                shoots_back,
            } => {
                if self.phase != Phase::Shooting {
                    return Err(wrong("shooting"));
                }
                return self
                    .check_shot(
                        *shooter,
                        *target,
                        support,
                        *dice,
                        recoil_own_depth,
                        *shoots_back,
                    )
                    .map(|(events, sim)| (events, Some(Box::new(sim))));
            }
            Action::Fight {
                a,
                b,
                dice,
                recoil_own_depth,
                c_in_c_bonus,
            } => {
                if self.phase != Phase::CloseCombat {
                    return Err(wrong("close combat"));
                }
                return self
                    .check_fight(*a, *b, *dice, recoil_own_depth, c_in_c_bonus)
                    .map(|(events, sim)| (events, Some(Box::new(sim))));
            }
        };
        plain.map(|events| (events, None))
    }
}
