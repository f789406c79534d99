//! City sallies by denizens (DBA3.md §4.2, §17.30).
//!
//! A City's denizens are no element until they sally; [`super::bound::Action::Sally`] makes them one: a
//! `Dz` element of the army controlling the City, under the denizens' reserved id
//! ([`super::state::denizens_id`]), moving as Solid foot and fighting as Fast at +2 / +0 (§17.30,
//! the rules configuration's `Dz` row). While they are out the City is undefended (§4.2).
//!
//! Readings where the digest is silent:
//! * **When**: in the movement phase of the army controlling the City, while its own denizens
//!   still defend it (never a surrendered City's puppet denizens), no troop element is wholly
//!   inside, and troop elements of both sides (not camp followers or denizens) are within 2 BW of
//!   its walls.
//! * **Where**: coming out of a gate: the element stands wholly outside the City with its rear
//!   edge against the wall and the midpoint of that edge within ½ BW of a gate (anywhere against
//!   the wall for a City without gates), on the table, in no waterway, clear of every element and
//!   touching no enemy. Coming out is the denizens' tactical move for the bound; it costs what a
//!   move of a denizens element costs (§6.3: 1 PIP, plus extra (a) for denizens and the command
//!   extras of (b), none in the army's own first bound). In Big Battle and Giant the C-in-C's
//!   command pays for the sally and the denizens' later moves (§14.4 is silent; the City is the
//!   army's), and their command distance is to the C-in-C.
//! * **After**: they make tactical moves as any element, but no move may take any part of them
//!   more than 3 BW from the walls, nor back inside the City: once out they do not return (as the
//!   camp followers of §4.6), so the City stays undefended. Beaten in the open they are destroyed
//!   (§11.2, as the outcome tables say for denizens that have sallied); they never count as
//!   losses (§13.2).

use crate::geometry::{ElementRect, Polygon, Pose, TOLERANCE};
use crate::terrain::{Going, GoingContext, TerrainFeature};
use crate::troops::TroopType;

use super::bound::{Battle, BattleError, Event};
use super::movement::MoveOrder;
use super::movement::{ElementMove, MovePlan, GATE_REACH};
use super::state::{denizens_id, Denizens, ElementState, Status};

/// How far sallied denizens may go from their City's walls, BW (§4.2).
pub const SALLY_RANGE: f64 = 3.0;
/// How near the walls troop elements of both sides must be for the denizens to sally, BW (§4.2).
pub const SALLY_TRIGGER: f64 = 2.0;

fn refuse(city: usize, reason: impl Into<String>) -> BattleError {
    BattleError::NoSally {
        city,
        reason: reason.into(),
    }
}

fn is_troop(e: &ElementState) -> bool {
    !matches!(
        e.kind.troop_type(),
        TroopType::CampFollowers | TroopType::Denizens
    )
}

fn wholly_in(r: &ElementRect, p: &Polygon) -> bool {
    r.corners().iter().all(|c| p.contains(*c))
}

/// Some corner (or the centre) of `r` inside `p` by more than the tolerance.
fn reaches_into(r: &ElementRect, p: &Polygon) -> bool {
    let deep = |q: crate::geometry::Point| {
        p.contains_strictly(q) && p.edges().all(|w| w.distance_to_point(q) > TOLERANCE)
    };
    r.corners().iter().any(|c| deep(*c)) || deep(r.centre())
}

impl Battle {
    /// The outline of the City that is battlefield feature `city`, if it is one.
    fn city_outline(&self, city: usize) -> Option<&crate::terrain::AreaFeature> {
        match self.setup.battlefield.features.get(city) {
            Some(TerrainFeature::Area(a)) if a.kind == crate::terrain::AreaKind::City => Some(a),
            _ => None,
        }
    }

    /// Why the denizens of `city` may not sally now, if they may not (the pose aside).
    fn sally_refusal(&self, city: usize) -> Option<BattleError> {
        let Some(area) = self.city_outline(city) else {
            return Some(refuse(city, "it is not a City"));
        };
        let Some(c) = self.cities.iter().find(|c| c.feature == city) else {
            return Some(refuse(city, "it is not a City"));
        };
        if c.controller != Some(self.active) {
            return Some(refuse(city, "they do not defend it for the moving army"));
        }
        match c.denizens {
            Denizens::Loyal => {}
            Denizens::Surrendered => {
                return Some(refuse(
                    city,
                    "the City surrendered: its puppet government's denizens never sally",
                ))
            }
            Denizens::Destroyed | Denizens::Sallied => {
                return Some(refuse(city, "it has no denizens left to sally"))
            }
        }
        let cfg = &self.setup.config;
        if self
            .elements
            .iter()
            .any(|e| e.in_play() && is_troop(e) && wholly_in(&e.rect(cfg), &area.outline))
        {
            return Some(refuse(city, "a troop element is inside it"));
        }
        let near = |mine: bool| {
            self.elements.iter().any(|e| {
                e.in_play()
                    && is_troop(e)
                    && (e.army == self.active) == mine
                    && area.outline.distance_to_polygon(&e.rect(cfg).polygon())
                        <= SALLY_TRIGGER + TOLERANCE
            })
        };
        if !(near(true) && near(false)) {
            return Some(refuse(
                city,
                format!(
                    "troop elements of both sides must be within {SALLY_TRIGGER} BW of its walls"
                ),
            ));
        }
        None
    }

    /// Cities whose denizens may sally now, somewhere outside a gate (§4.2, §17.30).
    pub fn sally_cities(&self) -> Vec<usize> {
        if self.phase != super::bound::Phase::Movement {
            return Vec::new();
        }
        self.cities
            .iter()
            .map(|c| c.feature)
            .filter(|&f| self.sally_refusal(f).is_none())
            .collect()
    }

    /// The events of the denizens of `city` sallying to `pose`, or why they may not.
    pub(super) fn check_sally(&self, city: usize, pose: Pose) -> Result<Vec<Event>, BattleError> {
        if let Some(e) = self.sally_refusal(city) {
            return Err(e);
        }
        let area = self.city_outline(city).expect("checked to be a City");
        let cfg = &self.setup.config;
        let kind: crate::troops::ElementKind = "Dz".parse().expect("Dz is an element code");
        let pose = pose.snapped();
        let r = ElementRect::new(pose, 1.0, cfg.depth(kind));
        let rear = r.edge(crate::geometry::Edge::Rear);
        let at_wall = area
            .outline
            .edges()
            .any(|w| w.distance_to_segment(&rear) <= TOLERANCE);
        let at_gate = area.gates.is_empty()
            || area
                .gates
                .iter()
                .any(|g| g.distance(rear.midpoint()) <= GATE_REACH + TOLERANCE);
        if reaches_into(&r, &area.outline) || !at_wall || !at_gate {
            return Err(refuse(
                city,
                format!("they come out of a gate: wholly outside, rear edge against the wall within {GATE_REACH} BW of a gate"),
            ));
        }
        if !r
            .corners()
            .iter()
            .all(|c| self.setup.battlefield.board.contains(*c))
        {
            return Err(refuse(city, "they would not be wholly on the battlefield"));
        }
        let going = self.setup.battlefield.going_under(
            &r,
            GoingContext {
                camel_mounted: false,
                plough_is_rough: self.plough_rough,
            },
        );
        if going == Going::Impassable {
            return Err(refuse(city, "they would stand in a waterway"));
        }
        for o in self.elements.iter().filter(|o| o.in_play()) {
            let or = o.rect(cfg);
            if super::setup::overlapping(&r, &or) {
                return Err(refuse(city, format!("element {} is in the way", o.id)));
            }
            if o.army != self.active && crate::zones::nearest_distance(&r, &or) <= TOLERANCE {
                return Err(refuse(
                    city,
                    format!(
                        "they may not come out into contact with enemy element {}",
                        o.id
                    ),
                ));
            }
        }
        let id = denizens_id(city);
        let element = ElementState {
            id,
            army: self.active,
            kind,
            pose,
            general: false,
            contingent: None,
            dismounts_as: None,
            mobile_tower: false,
            status: Status::InPlay,
            moves_this_bound: 1,
            moved_this_bound: 0.0,
        };
        // §6.3: what a move of the denizens element costs where it now stands.
        let mut sim = self.clone();
        sim.elements.push(ElementState {
            moves_this_bound: 0,
            ..element.clone()
        });
        let plan = MovePlan::lone_unpathed(id, false);
        let cost = sim.pip_cost(
            &MoveOrder::Element {
                id,
                path: Vec::new(),
            },
            &plan,
        );
        // Denizens belong to no command: in Big Battle and Giant the C-in-C's command pays
        // (a reading, [`Battle::paying_command_of`]); a standard army pays from its PIPs.
        let command = self.c_in_c_command(self.active);
        let available = command.map_or(self.pips, |c| c.pips);
        if cost.total > available {
            return Err(BattleError::NotEnoughPips {
                cost: cost.total,
                left: available,
            });
        }
        let left = available - cost.total;
        Ok(vec![
            Event::DenizensSallied { city, element },
            Event::PipsSpent {
                cost,
                left,
                command: command.map(|c| c.id),
            },
        ])
    }

    /// Sallied denizens go no further than 3 BW from their City and never back into it (§4.2).
    pub(super) fn check_sallied(&self, moves: &[ElementMove]) -> Result<(), BattleError> {
        let cfg = &self.setup.config;
        for m in moves {
            let Some(c) = self
                .cities
                .iter()
                .find(|c| c.denizens == Denizens::Sallied && denizens_id(c.feature) == m.id)
            else {
                continue;
            };
            let Some(area) = self.city_outline(c.feature) else {
                continue;
            };
            let Some(e) = self.element(m.id) else {
                continue;
            };
            let r = ElementRect::new(m.to.snapped(), 1.0, cfg.depth(e.kind));
            let far = r
                .corners()
                .iter()
                .any(|p| area.outline.distance_to_point(*p) > SALLY_RANGE + TOLERANCE);
            if far || reaches_into(&r, &area.outline) {
                return Err(BattleError::SallyLimit {
                    id: m.id,
                    city: c.feature,
                });
            }
        }
        Ok(())
    }
}
