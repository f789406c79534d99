//! The opponent's moves of issue #16's last session are chosen, not only never refused: in a
//! position built for each, the bound it plans uses a column (§7.4), a second move along a road
//! (§7.5, §7.7), a dismount (§7.9) or the river's die (§3.5, §7.8).

use dbcore::ai::{plan_bound, AiConfig};
use dbcore::battle::{Action, ArmySetup, Battle, BattleSetup, ElementId, ElementSetup, MoveOrder};
use dbcore::battlefield::{Battlefield, Board, BoardEdge, Variant};
use dbcore::geometry::{Point, Pose};
use dbcore::terrain::{AreaFeature, AreaKind, River, Road, RoadSurface, TerrainFeature};
use dbcore::DieScore;

fn el(id: u32, code: &str, x: f64, y: f64, facing: f64) -> ElementSetup {
    ElementSetup {
        id: ElementId(id),
        kind: code.parse().expect("a valid code"),
        pose: Pose::new(x, y, facing),
        general: false,
        contingent: None,
        dismounts_as: None,
        mobile_tower: false,
    }
}

/// The depth of a kind's base, BW.
fn depth(code: &str) -> f64 {
    dbcore::RulesConfig::default().depth(code.parse().unwrap())
}

/// A battle between `ours` (army 0, from the south; its first element is its general) and a
/// line of Warband waiting in the north with `more` enemies, on a table with `features`, army 0
/// to move with the PIPs of `pips`.
fn position(
    mut ours: Vec<ElementSetup>,
    more: Vec<ElementSetup>,
    features: Vec<TerrainFeature>,
    pips: u8,
) -> Battle {
    ours[0].general = true;
    let mut theirs: Vec<ElementSetup> = (0..6)
        .map(|i| el(101 + i, "3Wb", 5.0 + f64::from(i), 13.0, 180.0))
        .collect();
    theirs.extend(more);
    theirs[0].general = true;
    let mut bf = Battlefield::new(Board::default());
    bf.features = features;
    let mut setup = BattleSetup::new(
        Variant::Standard,
        bf,
        vec![
            ArmySetup::new("Romans", BoardEdge::South, ours),
            ArmySetup::new("Britons", BoardEdge::North, theirs),
        ],
    );
    // A position built for one move, not a whole table laid out by §3 nor whole armies (§2.5).
    setup.sandbox = true;
    setup.free_army_size = true;
    let mut b = Battle::new(setup).expect("a legal position");
    b.apply(Action::RollPips {
        die: DieScore::new(pips).expect("a die"),
    })
    .expect("the PIP roll");
    b
}

/// The bound the opponent plans for army 0, over a few seeds, each plan accepted whole.
fn plans(b: &Battle) -> Vec<Vec<Action>> {
    (0..4)
        .map(|seed| {
            let plan = plan_bound(b, &AiConfig { nodes: 400, seed }).expect("a plan");
            let mut replay = b.clone();
            for a in &plan {
                replay.apply(a.clone()).expect("the plan is accepted");
            }
            plan
        })
        .collect()
}

#[test]
fn s7_4_a_file_of_blades_moves_as_a_column_for_one_pip() {
    // DBA3.md §7.4, §6.2: with one PIP, the file of three moving as a column moves all three,
    // where a single move would move one.
    let b = position(
        vec![
            el(1, "4Bd", 7.5, 5.0, 0.0),
            el(2, "4Bd", 7.5, 5.0 - depth("4Bd"), 0.0),
            el(3, "4Bd", 7.5, 5.0 - 2.0 * depth("4Bd"), 0.0),
        ],
        Vec::new(),
        Vec::new(),
        1,
    );
    let chosen = plans(&b).iter().flatten().any(
        |a| matches!(a, Action::Move { order: MoveOrder::Column { ids, .. } } if ids.len() == 3),
    );
    assert!(chosen, "a column move in {:?}", plans(&b));
}

#[test]
fn s7_5_an_element_on_a_road_moves_twice_along_it() {
    // DBA3.md §7.5, §7.7: an element that has moved may move again only along a road; the
    // opponent marching up the road towards the enemy takes the second move.
    // A track up the table, a point every BW (the opponent follows a road from point to point).
    let road = TerrainFeature::Road(Road {
        path: (0..=15).map(|y| Point::new(7.5, f64::from(y))).collect(),
        surface: RoadSurface::Track,
        width: 0.5,
    });
    let b = position(vec![el(1, "4Bd", 7.5, 3.0, 0.0)], Vec::new(), vec![road], 2);
    let twice = plans(&b).iter().any(|plan| {
        let moves = plan
            .iter()
            .filter(|a| {
                matches!(a, Action::Move { order: MoveOrder::Element { id, .. } } if *id == ElementId(1))
            })
            .count();
        moves >= 2
    });
    assert!(twice, "element #1 moves twice in {:?}", plans(&b));
}

#[test]
fn s7_9_cavalry_facing_auxilia_in_a_marsh_dismounts_as_blades() {
    // DBA3.md §7.9, §10.1: Cavalry that may dismount as Blades, with Auxilia ½ BW ahead in the
    // marsh it stands in, fight them better on foot (Blades 5 against foot, Cavalry 3) and
    // dismount rather than step forward or wait.
    let marsh = TerrainFeature::Area(AreaFeature::rectangle(
        AreaKind::Marsh,
        Point::new(3.0, 3.0),
        Point::new(12.0, 9.0),
    ));
    let mut cv = el(1, "Cv", 7.5, 6.0, 0.0);
    cv.dismounts_as = Some("4Bd".parse().unwrap());
    let ax = (0..3)
        .map(|i| el(201 + i, "3Ax", 6.5 + f64::from(i), 7.5, 180.0))
        .collect();
    let b = position(vec![cv], ax, vec![marsh], 1);
    let chosen = plans(&b).iter().flatten().any(
        |a| matches!(a, Action::Move { order: MoveOrder::Dismount { id } } if *id == ElementId(1)),
    );
    assert!(chosen, "a dismount in {:?}", plans(&b));
}

#[test]
fn s3_5_the_opponent_dices_the_river_before_crossing_it() {
    // DBA3.md §3.5, §7.8: a line whose every forward move enters the river rolls its state
    // first, then moves with it known.
    let river = TerrainFeature::River(River {
        course: vec![Point::new(0.0, 7.4), Point::new(15.0, 7.4)],
        width: 0.6,
        state: None,
    });
    let ours = (0..5)
        .map(|i| el(1 + i, "4Bd", 5.5 + f64::from(i), 7.0, 0.0))
        .collect();
    let b = position(ours, Vec::new(), vec![river], 3);
    let diced = plans(&b)
        .iter()
        .flatten()
        .any(|a| matches!(a, Action::DiceRiver { .. }));
    assert!(diced, "the river diced in {:?}", plans(&b));
}
