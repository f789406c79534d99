//! DBA3.md §4.6, §13.2: camps in the set-up (compulsory unless a City or more than 2 War
//! Wagons, their size, one defender or camp followers) and camp followers as an element that may
//! leave the camp and never return.

use crate::battle_common;

use battle_common::*;
use dbcore::battle::state::ElementState;
use dbcore::battle::{
    counts_as_loss, validate, Action, Battle, BattleSetup, ElementId, MoveOrder, SetupProblem,
};
use dbcore::battlefield::{Battlefield, Board};
use dbcore::config::RulesConfig;
use dbcore::geometry::{Point, Pose};
use dbcore::terrain::{AreaFeature, AreaKind, TerrainFeature};
use dbcore::ErrorInfo;

/// Two small armies; the south one has a 2 × 1 BW camp on its rear edge. Not a sandbox: the
/// camp checks of §4.6 run.
fn setup(north: Vec<dbcore::battle::ElementSetup>) -> BattleSetup {
    let mut north = north;
    north.push(general(el(101, "Cv", 7.5, 12.0, 180.0)));
    let mut s = sandbox(
        Battlefield::new(Board::default()),
        armies(
            vec![
                general(el(1, "Cv", 7.5, 3.0, 0.0)),
                el(2, "4Bd", 6.5, 3.0, 0.0),
            ],
            north,
        ),
    );
    s.sandbox = false;
    s.armies[0].camp = Some(rect(1.0, 0.0, 3.0, 1.0));
    s
}

fn camp_problems(s: &BattleSetup) -> Vec<SetupProblem> {
    validate(s)
        .into_iter()
        .filter(|p| {
            matches!(
                p,
                SetupProblem::CampMissing { .. }
                    | SetupProblem::CampSize { .. }
                    | SetupProblem::CampOffTable { .. }
                    | SetupProblem::CampDefenders { .. }
            )
        })
        .collect()
}

#[test]
fn s4_6_a_camp_is_compulsory_without_a_city_or_more_than_two_war_wagons() {
    // DBA3.md §4.6: the north army has neither, so its missing camp is a set-up problem.
    let s = setup(Vec::new());
    assert_eq!(
        camp_problems(&s),
        vec![SetupProblem::CampMissing {
            army: "North".into()
        }]
    );
    // With its own camp there is no problem.
    let mut s = setup(Vec::new());
    s.armies[1].camp = Some(rect(12.0, 14.0, 14.0, 15.0));
    assert!(camp_problems(&s).is_empty());
}

#[test]
fn s4_6_more_than_two_war_wagons_or_a_city_make_the_camp_optional() {
    // DBA3.md §4.6: optional with more than 2 WWg; 2 are not enough.
    let wwg = |n: u32| {
        (0..n)
            .map(|i| el(102 + i, "WWg", 4.0 + 1.5 * i as f64, 12.0, 180.0))
            .collect::<Vec<_>>()
    };
    assert!(camp_problems(&setup(wwg(3))).is_empty());
    assert_eq!(camp_problems(&setup(wwg(2))).len(), 1);
    // A City the army owns.
    let mut s = setup(Vec::new());
    s.battlefield
        .features
        .push(TerrainFeature::Area(AreaFeature::rectangle(
            AreaKind::City,
            Point::new(6.0, 9.0),
            Point::new(8.0, 11.0),
        )));
    s.city_owner = Some(1);
    assert!(camp_problems(&s).is_empty());
}

#[test]
fn s4_6_a_set_up_without_any_camp_is_a_scenario_without_camps() {
    // DBA3.md §4.6 (our reading, documented on setup::validate): no army has a camp, so none is
    // asked for, as in the demonstration battle.
    let mut s = setup(Vec::new());
    s.armies[0].camp = None;
    assert!(camp_problems(&s).is_empty());
    assert!(camp_problems(&dbcore::driver::demo_setup()).is_empty());
}

#[test]
fn s4_6_camp_size_and_defenders_are_all_reported_at_once() {
    // DBA3.md §4.6: at least 1 × ½ BW, length + width at most 4 BW, on the table; one troop
    // element or camp followers, never both.
    let mut s = setup(Vec::new());
    s.armies[0].camp = Some(rect(1.0, 0.0, 1.8, 0.4));
    s.armies[1].camp = Some(rect(11.0, 13.5, 14.0, 15.5));
    let p = camp_problems(&s);
    assert!(p
        .iter()
        .any(|p| matches!(p, SetupProblem::CampSize { army, .. } if army == "South")));
    assert!(p
        .iter()
        .any(|p| matches!(p, SetupProblem::CampSize { army, .. } if army == "North")));
    assert!(p
        .iter()
        .any(|p| matches!(p, SetupProblem::CampOffTable { army } if army == "North")));
    // Fixed camp followers and an element inside; then two elements inside.
    let mut s = setup(Vec::new());
    s.armies[1].camp = Some(rect(12.0, 14.0, 14.0, 15.0));
    s.armies[0].camp_followers = true;
    s.armies[0].elements.push(el(3, "4Bd", 2.5, 0.9, 0.0));
    assert_eq!(
        camp_problems(&s),
        vec![SetupProblem::CampDefenders {
            army: "South".into(),
            count: 2
        }]
    );
    s.armies[0].camp_followers = false;
    s.armies[0].elements.push(el(4, "Ps", 1.5, 0.9, 0.0));
    assert!(matches!(
        camp_problems(&s)[..],
        [SetupProblem::CampDefenders { count: 2, .. }]
    ));
    // Battle::new refuses it, naming §4.6.
    let e = Battle::new(s).unwrap_err();
    assert_eq!(e.rule(), Some("§4.6"));
}

/// A sandbox battle with the south camp from (1, 0) to (3, 1) and camp followers (3) at `cf`.
fn cf_battle(cf: Pose) -> Battle {
    let mut s = sandbox(
        Battlefield::new(Board::default()),
        armies(
            vec![
                general(el(1, "Cv", 7.5, 3.0, 0.0)),
                el(2, "4Bd", 6.0, 3.0, 0.0),
                el(3, "CF", cf.x, cf.y, cf.facing),
            ],
            vec![general(el(101, "Cv", 7.5, 12.0, 180.0))],
        ),
    );
    s.armies[0].camp = Some(rect(1.0, 0.0, 3.0, 1.0));
    let mut b = Battle::new(s).unwrap();
    b.apply(Action::RollPips { die: d(6) }).unwrap();
    b
}

fn go(id: u32, to: Pose) -> Action {
    Action::Move {
        order: MoveOrder::Element {
            id: ElementId(id),
            path: vec![to],
        },
    }
}

#[test]
fn s4_6_camp_followers_may_leave_the_camp_but_never_return() {
    // DBA3.md §4.6: a camp-follower element may move out of its camp...
    let depth = RulesConfig::default().depth("CF".parse().unwrap());
    let mut b = cf_battle(Pose::new(2.0, 0.9, 0.0));
    assert!(b.held_strongholds().iter().any(|h| h.army == 0));
    b.apply(go(3, Pose::new(2.0, 1.0 + depth + 0.5, 0.0)))
        .unwrap();
    // ...leaving it undefended.
    assert!(b.held_strongholds().iter().all(|h| h.army != 0));
    // Once out it may not come back, and the refusal changes nothing.
    let mut b = cf_battle(Pose::new(2.0, 1.0 + depth + 0.5, 180.0));
    let before = b.clone();
    let e = b.apply(go(3, Pose::new(2.0, 0.9, 180.0))).unwrap_err();
    assert_eq!(e.rule(), Some("§4.6"));
    assert_eq!(b, before);
    // Up to its wall is not into it.
    assert!(b.apply(go(3, Pose::new(2.0, 1.0, 180.0))).is_ok());
    // Any other element may enter its own camp.
    let mut b = cf_battle(Pose::new(5.0, 3.0, 0.0));
    b.apply(go(2, Pose::new(6.0, 3.0, 180.0))).unwrap();
}

#[test]
fn s13_2_camp_followers_never_count_as_losses() {
    // DBA3.md §13.2: camp followers (and denizens) are not counted in the losses.
    let b = cf_battle(Pose::new(2.0, 0.9, 0.0));
    let cf: &ElementState = b.element(ElementId(3)).unwrap();
    assert!(!counts_as_loss(cf));
    assert!(counts_as_loss(b.element(ElementId(2)).unwrap()));
}

#[test]
fn s4_7_s17_44_a_sacked_camp_is_left_as_terrain() {
    // DBA3.md §4.7, §17.44: an enemy entering the undefended camp sacks it (1 loss, §13.2); the
    // camp is then terrain (our reading of FAQ19's "left as terrain"): nobody holds it any more,
    // so it projects no threat zone.
    let mut s = sandbox(
        Battlefield::new(Board::default()),
        armies(
            vec![general(el(1, "Cv", 7.5, 3.0, 0.0))],
            vec![
                general(el(101, "Cv", 7.5, 12.0, 180.0)),
                el(102, "4Bd", 2.0, 1.05, 180.0),
            ],
        ),
    );
    s.armies[0].camp = Some(rect(1.0, 0.0, 3.0, 1.0));
    s.first = 1;
    let mut b = Battle::new(s).unwrap();
    b.apply(Action::RollPips { die: d(6) }).unwrap();
    let events = b.apply(go(102, Pose::new(2.0, 0.2, 180.0))).unwrap();
    assert!(events
        .iter()
        .any(|e| matches!(e, dbcore::battle::Event::CampSacked { army: 0, .. })));
    assert!(b.held_strongholds().is_empty());
}
