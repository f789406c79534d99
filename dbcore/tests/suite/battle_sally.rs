//! DBA3.md §4.2, §17.30: City sallies by denizens: when they may come out, the element they
//! become, the City undefended while they are out, and their 3 BW leash.

use crate::battle_common;

use battle_common::*;
use dbcore::battle::state::{denizens_id, Denizens};
use dbcore::battle::{Action, Battle, ElementId, ElementSetup, Event, MoveOrder, Phase};
use dbcore::battlefield::{Battlefield, Board};
use dbcore::config::RulesConfig;
use dbcore::geometry::{Point, Pose};
use dbcore::terrain::{AreaFeature, AreaKind, TerrainFeature};
use dbcore::ErrorInfo;

fn dz_depth() -> f64 {
    RulesConfig::default().depth("Dz".parse().unwrap())
}

/// A City from (6, 6) to (9, 8), gates at (7.5, 6) and (7.5, 8), owned by the north army (1),
/// which has the first bound. North Blades (102) stand 1 BW off the north wall; the south army's
/// Cavalry (1) just off the south gate. `south` replaces that Cavalry; `inside` adds a north
/// element.
fn battle(south: Option<Vec<ElementSetup>>, north_extra: Vec<ElementSetup>) -> Battle {
    let mut bf = Battlefield::new(Board::default());
    let mut city =
        AreaFeature::rectangle(AreaKind::City, Point::new(6.0, 6.0), Point::new(9.0, 8.0));
    city.gates = vec![Point::new(7.5, 6.0), Point::new(7.5, 8.0)];
    bf.features.push(TerrainFeature::Area(city));
    let mut south_els = south.unwrap_or_else(|| vec![el(1, "Cv", 7.5, 5.2, 0.0)]);
    south_els.push(general(el(2, "Cv", 2.0, 1.0, 0.0)));
    let mut north = vec![
        general(el(101, "Cv", 13.0, 13.0, 180.0)),
        el(102, "4Bd", 9.8, 9.5, 0.0),
    ];
    north.extend(north_extra);
    let mut s = sandbox(bf, armies(south_els, north));
    s.city_owner = Some(1);
    s.first = 1;
    let mut b = Battle::new(s).unwrap();
    b.apply(Action::RollPips { die: d(4) }).unwrap();
    b
}

fn out_of_north_gate() -> Pose {
    Pose::new(7.5, 8.0 + dz_depth(), 0.0)
}

fn sally(pose: Pose) -> Action {
    Action::Sally { city: 0, pose }
}

fn refused(b: &mut Battle, a: Action) -> &'static str {
    let before = b.clone();
    let e = b.apply(a).unwrap_err();
    assert_eq!(*b, before, "a refusal changes nothing");
    e.rule().unwrap_or("none")
}

/// End this bound and start the next army's movement with `pips`.
fn next_bound(b: &mut Battle, pips: u8) {
    b.apply(Action::EndMovement).unwrap();
    assert_eq!(b.phase(), Phase::AwaitingPips);
    b.apply(Action::RollPips { die: d(pips) }).unwrap();
}

fn go(id: ElementId, to: Pose) -> Action {
    Action::Move {
        order: MoveOrder::Element { id, path: vec![to] },
    }
}

#[test]
fn s4_2_s17_30_denizens_sally_as_an_element_and_leave_the_city_undefended() {
    // DBA3.md §4.2, §17.30: no troop element inside and troops of both sides within 2 BW of the
    // walls: the denizens may come out, as one Dz element, and the City is undefended.
    let mut b = battle(None, Vec::new());
    assert_eq!(b.legal().sally_cities, vec![0]);
    assert!(!b.held_strongholds().is_empty());
    let events = b.apply(sally(out_of_north_gate())).unwrap();
    assert!(matches!(events[0], Event::DenizensSallied { city: 0, .. }));
    // 1 PIP in the army's own first bound (no extras, §6.3).
    assert!(events
        .iter()
        .any(|e| matches!(e, Event::PipsSpent { left: 3, .. })));
    let dz = b.element(denizens_id(0)).unwrap();
    assert_eq!((dz.army, dz.kind.code()), (1, "Dz".to_string()));
    assert_eq!(dz.pose, out_of_north_gate().snapped());
    assert_eq!(b.cities()[0].denizens, Denizens::Sallied);
    assert!(b.held_strongholds().is_empty(), "the City is undefended");
    assert!(b.legal().sally_cities.is_empty(), "they sally once");
    // The enemy walks in without a fight.
    next_bound(&mut b, 4);
    let events = b.apply(go(ElementId(1), Pose::new(7.5, 7.9, 0.0))).unwrap();
    assert!(events.iter().any(|e| matches!(
        e,
        Event::CityCaptured {
            city: 0,
            by: 0,
            sacker: None
        }
    )));
}

#[test]
fn s4_2_denizens_sally_only_with_troops_of_both_sides_near_and_none_inside() {
    // DBA3.md §4.2: both sides' troop elements within 2 BW; no troop element in the City.
    let mut b = battle(Some(vec![el(1, "Cv", 7.5, 2.0, 0.0)]), Vec::new());
    assert!(b.legal().sally_cities.is_empty());
    assert_eq!(refused(&mut b, sally(out_of_north_gate())), "§4.2");
    let garrison = el(103, "4Bd", 6.8, 7.5, 0.0);
    let mut b = battle(None, vec![garrison]);
    assert_eq!(refused(&mut b, sally(out_of_north_gate())), "§4.2");
    // Only in the bound of the army they defend the City for.
    let mut b = battle(None, Vec::new());
    next_bound(&mut b, 4);
    assert_eq!(refused(&mut b, sally(out_of_north_gate())), "§4.2");
}

#[test]
fn s4_2_s17_30_they_come_out_of_a_gate_onto_free_ground() {
    // DBA3.md §4.2 (our reading): rear edge against the wall at a gate, clear of everyone.
    let mut b = battle(None, Vec::new());
    // Against the wall but away from the gates.
    assert_eq!(
        refused(&mut b, sally(Pose::new(6.5, 8.0 + dz_depth(), 0.0))),
        "§4.2"
    );
    // Facing into the City.
    assert_eq!(refused(&mut b, sally(Pose::new(7.5, 8.0, 180.0))), "§4.2");
    // Not enough PIPs: after its first bound a denizens move costs 2 (§6.3 extra (a)).
    let mut b = battle(None, Vec::new());
    next_bound(&mut b, 4);
    next_bound(&mut b, 1);
    assert_eq!(refused(&mut b, sally(out_of_north_gate())), "§6.3");
    // Into contact with the enemy at the south gate.
    let mut b = battle(
        Some(vec![el(1, "Cv", 7.5, 6.0 - dz_depth(), 0.0)]),
        Vec::new(),
    );
    assert_eq!(
        refused(&mut b, sally(Pose::new(7.5, 6.0 - dz_depth(), 180.0))),
        "§4.2"
    );
}

#[test]
fn s4_2_sallied_denizens_go_no_more_than_3_bw_from_the_city_nor_back_in() {
    // DBA3.md §4.2: "They cannot themselves go more than 3 BW from it"; our reading: once out
    // they do not return.
    let mut b = battle(None, Vec::new());
    b.apply(sally(out_of_north_gate())).unwrap();
    next_bound(&mut b, 4);
    next_bound(&mut b, 6);
    let dz = denizens_id(0);
    // Back into the City.
    assert_eq!(refused(&mut b, go(dz, Pose::new(7.5, 7.5, 180.0))), "§4.2");
    // Out to 2 BW from the walls is allowed; then on to 3.5 BW is too far.
    b.apply(go(dz, Pose::new(7.5, 8.0 + dz_depth() + 1.5, 0.0)))
        .unwrap();
    next_bound(&mut b, 4);
    next_bound(&mut b, 6);
    assert_eq!(
        refused(&mut b, go(dz, Pose::new(7.5, 8.0 + dz_depth() + 3.0, 0.0))),
        "§4.2"
    );
}
