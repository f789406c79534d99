//! Single-element tactical moves (DBA3.md §7.1–§7.3, §7.6, §7.8, §7.9).

use crate::battle_moves_support;
use battle_moves_support::*;

use dbcore::battle::{ElementId, LossCause, MoveError, MoveOrder, Status};
use dbcore::terrain::{AreaKind, RiverState};

#[test]
fn s7_3_distances_by_kind_in_good_going() {
    // DBA3.md §7.3: Cv 4, Kn 3, Fast foot 3, Solid foot 2 BW in good going.
    for (code, d) in [
        ("Cv", 4.0),
        ("LH", 4.0),
        ("3Kn", 3.0),
        ("Ps", 3.0),
        ("3Ax", 3.0),
        ("4Bd", 2.0),
        ("Sp", 2.0),
        ("4Wb", 2.0),
    ] {
        let mut t = Table::new();
        t.add(US, 1, code, 5.0, 2.0, 0.0);
        let p = t
            .go(1, &[(5.0, 2.0 + d, 0.0)])
            .unwrap_or_else(|e| panic!("{code}: {e}"));
        assert!(near(p.distance, d), "{code}");
        match t.go(1, &[(5.0, 2.0 + d + 0.1, 0.0)]) {
            Err(MoveError::TooFar { allowed, .. }) => assert!(near(allowed, d), "{code}"),
            other => panic!("{code}: {other:?}"),
        }
    }
}

#[test]
fn s7_3_any_part_in_rough_or_bad_going_slows() {
    // DBA3.md §7.3, §3.1: any part of the move in rough or bad going gives the RB distance.
    let mut t = Table::new();
    t.area(AreaKind::Rocky, (4.0, 4.0), (6.0, 6.0));
    t.add(US, 1, "Cv", 5.0, 2.0, 0.0);
    t.add(US, 2, "Ps", 8.0, 2.0, 0.0);
    t.add(US, 3, "4Ax", 2.0, 2.0, 0.0);
    // Cv straight ahead 3 BW would pass into the rocky ground: only 1 BW allowed, and the
    // refusal says why in a player's words.
    match t.go(1, &[(5.0, 5.0, 0.0)]) {
        Err(e @ MoveError::TooFar { allowed, .. }) => {
            assert!(near(allowed, 1.0));
            assert_eq!(
                e.to_string(),
                "§7.3: a move of 3 BW (measured as §7.2 says) is too far: the path enters \
                 the rocky ground (feature 0), rough going for Cavalry: at most 1 BW (§7.3)"
            );
        }
        other => panic!("{other:?}"),
    }
    // Stopping just short of it is good going.
    assert!(t.go(1, &[(5.0, 4.0, 0.0)]).is_ok());
    // Fast foot and Solid Auxilia are not slowed (§7.3).
    let mut t2 = Table::new();
    t2.area(AreaKind::Wood, (0.0, 3.0), (15.0, 9.0));
    t2.add(US, 2, "Ps", 8.0, 2.0, 0.0);
    t2.add(US, 3, "4Ax", 2.0, 2.0, 0.0);
    t2.add(US, 4, "4Bd", 5.0, 2.0, 0.0);
    assert!(t2.go(2, &[(8.0, 5.0, 0.0)]).is_ok());
    assert!(t2.go(3, &[(2.0, 4.0, 0.0)]).is_ok());
    assert_eq!(rule(t2.go(4, &[(5.0, 4.0, 0.0)])), "§7.3");
    // DBA3.md §7.3: the refusal names the wood the Blades' path enters and its going.
    assert_eq!(
        t2.go(4, &[(5.0, 4.0, 0.0)]).unwrap_err().to_string(),
        "§7.3: a move of 2 BW (measured as §7.2 says) is too far: the path enters the wood \
         (feature 0), bad going for Blades (Solid): at most 1 BW (§7.3)"
    );
    assert!(t2.go(4, &[(5.0, 3.0, 0.0)]).is_ok());
}

#[test]
fn s7_3_camels_treat_dunes_as_good_going() {
    // DBA3.md §7.3 override 3, §3.1.
    let mut t = Table::new();
    t.area(AreaKind::Dunes, (0.0, 3.0), (15.0, 9.0));
    t.add(US, 1, "Cm", 5.0, 2.0, 0.0);
    t.add(US, 2, "3Kn", 8.0, 2.0, 0.0);
    assert!(t.go(1, &[(5.0, 5.0, 0.0)]).is_ok());
    assert_eq!(rule(t.go(2, &[(8.0, 5.0, 0.0)])), "§7.3");
}

#[test]
fn s7_3_plough_is_rough_when_so_diced() {
    // DBA3.md §3.1: plough becomes rough for the game.
    let mut t = Table::new();
    t.area(AreaKind::Plough, (0.0, 3.0), (15.0, 9.0));
    t.add(US, 1, "Cv", 5.0, 2.0, 0.0);
    assert!(t.go(1, &[(5.0, 5.0, 0.0)]).is_ok());
    t.plough_rough = true;
    assert_eq!(rule(t.go(1, &[(5.0, 5.0, 0.0)])), "§7.3");
}

#[test]
fn s7_3_artillery_and_war_wagons_may_not_enter_bad_going_off_road() {
    // DBA3.md §7.3: Art, WWg may not move off-road in bad going; rough only slows them.
    let mut t = Table::new();
    t.area(AreaKind::Wood, (0.0, 3.0), (7.0, 9.0));
    t.area(AreaKind::Scrub, (8.0, 3.0), (15.0, 9.0));
    t.add(US, 1, "Art", 3.0, 2.5, 0.0);
    t.add(US, 2, "WWg", 10.0, 2.0, 0.0);
    match t.go(1, &[(3.0, 3.4, 0.0)]) {
        Err(MoveError::Terrain { rule, .. }) => assert_eq!(rule, "§7.3"),
        other => panic!("{other:?}"),
    }
    assert!(t.go(2, &[(10.0, 3.0, 0.0)]).is_ok());
    // But along a road through the wood they may.
    t.road(&[(3.0, 0.0), (3.0, 15.0)]);
    let p = t.go(1, &[(3.0, 4.5, 0.0)]).unwrap();
    assert!(p.along_road);
}

#[test]
fn s3_6_a_move_wholly_along_a_road_is_good_going() {
    // DBA3.md §3.6, §7.3 override 2: the road through a wood counts as good going.
    let mut t = Table::new();
    t.area(AreaKind::Wood, (0.0, 3.0), (15.0, 9.0));
    t.road(&[(5.0, 0.0), (5.0, 15.0)]);
    t.add(US, 1, "4Bd", 5.0, 2.0, 0.0);
    let p = t.go(1, &[(5.0, 4.0, 0.0)]).unwrap();
    assert!(p.along_road);
    assert!(
        p.full_distance_forward,
        "§6.3: full distance, forward, along a road"
    );
    // Half the distance is not a full move.
    let p = t.go(1, &[(5.0, 3.0, 0.0)]).unwrap();
    assert!(p.along_road && !p.full_distance_forward);
    // Leaving the road means the wood slows it.
    assert_eq!(rule(t.go(1, &[(6.5, 3.5, 0.0)])), "§7.3");
}

#[test]
fn s7_8_river_limits_the_move_and_must_be_diced() {
    // DBA3.md §7.3 override 1, §7.8, §3.5.
    let mut t = Table::new();
    t.river(&[(0.0, 5.0), (15.0, 5.0)], 0.5);
    t.add(US, 1, "Cv", 5.0, 3.0, 0.0);
    let feature = t.bf.features.len() - 1;
    let refusal = t.go(1, &[(5.0, 6.5, 0.0)]).unwrap_err();
    assert_eq!(refusal, MoveError::RiverNotDiced { feature });
    // The refusal names the river it would cross.
    assert!(
        refusal
            .to_string()
            .contains(&format!("the river (feature {feature}) must be diced")),
        "{refusal}"
    );
    t.river = Some(RiverState::Slows);
    match t.go(1, &[(5.0, 6.5, 0.0)]) {
        Err(MoveError::TooFar { allowed, cause, .. }) => {
            assert!(near(allowed, 1.0));
            assert!(cause.contains("crosses the river"), "{cause}");
        }
        other => panic!("{other:?}"),
    }
    assert!(
        t.go(1, &[(5.0, 4.0, 0.0)]).is_ok(),
        "short of the river: no limit needed"
    );
    t.river = Some(RiverState::Paltry);
    assert!(
        t.go(1, &[(5.0, 6.5, 0.0)]).is_ok(),
        "§3.5: paltry is crossed as good going"
    );
    // A road crossing (ford or bridge) is not an off-road crossing.
    t.river = None;
    t.road(&[(5.0, 0.0), (5.0, 15.0)]);
    assert!(t.go(1, &[(5.0, 6.5, 0.0)]).unwrap().along_road);
}

#[test]
fn s7_2_board_edge_and_waterway() {
    // DBA3.md §1.2, §7.2: no move off the battlefield.
    let mut t = Table::new();
    t.add(US, 1, "Cv", 5.0, 13.5, 0.0);
    assert!(matches!(
        t.go(1, &[(5.0, 15.5, 0.0)]),
        Err(MoveError::OffTable { .. })
    ));
    assert!(t.go(1, &[(5.0, 15.0, 0.0)]).is_ok());
}

#[test]
fn s7_2_elements_in_the_way_and_gaps() {
    // DBA3.md §7.2: any gap the element fits through; nothing passed through.
    let mut t = Table::new();
    t.add(US, 1, "Cv", 5.0, 2.0, 0.0);
    t.add(US, 2, "4Bd", 3.5, 4.0, 0.0);
    t.add(US, 3, "4Bd", 6.5, 4.0, 0.0);
    // The gap between 2 and 3 is exactly 2 BW: the Cavalry passes.
    assert!(t.go(1, &[(5.0, 6.0, 0.0)]).is_ok());
    // Narrow the gap to less than 1 BW: blocked.
    t.el(3).pose.x = 4.9;
    assert_eq!(
        t.go(1, &[(5.0, 6.0, 0.0)]),
        Err(MoveError::Blocked {
            blocker: ElementId(3)
        })
    );
    // Going round is allowed through waypoints, and the detour counts.
    let p = t.go(1, &[(7.0, 2.0, 0.0), (7.0, 4.0, 0.0)]).unwrap();
    assert!(near(p.distance, 4.0));
    // An enemy is in the way too; a lost element is not.
    let mut t = Table::new();
    t.add(US, 1, "Cv", 5.0, 2.0, 0.0);
    t.add(THEM, 9, "4Bd", 5.0, 3.0, 90.0);
    assert!(matches!(
        t.go(1, &[(5.0, 5.0, 0.0)]),
        Err(MoveError::Blocked { .. })
    ));
    t.el(9).status = Status::Lost {
        cause: LossCause::Destroyed,
    };
    assert!(t.go(1, &[(5.0, 5.0, 0.0)]).is_ok());
}

#[test]
fn s7_2_distance_is_the_furthest_front_corner_and_turns_count() {
    // DBA3.md §7.2: measured by the front corner that moves furthest.
    let mut t = Table::new();
    t.add(US, 1, "4Bd", 5.0, 5.0, 0.0);
    // Turning about the front-left corner through 90 degrees: the right corner moves sqrt(2).
    // The front-left corner (4.5, 5) stays; facing east its front edge runs from there south.
    let p = t.go(1, &[(4.5, 4.5, 90.0)]).unwrap();
    assert!(near(p.distance, 2f64.sqrt()), "{}", p.distance);
    // Turning about the centre of the front edge moves both corners by sqrt(2)/2.
    let p = t.go(1, &[(5.0, 5.0, 90.0)]).unwrap();
    assert!(near(p.distance, 0.5f64.sqrt()), "{}", p.distance);
}

#[test]
fn s7_1_elements_in_close_combat_cannot_move() {
    // DBA3.md §7.1.
    let mut t = Table::new();
    t.add(US, 1, "4Bd", 5.0, 5.0, 0.0);
    t.add(THEM, 9, "4Bd", 5.0, 5.0, 180.0);
    assert!(matches!(
        t.go(1, &[(5.0, 3.0, 0.0)]),
        Err(MoveError::InCloseCombat { .. })
    ));
    // Only the moving army's elements in play move.
    assert!(matches!(
        t.go(9, &[(5.0, 7.0, 180.0)]),
        Err(MoveError::NotMovable { .. })
    ));
    assert!(matches!(
        t.go(77, &[(5.0, 7.0, 180.0)]),
        Err(MoveError::UnknownElement { .. })
    ));
}

#[test]
fn s7_6_mounted_through_friendly_psiloi_from_in_front_to_behind() {
    // DBA3.md §7.6 (a): starts partly straight in front, ends squarely behind.
    let mut t = Table::new();
    t.add(US, 1, "Cv", 5.0, 6.0, 180.0);
    t.add(US, 2, "Ps", 5.0, 5.0, 0.0);
    let ps_depth = t.depth("Ps");
    let cv_depth = t.depth("Cv");
    // Cavalry faces south, 1 BW in front of the Psiloi; it ends squarely behind them (facing
    // south, its body lies north of its front edge).
    let y_end = 5.0 - ps_depth - cv_depth - 0.1;
    t.go(1, &[(5.0, y_end, 180.0)]).unwrap();
    // Ending only half behind (off to the side) is not squarely behind.
    assert!(matches!(
        t.go(1, &[(5.4, y_end, 180.0)]),
        Err(MoveError::Blocked { .. })
    ));
    // Ending on top of them is not allowed (no room beyond).
    assert!(matches!(
        t.go(1, &[(5.0, 4.95, 180.0)]),
        Err(MoveError::Blocked { .. })
    ));
    // Cavalry may not pass through friendly Blades.
    let mut t = Table::new();
    t.add(US, 1, "Cv", 5.0, 6.0, 180.0);
    t.add(US, 2, "4Bd", 5.0, 5.0, 0.0);
    assert!(matches!(
        t.go(1, &[(5.0, 3.0, 180.0)]),
        Err(MoveError::Blocked { .. })
    ));
}

#[test]
fn s7_6_psiloi_through_any_friends_from_behind_to_in_front() {
    // DBA3.md §7.6 (b): starts squarely behind, ends squarely in front.
    let mut t = Table::new();
    let bd = t.depth("4Bd");
    t.add(US, 1, "Ps", 5.0, 5.0 - bd, 0.0);
    t.add(US, 2, "4Bd", 5.0, 5.0, 0.0);
    let ps = t.depth("Ps");
    assert!(t.go(1, &[(5.0, 5.0 + ps + 0.5, 0.0)]).is_ok());
    // Not through enemy.
    let mut t = Table::new();
    t.add(US, 1, "Ps", 5.0, 5.0 - bd, 0.0);
    t.add(THEM, 2, "4Bd", 5.0, 5.0 - bd + 0.5, 90.0);
    assert!(matches!(
        t.go(1, &[(5.0, 7.5, 0.0)]),
        Err(MoveError::Blocked { .. })
    ));
}

#[test]
fn s7_9_dismounting() {
    // DBA3.md §7.9: X//Y only, not in an enemy TZ, same front edge.
    let mut t = Table::new();
    t.add(US, 1, "3Kn", 5.0, 5.0, 0.0);
    t.el(1).dismounts_as = Some(kind("4Bd"));
    t.add(US, 2, "Cv", 8.0, 5.0, 0.0);
    let p = t.plan(&MoveOrder::Dismount { id: ElementId(1) }).unwrap();
    assert_eq!(p.moves[0].becomes, Some(kind("4Bd")));
    assert_eq!(p.moves[0].to, p.moves[0].from);
    assert_eq!(
        rule(t.plan(&MoveOrder::Dismount { id: ElementId(2) })),
        "§7.9"
    );
    // An enemy 0.5 BW in front: in its threat zone.
    t.add(THEM, 9, "4Bd", 5.0, 5.5, 180.0);
    assert_eq!(
        rule(t.plan(&MoveOrder::Dismount { id: ElementId(1) })),
        "§7.9"
    );
}
