//! The questions a table tool asks (DBA3.md §3.1, §8.1, §8.2, §9, §17.15), through `Table`.

use dbcore::battlefield::{Battlefield, Board};
use dbcore::contact::ContactKind;
use dbcore::geometry::{Point, Pose};
use dbcore::table::{PlacedElement, ShotBlocked, Table, TableError};
use dbcore::terrain::{AreaFeature, AreaKind, Going, TerrainFeature};
use dbcore::RulesConfig;

fn el(id: u32, side: u8, code: &str, x: f64, y: f64, facing: f64) -> PlacedElement {
    PlacedElement {
        id,
        side,
        kind: code.parse().unwrap(),
        pose: Pose::new(x, y, facing),
        general: false,
    }
}

fn table(elements: Vec<PlacedElement>) -> Table {
    Table::new(Battlefield::new(Board::default()), elements).unwrap()
}

#[test]
fn s8_2_contacts_of_two_elements_front_to_front() {
    // DBA3.md §8.2 (a): full mutual front-edge contact.
    let cfg = RulesConfig::default();
    let t = table(vec![
        el(1, 0, "4Bd", 7.5, 7.0, 0.0),
        el(2, 1, "3Kn", 7.5, 7.0, 180.0),
    ]);
    let c = t.contacts_of(1, &cfg).unwrap();
    assert_eq!(c.len(), 1);
    assert_eq!(c[0].other, 2);
    assert!(!c[0].friend);
    assert_eq!(c[0].contact.kind, ContactKind::FrontToFront);
    assert!(c[0].contact.lined_up);
    assert!(t.in_close_combat(1, &cfg).unwrap());
    assert!(t.in_close_combat(2, &cfg).unwrap());
}

#[test]
fn s8_1_an_element_in_front_of_an_enemy_is_in_its_threat_zone() {
    // DBA3.md §8.1: the TZ extends 1 BW straight out from the front edge.
    let cfg = RulesConfig::default();
    let t = table(vec![
        el(1, 0, "Sp", 7.5, 5.0, 0.0),
        el(2, 1, "4Bd", 7.5, 5.8, 180.0),
        el(3, 1, "4Bd", 12.0, 5.8, 180.0),
    ]);
    assert_eq!(t.enemy_threat_zones_on(1, &cfg).unwrap(), vec![2]);
    assert!(t.in_enemy_threat_zone(2, &cfg).unwrap());
    assert!(!t.in_enemy_threat_zone(3, &cfg).unwrap());
}

#[test]
fn s17_15_elements_in_close_combat_project_no_threat_zone() {
    // DBA3.md §17.15: an element in close combat exerts no TZ.
    let cfg = RulesConfig::default();
    let t = table(vec![
        el(1, 0, "Sp", 7.5, 5.0, 0.0),
        el(2, 1, "4Bd", 7.5, 5.0, 180.0),
        // Beside the Blades, 0.5 BW from the Spears' front edge line but to the side.
        el(3, 0, "Ps", 8.8, 4.5, 0.0),
    ]);
    assert!(t.in_close_combat(2, &cfg).unwrap());
    assert!(!t.in_enemy_threat_zone(3, &cfg).unwrap());
}

#[test]
fn s9_1_bows_shoot_enemies_within_3_bw() {
    // DBA3.md §9.1, §9.2: Bows range 3 BW, measured from the shooting edge.
    let cfg = RulesConfig::default();
    let t = table(vec![
        el(1, 0, "4Bw", 7.5, 5.0, 0.0),
        el(2, 1, "Cv", 7.5, 7.0, 180.0),
        el(3, 1, "Cv", 9.5, 10.0, 180.0),
        el(4, 1, "Ps", 4.0, 5.5, 180.0),
    ]);
    let (ok, blocked) = t.shooting_targets(1, &cfg).unwrap();
    assert_eq!(ok.iter().map(|s| s.target).collect::<Vec<_>>(), vec![2]);
    assert!((ok[0].distance - 2.0).abs() < 1e-6);
    assert!(!ok[0].in_threat_zone);
    assert!(blocked.is_empty());
    // Psiloi never shoot.
    assert!(t.shooting_targets(4, &cfg).unwrap().0.is_empty());
}

#[test]
fn s9_3_a_target_in_the_shooters_threat_zone_is_flagged() {
    // DBA3.md §9.3: an enemy in the shooter's own TZ has priority.
    let cfg = RulesConfig::default();
    let t = table(vec![
        el(1, 0, "4Bw", 7.5, 5.0, 0.0),
        el(2, 1, "Cv", 7.5, 5.5, 180.0),
    ]);
    let (ok, _) = t.shooting_targets(1, &cfg).unwrap();
    assert!(ok[0].in_threat_zone);
}

#[test]
fn s9_5_an_element_in_the_way_blocks_the_shot() {
    // DBA3.md §9.5: any element in the way blocks; Artillery shoots over enemy Psiloi.
    let cfg = RulesConfig::default();
    let t = table(vec![
        el(1, 0, "4Bw", 7.5, 5.0, 0.0),
        el(2, 1, "Cv", 7.5, 7.5, 180.0),
        el(3, 0, "Ps", 7.5, 6.5, 0.0),
    ]);
    let (ok, blocked) = t.shooting_targets(1, &cfg).unwrap();
    assert!(ok.is_empty());
    assert_eq!(blocked, vec![(2, ShotBlocked::Element { id: 3 })]);
    let t = table(vec![
        el(1, 0, "Art", 7.5, 5.0, 0.0),
        el(2, 1, "Cv", 7.5, 8.5, 180.0),
        el(3, 1, "Ps", 7.5, 6.5, 180.0),
    ]);
    let (ok, _) = t.shooting_targets(1, &cfg).unwrap();
    assert!(ok.iter().any(|s| s.target == 2));
}

#[test]
fn s3_1_going_at_a_point_and_under_an_element() {
    // DBA3.md §3.1: woods are bad going; dunes are good for camels.
    let cfg = RulesConfig::default();
    let mut bf = Battlefield::new(Board::default());
    bf.features.push(TerrainFeature::Area(AreaFeature::ellipse(
        AreaKind::Wood,
        Point::new(4.0, 4.0),
        1.5,
        1.2,
        0.0,
        24,
    )));
    bf.features.push(TerrainFeature::Area(AreaFeature::ellipse(
        AreaKind::Dunes,
        Point::new(11.0, 11.0),
        1.5,
        1.2,
        0.0,
        24,
    )));
    let t = Table::new(
        bf,
        vec![
            el(1, 0, "Cm", 11.0, 11.0, 0.0),
            el(2, 0, "Cv", 11.0, 11.0, 0.0),
        ],
    )
    .unwrap();
    assert_eq!(t.going_at(Point::new(4.0, 4.0)), Going::Bad);
    assert_eq!(t.going_at(Point::new(8.0, 8.0)), Going::Good);
    assert_eq!(t.going_under(1, &cfg).unwrap(), Going::Good);
    assert_eq!(t.going_under(2, &cfg).unwrap(), Going::Bad);
}

#[test]
fn distance_between_two_elements() {
    // DBA3.md §0.3: distances in BW between nearest points.
    let cfg = RulesConfig::default();
    let t = table(vec![
        el(1, 0, "Sp", 5.0, 5.0, 0.0),
        el(2, 1, "Sp", 5.0, 8.0, 180.0),
    ]);
    assert!((t.distance(1, 2, &cfg).unwrap() - 3.0).abs() < 1e-9);
}

#[test]
fn unknown_and_duplicate_ids_are_refused() {
    let cfg = RulesConfig::default();
    let t = table(vec![el(1, 0, "Sp", 5.0, 5.0, 0.0)]);
    assert_eq!(
        t.contacts_of(9, &cfg).unwrap_err(),
        TableError::UnknownElement(9)
    );
    let e = Table::new(
        Battlefield::new(Board::default()),
        vec![el(1, 0, "Sp", 5.0, 5.0, 0.0), el(1, 1, "Sp", 9.0, 5.0, 0.0)],
    )
    .unwrap_err();
    assert_eq!(e, TableError::DuplicateId(1));
}

#[test]
fn the_table_draws_itself() {
    let cfg = RulesConfig::default();
    let t = table(vec![
        el(1, 0, "Sp", 5.0, 5.0, 0.0),
        el(2, 1, "3Kn", 5.0, 8.0, 180.0),
    ]);
    let svg = t.svg(&cfg, true);
    assert!(svg.starts_with("<svg") || svg.starts_with("<?xml"));
    assert!(svg.contains("3Kn"));
    let json = serde_json::to_string(&t).unwrap();
    assert_eq!(serde_json::from_str::<Table>(&json).unwrap(), t);
}
