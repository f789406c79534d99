//! Refusal messages say why and where in a player's words, with the rule (issue #11): features
//! by their game names and numbers, quarters and edges by number and compass, element lists as
//! ids, never a Rust name.

use crate::battle_moves_support;
use battle_moves_support::{ids, Table, US};

use dbcore::battle::movement::MoveError;
use dbcore::battle::prebattle::Step;
use dbcore::battle::{ElementId, PrebattleError};
use dbcore::battle::{GroupStep, MoveOrder};
use dbcore::battlefield::{BoardEdge, Quarter, SightBlock, Variant};
use dbcore::terrain::RiverState;
use dbcore::terrain::{
    AreaKind, FeatureType, HomeTerrain, HomeTerrainProblem, PlacementProblem, TerrainProblem,
};

/// No message shows a Rust spelling: a variant name in CamelCase or a Debug wrapper.
fn reads_as_english(message: &str) {
    for rust in [
        "ElementId(",
        "Quarter(",
        "GentleHill",
        "DifficultHill",
        "BigBattle",
        "ChooseFeatures",
        "Deployment {",
        "[",
    ] {
        assert!(!message.contains(rust), "{message:?} shows {rust:?}");
    }
}

#[test]
fn s8_1_a_threat_zone_refusal_names_the_enemies_by_id() {
    // DBA3.md §8.1: an element in an enemy's threat zone may only advance to contact, square up
    // or move straight back.
    let e = MoveError::ThreatZone {
        id: ElementId(3),
        enemies: vec![ElementId(104), ElementId(105)],
        full: 2.0,
    };
    let m = e.to_string();
    assert_eq!(
        m,
        "§8.1: element #3 is in the threat zone of enemy #104, #105: it may only advance to \
         contact or square up to one of them, or move straight back its full move (2 BW)"
    );
    reads_as_english(&m);
}

#[test]
fn s9_5_a_shot_blocked_by_terrain_names_the_feature() {
    // DBA3.md §9.5: a BUA, or ½ BW or more of a wood between, blocks sight.
    let deep = SightBlock::DeepFeature {
        feature: 2,
        kind: AreaKind::Wood,
        depth: 0.75,
    };
    assert_eq!(
        deep.to_string(),
        "§9.5: 0.75 BW of the wood (feature 2) lies between (½ BW or more blocks)"
    );
    let fort = SightBlock::Fortification {
        feature: 4,
        kind: AreaKind::City,
    };
    assert_eq!(fort.to_string(), "§9.5: the City (feature 4) lies between");
}

#[test]
fn s3_terrain_problems_name_kinds_edges_and_quarters_as_players_do() {
    // DBA3.md §3.2, §3.5, §3.7, §3.8.
    let cases: Vec<(String, &str)> = vec![
        (
            TerrainProblem::StraightEdges {
                feature: 1,
                kind: AreaKind::GentleHill,
            }
            .to_string(),
            "§3.2: feature 1 (gentle hill) has straight edges; only BUAs and plough may",
        ),
        (
            TerrainProblem::TooCloseToEdge {
                feature: 0,
                edge: BoardEdge::North,
                gap: 0.5,
            }
            .to_string(),
            "§3.8: feature 0 is 0.500 BW from the north edge, less than 1 BW",
        ),
        (
            HomeTerrainProblem::BothOfPair {
                terrain: HomeTerrain::Arable,
                a: FeatureType::Wood,
                b: FeatureType::Rocky,
            }
            .to_string(),
            "§3.7: arable home terrain allows wood or rocky ground as optional features, not both",
        ),
        (
            HomeTerrainProblem::CompulsoryMismatch {
                terrain: HomeTerrain::Steppe,
                chosen: vec![FeatureType::Bua, FeatureType::River],
            }
            .to_string(),
            "§3.7: the compulsory features chosen (BUA, river) match no compulsory option of \
             steppe home terrain",
        ),
        (
            PlacementProblem::NotIntoOneAdjacent {
                quarter: Quarter(1),
                touched: vec![Quarter(1), Quarter(2), Quarter(4)],
            }
            .to_string(),
            "§3.8: the feature must lie in quarter 1 and extend into exactly one adjacent \
             quarter (it touches quarters 1, 2, 4)",
        ),
    ];
    for (got, want) in cases {
        assert_eq!(got, want);
        reads_as_english(&got);
    }
}

#[test]
fn s5_pre_battle_refusals_say_what_is_awaited_and_what_is_allowed() {
    // DBA3.md §5.2, §5.3, §14.3.
    let cases: Vec<(String, &str)> = vec![
        (
            PrebattleError::WrongStep {
                action: "deploying".into(),
                step: Step::ChooseFeatures { defender: 0 },
            }
            .to_string(),
            "§5.3: deploying is not possible now: the pre-battle awaits army 0's choice of \
             features as defender (§3.7)",
        ),
        (
            PrebattleError::BaseEdge {
                edge: BoardEdge::South,
                allowed: vec![BoardEdge::North],
            }
            .to_string(),
            "§5.2: the invader may not take the south edge; it may take the north edge",
        ),
        (
            PrebattleError::NotAllDeployed {
                ids: vec![ElementId(7), ElementId(9)],
            }
            .to_string(),
            "§5.3: elements #7, #9 are not yet deployed",
        ),
        (
            PrebattleError::WrongFeature {
                expected: FeatureType::GentleHill,
                given: FeatureType::Marsh,
            }
            .to_string(),
            "§3.8: the feature to place is the gentle hill, not the marsh",
        ),
    ];
    for (got, want) in cases {
        assert_eq!(got, want);
        reads_as_english(&got);
    }
    // Big Battle and Giant have their pre-battle now (§14.3); DBAix has its own set-up.
    let v = dbcore::battle::prebattle::EntryProblem::Variant {
        variant: Variant::Dbaix,
    }
    .to_string();
    assert!(
        v.starts_with("§14.3: DBAix games have no DBA pre-battle"),
        "{v}"
    );
    reads_as_english(&v);
}

#[test]
fn s6_3_and_s9_2_pips_and_ranges_are_counted_in_english() {
    // DBA3.md §6.3: a move needs its PIPs; §9.2: a target beyond range.
    let pips = dbcore::battle::BattleError::NotEnoughPips { cost: 2, left: 1 }.to_string();
    assert_eq!(pips, "§6.3: the move costs 2 PIPs but only 1 is left");
    let one = dbcore::battle::BattleError::NotEnoughPips { cost: 1, left: 0 }.to_string();
    assert_eq!(one, "§6.3: the move costs 1 PIP but only 0 are left");
    let range = dbcore::battle::EngagementError::OutOfRange {
        shooter: ElementId(3),
        target: ElementId(104),
        distance: 3.25,
        range: 3.0,
    }
    .to_string();
    assert_eq!(
        range,
        "§9.1, §9.2: element #104 is 3.25 BW from element #3, beyond its range of 3 BW"
    );
}

#[test]
fn s3_5_and_s7_8_river_refusals_name_the_river() {
    // DBA3.md §3.5, §7.3 override 1, §7.8: a river that is not paltry slows a move across it to
    // 1 BW, a slow river with a narrow crossing lets only single elements and columns cross, and
    // an element crossing keeps its angle. Each refusal names the river by its feature number,
    // as the too-far refusal names the feature a path enters (the wood is feature 0 here).
    let table = |state: RiverState| {
        let mut t = Table::new();
        t.area(AreaKind::Wood, (10.0, 10.0), (12.0, 12.0));
        t.river(&[(0.0, 5.0), (15.0, 5.0)], 0.5);
        t.river = Some(state);
        t
    };
    let mut t = table(RiverState::Slows);
    t.add(US, 1, "Cv", 5.0, 3.0, 0.0);
    let m = t.go(1, &[(5.0, 6.5, 0.0)]).unwrap_err().to_string();
    assert_eq!(
        m,
        "§7.3: a move of 3.5 BW (measured as §7.2 says) is too far: the path crosses the river \
         (feature 1), which slows every move across it to 1 BW (§3.5, §7.8)"
    );
    reads_as_english(&m);

    let mut t = table(RiverState::SlowsNarrow);
    for (i, x) in [(1, 4.0), (2, 5.0), (3, 6.0)] {
        t.add(US, i, "4Bd", x, 4.0, 0.0);
    }
    let e = t
        .plan(&MoveOrder::Group {
            ids: ids(&[1, 2, 3]),
            steps: vec![GroupStep::Advance { distance: 1.0 }],
        })
        .unwrap_err();
    assert_eq!(e.rule(), "§3.5");
    assert_eq!(
        e.to_string(),
        "§3.5: the river (feature 1) is slow with banks and a narrow crossing: only single \
         elements and columns cross it"
    );
    reads_as_english(&e.to_string());

    // Standing with its front edge in the water, it may not turn while it crosses.
    let mut t = table(RiverState::Slows);
    t.add(US, 1, "4Bd", 5.0, 5.0, 0.0);
    let e = t.go(1, &[(5.0, 5.5, 20.0)]).unwrap_err();
    assert_eq!(e.rule(), "§7.8");
    assert_eq!(
        e.to_string(),
        "§7.8: element #1 is crossing the river (feature 1) and must keep the angle at which it \
         entered until across"
    );
}
