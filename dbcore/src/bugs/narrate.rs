//! The events told in a player's words (BUGS §5–15): one line each, naming the figures, the
//! dice and the rows and cells read, so that a player can follow the referee with the booklet
//! open.

use std::collections::BTreeMap;

use super::hits::{HitCondition, HitResult};
use super::holes::ChanceTerm;
use super::reaction::{CheckKind, Modifier, Passed};
use super::tables::{Impact, Wound};
use super::FigureId;
use super::{AttackKind, BugsSetup, DeathCause, EncounterKind, Event, MoveKind, Outcome, Verdict};
use crate::dice::DieScore;
use crate::geometry::Point;

fn dice(d: &[DieScore]) -> String {
    let total: u32 = d.iter().map(|s| u32::from(s.get())).sum();
    if d.len() == 1 {
        return format!("{total}");
    }
    let parts: Vec<String> = d.iter().map(|s| s.to_string()).collect();
    format!("{} = {total}", parts.join("+"))
}

fn at(p: Point) -> String {
    format!("({:.1}, {:.1})", p.x, p.y)
}

fn condition(c: HitCondition) -> String {
    match c {
        HitCondition::LongRange => "at long range".into(),
        HitCondition::FirerMovedFastOrLaterTarget => {
            "the firer moved fast or it is a 2nd or 3rd target".into()
        }
        HitCondition::AttackerWsAtMost(n) => format!("the attacker's WS is {n} or less"),
        HitCondition::TargetInCoverOrThirdTarget => "in cover or the 3rd target".into(),
        HitCondition::TargetMovedFastOrLongRange => "moved fast or at long range".into(),
        HitCondition::AttackerWsAtLeast(n) => format!("the attacker's WS is {n} or more"),
    }
}

fn result(r: HitResult) -> &'static str {
    match r {
        HitResult::CriticalWound => "Critical wound!",
        HitResult::FleshWound => "Flesh wound!",
        HitResult::Miss => "Miss!",
    }
}

fn modifier(m: Modifier) -> &'static str {
    match m {
        Modifier::Leader => "leader",
        Modifier::LeaderNear => "leader near",
        Modifier::Friends => "friends near",
        Modifier::Uphill => "uphill",
        Modifier::InCover => "in cover",
        Modifier::AttackingFromBehind => "attacking from behind",
        Modifier::AttackedFromBehind => "attacked from behind",
    }
}

fn verdict(v: &Verdict) -> String {
    let outcome = match v.outcome {
        Some(Outcome::Success) => "The humans succeed",
        Some(Outcome::Failure) => "The humans fail",
        None => "Undecided",
    };
    format!(
        "The encounter ends after turn {}: {}. {}: humans {} on the table, {} killed, {} ran off, {} left the table ({} citizens safe); bugs {} on the table, {} killed, {} ran off; {} holes opened, {} bugs still owed.",
        v.turn,
        v.why,
        outcome,
        v.humans.on_table,
        v.humans.killed,
        v.humans.run_off,
        v.humans.exited,
        v.citizens_safe,
        v.bugs.on_table,
        v.bugs.killed,
        v.bugs.run_off,
        v.holes_opened,
        v.bugs_owed
    )
}

/// The events of an encounter, one line each, in a player's words.
///
/// The figures are named from the set-up and, for bugs that came out of holes, from the events
/// themselves.
pub fn narrate(setup: &BugsSetup, events: &[Event]) -> Vec<String> {
    let mut names: BTreeMap<FigureId, String> = setup
        .figures
        .iter()
        .map(|f| {
            (
                f.id,
                f.name
                    .clone()
                    .unwrap_or_else(|| format!("{} {}", f.sheet.name(), f.id.0)),
            )
        })
        .collect();
    let mut out = Vec::new();
    for e in events {
        if let Event::BugEmerged { figure, name, .. } = e {
            names.insert(*figure, name.clone());
        }
        let n = |id: &FigureId| names.get(id).cloned().unwrap_or_else(|| id.to_string());
        let list = |ids: &[FigureId]| ids.iter().map(&n).collect::<Vec<_>>().join(", ");
        let line = match e {
            Event::EncounterBegan {
                encounter,
                board,
                turn_limit,
            } => {
                let goal = match encounter {
                    EncounterKind::Escort { goal } => {
                        format!(": the citizens must leave by the {} edge", goal.name())
                    }
                    EncounterKind::Defend => ": no citizen may be lost".into(),
                    EncounterKind::Raid => ": every bug must die".into(),
                };
                let board = match board {
                    Some(b) => format!("The board is {}.", b.name()),
                    None => "The board's terrain is rolled (BUGS §14).".into(),
                };
                let limit = turn_limit
                    .map(|l| format!(" It lasts at most {l} turns."))
                    .unwrap_or_default();
                format!("BUGS!: {} begins{goal}. {board}{limit}", encounter.name())
            }
            Event::TerrainRolled { dice: d, board } => {
                format!("Terrain roll {}: the board is {}.", dice(d), board.name())
            }
            Event::TurnBegan { turn } => format!("— Turn {turn} —"),
            Event::WillpowerCalled { willpower, figures } => {
                format!("Willpower {willpower} is called: {}.", list(figures))
            }
            Event::RolledOff { figures, dice: d } => {
                let parts: Vec<String> = figures
                    .iter()
                    .zip(d)
                    .map(|(f, s)| format!("{} {}", n(f), s))
                    .collect();
                format!("They roll off: {}.", parts.join(", "))
            }
            Event::Activated {
                figure,
                with_leader,
            } => match with_leader {
                Some(l) => format!("{} activates with its leader {}.", n(figure), n(l)),
                None => format!("{} is Active.", n(figure)),
            },
            Event::Joined { leader, joiners } => {
                format!("{} join leader {}.", list(joiners), n(leader))
            }
            Event::StoodUp { figure } => {
                format!("{} spends its activation getting back to its feet.", n(figure))
            }
            Event::StayedFrozen { figure } => format!("{} is frozen and does nothing.", n(figure)),
            Event::Stayed { figure, facing } => {
                format!("{} stays in place, facing {facing:.0}°.", n(figure))
            }
            Event::Moved {
                figure,
                kind,
                to,
                inches,
                ..
            } => {
                let verb = match kind {
                    MoveKind::Move => "moves",
                    MoveKind::Charge => "charges",
                    MoveKind::DuckDown => "ducks down, running",
                    MoveKind::Runaway => "runs",
                    MoveKind::MoveBack => "moves back",
                    MoveKind::FollowUp => "follows up",
                    MoveKind::Pursuit => "pursues",
                };
                format!("{} {verb} {inches:.1} in to {}.", n(figure), at(*to))
            }
            Event::Exited { figure, edge } => {
                format!("{} leaves the table by the {} edge.", n(figure), edge.name())
            }
            Event::RanOff { figure, edge } => {
                format!("{} runs off the table by the {} edge.", n(figure), edge.name())
            }
            Event::ChargeDeclared { figure, target } => {
                format!("{} tries to charge {}!", n(figure), n(target))
            }
            Event::Fired {
                figure,
                weapon,
                targets,
                burst_at,
            } => {
                let verb = if *weapon == super::sheets::Weapon::Grenade {
                    "throws a grenade at"
                } else {
                    "fires"
                };
                let with = if *weapon == super::sheets::Weapon::Grenade {
                    String::new()
                } else {
                    format!(" the {} at", weapon.name())
                };
                let (first, rest) = targets.split_first().map_or((None, &[][..]), |(a, b)| (Some(a), b));
                let first = first.map(&n).unwrap_or_default();
                if burst_at.is_some() && !rest.is_empty() {
                    format!("{} {verb}{with} {first}: the burst catches {} too.", n(figure), list(rest))
                } else if !rest.is_empty() {
                    format!("{} {verb}{with} {first} and {}.", n(figure), list(rest))
                } else {
                    format!("{} {verb}{with} {first}.", n(figure))
                }
            }
            Event::HeldFire { figure } => format!("{} holds its fire.", n(figure)),
            Event::HitRolled {
                attacker,
                target,
                attack,
                dice: d,
                row,
                condition_held,
                result: r,
            } => {
                let how = match attack {
                    AttackKind::Shot => "shot",
                    AttackKind::Melee => "melee attack",
                    AttackKind::CounterAttack => "counter-attack",
                    AttackKind::FreeHack => "free hack at its back",
                };
                let why = match (row.condition, condition_held) {
                    (Some(c), true) => format!(" ({})", condition(c)),
                    _ => String::new(),
                };
                format!(
                    "{}'s {how} on {}: To Hit {}: {}{why}",
                    n(attacker),
                    n(target),
                    dice(d),
                    result(*r)
                )
            }
            Event::Damaged {
                figure,
                dice: d,
                ws,
                dav,
                damage,
                stamina,
                ..
            } => format!(
                "{} takes WS {ws} + damage {} − DAV {dav} = {damage} (Stamina {stamina}).",
                n(figure),
                dice(d)
            ),
            Event::ImpactRolled {
                figure,
                power,
                dice: d,
                cell,
                stamina,
                ..
            } => match cell {
                Impact::Loss(k) => format!(
                    "Impact, Power {power} column, {}: {k} more off {}'s Stamina (now {stamina}).",
                    dice(d),
                    n(figure)
                ),
                Impact::W => format!(
                    "Impact, Power {power} column, {}: W! 10 more off {}'s Stamina (now {stamina}).",
                    dice(d),
                    n(figure)
                ),
            },
            Event::KnockedDown { figure } => format!("{} is knocked to the ground.", n(figure)),
            Event::WoundRolled {
                figure,
                willpower,
                dice: d,
                cell,
                will,
            } => match cell {
                Wound::Loss(k) => format!(
                    "{} rolls on the Wound Table, Willpower {willpower} column, {}: loses {k} Willpower (now {will}).",
                    n(figure),
                    dice(d)
                ),
                Wound::K => format!(
                    "{} rolls on the Wound Table, Willpower {willpower} column, {}: K!",
                    n(figure),
                    dice(d)
                ),
            },
            Event::Killed { figure, cause } => match cause {
                DeathCause::Wound => format!("{} is dead. Dead, dead.", n(figure)),
                DeathCause::Stamina => {
                    format!("{} has taken double its Stamina and dies.", n(figure))
                }
                DeathCause::BugHole => {
                    format!("{} stood where the hole opened and is killed.", n(figure))
                }
            },
            Event::RanAway { figure, stamina } => format!(
                "{} runs away! Willpower drops to 0 and Stamina to {stamina}.",
                n(figure)
            ),
            Event::Checked {
                figure,
                check,
                will,
                modifiers,
                needed,
                rolls,
                passed,
                result,
            } => {
                let mods: String = modifiers
                    .iter()
                    .map(|m| format!(" {:+} {}", m.value, modifier(m.modifier)))
                    .collect();
                let rolls: Vec<String> = rolls.iter().map(|r| dice(r)).collect();
                let passed = match passed {
                    Passed::First => "passed its 1st roll",
                    Passed::Second => "passed its 2nd roll",
                    Passed::None => "passed no rolls",
                };
                let name = match check {
                    CheckKind::AttackedInMelee => "reaction check after the attack".to_string(),
                    c => format!("{} check", c.name()),
                };
                format!(
                    "{} takes a {name}: Willpower {will}{mods} = {needed}; rolls {}: {passed}, and {}.",
                    n(figure),
                    rolls.join(", then "),
                    result.words()
                )
            }
            Event::Opposed {
                checker,
                mover,
                dice: d,
                winner,
            } => {
                let w = winner
                    .map(|w| format!("{} acts first", n(&w)))
                    .unwrap_or_else(|| "a tie: they roll again".into());
                let (a, b) = (d.first().map(|x| x.get()).unwrap_or(0), d.get(1).map(|x| x.get()).unwrap_or(0));
                format!("{} rolls {a} and {} rolls {b}, each added to Willpower: {w}.", n(checker), n(mover))
            }
            Event::Froze { figure, until_turn } => {
                format!("{} freezes until the end of turn {until_turn}.", n(figure))
            }
            Event::WillpowerLost { figure, will } => {
                format!("{} loses 1 Willpower (now {will}).", n(figure))
            }
            Event::PursuitChecked {
                figure,
                dice: d,
                will,
                pursues,
            } => format!(
                "{}'s pursuit check: {} against Willpower {will}: {}.",
                n(figure),
                dice(d),
                if *pursues { "it pursues on" } else { "it stops" }
            ),
            Event::PursuitEnded { figure } => format!("{} stops pursuing.", n(figure)),
            Event::HoleChance {
                terms,
                chance,
                dice: d,
                opens,
            } => {
                let parts: Vec<String> = terms
                    .iter()
                    .map(|t| match t {
                        ChanceTerm::Base { value } => format!("{value}"),
                        ChanceTerm::Board { board, value } => format!("{value:+} {}", board.name()),
                        ChanceTerm::Holes { count, value } => format!("{value:+} for {count} holes"),
                        ChanceTerm::Soldiers { count, value } => {
                            format!("{value:+} for {count} soldiers")
                        }
                    })
                    .collect();
                format!(
                    "Bug-hole check: {} = {chance}; rolls {}: {}",
                    parts.join(" "),
                    dice(d),
                    if *opens { "a bug hole opens!" } else { "no hole." }
                )
            }
            Event::HoleDirection {
                hole,
                die,
                direction,
            } => match direction {
                Some(dir) => format!("Hole {hole} lies {} the party (die {die}).", dir.name()),
                None => format!("Tremors (die {die}): hole {hole} will open in the next turn."),
            },
            Event::HoleOpened {
                hole,
                at: p,
                dice: d,
                distance,
            } => {
                let f: Vec<String> = d.iter().map(|s| s.to_string()).collect();
                format!(
                    "Bug hole {hole} opens {distance:.0} in away ({}) at {}.",
                    f.join(" × "),
                    at(*p)
                )
            }
            Event::BugsOwed {
                hole,
                humans,
                die,
                owes,
            } => format!("Hole {hole} will bring {humans} humans + {die} = {owes} bugs."),
            Event::BugsReleased { hole, die, count } => {
                format!("Hole {hole} releases {count} bugs (die {die}).")
            }
            Event::BugEmerged {
                hole,
                name,
                sheet,
                dice: d,
                at: p,
                ..
            } => format!(
                "A {} comes out of hole {hole} (type roll {}): {name} at {}.",
                sheet.name().to_lowercase(),
                dice(d),
                at(*p)
            ),
            Event::BugWaits { hole } => format!("No room at hole {hole}: the next bug waits."),
            Event::TurnEnded { turn } => format!("End of turn {turn}."),
            Event::EncounterEnded { verdict: v } => verdict(v),
        };
        out.push(line);
    }
    out
}
