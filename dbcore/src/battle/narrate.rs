//! Events told as a player would tell them, for logs and demonstrations.
//!
//! [`narrate`] tells a run of events with the context a player has: after a combat, an outcome
//! move is a recoil, a flight, a pursuit or a push-back and is told so ("recoils 0.50 BW",
//! "flees", "pursues", "is pushed back");
//! [`describe`] tells one event alone. Armies are named as the set-up names them, with the verb
//! agreeing ("the Romans roll 1 PIP", "South rolls 3 PIPs").

use std::collections::BTreeMap;

use crate::combat::{CombatResult, Outcome, SideResult};

pub(crate) use super::bound::pips_text;
use super::bound::{Event, PipExtra};
use super::outcome::Effect;
use super::setup::{BattleSetup, ElementId};

/// "South 4Bd #3": army name, kind and id of an element as set up.
pub fn element_name(setup: &BattleSetup, id: ElementId) -> String {
    for a in &setup.armies {
        if let Some(e) = a.elements.iter().find(|e| e.id == id) {
            return format!("{} {} {}", a.name, e.kind, id);
        }
    }
    format!("element {id}")
}

fn army_name(setup: &BattleSetup, army: usize) -> &str {
    setup.armies.get(army).map_or("?", |a| a.name.as_str())
}

/// Whether an army's name is a plural ("Romans", "Britons"), so that it takes "the" and a
/// plural verb. Our reading of how a player says it.
fn is_plural(name: &str) -> bool {
    name.ends_with('s') && !name.ends_with("ss")
}

/// A name as the subject of a sentence: "the Romans", "South".
pub(crate) fn name_subject(name: &str) -> String {
    if is_plural(name) && !name.to_ascii_lowercase().starts_with("the ") {
        format!("the {name}")
    } else {
        name.to_string()
    }
}

/// A name with its verb agreeing: "the Romans roll", "South rolls".
pub(crate) fn name_does(name: &str, singular: &str, plural: &str) -> String {
    let verb = if is_plural(name) { plural } else { singular };
    format!("{} {verb}", name_subject(name))
}

/// A name's possessive: "the Britons'", "South's".
pub(crate) fn name_of_whom(name: &str) -> String {
    if is_plural(name) {
        format!("{}'", name_subject(name))
    } else {
        format!("{name}'s")
    }
}

/// An army as the subject of a sentence: "the Romans", "South".
pub(crate) fn army_subject(setup: &BattleSetup, army: usize) -> String {
    name_subject(army_name(setup, army))
}

/// An army's possessive: "the Britons'", "South's".
fn army_of_whom(setup: &BattleSetup, army: usize) -> String {
    name_of_whom(army_name(setup, army))
}

/// An army as the subject of a sentence, with its verb agreeing: a name that is a plural
/// ("Romans", "Britons") takes "the" and the plural verb; any other ("South", "Early Imperial
/// Roman") the singular.
pub(crate) fn army_does(setup: &BattleSetup, army: usize, singular: &str, plural: &str) -> String {
    name_does(army_name(setup, army), singular, plural)
}

/// "1 element", "3 elements".
fn elements_text(n: usize) -> String {
    if n == 1 {
        "1 element".to_string()
    } else {
        format!("{n} elements")
    }
}

/// Capitalise the first letter of a sentence.
fn capitalised(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().collect::<String>() + c.as_str(),
        None => String::new(),
    }
}

/// Tell a run of events, one line each (an empty line for events a player would not mention).
/// An outcome move after a combat is told as what it is: the loser recoils or flees, the winner
/// pursues.
///
/// ```
/// use dbcore::battle::{narrate::narrate, Action, Battle};
/// use dbcore::DieScore;
///
/// let mut battle = Battle::new(dbcore::driver::demo_setup()).unwrap();
/// let events = battle.apply(Action::RollPips { die: DieScore::new(1).unwrap() }).unwrap();
/// let lines = narrate(battle.setup(), &events);
/// assert_eq!(lines.len(), events.len());
/// assert!(lines.iter().any(|l| l.contains("Romans roll 1 PIP")), "{lines:?}");
/// ```
pub fn narrate(setup: &BattleSetup, events: &[Event]) -> Vec<String> {
    // The last combat's outcome for each element in it, and which of them won.
    let mut outcomes: BTreeMap<ElementId, (Outcome, bool)> = BTreeMap::new();
    // Elements of demoralised commands: out of combat, their outcome moves are flights (§14.5).
    let mut demoralised: Vec<ElementId> = Vec::new();
    let mut out = Vec::with_capacity(events.len());
    for e in events {
        match e {
            Event::CommandDemoralised { army, command, .. } => {
                if let Some(c) = setup
                    .armies
                    .get(*army)
                    .and_then(|a| a.commands.iter().find(|c| c.id == *command))
                {
                    demoralised.extend(c.elements.iter().copied());
                }
            }
            Event::Shot {
                shooter,
                target,
                result,
                ..
            }
            | Event::Fought {
                a: shooter,
                b: target,
                result,
            } => {
                outcomes.clear();
                let a_won = result.b.outcome != Outcome::NoEffect;
                let b_won = result.a.outcome != Outcome::NoEffect;
                outcomes.insert(*shooter, (result.a.outcome, a_won && !b_won));
                outcomes.insert(*target, (result.b.outcome, b_won && !a_won));
            }
            Event::Outcome {
                effect: Effect::Moved { id, from, to },
            } => {
                let army_of = |id: ElementId| {
                    setup
                        .armies
                        .iter()
                        .position(|a| a.elements.iter().any(|e| e.id == id))
                };
                let friend_recoiled = outcomes.iter().any(|(other, (o, _))| {
                    *o == Outcome::Recoil && army_of(*other) == army_of(*id)
                });
                let verb = match outcomes.get(id) {
                    Some((Outcome::Recoil, _)) => "recoils",
                    Some((Outcome::Flee, _)) => "flees",
                    Some((_, true)) => "pursues",
                    // A friend behind a recoiling element is pushed back (§12.2).
                    None if friend_recoiled => "is pushed back",
                    // A demoralised command's elements flee at the start of its bound (§14.5).
                    None if demoralised.contains(id) => "flees",
                    _ => "moves",
                };
                out.push(format!(
                    "    {} {verb} {:.2} BW",
                    element_name(setup, *id),
                    from.front_mid().distance(to.front_mid())
                ));
                continue;
            }
            Event::BoundStarted { .. } | Event::PhaseStarted { .. } => outcomes.clear(),
            _ => {}
        }
        out.push(describe(setup, e));
    }
    out
}

/// A side's total and how it is made: "9 (die 5, +5 combat factor vs foot, -1 ...)".
fn side(r: &SideResult) -> String {
    let mut parts = vec![format!("die {}", r.die)];
    parts.extend(
        r.factors
            .iter()
            .map(|f| format!("{:+} {}", f.value, f.name)),
    );
    format!("{} ({})", r.total, parts.join(", "))
}

/// "A 9 (...) v B 6 (...): B recoils": the totals, then only what happens.
fn combat(setup: &BattleSetup, a: ElementId, b: ElementId, r: &CombatResult) -> String {
    let effects: Vec<String> = [(a, &r.a), (b, &r.b)]
        .iter()
        .filter_map(|(id, s)| {
            let verb = match s.outcome {
                Outcome::NoEffect => return None,
                Outcome::Recoil => "recoils",
                Outcome::Flee => "flees",
                Outcome::Destroyed => "is destroyed",
            };
            Some(format!("{} {verb}", element_name(setup, *id)))
        })
        .collect();
    let result = if effects.is_empty() {
        "no effect on either".to_string()
    } else {
        effects.join(", ")
    };
    format!(
        "{} {} v {} {}: {result}",
        element_name(setup, a),
        side(&r.a),
        element_name(setup, b),
        side(&r.b),
    )
}

/// One line for an event.
pub fn describe(setup: &BattleSetup, e: &Event) -> String {
    match e {
        Event::BoundStarted { army, bound } => {
            format!(
                "-- bound {bound}: {}",
                army_does(setup, *army, "moves", "move")
            )
        }
        Event::PipsRolled { army, pips, .. } => {
            format!(
                "{} {}",
                army_does(setup, *army, "rolls", "roll"),
                pips_text(*pips)
            )
        }
        Event::PloughTurnedRough => match setup.variant {
            // §14.4, §17.7b: in Big Battle and Giant, the first bound's PIP total decides.
            crate::battlefield::Variant::BigBattle | crate::battlefield::Variant::Giant => format!(
                "the first bound's PIP total is under {}: plough is rough going",
                setup.config.pips.big_battle_plough_below
            ),
            _ => "the first PIP score is 1: plough is rough going".into(),
        },
        Event::RiverDiced { die, state } => {
            let state = match state {
                crate::terrain::RiverState::Paltry => "paltry, no hindrance",
                crate::terrain::RiverState::Slows => "it slows movement",
                crate::terrain::RiverState::SlowsNarrow => {
                    "it slows movement and only single elements or columns may cross"
                }
            };
            format!("the river is diced ({die}): {state}")
        }
        Event::Moved {
            movers,
            distance,
            into_contact,
            ..
        } => {
            let names: Vec<String> = movers.iter().map(|m| element_name(setup, *m)).collect();
            format!(
                "{} move{} {:.2} BW{}",
                names.join(", "),
                if movers.len() == 1 { "s" } else { "" },
                distance,
                if *into_contact { " into contact" } else { "" }
            )
        }
        Event::PipsSpent { cost, left, .. } => {
            let extras: Vec<&str> = cost
                .extras
                .iter()
                .map(|x| match x {
                    PipExtra::Unwieldy => "unwieldy",
                    PipExtra::GeneralLost => "general lost",
                    PipExtra::GeneralSheltered => "general sheltered",
                    PipExtra::BeyondCommand { .. } => "out of command",
                })
                .collect();
            if extras.is_empty() {
                format!("  ({}, {left} left)", pips_text(cost.total))
            } else {
                format!(
                    "  ({}: {}; {left} left)",
                    pips_text(cost.total),
                    extras.join(", ")
                )
            }
        }
        Event::PhaseStarted { phase } => format!("{}:", capitalised(phase.game_name())),
        Event::Shot {
            shooter,
            target,
            result,
            ..
        } => format!("  shooting: {}", combat(setup, *shooter, *target, result)),
        Event::Fought { a, b, result } => format!("  combat: {}", combat(setup, *a, *b, result)),
        Event::Outcome { effect } => match effect {
            Effect::Moved { id, from, to } => format!(
                "    {} moves {:.2} BW",
                element_name(setup, *id),
                from.front_mid().distance(to.front_mid())
            ),
            Effect::TurnedToFace { id, .. } => {
                format!("    {} turns to face", element_name(setup, *id))
            }
            Effect::Destroyed { id, reason } => {
                format!("    {} is destroyed ({reason})", element_name(setup, *id))
            }
            Effect::LostOffTable { id, .. } => {
                format!(
                    "    {} leaves the table and is lost",
                    element_name(setup, *id)
                )
            }
        },
        Event::CampSacked { army, command } => match command {
            Some(c) => format!(
                "  {} allied {c}'s own camp is sacked (§14.5: one more loss to that command)",
                army_of_whom(setup, *army)
            ),
            None => format!("  {} camp is sacked", army_of_whom(setup, *army)),
        },
        Event::CampFollowersDestroyed { army, command } => match command {
            Some(c) => format!(
                "  the camp followers of {} allied {c}'s camp are destroyed",
                army_of_whom(setup, *army)
            ),
            None => format!(
                "  {} camp followers are destroyed",
                army_of_whom(setup, *army)
            ),
        },
        Event::CityCaptured { city, by, sacker } => match sacker {
            Some(id) => format!(
                "  {} the City (feature {city}): element {id} sacks it",
                army_does(setup, *by, "takes", "take")
            ),
            None => format!(
                "  {} the City (feature {city})",
                army_does(setup, *by, "occupies", "occupy")
            ),
        },
        Event::DenizensDestroyed { city } => {
            format!("  the denizens of the City (feature {city}) no longer defend it")
        }
        Event::CitySurrendered { city, to } => format!(
            "  the City (feature {city}) surrenders to {}",
            army_subject(setup, *to)
        ),
        Event::Landed { army, moves } => format!(
            "  {} {} from the sea",
            army_does(setup, *army, "lands", "land"),
            elements_text(moves.len())
        ),
        Event::NotLanded { army, ids } => format!(
            "  {} {} held back never {} and {} lost",
            army_of_whom(setup, *army),
            elements_text(ids.len()),
            if ids.len() == 1 { "lands" } else { "land" },
            if ids.len() == 1 { "is" } else { "are" },
        ),
        Event::DenizensSallied { city, element } => format!(
            "  the denizens of the City (feature {city}) sally out as element {}",
            element.id
        ),
        Event::SackingEnded { city, id } => {
            format!("  element {id} stops sacking the City (feature {city})")
        }
        Event::BoundEnded { .. } => String::new(),
        Event::CommandPipsRolled { army, rolls } => {
            let dice: Vec<String> = rolls
                .iter()
                .map(|r| format!("{} for {}", pips_text(r.pips), r.command))
                .collect();
            format!(
                "{} their PIP dice: {}",
                army_does(setup, *army, "rolls", "roll"),
                dice.join(", ")
            )
        }
        Event::CInCBonusUsed { id, .. } => {
            format!("  the C-in-C, element {id}, adds his once-a-game +1")
        }
        Event::Held { command, ids, .. } => {
            let names: Vec<String> = ids.iter().map(|m| element_name(setup, *m)).collect();
            format!("  {command} holds {} in place", names.join(", "))
        }
        Event::DemoralisedFlight { army, commands } => {
            let names: Vec<String> = commands.iter().map(|c| c.to_string()).collect();
            format!(
                "{} demoralised {} {} again towards their base edge (§14.5)",
                capitalised(&army_of_whom(setup, *army)),
                names.join(" and "),
                if commands.len() == 1 { "flees" } else { "flee" }
            )
        }
        Event::CommandDemoralised {
            army,
            command,
            losses,
            original,
        } => format!(
            "{} {command} is demoralised: {losses} of its {original} elements lost (§14.5)",
            capitalised(&army_of_whom(setup, *army))
        ),
        Event::CommandRemoved {
            army,
            command,
            losses,
            original,
            ..
        } => format!(
            "{} {command} has lost {losses} of its {original} elements and leaves the table (§14.5)",
            capitalised(&army_of_whom(setup, *army))
        ),
        Event::BattleWon { verdict } => {
            let totals: Vec<String> = verdict
                .totals
                .iter()
                .enumerate()
                .map(|(i, t)| format!("{} lost {t}", army_subject(setup, i)))
                .collect();
            match verdict.winner {
                Some(w) => format!(
                    "{} the battle ({})",
                    army_does(setup, w, "wins", "win"),
                    totals.join(", ")
                ),
                None => format!("the battle is over ({})", totals.join(", ")),
            }
        }
    }
}
