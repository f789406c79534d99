//! Camps and deployment (DBA3.md §4.6, §5.3, §5.4, §14.3): the problems of a camp's outline and
//! of an element's place, and the battle set-up the pre-battle ends with.

use super::*;

impl Prebattle {
    /// Every reason `outline` cannot be army `army`'s camp (§4.6).
    pub fn camp_problems(&self, army: usize, outline: &Polygon) -> Vec<String> {
        let mut v = Vec::new();
        let board = &self.battlefield.board;
        if outline.points.len() < 3 || outline.area() < 1e-9 {
            v.push("the camp's outline has no area".to_string());
            return v;
        }
        let (length, breadth) = measure_rectangle(outline);
        if length < 1.0 - TOLERANCE || breadth < 0.5 - TOLERANCE {
            v.push(format!(
                "the camp is {length:.3} × {breadth:.3} BW; it must be at least 1 × ½ BW"
            ));
        }
        if length + breadth > 4.0 + TOLERANCE {
            v.push(format!(
                "the camp needs a rectangle with length + width {:.3} BW; at most 4",
                length + breadth
            ));
        }
        let on_board = board.polygon();
        if !outline.points.iter().all(|&p| on_board.contains(p)) {
            v.push("the camp is not wholly on the battlefield".to_string());
        }
        let Some(base) = self.base_edges[army] else {
            return v;
        };
        let on_edge = outline
            .points
            .iter()
            .any(|&p| board.distance_to_edge(p, base).abs() <= TOLERANCE);
        let mut on_shore = false;
        let edifice =
            super::super::setup::edifice_camp(&self.battlefield, outline).and_then(|f| match self
                .battlefield
                .features
                .get(f)
            {
                Some(TerrainFeature::Area(a)) => Some(a),
                _ => None,
            });
        for f in &self.battlefield.features {
            match f {
                TerrainFeature::Waterway(w) => {
                    let water = w.water_polygon(board);
                    let wet = |p: crate::geometry::Point| {
                        water.contains_strictly(p)
                            && water.edges().all(|e| e.distance_to_point(p) > TOLERANCE)
                    };
                    if outline.points.iter().any(|&p| wet(p))
                        || wet(crate::terrain::centroid(outline))
                    {
                        v.push("the camp lies in the waterway".to_string());
                    }
                    if w.edge == base && outline.distance_to_polygon(&water) <= TOLERANCE {
                        on_shore = true;
                    }
                }
                TerrainFeature::Area(a) => {
                    // §4.6: an Edifice on the rear edge may be declared the camp (its outline given
                    // as the camp's): its own bad going is then no objection.
                    let declared = a.kind == AreaKind::Edifice && edifice == Some(a);
                    if a.kind != AreaKind::GentleHill
                        && !declared
                        && polygons_intersect(outline, &a.outline)
                    {
                        v.push(format!(
                            "the camp overlaps a {:?}; it must be in good going other than Plough",
                            a.kind
                        ));
                    }
                }
                TerrainFeature::River(r) => {
                    if polyline_distance_to_polygon(&r.course, outline) < r.width * 0.5 {
                        v.push("the camp lies in a river".to_string());
                    }
                }
                TerrainFeature::Road(_) => {}
            }
        }
        if !on_edge && !on_shore {
            v.push(format!(
                "the camp must stand on the army's rear edge ({base:?}) or the shore along it"
            ));
        }
        let placing_command = match self.step {
            Step::Camp { command, .. } => command,
            _ => None,
        };
        for (other, c) in self.camps.iter().enumerate() {
            if let Some(c) = c {
                let same = other == army && placing_command.is_none();
                if !same && polygons_intersect(outline, c) {
                    v.push("the camp overlaps another camp".to_string());
                }
            }
        }
        for (_, _, c, _) in &self.command_camps {
            if polygons_intersect(outline, c) {
                v.push("the camp overlaps an allied command's camp".to_string());
            }
        }
        v
    }

    /// The rectangle of an entering element at `pose`.
    pub(super) fn rect_of(&self, kind: ElementKind, pose: Pose) -> ElementRect {
        ElementRect::new(pose, 1.0, self.setup.config.depth(kind))
    }

    /// The checks of §5.4 for element `index` of `army` at `pose`: every problem at once, or the
    /// City or Fort it would garrison.
    pub(super) fn deployment_check(
        &self,
        army: usize,
        index: usize,
        pose: Pose,
    ) -> Result<Option<usize>, PrebattleError> {
        let entry = &self.setup.armies[army].elements[index];
        let id = element_id(army, index);
        let kind = entry.kind;
        let rect = self.rect_of(kind, pose);
        let corners = rect.corners();
        let board = &self.battlefield.board;
        let bf = &self.battlefield;
        let mut p = Vec::new();
        let table = board.polygon();
        if !corners.iter().all(|&c| table.contains(c)) {
            p.push(DeploymentProblem::OffTable { id });
        }
        let ctx = GoingContext {
            camel_mounted: kind.is_camel_mounted(),
            plough_is_rough: false,
        };
        let going = bf.going_under(&rect, ctx);
        if going == Going::Impassable {
            p.push(DeploymentProblem::Impassable { id });
        }
        for (a, poses) in self.poses.iter().enumerate() {
            for (i, q) in poses.iter().enumerate() {
                let Some(q) = q else { continue };
                let other = self.rect_of(self.setup.armies[a].elements[i].kind, *q);
                if overlapping(&rect, &other) {
                    p.push(DeploymentProblem::Overlap {
                        id,
                        other: element_id(a, i),
                    });
                }
            }
        }
        let owner = self.defender.unwrap_or(0);
        let mut garrison = None;
        let mut in_stronghold = false;
        for (f, area) in bf.areas() {
            if !area.kind.is_fortified() {
                continue;
            }
            let inside = corners.iter().all(|&c| area.outline.contains(c));
            if inside {
                in_stronghold = true;
                let allied = self.setup.armies[army]
                    .command_of(index)
                    .is_some_and(|c| c.allied);
                let eligible =
                    army == owner && kind.is_foot() && entry.contingent.is_none() && !allied;
                if !eligible {
                    p.push(DeploymentProblem::NotAGarrison {
                        id,
                        kind,
                        feature: f,
                    });
                } else if self.garrisons.iter().any(|g| g.1 == f) {
                    p.push(DeploymentProblem::Garrisoned { feature: f });
                } else {
                    garrison = Some(f);
                }
            } else if polygons_intersect(&Polygon::new(corners.to_vec()), &area.outline) {
                p.push(DeploymentProblem::InWalls { id, feature: f });
            } else if army != owner {
                // (The distance is measured only to report it: `closer_than` is its
                // comparison, #15.)
                let element = Polygon::new(corners.to_vec());
                if area.outline.closer_than(&element, 3.0 - TOLERANCE) {
                    p.push(DeploymentProblem::EnemyStronghold {
                        id,
                        feature: f,
                        distance: area.outline.distance_to_polygon(&element),
                    });
                }
            }
        }
        if !in_stronghold {
            if let Some(base) = self.base_edges[army] {
                let half = board.across(base) * 0.5;
                let far = corners
                    .iter()
                    .map(|&c| board.distance_to_edge(c, base))
                    .fold(f64::NEG_INFINITY, f64::max);
                if far > half - 3.0 + TOLERANCE {
                    p.push(DeploymentProblem::CentreLine {
                        id,
                        distance: half - far,
                    });
                }
                let limit = side_edge_limit(kind);
                for side in base.sides() {
                    let near = corners
                        .iter()
                        .map(|&c| board.distance_to_edge(c, side))
                        .fold(f64::INFINITY, f64::min);
                    if near < limit - TOLERANCE {
                        p.push(DeploymentProblem::SideEdge {
                            id,
                            kind,
                            distance: near,
                            limit,
                        });
                    }
                }
            }
            let t = kind.troop_type();
            if (t == TroopType::Art || t == TroopType::WWg)
                && going == Going::Bad
                && !bf.move_along_road(&[pose.front_mid()])
            {
                p.push(DeploymentProblem::BadGoing { id, kind });
            }
        }
        if self.setup.is_by_command() {
            let sheltered = in_stronghold
                || self.setup.armies[army]
                    .command_of(index)
                    .is_some_and(|c| self.sheltered(army, c.id, &rect));
            self.far_from_general(army, index, &rect, sheltered, &mut p);
        }
        if p.is_empty() {
            Ok(garrison)
        } else {
            Err(PrebattleError::Deployment { problems: p })
        }
    }

    /// The set-up the pre-battle produced, once it is done: the defender has the first bound
    /// (§5.3) and owns the Cities (see the module docs).
    pub fn battle_setup(&self) -> Option<BattleSetup> {
        if self.step != Step::Done {
            return None;
        }
        let defender = self.defender?;
        let armies = self
            .setup
            .armies
            .iter()
            .enumerate()
            .map(|(a, entry)| {
                Some(ArmySetup {
                    name: entry.name.clone(),
                    base_edge: self.base_edges[a]?,
                    elements: entry
                        .elements
                        .iter()
                        .enumerate()
                        .map(|(i, e)| {
                            Some(ElementSetup {
                                id: element_id(a, i),
                                kind: e.kind,
                                // Held back for a landing: the pose is not used (§5.5).
                                pose: match self.poses[a][i] {
                                    Some(p) => p,
                                    None if self.held_back.contains(&element_id(a, i)) => {
                                        Pose::new(0.0, 0.0, 0.0)
                                    }
                                    None => return None,
                                },
                                general: e.general,
                                contingent: e.contingent,
                                dismounts_as: e.dismounts_as,
                                mobile_tower: e.mobile_tower,
                            })
                        })
                        .collect::<Option<Vec<_>>>()?,
                    camp: self.camps[a].clone(),
                    camp_followers: self.camps[a].is_some() && self.camp_followers[a],
                    commands: entry_commands(a, entry, &self.command_camps),
                    pip_allocation: self.pip_allocations.get(a).cloned().flatten(),
                })
            })
            .collect::<Option<Vec<_>>>()?;
        let mut s = BattleSetup::new(self.setup.variant, self.battlefield.clone(), armies);
        s.config = self.setup.config.clone();
        s.free_army_size = self.setup.free_army_size;
        s.first = defender;
        s.held_back = self.held_back.clone();
        if self
            .battlefield
            .areas()
            .any(|(_, a)| a.kind == AreaKind::City)
        {
            s.city_owner = Some(defender);
        }
        Some(s)
    }
}
