//! DBA3.md §6–§10: `Battle::legal` lists what the side to move may do now, and agrees with
//! `Battle::check` over every step of the golden traces.

use crate::battle_common;

use battle_common::*;
use dbcore::battle::{
    Action, Battle, BattleRecord, DiceRequest, ElementId, Legal, MoveOrder, Phase, PipExtra,
};
use dbcore::battlefield::{Battlefield, Board};
use dbcore::geometry::Pose;
use std::path::PathBuf;

fn ids(l: &Legal) -> Vec<u32> {
    l.moves.iter().map(|m| m.id.0).collect()
}

#[test]
fn s6_2_before_the_pip_die_only_the_die_is_legal() {
    // DBA3.md §6.2: a bound starts with the moving army's PIP die.
    let b = Battle::new(open_battle()).unwrap();
    let l = b.legal();
    assert_eq!(l.phase, Phase::AwaitingPips);
    assert_eq!(l.dice, Some(DiceRequest::Pips { army: 0 }));
    assert!(l.moves.is_empty() && l.shots.is_empty() && l.combats.is_empty());
    assert!(!l.may_end_movement && !l.may_dice_river);
}

#[test]
fn s7_1_every_element_of_the_moving_army_may_move_once_pips_are_rolled() {
    // DBA3.md §7.1, §6.3: each element of the moving army may move, at 1 PIP in its first bound.
    let mut b = Battle::new(open_battle()).unwrap();
    b.apply(Action::RollPips { die: d(2) }).unwrap();
    let l = b.legal();
    let own: Vec<u32> = b
        .elements()
        .iter()
        .filter(|e| e.army == 0)
        .map(|e| e.id.0)
        .collect();
    assert_eq!(ids(&l), own);
    assert!(l.may_end_movement);
    assert_eq!(l.pips, 2);
    for m in &l.moves {
        assert_eq!(m.move_number, 1);
        assert_eq!(m.cost.total, 1, "{:?}", m);
        assert!(m.affordable);
        assert!(!m.road_only);
    }
    // DBA3.md §7.3: Knights move 2 BW in good going (config), Blades 1 BW.
    let kn = l.moves.iter().find(|m| m.id == ElementId(1)).unwrap();
    let bd = l.moves.iter().find(|m| m.id == ElementId(2)).unwrap();
    assert_eq!(
        kn.reach_good,
        b.setup()
            .config
            .move_distance(b.element(ElementId(1)).unwrap().kind, false)
    );
    assert!(kn.reach_good > bd.reach_good);
}

#[test]
fn s7_5_after_a_move_only_light_horse_mounted_infantry_and_psiloi_are_listed_again() {
    // DBA3.md §7.5: Blades may not move twice off a road; Light Horse may move 3 times.
    let setup = sandbox(
        Battlefield::new(Board::default()),
        armies(
            vec![
                general(el(1, "4Bd", 7.5, 3.0, 0.0)),
                el(2, "LH", 3.0, 3.0, 0.0),
            ],
            vec![general(el(101, "4Bd", 7.5, 12.0, 180.0))],
        ),
    );
    let mut b = Battle::new(setup).unwrap();
    b.apply(Action::RollPips { die: d(6) }).unwrap();
    for (id, x) in [(1, 7.5), (2, 3.0)] {
        b.apply(Action::Move {
            order: MoveOrder::Element {
                id: ElementId(id),
                path: vec![Pose::new(x, 3.5, 0.0)],
            },
        })
        .unwrap();
    }
    let l = b.legal();
    assert_eq!(ids(&l), vec![2]);
    assert_eq!(l.moves[0].move_number, 2);
}

#[test]
fn s6_3_unaffordable_moves_are_listed_with_their_cost() {
    // DBA3.md §6.3: with no PIP left a move is listed but not affordable.
    let mut b = Battle::new(open_battle()).unwrap();
    b.apply(Action::RollPips { die: d(1) }).unwrap();
    b.apply(Action::Move {
        order: MoveOrder::Element {
            id: ElementId(1),
            path: vec![Pose::new(7.5, 3.5, 0.0)],
        },
    })
    .unwrap();
    let l = b.legal();
    assert_eq!(l.pips, 0);
    assert!(l.moves.iter().all(|m| !m.affordable && m.cost.total >= 1));
}

#[test]
fn s6_3_the_cost_names_an_element_beyond_command_distance_after_the_first_bound() {
    // DBA3.md §6.3 (b), §6.4: an element beyond command distance costs an extra PIP (not in the
    // army's first bound).
    let setup = sandbox(
        Battlefield::new(Board::default()),
        armies(
            vec![
                general(el(1, "4Bd", 1.0, 1.0, 0.0)),
                el(2, "4Bd", 13.5, 3.0, 0.0),
            ],
            vec![general(el(101, "4Bd", 7.5, 12.0, 180.0))],
        ),
    );
    let mut b = Battle::new(setup).unwrap();
    for die in [1, 1, 6] {
        if b.phase() == Phase::Movement {
            b.apply(Action::EndMovement).unwrap();
        }
        b.apply(Action::RollPips { die: d(die) }).unwrap();
    }
    assert_eq!(b.active_army(), 0);
    let l = b.legal();
    assert_eq!(ids(&l), vec![1, 2]);
    assert!(l.moves[0].cost.extras.is_empty());
    assert!(matches!(
        l.moves[1].cost.extras[..],
        [PipExtra::BeyondCommand { .. }]
    ));
    assert_eq!(l.moves[1].cost.total, 2);
}

#[test]
fn s9_1_the_shooting_phase_lists_shooters_and_their_targets() {
    // DBA3.md §9.1, §9.3: Bows 2 BW in front of enemy Cavalry may shoot it.
    let setup = sandbox(
        Battlefield::new(Board::default()),
        armies(
            vec![
                general(el(1, "Cv", 2.0, 1.0, 0.0)),
                el(2, "4Bw", 7.5, 5.0, 0.0),
            ],
            vec![
                general(el(101, "Cv", 7.5, 7.0, 180.0)),
                el(102, "Sp", 12.0, 12.0, 180.0),
            ],
        ),
    );
    let mut b = Battle::new(setup).unwrap();
    b.apply(Action::RollPips { die: d(3) }).unwrap();
    b.apply(Action::EndMovement).unwrap();
    let l = b.legal();
    assert_eq!(l.phase, Phase::Shooting);
    assert!(l.moves.is_empty() && !l.may_end_movement);
    assert_eq!(l.shots.len(), 1);
    assert_eq!(l.shots[0].shooter, ElementId(2));
    assert_eq!(l.shots[0].targets, vec![ElementId(101)]);
}

fn golden_records() -> Vec<(String, BattleRecord)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/golden");
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    paths.sort();
    paths
        .iter()
        .map(|p| {
            let v: serde_json::Value =
                serde_json::from_str(&std::fs::read_to_string(p).unwrap()).unwrap();
            (
                p.display().to_string(),
                serde_json::from_value(v["record"].clone()).unwrap(),
            )
        })
        .collect()
}

#[test]
fn s6_1_every_action_of_the_golden_traces_is_among_the_legal_ones() {
    // DBA3.md §6.1: each action a played battle took was on offer when it was taken: a move by a
    // listed element, a shot by a listed shooter at a listed target, a listed combat, the dice
    // awaited.
    let mut steps = 0;
    for (name, record) in golden_records() {
        let mut b = Battle::new(record.setup.clone()).unwrap();
        for a in &record.actions {
            let l = b.legal();
            let json = serde_json::to_string(&l).unwrap();
            assert_eq!(serde_json::from_str::<Legal>(&json).unwrap(), l);
            match a {
                Action::RollPips { .. } => {
                    assert!(matches!(l.dice, Some(DiceRequest::Pips { .. })), "{name}")
                }
                Action::RollCommandPips { .. } => {
                    assert!(
                        matches!(l.dice, Some(DiceRequest::CommandPips { .. })),
                        "{name}"
                    )
                }
                Action::Hold { .. } | Action::Flee => {
                    assert!(l.may_end_movement && l.flight_due, "{name}")
                }
                Action::DiceRiver { .. } => assert!(l.may_dice_river, "{name}"),
                Action::Move { order } => {
                    for id in dbcore::battle::order_ids(order) {
                        let m = l.moves.iter().find(|m| m.id == id);
                        assert!(m.is_some(), "{name}: {id} moved but was not listed");
                    }
                }
                Action::EndMovement => assert!(l.may_end_movement, "{name}"),
                Action::Sally { city, .. } => assert!(l.sally_cities.contains(city), "{name}"),
                Action::Land { ids, .. } => assert!(ids.iter().all(|i| l.landing.contains(i))),
                Action::Shoot {
                    shooter, target, ..
                } => {
                    let s = l.shots.iter().find(|s| s.shooter == *shooter);
                    assert!(s.is_some_and(|s| s.targets.contains(target)), "{name}");
                }
                Action::Fight { a, b: bb, .. } => {
                    assert!(
                        l.combats.iter().any(|c| c.a == *a && c.b == *bb),
                        "{name}: fight {a} {bb}"
                    );
                }
            }
            b.apply(a.clone()).unwrap();
            steps += 1;
        }
        assert!(b.legal().moves.iter().all(|m| b.element(m.id).is_some()));
    }
    assert!(steps > 100, "only {steps} steps checked");
}

#[test]
fn s13_2_a_finished_battle_offers_nothing() {
    // DBA3.md §13.2: once an army has lost, nothing more may be done.
    for (_, record) in golden_records() {
        let (b, _) = Battle::replay(&record).unwrap();
        if let Phase::Finished { .. } = b.phase() {
            let l = b.legal();
            assert!(l.dice.is_none() && l.moves.is_empty() && l.shots.is_empty());
            assert!(l.combats.is_empty() && !l.may_end_movement);
            return;
        }
    }
    panic!("no golden trace ends in a verdict");
}
