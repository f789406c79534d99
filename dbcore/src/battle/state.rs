//! What the battle knows about each element.

use serde::{Deserialize, Serialize};

use crate::config::RulesConfig;
use crate::geometry::{ElementRect, Pose};
use crate::troops::ElementKind;

use super::setup::{ElementId, ElementSetup};

/// Whether an element is still fighting (§13.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "status")]
pub enum Status {
    InPlay,
    /// Destroyed, or gone over a battlefield edge (§13.1).
    Lost {
        cause: LossCause,
    },
}

/// Why an element was lost (§13.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LossCause {
    Destroyed,
    OffTable,
}

/// One element of the battle.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ElementState {
    pub id: ElementId,
    /// Index of its army.
    pub army: usize,
    /// Its kind now (a dismounted element has its foot kind, §7.9).
    pub kind: ElementKind,
    pub pose: Pose,
    pub general: bool,
    pub contingent: Option<u8>,
    /// The foot kind it may still dismount into (§7.9).
    pub dismounts_as: Option<ElementKind>,
    pub status: Status,
    /// Tactical moves made this bound (§7.5).
    pub moves_this_bound: u8,
    /// Distance moved this bound by tactical moves, BW (§9.1: shooters that moved more than
    /// 1 BW may not shoot).
    pub moved_this_bound: f64,
}

impl ElementState {
    /// The state of a freshly deployed element (its pose snapped to the grid).
    pub fn from_setup(army: usize, e: &ElementSetup) -> Self {
        ElementState {
            id: e.id,
            army,
            kind: e.kind,
            pose: e.pose.snapped(),
            general: e.general && e.contingent.is_none(),
            contingent: e.contingent,
            dismounts_as: e.dismounts_as,
            status: Status::InPlay,
            moves_this_bound: 0,
            moved_this_bound: 0.0,
        }
    }

    pub fn in_play(&self) -> bool {
        self.status == Status::InPlay
    }

    /// Its rectangle on the table (§1.3 depths from the rules configuration).
    pub fn rect(&self, cfg: &RulesConfig) -> ElementRect {
        ElementRect::new(self.pose, 1.0, cfg.depth(self.kind))
    }
}
