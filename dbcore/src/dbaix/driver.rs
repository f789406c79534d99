//! The demonstration driver for DBAix: a simple player for each of the three sides, dice from a
//! seed, so a whole three-sided game can be played, told and saved (DBAIX.md §2).
//!
//! Every side plays the same way: Gauls held by the music send their binders to Cacofonix;
//! Romans bring reinforcements back when an officer is in camp; every other figure, nearest
//! first, moves at the closest enemy, charging into its front when it is within a move. Moves
//! are tried with [`Battle::check`] and only legal ones are played.

use crate::dice::SeededDice;
use crate::geometry::{Point, Pose};

use super::{
    Action, Battle, BattleRecord, DbaixError, DbaixSetup, DiceRequest, Event, FigureClass,
    FigureId, FigureSetup, Phase, Side, Status,
};

/// A finished demonstration game.
#[derive(Debug, Clone, PartialEq)]
pub struct Played {
    /// The set-up and every action: it replays to the same game.
    pub record: BattleRecord,
    /// Every event, in order.
    pub events: Vec<Event>,
    /// Bounds played.
    pub bounds: u32,
    /// The side with most figures free on the table, or `None` for a draw.
    pub winner: Option<Side>,
}

fn fig(id: u32, name: &str, class: FigureClass, x: f64, y: f64, facing: f64) -> FigureSetup {
    FigureSetup {
        id: FigureId(id),
        name: name.into(),
        class,
        pose: Pose::new(x, y, facing),
        husband: None,
    }
}

/// The demonstration scenario: the Romans along the south edge beside their paved road, the
/// village at the north edge, the Pirates landed on the west edge.
pub fn demo_setup() -> DbaixSetup {
    use FigureClass::*;
    let mut f = vec![
        fig(1, "Dubius Status", DubiusStatus, 14.5, 6.0, 0.0),
        fig(2, "Caligula Minus", CaligulaMinus, 15.5, 6.0, 0.0),
        fig(3, "Centurion", Officer, 16.5, 6.0, 0.0),
        fig(4, "Legionary I", Legionary, 17.5, 6.0, 0.0),
        fig(5, "Legionary II", Legionary, 18.5, 6.0, 0.0),
        fig(6, "Legionary III", Legionary, 19.5, 6.0, 0.0),
        fig(7, "Legionary IV", Legionary, 20.5, 6.0, 0.0),
        fig(8, "Optio", Officer, 21.5, 6.0, 0.0),
        fig(11, "Vitalstatistix", Vitalstatistix, 18.0, 30.0, 180.0),
        fig(12, "Asterix", Asterix, 17.0, 30.0, 180.0),
        fig(13, "Obelix", Obelix, 16.0, 30.0, 180.0),
        fig(14, "Getafix", Getafix, 19.0, 30.0, 180.0),
        fig(15, "Cacofonix", Cacofonix, 18.0, 33.0, 180.0),
        fig(16, "Geriatrix", Geriatrix, 20.0, 30.0, 180.0),
        fig(17, "Impedimenta", GallicWoman, 21.0, 30.0, 180.0),
        fig(18, "Fulliautomatix", Gaul, 15.0, 30.0, 180.0),
        fig(19, "Unhygienix", Gaul, 14.0, 30.0, 180.0),
        fig(21, "The Captain", Captain, 4.0, 18.0, 90.0),
        fig(22, "Pegleg", Pegleg, 4.0, 17.0, 90.0),
        fig(23, "Pirate", Pirate, 4.0, 19.0, 90.0),
        fig(24, "Baba", Pirate, 4.0, 20.0, 90.0),
        fig(25, "Pirate Boy", Pirate, 4.0, 16.0, 90.0),
    ];
    // DBAix §10 leaves marriages to the scenario: Impedimenta is Vitalstatistix's wife.
    for x in f.iter_mut().filter(|x| x.class == GallicWoman) {
        x.husband = Some(FigureId(11));
    }
    let mut s = DbaixSetup::new(f);
    s.road = vec![Point::new(26.0, 0.0), Point::new(26.0, 36.0)];
    s
}

fn bearing_of(v: Point) -> f64 {
    crate::geometry::snap_bearing(v.x.atan2(v.y).to_degrees())
}

/// The move that carries figure `id` so that it ends at `target` (turning on the spot).
fn move_to(b: &Battle, id: FigureId, target: Pose, cap: f64) -> Option<Action> {
    let cfg = &b.setup().config;
    let f = b.figure(id)?;
    let c = f.rect(cfg).centre();
    let tc = target.front_mid() - target.forward() * (cfg.base_depth * 0.5);
    let v = tc - c;
    let dist = v.length();
    if dist < 1e-6 {
        return None;
    }
    let go = dist.min(cap);
    let face = if go < dist {
        bearing_of(v)
    } else {
        target.facing
    };
    Some(Action::Move {
        figures: vec![id],
        bearing: bearing_of(v),
        distance: crate::geometry::snap(go),
        face: Some(face),
    })
}

fn try_apply(b: &mut Battle, a: Action, events: &mut Vec<Event>) -> bool {
    match b.apply(a) {
        Ok(e) => {
            events.extend(e);
            true
        }
        Err(_) => false,
    }
}

/// Play one side's moves.
fn moves(b: &mut Battle, events: &mut Vec<Event>) {
    let cfg = b.setup().config.clone();
    let side = b.active_side();
    // Reinforcements (DBAIX.md §8.2).
    if side == Side::Romans {
        let camp: Vec<FigureId> = b
            .figures()
            .iter()
            .filter(|f| f.status == Status::InCamp)
            .map(|f| f.id)
            .take(4)
            .collect();
        if !camp.is_empty() {
            for x in [14.0, 8.0, 20.0, 2.0, 28.0] {
                let a = Action::Reinforce {
                    figures: camp.clone(),
                    x,
                    distance: cfg.base_depth,
                };
                if try_apply(b, a, events) {
                    break;
                }
            }
        }
    }
    // Binders go to Cacofonix (DBAIX.md §4).
    if let (Side::Gauls, Some(m)) = (side, b.music().cloned()) {
        let caco = b
            .figures()
            .iter()
            .find(|f| f.class == FigureClass::Cacofonix)
            .cloned();
        if let Some(c) = caco {
            for id in m.binders {
                for _ in 0..2 {
                    let fwd = c.pose.forward();
                    let right = fwd.right();
                    let spots = [
                        c.pose.front_mid() + fwd * cfg.base_depth,
                        c.pose.front_mid() + right * cfg.base_width,
                        c.pose.front_mid() - right * cfg.base_width,
                        c.pose.front_mid() - fwd * cfg.base_depth,
                    ];
                    let done = spots.iter().any(|p| {
                        move_to(b, id, Pose::new(p.x, p.y, c.pose.facing), cfg.move_distance)
                            .is_some_and(|a| try_apply(b, a, events))
                    });
                    // Out of reach: as far towards him as the way allows (the move is
                    // compulsory, DBAIX.md §4).
                    let stepped =
                        !done && b.binder_step(id).is_some_and(|a| try_apply(b, a, events));
                    if !done && !stepped {
                        break;
                    }
                }
            }
        }
        return;
    }
    // Everyone else: at the nearest enemy.
    for _pass in 0..2 {
        let ids: Vec<FigureId> = b
            .figures()
            .iter()
            .filter(|f| f.side == side && f.on_table())
            .map(|f| f.id)
            .collect();
        for id in ids {
            if b.pips() < 2 {
                return;
            }
            let Some(me) = b.figure(id).cloned() else {
                continue;
            };
            let mc = me.rect(&cfg).centre();
            let mut enemies: Vec<(f64, Pose)> = b
                .figures()
                .iter()
                .filter(|e| e.side != side && e.on_table())
                .map(|e| {
                    let d = e.rect(&cfg).centre().distance(mc);
                    let m = e.pose.front_mid();
                    (d, Pose::new(m.x, m.y, e.pose.facing + 180.0))
                })
                .collect();
            enemies.sort_by(|a, b| a.0.total_cmp(&b.0));
            let Some((_, target)) = enemies.first().copied() else {
                return;
            };
            // Charge if the front is within a move, else close in, a little short.
            let mut tried = false;
            if let Some(a) = move_to(b, id, target, cfg.move_distance) {
                tried = try_apply(b, a, events);
            }
            if !tried {
                for cap in [cfg.move_distance - 1.0, 2.0] {
                    if let Some(a) = move_to(b, id, target, cap) {
                        if try_apply(b, a, events) {
                            break;
                        }
                    }
                }
            }
        }
    }
}

/// Play a whole game from `setup` with dice from `seed`, for at most `max_actions` actions.
pub fn play(setup: DbaixSetup, seed: u64, max_actions: usize) -> Result<Played, DbaixError> {
    let mut b = Battle::new(setup)?;
    let mut dice = SeededDice::new(seed);
    let mut events = Vec::new();
    while b.actions().len() < max_actions {
        match b.phase() {
            Phase::Finished { .. } => break,
            Phase::AwaitingPips => {
                events.extend(b.apply(Action::RollPips { die: dice.roll() })?);
            }
            Phase::Movement => {
                moves(&mut b, &mut events);
                events.extend(b.apply(Action::EndMovement)?);
            }
            Phase::CloseCombat => {
                let Some(DiceRequest::Combat { pairs }) = b.awaiting() else {
                    break;
                };
                let (a, c) = pairs[0];
                events.extend(b.apply(Action::Fight {
                    a,
                    b: c,
                    dice: dice.roll_pair(),
                })?);
            }
        }
    }
    let winner = match b.phase() {
        Phase::Finished { winner } => winner,
        _ => None,
    };
    Ok(Played {
        record: b.record(),
        bounds: b.bound(),
        winner,
        events,
    })
}

/// One line of plain English per event, naming figures by name, as the DBA demo tells a battle.
pub fn narrate(setup: &DbaixSetup, events: &[Event]) -> Vec<String> {
    let name = |id: FigureId| {
        setup
            .figures
            .iter()
            .find(|f| f.id == id)
            .map_or_else(|| id.to_string(), |f| f.name.clone())
    };
    let names = |ids: &[FigureId]| ids.iter().map(|i| name(*i)).collect::<Vec<_>>().join(", ");
    events
        .iter()
        .map(|e| match e {
            Event::BoundStarted { side, bound } => format!("-- bound {bound}: the {side:?}"),
            Event::PipsRolled { side, die } => format!("The {side:?} roll {die} PIPs."),
            Event::PotionDrunk { until_gaul_bounds } => format!(
                "The Gauls drink the magic potion (it works until Gaul bound {until_gaul_bounds} is over)."
            ),
            Event::PotionWornOff => "The magic potion wears off.".into(),
            Event::PotionBrewed { until_gaul_bounds } => format!(
                "Getafix brews again (until Gaul bound {until_gaul_bounds} is over)."
            ),
            Event::MusicPlayed { binders, again } => format!(
                "Cacofonix {} sings! {} must bind and gag him.",
                if *again { "still" } else { "" },
                names(binders)
            ),
            Event::Silenced => "Cacofonix is bound and gagged.".into(),
            Event::FledFromMusic { figure, off_table, .. } => format!(
                "{} flees the music{}.",
                name(*figure),
                if *off_table { " off the table" } else { "" }
            ),
            Event::Moved { figures, cost, pips_left, .. } => format!(
                "{} move{} ({} PIPs, {} left).",
                names(figures),
                if figures.len() == 1 { "s" } else { "" },
                cost.total,
                pips_left
            ),
            Event::Reinforced { figures, cost, .. } => format!(
                "Reinforcements from camp: {} ({} PIPs).",
                names(figures),
                cost.total
            ),
            Event::TurnedToFace { figure, towards, .. } => {
                format!("{} turns to face {}.", name(*figure), name(*towards))
            }
            Event::Fought { a, b } => format!(
                "{} ({}) fights {} ({}): {:?} / {:?}.",
                name(a.id),
                a.total,
                name(b.id),
                b.total,
                a.result,
                b.result
            ),
            Event::ResultMoved { figure, result, .. } => format!("{} {:?}.", name(*figure), result),
            Event::Lost { figure, result } => format!("{}: {:?}.", name(*figure), result),
            Event::Captured { figure, guard } => {
                format!("{} is captured, guarded by {}.", name(*figure), name(*guard))
            }
            Event::Freed { figure, .. } => format!("{} is freed!", name(*figure)),
            Event::BoundEnded { unused_pips, .. } => format!("({unused_pips} PIPs unused.)"),
            Event::GameOver { winner, on_table } => format!(
                "The game is over: {}. On the table: {} Romans, {} Gauls, {} Pirates.",
                winner.map_or("a draw".to_string(), |s| format!("the {s:?} win")),
                on_table[0],
                on_table[1],
                on_table[2]
            ),
        })
        .collect()
}
