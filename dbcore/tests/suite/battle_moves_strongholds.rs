//! Moves near cities, forts and camps, and across rivers: who may contact a place held by the
//! enemy (§4.7, §8.4), City and Fort walls (§4.2, §4.3), and holding the angle while crossing a
//! river (§3.5, §7.8).

use crate::battle_moves_support;

use battle_moves_support::*;
use dbcore::battle::movement::{ContactWanted, HeldStronghold};
use dbcore::battle::{ElementId, MoveOrder};
use dbcore::geometry::{Point, Polygon, Pose};
use dbcore::terrain::{AreaKind, RiverState};

/// The outline `Table::area` gives a straight-edged area from `lo` to `hi`.
fn outline(lo: (f64, f64), hi: (f64, f64)) -> Polygon {
    Polygon::new(vec![
        Point::new(lo.0, lo.1),
        Point::new(hi.0, lo.1),
        Point::new(hi.0, hi.1),
        Point::new(lo.0, hi.1),
    ])
}

fn held(army: usize, lo: (f64, f64), hi: (f64, f64)) -> HeldStronghold {
    HeldStronghold {
        army,
        perimeter: outline(lo, hi),
        civilians: None,
        sacker: None,
        command: None,
        defenders: None,
    }
}

/// A City from (5, 6) to (9, 8) held by the enemy (army 1).
fn enemy_city() -> Table {
    let mut t = Table::new();
    t.area(AreaKind::City, (5.0, 6.0), (9.0, 8.0));
    t.strongholds.push(held(THEM, (5.0, 6.0), (9.0, 8.0)));
    t
}

#[test]
fn s8_4_s4_7_scythed_chariots_may_not_put_their_front_edge_on_an_enemy_city() {
    // DBA3.md §8.4 (last bullet), §4.7: SCh may not contact a city, fort or camp with its front
    // edge; Blades may.
    let mut t = enemy_city();
    t.add(US, 1, "SCh", 7.0, 5.5, 0.0);
    t.add(US, 2, "4Bd", 5.5, 5.5, 0.0);
    assert_eq!(rule(t.go(1, &[(7.0, 6.0, 0.0)])), "§8.4");
    let p = t.go(2, &[(5.5, 6.0, 0.0)]).unwrap();
    assert_eq!(end_of(&p, 2), Pose::new(5.5, 6.0, 0.0));
}

#[test]
fn s4_7_s8_4_cp_lit_cwg_art_and_wwg_may_not_contact_an_enemy_city() {
    // DBA3.md §4.7, §8.4: any element except SCh, CP, Lit, CWg, Art and WWg may touch it.
    for code in ["CP", "Lit", "CWg", "Art", "WWg"] {
        let mut t = enemy_city();
        t.add(US, 1, code, 7.0, 5.5, 0.0);
        assert_eq!(rule(t.go(1, &[(7.0, 6.0, 0.0)])), "§8.4", "{code}");
    }
}

#[test]
fn s4_7_a_mobile_tower_may_contact_an_enemy_city() {
    // DBA3.md §4.7: a WWg that is a mobile tower may touch a city, fort or camp held by the enemy.
    let mut t = enemy_city();
    t.add(US, 1, "WWg", 7.0, 5.5, 0.0);
    t.el(1).mobile_tower = true;
    let p = t.go(1, &[(7.0, 6.0, 0.0)]).unwrap();
    assert_eq!(end_of(&p, 1), Pose::new(7.0, 6.0, 0.0));
}

#[test]
fn s4_7_artillery_may_not_contact_an_enemy_camp_but_may_approach_its_own() {
    // DBA3.md §4.7, §8.4: camps count as cities and forts do. A camp is not a battlefield area.
    let mut t = Table::new();
    t.strongholds.push(held(THEM, (6.0, 6.0), (8.0, 7.0)));
    t.add(US, 1, "Art", 7.0, 5.5, 0.0);
    assert_eq!(rule(t.go(1, &[(7.0, 6.0, 0.0)])), "§8.4");
    // Its own army's camp is no enemy.
    t.strongholds[0].army = US;
    assert!(t.go(1, &[(7.0, 6.0, 0.0)]).is_ok());
}

#[test]
fn s4_7_at_most_three_elements_may_assault_one_city() {
    // DBA3.md §4.7: up to 3 enemy elements may be in front-edge contact with a city, fort or
    // camp; a 4th is refused.
    let mut t = enemy_city();
    t.add(US, 1, "4Bd", 5.5, 6.0, 0.0);
    t.add(US, 2, "4Bd", 6.5, 6.0, 0.0);
    t.add(US, 4, "4Bd", 8.5, 5.5, 0.0);
    // The 3rd may come up.
    assert!(t.go(4, &[(8.5, 6.0, 0.0)]).is_ok());
    t.add(US, 3, "4Bd", 7.5, 6.0, 0.0);
    assert_eq!(rule(t.go(4, &[(8.5, 6.0, 0.0)])), "§4.7");
    // Elsewhere on the walls (the east wall) is the same City.
    t.add(US, 5, "4Bd", 9.5, 7.0, 270.0);
    assert_eq!(rule(t.go(5, &[(9.0, 7.0, 270.0)])), "§4.7");
}

#[test]
fn s4_2_no_element_enters_or_crosses_a_city_held_by_the_enemy() {
    // DBA3.md §4.2, §4.7: a City held by the enemy is only assaulted by front-edge contact.
    let mut t = enemy_city();
    t.add(US, 1, "4Bd", 7.0, 5.5, 0.0);
    let d = t.depth("4Bd");
    // Into it, wholly inside.
    assert_eq!(rule(t.go(1, &[(7.0, 6.5 + d, 0.0)])), "§4.2");
    // Ending astride the wall.
    assert_eq!(rule(t.go(1, &[(7.0, 6.3, 0.0)])), "§4.2");
    // Clipping its corner on the way past.
    t.add(US, 2, "4Bd", 4.3, 5.5, 0.0);
    assert_eq!(rule(t.go(2, &[(4.7, 7.0, 0.0)])), "§4.2");
}

#[test]
fn s4_3_no_element_enters_a_fort_held_by_the_enemy() {
    // DBA3.md §4.3, §4.7: the same walls for a Fort.
    let mut t = Table::new();
    t.area(AreaKind::Fort, (6.0, 6.0), (8.0, 8.0));
    t.strongholds.push(held(THEM, (6.0, 6.0), (8.0, 8.0)));
    t.add(US, 1, "4Bd", 7.0, 5.5, 0.0);
    assert_eq!(rule(t.go(1, &[(7.0, 7.5, 0.0)])), "§4.3");
    assert!(t.go(1, &[(7.0, 6.0, 0.0)]).is_ok());
}

#[test]
fn s4_2_an_empty_city_may_be_entered_or_crossed_but_not_straddled() {
    // DBA3.md §4.2: if the denizens are gone and the City is empty, either side may move into or
    // through it without combat; no move ends astride its walls (reading).
    let mut t = Table::new();
    t.area(AreaKind::City, (6.0, 6.0), (8.0, 7.0));
    t.add(US, 1, "4Bd", 7.0, 5.8, 0.0);
    let d = t.depth("4Bd");
    let p = t.go(1, &[(7.0, 6.0 + d + 0.25, 0.0)]).unwrap();
    assert_eq!(end_of(&p, 1), Pose::new(7.0, 6.0 + d + 0.25, 0.0));
    // Ending astride the wall.
    assert_eq!(rule(t.go(1, &[(7.0, 6.3, 0.0)])), "§4.2");
    // Going in one side and out the other.
    assert!(t.go(1, &[(7.0, 7.0 + d + 0.1, 0.0)]).is_ok());
}

#[test]
fn s4_2_an_element_does_not_cross_its_own_city_over_the_walls() {
    // DBA3.md §4.2: elements enter and leave through the gates; the pass-through along a road
    // (1 PIP per element, §17.10) is not a tactical move here, so a move going in one side and out
    // the other of a City its army holds is refused (reading).
    let mut t = Table::new();
    t.area(AreaKind::City, (6.0, 6.0), (8.0, 7.0));
    t.strongholds.push(held(US, (6.0, 6.0), (8.0, 7.0)));
    t.add(US, 1, "4Bd", 7.0, 5.8, 0.0);
    let d = t.depth("4Bd");
    assert_eq!(rule(t.go(1, &[(7.0, 7.0 + d + 0.1, 0.0)])), "§4.2");
    // Entering it is allowed.
    assert!(t.go(1, &[(7.0, 6.0 + d + 0.25, 0.0)]).is_ok());
}

#[test]
fn s4_2_an_element_leaves_its_own_city() {
    // DBA3.md §4.2: a garrison may leave by a normal tactical move.
    let mut t = Table::new();
    t.area(AreaKind::City, (6.0, 6.0), (8.0, 8.0));
    t.strongholds.push(held(US, (6.0, 6.0), (8.0, 8.0)));
    t.add(US, 1, "4Bd", 7.0, 7.5, 0.0);
    let d = t.depth("4Bd");
    assert!(t.go(1, &[(7.0, 8.0 + d + 0.5, 0.0)]).is_ok());
    // But not stop astride its walls.
    assert_eq!(rule(t.go(1, &[(7.0, 8.2, 0.0)])), "§4.2");
}

#[test]
fn s7_8_s3_5_an_element_crossing_a_river_keeps_its_angle() {
    // DBA3.md §7.8, §3.5: elements entering a river hold the angle at which they entered until
    // across.
    let mut t = Table::new();
    t.river(&[(0.0, 4.0), (15.0, 4.0)], 0.5);
    t.river = Some(RiverState::Slows);
    t.add(US, 1, "4Bd", 7.0, 4.0, 0.0);
    assert_eq!(rule(t.go(1, &[(7.0, 4.5, 15.0)])), "§7.8");
    assert_eq!(rule(t.go(1, &[(7.0, 4.5, 0.0), (7.0, 4.5, 15.0)])), "§7.8");
    assert!(t.go(1, &[(7.0, 4.8, 0.0)]).is_ok());
    // Paltry rivers too: the angle is held in any river (reading).
    t.river = Some(RiverState::Paltry);
    assert_eq!(rule(t.go(1, &[(7.0, 4.5, 15.0)])), "§7.8");
    // An element on the bank may still turn as it enters.
    t.add(US, 2, "4Bd", 3.0, 2.5, 0.0);
    let r = t.go(2, &[(3.0, 3.3, 20.0)]);
    assert!(r.is_ok(), "{r:?}");
}

#[test]
fn s7_8_an_element_in_a_river_may_turn_to_line_up_in_close_combat() {
    // DBA3.md §7.8: except for the minimum diversion needed to line up in close combat.
    let mut t = Table::new();
    t.river(&[(0.0, 4.0), (15.0, 4.0)], 0.5);
    t.river = Some(RiverState::Slows);
    t.add(US, 1, "4Bd", 7.0, 4.0, 0.0);
    t.add(THEM, 101, "4Bd", 7.2, 4.7, 190.0);
    let p = t
        .plan(&MoveOrder::IntoContact {
            ids: ids(&[1]),
            target: ElementId(101),
            contact: ContactWanted::Front,
        })
        .unwrap();
    assert!(near(end_of(&p, 1).facing, 10.0), "{:?}", end_of(&p, 1));
}

#[test]
fn s7_4_forming_a_column_drops_a_follower_that_cannot_reach_the_tail() {
    // DBA3.md §7.4: elements that do not reach the tail of the column this bound are no longer
    // part of that group; the rest of the column still forms.
    let mut t = Table::new();
    let d = t.depth("4Bd");
    let reach = t.cfg.move_distance(kind("4Bd"), false);
    t.add(US, 1, "4Bd", 5.0, 3.0, 0.0);
    t.add(US, 2, "4Bd", 4.0, 3.0, 0.0);
    // 3 stands side by side with 2 but would have to come forward further than it may move.
    t.add(US, 3, "4Bd", 3.0, 3.0, 0.0);
    t.add(US, 4, "4Bd", 6.0, 3.0, 0.0);
    let lead = 3.0 + reach;
    let p = t
        .plan(&MoveOrder::Column {
            ids: ids(&[1, 2, 3, 4]),
            path: vec![Pose::new(5.0, lead, 0.0)],
        })
        .unwrap();
    // 2 joins behind the leader; 3 cannot reach the tail (its move would be longer than its
    // allowance) and drops out, staying put; 4 joins behind 2.
    assert_eq!(p.movers, ids(&[1, 2, 4]));
    assert_eq!(end_of(&p, 1), Pose::new(5.0, lead, 0.0));
    let e2 = end_of(&p, 2);
    let e4 = end_of(&p, 4);
    assert!(near(e2.x, 5.0) && near(e2.y, lead - d), "{e2:?}");
    assert!(near(e4.x, 5.0) && near(e4.y, lead - 2.0 * d), "{e4:?}");
    assert!(p.moves.iter().all(|m| m.id != ElementId(3)));
}

#[test]
fn s4_7_a_group_of_four_may_not_all_assault_one_city() {
    // DBA3.md §4.7: the limit of 3 counts every element of the move too.
    let mut t = enemy_city();
    for (i, x) in [(1, 5.5), (2, 6.5), (3, 7.5), (4, 8.5)] {
        t.add(US, i, "4Bd", x, 5.5, 0.0);
    }
    let order = |v: &[u32]| MoveOrder::Group {
        ids: ids(v),
        steps: vec![dbcore::battle::GroupStep::Advance { distance: 0.5 }],
    };
    assert_eq!(rule(t.plan(&order(&[1, 2, 3, 4]))), "§4.7");
    assert!(t.plan(&order(&[1, 2, 3])).is_ok());
}

#[test]
fn s7_8_a_group_in_a_river_may_not_wheel() {
    // DBA3.md §7.8: a group crossing keeps its angle too.
    let mut t = Table::new();
    t.river(&[(0.0, 4.0), (15.0, 4.0)], 0.5);
    t.river = Some(RiverState::Slows);
    t.add(US, 1, "4Bd", 7.0, 4.0, 0.0);
    t.add(US, 2, "4Bd", 8.0, 4.0, 0.0);
    let wheel = MoveOrder::Group {
        ids: ids(&[1, 2]),
        steps: vec![dbcore::battle::GroupStep::Wheel {
            pivot: dbcore::battle::Flank::Right,
            degrees: 20.0,
        }],
    };
    assert_eq!(rule(t.plan(&wheel)), "§7.8");
    let ahead = MoveOrder::Group {
        ids: ids(&[1, 2]),
        steps: vec![dbcore::battle::GroupStep::Advance { distance: 0.5 }],
    };
    assert!(t.plan(&ahead).is_ok());
}

#[test]
fn s4_7_mobile_tower_is_left_out_of_json_when_false() {
    // DBA3.md §4.7: the mobile-tower mark is optional in set-ups, so older JSON still reads and
    // ordinary elements serialise as before.
    let e: dbcore::battle::ElementSetup = serde_json::from_str(
        r#"{"id": 7, "kind": "WWg", "pose": {"x": 1.0, "y": 2.0, "facing": 0.0}}"#,
    )
    .unwrap();
    assert!(!e.mobile_tower);
    assert!(!serde_json::to_string(&e).unwrap().contains("mobile_tower"));
    let tower = dbcore::battle::ElementSetup {
        mobile_tower: true,
        ..e
    };
    let json = serde_json::to_string(&tower).unwrap();
    assert!(json.contains("\"mobile_tower\":true"), "{json}");
    let state = dbcore::battle::ElementState::from_setup(0, &tower);
    assert!(state.mobile_tower);
}

#[test]
fn s4_2_elements_enter_and_leave_a_city_only_through_a_gate() {
    // DBA3.md §4.2: elements enter and leave a City only through a gate (reading: the front-edge
    // midpoint crosses the walls within ½ BW of the gate point).
    let mut t = Table::new();
    t.area(AreaKind::City, (6.0, 6.0), (8.0, 8.0));
    if let Some(dbcore::terrain::TerrainFeature::Area(a)) = t.bf.features.last_mut() {
        a.gates = vec![Point::new(7.0, 6.0)];
    }
    let d = t.depth("4Bd");
    t.add(US, 1, "4Bd", 7.0, 5.8, 0.0);
    assert!(t.go(1, &[(7.0, 6.0 + d + 0.25, 0.0)]).is_ok());
    // Half a base width off the gate still passes it (1 stands aside first).
    t.el(1).pose = Pose::new(1.0, 1.0, 0.0);
    t.add(US, 2, "4Bd", 6.5, 5.0, 0.0);
    assert!(t.go(2, &[(6.5, 6.0 + d + 0.25, 0.0)]).is_ok());
    // Over the west wall, away from the gate.
    t.add(US, 3, "4Bd", 5.7, 7.0, 90.0);
    assert_eq!(rule(t.go(3, &[(6.0 + d + 0.25, 7.0, 90.0)])), "§4.2");
    // Leaving: out through the gate, not over the north wall.
    let mut t = Table::new();
    t.area(AreaKind::City, (6.0, 6.0), (8.0, 8.0));
    if let Some(dbcore::terrain::TerrainFeature::Area(a)) = t.bf.features.last_mut() {
        a.gates = vec![Point::new(7.0, 6.0)];
    }
    t.strongholds.push(held(US, (6.0, 6.0), (8.0, 8.0)));
    t.add(US, 1, "4Bd", 7.0, 7.5, 0.0);
    assert_eq!(rule(t.go(1, &[(7.0, 8.0 + d + 0.2, 0.0)])), "§4.2");
    t.el(1).pose = Pose::new(1.0, 1.0, 0.0);
    t.add(US, 2, "4Bd", 7.0, 6.0 + d + 0.1, 180.0);
    let r = t.go(2, &[(7.0, 5.9 - d, 180.0)]);
    assert!(r.is_ok(), "{r:?}");
}
