//! Checking a laid-out table against DBA3.md §3.2–§3.8 (with §14.2 and §14.6 counts): every
//! planted problem is found, and all problems come back together.

use crate::terrain_fixtures;

use dbcore::battlefield::{Battlefield, Board, BoardEdge, Variant};
use dbcore::terrain::{
    measure, validate_terrain, AreaFeature, AreaKind, FeatureType, River, RiverState, Road,
    RoadSurface, TerrainError, TerrainFeature, TerrainProblem, Waterway,
};
use terrain_fixtures::*;

fn check(bf: &Battlefield) -> Vec<TerrainProblem> {
    validate_terrain(bf, Variant::Standard)
}

fn with(extra: TerrainFeature) -> Battlefield {
    let mut bf = legal_table();
    bf.features.push(extra);
    bf
}

fn river(course: Vec<dbcore::geometry::Point>, width: f64) -> TerrainFeature {
    TerrainFeature::River(River {
        course,
        width,
        state: None,
    })
}

fn road(path: Vec<dbcore::geometry::Point>) -> TerrainFeature {
    TerrainFeature::Road(Road {
        path,
        surface: RoadSurface::Track,
        width: 0.4,
    })
}

/// A table with just one marsh (bad going) in the middle, plus what the test adds.
fn bare(extra: Vec<TerrainFeature>) -> Battlefield {
    let mut bf = Battlefield::new(Board::default());
    bf.features
        .push(area(AreaKind::Marsh, 7.5, 7.5, 1.6, 1.6, 0.0));
    bf.features.extend(extra);
    bf
}

#[test]
fn the_legal_table_has_no_problems() {
    // DBA3.md §3.2-§3.8.
    assert_eq!(check(&legal_table()), vec![]);
}

#[test]
fn problems_name_their_rules() {
    // Every problem says which rule forbids it.
    let p = TerrainProblem::NoDifficultTerrain;
    assert_eq!(p.rule(), "§3.7");
    assert!(p.to_string().starts_with("§3.7"));
}

// §3.2 sizes and shapes -------------------------------------------------------------------

#[test]
fn measure_an_ellipse() {
    // DBA3.md §3.2: length and width of the enclosing rectangle, width at the centre.
    let f = AreaFeature::ellipse(AreaKind::Wood, p(7.0, 7.0), 2.0, 1.5, 30.0, 64);
    let m = measure(&f.outline);
    assert!((m.length - 4.0).abs() < 0.01, "{m:?}");
    assert!((m.breadth - 3.0).abs() < 0.01, "{m:?}");
    assert!(m.centre_width >= 3.0 && m.centre_width < 3.01, "{m:?}");
}

#[test]
fn feature_must_fit_length_plus_width_9() {
    // DBA3.md §3.2.
    let probs = check(&bare(vec![area(AreaKind::Wood, 7.5, 7.5, 3.5, 2.5, 0.0)]));
    assert!(probs
        .iter()
        .any(|p| matches!(p, TerrainProblem::TooBig { feature: 1, .. })));
}

#[test]
fn feature_at_least_1_bw_wide_at_its_centre() {
    // DBA3.md §3.2.
    let probs = check(&bare(vec![area(AreaKind::Rocky, 3.0, 3.0, 0.8, 0.4, 0.0)]));
    assert!(probs
        .iter()
        .any(|p| matches!(p, TerrainProblem::TooNarrow { feature: 1, .. })));
}

#[test]
fn at_most_one_feature_under_3_bw_wide() {
    // DBA3.md §3.2.
    let probs = check(&bare(vec![
        area(AreaKind::Rocky, 3.0, 3.0, 1.5, 1.2, 0.0),
        area(AreaKind::Scrub, 12.0, 12.0, 1.5, 1.2, 0.0),
    ]));
    assert!(probs.iter().any(
        |p| matches!(p, TerrainProblem::SeveralNarrow { features } if features == &vec![1, 2])
    ));
    let one = check(&bare(vec![area(AreaKind::Rocky, 3.0, 3.0, 1.5, 1.2, 0.0)]));
    assert_eq!(one, vec![]);
}

#[test]
fn gully_is_at_least_three_times_as_long_as_wide() {
    // DBA3.md §3.2.
    let short = check(&bare(vec![area(AreaKind::Gully, 4.0, 3.0, 2.0, 1.0, 0.0)]));
    assert!(short
        .iter()
        .any(|p| matches!(p, TerrainProblem::GullyTooShort { feature: 1, .. })));
    let long = check(&bare(vec![area(AreaKind::Gully, 4.5, 2.5, 3.0, 0.9, 0.0)]));
    assert_eq!(long, vec![]);
}

#[test]
fn other_features_at_most_twice_as_long_as_wide() {
    // DBA3.md §3.2.
    let probs = check(&bare(vec![area(AreaKind::Wood, 4.5, 2.8, 3.0, 1.2, 0.0)]));
    assert!(probs
        .iter()
        .any(|p| matches!(p, TerrainProblem::TooLong { feature: 1, .. })));
}

#[test]
fn only_buas_and_plough_may_have_straight_edges() {
    // DBA3.md §3.2.
    let probs = check(&bare(vec![rect(AreaKind::Wood, 2.0, 2.0, 5.0, 5.0)]));
    assert!(probs.iter().any(|p| matches!(
        p,
        TerrainProblem::StraightEdges {
            feature: 1,
            kind: AreaKind::Wood
        }
    )));
    // Flagged curved but drawn with four corners: still straight.
    let mut sq = AreaFeature::rectangle(AreaKind::Rocky, p(2.0, 2.0), p(5.0, 5.0));
    sq.straight_edged = false;
    let probs = check(&bare(vec![TerrainFeature::Area(sq)]));
    assert!(probs
        .iter()
        .any(|p| matches!(p, TerrainProblem::StraightEdges { feature: 1, .. })));
    let ok = check(&bare(vec![rect(AreaKind::Plough, 2.0, 2.0, 5.0, 5.0)]));
    assert_eq!(ok, vec![]);
}

#[test]
fn hills_need_a_crest_and_cities_gates() {
    // DBA3.md §3.3 (crest), §4.2-4.3 (gates).
    let mut hill = AreaFeature::ellipse(AreaKind::GentleHill, p(3.5, 3.5), 1.8, 1.6, 0.0, 32);
    hill.crest.clear();
    let mut city = AreaFeature::rectangle(AreaKind::City, p(13.0, 13.0), p(15.0, 15.0));
    city.gates.clear();
    let mut fort = AreaFeature::rectangle(AreaKind::Fort, p(0.0, 13.5), p(1.5, 15.0));
    fort.gates = vec![p(1.5, 14.0), p(1.0, 13.5)];
    let probs = check(&bare(vec![
        TerrainFeature::Area(hill),
        TerrainFeature::Area(city),
        TerrainFeature::Area(fort),
    ]));
    assert!(probs.contains(&TerrainProblem::BadCrest { feature: 1 }));
    assert!(probs.contains(&TerrainProblem::BadGates {
        feature: 2,
        kind: AreaKind::City,
        gates: 0
    }));
    assert!(probs.contains(&TerrainProblem::BadGates {
        feature: 3,
        kind: AreaKind::Fort,
        gates: 2
    }));
}

// §3.7 counts ----------------------------------------------------------------------------

fn woods(n: usize) -> Vec<TerrainFeature> {
    let spots = [(3.0, 3.0), (12.0, 3.0), (3.0, 12.0), (12.0, 12.0)];
    spots[..n]
        .iter()
        .map(|&(x, y)| area(AreaKind::Wood, x, y, 1.6, 1.6, 0.0))
        .collect()
}

#[test]
fn at_most_three_of_a_type_four_in_giant() {
    // DBA3.md §3.7, §14.2 (BBDBA same maxima), §14.6 (Giant: at most 4 of a type).
    let bf = Battlefield {
        board: Board::default(),
        features: woods(4),
    };
    let too_many = TerrainProblem::TooMany {
        feature_type: FeatureType::Wood,
        count: 4,
        max: 3,
    };
    assert!(validate_terrain(&bf, Variant::Standard).contains(&too_many));
    assert!(validate_terrain(&bf, Variant::BigBattle).contains(&too_many));
    assert!(!validate_terrain(&bf, Variant::Giant)
        .iter()
        .any(|p| matches!(p, TerrainProblem::TooMany { .. })));
    assert_eq!(
        validate_terrain(
            &Battlefield {
                board: Board::default(),
                features: woods(3)
            },
            Variant::Standard
        ),
        vec![]
    );
}

#[test]
fn at_most_one_bua_river_oasis_gully_waterway_and_two_roads() {
    // DBA3.md §3.7: all BUA kinds count together.
    let probs = check(&bare(vec![
        rect(AreaKind::Hamlet, 0.0, 0.0, 2.0, 2.0),
        rect(AreaKind::Edifice, 13.0, 13.0, 15.0, 15.0),
    ]));
    assert!(probs.contains(&TerrainProblem::TooMany {
        feature_type: FeatureType::Bua,
        count: 2,
        max: 1
    }));
    let probs = check(&bare(vec![
        road(vec![p(3.0, 0.0), p(3.0, 15.0)]),
        road(vec![p(0.0, 3.0), p(15.0, 3.0)]),
        road(vec![p(0.0, 12.0), p(3.0, 12.0)]),
    ]));
    assert!(probs.contains(&TerrainProblem::TooMany {
        feature_type: FeatureType::Road,
        count: 3,
        max: 2
    }));
}

#[test]
fn city_on_a_hill_counts_as_one_feature_and_needs_no_gap() {
    // DBA3.md §3.2: a City or Fort on a larger hill counts with it as one feature.
    let mut hill = AreaFeature::ellipse(AreaKind::DifficultHill, p(3.2, 3.2), 2.0, 1.8, 0.0, 32);
    hill.crest = vec![p(2.5, 3.2), p(3.9, 3.2)];
    let mut city = AreaFeature::rectangle(AreaKind::City, p(2.7, 2.7), p(3.7, 3.7));
    city.gates = vec![p(3.2, 2.7)];
    let probs = check(&bare(vec![
        TerrainFeature::Area(hill),
        TerrainFeature::Area(city),
    ]));
    assert_eq!(probs, vec![]);
}

#[test]
fn a_table_needs_some_difficult_terrain() {
    // DBA3.md §3.7: at least one bad, rough, river or waterway feature.
    let mut hill = AreaFeature::ellipse(AreaKind::GentleHill, p(7.5, 7.5), 1.8, 1.6, 0.0, 32);
    hill.crest = vec![p(6.8, 7.5), p(8.2, 7.5)];
    let bf = Battlefield {
        board: Board::default(),
        features: vec![
            TerrainFeature::Area(hill),
            rect(AreaKind::Plough, 2.0, 2.0, 4.5, 4.5),
        ],
    };
    assert_eq!(check(&bf), vec![TerrainProblem::NoDifficultTerrain]);
    let mut wet = bf.clone();
    wet.features
        .push(river(vec![p(0.0, 11.0), p(15.0, 10.5)], 0.5));
    // The river must keep 4 BW from the north edge: 15 - 11 = 4 is within, so it is refused for
    // that reason, but it does count as difficult terrain.
    assert!(!check(&wet).contains(&TerrainProblem::NoDifficultTerrain));
}

// §3.8 gaps and corners -------------------------------------------------------------------

#[test]
fn area_features_keep_1_bw_apart_and_from_edges() {
    // DBA3.md §3.8 item 6.
    let probs = check(&bare(vec![area(AreaKind::Wood, 7.5, 11.2, 1.6, 1.6, 0.0)]));
    assert!(probs
        .iter()
        .any(|p| matches!(p, TerrainProblem::FeaturesTooClose { a: 0, b: 1, .. })));
    let probs = check(&bare(vec![area(AreaKind::Wood, 2.1, 3.5, 1.6, 1.6, 0.0)]));
    assert!(probs.iter().any(|p| matches!(
        p,
        TerrainProblem::TooCloseToEdge {
            feature: 1,
            edge: BoardEdge::West,
            ..
        }
    )));
}

#[test]
fn a_bua_may_touch_an_edge() {
    // DBA3.md §3.8 item 6, §17.26.
    let probs = check(&bare(vec![rect(AreaKind::Hamlet, 0.0, 5.0, 2.0, 7.0)]));
    assert_eq!(probs, vec![]);
}

#[test]
fn city_or_fort_wholly_within_6_bw_of_two_edges() {
    // DBA3.md §3.8 item 7.
    let mut city = AreaFeature::rectangle(AreaKind::City, p(0.0, 1.0), p(2.0, 3.0));
    city.gates = vec![p(2.0, 2.0)];
    assert_eq!(
        check(&bare(vec![TerrainFeature::Area(city.clone())])),
        vec![]
    );
    let mut mid = city;
    mid.outline = AreaFeature::rectangle(AreaKind::City, p(0.0, 6.5), p(2.0, 8.5)).outline;
    mid.gates = vec![p(2.0, 7.5)];
    let probs = check(&bare(vec![TerrainFeature::Area(mid)]));
    assert!(probs.contains(&TerrainProblem::FortificationNotNearCorner {
        feature: 1,
        kind: AreaKind::City
    }));
}

// §3.6 roads ------------------------------------------------------------------------------

#[test]
fn roads_run_edge_to_edge_and_a_second_meets_the_first() {
    // DBA3.md §3.6.
    let probs = check(&bare(vec![road(vec![p(3.0, 0.0), p(3.0, 9.0)])]));
    assert!(probs.contains(&TerrainProblem::RoadNotEdgeToEdge { feature: 1 }));
    let probs = check(&bare(vec![
        road(vec![p(3.0, 0.0), p(3.0, 15.0)]),
        road(vec![p(12.0, 0.0), p(12.0, 15.0)]),
    ]));
    assert!(probs.contains(&TerrainProblem::RoadsDisjoint {
        first: 1,
        second: 2
    }));
    // Joining the first road is enough.
    let ok = check(&bare(vec![
        road(vec![p(3.0, 0.0), p(3.0, 15.0)]),
        road(vec![p(15.0, 12.0), p(3.0, 12.0)]),
    ]));
    assert_eq!(ok, vec![]);
}

#[test]
fn road_is_drawn_less_than_1_bw_wide() {
    // DBA3.md §3.6.
    let probs = check(&bare(vec![TerrainFeature::Road(Road {
        path: vec![p(3.0, 0.0), p(3.0, 15.0)],
        surface: RoadSurface::Paved,
        width: 1.0,
    })]));
    assert!(probs.contains(&TerrainProblem::RoadTooWide {
        feature: 1,
        width: 1.0
    }));
}

#[test]
fn road_may_not_start_at_a_waterway_edge_unless_at_a_bua() {
    // DBA3.md §3.6.
    let water = TerrainFeature::Waterway(Waterway::uniform(BoardEdge::South, 2.0, 0.0));
    let probs = check(&bare(vec![
        water.clone(),
        road(vec![p(3.0, 0.0), p(3.0, 15.0)]),
    ]));
    assert!(probs.contains(&TerrainProblem::RoadFromWaterwayEdge { feature: 2 }));
    let mut town = AreaFeature::rectangle(AreaKind::Hamlet, p(2.0, 0.0), p(4.0, 2.5));
    town.gates.clear();
    let ok = check(&bare(vec![
        water,
        TerrainFeature::Area(town),
        road(vec![p(3.0, 1.0), p(3.0, 15.0)]),
    ]));
    assert!(
        !ok.iter().any(|p| matches!(
            p,
            TerrainProblem::RoadFromWaterwayEdge { .. } | TerrainProblem::RoadNotEdgeToEdge { .. }
        )),
        "{ok:?}"
    );
}

// §3.5 rivers -----------------------------------------------------------------------------

#[test]
fn river_runs_between_different_edges_or_into_a_waterway() {
    // DBA3.md §3.5.
    let same_edge = check(&bare(vec![river(
        vec![p(5.0, 0.0), p(7.5, 4.0), p(10.0, 0.0)],
        0.5,
    )]));
    assert!(same_edge.contains(&TerrainProblem::RiverEnds { feature: 1 }));
    let dead_end = check(&bare(vec![river(vec![p(0.0, 7.0), p(5.0, 7.0)], 0.5)]));
    assert!(dead_end.contains(&TerrainProblem::RiverEnds { feature: 1 }));
    let sea = TerrainFeature::Waterway(Waterway::uniform(BoardEdge::East, 2.0, 0.0));
    let into_sea = check(&bare(vec![
        sea,
        river(vec![p(0.0, 9.5), p(13.5, 10.5)], 0.5),
    ]));
    assert!(
        !into_sea
            .iter()
            .any(|p| matches!(p, TerrainProblem::RiverEnds { .. })),
        "{into_sea:?}"
    );
}

#[test]
fn river_at_most_1_bw_wide_and_not_too_winding() {
    // DBA3.md §3.5: width ≤ 1 BW; length ≤ 1.5 × the straight distance between its ends.
    let wide = check(&bare(vec![river(vec![p(0.0, 10.0), p(15.0, 10.0)], 1.2)]));
    assert!(wide
        .iter()
        .any(|p| matches!(p, TerrainProblem::RiverTooWide { feature: 1, .. })));
    let winding = check(&bare(vec![river(
        vec![
            p(0.0, 10.0),
            p(2.0, 5.0),
            p(4.0, 10.5),
            p(6.0, 5.0),
            p(8.0, 10.5),
            p(10.0, 5.0),
            p(12.0, 10.5),
            p(15.0, 10.0),
        ],
        0.5,
    )]));
    assert!(winding
        .iter()
        .any(|p| matches!(p, TerrainProblem::RiverTooWinding { feature: 1, .. })));
}

#[test]
fn river_keeps_4_bw_from_other_edges() {
    // DBA3.md §3.5.
    let probs = check(&bare(vec![river(vec![p(0.0, 3.0), p(15.0, 3.5)], 0.5)]));
    assert!(probs.iter().any(|p| matches!(
        p,
        TerrainProblem::RiverNearOtherEdge {
            feature: 1,
            edge: BoardEdge::South,
            ..
        }
    )));
}

#[test]
fn river_may_not_cross_hills_dunes_oasis_or_buas() {
    // DBA3.md §3.5.
    let mut bf = legal_table();
    if let TerrainFeature::River(r) = &mut bf.features[5] {
        r.course = vec![p(0.0, 11.5), p(15.0, 10.0)];
    }
    let probs = check(&bf);
    assert!(probs.contains(&TerrainProblem::RiverCrosses {
        river: 5,
        feature: 0,
        kind: AreaKind::GentleHill
    }));
    assert!(probs.contains(&TerrainProblem::RiverCrosses {
        river: 5,
        feature: 1,
        kind: AreaKind::DifficultHill
    }));
    // Crossing a wood is allowed.
    let through_wood = with(river(vec![p(0.0, 5.5), p(15.0, 4.0)], 0.5));
    assert!(!check(&through_wood)
        .iter()
        .any(|p| matches!(p, TerrainProblem::RiverCrosses { feature: 2, .. })));
}

#[test]
fn river_state_from_one_die() {
    // DBA3.md §3.5: 1-2 paltry, 3-4 slows, 5-6 slows and narrow.
    let states: Vec<_> = (1..=6).map(|d| RiverState::from_die(d).unwrap()).collect();
    assert_eq!(
        states,
        vec![
            RiverState::Paltry,
            RiverState::Paltry,
            RiverState::Slows,
            RiverState::Slows,
            RiverState::SlowsNarrow,
            RiverState::SlowsNarrow
        ]
    );
    assert_eq!(RiverState::from_die(7), Err(TerrainError::BadDie(7)));
    assert_eq!(RiverState::from_die(0), Err(TerrainError::BadDie(0)));
}

// §3.4 waterway ---------------------------------------------------------------------------

fn waterway(edge: BoardEdge, depths: Vec<f64>, beach: f64) -> TerrainFeature {
    TerrainFeature::Waterway(Waterway {
        edge,
        depths,
        beach,
    })
}

#[test]
fn waterway_depth_1_to_4_and_at_most_3_along_half() {
    // DBA3.md §3.4, §17.7.
    let ok = check(&bare(vec![waterway(
        BoardEdge::West,
        vec![4.0, 3.0, 2.0],
        2.0,
    )]));
    assert_eq!(ok, vec![]);
    let deep = check(&bare(vec![waterway(BoardEdge::West, vec![5.0, 3.0], 0.0)]));
    assert!(deep.contains(&TerrainProblem::WaterwayDepth {
        feature: 1,
        depth: 5.0
    }));
    let shallow = check(&bare(vec![waterway(BoardEdge::West, vec![0.5, 1.0], 0.0)]));
    assert!(shallow.contains(&TerrainProblem::WaterwayDepth {
        feature: 1,
        depth: 0.5
    }));
    let mostly_deep = check(&bare(vec![waterway(
        BoardEdge::West,
        vec![4.0, 4.0, 2.0],
        0.0,
    )]));
    assert!(mostly_deep
        .iter()
        .any(|p| matches!(p, TerrainProblem::WaterwayTooDeep { feature: 1, .. })));
    let beach = check(&bare(vec![waterway(BoardEdge::West, vec![2.0, 2.0], 2.5)]));
    assert!(beach.contains(&TerrainProblem::BeachTooWide {
        feature: 1,
        beach: 2.5
    }));
}

#[test]
fn big_battle_waterway_not_on_a_long_side() {
    // DBA3.md §14.2.
    let mut bf = Battlefield::new(Board::big_battle(15.0).unwrap());
    bf.features
        .push(area(AreaKind::Marsh, 15.0, 7.5, 1.6, 1.6, 0.0));
    bf.features
        .push(waterway(BoardEdge::South, vec![2.0, 2.0], 0.0));
    assert!(validate_terrain(&bf, Variant::BigBattle)
        .contains(&TerrainProblem::WaterwayOnLongSide { feature: 1 }));
    bf.features[1] = waterway(BoardEdge::West, vec![2.0, 2.0], 0.0);
    assert_eq!(validate_terrain(&bf, Variant::BigBattle), vec![]);
}

#[test]
fn area_feature_may_not_lie_in_the_waterway() {
    // DBA3.md §3.4: the waterway is impassable water, not land for features.
    let probs = check(&bare(vec![
        waterway(BoardEdge::West, vec![4.0, 3.0, 2.0], 0.0),
        area(AreaKind::Wood, 3.5, 3.0, 1.6, 1.6, 0.0),
    ]));
    assert!(probs.contains(&TerrainProblem::InWaterway { feature: 2 }));
}

// All at once -----------------------------------------------------------------------------

#[test]
fn every_planted_problem_is_reported_at_once() {
    // DBA3.md §3.2-§3.8: the check reports every problem, not just the first.
    let mut bf = legal_table();
    bf.features.push(rect(AreaKind::Wood, 0.5, 5.0, 2.0, 6.0)); // straight, near edge, narrow
    bf.features.push(road(vec![p(1.0, 15.0), p(1.0, 10.0)])); // ends mid-board, misses road
    bf.features
        .push(area(AreaKind::Oasis, 7.5, 7.5, 4.0, 3.5, 0.0)); // too big, too close
    let probs = check(&bf);
    let rules: Vec<&str> = probs.iter().map(|p| p.rule()).collect();
    for want in ["§3.2", "§3.6", "§3.8", "§3.5"] {
        assert!(rules.contains(&want), "{want} missing from {probs:?}");
    }
    assert!(probs.contains(&TerrainProblem::StraightEdges {
        feature: 7,
        kind: AreaKind::Wood
    }));
    assert!(probs.contains(&TerrainProblem::RoadNotEdgeToEdge { feature: 8 }));
    assert!(probs.contains(&TerrainProblem::RoadsDisjoint {
        first: 6,
        second: 8
    }));
    assert!(probs
        .iter()
        .any(|p| matches!(p, TerrainProblem::TooBig { feature: 9, .. })));
    assert!(probs.contains(&TerrainProblem::RiverCrosses {
        river: 5,
        feature: 9,
        kind: AreaKind::Oasis
    }));
}

#[test]
fn degenerate_off_board_and_profileless_features_are_reported() {
    // DBA3.md §3.2 (an area feature has an outline), §1.2 (terrain lies on the board), §3.4 (a
    // waterway needs a shore line).
    let flat = TerrainFeature::Area(AreaFeature::new(
        AreaKind::Rocky,
        dbcore::geometry::Polygon::new(vec![p(2.0, 2.0), p(3.0, 3.0)]),
    ));
    let off = area(AreaKind::Wood, 14.5, 7.5, 1.6, 1.6, 0.0);
    let no_shore = waterway(BoardEdge::North, vec![2.0], 0.0);
    let probs = check(&bare(vec![flat, off, no_shore]));
    assert!(probs.contains(&TerrainProblem::DegenerateOutline { feature: 1 }));
    assert!(probs.contains(&TerrainProblem::OffBoard { feature: 2 }));
    assert!(probs.contains(&TerrainProblem::WaterwayProfile { feature: 3 }));
}

#[test]
fn every_problem_message_starts_with_its_rule() {
    // DBA3.md §3.2–§3.8: every terrain problem names its rule.
    // Errors say which rule forbids what.
    use TerrainProblem::*;
    let all = vec![
        TooBig {
            feature: 0,
            sum: 10.0,
        },
        TooNarrow {
            feature: 0,
            width: 0.5,
        },
        SeveralNarrow {
            features: vec![0, 1],
        },
        GullyTooShort {
            feature: 0,
            length: 2.0,
            width: 1.0,
        },
        TooLong {
            feature: 0,
            length: 5.0,
            width: 2.0,
        },
        StraightEdges {
            feature: 0,
            kind: AreaKind::Wood,
        },
        DegenerateOutline { feature: 0 },
        BadCrest { feature: 0 },
        BadGates {
            feature: 0,
            kind: AreaKind::City,
            gates: 0,
        },
        TooMany {
            feature_type: FeatureType::Wood,
            count: 4,
            max: 3,
        },
        NoDifficultTerrain,
        FeaturesTooClose {
            a: 0,
            b: 1,
            gap: 0.5,
        },
        TooCloseToEdge {
            feature: 0,
            edge: BoardEdge::West,
            gap: 0.5,
        },
        OffBoard { feature: 0 },
        InWaterway { feature: 0 },
        FortificationNotNearCorner {
            feature: 0,
            kind: AreaKind::Fort,
        },
        RoadTooWide {
            feature: 0,
            width: 1.0,
        },
        RoadNotEdgeToEdge { feature: 0 },
        RoadFromWaterwayEdge { feature: 0 },
        RoadsDisjoint {
            first: 0,
            second: 1,
        },
        RiverTooWide {
            feature: 0,
            width: 2.0,
        },
        RiverEnds { feature: 0 },
        RiverTooWinding {
            feature: 0,
            length: 30.0,
            straight: 15.0,
        },
        RiverNearOtherEdge {
            feature: 0,
            edge: BoardEdge::North,
            gap: 3.0,
        },
        RiverCrosses {
            river: 0,
            feature: 1,
            kind: AreaKind::Oasis,
        },
        WaterwayDepth {
            feature: 0,
            depth: 5.0,
        },
        WaterwayTooDeep {
            feature: 0,
            fraction: 0.25,
        },
        BeachTooWide {
            feature: 0,
            beach: 3.0,
        },
        WaterwayProfile { feature: 0 },
        WaterwayOnLongSide { feature: 0 },
    ];
    for p in all {
        assert!(p.to_string().starts_with(p.rule()), "{p:?}: {p}");
    }
}

#[test]
fn a_city_on_a_hill_is_not_a_second_narrow_feature() {
    // DBA3.md §3.2: the City and its hill count as one feature, so a small City on a hill does
    // not use up the one narrow feature allowed.
    let mut hill = AreaFeature::ellipse(AreaKind::GentleHill, p(3.2, 3.2), 2.0, 1.8, 0.0, 32);
    hill.crest = vec![p(2.5, 3.2), p(3.9, 3.2)];
    let mut city = AreaFeature::rectangle(AreaKind::City, p(2.7, 2.7), p(3.7, 3.7));
    city.gates = vec![p(3.2, 2.7)];
    let probs = check(&bare(vec![
        TerrainFeature::Area(hill),
        TerrainFeature::Area(city),
        area(AreaKind::Rocky, 11.0, 11.0, 1.5, 1.2, 0.0),
    ]));
    assert_eq!(probs, vec![]);
}
