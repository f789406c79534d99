//! What an outcome move does to the elements ([`Effect`]), as events carry it and the state
//! commits it; the outcome moves themselves are [`super::super::outcome`]'s.

use serde::{Deserialize, Serialize};

use crate::geometry::Pose;

use super::super::setup::ElementId;
use super::{ElementState, LossCause, Status};

/// One change an outcome move makes, in the order the battle commits them.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case", tag = "effect")]
#[serde(deny_unknown_fields)]
pub enum Effect {
    /// The element moved (recoil, push-back, flight, pursuit, lining up).
    Moved {
        /// The element.
        id: ElementId,
        /// Where it was.
        from: Pose,
        /// Where it is now.
        to: Pose,
    },
    /// The element is destroyed (§12.3); `reason` names the rule.
    Destroyed {
        /// The element.
        id: ElementId,
        /// The rule and why, as a player says it.
        reason: String,
    },
    /// The element went over a battlefield edge and is lost (§13.1).
    LostOffTable {
        /// The element.
        id: ElementId,
        /// Where it was when it left the table.
        from: Pose,
    },
    /// The element turned in place (to face its rear before a recoil §9.6, to flee §12.4, or to
    /// face a flank or rear contactor §8.5).
    TurnedToFace {
        /// The element.
        id: ElementId,
        /// How it stood.
        from: Pose,
        /// How it stands now, in the same place.
        to: Pose,
    },
}

impl Effect {
    /// The element the effect is about.
    pub fn id(&self) -> ElementId {
        match self {
            Effect::Moved { id, .. }
            | Effect::Destroyed { id, .. }
            | Effect::LostOffTable { id, .. }
            | Effect::TurnedToFace { id, .. } => *id,
        }
    }
}

/// Commit effects, in order, to the elements (unknown ids are ignored).
pub fn apply_effects(elements: &mut [ElementState], effects: &[Effect]) {
    for fx in effects {
        let Some(e) = elements.iter_mut().find(|e| e.id == fx.id()) else {
            continue;
        };
        match fx {
            Effect::Moved { to, .. } | Effect::TurnedToFace { to, .. } => e.pose = *to,
            Effect::Destroyed { .. } => {
                e.status = Status::Lost {
                    cause: LossCause::Destroyed,
                }
            }
            Effect::LostOffTable { .. } => {
                e.status = Status::Lost {
                    cause: LossCause::OffTable,
                }
            }
        }
    }
}
