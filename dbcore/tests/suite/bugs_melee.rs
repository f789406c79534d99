//! BUGS! melee and the involuntary results it brings (BUGS.md §7, BUGS §11; readings R24–R28, R33–R35).

use dbcore::bugs::{
    Action, AttackKind, CheckKind, Decision, DiceReading, Encounter, Event, FigureId, FireReason,
    MoveKind, ReactionResult, Roll, Sheet,
};
use dbcore::geometry::Point;
use dbcore::ErrorInfo;

use crate::bugs_support::*;

fn kinds(ev: &[Event]) -> Vec<String> {
    ev.iter()
        .map(|e| {
            let v = serde_json::to_value(e).unwrap();
            let mut k = v["event"].as_str().unwrap().to_string();
            if let Some(c) = v["check"].as_str() {
                k = format!("{k}:{c}");
            }
            if let Some(c) = v["attack"].as_str() {
                k = format!("{k}:{c}");
            }
            if let Some(c) = v["kind"].as_str() {
                k = format!("{k}:{c}");
            }
            k
        })
        .collect()
}

fn charge(id: u32, target: u32, x: f64, y: f64) -> Action {
    Action::Charge {
        figure: FigureId(id),
        target: FigureId(target),
        to: Point::new(x, y),
    }
}

/// A big un (#2) 6 in north of a soldier (#1), charging in turn 1.
fn big_un_charges() -> (Encounter, Vec<Event>) {
    let mut e = Encounter::new(open_table(vec![
        fig(1, Sheet::Soldier, 18.0, 10.0, 0.0),
        fig(2, Sheet::BigUn, 18.0, 16.0, 180.0),
    ]))
    .unwrap();
    let mut ev = go(&mut e, charge(2, 1, 18.0, 11.0));
    assert_eq!(
        awaited(&e),
        Roll::Reaction {
            figure: FigureId(2),
            check: CheckKind::Charging,
            attempt: 1
        }
    );
    // Charging, passed 1st: it goes halfway and the soldier takes Being Charged.
    ev.extend(go(&mut e, roll(&[1, 1])));
    ev.extend(go(&mut e, roll(&[1, 1])));
    // Stand and fire if able: at the charger.
    assert_eq!(
        e.decision(),
        Some(Decision::Fire {
            figure: FigureId(1),
            reason: FireReason::BeingCharged,
            at: Some(FigureId(2))
        })
    );
    ev.extend(go(&mut e, fire(1, &[2])));
    ev.extend(go(&mut e, roll(&[3, 4])));
    // The big un's Shot At: finish its movement; into contact, and it attacks first.
    ev.extend(go(&mut e, roll(&[1, 1])));
    assert_eq!(
        awaited(&e),
        Roll::ToHit {
            attacker: FigureId(2),
            target: FigureId(1)
        }
    );
    ev.extend(go(&mut e, roll(&[4, 5])));
    ev.extend(go(&mut e, roll(&[1, 1, 1])));
    (e, ev)
}

// BUGS.md §6 #3, BUGS §12.5, BUGS §12.6 and reading R28: a charge takes a Charging check, stops halfway for
// the target's Being Charged check (which may let it fire, the charger then checking Shot At),
// then goes into contact and the charger attacks first (BUGS.md §11).
#[test]
fn a_charge_checks_stops_halfway_and_the_charger_strikes_first() {
    let (e, ev) = big_un_charges();
    assert_eq!(
        kinds(&ev),
        [
            "charge_declared",
            "checked:charging",
            "moved:charge",
            "checked:being_charged",
            "fired",
            "hit_rolled:shot",
            "checked:shot_at",
            "moved:charge",
            "hit_rolled:melee",
            "damaged",
        ]
    );
    assert_eq!(e.figure(FigureId(2)).unwrap().at, Point::new(18.0, 11.0));
    // 12 + 3 − 8 = 7 off the soldier.
    assert_eq!(e.figure(FigureId(1)).unwrap().stam, 74);
    assert!(matches!(
        awaited(&e),
        Roll::Reaction {
            figure: FigureId(1),
            check: CheckKind::AttackedInMelee,
            attempt: 1
        }
    ));
}

// BUGS.md §11 and readings R24, R25: a defender that passes its 1st roll carries on and strikes
// back at once; the Active figure then checks too, and its Carry on brings nothing more.
#[test]
fn carry_on_brings_the_counter_attack() {
    let (mut e, _) = big_un_charges();
    let mut ev = go(&mut e, roll(&[1, 1]));
    ev.extend(go(&mut e, roll(&[3, 4])));
    ev.extend(go(&mut e, roll(&[1, 1])));
    assert_eq!(
        kinds(&ev)[..3],
        [
            "checked:attacked_in_melee",
            "hit_rolled:counter_attack",
            "checked:attacked_in_melee",
        ]
    );
    assert!(matches!(
        &ev[0],
        Event::Checked {
            result: ReactionResult::CarryOn,
            ..
        }
    ));
    // The soldier's turn: it is in melee, so it may attack or stay (reading R27).
    assert_eq!(
        e.decision(),
        Some(Decision::Activation {
            figure: FigureId(1),
            in_contact: true
        })
    );
    let moving = e.check(&move_to(1, &[(10.0, 10.0)])).unwrap_err();
    assert_eq!(moving.rule(), Some("BUGS §11"));
    let legal = e.legal_actions();
    assert_eq!(
        legal,
        [
            Action::Attack {
                figure: FigureId(1),
                target: FigureId(2)
            },
            stay(1)
        ]
    );
}

// BUGS.md §7 #6, #7 and reading R34: passing only the 2nd roll after a melee attack moves the
// defender 2 in back with 1 Willpower lost, and its attacker follows up into contact.
#[test]
fn move_back_and_follow_up() {
    let (mut e, _) = big_un_charges();
    go(&mut e, roll(&[6, 6]));
    let ev = go(&mut e, roll(&[1, 1]));
    assert_eq!(
        kinds(&ev)[..4],
        [
            "checked:attacked_in_melee",
            "willpower_lost",
            "moved:move_back",
            "moved:follow_up"
        ]
    );
    let s = e.figure(FigureId(1)).unwrap();
    assert_eq!((s.at, s.will), (Point::new(18.0, 8.0), 8));
    let b = e.figure(FigureId(2)).unwrap();
    assert!((b.at.distance(s.at) - 1.0).abs() < 0.01);
}

// BUGS.md §7 #5, #8 and readings R33, R35: a defender that passes no roll runs away; every enemy
// in melee with it has a free hack, it runs at charge speed for the nearest edge, and the enemy
// that caused it pursues at its rate + ½D6, hacking again if it ends in contact; at its next
// activation the pursuer rolls 2D6 against its Willpower and, failing, pursues on at half rate.
#[test]
fn runaway_free_hack_and_pursuit() {
    let mut e = Encounter::new(open_table(vec![
        fig(1, Sheet::Soldier, 18.0, 14.0, 0.0),
        fig(2, Sheet::LittleUn, 18.0, 20.0, 180.0),
    ]))
    .unwrap();
    go(&mut e, stay(1));
    go(&mut e, charge(2, 1, 18.0, 15.0));
    go(&mut e, roll(&[1, 1]));
    go(&mut e, roll(&[1, 1]));
    go(&mut e, hold(1));
    go(&mut e, roll(&[4, 5]));
    go(&mut e, roll(&[1, 1]));
    go(&mut e, roll(&[6, 6]));
    let mut ev = go(&mut e, roll(&[6, 6]));
    assert!(matches!(
        &ev[0],
        Event::Checked {
            result: ReactionResult::Runaway,
            ..
        }
    ));
    assert!(matches!(
        ev[1],
        Event::RanAway {
            figure: FigureId(1),
            stamina: 0
        }
    ));
    assert_eq!(
        awaited(&e),
        Roll::ToHit {
            attacker: FigureId(2),
            target: FigureId(1)
        }
    );
    ev.extend(go(&mut e, roll(&[3, 4])));
    // It ran 12 in south; the pursuer rolls ½D6.
    let want = e.awaiting().unwrap();
    assert_eq!(
        (want.count, want.reading, want.roll),
        (
            1,
            DiceReading::Half,
            Roll::PursuitDistance {
                figure: FigureId(2)
            }
        )
    );
    ev.extend(go(&mut e, roll(&[6])));
    assert_eq!(e.figure(FigureId(1)).unwrap().at, Point::new(18.0, 2.0));
    assert!(e.figure(FigureId(2)).unwrap().pursuing.is_some());
    let k = kinds(&ev);
    assert!(k.contains(&"hit_rolled:free_hack".to_string()), "{k:?}");
    assert!(k.contains(&"moved:runaway".to_string()));
    assert!(k.contains(&"moved:pursuit".to_string()));
    // 12 + 3 in brought it into contact: another free hack.
    assert_eq!(
        awaited(&e),
        Roll::ToHit {
            attacker: FigureId(2),
            target: FigureId(1)
        }
    );
    go(&mut e, roll(&[3, 4]));
    // Turn 2: the runaway takes no checks and is called at Willpower 0, after the pursuer's
    // 2D6 (12 against 7: it pursues on at 6 in).
    until(
        &mut e,
        |n| matches!(n, dbcore::bugs::Need::Dice(d) if matches!(d.roll, Roll::PursuitCheck { .. })),
    );
    let ev = go(&mut e, roll(&[6, 6]));
    assert!(matches!(ev[0], Event::PursuitChecked { pursues: true, .. }));
    assert!(ev.iter().any(|e| matches!(
        e,
        Event::Moved {
            kind: MoveKind::Pursuit,
            ..
        }
    )));
}

// Reading R26: at most two enemies in front of a figure and one behind; a charge that would
// exceed that is refused.
#[test]
fn at_most_two_in_front_and_one_behind() {
    let mut e = Encounter::new(open_table(vec![
        fig(1, Sheet::Soldier, 18.0, 18.0, 0.0),
        fig(2, Sheet::LittleUn, 18.0, 19.0, 180.0),
        fig(3, Sheet::LittleUn, 19.0, 18.0, 270.0),
        fig(5, Sheet::LittleUn, 10.0, 18.0, 90.0),
    ]))
    .unwrap();
    until_active(&mut e, 5);
    let front = e.check(&charge(5, 1, 17.0, 18.0)).unwrap_err();
    assert_eq!(front.rule(), Some("BUGS §11"));
    let behind = (Point::new(18.0, 18.0) + Point::from_bearing(225.0)).snapped();
    assert!(e.check(&charge(5, 1, behind.x, behind.y)).is_ok());
    // One behind already: a second from behind is refused, from the side it is not.
    let mut e = Encounter::new(open_table(vec![
        fig(1, Sheet::Soldier, 18.0, 18.0, 0.0),
        fig(2, Sheet::LittleUn, 18.0, 17.0, 0.0),
        fig(5, Sheet::LittleUn, 28.0, 16.0, 270.0),
    ]))
    .unwrap();
    until_active(&mut e, 5);
    let rear = (Point::new(18.0, 18.0) + Point::from_bearing(120.0)).snapped();
    assert_eq!(
        e.check(&charge(5, 1, rear.x, rear.y)).unwrap_err().rule(),
        Some("BUGS §11")
    );
    assert!(e.check(&charge(5, 1, 19.0, 18.0)).is_ok());
}

// BUGS.md §12.5: Charging, passed 2nd: halt in place and fire instead; passed none: duck down
// away from the target.
#[test]
fn a_charge_that_fails_its_check() {
    let setup = open_table(vec![
        fig(1, Sheet::Soldier, 18.0, 18.0, 0.0),
        fig(2, Sheet::BigUn, 18.0, 26.0, 180.0),
    ]);
    let mut e = Encounter::new(setup).unwrap();
    go(&mut e, stay(2));
    go(&mut e, charge(1, 2, 18.0, 25.0));
    let start = e.clone();
    go(&mut e, roll(&[6, 6]));
    go(&mut e, roll(&[1, 1]));
    assert_eq!(
        e.decision(),
        Some(Decision::Fire {
            figure: FigureId(1),
            reason: FireReason::ChargeHalted,
            at: None
        })
    );
    assert_eq!(e.figure(FigureId(1)).unwrap().at, Point::new(18.0, 18.0));
    let mut e = start;
    go(&mut e, roll(&[6, 6]));
    let ev = go(&mut e, roll(&[6, 6]));
    let (to, inches) = ev
        .iter()
        .find_map(|e| match e {
            Event::Moved {
                kind: MoveKind::DuckDown,
                to,
                inches,
                ..
            } => Some((*to, *inches)),
            _ => None,
        })
        .expect("it ducks down");
    assert!(
        (inches - 12.0).abs() < 1e-3 && to.y < 18.0,
        "{to:?} {inches}"
    );
    // Its activation is over: no fire.
    assert!(e.decision().is_none_or(|d| d.figure() != FigureId(1)));
    let _ = AttackKind::Melee;
}
