//! What the pre-battle has reached and waits for (DBA3.md §3.7, §3.8, §4.6, §5): starting and
//! replaying it, its steps, base edges and camps, and the helpers the check shares.

use super::*;

impl Prebattle {
    /// Start the pre-battle: every problem of the entering armies is reported at once.
    pub fn new(setup: PrebattleSetup) -> Result<Prebattle, PrebattleError> {
        let mut problems = Vec::new();
        if setup.armies.len() != 2 {
            problems.push(EntryProblem::ArmyCount {
                count: setup.armies.len(),
            });
        }
        if setup.variant == Variant::Dbaix {
            problems.push(EntryProblem::Variant {
                variant: setup.variant,
            });
        }
        let multi = setup.is_by_command();
        if setup.depth_factor != 1.0
            && (setup.variant != Variant::Giant || !(1.0..=1.5).contains(&setup.depth_factor))
        {
            problems.push(EntryProblem::DepthFactor {
                factor: setup.depth_factor,
            });
        }
        if let Err(e) = setup.config.validate() {
            problems.push(EntryProblem::Config {
                message: e.to_string(),
            });
        }
        let side_ok = Board::standard(setup.board_side).is_ok();
        let board = setup.board();
        if !side_ok {
            problems.push(EntryProblem::BoardSide {
                side: setup.board_side,
            });
        }
        for a in &setup.armies {
            if a.aggression > 4 {
                problems.push(EntryProblem::Aggression {
                    army: a.name.clone(),
                    aggression: a.aggression,
                });
            }
            if a.elements.is_empty() || a.elements.len() > MAX_ENTRY_ELEMENTS {
                problems.push(EntryProblem::ElementCount {
                    army: a.name.clone(),
                    count: a.elements.len(),
                });
            } else if !multi && !setup.free_army_size {
                // §2.5: 12 troop elements; Big Battle and Giant are counted by their commands.
                let troops = a
                    .elements
                    .iter()
                    .filter(|e| !super::super::commands::is_civilian(e.kind.troop_type()))
                    .count();
                if troops != super::super::commands::ARMY_ELEMENTS {
                    problems.push(EntryProblem::ArmySize {
                        army: a.name.clone(),
                        count: troops,
                    });
                }
            }
            let generals = a
                .elements
                .iter()
                .filter(|e| e.general && e.contingent.is_none())
                .count();
            // Big Battle and Giant generals are checked with their commands (§14.1).
            if !multi && generals != 1 {
                problems.push(EntryProblem::Generals {
                    army: a.name.clone(),
                    count: generals,
                });
            }
            for c in &a.commands {
                for &index in c.elements.iter().chain([&c.general]) {
                    if index >= a.elements.len() {
                        problems.push(EntryProblem::CommandElement {
                            army: a.name.clone(),
                            command: c.id,
                            index,
                            count: a.elements.len(),
                        });
                    }
                }
            }
        }
        if problems.is_empty() && (multi || setup.armies.iter().any(|a| !a.commands.is_empty())) {
            let command_problems = entry_command_problems(&setup);
            if !command_problems.is_empty() {
                problems.push(EntryProblem::Commands {
                    problems: command_problems,
                });
            }
        }
        let Ok(board) = board else {
            return Err(PrebattleError::Entries { problems });
        };
        if !problems.is_empty() {
            return Err(PrebattleError::Entries { problems });
        }
        let n = setup.armies.len();
        Ok(Prebattle {
            step: Step::Aggression,
            actions: Vec::new(),
            defender: None,
            features: Vec::new(),
            discarded: Vec::new(),
            battlefield: Battlefield::new(board),
            base_edges: vec![None; n],
            camps: vec![None; n],
            camp_followers: vec![false; n],
            poses: setup
                .armies
                .iter()
                .map(|a| vec![None; a.elements.len()])
                .collect(),
            garrisons: Vec::new(),
            held_back: Vec::new(),
            pip_allocations: if multi { vec![None; n] } else { Vec::new() },
            command_camps: Vec::new(),
            deployed_commands: if multi {
                vec![Vec::new(); n]
            } else {
                Vec::new()
            },
            alternate: false,
            setup,
        })
    }

    /// Replay a saved pre-battle, returning it and every event.
    pub fn replay(
        record: &PrebattleRecord,
    ) -> Result<(Prebattle, Vec<PrebattleEvent>), GameReplayError> {
        let mut p = Prebattle::new(record.setup.clone()).map_err(GameReplayError::Entries)?;
        let mut events = Vec::new();
        for (index, a) in record.actions.iter().enumerate() {
            let e = p
                .apply(a.clone())
                .map_err(|error| GameReplayError::Prebattle { index, error })?;
            events.extend(e);
        }
        Ok((p, events))
    }

    /// The set-up and every action so far.
    pub fn record(&self) -> PrebattleRecord {
        PrebattleRecord {
            setup: self.setup.clone(),
            actions: self.actions.clone(),
        }
    }

    /// The armies and rules the pre-battle started from.
    pub fn setup(&self) -> &PrebattleSetup {
        &self.setup
    }
    /// The step the pre-battle is at.
    pub fn step(&self) -> Step {
        self.step
    }
    /// Every pre-battle action applied so far.
    pub fn actions(&self) -> &[PrebattleAction] {
        &self.actions
    }
    /// The defender, once the aggression dice have decided (§5.1).
    pub fn defender(&self) -> Option<usize> {
        self.defender
    }
    /// The invader, once decided.
    pub fn invader(&self) -> Option<usize> {
        self.defender.map(|d| 1 - d)
    }
    /// The chosen features in placing order (§3.8).
    pub fn features(&self) -> &[FeatureType] {
        &self.features
    }
    /// The table as laid out so far.
    pub fn battlefield(&self) -> &Battlefield {
        &self.battlefield
    }
    /// Army `army`'s base edge, once chosen.
    pub fn base_edge(&self, army: usize) -> Option<BoardEdge> {
        self.base_edges.get(army).copied().flatten()
    }
    /// Army `army`'s camp, once placed.
    pub fn camp(&self, army: usize) -> Option<&Polygon> {
        self.camps.get(army).and_then(|c| c.as_ref())
    }
    /// The pose of element `index` of army `army`, once deployed.
    pub fn pose(&self, army: usize, index: usize) -> Option<Pose> {
        self.poses.get(army)?.get(index).copied().flatten()
    }

    /// What the pre-battle waits for; `None` once it is done.
    pub fn awaiting(&self) -> Option<PrebattleRequest> {
        Some(match self.step {
            Step::Aggression => PrebattleRequest::AggressionDice {
                armies: self.setup.armies.len(),
            },
            Step::ChooseFeatures { defender } => PrebattleRequest::Features {
                army: defender,
                home_terrain: self.setup.armies[defender].home_terrain,
            },
            Step::PlacementDie { feature } => PrebattleRequest::PlacementDie {
                feature: self.features[feature],
            },
            Step::ChooseQuarter { feature, by } => PrebattleRequest::Quarter {
                army: by,
                feature: self.features[feature],
            },
            Step::PlaceFeature { feature, quarter } => PrebattleRequest::Placement {
                army: self.defender.unwrap_or(0),
                feature: self.features[feature],
                quarter,
            },
            Step::BaseEdge { invader } => PrebattleRequest::BaseEdge {
                army: invader,
                allowed: self.allowed_base_edges(),
            },
            Step::PipAllocation { army } => PrebattleRequest::PipAllocation {
                army,
                ranked: self.non_allied(army),
                each_rolls_allowed: self.setup.variant == Variant::Giant,
            },
            Step::Camp { army, command } => PrebattleRequest::Camp {
                army,
                command,
                compulsory: self.camp_compulsory_for(army, command),
            },
            Step::Deployment { army } => PrebattleRequest::Deployment {
                army,
                remaining: self.remaining(army),
            },
            Step::Done => return None,
        })
    }

    /// The edges the invader may take (§5.2): those a road reaches when there is one (§17.56),
    /// otherwise any but the one opposite a waterway (§17.53).
    pub fn allowed_base_edges(&self) -> Vec<BoardEdge> {
        let board = &self.battlefield.board;
        let mut by_road: Vec<BoardEdge> = self
            .battlefield
            .features
            .iter()
            .filter_map(|f| match f {
                TerrainFeature::Road(r) => Some(r),
                _ => None,
            })
            .flat_map(|r| [r.path.first().copied(), r.path.last().copied()])
            .flatten()
            .filter_map(|p| board.edge_at(p))
            .collect();
        by_road.sort();
        by_road.dedup();
        let possible = board.possible_base_edges(self.setup.variant);
        by_road.retain(|e| possible.contains(e));
        if !by_road.is_empty() {
            return by_road;
        }
        let facing_water: Vec<BoardEdge> = self
            .battlefield
            .features
            .iter()
            .filter_map(|f| match f {
                TerrainFeature::Waterway(w) => Some(w.edge.opposite()),
                _ => None,
            })
            .collect();
        possible
            .into_iter()
            .filter(|e| !facing_water.contains(e))
            .collect()
    }

    /// Whether army `army` must have a camp (§4.6): unless it has a City or more than 2 WWg.
    pub fn camp_compulsory(&self, army: usize) -> bool {
        self.camp_compulsory_for(army, None)
    }

    /// Whether army `army`'s camp (`command` `None`) or its allied command `command`'s own camp
    /// must be pitched (§4.6, §14.3). The army's camp is optional with a City or more than 2 WWg
    /// outside its allied commands; an allied command, a whole army of its own list, must have
    /// its own camp unless it has more than 2 WWg of its own (a reading: §14.3 says it "must be
    /// provided with" one, and §4.6's exception is about the army that owns the camp; the City
    /// is the defender's, not its ally's).
    pub fn camp_compulsory_for(&self, army: usize, command: Option<CommandId>) -> bool {
        let entry = &self.setup.armies[army];
        let in_camp_command = |i: usize| match (command, entry.command_of(i)) {
            (Some(id), Some(c)) => c.id == id,
            (Some(_), None) => false,
            (None, c) => !c.is_some_and(|c| c.allied),
        };
        let has_city = command.is_none()
            && Some(army) == self.defender
            && self
                .battlefield
                .areas()
                .any(|(_, a)| a.kind == AreaKind::City);
        let wwg = entry
            .elements
            .iter()
            .enumerate()
            .filter(|(i, e)| e.kind.troop_type() == TroopType::WWg && in_camp_command(*i))
            .count();
        !(has_city || wwg > 2)
    }

    /// Army `army`'s non-allied commands, in the order listed: those a PIP ranking names (§14.4).
    pub fn non_allied(&self, army: usize) -> Vec<CommandId> {
        self.setup.armies[army]
            .commands
            .iter()
            .filter(|c| !c.allied)
            .map(|c| c.id)
            .collect()
    }

    /// Army `army`'s declared PIP allocation (§14.4), once declared.
    pub fn pip_allocation(&self, army: usize) -> Option<&PipAllocation> {
        self.pip_allocations.get(army).and_then(|p| p.as_ref())
    }

    /// Army `army`'s allied command `command`'s own camp, once placed (§14.3).
    pub fn command_camp(&self, army: usize, command: CommandId) -> Option<&Polygon> {
        self.command_camps
            .iter()
            .find(|k| k.0 == army && k.1 == command)
            .map(|k| &k.2)
    }

    /// The commands army `army` has set out so far, in order (§14.3).
    pub fn deployed_commands(&self, army: usize) -> &[CommandId] {
        self.deployed_commands
            .get(army)
            .map(Vec::as_slice)
            .unwrap_or(&[])
    }

    /// Whether the sides now alternate one command each (§14.3): the defender's first turn left
    /// commands to place.
    pub fn alternating(&self) -> bool {
        self.alternate
    }

    /// Element `index` of `army` is placed, or held back for a landing.
    pub(super) fn settled(&self, army: usize, index: usize) -> bool {
        self.poses[army][index].is_some() || self.held_back.contains(&element_id(army, index))
    }

    /// The commands army `army` has begun this turn of deployment and not yet ended (§14.3).
    pub(super) fn turn_commands(&self, army: usize) -> Vec<CommandId> {
        let done = self.deployed_commands(army);
        self.setup.armies[army]
            .commands
            .iter()
            .filter(|c| !done.contains(&c.id))
            .filter(|c| c.elements.iter().any(|&i| self.settled(army, i)))
            .map(|c| c.id)
            .collect()
    }

    /// §14.3: once the sides alternate, a turn sets out one command only.
    /// The position of element `id` in `army`, the army deploying: refused when it is another
    /// army's, which is not deploying now, or no army's (§5.3).
    pub(super) fn index_deploying(
        &self,
        army: usize,
        id: ElementId,
    ) -> Result<usize, PrebattleError> {
        let index_in = |a: usize| (0..self.poses[a].len()).find(|&i| element_id(a, i) == id);
        if let Some(i) = index_in(army) {
            return Ok(i);
        }
        match (0..self.poses.len()).find(|&a| index_in(a).is_some()) {
            Some(owner) => Err(PrebattleError::NotDeploying { id, owner, army }),
            None => Err(PrebattleError::UnknownElement { id, army }),
        }
    }

    pub(super) fn one_command_a_turn(
        &self,
        army: usize,
        index: usize,
    ) -> Result<(), PrebattleError> {
        if !self.alternate {
            return Ok(());
        }
        let Some(c) = self.setup.armies[army].command_of(index) else {
            return Ok(());
        };
        match self.turn_commands(army).into_iter().find(|t| *t != c.id) {
            Some(t) => Err(PrebattleError::CommandTurn {
                reason: format!(
                    "army {army} is setting out its {t} this turn; once the sides alternate, each turn sets out one command"
                ),
            }),
            None => Ok(()),
        }
    }

    /// The 8 BW of §14.3 for element `index` of `army` at `rect`: the element and its general
    /// (or, when it is the general, each placed element of his command) when neither is in a
    /// City, Fort or camp.
    pub(super) fn far_from_general(
        &self,
        army: usize,
        index: usize,
        rect: &ElementRect,
        sheltered_here: bool,
        p: &mut Vec<DeploymentProblem>,
    ) {
        let entry = &self.setup.armies[army];
        let Some(c) = entry.command_of(index) else {
            return;
        };
        let id = element_id(army, index);
        let rect_at =
            |i: usize| self.poses[army][i].map(|q| self.rect_of(entry.elements[i].kind, q));
        let far = |a: &ElementRect, b: &ElementRect| {
            let d = crate::zones::nearest_distance(a, b);
            (d > super::super::commands::DEPLOY_FROM_GENERAL + TOLERANCE).then_some(d)
        };
        if c.general == index {
            for &i in c.elements.iter().filter(|&&i| i != index) {
                let Some(r) = rect_at(i) else { continue };
                if self.sheltered(army, c.id, &r) {
                    continue;
                }
                if let Some(distance) = far(rect, &r) {
                    p.push(DeploymentProblem::FarFromGeneral {
                        id,
                        other: element_id(army, i),
                        distance,
                    });
                }
            }
        } else if !sheltered_here {
            if let Some(g) = rect_at(c.general) {
                if let Some(distance) = far(rect, &g) {
                    p.push(DeploymentProblem::FarFromGeneral {
                        id,
                        other: element_id(army, c.general),
                        distance,
                    });
                }
            }
        }
    }

    /// `r` stands wholly inside a City or Fort, the army's camp or its command's own camp (the
    /// shelters of §14.3's 8 BW rule).
    pub(super) fn sheltered(&self, army: usize, command: CommandId, r: &ElementRect) -> bool {
        let inside = |p: &Polygon| r.corners().iter().all(|c| p.contains(*c));
        self.camps[army].as_ref().is_some_and(inside)
            || self.command_camp(army, command).is_some_and(inside)
            || self
                .battlefield
                .areas()
                .any(|(_, f)| f.kind.is_fortified() && inside(&f.outline))
    }

    pub(super) fn remaining(&self, army: usize) -> Vec<ElementId> {
        self.poses[army]
            .iter()
            .enumerate()
            .filter(|(_, p)| p.is_none())
            .map(|(i, _)| element_id(army, i))
            .filter(|id| !self.held_back.contains(id))
            .collect()
    }

    /// How many elements army `army` holds back for a littoral landing (§5.5).
    pub fn held_back_by(&self, army: usize) -> usize {
        (0..self.poses[army].len())
            .filter(|&i| self.held_back.contains(&element_id(army, i)))
            .count()
    }

    pub(super) fn wrong(&self, a: &PrebattleAction) -> PrebattleError {
        PrebattleError::WrongStep {
            action: action_name(a),
            step: self.step,
        }
    }
}
