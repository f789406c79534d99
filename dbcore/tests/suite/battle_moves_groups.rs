//! Group and column moves (DBA3.md §7.4).

use crate::battle_moves_support;
use battle_moves_support::*;

use dbcore::battle::{ElementId, Flank, GroupStep, MoveError, MoveOrder};
use dbcore::geometry::{Point, Pose};
use dbcore::terrain::AreaKind;

/// Three Blades side by side facing north, front edges on y = 3 at x = 4, 5, 6.
fn line() -> Table {
    let mut t = Table::new();
    for (i, x) in [(1, 4.0), (2, 5.0), (3, 6.0)] {
        t.add(US, i, "4Bd", x, 3.0, 0.0);
    }
    t
}

fn group(t: &Table, v: &[u32], steps: &[GroupStep]) -> Result<dbcore::battle::MovePlan, MoveError> {
    t.plan(&MoveOrder::Group {
        ids: ids(v),
        steps: steps.to_vec(),
    })
}

#[test]
fn s7_4_a_group_advances_together() {
    let t = line();
    let p = group(&t, &[1, 2, 3], &[GroupStep::Advance { distance: 2.0 }]).unwrap();
    assert!(near(p.distance, 2.0));
    for (i, x) in [(1, 4.0), (2, 5.0), (3, 6.0)] {
        assert_eq!(end_of(&p, i), Pose::new(x, 5.0, 0.0));
    }
    assert!(matches!(
        group(&t, &[1, 2, 3], &[GroupStep::Advance { distance: 2.5 }]),
        Err(MoveError::TooFar { .. })
    ));
}

#[test]
fn s7_4_a_group_wheels_about_its_front_corner() {
    // DBA3.md §7.4: the whole front edge pivots forward about a front corner; the distance is
    // that of the furthest-moving front corner (the far end of the line: a chord of radius 3).
    let t = line();
    // About the left front corner, forward is anticlockwise (the group turns left).
    let wheel = GroupStep::Wheel {
        pivot: Flank::Left,
        degrees: -30.0,
    };
    let p = group(&t, &[1, 2, 3], &[wheel]).unwrap();
    let chord = 2.0 * 3.0 * (15f64).to_radians().sin();
    assert!(near(p.distance, chord), "{}", p.distance);
    // The pivot corner (3.5, 3) stays; the right end swings forward.
    let e1 = end_of(&p, 1);
    assert!(near(e1.facing, 330.0));
    let fl = Point::new(e1.x, e1.y) - Pose::new(0.0, 0.0, 330.0).forward().right() * 0.5;
    assert!(fl.distance(Point::new(3.5, 3.0)) < 1e-3);
    // 90 degrees is too far for Blades.
    assert!(matches!(
        group(
            &t,
            &[1, 2, 3],
            &[GroupStep::Wheel {
                pivot: Flank::Left,
                degrees: -90.0
            }]
        ),
        Err(MoveError::TooFar { .. })
    ));
    // Wheeling backwards is not a wheel.
    assert_eq!(
        rule(group(
            &t,
            &[1, 2, 3],
            &[GroupStep::Wheel {
                pivot: Flank::Left,
                degrees: 20.0
            }]
        )),
        "§7.4"
    );
    // About the right corner, forward is clockwise.
    assert!(group(
        &t,
        &[1, 2, 3],
        &[GroupStep::Wheel {
            pivot: Flank::Right,
            degrees: 30.0
        }]
    )
    .is_ok());
    assert_eq!(
        rule(group(
            &t,
            &[1, 2, 3],
            &[GroupStep::Wheel {
                pivot: Flank::Right,
                degrees: -30.0
            }]
        )),
        "§7.4"
    );
}

#[test]
fn s7_4_a_wheel_is_blocked_by_what_the_front_edge_sweeps() {
    let mut t = line();
    // A friend ahead of the swinging end: its rear edge is 1 BW ahead of the line.
    let d = t.depth("4Bd");
    t.add(US, 7, "4Bd", 6.0, 4.0 + d, 0.0);
    assert!(group(&t, &[1, 2, 3], &[GroupStep::Advance { distance: 1.0 }]).is_ok());
    assert!(matches!(
        group(&t, &[1, 2, 3], &[GroupStep::Wheel { pivot: Flank::Left, degrees: -30.0 }]),
        Err(MoveError::Blocked { blocker }) if blocker == ElementId(7)
    ));
}

#[test]
fn s7_4_the_elements_must_form_a_group() {
    let mut t = line();
    t.add(US, 4, "4Bd", 8.5, 3.0, 0.0);
    assert_eq!(
        rule(group(
            &t,
            &[1, 2, 3, 4],
            &[GroupStep::Advance { distance: 1.0 }]
        )),
        "§7.4"
    );
    // Not all facing the same way.
    let mut t = line();
    t.el(3).pose.facing = 180.0;
    t.el(3).pose.y = 3.0 - t.depth("4Bd");
    assert_eq!(
        rule(group(
            &t,
            &[1, 2, 3],
            &[GroupStep::Advance { distance: 1.0 }]
        )),
        "§7.4"
    );
}

#[test]
fn s7_4_allied_contingents_group_only_with_their_own() {
    let mut t = line();
    t.el(3).contingent = Some(1);
    assert_eq!(
        rule(group(
            &t,
            &[1, 2, 3],
            &[GroupStep::Advance { distance: 1.0 }]
        )),
        "§7.4"
    );
    t.el(2).contingent = Some(1);
    t.el(1).contingent = Some(1);
    assert!(group(&t, &[1, 2, 3], &[GroupStep::Advance { distance: 1.0 }]).is_ok());
}

#[test]
fn s7_4_a_group_through_bad_going_must_be_a_column_unless_all_psiloi() {
    let mut t = line();
    t.area(AreaKind::Marsh, (0.0, 3.5), (15.0, 9.0));
    assert_eq!(
        rule(group(
            &t,
            &[1, 2, 3],
            &[GroupStep::Advance { distance: 1.0 }]
        )),
        "§7.4"
    );
    // Rough going does not need a column.
    let mut t = line();
    t.area(AreaKind::Enclosures, (0.0, 3.5), (15.0, 9.0));
    assert!(group(&t, &[1, 2, 3], &[GroupStep::Advance { distance: 1.0 }]).is_ok());
    // Psiloi may go as a line through bad going.
    let mut t = Table::new();
    t.add(US, 1, "Ps", 4.0, 3.0, 0.0);
    t.add(US, 2, "Ps", 5.0, 3.0, 0.0);
    t.area(AreaKind::Wood, (0.0, 3.5), (15.0, 9.0));
    assert!(group(&t, &[1, 2], &[GroupStep::Advance { distance: 2.0 }]).is_ok());
    // A column of Blades may.
    let mut t = Table::new();
    let d = t.depth("4Bd");
    t.add(US, 1, "4Bd", 5.0, 3.0, 0.0);
    t.add(US, 2, "4Bd", 5.0, 3.0 - d, 0.0);
    t.area(AreaKind::Wood, (0.0, 3.5), (15.0, 9.0));
    let p = group(&t, &[1, 2], &[GroupStep::Advance { distance: 1.0 }]).unwrap();
    assert!(near(end_of(&p, 2).y, 4.0 - d));
}

#[test]
fn s7_4_a_group_along_a_road_must_be_a_column() {
    let mut t = line();
    t.road(&[(5.0, 0.0), (5.0, 15.0)]);
    // Only the middle element is on the road: this is not wholly along the road, and fine.
    assert!(
        !group(&t, &[1, 2, 3], &[GroupStep::Advance { distance: 2.0 }])
            .unwrap()
            .along_road
    );
    // A column on the road moves along it as good going.
    let mut t = Table::new();
    let d = t.depth("4Bd");
    t.area(AreaKind::Wood, (0.0, 3.5), (15.0, 9.0));
    t.road(&[(5.0, 0.0), (5.0, 15.0)]);
    t.add(US, 1, "4Bd", 5.0, 3.0, 0.0);
    t.add(US, 2, "4Bd", 5.0, 3.0 - d, 0.0);
    let p = group(&t, &[1, 2], &[GroupStep::Advance { distance: 2.0 }]).unwrap();
    assert!(p.along_road);
}

#[test]
fn s7_4_a_column_follows_its_leader_through_the_same_wheels() {
    let mut t = Table::new();
    let d = t.depth("4Bd");
    t.add(US, 1, "4Bd", 5.0, 3.0, 0.0);
    t.add(US, 2, "4Bd", 5.0, 3.0 - d, 0.0);
    // Leader goes 0.5 BW north, turns east at (5, 3.5), goes 0.5 BW east.
    let p = t
        .plan(&MoveOrder::Column {
            ids: ids(&[1, 2]),
            path: vec![
                Pose::new(5.0, 3.5, 0.0),
                Pose::new(5.0, 3.5, 90.0),
                Pose::new(5.5, 3.5, 90.0),
            ],
        })
        .unwrap();
    assert_eq!(end_of(&p, 1), Pose::new(5.5, 3.5, 90.0));
    // The follower goes the same 1 BW along the leader's line: d + 0.5 north to the corner,
    // where it turns the same way, then 0.5 - d east, ending right behind the leader.
    assert!(d < 0.5);
    let f = end_of(&p, 2);
    assert!(
        near(f.x, 5.5 - d) && near(f.y, 3.5) && near(f.facing, 90.0),
        "{f:?}"
    );
    // A column leader may not slide sideways.
    assert_eq!(
        rule(t.plan(&MoveOrder::Column {
            ids: ids(&[1, 2]),
            path: vec![Pose::new(5.5, 4.0, 0.0)]
        })),
        "§7.4"
    );
    // The followers must already be in column.
    t.el(2).pose.x = 5.3;
    assert_eq!(
        rule(t.plan(&MoveOrder::Column {
            ids: ids(&[1, 2]),
            path: vec![Pose::new(5.0, 4.0, 0.0)]
        })),
        "§7.4"
    );
}

#[test]
fn s7_4_forming_a_column_from_a_line() {
    // DBA3.md §7.4: the leader moves forward, the others join behind it one by one.
    let t = line();
    let d = t.depth("4Bd");
    let p = t
        .plan(&MoveOrder::Column {
            ids: ids(&[2, 1, 3]),
            path: vec![Pose::new(5.0, 4.0, 0.0)],
        })
        .unwrap();
    assert_eq!(end_of(&p, 2), Pose::new(5.0, 4.0, 0.0));
    let e1 = end_of(&p, 1);
    let e3 = end_of(&p, 3);
    assert!(near(e1.x, 5.0) && near(e1.y, 4.0 - d), "{e1:?}");
    assert!(near(e3.x, 5.0) && near(e3.y, 4.0 - 2.0 * d), "{e3:?}");
    // Forming a column in place would put the followers' front edges behind where they began:
    // they cannot reach the tail, so they drop out of the group and the leader moves alone.
    let p = t
        .plan(&MoveOrder::Column {
            ids: ids(&[2, 1, 3]),
            path: vec![Pose::new(5.0, 3.0, 0.0)],
        })
        .unwrap();
    assert_eq!(p.movers, ids(&[2]));
}

#[test]
fn s3_5_a_narrow_river_lets_only_single_elements_and_columns_cross() {
    // DBA3.md §3.5 (5–6), §7.8: wider groups halt at the near bank.
    let mut t = line();
    t.river(&[(0.0, 4.0), (15.0, 4.0)], 0.5);
    t.river = Some(dbcore::terrain::RiverState::SlowsNarrow);
    assert_eq!(
        rule(group(
            &t,
            &[1, 2, 3],
            &[GroupStep::Advance { distance: 1.0 }]
        )),
        "§3.5"
    );
    // A column may, limited to 1 BW (§7.3 override 1).
    let mut t = Table::new();
    let d = t.depth("4Bd");
    t.add(US, 1, "4Bd", 5.0, 3.0, 0.0);
    t.add(US, 2, "4Bd", 5.0, 3.0 - d, 0.0);
    t.river(&[(0.0, 4.0), (15.0, 4.0)], 0.5);
    t.river = Some(dbcore::terrain::RiverState::SlowsNarrow);
    assert!(group(&t, &[1, 2], &[GroupStep::Advance { distance: 1.0 }]).is_ok());
    assert!(matches!(
        group(&t, &[1, 2], &[GroupStep::Advance { distance: 1.5 }]),
        Err(MoveError::TooFar { .. })
    ));
}
