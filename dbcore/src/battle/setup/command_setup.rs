//! The commands of a set-up (DBA3.md §14.1, §14.3, §14.4, §14.6): their ids, what each holds, how
//! an army's PIP dice go to them, and the problems a set-up's commands may have. They are set-up
//! vocabulary, below the battle that keeps each command's state ([`crate::battle::commands`],
//! which re-exports them).

use serde::{Deserialize, Serialize};
use std::fmt;

use crate::battlefield::Variant;
use crate::geometry::ElementRect;
use crate::troops::{ElementKind, TroopType};
use crate::zones::nearest_distance;

use super::{BattleSetup, ElementId, SetupProblem};

/// Elements a Big Battle army has (§14.1).
pub const BIG_BATTLE_ELEMENTS: usize = 36;
/// Commands a Big Battle army has (§14.1).
pub const BIG_BATTLE_COMMANDS: usize = 3;
/// The fewest elements a command may have (§14.1).
pub const MIN_COMMAND_ELEMENTS: usize = 6;
/// Elements of an allied command, a whole army of its own list (§14.1), and per general in
/// Giant (§14.6).
pub const ARMY_ELEMENTS: usize = 12;
/// How far from its own general an element may deploy, BW (§14.3).
pub const DEPLOY_FROM_GENERAL: f64 = 8.0;

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

/// Camp followers and denizens: not troop elements (§2.6).
pub(crate) fn is_civilian(t: TroopType) -> bool {
    matches!(t, TroopType::CampFollowers | TroopType::Denizens)
}

/// §14.1: a general who is neither the C-in-C nor an ally general may be any element of the
/// list but Lit, CWg, CP, Hd, SCh or Art, and rides an Elephant only if the C-in-C could (read
/// as: the C-in-C's own element, `c_in_c`, is an Elephant).
pub fn may_be_sub_general(kind: ElementKind, c_in_c: Option<ElementKind>) -> bool {
    let t = kind.troop_type();
    let barred = matches!(
        t,
        TroopType::Lit
            | TroopType::CWg
            | TroopType::CP
            | TroopType::Hd
            | TroopType::SCh
            | TroopType::Art
    ) || (t == TroopType::El && c_in_c.map(|k| k.troop_type()) != Some(TroopType::El));
    !barred
}

/// Every problem of the commands of a set-up (§14.1, §14.3, §14.4).
pub(in crate::battle) fn command_problems(setup: &BattleSetup, v: &mut Vec<SetupProblem>) {
    let multi = matches!(setup.variant, Variant::BigBattle | Variant::Giant);
    for (army, a) in setup.armies.iter().enumerate() {
        let name = a.name.clone();
        if !multi {
            if !a.commands.is_empty() || a.pip_allocation.is_some() {
                v.push(SetupProblem::CommandsInStandard { army: name });
            }
            continue;
        }
        if a.commands.is_empty() {
            v.push(SetupProblem::NoCommands { army: name });
            continue;
        }
        let n = a.commands.len();
        if setup.variant == Variant::BigBattle && n != BIG_BATTLE_COMMANDS {
            v.push(SetupProblem::CommandCount {
                army: name.clone(),
                count: n,
                expected: BIG_BATTLE_COMMANDS,
            });
        }
        let expected_elements = match setup.variant {
            Variant::BigBattle => BIG_BATTLE_ELEMENTS,
            _ => ARMY_ELEMENTS * n,
        };
        let troops = super::troop_elements(a);
        if !setup.free_army_size && troops != expected_elements {
            v.push(SetupProblem::ArmySize {
                army: name.clone(),
                count: troops,
                expected: expected_elements,
            });
        }
        let mut ids: Vec<CommandId> = a.commands.iter().map(|c| c.id).collect();
        ids.sort();
        for w in ids.windows(2) {
            if w[0] == w[1] {
                v.push(SetupProblem::DuplicateCommand {
                    army: name.clone(),
                    command: w[0],
                });
            }
        }
        // Every element in exactly one command; every listed element in the army.
        for e in &a.elements {
            let count = a
                .commands
                .iter()
                .filter(|c| c.elements.contains(&e.id))
                .count();
            if count != 1 {
                v.push(SetupProblem::ElementCommands {
                    army: name.clone(),
                    id: e.id,
                    count,
                });
            }
        }
        let c_in_c_kind = a
            .commands
            .iter()
            .find(|c| c.c_in_c)
            .and_then(|c| a.elements.iter().find(|e| e.id == c.general))
            .map(|e| e.kind);
        for c in &a.commands {
            for id in &c.elements {
                if !a.elements.iter().any(|e| e.id == *id) {
                    v.push(SetupProblem::UnknownCommandElement {
                        army: name.clone(),
                        command: c.id,
                        id: *id,
                    });
                }
            }
            if c.elements.len() < MIN_COMMAND_ELEMENTS {
                v.push(SetupProblem::CommandTooSmall {
                    army: name.clone(),
                    command: c.id,
                    count: c.elements.len(),
                });
            }
            if c.allied && !setup.free_army_size && c.elements.len() != ARMY_ELEMENTS {
                v.push(SetupProblem::AlliedCommandSize {
                    army: name.clone(),
                    command: c.id,
                    count: c.elements.len(),
                });
            }
            let general = a.elements.iter().find(|e| e.id == c.general);
            match general {
                Some(g) if g.general && c.elements.contains(&g.id) => {
                    if !c.c_in_c && !c.allied && !may_be_sub_general(g.kind, c_in_c_kind) {
                        v.push(SetupProblem::SubGeneralKind {
                            army: name.clone(),
                            command: c.id,
                            kind: g.kind,
                        });
                    }
                }
                _ => v.push(SetupProblem::CommandGeneral {
                    army: name.clone(),
                    command: c.id,
                    general: c.general,
                }),
            }
        }
        // Generals' elements that command nothing.
        for e in a.elements.iter().filter(|e| e.general) {
            if !a.commands.iter().any(|c| c.general == e.id) {
                v.push(SetupProblem::GeneralWithoutCommand {
                    army: name.clone(),
                    id: e.id,
                });
            }
        }
        let c_in_c = a.commands.iter().filter(|c| c.c_in_c).count();
        let allied_c_in_c = a.commands.iter().any(|c| c.c_in_c && c.allied);
        if c_in_c != 1 || allied_c_in_c {
            v.push(SetupProblem::CInC {
                army: name.clone(),
                count: c_in_c,
            });
        }
        // §14.4: the ranking names every non-allied command once; §14.6: Giant may instead
        // have every general roll.
        let mut non_allied: Vec<CommandId> = a
            .commands
            .iter()
            .filter(|c| !c.allied)
            .map(|c| c.id)
            .collect();
        non_allied.sort();
        let ranking_ok = match (&a.pip_allocation, setup.variant) {
            (Some(PipAllocation::Ranked { order }), _) => {
                let mut o = order.clone();
                o.sort();
                o == non_allied
            }
            (Some(PipAllocation::EachRolls), Variant::Giant) | (None, Variant::Giant) => true,
            _ => false,
        };
        if !ranking_ok {
            v.push(SetupProblem::PipRanking { army: name.clone() });
        }
        // §14.3: every element not in a City, Fort or camp within 8 BW of its own general.
        if !setup.sandbox {
            deployment_problems(setup, army, v);
        }
    }
}

/// §14.3: elements deployed further than 8 BW from their own command's general.
fn deployment_problems(setup: &BattleSetup, army: usize, v: &mut Vec<SetupProblem>) {
    let a = &setup.armies[army];
    let cfg = &setup.config;
    let rect = |id: ElementId| {
        a.elements
            .iter()
            .find(|e| e.id == id)
            .map(|e| ElementRect::new(e.pose, 1.0, cfg.depth(e.kind)))
    };
    let sheltered = |r: &ElementRect| {
        let inside = |p: &crate::geometry::Polygon| r.corners().iter().all(|c| p.contains(*c));
        a.camp.as_ref().is_some_and(inside)
            || a.commands
                .iter()
                .any(|c| c.camp.as_ref().is_some_and(inside))
            || setup
                .battlefield
                .areas()
                .any(|(_, f)| f.kind.is_fortified() && inside(&f.outline))
    };
    for c in &a.commands {
        let Some(g) = rect(c.general) else { continue };
        // A command held back for a littoral landing has no set-up poses (§5.5, §14.3).
        if setup.held_back.contains(&c.general) {
            continue;
        }
        for id in c.elements.iter().filter(|id| !setup.held_back.contains(id)) {
            let Some(r) = rect(*id) else { continue };
            let d = nearest_distance(&g, &r);
            if d > DEPLOY_FROM_GENERAL + crate::geometry::TOLERANCE && !sheltered(&r) {
                v.push(SetupProblem::FarFromGeneral {
                    id: *id,
                    command: c.id,
                    distance: (d * 100.0).round() / 100.0,
                });
            }
        }
    }
}
