//! [`Prebattle::check`]: the events an action would cause, or the rule that refuses it (DBA3.md
//! §5.1 aggression, §3.7–§3.8 terrain, §5.2 base edges, §4.6 camps, §5.3–§5.4 deployment).

use super::*;

impl Prebattle {
    /// The events `action` would cause; changes nothing.
    pub fn check(&self, action: &PrebattleAction) -> Result<Vec<PrebattleEvent>, PrebattleError> {
        use PrebattleAction as A;
        use PrebattleEvent as E;
        let defender = self.defender.unwrap_or(0);
        let invader = 1 - defender;
        match (action, self.step) {
            (A::RollAggression { dice }, Step::Aggression) => {
                let n = self.setup.armies.len();
                if dice.len() != n {
                    return Err(PrebattleError::DiceCount {
                        given: dice.len(),
                        armies: n,
                    });
                }
                let totals: Vec<u8> = dice
                    .iter()
                    .zip(&self.setup.armies)
                    .map(|(d, a)| d.get() + a.aggression)
                    .collect();
                let mut ev = vec![E::AggressionRolled {
                    dice: dice.clone(),
                    totals: totals.clone(),
                }];
                if totals[0] == totals[1] {
                    ev.push(E::AggressionTied);
                } else {
                    let d = if totals[0] < totals[1] { 0 } else { 1 };
                    ev.push(E::RolesDecided {
                        defender: d,
                        invader: 1 - d,
                    });
                }
                Ok(ev)
            }
            (
                A::ChooseFeatures {
                    compulsory,
                    optional,
                },
                Step::ChooseFeatures { defender },
            ) => {
                let home = self.setup.armies[defender].home_terrain;
                let problems = check_home_terrain(home, self.setup.variant, compulsory, optional);
                if !problems.is_empty() {
                    return Err(PrebattleError::HomeTerrain { problems });
                }
                let chosen: Vec<FeatureType> = compulsory.iter().chain(optional).copied().collect();
                if !chosen.iter().any(|&t| difficult(t)) {
                    return Err(PrebattleError::NoDifficultTerrain { chosen });
                }
                let mut order: Vec<FeatureType> = chosen
                    .iter()
                    .copied()
                    .filter(|&t| t == FeatureType::Waterway)
                    .collect();
                order.extend(
                    chosen
                        .iter()
                        .copied()
                        .filter(|&t| t != FeatureType::Waterway),
                );
                Ok(vec![E::FeaturesChosen { order }])
            }
            (A::RollPlacement { die }, Step::PlacementDie { feature }) => {
                let (quarter, chooser) = match die.get() {
                    d @ 1..=4 => (Some(Quarter(d)), None),
                    5 => (None, Some(defender)),
                    _ => (None, Some(invader)),
                };
                Ok(vec![E::PlacementRolled {
                    feature: self.features[feature],
                    die: *die,
                    quarter,
                    chooser,
                }])
            }
            (A::ChooseQuarter { quarter }, Step::ChooseQuarter { by, .. }) => {
                if !(1..=4).contains(&quarter.0) {
                    return Err(PrebattleError::NoSuchQuarter { quarter: *quarter });
                }
                Ok(vec![E::QuarterChosen {
                    by,
                    quarter: *quarter,
                }])
            }
            (A::PlaceFeature { feature: f }, Step::PlaceFeature { feature, quarter }) => {
                let expected = self.features[feature];
                if f.feature_type() != expected {
                    return Err(PrebattleError::WrongFeature {
                        expected,
                        given: f.feature_type(),
                    });
                }
                let problems =
                    placement_problems(&self.battlefield, f, quarter, self.setup.variant);
                if !problems.is_empty() {
                    return Err(PrebattleError::Placement { problems });
                }
                let mut ev = vec![E::FeaturePlaced {
                    index: self.battlefield.features.len(),
                    quarter,
                    feature: f.clone(),
                }];
                self.repeat_if_needed(feature, Some(f), None, &mut ev);
                Ok(ev)
            }
            (A::DiscardFeature, Step::PlaceFeature { feature, quarter }) => {
                let t = self.features[feature];
                let kinds: &[AreaKind] = if t == FeatureType::Bua {
                    &BUA_KINDS
                } else {
                    &[AreaKind::Hamlet]
                };
                for &k in kinds {
                    if find_placement(&self.battlefield, t, k, quarter, self.setup.variant, 0)
                        .is_some()
                    {
                        return Err(PrebattleError::CanBePlaced {
                            feature: t,
                            quarter,
                        });
                    }
                }
                let mut ev = vec![E::FeatureDiscarded {
                    feature: t,
                    quarter,
                }];
                self.repeat_if_needed(feature, None, Some(t), &mut ev);
                Ok(ev)
            }
            (A::ChooseBaseEdge { edge }, Step::BaseEdge { .. }) => {
                let allowed = self.allowed_base_edges();
                if !allowed.contains(edge) {
                    return Err(PrebattleError::BaseEdge {
                        edge: *edge,
                        allowed,
                    });
                }
                Ok(vec![E::BaseEdgesChosen {
                    invader: *edge,
                    defender: edge.opposite(),
                }])
            }
            (A::DeclarePipAllocation { allocation }, Step::PipAllocation { army }) => {
                let refuse = |reason: String| Err(PrebattleError::PipAllocation { reason });
                match allocation {
                    PipAllocation::EachRolls if self.setup.variant != Variant::Giant => {
                        return refuse(
                            "only in Giant may every general roll his own die (§14.6); a Big Battle army ranks its non-allied commands".into(),
                        );
                    }
                    PipAllocation::EachRolls => {}
                    PipAllocation::Ranked { order } => {
                        let mut given = order.clone();
                        given.sort();
                        let mut wanted = self.non_allied(army);
                        wanted.sort();
                        if given != wanted {
                            return refuse(format!(
                                "the ranking must name each non-allied command of army {army} once ({}); allied commands keep their own die",
                                crate::terrain::listed(&wanted)
                            ));
                        }
                    }
                }
                Ok(vec![E::PipAllocationDeclared {
                    army,
                    allocation: allocation.clone(),
                }])
            }
            (
                A::PlaceCamp {
                    outline,
                    camp_followers,
                },
                Step::Camp { army, command },
            ) => {
                let reasons = self.camp_problems(army, outline);
                if !reasons.is_empty() {
                    return Err(PrebattleError::Camp { reasons });
                }
                Ok(vec![E::CampPlaced {
                    army,
                    command,
                    outline: outline.clone(),
                    camp_followers: *camp_followers,
                }])
            }
            (A::NoCamp, Step::Camp { army, command }) => {
                if self.camp_compulsory_for(army, command) {
                    return Err(PrebattleError::CampCompulsory { army });
                }
                Ok(vec![E::CampOmitted { army, command }])
            }
            (A::Deploy { id, pose }, Step::Deployment { army }) => {
                let index = self.index_deploying(army, *id)?;
                // Held back for a landing (§5.5) counts as deployed: it lands in the battle.
                if self.poses[army][index].is_some() || self.held_back.contains(id) {
                    return Err(PrebattleError::AlreadyDeployed { id: *id });
                }
                self.one_command_a_turn(army, index)?;
                let pose = pose.snapped();
                let garrison = self.deployment_check(army, index, pose)?;
                Ok(vec![E::ElementDeployed {
                    army,
                    id: *id,
                    pose,
                    garrison,
                }])
            }
            (A::HoldBack { id }, Step::Deployment { army }) => {
                let index = self.index_deploying(army, *id)?;
                if self.poses[army][index].is_some() || self.held_back.contains(id) {
                    return Err(PrebattleError::AlreadyDeployed { id: *id });
                }
                let landing = |reason: String| Err(PrebattleError::Landing { reason });
                let entry = &self.setup.armies[army];
                let command = entry.command_of(index);
                // §14.3: a landing command is of a Littoral army: an allied command's own list.
                let littoral = match command {
                    Some(c) if c.allied => c.littoral,
                    _ => entry.littoral,
                };
                if !littoral {
                    return landing(format!(
                        "army {army}'s list does not give Littoral home terrain"
                    ));
                }
                self.one_command_a_turn(army, index)?;
                let waterway = self
                    .battlefield
                    .features
                    .iter()
                    .any(|f| matches!(f, TerrainFeature::Waterway(_)));
                if !waterway {
                    return landing("there is no waterway on the table".into());
                }
                let kind = self.setup.armies[army].elements[index].kind;
                if matches!(
                    kind.troop_type(),
                    TroopType::El | TroopType::WWg | TroopType::Art
                ) {
                    return landing(format!(
                        "element {id} is {}: Elephants, War Wagons and Artillery never land",
                        kind.code()
                    ));
                }
                if let Some(c) = command {
                    // §14.3: the landing is one whole command.
                    let other = self.held_back.iter().find(|h| {
                        (0..entry.elements.len())
                            .any(|i| element_id(army, i) == **h && !c.elements.contains(&i))
                    });
                    if let Some(h) = other {
                        return landing(format!(
                            "element {h} of another command is held back already: in Big Battle and Giant a landing is one whole command (§14.3)"
                        ));
                    }
                } else if self.held_back_by(army) >= 3 {
                    return landing("a landing is at most 3 elements".into());
                }
                Ok(vec![E::ElementHeldBack { army, id: *id }])
            }
            (A::EndDeployment, Step::Deployment { army }) if self.setup.is_by_command() => {
                self.end_command_turn(army, defender)
            }
            (A::EndDeployment, Step::Deployment { army }) => {
                if self.held_back_by(army) == 1 {
                    return Err(PrebattleError::Landing {
                        reason: "a landing is at least 2 elements: hold back another or deploy it"
                            .into(),
                    });
                }
                let ids = self.remaining(army);
                if !ids.is_empty() {
                    return Err(PrebattleError::NotAllDeployed { ids });
                }
                if Some(army) == self.defender {
                    for (i, a) in self.battlefield.areas() {
                        if a.kind == AreaKind::Fort && !self.garrisons.iter().any(|g| g.1 == i) {
                            return Err(PrebattleError::FortUngarrisoned { feature: i });
                        }
                    }
                }
                let mut ev = vec![E::DeploymentEnded { army }];
                if army == invader {
                    ev.push(E::BattleReady { first: defender });
                }
                Ok(ev)
            }
            (a, _) => Err(self.wrong(a)),
        }
    }

    /// The end of a Big Battle or Giant army's turn of deployment (§14.3): every command begun is
    /// whole (placed, or wholly held back to land); once all of the army's commands are out, the
    /// end-of-deployment checks of the standard game (a Fort garrisoned).
    pub(super) fn end_command_turn(
        &self,
        army: usize,
        defender: usize,
    ) -> Result<Vec<PrebattleEvent>, PrebattleError> {
        let entry = &self.setup.armies[army];
        let turn = self.turn_commands(army);
        if turn.is_empty() {
            return Err(PrebattleError::CommandTurn {
                reason: format!(
                    "army {army} has set out no command this turn: a turn sets out at least one whole command"
                ),
            });
        }
        let mut ids = Vec::new();
        for c in entry.commands.iter().filter(|c| turn.contains(&c.id)) {
            ids.extend(
                c.elements
                    .iter()
                    .filter(|&&i| !self.settled(army, i))
                    .map(|&i| element_id(army, i)),
            );
            let held = c
                .elements
                .iter()
                .filter(|&&i| self.held_back.contains(&element_id(army, i)))
                .count();
            if held > 0 && held < c.elements.len() {
                return Err(PrebattleError::Landing {
                    reason: format!(
                        "{held} of the {} elements of army {army}'s {} are held back: in Big Battle and Giant a landing is one whole command (§14.3)",
                        c.elements.len(),
                        c.id
                    ),
                });
            }
        }
        if !ids.is_empty() {
            return Err(PrebattleError::NotAllDeployed { ids });
        }
        let done = self.deployed_commands(army).len() + turn.len();
        let all_out = done == entry.commands.len();
        if all_out && army == defender {
            for (i, a) in self.battlefield.areas() {
                if a.kind == AreaKind::Fort && !self.garrisons.iter().any(|g| g.1 == i) {
                    return Err(PrebattleError::FortUngarrisoned { feature: i });
                }
            }
        }
        let mut ev = vec![PrebattleEvent::CommandsDeployed {
            army,
            commands: turn,
        }];
        if all_out {
            ev.push(PrebattleEvent::DeploymentEnded { army });
            let other = 1 - army;
            if self.deployed_commands(other).len() == self.setup.armies[other].commands.len() {
                ev.push(PrebattleEvent::BattleReady { first: defender });
            }
        }
        Ok(ev)
    }

    /// After the last feature: when the table (with `placed`) has no bad-going, rough-going,
    /// river or waterway feature, the last such feature discarded (with `discarding`) is rolled
    /// for again.
    pub(super) fn repeat_if_needed(
        &self,
        feature: usize,
        placed: Option<&TerrainFeature>,
        discarding: Option<FeatureType>,
        ev: &mut Vec<PrebattleEvent>,
    ) {
        if feature + 1 < self.features.len() {
            return;
        }
        let hard = |f: &TerrainFeature| match f {
            TerrainFeature::Area(a) => matches!(
                a.kind.going(GoingContext::default()),
                Some(Going::Rough | Going::Bad)
            ),
            _ => !matches!(f, TerrainFeature::Road(_)),
        };
        if self.battlefield.features.iter().chain(placed).any(hard) {
            return;
        }
        // The most recently discarded such feature that still fits in some quarter.
        let table = match placed {
            Some(f) => {
                let mut t = self.battlefield.clone();
                t.features.push(f.clone());
                t
            }
            None => self.battlefield.clone(),
        };
        let mut tried = Vec::new();
        let again = self
            .discarded
            .iter()
            .copied()
            .chain(discarding)
            .rev()
            .filter(|&t| difficult(t))
            .find(|&t| {
                if tried.contains(&t) {
                    return false;
                }
                tried.push(t);
                (1..=4).any(|q| {
                    find_placement(
                        &table,
                        t,
                        AreaKind::Hamlet,
                        Quarter(q),
                        self.setup.variant,
                        0,
                    )
                    .is_some()
                })
            });
        if let Some(t) = again {
            ev.push(PrebattleEvent::PlacementRepeated { feature: t });
        }
    }
}
