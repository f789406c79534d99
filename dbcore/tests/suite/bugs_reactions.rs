//! BUGS! reaction checks (BUGS.md §12; readings R24, R29–R32, R36, R37).

use dbcore::bugs::{
    reaction_result, Action, AreaKind, BeingChargedNone, CheckKind, Decision, Encounter, Event,
    FigureId, FireReason, MeleeReaction, Modified, Modifier, MoveKind, Passed, ReactionResult,
    Roll, Sheet,
};
use dbcore::geometry::Point;

use crate::bugs_support::*;

fn checked(ev: &[Event]) -> Vec<(CheckKind, i32, Vec<Modified>, ReactionResult)> {
    ev.iter()
        .filter_map(|e| match e {
            Event::Checked {
                check,
                needed,
                modifiers,
                result,
                ..
            } => Some((*check, *needed, modifiers.clone(), *result)),
            _ => None,
        })
        .collect()
}

fn m(modifier: Modifier, value: i32) -> Modified {
    Modified { modifier, value }
}

// BUGS.md §12.3–12.6 and readings R24, R29: each check's table.
#[test]
fn each_checks_table() {
    use CheckKind::*;
    use Passed::{First, None as Failed, Second};
    use ReactionResult::*;
    let r = |k, p| reaction_result(k, p, MeleeReaction::MoveBack, BeingChargedNone::Runaway);
    assert_eq!(
        [r(WhatNow, First), r(WhatNow, Second), r(WhatNow, Failed)],
        [FireOrCarryOn, OpposedRoll, Freeze]
    );
    // BUGS.md §12.4: Shot At, passed none: runaway.
    assert_eq!(
        [r(ShotAt, First), r(ShotAt, Second), r(ShotAt, Failed)],
        [FinishMovement, DuckDown, Runaway]
    );
    assert_eq!(
        [r(Charging, First), r(Charging, Second), r(Charging, Failed)],
        [ChargeIn, HaltAndFire, DuckDown]
    );
    assert_eq!(
        [
            r(BeingCharged, First),
            r(BeingCharged, Second),
            r(BeingCharged, Failed)
        ],
        [StandAndFire, Stand, Runaway]
    );
    assert_eq!(
        reaction_result(
            BeingCharged,
            Failed,
            MeleeReaction::MoveBack,
            BeingChargedNone::DuckDown
        ),
        DuckDown
    );
    assert_eq!(
        [
            r(AttackedInMelee, First),
            r(AttackedInMelee, Second),
            r(AttackedInMelee, Failed)
        ],
        [CarryOn, MoveBack, Runaway]
    );
    assert_eq!(
        reaction_result(
            AttackedInMelee,
            Second,
            MeleeReaction::ShotAtTable,
            BeingChargedNone::Stand
        ),
        DuckDown
    );
}

// BUGS.md §12.2 and reading R37: a leader near +1 (and not again as a friend), friends within
// 3 in and in sight +1 each up to 3, uphill of every enemy in sight +1, in cover from the figure
// that caused the check +1, attacking someone from behind +2.
#[test]
fn the_modifiers_of_a_charging_check() {
    let mut s = open_table(vec![
        fig(1, Sheet::Soldier, 20.0, 17.0, 0.0),
        fig(2, Sheet::Citizen, 18.0, 17.0, 0.0),
        fig(3, Sheet::Citizen, 22.0, 17.0, 0.0),
        fig(4, Sheet::Citizen, 19.0, 15.5, 0.0),
        fig(5, Sheet::Citizen, 21.0, 15.5, 0.0),
        leader(6, Sheet::Citizen, 20.0, 15.0, 0.0),
        fig(9, Sheet::LittleUn, 20.0, 20.0, 0.0),
    ]);
    let mut hill = rect(AreaKind::Hill, 19.2, 16.2, 20.8, 17.8);
    hill.height = 1.0;
    s.areas.push(hill);
    s.areas.push(rect(AreaKind::Cover, 19.2, 16.2, 20.8, 17.8));
    let mut e = Encounter::new(s).unwrap();
    go(
        &mut e,
        Action::Charge {
            figure: FigureId(1),
            target: FigureId(9),
            to: Point::new(20.0, 19.0),
        },
    );
    let ev = go(&mut e, roll(&[6, 6]));
    let c = checked(&ev);
    assert_eq!(c[0].0, CheckKind::Charging);
    assert_eq!(
        c[0].2,
        [
            m(Modifier::LeaderNear, 1),
            m(Modifier::Friends, 3),
            m(Modifier::Uphill, 1),
            m(Modifier::InCover, 1),
            m(Modifier::AttackingFromBehind, 2)
        ]
    );
    // 9 + 8 = 17: above 12 even a 12 passes (reading R37: no cap).
    assert_eq!((c[0].1, c[0].3), (17, ReactionResult::ChargeIn));
}

// BUGS.md §12.2: the checker a leader +2, attacked from behind −2 (a Being Charged check).
#[test]
fn a_leader_charged_from_behind() {
    let mut e = Encounter::new(open_table(vec![
        leader(1, Sheet::Soldier, 18.0, 18.0, 0.0),
        fig(2, Sheet::LittleUn, 18.0, 12.0, 0.0),
    ]))
    .unwrap();
    go(&mut e, stay(1));
    go(
        &mut e,
        Action::Charge {
            figure: FigureId(2),
            target: FigureId(1),
            to: Point::new(18.0, 17.0),
        },
    );
    let ev = go(&mut e, roll(&[1, 1]));
    assert_eq!(checked(&ev)[0].2, [m(Modifier::AttackingFromBehind, 2)]);
    let ev = go(&mut e, roll(&[6, 6]));
    assert!(checked(&ev).is_empty());
    let ev = go(&mut e, roll(&[6, 6]));
    let c = checked(&ev);
    assert_eq!(c[0].0, CheckKind::BeingCharged);
    assert_eq!(
        c[0].2,
        [m(Modifier::Leader, 2), m(Modifier::AttackedFromBehind, -2)]
    );
    // Passed none: the tables file's cell (synthetic: duck down), away from the charger.
    assert_eq!(c[0].3, ReactionResult::DuckDown);
    assert!(ev.iter().any(|e| matches!(
        e,
        Event::Moved {
            figure: FigureId(1),
            kind: MoveKind::DuckDown,
            ..
        }
    )));
}

fn shot_at(result_rolls: &[&[u8]]) -> (Encounter, Vec<Event>) {
    let mut s = open_table(vec![
        fig(1, Sheet::Soldier, 18.0, 10.0, 0.0),
        fig(2, Sheet::BigUn, 18.0, 20.0, 180.0),
    ]);
    s.areas.push(rect(AreaKind::Rocky, 12.0, 24.0, 16.0, 27.0));
    let mut e = Encounter::new(s).unwrap();
    go(&mut e, stay(2));
    go(&mut e, still(1));
    go(&mut e, fire(1, &[2]));
    let mut ev = go(&mut e, roll(&[3, 4]));
    for r in result_rolls {
        ev.extend(go(&mut e, roll(r)));
    }
    (e, ev)
}

// BUGS.md §12.4 and reading R32: Shot At, passed 2nd: duck down to the nearest place in cover
// from the firer and farther from it, facing it.
#[test]
fn shot_at_ducks_down_into_cover() {
    let (e, ev) = shot_at(&[&[6, 6], &[1, 1]]);
    assert_eq!(checked(&ev)[0].3, ReactionResult::DuckDown);
    let b = e.figure(FigureId(2)).unwrap();
    assert!(ev.iter().any(|e| matches!(
        e,
        Event::Moved {
            figure: FigureId(2),
            kind: MoveKind::DuckDown,
            ..
        }
    )));
    assert!(
        e.field().in_cover(b.at, Point::new(18.0, 10.0)),
        "{:?}",
        b.at
    );
    assert!(b.at.distance(Point::new(18.0, 10.0)) > 10.0);
    assert!(
        (b.facing - 180.0).abs() < 30.0,
        "it faces the firer: {}",
        b.facing
    );
    // Passed 1st: it finishes its movement (nothing moves).
    let (e, ev) = shot_at(&[&[1, 1]]);
    assert_eq!(checked(&ev)[0].3, ReactionResult::FinishMovement);
    assert_eq!(e.figure(FigureId(2)).unwrap().at, Point::new(18.0, 20.0));
    // Passed none: runaway, and a runaway takes no more checks (reading R37).
    let (mut e, ev) = shot_at(&[&[6, 6], &[6, 6]]);
    assert_eq!(checked(&ev)[0].3, ReactionResult::Runaway);
    assert!(e.figure(FigureId(2)).unwrap().running);
    until_active(&mut e, 1);
    go(&mut e, still(1));
    if e.decision().is_some_and(|d| d.figure() == FigureId(1)) {
        go(&mut e, fire(1, &[2]));
        go(&mut e, roll(&[3, 4]));
        assert!(!matches!(
            e.awaiting().map(|d| d.roll),
            Some(Roll::Reaction {
                figure: FigureId(2),
                ..
            })
        ));
    }
}

/// A little un (#2) behind rocks walks out east into a soldier's sight: the move pauses there for
/// the soldier's What Now check.
fn what_now() -> (Encounter, Vec<Event>) {
    let mut s = open_table(vec![
        fig(1, Sheet::Soldier, 18.0, 6.0, 0.0),
        fig(2, Sheet::LittleUn, 18.0, 22.0, 90.0),
    ]);
    s.areas.push(rect(AreaKind::Rocky, 12.0, 16.0, 24.0, 18.0));
    let mut e = Encounter::new(s).unwrap();
    go(&mut e, stay(1));
    let ev = go(&mut e, move_to(2, &[(30.0, 22.0)]));
    (e, ev)
}

// BUGS.md §12.3 and reading R30: a target coming into sight from concealment pauses there; the
// checker passing its 1st roll may fire at once, and the mover then goes on.
#[test]
fn what_now_pauses_the_move_and_may_fire() {
    let (mut e, ev) = what_now();
    let paused = ev
        .iter()
        .find_map(|e| match e {
            Event::Moved {
                figure: FigureId(2),
                to,
                ..
            } => Some(*to),
            _ => None,
        })
        .unwrap();
    assert!(paused.x > 27.0 && paused.x < 30.0, "{paused:?}");
    assert_eq!(
        awaited(&e),
        Roll::Reaction {
            figure: FigureId(1),
            check: CheckKind::WhatNow,
            attempt: 1
        }
    );
    go(&mut e, roll(&[1, 1]));
    assert_eq!(
        e.decision(),
        Some(Decision::Fire {
            figure: FigureId(1),
            reason: FireReason::WhatNow,
            at: Some(FigureId(2))
        })
    );
    go(&mut e, fire(1, &[2]));
    go(&mut e, roll(&[3, 4]));
    let ev = go(&mut e, roll(&[1, 1]));
    assert!(ev.iter().any(|e| matches!(e, Event::Moved { figure: FigureId(2), to, .. } if *to == Point::new(30.0, 22.0))));
}

// BUGS.md §12.3 and reading R30: passed 2nd: 1D6 + Willpower each, ties again; if the mover wins
// it finishes first and the checker may fire after.
#[test]
fn what_now_opposed_roll() {
    let (mut e, _) = what_now();
    go(&mut e, roll(&[6, 6]));
    go(&mut e, roll(&[1, 1]));
    assert_eq!(
        awaited(&e),
        Roll::Opposed {
            checker: FigureId(1),
            mover: FigureId(2)
        }
    );
    // 9 + 2 against 7 + 4: a tie, again.
    let ev = go(&mut e, roll(&[2, 4]));
    assert!(matches!(ev[0], Event::Opposed { winner: None, .. }));
    // 9 + 1 against 7 + 5: the mover goes on first, then the soldier may fire.
    let ev = go(&mut e, roll(&[1, 5]));
    assert!(matches!(
        ev[0],
        Event::Opposed {
            winner: Some(FigureId(2)),
            ..
        }
    ));
    assert!(ev.iter().any(|e| matches!(e, Event::Moved { figure: FigureId(2), to, .. } if *to == Point::new(30.0, 22.0))));
    assert_eq!(
        e.decision(),
        Some(Decision::Fire {
            figure: FigureId(1),
            reason: FireReason::WhatNow,
            at: Some(FigureId(2))
        })
    );
}

// BUGS.md §12.3 and reading R30: passed none: the checker freezes to the end of the turn.
#[test]
fn what_now_freezes() {
    let (mut e, _) = what_now();
    go(&mut e, roll(&[6, 6]));
    let ev = go(&mut e, roll(&[6, 6]));
    assert!(ev.iter().any(|e| matches!(
        e,
        Event::Froze {
            figure: FigureId(1),
            until_turn: 1
        }
    )));
    // The little un goes on and the turn ends; in turn 2 the soldier is free again.
    assert_eq!(e.turn(), 2);
    assert!(!e.figure(FigureId(1)).unwrap().frozen(2));
}
