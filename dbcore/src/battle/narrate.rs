//! Events told as a player would tell them, for logs and demonstrations.
//!
//! [`narrate`] tells a run of events with the context a player has: after a combat, an outcome
//! move is a recoil, a flight, a pursuit or a push-back and is told so ("recoils 0.50 BW",
//! "flees", "pursues", "is pushed back");
//! [`describe`] tells one event alone. Armies are named as the set-up names them, with the verb
//! agreeing ("the Romans roll 1 PIP", "South rolls 3 PIPs").

use std::collections::BTreeMap;

use crate::combat::{CombatResult, Outcome, SideResult};

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

/// An army as the subject of a sentence, with its verb agreeing: a name that is a plural
/// ("Romans", "Britons") takes "the" and the plural verb; any other ("South", "Early Imperial
/// Roman") the singular. Our reading of how a player says it.
fn army_does(setup: &BattleSetup, army: usize, singular: &str, plural: &str) -> String {
    let name = army_name(setup, army);
    let is_plural = name.ends_with('s') && !name.ends_with("ss");
    if is_plural {
        let the = if name.to_ascii_lowercase().starts_with("the ") {
            ""
        } else {
            "the "
        };
        format!("{the}{name} {plural}")
    } else {
        format!("{name} {singular}")
    }
}

/// "1 PIP", "3 PIPs".
fn pips_text(n: impl Into<u32>) -> String {
    let n = n.into();
    if n == 1 {
        "1 PIP".to_string()
    } else {
        format!("{n} PIPs")
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
    let mut out = Vec::with_capacity(events.len());
    for e in events {
        match e {
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

fn side(r: &SideResult) -> String {
    let factors: Vec<String> = r
        .factors
        .iter()
        .map(|f| format!("{:+} {}", f.value, f.name))
        .collect();
    format!("{} ({} {})", r.total, r.die, factors.join(" "))
}

fn combat(setup: &BattleSetup, a: ElementId, b: ElementId, r: &CombatResult) -> String {
    format!(
        "{} {} vs {} {}: {} {}, {} {}",
        element_name(setup, a),
        side(&r.a),
        element_name(setup, b),
        side(&r.b),
        element_name(setup, a),
        r.a.outcome,
        element_name(setup, b),
        r.b.outcome
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
        Event::PloughTurnedRough => "the first PIP score is 1: plough is rough going".into(),
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
        Event::CampSacked { army } => {
            format!("  the camp of {} is sacked", army_name(setup, *army))
        }
        Event::CampFollowersDestroyed { army } => {
            format!(
                "  the camp followers of {} are destroyed",
                army_name(setup, *army)
            )
        }
        Event::CityCaptured { city, by, sacker } => match sacker {
            Some(id) => format!(
                "  {} take the City (feature {city}): element {id} sacks it",
                army_name(setup, *by)
            ),
            None => format!(
                "  {} occupy the City (feature {city})",
                army_name(setup, *by)
            ),
        },
        Event::DenizensDestroyed { city } => {
            format!("  the denizens of the City (feature {city}) no longer defend it")
        }
        Event::CitySurrendered { city, to } => format!(
            "  the City (feature {city}) surrenders to {}",
            army_name(setup, *to)
        ),
        Event::Landed { army, moves } => format!(
            "  {} land {} element(s) from the sea",
            army_name(setup, *army),
            moves.len()
        ),
        Event::NotLanded { army, ids } => format!(
            "  {}'s {} element(s) held back never land and are lost",
            army_name(setup, *army),
            ids.len()
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
                .map(|r| format!("{} {} PIPs", r.command, r.pips))
                .collect();
            format!(
                "{} rolls PIPs: {}",
                army_name(setup, *army),
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
        Event::CommandDemoralised {
            army,
            command,
            losses,
            original,
        } => format!(
            "{}'s {command} is demoralised ({losses} lost of {original})",
            army_name(setup, *army)
        ),
        Event::CommandRemoved {
            army,
            command,
            losses,
            original,
            ..
        } => format!(
            "{}'s {command} is removed ({losses} lost of {original})",
            army_name(setup, *army)
        ),
        Event::BattleWon { verdict } => {
            let totals: Vec<String> = verdict
                .totals
                .iter()
                .enumerate()
                .map(|(i, t)| format!("{} lost {t}", army_name(setup, i)))
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
