//! DBA3.md §5.5, §17.55: littoral landings: elements held back at deployment, landed in their
//! army's first bound as one group touching the waterway for 1 PIP, and lost if never landed.

use crate::battle_common;

use battle_common::*;
use dbcore::battle::{
    validate, Action, Battle, BattleSetup, ElementId, Event, LossCause, MoveOrder, SetupProblem,
    Status,
};
use dbcore::battlefield::{Battlefield, Board, BoardEdge};
use dbcore::config::RulesConfig;
use dbcore::geometry::Pose;
use dbcore::terrain::{TerrainFeature, Waterway};
use dbcore::ErrorInfo;

fn ps_depth() -> f64 {
    RulesConfig::default().depth("Ps".parse().unwrap())
}

/// A waterway 1 BW deep along the west edge; the south army (first to move) holds back Psiloi 3
/// and 4 (their set-up poses are not used).
fn setup() -> BattleSetup {
    let mut bf = Battlefield::new(Board::default());
    bf.features.push(TerrainFeature::Waterway(Waterway::uniform(
        BoardEdge::West,
        1.0,
        0.0,
    )));
    let mut s = sandbox(
        bf,
        armies(
            vec![
                general(el(1, "Cv", 7.5, 3.0, 0.0)),
                el(2, "4Bd", 6.5, 3.0, 0.0),
                el(3, "Ps", 7.5, 3.0, 0.0),
                el(4, "Ps", 40.0, 40.0, 0.0),
            ],
            vec![general(el(101, "Cv", 7.5, 12.0, 180.0))],
        ),
    );
    s.held_back = vec![ElementId(3), ElementId(4)];
    s
}

fn started() -> Battle {
    let mut b = Battle::new(setup()).unwrap();
    b.apply(Action::RollPips { die: d(3) }).unwrap();
    b
}

/// Facing east with the rear edge on the shore at x = 1, at `y` (front-edge midpoint).
fn ashore(y: f64) -> Pose {
    Pose::new(1.0 + ps_depth(), y, 90.0)
}

fn land(ids: &[u32], poses: Vec<Pose>) -> Action {
    Action::Land {
        ids: ids.iter().map(|&i| ElementId(i)).collect(),
        poses,
    }
}

fn refused(b: &mut Battle, a: Action) -> &'static str {
    let before = b.clone();
    let e = b.apply(a).unwrap_err();
    assert_eq!(*b, before, "a refusal changes nothing");
    e.rule().unwrap_or("none")
}

#[test]
fn s5_5_s17_55_held_back_elements_land_as_one_group_touching_the_waterway_for_one_pip() {
    // DBA3.md §5.5: in its own first bound the army places them as one group with at least one
    // element touching the waterway; §17.55: 1 PIP as one group move.
    let mut b = started();
    assert_eq!(b.element(ElementId(3)).unwrap().status, Status::Afloat);
    assert_eq!(b.legal().landing, vec![ElementId(3), ElementId(4)]);
    let events = b
        .apply(land(&[3, 4], vec![ashore(5.0), ashore(6.0)]))
        .unwrap();
    assert!(matches!(events[0], Event::Landed { army: 0, .. }));
    assert!(events
        .iter()
        .any(|e| matches!(e, Event::PipsSpent { left: 2, .. })));
    for (id, y) in [(3, 5.0), (4, 6.0)] {
        let e = b.element(ElementId(id)).unwrap();
        assert!(e.in_play());
        assert_eq!(e.pose, ashore(y).snapped());
    }
    assert!(b.legal().landing.is_empty());
}

#[test]
fn s5_5_the_landing_is_refused_unless_one_whole_group_touches_the_shore() {
    // DBA3.md §5.5: all held back together, one group, touching the waterway, out of the water.
    let mut b = started();
    assert_eq!(refused(&mut b, land(&[3], vec![ashore(5.0)])), "§5.5");
    // A gap between them: not one group.
    assert_eq!(
        refused(&mut b, land(&[3, 4], vec![ashore(5.0), ashore(6.5)])),
        "§5.5"
    );
    // Not touching the waterway.
    let off = |y| Pose::new(3.0, y, 90.0);
    assert_eq!(
        refused(&mut b, land(&[3, 4], vec![off(5.0), off(6.0)])),
        "§5.5"
    );
    // In the water.
    let wet = |y| Pose::new(1.0, y, 90.0);
    assert_eq!(
        refused(&mut b, land(&[3, 4], vec![wet(5.0), wet(6.0)])),
        "§5.5"
    );
    // Afloat elements make no ordinary move.
    let order = MoveOrder::Element {
        id: ElementId(3),
        path: vec![ashore(5.0)],
    };
    assert_eq!(refused(&mut b, Action::Move { order }), "§5.5");
    // A column whose rear corner touches the shore is fine (FAQ19): facing east, one behind the
    // other.
    let d = ps_depth();
    b.apply(land(
        &[4, 3],
        vec![
            Pose::new(1.0 + 2.0 * d, 5.0, 90.0),
            Pose::new(1.0 + d, 5.0, 90.0),
        ],
    ))
    .unwrap();
}

#[test]
fn s5_5_elements_not_landed_in_the_first_bound_are_lost() {
    // DBA3.md §5.5 (our reading): they must land in the army's own first bound; those still
    // afloat when it ends its movement never reach the battle and are lost.
    let mut b = started();
    let events = b.apply(Action::EndMovement).unwrap();
    assert!(matches!(
        &events[0],
        Event::NotLanded { army: 0, ids } if ids == &vec![ElementId(3), ElementId(4)]
    ));
    for id in [3, 4] {
        assert_eq!(
            b.element(ElementId(id)).unwrap().status,
            Status::Lost {
                cause: LossCause::OffTable
            }
        );
    }
}

#[test]
fn s5_5_the_set_up_reports_every_landing_problem_at_once() {
    // DBA3.md §5.5: only with a waterway, 2 or 3 elements, none El, WWg or Art.
    let mut s = setup();
    s.battlefield.features.clear();
    s.armies[0].elements.push(el(5, "El", 10.0, 3.0, 0.0));
    s.held_back = vec![ElementId(5)];
    let p: Vec<SetupProblem> = validate(&s)
        .into_iter()
        .filter(|p| matches!(p, SetupProblem::Landing { .. }))
        .collect();
    assert_eq!(p.len(), 3, "{p:?}");
    let e = Battle::new(s).unwrap_err();
    assert!(e
        .problems
        .iter()
        .any(|p| matches!(p, SetupProblem::Landing { .. })));
    // The held-back elements' set-up poses are not checked (element 4 is off the table).
    assert!(validate(&setup()).is_empty());
}
