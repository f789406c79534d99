//! BUGS! shooting and damage (BUGS.md §4, BUGS §8, BUGS §9, BUGS §10), on the synthetic tables.

use dbcore::bugs::{
    hit_table, to_hit, AttackKind, BugsError, DeathCause, Encounter, Event, FigureId, HitContext,
    HitResult, Impact, Roll, Sheet, Weapon, Wound,
};
use dbcore::{ErrorCode, ErrorInfo};

use crate::bugs_support::*;

/// A soldier (#1) 10 in south of a big un (#2) on an open table; the big un acts first (Willpower
/// 10) and stays, then the soldier fires without moving.
fn duel(gap: f64) -> Encounter {
    let mut e = Encounter::new(open_table(vec![
        fig(1, Sheet::Soldier, 18.0, 10.0, 0.0),
        fig(2, Sheet::BigUn, 18.0, 10.0 + gap, 180.0),
    ]))
    .unwrap();
    go(&mut e, stay(2));
    go(&mut e, still(1));
    e
}

fn shot(e: &[Event]) -> Vec<HitResult> {
    e.iter()
        .filter_map(|e| match e {
            Event::HitRolled { result, .. } => Some(*result),
            _ => None,
        })
        .collect()
}

// BUGS.md §9: the To Hit table row by row, its conditions built in, in shooting and in melee
// (reading R20: only the Weapon Skill rows apply in melee; reading R19: row 6 reads WS 6 or less).
#[test]
fn the_to_hit_table_row_by_row() {
    use HitResult::*;
    let plain = HitContext {
        target_order: 1,
        attacker_ws: 10,
        ..Default::default()
    };
    let rows: Vec<HitResult> = (2..=12).map(|t| to_hit(t, &plain, 6).0).collect();
    assert_eq!(
        rows,
        [
            CriticalWound,
            FleshWound,
            Miss,
            CriticalWound,
            FleshWound,
            Miss,
            CriticalWound,
            FleshWound,
            Miss,
            CriticalWound,
            CriticalWound
        ]
    );
    let hard = HitContext {
        long_range: true,
        firer_moved_fast: true,
        target_order: 3,
        target_in_cover: true,
        target_moved_fast: true,
        attacker_ws: 6,
        melee: false,
    };
    let rows: Vec<HitResult> = (2..=12).map(|t| to_hit(t, &hard, 6).0).collect();
    assert_eq!(
        rows,
        [
            CriticalWound,
            Miss,
            Miss,
            Miss,
            Miss,
            Miss,
            Miss,
            Miss,
            Miss,
            FleshWound,
            Miss
        ]
    );
    // Each condition on its own.
    let one = |f: &dyn Fn(&mut HitContext)| {
        let mut c = plain;
        f(&mut c);
        c
    };
    assert_eq!(to_hit(5, &one(&|c| c.target_order = 2), 6).0, Miss);
    assert_eq!(to_hit(8, &one(&|c| c.target_order = 2), 6).0, CriticalWound);
    assert_eq!(to_hit(8, &one(&|c| c.target_order = 3), 6).0, Miss);
    assert_eq!(to_hit(8, &one(&|c| c.target_in_cover = true), 6).0, Miss);
    assert_eq!(to_hit(9, &one(&|c| c.target_moved_fast = true), 6).0, Miss);
    assert_eq!(to_hit(6, &one(&|c| c.attacker_ws = 7), 6).0, FleshWound);
    assert_eq!(to_hit(6, &one(&|c| c.attacker_ws = 7), 7).0, Miss);
    assert_eq!(to_hit(11, &one(&|c| c.attacker_ws = 8), 6).0, FleshWound);
    // In melee the shooting conditions never hold.
    let melee = HitContext {
        melee: true,
        ..hard
    };
    assert_eq!(to_hit(3, &melee, 6).0, FleshWound);
    assert_eq!(to_hit(12, &melee, 6).0, CriticalWound);
    assert_eq!(to_hit(6, &melee, 6).0, Miss);
    assert_eq!(hit_table(6).len(), 11);
}

// BUGS.md §10.1–10.3: a Critical wound does WS + dice − DAV, then the Impact Table in the
// weapon's Power column; a W takes 10 more, knocks down and sends the target to the Wound Table,
// read in its Willpower's column, where a K kills.
#[test]
fn a_critical_wound_rolls_impact_and_a_w_rolls_on_the_wound_table() {
    let mut e = duel(10.0);
    let ev = go(&mut e, fire(1, &[2]));
    assert!(matches!(
        ev[0],
        Event::Fired {
            weapon: Weapon::AssaultRifle,
            ..
        }
    ));
    assert_eq!(
        awaited(&e),
        Roll::ToHit {
            attacker: FigureId(1),
            target: FigureId(2)
        }
    );
    let ev = go(&mut e, roll(&[1, 1]));
    assert_eq!(shot(&ev), [HitResult::CriticalWound]);
    // The rifle does 3D6 (reading R5).
    assert_eq!(e.awaiting().unwrap().count, 3);
    let ev = go(&mut e, roll(&[6, 6, 6]));
    assert!(matches!(
        ev[0],
        Event::Damaged {
            damage: 16,
            stamina: 104,
            ws: 10,
            dav: 12,
            ..
        }
    ));
    assert_eq!(
        awaited(&e),
        Roll::Impact {
            attacker: FigureId(1),
            target: FigureId(2),
            power: 11
        }
    );
    // Synthetic Power 11 column: 10 and up is W.
    let ev = go(&mut e, roll(&[5, 5]));
    assert!(matches!(
        ev[0],
        Event::ImpactRolled {
            cell: Impact::W,
            stamina: 94,
            ..
        }
    ));
    assert!(matches!(
        ev[1],
        Event::KnockedDown {
            figure: FigureId(2)
        }
    ));
    assert!(e.figure(FigureId(2)).unwrap().knocked_down);
    assert_eq!(
        awaited(&e),
        Roll::Wound {
            figure: FigureId(2),
            willpower: 10
        }
    );
    let ev = go(&mut e, roll(&[6, 6]));
    assert!(matches!(ev[0], Event::WoundRolled { cell: Wound::K, .. }));
    assert!(matches!(
        ev[1],
        Event::Killed {
            figure: FigureId(2),
            cause: DeathCause::Wound
        }
    ));
    assert!(!e.figure(FigureId(2)).unwrap().on_table());
}

// BUGS.md §10.3: a 1 on the Wound Table costs 1 Willpower and the attack is finished.
#[test]
fn a_wound_of_one_costs_a_point_of_willpower() {
    let mut e = duel(10.0);
    go(&mut e, fire(1, &[2]));
    go(&mut e, roll(&[1, 1]));
    go(&mut e, roll(&[1, 1, 1]));
    go(&mut e, roll(&[5, 5]));
    let ev = go(&mut e, roll(&[2, 2]));
    assert!(matches!(
        ev[0],
        Event::WoundRolled {
            cell: Wound::Loss(1),
            will: 9,
            ..
        }
    ));
    // The big un, still alive, takes its Shot At check.
    assert!(matches!(
        awaited(&e),
        Roll::Reaction {
            figure: FigureId(2),
            ..
        }
    ));
}

// BUGS.md §10.1 and BUGS §12.4: a Flesh wound does damage but rolls no Impact; a missed target still
// takes its Shot At check.
#[test]
fn a_flesh_wound_does_damage_without_impact_and_a_miss_still_checks() {
    let mut e = duel(10.0);
    go(&mut e, fire(1, &[2]));
    let ev = go(&mut e, roll(&[4, 5]));
    assert_eq!(shot(&ev), [HitResult::FleshWound]);
    let ev = go(&mut e, roll(&[1, 1, 1]));
    assert!(matches!(
        ev[0],
        Event::Damaged {
            damage: 1,
            stamina: 119,
            ..
        }
    ));
    assert!(matches!(
        awaited(&e),
        Roll::Reaction {
            figure: FigureId(2),
            ..
        }
    ));
    go(&mut e, roll(&[1, 1]));
    // Turn 2: a miss.
    until_active(&mut e, 2);
    go(&mut e, stay(2));
    go(&mut e, still(1));
    go(&mut e, fire(1, &[2]));
    let ev = go(&mut e, roll(&[3, 4]));
    assert_eq!(shot(&ev), [HitResult::Miss]);
    assert!(matches!(
        awaited(&e),
        Roll::Reaction {
            figure: FigureId(2),
            attempt: 1,
            ..
        }
    ));
}

// BUGS.md §4 and reading R14: beyond the effective range is long range (a 3 misses), beyond the
// maximum a fire is refused; a citizen's fists do not fire.
#[test]
fn long_range_and_maximum_range() {
    let mut e = duel(20.0);
    go(&mut e, fire(1, &[2]));
    let ev = go(&mut e, roll(&[1, 2]));
    assert_eq!(shot(&ev), [HitResult::Miss]);
    // A pistol reaches 12 in in the synthetic tables: a little un 13 in away is out of range.
    let mut e = Encounter::new(open_table(vec![
        fig(1, Sheet::CitizenWithPistol, 18.0, 10.0, 0.0),
        fig(2, Sheet::LittleUn, 18.0, 23.0, 180.0),
        fig(3, Sheet::Citizen, 10.0, 10.0, 0.0),
        fig(4, Sheet::LittleUn, 24.0, 14.0, 180.0),
    ]))
    .unwrap();
    until_active(&mut e, 1);
    go(&mut e, still(1));
    let before = e.clone();
    let err = e.apply(fire(1, &[2])).unwrap_err();
    assert_eq!(err.rule(), Some("BUGS §4"));
    assert_eq!(err.code(), ErrorCode::IllegalSituation);
    assert_eq!(e, before);
    // A citizen with fists is never asked whether to fire.
    go(&mut e, hold(1));
    until_active(&mut e, 3);
    go(&mut e, still(3));
    assert!(e.decision().is_none_or(|d| d.figure() != FigureId(3)));
}

// BUGS.md §8 and reading R15: several targets lie within 2 in of each other, no more than the
// weapon's count; each is resolved in order, the second counting as "second or third" on row 5.
#[test]
fn several_targets_within_two_inches() {
    let mut e = Encounter::new(open_table(vec![
        fig(1, Sheet::Soldier, 18.0, 10.0, 0.0),
        fig(2, Sheet::LittleUn, 17.0, 20.0, 180.0),
        fig(3, Sheet::LittleUn, 18.5, 20.0, 180.0),
        fig(4, Sheet::LittleUn, 22.0, 20.0, 180.0),
    ]))
    .unwrap();
    go(&mut e, still(1));
    for bad in [&[2, 3, 4][..], &[3, 4][..], &[2, 2][..]] {
        let err = e.apply(fire(1, bad)).unwrap_err();
        assert!(
            matches!(
                err,
                BugsError::IllegalFire {
                    rule: "BUGS §8",
                    ..
                }
            ),
            "{bad:?}"
        );
    }
    let ev = go(&mut e, fire(1, &[2, 3]));
    assert!(matches!(&ev[0], Event::Fired { targets, .. } if targets.len() == 2));
    // First target: a 5 is a Critical wound.
    let ev = go(&mut e, roll(&[2, 3]));
    assert_eq!(shot(&ev), [HitResult::CriticalWound]);
    go(&mut e, roll(&[1, 1, 1]));
    go(&mut e, roll(&[1, 1]));
    go(&mut e, roll(&[1, 1]));
    // Second target: the same 5 misses (row 5).
    assert_eq!(
        awaited(&e),
        Roll::ToHit {
            attacker: FigureId(1),
            target: FigureId(3)
        }
    );
    let ev = go(&mut e, roll(&[2, 3]));
    assert_eq!(shot(&ev), [HitResult::Miss]);
}

// BUGS.md §8 and reading R16: a burst of 3 in hits every enemy in its circle, in order of
// distance from its centre; the heavy weapon's Power 9 column is read for its Impact.
#[test]
fn a_burst_hits_everything_within_three_inches() {
    let mut e = Encounter::new(open_table(vec![
        fig(1, Sheet::HeavyWeaponSoldier, 18.0, 10.0, 0.0),
        fig(2, Sheet::BigUn, 18.0, 20.0, 180.0),
        fig(3, Sheet::LittleUn, 20.5, 20.0, 180.0),
        fig(4, Sheet::LittleUn, 16.0, 20.0, 180.0),
        fig(5, Sheet::LittleUn, 18.0, 24.0, 180.0),
    ]))
    .unwrap();
    until_active(&mut e, 1);
    go(&mut e, still(1));
    assert!(e.apply(fire(1, &[2, 3])).is_err());
    let ev = go(&mut e, fire(1, &[2]));
    match &ev[0] {
        Event::Fired {
            targets, burst_at, ..
        } => {
            assert_eq!(targets, &[FigureId(2), FigureId(4), FigureId(3)]);
            assert!(burst_at.is_some());
        }
        e => panic!("{e:?}"),
    }
    go(&mut e, roll(&[1, 1]));
    assert_eq!(e.awaiting().unwrap().count, 2);
    go(&mut e, roll(&[1, 1]));
    assert!(matches!(awaited(&e), Roll::Impact { power: 9, .. }));
}

// BUGS.md §8 and reading R17: rocky ground and other figures' bases block the line of sight.
#[test]
fn sight_is_blocked_by_rocks_and_by_figures() {
    let mut s = open_table(vec![
        fig(1, Sheet::Soldier, 18.0, 10.0, 0.0),
        fig(2, Sheet::BigUn, 18.0, 20.0, 180.0),
        fig(3, Sheet::LittleUn, 8.0, 20.0, 180.0),
        fig(4, Sheet::Citizen, 9.0, 15.0, 0.0),
    ]);
    s.areas
        .push(rect(dbcore::bugs::AreaKind::Rocky, 16.0, 14.0, 20.0, 16.0));
    let mut e = Encounter::new(s).unwrap();
    until_active(&mut e, 1);
    go(&mut e, still(1));
    let to_big = e.apply(fire(1, &[2])).unwrap_err();
    assert_eq!(to_big.rule(), Some("BUGS §8"));
    // The citizen at (9, 15) is clear of the line from (18, 10) to (8, 20).
    go(&mut e, fire(1, &[3]));
    // A citizen's base on the line blocks it; another bug in sight lets the soldier choose.
    let mut e = Encounter::new(open_table(vec![
        fig(1, Sheet::Soldier, 18.0, 10.0, 0.0),
        fig(2, Sheet::BigUn, 18.0, 20.0, 180.0),
        fig(4, Sheet::Citizen, 18.2, 15.0, 0.0),
        fig(5, Sheet::LittleUn, 25.0, 12.0, 180.0),
    ]))
    .unwrap();
    until_active(&mut e, 1);
    go(&mut e, still(1));
    assert_eq!(e.apply(fire(1, &[2])).unwrap_err().rule(), Some("BUGS §8"));
    go(&mut e, fire(1, &[5]));
}

// BUGS.md §4 and reading R45: a soldier's two grenades are counted; a burst at grenade range.
#[test]
fn grenades_are_counted() {
    let mut e = duel(3.5);
    let g = dbcore::bugs::Action::Fire {
        figure: FigureId(1),
        grenade: true,
        targets: vec![FigureId(2)],
    };
    let ev = go(&mut e, g.clone());
    assert!(matches!(
        ev[0],
        Event::Fired {
            weapon: Weapon::Grenade,
            ..
        }
    ));
    assert_eq!(e.figure(FigureId(1)).unwrap().grenades, 1);
    go(&mut e, roll(&[3, 4]));
    go(&mut e, roll(&[1, 1]));
    until_active(&mut e, 2);
    go(&mut e, stay(2));
    go(&mut e, still(1));
    go(&mut e, g.clone());
    assert_eq!(e.figure(FigureId(1)).unwrap().grenades, 0);
    go(&mut e, roll(&[3, 4]));
    go(&mut e, roll(&[1, 1]));
    until_active(&mut e, 2);
    go(&mut e, stay(2));
    go(&mut e, still(1));
    let err = e.apply(g).unwrap_err();
    assert_eq!(err.rule(), Some("BUGS §4"));
    assert!(e
        .legal_actions()
        .iter()
        .all(|a| !matches!(a, dbcore::bugs::Action::Fire { grenade: true, .. })));
}

// BUGS.md §10.4 and reading R22: at Stamina 0 a figure runs away (Willpower and Stamina to 0); at
// minus its starting Stamina it is dead.
#[test]
fn stamina_at_zero_runs_away_and_at_double_kills() {
    let mut e = Encounter::new(open_table(vec![
        fig(1, Sheet::Soldier, 18.0, 10.0, 0.0),
        fig(2, Sheet::LittleUn, 18.0, 20.0, 180.0),
    ]))
    .unwrap();
    go(&mut e, still(1));
    let i = at_index(&e, 2);
    let mut low = edit(&e, |v| v["figures"][i]["stam"] = 5.into());
    go(&mut low, fire(1, &[2]));
    go(&mut low, roll(&[4, 5]));
    let ev = go(&mut low, roll(&[1, 1, 1]));
    // 10 + 3 − 8 = 5 damage: Stamina 0.
    assert!(ev.iter().any(|e| matches!(
        e,
        Event::RanAway {
            figure: FigureId(2),
            stamina: 0
        }
    )));
    let f = low.figure(FigureId(2)).unwrap();
    assert!(f.running && f.will == 0);
    let mut dying = edit(&e, |v| v["figures"][i]["stam"] = (-45).into());
    go(&mut dying, fire(1, &[2]));
    go(&mut dying, roll(&[4, 5]));
    let ev = go(&mut dying, roll(&[1, 1, 1]));
    assert!(ev.iter().any(|e| matches!(
        e,
        Event::Killed {
            figure: FigureId(2),
            cause: DeathCause::Stamina
        }
    )));
    let attacks: Vec<AttackKind> = ev
        .iter()
        .filter_map(|e| match e {
            Event::HitRolled { attack, .. } => Some(*attack),
            _ => None,
        })
        .collect();
    assert!(attacks.is_empty());
}
