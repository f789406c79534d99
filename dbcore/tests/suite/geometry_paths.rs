//! Swept areas, wheels and the first thing met along a straight path (DBA3.md §7.2, §7.4, §12.1,
//! §12.4).

use dbcore::geometry::{Corner, ElementRect, Point, Polygon, Pose, Segment, TOLERANCE};
use dbcore::paths::{
    first_met, first_met_by_edge, first_within, swept_by_straight_move, wheel_corner_arc_length,
    wheel_corner_distance, BoardBounds, BoardEdge, Met, MoveDirection, Obstacle, ObstacleKind,
    ObstacleShape, Wheel,
};

fn el(x: f64, y: f64, facing: f64, depth: f64) -> ElementRect {
    ElementRect::new(Pose::new(x, y, facing), 1.0, depth)
}

fn board() -> BoardBounds {
    BoardBounds {
        min: Point::new(0.0, 0.0),
        max: Point::new(15.0, 15.0),
    }
}

fn element(id: u32, r: ElementRect) -> Obstacle {
    Obstacle {
        id,
        kind: ObstacleKind::Element,
        shape: ObstacleShape::Rect(r),
    }
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9
}

#[test]
fn straight_move_sweeps_a_rectangle() {
    // DBA3.md §7.2: the area a straight move passes over.
    let r = el(5.0, 5.0, 0.0, 0.5);
    let swept = swept_by_straight_move(&r, Point::new(0.0, 1.0), 2.0);
    assert!(close(swept.area(), 2.5));
    // Oblique: a parallelogram-shaped hull, area = rect + width across motion * distance.
    let swept = swept_by_straight_move(&r, Point::new(1.0, 1.0), 2f64.sqrt());
    assert!(close(swept.area(), 0.5 + 1.0 + 0.5));
}

#[test]
fn wheel_about_a_front_corner_7_2() {
    // DBA3.md §7.2/§7.4: the front edge pivots forward about one front corner.
    let r = el(5.0, 5.0, 0.0, 0.5);
    let left = Wheel {
        pivot: Corner::FrontLeft,
        angle: 90.0,
    };
    let after = left.apply(&r);
    assert!(close(after.pose.facing, 270.0));
    assert!(after
        .corner(Corner::FrontLeft)
        .near(r.corner(Corner::FrontLeft)));
    assert!(after.corner(Corner::FrontRight).near(Point::new(4.5, 6.0)));
    let right = Wheel {
        pivot: Corner::FrontRight,
        angle: 45.0,
    };
    let after = right.apply(&r);
    assert!(close(after.pose.facing, 45.0));
    assert!(after
        .corner(Corner::FrontRight)
        .near(r.corner(Corner::FrontRight)));
}

#[test]
fn wheel_sweeps_a_sector_of_the_front_edge_7_2() {
    // DBA3.md §7.2: only the front edge's sweep matters; rear corners may pass through things.
    let r = el(5.0, 5.0, 0.0, 0.5);
    let sector = Wheel {
        pivot: Corner::FrontLeft,
        angle: 90.0,
    }
    .swept_by_front_edge(&r);
    let quarter = std::f64::consts::PI / 4.0;
    assert!(sector.area() <= quarter && sector.area() > quarter - TOLERANCE);
    assert!(sector.contains(Point::new(4.9, 5.5)));
    // Behind the front edge (where the rear corners swing) is not in the front edge's sweep.
    assert!(!sector.contains(Point::new(5.2, 4.8)));
    // Every arc vertex is within the tolerance of the true circle.
    for p in &sector.points[1..] {
        assert!((p.distance(Point::new(4.5, 5.0)) - 1.0).abs() < 1e-9);
    }
}

#[test]
fn wheel_distance_is_measured_at_the_outer_corner_7_2() {
    // DBA3.md §7.2: from the start of the front corner moving furthest to where it ends.
    assert!(close(wheel_corner_distance(1.0, 90.0), 2f64.sqrt()));
    assert!(close(wheel_corner_distance(1.0, 60.0), 1.0));
    assert!(close(
        wheel_corner_arc_length(1.0, 90.0),
        std::f64::consts::FRAC_PI_2
    ));
    assert!(close(wheel_corner_distance(1.0, 0.0), 0.0));
}

#[test]
fn forward_move_stops_at_the_first_element_met() {
    // DBA3.md §7.2: a move stops at the first element in its way.
    let mover = el(5.0, 5.0, 0.0, 0.5);
    let ahead = element(7, el(5.3, 7.0, 180.0, 0.5)); // front edge on y = 7, offset 0.3
    let further = element(8, el(5.0, 9.0, 180.0, 0.5));
    let out = first_met(
        &mover,
        MoveDirection::Forward,
        6.0,
        &[further, ahead],
        &board(),
    );
    assert!(close(out.distance, 2.0));
    assert_eq!(
        out.met,
        vec![Met::Obstacle {
            id: 7,
            kind: ObstacleKind::Element
        }]
    );
}

#[test]
fn elements_beside_the_path_are_passed_by() {
    // DBA3.md §7.2: a gap the front edge fits through may be passed.
    // A neighbour whose side touches the mover's side line is not met; one reaching more than
    // the tolerance into the path is.
    let mover = el(5.0, 5.0, 0.0, 0.5);
    let grazing = element(1, el(6.0 - 0.5 * TOLERANCE, 6.0, 0.0, 0.5));
    let out = first_met(&mover, MoveDirection::Forward, 3.0, &[grazing], &board());
    assert!(out.met.is_empty());
    assert!(close(out.distance, 3.0));
    let blocking = element(2, el(6.0 - 2.0 * TOLERANCE, 6.0, 0.0, 0.5));
    let out = first_met(&mover, MoveDirection::Forward, 3.0, &[blocking], &board());
    assert!(close(out.distance, 0.5), "{}", out.distance);
    // A friend side by side at the start is not met either.
    let beside = element(3, el(6.0, 5.0, 0.0, 0.5));
    let out = first_met(&mover, MoveDirection::Forward, 3.0, &[beside], &board());
    assert!(out.met.is_empty());
}

#[test]
fn recoil_is_led_by_the_rear_edge_12_1() {
    // DBA3.md §12.1: a recoil stops when its rear edge or a rear corner meets something; the
    // enemy it recoils from, touching its front, is not in the way.
    let recoiler = el(5.0, 5.0, 0.0, 0.5); // rear edge y = 4.5
    let enemy = element(1, el(5.0, 5.0, 180.0, 0.5));
    let friend_behind = element(2, el(5.5, 4.2, 0.0, 0.5)); // front edge 0.3 behind the rear edge
    let out = first_met(
        &recoiler,
        MoveDirection::Backward,
        1.0,
        &[enemy.clone(), friend_behind],
        &board(),
    );
    assert!(close(out.distance, 0.3));
    assert_eq!(
        out.met,
        vec![Met::Obstacle {
            id: 2,
            kind: ObstacleKind::Element
        }]
    );
    let out = first_met(&recoiler, MoveDirection::Backward, 0.5, &[enemy], &board());
    assert!(out.met.is_empty());
    assert!(close(out.distance, 0.5));
}

#[test]
fn rear_corner_meets_an_angled_obstacle_12_1() {
    // DBA3.md §12.1: a rear corner meeting terrain stops the recoil. A triangle of impassable
    // terrain pokes its point up into the path under the rear-right corner.
    let recoiler = el(5.0, 5.0, 0.0, 0.5); // rear edge from (5.5, 4.5) to (4.5, 4.5)
    let rock = Obstacle {
        id: 9,
        kind: ObstacleKind::Impassable,
        shape: ObstacleShape::Polygon(Polygon::new(vec![
            Point::new(5.4, 4.2),
            Point::new(6.5, 3.0),
            Point::new(7.5, 3.0),
        ])),
    };
    let out = first_met(&recoiler, MoveDirection::Backward, 1.0, &[rock], &board());
    assert!(close(out.distance, 0.3), "{}", out.distance);
    assert_eq!(
        out.met[0],
        Met::Obstacle {
            id: 9,
            kind: ObstacleKind::Impassable
        }
    );
}

#[test]
fn an_obstacle_already_across_the_leading_edge_is_met_at_once_12_1() {
    // DBA3.md §12.1: an element already in contact cannot move (it is destroyed instead).
    let recoiler = el(5.0, 5.0, 0.0, 0.5);
    let friend_touching = element(4, el(5.2, 4.5, 0.0, 0.5));
    let out = first_met(
        &recoiler,
        MoveDirection::Backward,
        1.0,
        &[friend_touching],
        &board(),
    );
    assert!(close(out.distance, 0.0));
    assert_eq!(out.met.len(), 1);
    // A wood covering the whole leading edge is met at distance zero as well.
    let wood = Obstacle {
        id: 5,
        kind: ObstacleKind::StopsMovement,
        shape: ObstacleShape::Polygon(Polygon::new(vec![
            Point::new(3.0, 3.0),
            Point::new(8.0, 3.0),
            Point::new(8.0, 8.0),
            Point::new(3.0, 8.0),
        ])),
    };
    let out = first_met(&recoiler, MoveDirection::Forward, 1.0, &[wood], &board());
    assert!(close(out.distance, 0.0));
}

#[test]
fn flight_reaches_the_battlefield_edge_12_4() {
    // DBA3.md §12.4: meeting a battlefield edge.
    let fleeing = el(5.0, 14.0, 0.0, 0.5);
    let out = first_met(&fleeing, MoveDirection::Forward, 3.0, &[], &board());
    assert!(close(out.distance, 1.0));
    assert_eq!(out.met, vec![Met::BoardEdge(BoardEdge::North)]);
    // Obliquely, the leading corner decides which edge is met first.
    let oblique = el(13.0, 13.0, 60.0, 0.5);
    let out = first_met(&oblique, MoveDirection::Forward, 10.0, &[], &board());
    let fr = oblique.corner(Corner::FrontRight);
    let expected = (15.0 - fr.x) / 60f64.to_radians().sin();
    assert!(close(out.distance, expected));
    assert_eq!(out.met, vec![Met::BoardEdge(BoardEdge::East)]);
}

#[test]
fn sweeping_a_bare_segment_in_any_direction() {
    // DBA3.md §12.1: a recoil is led by the rear edge.
    let lead = Segment::new(Point::new(0.0, 0.0), Point::new(1.0, 0.0));
    // A rect x in [3.5, 4], y in [2.5, 3.5]: the leading segment's right end (1, 0) travels along
    // the diagonal to its corner (3.5, 2.5); the rest of the segment meets its west side just after.
    let wall = element(1, el(3.5, 3.0, 270.0, 0.5));
    let out = first_met_by_edge(lead, Point::new(1.0, 1.0), 10.0, &[wall], &board());
    assert!(
        (out.distance - 2.5 * 2f64.sqrt()).abs() <= 2.0 * TOLERANCE,
        "{}",
        out.distance
    );
    // One lower, it only grazes the corner with the end of the segment: passed by.
    let grazed = element(2, el(3.5, 2.0, 270.0, 0.5));
    let out = first_met_by_edge(lead, Point::new(1.0, 1.0), 3.0, &[grazed], &board());
    assert!(out.met.is_empty());
}

#[test]
fn first_within_a_distance_of_segments() {
    // DBA3.md §7.5: passing within 1 BW of enemy.
    let square = [
        Point::new(0.0, 0.0),
        Point::new(1.0, 0.0),
        Point::new(1.0, 1.0),
        Point::new(0.0, 1.0),
    ];
    let wall = [Segment::new(Point::new(5.0, -3.0), Point::new(5.0, 3.0))];
    let t = first_within(&square, Point::new(1.0, 0.0), &wall, 1.0).unwrap();
    assert!(close(t, 3.0));
    // A post whose 1 BW band the square passes 2 BW clear of: never met.
    let post = [Segment::new(Point::new(5.0, 3.0), Point::new(5.0, 4.0))];
    assert_eq!(
        first_within(&square, Point::new(1.0, 0.0), &post, 1.0),
        None
    );
    // Past the end of a segment, the round end of its band is met, by the corner (1, 1): when
    // (5 - x)^2 + 0.5^2 = 1.
    let post = [Segment::new(Point::new(5.0, 1.5), Point::new(5.0, 4.0))];
    let t = first_within(&square, Point::new(1.0, 0.0), &post, 1.0).unwrap();
    let expected = 4.0 - (1.0f64 - 0.25).sqrt();
    assert!(close(t, expected), "{t} vs {expected}");
}

#[test]
fn wheel_obstructions_come_from_the_front_edge_only_7_2() {
    // DBA3.md §7.2: while the front edge wheels, rear corners may pass through other elements;
    // only what the front edge sweeps obstructs.
    let r = el(5.0, 5.0, 0.0, 0.5); // wheel left about (4.5, 5.0)
    let wheel = Wheel {
        pivot: Corner::FrontLeft,
        angle: 90.0,
    };
    // In the sector ahead of the front edge: obstructs.
    let ahead = element(1, el(5.0, 6.4, 0.0, 0.5)); // y in [5.9, 6.4]: the corner passes (4.5, 6)
                                                    // Behind the front edge, where only the rear swings: no obstruction.
    let behind_right = element(2, el(5.8, 4.9, 0.0, 0.5));
    // A friend beside the pivot corner, front edge level, touches only the apex.
    let beside_pivot = element(3, el(4.0, 5.0, 0.0, 0.5));
    // Lying along the end radius (x <= 4.5, y in [5, 6]): touches the sector's edge only.
    let along_end = element(4, el(4.0, 6.0, 0.0, 1.0));
    let met = wheel.obstructions(&r, &[ahead, behind_right, beside_pivot, along_end]);
    assert_eq!(
        met,
        vec![Met::Obstacle {
            id: 1,
            kind: ObstacleKind::Element
        }]
    );
    // Terrain given as any polygon: a thin wood strip across the arc obstructs.
    let wood = Obstacle {
        id: 9,
        kind: ObstacleKind::Impassable,
        shape: ObstacleShape::Polygon(Polygon::new(vec![
            Point::new(5.2, 5.6),
            Point::new(5.6, 5.6),
            Point::new(5.6, 5.7),
            Point::new(5.2, 5.7),
        ])),
    };
    assert_eq!(wheel.obstructions(&r, std::slice::from_ref(&wood)).len(), 1);
    // A smaller wheel stops short of it: 30 degrees carries the corner to (5.37, 5.5).
    let short = Wheel {
        pivot: Corner::FrontLeft,
        angle: 30.0,
    };
    assert!(short.obstructions(&r, &[wood]).is_empty());
}
