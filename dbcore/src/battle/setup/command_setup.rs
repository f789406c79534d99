//! The commands of a set-up (DBA3.md §14.1, §14.4, §14.6): their ids, what each holds and how
//! an army's PIP dice go to them. They are set-up vocabulary, below the battle that keeps each
//! command's state ([`crate::battle::commands`], which re-exports them).

use serde::{Deserialize, Serialize};
use std::fmt;

use super::ElementId;

/// A command's identity within its army.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(transparent)]
pub struct CommandId(pub u8);

impl fmt::Display for CommandId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "command {}", self.0)
    }
}

/// One command as set up (§14.1).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct CommandSetup {
    /// The command's id, unique in its army.
    pub id: CommandId,
    /// The general's element, which must be one of `elements` and marked `general`.
    pub general: ElementId,
    /// Every element of the command, its general included.
    pub elements: Vec<ElementId>,
    /// An allied command: a whole 12-element army of its own list, with its own PIP die (§14.1,
    /// §14.4).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub allied: bool,
    /// The army's Commander-in-Chief commands it (§14.1): exactly one non-allied command.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub c_in_c: bool,
    /// An allied command's own camp (§14.3): only an allied command has one; the army's camp
    /// ([`crate::battle::setup::ArmySetup::camp`]) belongs to its non-allied commands.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub camp: Option<crate::geometry::Polygon>,
    /// The allied camp is defended by fixed camp-follower figures (§4.6, §14.3).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub camp_followers: bool,
}

/// How a side's PIP dice go to its commands (§14.4, §14.6).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case", tag = "allocation")]
#[serde(deny_unknown_fields)]
pub enum PipAllocation {
    /// The non-allied commands from the one always given the highest score to the one given the
    /// lowest, declared before the first roll (§14.4; Giant's second option, §14.6). Allied
    /// commands always have their own die.
    Ranked {
        /// The commands, highest score first; each non-allied command once.
        order: Vec<CommandId>,
    },
    /// Every general rolls his own die (Giant's first option, §14.6).
    EachRolls,
}
