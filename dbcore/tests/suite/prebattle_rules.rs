//! The pre-battle sequence step by step (DBA3.md §3.7, §3.8, §4.6, §5.1–§5.4): every step's
//! refusals name their rule and leave the state exactly as it was.

use dbcore::battle::prebattle::placement::find_placement;
use dbcore::battle::prebattle::{
    element_id, ArmyEntry, DeploymentProblem, EntryElement, Prebattle, PrebattleAction as A,
    PrebattleError as Err, PrebattleEvent as E, PrebattleRequest, PrebattleSetup, Step,
};
use dbcore::battle::validate;
use dbcore::battlefield::{BoardEdge, Quarter, Variant};
use dbcore::geometry::{Point, Polygon, Pose};
use dbcore::terrain::{
    AreaFeature, AreaKind, FeatureType as F, HomeTerrain, HomeTerrainProblem, Road, RoadSurface,
    TerrainFeature, Waterway,
};
use dbcore::{DieScore, ErrorInfo, RulesConfig};

fn d(n: u8) -> DieScore {
    DieScore::new(n).unwrap()
}

fn p(x: f64, y: f64) -> Point {
    Point::new(x, y)
}

const CODES: [&str; 8] = ["Cv", "4Bd", "4Bd", "Ps", "Art", "Mtd-4Bw", "4Bd", "LH"];

fn entry(name: &str, aggression: u8, home: HomeTerrain) -> ArmyEntry {
    ArmyEntry {
        name: name.into(),
        aggression,
        home_terrain: home,
        littoral: false,
        elements: CODES
            .iter()
            .enumerate()
            .map(|(i, c)| EntryElement {
                general: i == 0,
                ..EntryElement::new(c.parse().unwrap())
            })
            .collect(),
        commands: Vec::new(),
    }
}

/// A pre-battle between `armies` of eight elements each: a scenario's own army size (§2.5's 12
/// is not what these tests are about).
fn scenario(armies: Vec<ArmyEntry>) -> PrebattleSetup {
    PrebattleSetup {
        free_army_size: true,
        ..PrebattleSetup::new(armies)
    }
}

fn new(home: HomeTerrain) -> Prebattle {
    Prebattle::new(scenario(vec![
        entry("Defenders", 0, home),
        entry("Invaders", 0, HomeTerrain::Steppe),
    ]))
    .unwrap()
}

/// Army 0 defends (§5.1) with home terrain `home`.
fn defended(home: HomeTerrain) -> Prebattle {
    let mut pre = new(home);
    pre.apply(A::RollAggression {
        dice: vec![d(1), d(6)],
    })
    .unwrap();
    pre
}

/// Apply `a` and expect it refused with `rule`, the state unchanged.
fn refused(pre: &mut Prebattle, a: A, rule: &str) -> Err {
    let before = pre.clone();
    let e = pre.apply(a).expect_err("the action should be refused");
    assert_eq!(e.rule(), Some(rule), "{e}");
    assert_eq!(*pre, before, "a refusal changes nothing");
    e
}

fn wood(x: f64, y: f64) -> TerrainFeature {
    TerrainFeature::Area(AreaFeature::ellipse(
        AreaKind::Wood,
        p(x, y),
        1.5,
        1.5,
        0.0,
        24,
    ))
}

fn hill(x: f64, y: f64) -> TerrainFeature {
    TerrainFeature::Area(AreaFeature::ellipse(
        AreaKind::DifficultHill,
        p(x, y),
        1.5,
        1.5,
        0.0,
        24,
    ))
}

fn bua(kind: AreaKind, lo: Point, hi: Point, gates: Vec<Point>) -> TerrainFeature {
    let mut f = AreaFeature::rectangle(kind, lo, hi);
    f.gates = gates;
    TerrainFeature::Area(f)
}

fn city() -> TerrainFeature {
    bua(
        AreaKind::City,
        p(0.0, 13.0),
        p(2.0, 15.0),
        vec![p(2.0, 14.0), p(1.0, 13.0)],
    )
}

/// Roll `die` for the next feature, then place `f` (or choose `quarter` first on a 5 or 6).
fn place(pre: &mut Prebattle, die: u8, quarter: Option<u8>, f: TerrainFeature) {
    pre.apply(A::RollPlacement { die: d(die) }).unwrap();
    if let Some(q) = quarter {
        pre.apply(A::ChooseQuarter {
            quarter: Quarter(q),
        })
        .unwrap();
    }
    pre.apply(A::PlaceFeature { feature: f }).unwrap();
}

/// Arable defender: a City (or Fort) in quarter 2, a wood in quarter 3, a difficult hill in
/// quarter 1; the invader takes the north edge, the defender the south.
fn laid_out(stronghold: TerrainFeature) -> Prebattle {
    let mut pre = defended(HomeTerrain::Arable);
    pre.apply(A::ChooseFeatures {
        compulsory: vec![F::Bua],
        optional: vec![F::Wood, F::DifficultHill],
    })
    .unwrap();
    place(&mut pre, 2, None, stronghold);
    place(&mut pre, 3, None, wood(11.25, 11.25));
    place(&mut pre, 1, None, hill(5.5, 3.5));
    pre.apply(A::ChooseBaseEdge {
        edge: BoardEdge::North,
    })
    .unwrap();
    pre
}

/// As [`laid_out`] with both camps pitched: the defender has a City and goes without.
fn deploying() -> Prebattle {
    let mut pre = laid_out(city());
    pre.apply(A::NoCamp).unwrap();
    pre.apply(A::PlaceCamp {
        outline: rect(6.5, 14.0, 8.5, 15.0),
        camp_followers: true,
    })
    .unwrap();
    pre
}

fn rect(x0: f64, y0: f64, x1: f64, y1: f64) -> Polygon {
    Polygon::new(vec![p(x0, y0), p(x1, y0), p(x1, y1), p(x0, y1)])
}

fn deploy(id: u32, x: f64, y: f64, facing: f64) -> A {
    A::Deploy {
        id: dbcore::battle::ElementId(id),
        pose: Pose::new(x, y, facing),
    }
}

/// The defender's line along the south edge, 1.5 BW in, and the invader's along the north edge.
const DEFENDER_X: [f64; 8] = [3.5, 4.5, 5.5, 2.5, 6.5, 7.5, 8.5, 12.5];
const INVADER_X: [f64; 8] = [11.5, 5.5, 6.5, 12.5, 7.5, 8.5, 9.5, 10.5];

fn deploy_line(pre: &mut Prebattle, army: usize, skip: Option<u32>) {
    for i in 1..=CODES.len() as u32 {
        if Some(i) == skip {
            continue;
        }
        let a = if army == 0 {
            deploy(i, DEFENDER_X[i as usize - 1], 1.5, 0.0)
        } else {
            deploy(100 + i, INVADER_X[i as usize - 1], 12.5, 180.0)
        };
        pre.apply(a).unwrap();
    }
}

fn problems(e: Err) -> Vec<DeploymentProblem> {
    match e {
        Err::Deployment { problems } => problems,
        other => panic!("expected deployment problems, got {other}"),
    }
}

// ---------------------------------------------------------------------------------------------
// §5.1 aggression
// ---------------------------------------------------------------------------------------------

#[test]
fn the_lower_aggression_total_defends() {
    // DBA3.md §5.1: die + aggression; the lower total defends.
    let mut pre = Prebattle::new(scenario(vec![
        entry("Bold", 4, HomeTerrain::Arable),
        entry("Meek", 0, HomeTerrain::Forest),
    ]))
    .unwrap();
    let ev = pre
        .apply(A::RollAggression {
            dice: vec![d(2), d(5)],
        })
        .unwrap();
    assert_eq!(
        ev,
        vec![
            E::AggressionRolled {
                dice: vec![d(2), d(5)],
                totals: vec![6, 5]
            },
            E::RolesDecided {
                defender: 1,
                invader: 0
            }
        ]
    );
    assert_eq!(pre.step(), Step::ChooseFeatures { defender: 1 });
    assert_eq!(
        pre.awaiting(),
        Some(PrebattleRequest::Features {
            army: 1,
            home_terrain: HomeTerrain::Forest
        })
    );
}

#[test]
fn equal_aggression_totals_roll_again() {
    // DBA3.md §5.1: a tie re-rolls.
    let mut pre = new(HomeTerrain::Arable);
    let ev = pre
        .apply(A::RollAggression {
            dice: vec![d(3), d(3)],
        })
        .unwrap();
    assert_eq!(ev.last(), Some(&E::AggressionTied));
    assert_eq!(pre.step(), Step::Aggression);
    assert_eq!(pre.defender(), None);
}

#[test]
fn aggression_needs_one_die_per_army_and_comes_first() {
    // DBA3.md §5.1, §5.3.
    let mut pre = new(HomeTerrain::Arable);
    refused(&mut pre, A::RollAggression { dice: vec![d(3)] }, "§5.1");
    refused(&mut pre, A::RollPlacement { die: d(3) }, "§5.3");
}

#[test]
fn entering_armies_are_checked_all_at_once() {
    // DBA3.md §5.1, §16.2: aggression 0 to 4; §2.5: one general.
    let mut bad = entry("Wild", 5, HomeTerrain::Arable);
    bad.elements[0].general = false;
    let e = Prebattle::new(scenario(vec![bad, entry("Ok", 0, HomeTerrain::Hilly)])).unwrap_err();
    match e {
        Err::Entries { problems } => assert_eq!(problems.len(), 2, "{problems:?}"),
        other => panic!("{other}"),
    }
    let mut s = scenario(vec![entry("A", 0, HomeTerrain::Dry)]);
    s.variant = Variant::Standard;
    assert!(Prebattle::new(s).is_err());
}

// ---------------------------------------------------------------------------------------------
// §3.7 choosing features
// ---------------------------------------------------------------------------------------------

fn choose_refused(
    home: HomeTerrain,
    compulsory: Vec<F>,
    optional: Vec<F>,
) -> Vec<HomeTerrainProblem> {
    let mut pre = defended(home);
    match refused(
        &mut pre,
        A::ChooseFeatures {
            compulsory,
            optional,
        },
        "§3.7",
    ) {
        Err::HomeTerrain { problems } => problems,
        other => panic!("{other}"),
    }
}

#[test]
fn compulsory_and_optional_counts_are_limited() {
    // DBA3.md §3.7: 1-2 compulsory, 2-3 optional.
    let p = choose_refused(HomeTerrain::Hilly, vec![], vec![F::Wood, F::Road]);
    assert!(p
        .iter()
        .any(|p| matches!(p, HomeTerrainProblem::CompulsoryCount { count: 0, .. })));
    let p = choose_refused(
        HomeTerrain::Hilly,
        vec![F::DifficultHill, F::DifficultHill, F::DifficultHill],
        vec![F::Wood, F::Road],
    );
    assert!(p
        .iter()
        .any(|p| matches!(p, HomeTerrainProblem::CompulsoryCount { count: 3, .. })));
    let p = choose_refused(HomeTerrain::Hilly, vec![F::DifficultHill], vec![F::Wood]);
    assert!(p
        .iter()
        .any(|p| matches!(p, HomeTerrainProblem::OptionalCount { count: 1, .. })));
    let p = choose_refused(
        HomeTerrain::Hilly,
        vec![F::DifficultHill],
        vec![F::Wood, F::Wood, F::Road, F::Road],
    );
    assert!(p
        .iter()
        .any(|p| matches!(p, HomeTerrainProblem::OptionalCount { count: 4, .. })));
}

#[test]
fn whole_table_maxima_of_each_type() {
    // DBA3.md §3.7: at most 1 each of Waterway, River, Oasis, Gully, BUA; 2 Roads; 3 of others.
    let too_many = |home, c: Vec<F>, o: Vec<F>, t: F| {
        let p = choose_refused(home, c, o);
        assert!(
            p.iter()
                .any(|p| matches!(p, HomeTerrainProblem::TooMany { feature, .. } if *feature == t)),
            "{t:?}: {p:?}"
        );
    };
    too_many(
        HomeTerrain::Arable,
        vec![F::Bua],
        vec![F::Waterway, F::Waterway],
        F::Waterway,
    );
    too_many(
        HomeTerrain::Arable,
        vec![F::Bua],
        vec![F::River, F::River],
        F::River,
    );
    too_many(
        HomeTerrain::Dry,
        vec![F::Rocky],
        vec![F::Oasis, F::Oasis],
        F::Oasis,
    );
    too_many(
        HomeTerrain::Steppe,
        vec![F::GentleHill],
        vec![F::Gully, F::Gully],
        F::Gully,
    );
    too_many(
        HomeTerrain::Forest,
        vec![F::Wood],
        vec![F::Bua, F::Bua],
        F::Bua,
    );
    too_many(
        HomeTerrain::Arable,
        vec![F::Bua],
        vec![F::Road, F::Road, F::Road],
        F::Road,
    );
    too_many(
        HomeTerrain::Hilly,
        vec![F::DifficultHill, F::DifficultHill],
        vec![F::DifficultHill, F::DifficultHill],
        F::DifficultHill,
    );
}

#[test]
fn only_the_home_terrains_optional_features() {
    // DBA3.md §3.7: Littoral allows Difficult hills or Marsh, not both; Hilly has no Marsh.
    let p = choose_refused(
        HomeTerrain::Littoral,
        vec![F::Waterway],
        vec![F::DifficultHill, F::Marsh],
    );
    assert!(p
        .iter()
        .any(|p| matches!(p, HomeTerrainProblem::BothOfPair { .. })));
    let p = choose_refused(
        HomeTerrain::Hilly,
        vec![F::DifficultHill],
        vec![F::Marsh, F::Wood],
    );
    assert!(p.iter().any(|p| matches!(
        p,
        HomeTerrainProblem::NotOptional {
            feature: F::Marsh,
            ..
        }
    )));
}

#[test]
fn the_table_needs_a_difficult_feature() {
    // DBA3.md §3.7: at least one bad-going, rough-going, river or waterway feature.
    let mut pre = defended(HomeTerrain::Arable);
    let e = refused(
        &mut pre,
        A::ChooseFeatures {
            compulsory: vec![F::Plough, F::Plough],
            optional: vec![F::Road, F::GentleHill],
        },
        "§3.7",
    );
    assert!(matches!(e, Err::NoDifficultTerrain { .. }));
}

#[test]
fn the_waterway_is_placed_first() {
    // DBA3.md §3.8 item 2: waterway first, then compulsory, then optional.
    let mut pre = defended(HomeTerrain::Arable);
    let ev = pre
        .apply(A::ChooseFeatures {
            compulsory: vec![F::Plough, F::Plough],
            optional: vec![F::Wood, F::Waterway],
        })
        .unwrap();
    assert_eq!(
        ev,
        vec![E::FeaturesChosen {
            order: vec![F::Waterway, F::Plough, F::Plough, F::Wood]
        }]
    );
}

// ---------------------------------------------------------------------------------------------
// §3.8 placing features
// ---------------------------------------------------------------------------------------------

fn hilly() -> Prebattle {
    let mut pre = defended(HomeTerrain::Hilly);
    pre.apply(A::ChooseFeatures {
        compulsory: vec![F::DifficultHill],
        optional: vec![F::Wood, F::Wood],
    })
    .unwrap();
    pre
}

#[test]
fn placement_die_faces_one_to_four_name_the_quarter() {
    // DBA3.md §3.8 item 3: 1-4 → that quarter.
    for face in 1..=4 {
        let mut pre = hilly();
        let ev = pre.apply(A::RollPlacement { die: d(face) }).unwrap();
        assert_eq!(
            ev,
            vec![E::PlacementRolled {
                feature: F::DifficultHill,
                die: d(face),
                quarter: Some(Quarter(face)),
                chooser: None
            }]
        );
        assert_eq!(
            pre.step(),
            Step::PlaceFeature {
                feature: 0,
                quarter: Quarter(face)
            }
        );
    }
}

#[test]
fn placement_die_five_lets_the_defender_choose_and_six_the_invader() {
    // DBA3.md §3.8 item 3: 5 → defender's choice, 6 → invader's choice; the defender places.
    for (face, chooser) in [(5, 0), (6, 1)] {
        let mut pre = hilly();
        pre.apply(A::RollPlacement { die: d(face) }).unwrap();
        assert_eq!(
            pre.awaiting(),
            Some(PrebattleRequest::Quarter {
                army: chooser,
                feature: F::DifficultHill
            })
        );
        refused(
            &mut pre,
            A::ChooseQuarter {
                quarter: Quarter(0),
            },
            "§3.8",
        );
        refused(
            &mut pre,
            A::ChooseQuarter {
                quarter: Quarter(5),
            },
            "§3.8",
        );
        pre.apply(A::ChooseQuarter {
            quarter: Quarter(3),
        })
        .unwrap();
        assert_eq!(
            pre.awaiting(),
            Some(PrebattleRequest::Placement {
                army: 0,
                feature: F::DifficultHill,
                quarter: Quarter(3)
            })
        );
    }
}

#[test]
fn a_feature_must_lie_in_its_quarter() {
    // DBA3.md §3.8 item 4: a difficult hill wholly in the diced quarter.
    let mut pre = hilly();
    pre.apply(A::RollPlacement { die: d(1) }).unwrap();
    refused(
        &mut pre,
        A::PlaceFeature {
            feature: hill(7.5, 3.5),
        },
        "§3.8",
    );
    refused(
        &mut pre,
        A::PlaceFeature {
            feature: hill(11.0, 3.5),
        },
        "§3.8",
    );
    refused(
        &mut pre,
        A::PlaceFeature {
            feature: wood(3.5, 3.5),
        },
        "§3.8",
    );
    let ev = pre
        .apply(A::PlaceFeature {
            feature: hill(3.5, 3.5),
        })
        .unwrap();
    assert!(matches!(ev[0], E::FeaturePlaced { index: 0, .. }));
    assert_eq!(pre.battlefield().features.len(), 1);
}

#[test]
fn gaps_between_features_and_from_the_edges() {
    // DBA3.md §3.8 item 6: 1 BW between area features and from the board edges.
    let mut pre = hilly();
    place(&mut pre, 1, None, hill(3.75, 5.75));
    pre.apply(A::RollPlacement { die: d(2) }).unwrap();
    // 0.5 BW from the west edge.
    let e = refused(
        &mut pre,
        A::PlaceFeature {
            feature: wood(2.0, 11.0),
        },
        "§3.8",
    );
    assert!(e.to_string().contains("edge"), "{e}");
    // 0.5 BW from the hill, straight north of it.
    let e = refused(
        &mut pre,
        A::PlaceFeature {
            feature: TerrainFeature::Area(AreaFeature::ellipse(
                AreaKind::Wood,
                p(3.75, 9.25),
                1.5,
                1.5,
                0.0,
                24,
            )),
        },
        "§3.8",
    );
    assert!(e.to_string().contains("apart"), "{e}");
    pre.apply(A::PlaceFeature {
        feature: wood(3.75, 11.25),
    })
    .unwrap();
}

#[test]
fn plough_must_reach_into_one_adjacent_quarter() {
    // DBA3.md §3.8 item 4: Plough (and linear features) extend into exactly one adjacent quarter.
    let mut pre = defended(HomeTerrain::Arable);
    pre.apply(A::ChooseFeatures {
        compulsory: vec![F::Plough, F::Plough],
        optional: vec![F::Wood, F::Road],
    })
    .unwrap();
    pre.apply(A::RollPlacement { die: d(1) }).unwrap();
    let plough = |x0, y0, x1, y1| {
        TerrainFeature::Area(AreaFeature::rectangle(
            AreaKind::Plough,
            p(x0, y0),
            p(x1, y1),
        ))
    };
    refused(
        &mut pre,
        A::PlaceFeature {
            feature: plough(2.0, 2.0, 5.0, 5.0),
        },
        "§3.8",
    );
    pre.apply(A::PlaceFeature {
        feature: plough(5.5, 2.0, 8.5, 5.0),
    })
    .unwrap();
}

#[test]
fn city_or_fort_near_a_corner() {
    // DBA3.md §3.8 item 7: wholly within 6 BW of two battlefield edges.
    let mut pre = defended(HomeTerrain::Arable);
    pre.apply(A::ChooseFeatures {
        compulsory: vec![F::Bua],
        optional: vec![F::Wood, F::Road],
    })
    .unwrap();
    pre.apply(A::RollPlacement { die: d(2) }).unwrap();
    refused(
        &mut pre,
        A::PlaceFeature {
            feature: bua(AreaKind::City, p(3.0, 8.0), p(5.0, 10.0), vec![p(5.0, 9.0)]),
        },
        "§3.8",
    );
    refused(
        &mut pre,
        A::PlaceFeature {
            feature: wood(3.5, 11.0),
        },
        "§3.8",
    );
    pre.apply(A::PlaceFeature { feature: city() }).unwrap();
}

#[test]
fn a_feature_that_cannot_be_placed_is_discarded() {
    // DBA3.md §3.8 item 5: a wood filling quarter 1 leaves no room for another one there.
    let mut pre = hilly();
    place(&mut pre, 1, None, hill(3.75, 3.75));
    pre.apply(A::RollPlacement { die: d(4) }).unwrap();
    // The wood fits in quarter 4: discarding it is refused.
    let e = refused(&mut pre, A::DiscardFeature, "§3.8");
    assert!(matches!(e, Err::CanBePlaced { .. }));
    pre.apply(A::PlaceFeature {
        feature: wood(11.25, 3.75),
    })
    .unwrap();
    pre.apply(A::RollPlacement { die: d(1) }).unwrap();
    assert!(find_placement(
        pre.battlefield(),
        F::Wood,
        AreaKind::Hamlet,
        Quarter(1),
        Variant::Standard,
        0
    )
    .is_none());
    let ev = pre.apply(A::DiscardFeature).unwrap();
    assert_eq!(
        ev,
        vec![E::FeatureDiscarded {
            feature: F::Wood,
            quarter: Quarter(1)
        }]
    );
    assert_eq!(pre.battlefield().features.len(), 2);
    assert!(matches!(pre.step(), Step::BaseEdge { invader: 1 }));
}

#[test]
fn a_discard_that_leaves_no_difficult_feature_is_placed_again() {
    // DBA3.md §3.7 with §3.8 item 5 (our reading): the table still needs a difficult feature.
    let mut pre = defended(HomeTerrain::Steppe);
    pre.apply(A::ChooseFeatures {
        compulsory: vec![F::GentleHill],
        optional: vec![F::Rocky, F::Bua],
    })
    .unwrap();
    let gentle = TerrainFeature::Area(AreaFeature::ellipse(
        AreaKind::GentleHill,
        p(3.75, 3.75),
        1.6,
        1.6,
        0.0,
        24,
    ));
    place(&mut pre, 1, None, gentle);
    pre.apply(A::RollPlacement { die: d(1) }).unwrap();
    pre.apply(A::DiscardFeature).unwrap();
    pre.apply(A::RollPlacement { die: d(4) }).unwrap();
    let ev = pre
        .apply(A::PlaceFeature {
            feature: bua(
                AreaKind::City,
                p(13.0, 0.0),
                p(15.0, 2.0),
                vec![p(13.0, 1.0)],
            ),
        })
        .unwrap();
    assert_eq!(ev.last(), Some(&E::PlacementRepeated { feature: F::Rocky }));
    assert_eq!(pre.step(), Step::ChooseQuarter { feature: 3, by: 0 });
}

// ---------------------------------------------------------------------------------------------
// §5.2 base edges
// ---------------------------------------------------------------------------------------------

#[test]
fn with_a_road_the_invader_takes_an_edge_it_reaches() {
    // DBA3.md §5.2, §17.56.
    let mut pre = defended(HomeTerrain::Hilly);
    pre.apply(A::ChooseFeatures {
        compulsory: vec![F::DifficultHill],
        optional: vec![F::Wood, F::Road],
    })
    .unwrap();
    place(&mut pre, 1, None, hill(3.75, 3.75));
    place(&mut pre, 3, None, wood(11.25, 11.25));
    let road = TerrainFeature::Road(Road {
        path: vec![p(10.0, 0.0), p(10.0, 15.0)],
        surface: RoadSurface::Track,
        width: 0.5,
    });
    place(&mut pre, 4, None, road);
    assert_eq!(
        pre.allowed_base_edges(),
        vec![BoardEdge::South, BoardEdge::North]
    );
    refused(
        &mut pre,
        A::ChooseBaseEdge {
            edge: BoardEdge::West,
        },
        "§5.2",
    );
    let ev = pre
        .apply(A::ChooseBaseEdge {
            edge: BoardEdge::South,
        })
        .unwrap();
    assert_eq!(
        ev,
        vec![E::BaseEdgesChosen {
            invader: BoardEdge::South,
            defender: BoardEdge::North
        }]
    );
}

#[test]
fn the_invader_never_takes_the_edge_facing_the_waterway() {
    // DBA3.md §5.2, §17.53: the waterway's own edge is allowed, the opposite one is not.
    let mut pre = defended(HomeTerrain::Littoral);
    pre.apply(A::ChooseFeatures {
        compulsory: vec![F::Waterway],
        optional: vec![F::Marsh, F::Wood],
    })
    .unwrap();
    place(
        &mut pre,
        1,
        None,
        TerrainFeature::Waterway(Waterway::uniform(BoardEdge::West, 2.0, 0.0)),
    );
    place(
        &mut pre,
        3,
        None,
        TerrainFeature::Area(AreaFeature::ellipse(
            AreaKind::Marsh,
            p(11.25, 11.25),
            1.5,
            1.5,
            0.0,
            24,
        )),
    );
    place(&mut pre, 4, None, wood(11.25, 3.75));
    refused(
        &mut pre,
        A::ChooseBaseEdge {
            edge: BoardEdge::East,
        },
        "§5.2",
    );
    pre.apply(A::ChooseBaseEdge {
        edge: BoardEdge::West,
    })
    .unwrap();
    assert_eq!(pre.base_edge(0), Some(BoardEdge::East));
}

// ---------------------------------------------------------------------------------------------
// §4.6 camps
// ---------------------------------------------------------------------------------------------

#[test]
fn a_camp_is_compulsory_without_a_city_or_war_wagons() {
    // DBA3.md §4.6: compulsory unless the army has a City or more than 2 WWg.
    let mut pre = laid_out(bua(AreaKind::Hamlet, p(0.0, 13.0), p(2.0, 15.0), vec![]));
    assert_eq!(
        pre.awaiting(),
        Some(PrebattleRequest::Camp {
            army: 0,
            command: None,
            compulsory: true
        })
    );
    refused(&mut pre, A::NoCamp, "§4.6");
    let mut with_city = laid_out(city());
    assert!(!with_city.camp_compulsory(0));
    assert!(with_city.camp_compulsory(1));
    with_city.apply(A::NoCamp).unwrap();
    refused(&mut with_city, A::NoCamp, "§4.6");
}

#[test]
fn camp_size_and_place() {
    // DBA3.md §4.6: at least 1 × ½ BW, length + width ≤ 4, on the army's rear edge, good going.
    let mut pre = laid_out(city());
    pre.apply(A::NoCamp).unwrap();
    // The invader's base edge is the north one.
    for outline in [
        rect(7.0, 14.7, 7.8, 15.0),   // too small
        rect(6.0, 13.5, 9.0, 15.0),   // 3 + 1.5 > 4
        rect(6.5, 13.0, 8.5, 14.0),   // not on the rear edge
        rect(10.5, 10.5, 12.5, 11.5), // in the wood, off the edge
    ] {
        refused(
            &mut pre,
            A::PlaceCamp {
                outline,
                camp_followers: false,
            },
            "§4.6",
        );
    }
    pre.apply(A::PlaceCamp {
        outline: rect(6.5, 14.0, 8.5, 15.0),
        camp_followers: true,
    })
    .unwrap();
    assert!(matches!(pre.step(), Step::Deployment { army: 0 }));
}

#[test]
fn s4_5_s4_6_an_edifice_on_the_rear_edge_may_be_declared_the_camp() {
    // DBA3.md §4.5, §4.6: an Edifice so placed may be declared the camp (its outline given as the
    // camp's), although it is bad going; any other camp overlapping it is refused.
    let edifice = bua(AreaKind::Edifice, p(0.0, 13.5), p(2.0, 15.0), vec![]);
    let mut pre = laid_out(edifice);
    pre.apply(A::PlaceCamp {
        outline: rect(6.5, 0.0, 8.5, 1.0),
        camp_followers: false,
    })
    .unwrap();
    let Some(TerrainFeature::Area(a)) = pre.battlefield().features.first().cloned() else {
        panic!("the Edifice is feature 0");
    };
    assert_eq!(a.kind, AreaKind::Edifice);
    refused(
        &mut pre,
        A::PlaceCamp {
            outline: rect(0.5, 14.0, 2.5, 15.0),
            camp_followers: false,
        },
        "§4.6",
    );
    pre.apply(A::PlaceCamp {
        outline: a.outline.clone(),
        camp_followers: true,
    })
    .unwrap();
    assert_eq!(
        dbcore::battle::edifice_camp(pre.battlefield(), pre.camp(1).unwrap()),
        Some(0)
    );
    assert_eq!(
        dbcore::battle::edifice_camp(pre.battlefield(), pre.camp(0).unwrap()),
        None
    );
}

/// A Littoral defender (army 0, littoral as `littoral` says) on a table with a waterway along
/// the west edge; the invader takes the west edge, and both camps are pitched.
fn littoral_deploying(littoral: bool) -> Prebattle {
    let mut defender = entry("Sea raiders", 0, HomeTerrain::Littoral);
    defender.littoral = littoral;
    let mut pre = Prebattle::new(scenario(vec![
        defender,
        entry("Invaders", 0, HomeTerrain::Steppe),
    ]))
    .unwrap();
    pre.apply(A::RollAggression {
        dice: vec![d(1), d(6)],
    })
    .unwrap();
    pre.apply(A::ChooseFeatures {
        compulsory: vec![F::Waterway],
        optional: vec![F::Marsh, F::Wood],
    })
    .unwrap();
    place(
        &mut pre,
        1,
        None,
        TerrainFeature::Waterway(Waterway::uniform(BoardEdge::West, 2.0, 0.0)),
    );
    place(
        &mut pre,
        3,
        None,
        TerrainFeature::Area(AreaFeature::ellipse(
            AreaKind::Marsh,
            p(11.25, 11.25),
            1.5,
            1.5,
            0.0,
            24,
        )),
    );
    place(&mut pre, 4, None, wood(11.25, 3.75));
    pre.apply(A::ChooseBaseEdge {
        edge: BoardEdge::West,
    })
    .unwrap();
    pre.apply(A::PlaceCamp {
        outline: rect(14.0, 6.5, 15.0, 8.5),
        camp_followers: true,
    })
    .unwrap();
    pre.apply(A::PlaceCamp {
        outline: rect(2.0, 6.5, 3.0, 8.5),
        camp_followers: true,
    })
    .unwrap();
    assert!(matches!(pre.step(), Step::Deployment { army: 0 }));
    pre
}

#[test]
fn s5_5_a_littoral_army_holds_back_two_or_three_elements_but_no_el_wwg_or_art() {
    // DBA3.md §5.5: with a waterway on the table, a Littoral army may hold back 2-3 elements,
    // none El, WWg or Art.
    let id = |i: usize| element_id(0, i);
    let mut pre = littoral_deploying(true);
    // CODES: 0 Cv, 1 4Bd, 2 4Bd, 3 Ps, 4 Art, 5 Mtd-4Bw, 6 4Bd, 7 LH.
    refused(&mut pre, A::HoldBack { id: id(4) }, "§5.5");
    pre.apply(A::HoldBack { id: id(3) }).unwrap();
    assert_eq!(pre.held_back_by(0), 1);
    refused(&mut pre, A::HoldBack { id: id(3) }, "§5.4");
    // One alone is no landing.
    refused(&mut pre, A::EndDeployment, "§5.5");
    pre.apply(A::HoldBack { id: id(1) }).unwrap();
    pre.apply(A::HoldBack { id: id(2) }).unwrap();
    refused(&mut pre, A::HoldBack { id: id(6) }, "§5.5");
    // The rest must still deploy; the held back are not asked for.
    let e = refused(&mut pre, A::EndDeployment, "§5.3");
    assert!(
        matches!(e, Err::NotAllDeployed { ids } if !ids.contains(&id(3)) && ids.contains(&id(0)))
    );
    // Held back, an element cannot also deploy.
    refused(&mut pre, deploy(id(3).0, 12.0, 7.5, 270.0), "§5.4");
}

#[test]
fn s5_5_only_an_army_whose_list_gives_littoral_may_hold_back() {
    // DBA3.md §5.5: the army list must give LITTORAL home terrain.
    let mut pre = littoral_deploying(false);
    refused(
        &mut pre,
        A::HoldBack {
            id: element_id(0, 3),
        },
        "§5.5",
    );
}

// ---------------------------------------------------------------------------------------------
// §5.4 deployment
// ---------------------------------------------------------------------------------------------

#[test]
fn three_bw_from_the_centre_line() {
    // DBA3.md §5.4: at least 3 BW from the centre line, on the army's own side.
    let mut pre = deploying();
    let e = refused(&mut pre, deploy(2, 7.5, 4.6, 0.0), "§5.4");
    assert!(matches!(
        problems(e)[..],
        [DeploymentProblem::CentreLine { .. }]
    ));
    pre.apply(deploy(2, 7.5, 4.5, 0.0)).unwrap();
}

#[test]
fn side_edge_distances_by_type() {
    // DBA3.md §5.4, §17.45: Cv, LH, Ax, Ps 2 BW; others (mounted infantry too) 4 BW.
    let mut pre = deploying();
    let e = refused(&mut pre, deploy(4, 2.4, 4.0, 0.0), "§5.4");
    assert!(matches!(problems(e)[..], [DeploymentProblem::SideEdge { limit, .. }] if limit == 2.0));
    pre.apply(deploy(4, 2.5, 4.0, 0.0)).unwrap();
    let e = refused(&mut pre, deploy(2, 10.6, 4.0, 0.0), "§5.4");
    assert!(matches!(problems(e)[..], [DeploymentProblem::SideEdge { limit, .. }] if limit == 4.0));
    pre.apply(deploy(2, 10.5, 4.0, 0.0)).unwrap();
    let e = refused(&mut pre, deploy(6, 12.5, 2.0, 0.0), "§5.4");
    assert!(matches!(problems(e)[..], [DeploymentProblem::SideEdge { limit, .. }] if limit == 4.0));
    // LH at 2 BW.
    pre.apply(deploy(8, 12.5, 2.0, 0.0)).unwrap();
}

#[test]
fn artillery_not_off_road_in_bad_going() {
    // DBA3.md §5.4: Art and WWg may not deploy off-road in bad going (the difficult hill).
    let mut pre = deploying();
    let e = refused(&mut pre, deploy(5, 5.5, 4.0, 0.0), "§5.4");
    assert!(matches!(
        problems(e)[..],
        [DeploymentProblem::BadGoing { .. }]
    ));
    // Blades may.
    pre.apply(deploy(2, 5.5, 4.0, 0.0)).unwrap();
}

#[test]
fn overlapping_and_off_table_deployments_are_refused() {
    // DBA3.md §1.2; elements never overlap.
    let mut pre = deploying();
    pre.apply(deploy(2, 7.5, 4.0, 0.0)).unwrap();
    let e = refused(&mut pre, deploy(3, 7.9, 4.0, 0.0), "§5.4");
    assert!(matches!(
        problems(e)[..],
        [DeploymentProblem::Overlap { .. }]
    ));
    refused(&mut pre, deploy(3, 7.5, -1.0, 0.0), "§1.2");
    refused(&mut pre, deploy(2, 8.5, 4.0, 0.0), "§5.4");
    let before = pre.clone();
    assert!(matches!(
        pre.apply(deploy(999, 8.5, 4.0, 0.0)),
        Err(Err::UnknownElement { .. })
    ));
    assert_eq!(pre, before);
}

#[test]
fn the_defenders_city_takes_one_foot_garrison() {
    // DBA3.md §4.2, §5.4: one non-allied foot element as garrison, wholly inside.
    let mut pre = deploying();
    let e = refused(&mut pre, deploy(1, 1.0, 14.2, 0.0), "§5.4");
    assert!(matches!(
        problems(e)[..],
        [DeploymentProblem::NotAGarrison { .. }]
    ));
    let e = refused(&mut pre, deploy(2, 2.0, 14.2, 0.0), "§5.4");
    assert!(problems(e)
        .iter()
        .any(|p| matches!(p, DeploymentProblem::InWalls { .. })));
    let ev = pre.apply(deploy(2, 1.0, 14.2, 0.0)).unwrap();
    assert!(matches!(
        ev[..],
        [E::ElementDeployed {
            garrison: Some(0),
            ..
        }]
    ));
    let e = refused(&mut pre, deploy(3, 1.0, 14.2, 90.0), "§5.4");
    assert!(problems(e)
        .iter()
        .any(|p| matches!(p, DeploymentProblem::Garrisoned { .. })));
}

#[test]
fn the_invader_keeps_three_bw_from_the_enemy_city() {
    // DBA3.md §5.4: at least 3 BW from any enemy City or Fort.
    let mut pre = deploying();
    deploy_line(&mut pre, 0, None);
    pre.apply(A::EndDeployment).unwrap();
    assert!(matches!(pre.step(), Step::Deployment { army: 1 }));
    let e = refused(&mut pre, deploy(102, 5.4, 13.5, 180.0), "§5.4");
    assert!(matches!(
        problems(e)[..],
        [DeploymentProblem::EnemyStronghold { .. }]
    ));
    pre.apply(deploy(102, 5.5, 13.5, 180.0)).unwrap();
    let e = refused(&mut pre, deploy(103, 1.0, 14.2, 180.0), "§5.4");
    assert!(matches!(
        problems(e)[..],
        [DeploymentProblem::NotAGarrison { .. }]
    ));
}

#[test]
fn a_fort_must_be_garrisoned_and_every_element_deployed() {
    // DBA3.md §4.3, §5.3, §5.4.
    let fort = bua(
        AreaKind::Fort,
        p(0.0, 13.0),
        p(2.0, 15.0),
        vec![p(2.0, 14.0)],
    );
    let mut pre = laid_out(fort);
    pre.apply(A::PlaceCamp {
        outline: rect(6.5, 0.0, 8.5, 1.0),
        camp_followers: false,
    })
    .unwrap();
    pre.apply(A::PlaceCamp {
        outline: rect(6.5, 14.0, 8.5, 15.0),
        camp_followers: false,
    })
    .unwrap();
    deploy_line(&mut pre, 0, Some(3));
    let e = refused(&mut pre, A::EndDeployment, "§5.3");
    assert!(matches!(e, Err::NotAllDeployed { ref ids } if ids == &[element_id(0, 2)]));
    pre.apply(deploy(3, 9.5, 1.5, 0.0)).unwrap();
    refused(&mut pre, A::EndDeployment, "§4.3");
}

#[test]
fn the_finished_prebattle_starts_the_battle_with_the_defender() {
    // DBA3.md §5.3: the defender has the first bound; the City is the defender's (our reading).
    let mut pre = deploying();
    deploy_line(&mut pre, 0, None);
    pre.apply(A::EndDeployment).unwrap();
    deploy_line(&mut pre, 1, None);
    assert_eq!(pre.battle_setup(), None);
    let ev = pre.apply(A::EndDeployment).unwrap();
    assert_eq!(ev.last(), Some(&E::BattleReady { first: 0 }));
    assert_eq!(pre.awaiting(), None);
    let s = pre.battle_setup().unwrap();
    assert_eq!(s.first, 0);
    assert_eq!(s.city_owner, Some(0));
    assert_eq!(s.armies[0].base_edge, BoardEdge::South);
    assert!(s.armies[1].camp_followers);
    assert_eq!(validate(&s), vec![]);
    assert_eq!(s.config, RulesConfig::default());
    // The record replays to the same state.
    let (again, _) = Prebattle::replay(&pre.record()).unwrap();
    assert_eq!(again, pre);
}

#[test]
fn s5_3_an_invader_element_deployed_before_the_defender_has_finished_is_refused() {
    // DBA3.md §5.3: "the defender deploys all its troop elements; then the invader deploys all
    // of his". The refusal names §5.3, not an unknown element, and changes nothing.
    let mut pre = deploying();
    assert_eq!(pre.step(), Step::Deployment { army: 0 });
    let e = refused(&mut pre, deploy(102, 6.5, 13.5, 180.0), "§5.3");
    assert_eq!(
        e,
        Err::NotDeploying {
            id: element_id(1, 1),
            owner: 1,
            army: 0
        }
    );
    assert_eq!(e.code(), dbcore::ErrorCode::WrongPhase);
    assert!(e.to_string().starts_with("§5.3"), "{e}");
    // An id of neither army: still the deploying army's own elements, §5.3.
    let e = refused(&mut pre, deploy(777, 6.5, 1.5, 0.0), "§5.3");
    assert!(matches!(e, Err::UnknownElement { .. }), "{e}");
    // Nor may it be held back for a landing in the defender's turn.
    let e = refused(
        &mut pre,
        A::HoldBack {
            id: element_id(1, 1),
        },
        "§5.3",
    );
    assert!(matches!(e, Err::NotDeploying { .. }), "{e}");
}

/// One refusal of each kind the pre-battle has (each problem of the armies given as its own
/// refusal), built by hand. The match in [`every_prebattle_refusal_names_its_rule`] has no
/// catch-all, so a new kind of refusal does not compile until it is listed here.
fn one_refusal_of_each_kind() -> Vec<Err> {
    use dbcore::battle::prebattle::placement::FeatureProblem;
    use dbcore::battle::prebattle::EntryProblem as P;
    use dbcore::battle::{ElementId, SetupProblem};
    let id = ElementId(3);
    let entries = vec![
        P::ArmyCount { count: 1 },
        P::Aggression {
            army: "A".into(),
            aggression: 5,
        },
        P::ElementCount {
            army: "A".into(),
            count: 0,
        },
        P::ArmySize {
            army: "A".into(),
            count: 11,
        },
        P::Generals {
            army: "A".into(),
            count: 2,
        },
        P::BoardSide { side: 12.0 },
        P::Variant {
            variant: Variant::Dbaix,
        },
        P::Config {
            message: "kinds.Cv.depth must be a positive number of BW".into(),
        },
        P::DepthFactor { factor: 2.0 },
        P::CommandElement {
            army: "A".into(),
            command: dbcore::battle::CommandId(0),
            index: 40,
            count: 36,
        },
        P::Commands {
            problems: vec![SetupProblem::ArmySize {
                army: "A".into(),
                count: 35,
                expected: 36,
            }],
        },
    ];
    let mut v: Vec<Err> = entries
        .into_iter()
        .map(|p| Err::Entries { problems: vec![p] })
        .collect();
    v.extend([
        Err::WrongStep {
            action: "a placement die".into(),
            step: Step::Aggression,
        },
        Err::DiceCount {
            given: 1,
            armies: 2,
        },
        Err::HomeTerrain {
            problems: vec![HomeTerrainProblem::CompulsoryCount {
                count: 0,
                min: 1,
                max: 2,
            }],
        },
        Err::NoDifficultTerrain {
            chosen: vec![F::Road],
        },
        Err::NoSuchQuarter {
            quarter: Quarter(5),
        },
        Err::WrongFeature {
            expected: F::Wood,
            given: F::Road,
        },
        Err::Placement {
            problems: vec![FeatureProblem {
                rule: "§3.4".into(),
                message: "§3.4: the waterway must lie along a battlefield edge".into(),
            }],
        },
        Err::CanBePlaced {
            feature: F::Wood,
            quarter: Quarter(2),
        },
        Err::BaseEdge {
            edge: BoardEdge::East,
            allowed: vec![BoardEdge::North],
        },
        Err::Camp {
            reasons: vec!["it is not on the army's base edge".into()],
        },
        Err::CampCompulsory { army: 0 },
        Err::UnknownElement { id, army: 0 },
        Err::NotDeploying {
            id,
            owner: 1,
            army: 0,
        },
        Err::AlreadyDeployed { id },
        Err::NotAllDeployed { ids: vec![id] },
        Err::FortUngarrisoned { feature: 2 },
        Err::Landing {
            reason: "only a Littoral army holds elements back".into(),
        },
        Err::PipAllocation {
            reason: "the ranking names every non-allied command once".into(),
        },
        Err::CommandTurn {
            reason: "one command a turn".into(),
        },
    ]);
    for p in [
        DeploymentProblem::OffTable { id },
        DeploymentProblem::Impassable { id },
        DeploymentProblem::Overlap {
            id,
            other: ElementId(4),
        },
        DeploymentProblem::CentreLine { id, distance: 2.0 },
        DeploymentProblem::SideEdge {
            id,
            kind: "4Bd".parse().unwrap(),
            distance: 3.0,
            limit: 4.0,
        },
        DeploymentProblem::EnemyStronghold {
            id,
            feature: 1,
            distance: 2.0,
        },
        DeploymentProblem::BadGoing {
            id,
            kind: "Art".parse().unwrap(),
        },
        DeploymentProblem::InWalls { id, feature: 1 },
        DeploymentProblem::NotAGarrison {
            id,
            kind: "LH".parse().unwrap(),
            feature: 1,
        },
        DeploymentProblem::Garrisoned { feature: 1 },
        DeploymentProblem::FarFromGeneral {
            id,
            other: ElementId(1),
            distance: 9.0,
        },
    ] {
        v.push(Err::Deployment { problems: vec![p] });
    }
    v
}

#[test]
fn every_prebattle_refusal_names_its_rule() {
    // Issue #45: every refusal of the pre-battle names the section that refuses it (DBA3.md
    // §1.2 to §5.5, §14, and §17 for the rules configuration), in its rule and at the head of
    // its message, as the battle's refusals do.
    let all = one_refusal_of_each_kind();
    let mut kinds = std::collections::BTreeSet::new();
    for e in &all {
        // No catch-all: every kind of refusal is listed above.
        kinds.insert(match e {
            Err::Entries { .. } => "entries",
            Err::WrongStep { .. } => "wrong_step",
            Err::DiceCount { .. } => "dice_count",
            Err::HomeTerrain { .. } => "home_terrain",
            Err::NoDifficultTerrain { .. } => "no_difficult_terrain",
            Err::NoSuchQuarter { .. } => "no_such_quarter",
            Err::WrongFeature { .. } => "wrong_feature",
            Err::Placement { .. } => "placement",
            Err::CanBePlaced { .. } => "can_be_placed",
            Err::BaseEdge { .. } => "base_edge",
            Err::Camp { .. } => "camp",
            Err::CampCompulsory { .. } => "camp_compulsory",
            Err::UnknownElement { .. } => "unknown_element",
            Err::NotDeploying { .. } => "not_deploying",
            Err::AlreadyDeployed { .. } => "already_deployed",
            Err::Deployment { .. } => "deployment",
            Err::NotAllDeployed { .. } => "not_all_deployed",
            Err::FortUngarrisoned { .. } => "fort_ungarrisoned",
            Err::Landing { .. } => "landing",
            Err::PipAllocation { .. } => "pip_allocation",
            Err::CommandTurn { .. } => "command_turn",
        });
        let rule = e.rule().unwrap_or_else(|| panic!("no rule: {e}"));
        assert_eq!(rule, e.section());
        let text = e.to_string();
        let head = text
            .strip_prefix("the pre-battle cannot start: ")
            .unwrap_or(&text);
        assert!(head.starts_with('§'), "{text}");
        assert!(head.contains(rule), "{rule} is not in: {text}");
    }
    assert_eq!(kinds.len(), 21, "{kinds:?}");
}
