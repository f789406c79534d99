//! Big Battle: the flight of a demoralised command towards its own base edge, once as it becomes
//! demoralised and once at the start of each later bound of its own (DBA3.md §14.5, §12.4).
//!
//! The table is the demonstration Big Battle's (30 x 15 BW), cleared of terrain, with the
//! Britons (army 1, base edge north, y = 15) command 0 placed for each case. Its general (1001)
//! and two elements (1002, 1003) are lost: with the general's extra loss that is 4 of its 12, a
//! third, so the command is demoralised when the Britons' first bound begins. The Romans'
//! shooters (12, 109) are taken off so that no shooting phase comes between.

use dbcore::battle::{Action, Battle, BattleError, BattleSetup, Effect, ElementId, Event, Phase};
use dbcore::battlefield::Variant;
use dbcore::driver::big_battle_setup;
use dbcore::geometry::Pose;
use dbcore::DieScore;

fn d(n: u8) -> DieScore {
    DieScore::new(n).unwrap()
}

fn dice(v: &[u8]) -> Action {
    Action::RollCommandPips {
        dice: v.iter().map(|&n| d(n)).collect(),
    }
}

/// The demonstration Big Battle as a sandbox without terrain, with `moves` placed (id, x, y,
/// facing) and `kinds` changed.
fn table(moves: &[(u32, f64, f64, f64)], kinds: &[(u32, &str)]) -> BattleSetup {
    let mut s = big_battle_setup(Variant::BigBattle);
    s.sandbox = true;
    s.battlefield.features.clear();
    for e in s.armies.iter_mut().flat_map(|a| a.elements.iter_mut()) {
        if let Some(&(_, x, y, f)) = moves.iter().find(|m| m.0 == e.id.0) {
            e.pose = Pose::new(x, y, f);
        }
        if let Some(&(_, k)) = kinds.iter().find(|k| k.0 == e.id.0) {
            e.kind = k.parse().unwrap();
        }
    }
    s
}

/// The battle with `ids` lost (destroyed), as a saved state would have them.
fn with_lost(b: &Battle, ids: &[u32]) -> Battle {
    let mut v = serde_json::to_value(b).unwrap();
    for e in v["elements"].as_array_mut().unwrap() {
        if ids.contains(&(e["id"].as_u64().unwrap() as u32)) {
            e["status"] = serde_json::json!({"status": "lost", "cause": "destroyed"});
        }
    }
    serde_json::from_value(v).unwrap()
}

/// Where element `id` stands: x, y of its front-edge midpoint and its facing.
fn at(b: &Battle, id: u32) -> (f64, f64, f64) {
    let p = b.element(ElementId(id)).unwrap().pose;
    (p.x, p.y, p.facing)
}

fn in_play(b: &Battle, id: u32) -> bool {
    b.element(ElementId(id)).unwrap().in_play()
}

/// The ids the outcome effects of `ev` are about, in order, each with the effect's name.
fn effects(ev: &[Event]) -> Vec<(u32, &'static str)> {
    ev.iter()
        .filter_map(|e| match e {
            Event::Outcome { effect } => Some((
                effect.id().0,
                match effect {
                    Effect::Moved { .. } => "moved",
                    Effect::TurnedToFace { .. } => "turned",
                    Effect::Destroyed { .. } => "destroyed",
                    Effect::LostOffTable { .. } => "lost",
                },
            )),
            _ => None,
        })
        .collect()
}

/// Lost elements and, off in the north-west corner, the lost general: out of the way.
const LOST: [(u32, f64, f64, f64); 3] = [
    (1001, 1.0, 14.5, 0.0),
    (1002, 3.0, 14.5, 0.0),
    (1003, 5.0, 14.5, 0.0),
];

#[test]
fn s14_5_each_element_turns_to_its_base_edge_and_flees_straight_to_it() {
    // DBA3.md §14.5: "each of its other elements not in close combat immediately flees straight
    // towards the nearest point of the army's base edge (turning first if needed)"; §12.4: the
    // flight is its full tactical move (3Wb and Ps 3 BW, LCh 4 BW in good going, §7.3), stopped
    // by friends it may not pass, lost over a battlefield edge, destroyed if it cannot move.
    let mut moves = LOST.to_vec();
    moves.extend([
        // Facing its base edge (north), facing away from it, and across it (east).
        (1004, 2.0, 9.0, 0.0),
        (1005, 4.0, 10.0, 180.0),
        (1006, 6.0, 10.0, 90.0),
        // Facing away, further south.
        (1007, 8.0, 6.0, 180.0),
        // In close combat with Roman Blades 2, front edge to front edge.
        (1008, 10.0, 8.0, 180.0),
        (2, 10.0, 8.0, 0.0),
        // 2 BW short of the base edge: a 3 BW flight takes it over.
        (1009, 9.5, 13.0, 0.0),
        // Away from the edge, alone.
        (1010, 20.0, 5.0, 180.0),
        // A Light Chariot whose path a friend of another command blocks 2 BW ahead, and one
        // with such a friend right against its front.
        (1011, 13.0, 6.0, 0.0),
        (1102, 13.0, 8.0, 180.0),
        (1012, 16.0, 6.0, 0.0),
        (1103, 16.0, 6.0, 180.0),
    ]);
    // Solid Blades against Solid Blades: a tie changes nothing (§11.1), so the two stay in
    // close combat after the Romans' bound.
    let s = table(&moves, &[(1008, "4Bd")]);
    let b = Battle::new(s).unwrap();
    let mut b = with_lost(&b, &[1001, 1002, 1003, 12, 109]);
    b.apply(dice(&[3, 3, 3])).unwrap();
    b.apply(Action::EndMovement).unwrap();
    assert_eq!(b.phase(), Phase::CloseCombat);
    let ev = b
        .apply(Action::Fight {
            a: ElementId(2),
            b: ElementId(1008),
            dice: [d(3), d(3)],
            recoil_own_depth: vec![],
            c_in_c_bonus: vec![],
        })
        .unwrap();
    assert!(ev.iter().any(|e| matches!(
        e,
        Event::CommandDemoralised {
            army: 1,
            command: dbcore::battle::CommandId(0),
            losses: 4,
            original: 12,
        }
    )));
    // Facing the edge: straight on, 3 BW.
    assert_eq!(at(&b, 1004), (2.0, 12.0, 0.0));
    // Facing away: turned about (about its centre, which for 180° keeps its footprint: its
    // rear edge at y 10.5 becomes its front edge), then 3 BW.
    assert_eq!(at(&b, 1005), (4.0, 13.5, 0.0));
    assert_eq!(at(&b, 1007), (8.0, 9.5, 0.0));
    assert_eq!(at(&b, 1010), (20.0, 8.5, 0.0));
    // Facing across: turned about its centre (5.75, 10) to face north, then 3 BW.
    assert_eq!(at(&b, 1006), (5.75, 13.25, 0.0));
    // In close combat: it does not flee.
    assert_eq!(at(&b, 1008), (10.0, 8.0, 180.0));
    // Over the base edge: lost (§13.1).
    assert!(!in_play(&b, 1009));
    // Blocked by a friend it may not pass (§7.6: mounted pass only Psiloi): it stops with its
    // front edge on the friend's.
    assert_eq!(at(&b, 1011), (13.0, 8.0, 0.0));
    assert_eq!(at(&b, 1102), (13.0, 8.0, 180.0));
    // Unable to move at all: destroyed (§12.4).
    assert!(!in_play(&b, 1012));
    let fled = effects(&ev);
    for id in [1005, 1006, 1007, 1010] {
        assert!(fled.contains(&(id, "turned")), "{id}: {fled:?}");
    }
    for id in [1004, 1011] {
        assert!(!fled.contains(&(id, "turned")), "{id}: {fled:?}");
    }
    assert!(fled.contains(&(1009, "lost")) && fled.contains(&(1012, "destroyed")));
    assert!(!fled.iter().any(|(id, _)| *id == 1008));

    // DBA3.md §14.5: the flight is not repeated in the bound of demoralisation: nothing is due,
    // nothing may be held, and ending the moves makes no flight.
    b.apply(dice(&[3, 3, 3])).unwrap();
    assert!(!b.legal().flight_due);
    let before = b.clone();
    assert!(matches!(
        b.apply(Action::Flee).unwrap_err(),
        BattleError::NoFlightDue { army: 1 }
    ));
    assert!(matches!(
        b.apply(Action::Hold {
            ids: vec![ElementId(1004)]
        })
        .unwrap_err(),
        BattleError::NotHeld { .. }
    ));
    assert_eq!(b, before);
    let ev = b.apply(Action::EndMovement).unwrap();
    assert!(effects(&ev).is_empty(), "{ev:?}");
    assert!(!ev
        .iter()
        .any(|e| matches!(e, Event::DemoralisedFlight { .. })));
    for id in [1004, 1005, 1006, 1007, 1010, 1011] {
        assert_eq!(at(&b, id), at(&before, id), "{id}");
    }
}

#[test]
fn s14_5_a_turn_that_swings_across_a_neighbour_is_checked_where_the_flight_ends() {
    // DBA3.md §14.5 and our reading (docs/rules/14-big-battle-and-giant.md): two Warbands in a
    // column facing east turn about their centres to face north; each turned footprint overlaps
    // the other's (0.5 BW deep, 1 BW wide), which does not stop the first to flee. The second
    // then meets the first's rear edge and stops behind it.
    let mut moves = LOST.to_vec();
    moves.extend([(1004, 6.0, 10.0, 90.0), (1005, 5.5, 10.0, 90.0)]);
    let line = [0.75, 1.75, 2.75, 3.75, 7.0, 8.0, 9.0];
    for (x, id) in line.iter().zip(1006..=1012) {
        moves.push((id, *x, 5.5, 0.0));
    }
    let b = Battle::new(table(&moves, &[])).unwrap();
    let mut b = with_lost(&b, &[1001, 1002, 1003, 12, 109]);
    b.apply(dice(&[3, 3, 3])).unwrap();
    b.apply(Action::EndMovement).unwrap();
    // Both stand as near the base edge: the first in the command's order flees first.
    assert_eq!(at(&b, 1004), (5.75, 13.25, 0.0));
    assert_eq!(at(&b, 1005), (5.25, 12.75, 0.0));
    // The others, facing north, flee straight on: 3 BW, the Light Chariots 4 BW.
    for (x, id) in line.iter().zip(1006..=1012) {
        let dist = if id >= 1011 { 4.0 } else { 3.0 };
        assert_eq!(at(&b, id), (*x, 5.5 + dist, 0.0), "{id}");
    }

    // The same column with a friend of another command (1102) just north of it: the first
    // Warband's flight stops 0.25 BW on, still across the second, so it cannot flee and is
    // destroyed (§12.4: a fleeing element that cannot move); the second, no longer swung
    // across, turns and stops against the friend.
    moves.push((1102, 5.75, 11.0, 0.0));
    let b = Battle::new(table(&moves, &[])).unwrap();
    let mut b = with_lost(&b, &[1001, 1002, 1003, 12, 109]);
    b.apply(dice(&[3, 3, 3])).unwrap();
    let ev = b.apply(Action::EndMovement).unwrap();
    assert!(!in_play(&b, 1004));
    assert!(effects(&ev).contains(&(1004, "destroyed")), "{ev:?}");
    assert_eq!(at(&b, 1005), (5.25, 10.5, 0.0));
    assert_eq!(at(&b, 1102), (5.75, 11.0, 0.0));
}

/// Where 1008 to 1012 stand in [`second_bound`], facing north at y 6.
const LINE: [f64; 5] = [5.5, 6.5, 7.5, 8.5, 9.5];

/// The battle of [`s14_5_each_later_bound_repeats_the_flight_once_for_every_element_not_held`]
/// as the Britons' second bound begins (their command 0 demoralised in their first), with its
/// PIPs rolled.
fn second_bound() -> Battle {
    let mut moves = LOST.to_vec();
    moves.extend([
        (1004, 0.75, 6.0, 0.0),
        (1005, 1.75, 6.0, 180.0),
        (1006, 3.25, 6.0, 90.0),
        (1007, 4.5, 6.0, 180.0),
    ]);
    for (x, id) in LINE.iter().zip(1008..=1012) {
        moves.push((id, *x, 6.0, 0.0));
    }
    let b = Battle::new(table(&moves, &[])).unwrap();
    let mut b = with_lost(&b, &[1001, 1002, 1003, 12, 109]);
    for _ in 0..3 {
        b.apply(dice(&[3, 3, 3])).unwrap();
        b.apply(Action::EndMovement).unwrap();
    }
    assert_eq!((b.active_army(), b.bound()), (1, 4));
    b.apply(dice(&[2, 2, 2])).unwrap();
    b
}

#[test]
fn s14_5_each_later_bound_repeats_the_flight_once_for_every_element_not_held() {
    // DBA3.md §14.5: "at the start of every later friendly bound this happens again to every
    // element not held that bound and not in close combat, whether or not it fled before"; a
    // demoralised command "may spend PIPs to turn and hold individual elements, or to hold
    // groups". Our reading: after the PIP roll the holds are bought (1 PIP each), then the
    // flight is ordered (Action::Flee), before any tactical move.
    let mut b = second_bound();
    // After the first flight: facing the edge, straight on; facing away, turned about;
    // facing across, turned about its centre (3, 6).
    assert_eq!(at(&b, 1004), (0.75, 9.0, 0.0));
    assert_eq!(at(&b, 1005), (1.75, 9.5, 0.0));
    assert_eq!(at(&b, 1006), (3.0, 9.25, 0.0));
    assert_eq!(at(&b, 1007), (4.5, 9.5, 0.0));
    let l = b.legal();
    assert!(l.flight_due && l.moves.is_empty());
    // No tactical move before the flight, whoever makes it.
    let step = |id: u32, b: &Battle| {
        let p = b.element(ElementId(id)).unwrap().pose;
        Action::Move {
            order: dbcore::battle::MoveOrder::Element {
                id: ElementId(id),
                path: vec![Pose::new(p.x, p.y - 0.5, p.facing)],
            },
        }
    };
    assert!(matches!(
        b.apply(step(1102, &b.clone())).unwrap_err(),
        BattleError::FlightDue { army: 1 }
    ));
    // Hold 1007 for 1 PIP of its command.
    let pips = b.commands()[3].pips;
    b.apply(Action::Hold {
        ids: vec![ElementId(1007)],
    })
    .unwrap();
    assert_eq!(b.commands()[3].pips, pips - 1);
    let ev = b.apply(Action::Flee).unwrap();
    assert!(matches!(
        ev[0],
        Event::DemoralisedFlight { army: 1, ref commands } if commands == &[dbcore::battle::CommandId(0)]
    ));
    // Once each: the held element stays; the others already face the edge and go 3 BW (4 for
    // the chariots) further.
    let fled = effects(&ev);
    assert!(!fled.iter().any(|(id, _)| *id == 1007), "{fled:?}");
    for id in (1004..=1012).filter(|id| *id != 1007) {
        assert_eq!(fled.iter().filter(|(i, _)| *i == id).count(), 1, "{id}");
    }
    assert_eq!(at(&b, 1007), (4.5, 9.5, 0.0));
    assert_eq!(at(&b, 1004), (0.75, 12.0, 0.0));
    assert_eq!(at(&b, 1005), (1.75, 12.5, 0.0));
    assert_eq!(at(&b, 1006), (3.0, 12.25, 0.0));
    // The line of 1008 to 1012, first at y 6, then 9 (10 for the chariots), now at 12 (14).
    for (x, id) in LINE.iter().zip(1008..=1012) {
        let y = if id >= 1011 { 14.0 } else { 12.0 };
        assert_eq!(at(&b, id), (*x, y, 0.0), "{id}");
    }
    // Not again this bound: a second flight is refused, and the moves' end makes none.
    assert!(matches!(
        b.apply(Action::Flee).unwrap_err(),
        BattleError::NoFlightDue { army: 1 }
    ));
    let ev = b.apply(Action::EndMovement).unwrap();
    assert!(effects(&ev).is_empty(), "{ev:?}");
}

#[test]
fn s14_5_ending_the_moves_with_the_flight_still_due_makes_it_first() {
    // DBA3.md §14.5: the flight happens whatever the player orders; ending the movement phase
    // without ordering it makes it, with the same events, before the phase ends.
    let b = second_bound();
    let mut fled = b.clone();
    let flight = fled.apply(Action::Flee).unwrap();
    let mut ended = b.clone();
    let ev = ended.apply(Action::EndMovement).unwrap();
    assert_eq!(ev[..flight.len()], flight[..]);
    assert_eq!(ended.elements(), {
        fled.apply(Action::EndMovement).unwrap();
        fled.elements()
    });
}
