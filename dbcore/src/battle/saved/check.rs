//! What a compact state must be for the engine to play on from it (issue #44).
//!
//! A compact state is not replayed, and its digest is public, so anyone can write one that
//! dbcore never would: a command of an army that does not exist, sixteen elements on one spot,
//! an id that names nobody. The engine indexes, loops and searches on the assumption that none
//! of that happens, as it cannot in a battle it played itself. So every state read is checked
//! here against each of those assumptions, and every problem found is reported at once
//! ([`super::StateError::Invalid`]), before the battle exists.
//!
//! What is checked is what a battle played from its validated set-up always keeps: the parts
//! that never change in a battle (each command's army, id, general and elements, each City's
//! owner) are the ones the set-up gives; the parts that do change stay in their ranges (armies,
//! ids, PIPs, counts, poses on the board); and no two elements in play overlap beyond contact,
//! which also bounds how many combats one element can be in.

use std::collections::BTreeSet;

use crate::geometry::TOLERANCE;
use crate::terrain::AreaKind;

use super::super::bound::{Battle, Phase};
use super::super::setup::{overlapping, ElementId};
use super::super::state::{
    camp_followers_id, command_camp_followers_id, denizens_id, Status, RESERVED_IDS,
};

/// One thing wrong with a compact state: where it is, what is wrong, and the rule that makes
/// it wrong when there is one.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct StateProblem {
    /// The field at fault, as a path into the compact state (`elements[3].pose`).
    pub field: String,
    /// What is wrong with it.
    pub message: String,
    /// The section of the rules it breaks, if one does.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rule: Option<&'static str>,
}

impl std::fmt::Display for StateProblem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.rule {
            Some(rule) => write!(f, "{}: {} ({rule})", self.field, self.message),
            None => write!(f, "{}: {}", self.field, self.message),
        }
    }
}

/// The most PIPs a die gives (§6.2, §14.4): what a battle or a command can hold.
const MAX_PIPS: u8 = 6;
/// The most tactical moves one element is counted as having made in a bound: far above any
/// game (one move a bound, §7.5, with a few exceptions), so that no count can wrap.
const MAX_MOVES_A_BOUND: u8 = 64;
/// How far outside the board an element in play may reach, BW: an element that leaves the
/// board is lost (§13.1), so this is only room for rounding.
const BOARD_SLACK: f64 = 0.5;

/// Every problem of `battle`, whose set-up has been validated and whose sizes are in range,
/// measured against `start`, the same set-up's battle before anything happened. At most
/// [`crate::limits::MAX_PROBLEMS`] problems, then one that counts the rest.
pub(super) fn problems(battle: &Battle, start: &Battle) -> Vec<StateProblem> {
    let mut v = Vec::new();
    let mut problem = |field: String, message: String, rule: Option<&'static str>| {
        v.push(StateProblem {
            field,
            message,
            rule,
        })
    };
    let setup = &*battle.setup;
    let armies = setup.armies.len();
    let cfg = &setup.config;
    let n = start.elements.len();

    // The ids that name somebody: the set-up's elements, the sallied denizens, and the
    // civilians that fight without being elements (§4.2, §4.6).
    let mut known: BTreeSet<ElementId> = battle.elements.iter().map(|e| e.id).collect();
    let cities: Vec<usize> = setup
        .battlefield
        .areas()
        .filter(|(_, a)| a.kind == AreaKind::City)
        .map(|(f, _)| f)
        .collect();
    known.extend(cities.iter().map(|&f| denizens_id(f)));
    known.extend(
        (0..armies)
            .filter(|&a| setup.armies[a].camp.is_some())
            .map(camp_followers_id),
    );
    known.extend(
        start
            .commands
            .iter()
            .map(|c| command_camp_followers_id(c.army, c.id)),
    );

    // The elements.
    let held_back: BTreeSet<ElementId> = setup.held_back.iter().copied().collect();
    for (i, (e, s)) in battle.elements.iter().zip(&start.elements).enumerate() {
        if e.kind != s.kind && Some(e.kind) != s.dismounts_as {
            problem(
                format!("elements[{i}].kind"),
                format!(
                    "element {} is {}; it can only be its set-up kind {} or what it dismounts as",
                    e.id, e.kind, s.kind
                ),
                Some("§7.9"),
            );
        }
        if e.status == Status::Afloat && !held_back.contains(&e.id) {
            problem(
                format!("elements[{i}].status"),
                format!("element {} is afloat but was not held back to land", e.id),
                Some("§5.5"),
            );
        }
    }
    let mut sallied_ids = BTreeSet::new();
    for (i, e) in battle.elements[n..].iter().enumerate() {
        let field = format!("sallied[{i}]");
        if !cities.iter().any(|&f| denizens_id(f) == e.id) || !sallied_ids.insert(e.id) {
            problem(
                format!("{field}.id"),
                format!(
                    "{} is not the id of a City's denizens (from {RESERVED_IDS}, one element a City)",
                    e.id
                ),
                Some("§4.2"),
            );
        }
        if e.army >= armies {
            problem(
                format!("{field}.army"),
                format!("army {} of {armies}", e.army),
                None,
            );
        }
        if e.general || e.contingent.is_some() || e.dismounts_as.is_some() || e.mobile_tower {
            problem(
                field,
                "a City's denizens are no general, contingent, dismounting element or tower".into(),
                Some("§4.2"),
            );
        }
    }
    for (i, e) in battle.elements.iter().enumerate() {
        if e.moves_this_bound > MAX_MOVES_A_BOUND {
            problem(
                path(i, n, "moves_this_bound"),
                format!("{} moves in one bound", e.moves_this_bound),
                Some("§7.5"),
            );
        }
        if !(0.0..=crate::sizes::MAX_COORDINATE).contains(&e.moved_this_bound) {
            problem(
                path(i, n, "moved_this_bound"),
                format!("{} BW", e.moved_this_bound),
                None,
            );
        }
    }

    // Where the elements in play stand: on the board, and no two overlapping beyond contact.
    let board = &setup.battlefield.board;
    let live: Vec<usize> = (0..battle.elements.len())
        .filter(|&i| battle.elements[i].in_play())
        .collect();
    let rects: Vec<_> = live.iter().map(|&i| battle.elements[i].rect(cfg)).collect();
    for (k, r) in rects.iter().enumerate() {
        let on = r.corners().iter().all(|p| {
            (-BOARD_SLACK..=board.width + BOARD_SLACK).contains(&p.x)
                && (-BOARD_SLACK..=board.depth + BOARD_SLACK).contains(&p.y)
        });
        if !on {
            let e = &battle.elements[live[k]];
            problem(
                path(live[k], n, "pose"),
                format!(
                    "in play but off the {} × {} BW board at ({}, {})",
                    board.width, board.depth, e.pose.x, e.pose.y
                ),
                Some("§13.1"),
            );
        }
    }
    let near = crate::table::NearIndex::of_rects(rects.clone());
    let mut uncounted = false;
    for (k, r) in rects.iter().enumerate() {
        for j in near.around(k, 2.0 * TOLERANCE) {
            if j > k && overlapping(r, &rects[j]) {
                v.push(StateProblem {
                    field: "elements: poses".into(),
                    message: format!(
                        "elements {} and {} overlap",
                        battle.elements[live[k]].id, battle.elements[live[j]].id
                    ),
                    rule: Some("§1.3"),
                });
            }
        }
        // A pile of elements at one spot: stop comparing once the report is well past full.
        if v.len() > 4 * crate::sizes::MAX_PROBLEMS {
            uncounted = k + 1 < rects.len();
            break;
        }
    }
    let mut problem = |field: String, message: String, rule: Option<&'static str>| {
        v.push(StateProblem {
            field,
            message,
            rule,
        })
    };

    // The bound, the phase and the PIPs.
    let most_bounds = crate::sizes::MAX_STATE_BOUND;
    if battle.bound == 0 || battle.bound > most_bounds {
        problem(
            "bound".into(),
            format!("bound {}; from 1 to {most_bounds}", battle.bound),
            None,
        );
    }
    for (a, &b) in battle.bounds_begun.iter().enumerate() {
        if b > most_bounds {
            problem(
                format!("bounds_begun[{a}]"),
                format!("{b} bounds; at most {most_bounds}"),
                None,
            );
        }
    }
    if let Phase::Finished {
        winner: Some(winner),
    } = battle.phase
    {
        if winner >= armies {
            problem(
                "phase.winner".into(),
                format!("army {winner} of {armies}"),
                None,
            );
        }
    }
    // A standard army's PIPs are its die's; a Big Battle or Giant army's are the sum of its
    // commands' (§14.4).
    let most_pips = MAX_PIPS.saturating_mul(start.commands.len().clamp(1, 40) as u8);
    if battle.pips > most_pips {
        problem(
            "pips".into(),
            format!("{} PIPs; the dice give at most {most_pips}", battle.pips),
            Some("§6.2"),
        );
    }
    if let Some(verdict) = &battle.verdict {
        if verdict.totals.len() != armies {
            problem(
                "verdict.totals".into(),
                format!(
                    "{} totals; one per army ({armies}) needed",
                    verdict.totals.len()
                ),
                None,
            );
        }
        for (what, army) in [("loser", verdict.loser), ("winner", verdict.winner)] {
            if army.is_some_and(|a| a >= armies) {
                problem(
                    format!("verdict.{what}"),
                    format!("army {} of {armies}", army.unwrap_or_default()),
                    None,
                );
            }
        }
    }
    if battle.river.is_some()
        && !setup
            .battlefield
            .features
            .iter()
            .any(|f| matches!(f, crate::terrain::TerrainFeature::River(_)))
    {
        problem(
            "river".into(),
            "the state of a river on a battlefield without one".into(),
            Some("§3.5"),
        );
    }

    // The ids listed as having shot, fought and pursued this bound.
    let lists = [
        ("shot", &battle.shot),
        ("fought", &battle.fought),
        ("pursued", &battle.pursued),
    ];
    for (what, ids) in lists {
        for (i, id) in ids.iter().enumerate() {
            if !known.contains(id) {
                problem(
                    format!("{what}[{i}]"),
                    format!("{id} is no element of this battle"),
                    None,
                );
            }
        }
    }
    for (i, (a, b)) in battle.shots.iter().enumerate() {
        for id in [a, b] {
            if !known.contains(id) {
                problem(
                    format!("shots[{i}]"),
                    format!("{id} is no element of this battle"),
                    None,
                );
            }
        }
    }

    // The camps: camp followers can be lost, never gained (§4.6).
    for (a, (&now, &then)) in battle
        .camp_followers
        .iter()
        .zip(&start.camp_followers)
        .enumerate()
    {
        if now && !then {
            problem(
                format!("camp_followers[{a}]"),
                "camp followers in a camp that had none".into(),
                Some("§4.6"),
            );
        }
    }

    // The Cities: those of the battlefield, each with its set-up owner.
    if battle.cities.len() != start.cities.len() {
        problem(
            "cities".into(),
            format!(
                "{} Cities given; the battlefield has {}",
                battle.cities.len(),
                start.cities.len()
            ),
            Some("§4.2"),
        );
    }
    for (i, (c, s)) in battle.cities.iter().zip(&start.cities).enumerate() {
        if c.feature != s.feature || c.owner != s.owner {
            problem(
                format!("cities[{i}]"),
                format!(
                    "City {} of owner {:?}; the battlefield's is feature {} of owner {:?}",
                    c.feature, c.owner, s.feature, s.owner
                ),
                Some("§4.2"),
            );
        }
        if c.controller.is_some_and(|a| a >= armies) {
            problem(
                format!("cities[{i}].controller"),
                format!("army {:?} of {armies}", c.controller),
                None,
            );
        }
        if let Some(sacker) = c.sacker {
            if !battle.elements.iter().any(|e| e.id == sacker) {
                problem(
                    format!("cities[{i}].sacker"),
                    format!("{sacker} is no element of this battle"),
                    None,
                );
            }
        }
    }

    // The commands (Big Battle and Giant, §14): those of the set-up, with their PIPs in range.
    if battle.commands.len() != start.commands.len() {
        problem(
            "commands".into(),
            format!(
                "{} commands given; the set-up has {}",
                battle.commands.len(),
                start.commands.len()
            ),
            Some("§14.1"),
        );
    }
    for (i, c) in battle.commands.iter().enumerate() {
        let field = format!("commands[{i}]");
        let Some(s) = start.commands.get(i) else {
            if c.army >= armies {
                problem(
                    field,
                    format!("a command of army {} of {armies}", c.army),
                    None,
                );
            }
            continue;
        };
        if (c.army, c.id, c.general, c.allied, c.c_in_c, c.original)
            != (s.army, s.id, s.general, s.allied, s.c_in_c, s.original)
            || c.elements != s.elements
        {
            problem(
                field.clone(),
                format!(
                    "{} of army {} is not the set-up's {} of army {}: its army, id, general and elements never change",
                    c.id, c.army, s.id, s.army
                ),
                Some("§14.1"),
            );
        }
        if c.pips > MAX_PIPS {
            problem(
                format!("{field}.pips"),
                format!("{} PIPs; a die gives at most {MAX_PIPS}", c.pips),
                Some("§14.4"),
            );
        }
        if c.camp_followers && !s.camp_followers {
            problem(
                format!("{field}.camp_followers"),
                "camp followers in a camp that had none".into(),
                Some("§4.6"),
            );
        }
        for (j, id) in c.held.iter().enumerate() {
            if !s.elements.contains(id) {
                problem(
                    format!("{field}.held[{j}]"),
                    format!("{id} is not of this command"),
                    Some("§14.5"),
                );
            }
        }
    }
    cap(v, uncounted)
}

/// The path of field `what` of the battle's element `i`, of which the first `n` are the
/// set-up's and the rest sallied.
fn path(i: usize, n: usize, what: &str) -> String {
    if i < n {
        format!("elements[{i}].{what}")
    } else {
        format!("sallied[{}].{what}", i - n)
    }
}

/// At most [`crate::limits::MAX_PROBLEMS`] problems, then one that counts the rest.
fn cap(mut v: Vec<StateProblem>, uncounted: bool) -> Vec<StateProblem> {
    let max = crate::sizes::MAX_PROBLEMS;
    if v.len() > max || uncounted {
        let count = v.len().saturating_sub(max);
        v.truncate(max);
        v.push(StateProblem {
            field: "…".into(),
            message: if uncounted {
                format!(
                    "and {count} more (at least; a pile of elements was not compared to the end)"
                )
            } else {
                format!("and {count} more")
            },
            rule: None,
        });
    }
    v
}
