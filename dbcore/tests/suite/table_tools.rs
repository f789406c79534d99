//! DBA3.md §6.4, §7.3, §8.1–8.3, §9.2, §12: the table questions a mod asks — snapping a dropped
//! base, outlines to draw, outcome moves on demand. They change nothing.

use crate::battle_common;

use battle_common::*;
use dbcore::battle::{Action, Battle, ContactWanted, Effect, ElementId, MoveOrder};
use dbcore::battlefield::{Battlefield, Board};
use dbcore::combat::Going;
use dbcore::geometry::{Point, Pose};
use dbcore::snap::{OutcomeMove, SnapTarget};
use dbcore::DieScore;

fn rolled(setup: dbcore::battle::BattleSetup) -> Battle {
    let mut b = Battle::new(setup).unwrap();
    b.apply(Action::RollPips {
        die: DieScore::new(6).unwrap(),
    })
    .unwrap();
    b
}

/// Blades facing Spears 1.5 BW away; a friend Blade 2 BW to the side; Bows in the rear.
fn facing() -> Battle {
    rolled(sandbox(
        Battlefield::new(Board::default()),
        armies(
            vec![
                general(el(1, "4Bd", 7.5, 7.0, 0.0)),
                el(2, "4Bd", 5.0, 7.0, 0.0),
                el(3, "4Bw", 12.0, 3.0, 0.0),
            ],
            vec![general(el(101, "Sp", 7.5, 8.5, 180.0))],
        ),
    ))
}

#[test]
fn s8_2_a_base_dropped_just_short_of_an_enemy_snaps_into_front_contact() {
    // DBA3.md §8.2 (a): dropped 0.2 BW short and a little askew, the Blades end front to front.
    let b = facing();
    let before = b.clone();
    let s = b.snap(ElementId(1), Pose::new(7.6, 8.3, 5.0), 0.5).unwrap();
    assert_eq!(
        s.with,
        Some(SnapTarget::Contact {
            target: ElementId(101),
            contact: ContactWanted::Front
        })
    );
    assert!(
        (s.pose.y - 8.5).abs() < 1e-6 && (s.pose.x - 7.5).abs() < 1e-6,
        "{:?}",
        s.pose
    );
    assert_eq!(b, before, "a question changes nothing");
    // The order it gives is the move: applying it makes the contact.
    let mut b2 = b.clone();
    let ev = b2.apply(Action::Move { order: s.order }).unwrap();
    assert_eq!(ev, s.events);
}

#[test]
fn s7_4_a_base_dropped_beside_a_friend_lines_up_with_it() {
    // DBA3.md §7.4: a base dropped nearly beside a friend is placed level with it, edge to edge.
    let b = facing();
    let s = b.snap(ElementId(2), Pose::new(6.4, 7.1, 2.0), 0.5).unwrap();
    assert!(matches!(
        s.with,
        Some(SnapTarget::Friend {
            friend: ElementId(1),
            ..
        })
    ));
    assert!(
        (s.pose.x - 6.5).abs() < 1e-6 && (s.pose.y - 7.0).abs() < 1e-6,
        "{:?}",
        s.pose
    );
}

#[test]
fn s7_3_a_drop_beyond_reach_is_refused_with_its_rule() {
    // DBA3.md §7.2, §7.3: Bows move 2 BW; dropped 5 BW away there is no legal pose.
    let b = facing();
    let e = b
        .snap(ElementId(3), Pose::new(12.0, 8.0, 0.0), 0.5)
        .unwrap_err();
    assert!(matches!(
        e,
        dbcore::battle::BattleError::Move(dbcore::battle::MoveError::TooFar { .. })
    ));
    // Within reach and near nothing, the drop stands as it is.
    let s = b
        .snap(ElementId(3), Pose::new(12.0, 4.5, 0.0), 0.5)
        .unwrap();
    assert_eq!(s.with, None);
    assert_eq!(
        s.order,
        MoveOrder::Element {
            id: ElementId(3),
            path: vec![Pose::new(12.0, 4.5, 0.0)]
        }
    );
}

#[test]
fn s8_1_s9_2_s6_4_outlines_of_zones_range_command_and_reach() {
    // DBA3.md §8.1: a 1 BW box in front; §9.2: Bows shoot 3 BW; §6.4: command distances of the
    // general; §7.3: Blades reach 1 BW in good going.
    let b = facing();
    let bows = b.outlines(ElementId(3)).unwrap();
    assert_eq!(bows.threat_zone.len(), 1);
    let zone = &bows.threat_zone[0];
    assert!(zone.contains(Point::new(12.0, 3.5)) && !zone.contains(Point::new(12.0, 4.2)));
    assert_eq!(
        bows.range,
        b.setup().config.shooting_range("4Bw".parse().unwrap())
    );
    let range = bows.range.unwrap();
    let sz = &bows.shooting_zone[0];
    assert!(sz.contains(Point::new(12.0, 3.0 + range - 0.05)));
    assert!(!sz.contains(Point::new(12.0, 3.0 + range + 0.05)));
    assert!(
        !sz.contains(Point::new(12.0, 2.5)),
        "not behind the shooting edge"
    );
    assert!(bows.command.is_empty());
    let gen = b.outlines(ElementId(1)).unwrap();
    let limits: Vec<f64> = gen.command.iter().map(|c| c.limit).collect();
    assert_eq!(limits, vec![8.0, 4.0, 20.0]);
    assert!(gen.command[0].outline.contains(Point::new(7.5, 7.0 + 7.9)));
    let good = gen.reach.iter().find(|r| r.going == Going::Good).unwrap();
    assert_eq!(
        good.distance,
        b.setup()
            .config
            .move_distance("4Bd".parse().unwrap(), false)
    );
    assert!(good
        .outline
        .contains(Point::new(7.5, 7.0 + good.distance - 0.01)));
    assert!(!good
        .outline
        .contains(Point::new(7.5, 7.0 + good.distance + 0.05)));
}

#[test]
fn s17_15_an_element_in_close_combat_draws_no_threat_zone() {
    // DBA3.md §17.15: elements in close combat project no threat zone.
    let mut b = facing();
    b.apply(Action::Move {
        order: MoveOrder::IntoContact {
            ids: vec![ElementId(1)],
            target: ElementId(101),
            contact: ContactWanted::Front,
        },
    })
    .unwrap();
    assert!(b.outlines(ElementId(1)).unwrap().threat_zone.is_empty());
    assert!(b.outlines(ElementId(101)).unwrap().threat_zone.is_empty());
}

#[test]
fn s12_1_s12_4_outcome_moves_on_demand() {
    // DBA3.md §12.1: a foot element recoils its depth straight back; §12.4: a fleer turns about
    // and moves off; neither is done to the battle.
    let b = facing();
    let before = b.clone();
    let fx = b
        .outcome_preview(ElementId(101), OutcomeMove::Recoil { from_behind: false })
        .unwrap();
    let to = fx
        .iter()
        .find_map(|e| match e {
            Effect::Moved { id, to, .. } if *id == ElementId(101) => Some(*to),
            _ => None,
        })
        .expect("it recoils");
    assert!(to.y > 8.5, "back towards its own side: {to:?}");
    let flight = b
        .outcome_preview(ElementId(101), OutcomeMove::Flee)
        .unwrap();
    assert!(flight
        .iter()
        .any(|e| matches!(e, Effect::TurnedToFace { id, .. } if *id == ElementId(101))));
    assert!(b
        .outcome_preview(ElementId(1), OutcomeMove::Pursue { distance: 9.0 })
        .is_err());
    assert_eq!(b, before);
}
