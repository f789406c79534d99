//! Choosing an army from its list (DBA3.md §2.3, §2.5, §15.3, §16.1, §16.4).
//!
//! An [`ArmyChoice`] names the list and, for every troop entry in order, the package taken and
//! how each element is fielded; optionally one allied contingent of 3 elements, or two of 2 from
//! different lists (§16.4), each given the same way against its own list. [`choose`] checks it
//! and reports every problem at once; the result, an [`Army`], is 12 elements ready to deploy.
//!
//! Readings where the lists and the digest are silent:
//! - Notes on a choice (`(if Olympias)`, `(from 704BC)`) are not enforced: the referee does not
//!   know which sub-list or year the players mean.
//! - `A//B` elements are set mounted or dismounted one by one (§15.3 says they may be set at the
//!   start of each game; only `A/B` is required to be all alike, §2.3).
//! - A contingent's general is its list's `(Gen)` entry; "the entry that allows the most
//!   elements" is judged among the other entries, by the size of their largest package.
//! - Elements the main army gives up for its contingents may come from any entry but the
//!   general's (§16.4: never the main army's general).
//! - A War Wagon whose note mentions a tower is a mobile tower (§4.7).

use serde::{Deserialize, Serialize};

use super::entry::{Fielded, Package, Troop, TroopEntry};
use super::{list, ArmyList, HomeTopography, ListId};
use crate::battle::{setup::ElementId, setup::ElementSetup};
use crate::error::{ErrorCode, ErrorInfo};
use crate::geometry::Pose;
use crate::troops::ElementKind;

/// What the player takes from one troop entry.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[serde(deny_unknown_fields)]
pub struct EntryChoice {
    /// Which of the entry's `or` packages (0 for the first).
    #[serde(default)]
    pub package: usize,
    /// One per element taken: `"4Bd"`, or `"3Kn//4Bd"` for a mounted element that may dismount.
    #[serde(default)]
    pub elements: Vec<Fielded>,
}

/// An allied contingent (§16.4): elements from the entries of its own list, in the order of
/// that list's entries (entries left out give no elements).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[serde(deny_unknown_fields)]
pub struct ContingentChoice {
    /// The ally's own list.
    pub list: ListId,
    /// One choice per troop entry of that list, in its order.
    pub entries: Vec<EntryChoice>,
}

/// A chosen army: its list, one choice per troop entry, and any allied contingents.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[serde(deny_unknown_fields)]
pub struct ArmyChoice {
    /// The army's list.
    pub list: ListId,
    /// One choice per troop entry of the list, in its order.
    pub entries: Vec<EntryChoice>,
    /// Allied contingents, at most two (§16.4). Omitted from JSON when empty.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub allies: Vec<ContingentChoice>,
}

/// One element of a chosen army, as a battle set-up needs it (without a position).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[serde(deny_unknown_fields)]
pub struct ChosenElement {
    /// What troops it is.
    pub kind: ElementKind,
    /// The general's element; in a contingent, its general, who does not act as one (§16.4).
    pub general: bool,
    /// Allied contingent number (1 or 2), if any.
    #[serde(default)]
    pub contingent: Option<u8>,
    /// For a `A//B` element, the foot kind it may dismount into (§2.3, §7.9).
    #[serde(default)]
    pub dismounts_as: Option<ElementKind>,
    /// A War Wagon that is a mobile tower (§4.7). Omitted from JSON when false.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub mobile_tower: bool,
}

impl ChosenElement {
    /// The battle set-up of this element at `pose`.
    pub fn to_setup(&self, id: ElementId, pose: Pose) -> ElementSetup {
        ElementSetup {
            id,
            kind: self.kind,
            pose,
            general: self.general,
            contingent: self.contingent,
            dismounts_as: self.dismounts_as,
            mobile_tower: self.mobile_tower,
        }
    }
}

/// A valid army: 12 elements with what the pre-battle sequence needs of its list.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[serde(deny_unknown_fields)]
pub struct Army {
    /// The army's list.
    pub list: ListId,
    /// The list's name.
    pub name: String,
    /// The list's aggression, 0 to 4 (§16.2, §5.1).
    pub aggression: u8,
    /// The list's home terrain, which decides the features its defender may choose (§3.7).
    pub home: HomeTopography,
    /// Its 12 elements, those of allied contingents marked by `contingent`.
    pub elements: Vec<ChosenElement>,
}

/// Where a problem is: the main army (`contingent` none) or a contingent, and the entry.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[serde(deny_unknown_fields)]
pub struct EntryRef {
    /// The list whose entry it is.
    pub list: ListId,
    /// Contingent number (1 or 2) when the entry is an ally's.
    #[serde(default)]
    pub contingent: Option<u8>,
    /// The entry's index (0-based) in its list.
    pub index: usize,
    /// The entry as the list writes it.
    pub text: String,
}

/// One thing wrong with an army choice.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, thiserror::Error)]
#[serde(rename_all = "snake_case", tag = "problem")]
#[serde(deny_unknown_fields)]
pub enum ArmyProblem {
    /// The list id names no bundled list (§16).
    #[error("§16: no bundled army list `{list}`")]
    UnknownList {
        /// The id.
        list: ListId,
    },
    /// More entry choices than the list has entries (§16).
    #[error("§16: list {list} has {entries} troop entries, but {given} were chosen")]
    TooManyEntries {
        /// The list.
        list: ListId,
        /// Its troop entries.
        entries: usize,
        /// Entry choices given.
        given: usize,
    },
    /// An entry's alternative number does not exist (§16.1).
    #[error("§16.1: entry {} `{}` has {packages} alternatives, not an alternative number {package}", entry.index, entry.text)]
    NoSuchPackage {
        /// The entry.
        entry: EntryRef,
        /// The alternative asked for, from 0.
        package: usize,
        /// Alternatives the entry has.
        packages: usize,
    },
    /// More elements taken from an entry than it allows (§16.1).
    #[error("§16.1: entry {} `{}` allows {allowed} elements, {given} were taken", entry.index, entry.text)]
    TooManyElements {
        /// The entry.
        entry: EntryRef,
        /// Elements it allows.
        allowed: u32,
        /// Elements taken.
        given: usize,
    },
    /// An element the entry does not give, or more of it than the entry allows (§16.1).
    #[error("§16.1: entry {} `{}` does not allow `{element}` (or not that many of it)", entry.index, entry.text)]
    NotAllowed {
        /// The entry.
        entry: EntryRef,
        /// The element refused.
        element: Fielded,
    },
    /// An `A/B` entry fielded as both kinds at once (§2.3).
    #[error("§2.3: entry {} `{}` fields `{a}` and `{b}` together, but A/B elements are all one or all the other", entry.index, entry.text)]
    MixedEither {
        /// The entry.
        entry: EntryRef,
        /// One kind taken.
        a: ElementKind,
        /// The other kind taken.
        b: ElementKind,
    },
    /// The general's entry gives no elements (§2.5).
    #[error("§2.5: the general's entry {} `{}` must give its elements (the general is never replaced by allies)", entry.index, entry.text)]
    GeneralMissing {
        /// The entry.
        entry: EntryRef,
    },
    /// The list has no entry marked `(Gen)` (§2.5).
    #[error("§2.5: list {list} has no entry marked (Gen)")]
    NoGeneralEntry {
        /// The list.
        list: ListId,
    },
    /// The army does not have 12 elements (§2.5).
    #[error("§2.5: an army has 12 elements, this one {main} of its own and {allied} allied")]
    WrongTotal {
        /// Elements of its own.
        main: usize,
        /// Allied elements.
        allied: usize,
    },
    /// More than two allied contingents (§16.4).
    #[error("§16.4: at most two allied contingents, not {count}")]
    TooManyContingents {
        /// Contingents given.
        count: usize,
    },
    /// The list is not among the army's allowed allies (§16.4).
    #[error("§16.4: list {list} is not among the allies of {army}")]
    AllyNotAllowed {
        /// The army's list.
        army: ListId,
        /// The ally's list.
        list: ListId,
    },
    /// Two contingents from one list (§16.4).
    #[error("§16.4: two contingents must come from different armies, both are from {list}")]
    SameAllyTwice {
        /// The list.
        list: ListId,
    },
    /// An allied contingent of the wrong size (§16.4).
    #[error("§16.4: allied contingent {contingent} has {given} elements, it must have exactly {required}")]
    ContingentSize {
        /// The contingent's number.
        contingent: u8,
        /// Elements it has.
        given: usize,
        /// Elements it must have.
        required: usize,
    },
    /// An allied contingent without its general's element (§16.4).
    #[error("§16.4: allied contingent {contingent} must include its own general's element")]
    ContingentWithoutGeneral {
        /// The contingent's number.
        contingent: u8,
    },
    /// An allied contingent with nothing from its list's largest entry (§16.4).
    #[error("§16.4: allied contingent {contingent} must include an element from its list's largest entry ({})", entries.join(" or "))]
    ContingentWithoutLargestEntry {
        /// The contingent's number.
        contingent: u8,
        /// The largest entries, as the list writes them.
        entries: Vec<String>,
    },
}

impl ArmyProblem {
    /// The rules section that refuses it.
    pub fn rule(&self) -> &'static str {
        use ArmyProblem::*;
        match self {
            UnknownList { .. } => "§16",
            TooManyEntries { .. } | NoSuchPackage { .. } | TooManyElements { .. } => "§16.1",
            NotAllowed { .. } => "§16.1",
            MixedEither { .. } => "§2.3",
            GeneralMissing { .. } | NoGeneralEntry { .. } | WrongTotal { .. } => "§2.5",
            _ => "§16.4",
        }
    }
}

/// A refused army choice.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ArmyError {
    /// The list id names no bundled list.
    #[error("§16: no bundled army list `{0}`")]
    UnknownList(ListId),
    /// Every problem with the choice, in the order of the lists' entries.
    #[error("the army breaks its list: {}", .0.iter().map(ToString::to_string).collect::<Vec<_>>().join("; "))]
    Invalid(Vec<ArmyProblem>),
}

impl ErrorInfo for ArmyError {
    fn code(&self) -> ErrorCode {
        match self {
            ArmyError::UnknownList(_) => ErrorCode::InvalidArgument,
            ArmyError::Invalid(_) => ErrorCode::InvalidSetup,
        }
    }
    fn rule(&self) -> Option<&'static str> {
        match self {
            ArmyError::UnknownList(_) => Some("§16"),
            ArmyError::Invalid(p) => p.first().map(ArmyProblem::rule),
        }
    }
}

/// Validate `choice` against its list (and its allies' lists) and build the army.
pub fn choose(choice: &ArmyChoice) -> Result<Army, ArmyError> {
    let main = list(&choice.list).ok_or(ArmyError::UnknownList(choice.list))?;
    let mut problems = Vec::new();
    let mut elements = Vec::new();

    let Some((gen_index, _)) = main.general_entry() else {
        return Err(ArmyError::Invalid(vec![ArmyProblem::NoGeneralEntry {
            list: main.id,
        }]));
    };
    take_entries(main, None, &choice.entries, &mut elements, &mut problems);
    let main_count = elements.len();
    let given_gen = choice
        .entries
        .get(gen_index)
        .map_or(0, |e| e.elements.len());
    let gen_entry = &main.troops[gen_index];
    if given_gen < gen_entry.elements() as usize {
        problems.push(ArmyProblem::GeneralMissing {
            entry: entry_ref(main, None, gen_index),
        });
    }

    let allies = &choice.allies;
    if allies.len() > 2 {
        problems.push(ArmyProblem::TooManyContingents {
            count: allies.len(),
        });
    }
    if allies.len() == 2 && allies[0].list == allies[1].list {
        problems.push(ArmyProblem::SameAllyTwice {
            list: allies[0].list,
        });
    }
    let required = if allies.len() >= 2 { 2 } else { 3 };
    let mut allied = 0;
    for (i, c) in allies.iter().enumerate() {
        let number = (i + 1) as u8;
        let Some(ally) = list(&c.list) else {
            problems.push(ArmyProblem::UnknownList { list: c.list });
            allied += c.entries.iter().map(|e| e.elements.len()).sum::<usize>();
            continue;
        };
        if !main.allows_ally(ally.id) {
            problems.push(ArmyProblem::AllyNotAllowed {
                army: main.id,
                list: ally.id,
            });
        }
        let before = elements.len();
        take_entries(ally, Some(number), &c.entries, &mut elements, &mut problems);
        let given = elements.len() - before;
        allied += given;
        if given != required {
            problems.push(ArmyProblem::ContingentSize {
                contingent: number,
                given,
                required,
            });
        }
        contingent_rules(ally, number, c, &mut problems);
    }
    if allies.len() == 2 && !two_allowed_together(main, allies[0].list, allies[1].list) {
        problems.push(ArmyProblem::AllyNotAllowed {
            army: main.id,
            list: allies[1].list,
        });
    }
    if main_count + allied != 12 {
        problems.push(ArmyProblem::WrongTotal {
            main: main_count,
            allied,
        });
    }
    if !problems.is_empty() {
        return Err(ArmyError::Invalid(problems));
    }
    Ok(Army {
        list: main.id,
        name: main.name.clone(),
        aggression: main.aggression,
        home: main.home.clone(),
        elements,
    })
}

/// The first legal choice of every entry: its first package, every element the first way its
/// first choice may be fielded (`A//B` mounted, `A/B` as A). No allies.
pub fn default_army(list_id: &ListId) -> Result<Army, ArmyError> {
    let l = list(list_id).ok_or(ArmyError::UnknownList(*list_id))?;
    choose(&default_choice(l))
}

/// The choice [`default_army`] makes for `l`.
pub fn default_choice(l: &ArmyList) -> ArmyChoice {
    ArmyChoice {
        list: l.id,
        entries: l.troops.iter().map(default_entry).collect(),
        allies: Vec::new(),
    }
}

fn default_entry(e: &TroopEntry) -> EntryChoice {
    let mut elements = Vec::new();
    if let Some(p) = e.packages.first() {
        for part in &p.parts {
            let f = part.choices[0].troop.fieldings()[0];
            elements.extend(std::iter::repeat_n(f, usize::from(part.count)));
        }
    }
    EntryChoice {
        package: 0,
        elements,
    }
}

fn entry_ref(l: &ArmyList, contingent: Option<u8>, index: usize) -> EntryRef {
    EntryRef {
        list: l.id,
        contingent,
        index,
        text: l.troops[index].to_string(),
    }
}

/// Check each entry's choice and add its elements.
pub(super) fn take_entries(
    l: &ArmyList,
    contingent: Option<u8>,
    choices: &[EntryChoice],
    out: &mut Vec<ChosenElement>,
    problems: &mut Vec<ArmyProblem>,
) {
    if choices.len() > l.troops.len() {
        problems.push(ArmyProblem::TooManyEntries {
            list: l.id,
            entries: l.troops.len(),
            given: choices.len(),
        });
    }
    for (index, (entry, c)) in l.troops.iter().zip(choices).enumerate() {
        if c.elements.is_empty() {
            continue;
        }
        let here = || entry_ref(l, contingent, index);
        let Some(package) = entry.packages.get(c.package) else {
            problems.push(ArmyProblem::NoSuchPackage {
                entry: here(),
                package: c.package,
                packages: entry.packages.len(),
            });
            continue;
        };
        let allowed = package.elements();
        if c.elements.len() > allowed as usize {
            problems.push(ArmyProblem::TooManyElements {
                entry: here(),
                allowed,
                given: c.elements.len(),
            });
            continue;
        }
        match assign(package, &c.elements) {
            Err(bad) => problems.push(ArmyProblem::NotAllowed {
                entry: here(),
                element: bad,
            }),
            Ok(slots) => {
                if let Some((a, b)) = mixed_either(package, &c.elements) {
                    problems.push(ArmyProblem::MixedEither {
                        entry: here(),
                        a,
                        b,
                    });
                }
                for (f, slot) in c.elements.iter().zip(slots) {
                    let note = slot.note.unwrap_or("");
                    out.push(ChosenElement {
                        kind: f.kind,
                        general: entry.general && !out_has_general(out, contingent),
                        contingent,
                        dismounts_as: f.dismounts_as,
                        mobile_tower: f.kind.troop_type() == crate::TroopType::WWg
                            && note.to_lowercase().contains("tower"),
                    });
                }
            }
        }
    }
}

fn out_has_general(out: &[ChosenElement], contingent: Option<u8>) -> bool {
    out.iter().any(|e| e.general && e.contingent == contingent)
}

/// A slot of a package that one element fills.
#[derive(Clone, Copy)]
struct Slot<'a> {
    note: Option<&'a str>,
}

/// Assign each fielded element to a distinct slot of the package that allows it (a bipartite
/// matching, so that `1x4Pk, 1x4Pk or 4Bw` takes 4Bw and 4Pk in either order). On failure, the
/// first element that found no slot.
fn assign<'a>(package: &'a Package, elements: &[Fielded]) -> Result<Vec<Slot<'a>>, Fielded> {
    // Slots: (part index, the ways it may be fielded with each way's note).
    let mut slots: Vec<Vec<(Fielded, Option<&'a str>)>> = Vec::new();
    for part in &package.parts {
        let ways: Vec<(Fielded, Option<&'a str>)> = part
            .choices
            .iter()
            .flat_map(|c| {
                c.troop
                    .fieldings()
                    .into_iter()
                    .map(move |f| (f, c.note.as_deref()))
            })
            .collect();
        for _ in 0..part.count {
            slots.push(ways.clone());
        }
    }
    let fits = |e: usize, s: usize| slots[s].iter().any(|(f, _)| *f == elements[e]);
    let mut owner: Vec<Option<usize>> = vec![None; slots.len()];
    fn augment(
        e: usize,
        seen: &mut [bool],
        owner: &mut [Option<usize>],
        fits: &dyn Fn(usize, usize) -> bool,
    ) -> bool {
        for s in 0..owner.len() {
            if !seen[s] && fits(e, s) {
                seen[s] = true;
                if owner[s].is_none_or(|o| augment(o, seen, owner, fits)) {
                    owner[s] = Some(e);
                    return true;
                }
            }
        }
        false
    }
    for (e, &element) in elements.iter().enumerate() {
        let mut seen = vec![false; slots.len()];
        if !augment(e, &mut seen, &mut owner, &fits) {
            return Err(element);
        }
    }
    let mut result: Vec<Option<Slot<'a>>> = vec![None; elements.len()];
    for (s, o) in owner.iter().enumerate() {
        if let Some(e) = *o {
            let note = slots[s]
                .iter()
                .find(|(f, _)| *f == elements[e])
                .and_then(|(_, n)| *n);
            result[e] = Some(Slot { note });
        }
    }
    Ok(result
        .into_iter()
        .map(|s| s.unwrap_or(Slot { note: None }))
        .collect())
}

/// An `A/B` troop of the package whose two kinds are both fielded, when no other choice of the
/// package offers either of them on its own.
fn mixed_either(package: &Package, elements: &[Fielded]) -> Option<(ElementKind, ElementKind)> {
    let troops: Vec<Troop> = package
        .parts
        .iter()
        .flat_map(|p| p.choices.iter().map(|c| c.troop))
        .collect();
    troops.iter().find_map(|t| match *t {
        Troop::Either(a, b) => {
            let has = |k: ElementKind| elements.iter().any(|f| f.kind == k);
            let elsewhere = |k: ElementKind| {
                troops
                    .iter()
                    .filter(|o| *o != t)
                    .any(|o| o.fieldings().iter().any(|f| f.kind == k))
            };
            (has(a) && has(b) && !elsewhere(a) && !elsewhere(b)).then_some((a, b))
        }
        _ => None,
    })
}

/// The contingent's own rules (§16.4): its general and an element of its largest entry.
fn contingent_rules(
    ally: &ArmyList,
    number: u8,
    c: &ContingentChoice,
    problems: &mut Vec<ArmyProblem>,
) {
    let taken = |i: usize| c.entries.get(i).is_some_and(|e| !e.elements.is_empty());
    match ally.general_entry() {
        Some((gi, _)) if taken(gi) => {}
        _ => problems.push(ArmyProblem::ContingentWithoutGeneral { contingent: number }),
    }
    let size = |e: &TroopEntry| e.packages.iter().map(Package::elements).max().unwrap_or(0);
    let largest = ally
        .troops
        .iter()
        .filter(|e| !e.general)
        .map(size)
        .max()
        .unwrap_or(0);
    let biggest: Vec<usize> = ally
        .troops
        .iter()
        .enumerate()
        .filter(|(_, e)| !e.general && size(e) == largest)
        .map(|(i, _)| i)
        .collect();
    if !biggest.is_empty() && !biggest.iter().any(|&i| taken(i)) {
        problems.push(ArmyProblem::ContingentWithoutLargestEntry {
            contingent: number,
            entries: biggest
                .iter()
                .map(|&i| ally.troops[i].to_string())
                .collect(),
        });
    }
}

/// Two contingents need an ally option naming both lists ("A and/or B").
fn two_allowed_together(main: &ArmyList, a: ListId, b: ListId) -> bool {
    main.allies.iter().any(|o| {
        o.lists.len() >= 2
            && o.lists.iter().any(|r| r.covers(a))
            && o.lists.iter().any(|r| r.covers(b))
    })
}

/// Problems as JSON objects, each with its `rule` and `message` added to its own members, as
/// the C and Python layers hand them out.
pub fn problems_json(problems: &[ArmyProblem]) -> Vec<serde_json::Value> {
    problems
        .iter()
        .map(|p| {
            let mut v = serde_json::to_value(p).unwrap_or(serde_json::Value::Null);
            if let serde_json::Value::Object(m) = &mut v {
                m.insert("rule".into(), p.rule().into());
                m.insert("message".into(), p.to_string().into());
            }
            v
        })
        .collect()
}
