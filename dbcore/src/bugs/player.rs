//! The demonstration player (reading R47: every voluntary choice is the caller's): it makes the
//! choices for both sides from [`Encounter::legal_actions`], and the dice come from a seed, so a
//! whole encounter plays from a set-up and a seed.
//!
//! It plays simply. Bugs charge the nearest human they can reach, else close on the nearest
//! human. Humans with a gun fire from where they stand when they can (the most targets, a
//! grenade only when it would hit two or more), else move: in the escort the citizens make for
//! the goal edge and the soldiers keep just ahead of them, leaving once no citizen is left; in
//! the settlement everyone holds; in the raid the soldiers close on the nearest bug or hole.
//! Leaders take every friend who may join; figures in melee attack the weakest enemy touching
//! them.

use super::{
    Action, BugsError, BugsRecord, BugsSetup, Decision, Encounter, EncounterKind, Event, Verdict,
};
use super::{FigureId, Side};
use crate::dice::{DieScore, SeededDice};
use crate::geometry::Point;

/// A whole encounter played by the demonstration player.
#[derive(Debug, Clone, PartialEq)]
pub struct PlayedEncounter {
    /// The set-up and every action: it replays to the same events.
    pub record: BugsRecord,
    /// Every event, the opening's included.
    pub events: Vec<Event>,
    /// How it ended (reading R44).
    pub verdict: Verdict,
}

/// The most actions one encounter may take before the player gives up (a guard; a game of the
/// demonstration set-ups takes a few thousand).
const MAX_ACTIONS: usize = 200_000;

/// Play a whole encounter: the demonstration player's choices, the dice from
/// [`SeededDice`]`::new(seed)` (each die one draw, in the order the rolls are asked for).
pub fn play(setup: BugsSetup, seed: u64) -> Result<PlayedEncounter, BugsError> {
    let mut dice = SeededDice::new(seed);
    play_with(setup, |n| (0..n).map(|_| dice.roll()).collect())
}

/// Play a whole encounter with the demonstration player's choices and dice from `roll` (called
/// with the number of dice wanted).
pub fn play_with(
    setup: BugsSetup,
    mut roll: impl FnMut(u8) -> Vec<DieScore>,
) -> Result<PlayedEncounter, BugsError> {
    let mut e = Encounter::new(setup)?;
    let mut events = e.opening().to_vec();
    for _ in 0..MAX_ACTIONS {
        if e.is_over() {
            return Ok(PlayedEncounter {
                record: e.record(),
                events,
                verdict: e.verdict(),
            });
        }
        let action = match e.awaiting() {
            Some(req) => Action::Roll {
                dice: roll(req.count),
            },
            None => choose(&e),
        };
        events.extend(e.apply(action)?);
    }
    Err(BugsError::Internal(
        "the demonstration encounter did not end".into(),
    ))
}

fn nearest(e: &Encounter, from: Point, side: Side) -> Option<(f64, FigureId)> {
    e.figures()
        .iter()
        .filter(|g| g.on_table() && g.side == side)
        .map(|g| (g.at.distance(from), g.id))
        .min_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)))
}

fn end_of(a: &Action) -> Option<Point> {
    match a {
        Action::Move { path, .. } => path.last().copied(),
        _ => None,
    }
}

/// The move among `legal` whose end is nearest `goal`, if it gets the figure nearer than it is.
fn move_toward(
    e: &Encounter,
    legal: &[Action],
    from: Point,
    goal: Point,
    exit: bool,
) -> Option<Action> {
    legal
        .iter()
        .filter_map(|a| end_of(a).map(|p| (p.distance(goal), p, a)))
        .filter(|(_, p, _)| exit || e.field().inside(*p))
        .map(|(d, _, a)| (d, a))
        .filter(|(d, _)| *d < from.distance(goal) - 0.25)
        .min_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, a)| a.clone())
}

/// The demonstration player's choice for what the encounter waits for (a choice, not dice).
pub(super) fn choose(e: &Encounter) -> Action {
    let legal = e.legal_actions();
    let fallback = legal.last().cloned().unwrap_or(Action::HoldFire {
        figure: FigureId(0),
    });
    let Some(d) = e.decision() else {
        return fallback;
    };
    match d {
        Decision::Join { .. } => legal.first().cloned().unwrap_or(fallback),
        Decision::Fire { figure, at, .. } => {
            let from = e.fig(figure).at;
            legal
                .iter()
                .filter_map(|a| match a {
                    Action::Fire {
                        grenade, targets, ..
                    } => {
                        let plan = e.fire_plan(figure, *grenade, targets, at).ok()?;
                        let n = plan.targets.len();
                        if *grenade && n < 2 {
                            return None;
                        }
                        let dist = e.fig(targets[0]).at.distance(from);
                        let g = if *grenade { 1.5 } else { 0.0 };
                        Some((n as f64 * 10.0 - g - dist * 0.01, a))
                    }
                    _ => None,
                })
                .max_by(|a, b| a.0.total_cmp(&b.0))
                .map(|(_, a)| a.clone())
                .unwrap_or(fallback)
        }
        Decision::Activation { figure, in_contact } => {
            let f = e.fig(figure);
            if in_contact {
                return legal
                    .iter()
                    .filter(|a| matches!(a, Action::Attack { .. }))
                    .min_by_key(|a| match a {
                        Action::Attack { target, .. } => (e.fig(*target).stam, *target),
                        _ => (i32::MAX, FigureId(0)),
                    })
                    .cloned()
                    .unwrap_or(fallback);
            }
            let stay = Action::Stay {
                figure,
                facing: None,
            };
            if f.side == Side::Bugs {
                let charge = legal
                    .iter()
                    .filter_map(|a| match a {
                        Action::Charge { target, .. } => {
                            Some((e.fig(*target).at.distance(f.at), a))
                        }
                        _ => None,
                    })
                    .min_by(|a, b| a.0.total_cmp(&b.0))
                    .map(|(_, a)| a.clone());
                if let Some(c) = charge {
                    return c;
                }
                return nearest(e, f.at, Side::Humans)
                    .and_then(|(_, h)| move_toward(e, &legal, f.at, e.fig(h).at, false))
                    .unwrap_or(stay);
            }
            if !e.fire_options(figure, None).is_empty() {
                return Action::Move {
                    figure,
                    path: Vec::new(),
                    facing: None,
                };
            }
            let field = e.field();
            let goal_point = |edge: super::field::Edge| {
                let dir = Point::from_bearing(edge.bearing());
                f.at + dir * 100.0
            };
            match e.setup().encounter {
                EncounterKind::Escort { goal } => {
                    let citizens: Vec<Point> = e
                        .figures()
                        .iter()
                        .filter(|g| g.on_table() && g.sheet.is_citizen())
                        .map(|g| g.at)
                        .collect();
                    if f.sheet.is_citizen() || citizens.is_empty() {
                        return move_toward(e, &legal, f.at, goal_point(goal), true)
                            .unwrap_or(stay);
                    }
                    let n = citizens.len() as f64;
                    let c = citizens.iter().fold(Point::new(0.0, 0.0), |a, p| a + *p) * (1.0 / n);
                    let ahead = c + Point::from_bearing(goal.bearing()) * 3.0;
                    let clamp = Point::new(
                        ahead.x.clamp(1.0, field.width - 1.0),
                        ahead.y.clamp(1.0, field.depth - 1.0),
                    );
                    move_toward(e, &legal, f.at, clamp, false).unwrap_or(stay)
                }
                EncounterKind::Defend => stay,
                EncounterKind::Raid => {
                    let target = nearest(e, f.at, Side::Bugs)
                        .map(|(_, b)| e.fig(b).at)
                        .or_else(|| {
                            e.holes()
                                .iter()
                                .filter(|h| h.owes > 0)
                                .filter_map(|h| h.at)
                                .min_by(|a, b| a.distance(f.at).total_cmp(&b.distance(f.at)))
                        });
                    target
                        .and_then(|t| move_toward(e, &legal, f.at, t, false))
                        .unwrap_or(stay)
                }
            }
        }
    }
}

impl Encounter {
    /// The demonstration player's choice now, for callers that want the program to play a side
    /// (reading R47). While dice are awaited it returns no choice.
    pub fn suggest(&self) -> Option<Action> {
        self.decision().map(|_| choose(self))
    }
}
