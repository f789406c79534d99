//! Engine queries (#15): the farthest step on a bearing, the legal contacts of an element, the
//! moves the PIPs left pay for. Every answer is one `check` accepts, and just past it `check`
//! refuses.

use crate::battle_common;
use battle_common::*;

use dbcore::battle::queries::{CONTACTS, STEP_RESOLUTION};
use dbcore::battle::{Action, Battle, ElementId, GroupStep, MoveOrder};
use dbcore::battlefield::{Battlefield, Board};
use dbcore::geometry::{Point, Pose};
use dbcore::DieScore;

fn die(n: u8) -> DieScore {
    DieScore::new(n).expect("a die score")
}

fn moving(setup: dbcore::battle::BattleSetup, pips: u8) -> Battle {
    let mut b = Battle::new(setup).expect("valid set-up");
    b.apply(Action::RollPips { die: die(pips) }).expect("PIPs");
    b
}

/// The step of `d` BW on `bearing` as the query builds it: one element's front-edge midpoint
/// straight along the bearing, ending faced along it; a group straight ahead or back.
fn step(b: &Battle, ids: &[u32], bearing: f64, d: f64) -> Action {
    let order = if let [id] = ids {
        let here = b.element(ElementId(*id)).unwrap().pose.front_mid();
        let to: Point = here + Point::from_bearing(bearing) * d;
        MoveOrder::Element {
            id: ElementId(*id),
            path: vec![Pose::new(to.x, to.y, bearing)],
        }
    } else {
        let facing = b.element(ElementId(ids[0])).unwrap().pose.facing;
        let sign = if (bearing - facing).rem_euclid(360.0) < 1.0 {
            1.0
        } else {
            -1.0
        };
        MoveOrder::Group {
            ids: ids.iter().map(|&i| ElementId(i)).collect(),
            steps: vec![GroupStep::Advance { distance: sign * d }],
        }
    };
    Action::Move { order }
}

/// The farthest step is accepted, the step just beyond it refused, within the resolution.
fn assert_farthest(b: &Battle, ids: &[u32], bearing: f64) -> f64 {
    let v: Vec<ElementId> = ids.iter().map(|&i| ElementId(i)).collect();
    let s = b.farthest_step(&v, bearing).expect("some step is legal");
    assert!(b.check(s.action.action()).is_ok());
    assert_eq!(s.action.action(), &step(b, ids, bearing, s.distance));
    assert!(s.refused_beyond > s.distance);
    assert!(s.refused_beyond - s.distance <= STEP_RESOLUTION + 1e-9);
    assert!(
        b.check(&step(b, ids, bearing, s.refused_beyond)).is_err(),
        "a step of {} beyond {} is accepted",
        s.refused_beyond,
        s.distance
    );
    s.distance
}

#[test]
fn s7_3_the_farthest_step_in_the_open_is_the_full_move() {
    // DBA3.md §7.3: Blades move 2 BW in good going, Knights 3 BW.
    let b = moving(open_battle(), 6);
    assert!((assert_farthest(&b, &[2], 0.0) - 2.0).abs() < 1e-9);
    assert!((assert_farthest(&b, &[1], 0.0) - 3.0).abs() < 1e-9);
    // On another bearing the element ends faced along it, and §7.2 measures the front corner
    // that moves furthest, so the turn takes part of the 2 BW.
    let d = assert_farthest(&b, &[2], 300.0);
    assert!(d < 2.0 && d > 1.0, "{d}");
}

#[test]
fn s7_2_the_farthest_step_stops_at_a_friend_in_the_way() {
    // DBA3.md §7.2: Blades may not pass through Blades; the step ends at the friend's rear.
    let mut setup = open_battle();
    let mut friend = el(7, "4Bd", 6.5, 4.75, 0.0);
    friend.general = false;
    setup.armies[0].elements.push(friend);
    let b = moving(setup, 6);
    let d = assert_farthest(&b, &[2], 0.0);
    let rear_gap = 4.75
        - b.element(ElementId(7))
            .unwrap()
            .rect(&b.setup().config)
            .depth
        - 3.0;
    assert!(
        d < 2.0 && d <= rear_gap + 1e-9,
        "{d} against a gap of {rear_gap}"
    );
    assert!(
        d > rear_gap - STEP_RESOLUTION - 1e-9,
        "{d} against a gap of {rear_gap}"
    );
}

#[test]
fn s7_4_a_group_steps_ahead_or_back_only() {
    // DBA3.md §7.4: a group moves as one, at the pace of its slowest element (Blades, 2 BW).
    let b = moving(open_battle(), 6);
    let d = assert_farthest(&b, &[2, 1, 3], 0.0);
    assert!((d - 2.0).abs() <= STEP_RESOLUTION + 1e-9, "{d}");
    let ids = [ElementId(2), ElementId(1), ElementId(3)];
    assert!(b.farthest_step(&ids, 90.0).is_none());
}

#[test]
fn s6_3_no_step_without_pips_or_outside_the_movement_phase() {
    // DBA3.md §6.3: a move needs a PIP; §6.1: moves are made in the movement phase.
    let b = Battle::new(open_battle()).unwrap();
    assert!(b.farthest_step(&[ElementId(2)], 0.0).is_none());
    let mut b = moving(open_battle(), 1);
    let s = b.farthest_step(&[ElementId(2)], 0.0).unwrap();
    b.apply_checked(s.action).unwrap();
    assert_eq!(b.pips(), 0);
    assert!(b.farthest_step(&[ElementId(1)], 0.0).is_none());
    assert!(b.check(&step(&b, &[1], 0.0, 1.0)).is_err());
}

#[test]
fn s8_2_legal_contacts_are_exactly_the_contacts_check_accepts() {
    // DBA3.md §8.2-§8.4: two Blades 1.5 BW apart face to face, a Spear off to the side.
    let setup = sandbox(
        Battlefield::new(Board::default()),
        armies(
            vec![
                general(el(1, "4Bd", 5.0, 3.0, 0.0)),
                el(2, "4Bd", 12.0, 3.0, 0.0),
            ],
            vec![
                general(el(101, "4Bd", 5.25, 4.5, 180.0)),
                el(102, "Sp", 7.5, 5.0, 270.0),
                el(103, "Sp", 12.0, 14.0, 180.0),
            ],
        ),
    );
    let b = moving(setup, 6);
    let contacts = b.legal_contacts(ElementId(1));
    // §8.2 a: the front contact lines the front edges up.
    let front = contacts
        .iter()
        .find(|c| c.target == ElementId(101) && c.contact == dbcore::battle::ContactWanted::Front)
        .expect("the front contact is legal");
    assert_eq!(front.to, Pose::new(5.25, 4.5, 0.0));
    for c in &contacts {
        assert!(b.check(c.action.action()).is_ok());
        assert!(c.distance <= 2.0 + 1e-9, "§7.3 bounds it: {c:?}");
    }
    // Every contact not listed is refused (the far Spear is out of reach, so never listed).
    for target in [101, 102, 103] {
        for contact in CONTACTS {
            let listed = contacts
                .iter()
                .any(|c| c.target == ElementId(target) && c.contact == contact);
            let action = Action::Move {
                order: MoveOrder::IntoContact {
                    ids: vec![ElementId(1)],
                    target: ElementId(target),
                    contact,
                },
            };
            assert_eq!(
                b.check(&action).is_ok(),
                listed,
                "{target} {contact:?}: {:?}",
                b.check(&action)
            );
        }
    }
    assert!(contacts.iter().all(|c| c.target != ElementId(103)));
    // §6.1: only the moving army moves, so an enemy element has no contact to make.
    assert_eq!(b.active_army(), 0);
    assert!(b.legal_contacts(ElementId(101)).is_empty());
}

#[test]
fn s6_3_payable_moves_are_those_the_pips_left_pay_for() {
    // DBA3.md §6.3: one PIP pays for one element's move, and then nothing more is paid for.
    let mut b = moving(open_battle(), 1);
    let payable = b.payable_moves();
    let all: Vec<ElementId> = b.legal().moves.iter().map(|m| m.id).collect();
    assert_eq!(payable.iter().map(|m| m.id).collect::<Vec<_>>(), all);
    for m in &payable {
        assert!(m.cost.total <= b.pips());
        let s = b.farthest_step(&[m.id], b.element(m.id).unwrap().pose.facing);
        assert!(s.is_some(), "{:?} is payable and free to step", m.id);
    }
    let s = b.farthest_step(&[ElementId(2)], 0.0).unwrap();
    b.apply_checked(s.action).unwrap();
    assert!(b.payable_moves().is_empty());
    for m in b.legal().moves {
        assert!(b.check(&step(&b, &[m.id.0], 0.0, 0.5)).is_err());
    }
}
