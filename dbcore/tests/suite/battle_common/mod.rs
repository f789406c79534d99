//! A small deployed battle for the bound tests.
#![allow(dead_code)]

use dbcore::battle::{ArmySetup, BattleSetup, ElementId, ElementSetup};
use dbcore::battlefield::{Battlefield, Board, BoardEdge, Variant};
use dbcore::geometry::{Point, Polygon, Pose};
use dbcore::DieScore;

pub fn el(id: u32, code: &str, x: f64, y: f64, facing: f64) -> ElementSetup {
    ElementSetup {
        id: ElementId(id),
        kind: code.parse().unwrap(),
        pose: Pose::new(x, y, facing),
        general: false,
        contingent: None,
        dismounts_as: None,
        mobile_tower: false,
    }
}

pub fn general(mut e: ElementSetup) -> ElementSetup {
    e.general = true;
    e
}

/// Army 0 (south, facing north) has ids 1..; army 1 (north, facing south) has ids 101...
pub fn armies(south: Vec<ElementSetup>, north: Vec<ElementSetup>) -> Vec<ArmySetup> {
    vec![
        ArmySetup {
            name: "South".into(),
            base_edge: BoardEdge::South,
            elements: south,
            camp: None,
            camp_followers: false,
            commands: Vec::new(),
            pip_allocation: None,
        },
        ArmySetup {
            name: "North".into(),
            base_edge: BoardEdge::North,
            elements: north,
            camp: None,
            camp_followers: false,
            commands: Vec::new(),
            pip_allocation: None,
        },
    ]
}

/// A standard set-up for a test table: any terrain (`sandbox`, §3) and armies of the sizes the
/// test needs (`free_army_size`, §2.5).
pub fn sandbox(bf: Battlefield, armies: Vec<ArmySetup>) -> BattleSetup {
    let mut s = BattleSetup::new(Variant::Standard, bf, armies);
    s.sandbox = true;
    s.free_army_size = true;
    s
}

/// Two small armies on an open table, 9 BW apart.
pub fn open_battle() -> BattleSetup {
    sandbox(
        Battlefield::new(Board::default()),
        armies(
            vec![
                general(el(1, "3Kn", 7.5, 3.0, 0.0)),
                el(2, "4Bd", 6.5, 3.0, 0.0),
                el(3, "4Bd", 8.5, 3.0, 0.0),
                el(4, "El", 4.0, 3.0, 0.0),
                el(5, "Ps", 14.0, 2.0, 0.0),
                el(6, "LH", 1.0, 1.0, 0.0),
            ],
            vec![
                general(el(101, "Cv", 7.5, 12.0, 180.0)),
                el(102, "Sp", 6.5, 12.0, 180.0),
                el(103, "Sp", 8.5, 12.0, 180.0),
                el(104, "4Bw", 10.5, 12.0, 180.0),
            ],
        ),
    )
}

/// A die score (1 to 6).
pub fn d(v: u8) -> DieScore {
    DieScore::new(v).unwrap()
}

/// The axis-aligned rectangle from `(x0, y0)` to `(x1, y1)`, corners counter-clockwise.
pub fn rect(x0: f64, y0: f64, x1: f64, y1: f64) -> Polygon {
    Polygon::new(vec![
        Point::new(x0, y0),
        Point::new(x1, y0),
        Point::new(x1, y1),
        Point::new(x0, y1),
    ])
}
