//! Events told as a player would tell them, for logs and demonstrations.

use crate::combat::{CombatResult, SideResult};

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
            format!("-- bound {bound}: {} moves", army_name(setup, *army))
        }
        Event::PipsRolled { army, pips, .. } => {
            format!("{} rolls {pips} PIPs", army_name(setup, *army))
        }
        Event::PloughTurnedRough => "the first PIP score is 1: plough is rough going".into(),
        Event::RiverDiced { die, state } => format!("the river is diced ({die}): {state:?}"),
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
        Event::PipsSpent { cost, left } => {
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
                format!("  ({} PIP, {left} left)", cost.total)
            } else {
                format!(
                    "  ({} PIPs: {}; {left} left)",
                    cost.total,
                    extras.join(", ")
                )
            }
        }
        Event::PhaseStarted { phase } => format!("{phase:?}:"),
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
        Event::BattleWon { verdict } => {
            let totals: Vec<String> = verdict
                .totals
                .iter()
                .enumerate()
                .map(|(i, t)| format!("{} lost {t}", army_name(setup, i)))
                .collect();
            match verdict.winner {
                Some(w) => format!(
                    "{} wins the battle ({})",
                    army_name(setup, w),
                    totals.join(", ")
                ),
                None => format!("the battle is over ({})", totals.join(", ")),
            }
        }
    }
}
