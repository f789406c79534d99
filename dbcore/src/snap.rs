//! Table questions a mod asks while a player handles a model (DBA3.md §7, §8.2–8.3, §12):
//! where a base dropped near others would legally go ([`Battle::snap`]), and what an outcome
//! move from here would do ([`Battle::outcome_preview`]). Both only ask [`Battle::check`] and the
//! outcome functions: they change nothing.
//!
//! Readings where the digest is silent (how a table tool should behave, not a rule):
//! * A drop **snaps** to the legal pose nearest to it (front-edge midpoints, within `within` BW)
//!   among: every contact with a nearby enemy that a move into contact may make (§8.2 a–d, with
//!   the slide and the conforming the move engine allows, §8.3), and lining up beside or behind
//!   a nearby friend (front edges level, or front edge against its rear). When none is legal and
//!   near, the drop itself is the move if it is legal; otherwise the refusal of the drop is the
//!   answer.
//! * An **outcome preview** is computed from the table as it stands, for an element that has no
//!   opponent: a recoil straight back (turned about first when `from_behind`, §9.6), a flight
//!   (§12.4), a pursuit of `distance` BW (§12.5). Mounted elements recoil the full 1 BW, as the
//!   battle does.

use serde::{Deserialize, Serialize};

use crate::battle::{
    flee, pursue, recoil, Action, Battle, BattleError, ContactWanted, Effect, ElementId, Event,
    MoveOrder,
};
use crate::geometry::{Point, Pose};

/// Where a dropped base would go, and the order that takes it there.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
#[serde(deny_unknown_fields)]
pub struct Snap {
    /// The dropped element.
    pub id: ElementId,
    /// Its pose after the move.
    pub pose: Pose,
    /// The move order to apply for it.
    pub order: MoveOrder,
    /// The events applying that order would cause.
    pub events: Vec<Event>,
    /// What it lines up with: `Some` for a contact or a friend, `None` when the drop stands.
    pub with: Option<SnapTarget>,
}

/// What a snap lines up with.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case", tag = "type")]
#[serde(deny_unknown_fields)]
pub enum SnapTarget {
    /// Contact with an enemy element (§8.2).
    Contact {
        /// The enemy element.
        target: ElementId,
        /// How it lines up against it.
        contact: ContactWanted,
    },
    /// Beside (front edges level) or behind a friend.
    Friend {
        /// The friend.
        friend: ElementId,
        /// Where beside it: `left`, `right` or `behind`.
        place: String,
    },
}

/// An outcome move to preview (§12).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case", tag = "outcome")]
#[serde(deny_unknown_fields)]
pub enum OutcomeMove {
    /// Recoil (§12.1), with the push-backs it causes; turned about first when shot from behind.
    Recoil {
        /// The shot came from behind: it turns about before recoiling (§9.6).
        #[serde(default)]
        from_behind: bool,
    },
    /// Flight (§12.4).
    Flee,
    /// Pursuit of `distance` BW (§12.5).
    Pursue {
        /// How far, BW.
        distance: f64,
    },
}

use crate::battle::queries::CONTACTS;

fn moved_to(events: &[Event], id: ElementId) -> Option<Pose> {
    events.iter().find_map(|e| match e {
        Event::Moved { moves, .. } => moves.iter().find(|m| m.id == id).map(|m| m.to),
        _ => None,
    })
}

impl Battle {
    /// Where element `id`, dropped at `dropped`, would legally go this move, or why it cannot.
    /// Only enemies and friends within `within` BW of the drop are considered for lining up.
    pub fn snap(&self, id: ElementId, dropped: Pose, within: f64) -> Result<Snap, BattleError> {
        let me = self.element(id).ok_or(BattleError::UnknownElement { id })?;
        let cfg = &self.setup().config;
        let dropped_rect = crate::geometry::ElementRect::new(dropped, 1.0, cfg.depth(me.kind));
        let near: Vec<_> = self
            .elements()
            .iter()
            .filter(|o| o.in_play() && o.id != id)
            .filter(|o| {
                crate::zones::nearest_distance(&dropped_rect, &o.rect(cfg)) <= within + 1e-9
            })
            .collect();
        let mut candidates: Vec<(MoveOrder, Option<SnapTarget>)> = Vec::new();
        for o in &near {
            if o.army != me.army {
                for contact in CONTACTS {
                    candidates.push((
                        MoveOrder::IntoContact {
                            ids: vec![id],
                            target: o.id,
                            contact,
                        },
                        Some(SnapTarget::Contact {
                            target: o.id,
                            contact,
                        }),
                    ));
                }
            } else {
                let f = o.pose;
                let right = Point::from_bearing(f.facing + 90.0);
                let fwd = Point::from_bearing(f.facing);
                let at = |p: Point| Pose::new(p.x, p.y, f.facing);
                let front = Point::new(f.x, f.y);
                let places = [
                    (at(front + right), "right"),
                    (at(front - right), "left"),
                    (at(front - fwd * cfg.depth(o.kind)), "behind"),
                ];
                for (pose, place) in places {
                    candidates.push((
                        MoveOrder::Element {
                            id,
                            path: vec![pose],
                        },
                        Some(SnapTarget::Friend {
                            friend: o.id,
                            place: place.to_string(),
                        }),
                    ));
                }
            }
        }
        let dropped_mid = Point::new(dropped.x, dropped.y);
        let mut best: Option<(f64, Snap)> = None;
        for (order, with) in candidates {
            let Ok(events) = self.check(&Action::Move {
                order: order.clone(),
            }) else {
                continue;
            };
            let Some(pose) = moved_to(&events, id) else {
                continue;
            };
            let d = Point::new(pose.x, pose.y).distance(dropped_mid);
            if d > within + 1e-9 {
                continue;
            }
            if best.as_ref().is_none_or(|(bd, _)| d < *bd - 1e-12) {
                best = Some((
                    d,
                    Snap {
                        id,
                        pose,
                        order,
                        events,
                        with,
                    },
                ));
            }
        }
        if let Some((_, s)) = best {
            return Ok(s);
        }
        let order = MoveOrder::Element {
            id,
            path: vec![dropped],
        };
        let events = self.check(&Action::Move {
            order: order.clone(),
        })?;
        let pose = moved_to(&events, id).unwrap_or(dropped);
        Ok(Snap {
            id,
            pose,
            order,
            events,
            with: None,
        })
    }

    /// What an outcome move of element `id` from where it stands would do, without doing it.
    pub fn outcome_preview(
        &self,
        id: ElementId,
        outcome: OutcomeMove,
    ) -> Result<Vec<Effect>, BattleError> {
        let e = self.element(id).ok_or(BattleError::UnknownElement { id })?;
        if !e.in_play() {
            return Err(BattleError::ElementLost { id });
        }
        let strongholds = self.held_strongholds_kept();
        let ctx = self.move_context(&strongholds);
        Ok(match outcome {
            OutcomeMove::Recoil { from_behind } => recoil(&ctx, id, None, from_behind, true),
            OutcomeMove::Flee => flee(&ctx, id, self.setup().armies[e.army].base_edge),
            OutcomeMove::Pursue { distance } => {
                if !(distance.is_finite() && (0.0..=4.0).contains(&distance)) {
                    return Err(BattleError::Move(crate::battle::MoveError::Refused {
                        rule: "§12.5".into(),
                        message: format!("a pursuit is 0 to 4 BW, not {distance}"),
                    }));
                }
                pursue(&ctx, id, distance)
            }
        })
    }
}
