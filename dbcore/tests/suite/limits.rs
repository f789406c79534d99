//! Hostile input: every limit of `dbcore::limits` at its edge, and the faults of issue #9 that
//! were seen in the Rust core (a parser panic, unbounded boards, quadratic set-up validation,
//! overflowing configuration factors, non-finite coordinates, a quadratic table query).

use crate::battle_common;

use std::time::{Duration, Instant};

use battle_common::{armies, el, general, open_battle, sandbox};
use dbcore::battle::{Action, Battle, BattleError, GroupStep, MoveOrder, SetupProblem};
use dbcore::battle::{ElementId, Flank};
use dbcore::battlefield::{Battlefield, Board};
use dbcore::geometry::{Point, Polygon, Pose};
use dbcore::limits::*;
use dbcore::table::{PlacedElement, Table, TableError};
use dbcore::terrain::{AreaFeature, AreaKind, Road, RoadSurface, TerrainFeature};
use dbcore::{ElementKind, ErrorCode, ErrorInfo, RulesConfig};

fn placed(id: u32, side: u8, x: f64, y: f64, facing: f64) -> PlacedElement {
    PlacedElement {
        id,
        side,
        kind: "4Bd".parse().unwrap(),
        pose: Pose::new(x, y, facing),
        general: false,
    }
}

fn board(width: f64, depth: f64) -> Battlefield {
    Battlefield::new(Board { width, depth })
}

fn table_limit(r: Result<Table, TableError>) -> LimitError {
    match r {
        Err(TableError::Limit(e)) => {
            assert_eq!(
                TableError::Limit(e.clone()).code(),
                ErrorCode::InvalidArgument
            );
            e
        }
        other => panic!("expected a limit error, got {other:?}"),
    }
}

fn setup_problems(s: dbcore::battle::BattleSetup) -> Vec<SetupProblem> {
    match Battle::new(s) {
        Err(e) => e.problems,
        Ok(_) => Vec::new(),
    }
}

fn is_limit(p: &[SetupProblem]) -> bool {
    p.iter().any(|p| matches!(p, SetupProblem::Limit { .. }))
}

// --- Element codes -------------------------------------------------------------------------

#[test]
fn s2_1_non_ascii_element_codes_are_refused_not_panicked_on() {
    // DBA3.md §2.1: only the listed codes are element codes; the byte slicing that once split
    // a UTF-8 character here is gone.
    for text in [
        "Mtd\u{e9}4Bw",
        "Mt\u{e9}-4Bw",
        "\u{1f600}\u{1f600}",
        "M\u{e9}",
        "Mtd-\u{e9}",
        "Mtd-",
    ] {
        let e = text.parse::<ElementKind>().unwrap_err();
        assert_eq!(e.code(), ErrorCode::ElementCode, "{text}");
    }
    // Through a set-up's "kind" it is a JSON error naming the code, not a panic.
    let json = r#"{"id":1,"kind":"Mtd\u00e94Bw","pose":{"x":1,"y":1,"facing":0}}"#;
    assert!(serde_json::from_str::<dbcore::battle::ElementSetup>(json).is_err());
    assert_eq!("mtd-4bw".parse::<ElementKind>().unwrap().code(), "Mtd-4Bw");
}

#[test]
fn a_long_unreadable_code_is_quoted_short() {
    let long = "x".repeat(100_000);
    let e = long.parse::<ElementKind>().unwrap_err();
    assert_eq!(e.text.chars().count(), MAX_QUOTED_CHARS + 1);
    assert!(e.to_string().len() < 1000);
}

// --- Boards, coordinates, facings ---------------------------------------------------------

#[test]
fn board_sides_are_bounded_at_both_ends() {
    assert!(Table::new(board(MAX_BOARD_SIDE, MIN_BOARD_SIDE), vec![]).is_ok());
    let e = table_limit(Table::new(board(MAX_BOARD_SIDE + 0.001, 15.0), vec![]));
    assert_eq!(e.what, "board.width");
    table_limit(Table::new(board(15.0, MIN_BOARD_SIDE - 0.001), vec![]));
    // The board of issue #9, 10^16 BW wide, and a NaN.
    table_limit(Table::new(board(1e16, 15.0), vec![]));
    table_limit(Table::new(board(f64::NAN, 15.0), vec![]));
    // A sandbox battle 10^9 BW wide is a set-up problem, found before any geometry runs.
    let mut s = open_battle();
    s.battlefield.board.width = 1e9;
    assert!(is_limit(&setup_problems(s)));
}

#[test]
fn coordinates_are_finite_and_bounded() {
    let bf = || Battlefield::new(Board::default());
    assert!(Table::new(
        bf(),
        vec![placed(1, 0, MAX_COORDINATE, -MAX_COORDINATE, 0.0)]
    )
    .is_ok());
    let e = table_limit(Table::new(
        bf(),
        vec![placed(1, 0, MAX_COORDINATE * 1.0001, 0.0, 0.0)],
    ));
    assert_eq!(e.what, "elements[0].pose.x");
    for bad in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
        table_limit(Table::new(bf(), vec![placed(1, 0, 1.0, bad, 0.0)]));
    }
    let mut s = open_battle();
    s.armies[0].elements[1].pose.y = f64::NAN;
    assert!(is_limit(&setup_problems(s)));
}

#[test]
fn facings_are_within_a_turn_either_way() {
    let bf = || Battlefield::new(Board::default());
    assert!(Table::new(bf(), vec![placed(1, 0, 5.0, 5.0, MAX_FACING)]).is_ok());
    assert!(Table::new(bf(), vec![placed(1, 0, 5.0, 5.0, -MAX_FACING)]).is_ok());
    let e = table_limit(Table::new(
        bf(),
        vec![placed(1, 0, 5.0, 5.0, MAX_FACING + 1e-9)],
    ));
    assert_eq!(e.what, "elements[0].pose.facing");
    // A facing of 1e307 once made a saved state unloadable after rounding to the grid.
    let mut s = open_battle();
    s.armies[0].elements[0].pose.facing = 1e307;
    assert!(is_limit(&setup_problems(s)));
}

// --- Sizes ---------------------------------------------------------------------------------

#[test]
fn a_table_holds_at_most_max_elements() {
    let grid = |n: usize| -> Vec<PlacedElement> {
        (0..n)
            .map(|i| {
                placed(
                    i as u32,
                    (i % 2) as u8,
                    (i % 40) as f64 * 2.0,
                    (i / 40) as f64 * 2.0,
                    0.0,
                )
            })
            .collect()
    };
    let bf = Battlefield::new(Board {
        width: 100.0,
        depth: 100.0,
    });
    assert!(Table::new(bf.clone(), grid(MAX_ELEMENTS)).is_ok());
    let e = table_limit(Table::new(bf, grid(MAX_ELEMENTS + 1)));
    assert_eq!(e.what, "elements");
}

#[test]
fn a_setup_has_at_most_max_elements_and_max_armies() {
    let many = |n: usize| -> Vec<dbcore::battle::ElementSetup> {
        (0..n)
            .map(|i| {
                el(
                    i as u32 + 1,
                    "4Bd",
                    1.0 + (i % 90) as f64 * 1.1,
                    1.0 + (i / 90) as f64 * 1.1,
                    0.0,
                )
            })
            .collect()
    };
    let bf = Battlefield::new(Board {
        width: 100.0,
        depth: 100.0,
    });
    let mut south = many(MAX_ELEMENTS - 1);
    south[0].general = true;
    let north = vec![general(el(9999, "Cv", 99.0, 99.0, 180.0))];
    let ok = sandbox(bf.clone(), armies(south.clone(), north.clone()));
    assert!(!is_limit(&setup_problems(ok)));
    south.push(el(5000, "4Bd", 50.0, 99.0, 0.0));
    let over = sandbox(bf, armies(south, north));
    assert!(is_limit(&setup_problems(over)));

    let mut four = open_battle();
    let extra = four.armies[1].clone();
    four.armies.push(extra.clone());
    assert_eq!(four.armies.len(), MAX_ARMIES);
    assert!(!is_limit(&setup_problems(four.clone())));
    four.armies.push(extra);
    assert!(is_limit(&setup_problems(four)));
}

#[test]
fn features_and_vertices_are_bounded() {
    let road = |n: usize| {
        TerrainFeature::Road(Road {
            path: (0..n)
                .map(|i| Point::new(1.0 + (i % 10) as f64, 1.0))
                .collect(),
            surface: RoadSurface::Track,
            width: 0.5,
        })
    };
    let mut bf = Battlefield::new(Board::default());
    bf.features = vec![road(2); MAX_FEATURES];
    assert!(Table::new(bf.clone(), vec![]).is_ok());
    bf.features.push(road(2));
    assert_eq!(
        table_limit(Table::new(bf, vec![])).what,
        "battlefield.features"
    );

    let mut bf = Battlefield::new(Board::default());
    bf.features = vec![road(MAX_VERTICES)];
    assert!(Table::new(bf.clone(), vec![]).is_ok());
    bf.features = vec![road(MAX_VERTICES + 1)];
    assert_eq!(
        table_limit(Table::new(bf, vec![])).what,
        "battlefield.features[0].path"
    );

    let per = MAX_TOTAL_VERTICES / 8;
    let mut bf = Battlefield::new(Board::default());
    bf.features = vec![road(per); 8];
    assert!(Table::new(bf.clone(), vec![]).is_ok());
    bf.features.push(road(1));
    assert_eq!(
        table_limit(Table::new(bf, vec![])).what,
        "the battlefield's vertices"
    );

    let mut bf = Battlefield::new(Board::default());
    bf.features = vec![TerrainFeature::Area(AreaFeature::new(
        AreaKind::Wood,
        Polygon::new(vec![
            Point::new(1.0, 1.0),
            Point::new(2.0, f64::INFINITY),
            Point::new(3.0, 1.0),
        ]),
    ))];
    assert_eq!(
        table_limit(Table::new(bf, vec![])).what,
        "battlefield.features[0].outline.points[1].y"
    );
}

#[test]
fn army_names_are_bounded() {
    let mut s = open_battle();
    s.armies[0].name = "n".repeat(MAX_NAME_BYTES);
    assert!(!is_limit(&setup_problems(s.clone())));
    s.armies[0].name.push('n');
    assert!(is_limit(&setup_problems(s)));
}

// --- Problems reported ---------------------------------------------------------------------

#[test]
fn setup_problems_are_capped_with_a_count_of_the_rest_and_validation_stays_fast() {
    // 2,000 elements at one spot once gave 4.5 million problems and a 172 MiB message.
    let pile: Vec<_> = (0..MAX_ELEMENTS as u32 - 1)
        .map(|i| el(i + 1, "4Bd", 7.5, 7.5, 0.0))
        .collect();
    let mut pile = pile;
    pile[0].general = true;
    let s = sandbox(
        Battlefield::new(Board::default()),
        armies(pile, vec![general(el(9999, "Cv", 7.5, 12.0, 180.0))]),
    );
    let t = Instant::now();
    let e = Battle::new(s).unwrap_err();
    assert!(t.elapsed() < Duration::from_secs(20), "{:?}", t.elapsed());
    assert_eq!(e.problems.len(), MAX_PROBLEMS + 1);
    match e.problems.last().unwrap() {
        SetupProblem::More { count, uncounted } => {
            assert!(*count > 0);
            assert!(*uncounted);
        }
        p => panic!("expected the count of the rest, got {p:?}"),
    }
    let msg = e.to_string();
    assert!(msg.len() < 16 * 1024, "{} bytes", msg.len());
    assert!(msg.contains("more"));
}

#[test]
fn exactly_max_problems_are_listed_without_a_count() {
    // Elements in pairs at the same spot: one overlap per pair.
    let mut south = Vec::new();
    for k in 0..MAX_PROBLEMS as u32 {
        let x = 1.0 + (k % 12) as f64 * 1.2;
        let y = 1.0 + (k / 12) as f64 * 1.2;
        south.push(el(2 * k + 1, "4Bd", x, y, 0.0));
        south.push(el(2 * k + 2, "4Bd", x, y, 0.0));
    }
    south[0].general = true;
    let s = sandbox(
        Battlefield::new(Board::default()),
        armies(
            south.clone(),
            vec![general(el(9999, "Cv", 7.5, 14.0, 180.0))],
        ),
    );
    let p = setup_problems(s);
    assert_eq!(p.len(), MAX_PROBLEMS);
    assert!(p.iter().all(|p| matches!(p, SetupProblem::Overlap { .. })));
    // One more pair: the last becomes "and 1 more".
    south.push(el(900, "4Bd", 13.0, 10.0, 0.0));
    south.push(el(901, "4Bd", 13.0, 10.0, 0.0));
    let s = sandbox(
        Battlefield::new(Board::default()),
        armies(south, vec![general(el(9999, "Cv", 7.5, 14.0, 180.0))]),
    );
    let p = setup_problems(s);
    assert_eq!(p.len(), MAX_PROBLEMS + 1);
    assert_eq!(
        p.last(),
        Some(&SetupProblem::More {
            count: 1,
            uncounted: false
        })
    );
}

// --- Rules configuration -------------------------------------------------------------------

#[test]
fn configuration_factors_and_distances_are_bounded() {
    let mut cfg = RulesConfig::default();
    let bd = dbcore::BaseKind::Bd4;
    cfg.kinds.get_mut(&bd).unwrap().factor_vs_foot = MAX_CONFIG_FACTOR;
    cfg.combat.support_shooter_penalty = -MAX_CONFIG_FACTOR;
    cfg.combat.max_support_shooters = MAX_CONFIG_COUNT;
    cfg.kinds.get_mut(&bd).unwrap().move_good = MAX_CONFIG_DISTANCE;
    assert!(cfg.validate().is_ok());
    // A factor of 2^30 once overflowed the combat totals.
    let mut big = cfg.clone();
    big.kinds.get_mut(&bd).unwrap().factor_vs_foot = 1 << 30;
    let e = big.validate().unwrap_err();
    assert_eq!(e.code(), ErrorCode::InvalidArgument);
    assert!(e.to_string().contains("kinds.4Bd.factor_vs_foot"), "{e}");
    let mut over = cfg.clone();
    over.kinds.get_mut(&bd).unwrap().factor_vs_mounted = -MAX_CONFIG_FACTOR - 1;
    assert!(over.validate().is_err());
    let mut far = cfg.clone();
    far.kinds.get_mut(&bd).unwrap().move_good = MAX_CONFIG_DISTANCE + 0.5;
    assert!(far.validate().is_err());
    let mut count = cfg.clone();
    count.combat.max_extra_assaulters = MAX_CONFIG_COUNT + 1;
    assert!(count.validate().is_err());
    let mut range = cfg;
    range
        .kinds
        .get_mut(&dbcore::BaseKind::Art)
        .unwrap()
        .shooting_range = Some(f64::INFINITY);
    assert!(range.validate().is_err());
    // In a set-up it is a set-up problem.
    let mut s = open_battle();
    s.config = big;
    assert!(setup_problems(s)
        .iter()
        .any(|p| matches!(p, SetupProblem::Config { .. })));
}

// --- Actions -------------------------------------------------------------------------------

#[test]
fn move_orders_are_bounded_and_refused_without_change() {
    let mut b = Battle::new(open_battle()).unwrap();
    b.apply(Action::RollPips {
        die: dbcore::DieScore::new(6).unwrap(),
    })
    .unwrap();
    let before = serde_json::to_value(&b).unwrap();
    let path = |n: usize, x: f64| MoveOrder::Element {
        id: ElementId(2),
        path: vec![Pose::new(6.5, x, 0.0); n],
    };
    let refuse = |b: &mut Battle, order: MoveOrder| {
        let e = b.apply(Action::Move { order }).unwrap_err();
        assert!(matches!(e, BattleError::Limit(_)), "{e:?}");
        assert_eq!(e.code(), ErrorCode::InvalidArgument);
    };
    // At the edge the order reaches the rules (which may refuse it for their own reasons).
    let at_edge = b.check(&Action::Move {
        order: path(MAX_ORDER_LENGTH, 3.5),
    });
    assert!(!matches!(at_edge, Err(BattleError::Limit(_))));
    refuse(&mut b, path(MAX_ORDER_LENGTH + 1, 3.5));
    refuse(&mut b, path(1, f64::NAN));
    refuse(&mut b, path(1, 1e300));
    refuse(
        &mut b,
        MoveOrder::Group {
            ids: vec![ElementId(2); MAX_ORDER_LENGTH + 1],
            steps: vec![],
        },
    );
    refuse(
        &mut b,
        MoveOrder::Group {
            ids: vec![ElementId(2), ElementId(3)],
            steps: vec![GroupStep::Wheel {
                pivot: Flank::Right,
                degrees: 1e9,
            }],
        },
    );
    refuse(
        &mut b,
        MoveOrder::Group {
            ids: vec![ElementId(2), ElementId(3)],
            steps: vec![GroupStep::Advance {
                distance: f64::INFINITY,
            }],
        },
    );
    assert_eq!(serde_json::to_value(&b).unwrap(), before);
}

// --- The table's questions stay near linear ------------------------------------------------

#[test]
fn s8_1_threat_zone_queries_on_a_full_table_are_near_linear() {
    // DBA3.md §8.1: an enemy in front holds an element in its zone; with MAX_ELEMENTS elements
    // spread over the largest board the answer needs only the neighbours.
    let n = MAX_ELEMENTS;
    let cols = 40;
    let elements: Vec<PlacedElement> = (0..n)
        .map(|i| {
            let (c, r) = (i % cols, i / cols);
            let side = (r % 2) as u8;
            // Rows facing one another 1 BW apart: each element is at the edge of an enemy's zone.
            placed(
                i as u32,
                side,
                2.0 + c as f64 * 1.2,
                2.0 + r as f64,
                if side == 0 { 0.0 } else { 180.0 },
            )
        })
        .collect();
    let t = Table::new(
        Battlefield::new(Board {
            width: MAX_BOARD_SIDE,
            depth: MAX_BOARD_SIDE,
        }),
        elements,
    )
    .unwrap();
    let cfg = RulesConfig::default();
    let start = Instant::now();
    let zones = t.enemy_threat_zones_on(0, &cfg).unwrap();
    let one = start.elapsed();
    assert!(!zones.is_empty());
    assert!(zones.iter().all(|&z| t.element(z).unwrap().side == 1));
    // Every element asked once: about n queries of a few neighbours each.
    let start = Instant::now();
    for i in (0..n as u32).step_by(10) {
        t.enemy_threat_zones_on(i, &cfg).unwrap();
    }
    let all = start.elapsed();
    eprintln!(
        "threat zones: one query {one:?}, {} queries {all:?}",
        n / 10
    );
    assert!(all < Duration::from_secs(20), "{all:?} (one query {one:?})");
    let svg = t.svg(&cfg, true);
    assert!(svg.starts_with("<svg"));
}

#[test]
fn the_largest_setup_validates_in_bounded_time() {
    // Every size at its limit at once: the most features, each with its share of the most
    // vertices, under the most elements, with the terrain rules of §3 checked too.
    let per = MAX_TOTAL_VERTICES / MAX_FEATURES;
    let features: Vec<TerrainFeature> = (0..MAX_FEATURES)
        .map(|i| {
            let c = Point::new(5.0 + (i % 8) as f64 * 12.0, 5.0 + (i / 8) as f64 * 12.0);
            TerrainFeature::Area(AreaFeature::ellipse(AreaKind::Wood, c, 2.0, 1.5, 0.0, per))
        })
        .collect();
    let mut bf = Battlefield::new(Board {
        width: 100.0,
        depth: 100.0,
    });
    bf.features = features;
    let mut south: Vec<_> = (0..MAX_ELEMENTS as u32 - 1)
        .map(|i| {
            el(
                i + 1,
                "4Bd",
                1.0 + (i % 90) as f64 * 1.1,
                1.0 + (i / 90) as f64 * 1.1,
                0.0,
            )
        })
        .collect();
    south[0].general = true;
    let mut s = sandbox(
        bf,
        armies(south, vec![general(el(9999, "Cv", 99.0, 99.0, 180.0))]),
    );
    s.sandbox = std::env::var("HOSTILE_SANDBOX").is_ok();
    let start = Instant::now();
    let problems = setup_problems(s);
    let took = start.elapsed();
    eprintln!("largest set-up: {} problems in {took:?}", problems.len());
    assert!(!is_limit(&problems));
    assert!(problems.len() <= MAX_PROBLEMS + 1);
    assert!(took < Duration::from_secs(60), "{took:?}");
}
