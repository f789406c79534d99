//! BUGS! turns, activation and the voluntary actions (BUGS.md §5, BUGS §6), with the readings that
//! shape them (R9–R13, R23, R30).

use dbcore::bugs::{
    Action, BugsError, Decision, Encounter, Event, FigureId, HitResult, MoveKind, Need, Roll, Sheet,
};
use dbcore::{ErrorCode, ErrorInfo};

use crate::bugs_support::*;

fn activated(ev: &[Event]) -> Vec<(u32, Option<u32>)> {
    ev.iter()
        .filter_map(|e| match e {
            Event::Activated {
                figure,
                with_leader,
            } => Some((figure.0, with_leader.map(|l| l.0))),
            _ => None,
        })
        .collect()
}

// BUGS.md §5 and reading R10: Willpower is called from the highest down; figures with the same
// Willpower roll 1D6 each, the highest first, and ties roll again among themselves.
#[test]
fn willpower_is_called_from_the_highest_down_and_ties_roll_off() {
    let mut e = Encounter::new(open_table(vec![
        fig(1, Sheet::Soldier, 10.0, 5.0, 0.0),
        fig(2, Sheet::Soldier, 14.0, 5.0, 0.0),
        fig(3, Sheet::Citizen, 18.0, 5.0, 0.0),
        fig(4, Sheet::BigUn, 18.0, 30.0, 180.0),
    ]))
    .unwrap();
    let opening = e.opening();
    assert!(matches!(
        opening[opening.len() - 2],
        Event::WillpowerCalled { willpower: 10, .. }
    ));
    assert!(matches!(
        opening[opening.len() - 1],
        Event::Activated {
            figure: FigureId(4),
            ..
        }
    ));
    let mut ev = go(&mut e, stay(4));
    assert!(
        matches!(&ev[1], Event::WillpowerCalled { willpower: 9, figures } if figures == &[FigureId(1), FigureId(2)])
    );
    assert_eq!(
        awaited(&e),
        Roll::ActivationOrder {
            willpower: 9,
            figures: vec![FigureId(1), FigureId(2)]
        }
    );
    assert_eq!(e.awaiting().unwrap().count, 2);
    ev.extend(go(&mut e, roll(&[3, 3])));
    // The tie rolls again.
    assert_eq!(e.awaiting().unwrap().count, 2);
    ev.extend(go(&mut e, roll(&[2, 5])));
    ev.extend(go(&mut e, stay(2)));
    ev.extend(go(&mut e, stay(1)));
    ev.extend(go(&mut e, stay(3)));
    assert_eq!(activated(&ev)[..3], [(2, None), (1, None), (3, None)]);
    // Each figure activates once a turn, then the encounter step and the next turn.
    assert!(ev.iter().any(|e| matches!(e, Event::TurnBegan { turn: 2 })));
}

// BUGS.md §5 and reading R11: friends within 3 in of a leader who have not activated may
// activate with it, in the order its controller gives, and lose their own call.
#[test]
fn a_leader_takes_friends_within_three_inches() {
    let mut e = Encounter::new(open_table(vec![
        leader(1, Sheet::Soldier, 10.0, 10.0, 0.0),
        fig(2, Sheet::Citizen, 12.0, 10.0, 0.0),
        fig(3, Sheet::Citizen, 10.0, 12.5, 0.0),
        fig(4, Sheet::Citizen, 20.0, 10.0, 0.0),
        fig(5, Sheet::BigUn, 18.0, 30.0, 180.0),
    ]))
    .unwrap();
    let mut ev = go(&mut e, stay(5));
    assert_eq!(
        e.decision(),
        Some(Decision::Join {
            leader: FigureId(1),
            candidates: vec![FigureId(2), FigureId(3)]
        })
    );
    // #4 is 10 in away.
    let err = e
        .apply(Action::Join {
            leader: FigureId(1),
            joiners: vec![FigureId(4)],
        })
        .unwrap_err();
    assert_eq!(err.rule(), Some("BUGS §5"));
    ev.extend(go(
        &mut e,
        Action::Join {
            leader: FigureId(1),
            joiners: vec![FigureId(3), FigureId(2)],
        },
    ));
    ev.extend(go(&mut e, stay(1)));
    ev.extend(go(&mut e, stay(3)));
    ev.extend(go(&mut e, stay(2)));
    ev.extend(go(&mut e, stay(4)));
    assert_eq!(
        activated(&ev)[..4],
        [(1, None), (3, Some(1)), (2, Some(1)), (4, None)]
    );
    // Willpower 7 is called for #4 alone: the joiners gave up their calls.
    assert!(ev.iter().any(|e| matches!(e, Event::WillpowerCalled { willpower: 7, figures } if figures == &[FigureId(4)])));
}

// BUGS.md §6: an Active figure moves up to its full rate and may fire, stays (turning if it
// likes), or charges; reading R3: half-speed terrain costs double; reading R2: a move crosses no
// base and ends in contact with no enemy.
#[test]
fn the_voluntary_actions_and_what_bounds_a_move() {
    let mut s = open_table(vec![
        fig(1, Sheet::Soldier, 10.0, 10.0, 0.0),
        fig(2, Sheet::Citizen, 10.0, 13.0, 0.0),
        fig(3, Sheet::BigUn, 20.0, 10.0, 270.0),
    ]);
    s.areas
        .push(rect(dbcore::bugs::AreaKind::Jungle, 4.0, 4.0, 8.0, 16.0));
    let mut e = Encounter::new(s).unwrap();
    until_active(&mut e, 1);
    let legal = e.legal_actions();
    assert!(legal.iter().any(|a| matches!(a, Action::Stay { .. })));
    assert!(legal
        .iter()
        .any(|a| matches!(a, Action::Move { path, .. } if path.is_empty())));
    assert!(legal.iter().any(|a| matches!(
        a,
        Action::Charge {
            target: FigureId(3),
            ..
        }
    )));
    let refused = |e: &Encounter, a: Action, rule: &str| {
        let before = e.clone();
        let err = e.check(&a).unwrap_err();
        assert_eq!(err.rule(), Some(rule), "{a:?}: {err}");
        assert_eq!(err.code(), ErrorCode::IllegalMove);
        assert_eq!(e, &before);
    };
    // 9 in is more than a move.
    refused(&e, move_to(1, &[(10.0, 0.8)]), "BUGS §6");
    // Through the citizen's base.
    refused(&e, move_to(1, &[(10.0, 16.0)]), "BUGS §0");
    // Into contact with the big un.
    refused(&e, move_to(1, &[(19.0, 10.0)]), "BUGS §6");
    // 4 in, 2 of them in the jungle, cost 6: allowed; 1.5 in more of jungle is not.
    assert!(e.check(&move_to(1, &[(6.0, 10.0)])).is_ok());
    refused(&e, move_to(1, &[(6.0, 10.0), (4.5, 10.0)]), "BUGS §6");
    // A dog-leg around the citizen is fine.
    let ev = go(&mut e, move_to(1, &[(12.0, 12.0), (12.0, 15.0)]));
    let moved: f64 = ev
        .iter()
        .filter_map(|e| match e {
            Event::Moved {
                inches,
                kind: MoveKind::Move,
                ..
            } => Some(*inches),
            _ => None,
        })
        .sum();
    assert!((moved - (8.0f64.sqrt() + 3.0)).abs() < 1e-3, "{moved}");
    // Then the choice to fire.
    assert!(matches!(
        e.decision(),
        Some(Decision::Fire {
            figure: FigureId(1),
            ..
        })
    ));
    go(&mut e, hold(1));
    // Stay, turning.
    let ev = go(
        &mut e,
        Action::Stay {
            figure: FigureId(2),
            facing: Some(90.0),
        },
    );
    assert!(matches!(ev[0], Event::Stayed { figure: FigureId(2), facing } if facing == 90.0));
}

// BUGS.md §5: only the awaited input is taken; a refusal names its section and changes nothing.
#[test]
fn wrong_inputs_are_refused_and_change_nothing() {
    let mut e = Encounter::new(open_table(vec![
        fig(1, Sheet::Soldier, 10.0, 10.0, 0.0),
        fig(2, Sheet::BigUn, 18.0, 30.0, 180.0),
    ]))
    .unwrap();
    let before = e.clone();
    let err = e.apply(roll(&[3, 4])).unwrap_err();
    assert!(matches!(err, BugsError::WrongInput { .. }));
    assert_eq!(
        (err.code(), err.rule()),
        (ErrorCode::WrongPhase, Some("BUGS §5"))
    );
    let err = e.apply(stay(1)).unwrap_err();
    assert_eq!(err.rule(), Some("BUGS §5"));
    assert_eq!(e, before);
    go(&mut e, stay(2));
    go(&mut e, still(1));
    go(&mut e, fire(1, &[2]));
    let err = e.apply(roll(&[3])).unwrap_err();
    assert!(matches!(
        err,
        BugsError::DiceCount {
            wanted: 2,
            got: 1,
            ..
        }
    ));
    assert_eq!(err.code(), ErrorCode::InvalidArgument);
    // Dice out of range never get this far: a DieScore is 1 to 6.
    assert!(serde_json::from_str::<Action>(r#"{"action":"roll","dice":[7,1]}"#).is_err());
}

// Reading R23: a knocked-down figure spends its next activation getting up.
#[test]
fn a_knocked_down_figure_spends_its_activation_getting_up() {
    let e = Encounter::new(open_table(vec![
        fig(1, Sheet::Soldier, 10.0, 10.0, 0.0),
        fig(2, Sheet::BigUn, 18.0, 30.0, 180.0),
    ]))
    .unwrap();
    let i = at_index(&e, 1);
    let mut e = edit(&e, |v| v["figures"][i]["knocked_down"] = true.into());
    let ev = go(&mut e, stay(2));
    assert!(ev.iter().any(|e| matches!(
        e,
        Event::StoodUp {
            figure: FigureId(1)
        }
    )));
    assert!(!e.figure(FigureId(1)).unwrap().knocked_down);
    // It made no choice this turn: the next turn's big un is asked.
    assert!(matches!(
        e.decision(),
        Some(Decision::Activation {
            figure: FigureId(2),
            ..
        })
    ));
}

// Reading R30: a frozen figure gives up its activation.
#[test]
fn a_frozen_figure_does_nothing() {
    let e = Encounter::new(open_table(vec![
        fig(1, Sheet::Soldier, 10.0, 10.0, 0.0),
        fig(2, Sheet::BigUn, 18.0, 30.0, 180.0),
    ]))
    .unwrap();
    let i = at_index(&e, 1);
    let mut e = edit(&e, |v| v["figures"][i]["frozen_until"] = 1.into());
    let ev = go(&mut e, stay(2));
    assert!(ev.iter().any(|e| matches!(
        e,
        Event::StayedFrozen {
            figure: FigureId(1)
        }
    )));
    // Turn 2: thawed.
    go(&mut e, stay(2));
    assert!(matches!(
        e.decision(),
        Some(Decision::Activation {
            figure: FigureId(1),
            ..
        })
    ));
}

// Reading R13: 12 in or more moved since its activation began counts as moving fast (a 9 then
// misses it); the total starts again at its next activation.
#[test]
fn moving_twelve_inches_is_moving_fast() {
    let mut e = Encounter::new(open_table(vec![
        fig(1, Sheet::Soldier, 18.0, 5.0, 0.0),
        fig(2, Sheet::LittleUn, 6.0, 20.0, 90.0),
    ]))
    .unwrap();
    go(&mut e, stay(1));
    go(&mut e, move_to(2, &[(18.0, 20.0)]));
    assert!(e.figure(FigureId(2)).unwrap().moved_fast());
    // Turn 2: the soldier acts first and fires.
    until_active(&mut e, 1);
    go(&mut e, still(1));
    go(&mut e, fire(1, &[2]));
    let ev = go(&mut e, roll(&[4, 5]));
    assert!(ev.iter().any(|e| matches!(
        e,
        Event::HitRolled {
            result: HitResult::Miss,
            condition_held: true,
            ..
        }
    )));
    go(&mut e, roll(&[1, 1]));
    until_active(&mut e, 2);
    assert!(!e.figure(FigureId(2)).unwrap().moved_fast());
}

// Reading R10: a figure whose Willpower falls before its call is called at its new value.
#[test]
fn a_figure_whose_willpower_fell_is_called_later() {
    let e = Encounter::new(open_table(vec![
        fig(1, Sheet::Soldier, 10.0, 10.0, 0.0),
        fig(2, Sheet::Soldier, 14.0, 10.0, 0.0),
        fig(3, Sheet::BigUn, 18.0, 30.0, 180.0),
    ]))
    .unwrap();
    let mut e = e;
    go(&mut e, stay(3));
    go(&mut e, roll(&[6, 1]));
    // #1 acts; meanwhile #2 loses Willpower (a state edit standing in for a wound).
    let i = at_index(&e, 2);
    let mut e = edit(&e, |v| v["figures"][i]["will"] = 5.into());
    let ev = go(&mut e, stay(1));
    assert!(ev
        .iter()
        .any(|e| matches!(e, Event::WillpowerCalled { willpower: 5, .. })));
    assert!(matches!(
        e.need(),
        Some(Need::Decision(Decision::Activation {
            figure: FigureId(2),
            ..
        }))
    ));
}
