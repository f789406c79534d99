//! DBA3.md §1.2 (board sizes, edges, centre line, quarters), §14.2 and §14.6 (BBDBA and Giant
//! boards), §17.54 (quarters numbered from the defender's side).

use dbcore::battlefield::{Board, BoardEdge, BoardError, Quarter, Variant};
use dbcore::geometry::Point;

fn p(x: f64, y: f64) -> Point {
    Point::new(x, y)
}

#[test]
fn standard_board_side_is_15_to_20_bw_default_15() {
    // DBA3.md §1.2: the side is a set-up parameter of 15..=20 BW, 15 by default.
    assert_eq!(Board::default(), Board::standard(15.0).unwrap());
    assert_eq!(Board::default().width, 15.0);
    assert_eq!(Board::standard(20.0).unwrap().depth, 20.0);
    assert_eq!(Board::standard(14.9), Err(BoardError::SideOutOfRange(14.9)));
    assert_eq!(Board::standard(20.5), Err(BoardError::SideOutOfRange(20.5)));
    assert!(Board::standard(f64::NAN).is_err());
}

#[test]
fn big_battle_board_is_twice_as_wide_same_depth() {
    // DBA3.md §1.2, §14.2.
    let b = Board::big_battle(15.0).unwrap();
    assert_eq!((b.width, b.depth), (30.0, 15.0));
    let b = Board::big_battle(20.0).unwrap();
    assert_eq!((b.width, b.depth), (40.0, 20.0));
    assert!(Board::big_battle(21.0).is_err());
}

#[test]
fn giant_board_is_three_times_as_wide_and_up_to_half_deeper() {
    // DBA3.md §1.2, §14.6.
    let b = Board::giant(15.0, 1.0).unwrap();
    assert_eq!((b.width, b.depth), (45.0, 15.0));
    let b = Board::giant(15.0, 1.5).unwrap();
    assert_eq!((b.width, b.depth), (45.0, 22.5));
    assert_eq!(
        Board::giant(15.0, 1.6),
        Err(BoardError::DepthFactorOutOfRange(1.6))
    );
    assert!(Board::giant(15.0, 0.9).is_err());
    assert_eq!(
        Board::for_variant(Variant::Giant, 15.0).unwrap(),
        Board::giant(15.0, 1.0).unwrap()
    );
}

#[test]
fn board_error_names_its_rule() {
    // DBA3.md §1.2.
    assert!(Board::standard(30.0)
        .unwrap_err()
        .to_string()
        .contains("§1.2"));
}

#[test]
fn edges_in_the_board_frame() {
    // DBA3.md §1.2: origin at the south-west corner, +y up the table.
    let b = Board::default();
    assert_eq!(
        b.edge_segment(BoardEdge::South),
        (p(0.0, 0.0), p(15.0, 0.0))
    );
    assert_eq!(
        b.edge_segment(BoardEdge::East),
        (p(15.0, 0.0), p(15.0, 15.0))
    );
    assert_eq!(b.edge_at(p(4.0, 15.0)), Some(BoardEdge::North));
    assert_eq!(b.edge_at(p(0.0, 7.0)), Some(BoardEdge::West));
    assert_eq!(b.edge_at(p(5.0, 5.0)), None);
    assert_eq!(b.distance_to_edge(p(3.0, 4.0), BoardEdge::East), 12.0);
    assert_eq!(BoardEdge::South.opposite(), BoardEdge::North);
    // The side edges of a south base edge are west and east (§1.2).
    assert_eq!(BoardEdge::South.sides(), [BoardEdge::West, BoardEdge::East]);
}

#[test]
fn centre_line_is_parallel_to_the_base_edges_midway() {
    // DBA3.md §1.2.
    let b = Board::default();
    let c = b.centre_line(BoardEdge::South);
    assert_eq!((c.a, c.b), (p(0.0, 7.5), p(15.0, 7.5)));
    let c = b.centre_line(BoardEdge::West);
    assert_eq!((c.a, c.b), (p(7.5, 0.0), p(7.5, 15.0)));
    let bb = Board::big_battle(15.0).unwrap();
    let c = bb.centre_line(BoardEdge::North);
    assert_eq!((c.a, c.b), (p(0.0, 7.5), p(30.0, 7.5)));
}

#[test]
fn big_battle_base_edges_are_the_long_sides() {
    // DBA3.md §5.2, §14.3: the invader must pick a long side.
    let bb = Board::big_battle(15.0).unwrap();
    assert_eq!(
        bb.possible_base_edges(Variant::BigBattle),
        vec![BoardEdge::South, BoardEdge::North]
    );
    assert_eq!(
        Board::default()
            .possible_base_edges(Variant::Standard)
            .len(),
        4
    );
}

#[test]
fn quarters_clockwise_from_the_defenders_left_for_every_base_edge() {
    // DBA3.md §1.2, §17.54: numbered 1-4 clockwise (seen from above) from the defender's left,
    // as he sits at his base edge: 1 near left, 2 far left, 3 far right, 4 near right.
    let b = Board::default();
    let (sw, nw, ne, se) = (p(1.0, 1.0), p(1.0, 14.0), p(14.0, 14.0), p(14.0, 1.0));
    let cases = [
        (BoardEdge::South, [sw, nw, ne, se]),
        (BoardEdge::North, [ne, se, sw, nw]),
        (BoardEdge::West, [nw, ne, se, sw]),
        (BoardEdge::East, [se, sw, nw, ne]),
    ];
    for (edge, corners) in cases {
        for (i, c) in corners.into_iter().enumerate() {
            let q = Quarter(i as u8 + 1);
            assert_eq!(b.quarter(c, edge), q, "{edge:?} {c:?}");
            assert!(b.quarter_polygon(q, edge).unwrap().contains(c));
        }
    }
    assert!(b.quarter_polygon(Quarter(5), BoardEdge::South).is_none());
}

#[test]
fn big_battle_quarters_split_the_long_board() {
    // DBA3.md §1.2, §14.2: two lines at right angles to the edges through the middle.
    let bb = Board::big_battle(15.0).unwrap();
    assert_eq!(bb.quarter(p(14.0, 1.0), BoardEdge::South), Quarter(1));
    assert_eq!(bb.quarter(p(16.0, 1.0), BoardEdge::South), Quarter(4));
    let q3 = bb.quarter_polygon(Quarter(3), BoardEdge::South).unwrap();
    assert!((q3.area() - 15.0 * 7.5).abs() < 1e-9);
}
