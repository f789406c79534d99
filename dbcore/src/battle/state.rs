//! What the battle knows about each element, and the rest of a battle state's vocabulary: the
//! commands' state and losses (§14), the effects of outcome moves, and the two things a state
//! carries that are not part of it (its identity and its set-up's text).

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};

use serde::{Deserialize, Serialize};

use crate::config::RulesConfig;
use crate::geometry::{ElementRect, Pose};
use crate::troops::ElementKind;

mod command_state;
mod effect;

pub use super::setup::RESERVED_IDS;
use super::setup::{ElementId, ElementSetup};
// For doc links only; `bound` as a name here keeps the links of the moved serde types' docs
// (their text is their JSON Schema description) resolving as they did.
#[cfg(doc)]
use super::{bound, CheckedAction};
pub use command_state::{
    command_losses, counts_for_command, demoralising, removing, CommandLosses, CommandRoll,
    CommandState,
};
pub use effect::{apply_effects, Effect};

/// Whether an element is still fighting (§13.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case", tag = "status")]
pub enum Status {
    /// In play: not lost.
    InPlay,
    /// Destroyed, or gone over a battlefield edge (§13.1).
    Lost {
        /// Why it was lost.
        cause: LossCause,
    },
    /// Held back at deployment for a littoral landing and not yet on the table (§5.5).
    Afloat,
}

/// Why an element was lost (§13.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum LossCause {
    /// Destroyed (§12.3).
    Destroyed,
    /// Gone over a battlefield edge (§13.1).
    OffTable,
    /// Taken off with its command, which had lost half its original troop elements (§14.5):
    /// gone from the table, but not a loss of its own.
    Removed,
}

/// One element of the battle.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct ElementState {
    /// Its id, as in the set-up.
    pub id: ElementId,
    /// Index of its army.
    pub army: usize,
    /// Its kind now (a dismounted element has its foot kind, §7.9).
    pub kind: ElementKind,
    /// Where it stands: the midpoint of its front edge in BW and the way it faces, degrees
    /// clockwise from +y (north).
    pub pose: Pose,
    /// The general's element (§2.5).
    pub general: bool,
    /// Allied contingent number, if it belongs to one (§16.4).
    pub contingent: Option<u8>,
    /// The foot kind it may still dismount into (§7.9).
    pub dismounts_as: Option<ElementKind>,
    /// A War Wagon mobile tower (§4.7): may contact a city, fort or camp held by the enemy.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub mobile_tower: bool,
    /// In play or lost, and why.
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
            mobile_tower: e.mobile_tower,
            status: Status::InPlay,
            moves_this_bound: 0,
            moved_this_bound: 0.0,
        }
    }

    /// Still in play: not lost.
    pub fn in_play(&self) -> bool {
        self.status == Status::InPlay
    }

    /// Its rectangle on the table (§1.3 depths from the rules configuration).
    pub fn rect(&self, cfg: &RulesConfig) -> ElementRect {
        ElementRect::new(self.pose, 1.0, cfg.depth(self.kind))
    }
}

/// The id under which the denizens of the City that is battlefield feature `feature` fight.
pub fn denizens_id(feature: usize) -> ElementId {
    ElementId(RESERVED_IDS + (feature as u32 & 0x7FFF))
}

/// The id under which the camp followers of `army`'s camp fight.
pub fn camp_followers_id(army: usize) -> ElementId {
    ElementId(RESERVED_IDS + 0x8000 + (army as u32 & 0x7FFF))
}

/// The id under which the camp followers of the own camp of `army`'s allied command `command`
/// fight (§14.3).
pub fn command_camp_followers_id(army: usize, command: super::setup::CommandId) -> ElementId {
    ElementId(RESERVED_IDS + 0xC000 + ((army as u32 & 0x3F) << 8) + u32::from(command.0))
}

/// What became of a City's denizens (§4.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Denizens {
    /// They defend the City for the army controlling it while no element is inside.
    Loyal,
    /// Destroyed, or no longer defending because the garrison was destroyed (§4.2).
    Destroyed,
    /// Destroyed by Artillery shooting: the City surrendered (§4.2); a puppet regime's denizens
    /// defend it for the army it surrendered to while no element is inside.
    Surrendered,
    /// Out of the City as an element (§4.2, §17.30): the City is undefended while they are out.
    Sallied,
}

/// Who holds a City and what is happening inside it (§4.2, §13.2).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct CityState {
    /// Its index among the battlefield's features.
    pub feature: usize,
    /// The army it belonged to at set-up, if any.
    pub owner: Option<usize>,
    /// The army controlling it now: its owner until an enemy element enters it.
    pub controller: Option<usize>,
    /// What became of the City's denizens.
    pub denizens: Denizens,
    /// The element sacking it (§4.2): it has no garrison factor, neither shoots nor is shot at,
    /// and cannot move until its side's PIP die scores 5 or 6 (§17.32).
    pub sacker: Option<ElementId>,
}

/// The identity of one battle state, for [`CheckedAction`]: every battle, every clone and every
/// state after an action draws a new one, so two different states never share it. It is not
/// part of the state: not serialised, not compared, not shown.
#[derive(Eq)]
pub(in crate::battle) struct Stamp(pub(in crate::battle) u64);

/// Stamps handed out so far in this process (only their uniqueness matters).
static STAMPS: AtomicU64 = AtomicU64::new(1);

impl Stamp {
    pub(in crate::battle) fn fresh() -> Stamp {
        Stamp(STAMPS.fetch_add(1, Ordering::Relaxed))
    }
}

impl Default for Stamp {
    fn default() -> Stamp {
        Stamp::fresh()
    }
}

/// A clone is another state: it gets its own stamp.
impl Clone for Stamp {
    fn clone(&self) -> Stamp {
        Stamp::fresh()
    }
}

/// Invisible to equality: two battles are equal by what they hold, not by their history.
impl PartialEq for Stamp {
    fn eq(&self, _: &Stamp) -> bool {
        true
    }
}

impl std::fmt::Debug for Stamp {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Stamp")
    }
}

/// The compact text of a battle's set-up (as the compact state writes it, [`super::saved`]),
/// written the first time the battle's state is written and then reused (#15): the set-up never
/// changes in a battle, so the clones and later states made after it share this one text, and a
/// third of the compact text (terrain outlines and element poses, mostly numbers to format) is
/// not written again on each save. Like the stamp and the cache it is not part of the state: not
/// serialised, not compared, not shown.
///
/// Empty until then, and so free to make, clone and drop for the battles that are never saved
/// (a driven battle, a search): no allocation, no reference count. A clone made after the
/// first write shares the text.
#[derive(Clone, Default)]
pub(in crate::battle) struct SetupText(OnceLock<Arc<[u8]>>);

impl SetupText {
    /// The memo's text, written by `write` (the battle's own set-up as text) if this is the first
    /// time.
    pub(in crate::battle) fn get_or_write(&self, write: impl FnOnce() -> Vec<u8>) -> &[u8] {
        self.0.get_or_init(|| Arc::from(write()))
    }

    /// The text, if it has been written.
    #[cfg(test)]
    pub(in crate::battle) fn written(&self) -> Option<&Arc<[u8]>> {
        self.0.get()
    }
}

/// Invisible to equality, as the memo says nothing the set-up does not.
impl PartialEq for SetupText {
    fn eq(&self, _: &SetupText) -> bool {
        true
    }
}

impl std::fmt::Debug for SetupText {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("SetupText")
    }
}
