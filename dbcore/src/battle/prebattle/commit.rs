//! [`Prebattle::apply`] and the commit of each event: the step that follows each one.

use super::*;

impl Prebattle {
    /// Commit `action`: [`Prebattle::check`] and then its events.
    pub fn apply(
        &mut self,
        action: PrebattleAction,
    ) -> Result<Vec<PrebattleEvent>, PrebattleError> {
        let events = self.check(&action)?;
        for e in &events {
            self.commit(e);
        }
        self.actions.push(action);
        Ok(events)
    }

    pub(super) fn next_feature_step(&self, done: usize) -> Step {
        if done + 1 < self.features.len() {
            Step::PlacementDie { feature: done + 1 }
        } else {
            Step::BaseEdge {
                invader: 1 - self.defender.unwrap_or(0),
            }
        }
    }

    pub(super) fn commit(&mut self, e: &PrebattleEvent) {
        use PrebattleEvent as E;
        let defender = self.defender.unwrap_or(0);
        match e {
            E::AggressionRolled { .. } | E::AggressionTied => {}
            E::RolesDecided { defender, .. } => {
                self.defender = Some(*defender);
                self.step = Step::ChooseFeatures {
                    defender: *defender,
                };
            }
            E::FeaturesChosen { order } => {
                self.features = order.clone();
                self.step = Step::PlacementDie { feature: 0 };
            }
            E::PlacementRolled {
                quarter, chooser, ..
            } => {
                let Step::PlacementDie { feature } = self.step else {
                    return;
                };
                self.step = match (quarter, chooser) {
                    (Some(q), _) => Step::PlaceFeature {
                        feature,
                        quarter: *q,
                    },
                    (None, by) => Step::ChooseQuarter {
                        feature,
                        by: by.unwrap_or(defender),
                    },
                };
            }
            E::QuarterChosen { quarter, .. } => {
                if let Step::ChooseQuarter { feature, .. } = self.step {
                    self.step = Step::PlaceFeature {
                        feature,
                        quarter: *quarter,
                    };
                }
            }
            E::FeaturePlaced { feature, .. } => {
                self.battlefield.features.push(feature.clone());
                if let Step::PlaceFeature { feature, .. } = self.step {
                    self.step = self.next_feature_step(feature);
                }
            }
            E::FeatureDiscarded { feature: t, .. } => {
                self.discarded.push(*t);
                if let Step::PlaceFeature { feature, .. } = self.step {
                    self.step = self.next_feature_step(feature);
                }
            }
            E::PlacementRepeated { feature } => {
                self.features.push(*feature);
                self.step = Step::ChooseQuarter {
                    feature: self.features.len() - 1,
                    by: defender,
                };
            }
            E::BaseEdgesChosen {
                invader: i_edge,
                defender: d_edge,
            } => {
                self.base_edges[1 - defender] = Some(*i_edge);
                self.base_edges[defender] = Some(*d_edge);
                self.step = if self.setup.is_by_command() {
                    Step::PipAllocation { army: defender }
                } else {
                    Step::Camp {
                        army: defender,
                        command: None,
                    }
                };
            }
            E::PipAllocationDeclared { army, allocation } => {
                if let Some(p) = self.pip_allocations.get_mut(*army) {
                    *p = Some(allocation.clone());
                }
                self.step = if *army == defender {
                    Step::PipAllocation { army: 1 - defender }
                } else {
                    Step::Camp {
                        army: defender,
                        command: None,
                    }
                };
            }
            E::CampPlaced {
                army,
                command,
                outline,
                camp_followers,
            } => {
                match command {
                    None => {
                        self.camps[*army] = Some(outline.clone());
                        self.camp_followers[*army] = *camp_followers;
                    }
                    Some(c) => {
                        self.command_camps
                            .push((*army, *c, outline.clone(), *camp_followers))
                    }
                }
                self.step = self.after_camp(*army, *command);
            }
            E::CampOmitted { army, command } => {
                self.step = self.after_camp(*army, *command);
            }
            E::CommandsDeployed { army, commands } => {
                let first_turn = *army == defender && self.deployed_commands[*army].is_empty();
                self.deployed_commands[*army].extend(commands.iter().copied());
                let left = |p: &Prebattle, a: usize| {
                    p.deployed_commands[a].len() < p.setup.armies[a].commands.len()
                };
                if first_turn {
                    self.alternate = left(self, defender);
                }
                let other = 1 - *army;
                self.step = match (left(self, *army), left(self, other)) {
                    (false, false) => Step::Done,
                    (true, true) if self.alternate => Step::Deployment { army: other },
                    (true, _) => Step::Deployment { army: *army },
                    (false, true) => Step::Deployment { army: other },
                };
            }
            E::ElementDeployed {
                army,
                id,
                pose,
                garrison,
            } => {
                if let Some(i) = (0..self.poses[*army].len()).find(|&i| element_id(*army, i) == *id)
                {
                    self.poses[*army][i] = Some(*pose);
                }
                if let Some(g) = garrison {
                    self.garrisons.push((*id, *g));
                }
            }
            E::ElementHeldBack { id, .. } => self.held_back.push(*id),
            // Big Battle and Giant: the step was set by the turn's CommandsDeployed.
            E::DeploymentEnded { .. } if self.setup.is_by_command() => {}
            E::DeploymentEnded { army } => {
                self.step = if *army == defender {
                    Step::Deployment { army: 1 - defender }
                } else {
                    Step::Done
                };
            }
            E::BattleReady { .. } => self.step = Step::Done,
        }
    }

    /// The step after army `army`'s camp `command` (the army's own when `None`): its allied
    /// commands' own camps in command order (§14.3), then the other army's camps, defender first
    /// (§5.3), then the defender's deployment.
    pub(super) fn after_camp(&self, army: usize, command: Option<CommandId>) -> Step {
        let defender = self.defender.unwrap_or(0);
        let allied: Vec<CommandId> = self.setup.armies[army]
            .commands
            .iter()
            .filter(|c| c.allied)
            .map(|c| c.id)
            .collect();
        let next = match command {
            None => allied.first().copied(),
            Some(c) => allied
                .iter()
                .position(|&a| a == c)
                .and_then(|k| allied.get(k + 1).copied()),
        };
        if let Some(c) = next {
            return Step::Camp {
                army,
                command: Some(c),
            };
        }
        if army == defender {
            Step::Camp {
                army: 1 - defender,
                command: None,
            }
        } else {
            Step::Deployment { army: defender }
        }
    }
}
