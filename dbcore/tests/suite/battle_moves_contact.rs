//! Moving into contact (DBA3.md §8.2–§8.4).

use crate::battle_moves_support;
use battle_moves_support::*;

use dbcore::battle::{ContactWanted, ElementId, Flank, GroupStep, MoveError, MoveOrder, MovePlan};
use dbcore::contact::{classify_contact, ContactKind};
use dbcore::geometry::{ElementRect, Pose};
use dbcore::terrain::AreaKind;

fn into(t: &Table, v: &[u32], target: u32, c: ContactWanted) -> Result<MovePlan, MoveError> {
    t.plan(&MoveOrder::IntoContact {
        ids: ids(v),
        target: ElementId(target),
        contact: c,
    })
}

fn contact_between(t: &Table, p: &MovePlan, a: u32, code_a: &str, b: u32) -> ContactKind {
    let ra = ElementRect::new(end_of(p, a), 1.0, t.depth(code_a));
    let eb = t.els.iter().find(|e| e.id == ElementId(b)).unwrap();
    let rb = eb.rect(&t.cfg);
    let c = classify_contact(&ra, &rb).expect("in contact");
    assert!(c.lined_up, "{c:?}");
    c.kind
}

#[test]
fn s8_2_a_front_contact_lines_up_front_edges() {
    let mut t = Table::new();
    t.add(US, 1, "4Bd", 5.0, 3.0, 0.0);
    t.add(THEM, 9, "4Bd", 5.25, 4.5, 180.0);
    let p = into(&t, &[1], 9, ContactWanted::Front).unwrap();
    assert!(p.into_contact);
    assert_eq!(end_of(&p, 1), Pose::new(5.25, 4.5, 0.0));
    assert_eq!(
        contact_between(&t, &p, 1, "4Bd", 9),
        ContactKind::FrontToFront
    );
}

#[test]
fn s8_2_flank_contact_puts_the_front_corners_together() {
    // Enemy facing north at (5, 6); we come from the west.
    let mut t = Table::new();
    t.add(THEM, 9, "4Bd", 5.0, 6.0, 0.0);
    t.add(US, 1, "Cv", 3.0, 5.5, 90.0);
    let p = into(&t, &[1], 9, ContactWanted::Flank(Flank::Left)).unwrap();
    assert_eq!(end_of(&p, 1), Pose::new(4.5, 5.5, 90.0));
    assert_eq!(
        contact_between(&t, &p, 1, "Cv", 9),
        ContactKind::FrontToSide
    );
}

#[test]
fn s8_4_flank_contact_needs_a_start_beyond_the_side_edge() {
    // Starting in front of the enemy, off to its left but not beyond its left edge's line.
    let mut t = Table::new();
    t.add(THEM, 9, "4Bd", 5.0, 6.0, 0.0);
    t.add(US, 1, "Cv", 4.2, 8.5, 180.0);
    assert_eq!(
        rule(into(&t, &[1], 9, ContactWanted::Flank(Flank::Left))),
        "§8.4"
    );
}

#[test]
fn s8_2_rear_contact_and_its_eligibility() {
    let mut t = Table::new();
    let d = t.depth("4Bd");
    t.add(THEM, 9, "4Bd", 5.0, 6.0, 0.0);
    t.add(US, 1, "Cv", 5.0, 3.5, 0.0);
    let p = into(&t, &[1], 9, ContactWanted::Rear).unwrap();
    assert_eq!(end_of(&p, 1), Pose::new(5.0, 6.0 - d, 0.0));
    assert_eq!(
        contact_between(&t, &p, 1, "Cv", 9),
        ContactKind::FrontToRear
    );
    // §8.4: from the side, not wholly behind the rear edge's line: refused.
    let mut t = Table::new();
    t.add(THEM, 9, "4Bd", 5.0, 6.0, 0.0);
    t.add(US, 1, "Cv", 3.0, 6.0, 90.0);
    assert_eq!(rule(into(&t, &[1], 9, ContactWanted::Rear)), "§8.4");
}

#[test]
fn s8_2_overlap_beside_a_friend_in_front_contact() {
    // DBA3.md §8.2 (d): enemy facing south at (5, 6), fought by our Blades from the south.
    let mut t = Table::new();
    t.add(THEM, 9, "4Bd", 5.0, 6.0, 180.0);
    t.add(US, 2, "4Bd", 5.0, 6.0, 0.0);
    t.add(US, 1, "4Bd", 6.0, 4.5, 0.0);
    // The enemy faces south, so its left is to the east.
    let p = into(&t, &[1], 9, ContactWanted::Overlap(Flank::Left)).unwrap();
    assert_eq!(end_of(&p, 1), Pose::new(6.0, 6.0, 0.0));
    assert!(p.into_contact);
    // Without the friend in front contact there is nothing to overlap.
    let mut t = Table::new();
    t.add(THEM, 9, "4Bd", 5.0, 6.0, 180.0);
    t.add(US, 1, "4Bd", 6.0, 4.5, 0.0);
    assert!(rule(into(&t, &[1], 9, ContactWanted::Overlap(Flank::Left))).starts_with("§8.2"));
}

#[test]
fn s8_4_kinds_that_never_contact_enemy() {
    for code in ["Art", "WWg", "CP", "Lit", "CWg"] {
        let mut t = Table::new();
        t.add(US, 1, code, 5.0, 4.0, 0.0);
        t.add(THEM, 9, "4Bd", 5.0, 4.5, 180.0);
        assert_eq!(
            rule(into(&t, &[1], 9, ContactWanted::Front)),
            "§8.4",
            "{code}"
        );
        // Nor by an ordinary move.
        assert_eq!(rule(t.go(1, &[(5.0, 4.5, 0.0)])), "§8.4", "{code}");
    }
}

#[test]
fn s8_3_a_single_contactor_conforms_with_a_slide_under_1_bw() {
    // Moving straight ahead into an enemy offset by 0.25 BW: the mover slides to line up.
    let mut t = Table::new();
    t.add(US, 1, "4Bd", 5.0, 3.0, 0.0);
    t.add(THEM, 9, "4Bd", 5.25, 4.5, 180.0);
    let p = t.go(1, &[(5.0, 4.5, 0.0)]).unwrap();
    assert_eq!(end_of(&p, 1), Pose::new(5.25, 4.5, 0.0));
    assert!(p.into_contact);
    assert_eq!(p.moves.len(), 1, "the enemy does not move");
}

#[test]
fn s8_2_touching_a_flank_without_lining_up_is_refused() {
    // The front edge against the enemy's side but the front corners apart.
    let mut t = Table::new();
    let d = t.depth("4Bd");
    t.add(THEM, 9, "4Bd", 5.0, 6.0, 0.0);
    // Its front edge reaches only half way up the enemy's side, clear of the enemy's zone.
    let y = 6.0 - 0.5 - d * 0.5;
    t.add(US, 1, "Cv", 3.0, y, 90.0);
    assert_eq!(rule(t.go(1, &[(4.5, y, 90.0)])), "§8.2");
}

#[test]
fn s8_3_a_lone_element_conforms_to_a_group() {
    // Two Blades advance 2 BW into a lone enemy offset 0.25 BW: the enemy lines up on them.
    let mut t = Table::new();
    t.add(US, 1, "4Bd", 4.0, 3.0, 0.0);
    t.add(US, 2, "4Bd", 5.0, 3.0, 0.0);
    t.add(THEM, 9, "4Bd", 4.25, 5.0, 180.0);
    let p = t
        .plan(&MoveOrder::Group {
            ids: ids(&[1, 2]),
            steps: vec![GroupStep::Advance { distance: 2.0 }],
        })
        .unwrap();
    assert!(p.into_contact);
    assert_eq!(end_of(&p, 1), Pose::new(4.0, 5.0, 0.0));
    assert_eq!(
        end_of(&p, 9),
        Pose::new(4.0, 5.0, 180.0),
        "the enemy conforms"
    );
}

#[test]
fn s8_3_a_lone_element_wholly_in_rough_going_makes_the_group_conform() {
    let mut t = Table::new();
    t.add(US, 1, "4Bd", 4.0, 3.0, 0.0);
    t.add(US, 2, "4Bd", 5.0, 3.0, 0.0);
    t.add(THEM, 9, "4Bd", 4.25, 5.0, 180.0);
    t.area(AreaKind::Scrub, (3.0, 5.0), (6.0, 7.0));
    let p = t.plan(&MoveOrder::Group {
        ids: ids(&[1, 2]),
        steps: vec![GroupStep::Advance { distance: 1.0 }],
    });
    // 1 BW is not enough to reach; the group's full 2 BW would touch the scrub's edge only.
    assert!(p.is_ok());
    let p = t
        .plan(&MoveOrder::Group {
            ids: ids(&[1, 2]),
            steps: vec![GroupStep::Advance { distance: 2.0 }],
        })
        .unwrap();
    assert_eq!(end_of(&p, 1), Pose::new(4.25, 5.0, 0.0));
    assert_eq!(end_of(&p, 2), Pose::new(5.25, 5.0, 0.0));
    assert!(
        p.moves.iter().all(|m| m.id != ElementId(9)),
        "the enemy stays put"
    );
}

#[test]
fn s8_2_into_contact_too_far_or_blocked_is_refused() {
    // DBA3.md §7.3: Blades move 2 BW; §7.2: not through a friend.
    let mut t = Table::new();
    t.add(US, 1, "4Bd", 5.0, 1.0, 0.0);
    t.add(THEM, 9, "4Bd", 5.0, 4.5, 180.0);
    assert!(matches!(
        into(&t, &[1], 9, ContactWanted::Front),
        Err(MoveError::TooFar { .. })
    ));
    let mut t = Table::new();
    t.add(US, 1, "4Bd", 5.0, 3.0, 0.0);
    t.add(US, 2, "Ps", 5.0, 4.0, 90.0);
    t.add(THEM, 9, "4Bd", 5.0, 4.5, 180.0);
    assert!(matches!(
        into(&t, &[1], 9, ContactWanted::Front),
        Err(MoveError::Blocked { .. })
    ));
}

#[test]
fn s8_1_a_flank_attack_may_not_cross_another_enemys_zone() {
    // DBA3.md §8.1: in the zone of enemy 8, the only contact allowed is with 8's front edge.
    let mut t = Table::new();
    t.add(THEM, 9, "4Bd", 5.0, 6.0, 0.0);
    t.add(THEM, 8, "4Bd", 3.0, 4.0, 90.0);
    // Our Cavalry stands in 8's zone, beyond 9's left edge.
    t.add(US, 1, "Cv", 3.5, 4.0, 0.0);
    assert_eq!(
        rule(into(&t, &[1], 9, ContactWanted::Flank(Flank::Left))),
        "§8.1"
    );
}

#[test]
fn s8_2_a_group_moves_into_contact_as_one() {
    // Two Blades side by side; the nearer lines up on the enemy's front, the other beside it.
    let mut t = Table::new();
    t.add(US, 1, "4Bd", 4.0, 3.0, 0.0);
    t.add(US, 2, "4Bd", 5.0, 3.0, 0.0);
    t.add(THEM, 9, "4Bd", 5.25, 4.5, 180.0);
    let p = into(&t, &[1, 2], 9, ContactWanted::Front).unwrap();
    assert_eq!(end_of(&p, 2), Pose::new(5.25, 4.5, 0.0));
    assert_eq!(end_of(&p, 1), Pose::new(4.25, 4.5, 0.0));
    assert!(p.into_contact);
}

#[test]
fn s8_3_a_contactor_that_cannot_conform_makes_the_contacted_element_conform() {
    // DBA3.md §8.3: our Blades touch the enemy Warband's front edge 0.4 BW off line; a friend
    // beside the Blades stops them sliding across, so the move stands and the Warband, which
    // has room, conforms to them instead.
    let mut t = Table::new();
    t.add(THEM, 9, "4Wb", 5.4, 5.0, 180.0);
    t.add(US, 1, "4Bd", 5.0, 3.5, 0.0);
    t.add(US, 2, "4Bd", 6.2, 4.9, 0.0); // where the Blades would have to slide
    let p = t.go(1, &[(5.0, 5.0, 0.0)]).unwrap();
    assert!(p.into_contact);
    let m = end_of(&p, 1);
    assert!(near(m.x, 5.0) && near(m.y, 5.0), "{m:?}");
    let w = end_of(&p, 9);
    assert!(
        near(w.x, 5.0) && near(w.y, 5.0) && near(w.facing, 180.0),
        "{w:?}"
    );
}

#[test]
fn s8_3_when_neither_can_conform_the_move_stands() {
    // DBA3.md §8.3: as above, but a friend of the Warband also stops it: the move is not refused
    // (the pair fights as if in full contact, see battle_phases).
    let mut t = Table::new();
    t.add(THEM, 9, "4Wb", 5.4, 5.0, 180.0);
    t.add(THEM, 8, "4Wb", 4.3, 5.1, 180.0); // where the Warband would have to slide
    t.add(US, 1, "4Bd", 5.0, 3.5, 0.0);
    t.add(US, 2, "4Bd", 6.2, 4.9, 0.0);
    let p = t.go(1, &[(5.0, 5.0, 0.0)]).unwrap();
    assert!(p.into_contact);
    assert_eq!(p.moves.len(), 1, "{p:?}");
}

#[test]
fn s8_4_into_contact_finds_the_route_to_a_flank_from_partly_beyond_both_lines() {
    // DBA3.md §8.4: an element starting partly beyond both the flank line and the rear line of
    // an enemy may contact that flank; the into-contact order must find a way round the enemy's
    // rear corner, as an explicit path does, rather than refuse the straight line through it.
    let mut t = Table::new();
    t.add(THEM, 9, "4Bd", 7.5, 8.0, 180.0); // rear edge y = 8.375, sides x = 7 and 8
    t.add(US, 1, "Cv", 8.2, 9.2, 180.0); // x 7.7 to 8.7: across the side line; beyond the rear
    let explicit = t.go(1, &[(9.2, 9.0, 270.0), (8.0, 8.5, 270.0)]);
    assert!(explicit.is_ok(), "{explicit:?}");
    let order = t.plan(&MoveOrder::IntoContact {
        ids: vec![ElementId(1)],
        target: ElementId(9),
        contact: ContactWanted::Flank(Flank::Left),
    });
    let p = order.unwrap();
    let end = end_of(&p, 1);
    assert!(
        near(end.x, 8.0) && near(end.y, 8.5) && near(end.facing, 270.0),
        "{end:?}"
    );
    assert!(p.into_contact);
}
