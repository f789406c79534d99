//! Threat zones (DBA3.md §8.1) and second moves (§7.5).

use crate::battle_moves_support;
use battle_moves_support::*;

use dbcore::battle::movement::HeldStronghold;
use dbcore::battle::MoveError;
use dbcore::geometry::{Point, Polygon};
use dbcore::terrain::AreaKind;

/// Our Blades facing north at (5, 3); enemy Blades facing south with front edge at y = 4.5.
fn facing_off() -> Table {
    let mut t = Table::new();
    t.add(US, 1, "4Bd", 5.0, 3.8, 0.0);
    t.add(THEM, 9, "4Bd", 5.0, 4.5, 180.0);
    t
}

#[test]
fn s8_1_advance_to_contact_is_allowed_in_a_threat_zone() {
    // DBA3.md §8.1 (a): already in the zone, advancing to touch the front edge.
    let t = facing_off();
    let p = t.go(1, &[(5.0, 4.5, 0.0)]).unwrap();
    assert!(p.into_contact);
    // Advancing part of the way, still squared up, is allowed too.
    assert!(t.go(1, &[(5.0, 4.2, 0.0)]).is_ok());
}

#[test]
fn s8_1_sideways_in_a_threat_zone_is_refused() {
    // DBA3.md §8.1: moving across the front of the enemy is neither (a) nor (b).
    let t = facing_off();
    match t.go(1, &[(6.5, 3.8, 0.0)]) {
        Err(MoveError::ThreatZone { enemies, .. }) => assert_eq!(enemies, ids(&[9])),
        other => panic!("{other:?}"),
    }
    // Backing off only part of the move is refused too.
    assert_eq!(rule(t.go(1, &[(5.0, 3.0, 0.0)])), "§8.1");
}

#[test]
fn s8_1_straight_back_the_full_move_is_allowed() {
    // DBA3.md §8.1 (b): straight back for its entire move (Blades: 2 BW).
    let t = facing_off();
    assert!(t.go(1, &[(5.0, 1.8, 0.0)]).is_ok());
    // Turning round and walking away is not straight back.
    assert_eq!(rule(t.go(1, &[(5.0, 3.0, 180.0)])), "§8.1");
}

#[test]
fn s8_1_entering_a_zone_during_the_move() {
    // DBA3.md §8.1: a mover that enters a zone may only go on to contact it.
    let mut t = Table::new();
    t.add(US, 1, "Cv", 3.0, 3.5, 0.0);
    t.add(THEM, 9, "4Bd", 5.0, 6.0, 180.0);
    // Cavalry swinging across the Blades' front: it enters the zone and passes on sideways.
    assert_eq!(rule(t.go(1, &[(3.0, 5.5, 0.0), (4.5, 5.5, 0.0)])), "§8.1");
    // Going straight at them after entering is fine.
    t.el(1).pose.y = 2.5;
    t.el(1).pose.x = 4.0;
    let p = t.go(1, &[(5.0, 4.0, 0.0), (5.0, 6.0, 0.0)]).unwrap();
    assert!(p.into_contact);
}

#[test]
fn s8_1_war_wagons_threaten_all_round_and_fighting_elements_not_at_all() {
    // DBA3.md §8.1 (WWg all four edges), §17.15 (no zone from elements in close combat).
    let mut t = Table::new();
    let wwg = t.depth("WWg");
    t.add(THEM, 9, "WWg", 5.0, 5.0, 0.0);
    // Our Cavalry 0.5 BW behind the War Wagon's rear edge, facing east.
    t.add(US, 1, "Cv", 5.0, 5.0 - wwg - 0.5, 90.0);
    assert_eq!(rule(t.go(1, &[(6.0, 5.0 - wwg - 0.5, 90.0)])), "§8.1");
    // A Blade element in front contact with an enemy projects no zone.
    let mut t = Table::new();
    t.add(THEM, 9, "4Bd", 5.0, 5.0, 180.0);
    t.add(US, 2, "4Bd", 5.0, 5.0, 0.0);
    let bd = t.depth("4Bd");
    t.add(US, 1, "Cv", 6.5, 5.0 + bd + 0.3, 90.0);
    assert!(t.go(1, &[(8.5, 5.0 + bd + 0.3, 90.0)]).is_ok());
}

#[test]
fn s8_1_a_held_camp_threatens_within_1_bw_of_its_perimeter() {
    // DBA3.md §8.1: camp, city or fort containing enemy.
    let mut t = Table::new();
    t.strongholds.push(HeldStronghold {
        army: THEM,
        perimeter: Polygon::new(vec![
            Point::new(4.0, 8.0),
            Point::new(6.0, 8.0),
            Point::new(6.0, 9.0),
            Point::new(4.0, 9.0),
        ]),
        civilians: None,
        sacker: None,
        command: None,
        defenders: None,
    });
    t.add(US, 1, "Cv", 2.0, 7.0, 90.0);
    // Riding along the camp's front, 0.5 BW from it: refused.
    assert_eq!(rule(t.go(1, &[(5.5, 7.0, 90.0)])), "§8.1");
    // Riding on to touch it is allowed (§8.1 a).
    assert!(t.go(1, &[(4.0, 7.5, 90.0)]).is_ok());
    // Our own camp does not threaten us.
    t.strongholds[0].army = US;
    assert!(t.go(1, &[(5.5, 7.0, 90.0)]).is_ok());
}

#[test]
fn s7_5_second_moves_of_light_horse() {
    // DBA3.md §7.5: LH a 2nd and 3rd move, wholly in good going, not within 1 BW of enemy.
    let mut t = Table::new();
    t.add(US, 1, "LH", 5.0, 2.0, 0.0);
    t.el(1).moves_this_bound = 1;
    assert!(t.go(1, &[(5.0, 5.0, 0.0)]).is_ok());
    t.el(1).moves_this_bound = 2;
    assert!(t.go(1, &[(5.0, 5.0, 0.0)]).is_ok());
    t.el(1).moves_this_bound = 3;
    assert_eq!(rule(t.go(1, &[(5.0, 5.0, 0.0)])), "§7.5");
    t.el(1).moves_this_bound = 1;
    // Not through rough going.
    t.area(AreaKind::Rocky, (4.0, 2.5), (6.0, 2.8));
    assert_eq!(rule(t.go(1, &[(5.0, 3.0, 0.0)])), "§7.5");
    // Not passing within 1 BW of enemy.
    let mut t = Table::new();
    t.add(US, 1, "LH", 5.0, 2.0, 0.0);
    t.el(1).moves_this_bound = 1;
    t.add(THEM, 9, "4Bd", 7.0, 4.0, 0.0);
    assert_eq!(rule(t.go(1, &[(5.0, 5.0, 0.0)])), "§7.5");
    // Mounted infantry too.
    let mut t = Table::new();
    t.add(US, 1, "Mtd-4Bw", 5.0, 2.0, 0.0);
    t.el(1).moves_this_bound = 1;
    assert!(t.go(1, &[(5.0, 4.0, 0.0)]).is_ok());
}

#[test]
fn s7_5_second_moves_of_other_troops_are_refused_except_along_a_road() {
    // DBA3.md §7.5 (c).
    let mut t = Table::new();
    t.add(US, 1, "4Bd", 5.0, 2.0, 0.0);
    t.el(1).moves_this_bound = 1;
    assert_eq!(rule(t.go(1, &[(5.0, 3.0, 0.0)])), "§7.5");
    t.road(&[(5.0, 0.0), (5.0, 15.0)]);
    t.add(THEM, 9, "4Bd", 6.5, 3.5, 0.0);
    // Along the road, even near enemy.
    assert!(t.go(1, &[(5.0, 3.0, 0.0)]).unwrap().along_road);
    t.el(1).moves_this_bound = 3;
    assert!(t.go(1, &[(5.0, 3.0, 0.0)]).is_ok());
}

#[test]
fn s7_5_second_moves_of_psiloi() {
    // DBA3.md §7.5 (b), §17.50: first bound, or from wholly good into (partly) bad going.
    let mut t = Table::new();
    t.add(US, 1, "Ps", 5.0, 2.0, 0.0);
    t.el(1).moves_this_bound = 1;
    assert_eq!(rule(t.go(1, &[(5.0, 3.0, 0.0)])), "§7.5");
    t.first_bound = true;
    assert!(t.go(1, &[(5.0, 3.0, 0.0)]).is_ok());
    t.el(1).moves_this_bound = 2;
    assert_eq!(rule(t.go(1, &[(5.0, 3.0, 0.0)])), "§7.5", "only a 2nd move");
    t.first_bound = false;
    t.el(1).moves_this_bound = 1;
    t.area(AreaKind::Wood, (3.0, 4.0), (7.0, 8.0));
    assert!(t.go(1, &[(5.0, 4.5, 0.0)]).is_ok(), "good into bad going");
    // §17.50: rough is not bad.
    let mut t = Table::new();
    t.add(US, 1, "Ps", 5.0, 2.0, 0.0);
    t.el(1).moves_this_bound = 1;
    t.area(AreaKind::Scrub, (3.0, 4.0), (7.0, 8.0));
    assert_eq!(rule(t.go(1, &[(5.0, 4.5, 0.0)])), "§7.5");
}

#[test]
fn s8_1_squaring_up_in_a_threat_zone_is_allowed() {
    // DBA3.md §8.1 (a): "or to square up to" the front edge: turning in place to face it.
    let mut t = Table::new();
    t.add(US, 1, "4Bd", 5.0, 3.8, 20.0);
    t.add(THEM, 9, "4Bd", 5.0, 4.5, 180.0);
    assert!(t.go(1, &[(5.0, 3.8, 0.0)]).is_ok());
    // Turning away from it is not.
    assert_eq!(rule(t.go(1, &[(5.0, 3.8, 40.0)])), "§8.1");
}

#[test]
fn s17_15_switch_elements_in_close_combat_project_a_zone_or_not() {
    // DBA3.md §17.15: by default elements in close combat project no threat zone; with the
    // switch `moves.close_combat_threat_zones` they do, and riding across one is refused (§8.1).
    let mut t = Table::new();
    t.add(THEM, 9, "4Bd", 5.0, 5.0, 180.0);
    t.add(US, 2, "4Bd", 5.0, 5.0, 0.0);
    // Our Cavalry rides east past the fight, its right half crossing the part of the enemy
    // Blades' zone (y 4 to 5) that our Blades leave free (y 4 to 4.625).
    t.add(US, 1, "Cv", 3.0, 4.0, 90.0);
    let across = [(7.0, 4.0, 90.0)];
    assert!(!t.cfg.moves.close_combat_threat_zones);
    assert!(
        t.go(1, &across).is_ok(),
        "default: no zone from a fighting element"
    );
    t.cfg.moves.close_combat_threat_zones = true;
    assert_eq!(
        rule(t.go(1, &across)),
        "§8.1",
        "switched: the zone is there"
    );
}

#[test]
fn s17_50_switch_psiloi_second_move_into_rough() {
    // DBA3.md §7.5, §17.50: by default a Psiloi second move must end partly in bad going; with
    // the switch `moves.psiloi_second_move_into_rough` rough going will do as well.
    let mut t = Table::new();
    t.add(US, 1, "Ps", 5.0, 2.0, 0.0);
    t.el(1).moves_this_bound = 1;
    t.area(AreaKind::Scrub, (3.0, 4.0), (7.0, 8.0));
    assert!(!t.cfg.moves.psiloi_second_move_into_rough);
    assert_eq!(
        rule(t.go(1, &[(5.0, 4.5, 0.0)])),
        "§7.5",
        "default: rough is not bad"
    );
    t.cfg.moves.psiloi_second_move_into_rough = true;
    assert!(
        t.go(1, &[(5.0, 4.5, 0.0)]).is_ok(),
        "switched: rough will do"
    );
    // Still not a move that stays in good going.
    assert_eq!(rule(t.go(1, &[(5.0, 3.0, 0.0)])), "§7.5");
}

/// Enemy Blades facing south with front edge at y = 8 (their zone: x 7 to 8, y 7 to 8); our
/// Cavalry facing north ending with its front edge at y = `end_y`, front-edge midpoint at
/// x = `end_x`, having come straight from 2 BW away at `angle` degrees off square.
fn approach(angle: f64, end_x: f64, end_y: f64) -> Result<dbcore::battle::MovePlan, MoveError> {
    let mut t = Table::new();
    t.add(THEM, 9, "4Bd", 7.5, 8.0, 180.0);
    let a = angle.to_radians();
    let (sx, sy) = (end_x - 2.0 * a.sin(), end_y - 2.0 * a.cos());
    t.add(US, 1, "Cv", sx, sy, 0.0);
    t.go(1, &[(end_x, end_y, 0.0)])
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(200))]

    #[test]
    fn s8_1_ending_on_a_zone_boundary_is_allowed_at_any_angle_of_approach(
        angle in -80.0f64..80.0,
        end_x in 6.6f64..8.4,
    ) {
        // DBA3.md §8.1 (the module's reading: the boundary may be reached with the very end of a
        // move): the tolerance of "reaching" is the same whatever the angle of approach.
        proptest::prop_assert!(approach(angle, end_x, 7.0).is_ok(), "{:?}", approach(angle, end_x, 7.0));
    }

    #[test]
    fn s8_1_ending_inside_a_zone_sideways_is_refused_at_any_angle_of_approach(
        angle in 10.0f64..80.0,
        end_x in 7.9f64..8.4,
    ) {
        // (Ending right of the Blades' centre line and coming from the left, but never crossing
        // that line while in the zone: it gets further off to the side all the way.)
        // DBA3.md §8.1: ending a little way inside the zone while getting further off to the side
        // of the enemy's front edge is no advance to it, whatever the angle.
        proptest::prop_assert_eq!(rule(approach(angle, end_x, 7.05)), "§8.1");
    }
}
