//! Quarter placement of features (DBA3.md §3.8 items 3-5) and edge roles (§1.2, §5.2).

use crate::terrain_fixtures;

use dbcore::battlefield::{Board, BoardEdge, EdgeRole, Quarter};
use dbcore::geometry::Polygon;
use dbcore::terrain::{
    check_quarter_placement, clip_to_convex, quarters_touched, AreaKind, PlacementProblem, River,
    Road, RoadSurface, TerrainFeature, Waterway,
};
use terrain_fixtures::*;

const SOUTH: BoardEdge = BoardEdge::South;

fn place(f: &TerrainFeature, q: u8) -> Result<(), PlacementProblem> {
    check_quarter_placement(f, &Board::default(), SOUTH, Quarter(q))
}

#[test]
fn clipping_keeps_the_part_inside() {
    // Geometry used by §3.8: a 4 × 4 square half over a quarter keeps half its area.
    let sq = Polygon::new(vec![p(5.5, 1.0), p(9.5, 1.0), p(9.5, 5.0), p(5.5, 5.0)]);
    let cell = Board::default().quarter_polygon(Quarter(1), SOUTH).unwrap();
    assert!((clip_to_convex(&sq, &cell).area() - 8.0).abs() < 1e-9);
}

#[test]
fn ordinary_area_features_lie_wholly_in_their_quarter() {
    // DBA3.md §3.8 item 4.
    let bf = legal_table();
    let wood = &bf.features[2];
    assert_eq!(place(wood, 4), Ok(()));
    assert_eq!(
        place(wood, 1),
        Err(PlacementProblem::NotWhollyInQuarter {
            kind: AreaKind::Wood,
            quarter: Quarter(1)
        })
    );
    let straddling = area(AreaKind::Wood, 7.5, 3.5, 1.6, 1.6, 0.0);
    assert!(place(&straddling, 1).is_err() && place(&straddling, 4).is_err());
    // Quarters of the legal table: hills far left and far right, scrub near left, City near right.
    assert_eq!(place(&bf.features[0], 2), Ok(()));
    assert_eq!(place(&bf.features[1], 3), Ok(()));
    assert_eq!(place(&bf.features[3], 1), Ok(()));
    assert_eq!(place(&bf.features[4], 4), Ok(()));
}

#[test]
fn gentle_hill_may_put_its_smaller_part_in_one_adjacent_quarter() {
    // DBA3.md §3.8 item 4.
    let hill = area(AreaKind::GentleHill, 4.0, 6.8, 1.8, 1.6, 0.0);
    assert_eq!(place(&hill, 1), Ok(()));
    assert_eq!(
        place(&hill, 2),
        Err(PlacementProblem::HillSpread {
            quarter: Quarter(2)
        })
    );
    let in_three = area(AreaKind::GentleHill, 7.0, 7.0, 1.8, 1.6, 0.0);
    assert!(place(&in_three, 1).is_err());
}

#[test]
fn plough_and_linear_features_extend_into_exactly_one_adjacent_quarter() {
    // DBA3.md §3.8 item 4.
    let plough = rect(AreaKind::Plough, 2.0, 2.0, 9.0, 5.0);
    assert_eq!(place(&plough, 1), Ok(()));
    assert_eq!(place(&plough, 4), Ok(()));
    let small = rect(AreaKind::Plough, 2.0, 2.0, 5.0, 5.0);
    assert_eq!(
        place(&small, 1),
        Err(PlacementProblem::NotIntoOneAdjacent {
            quarter: Quarter(1),
            touched: vec![Quarter(1)]
        })
    );
    let river = TerrainFeature::River(River {
        course: vec![p(0.0, 5.0), p(15.0, 5.0)],
        width: 0.5,
        state: None,
    });
    assert_eq!(place(&river, 4), Ok(()));
    let road = TerrainFeature::Road(Road {
        path: vec![p(3.0, 0.0), p(3.0, 15.0)],
        surface: RoadSurface::Track,
        width: 0.4,
    });
    assert_eq!(place(&road, 2), Ok(()));
    // Corner to corner through the middle: quarters 1 and 3 are not adjacent.
    let diagonal = TerrainFeature::Road(Road {
        path: vec![p(0.0, 0.0), p(15.0, 15.0)],
        surface: RoadSurface::Track,
        width: 0.4,
    });
    assert_eq!(
        quarters_touched(&diagonal, &Board::default(), SOUTH),
        vec![Quarter(1), Quarter(3)]
    );
    assert!(place(&diagonal, 1).is_err());
    let sea = TerrainFeature::Waterway(Waterway::uniform(BoardEdge::West, 2.0, 0.0));
    assert_eq!(place(&sea, 1), Ok(()));
}

#[test]
fn there_are_only_four_quarters() {
    // DBA3.md §1.2.
    let wood = area(AreaKind::Wood, 3.5, 3.5, 1.6, 1.6, 0.0);
    assert_eq!(
        place(&wood, 0),
        Err(PlacementProblem::NoSuchQuarter(Quarter(0)))
    );
    assert!(Board::quarters_adjacent(Quarter(1), Quarter(4)));
    assert!(Board::quarters_adjacent(Quarter(2), Quarter(3)));
    assert!(!Board::quarters_adjacent(Quarter(2), Quarter(4)));
    assert!(!Board::quarters_adjacent(Quarter(1), Quarter(1)));
}

#[test]
fn edge_roles_from_the_defenders_base_edge() {
    // DBA3.md §1.2, §5.2: the invader's base edge is opposite the defender's; the rest are sides.
    let b = Board::default();
    assert_eq!(
        b.edge_role(BoardEdge::West, BoardEdge::West),
        EdgeRole::DefenderBase
    );
    assert_eq!(
        b.edge_role(BoardEdge::East, BoardEdge::West),
        EdgeRole::InvaderBase
    );
    assert_eq!(
        b.edge_role(BoardEdge::North, BoardEdge::West),
        EdgeRole::Side
    );
}
