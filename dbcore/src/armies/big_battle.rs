//! Choosing a Big Battle or Giant army from the lists (DBA3.md §14.1, §14.6).
//!
//! A [`BigArmyChoice`] names the army's own list and its commands. A non-allied command takes
//! elements from the entries of the army's own list; an allied command is a whole 12-element
//! army chosen from its own list ([`super::choose()`] checks it). [`choose_big`] checks the whole
//! and reports every problem at once; the result, a [`BigArmy`], is each command's elements with
//! its general marked, ready to deploy ([`BigArmy::army_setup`]).
//!
//! The limits of §14.1, as checked:
//! - A Big Battle army has 3 commands and 36 elements; a Giant army 12 elements per command
//!   (one general each, §14.6). Every command has at least 6 elements, an allied command exactly
//!   12 (its own list's army).
//! - The non-allied commands together may take each entry of the army's list up to its maximum
//!   times the number of non-allied commands: × 3 with no allied command, × 2 with one, × 1 (a
//!   normal army of its list) with two. Giant, where §14.6 is silent, follows the same rule with
//!   its own number of commands (a reading).
//! - An allied command's list is another list of the same years: another number, or the same
//!   number with another letter (its dates and the army's overlap). Two allied commands come from
//!   two different lists (in Giant: every allied command from a list of its own, a reading).
//! - Allied elements are only in allied commands: a non-allied command has no contingents (the
//!   choice has nowhere to put one).
//! - One non-allied command is the C-in-C's. The C-in-C's and every ally general's element come
//!   from their list's general's entry; any other general may be any element of the army's list
//!   but Lit, CWg, CP, Hd, SCh or Art, and an Elephant only if the C-in-C's element is one
//!   ([`crate::battle::commands::may_be_sub_general`]).
//!
//! Readings where the rules are silent:
//! - An entry of `A or B` packages is taken as one package by the whole army (as `N×A or N×B` is
//!   for a standard army, §16.1): two non-allied commands may not take different packages of it.
//! - An allied command's general is always its list's general's element (the first element of
//!   its general's entry), as [`super::choose()`] marks it.

use serde::{Deserialize, Serialize};

use super::choose::{take_entries, ArmyChoice, ArmyProblem, ChosenElement, EntryChoice};
use super::{choose, list, ArmyError, ArmyList, HomeTopography, ListId};
use crate::battle::setup::command_setup::{
    may_be_sub_general, ARMY_ELEMENTS, BIG_BATTLE_COMMANDS, BIG_BATTLE_ELEMENTS,
    MIN_COMMAND_ELEMENTS,
};
use crate::battle::{
    setup::ArmySetup, setup::CommandId, setup::CommandSetup, setup::ElementId, setup::PipAllocation,
};
use crate::battlefield::{BoardEdge, Variant};
use crate::error::{ErrorCode, ErrorInfo};
use crate::geometry::Pose;
use crate::troops::ElementKind;

/// One command as chosen: a non-allied command's elements from the army's own list, or an
/// allied command, a whole army of its own list (§14.1).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[serde(deny_unknown_fields)]
pub struct CommandChoice {
    /// An allied command's own list; `None` for a command of the army's own list.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ally: Option<ListId>,
    /// One choice per troop entry of the command's list, in the list's order.
    pub entries: Vec<EntryChoice>,
    /// Which of the command's elements (counted in entry order, from 0) is its general. `None`:
    /// the first element of its list's general's entry.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub general: Option<usize>,
    /// The army's C-in-C commands it (exactly one non-allied command).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub c_in_c: bool,
}

/// A Big Battle or Giant army as chosen: its variant, its own list and its commands.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[serde(deny_unknown_fields)]
pub struct BigArmyChoice {
    /// Big Battle or Giant; any other variant is refused.
    pub variant: Variant,
    /// The army's own list, which its non-allied commands draw on.
    pub list: ListId,
    /// The commands, in the order their ids are given (command 0 first).
    pub commands: Vec<CommandChoice>,
}

/// One command of a chosen army: its elements in entry order, exactly one marked `general`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[serde(deny_unknown_fields)]
pub struct ChosenCommand {
    /// The command's id, its place among the army's commands.
    pub id: CommandId,
    /// An allied command's own list; `None` for a command of the army's own list.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ally: Option<ListId>,
    /// The army's C-in-C commands it.
    pub c_in_c: bool,
    /// Its elements in entry order; exactly one is marked as the general.
    pub elements: Vec<ChosenElement>,
}

/// A valid Big Battle or Giant army.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[serde(deny_unknown_fields)]
pub struct BigArmy {
    /// Big Battle or Giant.
    pub variant: Variant,
    /// The army's own list.
    pub list: ListId,
    /// The army's name, from its list.
    pub name: String,
    /// The list's aggression factor (§5.1).
    pub aggression: u8,
    /// The list's home topography (§3.7).
    pub home: HomeTopography,
    /// Its commands, command 0 first.
    pub commands: Vec<ChosenCommand>,
}

/// One thing wrong with a Big Battle or Giant army choice (§14.1, §14.6).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, thiserror::Error)]
#[serde(rename_all = "snake_case", tag = "problem")]
#[serde(deny_unknown_fields)]
pub enum BigArmyProblem {
    /// The variant is not chosen by commands (§14).
    #[error("§14: a {variant:?} army is not chosen by commands; only Big Battle and Giant are")]
    Variant {
        /// The variant given.
        variant: Variant,
    },
    #[error("§14.1: a Big Battle army has {expected} commands, not {count}")]
    /// A Big Battle army without its 3 commands (§14.1).
    CommandCount {
        /// Commands given.
        count: usize,
        /// Commands needed.
        expected: usize,
    },
    #[error("§14.1: the army has {count} elements; it needs {expected}")]
    /// The army has not the number of elements its variant needs (§14.1, §14.6).
    ArmySize {
        /// Elements given.
        count: usize,
        /// Elements needed.
        expected: usize,
    },
    #[error(
        "§14.1: {command} has {count} elements; a command has at least {MIN_COMMAND_ELEMENTS}"
    )]
    /// A command with fewer than 6 elements (§14.1).
    CommandTooSmall {
        /// The command.
        command: CommandId,
        /// Its elements.
        count: usize,
    },
    /// A problem of the entries taken from a list; `command` is `None` when it is the
    /// non-allied commands' total against the list's multiplied maxima.
    #[error("§14.1: {}: {detail}", command.map_or("the army's own commands together".to_string(), |c| c.to_string()))]
    List {
        /// The command whose entries are wrong, or `None` for the non-allied commands' total.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        command: Option<CommandId>,
        /// What is wrong with the entries.
        detail: ArmyProblem,
    },
    #[error(
        "§14.1: allied {command} is from {list}, the army's own list; an ally is another list"
    )]
    /// An allied command from the army's own list (§14.1).
    AllyOwnList {
        /// The allied command.
        command: CommandId,
        /// Its list, the army's own.
        list: ListId,
    },
    #[error(
        "§14.1: allied {command}'s list {list} ({ally_dates}) is not of the army's years ({dates})"
    )]
    /// An allied command whose list's years do not overlap the army's (§14.1).
    AllyYears {
        /// The allied command.
        command: CommandId,
        /// Its list.
        list: ListId,
        /// The ally list's dates, as the list gives them.
        ally_dates: String,
        /// The army list's dates.
        dates: String,
    },
    #[error("§14.1: two allied commands must come from different lists; both are from {list}")]
    /// Two allied commands from the same list (§14.1).
    SameAllyTwice {
        /// The list both come from.
        list: ListId,
    },
    #[error("§14.1: entry {entry} is taken as alternative {a} by one command and {b} by another; the army takes one")]
    /// Two non-allied commands take different packages of one `A or B` entry (a reading).
    PackagesDiffer {
        /// The entry's index in the army's list.
        entry: usize,
        /// The alternative one command takes.
        a: usize,
        /// The alternative another command takes.
        b: usize,
    },
    #[error("§14.1: the army must have exactly one C-in-C, commanding a non-allied command, not {count}")]
    /// Not exactly one C-in-C, or the C-in-C at the head of an allied command (§14.1).
    CInC {
        /// C-in-Cs marked.
        count: usize,
    },
    #[error("§14.1: {command} has no general: element {index} is not one of its {count} elements")]
    /// A command's general index names no element of it.
    NoGeneral {
        /// The command.
        command: CommandId,
        /// The index given.
        index: usize,
        /// The command's elements.
        count: usize,
    },
    #[error("§14.1: {command} has no element of its list's general's entry to be its general")]
    /// A command that must be led by its list's general has no element of that entry (§14.1).
    NoGeneralEntry {
        /// The command.
        command: CommandId,
    },
    #[error("§14.1: the general of {command} must be of its list's general's entry (the C-in-C and ally generals are the list's general type)")]
    /// The C-in-C's or an ally general's element is not of its list's general's entry (§14.1).
    GeneralType {
        /// The command.
        command: CommandId,
        /// The element kind chosen as its general.
        kind: ElementKind,
    },
    #[error("§14.1: the general of {command} may not be {kind} (not Lit, CWg, CP, Hd, SCh or Art; an Elephant only if the C-in-C rides one)")]
    /// A sub-general of a kind §14.1 forbids.
    SubGeneralKind {
        /// The command.
        command: CommandId,
        /// The element kind chosen as its general.
        kind: ElementKind,
    },
}

/// A refused Big Battle or Giant army choice.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BigArmyError {
    /// The army's own list id names no bundled list.
    #[error("§16: no bundled army list `{0}`")]
    UnknownList(ListId),
    /// Every problem of the choice.
    #[error("the army breaks §14.1: {}", .0.iter().map(ToString::to_string).collect::<Vec<_>>().join("; "))]
    Invalid(Vec<BigArmyProblem>),
}

impl ErrorInfo for BigArmyError {
    fn code(&self) -> ErrorCode {
        match self {
            BigArmyError::UnknownList(_) => ErrorCode::InvalidArgument,
            BigArmyError::Invalid(_) => ErrorCode::InvalidSetup,
        }
    }
    fn rule(&self) -> Option<&'static str> {
        match self {
            BigArmyError::UnknownList(_) => Some("§16"),
            BigArmyError::Invalid(_) => Some("§14.1"),
        }
    }
}

/// The list with every part's count multiplied by `k` (§14.1: "triple every list maximum").
fn multiplied(l: &ArmyList, k: usize) -> ArmyList {
    let mut m = l.clone();
    for part in m
        .troops
        .iter_mut()
        .flat_map(|e| e.packages.iter_mut())
        .flat_map(|p| p.parts.iter_mut())
    {
        part.count = u8::try_from(usize::from(part.count) * k).unwrap_or(u8::MAX);
    }
    m
}

/// The entry (index in its list) each of a command's elements comes from, in element order.
fn entry_of_elements(entries: &[EntryChoice]) -> Vec<usize> {
    entries
        .iter()
        .enumerate()
        .flat_map(|(i, e)| std::iter::repeat_n(i, e.elements.len()))
        .collect()
}

/// Validate `choice` against §14.1 (and §14.6 in Giant) and the lists, and build the army.
pub fn choose_big(choice: &BigArmyChoice) -> Result<BigArmy, BigArmyError> {
    let main = list(&choice.list).ok_or(BigArmyError::UnknownList(choice.list))?;
    let mut problems = Vec::new();
    let n = choice.commands.len();
    let expected_elements = match choice.variant {
        Variant::BigBattle => {
            if n != BIG_BATTLE_COMMANDS {
                problems.push(BigArmyProblem::CommandCount {
                    count: n,
                    expected: BIG_BATTLE_COMMANDS,
                });
            }
            BIG_BATTLE_ELEMENTS
        }
        Variant::Giant => ARMY_ELEMENTS * n,
        variant => {
            return Err(BigArmyError::Invalid(vec![BigArmyProblem::Variant {
                variant,
            }]))
        }
    };
    let id = |i: usize| CommandId(u8::try_from(i).unwrap_or(u8::MAX));

    // Allied commands: whole armies of other lists of the same years.
    let mut commands: Vec<ChosenCommand> = Vec::with_capacity(n);
    let mut ally_lists: Vec<ListId> = Vec::new();
    for (i, c) in choice.commands.iter().enumerate() {
        let Some(ally) = c.ally else { continue };
        if ally_lists.contains(&ally) {
            problems.push(BigArmyProblem::SameAllyTwice { list: ally });
        }
        ally_lists.push(ally);
        if ally == main.id {
            problems.push(BigArmyProblem::AllyOwnList {
                command: id(i),
                list: ally,
            });
        }
        if let Some(l) = list(&ally) {
            if l.dates.from > main.dates.to || main.dates.from > l.dates.to {
                problems.push(BigArmyProblem::AllyYears {
                    command: id(i),
                    list: ally,
                    ally_dates: l.dates.text.clone(),
                    dates: main.dates.text.clone(),
                });
            }
        }
        let army = choose(&ArmyChoice {
            list: ally,
            entries: c.entries.clone(),
            allies: Vec::new(),
        });
        let elements = match army {
            Ok(a) => a.elements,
            Err(ArmyError::UnknownList(list)) => {
                problems.push(BigArmyProblem::List {
                    command: Some(id(i)),
                    detail: ArmyProblem::UnknownList { list },
                });
                Vec::new()
            }
            Err(ArmyError::Invalid(ps)) => {
                problems.extend(ps.into_iter().map(|detail| BigArmyProblem::List {
                    command: Some(id(i)),
                    detail,
                }));
                Vec::new()
            }
        };
        if let (Some(g), false) = (c.general, elements.is_empty()) {
            match elements.get(g) {
                None => problems.push(BigArmyProblem::NoGeneral {
                    command: id(i),
                    index: g,
                    count: elements.len(),
                }),
                Some(e) if !e.general => problems.push(BigArmyProblem::GeneralType {
                    command: id(i),
                    kind: e.kind,
                }),
                Some(_) => {}
            }
        }
        commands.push(ChosenCommand {
            id: id(i),
            ally: Some(ally),
            c_in_c: false,
            elements,
        });
    }

    // The non-allied commands together, against the list times their number.
    let own: Vec<usize> = (0..n)
        .filter(|i| choice.commands[*i].ally.is_none())
        .collect();
    let scaled = multiplied(main, own.len());
    let entries = main.troops.len().max(
        own.iter()
            .map(|i| choice.commands[*i].entries.len())
            .max()
            .unwrap_or(0),
    );
    let mut combined: Vec<EntryChoice> = Vec::with_capacity(entries);
    for e in 0..entries {
        let mut total = EntryChoice {
            package: 0,
            elements: Vec::new(),
        };
        let mut package: Option<usize> = None;
        for i in &own {
            let Some(c) = choice.commands[*i].entries.get(e) else {
                continue;
            };
            if c.elements.is_empty() {
                continue;
            }
            match package {
                Some(p) if p != c.package => problems.push(BigArmyProblem::PackagesDiffer {
                    entry: e,
                    a: p,
                    b: c.package,
                }),
                _ => package = Some(c.package),
            }
            total.elements.extend(c.elements.iter().copied());
        }
        total.package = package.unwrap_or(0);
        combined.push(total);
    }
    let mut found = Vec::new();
    take_entries(&scaled, None, &combined, &mut Vec::new(), &mut found);
    problems.extend(found.into_iter().map(|detail| BigArmyProblem::List {
        command: None,
        detail,
    }));
    let gen_entry = main.general_entry().map(|(i, _)| i);
    for i in &own {
        let c = &choice.commands[*i];
        let mut elements = Vec::new();
        // Each command's share is checked as a part of the whole above.
        take_entries(&scaled, None, &c.entries, &mut elements, &mut Vec::new());
        for e in &mut elements {
            e.general = false;
        }
        commands.push(ChosenCommand {
            id: id(*i),
            ally: None,
            c_in_c: c.c_in_c,
            elements,
        });
    }
    commands.sort_by_key(|c| c.id);

    // The C-in-C and the generals.
    let c_in_c = choice.commands.iter().filter(|c| c.c_in_c).count();
    let allied_c_in_c = choice.commands.iter().any(|c| c.c_in_c && c.ally.is_some());
    if c_in_c != 1 || allied_c_in_c {
        problems.push(BigArmyProblem::CInC { count: c_in_c });
    }
    let general_index = |c: &CommandChoice| -> Option<usize> {
        c.general.or_else(|| {
            let from = entry_of_elements(&c.entries);
            from.iter().position(|e| Some(*e) == gen_entry)
        })
    };
    let c_in_c_kind = own
        .iter()
        .find(|i| choice.commands[**i].c_in_c)
        .and_then(|i| {
            let g = general_index(&choice.commands[*i])?;
            commands[*i].elements.get(g).map(|e| e.kind)
        });
    for i in &own {
        let c = &choice.commands[*i];
        let count = commands[*i].elements.len();
        let Some(g) = general_index(c) else {
            problems.push(BigArmyProblem::NoGeneralEntry { command: id(*i) });
            continue;
        };
        let Some(kind) = commands[*i].elements.get(g).map(|e| e.kind) else {
            problems.push(BigArmyProblem::NoGeneral {
                command: id(*i),
                index: g,
                count,
            });
            continue;
        };
        let from_gen_entry = entry_of_elements(&c.entries).get(g).copied() == gen_entry;
        if c.c_in_c && !from_gen_entry {
            problems.push(BigArmyProblem::GeneralType {
                command: id(*i),
                kind,
            });
        } else if !c.c_in_c && !may_be_sub_general(kind, c_in_c_kind) {
            problems.push(BigArmyProblem::SubGeneralKind {
                command: id(*i),
                kind,
            });
        }
        commands[*i].elements[g].general = true;
    }

    // Sizes.
    for c in &commands {
        if c.elements.len() < MIN_COMMAND_ELEMENTS {
            problems.push(BigArmyProblem::CommandTooSmall {
                command: c.id,
                count: c.elements.len(),
            });
        }
    }
    let total: usize = commands.iter().map(|c| c.elements.len()).sum();
    if total != expected_elements {
        problems.push(BigArmyProblem::ArmySize {
            count: total,
            expected: expected_elements,
        });
    }
    if !problems.is_empty() {
        return Err(BigArmyError::Invalid(problems));
    }
    Ok(BigArmy {
        variant: choice.variant,
        list: main.id,
        name: main.name.clone(),
        aggression: main.aggression,
        home: main.home.clone(),
        commands,
    })
}

/// A legal choice for a list with no allies: every command takes the list's default army
/// ([`super::choose::default_choice`]), the first command is the C-in-C's, and each other
/// command's general is the first of its elements that §14.1 lets be one (the general's own
/// entry first). `commands` is 3 for Big Battle.
pub fn default_big_choice(l: &ArmyList, variant: Variant, commands: usize) -> BigArmyChoice {
    let base = super::choose::default_choice(l).entries;
    let gen_entry = l.general_entry().map(|(i, _)| i);
    let from = entry_of_elements(&base);
    let kinds: Vec<ElementKind> = base
        .iter()
        .flat_map(|e| e.elements.iter().map(|f| f.kind))
        .collect();
    let c_in_c_at = from.iter().position(|e| Some(*e) == gen_entry);
    let c_in_c_kind = c_in_c_at.and_then(|g| kinds.get(g).copied());
    let sub_general = c_in_c_at
        .filter(|g| may_be_sub_general(kinds[*g], c_in_c_kind))
        .or_else(|| {
            kinds
                .iter()
                .position(|k| may_be_sub_general(*k, c_in_c_kind))
        });
    BigArmyChoice {
        variant,
        list: l.id,
        commands: (0..commands)
            .map(|i| CommandChoice {
                ally: None,
                entries: base.clone(),
                general: if i == 0 { None } else { sub_general },
                c_in_c: i == 0,
            })
            .collect(),
    }
}

impl BigArmy {
    /// The army as a battle set-up: element ids from `first_id` upwards in command order, each
    /// element at the pose `pose(command, index)` gives it, the commands listed (§14.1) and the
    /// non-allied commands' dice ranked in command order (§14.4; in Giant every general rolls,
    /// §14.6). No camp: the set-up's caller places one.
    pub fn army_setup(
        &self,
        base_edge: BoardEdge,
        first_id: u32,
        pose: impl Fn(usize, usize) -> Pose,
    ) -> ArmySetup {
        let mut elements = Vec::new();
        let mut commands = Vec::new();
        let mut next = first_id;
        for (ci, c) in self.commands.iter().enumerate() {
            let mut ids = Vec::with_capacity(c.elements.len());
            let mut general = ElementId(next);
            for (i, e) in c.elements.iter().enumerate() {
                let id = ElementId(next);
                next += 1;
                if e.general {
                    general = id;
                }
                ids.push(id);
                elements.push(e.to_setup(id, pose(ci, i)));
            }
            commands.push(CommandSetup {
                id: c.id,
                general,
                elements: ids,
                allied: c.ally.is_some(),
                c_in_c: c.c_in_c,
                camp: None,
                camp_followers: false,
            });
        }
        let pip_allocation = match self.variant {
            Variant::Giant => PipAllocation::EachRolls,
            _ => PipAllocation::Ranked {
                order: self
                    .commands
                    .iter()
                    .filter(|c| c.ally.is_none())
                    .map(|c| c.id)
                    .collect(),
            },
        };
        ArmySetup {
            name: format!("{} ({})", self.name, self.list),
            base_edge,
            elements,
            camp: None,
            camp_followers: false,
            commands,
            pip_allocation: Some(pip_allocation),
        }
    }
}
