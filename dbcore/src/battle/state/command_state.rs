//! The commands' state in the battle (§14): who is in each, its PIPs and its losses, and what
//! those losses make it (demoralised, removed). The rules that change it are
//! [`super::super::commands`]'s; these are the state's vocabulary, below the battle.

use serde::{Deserialize, Serialize};

use crate::dice::DieScore;
use crate::troops::TroopType;

use super::super::setup::command_setup::is_civilian;
use super::super::setup::{BattleSetup, CommandId, ElementId};
use super::{ElementState, LossCause, Status};

/// One command in the battle.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct CommandState {
    /// Index of its army.
    pub army: usize,
    /// Its id, unique in its army.
    pub id: CommandId,
    /// Its general's element.
    pub general: ElementId,
    /// Its elements, the general's included.
    pub elements: Vec<ElementId>,
    /// An allied contingent's command, which rolls its own die (§14.1, §14.4).
    pub allied: bool,
    /// The army's C-in-C commands it (§14.4).
    pub c_in_c: bool,
    /// Its original troop elements (all but camp followers and denizens), the base of the
    /// thirds and halves of §14.5.
    pub original: u32,
    /// PIPs left this bound, from its own die (§14.4).
    pub pips: u8,
    /// Its die this bound, once rolled.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub die: Option<DieScore>,
    /// Permanently demoralised (§14.5).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub demoralised: bool,
    /// Taken off the table, having lost half its original troop elements (§14.5).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub removed: bool,
    /// The C-in-C's once-a-game +1 has been used (§14.4).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub bonus_used: bool,
    /// Elements bought a hold this bound (§14.5): they neither flee nor move.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub held: Vec<ElementId>,
    /// Demoralised in an earlier bound, it has still to flee in this bound of its army's
    /// (§14.5): set as the bound begins, cleared by the flight ([`super::bound::Action::Flee`]).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub flight_due: bool,
    /// An allied command's own camp has been sacked (§14.3, §14.5): one more loss to it.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub camp_sacked: bool,
    /// An allied command's own camp is still defended by its fixed camp followers (§4.6).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub camp_followers: bool,
}

impl CommandState {
    /// The commands of an army set-up, in set-up order.
    pub fn of_setup(setup: &BattleSetup) -> Vec<CommandState> {
        let mut v = Vec::new();
        for (army, a) in setup.armies.iter().enumerate() {
            for c in &a.commands {
                let original = c
                    .elements
                    .iter()
                    .filter_map(|id| a.elements.iter().find(|e| e.id == *id))
                    .filter(|e| !is_civilian(e.kind.troop_type()))
                    .count() as u32;
                v.push(CommandState {
                    army,
                    id: c.id,
                    general: c.general,
                    elements: c.elements.clone(),
                    allied: c.allied,
                    c_in_c: c.c_in_c,
                    original,
                    pips: 0,
                    die: None,
                    demoralised: false,
                    removed: false,
                    bonus_used: false,
                    held: Vec::new(),
                    flight_due: false,
                    camp_sacked: false,
                    camp_followers: c.allied && c.camp.is_some() && c.camp_followers,
                });
            }
        }
        v
    }

    /// Whether it still rolls a PIP die: some element of it is still on the table, or afloat
    /// for a littoral landing (§14.4: it stops when all are lost or gone; a command held back
    /// to land, §14.3, needs its die to pay for the landing).
    pub fn rolls(&self, elements: &[ElementState]) -> bool {
        !self.removed
            && self.elements.iter().any(|id| {
                elements
                    .iter()
                    .any(|e| e.id == *id && (e.in_play() || e.status == Status::Afloat))
            })
    }
}

/// One command's losses (§14.5).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct CommandLosses {
    /// Elements lost that count (not SCh, Hd, camp followers or denizens; not those taken off
    /// when the command was removed).
    pub elements: u32,
    /// Its first double element lost counts one more (§17.43).
    pub double_bonus: u32,
    /// Its general lost counts one more.
    pub general_bonus: u32,
    /// Camps and Cities (§14.5): a camp or City lost to the enemy counts one more to each
    /// non-allied command.
    pub camps_and_cities: u32,
}

impl CommandLosses {
    /// Every loss that counts against the command: the sum of the four counts (§14.5).
    pub fn total(&self) -> u32 {
        self.elements + self.double_bonus + self.general_bonus + self.camps_and_cities
    }
}

/// Whether a lost element counts in a command's losses (§14.5, §17.9): not Scythed Chariots,
/// Hordes, camp followers or denizens, and not an element taken off with its removed command.
pub fn counts_for_command(e: &ElementState) -> bool {
    !matches!(
        e.kind.troop_type(),
        TroopType::SCh | TroopType::Hd | TroopType::CampFollowers | TroopType::Denizens
    ) && e.status
        != (Status::Lost {
            cause: LossCause::Removed,
        })
}

/// The losses of one command, `stronghold_losses` being what lost camps and Cities add to it.
pub fn command_losses(
    c: &CommandState,
    elements: &[ElementState],
    stronghold_losses: u32,
) -> CommandLosses {
    let lost: Vec<&ElementState> = c
        .elements
        .iter()
        .filter_map(|id| elements.iter().find(|e| e.id == *id))
        .filter(|e| matches!(e.status, Status::Lost { .. }))
        .collect();
    let counted: Vec<&&ElementState> = lost.iter().filter(|e| counts_for_command(e)).collect();
    CommandLosses {
        elements: counted.len() as u32,
        double_bonus: u32::from(counted.iter().any(|e| e.kind.is_double())),
        general_bonus: u32::from(
            lost.iter()
                .any(|e| e.id == c.general && counts_for_command(e)),
        ),
        camps_and_cities: stronghold_losses,
    }
}

/// At least a third of the original troop elements lost: demoralised (§14.5).
pub fn demoralising(losses: u32, original: u32) -> bool {
    original > 0 && 3 * losses >= original
}

/// At least half of the original troop elements lost: removed (§14.5).
pub fn removing(losses: u32, original: u32) -> bool {
    original > 0 && 2 * losses >= original
}

/// One command's PIP die this bound (§14.4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct CommandRoll {
    /// The command the die went to.
    pub command: CommandId,
    /// The die's score.
    pub die: DieScore,
    /// The PIPs it gives the command.
    pub pips: u8,
}
