//! Littoral landings (DBA3.md §5.5, §17.55).
//!
//! Elements named in [`super::setup::BattleSetup::held_back`] start afloat ([`super::state::Status::Afloat`]):
//! they are on no part of the table, project nothing and cannot be moved, shot or fought. In its
//! own first bound their army lands them all together with [`super::bound::Action::Land`].
//!
//! Readings where the digest is silent:
//! * **The group**: every element held back lands, at once, facing the same way, each touching
//!   another (edge or corner), so that they form one group (§7.4); at least one touches the
//!   waterway (a column touching with a rear corner, or a line at right angles to the shore
//!   touching with a side edge, will do, FAQ19). Each stands wholly on the table, out of the
//!   water, clear of every element and touching no enemy.
//! * **Cost**: 1 PIP as one group move (§17.55); it is the landed elements' move for the bound.
//! * **Big Battle and Giant** (§14.3): the elements held back are one whole command (the set-up
//!   says so), and every one of them lands within 1 BW of the waterway, as well as in one group
//!   touching it; their own command's die pays. A command wholly afloat still rolls its die.
//! * **Those that cannot land**: elements still afloat when their army ends the movement of its
//!   first bound never reach the battlefield and are lost (cause `off_table`, counted in §13.2 as
//!   elements lost over an edge are): the landing was the player's choice.

use crate::geometry::{ElementRect, Pose, TOLERANCE};
use crate::terrain::{Going, GoingContext, TerrainFeature};

use super::bound::{Battle, BattleError, Event};
use super::movement::ElementMove;
use super::setup::ElementId;
use super::state::Status;

/// How far from the waterway every element of a landing command stands in Big Battle and
/// Giant, BW (§14.3).
pub const COMMAND_LANDING_REACH: f64 = 1.0;

fn refuse(reason: impl Into<String>) -> BattleError {
    BattleError::Landing {
        reason: reason.into(),
    }
}

impl Battle {
    /// The moving army's elements still afloat (§5.5), in battle order.
    pub fn afloat(&self) -> Vec<ElementId> {
        self.elements
            .iter()
            .filter(|e| e.army == self.active && e.status == Status::Afloat)
            .map(|e| e.id)
            .collect()
    }

    /// The events of landing `ids` at `poses`, or why not.
    pub(super) fn check_land(
        &self,
        ids: &[ElementId],
        poses: &[Pose],
    ) -> Result<Vec<Event>, BattleError> {
        if !self.first_bound_of_active() {
            return Err(refuse("a landing is made in the army's own first bound"));
        }
        let afloat = self.afloat();
        if afloat.is_empty() {
            return Err(refuse("the moving army has no elements afloat"));
        }
        let mut sorted = ids.to_vec();
        sorted.sort();
        let mut want = afloat.clone();
        want.sort();
        if sorted != want {
            return Err(refuse(format!(
                "every element held back lands together, as one group: {afloat:?}"
            )));
        }
        if poses.len() != ids.len() {
            return Err(refuse(format!(
                "{} elements but {} poses",
                ids.len(),
                poses.len()
            )));
        }
        let cfg = &self.setup.config;
        let bf = &self.setup.battlefield;
        let rects: Vec<ElementRect> = ids
            .iter()
            .zip(poses)
            .map(|(id, p)| {
                let e = self.element(*id).expect("afloat elements exist");
                ElementRect::new(p.snapped(), 1.0, cfg.depth(e.kind))
            })
            .collect();
        let water: Vec<crate::geometry::Polygon> = bf
            .features
            .iter()
            .filter_map(|f| match f {
                TerrainFeature::Waterway(w) => Some(w.water_polygon(&bf.board)),
                _ => None,
            })
            .collect();
        for (id, r) in ids.iter().zip(&rects) {
            let e = self.element(*id).expect("afloat elements exist");
            if !r.corners().iter().all(|c| bf.board.contains(*c)) {
                return Err(refuse(format!(
                    "element {id} would not be wholly on the battlefield"
                )));
            }
            let going = bf.going_under(
                r,
                GoingContext {
                    camel_mounted: e.kind.is_camel_mounted(),
                    plough_is_rough: self.plough_rough,
                },
            );
            if going == Going::Impassable {
                return Err(refuse(format!("element {id} would stand in the water")));
            }
            for o in self.elements.iter().filter(|o| o.in_play()) {
                let or = o.rect(cfg);
                if super::setup::overlapping(r, &or) {
                    return Err(refuse(format!("element {} is in the way of {id}", o.id)));
                }
                if o.army != self.active && crate::zones::nearest_distance(r, &or) <= TOLERANCE {
                    return Err(refuse(format!(
                        "element {id} may not land in contact with enemy element {}",
                        o.id
                    )));
                }
            }
        }
        for (i, a) in rects.iter().enumerate() {
            for b in &rects[i + 1..] {
                if super::setup::overlapping(a, b) {
                    return Err(refuse("the landing elements overlap one another"));
                }
            }
        }
        // One group: the same facing, and every element linked to the first by touches.
        let facing = rects[0].pose.facing;
        if rects
            .iter()
            .any(|r| super::movement::geom::angle_diff(facing, r.pose.facing).abs() > 1e-6)
        {
            return Err(refuse(
                "the landing elements must face the same way, as one group",
            ));
        }
        let mut linked = vec![false; rects.len()];
        linked[0] = true;
        let mut grew = true;
        while grew {
            grew = false;
            for j in 0..rects.len() {
                if linked[j] {
                    continue;
                }
                let touches = (0..rects.len()).any(|k| {
                    linked[k] && crate::zones::nearest_distance(&rects[j], &rects[k]) <= TOLERANCE
                });
                if touches {
                    linked[j] = true;
                    grew = true;
                }
            }
        }
        if linked.iter().any(|l| !l) {
            return Err(refuse(
                "the landing elements must touch one another, as one group",
            ));
        }
        let ashore = rects.iter().any(|r| {
            water
                .iter()
                .any(|w| w.distance_to_polygon(&r.polygon()) <= TOLERANCE)
        });
        if !ashore {
            return Err(refuse(
                "at least one landing element must touch the waterway",
            ));
        }
        // §14.3: a landing command stands wholly within 1 BW of the waterway (read as: the
        // nearest point of each of its elements).
        if self.has_commands() {
            let far = ids.iter().zip(&rects).find(|(_, r)| {
                !water.iter().any(|w| {
                    w.distance_to_polygon(&r.polygon()) <= COMMAND_LANDING_REACH + TOLERANCE
                })
            });
            if let Some((id, _)) = far {
                return Err(refuse(format!(
                    "element {id} would land more than {COMMAND_LANDING_REACH} BW from the waterway: a landing command lands within 1 BW of it (§14.3)"
                )));
            }
        }
        // §17.55: 1 PIP as one group move; in Big Battle and Giant paid by the landing
        // elements' own command (§14.4).
        let command = ids.first().and_then(|id| self.command_of(*id));
        let available = command.map_or(self.pips, |c| c.pips);
        if available < 1 {
            return Err(BattleError::NotEnoughPips {
                cost: 1,
                left: available,
            });
        }
        let moves = ids
            .iter()
            .zip(&rects)
            .map(|(id, r)| ElementMove {
                id: *id,
                from: r.pose,
                to: r.pose,
                becomes: None,
            })
            .collect();
        Ok(vec![
            Event::Landed {
                army: self.active,
                moves,
            },
            Event::PipsSpent {
                cost: super::bound::PipCost {
                    base: 1,
                    extras: Vec::new(),
                    total: 1,
                },
                left: available - 1,
                command: command.map(|c| c.id),
            },
        ])
    }

    /// The event of the moving army's elements still afloat at the end of its first bound's
    /// movement: they never land (see the module's readings).
    pub(super) fn not_landed(&self) -> Option<Event> {
        let ids = self.afloat();
        (self.first_bound_of_active() && !ids.is_empty()).then_some(Event::NotLanded {
            army: self.active,
            ids,
        })
    }
}
