//! DBA3.md §4.2, §6.3, §17.10: passing through one's own City from gate to gate along its road,
//! at 1 PIP per element, and the refusals that name their rule.

use crate::battle_common;

use battle_common::*;
use dbcore::battle::{Action, Battle, BattleError, Event, MoveOrder, PipCost};
use dbcore::battle::{ElementId, ElementSetup};
use dbcore::battlefield::{Battlefield, Board};
use dbcore::config::RulesConfig;
use dbcore::geometry::{Point, Pose};
use dbcore::terrain::{AreaFeature, AreaKind, Road, RoadSurface, TerrainFeature};
use dbcore::ErrorInfo;

fn depth(code: &str) -> f64 {
    RulesConfig::default().depth(code.parse().unwrap())
}

/// A City from (6, 6) to (9, 8) with gates at (7.5, 6) and (7.5, 8), feature 0, and a road
/// along x = 7.5 through both (feature 1). `gates` may drop the north gate; `road` the road.
fn field(two_gates: bool, road: bool) -> Battlefield {
    let mut bf = Battlefield::new(Board::default());
    let mut city =
        AreaFeature::rectangle(AreaKind::City, Point::new(6.0, 6.0), Point::new(9.0, 8.0));
    city.gates = vec![Point::new(7.5, 6.0)];
    if two_gates {
        city.gates.push(Point::new(7.5, 8.0));
    }
    bf.features.push(TerrainFeature::Area(city));
    if road {
        bf.features.push(TerrainFeature::Road(Road {
            path: vec![Point::new(7.5, 0.0), Point::new(7.5, 15.0)],
            surface: RoadSurface::Track,
            width: 0.5,
        }));
    }
    bf
}

/// Blades 1 of the south army at the south gate facing in, Blades 3 lined up behind it, its
/// general far off; `extra_south`/`north` add elements. The City belongs to `owner`.
fn battle(
    bf: Battlefield,
    owner: usize,
    extra_south: Vec<ElementSetup>,
    mut north: Vec<ElementSetup>,
    pips: u8,
) -> Battle {
    let mut south = vec![
        el(1, "4Bd", 7.5, 6.0, 0.0),
        el(3, "4Bd", 7.5, 6.0 - depth("4Bd"), 0.0),
        general(el(2, "Cv", 2.0, 1.0, 0.0)),
    ];
    south.extend(extra_south);
    north.push(general(el(102, "Cv", 13.0, 13.0, 180.0)));
    let mut s = sandbox(bf, armies(south, north));
    s.city_owner = Some(owner);
    let mut b = Battle::new(s).unwrap();
    b.apply(Action::RollPips { die: d(pips) }).unwrap();
    b
}

fn through(ids: &[u32]) -> Action {
    Action::Move {
        order: MoveOrder::ThroughCity {
            ids: ids.iter().map(|&i| ElementId(i)).collect(),
            city: 0,
        },
    }
}

/// The rule a refused action names, after checking that the refusal changed nothing.
fn refused(b: &mut Battle, a: Action) -> &'static str {
    let before = b.clone();
    let e = b.apply(a).unwrap_err();
    assert_eq!(*b, before, "a refusal changes nothing");
    e.rule().unwrap_or("none")
}

fn pose(b: &Battle, id: u32) -> Pose {
    b.element(ElementId(id)).unwrap().pose
}

#[test]
fn s4_2_s17_10_an_element_passes_its_own_city_gate_to_gate_for_one_pip() {
    // DBA3.md §4.2, §17.10: one element passes along the road from just outside the first gate to
    // just outside the far gate, at 1 PIP; it ends facing out of the far gate.
    let mut b = battle(field(true, true), 0, Vec::new(), Vec::new(), 3);
    let events = b.apply(through(&[1])).unwrap();
    let dd = depth("4Bd");
    assert_eq!(pose(&b, 1), Pose::new(7.5, 8.0 + dd, 0.0).snapped());
    assert!(events.iter().any(|e| matches!(
        e,
        Event::PipsSpent {
            cost: PipCost {
                base: 1,
                total: 1,
                ..
            },
            left: 2,
            command: None
        }
    )));
    assert!(events.iter().any(|e| matches!(
        e,
        Event::Moved {
            along_road: true,
            ..
        }
    )));
    // The element behind it has not moved.
    assert_eq!(pose(&b, 3), Pose::new(7.5, 6.0 - dd, 0.0).snapped());
}

#[test]
fn s4_2_s6_3_s17_10_a_column_pays_one_pip_per_element_and_ends_outside_the_far_gate() {
    // DBA3.md §6.3, §17.10: 1 PIP per element passing through; the last element ends just
    // outside the far gate, the leader furthest out.
    let mut b = battle(field(true, true), 0, Vec::new(), Vec::new(), 1);
    assert!(matches!(
        b.check(&through(&[1, 3])),
        Err(BattleError::NotEnoughPips { cost: 2, left: 1 })
    ));
    assert_eq!(refused(&mut b, through(&[1, 3])), "§6.3");
    let mut b = battle(field(true, true), 0, Vec::new(), Vec::new(), 2);
    let events = b.apply(through(&[1, 3])).unwrap();
    let dd = depth("4Bd");
    assert_eq!(pose(&b, 3), Pose::new(7.5, 8.0 + dd, 0.0).snapped());
    assert_eq!(pose(&b, 1), Pose::new(7.5, 8.0 + 2.0 * dd, 0.0).snapped());
    assert!(events.iter().any(|e| matches!(
        e,
        Event::PipsSpent {
            cost: PipCost {
                base: 2,
                total: 2,
                ..
            },
            left: 0,
            command: None
        }
    )));
}

#[test]
fn s4_2_a_garrisoned_own_city_may_be_passed_through() {
    // DBA3.md §4.2: "even if garrisoned": the garrison stays where it is.
    let garrison = el(4, "4Bd", 7.0, 7.5, 0.0);
    let mut b = battle(field(true, true), 0, vec![garrison], Vec::new(), 3);
    b.apply(through(&[1])).unwrap();
    assert_eq!(pose(&b, 4), Pose::new(7.0, 7.5, 0.0));
    assert_eq!(
        pose(&b, 1),
        Pose::new(7.5, 8.0 + depth("4Bd"), 0.0).snapped()
    );
}

#[test]
fn s4_2_s4_7_a_city_held_by_the_enemy_is_not_passed_through() {
    // DBA3.md §4.2, §4.7: the enemy's City (its denizens defend it) is only assaulted.
    let mut b = battle(field(true, true), 1, Vec::new(), Vec::new(), 3);
    assert_eq!(refused(&mut b, through(&[1])), "§4.2");
}

#[test]
fn s4_2_only_a_city_with_two_gates_and_a_road_through_them_is_passed() {
    // DBA3.md §4.2, §17.10: gate to gate along the road.
    let mut b = battle(field(false, true), 0, Vec::new(), Vec::new(), 3);
    assert_eq!(refused(&mut b, through(&[1])), "§4.2");
    let mut b = battle(field(true, false), 0, Vec::new(), Vec::new(), 3);
    assert_eq!(refused(&mut b, through(&[1])), "§4.2");
}

#[test]
fn s4_2_the_mover_starts_just_outside_a_gate_facing_in_and_a_column_is_lined_up() {
    // DBA3.md §4.2: "from just outside the 1st gate"; a group passes as a column (§7.4).
    let away = el(5, "4Bd", 3.0, 3.0, 0.0);
    let mut b = battle(field(true, true), 0, vec![away], Vec::new(), 3);
    assert_eq!(refused(&mut b, through(&[5])), "§4.2");
    // Element 3 leading is not at the gate.
    assert_eq!(refused(&mut b, through(&[3, 1])), "§4.2");
    // Element 5 is not behind element 1.
    assert_eq!(refused(&mut b, through(&[1, 5])), "§7.4");
    // Facing away from the City.
    let back = el(6, "4Bd", 7.5 - 0.3, 8.0, 0.0);
    let mut b = battle(field(true, true), 0, vec![back], Vec::new(), 3);
    assert_eq!(refused(&mut b, through(&[6])), "§4.2");
}

#[test]
fn s4_2_s8_1_the_far_gate_must_be_clear_of_elements_and_enemy_threat_zones() {
    // DBA3.md §4.2, §7.2: a friend standing outside the far gate blocks the passage; §8.1: an
    // enemy within 1 BW in front of the far gate forbids coming out into its threat zone.
    let blocker = el(7, "4Bd", 7.5, 8.0 + 1.5 * depth("4Bd"), 0.0);
    let mut b = battle(field(true, true), 0, vec![blocker], Vec::new(), 3);
    assert_eq!(refused(&mut b, through(&[1])), "§7.2");
    let enemy = el(103, "4Bd", 7.5, 8.0 + depth("4Bd") + 0.8, 180.0);
    let mut b = battle(field(true, true), 0, Vec::new(), vec![enemy], 3);
    assert_eq!(refused(&mut b, through(&[1])), "§8.1");
}

#[test]
fn s4_2_legal_lists_the_city_an_element_at_its_gate_may_pass() {
    // DBA3.md §4.2, §17.10: Battle::legal() offers the passage to the element at the gate only.
    let b = battle(field(true, true), 0, Vec::new(), Vec::new(), 3);
    let legal = b.legal();
    let m = |id: u32| legal.moves.iter().find(|m| m.id == ElementId(id)).unwrap();
    assert_eq!(m(1).through_cities, vec![0]);
    assert!(m(3).through_cities.is_empty());
    // Not when the City is the enemy's.
    let b = battle(field(true, true), 1, Vec::new(), Vec::new(), 3);
    assert!(b.legal().moves.iter().all(|m| m.through_cities.is_empty()));
}

#[test]
fn s4_2_an_ordinary_path_across_ones_own_held_city_stays_refused() {
    // DBA3.md §4.2: crossing is the gate-to-gate passage, not a free path over the walls.
    let garrison = el(4, "4Bd", 8.3, 7.5, 0.0);
    let lh = el(8, "LH", 6.5, 6.0, 0.0);
    let mut b = battle(field(true, true), 0, vec![garrison, lh], Vec::new(), 3);
    let order = MoveOrder::Element {
        id: ElementId(8),
        path: vec![Pose::new(6.5, 8.0 + depth("LH"), 0.0)],
    };
    assert_eq!(refused(&mut b, Action::Move { order }), "§4.2");
}
